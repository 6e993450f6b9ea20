/* gpu_prune_int.cuh - the GPU filter of issue 39: one thread per pair
 * computes lib/prune.h's figures exactly as the CPU filter does
 * (workers/cpu/prune_cpu.c: the same q-gram count, the same band, the same
 * order of pre-test and bands) and makes lib/prune.h's integer decision,
 * so that a pair is pruned on the GPU exactly when it is on the CPU (the
 * pruned count is a function of the pairs; tests/gpu/test_gpu.c compares
 * every figure). Included by gpu_kernels.cu (the launcher) and by tests/emu
 * (the same kernel on the host: a thread-per-pair kernel without
 * __syncthreads runs there thread after thread).
 *
 * Per pair (i, j), a = sequence i (the rows, the CPU filter's query), b =
 * sequence j:
 *   shared  the sum over words of min(runs' counts): a merge of the two
 *           sorted run lists (mnw_gpu_pseq), exact;
 *   amb     a's codes >= 4 plus b's;
 *   with stage 1 off (the plan's qgram 0) nothing more: the pair goes to
 *   stage 2 (gpu_prune_ed_int.cuh), shared = INT32_MIN;
 *   then, as prune_cpu.c: with the length bound (use_len) P0 from the
 *   lengths and the decision; else the pre-test with P0 = min(na, nb), a
 *   pair it keeps is kept; the band around diagonal 0, the decision; when
 *   not pruned and the lengths differ, the band around nb - na and the
 *   decision with the better score. FULL (tests): every figure (no
 *   pre-test, both bands), the decision from them (the same, prune.h).
 *
 * The band: prune_cpu.c's definition for one lane, in 32-bit ints with its
 * 32-bit sentinel (NEG = -2^29): cells off <= c - r < off + 9 (off = centre
 * - MNW_PRUNE_W), row 0 and column 0 with their exact values, gap columns
 * costing band_gap, substitutions the run's match / mismatch (0 where a code
 * >= 4 is involved); the best of leaving the set at column n, at row m, or
 * the all-gap path. The row's 10 slots are registers, the 9 target codes of
 * the band's columns a window shifted by one per row. Values stay within
 * |1000 (3 MNW_MAX_SEQ_LEN + 9)|, far inside int32 (prune_cpu.c), so the
 * score is the CPU's bit for bit whichever lanes the CPU used.
 *
 * Thread-safety: the kernel reads the tables and writes its pairs' slots.
 */
#ifndef MNW_GPU_PRUNE_CUH
#define MNW_GPU_PRUNE_CUH

#include "workers/gpu/gpu_dpx_int.cuh"
#include "workers/gpu/gpu_kern_int.h"

