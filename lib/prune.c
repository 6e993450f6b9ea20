/* prune.c - see prune.h; the proofs are in docs/PRUNE.md. */
#include "lib/prune.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DD ((int64_t)1 << 30)

int mnw_prune_mode_parse(const char *s, mnw_prune_mode *m)
{
    if (!strcmp(s, "auto")) *m = MNW_PRUNE_AUTO;
    else if (!strcmp(s, "yes")) *m = MNW_PRUNE_YES;
    else if (!strcmp(s, "no")) *m = MNW_PRUNE_NO;
    else return -1;
    return 0;
}

const char *mnw_prune_mode_name(mnw_prune_mode m)
{
    return m == MNW_PRUNE_YES ? "yes" : m == MNW_PRUNE_NO ? "no" : "auto";
}

/* Which bound a definition has (PRUNE.md, "Where the same argument holds"). */
enum { B_NONE, B_LEN, B_SCORE, B_V3 };

static int bound_of(const mnw_iddef *d)
{
    switch (d->kind) {
    case MNW_ID_VSEARCH1:
    case MNW_ID_VSEARCH4:
    case MNW_ID_NEEDLE: return B_LEN;
    case MNW_ID_MOTHUR_EACHGAP: return d->countends ? B_LEN : B_SCORE;
    case MNW_ID_VSEARCH2:
    case MNW_ID_MOTHUR_ONEGAP: return B_SCORE;
    case MNW_ID_VSEARCH3: return B_V3;
    default: return B_NONE; /* vsearch0, mothur-nogaps: gap blocks are free in the formula */
    }
}

/* Off (or, for yes, a refusal) with the reason. */
static int off(mnw_prune_plan *p, mnw_prune_mode mode, mnw_err *e, const char *why)
{
    p->on = 0;
    snprintf(p->why, sizeof p->why, "off: %s", why);
    if (mode == MNW_PRUNE_YES) return mnw_err_set(e, "--prune yes: the filter cannot be used: %s", why);
    return 0;
}

/* Which definitions Theorem 2 holds for (PRUNE.md): those whose distance
 * bounds every gap column inside the core (not only the gap openings). */
enum { E_NONE, E_LEN, E_SCORE };

static int ed_bound_of(const mnw_iddef *d)
{
    switch (d->kind) {
    case MNW_ID_VSEARCH1:
    case MNW_ID_VSEARCH4:
    case MNW_ID_NEEDLE: return E_LEN;
    case MNW_ID_MOTHUR_EACHGAP: return d->countends ? E_LEN : E_SCORE;
    case MNW_ID_VSEARCH2: return E_SCORE;
    default: return E_NONE; /* vsearch3 and mothur-onegap count gap openings; vsearch0, nogaps leave gaps out */
    }
}

