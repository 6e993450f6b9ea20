/* gpu_kernels.cu - the GPU kernels: DScan-mNW (matrix with direction words)
 * and the device trace-back. See gpu_launch.h and docs/GPU.md.
 *
 * DScan-mNW, one warp per pair. The rows are cut into stripes of 32 row
 * blocks of 16 rows (512 rows); lane t of the warp owns block t of the
 * stripe and keeps its 16 rows' H (and F, the left gap, with affine gaps)
 * in registers. The warp sweeps the stripe's anti-diagonals: at step s lane
 * t computes column c = s - t + 1 of its 16 rows, taking H (and E, the upper
 * gap) of the row above and the column's base from lane t - 1 by a shuffle.
 * Lane 0 takes them from the stripe above (a boundary row in global memory,
 * read 32 columns ahead) or from row 0. Lane 31 writes its bottom row as the
 * next stripe's boundary (two rows alternate, so reads and writes never
 * meet). Every step each active lane writes one direction word (two with
 * affine gaps) at (c - 1 + tg) * nrb + tg: the warp's 32 words are
 * consecutive (gpu_kern.h). 32-bit arithmetic: exact for every length the
 * input allows (scores stay far inside int32). The recurrence and the bits
 * are those of the CPU kernels (workers/cpu/nw_simd.h, docs/SCORING.md).
 *
 * Free end gaps: the end cell is the best H of the last row (ties: the
 * largest column) or of the last column (ties: the largest row); the last
 * row wins ties between the two, as on the CPU.
 *
 * Thread-safety: kernels only touch their batch's buffers.
 */
#include "gpu_launch.h"

