/* gpu_kern_int.h - private to workers/gpu: what the host side (gpu_dev.cu)
 * passes to the kernels (gpu_kernels.cu) and the device layout of one
 * pair's buffers, per kernel.
 *
 * Kernels (docs/GPU.md): RScan-mNW (one thread per pair, row blocks one
 * after the other), DScan-mNW (one warp per pair, anti-diagonal wavefront,
 * all of the pair's rows on chip: m <= MNW_GPU_DSCAN_ROWS) and
 * TiledDScan-mNW (DScan over tiles of MNW_GPU_DSCAN_ROWS rows chained by
 * boundary rows in device memory: any length).
 *
 * Direction bits: the rows of a pair are cut into blocks of 16 (row block
 * tg holds rows 16 tg + 1 .. 16 tg + 16); the thread computing a block
 * writes, per column, one 32-bit word (bits 2k and 2k+1 are the tag of the
 * block's row k: 2 diagonal, 1 up (affine: E, the upper gap), 0 left
 * (affine: F); with affine gaps a second word holds at bit 2k + 1 "E
 * extended" and at bit 2k "F extended"). Word (tg, c) lies at index
 *   DScan, TiledDScan:  (c - 1 + tg) * nrb + tg      (nrb = row blocks)
 *     so the 32 threads of a warp, which work on 32 consecutive blocks of
 *     one anti-diagonal, write 32 consecutive words (one 128-byte
 *     transaction);
 *   RScan:              tg * nc4 + (c - 1)           (nc4 = n rounded up to 4)
 *     so a thread writes 4 columns' words with one 16-byte store;
 *   DSCAN2, TILED2 (two pairs per lane, "streamed"; in the transposed frame):
 *     stripe sp (row blocks 32 sp .. 32 sp + 31, lw of them) is one stream
 *     of sstep steps (mnw_gpu_sstep: the kernel's n + 31 steps rounded up to
 *     a group of G = 2^mnw_gpu_gshift steps); at step s lane l (block
 *     32 sp + l) computes column c = s - l + 1 and its word lies at
 *       sp * 32 * sstep + ((s / G) * lw + l) * G + s % G
 *     so a lane keeps G steps' words in registers and writes them with one
 *     16-byte store, the warp's stores of a group are lw * 16 consecutive
 *     bytes, and a stripe's groups follow each other: the stripe's words
 *     are written as one sequential stream of whole sectors (the skewed
 *     layout above left 128-byte pieces of rows that the next stripe
 *     completed much later). nrb * sstep words (entries of two words with
 *     affine gaps) per pair.
 * trace_walk.h's mnw_dirview reads both layouts: mnw_gpu_view builds it.
 * Bits A/B/A'/B' mean what trace.h says; they are those of the CPU kernels,
 * so one walk serves all.
 * Included by C (the host side) and CUDA files alike.
 * Thread-safety: plain data.
 */
#ifndef MNW_GPU_KERN_H
#define MNW_GPU_KERN_H

#include <stdint.h>

#include "workers/tb/trace_walk.h"

#ifdef __CUDACC__
#define MNW_GPU_HD static inline __host__ __device__
#else
#define MNW_GPU_HD static inline
#endif

#define MNW_GPU_RB 16 /* rows per block (one direction word) */
#define MNW_GPU_NEG (-(1 << 30))
#define MNW_GPU_DSCAN_ROWS 512 /* DScan-mNW's on-chip rows: 32 lanes x 16 */
#define MNW_GPU_FIG_WORDS 12   /* counts mode: a pair's figures (mnw_pathfig, as words) in the packed buffer */

/* kernel ids (gpu.h's MNW_GPU_KERNEL_* are the same numbers for the first
 * three). DSCAN2 and TILED2 are DScan-mNW and TiledDScan-mNW with two pairs
 * per lane in 16-bit halves (gpu_pack2_int.cuh): a pair of theirs is computed
 * transposed (the kernel's rows are the pair's columns), so that the two
 * pairs of a lane share the kernel's column sequence; their direction words
 * have DScan's layout in that transposed frame. */
enum {
    MNW_GPU_K_RSCAN = 0,
    MNW_GPU_K_DSCAN = 1,
    MNW_GPU_K_TILED = 2,
    MNW_GPU_K_DSCAN2 = 3,
    MNW_GPU_K_TILED2 = 4,
    MNW_GPU_K_N = 5
};

/* 1 for the kinds that compute a pair transposed (two pairs per lane) */
MNW_GPU_HD int mnw_gpu_kind_tr(int kind) { return kind >= MNW_GPU_K_DSCAN2; }
/* the layout a kind shares: DSCAN2 -> DSCAN, TILED2 -> TILED */
MNW_GPU_HD int mnw_gpu_kind_base(int kind) { return kind >= MNW_GPU_K_DSCAN2 ? kind - 2 : kind; }
/* The kernel's frame of an m x n pair: for DSCAN2/TILED2 rows and columns
 * trade places and the kind becomes the layout it shares. 1 when transposed. */
