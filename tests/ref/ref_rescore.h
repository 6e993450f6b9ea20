/* ref_rescore.h - checks an alignment against its two sequences (tests
 * only): the runs are canonical (no empty run, no two runs of one op in a
 * row), consume both sequences exactly, say '=' exactly where the bases are
 * identical A/C/G/T, and re-score under the scoring of docs/SCORING.md
 * (terminal gap runs free with free end gaps). Reentrant. */
#ifndef MNW_REF_RESCORE_H
#define MNW_REF_RESCORE_H
#include <stddef.h>
#include <stdint.h>

#include "lib/aln.h"
#include "lib/score.h"

/* Returns 0 and sets *score, or -1 when the runs do not fit the sequences. */
int ref_rescore(const mnw_scoring *sc, const uint8_t *a, int m, const uint8_t *b, int n, const uint32_t *ops,
                size_t nops, int64_t *score);

#endif
