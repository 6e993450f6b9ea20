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
    const int b = bound_of(d);
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
    if (p->Kp <= 0 || p->factor <= 0.0) {
        snprintf(why, sizeof why,
                 "at --cutoff %g one error can take %d q-grams (q = %d), so the q-gram bound proves nothing",
                 cutoff, p->q, p->q);
        return off(p, mode, e, why);
    }
    if (mode == MNW_PRUNE_AUTO && p->use_score && sc->free_ends) {
        snprintf(why, sizeof why,
                 "with --free-end-gaps a long terminal gap costs nothing, so for --iddef %s the bound is weak "
                 "(docs/PRUNE.md; --prune yes uses it all the same)",
                 mnw_iddef_name(d));
        return off(p, mode, e, why);
    }
    if (mode == MNW_PRUNE_AUTO && p->factor < MNW_PRUNE_AUTO_MIN) {
        snprintf(why, sizeof why,
                 "at --cutoff %g the bound leaves %.3f of a pair's q-grams to test, below %.2f, where it "
                 "prunes too few pairs to pay (docs/PRUNE.md; --prune yes uses it all the same)",
                 cutoff, p->factor, MNW_PRUNE_AUTO_MIN);
        return off(p, mode, e, why);
    }
    p->on = 1;
    snprintf(p->why, sizeof p->why, "on (--prune %s): --iddef %s, --cutoff %g, q %d, %s", mnw_prune_mode_name(mode),
             mnw_iddef_name(d), cutoff, p->q,
             p->use_len ? "the length bound" : "the band score bound (9 diagonals)");
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
