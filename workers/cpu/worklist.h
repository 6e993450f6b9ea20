/* worklist.h - a CPU worker's job: align every pair of a work list.
 *
 * Pairs of one row i (one query) are grouped, sorted by target length and
 * aligned in SIMD lane groups (nw_cpu.h); results land in pair order.
 * Ownership: the mnw_wl_scratch belongs to one worker thread and owns its
 * buffers (mnw_wl_scratch_free). Thread-safety: one scratch per thread; the
 * sequence set and scoring are shared read-only.
 */
#ifndef MNW_WORKLIST_H
#define MNW_WORKLIST_H

#include "aln.h"
#include "nw_cpu.h"
#include "pairs.h"
#include "seq.h"

typedef struct {
    mnw_cpu_ws *ws;
    mnw_aln *tmp;           /* lane results in sorted order */
    const uint8_t **t;
    int *n;
    uint32_t *order;
    size_t cap;
} mnw_wl_scratch;

void mnw_wl_scratch_init(mnw_wl_scratch *s);
void mnw_wl_scratch_free(mnw_wl_scratch *s);

/* Aligns pairs r.k0 .. r.k0 + r.count - 1 into alns[0 .. r.count) (each
 * initialised by the caller; their buffers are reused). Returns the number
 * of DP cells computed (sum of len_i * len_j). */
uint64_t mnw_wl_align(mnw_wl_scratch *s, const mnw_seqset *seqs, const mnw_scoring *sc, mnw_range r, mnw_aln *alns);

#endif
