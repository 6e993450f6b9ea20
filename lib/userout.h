/* userout.h - vsearch's --userout line for one alignment (issue 41):
 * what `vsearch --allpairs_global --userout FILE --userfields F` writes
 * for the pair, from mnw's alignment, so that pipelines that read vsearch's
 * table read mnw's (userout.tsv.gz, docs/FORMATS.md).
 *
 * Orientation: vsearch's allpairs query is the earlier sequence (j of mnw's
 * pair (i, j), j < i) and its target the later one (i); its CIGAR's `D` is a
 * base of the query against a gap and `I` a base of the target, which are
 * mnw's `D` (a base of j) and `I` (a base of i). Fields, in this order
 * (MNW_USEROUT_FIELDS; their meaning as vsearch 2.22.1's results.cc and
 * searchcore.cc `align_trim` compute them, read in its source):
 *   query target id0 id1 id2 id3 id4 alnlen mism opens gaps raw caln
 * with M the matching columns (vsearch's rule for ambiguity codes,
 * docs/IDENTITY.md), L the columns, T the terminal gap columns (the first
 * run if it is a gap run, the last one if it is another gap run), O the gap
 * runs: id0 100 M / min length, id1 and id4 100 M / L, id2 100 M / (L - T),
 * id3 max(0, 100 (1 - (mismatches + O) / max length)), each "%.1f" (0.0
 * for a zero denominator); alnlen L - T; mism aligned columns that do not
 * match; opens O without the terminal runs; gaps the gap columns without
 * the terminal ones; raw the alignment's score under the run's scoring
 * (vsearch's own score only where the scoring is vsearch's); caln the
 * alignment as vsearch writes it, `M` for every aligned column and a run's
 * length left out when it is 1 (`3MD2M`).
 * Ownership: the caller's buffer. Thread-safety: reentrant. */
#ifndef MNW_USEROUT_H
#define MNW_USEROUT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/aln.h"
#include "lib/buf.h"

/* The header names, tab-separated, without a newline (docs only: vsearch
 * writes no header, and neither does userout.tsv.gz). */
#define MNW_USEROUT_FIELDS "query\ttarget\tid0\tid1\tid2\tid3\tid4\talnlen\tmism\topens\tgaps\traw\tcaln"

/* Appends the line of alignment a (runs, not figures: a->has_fig must be 0)
 * of sequence i (codes ci, ni bases, name id_i) with sequence j (cj, nj,
 * id_j), j < i, newline included, to b. */
void mnw_userout_line(mnw_buf *b, const mnw_aln *a, const char *id_i, size_t li, const uint8_t *ci, size_t ni,
                      const char *id_j, size_t lj, const uint8_t *cj, size_t nj);

#endif
