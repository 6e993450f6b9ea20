/* util.c - see util.h. */
#define _POSIX_C_SOURCE 200809L
#include "lib/util.h"

#include <stdarg.h>
#include <unistd.h>
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

/* Out of memory: one message for a person, then exit status 1 at once
 * (_exit: no half-written stdio buffer reaches an output; the bookmark on
 * disk describes what was synced, so the run resumes from it). The source
 * place is kept at the end for a bug report. */
void mnw_oom(size_t n, const char *file, int line)
{
    char msg[512];
    int len = snprintf(msg, sizeof msg,
                       "mnw: out of memory: could not get %zu more bytes; the last bookmark stays valid. Give mnw "
                       "more memory (or use fewer --threads, a smaller --worklist-size or --prefetch) and continue "
                       "with mnw --resume OUTDIR, or start again if no bookmark was written [%s:%d]\n",
                       n, file, line);
    if (len > 0) (void)!write(2, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
    _exit(1);
}

void *mnw_xmalloc_at(size_t n, const char *file, int line)
{
    void *p = malloc(n ? n : 1);
    if (!p) mnw_oom(n, file, line);
    return p;
}

void *mnw_xcalloc_at(size_t n, size_t sz, const char *file, int line)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) mnw_oom(n * sz, file, line);
    return p;
}

void *mnw_xrealloc_at(void *p, size_t n, const char *file, int line)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) mnw_oom(n, file, line);
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

void *mnw_xaligned_at(size_t align, size_t n, const char *file, int line)
{
    size_t sz = (n + align - 1) & ~(align - 1);
    void *p = aligned_alloc(align, sz ? sz : align);
    if (!p) mnw_oom(sz, file, line);
    return p;
}

char *mnw_hostname(char *buf, size_t n, int short_name)
{
    if (!n) return buf;
    if (gethostname(buf, n) != 0) snprintf(buf, n, "?");
    buf[n - 1] = '\0';
    char *dot = short_name ? strchr(buf, '.') : NULL;
    if (dot) *dot = '\0';
    return buf;
}
