/* nldout.c - see nldout.h. */
#include "nld/nldout.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/mpiw.h"
#include "lib/safeio.h"
#include "lib/sum.h"

#define JOIN_MSG MNW_ERR_MAX /* one rank's start report */

typedef struct {
    char dir[PATH_MAX];
    char token[64];
    int32_t enabled[MNW_NOUT];
    uint64_t base[MNW_NOUT];
    char fail[JOIN_MSG]; /* rank 0 could not start: why ("" if it could) */
} join_head;

static int mpi_err(mnw_err *e, int rc, const char *path, const char *what)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS) snprintf(s, sizeof s, "MPI error %d", rc);
    return mnw_err_set(e, "%s: %s: %s", path, what, s);
}

/* Rank 0: the token other ranks must find in OUTDIR. */
static int put_token(join_head *h, mnw_err *e)
{
    char path[PATH_MAX + 32];
    snprintf(h->token, sizeof h->token, "mnw %s %ld %.0f", mnw_mpi_host(), (long)getpid(), mnw_now() * 1e6);
    snprintf(path, sizeof path, "%s/%s", h->dir, MNW_NLDOUT_TOKEN);
    /* created anew (a killed run's regular one removed); a link, FIFO, ... refused (lib/safeio.h) */
    int dfd = mnw_safe_dir(h->dir, e);
    int fd = dfd < 0 ? -1 : mnw_safe_tmp(dfd, h->dir, MNW_NLDOUT_TOKEN, 0644, e);
    if (dfd >= 0) close(dfd);
    if (fd < 0) return -1;
    size_t n = strlen(h->token);
    int bad = write(fd, h->token, n) != (ssize_t)n;
    if (close(fd) || bad) return mnw_err_set(e, "%s: cannot write: %s", path, strerror(errno));
    return 0;
}

/* Output o, just opened through MPI-IO: a read-only descriptor of the same
 * path, whose device and inode are the file this rank writes (nldout.h). */
