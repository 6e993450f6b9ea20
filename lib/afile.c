/* afile.c - see afile.h. */
#include "lib/afile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/safeio.h"

int mnw_afile_replace(const char *dir, const char *name, const char *data, size_t len, int durable,
                      void (*before_rename)(void), mnw_err *e)
{
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, ".%s.tmp", name) >= sizeof tmp)
        return mnw_err_set(e, "%s/%s: the name is too long", dir, name);
    return mnw_afile_replace_via(dir, name, tmp, data, len, durable, before_rename, e);
}

int mnw_afile_replace_via(const char *dir, const char *name, const char *tmp, const char *data, size_t len,
                          int durable, void (*before_rename)(void), mnw_err *e)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return mnw_err_set(e, "%s/%s: cannot create: %s", dir, tmp, strerror(errno));
    int fd = mnw_safe_tmp(dfd, dir, tmp, 0644, e);
    if (fd < 0) {
        close(dfd);
        return -1;
    }
    int rc = 0;
    for (size_t off = 0; off < len && !rc;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) rc = mnw_err_set(e, "%s/%s: %s", dir, tmp, w < 0 ? strerror(errno) : "short write");
        else off += (size_t)w;
    }
    if (!rc && durable && fsync(fd)) rc = mnw_err_set(e, "%s/%s: %s", dir, tmp, strerror(errno));
    if (close(fd) && !rc) rc = mnw_err_set(e, "%s/%s: %s", dir, tmp, strerror(errno));
    if (!rc && before_rename) before_rename();
    if (!rc) rc = mnw_safe_rename(dfd, dir, tmp, name, e);
    if (rc) {
        unlinkat(dfd, tmp, 0); /* the name this call created */
    } else if (durable && fsync(dfd)) {
        rc = mnw_err_set(e, "%s: fsync of the directory: %s", dir, strerror(errno));
    }
    close(dfd);
    return rc;
}
