/* gpu_launch.h - private to workers/gpu (CUDA files only): the kernel
 * launchers of gpu_kernels.cu, called by the host side (gpu_dev.cu) on a
 * batch's stream. They enqueue and return; errors surface through the
 * stream (cudaGetLastError / the batch's events).
 * Thread-safety: call from the thread that owns the stream.
 */
#ifndef MNW_GPU_LAUNCH_H
#define MNW_GPU_LAUNCH_H

#include <cuda_runtime.h>

#include "gpu_kern.h"

/* Kernels a device can run (docs/GPU.md). */
enum { MNW_GPU_K_DSCAN = 0, MNW_GPU_K_NKERNELS };

/* DScan-mNW: one warp per pair; direction words of pair x at var + pairs[x].dir,
 * its boundary rows at var + pairs[x].bnd; ends[x] gets end cell and score. */
void mnw_gpu_run_dscan(cudaStream_t st, const mnw_gpu_kpair *pairs, int np, const uint8_t *codes,
                       const mnw_gpu_kscore *sc, uint8_t *var, mnw_gpu_kend *ends);

/* Device trace-back: one thread per pair walks its direction words
 * (trace_walk.h) into its run slot (var + pairs[x].runs), then copies the runs
 * to packed[off .. off + nruns) with off taken from an atomic counter hdr[0]
 * (zeroed by the caller); hdr[1 + x] = nruns, hdr[1 + np + x] = off. */
void mnw_gpu_run_trace(cudaStream_t st, const mnw_gpu_kpair *pairs, int np, const uint8_t *codes, int affine,
                       uint8_t *var, const mnw_gpu_kend *ends, uint32_t *packed, uint32_t *hdr);

#endif