static int keep_identity(mnw_nldout *w, int o, mnw_err *e)
{
    struct stat st;
    w->rfd[o] = open(w->path[o], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (w->rfd[o] < 0) return mnw_err_set(e, "%s: cannot open to read back: %s", w->path[o], strerror(errno));
    if (fstat(w->rfd[o], &st)) return mnw_err_set(e, "%s: cannot stat: %s", w->path[o], strerror(errno));
    w->dev[o] = st.st_dev;
    w->ino[o] = st.st_ino;
    return 0;
}

/* Every rank: does it see rank 0's OUTDIR, and can it open the outputs? */
static int see_and_open(mnw_nldout *w, const join_head *h, mnw_err *e)
{
    char path[PATH_MAX + 32], got[64] = "";
    snprintf(path, sizeof path, "%s/%s", h->dir, MNW_NLDOUT_TOKEN);
    const char *fix = "output through MPI-IO (the default with more than one rank) needs an OUTDIR that every rank "
                      "sees, on a shared file system; or run with --output-via rank0";
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return mnw_err_set(e, "does not see OUTDIR %s (%s: %s): %s", h->dir, path, strerror(errno), fix);
    ssize_t n = read(fd, got, sizeof got - 1);
    close(fd);
    if (n < 0 || strncmp(got, h->token, sizeof got) != 0)
        return mnw_err_set(e, "sees another directory as OUTDIR %s (%s is not the one rank 0 wrote: a node-local "
                              "directory of the same name?): %s",
                           h->dir, path, fix);
    snprintf(w->dir, sizeof w->dir, "%s", h->dir);
    for (int o = 0; o < MNW_NOUT; o++) {
        w->enabled[o] = h->enabled[o];
        w->base[o] = h->base[o];
        snprintf(w->path[o], sizeof w->path[o], "%s/%s", h->dir, mnw_out_name[o]);
        if (!w->enabled[o]) continue;
        if (access(w->path[o], W_OK))
            return mnw_err_set(e, "%s: cannot write: %s (every rank writes the outputs with --output-via mpiio)",
                               w->path[o], strerror(errno));
        int rc = MPI_File_open(MPI_COMM_SELF, w->path[o], MPI_MODE_WRONLY, MPI_INFO_NULL, &w->fh[o]);
        if (rc != MPI_SUCCESS) return mpi_err(e, rc, w->path[o], "cannot open through MPI-IO");
        w->open[o] = 1;
        if (keep_identity(w, o, e)) return -1;
    }
    return 0;
}

enum { PAUSE_MID = 1, PAUSE_UNSYNCED, PAUSE_UNREPORTED };

/* MNW_TEST_WRITE_PAUSE=SECONDS:WHERE:N (nldout.h) */
static void test_pause_setup(mnw_nldout *w)
{
    const char *v = getenv("MNW_TEST_WRITE_PAUSE");
    char where[16] = "";
    double s = 0;
    int nth = 0;
    if (!v || sscanf(v, "%lf:%15[a-z]:%d", &s, where, &nth) != 3 || s <= 0 || nth < 1) return;
    w->test_where = !strcmp(where, "mid") ? PAUSE_MID : !strcmp(where, "unsynced") ? PAUSE_UNSYNCED
                  : !strcmp(where, "unreported") ? PAUSE_UNREPORTED : 0;
    w->test_pause = s;
    w->test_nth = nth;
}

/* The test pause at `where`, once, at this rank's test_nth list (lists:
 * those this rank wrote before, the one paused in included). */
static void test_pause(mnw_nldout *w, int where, uint64_t lists, uint64_t k0)
{
    if (!w->test_pause || w->test_where != where || lists < (uint64_t)w->test_nth) return;
    static const char *const name[] = {"", "in the middle of writing", "after writing, before the sync of",
                                       "after the sync, before reporting"};
    LOG_WARN("test (MNW_TEST_WRITE_PAUSE): pid %ld pauses %.1f s %s pairs %llu", (long)getpid(), w->test_pause,
             name[where], (unsigned long long)k0);
    struct timespec ts = {(time_t)w->test_pause, (long)((w->test_pause - (double)(time_t)w->test_pause) * 1e9)};
    nanosleep(&ts, NULL);
    w->test_pause = 0;
}

int mnw_nldout_join(mnw_nldout *w, const char *outdir, const int enabled[MNW_NOUT], const uint64_t base[MNW_NOUT],
                    mnw_err *e)
{
    const int rank = mnw_mpi_rank(), size = mnw_mpi_size();
    memset(w, 0, sizeof *w);
    for (int o = 0; o < MNW_NOUT; o++) w->rfd[o] = -1;
    mnw_buf_init(&w->pending);
    snprintf(w->who, sizeof w->who, "rank %d (%s)", rank, mnw_mpi_host());
    test_pause_setup(w);
    join_head *h = mnw_xcalloc(1, sizeof *h);
    mnw_err e0;
    if (rank == 0) {
        if (!realpath(outdir, h->dir)) snprintf(h->dir, sizeof h->dir, "%s", outdir);
        for (int o = 0; o < MNW_NOUT; o++) h->enabled[o] = enabled[o], h->base[o] = base[o];
        if (put_token(h, &e0)) memcpy(h->fail, e0.msg, sizeof h->fail);
    }
    CHECK_MPI(MPI_Bcast(h, (int)sizeof *h, MPI_BYTE, 0, MPI_COMM_WORLD));
    if (h->fail[0]) {
        mnw_err_set(e, "%s", rank == 0 ? h->fail : "rank 0 could not start the output through MPI-IO");
        free(h);
        return -1;
    }
    char mine[JOIN_MSG] = "";
    if (see_and_open(w, h, &e0)) mnw_fmt_fit(mine, sizeof mine, "%s: %s", w->who, e0.msg);
    char *all = rank == 0 ? mnw_xcalloc((size_t)size, JOIN_MSG) : NULL;
    CHECK_MPI(MPI_Gather(mine, JOIN_MSG, MPI_CHAR, all, JOIN_MSG, MPI_CHAR, 0, MPI_COMM_WORLD));
    int32_t bad = -1; /* the first rank that failed */
    if (rank == 0) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", h->dir, MNW_NLDOUT_TOKEN);
        unlink(path);
        for (int r = 0; r < size && bad < 0; r++)
            if (all[(size_t)r * JOIN_MSG]) bad = r;
        if (bad >= 0) {
            int more = 0;
            for (int r = bad + 1; r < size; r++) more += all[(size_t)r * JOIN_MSG] != 0;
            if (more)
                mnw_err_set(e, "%s (and %d other rank%s)", all + (size_t)bad * JOIN_MSG, more, more == 1 ? "" : "s");
            else
                mnw_err_set(e, "%s", all + (size_t)bad * JOIN_MSG);
        }
    }
    CHECK_MPI(MPI_Bcast(&bad, 1, MPI_INT32_T, 0, MPI_COMM_WORLD));
    free(all);
    free(h);
    if (bad < 0) return 0;
    if (rank != 0) {
        if (mine[0]) mnw_err_set(e, "%s", mine);
        else mnw_err_set(e, "rank %d could not start the output through MPI-IO (rank 0 says why)", (int)bad);
    }
    MNW_IGNORE(mnw_nldout_close(w, &e0));
    return -1;
}

