/* safeio.c - see safeio.h. */
#include "lib/safeio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/regfile.h"

int mnw_safe_dir(const char *dir, mnw_err *e)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return mnw_err_set(e, "%s: cannot open the directory: %s", dir, strerror(errno));
    return dfd;
}

int mnw_safe_check(const char *dir, const char *name, const struct stat *st, mnw_err *e)
{
    if (!S_ISREG(st->st_mode))
        return mnw_err_set(e, "%s/%s: is not a regular file (%s); mnw writes there only a regular file of its own "
                              "(remove it)",
                           dir, name, mnw_file_kind(st->st_mode));
    if (st->st_nlink != 1)
        return mnw_err_set(e, "%s/%s: has %lu hard links (another name shares the file); mnw writes there only a "
                              "file of its own (remove it)",
                           dir, name, (unsigned long)st->st_nlink);
    return 0;
}

int mnw_safe_probe(int dfd, const char *dir, const char *name, mnw_err *e)
{
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return 0;
        return mnw_err_set(e, "%s/%s: cannot check: %s", dir, name, strerror(errno));
    }
    return mnw_safe_check(dir, name, &st, e);
}

/* After a failed openat (errno er): the message, naming what stands there
 * when something does. */
static int open_failed(int dfd, const char *dir, const char *name, int er, const char *what, mnw_err *e)
{
    struct stat st;
    if (er != ENOENT && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && mnw_safe_check(dir, name, &st, e))
        return -1;
    mnw_err_set(e, "%s/%s: cannot %s: %s", dir, name, what, strerror(er));
    errno = er;
    return -1;
}

int mnw_safe_open(int dfd, const char *dir, const char *name, int flags, struct stat *st, mnw_err *e)
{
    struct stat sb;
    if (!st) st = &sb;
    int of = ((flags & MNW_SAFE_RDWR) ? O_RDWR : O_WRONLY) | ((flags & MNW_SAFE_APPEND) ? O_APPEND : 0) |
             ((flags & MNW_SAFE_CREATE) ? O_CREAT : 0) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
    int fd = openat(dfd, name, of, (flags & MNW_SAFE_0666) ? 0666 : 0644);
    if (fd < 0) return open_failed(dfd, dir, name, errno, (flags & MNW_SAFE_CREATE) ? "create" : "open", e);
    if (fstat(fd, st) != 0) {
        int er = errno;
        close(fd);
        mnw_err_set(e, "%s/%s: cannot check: %s", dir, name, strerror(er));
        errno = er;
        return -1;
    }
    if (mnw_safe_check(dir, name, st, e)) {
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1 ||
        ((flags & MNW_SAFE_TRUNC) && st->st_size != 0 && ftruncate(fd, 0) != 0)) {
        int er = errno;
        close(fd);
        mnw_err_set(e, "%s/%s: %s: %s", dir, name, fl == -1 ? "cannot open" : "cannot cut", strerror(er));
        errno = er;
        return -1;
    }
    if (flags & MNW_SAFE_TRUNC) st->st_size = 0;
    return fd;
}

char *mnw_safe_split(const char *path, const char **name)
{
    char *dir = mnw_xstrdup(path);
    char *slash = strrchr(dir, '/');
    *name = path;
    if (!slash) {
        strcpy(dir, ".");
    } else {
        *name = path + (slash - dir) + 1;
        if (slash == dir) slash[1] = 0;
        else *slash = 0;
    }
    return dir;
}

int mnw_safe_open_path(const char *path, int flags, struct stat *st, mnw_err *e)
{
    const char *name;
    char *dir = mnw_safe_split(path, &name);
    int rc = -1;
    if (!*name) {
        mnw_err_set(e, "%s: not a file name", path);
    } else {
        int dfd = mnw_safe_dir(dir, e);
        if (dfd >= 0) {
            rc = mnw_safe_open(dfd, dir, name, flags, st, e);
            int er = errno;
            close(dfd);
            errno = er;
        }
    }
    free(dir);
    return rc;
}

int mnw_safe_tmp(int dfd, const char *dir, const char *name, unsigned mode, mnw_err *e)
{
    for (int tries = 0;; tries++) {
        int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
                        (mode_t)mode);
        if (fd >= 0) {
            int fl = fcntl(fd, F_GETFL);
            if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
            return fd;
        }
        int er = errno;
        if (er != EEXIST || tries) return mnw_err_set(e, "%s/%s: cannot create: %s", dir, name, strerror(er));
        /* something is there: a killed run's temporary is removed, the rest refused */
        struct stat st;
        if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT) continue;
            return mnw_err_set(e, "%s/%s: cannot check: %s", dir, name, strerror(errno));
        }
        if (mnw_safe_check(dir, name, &st, e)) return -1;
        if (unlinkat(dfd, name, 0) != 0 && errno != ENOENT)
            return mnw_err_set(e, "%s/%s: cannot remove an earlier run's temporary file: %s", dir, name,
                               strerror(errno));
    }
}

int mnw_safe_rename(int dfd, const char *dir, const char *from, const char *to, mnw_err *e)
{
    if (mnw_safe_probe(dfd, dir, to, e)) return -1;
    if (renameat(dfd, from, dfd, to) != 0)
        return mnw_err_set(e, "%s/%s: cannot replace: %s", dir, to, strerror(errno));
    return 0;
}
