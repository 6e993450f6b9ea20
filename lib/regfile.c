/* regfile.c - see regfile.h. */
#include "lib/regfile.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

const char *mnw_file_kind(unsigned mode)
{
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a file";
}

int mnw_open_regular(const char *path, int flags, unsigned mode, struct stat *st, mnw_err *e)
{
    int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, (mode_t)mode);
    if (fd < 0) return -1;
    if (fstat(fd, st) != 0) {
        int er = errno;
        close(fd);
        errno = er;
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        mnw_err_set(e, "%s: is not a regular file (%s)", path, mnw_file_kind(st->st_mode));
        return -2;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}
