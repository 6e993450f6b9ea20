/* outsel.h - which outputs a run writes (--outputs LIST): a set of
 * output.h's MNW_OUT_* as a bit mask, its names and its one spelling.
 *
 * Names (docs/FORMATS.md): pairs (pairs.tsv.gz), dist (dist.column.gz),
 * phylip (dist.phylip), paf (alignments.paf.gz), dist-plain (dist.column,
 * uncompressed: mothur reads it as it is), userout (userout.tsv.gz, vsearch's
 * --userout table: lib/userout.h). A list is names joined by commas, in any order,
 * each at most once; the canonical spelling (bookmarks, logs) lists them in
 * the MNW_OUT_* order. Default: pairs,dist.
 * Ownership: plain values; the caller owns every buffer.
 * Thread-safety: pure functions.
 */
#ifndef MNW_OUTSEL_H
#define MNW_OUTSEL_H

#include <stddef.h>

#include "lib/gzmember.h"
#include "lib/output.h"
#include "lib/util.h"

#define MNW_OUTSEL_DEFAULT ((1 << MNW_OUT_PAIRS) | (1 << MNW_OUT_DIST))

extern const char *const mnw_outsel_names[MNW_NOUT]; /* "pairs", ..., "dist-plain" */
extern const char mnw_outsel_help[];                  /* "pairs, dist, phylip, paf, dist-plain, userout" */

/* Parses LIST into *mask. 0, or -1 with e set (naming `where`): an empty
 * list or item, an unknown name, a name twice. *mask is unchanged then. */
int mnw_outsel_parse(const char *list, const char *where, int *mask, mnw_err *e) __attribute__((warn_unused_result));
/* The canonical list of mask in buf (cap bytes; 32 always suffice). */
const char *mnw_outsel_format(int mask, char *buf, size_t cap);
/* 1 when output o is in mask. */
static inline int mnw_outsel_has(int mask, int o) { return (mask >> o) & 1; }
/* 1 when the outputs in mask need each alignment's runs: a CIGAR (cigar
 * set, with pairs.tsv), PAF or userout (its caln). Counts mode (issue 20)
 * cannot serve them. */
static inline int mnw_outsel_needs_runs(int mask, int cigar)
{
    return (cigar && mnw_outsel_has(mask, MNW_OUT_PAIRS)) || mnw_outsel_has(mask, MNW_OUT_PAF) ||
           mnw_outsel_has(mask, MNW_OUT_USEROUT);
}

/* The gzip level every output is written at under --gzip-level `setting`
 * (gzmember.h): AUTO is MNW_GZIP_LEVEL_PLAIN; any other setting is itself
 * (FAST stays FAST: mnw_gzip_member maps it). */
static inline int mnw_outsel_gzip_level(int setting)
{
    return setting == MNW_GZIP_AUTO ? MNW_GZIP_LEVEL_PLAIN : setting;
}

#endif