int mnw_prune_plan_make(const mnw_iddef *d, const mnw_scoring *sc, double cutoff, const char *unfiltered,
                        mnw_prune_mode mode, mnw_prune_plan *p, mnw_err *e)
{
    memset(p, 0, sizeof *p);
    p->q = MNW_PRUNE_Q;
    char why[sizeof p->why - 8]; /* room for "off: " */
    if (mode == MNW_PRUNE_NO) {
        snprintf(p->why, sizeof p->why, "off (--prune no)");
        return 0;
    }
    if (cutoff < 0.0) return off(p, mode, e, "no --cutoff, so every pair is in the outputs");
    if (unfiltered) {
        snprintf(why, sizeof why, "%s needs every pair, not only those within --cutoff", unfiltered);
        return off(p, mode, e, why);
    }
    if (sc->end_gaps)
        return off(p, mode, e,
                   "terminal gaps have penalties of their own (--end-gap-open/--end-gap-extend), and the bound is "
                   "proven for one gap scoring (docs/PRUNE.md)");
    if (sc->amb != MNW_AMB_ZERO)
        return off(p, mode, e,
                   "ambiguity codes score by their letters (--ambiguity mothur or ednafull), and the bound is proven "
                   "for ambiguity codes that score 0 (docs/PRUNE.md)");
    if (sc->tie == MNW_TIE_NEEDLE)
        return off(p, mode, e,
                   "needle's tie rule ends an alignment at an aligned column (--tie-rule needle), and the bound is "
                   "proven for mnw's free end gaps (docs/PRUNE.md)");
    const int b = bound_of(d), eb = ed_bound_of(d);
    if (b == B_NONE) {
        snprintf(why, sizeof why,
                 "no bound is proven for --iddef %s (gap blocks cost nothing in its identity, docs/PRUNE.md)",
                 mnw_iddef_name(d));
        return off(p, mode, e, why);
    }
    const double Dp = cutoff + 1e-9;
    if (!(Dp < 1.0)) return off(p, mode, e, "a cutoff of 1 keeps every pair");
    p->Dd = DD;
    p->Dn = (int64_t)ceil(Dp * (double)DD);
    const int64_t q = p->q;
    if (b == B_V3) { /* (P - M) + R <= D Lmax */
        p->W = DD;
        p->Kp = DD;
        p->Kl = q * p->Dn;
        p->factor = 1.0 - (double)q * Dp;
    } else { /* (P - M) + R <= delta P */
        p->W = DD - p->Dn;
        p->Kp = DD - p->Dn - q * p->Dn;
        p->Kl = 0;
        p->factor = 1.0 - (double)q * Dp / (1.0 - Dp);
    }
    p->use_len = b == B_LEN;
    p->use_score = b != B_LEN;
    p->ms = sc->match;
    p->ge = sc->gap_extend;
    p->free_ends = sc->free_ends;
    p->band_gap = sc->gap_open;

    /* stage 1: proven where 1 - q delta > 0; auto also wants it to pay */
    const char *why1 = NULL;
    char w1[200];
    if (p->Kp <= 0 || p->factor <= 0.0) {
        snprintf(w1, sizeof w1, "at --cutoff %g one error can take %d q-grams (q = %d), so the q-gram bound proves nothing",
                 cutoff, p->q, p->q);
        why1 = w1;
    } else if (mode == MNW_PRUNE_AUTO && p->use_score && sc->free_ends) {
        snprintf(w1, sizeof w1,
                 "with --free-end-gaps a long terminal gap costs nothing, so for --iddef %s the q-gram bound is weak",
                 mnw_iddef_name(d));
        why1 = w1;
    } else if (mode == MNW_PRUNE_AUTO && p->factor < MNW_PRUNE_AUTO_MIN) {
        snprintf(w1, sizeof w1,
                 "at --cutoff %g the q-gram bound leaves %.3f of a pair's q-grams to test, below %.2f, where it prunes "
                 "too few pairs to pay",
                 cutoff, p->factor, MNW_PRUNE_AUTO_MIN);
        why1 = w1;
    }
    p->qgram = why1 == NULL;

    /* stage 2: proven for the definitions of ed_bound_of, with end gaps
     * penalised unless the length alone proves (E_LEN) */
    const char *why2 = NULL;
    char w2[200];
    if (eb == E_NONE) {
        snprintf(w2, sizeof w2, "the edit-distance bound is not proven for --iddef %s (it counts gap openings, not gap columns)",
                 mnw_iddef_name(d));
        why2 = w2;
    } else if (eb == E_SCORE && sc->free_ends) {
        snprintf(w2, sizeof w2, "the edit-distance bound needs end gaps penalised for --iddef %s", mnw_iddef_name(d));
        why2 = w2;
    } else if (mode == MNW_PRUNE_AUTO && cutoff > MNW_PRUNE_ED_AUTO_MAX) {
        snprintf(w2, sizeof w2, "at --cutoff %g (above %.2f) the edit-distance bound prunes too few pairs to pay", cutoff,
                 MNW_PRUNE_ED_AUTO_MAX);
        why2 = w2;
    }
    p->ed = why2 == NULL;
    p->ed_len = eb == E_LEN;
    if (p->ed && !p->ed_len) {
        const int64_t cg = sc->match + 2 * (int64_t)sc->gap_extend, cx = 2 * ((int64_t)sc->match - sc->mismatch),
                      ca = 2 * (int64_t)sc->match;
        p->ed_cg = cg;
        p->ed_alpha = cg > cx ? cg - cx : 0;
        p->ed_gamma = (cg - ca) - p->ed_alpha > 0 ? (cg - ca) - p->ed_alpha : 0;
    }

    if (!p->qgram && !p->ed) {
        snprintf(why, sizeof why, "%s; %s (docs/PRUNE.md%s)", why1, why2,
                 mode == MNW_PRUNE_AUTO ? "; --prune yes uses a bound that is proven all the same" : "");
        return off(p, mode, e, why);
    }
    p->on = 1;
    char s1[100], s2[100];
    if (p->qgram)
        snprintf(s1, sizeof s1, "the q-gram bound (q %d, %s)", p->q,
                 p->use_len ? "the length bound" : "the band score bound, 9 diagonals");
    else
        snprintf(s1, sizeof s1, "not the q-gram bound");
    if (p->ed)
        snprintf(s2, sizeof s2, "the edit-distance bound (%s)",
                 p->ed_len ? "the length of the shorter sequence" : "the guided band's score");
    else
        snprintf(s2, sizeof s2, "not the edit-distance bound");
    snprintf(p->why, sizeof p->why, "on (--prune %s): --iddef %s, --cutoff %g, %s, %s", mnw_prune_mode_name(mode),
             mnw_iddef_name(d), cutoff, s1, s2);
    return 0;
}

