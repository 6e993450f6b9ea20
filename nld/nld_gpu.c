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
 *
 * With the filter's plan on (issue 39, lib/prune.h) the lists go through
 * the devices' filters first: the lists taken from the queue wait in
 * order (a FIFO); each device fills a filter batch with their pairs (up to
 * mnw_gpu_opts.prune_pairs, many lists' pairs, added as runs of
 * consecutive pairs: the filter is about 100 times cheaper a pair than the
 * DP) and launches it on its own stream when it is full or no more lists
 * come now, so a filter batch runs beside the two alignment batches; its
 * decisions go back to their lists. The list at the head of the FIFO, once
 * every pair of it is decided, is placed into the alignment batches as
 * without the filter, except that only the kept pairs are placed (found
 * eight decisions a step); a finish task on a CPU worker (conv_run) marks
 * the pruned pairs' mnw_aln (pruned = 1) and counts them converted. At
 * 0.03 the device decides about 40 M pairs a second, so the dispatcher's
 * own work a pair must stay far below 25 ns (it was about 43 ns, pair by
 * pair, before: the thread was busy all the run). New lists are taken while fewer than 4 filter batches' pairs
 * per device wait in the FIFO. `cells` counts the aligned pairs only;
 * dev_pairs[1 + k] counts the pairs GPU k aligned plus those its filter
 * pruned (so the devices' pairs still add up to the list's).
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
#include <string.h>
#include <time.h>

#include "lib/log.h"
#include "nld/finplan.h"
#include "nld/nld_gpu_int.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/gpu/gpu.h"

