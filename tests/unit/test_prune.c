/* test_prune.c - lib/prune.c: the gate (mnw_prune_plan_make, both stages) for every
 * --iddef x scoring (linear, affine, free end gaps) x cutoff (none, 0,
 * 0.03, 0.10, 0.2, 0.99) x mode (auto, yes, no) x unfiltered (none, a
 * name), against a restatement of docs/PRUNE.md's table written here: on or
 * off, a refusal only for yes, the reason naming the cause; the integer
 * decision against PRUNE.md's formula in doubles on random inputs (away from
 * the rounding edge), monotone in P0, P0 > Lmin prunes; the length bound
 * and Lemma 3's P0 against their formulas; the mode names. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/prune.h"
#include "tests/tap.h"

static const char *const NAMES[] = {"vsearch0",       "vsearch1",      "vsearch2",
                                    "vsearch3",       "vsearch4",      "needle",
                                    "mothur-onegap",  "mothur-eachgap", "mothur-nogaps",
                                    "mothur-onegap-noends", "mothur-eachgap-noends", "mothur-nogaps-noends"};
#define NNAMES (sizeof NAMES / sizeof *NAMES)

/* PRUNE.md's table: 0 none, 1 the length bound (M / L), 2 Lemma 3's, 3 vsearch3's */
static int bound(const char *n)
{
    if (!strcmp(n, "vsearch1") || !strcmp(n, "vsearch4") || !strcmp(n, "needle") || !strcmp(n, "mothur-eachgap"))
        return 1;
    if (!strcmp(n, "vsearch2") || !strcmp(n, "mothur-onegap") || !strcmp(n, "mothur-onegap-noends") ||
        !strcmp(n, "mothur-eachgap-noends"))
        return 2;
    if (!strcmp(n, "vsearch3")) return 3;
    return 0;
}

/* Theorem 2's reach: 0 none, 1 ED > delta Lmin alone (M / L), 2 with the guided band's score */
static int ebound(const char *n)
{
    if (!strcmp(n, "vsearch1") || !strcmp(n, "vsearch4") || !strcmp(n, "needle") || !strcmp(n, "mothur-eachgap"))
        return 1;
    if (!strcmp(n, "vsearch2") || !strcmp(n, "mothur-eachgap-noends")) return 2;
    return 0;
}

static uint64_t rs = 88172645463325252ull;
static uint64_t rnd(uint64_t n)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs % n;
}