void mnw_nldout_hold(mnw_nldout *w, mnw_result *res, mnw_wire_head *h)
{
    mnw_wire_head_of(res, h);
    if (w->nheld == w->held_cap) {
        w->held_cap = w->held_cap ? 2 * w->held_cap : 64;
        w->held = mnw_xrealloc(w->held, w->held_cap * sizeof *w->held);
    }
    w->held[w->nheld++] = res;
}

/* Writes len bytes at off, in pieces MPI's int count can hold. */
static int write_at(mnw_nldout *w, int o, uint64_t off, const char *p, size_t len, mnw_err *e)
{
    while (len) {
        int n = len > (size_t)1 << 30 ? 1 << 30 : (int)len;
        MPI_Status st;
        errno = 0;
        int rc = MPI_File_write_at(w->fh[o], (MPI_Offset)off, p, n, MPI_BYTE, &st);
        int err = errno; /* what the file system said, when MPI-IO says less */
        char what[96];
        snprintf(what, sizeof what, "writing %d bytes at offset %llu through MPI-IO", n, (unsigned long long)off);
        if (rc != MPI_SUCCESS) return mpi_err(e, rc, w->path[o], what);
        int got = 0;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &got));
        if (got != n) { /* MPI-IO does not always keep errno: a full file system is asked for */
            struct statvfs fs;
            if (!err && !statvfs(w->path[o], &fs) && (uint64_t)fs.f_bavail * fs.f_frsize < (uint64_t)(n - got))
                err = ENOSPC;
            return mnw_err_set(e, "%s: %s: only %d written%s%s", w->path[o], what, got, err ? ": " : "",
                               err ? strerror(err) : "");
        }
        off += (uint64_t)n;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int mnw_nldout_write(mnw_nldout *w, const mnw_wire_place *pl, mnw_err *e)
{
    size_t k = 0;
    while (k < w->nheld && w->held[k]->r.k0 != pl->k0) k++;
    if (k == w->nheld) return 1;
    mnw_result *res = w->held[k];
    w->held[k] = w->held[--w->nheld];
    double t0 = mnw_now();
    mnw_wire_written *rec = &w->rec;
    rec->k0 = pl->k0;
    if ((w->npending + 1) * MNW_NOUT > w->tails_cap) {
        w->tails_cap = 2 * (w->npending + 1) * MNW_NOUT;
        w->tails = mnw_xrealloc(w->tails, w->tails_cap * sizeof *w->tails);
    }
    mnw_nldout_tail *tail = &w->tails[w->npending * MNW_NOUT];
    memset(tail, 0, MNW_NOUT * sizeof *tail);
    int rc = 0;
    for (int o = 0; o < MNW_NOUT && !rc; o++) {
        const mnw_buf *d = &res->data[o];
        rec->n[o] = 0;
        if (!d->len) continue;
        if (!w->open[o]) {
            rc = mnw_err_set(e, "%s: %zu bytes for an output this run does not write (internal)", w->path[o], d->len);
            break;
        }
        size_t half = w->test_where == PAUSE_MID ? d->len / 2 : 0;
        if (half) {
            if ((rc = write_at(w, o, pl->off[o], d->p, half, e))) break;
            test_pause(w, PAUSE_MID, w->lists + 1, pl->k0);
        }
        if ((rc = write_at(w, o, pl->off[o] + half, d->p + half, d->len - half, e))) break;
        tail[o].len = d->len < MNW_NLDOUT_TAIL ? (uint32_t)d->len : MNW_NLDOUT_TAIL;
        tail[o].off = pl->off[o] + d->len - tail[o].len;
        memcpy(tail[o].b, d->p + d->len - tail[o].len, tail[o].len);
        int cap = (int)(d->len / w->base[o]) + 2;
        if (cap > rec->cap[o]) {
            rec->cap[o] = cap;
            rec->crc[o] = mnw_xrealloc(rec->crc[o], (size_t)cap * sizeof *rec->crc[o]);
            rec->len[o] = mnw_xrealloc(rec->len[o], (size_t)cap * sizeof *rec->len[o]);
        }
        rec->n[o] = mnw_sum_split(d->p, d->len, pl->off[o], w->base[o], rec->crc[o], rec->len[o], cap);
        w->bytes += d->len;
    }
    mnw_result_free(res);
    w->io_s += mnw_now() - t0;
    if (rc) return -1;
    test_pause(w, PAUSE_UNSYNCED, w->lists + 1, pl->k0);
    if (!w->npending) w->pending_since = mnw_now();
    mnw_wire_pack_written(rec, &w->pending);
    w->npending++;
    w->lists++;
    return 0;
}