/* One work list on its way through the GPUs. */
typedef struct glist_ {
    mnw_range r;
    mnw_aln *alns; /* r.count, in pair order */
    uint64_t cells;
    atomic_uint_fast64_t remaining; /* pairs not yet converted */
    uint64_t next;                  /* next pair to place (dispatcher only) */
    uint64_t ni, nj;                /* pair `next` as (i, j) */
    uint64_t dev_pairs[MNW_RESULT_DEVS]; /* pairs placed (or pruned) per device ([0]: aligned here) */
    /* the filter (issue 39; dispatcher only) */
    uint8_t *pr;           /* the decisions, r.count (NULL without the filter) */
    uint64_t fnext;        /* next pair to put into a filter batch */
    uint64_t fi, fj;       /* pair fnext as (i, j) */
    uint64_t fleft;        /* pairs not yet decided */
    struct glist_ *qnext;  /* the FIFO of lists taken */
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

/* issue 39: a filter batch with its runs of consecutive pairs (gseg) */
typedef struct {
    mnw_gpu_fbatch *f;
    gseg *segs;
    int n, cap;
} fbat;

typedef struct {
    mnw_gpu *g;
    int id;
    fbat ff;      /* the filter batch being filled (f NULL: none) */
    fbat fr[MNW_GPU_FSLOTS]; /* those on the device (f NULL: a free entry) */
    int fstarved; /* the last ffill found no more pairs to add now */
    int fcap;     /* pairs per filter batch */
    gbatch *filling; /* batch being filled, or NULL */
    gbatch *launched[8]; /* by host batch, to find its segments when done */
    int nlaunched;
    /* seconds with no batch of any kind on the device, by cause (issue
     * 40): before its first batch (the start: the first lists), waiting
     * for work lists (the node's queue was empty), for finishers (every
     * host batch still lent), after the queue ended (the tail: the other
     * devices' and workers' last lists); and with the filter, seconds its
     * alignment slots were empty while filter batches ran */
    double idle_start, idle_work, idle_fin, idle_end, align_wait, t_last;
    int used;     /* a batch was on the device */
    int no_batch; /* the last fill found no free host batch */
} gdev;

struct nld_gpu {
    nld_state *st;
    pthread_t th;
    gdev *dev;
    int ndev;
    glist *cur; /* list being placed (dropped once its last pair is placed) */
    /* the filter (issue 39) */
    int prune;
    glist *qhead, *qtail; /* lists taken, not yet wholly placed, in order */
    uint64_t qpairs;      /* their pairs not yet placed */
    int end;              /* no list can come any more */
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

/* A device that failed (g NULL: could not be opened; else after it
 * opened: a lost GPU, an uncorrectable ECC error, any CUDA error of a
 * batch): the node stops with a message naming the GPU and the host; the
 * lists finished before are in the bookmark, so a resume finishes the
 * rest (docs/GPU.md, "When a GPU fails"). */
static void dev_fail(nld_state *st, int id, const mnw_gpu *g, const mnw_err *e)
{
    char host[256];
    mnw_err w;
    mnw_hostname(host, sizeof host, 0);
    if (!g) {
        mnw_err_set(&w, "GPU %d of host %s: %s", id, host, e->msg);
    } else {
        const char *desc = mnw_gpu_describe(g), *p = strstr(desc, ": ");
        mnw_err_set(&w, "GPU %d of host %s failed (%s): %s; this node stops (the work lists it finished are in the "
                        "bookmark: `mnw --resume OUTDIR` finishes the rest, leaving a faulty GPU out with --gpus)",
                    id, host, p ? p + 2 : desc, e->msg);
    }
    fail(st, &w);
}

/* With the filter the alignments are not zeroed here (a list's 440 KB, on
 * the dispatcher's one core, were most of its time a pair at 0.03): a kept
 * pair's is initialised when it is placed, a pruned pair's by the finish
 * task that counts it converted (conv_run). */
static glist *glist_new(mnw_range r, int prune)
{
    glist *l = mnw_xcalloc(1, sizeof *l);
    l->r = r;
    const size_t n = r.count ? r.count : 1;
    l->alns = prune ? mnw_xmalloc(n * sizeof *l->alns) : mnw_xcalloc(n, sizeof *l->alns);
    atomic_init(&l->remaining, r.count);
    mnw_pair_ij(r.k0, &l->ni, &l->nj);
    if (prune) {
        l->pr = mnw_xcalloc(n, 1);
        l->fleft = r.count;
        l->fi = l->ni;
        l->fj = l->nj;
    }
    return l;
}

/* Every alignment of the list is initialised, except with the filter: there
 * the kept pairs before `next` only (a pruned pair's owns nothing; a list
 * freed after an error may have pairs not reached yet). */
static void glist_free(glist *l)
{
    for (uint64_t x = 0; x < l->r.count; x++)
        if (!l->pr) mnw_aln_free(&l->alns[x]);
        else if (x < l->next && !l->pr[x]) mnw_aln_free(&l->alns[x]);
    free(l->alns);
    free(l->pr);
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
    return got ? glist_new(r, G->prune) : NULL;
}

/* (i, j) -> the next pair in row order */
static void next_pair(uint64_t *i, uint64_t *j)
{
    if (++*j == *i) {
        ++*i;
        *j = 0;
    }
}

/* Pairs lx .. lx + count - 1 of list l are pairs bx .. of a batch whose
 * runs are segs[0 .. *n): extends the last run, or starts one. */
static void seg_push(gseg **segs, int *n, int *cap, glist *l, uint64_t lx, int bx, int count)
{
    gseg *s = *n ? &(*segs)[*n - 1] : NULL;
    if (s && s->l == l && s->lx0 + (uint64_t)s->count == lx && s->bx0 + s->count == bx) {
        s->count += count;
        return;
    }
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *segs = mnw_xrealloc(*segs, (size_t)*cap * sizeof **segs);
    }
    (*segs)[(*n)++] = (gseg){l, lx, bx, count};
}

/* Places pair l->next (l->ni, l->nj) into device d's batch gb: 1 placed,
 * -1 aligned here on the CPU (the device can never take it; the caller
 * counts it converted), 0 the batch is full (nothing done). */
static int place_pair(nld_gpu *G, gdev *d, gbatch *gb, glist *l)
{
    const mnw_seqset *S = G->st->cfg->js->spec->seqs;
    const int r = mnw_gpu_batch_add(gb->b, (uint32_t)l->ni, (uint32_t)l->nj);
    if (r == 0) return 0;
    const uint64_t m = mnw_seq_len(S, l->ni), n = mnw_seq_len(S, l->nj);
    l->cells += m * n;
    int di = r == 1 ? 1 + (int)(d - G->dev) : 0;
    l->dev_pairs[di < MNW_RESULT_DEVS ? di : MNW_RESULT_DEVS - 1]++;
    if (r == 1) {
        seg_push(&gb->segs, &gb->nsegs, &gb->cap, l, l->next, mnw_gpu_batch_count(gb->b) - 1, 1);
        return 1;
    }
    const uint8_t *t = mnw_seq_codes(S, l->nj);
    int nn = (int)n;
    mnw_cpu_align(G->ws, G->st->cfg->js->sc, mnw_seq_codes(S, l->ni), (int)m, &t, &nn, 1, &l->alns[l->next]);
    return -1;
}

/* Fills device d's batch from the queue. Returns 1 if it is ready to
 * launch (full, or the queue is empty for now), 0 if there is nothing to
 * launch. *end: no more work will come. */
static int fill(nld_gpu *G, gdev *d, int *end)
{
    nld_state *st = G->st;
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
            const int r = place_pair(G, d, gb, l);
            if (r == 0) return 1; /* full */
            l->next++;
            next_pair(&l->ni, &l->nj);
            /* once its last pair is placed the list belongs to its finishers */
            int last = l->next == l->r.count;
            if (last) G->cur = NULL;
            if (r < 0) glist_done(st, l, 1, G->text);
            if (last) break;
        }
    }
    return mnw_gpu_batch_count(gb->b) > 0;
}

