/* gpu_pack2_int.cuh - DScan-mNW and TiledDScan-mNW with two pairs per lane
 * (MNW_GPU_K_DSCAN2, MNW_GPU_K_TILED2): linear and affine gaps, tagged
 * offset scores (gpu_kernels_int.cuh, block_col_lin) in the two signed 16-bit halves of a
 * 32-bit register, one pair per half, so that every instruction of the
 * cell update does the work of two cells. Included by gpu_kernels.cu and by
 * tests/emu (the host emulation, where CI has no GPU). docs/GPU.md has the
 * derivations; in short:
 *
 * Which two pairs. Pairs (i, j) and (i, j') of one work list follow each
 * other and share sequence i, their rows. The kernel computes a pair
 * transposed, its columns as the kernel's rows, so that the two pairs of a
 * lane share the kernel's columns (sequence i): one column base for both
 * halves, and one profile (per kernel row and base, the two halves' S
 * packed) serves both. Transposed, the matrix has the same values; the
 * tags keep their meaning (2 diagonal, 1 up, 0 left of the pair's own
 * matrix: the kernel's left is the pair's up), so the cell is
 *   r = max(diag + S, left, up - 1)   (the kernel's left and up)
 * and the direction words have DScan's layout in the transposed frame
 * (mnw_gpu_view with mnw_dirview.tr). Ends: the kernel's last column is the
 * pair's last row, which wins ties, as on the CPU.
 *
 * 16 bits. U = 4 P + 1 with P = H + g (r + c) never decreases along a row
 * or a column and grows by at most L = max(match, 0) + 2 g per step. Each
 * lane keeps its values relative to a base per half (beta, 32-bit): at the
 * start and every 32 steps it subtracts its smallest value, the diagonal
 * input P(r0 - 1, c - 1), from everything it holds. Until the next rebase
 * its values then stay within 4 L (16 + 32) + 2, which fits a signed
 * 16-bit half when L <= 170 (mnw_gpu_fits16; else the pair goes to the
 * 32-bit kernels). A value handed to the lane below is converted with the
 * difference of the two lanes' bases (one add: the per-half difference
 * folds into one 32-bit constant, because every converted half lands in
 * 0 .. 32767). Boundary rows (TiledDScan) and the ends hold absolute
 * values.
 *
 * Direction bits: the tag t of row k is accumulated as (r - N) 4^k, with N
 * = (r & ~3) | 1 the stored value, so r - N = t - 1 per half; two
 * accumulators of 8 rows (started at sum 4^k per half) give each half's 16
 * bits, split into the two pairs' words with two byte permutes.
 *
 * mothur's tie rule (sc.tie, linear gaps): the kept tag is T = 0 (N = r &
 * ~3, S = 4 (s + 2 g) + 2, the pair's left gap, the kernel's up, + 1:
 * sc.lt2), so the pair's left wins a tie between the gaps; r - N = t, the
 * accumulators start at 0, and the rebase value is 0. The same
 * instructions.
 *
 * Affine gaps (block_col2a). The offset is P = X + ge (r + c) for each of
 * H, W (the kernel's left gap, the pair's up gap E) and V (the kernel's up
 * gap, the pair's F), with o = open - extend: extending costs nothing,
 * opening costs o. Stored: H^ = 4 H_P + 1, W^ = 4 W_P + 1, V^ = 4 V_P, so
 * the tags of r = max(diag + S, W^, V^) are 2, 1, 0 as with linear gaps
 * (ties: diagonal, then the pair's up, then its left); W's candidates are
 * H^ - 4 o + 1 (open, tag 2) and W^ (extend, tag 1), V's H^ - 4 o (open,
 * tag 1) and V^ (tag 0): ties open. The bits: a0 as above (A, B), a1
 * started at sum 3 4^k less (2 open_W + open_V) 4^k, so A' (bit 2k + 1) =
 * W extends, B' = V extends (mnw_gpu_view with tr: A at bit 1, B at bit
 * 0). P is no longer monotone (a gap opens at -o), so the rebase sets the
 * diagonal input to 4 T + 1, T = 3 o + max(match, 0) + 2 ge + 2, above
 * every value the lane holds or receives until the next rebase, and
 * subtracts per half (the input may lie below 4 T + 1: no borrow across
 * halves). One step raises P by at most L = max(match, 0) + o + 2 ge, so
 * values stay below 4 (T + 48 L) + 2 <= 32767 (mnw_gpu_fits16). The edges
 * (edge, gedge2) hold P's of the CPU's edges, and gaps at the edge less
 * o + 1 (the CPU's minus infinity: opening from H wins there).
 *
 * Thread-safety: kernels only touch their batch's buffers.
 */
