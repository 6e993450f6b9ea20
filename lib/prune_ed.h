/* prune_ed.h - the figures of the filter's second stage, the edit-distance
 * bound (docs/PRUNE.md, Theorem 2), defined once here as plain scalar code:
 * the reference every implementation (the CPU's vector code,
 * workers/cpu/prune_ed_cpu.h; the GPU's, workers/gpu/gpu_prune_int.cuh)
 * must equal figure for figure, so that every worker decides the same.
 *
 * For a pair (a = the query, na codes; b = the target, nb codes):
 *   ED    the global unit-cost edit distance, a column free where the two
 *         codes' base sets overlap (vsearch's rule; seq.h codes)
 *   the guide: the words of MNW_PED_K bases of ACGT (windows inside runs
 *         of ACGT: a code >= 4 restarts the run) that occur once in a; the
 *         hits (pa, pb), one per window of b at a position pb that is a
 *         multiple of MNW_PED_STRIDE (in increasing order) whose word is one
 *         of them (pa its position in a); the
 *         longest chain of hits with pa and pb strictly increasing, found
 *         by patience sorting (a hit replaces the first tail whose pa is
 *         >= its own; ties cannot occur in pb); the points (0, 0), the
 *         chain's hits, (na, nb); and for each row r = 1..na its centre
 *         cen[r] = c0 + (r - r0)(c1 - c0) / (r1 - r0) (integer division)
 *         on the segment r0 < r <= r1 of consecutive points
 *   SG    the score of the guided band: the best global alignment whose
 *         cells in row r (1 <= r <= na) lie in columns cen[r] - MNW_PED_WL
 *         .. cen[r] + MNW_PED_WR (clamped to 1..nb), or in column 0, with
 *         row 0 (every column), column nb (carried down) and row na (left
 *         to the right) as terminal gap runs; linear gap cost `gap` a
 *         column, substitution ms / mm / 0 for an ambiguity code. A real
 *         alignment's score under costs no higher than the scoring's
 *         (gap = gap-open >= gap-extend), so SG <= S* (Theorem 2's Y)
 *
 * Ownership: the caller owns every buffer. Thread-safety: reentrant.
 */
#ifndef MNW_PRUNE_ED_H
#define MNW_PRUNE_ED_H

#include <stdint.h>

#define MNW_PED_K 12  /* the guide's word length */
#define MNW_PED_STRIDE 4 /* the guide looks up b's windows at multiples of 4 (as good a chain, a quarter of the work) */
#define MNW_PED_WL 16 /* the guided band: columns cen - WL .. cen + WR */
#define MNW_PED_WR 15
#define MNW_PED_BAND (MNW_PED_WL + 1 + MNW_PED_WR) /* 32 cells a row */

/* The base set of each code (A 1, C 2, G 4, T 8; R = A|G ...; N 15): two
 * codes are equal for ED when their sets overlap. */
extern const uint8_t mnw_ped_bases[15];

/* ED(a, b): Myers' bit vectors, one pair, 64-bit words (b the pattern). */
int32_t mnw_ped_ed(const uint8_t *a, int na, const uint8_t *b, int nb);

/* The guide's centres cen[1..na] (cen has na + 1 entries; cen[0] is set
 * to cen[1], or 0 when na = 0). Returns the chain's length. Allocates
 * scratch internally (reference code: tests and the GPU emulation). */
int mnw_ped_guide(const uint8_t *a, int na, const uint8_t *b, int nb, int32_t *cen);

/* SG for the centres cen[1..na]. */
int32_t mnw_ped_band(const uint8_t *a, int na, const uint8_t *b, int nb, const int32_t *cen, int ms, int mm,
                     int gap);
/* The same band with columns cen[r] - wl .. cen[r] + wr. A narrower band
 * on the same centres holds a subset of the paths, so its score is never
 * above SG, and the tau it gives never below SG's: a pair whose ED exceeds
 * the narrow band's tau exceeds SG's (the CPU's first pass, 16 cells:
 * MNW_PED_NL, MNW_PED_NR). */
int32_t mnw_ped_band_w(const uint8_t *a, int na, const uint8_t *b, int nb, const int32_t *cen, int ms, int mm,
                       int gap, int wl, int wr);
#define MNW_PED_NL 8
#define MNW_PED_NR 7

#endif
