/* gpu_kernels.cu - the kernel launchers of gpu_launch_int.h: the kernels
 * themselves are gpu_kernels_int.cuh's. They enqueue on the caller's stream.
 * Thread-safety: call from the thread that owns the stream.
 */
#include <string.h>

#include "workers/gpu/gpu_kernels_int.cuh"
#include "workers/gpu/gpu_launch_int.h"
#include "workers/gpu/gpu_pack2_int.cuh"
#include "workers/gpu/gpu_prune_int.cuh"
#include "workers/gpu/gpu_prune_ed_int.cuh"

namespace {

using namespace mnw_gk;

template <bool AFF, bool FE, bool DIRS, bool EXT>
void launch(cudaStream_t st, int kind, const mnw_gpu_kpair *pairs, const uint32_t *idx, int np, const uint8_t *codes,
            const mnw_gpu_kscore &sc, uint8_t *var, mnw_gpu_kend *ends)
{
    const int threads = PT; /* the kernels' shared profile assumes it */
    if (mnw_gpu_kind_tr(kind)) { /* np units of two pairs */
        dim3 grid((unsigned)((np + 3) / 4));
        if (kind == MNW_GPU_K_DSCAN2)
            dscan2<AFF, FE, false, DIRS, EXT><<<grid, threads, 0, st>>>(pairs, idx, np, codes, sc, var, ends);
        else dscan2<AFF, FE, true, DIRS, EXT><<<grid, threads, 0, st>>>(pairs, idx, np, codes, sc, var, ends);
        return;
    }
    if (kind == MNW_GPU_K_RSCAN) {
        rscan<AFF, FE, DIRS, EXT><<<(unsigned)((np + threads - 1) / threads), threads, 0, st>>>(pairs, idx, np, codes, sc,
                                                                                          var, ends);
        return;
    }
    const int per = threads / 32;
    dim3 grid((unsigned)((np + per - 1) / per));
    if (kind == MNW_GPU_K_DSCAN)
        dscan<AFF, FE, false, DIRS, EXT><<<grid, threads, 0, st>>>(pairs, idx, np, codes, sc, var, ends);
    else dscan<AFF, FE, true, DIRS, EXT><<<grid, threads, 0, st>>>(pairs, idx, np, codes, sc, var, ends);
}

/* EXT: mothur's tie rule or mothur's ambiguity rule (gpu_kernels_int.cuh) */
template <bool AFF, bool FE, bool DIRS>
void launch_ext(cudaStream_t st, int kind, const mnw_gpu_kpair *pairs, const uint32_t *idx, int np,
                const uint8_t *codes, const mnw_gpu_kscore &sc, uint8_t *var, mnw_gpu_kend *ends)
{
    if (sc.tie || sc.ambn) launch<AFF, FE, DIRS, true>(st, kind, pairs, idx, np, codes, sc, var, ends);
    else launch<AFF, FE, DIRS, false>(st, kind, pairs, idx, np, codes, sc, var, ends);
}

template <bool DIRS>
void launch_mode(cudaStream_t st, int kind, const mnw_gpu_kpair *pairs, const uint32_t *idx, int np,
                 const uint8_t *codes, const mnw_gpu_kscore &sc, uint8_t *var, mnw_gpu_kend *ends)
{
    if (sc.affine) {
        if (sc.free_ends) launch_ext<true, true, DIRS>(st, kind, pairs, idx, np, codes, sc, var, ends);
        else launch_ext<true, false, DIRS>(st, kind, pairs, idx, np, codes, sc, var, ends);
    } else {
        if (sc.free_ends) launch_ext<false, true, DIRS>(st, kind, pairs, idx, np, codes, sc, var, ends);
        else launch_ext<false, false, DIRS>(st, kind, pairs, idx, np, codes, sc, var, ends);
    }
}

} // namespace

void mnw_gpu_run_matrix(cudaStream_t st, int kind, int dirs, const mnw_gpu_kpair *pairs, const uint32_t *idx, int np,
                        const uint8_t *codes, const mnw_gpu_kscore *sc, uint8_t *var, mnw_gpu_kend *ends)
{
    if (np <= 0) return;
    if (dirs) launch_mode<true>(st, kind, pairs, idx, np, codes, *sc, var, ends);
    else launch_mode<false>(st, kind, pairs, idx, np, codes, *sc, var, ends);
}

