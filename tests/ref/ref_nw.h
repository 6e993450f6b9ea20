/* ref_nw.h - the deliberately plain full-matrix reference aligner (tests
 * only): three int64 matrices (H, E, F), the recurrences and the trace-back
 * rule of docs/SCORING.md (mnw's or mothur's, sc->tie) written as directly as possible. Ground truth for
 * every optimised implementation. O(m*n) memory; not thread-safe across a
 * shared mnw_aln, otherwise reentrant. */
#ifndef MNW_REF_NW_H
#define MNW_REF_NW_H
#include <stddef.h>
#include <stdint.h>

#include "lib/aln.h"
#include "lib/score.h"

/* Aligns a (length m, the rows: sequence i) with b (length n, the columns:
 * sequence j); fills out (score and ops). */
void ref_nw(const mnw_scoring *sc, const uint8_t *a, int m, const uint8_t *b, int n, mnw_aln *out);

#endif
