/* trace.h - the one trace-back of mnw (docs/SCORING.md, "the one tie-break
 * rule"), over a described layout of direction bits. Every aligner (the CPU
 * kernels of workers/cpu, the trace-back thread of workers/tb, GPU kernels)
 * turns its direction matrix into an alignment through mnw_tb_trace, so the
 * tie-break code exists once.
 *
 * Direction bits. Cell (r, c), 1 <= r <= m (rows: sequence i, a), 1 <= c <= n
 * (columns: sequence j, b), has two bits A and B; with affine gaps a second
 * pair A', B' (the "second word"):
 *   linear: A = H came from the diagonal (H == H[r-1][c-1] + s);
 *           B = the left gap (D) is strictly better than the upper one (I),
 *           so without A: B ? D : I
 *   affine: A = H == diagonal; B = H == E (I);
 *           A' = E extended (E[r-1][c] - ext strictly better than opening
 *           from H[r-1][c]); B' = F extended (likewise from the left)
 * Row 0 and column 0 have no bits (the trace-back leaves the matrix there).
 *
 * Layout (mnw_dirview). Bits are numbered in a byte array, bit k being bit
 * (k mod 8) of byte k / 8: the order of bits in little-endian words, so
 * little-endian words of any width (uint16_t .. uint64_t) are addressed by
 * their bit number. Bit A of cell (r, c) is
 *     base_bit + (r-1) * row_bits + (c-1) * col_bits + a_bit
 * and B likewise with b_bit; A' and B' are ext_bit further (affine only).
 * Two layouts in use:
 *   - the CPU kernels' lane-interleaved words (workers/cpu/nw_simd_int.h): one
 *     DIR_T word per cell vector (two with affine gaps), row-major,
 *     maxn vectors per row; lane l's bits at V_POS_A(l) / V_POS_B(l):
 *       col_bits = 8 * sizeof(DIR_T) * (affine ? 2 : 1),
 *       row_bits = maxn * col_bits, a_bit = V_POS_A(l), b_bit = V_POS_B(l),
 *       ext_bit = 8 * sizeof(DIR_T)
 *   - dense per pair (what a GPU kernel writes; mnw_dirview_dense): 2 bits
 *     per cell (A, B) or 4 with affine gaps (A, B, A', B'), lowest first,
 *     cells in row-major order, n per row.
 *   - the GPU kernels' row blocks (workers/gpu): rows grouped in blocks of
 *     2^rshift, one word per block and column (mnw_dirview.rshift,
 *     sub_bits; trace_walk.h gives the bit number); the two-pairs-per-lane
 *     kernels write theirs as a stream per stripe of 32 blocks, several
 *     columns per store (mnw_dirview.stream, gpu_kern_int.h).
 * The view may use any strides as long as the cells' bits do not overlap.
 *
 * Ownership: a view borrows its bits; mnw_tb_trace writes only `out`.
 * Thread-safety: reentrant; any number of threads may trace at once (the
 * bits are only read).
 */
#ifndef MNW_TRACE_H
#define MNW_TRACE_H

#include <stdint.h>

#include "lib/aln.h"
#include "workers/tb/trace_walk.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mnw_dirview addresses words by little-endian bit numbers"
#endif

/* mnw_dirview, the view of one pair's bits, and the walk itself are in
 * trace_walk.h (shared with the GPU's device trace-back). */

/* A pair whose matrix is computed, ready to trace: its bits, the end cell
 * (m, n) or, with free end gaps, the one the kernel chose (docs/SCORING.md
 * "End cell"), and the optimal score (H at the end cell). */
typedef struct {
    mnw_dirview v;
    int re, ce;
    int32_t score;
} mnw_tb_end;

/* The dense layout of an n-column pair whose cell (1, 1) starts at bit
 * base_bit of base: 2 bits per cell (A, B), 4 with affine gaps. */
static inline mnw_dirview mnw_dirview_dense(const void *base, uint64_t base_bit, int n, int affine)
{
    uint64_t cb = affine ? 4 : 2;
    mnw_dirview v = {(const uint8_t *)base, base_bit, cb * (uint64_t)(n > 0 ? n : 0), cb, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    return v;
}

/* Bytes a dense m x n matrix takes (rounded up to whole bytes). */
static inline uint64_t mnw_dirview_dense_bytes(int m, int n, int affine)
{
    return ((uint64_t)(m > 0 ? m : 0) * (uint64_t)(n > 0 ? n : 0) * (affine ? 4u : 2u) + 7) / 8;
}

/* Builds the alignment of a (length m, the rows) with b (length n, the
 * columns) from the bits of `end`: out gets end->score and the ops
 * (trailing overhang m - re / n - ce as I / D, the walk back from the end
 * cell by the tie-break rule, the leading remainder). affine: the bits are
 * the affine kind (gap_open != gap_extend). */
void mnw_tb_trace(const mnw_tb_end *end, int affine, const uint8_t *a, int m, const uint8_t *b, int n, mnw_aln *out);

/* mnw_tb_trace, or, when figs is not NULL (counts mode, issue 20), the
 * same walk counting the figures only (mnw_tb_walk_fig with the table figs):
 * out gets the score, has_fig and fig, and no runs. */
void mnw_tb_finish(const mnw_tb_end *end, int affine, const uint8_t *a, int m, const uint8_t *b, int n,
                   const mnw_eqtab *figs, mnw_aln *out);

#endif