int64_t mnw_prune_p0_len(const mnw_prune_plan *p, int na, int nb)
{
    if (!p->use_len) return 0;
    int64_t lmax = na > nb ? na : nb;
    int64_t num = (p->Dd - p->Dn) * lmax;
    return (num + p->Dd - 1) / p->Dd;
}

int64_t mnw_prune_p0(const mnw_prune_plan *p, int64_t S, int na, int nb)
{
    int64_t p0 = mnw_prune_p0_len(p, na, nb);
    if (p->use_score) {
        int64_t num, den;
        if (p->free_ends) {
            num = S;
            den = p->ms;
        } else {
            num = S + (int64_t)p->ge * ((int64_t)na + nb);
            den = p->ms + 2 * (int64_t)p->ge;
        }
        int64_t ps = num <= 0 ? 0 : (num + den - 1) / den;
        if (ps > p0) p0 = ps;
    }
    return p0;
}

int mnw_prune_test(const mnw_prune_plan *p, int64_t shared, int64_t amb, int na, int nb, int64_t p0)
{
    const int64_t lmin = na < nb ? na : nb, lmax = na > nb ? na : nb;
    if (p0 > lmin) return 1;
    const int64_t q = p->q;
    return (shared + q * amb + q - 1) * p->W < p0 * p->Kp - lmax * p->Kl;
}

int64_t mnw_prune_ed_tau(const mnw_prune_plan *p, int64_t sg, int64_t amb, int na, int nb)
{
    const int64_t lmin = na < nb ? na : nb, K = p->Dd - p->Dn;
    if (p->ed_len) return p->Dn * lmin / K;
    const int64_t c2 = (int64_t)p->ms * ((int64_t)na + nb) - 2 * sg;
    /* |c2| <= 3000 x 20,000 and K, Dn <= 2^30: the products stay below 2^57 */
    const int64_t num = (c2 + p->ed_gamma * amb) * K + p->ed_alpha * p->Dn * lmin, den = p->ed_cg * K;
    return num >= 0 ? num / den : -((-num + den - 1) / den);
}
