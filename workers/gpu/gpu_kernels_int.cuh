/* gpu_kernels_int.cuh - the GPU kernels: RScan-mNW, DScan-mNW and TiledDScan-mNW
 * (matrix and direction words) and the device trace-back. Included by
 * gpu_kernels.cu (the launchers, gpu_launch_int.h) and by tests/emu (the same
 * kernels run on the host, lane by lane, where CI has no GPU). See
 * gpu_kern_int.h (layouts) and docs/GPU.md.
 *
 * All three compute a row block (16 rows) one column at a time with
 * block_col (affine gaps) or block_col_lin (linear gaps): the block's 16 H
 * values (and F, the left gap, with affine gaps) stay in registers; a column
 * takes H (and E, the upper gap) of the row above the block, the column's
 * base and the diagonal H, and gives the block's bottom H (and E) and the
 * direction word(s). 32-bit arithmetic: exact for every length the input
 * allows. Affine gaps: the recurrence and the bits of the CPU kernels
 * (workers/cpu/nw_simd_int.h, docs/SCORING.md). Linear gaps: tagged offset
 * scores (block_col_lin), the substitution from a profile in shared memory
 * (prof_fill), and per cell the tag of the winner (2 diagonal, 1 up, 0
 * left) as its two direction bits; the same alignments by the same rule.
 *
 * DScan-mNW, one warp per pair, m <= 512 rows: lane t owns row block t and
 * the warp sweeps the anti-diagonals: at step s lane t computes column
 * c = s - t + 1, taking the row above and the column's base from lane t - 1
 * by a shuffle (lane 0 from row 0). Every active lane writes one direction
 * word (two with affine gaps) at (c - 1 + tg) * nrb + tg: the warp's 32
 * words are consecutive (gpu_kern_int.h).
 * TiledDScan-mNW: the same over tiles of 32 row blocks (512 rows); lane 0
 * reads the tile above's bottom row from a boundary row in device memory
 * (read 32 columns ahead), lane 31 writes its own (two rows alternate, so
 * reads and writes never meet). No length limit.
 * RScan-mNW, one thread per pair (short sequences, where a warp's lanes
 * would idle): the thread computes its row blocks one after another, each
 * left to right, 4 columns per step; the block's bottom row goes to a
 * boundary row in device memory for the next block (16-byte loads and
 * stores), the direction words of 4 columns to one 16-byte store.
 *
 * DIRS = false (benchmarks only): no direction words, the score and end
 * cell only.
 *
 * Linear gaps, DScan and TiledDScan: gpu_pack2_int.cuh runs two pairs per lane
 * in 16-bit halves where the scoring allows; these 32-bit kernels take the
 * rest (and are its baseline).
 *
 * Free end gaps: the end cell is the best H of the last row (ties: the
 * largest column) or of the last column (ties: the largest row); the last
 * row wins ties between the two (the last column under mothur's tie
 * rule), as on the CPU.
 *
 * Thread-safety: kernels only touch their batch's buffers.
 */
#ifndef MNW_GPU_KERNELS_CUH
#define MNW_GPU_KERNELS_CUH

#include "workers/gpu/gpu_dpx_int.cuh"
#include "workers/gpu/gpu_kern_int.h"

