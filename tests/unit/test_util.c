/* test_util.c - lib/util.c's messages (issue 38): a message longer than its
 * buffer keeps its reason whole.
 *   - mnw_fit_text: a text that fits is copied as it is; one path of 1,219
 *     and of 4,300 bytes before a reason is shortened in its middle to fit
 *     exactly, "..." marking the cut, a third of the kept bytes before it and
 *     the file name after it, the reason whole; two long paths are shortened
 *     to one length; short words are never cut; a text of short words only
 *     is cut in its middle, its end kept; a cut never splits a UTF-8
 *     character; a buffer under 64 bytes keeps the end;
 *   - mnw_err_set: over MNW_ERR_MAX, with e->msg as its own argument;
 *     mnw_err_add appends and fits the whole;
 *   - mnw_vfmt_fit past its stack buffer (a 20,000-byte path);
 *   - mnw_err_thread: EAGAIN is said as out of memory with what to do (the
 *     state of mnw_oom_set_state: run again, start again, or mnw --resume
 *     OUTDIR), other
 *     errors as they are. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tests/tap.h"

static int ends_with(const char *s, const char *end)
{
    size_t a = strlen(s), b = strlen(end);
    return a >= b && !memcmp(s + a - b, end, b);
}

static int starts_with(const char *s, const char *start) { return !strncmp(s, start, strlen(start)); }

/* a path of len bytes: /dir000/dir001/.../xx/NAME */
static char *long_path(size_t len, const char *name)
{
    char *p = malloc(len + 64);
    size_t n = 0;
    for (int k = 0; n + 16 + strlen(name) < len; k++) n += (size_t)sprintf(p + n, "/dir%03d", k % 1000);
    p[n++] = '/';
    while (n + 1 + strlen(name) < len) p[n++] = 'x';
    sprintf(p + n, "/%s", name);
    return p;
}

/* the UTF-8 of s is whole: every lead byte has its continuation bytes */
static int utf8_whole(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0) return 0;
        p++;
        for (int k = 0; k < n; k++, p++)
            if ((*p & 0xC0) != 0x80) return 0;
    }
    return 1;
}

static void fit_cases(void)
{
    char out[1024], big[12000];
    size_t n = mnw_fit_text(out, sizeof out, "a.fa: cannot open: No such file or directory", 44);
    T_OK(n == 44 && !strcmp(out, "a.fa: cannot open: No such file or directory"), "a text that fits is copied");

    const char *reasons[] = {"cannot open: No such file or directory", "cannot open: File name too long"};
    const size_t lens[] = {1219, 4300};
    for (int k = 0; k < 2; k++) {
        char *p = long_path(lens[k], "seqs.fa");
        int len = snprintf(big, sizeof big, "%s: %s", p, reasons[k]);
        n = mnw_fit_text(out, sizeof out, big, (size_t)len);
        const char *cut = strstr(out, "...");
        T_OK(n == sizeof out - 1 && strlen(out) == n && ends_with(out, reasons[k]) && cut &&
                 strstr(out, "/seqs.fa: cannot open") &&
                 !strncmp(out, p, (size_t)(cut - out)),
             "a %zu-byte path: shortened in its middle to 1,023 bytes, its start, its file name and the reason whole "
             "(%.40s ... %s)",
             strlen(p), out, out + n - 60);
        size_t head = (size_t)(cut - out), tail = n - head - 3 - strlen(reasons[k]) - 1;
        T_OK(head > 250 && tail > 2 * head - 8 && tail < 2 * head + 8,
             "%zu-byte path: a third before the cut (%zu bytes), two thirds after it (%zu)", strlen(p), head, tail);
        free(p);
    }

    char *p1 = long_path(3000, "one.fa"), *p2 = long_path(2000, "two.fa");
    int len = snprintf(big, sizeof big, "%s and %s differ: the shard sets do not match", p1, p2);
    n = mnw_fit_text(out, sizeof out, big, (size_t)len);
    const char *and = strstr(out, " and "), *differ = strstr(out, " differ");
    size_t l1 = and ? (size_t)(and - out) : 0, l2 = and && differ ? (size_t)(differ - and - 5) : 0;
    T_OK(n == sizeof out - 1 && and && differ && ends_with(out, " differ: the shard sets do not match") &&
             l1 + 2 >= l2 && l2 + 2 >= l1 && strstr(out, "/one.fa and") && strstr(out, "/two.fa differ"),
         "two long paths: both shortened to one length (%zu and %zu bytes), the reason whole", l1, l2);
    free(p1);
    free(p2);

    /* short words only: the middle is cut, the end kept */
    size_t m = 0;
    while (m < 3000) m += (size_t)sprintf(big + m, "word%zu ", m % 97);
    m += (size_t)sprintf(big + m, "the reason at the end");
    n = mnw_fit_text(out, sizeof out, big, m);
    T_OK(n == sizeof out - 1 && ends_with(out, "the reason at the end") && strstr(out, "...") &&
             !strncmp(out, big, 100),
         "short words only: cut in the middle, the start and the end whole");

    /* a word just over the cap beside short words: only it is shortened */
    char *p = long_path(1100, "x.fa");
    len = snprintf(big, sizeof big, "stopped by SIGTERM while reading the input (%s:12: line 12), nothing was written", p);
    n = mnw_fit_text(out, sizeof out, big, (size_t)len);
    T_OK(n == sizeof out - 1 && starts_with(out, "stopped by SIGTERM while reading the input (/dir000") &&
             ends_with(out, "/x.fa:12: line 12), nothing was written"),
         "the words around a shortened path stay whole");
    free(p);

    /* UTF-8: a path of 2-byte letters (é), cut at every offset parity */
    for (int shift = 0; shift < 2; shift++) {
        size_t b = 0;
        if (shift) big[b++] = '/';
        while (b < 3000) {
            memcpy(big + b, "/\xC3\xA9\xC3\xA9\xC3\xA9", 7);
            b += 7;
        }
        b += (size_t)sprintf(big + b, ": File name too long");
        n = mnw_fit_text(out, sizeof out, big, b);
        T_OK(n < sizeof out && utf8_whole(out) && ends_with(out, ": File name too long"),
             "a path of 2-byte UTF-8 letters (start shifted by %d): no letter split by the cut", shift);
        n = mnw_fit_text(out, 200, big, b);
        T_OK(n < 200 && utf8_whole(out) && ends_with(out, ": File name too long"),
             "the same into 200 bytes: whole letters, the reason whole");
    }

    n = mnw_fit_text(out, 20, "0123456789abcdefghijklmnopqrstuvwxyz", 36);
    T_OK(n == 19 && !strcmp(out, "hijklmnopqrstuvwxyz"), "a buffer under 64 bytes keeps the end (%s)", out);
}