/* "; no bookmark ... (mnw verify OUTDIR ...)": what every changed-file
 * message ends with, as rank 0's writer says it (cld/writer.c) */
#define CHANGED_END "; no bookmark counts this rank's lists from here (mnw verify %s tells what the last one holds)"

/* Reads t back from output o: 0 when it holds what was written, else -1
 * with e set. */
static int read_back(mnw_nldout *w, int o, const mnw_nldout_tail *t, mnw_err *e)
{
    unsigned char got[MNW_NLDOUT_TAIL];
    ssize_t n = pread(w->rfd[o], got, t->len, (off_t)t->off);
    if (n < 0) return mnw_err_set(e, "%s: cannot read back: %s", w->path[o], strerror(errno));
    if ((size_t)n == t->len && !memcmp(got, t->b, t->len)) return 0;
    size_t zero = 0;
    while (zero < (size_t)n && !got[zero]) zero++;
    const char *what = (size_t)n < t->len ? "short (the file ends before them): the file was cut during the run"
                     : zero == (size_t)n  ? "as NUL bytes: the file was cut during the run and written again past "
                                            "the cut (a hole of NUL bytes where lists were)"
                                          : "different: something else wrote into the file during the run";
    return mnw_err_set(e, "%s: the %u bytes this rank wrote and synced at bytes %llu to %llu read back %s" CHANGED_END,
                       w->path[o], (unsigned)t->len, (unsigned long long)t->off,
                       (unsigned long long)(t->off + t->len - 1), what, w->dir);
}

/* After a sync: each open output is still the file opened, as long as this
 * rank's highest synced byte, and the ends of its lists (those of this
 * sync and its highest one before) read back as written (nldout.h). */
