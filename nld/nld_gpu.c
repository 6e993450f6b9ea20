/* nld_gpu.c - the GPU dispatcher thread of a node (nld_gpu_int.h, docs/GPU.md).
 *
 * One thread drives every device of the node. In a loop it:
 *   1. fills a batch per device with pairs taken from the node's work queue
 *      (the queue the CPU workers take from; a work list may spread over
 *      several batches and devices) and launches it when the batch is full,
 *      or when the queue has nothing more right now, as long as the device
 *      has a free slot (two batches in flight per device);
 *   2. polls every device; a finished batch becomes one finish task per
 *      work-list segment, queued for the CPU workers, which convert the
 *      alignments (mnw_gpu_batch_aln); whoever converts the last pair of a
 *      work list builds its result (mnw_result_build: the same bytes as a
 *      CPU worker) and hands it to the comm thread;
 *   3. sleeps 50 us when there was nothing to do.
 * Pairs a device refuses (an empty sequence) are aligned here on the CPU.
 * Any CUDA error stops the node (mnw_nld_fail_locked): a non-zero exit,
 * never silent missing output.
 *
 * Ownership: the thread owns the devices and the per-list state until the
 * last finish task of a list frees it.
 * Thread-safety: the dispatcher's own fields are touched by its thread
 * only; list and batch counters shared with finishers are atomic.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lib/log.h"
#include "nld/nld_gpu_int.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/gpu/gpu.h"

/* One work list on its way through the GPUs. */
typedef struct {
    mnw_range r;
    mnw_aln *alns; /* r.count, in pair order */
    uint64_t cells;
    atomic_uint_fast64_t remaining; /* pairs not yet converted */
    uint64_t next;                  /* next pair to place (dispatcher only) */
    uint64_t ni, nj;                /* pair `next` as (i, j) */
    uint64_t dev_pairs[MNW_RESULT_DEVS]; /* pairs placed per device ([0]: aligned here) */
} glist;

/* A run of consecutive pairs of one list in one batch. */
typedef struct {
    glist *l;
    uint64_t lx0; /* first pair in the list */
    int bx0, count;
} gseg;

/* A batch on the device or with its finishers. */
typedef struct {
    mnw_gpu_batch *b;
    gseg *segs;
    int nsegs, cap;
    atomic_int pending; /* finish tasks not done */
} gbatch;

typedef struct {
    nld_fin f;
    gbatch *gb;
    int seg;
} gfin;

typedef struct {
    mnw_gpu *g;
    int id;
    gbatch *filling; /* batch being filled, or NULL */
    gbatch *launched[8]; /* by host batch, to find its segments when done */
    int nlaunched;
    /* seconds with no batch on the device, waiting for work lists (the
     * queue was empty) or for finishers (every host batch still lent) */
    double idle_work, idle_fin, t_last;
    int no_batch; /* the last fill found no free host batch */
} gdev;

struct nld_gpu {
    nld_state *st;
    pthread_t th;
    gdev *dev;
    int ndev;
    glist *cur; /* list being placed (dropped once its last pair is placed) */
    mnw_cpu_ws *ws;
    mnw_buf text[MNW_NOUT]; /* for a list whose last pair it aligns itself */
};

static void lock(nld_state *st) { CHECK_PT(pthread_mutex_lock(&st->mu)); }
static void unlock(nld_state *st) { CHECK_PT(pthread_mutex_unlock(&st->mu)); }

static void fail(nld_state *st, const mnw_err *e)
{
    lock(st);
    mnw_nld_fail_locked(st, e);
    unlock(st);
}

static glist *glist_new(mnw_range r)
{
    glist *l = mnw_xcalloc(1, sizeof *l);
    l->r = r;
    l->alns = mnw_xcalloc(r.count ? r.count : 1, sizeof *l->alns);
    atomic_init(&l->remaining, r.count);
    mnw_pair_ij(r.k0, &l->ni, &l->nj);
    return l;
}

static void glist_free(glist *l)
{
    for (uint64_t x = 0; x < l->r.count; x++) mnw_aln_free(&l->alns[x]);
    free(l->alns);
    free(l);
}

