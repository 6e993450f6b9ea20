/* trace_walk.h - the walk of the one trace-back (docs/SCORING.md, "the one
 * tie-break rule"), compiled both for the host (workers/tb/trace.c) and for
 * the GPU (workers/gpu, device trace-back), so the rule exists once.
 *
 * mnw_dirview (trace.h) says where the direction bits of a pair lie; the
 * walk reads them from the end cell back to row 0 or column 0 and writes the
 * alignment as runs (aln.h: (len << 2) | op), END FIRST: the trailing
 * overhangs (I: m - re rows, then D: n - ce columns), the walk, then the
 * leading remainder (I then D). Adjacent runs of one op are merged. An
 * alignment has at most m + n columns, so `runs` needs room for m + n runs.
 *
 * mnw_tb_walk_fig is the same walk, step for step, counting the figures of
 * pathfig.h instead of writing runs (issue 20, counts mode): nothing but
 * the figures is kept, so the outputs that need no CIGAR skip the runs,
 * their transfer from the GPU and the pass that counts them.
 *
 * Ownership: reads the bits and sequences, writes only runs[] (or *fig).
 * Thread-safety: pure; any number of host or device threads at once.
 */
#ifndef MNW_TRACE_WALK_H
#define MNW_TRACE_WALK_H

#include <stdint.h>

#include "lib/pathfig.h"

#ifdef __CUDACC__
#define MNW_TB_HD static inline __host__ __device__
#else
#define MNW_TB_HD static inline
#endif

/* op codes of aln.h, repeated here so device code needs no host header */
#define MNW_TBW_EQ 0u
#define MNW_TBW_X 1u
#define MNW_TBW_I 2u
#define MNW_TBW_D 3u

/* Where the direction bits of one pair lie (trace.h describes the layouts).
 * Bit A of cell (r, c), 1 <= r <= m, 1 <= c <= n, is
 *   base_bit + ((r-1) >> rshift) * row_bits + ((r-1) & (2^rshift - 1)) * sub_bits
 *            + (c-1) * col_bits + a_bit
 * and B likewise with b_bit; with affine gaps A', B' lie ext_bit further.
 * With linear gaps a set B means left (D) unless b_up: then it means up (I)
 * (the GPU kernels' tagged scores give "up won" directly, docs/GPU.md).
 * With affine gaps a set B means H == E (I) unless b_up: then H == F (D),
 * the CPU kernels' bit under mothur's and vsearch's tie rule (D before I).
 * rshift = 0 (and sub_bits unused): plain strides, row_bits per row.
 * tr = 1: r and c trade places in the formula (the GPU's two-pairs-per-lane
 * kernels compute a pair transposed, gpu_kern_int.h).
 * stream = 1: the words of the GPU's two-pairs-per-lane kernels, written as
 * a stream per stripe of 32 row blocks (gpu_kern_int.h, "streamed"): with
 * rr = r - 1, cc = c - 1 (after tr), tg = rr >> rshift the row block, its
 * stripe sp = tg >> 5 and lane l = tg & 31, the step s = cc + l, the
 * stripe's lanes lw = min(32, nrb - 32 sp) and G = 2^gshift steps per
 * group, the word (entry of col_bits bits) is
 *   sp * 32 * sstep + ((s >> gshift) * lw + l) * G + (s & (G - 1))
 * and bit A lies at base_bit + word * col_bits + (rr & (2^rshift - 1)) *
 * sub_bits + a_bit (row_bits unused). */
typedef struct {
    const uint8_t *base;
    uint64_t base_bit; /* bit of cell (1, 1), bit A at + a_bit */
    uint64_t row_bits; /* from one row block (one row when rshift = 0) to the next */
    uint64_t col_bits; /* from cell (r, c) to (r, c + 1) */
    uint32_t a_bit, b_bit;
    uint32_t ext_bit;  /* affine: from A, B to A', B' */
    uint32_t rshift;   /* rows per block = 2^rshift */
    uint64_t sub_bits; /* within a block, from one row to the next */
    uint32_t b_up;     /* linear gaps: 1 when a set B means up (I) rather than left (D); affine: 1 when
                          B means H == F (D) rather than H == E (I) */
    uint32_t tr;       /* 1: the bits were stored for the transposed matrix (cell (r, c) lies
                          where the formula above puts (c, r)); the bits mean the same */
    uint32_t stream;   /* 1: the streamed layout above (gshift, nrb, sstep) */
    uint32_t gshift;   /* streamed: steps per group = 2^gshift */
    uint32_t nrb;      /* streamed: row blocks of the (transposed) matrix */
    uint32_t sstep;    /* streamed: steps per stripe (a multiple of 2^gshift) */
    uint32_t dfirst;   /* the end cell's step whatever its bits say (needle's rule, score.h
                          MNW_TIE_NEEDLE): 0 its bits, 1 the diagonal, 2 I (into E), 3 D (into F) */
} mnw_dirview;

