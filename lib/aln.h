/* aln.h - one pairwise alignment: score and run-length operations.
 *
 * The pair is (a, b) = (sequence i, sequence j), j < i. Operations, in
 * alignment order from the start of both sequences:
 *   MNW_OP_EQ  '='  a base of a against an identical base of b, both in ACGT
 *   MNW_OP_X   'X'  any other aligned column (a different base, or an
 *                   ambiguity code on either side)
 *   MNW_OP_I   'I'  a base of a (sequence i) against a gap
 *   MNW_OP_D   'D'  a base of b (sequence j) against a gap
 * Each run is one uint32_t: (length << 2) | op. Adjacent runs never share an op.
 *
 * In counts mode (issue 20) an alignment holds its figures (pathfig.h)
 * instead of runs: has_fig set, nops 0.
 * Ownership: an mnw_aln owns its ops array (mnw_aln_free).
 * Thread-safety: one mnw_aln per thread; no shared state.
 */
#ifndef MNW_ALN_H
#define MNW_ALN_H

#include <stddef.h>
#include <stdint.h>

#include "lib/pathfig.h"

enum { MNW_OP_EQ = 0, MNW_OP_X = 1, MNW_OP_I = 2, MNW_OP_D = 3 };
#define MNW_RUN(len, op) (((uint32_t)(len) << 2) | (uint32_t)(op))
#define MNW_RUN_LEN(r) ((r) >> 2)
#define MNW_RUN_OP(r) ((r)&3u)

extern const char mnw_op_char[4]; /* "=XID" */

typedef struct {
    int32_t score;
    uint32_t *ops;
    size_t nops, cap;
    /* counts mode (pathfig.h): the figures were counted along the path and
     * no runs were kept (nops = 0); the outputs read fig instead */
    int has_fig;
    mnw_pathfig fig;
    /* issue 39: the filter proved the pair beyond the cutoff and it was not
     * aligned (score, runs and figures are meaningless); no output has a
     * line for it (the run's prune plan holds only where every output is
     * cutoff-filtered, lib/prune.h) */
    int pruned;
} mnw_aln;

void mnw_aln_init(mnw_aln *a);
void mnw_aln_free(mnw_aln *a);
void mnw_aln_clear(mnw_aln *a);
/* Append `len` columns of `op`, merging with the last run. */
void mnw_aln_push(mnw_aln *a, int op, uint32_t len);
/* Room for at least `runs` runs in a->ops (contents kept). */
void mnw_aln_reserve(mnw_aln *a, size_t runs);
/* Reverse the run order (trace-back builds alignments end first). */
void mnw_aln_reverse(mnw_aln *a);

/* Figures derived from an alignment (the pairs.tsv columns); 32-bit, as an
 * alignment has fewer than 2^32 columns (mnw's at most 2 MNW_MAX_SEQ_LEN). */
typedef struct {
    uint32_t length;     /* alignment columns, terminal gaps included */
    uint32_t matches;    /* '=' columns */
    uint32_t mismatches; /* 'X' columns */
    uint32_t gap_opens;  /* runs of I or D (terminal ones included) */
    uint32_t gaps;       /* I + D columns */
} mnw_alnstats;

void mnw_aln_stats(const mnw_aln *a, mnw_alnstats *st);
/* The same of the runs ops[0..nops). No branch on the op: the compiler
 * vectorizes it (a real 16S alignment has about 550 runs whose kinds
 * alternate at random). */
void mnw_runs_stats(const uint32_t *ops, size_t nops, mnw_alnstats *st);

#endif