MNW_GPU_HD int mnw_gpu_kframe(int *m, int *n, int *kind)
{
    if (!mnw_gpu_kind_tr(*kind)) return 0;
    int t = *m;
    *m = *n;
    *n = t;
    *kind = mnw_gpu_kind_base(*kind);
    return 1;
}

/* One pair of a batch, as the kernels see it. Its buffers lie in the
 * batch's variable region `var` at byte offsets dir, bnd and runs. */
typedef struct {
    uint64_t a, b;      /* offsets of the sequences' codes in the device copy */
    int32_t m, n;       /* lengths (rows: a; columns: b); both >= 1 */
    uint64_t dir;       /* its direction words (mnw_gpu_dir_bytes) */
    uint64_t bnd;       /* its two boundary rows (mnw_gpu_bnd_ints ints) */
    uint64_t runs;      /* its trace-back run slot (m + n uint32; none in counts mode) */
    int32_t kind;       /* MNW_GPU_K_*: the kernel that computes it */
    int32_t pad_;
} mnw_gpu_kpair;

/* What the matrix kernel finds per pair: the end cell and the score. */
typedef struct {
    int32_t score, re, ce, pad_;
} mnw_gpu_kend;

typedef struct {
    int32_t match, mismatch, go, ge; /* penalties positive, as in score.h */
    int32_t affine, free_ends;
    /* 0xfffcfffc and 0x00010001, set by the host: values the compiler cannot
     * fold, so the two-per-lane cell keeps (r & mask) | one as one 3-register
     * LOP3 (gpu_pack2_int.cuh) */
    uint32_t mask2, one2;
    /* the tie rule (score.h): 1 for mothur's and vsearch's (D before I).
     * Linear kernels keep their values with the tag T = 1 - tie and give
     * the left gap T - (1 - T) = 1 - 2 T: so the candidate that wins a tie
     * between the gaps, the larger tag, is up (I) under mnw's rule and left
     * (D) under mothur's (gpu_kernels_int.cuh, block_col_lin). lt2: 1 - 2 T
     * in each 16-bit half (gpu_pack2_int.cuh, block_col2). Affine kernels
     * (EXT) swap the tags E^ and F^ keep (kdbi: F^ 1, E^ 0), so F (D) wins
     * a tie with E (I); H^ keeps tag 1 (one2 0x00010001). */
    int32_t tie;
    uint32_t lt2;
    /* ambiguity codes scored as mothur scores them (score.h
     * MNW_AMB_MOTHUR: two ambiguity codes a match, one against a base a
     * mismatch): only the profile's values differ (rows_init, s_of) */
    int32_t ambn, pad_;
} mnw_gpu_kscore;

/* The filter of issue 39 (gpu_prune_int.cuh): per sequence, where its
 * codes and its q-gram runs lie and its ambiguity count (built at open). A
 * run is one uint32: word << 16 | windows of the word (>= 1; a sequence has
 * at most MNW_MAX_SEQ_LEN windows, so 16 bits hold the count), sorted by
 * word, each word once. */
typedef struct {
    uint64_t code;  /* offset of its codes in the device copy */
    uint64_t woff;  /* its first run in the runs array */
    int32_t len;    /* bases */
    int32_t nw;     /* runs (distinct words) */
    int32_t amb;    /* codes >= 4 */
    int32_t nu;     /* stage 2 (gpu_prune_ed_int.cuh; 0 without it): its unique words of MNW_PED_K bases */
    uint64_t uoff;  /* ... (word << 32 | position, sorted) from here in the guides array */
    uint64_t soff;  /* its windows at multiples of MNW_PED_STRIDE (word << 32 | start, sorted) from here */
    uint64_t eoff;  /* its ED pattern rows (A, C, G, T; word w of row x at 4 w + x; ceil(len / 32) words each) in peqs */
    uint64_t boff;  /* the band's base bitmaps (5 rows, word q of row y at 5 q + y; 32 zero bits first) in peqs */
    int32_t ns;     /* windows at soff */
    int32_t pad_;
} mnw_gpu_pseq;

/* lib/prune.h's plan as the kernel needs it (the decision's constants, the
 * band's scoring). */
typedef struct {
    int64_t W, Kp, Kl, Dn, Dd;
    int32_t q, use_len, use_score, free_ends;
    int32_t ms, mm, ge, band_gap;
    int32_t qgram, ed, ed_len, pad_; /* the stages (lib/prune.h's plan) */
    int64_t ed_cg, ed_alpha, ed_gamma;
} mnw_gpu_kprune;

/* A pair's figures (the test's mode; gpu.h's mnw_gpu_pfig is the same
 * layout): s0, s1, sg, ed = INT32_MIN where not computed, tau INT64_MIN. */
typedef struct {
    int32_t shared, amb, s0, s1;
    int64_t p0;
    int32_t pruned, pad_;
    int32_t sg, ed; /* stage 2 */
    int64_t tau;
} mnw_gpu_kpfig;

