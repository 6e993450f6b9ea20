/* gpu_dpx_int.cuh - the integer max forms the DP and filter kernels share:
 * on sm_90 (CUDA 12+) each one DPX instruction (VIMNMX3, VIADDMNMX), before
 * that and on the host emulation (tests/emu, CUDART_VERSION 0) the portable
 * form. Included by gpu_kernels_int.cuh (namespace mnw_gk) and
 * gpu_prune_int.cuh (mnw_gp), which take them with `using`.
 * Thread-safety: pure functions. */
#ifndef MNW_GPU_DPX_INT_CUH
#define MNW_GPU_DPX_INT_CUH

namespace mnw_dpx {

__device__ __forceinline__ int imax(int a, int b) { return a > b ? a : b; }

/* max(a, b, c) */
__device__ __forceinline__ int max3(int a, int b, int c)
{
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
    return __vimax3_s32(a, b, c);
#else
    return imax(a, imax(b, c));
#endif
}

/* max(a + b, c) */
__device__ __forceinline__ int addmax(int a, int b, int c)
{
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
    return __viaddmax_s32(a, b, c);
#else
    return imax(a + b, c);
#endif
}

} // namespace mnw_dpx

#endif
