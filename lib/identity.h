/* identity.h - identity / distance definitions of one pairwise global
 * alignment, each named after the tool whose counting it reproduces.
 *
 *   vsearch0..4      vsearch --iddef 0..4 (as in vsearch 2.22.1)
 *   needle           EMBOSS needle's "Identity:" line (EMBOSS 6.6)
 *   mothur-onegap    mothur dist.seqs calc=onegap  (mothur 1.48.0)
 *   mothur-eachgap   mothur dist.seqs calc=eachgap
 *   mothur-nogaps    mothur dist.seqs calc=nogaps
 * The mothur ones take mothur's countends (1 = T, the default; 0 = F);
 * the CLI names for countends=F end in "-noends".
 *
 * docs/IDENTITY.md gives each formula, how ambiguity codes and terminal gaps
 * count in each tool, the values of the degenerate cases, and how each was
 * checked against the real tool (tests/sh/t_identity_tools.sh).
 *
 * Distance = 1 - identity for every definition, computed as the tool does:
 * mothur's as its quotient (mnw_iddist), the others' as 1 - identity.
 *
 * Ownership: nothing is allocated; mnw_iddef is a plain value.
 * Thread-safety: every function is reentrant and reads only its arguments
 * (and constant tables); call it from any number of threads.
 */
#ifndef MNW_IDENTITY_H
#define MNW_IDENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "lib/aln.h"
#include "lib/pathfig.h"

typedef enum {
    MNW_ID_VSEARCH0,        /* matches / shorter sequence length (CD-HIT)    */
    MNW_ID_VSEARCH1,        /* matches / alignment length                    */
    MNW_ID_VSEARCH2,        /* matches / alignment length w/o terminal gaps  */
    MNW_ID_VSEARCH3,        /* 1 - (mismatches + gap opens) / longer length  */
    MNW_ID_VSEARCH4,        /* matches / alignment length (BLAST; = vsearch1) */
    MNW_ID_NEEDLE,          /* identical columns / alignment length          */
    MNW_ID_MOTHUR_ONEGAP,   /* a run of gaps counts as one difference        */
    MNW_ID_MOTHUR_EACHGAP,  /* every gap column counts as a difference       */
    MNW_ID_MOTHUR_NOGAPS    /* gap columns are left out                      */
} mnw_idkind;

#define MNW_ID_NKINDS 9

typedef struct {
    mnw_idkind kind;
    int countends; /* mothur's countends: 1 = T (default), 0 = F; ignored by
                      the other definitions */
} mnw_iddef;

/* The default definition: vsearch2 (matches / columns without terminal gaps). */
#define MNW_IDDEF_DEFAULT ((mnw_iddef){MNW_ID_VSEARCH2, 1})

/* Parse a CLI name: "vsearch0".."vsearch4", "needle", "mothur-onegap",
 * "mothur-eachgap", "mothur-nogaps" (countends=1), or a mothur name followed
 * by "-noends" (countends=0). Case-sensitive. Returns 0, or -1 for an unknown
 * name (out untouched). */
int mnw_iddef_parse(const char *name, mnw_iddef *out);

/* The CLI name of d (parses back to d); "?" for an invalid kind. */
const char *mnw_iddef_name(const mnw_iddef *d);

/* One-line list of the accepted names, for usage messages. */
extern const char mnw_iddef_names_help[];

/* Identity in [0,1] of the alignment ops[0..nops) (aln.h run encoding) of a
 * (na codes) and b (nb codes), codes as in seq.h (all < MNW_NCODES). One pass
 * over the runs; the codes are read only in 'X' runs, and only when a or b
 * holds an ambiguity code. A zero denominator
 * gives 0 (distance 1); see docs/IDENTITY.md for each definition. */
double mnw_identity(const mnw_iddef *d, const uint32_t *ops, size_t nops,
                    const uint8_t *a, size_t na, const uint8_t *b, size_t nb);

/* mnw_identity, and the alignment's figures (mnw_runs_stats) into *st when st
 * is not NULL: what every pairs.tsv line needs, in one pass over the runs.
 * The codes are read only when an 'X' run holds an ambiguity code. */
double mnw_identity_stats(const mnw_iddef *d, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                          const uint8_t *b, size_t nb, mnw_alnstats *st);

/* An alignment's identity and distance under a definition. The distance is
 * 1 - identity, computed as the tool computes it: mothur divides its
 * differences by its columns, so its definitions' distance is that
 * quotient (and the identity 1 - it), which prints the digits mothur
 * prints; the others' is 1 - identity. */
typedef struct {
    double id, dist;
} mnw_iddist;

/* mnw_identity_stats with the distance too (what the outputs print). */
mnw_iddist mnw_iddist_stats(const mnw_iddef *d, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                            const uint8_t *b, size_t nb, mnw_alnstats *st);
/* mnw_identity_fig with the distance too. */
mnw_iddist mnw_iddist_fig(const mnw_iddef *d, const mnw_pathfig *f, size_t na, size_t nb);

/* The figures (pathfig.h) of the alignment ops[0..nops) of a with b, as
 * mnw_identity_stats counts them for definition d (its rule for the
 * ambiguity-code columns goes into f->eq). */
void mnw_pathfig_of_runs(const mnw_iddef *d, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                         const uint8_t *b, size_t nb, mnw_pathfig *f);

/* Identity in [0,1] under d from an alignment's figures (f->eq counted by
 * d's rule: mnw_pathfig_of_runs, or the trace-back walk with mnw_eqtab_of's
 * table); equal to mnw_identity of the same alignment, bit for bit. */
double mnw_identity_fig(const mnw_iddef *d, const mnw_pathfig *f, size_t na, size_t nb);

/* The pairs.tsv columns (aln.h) from the figures. */
void mnw_pathfig_stats(const mnw_pathfig *f, mnw_alnstats *st);

/* The table of the aligned columns d counts as identical (pathfig.h), for
 * the walk that counts figures without runs. */
void mnw_eqtab_of(const mnw_iddef *d, mnw_eqtab *t);

#endif