MNW_GPU_HD int mnw_gpu_nrb(int m) { return (m + MNW_GPU_RB - 1) / MNW_GPU_RB; }
MNW_GPU_HD int mnw_gpu_nc4(int n) { return (n + 3) & ~3; }

/* The streamed layout (DSCAN2, TILED2): steps per group 2^gshift (4 with
 * linear gaps: one 16-byte store of 4 words; 2 with affine gaps: 2 entries
 * of two words), and the steps per stripe of a pair whose kernel frame has
 * n columns (the kernel runs n + 31 steps, rounded up to a group). */
MNW_GPU_HD int mnw_gpu_gshift(int affine) { return affine ? 1 : 2; }
MNW_GPU_HD uint32_t mnw_gpu_sstep(int n, int affine)
{
    const uint32_t G = 1u << mnw_gpu_gshift(affine);
    return ((uint32_t)n + 31 + G - 1) & ~(G - 1);
}

/* Bytes of direction words of an m x n pair (256-byte aligned). */
MNW_GPU_HD uint64_t mnw_gpu_dir_bytes(int m, int n, int affine, int kind)
{
    const int streamed = mnw_gpu_kind_tr(kind);
    mnw_gpu_kframe(&m, &n, &kind);
    uint64_t nrb = (uint64_t)mnw_gpu_nrb(m), W = affine ? 8u : 4u;
    uint64_t b = kind == MNW_GPU_K_RSCAN ? nrb * (uint64_t)mnw_gpu_nc4(n) * W
                 : streamed              ? nrb * (uint64_t)mnw_gpu_sstep(n, affine) * W
                                         : ((uint64_t)n + nrb - 1) * nrb * W;
    return (b + 255) & ~(uint64_t)255;
}

/* Ints of the boundary rows of an m x n pair: TiledDScan two rows of H
 * (and two of E with affine gaps), columns 0..n; RScan one row of H (and
 * E), columns 1..nc4 at index c - 1; DScan none. TILED2 (transposed): two
 * rows of H^ (and two of V^ with affine gaps, 2 w further) over the
 * kernel's columns 0..m, absolute values (32-bit, gpu_pack2_int.cuh). */
MNW_GPU_HD uint64_t mnw_gpu_bnd_ints(int m, int n, int affine, int kind)
{
    mnw_gpu_kframe(&m, &n, &kind);
    uint64_t w = kind == MNW_GPU_K_RSCAN ? (uint64_t)mnw_gpu_nc4(n) : (((uint64_t)n + 1 + 3) & ~(uint64_t)3);
    uint64_t rows = kind == MNW_GPU_K_TILED ? 2 : kind == MNW_GPU_K_RSCAN ? 1 : 0;
    return rows * w * (affine ? 2u : 1u);
}

/* The view of a pair's direction words at `base` (trace_walk.h); tie:
 * mnw_gpu_kscore.tie. */
MNW_GPU_HD mnw_dirview mnw_gpu_view(const void *base, int m, int n, int affine, int tie, int kind)
{
    const int tr = mnw_gpu_kframe(&m, &n, &kind); /* transposed: read with r and c swapped */
    uint64_t W = affine ? 64 : 32, nrb = (uint64_t)mnw_gpu_nrb(m);
    mnw_dirview v;
    v.base = (const uint8_t *)base;
    v.base_bit = 0;
    if (kind == MNW_GPU_K_RSCAN) {
        v.row_bits = (uint64_t)mnw_gpu_nc4(n) * W;
        v.col_bits = W;
    } else if (tr) {
        v.row_bits = 0; /* streamed: the word's bits per entry */
        v.col_bits = W;
    } else {
        v.row_bits = (nrb + 1) * W;
        v.col_bits = nrb * W;
    }
    /* every kernel writes the tag of the winner (gpu_kernels_int.cuh,
     * gpu_pack2_int.cuh): bit 1 diagonal (A), bit 0 up (linear, mnw's tie
     * rule; left under mothur's) or E, the upper gap (affine: B); affine A'
     * (E extended) and B' (F extended) at the same positions of the second
     * word */
    v.a_bit = 1;
    v.b_bit = 0;
    v.b_up = affine ? (tie ? 1 : 0) : (tie ? 0 : 1); /* affine, D before I: tag 1 is F (D) */
    v.tr = (uint32_t)tr;
    /* the two-pairs-per-lane kernels (tr) write the streamed layout */
    v.stream = (uint32_t)tr;
    v.gshift = (uint32_t)mnw_gpu_gshift(affine);
    v.nrb = (uint32_t)nrb;
    v.sstep = mnw_gpu_sstep(n, affine);
    v.dfirst = 0; /* the end cell's bits (needle's rule is the CPU's only) */
    v.ext_bit = 32;
    v.rshift = 4;
    v.sub_bits = 2;
    return v;
}

#endif