#ifndef MNW_GPU_PACK2_CUH
#define MNW_GPU_PACK2_CUH

#include "workers/gpu/gpu_kernels_int.cuh"

/* Blocks of 128 threads per SM the compiler must fit (registers <= 102):
 * 5 blocks (20 warps) fill an SM's shared memory (40 KB of profile each).
 * Left free, ptxas took 146-196 registers (3 blocks) and the kernels ran
 * 15-20% slower, latency-bound (H100, bench/results/
 * gpu-two-per-lane-h100-2026-11-25.md). Free end gaps with trace-back keep 4
 * (5 would spill). */
#ifndef MNW_GPU_PACK2_BLOCKS
#define MNW_GPU_PACK2_BLOCKS 5
#endif
/* affine gaps, and free end gaps with trace-back (128 registers) */
#ifndef MNW_GPU_PACK2_BLOCKS_WIDE
#define MNW_GPU_PACK2_BLOCKS_WIDE 4
#endif

namespace mnw_gk {

constexpr uint32_t LO1 = 0x00010001u;

/* max(a + b, c) in each signed 16-bit half (VIADDMNMX.S16x2 on sm_90) */
__device__ __forceinline__ uint32_t addmax2(uint32_t a, uint32_t b, uint32_t c)
{
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
    return __viaddmax_s16x2(a, b, c);
#else
    uint32_t r = 0;
    for (int h = 0; h < 32; h += 16) {
        int16_t s = (int16_t)(uint16_t)((a >> h) + (b >> h)), cc = (int16_t)(uint16_t)(c >> h);
        r |= (uint32_t)(uint16_t)(s > cc ? s : cc) << h;
    }
    return r;
#endif
}

/* max in each signed 16-bit half (VIMNMX.S16x2 on sm_90) */
__device__ __forceinline__ uint32_t max2(uint32_t a, uint32_t b)
{
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
    return __vmaxs2(a, b);
#else
    uint32_t r = 0;
    for (int h = 0; h < 32; h += 16) {
        int16_t x = (int16_t)(uint16_t)(a >> h), y = (int16_t)(uint16_t)(b >> h);
        r |= (uint32_t)(uint16_t)(x > y ? x : y) << h;
    }
    return r;
#endif
}

/* the low halves of a and b (b's on top), the high halves likewise */
__device__ __forceinline__ uint32_t lohalves(uint32_t a, uint32_t b) { return (a & 0xffffu) | (b << 16); }
__device__ __forceinline__ uint32_t hihalves(uint32_t a, uint32_t b) { return (a >> 16) | (b & 0xffff0000u); }

/* the packed value of two 16-bit quantities (each 0 .. 32767 or a small negative S) */
__device__ __forceinline__ uint32_t pack2(int lo, int hi) { return ((uint32_t)lo & 0xffffu) | ((uint32_t)hi << 16); }

/* S of block_col_lin for a row of code rc (4: ambiguity or past the end) and column code b
 * (4: ambiguity): with an ambiguity code sn, or with ambn (mothur's rule) a match when
 * both are ambiguity codes and a mismatch when one is */
__device__ __forceinline__ int s_of(int rc, int b, int sm, int sx, int sn, bool ambn)
{
    return rc < 4 && b < 4 ? (rc == b ? sm : sx) : ambn ? (rc == b ? sm : sx) : sn;
}

/* The profile of a lane's 16 kernel rows, both halves: for base b the 16
 * packed S = 4 (s + 2 g) + ds (ds = 2 - T: 1, or 2 under mothur's tie
 * rule) as 4 int4 at p[(4 b + q) PT] (q = rows 4q .. 4q+3), as prof_fill;
 * g is the offset's gap cost (linear: the gap cost, affine: the
 * extension). rc0/rc1: the rows' codes. */
__device__ __forceinline__ void prof2_fill(int4 *p, const int *rc0, const int *rc1, const mnw_gpu_kscore &sc, int g,
                                           int ds, bool lt)
{
    const int sm = 4 * (sc.match + 2 * g) + ds, sx = 4 * (sc.mismatch + 2 * g) + ds, sn = 4 * (2 * g) + ds;
#pragma unroll
    for (int b = 0; b < 5; b++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
            uint32_t v[4];
#pragma unroll
            for (int t = 0; t < 4; t++) {
                const int k = 4 * q + t;
                v[t] = pack2(s_of(rc0[k], b, sm, sx, sn, lt), s_of(rc1[k], b, sm, sx, sn, lt));
            }
            p[(4 * b + q) * PT] = make_int4((int)v[0], (int)v[1], (int)v[2], (int)v[3]);
        }
}

/* the kernel rows' codes of one pair's half (rows r0 .. r0 + 15 of its
 * m, clamped to 4; 4 past the end) */
__device__ __forceinline__ void rows_codes2(int *rc, const uint8_t *A, int m, int r0)
{
#pragma unroll
    for (int k = 0; k < RB; k++) {
        const int r = r0 + k;
        rc[k] = r <= m ? min((int)A[r - 1], 4) : 4;
    }
}

/* One column of a lane's 16 kernel rows, both halves (see the top). In:
 * diag = the row above at the previous column, up = the row above at this
 * column (both in this lane's base). Out: up = the bottom row; w0, w1 = the
 * two pairs' direction words. lt2: the kernel's up (the pair's left) add
 * per half, -1 (0xffffffff), or +1 under mothur's rule; acc0: sum of
 * (1 - T) 4^k, k < 8, in each half. */
__device__ __forceinline__ void block_col2(uint32_t *H, const int4 *pb, uint32_t diag, uint32_t &up, uint32_t &w0,
                                           uint32_t &w1, uint32_t mask, uint32_t one, uint32_t lt2, uint32_t acc0)
{
    uint32_t acc[2] = {acc0, acc0};
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const int4 s4 = pb[q * PT];
        const uint32_t S[4] = {(uint32_t)s4.x, (uint32_t)s4.y, (uint32_t)s4.z, (uint32_t)s4.w};
#pragma unroll
        for (int t = 0; t < 4; t++) {
            const int k = 4 * q + t;
            /* diag + S against left first, off the chain that runs down
             * the column through up (two instructions a row, not three:
             * +6% score-only on an H100, bench/results/
             * gpu-affine-two-per-lane-h100-2026-11-25.md) */
            const uint32_t r = addmax2(up, lt2, addmax2(diag, S[t], H[k]));
            const uint32_t nv = (r & mask) | one; /* (r & ~3) | T per half; one LOP3 */
            acc[k >> 3] += (r - nv) * (1u << (2 * (k & 7)));
            diag = H[k];
            H[k] = nv;
            up = nv;
        }
    }
    w0 = lohalves(acc[0], acc[1]);
    w1 = hihalves(acc[0], acc[1]);
}

