/* util.h - error type, checked allocation, CHECK macros for pthread calls.
 *
 * Ownership: mnw_err is a caller-owned value; functions that fail fill it and
 * return non-zero. Only main() exits.
 * Thread-safety: everything here is reentrant; mnw_xmalloc ends the process
 * (exit status 1, a message for a person) on out-of-memory, which is the one
 * fatal error not reported through mnw_err.
 */
#ifndef MNW_UTIL_H
#define MNW_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>

#define MNW_ERR_MAX 1024

/* An error message, "FILE:LINE: reason" for input errors. */
typedef struct {
    char msg[MNW_ERR_MAX];
} mnw_err;

/* printf-style: sets e->msg (e may be NULL). Always returns -1. The text
 * is fitted as mnw_fit_text does (a long path is shortened in its middle,
 * the reason stays whole); an argument may be e->msg itself. */
int mnw_err_set(mnw_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* printf-style: appends to e->msg (e may be NULL), fitting the whole as
 * mnw_err_set does. Always returns -1. */
int mnw_err_add(mnw_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Text of len bytes (src[0, len), need not be NUL-ended) into dst, n >= 64
 * bytes, NUL-ended; returns the length written. When it is longer than
 * n - 1, the longest words (runs of bytes without a blank: paths) are
 * shortened in their middle to one length, each to at least 40 bytes, and
 * marked "..." ("/data/run/pre...end/of/the/file.fa:12:"), keeping a third
 * of the kept bytes before the cut and two thirds after it (the file name);
 * only if that is not enough, the text is cut in its middle too. So a
 * message's end (its reason) always survives. A cut never splits a UTF-8
 * character. dst and src must not overlap. Reentrant. */
size_t mnw_fit_text(char *dst, size_t n, const char *src, size_t len);
/* vsnprintf into buf (n >= 64 bytes), fitted by mnw_fit_text; an argument
 * may be buf itself. Returns buf. Reentrant. */
char *mnw_vfmt_fit(char *buf, size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
char *mnw_fmt_fit(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define MNW_ALLOC __attribute__((returns_nonnull, warn_unused_result))
/* On every function that reports a failure through an mnw_err (its return
 * value says whether it did): the compiler refuses a call that drops it.
 * Where a failure is already being handled and a second one has nothing to
 * add (closing after an error), the call says so with MNW_IGNORE. */
#define MNW_MUST_CHECK __attribute__((warn_unused_result))
#define MNW_IGNORE(call)                                                      \
    do {                                                                      \
        if (call) { /* a failure during another one's cleanup: the first is reported */ \
        }                                                                     \
    } while (0)
void *mnw_xmalloc_at(size_t n, const char *file, int line) MNW_ALLOC __attribute__((malloc));
void *mnw_xcalloc_at(size_t n, size_t sz, const char *file, int line) MNW_ALLOC __attribute__((malloc));
void *mnw_xrealloc_at(void *p, size_t n, const char *file, int line) MNW_ALLOC;
char *mnw_xstrdup_at(const char *s, const char *file, int line) MNW_ALLOC __attribute__((malloc));
#define mnw_xmalloc(n) mnw_xmalloc_at((n), __FILE__, __LINE__)
#define mnw_xcalloc(n, s) mnw_xcalloc_at((n), (s), __FILE__, __LINE__)
#define mnw_xrealloc(p, n) mnw_xrealloc_at((p), (n), __FILE__, __LINE__)
#define mnw_xstrdup(s) mnw_xstrdup_at((s), __FILE__, __LINE__)

/* Out of memory (n bytes asked for at file:line): one message for a person
 * (what happened, the address-space limit when one is set, what to do: more
 * memory or fewer threads, then resume or start again, as
 * mnw_oom_set_state says; the source place last, for a bug report) and exit
 * status 1 at once; for allocations that do not go through mnw_xmalloc.
 * Async-signal-safe apart from its caller's state. */
void mnw_oom(size_t n, const char *file, int line) __attribute__((noreturn));

/* What the out-of-memory messages (mnw_oom, mnw_err_thread) tell a person to
 * do next: MNW_OOM_AGAIN (the default: run the command again), MNW_OOM_START
 * (a run before its first bookmark: start it again, with --force if OUTDIR
 * was created), MNW_OOM_RESUME (the run in outdir has a bookmark: mnw
 * --resume OUTDIR), MNW_OOM_RANK (another rank than 0: rank 0 keeps the
 * bookmark). outdir is copied (may be NULL). Called by main's thread,
 * before the threads that may fail start, or between runs. */
enum { MNW_OOM_AGAIN = 0, MNW_OOM_START = 1, MNW_OOM_RESUME = 2, MNW_OOM_RANK = 3 };
void mnw_oom_set_state(int state, const char *outdir);

/* A thread could not start (rc: pthread_create's error number; what names
 * the thread, "the trace-back thread"): EAGAIN is said as out of memory
 * (no room for its stack, or the limit of processes, ulimit -u), with the
 * advice of mnw_oom; other errors as they are. Always returns -1. */
int mnw_err_thread(mnw_err *e, const char *what, int rc);

/* n bytes aligned to `align` (a power of 2; n is rounded up to a multiple
 * of it, as aligned_alloc wants), or the out-of-memory exit naming
 * file:line. Freed with free(). */
void *mnw_xaligned_at(size_t align, size_t n, const char *file, int line) MNW_ALLOC __attribute__((malloc));
#define mnw_xaligned(a, n) mnw_xaligned_at((a), (n), __FILE__, __LINE__)

/* This host's name in buf (n bytes, NUL-terminated): the full name, or up
 * to its first dot when short_name; "?" when the system does not say.
 * Returns buf. Reentrant. */
char *mnw_hostname(char *buf, size_t n, int short_name);

/* Fatal: prints "mnw: FILE:LINE: what: strerror(rc)" and aborts. For calls
 * whose failure means a broken invariant (pthread_mutex_lock, ...). */
void mnw_die_rc(const char *file, int line, const char *what, int rc)
    __attribute__((noreturn));

/* CHECK_PT(pthread_call(...)): pthread functions return an error number. */
#define CHECK_PT(call)                                                        \
    do {                                                                      \
        int mnw_rc_ = (call);                                                 \
        if (mnw_rc_ != 0) mnw_die_rc(__FILE__, __LINE__, #call, mnw_rc_);     \
    } while (0)

/* Monotonic seconds. */
double mnw_now(void);
/* The calling thread's CPU seconds (user and system): a thread's own cost,
 * which preemption does not inflate. */
double mnw_thread_cpu_s(void);

#endif
