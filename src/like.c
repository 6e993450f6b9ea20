/* like.c - see like.h. */
#include "src/like.h"

#include <string.h>

static const char *const like_names[] = {"mnw", "mothur", "vsearch", "needle"};
static const char *const tie_names[] = {"mnw", "mothur", "needle"};

int mnw_like_parse(const char *v, int *mode)
{
    for (int k = 0; k < (int)(sizeof like_names / sizeof *like_names); k++)
        if (!strcmp(v, like_names[k])) {
            *mode = k;
            return 0;
        }
    return -1;
}

const char *mnw_like_name(int mode)
{
    return mode >= 0 && mode < (int)(sizeof like_names / sizeof *like_names) ? like_names[mode] : "?";
}

int mnw_tie_parse(const char *v, int *tie)
{
    if (!strcmp(v, tie_names[MNW_TIE_MNW])) *tie = MNW_TIE_MNW;
    else if (!strcmp(v, tie_names[MNW_TIE_MOTHUR]) || !strcmp(v, "vsearch")) *tie = MNW_TIE_MOTHUR; /* one rule */
    else if (!strcmp(v, tie_names[MNW_TIE_NEEDLE])) *tie = MNW_TIE_NEEDLE;
    else return -1;
    return 0;
}

const char *mnw_tie_name(int tie)
{
    return tie == MNW_TIE_MOTHUR ? tie_names[MNW_TIE_MOTHUR]
           : tie == MNW_TIE_NEEDLE ? tie_names[MNW_TIE_NEEDLE]
                                   : tie_names[MNW_TIE_MNW];
}

int mnw_amb_parse(const char *v, int *amb)
{
    if (!strcmp(v, "zero") || !strcmp(v, "0")) *amb = MNW_AMB_ZERO;
    else if (!strcmp(v, "mothur")) *amb = MNW_AMB_MOTHUR;
    else if (!strcmp(v, "ednafull")) *amb = MNW_AMB_EDNAFULL;
    else return -1;
    return 0;
}

const char *mnw_amb_name(int amb)
{
    return amb == MNW_AMB_MOTHUR ? "mothur" : amb == MNW_AMB_EDNAFULL ? "ednafull" : "zero";
}

/* A tool that has whole points only: a value in half points refused */
static int whole_points(const char *tool, const mnw_scoring *sc, mnw_err *e)
{
    if (!sc->half) return 0;
    return mnw_err_set(e, "--like %s and a scoring value ending in .5: %s scores in whole points (half points are "
                          "needle's: --like needle)",
                       tool, tool);
}

/* mothur's pairwise.seqs (1.48, align=needleman, the default): needlemanoverlap.cpp
 * scores +1 / -1 and -2 a gap column (its match, mismatch and gapopen
 * parameters' defaults; gapextend is not used by this aligner), a column
 * by its two letters after its reader turned every ambiguity letter into N
 * (two ambiguity codes a match, R against Y too; one against a base a
 * mismatch), leading and trailing
 * gaps free (Overlap), one gap penalty (no affine gaps). */
static int like_mothur(const mnw_like_given *g, mnw_scoring *sc, mnw_iddef *id, mnw_err *e)
{
    if (whole_points("mothur", sc, e)) return -1;
    if (!g->match) sc->match = 1;
    if (!g->mismatch) sc->mismatch = -1;
    const int go = g->gap_open, ge = g->gap_extend;
    if (!go && !ge) sc->gap_open = sc->gap_extend = 2;
    else if (!ge) sc->gap_extend = sc->gap_open;
    else if (!go) sc->gap_open = sc->gap_extend;
    if (mnw_scoring_affine(sc))
        return mnw_err_set(e, "--like mothur and --gap-open %d --gap-extend %d: mothur's pairwise.seqs aligner "
                              "(needleman) has one penalty per gap column, no affine gaps (give one --gap, or leave "
                              "--like out)",
                           sc->gap_open, sc->gap_extend);
    if (g->free_ends && !sc->free_ends)
        return mnw_err_set(e, "--like mothur and --free-end-gaps no: mothur's pairwise.seqs leaves leading and "
                              "trailing gaps free always (leave --free-end-gaps out, or leave --like out)");
    if (sc->end_gaps)
        return mnw_err_set(e, "--like mothur and --end-gap-open %d --end-gap-extend %d: mothur's pairwise.seqs leaves "
                              "leading and trailing gaps free (leave the end-gap options out, or leave --like out)",
                           sc->end_open, sc->end_extend);
    sc->free_ends = 1;
    if (g->tie && sc->tie != MNW_TIE_MOTHUR)
        return mnw_err_set(e, "--like mothur and --tie-rule %s: mothur's alignments follow mothur's tie rule (leave "
                              "--tie-rule out, or leave --like out)",
                           mnw_tie_name(sc->tie));
    sc->tie = MNW_TIE_MOTHUR;
    if (g->amb && sc->amb != MNW_AMB_MOTHUR)
        return mnw_err_set(e, "--like mothur and --ambiguity %s: mothur reads every ambiguity code as N (two of "
                              "them a match, one against a base a mismatch) (leave --ambiguity out, or leave --like out)",
                           mnw_amb_name(sc->amb));
    sc->amb = MNW_AMB_MOTHUR;
    if (!g->iddef) {
        mnw_iddef_parse("mothur-onegap", id);
    } else if (id->kind != MNW_ID_MOTHUR_ONEGAP && id->kind != MNW_ID_MOTHUR_EACHGAP &&
               id->kind != MNW_ID_MOTHUR_NOGAPS) {
        return mnw_err_set(e, "--like mothur and --iddef %s: %s is not one of mothur's distances (give "
                              "mothur-onegap, mothur-eachgap or mothur-nogaps, with -noends or --countends for "
                              "countends=F, or leave --iddef out: mothur-onegap, pairwise.seqs' default)",
                           mnw_iddef_name(id), mnw_iddef_name(id));
    }
    return 0;
}

