/* util.c - see util.h. */
#define _POSIX_C_SOURCE 200809L
#include "lib/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* ---- messages that fit ---- */

#define FIT_MIN_WORD 40 /* a shortened word keeps at least this many bytes, "..." included */
#define FIT_MAX_WORDS 64 /* words looked at for shortening: the longest ones */
#define FIT_STACK 8192 /* a message up to this long is formatted without malloc */

static int is_gap(unsigned char c) { return c == ' ' || c == '\t' || c == '\n'; }
static int is_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

typedef struct {
    size_t at, len;   /* the word src[at, at + len) */
    size_t head, tail; /* after fitting: bytes kept before and after "..." (head + tail == len: not cut) */
} fit_word;

/* Copies src[0, len) into dst[0, n - 1) keeping its start and its end, with
 * "..." between them; returns the bytes written. */
static size_t cut_middle(char *dst, size_t n, const char *src, size_t len)
{
    size_t keep = n - 1 - 3, head = keep / 3, start;
    while (head > 0 && is_cont((unsigned char)src[head])) head--;
    start = len - (keep - head);
    while (start < len && is_cont((unsigned char)src[start])) start++;
    memcpy(dst, src, head);
    memcpy(dst + head, "...", 3);
    memcpy(dst + head + 3, src + start, len - start);
    dst[head + 3 + len - start] = 0;
    return head + 3 + len - start;
}

size_t mnw_fit_text(char *dst, size_t n, const char *src, size_t len)
{
    if (n == 0) return 0;
    if (len < n) {
        memcpy(dst, src, len);
        dst[len] = 0;
        return len;
    }
    if (n < 64) { /* too small to shorten words: the end only */
        size_t start = len - (n - 1);
        while (start < len && is_cont((unsigned char)src[start])) start++;
        memcpy(dst, src + start, len - start);
        dst[len - start] = 0;
        return len - start;
    }
    /* the longest words, by length (a short list kept sorted, longest first) */
    fit_word w[FIT_MAX_WORDS];
    size_t nw = 0;
    for (size_t i = 0; i < len;) {
        if (is_gap((unsigned char)src[i])) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < len && !is_gap((unsigned char)src[j])) j++;
        size_t wl = j - i;
        if (wl > FIT_MIN_WORD && (nw < FIT_MAX_WORDS || wl > w[nw - 1].len)) {
            size_t k = nw < FIT_MAX_WORDS ? nw++ : nw - 1;
            while (k > 0 && w[k - 1].len < wl) {
                w[k] = w[k - 1];
                k--;
            }
            w[k] = (fit_word){i, wl, wl, 0};
        }
        i = j;
    }
    /* the largest length T >= FIT_MIN_WORD such that cutting every longer word
     * to T bytes ("..." included) saves enough: saved(T) = sum (len - T) */
    const size_t excess = len - (n - 1);
    size_t lo = FIT_MIN_WORD, hi = nw ? w[0].len : FIT_MIN_WORD;
    size_t saved_lo = 0;
    for (size_t k = 0; k < nw; k++) saved_lo += w[k].len - FIT_MIN_WORD;
    size_t T = FIT_MIN_WORD;
    if (saved_lo >= excess) {
        while (lo < hi) { /* invariant: saved(lo) >= excess */
            size_t mid = lo + (hi - lo + 1) / 2, sv = 0;
            for (size_t k = 0; k < nw && w[k].len > mid; k++) sv += w[k].len - mid;
            if (sv >= excess) lo = mid;
            else hi = mid - 1;
        }
        T = lo;
    }
    size_t out_len = len;
    for (size_t k = 0; k < nw && w[k].len > T; k++) {
        size_t keep = T - 3, head = keep / 3, start;
        const char *p = src + w[k].at;
        while (head > 0 && is_cont((unsigned char)p[head])) head--;
        start = w[k].len - (keep - head);
        while (start < w[k].len && is_cont((unsigned char)p[start])) start++;
        w[k].head = head;
        w[k].tail = w[k].len - start;
        out_len -= w[k].len - (head + 3 + w[k].tail);
    }
    /* assemble in text order (the words by position) */
    char *tmp = NULL;
    char *out = dst;
    if (out_len >= n) { /* still too long: build whole, then cut the middle */
        tmp = malloc(out_len + 1);
        if (!tmp) return cut_middle(dst, n, src, len);
        out = tmp;
    }
    size_t o = 0, at = 0;
    for (;;) {
        const fit_word *next = NULL;
        for (size_t k = 0; k < nw; k++)
            if (w[k].head + w[k].tail < w[k].len && w[k].at >= at && (!next || w[k].at < next->at)) next = &w[k];
        size_t upto = next ? next->at : len;
        memcpy(out + o, src + at, upto - at);
        o += upto - at;
        if (!next) break;
        memcpy(out + o, src + next->at, next->head);
        o += next->head;
        memcpy(out + o, "...", 3);
        o += 3;
        memcpy(out + o, src + next->at + next->len - next->tail, next->tail);
        o += next->tail;
        at = next->at + next->len;
    }
    out[o] = 0;
    if (!tmp) return o;
    size_t r = cut_middle(dst, n, tmp, o);
    free(tmp);
    return r;
}

