/* gpu_launch_int.h - private to workers/gpu (CUDA files only): the kernel
 * launchers of gpu_kernels.cu, called by the host side (gpu_dev.cu) on a
 * batch's stream. They enqueue and return; errors surface through the
 * stream (cudaGetLastError / the batch's events).
 * Thread-safety: call from the thread that owns the stream.
 */
#ifndef MNW_GPU_LAUNCH_H
#define MNW_GPU_LAUNCH_H

#include <cuda_runtime.h>

#include "workers/gpu/gpu_kern_int.h"

/* The matrix kernel `kind` (MNW_GPU_K_*) on pairs[idx[0 .. np)]: direction
 * words of pair p at var + pairs[p].dir (none when dirs = 0: benchmarks),
 * its boundary rows at var + pairs[p].bnd; ends[p] gets end cell and
 * score. DSCAN2, TILED2 (linear gaps only): np units, unit u the pairs
 * idx[2u] and idx[2u + 1] (equal: one pair alone), which share sequence a.
 * np = 0 launches nothing. */
void mnw_gpu_run_matrix(cudaStream_t st, int kind, int dirs, const mnw_gpu_kpair *pairs, const uint32_t *idx, int np,
                        const uint8_t *codes, const mnw_gpu_kscore *sc, uint8_t *var, mnw_gpu_kend *ends);

/* Device trace-back: one thread per pair walks its direction words
 * (trace_walk.h) into its run slot (var + pairs[x].runs), then copies the runs
 * to packed[off .. off + nruns) with off taken from an atomic counter hdr[0]
 * (zeroed by the caller); hdr[1 + x] = nruns, hdr[1 + np + x] = off.
 * figs not NULL (counts mode, issue 20): the same walk counts the figures
 * (mnw_tb_walk_fig with the table *figs) and writes them instead of runs,
 * MNW_GPU_FIG_WORDS words in the order of mnw_pathfig's fields; no run slot
 * is used. tie: mnw_gpu_kscore.tie. */
void mnw_gpu_run_trace(cudaStream_t st, const mnw_gpu_kpair *pairs, int np, const uint8_t *codes, int affine,
                       int tie, uint8_t *var, const mnw_gpu_kend *ends, uint32_t *packed, uint32_t *hdr, const mnw_eqtab *figs);

/* The filter (gpu_prune_int.cuh) on np pairs (i, j) = pairs[x]: out[x] = 1
 * when pruned; figs not NULL: every figure of every pair (both bands, no
 * pre-test) into figs[x]. np = 0 launches nothing. */
void mnw_gpu_run_prune(cudaStream_t st, const uint2 *pairs, int np, const mnw_gpu_pseq *ps, const uint32_t *runs,
                       const uint8_t *codes, const mnw_gpu_kprune *p, uint8_t *out, mnw_gpu_kpfig *figs);

/* The filter's stage 2 (gpu_prune_ed_int.cuh) on the same pairs, after
 * mnw_gpu_run_prune on the same stream. figs not NULL: every pair's
 * figures gain sg, ed, tau and the decision (one kernel). Else the quick
 * path: the pairs with out[x] = 0 listed, their guides and bands, ED for
 * those the lengths do not decide; out[x] = 2 for a pair stage 2 prunes.
 * Scratch (device, np entries each): list, list2, list3, taus; cnt four counters,
 * zeroed here. np = 0 launches nothing unless warm (each kernel once on
 * no pair: the driver reserves their local memory). */
void mnw_gpu_run_prune_ed(cudaStream_t st, const uint2 *pairs, int np, int warm, const mnw_gpu_pseq *ps,
                          const uint64_t *guides, const uint32_t *peqs, const uint8_t *codes, const mnw_gpu_kprune *p,
                          uint8_t *out, mnw_gpu_kpfig *figs, uint32_t *list, uint32_t *list2, uint32_t *list3,
                          int32_t *taus, uint32_t *cnt);

/* The filter kernels' preferred split of L1 and shared memory (a share
 * that leaves an SM room for the alignment kernels' blocks beside them,
 * gpu_kernels.cu); once per device, before their first launch. */
cudaError_t mnw_gpu_filter_prefs(void);

#endif