/* One column of a lane's 16 kernel rows, both halves, affine gaps (see
 * the top, "Affine gaps"). H, Wg: the rows' H^ and W^ (the kernel's left
 * gap) at the last column. In: diag = H^ of the row above at the previous
 * column, up / uv = H^ / V^ of the row above at this column. Out: up / uv =
 * those of the bottom row; a0 / a1 = the bits (A, B) and (A', B') of the
 * 16 rows, pair 0 in the low halves of a0[0] (rows 0-7) and a0[1] (rows
 * 8-15), pair 1 in the high halves (words_lo, words_hi split them). cw, cv: -4 o + 1 and -4 o
 * in each half (o = open - extend). */
__device__ __forceinline__ void block_col2a(uint32_t *H, uint32_t *Wg, const int4 *pb, uint32_t diag, uint32_t &up,
                                            uint32_t &uv, uint32_t *a0, uint32_t *a1, uint32_t mask, uint32_t one,
                                            uint32_t cw, uint32_t cv, uint32_t onew, uint32_t onev)
{
    a0[0] = a0[1] = 0x55555555u; /* sum of 4^k, k < 8, in each half */
    a1[0] = a1[1] = 0xffffffffu; /* sum of 3 4^k */
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const int4 s4 = pb[q * PT];
        const uint32_t S[4] = {(uint32_t)s4.x, (uint32_t)s4.y, (uint32_t)s4.z, (uint32_t)s4.w};
#pragma unroll
        for (int t = 0; t < 4; t++) {
            const int k = 4 * q + t;
            const uint32_t m4 = 1u << (2 * (k & 7));
            const uint32_t vr = addmax2(up, cv, uv);     /* V: open (tag tv + 1) or extend (tv) */
            const uint32_t vn = (vr & mask) | onev;      /* V^: tag tv (0; D before I: 1) */
            const uint32_t wr = addmax2(H[k], cw, Wg[k]); /* W: open (tag tw + 1) or extend (tw) */
            const uint32_t wn = (wr & mask) | onew;      /* W^: tag tw (1; D before I: 0) */
            /* diag + S against W first, off the chain of up and uv */
            const uint32_t r = max2(addmax2(diag, S[t], wn), vn);
            const uint32_t nv = (r & mask) | one;
            a0[k >> 3] += (r - nv) * m4;
            a1[k >> 3] -= ((wr - wn) * 2u + (vr - vn)) * m4;
            diag = H[k];
            H[k] = nv;
            Wg[k] = wn;
            up = nv;
            uv = vn;
        }
    }
}

