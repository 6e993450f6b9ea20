/* fuzz_util.h - helpers shared by the libFuzzer targets of tests/fuzz
 * (fuzz_fasta.c, fuzz_config.c, fuzz_bookmark.c; tests/fuzz/README.md).
 *
 * The readers under test take a path, so each input goes into an anonymous
 * in-memory file (memfd) that the reader opens by its /proc/self/fd path:
 * no disk traffic, no file left behind. fz_check() is the target's
 * assertion: a property that does not hold prints the message and aborts,
 * which libFuzzer records as a crash with the input that caused it.
 *
 * Ownership: a fz_file owns its descriptor (fz_file_close). Thread-safety:
 * none needed (libFuzzer calls a target from one thread).
 */
#ifndef MNW_FUZZ_UTIL_H
#define MNW_FUZZ_UTIL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
    int fd;
    char path[64]; /* /proc/self/fd/N */
} fz_file;

/* A fresh in-memory file holding data[0, n). Aborts if memfd fails (the
 * harness, not the reader, would be broken). */
static inline void fz_file_open(fz_file *f, const void *data, size_t n)
{
    f->fd = memfd_create("mnw-fuzz", MFD_CLOEXEC);
    if (f->fd < 0) {
        perror("memfd_create");
        abort();
    }
    const char *p = data;
    for (size_t off = 0; off < n;) {
        ssize_t w = write(f->fd, p + off, n - off);
        if (w <= 0) {
            perror("write to memfd");
            abort();
        }
        off += (size_t)w;
    }
    snprintf(f->path, sizeof f->path, "/proc/self/fd/%d", f->fd);
}

static inline void fz_file_close(fz_file *f)
{
    close(f->fd);
    f->fd = -1;
}

/* The property `ok` must hold; otherwise report it and abort (a crash). */
__attribute__((format(printf, 2, 3))) static inline void fz_check(int ok, const char *fmt, ...)
{
    if (ok) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz property failed: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* 1 if the error message names `path` at its start ("PATH:..." or "PATH: ..."). */
static inline int fz_names_path(const char *msg, const char *path)
{
    size_t n = strlen(path);
    return strncmp(msg, path, n) == 0 && msg[n] == ':';
}

#endif
