/* tests/emu/emu_device.h - CUDA's device built-ins for the host emulation
 * of gpu_kernels_int.cuh (tests/emu/README.md): qualifiers, thread and block
 * indices, __ldg, __funnelshift_r, atomicAdd, the warp shuffles and votes. A warp
 * runs as 32 coroutines (ucontext) on one host thread: every shuffle is a
 * rendezvous where each lane leaves its value and waits until all 32 have,
 * so the kernels run exactly as written, lane by lane; a lane that leaves
 * the rendezvous pattern (divergent shuffles) aborts the emulation.
 * Thread-safety: one emulated launch at a time.
 */
#ifndef MNW_EMU_DEVICE_H
#define MNW_EMU_DEVICE_H

#include <stdint.h>

#include "tests/emu/cuda_runtime.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __restrict__ __restrict
/* one block at a time: a kernel's shared array is one static array, the
 * same for every lane of the warp being run */
#define __shared__ static

struct emu_dim3 {
    unsigned x, y, z;
};
struct emu_ids {
    emu_dim3 tid, bid;
};
const emu_ids *emu_cur(void);
extern emu_dim3 emu_block_dim;
#define threadIdx (emu_cur()->tid)
#define blockIdx (emu_cur()->bid)
#define blockDim emu_block_dim

/* the warp rendezvous: lane L gets the value lane src(L) left */
enum { EMU_SHFL_IDX, EMU_SHFL_UP, EMU_SHFL_XOR };
int emu_shfl(int v, int how, int arg);

static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline uint32_t __ldg(const uint32_t *p) { return *p; }
static inline uint32_t __funnelshift_r(uint32_t lo, uint32_t hi, uint32_t s)
{
    uint64_t v = ((uint64_t)hi << 32) | lo;
    return (uint32_t)(v >> (s & 31));
}
static inline uint32_t atomicAdd(uint32_t *p, uint32_t v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline int __shfl_sync(unsigned, int v, int src) { return emu_shfl(v, EMU_SHFL_IDX, src); }
static inline int __shfl_up_sync(unsigned, int v, unsigned d) { return emu_shfl(v, EMU_SHFL_UP, (int)d); }
static inline int __shfl_xor_sync(unsigned, int v, int o) { return emu_shfl(v, EMU_SHFL_XOR, o); }
static inline void __syncwarp(void) { (void)emu_shfl(0, EMU_SHFL_IDX, 0); }
/* the votes of the thread-per-pair kernels (run thread after thread: a
 * warp of one). A kernel may use a vote only to choose between code paths
 * that compute the same values (gpu_prune_ed_int.cuh's band): one true
 * vote in four is answered false here, so that the slower path is tried
 * on rows where the GPU would take the fast one. */
static inline unsigned __activemask(void) { return 1u; }
static inline int __all_sync(unsigned, int p)
{
    static thread_local unsigned n;
    return p && (++n & 3) != 0;
}

#endif