namespace mnw_gp {

constexpr int PW = 4;          /* MNW_PRUNE_W (lib/prune.h; gpu_dev.cu asserts it) */
constexpr int PK = 2 * PW + 1; /* diagonals */
constexpr int PNEG = -(1 << 29);
constexpr int PPAD = 15; /* a column outside 1..n or an ambiguity code: scores 0 */
constexpr int32_t NONE = INT32_MIN;

/* max, max of three, max(a + b, c) (gpu_dpx_int.cuh: DPX on sm_90). (Stage
 * 1's band measured slower with its cell as two add-maxes, one on the
 * chain through `left`, than with max3: 39.7-40.2 against 41.2-42.0 M
 * pairs/s at 0.03, H200.) */
using mnw_dpx::addmax;
using mnw_dpx::imax;
using mnw_dpx::max3;

/* sum over words of min(count in a, count in b): two sorted run lists */
__device__ __forceinline__ int qcount(const uint32_t *__restrict__ A, int na, const uint32_t *__restrict__ B, int nb)
{
    int x = 0, y = 0, s = 0;
    while (x < na && y < nb) {
        const uint32_t wa = A[x], wb = B[y], ka = wa >> 16, kb = wb >> 16;
        if (ka == kb) {
            const uint32_t ca = wa & 0xffffu, cb = wb & 0xffffu;
            s += (int)(ca < cb ? ca : cb);
        }
        x += ka <= kb;
        y += kb <= ka;
    }
    return s;
}

/* the code the band compares for column c of b (1 <= c <= n), else PPAD */
__device__ __forceinline__ int bcode(const uint8_t *b, int n, int c)
{
    if (c < 1 || c > n) return PPAD;
    const int v = b[c - 1];
    return v < 4 ? v : PPAD;
}

/* The band score of (a, b) around diagonal centre (prune_cpu.c's band). */
__device__ __forceinline__ int32_t band(const uint8_t *a, int m, const uint8_t *b, int n, int centre, int ms, int mm,
                                        int g)
{
    const int off = centre - PW;
    int hp[PK + 1], win[PK];
#pragma unroll
    for (int k = 0; k <= PK; k++) {
        const int c = off + k;
        hp[k] = (c >= 0 && c <= n) ? -g * c : PNEG;
    }
    const int dn = n - off; /* the row where column n is in slot 0 */
    int colv = dn == 0 ? hp[0] : PNEG;
#pragma unroll
    for (int k = 0; k < PK; k++) win[k] = bcode(b, n, 1 + off + k);
    for (int r = 1; r <= m; r++) {
        const int qa = a[r - 1];
        const int qv = qa < 4 ? qa : 16, mmv = qa < 4 ? mm : 0;
        const int gr = -g * r;
        int left = off == 1 - r ? gr : PNEG; /* column 0 left of the band */
#pragma unroll
        for (int k = 0; k < PK; k++) {
            const int t = win[k];
            const int s = t == qv ? ms : (t < 4 ? mmv : 0);
            const int d = hp[k] + s, u = hp[k + 1] - g, f = left - g;
            const int h = max3(d, u, f);
            hp[k] = h; /* hp[k] is not read again this row; hp[k + 1] still is */
            left = h;
        }
        hp[PK] = off == -r - PK ? gr : PNEG; /* column 0 right of the band */
        if (dn == r) colv = hp[0];
#pragma unroll
        for (int k = 0; k < PK - 1; k++) win[k] = win[k + 1];
        win[PK - 1] = bcode(b, n, r + 1 + off + PK - 1);
    }
    /* prune_cpu.c's band_finish, in 64 bits */
    const int64_t G = g;
    int64_t best = -G * ((int64_t)m + n);
    const int64_t rn = (int64_t)n - off;
    if (rn >= 0 && rn <= m && colv - G * (m - rn) > best) best = colv - G * (m - rn);
    int64_t cm = (int64_t)m + off + PK - 1;
    if (cm > n) cm = n;
    const int64_t slot = cm - m - off;
    int64_t rv = PNEG;
#pragma unroll
    for (int k = 0; k < PK; k++)
        if (slot == k) rv = hp[k];
    if (cm >= 0 && cm >= (int64_t)m + off && rv - G * (n - cm) > best) best = rv - G * (n - cm);
    return (int32_t)best;
}

/* lib/prune.c's mnw_prune_p0_len, mnw_prune_p0 and mnw_prune_test, the
 * same integer formulas (test_gpu compares the decisions) */
__device__ __forceinline__ int64_t p0_len(const mnw_gpu_kprune &p, int na, int nb)
{
    if (!p.use_len) return 0;
    const int64_t lmax = na > nb ? na : nb;
    return ((p.Dd - p.Dn) * lmax + p.Dd - 1) / p.Dd;
}

__device__ __forceinline__ int64_t p0_of(const mnw_gpu_kprune &p, int64_t S, int na, int nb)
{
    int64_t p0 = p0_len(p, na, nb);
    if (p.use_score) {
        int64_t num, den;
        if (p.free_ends) {
            num = S;
            den = p.ms;
        } else {
            num = S + (int64_t)p.ge * ((int64_t)na + nb);
            den = p.ms + 2 * (int64_t)p.ge;
        }
        const int64_t ps = num <= 0 ? 0 : (num + den - 1) / den;
        if (ps > p0) p0 = ps;
    }
    return p0;
}

__device__ __forceinline__ int test(const mnw_gpu_kprune &p, int64_t shared, int64_t amb, int na, int nb, int64_t p0)
{
    const int64_t lmin = na < nb ? na : nb, lmax = na > nb ? na : nb;
    if (p0 > lmin) return 1;
    const int64_t q = p.q;
    return (shared + q * amb + q - 1) * p.W < p0 * p.Kp - lmax * p.Kl;
}

/* One pair's decision (and figures). */
template <bool FULL>
__device__ __forceinline__ int decide(const mnw_gpu_pseq &A, const mnw_gpu_pseq &B, const uint32_t *__restrict__ runs,
                                      const uint8_t *__restrict__ codes, const mnw_gpu_kprune &p, mnw_gpu_kpfig *fig)
{
    const int amb = A.amb + B.amb, na = A.len, nb = B.len, lmin = na < nb ? na : nb;
    const int shared = p.qgram ? qcount(runs + A.woff, A.nw, runs + B.woff, B.nw) : NONE;
    int32_t s0 = NONE, s1 = NONE;
    int64_t p0 = 0;
    int pr = 0;
    if (!p.qgram) {
        /* stage 1 off: every pair goes to stage 2 (prune_cpu.c's figures) */
    } else if (!p.use_score) {
        p0 = p0_len(p, na, nb);
        pr = test(p, shared, amb, na, nb, p0);
    } else {
        p0 = lmin; /* the pre-test */
        if (FULL || test(p, shared, amb, na, nb, p0)) {
            const uint8_t *a = codes + A.code, *b = codes + B.code;
            s0 = band(a, na, b, nb, 0, p.ms, p.mm, p.band_gap);
            p0 = p0_of(p, s0, na, nb);
            pr = test(p, shared, amb, na, nb, p0);
            if (FULL || (!pr && nb != na)) {
                s1 = band(a, na, b, nb, nb - na, p.ms, p.mm, p.band_gap);
                p0 = p0_of(p, s1 > s0 ? s1 : s0, na, nb);
                pr = test(p, shared, amb, na, nb, p0);
            }
        }
    }
    if (FULL) {
        fig->shared = shared;
        fig->amb = amb;
        fig->s0 = s0;
        fig->s1 = s1;
        fig->p0 = p0;
        fig->pruned = pr;
        fig->pad_ = 0;
        fig->sg = NONE; /* stage 2's, when it runs (gpu_prune_ed_int.cuh) */
        fig->ed = NONE;
        fig->tau = INT64_MIN;
    }
    return pr;
}

/* pairs[x] = (i, j): out[x] = 1 when pruned; figs[x] (FULL) its figures. */
template <bool FULL>
__global__ void __launch_bounds__(128) prune(const uint2 *__restrict__ pairs, int np,
                                             const mnw_gpu_pseq *__restrict__ ps, const uint32_t *__restrict__ runs,
                                             const uint8_t *__restrict__ codes, mnw_gpu_kprune p, uint8_t *out,
                                             mnw_gpu_kpfig *figs)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= np) return;
    const uint2 pr = pairs[x];
    const mnw_gpu_pseq A = ps[pr.x], B = ps[pr.y];
    out[x] = (uint8_t)decide<FULL>(A, B, runs, codes, p, FULL ? &figs[x] : nullptr);
}

} // namespace mnw_gp

#endif
