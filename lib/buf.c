/* buf.c - see buf.h. */
#include "lib/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#include "lib/fmtnum.h"
#include "lib/util.h"

void mnw_buf_init(mnw_buf *b) { memset(b, 0, sizeof *b); }

void mnw_buf_free(mnw_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

void mnw_buf_reserve(mnw_buf *b, size_t extra)
{
    if (b->len + extra <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra) cap *= 2;
    b->p = mnw_xrealloc(b->p, cap);
    b->cap = cap;
}

void mnw_buf_put(mnw_buf *b, const void *data, size_t n)
{
    if (n == 0) return; /* b->p may still be NULL: no memcpy to it */
    mnw_buf_reserve(b, n);
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

void mnw_buf_puts(mnw_buf *b, const char *s) { mnw_buf_put(b, s, strlen(s)); }

void mnw_buf_put_u64(mnw_buf *b, uint64_t v)
{
    mnw_buf_reserve(b, MNW_FMT_INT_MAX);
    b->len += mnw_fmt_u64(b->p + b->len, v);
}

void mnw_buf_put_i64(mnw_buf *b, int64_t v)
{
    mnw_buf_reserve(b, MNW_FMT_INT_MAX);
    b->len += mnw_fmt_i64(b->p + b->len, v);
}

void mnw_buf_put_double(mnw_buf *b, const char *fmt, double v)
{
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        mnw_buf_put(b, tmp, (size_t)n);
        return;
    }
    char *big = mnw_xmalloc((size_t)n + 1); /* e.g. %.3f of 1e300 */
    snprintf(big, (size_t)n + 1, fmt, v);
    mnw_buf_put(b, big, (size_t)n);
    free(big);
}

void mnw_buf_printf(mnw_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0) return;
    mnw_buf_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}
