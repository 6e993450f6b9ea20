/* runfile.c - see runfile.h. */
#include "lib/runfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/regfile.h"

int mnw_runfile_present(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0) return 1;
    return !(errno == ENOENT || errno == ENOTDIR);
}

int mnw_runfile_why(const char *path, int er, mnw_err *e)
{
    struct stat st;
    if (er == ELOOP)
        mnw_err_set(e, "%s: a symbolic link loop (too many levels of symbolic links): cannot be read", path);
    else if (er == ENOENT && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        mnw_err_set(e, "%s: a dangling symbolic link (it leads to nothing): cannot be read", path);
    else
        mnw_err_set(e, "%s: %s", path, strerror(er));
    errno = er;
    return -1;
}

int mnw_runfile_open(const char *path, mnw_err *e)
{
    struct stat st;
    int fd = mnw_open_regular(path, O_RDONLY, 0, &st, e);
    if (fd == -1) return mnw_runfile_why(path, errno, e);
    if (fd < 0) {
        errno = EINVAL;
        return -1;
    }
    return fd;
}

int mnw_runfile_check(const char *path, mnw_err *e)
{
    int fd = mnw_runfile_open(path, e);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

FILE *mnw_runfile_fopen(const char *path, mnw_err *e)
{
    int fd = mnw_runfile_open(path, e);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        int er = errno;
        close(fd);
        mnw_err_set(e, "%s: %s", path, strerror(er));
        errno = er;
    }
    return f;
}

int mnw_runfile_slurp(const char *path, size_t max, mnw_buf *b, mnw_err *e)
{
    int fd = mnw_runfile_open(path, e);
    if (fd < 0) return -1;
    size_t start = b->len;
    for (;;) {
        mnw_buf_reserve(b, 65536);
        ssize_t r = read(fd, b->p + b->len, b->cap - b->len);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int er = errno;
            close(fd);
            return mnw_err_set(e, "%s: read error: %s", path, strerror(er));
        }
        if (r == 0) break;
        b->len += (size_t)r;
        if (b->len - start > max) {
            close(fd);
            return mnw_err_set(e, "%s: larger than %zu bytes", path, max);
        }
    }
    close(fd);
    return 0;
}

int mnw_runfile_dir(const char *path, mnw_err *e)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        int er = errno;
        if (!mnw_runfile_present(path)) return 0;
        return mnw_runfile_why(path, er, e);
    }
    if (!S_ISDIR(st.st_mode)) return mnw_err_set(e, "%s: is not a directory (%s)", path, mnw_file_kind(st.st_mode));
    return 1;
}