/* Bit number of bit A of cell (r, c). */
MNW_TB_HD uint64_t mnw_dirview_pos(const mnw_dirview *v, int r, int c)
{
    uint64_t rr = (uint64_t)((v->tr ? c : r) - 1), cc = (uint64_t)((v->tr ? r : c) - 1);
    if (v->stream) {
        const uint64_t tg = rr >> v->rshift, sp = tg >> 5, l = tg & 31, s = cc + l;
        const uint64_t left = (uint64_t)v->nrb - 32 * sp, lw = left < 32 ? left : 32;
        const uint64_t w = sp * 32 * (uint64_t)v->sstep + (((s >> v->gshift) * lw + l) << v->gshift) +
                           (s & ((1ull << v->gshift) - 1));
        return v->base_bit + w * v->col_bits + (rr & ((1ull << v->rshift) - 1)) * v->sub_bits + v->a_bit;
    }
    return v->base_bit + (rr >> v->rshift) * v->row_bits + (rr & ((1ull << v->rshift) - 1)) * v->sub_bits +
           cc * v->col_bits + v->a_bit;
}

MNW_TB_HD unsigned mnw_tbw_bit(const uint8_t *base, uint64_t k) { return (base[k >> 3] >> (k & 7)) & 1u; }

MNW_TB_HD void mnw_tbw_push(uint32_t *runs, uint32_t *nr, uint32_t op, uint32_t len)
{
    if (len == 0) return;
    if (*nr && (runs[*nr - 1] & 3u) == op) runs[*nr - 1] += len << 2;
    else runs[(*nr)++] = (len << 2) | op;
}

/* Where the walk's runs go: runs[] (runs != NULL), or the figures. The
 * figures mode sees the runs end first, as the walk makes them: the first
 * run closed is the alignment's last, the last closed its first. */
typedef struct {
    uint32_t *runs, nr;         /* runs mode */
    mnw_pathfig *f;             /* figures mode */
    const mnw_eqtab *eqt;
    uint32_t op, len;           /* the run being extended (len 0: none yet) */
    uint32_t nruns, seen_pair;  /* runs closed; an aligned run was closed */
    uint32_t pend_cols, pend_runs; /* gaps closed since the last aligned run */
    uint32_t end_gap;           /* the alignment's last run, when a gap run */
    uint32_t end_op;            /* the alignment's last run's op */
} mnw_tbw_sink;

MNW_TB_HD void mnw_tbw_sink_init(mnw_tbw_sink *k, uint32_t *runs, mnw_pathfig *f, const mnw_eqtab *eqt)
{
    k->runs = runs;
    k->nr = 0;
    k->f = f;
    k->eqt = eqt;
    k->op = k->len = k->nruns = k->seen_pair = k->pend_cols = k->pend_runs = k->end_gap = k->end_op = 0;
    if (f) {
        f->pairs = f->matches = f->eq = f->gap_opens = f->gaps = 0;
        f->lead_cols = f->lead_runs = f->trail_cols = f->trail_runs = f->first_gap = f->last_gap = 0;
        f->ends_one_row = 0;
    }
}

MNW_TB_HD void mnw_tbw_close(mnw_tbw_sink *k)
{
    mnw_pathfig *f = k->f;
    const uint32_t op = k->op, len = k->len;
    const uint32_t gap = op >= MNW_TBW_I;
    if (k->nruns == 0) {
        k->end_gap = gap ? len : 0;
        k->end_op = op;
    }
    f->first_gap = gap ? len : 0; /* the last closed is the first run */
    if (!gap) {
        f->pairs += len;
        if (op == MNW_TBW_EQ) f->matches += len;
        k->seen_pair = 1;
        k->pend_cols = k->pend_runs = 0;
    } else {
        f->gaps += len;
        f->gap_opens++;
        if (!k->seen_pair) {
            f->trail_cols += len;
            f->trail_runs++;
        } else {
            k->pend_cols += len;
            k->pend_runs++;
        }
    }
    k->nruns++;
}

