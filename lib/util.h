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

#define MNW_ERR_MAX 1024

/* An error message, "FILE:LINE: reason" for input errors. */
typedef struct {
    char msg[MNW_ERR_MAX];
} mnw_err;

/* printf-style: sets e->msg (e may be NULL). Always returns -1. */
int mnw_err_set(mnw_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

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

/* Out of memory (n bytes asked for at file:line): the message of util.c
 * and exit status 1 at once; for allocations that do not go through
 * mnw_xmalloc. */
void mnw_oom(size_t n, const char *file, int line) __attribute__((noreturn));

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

#endif