static int check_files(mnw_nldout *w, mnw_err *e)
{
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!w->open[o] || w->rfd[o] < 0) continue;
        mnw_nldout_tail top = w->top[o];
        for (size_t k = 0; k < w->npending; k++) {
            const mnw_nldout_tail *t = &w->tails[k * MNW_NOUT + o];
            if (t->len && (!top.len || t->off > top.off)) top = *t;
        }
        if (!top.len) continue; /* nothing written here yet */
        struct stat st;
        if (stat(w->path[o], &st)) {
            if (errno == ENOENT)
                return mnw_err_set(e, "%s was deleted during the run" CHANGED_END, w->path[o], w->dir);
            return mnw_err_set(e, "%s: cannot check: %s", w->path[o], strerror(errno));
        }
        if (st.st_dev != w->dev[o] || st.st_ino != w->ino[o])
            return mnw_err_set(e, "%s was replaced by another file during the run (not the file this rank writes)"
                                  CHANGED_END,
                               w->path[o], w->dir);
        uint64_t end = top.off + top.len;
        if ((uint64_t)st.st_size < end)
            return mnw_err_set(e, "%s is %llu bytes, but this rank wrote and synced bytes up to %llu: it was cut "
                                  "during the run" CHANGED_END,
                               w->path[o], (unsigned long long)st.st_size, (unsigned long long)end, w->dir);
        if (w->top[o].len && read_back(w, o, &w->top[o], e)) return -1;
        for (size_t k = 0; k < w->npending; k++) {
            const mnw_nldout_tail *t = &w->tails[k * MNW_NOUT + o];
            if (t->len && read_back(w, o, t, e)) return -1;
        }
        w->top[o] = top;
    }
    return 0;
}

int mnw_nldout_sync(mnw_nldout *w, int force, mnw_buf *out, mnw_err *e)
{
    if (!w->npending || (!force && mnw_now() - w->pending_since < MNW_NLDOUT_SYNC_EVERY)) return 0;
    double t0 = mnw_now();
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!w->open[o]) continue;
        int rc = MPI_File_sync(w->fh[o]);
        if (rc != MPI_SUCCESS) return mpi_err(e, rc, w->path[o], "sync through MPI-IO failed");
    }
    if (check_files(w, e)) return -1;
    w->io_s += mnw_now() - t0;
    w->syncs++;
    if (w->test_pause) {
        uint64_t k0;
        memcpy(&k0, w->pending.p, sizeof k0); /* the first record's */
        test_pause(w, PAUSE_UNREPORTED, w->lists, k0);
    }
    mnw_buf_put(out, w->pending.p, w->pending.len);
    int n = (int)w->npending;
    w->pending.len = 0;
    w->npending = 0;
    return n;
}

void mnw_nldout_drop(mnw_nldout *w)
{
    for (size_t k = 0; k < w->nheld; k++) mnw_result_free(w->held[k]);
    w->dropped += w->nheld;
    w->nheld = 0;
}

int mnw_nldout_close(mnw_nldout *w, mnw_err *e)
{
    int rc = 0;
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!w->open[o]) continue;
        int r = MPI_File_close(&w->fh[o]);
        if (r != MPI_SUCCESS && !rc) rc = mpi_err(e, r, w->path[o], "close through MPI-IO failed");
        w->open[o] = 0;
    }
    for (int o = 0; o < MNW_NOUT; o++) {
        if (w->rfd[o] >= 0) close(w->rfd[o]);
        w->rfd[o] = -1;
    }
    free(w->tails);
    w->tails = NULL;
    w->tails_cap = 0;
    mnw_nldout_drop(w);
    free(w->held);
    w->held = NULL;
    w->held_cap = 0;
    mnw_buf_free(&w->pending);
    mnw_wire_written_free(&w->rec);
    return rc;
}

void mnw_nldout_log(const mnw_nldout *w)
{
    LOG_INFO("output through MPI-IO: %llu work lists, %llu bytes written by this rank, %llu syncs, %.2f s in writes "
             "and syncs%s",
             (unsigned long long)w->lists, (unsigned long long)w->bytes, (unsigned long long)w->syncs, w->io_s,
             w->dropped ? "; lists dropped at the stop" : "");
}