/* vsearch's --allpairs_global (2.22, its defaults): --match 2 --mismatch -4,
 * --gapopen 20I/2E --gapext 2I/1E (a gap of k columns costs open + (k-1)
 * extend, interior and terminal apart: mnw's 20/2 and end gaps 2/1),
 * ambiguity codes 0, its cell's order (align_simd.cpp: the diagonal, then
 * the query's gap, then the target's: D before I in mnw's frame, the rule
 * mnw calls mothur's), identity id2 (vsearch2, its --iddef default). */
static int like_vsearch(const mnw_like_given *g, mnw_scoring *sc, mnw_iddef *id, mnw_err *e)
{
    if (whole_points("vsearch", sc, e)) return -1;
    if (!g->match) sc->match = 2;
    if (!g->mismatch) sc->mismatch = -4;
    if (!g->gap_open) sc->gap_open = 20;
    if (!g->gap_extend) sc->gap_extend = 2;
    if (sc->free_ends)
        return mnw_err_set(e, "--like vsearch and --free-end-gaps: vsearch scores terminal gaps with penalties of "
                              "their own (give --end-gap-open 0 --end-gap-extend 0 for free ones, as vsearch's "
                              "--gapopen 20I/0E --gapext 2I/0E)");
    if (!sc->end_gaps) {
        sc->end_gaps = 1;
        sc->end_open = 2;
        sc->end_extend = 1;
    }
    if (g->tie && sc->tie != MNW_TIE_MOTHUR)
        return mnw_err_set(e, "--like vsearch and --tie-rule %s: vsearch's alignments follow its own tie rule (D "
                              "before I, the rule --tie-rule vsearch or mothur names) (leave --tie-rule out, or leave "
                              "--like out)",
                           mnw_tie_name(sc->tie));
    sc->tie = MNW_TIE_MOTHUR;
    if (g->amb && sc->amb != MNW_AMB_ZERO)
        return mnw_err_set(e, "--like vsearch and --ambiguity %s: vsearch scores an ambiguity code 0 (leave "
                              "--ambiguity out, or leave --like out)",
                           mnw_amb_name(sc->amb));
    if (g->iddef && !(id->kind >= MNW_ID_VSEARCH0 && id->kind <= MNW_ID_VSEARCH4))
        return mnw_err_set(e, "--like vsearch and --iddef %s: %s is not one of vsearch's identities (give vsearch0 "
                              "to vsearch4, or leave --iddef out: vsearch2, vsearch's default)",
                           mnw_iddef_name(id), mnw_iddef_name(id));
    return 0;
}

/* EMBOSS needle (6.6) with its defaults for DNA: EDNAFULL (5 / -4 and its
 * ambiguity values), -gapopen 10 -gapextend 0.5 (so every value in half
 * points: sc->half, set by mnw_opts_units), -endweight false (end gaps free,
 * needle's own way: its tie rule, score.h MNW_TIE_NEEDLE), the asequence as
 * the rows (pair i, j: i), its Identity line (--iddef needle). */
static int like_needle(const mnw_like_given *g, mnw_scoring *sc, mnw_iddef *id, mnw_err *e)
{
    if (!g->match) sc->match = 2 * 5;
    if (!g->mismatch) sc->mismatch = 2 * -4;
    if (!g->gap_open) sc->gap_open = 2 * 10;
    if (!g->gap_extend) sc->gap_extend = 1; /* 0.5 */
    if (g->free_ends && !sc->free_ends)
        return mnw_err_set(e, "--like needle and --free-end-gaps no: needle's end gaps are free (-endweight false, "
                              "its default; leave --free-end-gaps out, or leave --like out)");
    if (sc->end_gaps)
        return mnw_err_set(e, "--like needle and --end-gap-open/--end-gap-extend: needle's end gaps are free (its "
                              "-endweight is not reproduced; leave the end-gap options out, or leave --like out)");
    sc->free_ends = 1;
    if (g->tie && sc->tie != MNW_TIE_NEEDLE)
        return mnw_err_set(e, "--like needle and --tie-rule %s: needle's alignments follow its own tie rule (leave "
                              "--tie-rule out, or leave --like out)",
                           mnw_tie_name(sc->tie));
    sc->tie = MNW_TIE_NEEDLE;
    if (g->amb && sc->amb != MNW_AMB_EDNAFULL)
        return mnw_err_set(e, "--like needle and --ambiguity %s: needle scores ambiguity codes by EDNAFULL (leave "
                              "--ambiguity out, or leave --like out)",
                           mnw_amb_name(sc->amb));
    sc->amb = MNW_AMB_EDNAFULL;
    if (g->iddef && id->kind != MNW_ID_NEEDLE)
        return mnw_err_set(e, "--like needle and --iddef %s: %s is not needle's identity (leave --iddef out: needle, "
                              "its Identity line)",
                           mnw_iddef_name(id), mnw_iddef_name(id));
    if (!g->iddef) mnw_iddef_parse("needle", id);
    return 0;
}

int mnw_like_apply(int mode, const mnw_like_given *g, mnw_scoring *sc, mnw_iddef *id, mnw_err *e)
{
    switch (mode) {
    case MNW_LIKE_MOTHUR: return like_mothur(g, sc, id, e);
    case MNW_LIKE_VSEARCH: return like_vsearch(g, sc, id, e);
    case MNW_LIKE_NEEDLE: return like_needle(g, sc, id, e);
    default: return 0;
    }
}
