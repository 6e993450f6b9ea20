/* writer.c - see writer.h. */
#include "cld/writer.h"
#include "lib/safeio.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/gzmember.h"
#include "lib/outsel.h"

static int set_paths(mnw_writer *w, const char *outdir, int o, mnw_err *e)
{
    if ((size_t)snprintf(w->outdir, sizeof w->outdir, "%s", outdir) >= sizeof w->outdir ||
        (size_t)snprintf(w->path[o], sizeof w->path[o], "%s/%s", outdir, mnw_out_name[o]) >= sizeof w->path[o])
        return mnw_err_set(e, "%.200s...: the output directory's path is too long", outdir);
    return 0;
}

/* Opens output o (MNW_SAFE_CREATE|MNW_SAFE_TRUNC for a new run) for
 * appending: a regular file with one link only, never a link followed or a
 * FIFO waited on (lib/safeio.h); records its identity. */
static int open_out(mnw_writer *w, int o, int flags, mnw_err *e)
{
    const char *path = w->path[o];
    struct stat st;
    int dfd = mnw_safe_dir(w->outdir, e);
    if (dfd < 0) return -1;
    int fd = mnw_safe_open(dfd, w->outdir, mnw_out_name[o], MNW_SAFE_APPEND | MNW_SAFE_0666 | flags, &st, e);
    close(dfd);
    if (fd < 0) return -1;
    w->dev[o] = st.st_dev;
    w->ino[o] = st.st_ino;
    w->f[o] = fdopen(fd, "ab");
    if (!w->f[o]) {
        int er = errno;
        close(fd);
        return mnw_err_set(e, "%s: %s", path, strerror(er));
    }
    return 0;
}

/* Fault tests only: MNW_TEST_SUM_BLOCK=N (a power of 2, 4096 .. 1 MiB)
 * starts the sums' blocks at N bytes, so that small test runs have many
 * blocks (and merge them) as a 100 GB output does. */
static uint64_t first_block(void)
{
    const char *s = getenv("MNW_TEST_SUM_BLOCK");
    unsigned long long v = s ? strtoull(s, NULL, 10) : 0;
    if (v >= MNW_SUM_MIN_BLOCK && v <= MNW_SUM_BLOCK && !(v & (v - 1))) return v;
    return MNW_SUM_BLOCK;
}

int mnw_writer_open(mnw_writer *w, const char *outdir, const mnw_outspec *sp, int gzip_level, int heads, mnw_err *e)
{
    memset(w, 0, sizeof *w);
    const uint64_t block = first_block();
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!sp->enabled[o]) continue;
        if (set_paths(w, outdir, o, e)) return -1;
        w->enabled[o] = 1;
        mnw_sum_init(&w->sum[o], block);
        if (open_out(w, o, MNW_SAFE_CREATE | MNW_SAFE_TRUNC, e)) return -1;
        mnw_buf head, gz;
        mnw_buf_init(&head);
        mnw_buf_init(&gz);
        if (heads) mnw_output_head(sp, o, &head);
        int rc = 0;
        if (head.len) {
            if (mnw_out_gzip[o]) {
                if (mnw_gzip_member(head.p, head.len, mnw_outsel_gzip_level(gzip_level), &gz)) rc = mnw_err_set(e, "%s: gzip failed", w->path[o]);
                else rc = mnw_writer_append(w, o, gz.p, gz.len, e);
            } else {
                rc = mnw_writer_append(w, o, head.p, head.len, e);
            }
        }
        mnw_buf_free(&head);
        mnw_buf_free(&gz);
        if (rc) return rc;
    }
    return 0;
}

