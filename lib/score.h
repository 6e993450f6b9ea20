/* score.h - scoring scheme, substitution rule and the 16-bit overflow bound.
 *
 * Substitution rule (one rule for every implementation, docs/SCORING.md):
 *   both codes in ACGT, identical        -> match     (default +4)
 *   both codes in ACGT, different        -> mismatch  (default -5)
 *   an IUPAC ambiguity code on either side (R Y S W K M B D H V N) -> 0
 *     (amb == MNW_AMB_MOTHUR, mothur's rule: its reader turns every
 *     ambiguity letter into N, so two ambiguity codes (any two) -> match,
 *     an ambiguity code against a base -> mismatch)
 * Gaps: a run of L gap columns costs open + (L-1) * extend (penalties are
 * positive numbers). Linear gaps are open == extend (default 10 each).
 * free_ends: leading and trailing gaps (overhangs) cost nothing.
 * end_gaps: leading and trailing gaps cost end_open + (L-1) * end_extend
 *   instead (vsearch's terminal penalties; not with free_ends): inside the
 *   DP, row 0, column 0, the last row's horizontal and the last column's
 *   vertical gaps, and the alignment ends at (m, n) (docs/SCORING.md).
 * tie: which of several optimal alignments is reported (below).
 *
 * Thread-safety: an mnw_scoring is a plain read-only value after setup.
 */
#ifndef MNW_SCORE_H
#define MNW_SCORE_H

#include <stdint.h>

#include "lib/seq.h"
#include "lib/util.h"

typedef struct {
    int match;      /* score of an identical ACGT column, > 0 */
    int mismatch;   /* score of a different ACGT column, <= 0 */
    int gap_open;   /* penalty of the first column of a gap run, >= 0 */
    int gap_extend; /* penalty of each further column, >= 0, <= gap_open */
    int free_ends;  /* 1: terminal gaps cost nothing */
    int tie;        /* the tie rule: MNW_TIE_MNW or MNW_TIE_MOTHUR (linear gaps only) */
    int amb;        /* ambiguity codes: MNW_AMB_ZERO or MNW_AMB_MOTHUR */
    int end_gaps;   /* 1: terminal gaps cost end_open / end_extend */
    int end_open;   /* penalty of a terminal gap run's first column, >= 0 */
    int end_extend; /* of each further column, >= 0, <= end_open */
    int half;       /* 1: every value above is in half points (needle's 0.5
                       extension): scores print as value / 2 (mnw_fmt_score) */
} mnw_scoring;

/* The tie rules (docs/SCORING.md). mnw's: a cell prefers the diagonal, then
 * I (up), then D (left); with free end gaps the last row's best cell wins
 * a tie with the last column's. mothur's (pairwise.seqs, issue 41): the
 * diagonal, then D, then I; the last column's best cell wins the tie. The
 * DP values are the same; only co-optimal paths differ. */
#define MNW_TIE_MNW 0
#define MNW_TIE_MOTHUR 1
/* EMBOSS needle's (6.6, -endweight false; affine kernels, free end gaps
 * only): a cell prefers the diagonal, then D, then I (mothur's order); a
 * gap extends rather than opens on a tie (the opposite of the others); and
 * the alignment ends with an aligned column, the corner's, else the last
 * row's leftmost best, else the last column's topmost best, its trailing
 * gap free (the diagonal value of a cell, not H: needle's end gap opens
 * only from an aligned column). docs/SCORING.md "needle". */
#define MNW_TIE_NEEDLE 2

/* How a column with an ambiguity code scores (docs/SCORING.md): 0 (mnw's
 * and vsearch's), or as mothur's pairwise.seqs scores it: mothur's reader
 * (sequence.cpp getSequenceString) turns every letter other than ACGTN
 * into N, so any two ambiguity codes are a match and an ambiguity code
 * against a base a mismatch (--ambiguity mothur). */
#define MNW_AMB_ZERO 0
#define MNW_AMB_MOTHUR 1
/* EMBOSS's EDNAFULL matrix for a column with an ambiguity code (needle's
 * default: R against A 1, N against A -2, N against N -1...), times 2 in
 * half points; the bases keep match / mismatch. */
#define MNW_AMB_EDNAFULL 2

/* EDNAFULL (EMBOSS 6.6's data file) for codes 0..14 (seq.h: ACGT then
 * RYSWKMBDHVN) */
extern const int8_t mnw_ednafull[MNW_NCODES][MNW_NCODES];
/* the lowest and highest of its entries with an ambiguity code (the int16
 * bound's; test_nw checks them against the table) */
#define MNW_EDNAFULL_AMB_MIN (-4)
#define MNW_EDNAFULL_AMB_MAX 1

#define MNW_SCORING_DEFAULT {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}

/* Affine: the kernels need E and F (a run's first column costs more than
 * the next), for interior gaps or, with end_gaps, terminal ones. */
static inline int mnw_scoring_affine(const mnw_scoring *sc)
{
    return sc->gap_open != sc->gap_extend || (sc->end_gaps && sc->end_open != sc->end_extend) ||
           sc->tie == MNW_TIE_NEEDLE; /* needle's rule reads the gaps' extension bits */
}

/* Substitution score of two codes (the rule above). */
static inline int mnw_sub(const mnw_scoring *sc, uint8_t a, uint8_t b)
{
    if (a >= 4 || b >= 4) {
        if (sc->amb == MNW_AMB_EDNAFULL) return mnw_ednafull[a][b] * (sc->half ? 2 : 1);
        if (sc->amb != MNW_AMB_MOTHUR) return 0;
        return a >= 4 && b >= 4 ? sc->match : sc->mismatch; /* both N to mothur */
    }
    return a == b ? sc->match : sc->mismatch;
}

/* Penalty of a gap run of len columns (0 for len 0). */
static inline int64_t mnw_gapcost(const mnw_scoring *sc, int64_t len)
{
    return len <= 0 ? 0 : sc->gap_open + (len - 1) * sc->gap_extend;
}

/* Penalty of a terminal gap run of len columns: mnw_gapcost's without
 * end_gaps (0 with free_ends), else end_open + (len-1) end_extend. */
static inline int64_t mnw_endcost(const mnw_scoring *sc, int64_t len)
{
    if (len <= 0 || sc->free_ends) return 0;
    return sc->end_gaps ? sc->end_open + (len - 1) * sc->end_extend : mnw_gapcost(sc, len);
}

/* The one place that holds the scoring settings' ranges: for key "match",
 * "mismatch", "gap", "gap-open" or "gap-extend" (the long options) sets
 * *lo and *hi and returns 0; -1 for any other key. The command line and
 * config files (src/opts.c) and mnw_scoring_check read them here. */
int mnw_scoring_range(const char *key, int *lo, int *hi);

/* Validate ranges (mnw_scoring_range) and gap-extend <= gap-open, on
 * settings from any source (a bookmark too); returns 0, or -1 with e set. */
int mnw_scoring_check(const mnw_scoring *sc, mnw_err *e) MNW_MUST_CHECK;

/* 1 if every DP value (and every candidate one step from it) of an m x n
 * alignment lies strictly inside the int16 range with room for the -inf
 * sentinel under saturating arithmetic; 0 if 32-bit lanes are needed.
 * The bound: H <= match * min(m, n); H >= min(-gapcost(m), -gapcost(n),
 * min(m, n) * min_sub - gapcost(|m - n|)), as docs/SCORING.md derives. */
int mnw_fits16(const mnw_scoring *sc, int m, int n);

#endif