/* n pairs of list l are converted: the last one builds the result. */
static void glist_done(nld_state *st, glist *l, uint64_t n, mnw_buf *text)
{
    if (atomic_fetch_sub(&l->remaining, n) != n) return;
    mnw_err e;
    mnw_result *res = mnw_result_build(st->cfg->js, l->r, l->alns, l->cells, text, &e);
    if (res) memcpy(res->dev_pairs, l->dev_pairs, sizeof res->dev_pairs);
    glist_free(l);
    lock(st);
    if (res) mnw_nld_push_done_locked(st, res);
    else mnw_nld_fail_locked(st, &e);
    unlock(st);
}

/* A finish task, on a CPU worker: convert one segment's alignments. */
static void fin_run(nld_fin *f, nld_state *st, mnw_cpu_worker *w)
{
    gfin *gf = (gfin *)f;
    gbatch *gb = gf->gb;
    gseg *s = &gb->segs[gf->seg];
    for (int x = 0; x < s->count; x++) mnw_gpu_batch_aln(gb->b, s->bx0 + x, &s->l->alns[s->lx0 + x]);
    glist *l = s->l;
    int n = s->count;
    free(gf);
    if (atomic_fetch_sub(&gb->pending, 1) == 1) {
        mnw_gpu_batch_put(gb->b);
        free(gb->segs);
        free(gb);
    }
    glist_done(st, l, (uint64_t)n, w->text);
}

/* The next list to place, from the queue; NULL if none now. *end is set
 * when no list can come any more. */
static glist *take_list(nld_gpu *G, int *end)
{
    nld_state *st = G->st;
    mnw_range r;
    lock(st);
    int got = !st->stop && mnw_nld_take_locked(st, &r);
    *end = st->stop || (!got && st->no_more);
    unlock(st);
    return got ? glist_new(r) : NULL;
}

static void seg_add(gbatch *gb, glist *l, uint64_t lx, int bx)
{
    gseg *s = gb->nsegs ? &gb->segs[gb->nsegs - 1] : NULL;
    if (s && s->l == l && s->lx0 + (uint64_t)s->count == lx && s->bx0 + s->count == bx) {
        s->count++;
        return;
    }
    if (gb->nsegs == gb->cap) {
        gb->cap = gb->cap ? 2 * gb->cap : 16;
        gb->segs = mnw_xrealloc(gb->segs, (size_t)gb->cap * sizeof *gb->segs);
    }
    gb->segs[gb->nsegs++] = (gseg){l, lx, bx, 1};
}

/* Fills device d's batch from the queue. Returns 1 if it is ready to
 * launch (full, or the queue is empty for now), 0 if there is nothing to
 * launch. *end: no more work will come. */
static int fill(nld_gpu *G, gdev *d, int *end)
{
    nld_state *st = G->st;
    const mnw_seqset *S = st->cfg->js->spec->seqs;
    *end = 0;
    d->no_batch = 0;
    if (!d->filling) {
        mnw_gpu_batch *b = mnw_gpu_batch_get(d->g);
        d->no_batch = !b;
        if (!b) return 0;
        d->filling = mnw_xcalloc(1, sizeof *d->filling);
        d->filling->b = b;
    }
    gbatch *gb = d->filling;
    for (;;) {
        if (!G->cur) {
            G->cur = take_list(G, end);
            if (!G->cur) break;
            if (G->cur->r.count == 0) { /* nothing to place: its (empty) result now */
                glist *l = G->cur;
                G->cur = NULL;
                atomic_store(&l->remaining, 1);
                glist_done(st, l, 1, G->text);
                continue;
            }
        }
        glist *l = G->cur;
        while (l->next < l->r.count) {
            int r = mnw_gpu_batch_add(gb->b, (uint32_t)l->ni, (uint32_t)l->nj);
            if (r == 0) return 1; /* full */
            uint64_t m = mnw_seq_len(S, l->ni), n = mnw_seq_len(S, l->nj);
            l->cells += m * n;
            int di = r == 1 ? 1 + (int)(d - G->dev) : 0;
            l->dev_pairs[di < MNW_RESULT_DEVS ? di : MNW_RESULT_DEVS - 1]++;
            if (r == 1) {
                seg_add(gb, l, l->next, mnw_gpu_batch_count(gb->b) - 1);
            } else { /* the device cannot take it: align it here */
                const uint8_t *t = mnw_seq_codes(S, l->nj);
                int nn = (int)n;
                mnw_cpu_align(G->ws, st->cfg->js->sc, mnw_seq_codes(S, l->ni), (int)m, &t, &nn, 1,
                              &l->alns[l->next]);
            }
            l->next++;
            if (++l->nj == l->ni) {
                l->ni++;
                l->nj = 0;
            }
            /* once its last pair is placed the list belongs to its finishers */
            int last = l->next == l->r.count;
            if (last) G->cur = NULL;
            if (r < 0) glist_done(st, l, 1, G->text);
            if (last) break;
        }
    }
    return mnw_gpu_batch_count(gb->b) > 0;
}