namespace mnw_gk {

constexpr int RB = MNW_GPU_RB;
constexpr unsigned FULL = 0xffffffffu;
constexpr int NEG = MNW_GPU_NEG;
constexpr int TILE_BLOCKS = MNW_GPU_DSCAN_ROWS / RB; /* 32: one per lane */
constexpr int PT = 128; /* threads per block of every matrix kernel (gpu_kernels.cu) */

/* H[r][0] (and H[0][r]) itself: 0 with free end gaps, else -gapcost(r)
 * (linear gaps: go = ge, so -go r) */
__device__ __forceinline__ int hedge(const mnw_gpu_kscore &s, int r)
{
    return (s.free_ends || r == 0) ? 0 : -(s.go + (r - 1) * s.ge);
}

/* The gap cost of the offset (docs/GPU.md): linear gaps the gap, affine
 * the extension (a gap step then costs nothing, an opening o = go - ge) */
template <bool AFF>
__device__ __forceinline__ int goff(const mnw_gpu_kscore &s)
{
    return AFF ? s.ge : s.go;
}

/* EXT (a template parameter of every matrix kernel): the scoring uses
 * mothur's tie rule or ambiguity codes scored as mothur scores them (sc.tie,
 * sc.ambn), read at run time; without EXT both are mnw's defaults,
 * constants, and the kernels are those from before the two existed
 * (their registers and instructions: bench/results/like-h200-2026-11-29). */

/* The tag T every kept value carries (block_col_lin): 1, or 0 under
 * mothur's tie rule (linear gaps only) */
template <bool AFF, bool EXT>
__device__ __forceinline__ int ktag(const mnw_gpu_kscore &s)
{
    return (AFF || !EXT) ? 1 : 1 - s.tie;
}

/* affine gaps, D before I (mothur's and vsearch's rule with affine gaps,
 * EXT only): F^ (the left gap, D) keeps the tag E^ keeps otherwise, so F
 * wins a tie with E (block_col_aff, block_col2a) */
template <bool AFF, bool EXT>
__device__ __forceinline__ int kdbi(const mnw_gpu_kscore &s)
{
    return (AFF && EXT) ? s.tie : 0;
}

/* ambiguity codes scored as mothur scores them (EXT only; score.h
 * MNW_AMB_MOTHUR): two ambiguity codes a match, one against a base a
 * mismatch. Only the profile's values change (rows_init): every ambiguity
 * code is code 4 to the kernels in both rules. */
template <bool EXT>
__device__ __forceinline__ bool kambn(const mnw_gpu_kscore &s)
{
    return EXT && s.ambn;
}

/* The value a kernel keeps for H[r][0] (and H[0][r]): U = 4 (H + g r) + T
 * (block_col_lin, block_col_aff): T without free end gaps and linear gaps,
 * 4 g r + T with free end gaps. */
template <bool AFF, bool EXT>
__device__ __forceinline__ int edge(const mnw_gpu_kscore &s, int r)
{
    return 4 * (hedge(s, r) + goff<AFF>(s) * r) + ktag<AFF, EXT>(s);
}

/* H of cell (r, c) from the value U a kernel keeps (g: goff) */
__device__ __forceinline__ int hval(int x, int r, int c, int g)
{
    return (x >> 2) - g * (r + c);
}

/* max(a, b, c) and max(a + b, c): one DPX instruction each on sm_90 */
using mnw_dpx::addmax;
using mnw_dpx::max3;

/* One row block's state: rows r0 .. r0 + 15 */
struct Rows {
    int qc[RB], qm[RB], qx[RB]; /* row code (clamped to 4), its S against its own code and another base */
    int H[RB], F[RB];           /* U and (affine) F^ of the last column computed */
    int qn;                     /* S of a base row against an ambiguity column */
};

template <bool AFF, bool EXT>
__device__ __forceinline__ void rows_init(Rows &R, const uint8_t *A, int m, int r0, const mnw_gpu_kscore &sc)
{
    /* S = 4 (s + 2 g) + 2 - T, the diagonal step of U (block_col_lin,
     * block_col_aff: tag 2), g the offset's gap cost */
    const int g = goff<AFF>(sc);
    const int ds = 2 - ktag<AFF, EXT>(sc);
    const bool ambn = kambn<EXT>(sc);
    /* an ambiguity column or row: 0 (mnw's rule), or with ambn
     * (mothur's) a match against an ambiguity code and a mismatch against
     * a base; rows past the end are code 4 (their values are never read) */
    const int qn = 4 * (2 * g) + ds;
    const int sm = 4 * (sc.match + 2 * g) + ds, sx = 4 * (sc.mismatch + 2 * g) + ds;
    R.qn = ambn ? sx : qn;
#pragma unroll
    for (int k = 0; k < RB; k++) {
        int r = r0 + k;
        int c = r <= m ? min((int)A[r - 1], 4) : 4; /* every ambiguity code scores alike */
        R.qc[k] = c;
        R.qm[k] = c < 4 || ambn ? sm : qn;
        R.qx[k] = c < 4 || ambn ? sx : qn;
        R.H[k] = edge<AFF, EXT>(sc, r);
        R.F[k] = NEG; /* a multiple of 4: tag 0, as every F^ */
    }
}

/* Linear gaps: the substitution profile of a thread's 16 rows, in shared
 * memory: for each column base b (0..4) the 16 values S of block_col_lin, as 4
 * int4 at p[(4 b + q) PT] (q = rows 4q..4q+3), p = prof + threadIdx.x. The
 * threads of a warp read 32 consecutive int4 (no bank conflict), each its
 * own, so no synchronisation is needed. */
__device__ __forceinline__ void prof_fill(int4 *p, const Rows &R)
{
#pragma unroll
    for (int b = 0; b < 5; b++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int v[4];
#pragma unroll
            for (int t = 0; t < 4; t++) {
                const int k = 4 * q + t;
                v[t] = (R.qc[k] == b) ? R.qm[k] : (b < 4 ? R.qx[k] : R.qn);
            }
            p[(4 * b + q) * PT] = make_int4(v[0], v[1], v[2], v[3]);
        }
}

/* One column of a row block, linear gaps, S from the profile (pb = p +
 * 4 b PT for the column's base b). In: diag = U of the row above at the
 * previous column, up = U of the row above at this column. Out: up = U of
 * the block's bottom row; w0 = the tags.
 *
 * Tagged offset scores (docs/GPU.md): a kernel keeps U = 4 P + 1 with
 * P = H + g (r + c) (g the gap cost), so a gap step costs nothing and a
 * diagonal step adds s + 2 g. The three candidates of a cell carry their
 * tag in the two low bits: diagonal U + S with S = 4 (s + 2 g) + 1 (tag 2),
 * up U (tag 1), left U - 1 (tag 0). All three are shifted by the same
 * amount, so one max gives the score and the winner at once, and a tie goes
 * to the larger tag: diagonal, then up, then left, the rule of
 * docs/SCORING.md. The tag is the direction (no compare per cell); the cell
 * keeps (r & ~3) | 1. Two add-max instructions make the 3-way max with its
 * adds. Under mothur's tie rule (sc.tie) the kept tag T is 0: U = 4 P,
 * S = 4 (s + 2 g) + 2, up U (tag 0), left U + 1 (tag 1), so left wins a
 * tie between the gaps (lt = 1 - 2 T, the cell keeps (r & ~3) | T); the
 * same instructions. 0 <= P <= (match + 2 g) min(r, c) + g |r - c|: with the option
 * limits (scores and costs up to 1,000, sequences up to 10,000 bases) U
 * stays below 2^27, far inside 32 bits. */
__device__ __forceinline__ void block_col_lin(Rows &R, const int4 *pb, int diag, int &up, uint32_t &w0, int lt, int T)
{
    w0 = 0;
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const int4 s4 = pb[q * PT];
        const int S[4] = {s4.x, s4.y, s4.z, s4.w};
#pragma unroll
        for (int t = 0; t < 4; t++) {
            const int k = 4 * q + t;
            const int r = addmax(diag, S[t], addmax(R.H[k], lt, up));
            w0 += (uint32_t)(r & 3) << (2 * k);
            diag = R.H[k];
            R.H[k] = (r & ~3) | T;
            up = R.H[k];
        }
    }
}