/* ---- the filter (issue 39) ---- */

/* The next list from the queue into the FIFO (an empty one gets its empty
 * result at once); NULL if none now (G->end: none will come). */
static glist *fifo_take(nld_gpu *G)
{
    for (;;) {
        int end = 0;
        glist *l = take_list(G, &end);
        if (end) G->end = 1;
        if (!l) return NULL;
        if (l->r.count == 0) {
            atomic_store(&l->remaining, 1);
            glist_done(G->st, l, 1, G->text);
            continue;
        }
        if (G->qtail) G->qtail->qnext = l;
        else G->qhead = l;
        G->qtail = l;
        G->qpairs += l->r.count;
        return l;
    }
}

/* Fills device d's filter batch with the pairs of the FIFO's lists not yet
 * in one, taking new lists while fewer than 4 filter batches' pairs per
 * device wait. 1 when the batch is full; d->fstarved when no more pairs
 * can be added now. */
static int ffill(nld_gpu *G, gdev *d, int cap)
{
    d->fstarved = 0;
    if (!d->ff.f) {
        d->ff.f = mnw_gpu_fbatch_get(d->g);
        d->ff.n = 0;
        if (!d->ff.f) return 0;
    }
    mnw_gpu_fbatch *f = d->ff.f;
    glist *l = G->qhead;
    for (;;) {
        while (l && l->fnext == l->r.count) l = l->qnext;
        if (!l) {
            if (G->end || G->qpairs >= 4 * (uint64_t)cap * (uint64_t)G->ndev || !(l = fifo_take(G))) {
                d->fstarved = 1;
                return 0;
            }
            continue;
        }
        /* the list's remaining pairs, or as many as the batch has room for, in one run */
        const int bx0 = mnw_gpu_fbatch_count(f);
        const uint64_t got = mnw_gpu_fbatch_add_run(f, &l->fi, &l->fj, l->r.count - l->fnext);
        if (got == 0) return 1;
        seg_push(&d->ff.segs, &d->ff.n, &d->ff.cap, l, l->fnext, bx0, (int)got);
        l->fnext += got;
        if (l->fnext < l->r.count) return 1; /* full */
    }
}

/* A finished filter batch of device d: its decisions into their lists. */
static void fdone(nld_gpu *G, gdev *d, mnw_gpu_fbatch *f)
{
    const uint8_t *out = mnw_gpu_fbatch_pruned(f);
    int di = 1 + (int)(d - G->dev);
    if (di >= MNW_RESULT_DEVS) di = MNW_RESULT_DEVS - 1;
    fbat *fr = d->fr;
    while (fr->f != f) fr++; /* the device hands back only batches it was given */
    for (int k = 0; k < fr->n; k++) {
        const gseg *s = &fr->segs[k];
        uint64_t npr = 0;
        for (int x = 0; x < s->count; x++) npr += out[s->bx0 + x];
        memcpy(s->l->pr + s->lx0, out + s->bx0, (size_t)s->count);
        s->l->dev_pairs[di] += npr;
        s->l->fleft -= (uint64_t)s->count;
    }
    fr->n = 0;
    fr->f = NULL;
    mnw_gpu_fbatch_put(f);
}

