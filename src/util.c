/* util.c - see util.h. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <stdarg.h>
#include <time.h>

int mnw_err_set(mnw_err *e, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void oom(size_t n, const char *file, int line)
{
    fprintf(stderr, "mnw: %s:%d: out of memory allocating %zu bytes\n", file, line, n);
    abort();
}

void *mnw_xmalloc_at(size_t n, const char *file, int line)
{
    void *p = malloc(n ? n : 1);
    if (!p) oom(n, file, line);
    return p;
}

void *mnw_xcalloc_at(size_t n, size_t sz, const char *file, int line)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) oom(n * sz, file, line);
    return p;
}

void *mnw_xrealloc_at(void *p, size_t n, const char *file, int line)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) oom(n, file, line);
    return q;
}

char *mnw_xstrdup_at(const char *s, const char *file, int line)
{
    size_t n = strlen(s) + 1;
    char *p = mnw_xmalloc_at(n, file, line);
    memcpy(p, s, n);
    return p;
}

void mnw_die_rc(const char *file, int line, const char *what, int rc)
{
    fprintf(stderr, "mnw: %s:%d: %s failed: %s\n", file, line, what, strerror(rc));
    abort();
}

double mnw_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
