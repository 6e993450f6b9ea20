/* outlock.c - see outlock.h. */
#include "lib/outlock.h"
#include "lib/regfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What mnw.lock says of its holder. */
typedef struct {
    char host[256], started[64];
    long pid;
} holder;

/* Opens dir/mnw.lock (creating it when `create`): the fd; -2 when it does
 * not exist and create is 0; -1 with e set. A symbolic link, a FIFO, a
 * directory or a device there is an error, never followed or waited on. */
static int open_lock(const char *dir, int create, mnw_err *e)
{
    const size_t n = strlen(dir) + sizeof MNW_LOCK_FILE + 1;
    char *path = mnw_xmalloc(n); /* whole, however long dir is (a message names it) */
    snprintf(path, n, "%s/%s", dir, MNW_LOCK_FILE);
    struct stat sb;
    int fd = mnw_open_regular(path, (create ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW, 0644, &sb, e);
    if (fd == -2) fd = mnw_err_set(e, "%s: %s, not mnw's lock file (remove it)", path, mnw_file_kind(sb.st_mode));
    else if (fd < 0) {
        int er = errno;
        if ((er == ENOENT || er == ENOTDIR) && !create) fd = -2; /* no OUTDIR or not a directory: checked later */
        else if (er == ELOOP)
            fd = mnw_err_set(e, "%s: a symbolic link; mnw keeps its lock in a regular file there (remove the link)",
                             path);
        else if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) /* a directory (EISDIR), a FIFO, ... */
            fd = mnw_err_set(e, "%s: %s, not mnw's lock file (remove it)", path, mnw_file_kind(sb.st_mode));
        else fd = mnw_err_set(e, "%s: cannot open the lock file: %s", path, strerror(er));
    } else if (sb.st_nlink != 1) { /* the holder's lines would overwrite the file another name shares */
        close(fd);
        fd = mnw_err_set(e, "%s: has %lu hard links (another name shares the file), not mnw's lock file (remove it)",
                         path, (unsigned long)sb.st_nlink);
    }
    free(path);
    return fd;
}

static void read_holder(int fd, holder *h)
{
    memset(h, 0, sizeof *h);
    char buf[1024];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return;
    buf[n] = 0;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "host ", 5)) snprintf(h->host, sizeof h->host, "%s", line + 5);
        else if (!strncmp(line, "pid ", 4)) h->pid = strtol(line + 4, NULL, 10);
        else if (!strncmp(line, "started ", 8)) snprintf(h->started, sizeof h->started, "%s", line + 8);
    }
}

static int held_msg(const char *dir, const holder *h, mnw_err *e)
{
    if (!h->host[0] || h->pid <= 0)
        return mnw_err_set(e, "%s is in use by another mnw (%s/%s is locked; it names no holder); wait for that run to "
                              "end, or stop it first",
                           dir, dir, MNW_LOCK_FILE);
    return mnw_err_set(e, "%s is in use by another mnw: pid %ld on host %s, started %s (%s/%s); wait for it to end, or "
                          "stop it first (kill -TERM %ld on %s) and then continue with mnw --resume %s",
                       dir, h->pid, h->host, h->started[0] ? h->started : "?", dir, MNW_LOCK_FILE, h->pid, h->host,
                       dir);
}

/* flock that fails as on a file system without it, for the fault tests
 * (tests/sh/t_outdir.sh): MNW_TEST_LOCK_NOFLOCK=1. */
static int lock_fd(int fd, int op)
{
    const char *t = getenv("MNW_TEST_LOCK_NOFLOCK");
    if (t && *t == '1') {
        errno = ENOLCK;
        return -1;
    }
    return flock(fd, op);
}

static int unsupported(int err) { return err == ENOLCK || err == ENOSYS || err == EOPNOTSUPP || err == EINVAL; }

/* Without flock: is the holder a live mnw on this host (its pid runs a
 * program named mnw*)? A holder on another host cannot be checked. */
static int holder_live(const holder *h)
{
    char me[256];
    mnw_hostname(me, sizeof me, 0);
    if (!h->host[0] || strcmp(h->host, me) || h->pid <= 0 || h->pid == (long)getpid()) return 0;
    if (kill((pid_t)h->pid, 0) && errno == ESRCH) return 0;
    char path[64], comm[64] = "";
    snprintf(path, sizeof path, "/proc/%ld/comm", h->pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int live = fgets(comm, sizeof comm, f) && !strncmp(comm, "mnw", 3);
    fclose(f);
    return live;
}

int mnw_outlock_probe(const char *dir, mnw_err *e)
{
    int fd = open_lock(dir, 0, e);
    if (fd == -2) return 0;
    if (fd < 0) return -1;
    holder h;
    int rc = 0;
    if (lock_fd(fd, LOCK_SH | LOCK_NB) == 0) {
        flock(fd, LOCK_UN);
    } else if (errno == EWOULDBLOCK) {
        read_holder(fd, &h);
        rc = held_msg(dir, &h, e);
    } else if (unsupported(errno)) {
        read_holder(fd, &h);
        if (holder_live(&h)) rc = held_msg(dir, &h, e);
    } else {
        rc = mnw_err_set(e, "%s/%s: cannot lock: %s", dir, MNW_LOCK_FILE, strerror(errno));
    }
    close(fd);
    return rc;
}

int mnw_outlock_take(mnw_outlock *l, const char *dir, mnw_err *e)
{
    memset(l, 0, sizeof *l);
    l->fd = -1;
    int fd = open_lock(dir, 1, e);
    if (fd < 0) return -1;
    holder h;
    /* a few tries: another mnw's probe holds a shared lock for microseconds */
    int r = -1;
    for (int tries = 0; tries < 10; tries++) {
        r = lock_fd(fd, LOCK_EX | LOCK_NB);
        if (r == 0 || errno != EWOULDBLOCK) break;
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (r) {
        int err = errno;
        read_holder(fd, &h);
        if (err == EWOULDBLOCK) {
            close(fd);
            return held_msg(dir, &h, e);
        }
        if (!unsupported(err)) {
            close(fd);
            return mnw_err_set(e, "%s/%s: cannot lock: %s", dir, MNW_LOCK_FILE, strerror(err));
        }
        if (holder_live(&h)) {
            close(fd);
            return held_msg(dir, &h, e);
        }
        l->advisory = 1;
        snprintf(l->why, sizeof l->why, "%s", strerror(err));
    }
    char host[256], when[64] = "", text[512];
    mnw_hostname(host, sizeof host, 0);
    time_t now = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %z", localtime_r(&now, &tm));
    int n = snprintf(text, sizeof text, "host %s\npid %ld\nstarted %s\n", host, (long)getpid(), when);
    if (ftruncate(fd, 0) || pwrite(fd, text, (size_t)n, 0) != n) {
        mnw_err_set(e, "%s/%s: cannot write: %s", dir, MNW_LOCK_FILE, strerror(errno));
        close(fd);
        return -1;
    }
    l->fd = fd;
    return 0;
}

void mnw_outlock_release(mnw_outlock *l)
{
    if (l->fd >= 0) close(l->fd);
    l->fd = -1;
}