/* One column of a row block, affine gaps, tagged offset scores (the
 * linear cell's, block_col_lin, with the gaps of gpu_pack2_int.cuh's
 * block_col2a in the pair's own frame). Each of H, E (the upper gap) and F
 * (the left gap) is kept as P = X + ge (r + c), scaled and tagged: U =
 * 4 P_H + 1, E^ = 4 P_E + 1, F^ = 4 P_F, so that extending a gap costs
 * nothing and opening one o = go - ge:
 *   E^ = max(U_up - 4 o + 1, E^_up)     tags 2 (open) and 1 (extend)
 *   F^ = max(U_left - 4 o, F^_left)     tags 1 (open) and 0 (extend)
 *   U  = max(U_diag + S, E^, F^)        tags 2 (diagonal), 1 (E), 0 (F)
 * Ties go to the larger tag: the diagonal, then the upper gap, then the
 * left one; a gap opens rather than extends: docs/SCORING.md's rule, as
 * on the CPU. The bits: w0 holds U's tag (bit 1: diagonal, bit 0: E, the
 * view's A and B with a_bit 1), w1 = 3 - 2 open_E - open_F per row (bit
 * 1: E extended, bit 0: F extended; A' and B'). The edges' gaps are NEG
 * (the CPU's minus infinity; no add ever reaches them). With the option
 * limits P stays within about 2^25 either way, inside 32 bits. In: diag =
 * U of the row above at the previous column, up / ue = U / E^ of the row
 * above at this column, pb = the profile at the column's base. Out: up /
 * ue = those of the block's bottom row. cw = -4 o + 1, cv = -4 o. */
