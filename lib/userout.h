/* userout.h - vsearch's --userout table (issue 41): what
 * `vsearch --allpairs_global --userout FILE --userfields F` writes for a
 * pair, from mnw's alignment, so that pipelines that read vsearch's table
 * read mnw's (userout.tsv.gz, docs/FORMATS.md); and the --userfields list
 * (vsearch's syntax: names joined by '+').
 *
 * Orientation: vsearch's allpairs query is the earlier sequence (j of mnw's
 * pair (i, j), j < i) and its target the later one (i); its CIGAR's `D` is a
 * base of the query against a gap and `I` a base of the target, which are
 * mnw's `D` (a base of j) and `I` (a base of i). Each field is computed as
 * vsearch 2.22.1 computes it (results.cc, searchcore.cc `align_trim`, read
 * in its source), with M the matching columns (vsearch's rule for ambiguity
 * codes, docs/IDENTITY.md), L the columns, the terminal gap runs (the first
 * run if it is a gap run, the last one if it is another) trimmed where
 * vsearch trims them; percentages "%.1f", 0.0 for a zero denominator. `raw`
 * is the alignment's score under the run's scoring (vsearch's only where the
 * scoring is vsearch's); `id` is the identity of the run's --iddef, which
 * must be one of vsearch's (vsearch0-4). Not offered: aln, qrow, trow (the
 * rows themselves). docs/FORMATS.md lists each field.
 * Ownership: the caller's buffers. Thread-safety: reentrant. */
#ifndef MNW_USEROUT_H
#define MNW_USEROUT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/aln.h"
#include "lib/buf.h"
#include "lib/util.h"

typedef enum {
    MNW_UF_QUERY, MNW_UF_TARGET, MNW_UF_EVALUE, MNW_UF_ID, MNW_UF_PCTPV, MNW_UF_PCTGAPS, MNW_UF_PAIRS,
    MNW_UF_GAPS, MNW_UF_QLO, MNW_UF_QHI, MNW_UF_TLO, MNW_UF_THI, MNW_UF_PV, MNW_UF_QL, MNW_UF_TL, MNW_UF_QS,
    MNW_UF_TS, MNW_UF_ALNLEN, MNW_UF_OPENS, MNW_UF_EXTS, MNW_UF_RAW, MNW_UF_BITS, MNW_UF_CALN, MNW_UF_QSTRAND,
    MNW_UF_TSTRAND, MNW_UF_QFRAME, MNW_UF_TFRAME, MNW_UF_MISM, MNW_UF_IDS, MNW_UF_QCOV, MNW_UF_TCOV, MNW_UF_ID0,
    MNW_UF_ID1, MNW_UF_ID2, MNW_UF_ID3, MNW_UF_ID4, MNW_UF_QILO, MNW_UF_QIHI, MNW_UF_TILO, MNW_UF_TIHI,
    MNW_UF_N
} mnw_ufield;

/* At most this many fields in a list (a field may be named twice). */
#define MNW_USERFIELDS_MAX 64
/* The default list: the fields issue 41 names (the ones users name most). */
#define MNW_USERFIELDS_DEFAULT "query+target+id0+id1+id2+id3+id4+alnlen+mism+opens+gaps+raw+caln"

/* n = 0 (a zeroed record: an mnw_outspec built without a list) stands for
 * MNW_USERFIELDS_DEFAULT in mnw_userout_line; a parsed list is never empty. */
typedef struct {
    int32_t n;
    uint8_t f[MNW_USERFIELDS_MAX]; /* mnw_ufield, in the order of the columns */
} mnw_userfields;

/* Parses LIST (names joined by '+') into *uf. 0, or -1 with e set naming
 * `where`: an empty list or name, an unknown name (the known ones listed),
 * more than MNW_USERFIELDS_MAX; *uf unchanged then. */
int mnw_userfields_parse(const char *list, const char *where, mnw_userfields *uf, mnw_err *e) MNW_MUST_CHECK;
/* The list as names joined by '+' in buf (cap bytes; 512 always suffice). */
const char *mnw_userfields_format(const mnw_userfields *uf, char *buf, size_t cap);
/* 1 when the list holds field f. */
int mnw_userfields_has(const mnw_userfields *uf, mnw_ufield f);

/* Appends the line of alignment a (runs, not figures: a->has_fig must be 0)
 * of sequence i (codes ci, ni bases, name id_i) with sequence j (cj, nj,
 * id_j), j < i, with the fields of uf, newline included, to b. id_kind:
 * the vsearch definition (0-4) of the field `id`. */
void mnw_userout_line(mnw_buf *b, const mnw_userfields *uf, int id_kind, const mnw_aln *a, const char *id_i,
                      size_t li, const uint8_t *ci, size_t ni, const char *id_j, size_t lj, const uint8_t *cj,
                      size_t nj);

#endif