/* The first pair at or after x in [x, n) that the filter kept (pr 0), or
 * n: eight decisions a step (each 0 or 1). */
static uint64_t next_kept(const uint8_t *pr, uint64_t x, uint64_t n)
{
    const uint64_t ones = 0x0101010101010101ull;
    while (x + 8 <= n) {
        uint64_t w;
        memcpy(&w, pr + x, 8);
        w ^= ones; /* a kept pair's byte becomes 1 */
        if (w) return x + (uint64_t)__builtin_ctzll(w) / 8; /* little-endian: the first byte is the lowest */
        x += 8;
    }
    while (x < n && pr[x]) x++;
    return x;
}

/* (i, j) -> d pairs later in row order */
static void skip_pairs(uint64_t *i, uint64_t *j, uint64_t d)
{
    *j += d;
    while (*j >= *i) {
        *j -= *i;
        ++*i;
    }
}

/* A finish task for pairs [x0, x1) of list l that need no GPU: the pruned
 * pairs' alignments are marked (pruned, owning nothing) and, with those
 * the dispatcher aligned itself, n pairs count as converted. */
typedef struct {
    nld_fin f;
    glist *l;
    uint64_t x0, x1, n;
} gconv;

static void conv_run(nld_fin *f, nld_state *st, mnw_cpu_worker *w)
{
    gconv *c = (gconv *)f;
    glist *l = c->l;
    for (uint64_t x = c->x0; x < c->x1; x++)
        if (l->pr[x]) {
            mnw_aln_init(&l->alns[x]);
            l->alns[x].pruned = 1;
        }
    const uint64_t n = c->n;
    free(c);
    glist_done(st, l, n, w->text);
}

/* fill() with the filter: places the decided lists at the head of the
 * FIFO into device d's batch: only the kept pairs (found eight decisions a
 * step); the pruned ones are counted converted by a finish task on a CPU
 * worker (conv_run), so that the dispatcher's work is a small fraction of
 * a nanosecond a pruned pair. Returns 2 if the batch is full, 1 if it holds
 * pairs and nothing more is decided now, else 0. */
static int fill_pruned(nld_gpu *G, gdev *d)
{
    nld_state *st = G->st;
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
        glist *l = G->qhead;
        if (!l || l->fleft) break; /* the head is not decided yet */
        const uint64_t n = l->r.count, x0 = l->next;
        uint64_t kept = 0; /* pairs placed into the batch (not those aligned here on the CPU) */
        int full = 0;
        for (;;) {
            const uint64_t x = next_kept(l->pr, l->next, n);
            if (x == n) {
                l->next = n; /* (ni, nj) are not read again */
                break;
            }
            skip_pairs(&l->ni, &l->nj, x - l->next);
            l->next = x;
            mnw_aln_init(&l->alns[x]);
            const int r = place_pair(G, d, gb, l);
            if (r == 0) { /* full: pair x waits for the next batch (its alignment owns nothing yet) */
                full = 1;
                break;
            }
            kept += r > 0;
            l->next++;
            next_pair(&l->ni, &l->nj);
        }
        const uint64_t x1 = l->next, conv = x1 - x0 - kept; /* pruned, and aligned here */
        G->qpairs -= x1 - x0;
        /* once its last pair is placed the list belongs to its finishers */
        if (x1 == n) {
            G->qhead = l->qnext;
            if (!G->qhead) G->qtail = NULL;
        }
        if (conv) {
            gconv *c = mnw_xcalloc(1, sizeof *c);
            c->f.run = conv_run;
            c->f.dev = -1; /* pruned pairs: no device's results */
            c->l = l;
            c->x0 = x0;
            c->x1 = x1;
            c->n = conv;
            lock(st);
            mnw_nld_push_fin_locked(st, &c->f);
            unlock(st);
        }
        if (full) return 2;
    }
    return mnw_gpu_batch_count(gb->b) > 0;
}

/* One device's open (a thread per device: each takes 0.2 s or more, the
 * kernel choice measured and, with the filter, its tables built; one after
 * the other, four of them kept the first GPUs waiting ~0.7 s). */