void mnw_gpu_run_trace(cudaStream_t st, const mnw_gpu_kpair *pairs, int np, const uint8_t *codes, int affine,
                       int tie, uint8_t *var, const mnw_gpu_kend *ends, uint32_t *packed, uint32_t *hdr, const mnw_eqtab *figs)
{
    const int threads = 128;
    mnw_eqtab t;
    if (figs) t = *figs;
    else memset(&t, 0, sizeof t);
    trace<<<(unsigned)((np + threads - 1) / threads), threads, 0, st>>>(pairs, np, codes, affine, tie, var, ends, packed,
                                                                       hdr, figs != NULL, t);
}

void mnw_gpu_run_prune(cudaStream_t st, const uint2 *pairs, int np, const mnw_gpu_pseq *ps, const uint32_t *runs,
                       const uint8_t *codes, const mnw_gpu_kprune *p, uint8_t *out, mnw_gpu_kpfig *figs)
{
    if (np <= 0) return;
    const int threads = 128;
    const unsigned blocks = (unsigned)((np + threads - 1) / threads);
    if (figs) mnw_gp::prune<true><<<blocks, threads, 0, st>>>(pairs, np, ps, runs, codes, *p, out, figs);
    else mnw_gp::prune<false><<<blocks, threads, 0, st>>>(pairs, np, ps, runs, codes, *p, out, figs);
}

void mnw_gpu_run_prune_ed(cudaStream_t st, const uint2 *pairs, int np, int warm, const mnw_gpu_pseq *ps,
                          const uint64_t *guides, const uint32_t *peqs, const uint8_t *codes, const mnw_gpu_kprune *p,
                          uint8_t *out, mnw_gpu_kpfig *figs, uint32_t *list, uint32_t *list2, uint32_t *list3,
                          int32_t *taus, uint32_t *cnt)
{
    if (np <= 0 && !warm) return;
    const int threads = mnw_ge::TPB;
    const unsigned blocks = np > 0 ? (unsigned)((np + threads - 1) / threads) : 1;
    if (figs) {
        mnw_ge::prune_ed_full<<<blocks, threads, 0, st>>>(pairs, np, ps, guides, peqs, codes, *p, out, figs);
        return;
    }
    (void)cudaMemsetAsync(cnt, 0, 4 * sizeof *cnt, st);
    mnw_ge::compact<<<blocks, threads, 0, st>>>(out, np, list, cnt);
    mnw_ge::bands<<<blocks, threads, 0, st>>>(pairs, ps, guides, peqs, codes, *p, out, list, cnt, list2, list3, taus, np);
    mnw_ge::eds_wide<<<blocks, threads, 0, st>>>(pairs, ps, peqs, codes, out, list3, cnt, taus);
    mnw_ge::eds_reg<2><<<blocks, threads, 0, st>>>(pairs, ps, peqs, codes, out, list2, cnt, taus, np);
    mnw_ge::eds_reg<1><<<blocks, threads, 0, st>>>(pairs, ps, peqs, codes, out, list2, cnt, taus, np);
}

/* The filter kernels use no shared memory, the alignment kernels 40 KB a
 * block (their profile), and with the filter both run on the device at
 * once. The preferred split of an SM's L1 and shared memory is a hint
 * (CUDA's documentation says no more); our reading of the measurement
 * below: an SM holds blocks of both kinds only if its split suits both,
 * and with no preference for the filter kernels each kind kept the other
 * out of SMs it held (the filter decided 7.5 M pairs/s in the run against
 * 13.5 M alone, the alignments ran at a third of their speed). Measured
 * (16s-25k whole, --cutoff 0.10, filter on, H200, one run each,
 * bench/results/issue39-step8-gpu-h200-2026-11-28/): no preference 43.4 s,
 * 25% of the largest shared part 34.0 s, 50% 34.6 s, 75% 38.4 s, 100%
 * 46.5 s. */
#define MNW_GPU_FILTER_CARVEOUT 25

cudaError_t mnw_gpu_filter_prefs(void)
{
    const cudaFuncAttribute A = cudaFuncAttributePreferredSharedMemoryCarveout;
    const int pct = MNW_GPU_FILTER_CARVEOUT;
    cudaError_t rc = cudaFuncSetAttribute(mnw_gp::prune<false>, A, pct);
    if (rc == cudaSuccess) rc = cudaFuncSetAttribute(mnw_ge::compact, A, pct);
    if (rc == cudaSuccess) rc = cudaFuncSetAttribute(mnw_ge::bands, A, pct);
    if (rc == cudaSuccess) rc = cudaFuncSetAttribute(mnw_ge::eds_wide, A, pct);
    if (rc == cudaSuccess) rc = cudaFuncSetAttribute(mnw_ge::eds_reg<1>, A, pct);
    if (rc == cudaSuccess) rc = cudaFuncSetAttribute(mnw_ge::eds_reg<2>, A, pct);
    return rc;
}