namespace {

constexpr int RB = MNW_GPU_RB;
constexpr unsigned FULL = 0xffffffffu;
constexpr int NEG = MNW_GPU_NEG;

/* H[r][0] (and H[0][r]): 0 with free end gaps, else -gapcost(r) */
__device__ __forceinline__ int edge(const mnw_gpu_kscore &s, int r)
{
    return (s.free_ends || r == 0) ? 0 : -(s.go + (r - 1) * s.ge);
}

__device__ __forceinline__ int max3(int a, int b, int c)
{
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
    return __vimax3_s32(a, b, c); /* DPX on sm_90, emulated before */
#else
    return max(a, max(b, c));
#endif
}

/* lane 0's inputs for steps s0 .. s0+31, lane L holding column s0 + L + 1:
 * the row above (boundary or row 0) and the column's base (clamped to 4:
 * every ambiguity code scores alike) */
template <bool AFF>
__device__ __forceinline__ void fetch(int s0, int lane, int n, int sp, const mnw_gpu_kscore &sc, const uint8_t *B,
                                      const int32_t *rdH, const int32_t *rdE, int &h, int &e, int &b)
{
    int c = s0 + lane + 1;
    h = 0;
    e = NEG;
    b = 4;
    if (c <= n) {
        b = min((int)B[c - 1], 4);
        if (sp == 0) {
            h = edge(sc, c);
        } else {
            h = rdH[c];
            if (AFF) e = rdE[c];
        }
    }
}

template <bool AFF, bool FE>
__global__ void __launch_bounds__(128) dscan(const mnw_gpu_kpair *__restrict__ pairs, int np,
                                             const uint8_t *__restrict__ codes, mnw_gpu_kscore sc,
                                             uint8_t *__restrict__ var, mnw_gpu_kend *__restrict__ ends)
{
    const int lane = threadIdx.x & 31;
    const int p = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (p >= np) return; /* whole warps only */
    const mnw_gpu_kpair P = pairs[p];
    const int m = P.m, n = P.n;
    const int nrb = mnw_gpu_nrb(m);
    const uint8_t *A = codes + P.a, *B = codes + P.b;
    const uint64_t w = ((uint64_t)n + 1 + 3) & ~(uint64_t)3;
    int32_t *const bnd = (int32_t *)(var + P.bnd); /* H0 H1 E0 E1, w ints each */
    uint32_t *dw = (uint32_t *)(var + P.dir);
    uint2 *dw2 = (uint2 *)(var + P.dir);
    const int go = sc.go, ge = sc.ge;

    const int mtg = (m - 1) / RB, mk = (m - 1) % RB; /* block and row of row m */
    const int nstripes = (nrb + 31) / 32;
    int lrv = 0, lrc = 0;     /* FE: best H of the last row and its column (owner lane) */
    int lcv = 0, lcr = 0;     /* FE: best H of the last column over this lane's rows, row */
    int hmn = 0;              /* H[m][n] (owner lane) */

    for (int sp = 0; sp < nstripes; sp++) {
        const int tg = sp * 32 + lane;
        const int r0 = tg * RB + 1;
        const bool own = (tg == mtg);
        int qc[RB], qm[RB], qx[RB], H[RB], F[RB];
#pragma unroll
        for (int k = 0; k < RB; k++) {
            int r = r0 + k;
            int c = r <= m ? min((int)A[r - 1], 4) : 4;
            qc[k] = c;
            qm[k] = c < 4 ? sc.match : 0;
            qx[k] = c < 4 ? sc.mismatch : 0;
            H[k] = edge(sc, r);
            F[k] = NEG;
        }
        int diag0 = edge(sc, r0 - 1);
        int upH = 0, upE = NEG, bc = 4;
        const uint64_t rd = (sp & 1) ? w : 0, wr = w - rd;
        const int32_t *rdH = bnd + rd, *rdE = bnd + 2 * w + rd;
        int32_t *wrH = bnd + wr, *wrE = bnd + 2 * w + wr;
        const bool more = sp + 1 < nstripes;
        int cH, cE, cB, nH, nE, nB;
        fetch<AFF>(0, lane, n, sp, sc, B, rdH, rdE, cH, cE, cB);
        fetch<AFF>(32, lane, n, sp, sc, B, rdH, rdE, nH, nE, nB);
        const int nsteps = n + 31;
        for (int s = 0; s < nsteps; s++) {
            if ((s & 31) == 0 && s) {
                cH = nH;
                cE = nE;
                cB = nB;
                fetch<AFF>(s + 32, lane, n, sp, sc, B, rdH, rdE, nH, nE, nB);
            }
            int inH = __shfl_up_sync(FULL, upH, 1);
            int inE = AFF ? __shfl_up_sync(FULL, upE, 1) : 0;
            int inB = __shfl_up_sync(FULL, bc, 1);
            const int j = s & 31;
            int zH = __shfl_sync(FULL, cH, j);
            int zE = AFF ? __shfl_sync(FULL, cE, j) : 0;
            int zB = __shfl_sync(FULL, cB, j);
            if (lane == 0) {
                inH = zH;
                inE = zE;
                inB = zB;
            }
            const int c = s - lane + 1;
            if (c < 1 || c > n) continue;
            const int bmask = inB < 4 ? -1 : 0;
            int diag = diag0, up = inH, ue = inE;
            uint32_t w0 = 0, w1 = 0;
            if (!AFF) {
#pragma unroll
                for (int k = 0; k < RB; k++) {
                    int sub = (qc[k] == inB) ? qm[k] : (qx[k] & bmask);
                    int d = diag + sub;
                    int h = max(d, max(up, H[k]) - go);
                    w0 |= ((h == d) ? 1u : 0u) << (2 * k);
                    w0 |= ((H[k] > up) ? 2u : 0u) << (2 * k);
                    diag = H[k];
                    H[k] = h;
                    up = h;
                }
            } else {
#pragma unroll
                for (int k = 0; k < RB; k++) {
                    int sub = (qc[k] == inB) ? qm[k] : (qx[k] & bmask);
                    int d = diag + sub;
                    int eo = up - go, ex = ue - ge;
                    int e = max(eo, ex);
                    int fo = H[k] - go, fx = F[k] - ge;
                    int f = max(fo, fx);
                    int h = max3(d, e, f);
                    w0 |= (((h == d) ? 1u : 0u) | ((h == e) ? 2u : 0u)) << (2 * k);
                    w1 |= (((ex > eo) ? 1u : 0u) | ((fx > fo) ? 2u : 0u)) << (2 * k);
                    diag = H[k];
                    H[k] = h;
                    F[k] = f;
                    up = h;
                    ue = e;
                }
            }
            diag0 = inH;
            upH = up;
            upE = ue;
            bc = inB;
            if (tg < nrb) {
                uint64_t at = (uint64_t)(c - 1 + tg) * (uint64_t)nrb + (uint64_t)tg;
                if (AFF) dw2[at] = make_uint2(w0, w1);
                else dw[at] = w0;
            }
            if (lane == 31 && more) {
                wrH[c] = upH;
                if (AFF) wrE[c] = upE;
            }
            if (own && (FE || c == n)) { /* row m: H at this column */
                int hm = H[0];
#pragma unroll
                for (int k = 1; k < RB; k++)
                    if (k == mk) hm = H[k];
                if (FE && hm >= lrv) {
                    lrv = hm;
                    lrc = c;
                }
                if (c == n) hmn = hm;
            }
            if (FE && c == n) { /* last column, rows ascending (ties: the later row) */
#pragma unroll
                for (int k = 0; k < RB; k++)
                    if (r0 + k <= m && H[k] >= lcv) {
                        lcv = H[k];
                        lcr = r0 + k;
                    }
            }
        }
        __syncwarp();
    }

    const int olane = mtg & 31; /* the owner of row m (in the last stripe) */
    mnw_gpu_kend en;
    en.pad_ = 0;
    if (!FE) {
        en.score = __shfl_sync(FULL, hmn, olane);
        en.re = m;
        en.ce = n;
    } else {
        for (int o = 16; o; o >>= 1) { /* best of the last column: larger H, then larger row */
            int ov = __shfl_xor_sync(FULL, lcv, o), orr = __shfl_xor_sync(FULL, lcr, o);
            if (ov > lcv || (ov == lcv && orr > lcr)) {
                lcv = ov;
                lcr = orr;
            }
        }
        int rv = __shfl_sync(FULL, lrv, olane), rc = __shfl_sync(FULL, lrc, olane);
        if (rv >= lcv) {
            en.score = rv;
            en.re = m;
            en.ce = rc;
        } else {
            en.score = lcv;
            en.re = lcr;
            en.ce = n;
        }
    }
    if (lane == 0) ends[p] = en;
}

__global__ void trace(const mnw_gpu_kpair *__restrict__ pairs, int np, const uint8_t *__restrict__ codes, int affine,
                      uint8_t *__restrict__ var, const mnw_gpu_kend *__restrict__ ends, uint32_t *__restrict__ packed,
                      uint32_t *__restrict__ hdr)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= np) return;
    const mnw_gpu_kpair P = pairs[x];
    const mnw_gpu_kend E = ends[x];
    mnw_dirview v = mnw_gpu_view(var + P.dir, P.m, affine);
    uint32_t *slot = (uint32_t *)(var + P.runs);
    uint32_t k = mnw_tb_walk(&v, affine, E.re, E.ce, codes + P.a, P.m, codes + P.b, P.n, slot);
    uint32_t off = atomicAdd(&hdr[0], k);
    for (uint32_t i = 0; i < k; i++) packed[off + i] = slot[i];
    hdr[1 + x] = k;
    hdr[1 + np + x] = off;
}

} // namespace

