/* tap.h - minimal test output for C unit tests: one "ok - ..." or
 * "not ok - ..." line per check; tests/run.sh counts them. A test program
 * returns t_exit(): non-zero if any check failed. Single-threaded use. */
#ifndef MNW_TAP_H
#define MNW_TAP_H
#include <stdio.h>

static int t_failed_ = 0, t_count_ = 0;

#define T_OK(cond, ...)                                                       \
    do {                                                                      \
        t_count_++;                                                           \
        if (cond) {                                                           \
            printf("ok - ");                                                  \
        } else {                                                              \
            t_failed_++;                                                      \
            printf("not ok - %s:%d: ", __FILE__, __LINE__);                   \
        }                                                                     \
        printf(__VA_ARGS__);                                                  \
        printf("\n");                                                         \
        fflush(stdout);                                                       \
    } while (0)

/* T_MUST(call, e): a setup call that must succeed for the checks after it
 * to mean anything (it returns 0, or non-zero with the mnw_err e set): no
 * line when it does, one failed check naming the call and e's message when
 * it does not. */
#define T_MUST(call, e)                                                       \
    do {                                                                      \
        if ((call) != 0) T_OK(0, "%s: %s", #call, (e).msg);                   \
    } while (0)

static inline int t_exit(void) { return t_failed_ ? 1 : 0; }
#endif
