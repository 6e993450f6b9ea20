/* afile.c - see afile.h. */
#include "lib/afile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int mnw_afile_replace(const char *dir, const char *name, const char *data, size_t len, int durable,
                      void (*before_rename)(void), mnw_err *e)
{
    char tmp[4200], path[4200];
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return mnw_err_set(e, "%s: %s", tmp, strerror(errno));
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            mnw_err_set(e, "%s: %s", tmp, w < 0 ? strerror(errno) : "short write");
            close(fd);
            unlink(tmp);
            return -1;
        }
        off += (size_t)w;
    }
    if ((durable && fsync(fd)) || close(fd)) {
        mnw_err_set(e, "%s: %s", tmp, strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (before_rename) before_rename();
    if (rename(tmp, path)) {
        mnw_err_set(e, "%s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    if (!durable) return 0;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd)) {
        mnw_err_set(e, "%s: fsync of the directory: %s", dir, strerror(errno));
        if (dfd >= 0) close(dfd);
        return -1;
    }
    close(dfd);
    return 0;
}