void mnw_gpu_run_dscan(cudaStream_t st, const mnw_gpu_kpair *pairs, int np, const uint8_t *codes,
                       const mnw_gpu_kscore *sc, uint8_t *var, mnw_gpu_kend *ends)
{
    const int threads = 128, per = threads / 32;
    dim3 grid((unsigned)((np + per - 1) / per));
    if (sc->affine) {
        if (sc->free_ends) dscan<true, true><<<grid, threads, 0, st>>>(pairs, np, codes, *sc, var, ends);
        else dscan<true, false><<<grid, threads, 0, st>>>(pairs, np, codes, *sc, var, ends);
    } else {
        if (sc->free_ends) dscan<false, true><<<grid, threads, 0, st>>>(pairs, np, codes, *sc, var, ends);
        else dscan<false, false><<<grid, threads, 0, st>>>(pairs, np, codes, *sc, var, ends);
    }
}

void mnw_gpu_run_trace(cudaStream_t st, const mnw_gpu_kpair *pairs, int np, const uint8_t *codes, int affine,
                       uint8_t *var, const mnw_gpu_kend *ends, uint32_t *packed, uint32_t *hdr)
{
    const int threads = 128;
    trace<<<(unsigned)((np + threads - 1) / threads), threads, 0, st>>>(pairs, np, codes, affine, var, ends, packed,
                                                                       hdr);
}
