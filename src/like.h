/* like.h - `--like TOOL` (issue 41): another tool's numbers. A mode sets
 * that tool's scoring, tie rule and identity definition as defaults; the
 * options given explicitly override them, and an option the tool cannot
 * have is refused naming both (docs/SCORING.md "Other tools' numbers").
 *
 *   mnw     mnw's own (the default; nothing changes)
 *   mothur  pairwise.seqs (align=needleman): --match 1 --mismatch -1 --gap 2
 *           --free-end-gaps --ambiguity letters --tie-rule mothur
 *           --iddef mothur-onegap
 *
 * The mode is recorded in the bookmark ("like") with the settings it set,
 * so a resume keeps it; mnw_like_apply runs for a new run only (a resumed
 * run takes every setting from its bookmark).
 *
 * Ownership: plain values. Thread-safety: called from main only. */
#ifndef MNW_LIKE_H
#define MNW_LIKE_H

#include "lib/util.h"
#include "src/opts.h"

/* Parses a --like value: 0 with *mode set, -1 when unknown. */
int mnw_like_parse(const char *v, int *mode);
const char *mnw_like_name(int mode);
/* Parses a --tie-rule value (MNW_TIE_*): 0, or -1 when unknown. */
int mnw_tie_parse(const char *v, int *tie);
const char *mnw_tie_name(int tie);
/* Parses an --ambiguity value (MNW_AMB_*): 0, or -1 when unknown. */
int mnw_amb_parse(const char *v, int *amb);
const char *mnw_amb_name(int amb);

/* Sets o's defaults for its mode (o->like) where no option was given, and
 * refuses an explicit option the mode contradicts. 0, or -1 with e set. */
int mnw_like_apply(mnw_opts *o, mnw_err *e) MNW_MUST_CHECK;

#endif