/* H[k] for a k the whole warp shares (a pair's last row): a uniform
 * branch, not a chain of selects */
__device__ __forceinline__ uint32_t pick(const uint32_t *H, int k)
{
    switch (k) {
    case 0: return H[0];
    case 1: return H[1];
    case 2: return H[2];
    case 3: return H[3];
    case 4: return H[4];
    case 5: return H[5];
    case 6: return H[6];
    case 7: return H[7];
    case 8: return H[8];
    case 9: return H[9];
    case 10: return H[10];
    case 11: return H[11];
    case 12: return H[12];
    case 13: return H[13];
    case 14: return H[14];
    default: return H[15];
    }
}

/* The end cell of one half as the columns go by: ends_col with the half's
 * absolute values, the last row's part (the last column's is lastcol2). */
template <bool FE>
__device__ __forceinline__ void ends_col2(Ends &E, const uint32_t *H, int h, int beta, int c, int n, bool own, int mk,
                                          int m, int g)
{
    const int sh = 16 * h;
    if (own && (FE || c == n)) {
        const uint32_t x = pick(H, mk);
        const int hm = hval((int)((x >> sh) & 0xffffu) + beta, m, c, g);
        if (FE && hm >= E.lrv) {
            E.lrv = hm;
            E.lrc = c;
        }
        if (c == n) E.hmn = hm;
    }
}

/* Free end gaps: the best of the lane's rows in the last column (n), once
 * the stripe's steps are done. A lane computes no column after n, and a
 * rebase moves H and beta by the same amount, so H + beta still holds
 * column n here (done per step inside the loop, this cost registers: the
 * unrolled group spilled). */
__device__ __forceinline__ void lastcol2(Ends &E, const uint32_t *H, int h, int beta, int r0, int m, int n, int g)
{
    const int sh = 16 * h;
#pragma unroll
    for (int k = 0; k < RB; k++) {
        const int v = hval((int)((H[k] >> sh) & 0xffffu) + beta, r0 + k, n, g);
        if (r0 + k <= m && v >= E.lcv) {
            E.lcv = v;
            E.lcr = r0 + k;
        }
    }
}