typedef struct {
    nld_gpu *G;
    int k;
    int rc;
    int ti; /* the device in the topology (topo.h), -1: unknown */
    double took;
    char busid[32];
    mnw_err e;
} dev_open;

static void *open_one(void *p)
{
    dev_open *a = p;
    mnw_log_set_thread("gpu");
    nld_gpu *G = a->G;
    nld_state *st = G->st;
    gdev *d = &G->dev[a->k];
    mnw_gpu_opts o;
    mnw_gpu_opts_default(&o);
    o.traceback_device = st->cfg->tb_device;
    if (st->cfg->js->figs) { /* counts mode (issue 20) */
        o.figures = 1;
        o.eqt = *st->cfg->js->figs;
    }
    o.max_pairs = st->cfg->gpu_batch;
    o.kernel = st->cfg->gpu_kernel;
    o.prune = G->prune ? st->cfg->js->prune : NULL;
    /* tests (t_gpu_emu.sh): filter batches of a few pairs, so that a
     * list's run is cut at a batch's end and lists share batches */
    const char *tfb = getenv("MNW_TEST_FILTER_BATCH");
    if (tfb && atoi(tfb) > 0) o.prune_pairs = atoi(tfb);
    d->fcap = o.prune_pairs;
    if (st->cfg->gpu_sharers > 1) o.mem_frac /= st->cfg->gpu_sharers;
    /* near its GPU: the pinned buffers it allocates land on the GPU's NUMA node */
    a->ti = -1;
    if (mnw_gpu_busid_of(d->id, a->busid, sizeof a->busid) == 0 && st->cfg->topo) {
        a->ti = mnw_topo_gpu_index(st->cfg->topo, a->busid);
        mnw_err be;
        if (a->ti >= 0 && mnw_topo_bind_near_gpu(st->cfg->topo, a->ti, &be))
            LOG_WARN("GPU %d opened unbound: %s", d->id, be.msg);
    }
    double t0 = mnw_now();
    d->g = mnw_gpu_open(d->id, st->cfg->js->spec->seqs, st->cfg->js->sc, &o, &a->e);
    a->took = mnw_now() - t0;
    a->rc = d->g ? 0 : -1;
    return NULL;
}

typedef struct {
    const mnw_topo *t;
    const dev_open *a;
} near_ctx;

static int near_dev(void *p, int slot, int dev)
{
    const near_ctx *c = p;
    return c->a[dev].ti >= 0 && mnw_topo_slot_near_gpu(c->t, slot, c->a[dev].ti);
}

/* The CPU workers' plan (finplan.h): each finishing worker's home device
 * and core, published for the workers (they bind again at their next
 * task), and one log line per device. */
static void plan_workers(nld_gpu *G, const dev_open *a)
{
    nld_state *st = G->st;
    const mnw_nld_cfg *cfg = st->cfg;
    const int W = cfg->workers, nfin = mnw_finplan_finishers(W, G->ndev, cfg->cpu_align);
    int *home = mnw_xcalloc((size_t)W, sizeof *home), *slot = mnw_xcalloc((size_t)W, sizeof *slot);
    near_ctx c = {cfg->topo, a};
    mnw_finplan(W, cfg->slot0, nfin, G->ndev, cfg->topo ? near_dev : NULL, &c, slot, home);
    int *mine = mnw_xcalloc((size_t)W, sizeof *mine);
    for (int k = 0; k < G->ndev; k++) {
        int n = 0, near = 0;
        for (int w = 0; w < W; w++)
            if (home[w] == k) {
                mine[n++] = slot[w];
                near += cfg->topo && near_dev(&c, slot[w], k);
            }
        char cpus[256] = "";
        if (cfg->topo) mnw_topo_slots_list(cfg->topo, mine, n, cpus, sizeof cpus);
        const mnw_topo_gpu *tg = cfg->topo && a[k].ti >= 0 ? &cfg->topo->gpu[a[k].ti] : NULL;
        char where[160];
        if (!cfg->topo) snprintf(where, sizeof where, "threads not bound: no topology");
        else if (!tg) snprintf(where, sizeof where, "where it sits is unknown: hwloc found no GPU at bus %s", a[k].busid);
        else snprintf(where, sizeof where, "%d of them near it, NUMA %s", near, tg->numa_list[0] ? tg->numa_list : "?");
        LOG_INFO("GPU %d: its results finished first by %d CPU worker%s%s%s (%s)", G->dev[k].id, n, n == 1 ? "" : "s",
                 cpus[0] ? " on CPUs " : "", cpus, where);
    }
    free(mine);
    lock(st);
    free(st->home);
    free(st->wslot);
    st->home = home;
    st->wslot = slot;
    st->plan_gen++;
    unlock(st);
}

