/* output.h - the text of every output for one work list, in pair order.
 *
 * Files (docs/FORMATS.md): pairs.tsv.gz, dist.column.gz, dist.phylip,
 * alignments.paf.gz, dist.column (dist.column.gz's text, uncompressed),
 * userout.tsv.gz (vsearch's --userout table, lib/userout.h).
 * Each work list yields its slice of each file; the CLD concatenates the
 * slices in pair order (the gzip ones as one gzip member per slice).
 * Ownership: the caller owns the buffers. Thread-safety: reentrant; the
 * mnw_outspec is read-only and shared.
 */
#ifndef MNW_OUTPUT_H
#define MNW_OUTPUT_H

#include "lib/aln.h"
#include "lib/buf.h"
#include "lib/identity.h"
#include "lib/pairs.h"
#include "lib/seq.h"
#include "lib/userout.h"

enum {
    MNW_OUT_PAIRS = 0,
    MNW_OUT_DIST = 1,
    MNW_OUT_PHYLIP = 2,
    MNW_OUT_PAF = 3,
    MNW_OUT_DISTPLAIN = 4,
    MNW_OUT_USEROUT = 5,
    MNW_NOUT = 6
};
extern const char *const mnw_out_name[MNW_NOUT]; /* file names in OUTDIR */
extern const int mnw_out_gzip[MNW_NOUT];         /* 1: gzip members */

/* --cutoff-scope: DIST, the cutoff filters dist.column.gz and dist.column;
 * ALL, pairs.tsv.gz, alignments.paf.gz and userout.tsv.gz too (dist.phylip, a full matrix,
 * is never filtered: opts.c refuses it with ALL). A pair is kept iff
 * !(distance > cutoff). */
enum { MNW_CUTOFF_SCOPE_DIST = 0, MNW_CUTOFF_SCOPE_ALL = 1 };

typedef struct {
    const mnw_seqset *seqs;
    mnw_iddef iddef;
    double cutoff; /* < 0: none */
    int cigar;
    int enabled[MNW_NOUT];
    /* --cutoff-scope (MNW_CUTOFF_SCOPE_*): which outputs the cutoff filters */
    int cutoff_scope;
    /* userout.tsv.gz's fields (--userfields) */
    mnw_userfields userfields;
    int half; /* scores in half points (score.h): pairs.tsv's score as value / 2 with
                 one decimal (EMBOSS's); PAF's AS:i and userout's raw stay integers in half points */
} mnw_outspec;

/* The file heads written before any pair (pairs.tsv header line; the
 * others have none). */
void mnw_output_head(const mnw_outspec *sp, int out, mnw_buf *text);
/* Appends the text of pairs r.k0 .. r.k0+r.count-1 (alns[x] is pair
 * r.k0 + x) to text[out] of every enabled output; a pair beyond the cutoff
 * has no line in the outputs sp->cutoff_scope filters. A pruned alignment
 * (aln.h) has no line in any output. */
void mnw_output_format(const mnw_outspec *sp, mnw_range r, const mnw_aln *alns, mnw_buf text[MNW_NOUT]);

#endif