static void err_cases(void)
{
    mnw_err e;
    char *p = long_path(1219, "in.fa");
    mnw_err_set(&e, "%s: cannot open: %s", p, strerror(ENOENT));
    T_OK(strlen(e.msg) == MNW_ERR_MAX - 1 && ends_with(e.msg, "/in.fa: cannot open: No such file or directory"),
         "mnw_err_set: a 1,219-byte path, the reason whole");
    mnw_err_set(&e, "stopped (%s); start it again", e.msg);
    T_OK(starts_with(e.msg, "stopped (/dir000") && ends_with(e.msg, "No such file or directory); start it again"),
         "mnw_err_set with e->msg as its own argument");
    mnw_err_set(&e, "%s: output directory is not empty", p);
    mnw_err_add(&e, "; it holds a run (mnw.bookmark): continue it with mnw --resume %s", p);
    T_OK(strlen(e.msg) == MNW_ERR_MAX - 1 && strstr(e.msg, "/in.fa: output directory is not empty; it holds a run") &&
             ends_with(e.msg, "/in.fa"),
         "mnw_err_add: appended, both paths shortened, the text between them whole");
    free(p);
    mnw_err_set(&e, "short");
    mnw_err_add(&e, " and %d more", 2);
    T_OK(!strcmp(e.msg, "short and 2 more"), "mnw_err_add: a short message as it is");
    T_OK(mnw_err_set(NULL, "x") == -1 && mnw_err_add(NULL, "y") == -1, "NULL e: nothing, -1");

    char *huge = long_path(20000, "h.fa");
    char buf[512];
    mnw_fmt_fit(buf, sizeof buf, "%s: %s", huge, "read error: Input/output error");
    T_OK(strlen(buf) == sizeof buf - 1 && ends_with(buf, "/h.fa: read error: Input/output error"),
         "mnw_fmt_fit: a 20,000-byte path (past the stack buffer)");
    free(huge);

    mnw_err_thread(&e, "a thread", EAGAIN);
    T_OK(ends_with(e.msg, "then run the command again"), "mnw_err_thread EAGAIN, no run: run the command again");
    mnw_oom_set_state(MNW_OOM_START, NULL);
    mnw_err_thread(&e, "the trace-back thread", EAGAIN);
    T_OK(starts_with(e.msg, "out of memory: cannot start the trace-back thread (pthread_create: EAGAIN") &&
             strstr(e.msg, "fewer --threads") && strstr(e.msg, "start it again"),
         "mnw_err_thread EAGAIN before a bookmark: %s", e.msg);
    mnw_oom_set_state(MNW_OOM_RESUME, "/runs/r1");
    mnw_err_thread(&e, "CPU worker 3", EAGAIN);
    T_OK(starts_with(e.msg, "out of memory: cannot start CPU worker 3") &&
             strstr(e.msg, "mnw --resume /runs/r1 (its last bookmark stays valid)"),
         "mnw_err_thread EAGAIN with a bookmark: mnw --resume OUTDIR");
    mnw_err_thread(&e, "the GPU thread", EPERM);
    T_OK(!strcmp(e.msg, "cannot start the GPU thread: Operation not permitted"), "another error as it is: %s", e.msg);
    mnw_oom_set_state(MNW_OOM_AGAIN, NULL);
}

int main(void)
{
    fit_cases();
    err_cases();
    return t_exit();
}