/* Opens every device, at once (a thread each, bound near its GPU; in this
 * thread where one cannot start), logs them in order and plans the
 * workers. 0, or -1 after dev_fail for the first that failed (those open
 * are closed by the teardown). */
static int open_devices(nld_gpu *G)
{
    nld_state *st = G->st;
    dev_open *a = mnw_xcalloc((size_t)G->ndev, sizeof *a);
    pthread_t *th = mnw_xcalloc((size_t)G->ndev, sizeof *th);
    int *started = mnw_xcalloc((size_t)G->ndev, sizeof *started);
    if (st->cfg->gpu_sharers > 1) {
        mnw_gpu_opts o;
        mnw_gpu_opts_default(&o);
        LOG_INFO("GPU memory: %d ranks of this host drive GPUs and may share them: each takes 1/%d of what a GPU has "
                 "free (%.0f%%)",
                 st->cfg->gpu_sharers, st->cfg->gpu_sharers, 100.0 * o.mem_frac / st->cfg->gpu_sharers);
    }
    for (int k = 0; k < G->ndev; k++) {
        a[k] = (dev_open){.G = G, .k = k};
        started[k] = pthread_create(&th[k], NULL, open_one, &a[k]) == 0;
        if (!started[k]) open_one(&a[k]);
    }
    int rc = 0;
    for (int k = 0; k < G->ndev; k++) {
        if (started[k]) CHECK_PT(pthread_join(th[k], NULL));
        gdev *d = &G->dev[k];
        if (a[k].rc) {
            if (!rc) dev_fail(st, d->id, NULL, &a[k].e);
            rc = -1;
            continue;
        }
        LOG_INFO("%s: kernel %s, trace-back on the %s, batches of up to %d pairs, two in flight (opened in %.2fs%s)",
                 mnw_gpu_describe(d->g), mnw_gpu_kernel_name(d->g), st->cfg->tb_device ? "device" : "host",
                 st->cfg->gpu_batch, a[k].took, G->ndev > 1 ? ", beside the others" : "");
        if (G->prune)
            LOG_INFO("GPU %d: filter before the DP on the device, batches of up to %d pairs beside the alignment "
                     "batches (its tables built in %.2fs)",
                     d->id, d->fcap, mnw_gpu_prune_open_s(d->g));
    }
    if (!rc) plan_workers(G, a);
    free(started);
    free(th);
    free(a);
    return rc;
}

