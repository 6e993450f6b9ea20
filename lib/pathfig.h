/* pathfig.h - the figures of one alignment that the outputs need without
 * its CIGAR (issue 20, "counts mode"): the pairs.tsv columns and the counts
 * of every identity definition (identity.h, docs/IDENTITY.md). They come
 * either from an alignment's runs (mnw_pathfig_of_runs, identity.h) or
 * straight from the trace-back walk, which then keeps no runs
 * (mnw_tb_walk_fig, workers/tb/trace_walk.h, on the host and on the GPU).
 * Both give the same figures for the same path (tests/unit/test_pathfig.c).
 *
 * Plain C with fixed-width fields only, so device code (CUDA) includes it.
 * Ownership: plain values. Thread-safety: no shared state.
 */
#ifndef MNW_PATHFIG_H
#define MNW_PATHFIG_H

#include <stdint.h>

/* Every count of an alignment of a (sequence i, length na) with b
 * (sequence j, length nb). Columns: length = pairs + gaps; na + nb = 2 pairs
 * + gaps. At most 2 x MNW_MAX_SEQ_LEN each, so 32 bits are plenty. */
typedef struct {
    uint32_t pairs;      /* aligned columns (= and X) */
    uint32_t matches;    /* '=' columns (the same base of ACGT on both sides) */
    uint32_t eq;         /* aligned columns identical by the definition's rule (matches and
                            the ambiguity-code columns its tool counts as identical) */
    uint32_t gap_opens;  /* gap runs (I or D), terminal ones included */
    uint32_t gaps;       /* gap columns */
    uint32_t lead_cols, lead_runs;   /* gap columns / runs before the first aligned column */
    uint32_t trail_cols, trail_runs; /* after the last aligned column; with no aligned
                                        column both equal the lead ones */
    uint32_t first_gap;  /* length of the first run when it is a gap run, else 0 */
    uint32_t last_gap;   /* length of the last run when it is a gap run and not also
                            the first run, else 0 */
    uint32_t ends_one_row; /* 1 when the first and the last run are gap runs of the same
                              sequence (two runs or more): mothur marks a row's terminal
                              gaps as missing data only in a row that begins with a gap,
                              which eachgap countends=F tells apart (docs/IDENTITY.md) */
} mnw_pathfig;

/* Which aligned columns an identity definition counts as identical: bit y
 * of row[x] is set when a column of code x (sequence i) over code y
 * (sequence j) is (codes as seq.h, fewer than 16). mnw_eqtab_of
 * (identity.h) fills it for a definition. */
typedef struct {
    uint16_t row[16];
} mnw_eqtab;

#endif
