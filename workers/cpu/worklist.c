/* worklist.c - see worklist.h. */
#include "workers/cpu/worklist.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

void mnw_wl_scratch_init(mnw_wl_scratch *s)
{
    memset(s, 0, sizeof *s);
    s->ws = mnw_cpu_ws_new();
}

void mnw_wl_scratch_free(mnw_wl_scratch *s)
{
    for (size_t k = 0; k < s->cap; k++) mnw_aln_free(&s->tmp[k]);
    free(s->tmp);
    free(s->t);
    free(s->n);
    free(s->order);
    free(s->pr);
    free(s->porder);
    mnw_prunec_free(s->pf);
    mnw_cpu_ws_free(s->ws);
    memset(s, 0, sizeof *s);
}

void mnw_wl_scratch_prune(mnw_wl_scratch *s, const mnw_prune_plan *p, const mnw_scoring *sc)
{
    mnw_prunec_free(s->pf);
    s->pf = p && p->on ? mnw_prunec_new(p, sc) : NULL;
}

static void grow(mnw_wl_scratch *s, size_t need)
{
    if (need <= s->cap) return;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < need) cap *= 2;
    s->tmp = mnw_xrealloc(s->tmp, cap * sizeof *s->tmp);
    for (size_t k = s->cap; k < cap; k++) mnw_aln_init(&s->tmp[k]);
    s->t = mnw_xrealloc(s->t, cap * sizeof *s->t);
    s->n = mnw_xrealloc(s->n, cap * sizeof *s->n);
    s->order = mnw_xrealloc(s->order, cap * sizeof *s->order);
    s->pr = mnw_xrealloc(s->pr, cap * sizeof *s->pr);
    s->porder = mnw_xrealloc(s->porder, cap * sizeof *s->porder);
    s->cap = cap;
}

/* sort key: target length, then position (a total order, so the grouping
 * and hence nothing else depends on qsort's stability) */
