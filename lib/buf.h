/* buf.h - a growable byte buffer (gzip members of one: gzmember.h).
 * Ownership: a buffer owns its bytes (mnw_buf_free). Thread-safety: one
 * buffer per thread; functions are reentrant. */
#ifndef MNW_BUF_H
#define MNW_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *p;
    size_t len, cap;
} mnw_buf;

void mnw_buf_init(mnw_buf *b);
void mnw_buf_free(mnw_buf *b);
void mnw_buf_reserve(mnw_buf *b, size_t extra);
void mnw_buf_put(mnw_buf *b, const void *data, size_t n);
static inline void mnw_buf_putc(mnw_buf *b, char c)
{
    if (b->len + 1 > b->cap) mnw_buf_reserve(b, 1);
    b->p[b->len++] = c;
}
void mnw_buf_puts(mnw_buf *b, const char *s);
void mnw_buf_put_u64(mnw_buf *b, uint64_t v);
void mnw_buf_put_i64(mnw_buf *b, int64_t v);

/* printf-style for one double (fmt such as "%g"); for the bookmark and
 * progress files. The outputs write numbers with fmtnum.h (no printf). */
void mnw_buf_put_double(mnw_buf *b, const char *fmt, double v);
/* printf-style, any length (for text that is not an output: the report). */
void mnw_buf_printf(mnw_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