int mnw_writer_reopen(mnw_writer *w, const char *outdir, const mnw_outspec *sp, const uint64_t bytes[MNW_NOUT],
                      mnw_err *e)
{
    memset(w, 0, sizeof *w);
    char bmpath[MNW_WRITER_PATH_MAX + 32];
    snprintf(bmpath, sizeof bmpath, "%s/%s", outdir, MNW_BOOKMARK_FILE);
    mnw_bookmark bm;
    if (mnw_bookmark_read(bmpath, &bm, e)) return -1;
    int rc = 0;
    for (int o = 0; o < MNW_NOUT && !rc; o++) {
        if (!sp->enabled[o]) continue;
        if ((rc = set_paths(w, outdir, o, e))) break;
        w->enabled[o] = 1;
        int k = 0;
        while (k < bm.nout && strcmp(bm.out_name[k], mnw_out_name[o])) k++;
        if (k == bm.nout || bm.out_bytes[k] != bytes[o]) {
            rc = mnw_err_set(e, "%s: changed since this run checked it (%s): is another mnw writing %s?", bmpath,
                             mnw_out_name[o], outdir);
            break;
        }
        if ((rc = open_out(w, o, 0, e))) break;
        if (bm.out_sum[k]) {
            w->sum[o] = *bm.out_sum[k];
        } else { /* a version-1 bookmark: the one read of the kept bytes */
            int fd = open(w->path[o], O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
            if (fd < 0) {
                rc = mnw_err_set(e, "%s: cannot read: %s", w->path[o], strerror(errno));
                break;
            }
            mnw_sum_init(&w->sum[o], MNW_SUM_BLOCK);
            rc = mnw_sum_fd(fd, w->path[o], bytes[o], &w->sum[o], e);
            close(fd);
            if (rc) break;
        }
        if (ftruncate(fileno(w->f[o]), (off_t)bytes[o]) != 0)
            rc = mnw_err_set(e, "%s: cannot cut to %llu bytes: %s", w->path[o], (unsigned long long)bytes[o],
                             strerror(errno));
        w->bytes[o] = bytes[o];
    }
    mnw_bookmark_free(&bm);
    return rc;
}

int mnw_writer_append(mnw_writer *w, int o, const char *data, size_t len, mnw_err *e)
{
    if (!w->f[o] || len == 0) return 0;
    if (fwrite(data, 1, len, w->f[o]) != len) return mnw_err_set(e, "%s: write failed: %s", w->path[o], strerror(errno));
    w->bytes[o] += len;
    mnw_sum_add(&w->sum[o], data, len);
    return 0;
}

int mnw_writer_flush(mnw_writer *w, mnw_err *e)
{
    for (int o = 0; o < MNW_NOUT; o++)
        if (w->f[o] && fflush(w->f[o]) != 0) return mnw_err_set(e, "%s: write failed: %s", w->path[o], strerror(errno));
    return 0;
}

int mnw_writer_fd(const mnw_writer *w, int o) { return w->f[o] ? fileno(w->f[o]) : -1; }

int mnw_writer_fsync(const mnw_writer *w, const int fd[MNW_NOUT], mnw_err *e)
{
    for (int o = 0; o < MNW_NOUT; o++)
        if (fd[o] >= 0 && fsync(fd[o]) != 0) return mnw_err_set(e, "%s: write failed: %s", w->path[o], strerror(errno));
    return 0;
}

int mnw_writer_sync(mnw_writer *w, mnw_err *e)
{
    int fd[MNW_NOUT];
    for (int o = 0; o < MNW_NOUT; o++) fd[o] = mnw_writer_fd(w, o);
    return mnw_writer_flush(w, e) || mnw_writer_fsync(w, fd, e) ? -1 : 0;
}

int mnw_writer_check_len(const mnw_writer *w, const uint64_t bytes[MNW_NOUT], int longer_ok, mnw_err *e)
{
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!w->enabled[o]) continue;
        const char *path = w->path[o];
        struct stat st;
        const char *after = "; no bookmark is written past this point (mnw verify";
        if (stat(path, &st) != 0) {
            if (errno == ENOENT)
                return mnw_err_set(e, "%s was deleted during the run%s %s tells what the last one still holds)", path,
                                   after, w->outdir);
            return mnw_err_set(e, "%s: cannot check: %s", path, strerror(errno));
        }
        if (st.st_dev != w->dev[o] || st.st_ino != w->ino[o])
            return mnw_err_set(e, "%s was replaced by another file during the run (not the file this run wrote)%s %s "
                                  "tells what the last one still holds)",
                               path, after, w->outdir);
        if ((uint64_t)st.st_size < bytes[o] || (!longer_ok && (uint64_t)st.st_size != bytes[o]))
            return mnw_err_set(e, "%s is %llu bytes, but this run wrote %llu: it was cut or written to by something "
                                  "else during the run%s %s tells what the last one still holds)",
                               path, (unsigned long long)st.st_size, (unsigned long long)bytes[o], after,
                               w->outdir);
    }
    return 0;
}

int mnw_writer_check(mnw_writer *w, mnw_err *e) { return mnw_writer_check_len(w, w->bytes, 0, e); }

int mnw_writer_check_others(mnw_writer *w, int complete, mnw_err *e)
{
    return mnw_writer_check_len(w, w->bytes, !complete, e);
}

int mnw_writer_close(mnw_writer *w, mnw_err *e)
{
    int rc = 0;
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!w->f[o]) continue;
        if (fflush(w->f[o]) != 0 || fsync(fileno(w->f[o])) != 0) {
            if (!rc) rc = mnw_err_set(e, "%s: write failed: %s", w->path[o], strerror(errno));
        }
        if (fclose(w->f[o]) != 0 && !rc) rc = mnw_err_set(e, "%s: close failed: %s", w->path[o], strerror(errno));
        w->f[o] = NULL;
    }
    return rc;
}