int main(void)
{
    const mnw_scoring scs[3] = {{4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, {4, -5, 12, 2, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, {4, -5, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}};
    const char *scn[3] = {"linear", "affine", "free end gaps"};
    const double cuts[6] = {-1.0, 0.0, 0.03, 0.10, 0.2, 0.99};
    const char *unf[2] = {NULL, "dist.phylip (a full matrix)"};
    const mnw_prune_mode modes[3] = {MNW_PRUNE_AUTO, MNW_PRUNE_YES, MNW_PRUNE_NO};
    const int q = MNW_PRUNE_Q;

    /* ---- the gate ---- */
    int cases = 0, bad_on = 0, bad_rc = 0, bad_why = 0, bad_k = 0, on_count = 0;
    for (size_t d = 0; d < NNAMES; d++)
        for (int s = 0; s < 3; s++)
            for (int c = 0; c < 6; c++)
                for (int mo = 0; mo < 3; mo++)
                    for (int u = 0; u < 2; u++) {
                        mnw_iddef id;
                        if (mnw_iddef_parse(NAMES[d], &id)) {
                            T_OK(0, "mnw_iddef_parse(%s)", NAMES[d]);
                            continue;
                        }
                        cases++;
                        const int b = bound(NAMES[d]);
                        const double D = cuts[c] + 1e-9;
                        const double factor = b == 3 ? 1.0 - q * D : 1.0 - q * D / (1.0 - D);
                        const int eb = ebound(NAMES[d]);
                        const int aut = modes[mo] == MNW_PRUNE_AUTO;
                        const char *cause, *cause2 = NULL;
                        int on = 0, s1 = 0, s2 = 0;
                        if (modes[mo] == MNW_PRUNE_NO) cause = "--prune no";
                        else if (cuts[c] < 0) cause = "no --cutoff";
                        else if (unf[u]) cause = unf[u];
                        else if (!b) cause = "no bound is proven";
                        else {
                            /* stage 1, the q-gram bound */
                            if (factor <= 0) cause = "q-grams (q = 8), so the q-gram bound proves nothing";
                            else if (aut && b != 1 && scs[s].free_ends) cause = "--free-end-gaps";
                            else if (aut && factor < MNW_PRUNE_AUTO_MIN) cause = "too few pairs to pay";
                            else s1 = 1;
                            /* stage 2, the edit-distance bound */
                            if (!eb) cause2 = "edit-distance bound is not proven";
                            else if (eb == 2 && scs[s].free_ends) cause2 = "needs end gaps penalised";
                            else if (aut && cuts[c] > MNW_PRUNE_ED_AUTO_MAX) cause2 = "the edit-distance bound prunes too few";
                            else s2 = 1;
                            on = s1 || s2;
                            if (on) {
                                cause = s1 ? ", the q-gram bound" : "not the q-gram bound";
                                cause2 = s2 ? ", the edit-distance bound" : "not the edit-distance bound";
                            }
                        }
                        mnw_prune_plan p;
                        mnw_err e;
                        e.msg[0] = 0;
                        int rc = mnw_prune_plan_make(&id, &scs[s], cuts[c], unf[u], modes[mo], &p, &e);
                        on_count += p.on;
                        int want_rc = (!on && modes[mo] == MNW_PRUNE_YES) ? -1 : 0;
                        if (p.on != on) bad_on++;
                        if (rc != want_rc || (rc && strncmp(e.msg, "--prune yes: ", 13))) bad_rc++;
                        int why_ok = strstr(p.why, cause) != NULL && (!cause2 || strstr(p.why, cause2) != NULL) &&
                                     (on ? !strncmp(p.why, "on (", 4) : !strncmp(p.why, "off", 3));
                        if (!on && !b && strcmp(cause, "no bound is proven") == 0) why_ok = why_ok && strstr(p.why, NAMES[d]);
                        if (rc && (strncmp(p.why, "off: ", 5) || !strstr(e.msg, p.why + 5))) why_ok = 0; /* the refusal gives the reason */
                        if (!why_ok) {
                            if (bad_why < 3)
                                printf("# %s, %s, cutoff %g, %s, %s: why \"%s\", wanted \"%s\"\n", NAMES[d], scn[s],
                                       cuts[c], mnw_prune_mode_name(modes[mo]), unf[u] ? unf[u] : "-", p.why, cause);
                            bad_why++;
                        }
                        if (on) { /* the constants */
                            int64_t Dd = (int64_t)1 << 30;
                            int kok = p.Dd == Dd && (double)p.Dn / (double)Dd >= D && (double)(p.Dn - 1) / (double)Dd < D &&
                                      p.q == q && p.use_len == (b == 1) && p.use_score == (b != 1) &&
                                      p.ms == scs[s].match && p.ge == scs[s].gap_extend &&
                                      p.band_gap == scs[s].gap_open && p.free_ends == scs[s].free_ends;
                            kok = kok && p.qgram == s1 && p.ed == s2 && p.ed_len == (s2 && eb == 1);
                            if (s2 && eb == 2) {
                                int64_t cg = scs[s].match + 2 * scs[s].gap_extend, cx = 2 * (scs[s].match - scs[s].mismatch),
                                        ca = 2 * scs[s].match, al = cg > cx ? cg - cx : 0;
                                kok = kok && p.ed_cg == cg && p.ed_alpha == al &&
                                      p.ed_gamma == ((cg - ca) - al > 0 ? (cg - ca) - al : 0);
                            }
                            if (b == 3) kok = kok && p.W == Dd && p.Kp == Dd && p.Kl == q * p.Dn;
                            else kok = kok && p.W == Dd - p.Dn && p.Kp == Dd - p.Dn - q * p.Dn && p.Kl == 0;
                            bad_k += !kok;
                        }
                    }
    T_OK(cases == (int)NNAMES * 3 * 6 * 3 * 2 && bad_on == 0 && on_count > 0,
         "gate: %d cases (12 definitions x 3 scorings x 6 cutoffs x 3 modes x 2), on exactly where PRUNE.md's table "
         "says (%d differ, %d on)",
         cases, bad_on, on_count);
    T_OK(bad_rc == 0, "gate: -1 (\"--prune yes: ...\") only for yes where it is off (%d differ)", bad_rc);
    T_OK(bad_why == 0, "gate: the reason names the cause (%d do not)", bad_why);
    T_OK(bad_k == 0, "gate: the plan's constants (D' >= cutoff + 1e-9 in 2^-30, W, Kp, Kl, q, bounds, scoring) (%d differ)",
         bad_k);

    /* ---- the decision against the double formula ---- */
    const char *dnames[4] = {"vsearch2", "needle", "vsearch3", "mothur-onegap-noends"};
    for (int dn = 0; dn < 4; dn++) {
        mnw_iddef id;
        if (mnw_iddef_parse(dnames[dn], &id)) abort();
        int bad = 0, edge = 0, tested = 0, mono = 0, lmin_bad = 0, yes = 0;
        for (int it = 0; it < 200000; it++) {
            double cut = (double)rnd(100001) / 1e6; /* 0 .. 0.1 */
            mnw_prune_plan p;
            mnw_err e;
            if (mnw_prune_plan_make(&id, &scs[0], cut, NULL, MNW_PRUNE_YES, &p, &e)) continue;
            int na = 1 + (int)rnd(3000), nb = 1 + (int)rnd(3000);
            if (it % 7 == 0) nb = na + (int)rnd(40);
            int lmin = na < nb ? na : nb, lmax = na > nb ? na : nb;
            int64_t p0 = (int64_t)rnd((uint64_t)lmin + 1), amb = (int64_t)rnd(it % 3 ? 3 : 40);
            int64_t shared = (int64_t)rnd((uint64_t)lmin + 1);
            if (it % 2) shared = (int64_t)(p0 * 0.7) + (int64_t)rnd(40) - 20; /* near need */
            if (shared < 0) shared = 0;
            const double Dp = cut + 1e-9, dl = Dp / (1.0 - Dp);
            double need = bound(dnames[dn]) == 3 ? p0 - q * Dp * lmax - q * (double)amb - (q - 1)
                                                 : p0 * (1.0 - q * dl) - q * (double)amb - (q - 1);
            int got = mnw_prune_test(&p, shared, amb, na, nb, p0);
            if (fabs((double)shared - need) < 1e-3) {
                edge++;
            } else {
                tested++;
                bad += got != ((double)shared < need);
            }
            yes += got;
            if (got && p0 < lmin && !mnw_prune_test(&p, shared, amb, na, nb, p0 + 1)) mono++;
            if (!mnw_prune_test(&p, shared, amb, na, nb, (int64_t)lmin + 1)) lmin_bad++;
        }
        T_OK(bad == 0 && mono == 0 && lmin_bad == 0 && yes > 1000 && tested - yes > 1000,
             "%s: mnw_prune_test = (shared < need) in doubles on %d random inputs (%d at the edge left out; %d "
             "pruned; %d differ), monotone in P0 (%d not), P0 > Lmin prunes (%d not)",
             dnames[dn], tested, edge, yes, bad, mono, lmin_bad);
    }

    /* ---- P0: the length bound and Lemma 3 ---- */
    {
        mnw_iddef id;
        int bad_len = 0, bad_short = 0, bad_l3 = 0, n = 0;
        for (int it = 0; it < 100000; it++) {
            double cut = (double)rnd(200001) / 1e6;
            mnw_prune_plan pl, ps;
            mnw_err e;
            if (mnw_iddef_parse("needle", &id) || mnw_prune_plan_make(&id, &scs[0], cut, NULL, MNW_PRUNE_YES, &pl, &e))
                continue;
            const mnw_scoring *sc = &scs[it % 3];
            if (mnw_iddef_parse("vsearch2", &id) || mnw_prune_plan_make(&id, sc, cut, NULL, MNW_PRUNE_YES, &ps, &e))
                continue;
            n++;
            int na = 1 + (int)rnd(3000), nb = 1 + (int)rnd(3000), lmax = na > nb ? na : nb, lmin = na < nb ? na : nb;
            const double Dp = cut + 1e-9, x = (1.0 - Dp) * lmax;
            int64_t p0 = mnw_prune_p0_len(&pl, na, nb);
            if (!((double)p0 >= x - 1e-6 && (double)(p0 - 1) < x + 1e-6)) bad_len++;
            if (mnw_prune_p0_len(&ps, na, nb) != 0 || mnw_prune_p0(&pl, 12345, na, nb) != p0) bad_len++;
            if ((double)lmin < x - 1e-6 && !mnw_prune_test(&pl, lmin, 0, na, nb, p0)) bad_short++;
            int64_t S = (int64_t)rnd(8000) - 4000;
            double v = sc->free_ends ? (double)S / sc->match
                                     : ((double)S + sc->gap_extend * (double)(na + nb)) / (sc->match + 2.0 * sc->gap_extend);
            int64_t w = v <= 0 ? 0 : (int64_t)ceil(v - 1e-12);
            if (mnw_prune_p0(&ps, S, na, nb) != w) bad_l3++;
        }
        T_OK(bad_len == 0 && bad_short == 0 && bad_l3 == 0 && n > 50000,
             "P0 on %d random pairs: the length bound ceil((1 - D') Lmax) (%d differ), a pair with Lmin < (1 - D') "
             "Lmax pruned by it (%d not), Lemma 3's ceil((S + ge (na + nb)) / (ms + 2 ge)) or ceil(S / ms) with "
             "free end gaps, at least 0 (%d differ)",
             n, bad_len, bad_short, bad_l3);
    }

    /* ---- the stages at 0.10 and 0.15 (every worker runs both: the plan
     * has no GPU rule since the GPU filter runs stage 2 too) ---- */
    {
        mnw_iddef id;
        if (mnw_iddef_parse("vsearch2", &id)) abort();
        mnw_prune_plan pl;
        mnw_err e;
        int ok = 1;
        ok &= mnw_prune_plan_make(&id, &scs[0], 0.10, NULL, MNW_PRUNE_AUTO, &pl, &e) == 0 && pl.on && pl.qgram && pl.ed;
        ok &= mnw_prune_plan_make(&id, &scs[0], 0.15, NULL, MNW_PRUNE_AUTO, &pl, &e) == 0 && pl.on && !pl.qgram && pl.ed;
        ok &= mnw_prune_plan_make(&id, &scs[0], 0.15, NULL, MNW_PRUNE_YES, &pl, &e) == 0 && pl.on && !pl.qgram && pl.ed;
        T_OK(ok, "gate: 0.10 auto both stages; 0.15 auto and yes stage 2 alone");
    }

    /* ---- stage 2: tau (Theorem 2) against its formula in doubles ---- */
    {
        const char *en[2] = {"vsearch2", "needle"};
        for (int dn = 0; dn < 2; dn++)
            for (int si = 0; si < 2; si++) {
                mnw_iddef id;
                if (mnw_iddef_parse(en[dn], &id)) abort();
                const mnw_scoring *sc = &scs[si];
                int bad = 0, edge = 0, tested = 0, neg = 0;
                for (int it = 0; it < 100000; it++) {
                    double cut = (double)(1 + rnd(150000)) / 1e6; /* 0 .. 0.15 */
                    mnw_prune_plan pl;
                    mnw_err e;
                    if (mnw_prune_plan_make(&id, sc, cut, NULL, MNW_PRUNE_YES, &pl, &e) || !pl.ed) {
                        bad++;
                        continue;
                    }
                    int na = (int)rnd(MNW_MAX_SEQ_LEN + 1), nb = (int)rnd(MNW_MAX_SEQ_LEN + 1);
                    int lmin = na < nb ? na : nb;
                    int64_t lo = -(int64_t)sc->gap_open * (na + nb), hi = (int64_t)sc->match * lmin;
                    int64_t sg = lo + (int64_t)rnd((uint64_t)(hi - lo + 1)), amb = (int64_t)rnd(50);
                    int64_t tau = mnw_prune_ed_tau(&pl, sg, amb, na, nb);
                    const double Dp = (double)pl.Dn / (double)pl.Dd, del = Dp / (1.0 - Dp);
                    double x;
                    if (pl.ed_len)
                        x = del * lmin;
                    else {
                        double cg = sc->match + 2.0 * sc->gap_extend, cx = 2.0 * (sc->match - sc->mismatch),
                               ca = 2.0 * sc->match, al = cg > cx ? cg - cx : 0.0, ga = (cg - ca) - al > 0 ? (cg - ca) - al : 0.0;
                        double c2 = (double)sc->match * (na + nb) - 2.0 * (double)sg;
                        x = (c2 + ga * (double)amb + al * del * lmin) / cg;
                    }
                    if (fabs(x - floor(x + 0.5)) < 1e-6) { /* at an integer: rounding decides */
                        edge++;
                        continue;
                    }
                    tested++;
                    neg += tau < 0;
                    if (tau != (int64_t)floor(x)) {
                        if (bad < 3) printf("# %s: tau %lld, formula %.9f (na %d nb %d sg %lld amb %lld)\n", en[dn], (long long)tau, x, na, nb, (long long)sg, (long long)amb);
                        bad++;
                    }
                }
                T_OK(bad == 0 && tested > 70000, /* affine 12/2: c2 / 8 is an integer a quarter of the time */
                     "%s, %s: mnw_prune_ed_tau = floor(formula in doubles) on %d random inputs (%d at an integer left out, %d negative; %d differ)",
                     en[dn], scn[si], tested, edge, neg, bad);
            }
    }

    /* ---- mode names ---- */
    mnw_prune_mode m;
    int ok = 1;
    for (int k = 0; k < 3; k++) ok = ok && !mnw_prune_mode_parse(mnw_prune_mode_name(modes[k]), &m) && m == modes[k];
    T_OK(ok && mnw_prune_mode_parse("maybe", &m) == -1 && mnw_prune_mode_parse("", &m) == -1,
         "mode names: auto, yes, no read back; 'maybe' and '' refused");
    return t_exit();
}