__device__ __forceinline__ void block_col_aff(Rows &R, const int4 *pb, int diag, int &up, int &ue, int cw, int cv,
                                              uint32_t &w0, uint32_t &w1, int te, int tf)
{
    w0 = 0;
    w1 = 0xffffffffu; /* 3 per row, less 2 open_E + open_F */
#pragma unroll
    for (int q = 0; q < 4; q++) {
        const int4 s4 = pb[q * PT];
        const int S[4] = {s4.x, s4.y, s4.z, s4.w};
#pragma unroll
        for (int t = 0; t < 4; t++) {
            const int k = 4 * q + t;
            const int er = addmax(up, cw, ue);        /* E: open (tag te + 1) or extend (te) */
            const int en = (er & ~3) | te;            /* E^: tag te (1; D before I: 0) */
            const int fr = addmax(R.H[k], cv, R.F[k]); /* F: open (tag tf + 1) or extend (tf) */
            const int fn = (fr & ~3) | tf;            /* F^: tag tf (0; D before I: 1) */
            /* diag + S against F first, off the chain of up and ue */
            const int r = max(addmax(diag, S[t], fn), en);
            w0 += (uint32_t)(r & 3) << (2 * k);
            w1 -= (uint32_t)(2 * (er - en) + (fr - fn)) << (2 * k);
            diag = R.H[k];
            R.H[k] = (r & ~3) | 1;
            R.F[k] = fn;
            up = R.H[k];
            ue = en;
        }
    }
}

/* The end cell as the columns go by (one thread's view: the rows of its
 * blocks). own: this block holds row m (at k = mk). */
struct Ends {
    int lrv = 0, lrc = 0; /* FE: best H of the last row and its column */
    int lcv = 0, lcr = 0; /* FE: best H of the last column over this thread's rows, its row */
    int hmn = 0;          /* H[m][n] */
};

template <bool AFF, bool FE>
__device__ __forceinline__ void ends_col(Ends &E, const Rows &R, int c, int n, bool own, int mk, int r0, int m, int g)
{
    if (own && (FE || c == n)) { /* row m: H at this column */
        int hm = R.H[0];
#pragma unroll
        for (int k = 1; k < RB; k++)
            if (k == mk) hm = R.H[k];
        hm = hval(hm, m, c, g);
        if (FE && hm >= E.lrv) {
            E.lrv = hm;
            E.lrc = c;
        }
        if (c == n) E.hmn = hm;
    }
    if (FE && c == n) { /* last column, rows ascending (ties: the later row) */
#pragma unroll
        for (int k = 0; k < RB; k++) {
            const int h = hval(R.H[k], r0 + k, n, g);
            if (r0 + k <= m && h >= E.lcv) {
                E.lcv = h;
                E.lcr = r0 + k;
            }
        }
    }
}

/* The end of a pair from the best of the last row (rv at column rc) and of
 * the last column (cv at row cr): the last row's wins a tie, the last
 * column's under mothur's rule (tie). */
template <bool FE>
__device__ __forceinline__ mnw_gpu_kend end_of(int m, int n, int hmn, int rv, int rc, int cv, int cr, int tie)
{
    mnw_gpu_kend en;
    en.pad_ = 0;
    if (!FE) {
        en.score = hmn;
        en.re = m;
        en.ce = n;
    } else if (tie ? rv > cv : rv >= cv) {
        en.score = rv;
        en.re = m;
        en.ce = rc;
    } else {
        en.score = cv;
        en.re = cr;
        en.ce = n;
    }
    return en;
}

/* The best of the last column over the warp's lanes (larger H, then larger
 * row), in every lane */