/* The kernel's edges, absolute and scaled (see the top): H^ of row r at
 * column 0 (the same as column r of row 0) is edge<AFF> (gpu_kernels_int.cuh:
 * 4 (H + g r) + 1, the 32-bit kernels' U). gedge2 (affine): a gap at the
 * edge, V^ (tag 0) of row 0 or W^ (tag 1) of column 0: H^'s P less o + 1,
 * so that opening from H wins there, as from the CPU's minus infinity
 * (16-bit halves have no room for the 32-bit kernels' NEG). */
__device__ __forceinline__ int gedge2(const mnw_gpu_kscore &sc, int r, int tag)
{
    return 4 * (hedge(sc, r) + sc.ge * r - (sc.go - sc.ge) - 1) + tag;
}

/* lane L's inputs for steps s0 .. s0+31 (column s0 + L + 1): the row above
 * (row 0, or the boundary row: absolute) for each half, H^ and (affine) V^,
 * and the column's base */
template <bool AFF, bool EXT>
__device__ __forceinline__ void fetch2(int s0, int lane, int n, int sp, const mnw_gpu_kscore &sc, const uint8_t *C,
                                       const int32_t *rd0, const int32_t *rd1, int vo, int &h0, int &h1, int &v0,
                                       int &v1, int &b)
{
    const int c = s0 + lane + 1;
    h0 = h1 = v0 = v1 = 0;
    b = 4;
    if (c <= n) {
        b = min((int)C[c - 1], 4);
        if (sp == 0) {
            h0 = h1 = edge<AFF, EXT>(sc, c);
            if (AFF) v0 = v1 = gedge2(sc, c, kdbi<AFF, EXT>(sc));
        } else {
            h0 = rd0[c];
            h1 = rd1[c];
            if (AFF) {
                v0 = rd0[c + vo];
                v1 = rd1[c + vo];
            }
        }
    }
}

/* the two pairs' words of a0 / a1 (block_col2a's or block_col2's
 * accumulators): pair 0 from the low halves, pair 1 from the high */
__device__ __forceinline__ uint32_t words_lo(const uint32_t *a) { return lohalves(a[0], a[1]); }
__device__ __forceinline__ uint32_t words_hi(const uint32_t *a) { return hihalves(a[0], a[1]); }

/* DSCAN2 (TILED = false: both pairs' kernel rows <= 512) and TILED2. units:
 * nu entries of two pair numbers (the second equal to the first: one pair
 * alone, its high half idle but computed). */
