/* like.h - `--like TOOL` (issue 41): another tool's numbers. A mode sets
 * that tool's scoring, tie rule and identity definition as defaults; the
 * options given explicitly override them, and an option the tool cannot
 * have is refused naming both (docs/SCORING.md "Other tools' numbers").
 *
 *   mnw     mnw's own (the default; nothing changes)
 *   mothur  pairwise.seqs (align=needleman): --match 1 --mismatch -1 --gap 2
 *           --free-end-gaps --ambiguity mothur --tie-rule mothur
 *           --iddef mothur-onegap
 *   vsearch --allpairs_global: --match 2 --mismatch -4 --gap-open 20
 *           --gap-extend 2 --end-gap-open 2 --end-gap-extend 1
 *           --tie-rule vsearch (mothur's), ambiguity 0, --iddef vsearch2
 *   needle  EMBOSS needle: --match 5 --mismatch -4 --gap-open 10
 *           --gap-extend 0.5 (half points) --free-end-gaps --ambiguity
 *           ednafull --tie-rule needle --iddef needle
 *
 * The mode is recorded in the bookmark ("like") with the settings it set,
 * so a resume keeps it; mnw_like_apply runs for a new run only (a resumed
 * run takes every setting from its bookmark; src/opts.c calls it). It
 * knows nothing of the options themselves (mnw_like_given), so src/opts.c
 * depends on it and not the other way round.
 *
 * Ownership: plain values. Thread-safety: called from main only. */
#ifndef MNW_LIKE_H
#define MNW_LIKE_H

#include "lib/identity.h"
#include "lib/score.h"
#include "lib/util.h"

/* --like modes */
enum { MNW_LIKE_MNW = 0, MNW_LIKE_MOTHUR = 1, MNW_LIKE_VSEARCH = 2, MNW_LIKE_NEEDLE = 3 };

/* Which settings were given explicitly (the caller's options: src/opts.c
 * fills it), so that a mode's default does not replace them. */
typedef struct {
    int match, mismatch, gap_open, gap_extend, free_ends, tie, amb, iddef;
} mnw_like_given;

/* Parses a --like value: 0 with *mode set, -1 when unknown. */
int mnw_like_parse(const char *v, int *mode);
const char *mnw_like_name(int mode);
/* Parses a --tie-rule value (MNW_TIE_*): 0, or -1 when unknown. */
int mnw_tie_parse(const char *v, int *tie);
const char *mnw_tie_name(int tie);
/* Parses an --ambiguity value (MNW_AMB_*): 0, or -1 when unknown. */
int mnw_amb_parse(const char *v, int *amb);
const char *mnw_amb_name(int amb);

/* Sets the defaults of mode (MNW_LIKE_*) in sc and id where g says no
 * option was given, and refuses an explicit setting the mode contradicts
 * (sc->end_gaps already resolved from the options). 0, or -1 with e set. */
int mnw_like_apply(int mode, const mnw_like_given *g, mnw_scoring *sc, mnw_iddef *id, mnw_err *e) MNW_MUST_CHECK;

#endif