__device__ __forceinline__ void lastcol_best(Ends &E)
{
    for (int o = 16; o; o >>= 1) {
        int ov = __shfl_xor_sync(FULL, E.lcv, o), orr = __shfl_xor_sync(FULL, E.lcr, o);
        if (ov > E.lcv || (ov == E.lcv && orr > E.lcr)) {
            E.lcv = ov;
            E.lcr = orr;
        }
    }
}

/* lane 0's inputs for steps s0 .. s0+31, lane L holding column s0 + L + 1:
 * the row above (boundary or row 0) and the column's base */
template <bool AFF, bool EXT>
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
            h = edge<AFF, EXT>(sc, c);
        } else {
            h = rdH[c];
            if (AFF) e = rdE[c];
        }
    }
}

/* DScan-mNW (TILED = false: m <= 512) and TiledDScan-mNW (TILED = true) */
template <bool AFF, bool FE, bool TILED, bool DIRS, bool EXT>
__global__ void __launch_bounds__(128)
    dscan(const mnw_gpu_kpair *__restrict__ pairs, const uint32_t *__restrict__ idx, int np,
          const uint8_t *__restrict__ codes, mnw_gpu_kscore sc, uint8_t *__restrict__ var,
          mnw_gpu_kend *__restrict__ ends)
{
    const int lane = threadIdx.x & 31;
    const int x = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (x >= np) return; /* whole warps only */
    const int p = (int)idx[x];
    const mnw_gpu_kpair P = pairs[p];
    const int m = P.m, n = P.n;
    const int nrb = mnw_gpu_nrb(m);
    const uint8_t *A = codes + P.a, *B = codes + P.b;
    const uint64_t w = ((uint64_t)n + 1 + 3) & ~(uint64_t)3;
    int32_t *const bnd = (int32_t *)(var + P.bnd); /* TILED: H0 H1 E0 E1, w ints each */
    uint32_t *dw = (uint32_t *)(var + P.dir);
    uint2 *dw2 = (uint2 *)(var + P.dir);
    /* affine: the openings of E^ and F^ with their tags (block_col_aff) */
    /* affine: E^ and F^ keep tags te and tf (1 and 0: E, I, wins a tie
     * with F; D before I, EXT kernels under sc.tie: 0 and 1), their
     * openings -4 o + 1 + t (block_col_aff) */
    const int tf = kdbi<AFF, EXT>(sc), te = 1 - tf;
    const int cw = -4 * (sc.go - sc.ge) + te, cv = -4 * (sc.go - sc.ge) + tf;
    /* linear: the kept tag and the left gap's add (block_col_lin) */
    const int T = ktag<AFF, EXT>(sc), lt = 1 - 2 * T;

    const int mtg = (m - 1) / RB, mk = (m - 1) % RB; /* block and row of row m */
    const int nstripes = TILED ? (nrb + TILE_BLOCKS - 1) / TILE_BLOCKS : 1;
    Ends E;
    __shared__ int4 prof[20 * PT]; /* linear gaps: prof_fill */
    int4 *const myprof = prof + threadIdx.x;

    for (int sp = 0; sp < nstripes; sp++) {
        const int tg = sp * TILE_BLOCKS + lane;
        const int r0 = tg * RB + 1;
        const bool own = (tg == mtg);
        Rows R;
        rows_init<AFF, EXT>(R, A, m, r0, sc);
        prof_fill(myprof, R);
        int diag0 = edge<AFF, EXT>(sc, r0 - 1);
        int upH = 0, upE = NEG, bc = 4;
        const uint64_t rd = (sp & 1) ? w : 0, wr = w - rd;
        const int32_t *rdH = bnd + rd, *rdE = bnd + 2 * w + rd;
        int32_t *wrH = bnd + wr, *wrE = bnd + 2 * w + wr;
        const bool more = TILED && sp + 1 < nstripes;
        int cH, cE, cB, nH, nE, nB;
        fetch<AFF, EXT>(0, lane, n, sp, sc, B, rdH, rdE, cH, cE, cB);
        fetch<AFF, EXT>(32, lane, n, sp, sc, B, rdH, rdE, nH, nE, nB);
        const int nsteps = n + 31;
        for (int s = 0; s < nsteps; s++) {
            if ((s & 31) == 0 && s) {
                cH = nH;
                cE = nE;
                cB = nB;
                fetch<AFF, EXT>(s + 32, lane, n, sp, sc, B, rdH, rdE, nH, nE, nB);
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
            int up = inH, ue = inE;
            uint32_t w0, w1 = 0;
            if constexpr (AFF) block_col_aff(R, myprof + 4 * inB * PT, diag0, up, ue, cw, cv, w0, w1, te, tf);
            else block_col_lin(R, myprof + 4 * inB * PT, diag0, up, w0, lt, T);
            diag0 = inH;
            upH = up;
            upE = ue;
            bc = inB;
            if (DIRS && tg < nrb) {
                uint64_t at = (uint64_t)(c - 1 + tg) * (uint64_t)nrb + (uint64_t)tg;
                if (AFF) dw2[at] = make_uint2(w0, w1);
                else dw[at] = w0;
            }
            if (more && lane == 31) {
                wrH[c] = upH;
                if (AFF) wrE[c] = upE;
            }
            ends_col<AFF, FE>(E, R, c, n, own, mk, r0, m, goff<AFF>(sc));
        }
        __syncwarp();
    }

    const int olane = mtg & 31; /* the owner of row m (in the last stripe) */
    if (FE) lastcol_best(E);
    int hmn = __shfl_sync(FULL, E.hmn, olane);
    int rv = __shfl_sync(FULL, E.lrv, olane), rc = __shfl_sync(FULL, E.lrc, olane);
    if (lane == 0) ends[p] = end_of<FE>(m, n, hmn, rv, rc, E.lcv, E.lcr, EXT ? sc.tie : 0);
}

/* 4 bases from b[0..3] (any alignment; the buffer has 8 bytes of slack) */
__device__ __forceinline__ uint32_t load4(const uint8_t *b)
{
    uintptr_t a = (uintptr_t)b;
    const uint32_t *w = (const uint32_t *)(a & ~(uintptr_t)3);
    return __funnelshift_r(__ldg(w), __ldg(w + 1), (unsigned)(a & 3) * 8);
}

/* RScan-mNW: one thread per pair */
template <bool AFF, bool FE, bool DIRS, bool EXT>
__global__ void __launch_bounds__(128)
    rscan(const mnw_gpu_kpair *__restrict__ pairs, const uint32_t *__restrict__ idx, int np,
          const uint8_t *__restrict__ codes, mnw_gpu_kscore sc, uint8_t *__restrict__ var,
          mnw_gpu_kend *__restrict__ ends)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= np) return;
    const int p = (int)idx[x];
    const mnw_gpu_kpair P = pairs[p];
    const int m = P.m, n = P.n;
    const int nrb = mnw_gpu_nrb(m), nc4 = mnw_gpu_nc4(n);
    const uint8_t *A = codes + P.a, *B = codes + P.b;
    int4 *bH = (int4 *)(var + P.bnd); /* columns 1..nc4 at c - 1 */
    int4 *bE = bH + nc4 / 4;
    uint4 *dw = (uint4 *)(var + P.dir);
    /* affine: the openings of E^ and F^ with their tags (block_col_aff) */
    /* affine: E^ and F^ keep tags te and tf (1 and 0: E, I, wins a tie
     * with F; D before I, EXT kernels under sc.tie: 0 and 1), their
     * openings -4 o + 1 + t (block_col_aff) */
    const int tf = kdbi<AFF, EXT>(sc), te = 1 - tf;
    const int cw = -4 * (sc.go - sc.ge) + te, cv = -4 * (sc.go - sc.ge) + tf;
    /* linear: the kept tag and the left gap's add (block_col_lin) */
    const int T = ktag<AFF, EXT>(sc), lt = 1 - 2 * T;
    const int mtg = (m - 1) / RB, mk = (m - 1) % RB;
    Ends E;
    __shared__ int4 prof[20 * PT]; /* linear gaps: prof_fill */
    int4 *const myprof = prof + threadIdx.x;

    for (int tg = 0; tg < nrb; tg++) {
        const int r0 = tg * RB + 1;
        const bool own = (tg == mtg), more = tg + 1 < nrb;
        Rows R;
        rows_init<AFF, EXT>(R, A, m, r0, sc);
        prof_fill(myprof, R);
        int diag = edge<AFF, EXT>(sc, r0 - 1);
        for (int c0 = 1; c0 <= n; c0 += 4) {
            const int q = (c0 - 1) >> 2;
            uint32_t b4 = load4(B + c0 - 1);
            int ua[4], ea[4] = {NEG, NEG, NEG, NEG};
            if (tg == 0) {
#pragma unroll
                for (int t = 0; t < 4; t++) ua[t] = edge<AFF, EXT>(sc, c0 + t);
            } else {
                int4 h4 = bH[q];
                ua[0] = h4.x, ua[1] = h4.y, ua[2] = h4.z, ua[3] = h4.w;
                if (AFF) {
                    int4 e4 = bE[q];
                    ea[0] = e4.x, ea[1] = e4.y, ea[2] = e4.z, ea[3] = e4.w;
                }
            }
            uint32_t w0[4], w1[4];
#pragma unroll
            for (int t = 0; t < 4; t++) {
                const int c = c0 + t;
                const int b = c <= n ? min((int)((b4 >> (8 * t)) & 0xffu), 4) : 4;
                const int above = ua[t];
                w1[t] = 0;
                if constexpr (AFF) block_col_aff(R, myprof + 4 * b * PT, diag, ua[t], ea[t], cw, cv, w0[t], w1[t], te, tf);
                else block_col_lin(R, myprof + 4 * b * PT, diag, ua[t], w0[t], lt, T);
                diag = above;
                if (c <= n) ends_col<AFF, FE>(E, R, c, n, own, mk, r0, m, goff<AFF>(sc));
            }
            if (more) {
                bH[q] = make_int4(ua[0], ua[1], ua[2], ua[3]);
                if (AFF) bE[q] = make_int4(ea[0], ea[1], ea[2], ea[3]);
            }
            if (DIRS) {
                const uint64_t at = (uint64_t)tg * (uint64_t)(nc4 / 4) + (uint64_t)q; /* in 4-word units */
                if (AFF) {
                    dw[2 * at] = make_uint4(w0[0], w1[0], w0[1], w1[1]);
                    dw[2 * at + 1] = make_uint4(w0[2], w1[2], w0[3], w1[3]);
                } else {
                    dw[at] = make_uint4(w0[0], w0[1], w0[2], w0[3]);
                }
            }
        }
    }
    ends[p] = end_of<FE>(m, n, E.hmn, E.lrv, E.lrc, E.lcv, E.lcr, EXT ? sc.tie : 0);
}