MNW_TB_HD void mnw_tbw_emit(mnw_tbw_sink *k, uint32_t op, uint32_t len)
{
    if (len == 0) return;
    if (k->runs) {
        mnw_tbw_push(k->runs, &k->nr, op, len);
        return;
    }
    if (k->len && k->op == op) {
        k->len += len;
        return;
    }
    if (k->len) mnw_tbw_close(k);
    k->op = op;
    k->len = len;
}

/* The walk from end cell (re, ce) of the m x n matrix of a (rows) and b
 * (columns) into the sink (see above). affine: the bits are the affine kind
 * (gap_open != gap_extend). Codes >= 4 are ambiguity codes: an aligned
 * column with one is X. */
MNW_TB_HD void mnw_tbw_core(const mnw_dirview *v, int affine, int re, int ce, const uint8_t *a, int m,
                            const uint8_t *b, int n, mnw_tbw_sink *k)
{
    int r = re, c = ce;
    mnw_tbw_emit(k, MNW_TBW_I, (uint32_t)(m - r));
    mnw_tbw_emit(k, MNW_TBW_D, (uint32_t)(n - c));
    const uint8_t *base = v->base;
    const uint64_t ob = (uint64_t)v->b_bit - v->a_bit; /* mod 2^64: B may lie below A */
    const uint64_t ox = v->ext_bit;
    int st = v->dfirst >= 2 ? (int)v->dfirst - 1 : 0; /* affine state: 0 = H, 1 = E (I), 2 = F (D) */
    int diag = v->dfirst == 1; /* the end cell's own step is the diagonal */
    while (r > 0 && c > 0) {
        uint64_t p = mnw_dirview_pos(v, r, c);
        uint32_t op;
        if (st == 0 && (diag || mnw_tbw_bit(base, p))) {
            diag = 0;
            uint8_t x = a[r - 1], y = b[c - 1];
            op = (x == y && x < 4) ? MNW_TBW_EQ : MNW_TBW_X;
            if (op == MNW_TBW_X && !k->runs) k->f->eq += (k->eqt->row[x] >> y) & 1u;
        } else if (!affine) {
            op = (mnw_tbw_bit(base, p + ob) ^ v->b_up) ? MNW_TBW_D : MNW_TBW_I;
        } else {
            if (st == 0) st = (mnw_tbw_bit(base, p + ob) ^ v->b_up) ? 1 : 2;
            op = st == 1 ? MNW_TBW_I : MNW_TBW_D;
            /* stay in the gap while it was extended (A' for E, B' for F) */
            st = mnw_tbw_bit(base, p + ox + (st == 1 ? 0 : ob)) ? st : 0;
        }
        mnw_tbw_emit(k, op, 1);
        if (op != MNW_TBW_D) r--;
        if (op != MNW_TBW_I) c--;
    }
    mnw_tbw_emit(k, MNW_TBW_I, (uint32_t)r);
    mnw_tbw_emit(k, MNW_TBW_D, (uint32_t)c);
}

/* The walk into runs[] (end first, see the top); returns their number. */
MNW_TB_HD uint32_t mnw_tb_walk(const mnw_dirview *v, int affine, int re, int ce, const uint8_t *a, int m,
                               const uint8_t *b, int n, uint32_t *runs)
{
    mnw_tbw_sink k;
    mnw_tbw_sink_init(&k, runs, 0, 0);
    mnw_tbw_core(v, affine, re, ce, a, m, b, n, &k);
    return k.nr;
}

/* The same walk counting the figures of pathfig.h into *f (eq by the table
 * eqt: mnw_eqtab_of); keeps no runs. */
MNW_TB_HD void mnw_tb_walk_fig(const mnw_dirview *v, int affine, int re, int ce, const uint8_t *a, int m,
                               const uint8_t *b, int n, const mnw_eqtab *eqt, mnw_pathfig *f)
{
    mnw_tbw_sink k;
    mnw_tbw_sink_init(&k, 0, f, eqt);
    mnw_tbw_core(v, affine, re, ce, a, m, b, n, &k);
    if (k.len) mnw_tbw_close(&k);
    if (k.seen_pair) {
        f->lead_cols = k.pend_cols;
        f->lead_runs = k.pend_runs;
    } else { /* no aligned column: every gap is leading and trailing */
        f->lead_cols = f->trail_cols;
        f->lead_runs = f->trail_runs;
    }
    f->last_gap = k.nruns >= 2 ? k.end_gap : 0;
    /* the last run closed is the first: its op is k.op */
    f->ends_one_row = k.nruns >= 2 && f->first_gap && f->last_gap && k.op == k.end_op;
    f->eq += f->matches;
}

#endif