template <bool AFF, bool FE, bool TILED, bool DIRS, bool EXT>
__global__ void __launch_bounds__(128, (AFF || (FE && DIRS)) ? MNW_GPU_PACK2_BLOCKS_WIDE : MNW_GPU_PACK2_BLOCKS)
    dscan2(const mnw_gpu_kpair *__restrict__ pairs, const uint32_t *__restrict__ units, int nu,
           const uint8_t *__restrict__ codes, mnw_gpu_kscore sc, uint8_t *__restrict__ var,
           mnw_gpu_kend *__restrict__ ends)
{
    const int lane = threadIdx.x & 31;
    const int x = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (x >= nu) return; /* whole warps only */
    const int p0 = (int)units[2 * x], p1 = (int)units[2 * x + 1];
    const bool two = p1 != p0;
    const mnw_gpu_kpair P0 = pairs[p0], P1 = pairs[p1];
    /* the kernel's frame: columns = the pairs' rows (shared), rows = their columns */
    const int n = P0.m;
    const uint8_t *C = codes + P0.a;
    const int m0 = P0.n, m1 = P1.n;
    const uint8_t *A0 = codes + P0.b, *A1 = codes + P1.b;
    const int nrb = mnw_gpu_nrb(max(m0, m1)), nrb0 = mnw_gpu_nrb(m0), nrb1 = mnw_gpu_nrb(m1);
    const uint64_t w = ((uint64_t)n + 1 + 3) & ~(uint64_t)3;
    int32_t *const bnd0 = (int32_t *)(var + P0.bnd), *const bnd1 = (int32_t *)(var + P1.bnd);
    uint8_t *const dw0 = var + P0.dir, *const dw1 = var + P1.dir;
    /* the offset's gap cost (linear: the gap, affine: the extension) */
    const int g = AFF ? sc.ge : sc.go;
    /* affine: -4 o + 1 and -4 o per half (W's and V's opening, with their
     * tags), and the value the diagonal input takes at a rebase, 4 T + 1
     * (linear: 1), T = 3 o + max(match, 0) + 2 ge + 2 (docs/GPU.md) */
    const int o = sc.go - sc.ge;
    /* D before I (EXT, sc.tie): V (the pair's left gap, D) keeps tag 1 and
     * W (its up gap, I) tag 0, so V wins a tie with W; the openings one
     * above (block_col2a) */
    const int tv = kdbi<AFF, EXT>(sc), tw = 1 - tv;
    const uint32_t cw = pack2(-4 * o + tw, -4 * o + tw), cv = pack2(-4 * o + tv, -4 * o + tv);
    const uint32_t onew = tw ? sc.one2 : 0u, onev = tv ? sc.one2 : 0u;
    const int T = ktag<AFF, EXT>(sc); /* the kept tag (linear: 0 under mothur's tie rule) */
    const bool ambn = kambn<EXT>(sc);
    const int tb = AFF ? 4 * (3 * o + max(sc.match, 0) + 2 * sc.ge + 2) + 1 : T;
    const uint32_t TB = pack2(tb, tb);
    const uint32_t acc0 = T ? 0x55555555u : 0u; /* block_col2 */

    const int mtg0 = (m0 - 1) / RB, mk0 = (m0 - 1) % RB, mtg1 = (m1 - 1) / RB, mk1 = (m1 - 1) % RB;
    const int nstripes = TILED ? (nrb + TILE_BLOCKS - 1) / TILE_BLOCKS : 1;
    /* steps per stripe: n + 31, rounded up to a group of G (gpu_kern_int.h) */
    constexpr int G = 1 << (AFF ? 1 : 2);
    const int nsteps = (int)mnw_gpu_sstep(n, AFF);
    Ends E0, E1;
    __shared__ int4 prof[20 * PT];
    int4 *const myprof = prof + threadIdx.x;

    for (int sp = 0; sp < nstripes; sp++) {
        const int tg = sp * TILE_BLOCKS + lane;
        const int r0 = tg * RB + 1;
        const bool own0 = (tg == mtg0), own1 = (tg == mtg1);
        uint32_t H[RB], Wg[RB];
        {
            int rc0[RB], rc1[RB];
            rows_codes2(rc0, A0, m0, r0);
            rows_codes2(rc1, A1, m1, r0);
            prof2_fill(myprof, rc0, rc1, sc, g, 2 - T, ambn);
        }
        /* base: the diagonal input (row r0 - 1 at column 0) becomes tb, the same for both halves */
        const int e0 = edge<AFF, EXT>(sc, r0 - 1) - tb;
        int beta0 = e0, beta1 = e0;
#pragma unroll
        for (int k = 0; k < RB; k++) {
            const int h = edge<AFF, EXT>(sc, r0 + k) - e0;
            H[k] = pack2(h, h);
            if (AFF) {
                const int wv = gedge2(sc, r0 + k, tw) - e0;
                Wg[k] = pack2(wv, wv);
            }
        }
        uint32_t diag0 = TB, upH = 0, upV = 0;
        int bc = 4;
        /* the conversion from the lane above's base to this lane's */
        int ab0 = __shfl_up_sync(FULL, beta0, 1), ab1 = __shfl_up_sync(FULL, beta1, 1);
        uint32_t D = ((uint32_t)(ab1 - beta1) << 16) + (uint32_t)(ab0 - beta0);
        /* boundary rows: H^ at [0, 2w), affine V^ at [2w, 4w) */
        const int vo = (int)(2 * w);
        const uint64_t rd = (sp & 1) ? w : 0, wr = w - rd;
        const int32_t *rd0 = bnd0 + rd, *rd1 = bnd1 + rd;
        int32_t *wr0 = bnd0 + wr, *wr1 = bnd1 + wr;
        const bool more = TILED && sp + 1 < nstripes;
        /* this lane's direction words (gpu_kern_int.h, "streamed"): G steps'
         * words (entries of two with affine gaps: 16 bytes either way) are
         * kept in g0 / g1 and leave with one 16-byte store; the stripe's
         * lw0 / lw1 lanes' stores of a group lie side by side, the next
         * group right after them */
        const bool st0 = DIRS && tg < nrb0, st1 = DIRS && two && tg < nrb1;
        const int lw0 = max(0, min(32, nrb0 - 32 * sp)), lw1 = max(0, min(32, nrb1 - 32 * sp));
        const uint64_t sbase = (uint64_t)sp * 32u * (uint64_t)nsteps * (AFF ? 8u : 4u) + 16u * (uint64_t)lane;
        uint4 *q0 = (uint4 *)(dw0 + sbase), *q1 = (uint4 *)(dw1 + sbase);
        uint32_t g0[4] = {0, 0, 0, 0}, g1[4] = {0, 0, 0, 0};
        int cH0, cH1, cV0, cV1, cB, nH0, nH1, nV0, nV1, nB;
        fetch2<AFF, EXT>(0, lane, n, sp, sc, C, rd0, rd1, vo, cH0, cH1, cV0, cV1, cB);
        fetch2<AFF, EXT>(32, lane, n, sp, sc, C, rd0, rd1, vo, nH0, nH1, nV0, nV1, nB);
        /* lane L's row-above input for step s0 + L in lane 0's base (one shuffle a step) */
        int lb0 = __shfl_sync(FULL, beta0, 0), lb1 = __shfl_sync(FULL, beta1, 0);
        uint32_t cHp = pack2(cH0 - lb0, cH1 - lb1), cVp = AFF ? pack2(cV0 - lb0, cV1 - lb1) : 0;
        int c = 1 - lane; /* the column at step s: s - lane + 1 */
        for (int s0 = 0; s0 < nsteps; s0 += 32) {
            if (s0) {
                cB = nB;
                /* rebase: the diagonal input becomes tb (linear: it is the
                 * smallest value held; affine: every value held stays above
                 * it less 4 (T - 1)) */
                if constexpr (AFF) {
                    /* per half: the diagonal input may lie below tb, and a
                     * negative difference must not borrow across halves */
                    const int dl0 = (int)(int16_t)(diag0 & 0xffffu) - tb, dl1 = (int)(int16_t)(diag0 >> 16) - tb;
                    const uint32_t nd = pack2(-dl0, -dl1), lo = 0x80008000u;
#pragma unroll
                    for (int k = 0; k < RB; k++) {
                        H[k] = addmax2(H[k], nd, lo);
                        Wg[k] = addmax2(Wg[k], nd, lo);
                    }
                    diag0 = TB;
                    upH = addmax2(upH, nd, lo);
                    upV = addmax2(upV, nd, lo);
                    beta0 += dl0;
                    beta1 += dl1;
                } else {
                    /* the diagonal input is the smallest value held: no borrow */
                    const uint32_t dl = diag0 - TB;
#pragma unroll
                    for (int k = 0; k < RB; k++) H[k] -= dl;
                    diag0 -= dl;
                    upH -= dl;
                    beta0 += (int)(dl & 0xffffu);
                    beta1 += (int)(dl >> 16);
                }
                ab0 = __shfl_up_sync(FULL, beta0, 1);
                ab1 = __shfl_up_sync(FULL, beta1, 1);
                D = ((uint32_t)(ab1 - beta1) << 16) + (uint32_t)(ab0 - beta0);
                lb0 = __shfl_sync(FULL, beta0, 0);
                lb1 = __shfl_sync(FULL, beta1, 0);
                cHp = pack2(nH0 - lb0, nH1 - lb1);
                if (AFF) cVp = pack2(nV0 - lb0, nV1 - lb1);
                fetch2<AFF, EXT>(s0 + 32, lane, n, sp, sc, C, rd0, rd1, vo, nH0, nH1, nV0, nV1, nB);
            }
            const int jn = min(32, nsteps - s0); /* a multiple of G */
            for (int j = 0; j < jn; j += G) {
#pragma unroll
                for (int u = 0; u < G; u++, c++) {
                    uint32_t inH = (uint32_t)__shfl_up_sync(FULL, (int)upH, 1) + D;
                    uint32_t inV = AFF ? (uint32_t)__shfl_up_sync(FULL, (int)upV, 1) + D : 0;
                    int inB = __shfl_up_sync(FULL, bc, 1);
                    const uint32_t zH = (uint32_t)__shfl_sync(FULL, (int)cHp, j + u);
                    const uint32_t zV = AFF ? (uint32_t)__shfl_sync(FULL, (int)cVp, j + u) : 0;
                    const int zB = __shfl_sync(FULL, cB, j + u);
                    if (lane == 0) {
                        inH = zH;
                        inV = zV;
                        inB = zB;
                    }
                    if ((unsigned)(c - 1) >= (unsigned)n) continue; /* its words are never read */
                    uint32_t up = inH, uv = inV;
                    if constexpr (AFF) {
                        uint32_t a0[2], a1[2];
                        block_col2a(H, Wg, myprof + 4 * inB * PT, diag0, up, uv, a0, a1, sc.mask2, sc.one2, cw, cv, onew, onev);
                        g0[2 * u] = words_lo(a0);
                        g0[2 * u + 1] = words_lo(a1);
                        g1[2 * u] = words_hi(a0);
                        g1[2 * u + 1] = words_hi(a1);
                    } else {
                        block_col2(H, myprof + 4 * inB * PT, diag0, up, g0[u], g1[u], sc.mask2, sc.one2, EXT ? sc.lt2 : 0xffffffffu,
                                   acc0);
                    }
                    diag0 = inH;
                    upH = up;
                    upV = uv;
                    bc = inB;
                    if (more && lane == 31) {
                        wr0[c] = (int)(upH & 0xffffu) + beta0;
                        if (two) wr1[c] = (int)(upH >> 16) + beta1;
                        if (AFF) {
                            wr0[c + vo] = (int)(upV & 0xffffu) + beta0;
                            if (two) wr1[c + vo] = (int)(upV >> 16) + beta1;
                        }
                    }
                    ends_col2<FE>(E0, H, 0, beta0, c, n, own0, mk0, m0, g);
                    ends_col2<FE>(E1, H, 1, beta1, c, n, own1, mk1, m1, g);
                }
                if (st0) *q0 = make_uint4(g0[0], g0[1], g0[2], g0[3]);
                if (st1) *q1 = make_uint4(g1[0], g1[1], g1[2], g1[3]);
                q0 += lw0;
                q1 += lw1;
            }
        }
        if (FE) {
            lastcol2(E0, H, 0, beta0, r0, m0, n, g);
            lastcol2(E1, H, 1, beta1, r0, m1, n, g);
        }
        __syncwarp();
    }

    for (int h = 0; h < 2; h++) {
        Ends &E = h ? E1 : E0;
        const int mtg = h ? mtg1 : mtg0;
        if (FE) lastcol_best(E);
        const int olane = mtg & 31;
        const int hmn = __shfl_sync(FULL, E.hmn, olane);
        const int rv = __shfl_sync(FULL, E.lrv, olane), rc = __shfl_sync(FULL, E.lrc, olane);
        if (lane == 0 && (h == 0 || two))
            /* in the pair's frame the kernel's last column (E.lcv at row
             * E.lcr) is the last row, the kernel's last row (rv at column rc)
             * the last column: end_of with them, the pair's m = n rows */
            ends[h ? p1 : p0] = end_of<FE>(n, h ? m1 : m0, hmn, E.lcv, E.lcr, rv, rc, EXT ? sc.tie : 0);
    }
}

} // namespace mnw_gk

#endif