static _Thread_local const mnw_seqset *tl_seqs;
static _Thread_local uint64_t tl_j0;
static int by_len(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    size_t la = mnw_seq_len(tl_seqs, tl_j0 + a), lb = mnw_seq_len(tl_seqs, tl_j0 + b);
    if (la != lb) return la < lb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Targets the filter takes per call when someone may ask to yield. */
#define PRUNE_PIECE 256

/* The pairs (i, j .. j + seg - 1) of one row: s->order, s->t, s->n get
 * them sorted by target length; with a filter, only the kept ones (*kept of
 * them, same order), and s->porder[0 .. s->npr) the pruned ones' positions.
 * Returns their cells (the kept pairs'), or UINT64_MAX when may_yield and
 * yield asked to leave during the filtering. */
static uint64_t row_segment(mnw_wl_scratch *s, const mnw_seqset *seqs, uint64_t i, uint64_t j, uint64_t seg,
                            int may_yield, uint64_t *kept)
{
    uint64_t cells = 0;
    grow(s, seg);
    for (uint32_t x = 0; x < seg; x++) s->order[x] = x;
    tl_seqs = seqs;
    tl_j0 = j;
    qsort(s->order, seg, sizeof *s->order, by_len);
    uint64_t m = mnw_seq_len(seqs, i);
    for (uint64_t x = 0; x < seg; x++) {
        uint64_t jj = j + s->order[x];
        s->t[x] = mnw_seq_codes(seqs, jj);
        s->n[x] = (int)mnw_seq_len(seqs, jj);
    }
    s->npr = 0;
    *kept = seg;
    if (s->pf && seg) {
        mnw_prunec_query(s->pf, mnw_seq_codes(seqs, i), (int)m);
        const int yield = may_yield && s->yield;
        const uint64_t piece = yield ? PRUNE_PIECE : seg;
        for (uint64_t k = 0; k < seg; k += piece) {
            uint64_t c = seg - k < piece ? seg - k : piece;
            mnw_prunec_run(s->pf, s->t + k, s->n + k, c, s->pr + k, NULL);
            if (yield && s->yield(s->yield_ctx)) return UINT64_MAX;
        }
        uint64_t nk = 0;
        for (uint64_t x = 0; x < seg; x++) {
            if (s->pr[x]) {
                s->porder[s->npr++] = s->order[x];
                continue;
            }
            s->order[nk] = s->order[x];
            s->t[nk] = s->t[x];
            s->n[nk] = s->n[x];
            nk++;
        }
        *kept = nk;
    }
    for (uint64_t x = 0; x < *kept; x++) cells += m * (uint64_t)s->n[x];
    return cells;
}

uint64_t mnw_wl_align(mnw_wl_scratch *s, const mnw_seqset *seqs, const mnw_scoring *sc, mnw_range r, mnw_aln *alns)
{
    uint64_t cells = 0, done = 0;
    uint64_t i, j;
    mnw_pair_ij(r.k0, &i, &j);
    while (done < r.count) {
        uint64_t seg = i - j; /* pairs left in row i */
        if (seg > r.count - done) seg = r.count - done;
        uint64_t kept;
        uint64_t c = row_segment(s, seqs, i, j, seg, 1, &kept);
        if (c == UINT64_MAX) return cells;
        cells += c;
        const uint8_t *q = mnw_seq_codes(seqs, i);
        int m = (int)mnw_seq_len(seqs, i);
        /* one lane group per call when someone waits to be yielded to (the
         * DP is exact, so the grouping changes nothing in the results) */
        int step = s->yield ? mnw_cpu_lanes() : (int)kept;
        for (int k = 0; k < (int)kept; k += step) {
            int cnt = (int)kept - k < step ? (int)kept - k : step;
            mnw_cpu_align(s->ws, sc, q, m, s->t + k, s->n + k, cnt, s->tmp + k);
            if (s->yield && s->yield(s->yield_ctx)) return cells;
        }
        for (uint64_t x = 0; x < s->npr; x++) { /* proven beyond the cutoff: no alignment, no line */
            mnw_aln *a = &alns[done + s->porder[x]];
            mnw_aln_clear(a);
            a->pruned = 1;
        }
        /* move results to pair order (swap structs: buffers stay owned) */
        for (uint64_t x = 0; x < kept; x++) {
            mnw_aln *dst = &alns[done + s->order[x]];
            mnw_aln t = *dst;
            *dst = s->tmp[x];
            s->tmp[x] = t;
        }
        done += seg;
        j += seg;
        if (j == i) {
            i++;
            j = 0;
        }
    }
    return cells;
}

int mnw_wl_submit(mnw_wl_scratch *s, const mnw_seqset *seqs, const mnw_scoring *sc, mnw_range r, mnw_tb *tb,
                  mnw_tb_list *l, mnw_err *e)
{
    mnw_tb_batch *b = NULL;
    mnw_tb_end ends[64]; /* lanes of the widest kernel (32) */
    uint64_t done = 0;
    uint64_t i, j;
    mnw_pair_ij(r.k0, &i, &j);
    if (r.count == 0) { /* still completes through tb */
        b = mnw_tb_batch_get(tb, 0);
        mnw_tb_batch_add(b, l, 0, NULL, NULL, 0, NULL, 0);
    }
    while (done < r.count) {
        uint64_t seg = i - j; /* pairs left in row i */
        if (seg > r.count - done) seg = r.count - done;
        uint64_t kept;
        (void)row_segment(s, seqs, i, j, seg, 0, &kept); /* no yield: never UINT64_MAX */
        const uint8_t *q = mnw_seq_codes(seqs, i);
        int m = (int)mnw_seq_len(seqs, i);
        if (s->npr) { /* the pruned pairs: items without a matrix, in the batch being filled */
            if (!b) b = mnw_tb_batch_get(tb, 0);
            for (uint64_t x = 0; x < s->npr; x++) mnw_tb_batch_add_pruned(b, l, done + s->porder[x]);
        }
        for (int k = 0; k < (int)kept;) {
            mnw_cpu_group g;
            mnw_cpu_plan(sc, m, s->n + k, (int)kept - k, &g);
            void *dir = b ? mnw_tb_batch_room(b, g.dir_bytes) : NULL;
            if (!dir) {
                if (b && mnw_tb_submit(tb, b, e)) return -1;
                b = mnw_tb_batch_get(tb, g.dir_bytes);
                dir = mnw_tb_batch_room(b, g.dir_bytes);
            }
            mnw_cpu_dirs(s->ws, &g, sc, q, m, s->t + k, s->n + k, dir, ends);
            for (int x = 0; x < g.count; x++)
                mnw_tb_batch_add(b, l, done + s->order[k + x], &ends[x], q, m, s->t[k + x], s->n[k + x]);
            k += g.count;
        }
        done += seg;
        j += seg;
        if (j == i) {
            i++;
            j = 0;
        }
    }
    return mnw_tb_submit(tb, b, e);
}