static void *gpu_main(void *p)
{
    nld_gpu *G = p;
    nld_state *st = G->st;
    mnw_log_set_thread("gpu");
    double loop_t0 = 0, loop_c0 = 0; /* the loop's start: wall, this thread's CPU */
    mnw_err e;
    int ok = open_devices(G) == 0;
    int end = 0;
    loop_t0 = mnw_now();
    loop_c0 = mnw_thread_cpu_s();
    while (ok) {
        int busy = 0, inflight = 0;
        lock(st);
        int stop = st->stop;
        unlock(st);
        if (stop) break;
        for (int k = 0; k < G->ndev; k++) {
            gdev *d = &G->dev[k];
            if (G->prune) { /* the filter: finished batches' decisions, then the next batch */
                mnw_gpu_fbatch *fb;
                int rc;
                while (ok && (rc = mnw_gpu_fbatch_poll(d->g, &fb, &e)) != 0) {
                    if (rc < 0) {
                        dev_fail(st, d->id, d->g, &e);
                        ok = 0;
                        break;
                    }
                    fdone(G, d, fb);
                    busy = 1;
                }
                if (!ok) break;
                const int full = ffill(G, d, d->fcap);
                if (d->ff.f && mnw_gpu_fbatch_count(d->ff.f) > 0 && mnw_gpu_fbatch_can_launch(d->g) &&
                    (full || d->fstarved)) {
                    if (mnw_gpu_fbatch_launch(d->g, d->ff.f, &e)) {
                        dev_fail(st, d->id, d->g, &e);
                        ok = 0;
                        break;
                    }
                    fbat *fr = d->fr;
                    while (fr->f) fr++; /* a free entry: the device had a free slot */
                    fbat t = *fr; /* (empty: its segments' array is reused) */
                    *fr = d->ff;
                    d->ff = t;
                    d->ff.f = NULL;
                    d->ff.n = 0;
                    busy = 1;
                }
            }
            while (mnw_gpu_can_launch(d->g)) {
                int e_end = 0;
                const int ready = G->prune ? fill_pruned(G, d) : fill(G, d, &e_end);
                if (!ready) {
                    end = G->prune ? G->end : e_end;
                    break;
                }
                /* with the filter about 1% of the pairs are kept: a batch
                 * that is not full waits while the device aligns another,
                 * so that batches stay large (launched at once when the
                 * device has none: it never idles for it) */
                if (G->prune && ready == 1 && d->nlaunched > 0) break;
                gbatch *gb = d->filling;
                d->filling = NULL;
                atomic_init(&gb->pending, gb->nsegs);
                if (mnw_gpu_launch(d->g, gb->b, &e)) {
                    dev_fail(st, d->id, d->g, &e);
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
                    dev_fail(st, d->id, d->g, &e);
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
                    f->f.dev = (int)(d - G->dev);
                    f->gb = gb;
                    f->seg = s;
                    mnw_nld_push_fin_locked(st, &f->f);
                }
                unlock(st);
            }
            int fon = 0; /* filter batches on the device */
            if (G->prune)
                for (int x = 0; x < MNW_GPU_FSLOTS; x++) fon += d->fr[x].f != NULL;
            inflight += d->nlaunched + (d->filling && mnw_gpu_batch_count(d->filling->b) > 0);
            if (G->prune) inflight += fon + (d->ff.f && mnw_gpu_fbatch_count(d->ff.f) > 0);
            double now = mnw_now();
            if (d->t_last > 0) {
                const double dt = now - d->t_last;
                if (d->nlaunched > 0) d->used = 1;
                else if (fon) {
                    d->used = 1;
                    d->align_wait += dt;
                } else if (!d->used) d->idle_start += dt;
                else if (end) d->idle_end += dt;
                else if (d->no_batch) d->idle_fin += dt;
                else d->idle_work += dt;
            }
            d->t_last = now;
        }
        if (end && inflight == 0 && !G->cur && !G->qhead) break;
        if (!busy) {
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
    }
    if (ok && G->ndev > 0)
        LOG_INFO("GPU dispatcher thread: %.1fs of CPU in %.1fs (filling, polling and placing the batches of %d GPU%s)",
                 mnw_thread_cpu_s() - loop_c0, mnw_now() - loop_t0, G->ndev, G->ndev > 1 ? "s" : "");
    for (int k = 0; k < G->ndev; k++) {
        gdev *d = &G->dev[k];
        if (!d->g) continue;
        mnw_gpu_stats gs;
        mnw_gpu_get_stats(d->g, &gs);
        if (ok)
            LOG_INFO("GPU %d: %llu pairs in %llu batches (rscan %llu, dscan %llu, tileddscan %llu; two per lane %llu), "
                     "%.2f GCUPS while busy (%.1fs busy; idle %.1fs at the start, %.1fs waiting for work lists, %.1fs "
                     "for finishers, %.1fs at the end)",
                     d->id, (unsigned long long)gs.pairs, (unsigned long long)gs.batches,
                     (unsigned long long)gs.kpairs[0], (unsigned long long)gs.kpairs[1],
                     (unsigned long long)gs.kpairs[2], (unsigned long long)gs.pairs2,
                     gs.busy_s > 0 ? (double)gs.cells / gs.busy_s / 1e9 : 0.0, gs.busy_s, d->idle_start, d->idle_work,
                     d->idle_fin, d->idle_end);
        if (ok && G->prune)
            LOG_INFO("GPU %d: filter: %llu pairs decided in %llu batches, %llu pruned (%.2f%%; %llu of them by the "
                     "edit-distance bound), %.1fs busy (%.2f M pairs/s while busy); its alignment batches waited %.1fs "
                     "for the filter",
                     d->id, (unsigned long long)gs.fpairs, (unsigned long long)gs.fbatches,
                     (unsigned long long)gs.fpruned, gs.fpairs ? 100.0 * (double)gs.fpruned / (double)gs.fpairs : 0.0,
                     (unsigned long long)gs.fpruned2, gs.fbusy_s, gs.fbusy_s > 0 ? (double)gs.fpairs / gs.fbusy_s / 1e6 : 0.0,
                     d->align_wait);
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
    G->prune = pp && pp->on; /* issue 39: the devices filter */
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

/* a pointer set (the teardown after an error): add, then sort and drop
 * the repeats */
typedef struct {
    void **p;
    size_t n, cap;
} pset;

static void pset_add(pset *s, void *p)
{
    if (!p) return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->p = mnw_xrealloc(s->p, s->cap * sizeof *s->p);
    }
    s->p[s->n++] = p;
}

static int ptr_cmp(const void *a, const void *b)
{
    const uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
    return (x > y) - (x < y);
}

static void pset_unique(pset *s)
{
    if (s->n) qsort(s->p, s->n, sizeof *s->p, ptr_cmp);
    size_t m = 0;
    for (size_t k = 0; k < s->n; k++)
        if (!m || s->p[m - 1] != s->p[k]) s->p[m++] = s->p[k];
    s->n = m;
}

static void gbatch_lists(pset *ls, const gbatch *gb)
{
    for (int k = 0; k < gb->nsegs; k++) pset_add(ls, gb->segs[k].l);
}

/* what mnw_nld_gpu_start allocated and the thread left: devices, lists,
 * buffers; G itself. Called once the CPU workers have ended (nld.c joins
 * them first): after an error (a device failed, the node stopped) the
 * finish tasks still queued are dropped here, not run, and every list
 * still referenced (being placed, in the FIFO, in a batch on a device or
 * lent to finishers, in a dropped task) is freed once. In a run that ended
 * well nothing of that is left. */
static void gpu_free(nld_gpu *G)
{
    nld_state *st = G->st;
    pset ls = {0}, bs = {0};
    while (st->fin_n) { /* (no worker runs now: no lock needed) */
        nld_fin *f = mnw_nld_pop_fin_locked(st, -1);
        if (f->run == fin_run) {
            gfin *gf = (gfin *)f;
            pset_add(&ls, gf->gb->segs[gf->seg].l);
            pset_add(&bs, gf->gb);
        } else if (f->run == conv_run)
            pset_add(&ls, ((gconv *)f)->l);
        free(f);
    }
    pset_unique(&bs);
    for (size_t k = 0; k < bs.n; k++) mnw_gpu_batch_put(((gbatch *)bs.p[k])->b); /* lent to finishers: back */
    for (int k = 0; k < G->ndev; k++) {
        gdev *d = &G->dev[k];
        if (d->filling) {
            gbatch_lists(&ls, d->filling);
            mnw_gpu_batch_put(d->filling->b);
            free(d->filling->segs);
            free(d->filling);
        }
        if (d->ff.f) mnw_gpu_fbatch_put(d->ff.f);
        free(d->ff.segs);
        for (int x = 0; x < MNW_GPU_FSLOTS; x++) free(d->fr[x].segs);
        for (int x = 0; x < d->nlaunched; x++) {
            gbatch_lists(&ls, d->launched[x]);
            free(d->launched[x]->segs);
            free(d->launched[x]);
        }
        mnw_gpu_close(d->g);
    }
    for (size_t k = 0; k < bs.n; k++) {
        gbatch *gb = bs.p[k];
        free(gb->segs);
        free(gb);
    }
    pset_add(&ls, G->cur);
    for (glist *l = G->qhead; l; l = l->qnext) pset_add(&ls, l);
    pset_unique(&ls);
    for (size_t k = 0; k < ls.n; k++) glist_free(ls.p[k]);
    free(ls.p);
    free(bs.p);
    mnw_cpu_ws_free(G->ws);
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_free(&G->text[o]);
    free(G->dev);
    free(G);
}
