/* cld.c - see cld.h. */
#include "cld/cld.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"

void mnw_cld_init(mnw_cld *c, uint64_t npairs, uint64_t wl, uint64_t window, mnw_writer *w)
{
    memset(c, 0, sizeof *c);
    c->npairs = npairs;
    c->wl = wl;
    c->window = window < 1 ? 1 : window;
    c->slots = mnw_xcalloc(c->window, sizeof *c->slots);
    c->w = w;
}

void mnw_cld_free(mnw_cld *c)
{
    int fin;
    mnw_err e;
    MNW_IGNORE(mnw_durable_poll(&c->dur, 1, &fin, &e)); /* after a failure: its thread joined */
    if (c->place) {
        mnw_place_free(c->place);
        free(c->place);
        c->place = NULL;
    }
    for (uint64_t s = 0; s < c->window; s++) mnw_result_free(c->slots[s]);
    free(c->slots);
    c->slots = NULL;
}

void mnw_cld_start_at(mnw_cld *c, uint64_t watermark, uint64_t pruned)
{
    c->start = c->watermark = c->next_k = c->bm_mark = watermark;
    c->pruned = c->start_pruned = pruned;
}

void mnw_cld_keep_bookmark(mnw_cld *c, const char *dir, mnw_bookmark *b, double every)
{
    c->dir = dir;
    c->bm = b;
    c->bm_every = every;
    c->bm_last = mnw_now();
}

/* Output through MPI-IO: a file cut during the run and written again past
 * the cut by later lists keeps its length (nldout.h). Where the file system
 * tells holes (SEEK_HOLE: ext4, XFS, tmpfs, NFS 4.2, Lustre 2.14; others
 * say "no hole"), a hole below the durable bytes is such a cut: every byte
 * below them was written. 0, or -1 with e naming the file. */
static int check_holes(const mnw_writer *w, mnw_err *e)
{
    if (getenv("MNW_TEST_NO_HOLE_CHECK")) return 0; /* tests only: the ranks' own checks alone */
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!w->enabled[o] || !w->bytes[o]) continue;
        int fd = open(w->path[o], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) return mnw_err_set(e, "%s: cannot check: %s", w->path[o], strerror(errno));
        off_t hole = lseek(fd, 0, SEEK_HOLE);
        close(fd);
        if (hole >= 0 && (uint64_t)hole < w->bytes[o])
            return mnw_err_set(e, "%s has a hole (NUL bytes never written) at byte %llu, below the %llu bytes the "
                                  "ranks wrote and synced: it was cut during the run and written again past the cut; "
                                  "no bookmark is written past this point (mnw verify %s tells what the last one "
                                  "still holds)",
                               w->path[o], (unsigned long long)hole, (unsigned long long)w->bytes[o], w->outdir);
    }
    return 0;
}

/* The bookmark's watermark, pruned count and output lengths and sums: the
 * writer's now (its files flushed), or the places' (through MPI-IO). */
static int fill_bookmark(mnw_cld *c, mnw_err *e)
{
    mnw_bookmark *b = c->bm;
    b->watermark = c->watermark;
    b->pruned = c->pruned;
    for (int o = 0, k = 0; o < MNW_NOUT; o++) {
        if (!c->w->enabled[o]) continue;
        if (k < b->nout) {
            b->out_bytes[k] = c->w->bytes[o];
            if (!b->out_sum[k]) b->out_sum[k] = mnw_xmalloc(sizeof *b->out_sum[k]);
            *b->out_sum[k] = c->w->sum[o]; /* the CRC of exactly the bytes counted */
        } else if (mnw_bookmark_output_sum(b, mnw_out_name[o], &c->w->sum[o], e)) {
            return -1;
        }
        k++;
    }
    return 0;
}

/* The bookmark thread's outcome when it has finished (wait: joined now).
 * 1 while it runs, 0, or -1 with e set. */
static int durable_poll(mnw_cld *c, int wait, mnw_err *e)
{
    int fin;
    int p = mnw_durable_poll(&c->dur, wait, &fin, e);
    if (fin) {
        c->bm_mark = c->dur_mark;
        c->bm_writes++;
    }
    return p;
}

int mnw_cld_settle(mnw_cld *c, mnw_err *e) { return durable_poll(c, 1, e); }

