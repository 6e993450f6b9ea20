/* gpu_ptab.h - private to workers/gpu: the GPU filter's per-sequence tables
 * (issue 39), built on the host by several threads before gpu_dev.cu copies
 * them to a device once:
 *   stage 1 (gpu_prune_int.cuh): each sequence's ACGT words of
 *     MNW_PRUNE_Q bases as sorted (word << 16 | count) runs, its count of
 *     codes >= 4;
 *   stage 2 (gpu_prune_ed_int.cuh; only when asked): its unique words of
 *     MNW_PED_K bases and its windows at multiples of MNW_PED_STRIDE, each
 *     as sorted (word << 32 | position); ED's pattern rows (word w of base
 *     row x at 4 w + x); the guided band's base bitmaps (5 rows, word q of
 *     row y at 5 q + y, 32 zero bits first).
 * The offsets and counts are gpu_kern_int.h's mnw_gpu_pseq (code: the
 * sequence's offset in the set's codes). The arrays are the same whatever
 * the number of threads: each thread builds a run of consecutive
 * sequences, and the runs are joined in order.
 *
 * Ownership: mnw_gpu_ptab_build fills *t, which the caller releases with
 * mnw_gpu_ptab_free (also after a failure). Thread-safety: reentrant; the
 * sequence set is only read.
 */
#ifndef MNW_GPU_PTAB_H
#define MNW_GPU_PTAB_H

#include <stddef.h>
#include <stdint.h>

#include "lib/seq.h"
#include "lib/util.h"
#include "workers/gpu/gpu_kern_int.h"

typedef struct {
    mnw_gpu_pseq *ps; /* one a sequence */
    uint32_t *runs;   /* stage 1's runs */
    size_t nruns;
    uint64_t *guides; /* stage 2's words and windows (NULL without stage 2) */
    size_t nguides;
    uint32_t *peqs; /* stage 2's pattern rows and bitmaps (NULL without stage 2) */
    size_t npeqs;
} mnw_gpu_ptab;

/* Builds the tables of every sequence of s (stage 2's with ed), with up to
 * `threads` threads (< 1: one). 0, or -1 with e set (a sequence too long
 * for the 16-bit counts; "GPU dev: ..."). */
int mnw_gpu_ptab_build(const mnw_seqset *s, int ed, int threads, int dev, mnw_gpu_ptab *t, mnw_err *e);
void mnw_gpu_ptab_free(mnw_gpu_ptab *t);

#endif