char *mnw_vfmt_fit(char *buf, size_t n, const char *fmt, va_list ap)
{
    char stack[FIT_STACK];
    va_list ap2;
    va_copy(ap2, ap);
    int len = vsnprintf(stack, sizeof stack, fmt, ap);
    if (len < 0) {
        va_end(ap2);
        snprintf(buf, n, "(a message that could not be formatted: %s)", fmt);
        return buf;
    }
    if ((size_t)len < sizeof stack) {
        va_end(ap2);
        mnw_fit_text(buf, n, stack, (size_t)len);
        return buf;
    }
    char *big = malloc((size_t)len + 1);
    if (big) vsnprintf(big, (size_t)len + 1, fmt, ap2);
    va_end(ap2);
    if (big) {
        mnw_fit_text(buf, n, big, (size_t)len);
        free(big);
    } else { /* no memory for the whole text: its first bytes, marked */
        mnw_fit_text(buf, n, stack, sizeof stack - 1);
    }
    return buf;
}

char *mnw_fmt_fit(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mnw_vfmt_fit(buf, n, fmt, ap);
    va_end(ap);
    return buf;
}

int mnw_err_set(mnw_err *e, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        mnw_vfmt_fit(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int mnw_err_add(mnw_err *e, const char *fmt, ...)
{
    if (e) {
        char more[FIT_STACK];
        va_list ap;
        va_start(ap, fmt);
        mnw_vfmt_fit(more, sizeof more, fmt, ap);
        va_end(ap);
        mnw_err_set(e, "%s%s", e->msg, more);
    }
    return -1;
}

/* ---- out of memory ---- */

static _Atomic int oom_state; /* MNW_OOM_* */
static char oom_outdir[1024];  /* shortened to fit (mnw_fit_text) */

void mnw_oom_set_state(int state, const char *outdir)
{
    if (outdir) mnw_fit_text(oom_outdir, sizeof oom_outdir, outdir, strlen(outdir));
    else oom_outdir[0] = 0;
    oom_state = state;
}

/* v with thousands separators into buf (32 bytes). */
static const char *grouped(unsigned long long v, char *buf)
{
    char d[24];
    int nd = snprintf(d, sizeof d, "%llu", v), k = 0;
    for (int i = 0; i < nd; i++) {
        if (i && (nd - i) % 3 == 0) buf[k++] = ',';
        buf[k++] = d[i];
    }
    buf[k] = 0;
    return buf;
}

/* "; this process may use at most N MiB of address space (ulimit -v K)",
 * or "" when no such limit is set. */
static const char *as_limit(char *buf, size_t n)
{
    struct rlimit rl;
    buf[0] = 0;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        snprintf(buf, n, "; this process may use at most %.1f MiB of address space (ulimit -v %llu)",
                 (double)rl.rlim_cur / 1048576.0, (unsigned long long)(rl.rlim_cur / 1024));
    }
    return buf;
}

/* What to do, as the run stands: "Give mnw more memory ...; then ...". */
static const char *oom_advice(char *buf, size_t n)
{
    const int st = oom_state;
    const char *then = st == MNW_OOM_RESUME ? "then continue the run with: mnw --resume "
                       : st == MNW_OOM_RANK ? "then continue the job with mnw --resume OUTDIR (rank 0 keeps its "
                                              "bookmark)"
                       : st == MNW_OOM_START ? "then start it again (no bookmark was written yet; add --force if the "
                                               "output directory was created)"
                                             : "then run the command again";
    snprintf(buf, n,
             "What to do: give mnw more memory (raise ulimit -v, or ask the batch system for more), or use fewer "
             "--threads, a smaller --worklist-size or --prefetch; %s%s%s",
             then, st == MNW_OOM_RESUME ? (oom_outdir[0] ? oom_outdir : "OUTDIR") : "",
             st == MNW_OOM_RESUME ? " (its last bookmark stays valid)" : "");
    return buf;
}

/* Out of memory: one message for a person, then exit status 1 at once
 * (_exit: no half-written stdio buffer reaches an output; the bookmark on
 * disk describes what was synced, so the run resumes from it). No malloc:
 * the message is built on the stack. The source place is kept at the end
 * for a bug report. */
void mnw_oom(size_t n, const char *file, int line)
{
    char msg[3072], lim[160], adv[1600], g[32];
    int len = snprintf(msg, sizeof msg,
                       "mnw: out of memory: could not get %s more bytes (%.1f MiB)%s. %s. (Where: %s:%d, for a bug "
                       "report.)\n",
                       grouped((unsigned long long)n, g), (double)n / 1048576.0, as_limit(lim, sizeof lim),
                       oom_advice(adv, sizeof adv), file, line);
    if (len > 0) (void)!write(2, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
    _exit(1);
}

int mnw_err_thread(mnw_err *e, const char *what, int rc)
{
    if (rc != EAGAIN) return mnw_err_set(e, "cannot start %s: %s", what, strerror(rc));
    char lim[160], adv[1600];
    return mnw_err_set(e, "out of memory: cannot start %s (pthread_create: EAGAIN, no memory for its stack, or the "
                          "limit of processes, ulimit -u, reached)%s. %s",
                       what, as_limit(lim, sizeof lim), oom_advice(adv, sizeof adv));
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

double mnw_thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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
