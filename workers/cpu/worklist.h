/* worklist.h - a CPU worker's job: align every pair of a work list, or
 * compute only their direction matrices for the trace-back thread.
 *
 * Pairs of one row i (one query) are grouped, sorted by target length and
 * aligned in SIMD lane groups (nw_cpu.h); results land in pair order.
 * With a prune plan (mnw_wl_scratch_prune; the job's, issue 39) each row
 * segment is filtered first (workers/cpu/prune_cpu.h): the pairs proven
 * beyond the cutoff are not aligned (their mnw_aln cleared with pruned = 1,
 * no output line), the others go to the same kernels in the same order
 * (sorted by length, lane groups of the kept ones; the DP is exact).
 * Ownership: the mnw_wl_scratch belongs to one worker thread and owns its
 * buffers (mnw_wl_scratch_free). Thread-safety: one scratch per thread; the
 * sequence set and scoring are shared read-only.
 */
#ifndef MNW_WORKLIST_H
#define MNW_WORKLIST_H

#include "lib/aln.h"
#include "lib/pairs.h"
#include "lib/seq.h"
#include "lib/util.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/cpu/prune_cpu.h"
#include "workers/tb/tb_thread.h"

typedef struct {
    mnw_cpu_ws *ws;
    mnw_aln *tmp;           /* lane results in sorted order */
    const uint8_t **t;
    int *n;
    uint32_t *order;
    size_t cap;
    /* issue 39: the filter (NULL: every pair aligned), its decisions for a
     * row segment and the pruned pairs' positions in it */
    mnw_prunec *pf;
    uint8_t *pr;
    uint32_t *porder;
    size_t npr; /* pruned pairs of the last segment (porder[0 .. npr)) */
    /* Called between lane groups by mnw_wl_align when set (the node
     * dispatcher lets an aligning worker take urgent work, GPU results to
     * finish, without waiting for its whole list). May be NULL. */
    int (*yield)(void *ctx); /* non-zero: leave the list now (its result is dropped) */
    void *yield_ctx;
} mnw_wl_scratch;

void mnw_wl_scratch_init(mnw_wl_scratch *s);
void mnw_wl_scratch_free(mnw_wl_scratch *s);
/* Filters with plan p under scoring sc from now on, when p is on (p NULL
 * or off: no filter). p and sc are copied. */
void mnw_wl_scratch_prune(mnw_wl_scratch *s, const mnw_prune_plan *p, const mnw_scoring *sc);

/* Aligns pairs r.k0 .. r.k0 + r.count - 1 into alns[0 .. r.count) (each
 * initialised by the caller; their buffers are reused; a pruned pair's is
 * cleared with pruned = 1). Returns the number of DP cells computed (sum of
 * len_i * len_j over the aligned pairs). When yield asks to leave (between
 * lane groups, and between pieces of a row's filtering), returns at once
 * with the alignments incomplete (the caller drops them). */
uint64_t mnw_wl_align(mnw_wl_scratch *s, const mnw_seqset *seqs, const mnw_scoring *sc, mnw_range r, mnw_aln *alns);

/* Matrices only: computes the direction matrices of pairs r.k0 .. r.k0 +
 * r.count - 1 (same groups and kernels as mnw_wl_align) and hands them to
 * the trace-back thread tb for list l (mnw_tb_list_open(tb, r) by the
 * caller), in batches of about MNW_TB_BATCH_BYTES or one lane group,
 * submitted as they fill and at the end (so a work list is never held whole;
 * mnw_tb_submit may block: back-pressure). Pruned pairs go into the batches
 * as pruned items (no matrix: mnw_tb_batch_add_pruned). Returns 0, or -1
 * with e set when tb refuses (aborted); l is the tb's either way. */
int mnw_wl_submit(mnw_wl_scratch *s, const mnw_seqset *seqs, const mnw_scoring *sc, mnw_range r, mnw_tb *tb,
                  mnw_tb_list *l, mnw_err *e) MNW_MUST_CHECK;

#endif