static void *gpu_main(void *p)
{
    nld_gpu *G = p;
    nld_state *st = G->st;
    mnw_log_set_thread("gpu");
    mnw_err e;
    int ok = 1;
    for (int k = 0; k < G->ndev && ok; k++) {
        gdev *d = &G->dev[k];
        mnw_gpu_opts o;
        mnw_gpu_opts_default(&o);
        o.traceback_device = st->cfg->tb_device;
        if (st->cfg->js->figs) { /* counts mode (issue 20) */
            o.figures = 1;
            o.eqt = *st->cfg->js->figs;
        }
        o.max_pairs = st->cfg->gpu_batch;
        o.kernel = st->cfg->gpu_kernel;
        if (st->cfg->gpu_sharers > 1) {
            o.mem_frac /= st->cfg->gpu_sharers;
            if (k == 0)
                LOG_INFO("GPU memory: %d ranks of this host drive GPUs and may share them: each takes 1/%d of what "
                         "a GPU has free (%.0f%%)",
                         st->cfg->gpu_sharers, st->cfg->gpu_sharers, 100.0 * o.mem_frac);
        }
        double t0 = mnw_now();
        d->g = mnw_gpu_open(d->id, st->cfg->js->spec->seqs, st->cfg->js->sc, &o, &e);
        if (!d->g) {
            fail(st, &e);
            ok = 0;
            break;
        }
        LOG_INFO("%s: kernel %s, trace-back on the %s, batches of up to %d pairs, two in flight (opened in %.2fs)",
                 mnw_gpu_describe(d->g), mnw_gpu_kernel_name(d->g), st->cfg->tb_device ? "device" : "host",
                 st->cfg->gpu_batch, mnw_now() - t0);
    }
    int end = 0;
    while (ok) {
        int busy = 0, inflight = 0;
        lock(st);
        int stop = st->stop;
        unlock(st);
        if (stop) break;
        for (int k = 0; k < G->ndev; k++) {
            gdev *d = &G->dev[k];
            while (mnw_gpu_can_launch(d->g)) {
                int e_end = 0;
                if (!fill(G, d, &e_end)) {
                    end = e_end;
                    break;
                }
                gbatch *gb = d->filling;
                d->filling = NULL;
                atomic_init(&gb->pending, gb->nsegs);
                if (mnw_gpu_launch(d->g, gb->b, &e)) {
                    fail(st, &e);
                    ok = 0;
                    break;
                }
                d->launched[d->nlaunched++] = gb;
                busy = 1;
            }
            if (!ok) break;
            mnw_gpu_batch *b;
            int rc;
            while (ok && (rc = mnw_gpu_poll(d->g, &b, &e)) != 0) {
                if (rc < 0) {
                    fail(st, &e);
                    ok = 0;
                    break;
                }
                int x = 0;
                while (d->launched[x]->b != b) x++;
                gbatch *gb = d->launched[x];
                d->launched[x] = d->launched[--d->nlaunched];
                busy = 1;
                lock(st);
                for (int s = 0; s < gb->nsegs; s++) {
                    gfin *f = mnw_xcalloc(1, sizeof *f);
                    f->f.run = fin_run;
                    f->gb = gb;
                    f->seg = s;
                    mnw_nld_push_fin_locked(st, &f->f);
                }
                unlock(st);
            }
            inflight += d->nlaunched + (d->filling && mnw_gpu_batch_count(d->filling->b) > 0);
            double now = mnw_now();
            if (d->nlaunched == 0 && d->t_last > 0 && !end) {
                if (d->no_batch) d->idle_fin += now - d->t_last;
                else d->idle_work += now - d->t_last;
            }
            d->t_last = now;
        }
        if (end && inflight == 0 && !G->cur) break;
        if (!busy) {
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
    }
    for (int k = 0; k < G->ndev; k++) {
        gdev *d = &G->dev[k];
        if (!d->g) continue;
        mnw_gpu_stats gs;
        mnw_gpu_get_stats(d->g, &gs);
        if (ok)
            LOG_INFO("GPU %d: %llu pairs in %llu batches (rscan %llu, dscan %llu, tileddscan %llu; two per lane %llu), "
                     "%.2f GCUPS while busy (%.1fs busy; idle %.1fs waiting for work lists, %.1fs for finishers)",
                     d->id, (unsigned long long)gs.pairs, (unsigned long long)gs.batches,
                     (unsigned long long)gs.kpairs[0], (unsigned long long)gs.kpairs[1],
                     (unsigned long long)gs.kpairs[2], (unsigned long long)gs.pairs2,
                     gs.busy_s > 0 ? (double)gs.cells / gs.busy_s / 1e9 : 0.0, gs.busy_s, d->idle_work, d->idle_fin);
    }
    /* after an error: wait for the finishers to give every batch back */
    lock(st);
    st->gpu_active = 0;
    CHECK_PT(pthread_cond_broadcast(&st->work_cv));
    unlock(st);
    return NULL;
}

static void gpu_free(nld_gpu *G);

nld_gpu *mnw_nld_gpu_start(nld_state *st, mnw_err *e)
{
    nld_gpu *G = mnw_xcalloc(1, sizeof *G);
    G->st = st;
    G->ndev = st->cfg->ngpus;
    const mnw_prune_plan *pp = st->cfg->js->prune;
    if (pp && pp->on) /* issue 39: the GPU filter is a later step */
        LOG_INFO("filter before the DP: the work lists the GPUs take are aligned in full (no GPU filter yet); the "
                 "outputs are the same bytes");
    G->dev = mnw_xcalloc((size_t)G->ndev, sizeof *G->dev);
    for (int k = 0; k < G->ndev; k++) G->dev[k].id = st->cfg->gpu_ids[k];
    G->ws = mnw_cpu_ws_new();
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_init(&G->text[o]);
    int rc = pthread_create(&G->th, NULL, gpu_main, G);
    if (rc) {
        mnw_err_thread(e, "the GPU dispatcher thread", rc);
        gpu_free(G);
        return NULL;
    }
    return G;
}

void mnw_nld_gpu_join(nld_gpu *G)
{
    CHECK_PT(pthread_join(G->th, NULL));
    gpu_free(G);
}

/* what mnw_nld_gpu_start allocated and the thread left: devices, lists,
 * buffers; G itself */
static void gpu_free(nld_gpu *G)
{
    for (int k = 0; k < G->ndev; k++) {
        gdev *d = &G->dev[k];
        if (d->filling) {
            mnw_gpu_batch_put(d->filling->b);
            free(d->filling->segs);
            free(d->filling);
        }
        for (int x = 0; x < d->nlaunched; x++) {
            free(d->launched[x]->segs);
            free(d->launched[x]);
        }
        mnw_gpu_close(d->g);
    }
    if (G->cur) glist_free(G->cur);
    mnw_cpu_ws_free(G->ws);
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_free(&G->text[o]);
    free(G->dev);
    free(G);
}