__global__ void trace(const mnw_gpu_kpair *__restrict__ pairs, int np, const uint8_t *__restrict__ codes, int affine,
                      int tie, uint8_t *__restrict__ var, const mnw_gpu_kend *__restrict__ ends, uint32_t *__restrict__ packed,
                      uint32_t *__restrict__ hdr, int figs, mnw_eqtab eqt)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= np) return;
    const mnw_gpu_kpair P = pairs[x];
    const mnw_gpu_kend E = ends[x];
    mnw_dirview v = mnw_gpu_view(var + P.dir, P.m, P.n, affine, tie, P.kind);
    if (figs) { /* counts mode: the figures only, MNW_GPU_FIG_WORDS words a pair */
        union {
            mnw_pathfig f;
            uint32_t w[MNW_GPU_FIG_WORDS];
        } u;
        mnw_tb_walk_fig(&v, affine, E.re, E.ce, codes + P.a, P.m, codes + P.b, P.n, &eqt, &u.f);
        uint32_t off = atomicAdd(&hdr[0], (uint32_t)MNW_GPU_FIG_WORDS);
        for (int i = 0; i < MNW_GPU_FIG_WORDS; i++) packed[off + i] = u.w[i];
        hdr[1 + x] = MNW_GPU_FIG_WORDS;
        hdr[1 + np + x] = off;
        return;
    }
    uint32_t *slot = (uint32_t *)(var + P.runs);
    uint32_t k = mnw_tb_walk(&v, affine, E.re, E.ce, codes + P.a, P.m, codes + P.b, P.n, slot);
    uint32_t off = atomicAdd(&hdr[0], k);
    for (uint32_t i = 0; i < k; i++) packed[off + i] = slot[i];
    hdr[1 + x] = k;
    hdr[1 + np + x] = off;
}

} // namespace mnw_gk

#endif