int mnw_cld_checkpoint(mnw_cld *c, int force, mnw_err *e)
{
    if (!c->dir) return 0;
    int p = durable_poll(c, force, e); /* forced: the one in flight first */
    if (p < 0) return -1;
    if (p == 1) return 0; /* one is being written: a later call looks again */
    double now = mnw_now();
    if (!force && (c->watermark == c->bm_mark || now - c->bm_last < c->bm_every)) return 0;
    /* on disk, and still the files this run wrote (not deleted, replaced,
     * cut or appended to by something else): else no bookmark, the one
     * before stays */
    if (c->place) { /* the nodes wrote: the lengths and sums of what they synced */
        for (int o = 0; o < MNW_NOUT; o++) {
            c->w->bytes[o] = c->place->bytes[o];
            c->w->sum[o] = c->place->sum[o];
        }
        if (mnw_writer_check_others(c->w, mnw_cld_done(c), e) || check_holes(c->w, e)) return -1;
    } else if (mnw_writer_flush(c->w, e)) {
        return -1;
    }
    if (fill_bookmark(c, e)) return -1;
    mnw_err e2;
    if (!c->place && !force && !mnw_durable_start(&c->dur, c->w, c->w->bytes, c->dir, c->bm, &e2)) {
        c->dur_mark = c->watermark; /* the fsync, the check and the bookmark in its thread */
        c->bm_last = now;
        /* fault tests (MNW_TEST_BOOKMARK_PAUSE, bookmark.c): the pause in the
         * thread holds the CLD too, as it did when bookmarks were written here,
         * so a test can catch a run between two bookmarks */
        if (getenv("MNW_TEST_BOOKMARK_PAUSE")) return durable_poll(c, 1, e) < 0 ? -1 : 0;
        return 0;
    } /* else now, here (forced, through MPI-IO, or no thread could start) */
    if (!c->place && (mnw_writer_sync(c->w, e) || mnw_writer_check(c->w, e))) return -1;
    if (mnw_bookmark_write(c->dir, c->bm, e)) return -1;
    c->bm_mark = c->watermark;
    c->bm_last = now;
    c->bm_writes++;
    c->here_last_s = mnw_now() - now;
    c->here_s += c->here_last_s;
    return 0;
}

void mnw_cld_stop(mnw_cld *c) { c->stopping = 1; }

int mnw_cld_next(mnw_cld *c, mnw_range *r)
{
    if (c->next_k >= c->npairs || c->stopping) return -1;
    if (c->place) {
        int x = mnw_place_next(c->place, r);
        c->next_k = c->place->next_k;
        return x;
    }
    if (c->next_k >= c->watermark + c->window * c->wl) return 0;
    r->k0 = c->next_k;
    r->count = c->npairs - c->next_k < c->wl ? c->npairs - c->next_k : c->wl;
    c->next_k += r->count;
    return 1;
}

int mnw_cld_accept(mnw_cld *c, mnw_result *res, mnw_err *e)
{
    uint64_t k0 = res->r.k0;
    uint64_t slot = (k0 / c->wl) % c->window;
    if (res->pruned > res->r.count) {
        uint64_t p = res->pruned, n = res->r.count;
        mnw_result_free(res);
        return mnw_err_set(e, "result for pairs from %llu counts %llu pruned of its %llu pairs",
                           (unsigned long long)k0, (unsigned long long)p, (unsigned long long)n);
    }
    if (k0 % c->wl || k0 < c->watermark || k0 >= c->next_k || c->slots[slot]) {
        mnw_result_free(res);
        return mnw_err_set(e, "result for pairs from %llu was not expected (not handed out, or received twice)",
                           (unsigned long long)k0);
    }
    c->slots[slot] = res;
    for (;;) {
        uint64_t s = (c->watermark / c->wl) % c->window;
        mnw_result *x = c->slots[s];
        if (!x || x->r.k0 != c->watermark) break;
        for (int o = 0; o < MNW_NOUT; o++)
            if (mnw_writer_append(c->w, o, x->data[o].p, x->data[o].len, e)) return -1;
        c->watermark += x->r.count;
        c->cells += x->cells;
        c->pruned += x->pruned;
        c->slots[s] = NULL;
        mnw_result_free(x);
        if (c->watermark == c->npairs) break;
    }
    return mnw_cld_checkpoint(c, c->watermark == c->npairs, e);
}

int mnw_cld_place_mode(mnw_cld *c, mnw_err *e)
{
    if (mnw_writer_close(c->w, e)) return -1; /* the heads (or a resumed run's cut) on disk */
    c->place = mnw_xcalloc(1, sizeof *c->place);
    mnw_place_init(c->place, c->npairs, c->wl, c->window, c->watermark, c->w->enabled, c->w->bytes, c->w->sum);
    return 0;
}

int mnw_cld_sized(mnw_cld *c, const mnw_wire_head *h, int rank, mnw_err *e)
{
    return mnw_place_sized(c->place, h->k0, h->count, h->len, h->cells, h->pruned, rank, e);
}

int mnw_cld_window_full(const mnw_cld *c)
{
    return c->next_k < c->npairs && c->next_k >= c->watermark + c->window * c->wl;
}

int mnw_cld_take(mnw_cld *c, mnw_wire_place *pl, int *rank)
{
    return mnw_place_take(c->place, &pl->k0, pl->off, rank);
}

int mnw_cld_written(mnw_cld *c, const mnw_wire_written *w, int rank, mnw_err *e)
{
    uint64_t pruned0 = c->place->pruned;
    if (mnw_place_written(c->place, w->k0, rank, w->n, w->crc, w->len, e)) return -1;
    c->pruned += c->place->pruned - pruned0; /* the lists that became durable */
    if (c->place->watermark == c->watermark) return 0;
    c->watermark = c->place->watermark;
    c->cells = c->place->cells;
    return mnw_cld_checkpoint(c, c->watermark == c->npairs, e);
}
