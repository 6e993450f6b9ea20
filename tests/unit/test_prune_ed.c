/* test_prune_ed.c - the filter's second stage (issue 39, PRUNE.md Theorem
 * 2): lib/prune_ed.c's reference figures and workers/cpu/prune_ed_cpu.c's
 * vector code.
 *   1. mnw_ped_ed = a plain unit-cost DP (codes equal where their base sets
 *      overlap) on random pairs with ambiguity codes, lengths 0..300;
 *   2. mnw_pedc_ed, every instruction set the CPU has, = mnw_ped_ed on lane
 *      groups of mixed lengths (0..700, empty lanes, one to 13 targets) and
 *      on every pair of 40 real genes;
 *   3. mnw_pedc_band = mnw_ped_band over mnw_ped_guide's centres, every
 *      instruction set, on every pair of 40 real genes, of 12 built pairs
 *      (a gene and its copy, its halves, 300 bases cut from either end, a
 *      100-base insertion, runs of N, a 5-base sequence, an empty one) and
 *      of random pairs;
 *   4. the guided band's score <= the optimal score (mnw's CPU aligner),
 *      linear and affine scoring, on the real pairs: Theorem 2's premise;
 *   5. Theorem 2 on the real pairs at 0.05, 0.10 and 0.15: every pair with
 *      ED > tau has distance > the cutoff (vsearch2, needle), counted.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/prune.h"
#include "lib/prune_ed.h"
#include "tests/tap.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/cpu/prune_ed_cpu.h"

static uint64_t rs = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(uint64_t n)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs % n;
}

static int ed_plain(const uint8_t *a, int na, const uint8_t *b, int nb)
{
    int *col = malloc((size_t)(nb + 1) * sizeof(int));
    for (int i = 0; i <= nb; i++) col[i] = i;
    for (int j = 1; j <= na; j++) {
        int diag = col[0];
        col[0] = j;
        for (int i = 1; i <= nb; i++) {
            int up = col[i];
            int v = diag + !(mnw_ped_bases[b[i - 1]] & mnw_ped_bases[a[j - 1]]);
            if (up + 1 < v) v = up + 1;
            if (col[i - 1] + 1 < v) v = col[i - 1] + 1;
            diag = up;
            col[i] = v;
        }
    }
    int r = col[nb];
    free(col);
    return r;
}

static void rand_seq(uint8_t *s, int n, int amb_per_1000)
{
    for (int i = 0; i < n; i++)
        s[i] = (uint8_t)((int)rnd(1000) < amb_per_1000 ? 4 + rnd(11) : rnd(4));
}

/* a copy of s with about pct% substitutions and short indels */
static int mutate(const uint8_t *s, int n, uint8_t *o, int pct)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int x = (int)rnd(100);
        if (x < pct / 3) continue;                      /* deletion */
        if (x < 2 * pct / 3) o[k++] = (uint8_t)rnd(4); /* insertion */
        o[k++] = (int)rnd(100) < pct / 3 ? (uint8_t)rnd(4) : s[i];
    }
    return k;
}

static const char *const ISA[3] = {"avx512", "avx2", "x86-64"};

int main(void)
{
    mnw_err e;
    mnw_seqset S;
    mnw_seqset_init(&S);
    T_MUST(mnw_fasta_read("tests/data/16s-200.fa", &S, &e), e);
    const int G = 40;
    const char *cpu = mnw_cpu_isa();
    const int isa_lo = cpu && !strcmp(cpu, "avx512") ? 0 : cpu && !strcmp(cpu, "avx2") ? 1 : 2;

    /* 1. the reference ED against the plain DP */
    {
        uint8_t a[300], b[320];
        int bad = 0;
        for (int it = 0; it < 300; it++) {
            int na = (int)rnd(300), nb;
            rand_seq(a, na, 30);
            if (it % 2) {
                nb = mutate(a, na, b, 20);
                if (nb > 300) nb = 300;
            } else {
                nb = (int)rnd(300);
                rand_seq(b, nb, 30);
            }
            if (mnw_ped_ed(a, na, b, nb) != ed_plain(a, na, b, nb)) bad++;
        }
        T_OK(bad == 0, "mnw_ped_ed = the plain DP on 300 random pairs with ambiguity codes, lengths 0..299 (%d differ)", bad);
    }

    /* 2. the vector ED against the reference */
    mnw_pedc *w = mnw_pedc_new();
    for (int isa = isa_lo; isa < 3; isa++) {
        int bad = 0, pairs = 0;
        uint8_t *a = malloc(700), *bs[13];
        const uint8_t *tp[13];
        int tn[13];
        int32_t ed[13];
        for (int k = 0; k < 13; k++) bs[k] = malloc(1500); /* mutate writes up to 2 na */
        for (int it = 0; it < 60; it++) {
            int na = (int)rnd(700);
            rand_seq(a, na, 10);
            int cnt = 1 + (int)rnd(13);
            for (int k = 0; k < cnt; k++) {
                if (rnd(4) == 0) { /* an unrelated target, or an empty one */
                    tn[k] = (int)rnd(3) == 0 ? 0 : (int)rnd(700);
                    rand_seq(bs[k], tn[k], 10);
                } else {
                    tn[k] = mutate(a, na, bs[k], 5 + (int)rnd(30));
                    if (tn[k] > 700) tn[k] = 700;
                }
                tp[k] = bs[k];
            }
            mnw_pedc_query(w, a, na);
            mnw_pedc_ed(w, tp, tn, (size_t)cnt, NULL, ed, isa);
            for (int k = 0; k < cnt; k++, pairs++)
                if (ed[k] != mnw_ped_ed(a, na, tp[k], tn[k])) {
                    if (bad < 3)
                        printf("# %s: na %d, lane %d of %d: nb %d, ed %d, reference %d\n", ISA[isa], na, k, cnt, tn[k], ed[k],
                               mnw_ped_ed(a, na, tp[k], tn[k]));
                    bad++;
                }
        }
        /* real genes */
        for (int i = 0; i < G; i++) {
            const uint8_t *qa = mnw_seq_codes(&S, (size_t)i);
            int na = (int)mnw_seq_len(&S, (size_t)i);
            const uint8_t *rt[40];
            int rn[40];
            int32_t red[40];
            for (int j = 0; j < G; j++) {
                rt[j] = mnw_seq_codes(&S, (size_t)j);
                rn[j] = (int)mnw_seq_len(&S, (size_t)j);
            }
            mnw_pedc_query(w, qa, na);
            mnw_pedc_ed(w, rt, rn, (size_t)G, NULL, red, isa);
            for (int j = 0; j < G; j++, pairs++)
                if (red[j] != mnw_ped_ed(qa, na, rt[j], rn[j])) bad++;
        }
        T_OK(bad == 0, "mnw_pedc_ed (%s) = mnw_ped_ed on %d pairs: random lane groups of 1-13 targets, lengths 0..700, and every pair of %d real genes (%d differ)",
             ISA[isa], pairs, G, bad);
        free(a);
        for (int k = 0; k < 13; k++) free(bs[k]);
    }

    /* 2b. with a bound tau: ED where ED <= tau, > tau where ED > tau */
    for (int isa = isa_lo; isa < 3; isa++) {
        int bad = 0, pairs = 0, above = 0;
        for (int i = 0; i < G; i++) {
            const uint8_t *qa = mnw_seq_codes(&S, (size_t)i);
            int na = (int)mnw_seq_len(&S, (size_t)i);
            const uint8_t *rt[40];
            int rn[40];
            int32_t red[40], ref[40];
            int64_t tau[40];
            for (int j = 0; j < G; j++) {
                rt[j] = mnw_seq_codes(&S, (size_t)j);
                rn[j] = (int)mnw_seq_len(&S, (size_t)j);
                ref[j] = mnw_ped_ed(qa, na, rt[j], rn[j]);
                tau[j] = (int64_t)ref[j] - 60 + (int64_t)rnd(121); /* around ED, either side */
                if (rnd(8) == 0) tau[j] = (int64_t)rnd(40) - 5;  /* below |na - nb| often, negative too */
            }
            mnw_pedc_query(w, qa, na);
            mnw_pedc_ed(w, rt, rn, (size_t)G, tau, red, isa);
            for (int j = 0; j < G; j++, pairs++) {
                above += ref[j] > tau[j];
                if ((ref[j] <= tau[j] && red[j] != ref[j]) || (ref[j] > tau[j] && red[j] <= tau[j])) {
                    if (bad < 3)
                        printf("# %s: pair %d/%d: ED %d, tau %lld, banded %d\n", ISA[isa], i, j, ref[j], (long long)tau[j],
                               red[j]);
                    bad++;
                }
            }
        }
        T_OK(bad == 0 && above > 100 && above < pairs - 100,
             "mnw_pedc_ed (%s) with tau (Ukkonen's band) on every pair of %d real genes, tau drawn around ED: ED where <= tau, > tau where ED > tau (%d of %d above; %d wrong)",
             ISA[isa], G, above, pairs, bad);
    }

    /* 3-5: the guided band and Theorem 2 on real pairs and built ones */
    const mnw_scoring lin = MNW_SCORING_DEFAULT, aff = {4, -5, 12, 2, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0};
    const uint8_t *g0 = mnw_seq_codes(&S, 0);
    const int n0 = (int)mnw_seq_len(&S, 0);
    uint8_t built[12][2000];
    int bn[12];
    memcpy(built[0], g0, (size_t)n0), bn[0] = n0;                    /* its copy */
    memcpy(built[1], g0, (size_t)n0 / 2), bn[1] = n0 / 2;            /* first half */
    memcpy(built[2], g0 + n0 / 2, (size_t)(n0 - n0 / 2)), bn[2] = n0 - n0 / 2; /* second half */
    memcpy(built[3], g0 + 300, (size_t)(n0 - 300)), bn[3] = n0 - 300; /* 300 cut from the start */
    memcpy(built[4], g0, (size_t)(n0 - 300)), bn[4] = n0 - 300;       /* 300 cut from the end */
    memcpy(built[5], g0, 700), rand_seq(built[5] + 700, 100, 0), memcpy(built[5] + 800, g0 + 700, (size_t)(n0 - 700)),
        bn[5] = n0 + 100; /* a 100-base insertion */
    memcpy(built[6], g0, (size_t)n0), bn[6] = n0;
    for (int i = 0; i < n0; i += 50) built[6][i] = 14; /* N every 50 */
    memcpy(built[7], g0, (size_t)n0), bn[7] = n0;
    memset(built[7] + 400, 14, 40); /* a run of 40 N */
    memcpy(built[8], g0 + 200, 5), bn[8] = 5;
    bn[9] = 0;
    bn[10] = mutate(g0, n0, built[10], 12);
    memcpy(built[11], g0 + 600, (size_t)(n0 - 600)), memcpy(built[11] + n0 - 600, g0, 600), bn[11] = n0; /* rotated */

    int band_bad[3] = {0, 0, 0}, bpairs = 0, prem_bad = 0, prem_n = 0, narrow_n = 0, narrow_bad = 0;
    int thm_bad = 0, thm_pruned[3] = {0, 0, 0}, thm_beyond[3] = {0, 0, 0};
    const double cuts[3] = {0.05, 0.10, 0.15};
    mnw_cpu_ws *ws = mnw_cpu_ws_new(), *wsa = mnw_cpu_ws_new();
    mnw_iddef idd = MNW_IDDEF_DEFAULT, idn;
    if (mnw_iddef_parse("needle", &idn)) abort();
    mnw_eqtab eqt, eqn;
    mnw_eqtab_of(&idd, &eqt);
    mnw_cpu_ws_figures(ws, &eqt);
    mnw_prune_plan pl[3], pn[3];
    for (int c = 0; c < 3; c++) {
        T_MUST(mnw_prune_plan_make(&idd, &lin, cuts[c], NULL, MNW_PRUNE_YES, &pl[c], &e), e);
        T_MUST(mnw_prune_plan_make(&idn, &lin, cuts[c], NULL, MNW_PRUNE_YES, &pn[c], &e), e);
    }
    mnw_eqtab_of(&idn, &eqn);
    int32_t *cen = malloc(2100 * sizeof(int32_t));
    const int NQ = G + 1; /* the 40 genes and gene 0 against the built pairs */
    for (int i = 0; i < NQ; i++) {
        const uint8_t *qa = i < G ? mnw_seq_codes(&S, (size_t)i) : g0;
        const int na = i < G ? (int)mnw_seq_len(&S, (size_t)i) : n0;
        const int nt = i < G ? i : 12;
        const uint8_t *tp[40];
        int tn[40];
        for (int j = 0; j < nt; j++) {
            tp[j] = i < G ? mnw_seq_codes(&S, (size_t)j) : built[j];
            tn[j] = i < G ? (int)mnw_seq_len(&S, (size_t)j) : bn[j];
        }
        if (nt == 0) continue;
        mnw_aln out[40], outa[40], outn[40];
        for (int j = 0; j < nt; j++) mnw_aln_init(&out[j]), mnw_aln_init(&outa[j]), mnw_aln_init(&outn[j]);
        mnw_cpu_align(ws, &lin, qa, na, tp, tn, nt, out);
        mnw_cpu_align(wsa, &aff, qa, na, tp, tn, nt, outa);
        int32_t ed[40], sgs[3][40];
        mnw_pedc_query(w, qa, na);
        mnw_pedc_ed(w, tp, tn, (size_t)nt, NULL, ed, isa_lo);
        for (int isa = isa_lo; isa < 3; isa++) /* the whole row at once (four pairs a kernel call with AVX-512) */
            mnw_pedc_bands(w, tp, tn, (size_t)nt, lin.match, lin.mismatch, lin.gap_open, isa, sgs[isa]);
        int32_t nar[40];
        const int have_narrow = mnw_pedc_narrow(w, tp, tn, (size_t)nt, lin.match, lin.mismatch, lin.gap_open, isa_lo, nar);
        for (int j = 0; j < nt; j++) {
            mnw_ped_guide(qa, na, tp[j], tn[j], cen);
            const int32_t ref = mnw_ped_band(qa, na, tp[j], tn[j], cen, lin.match, lin.mismatch, lin.gap_open);
            const int32_t refa = mnw_ped_band(qa, na, tp[j], tn[j], cen, aff.match, aff.mismatch, aff.gap_open);
            bpairs++;
            for (int isa = isa_lo; isa < 3; isa++) {
                if (sgs[isa][j] != ref) band_bad[isa]++;
                if (mnw_pedc_band(w, tp[j], tn[j], lin.match, lin.mismatch, lin.gap_open, isa) != ref) band_bad[isa]++;
                if (mnw_pedc_band(w, tp[j], tn[j], aff.match, aff.mismatch, aff.gap_open, isa) != refa) band_bad[isa]++;
            }
            if (have_narrow) { /* the first pass's narrow band: the reference's, and never above the wide one */
                const int32_t rn = mnw_ped_band_w(qa, na, tp[j], tn[j], cen, lin.match, lin.mismatch, lin.gap_open,
                                                  MNW_PED_NL, MNW_PED_NR);
                narrow_n++;
                if (nar[j] != rn || rn > ref) narrow_bad++;
            }
            prem_n += 2;
            if (ref > out[j].score) prem_bad++;
            if (refa > outa[j].score) prem_bad++;
            int amb = 0;
            for (int x = 0; x < na; x++) amb += qa[x] >= 4;
            for (int x = 0; x < tn[j]; x++) amb += tp[j][x] >= 4;
            const double dist = 1.0 - mnw_identity_fig(&idd, &out[j].fig, (size_t)na, (size_t)tn[j]);
            for (int c = 0; c < 3; c++) {
                const int64_t tau = mnw_prune_ed_tau(&pl[c], ref, amb, na, tn[j]);
                const int beyond = dist > cuts[c];
                thm_beyond[c] += beyond;
                if (ed[j] > tau) {
                    thm_pruned[c]++;
                    if (!beyond) {
                        thm_bad++;
                        printf("# vsearch2 at %g: pair %d/%d pruned (ED %d > tau %lld) at distance %.4f\n", cuts[c], i, j,
                               ed[j], (long long)tau, dist);
                    }
                }
            }
        }
        /* needle (M / L): ED > delta Lmin alone, in counts mode of needle's identity */
        mnw_cpu_ws_figures(wsa, &eqn);
        mnw_cpu_align(wsa, &lin, qa, na, tp, tn, nt, outn);
        mnw_cpu_ws_figures(wsa, NULL);
        for (int j = 0; j < nt; j++) {
            const double dist = 1.0 - mnw_identity_fig(&idn, &outn[j].fig, (size_t)na, (size_t)tn[j]);
            for (int c = 0; c < 3; c++)
                if (ed[j] > mnw_prune_ed_tau(&pn[c], 0, 0, na, tn[j]) && !(dist > cuts[c])) {
                    thm_bad++;
                    printf("# needle at %g: pair %d/%d pruned at distance %.4f\n", cuts[c], i, j, dist);
                }
        }
        for (int j = 0; j < nt; j++) mnw_aln_free(&out[j]), mnw_aln_free(&outa[j]), mnw_aln_free(&outn[j]);
    }
    /* random pairs for the band */
    {
        uint8_t a[900], b[1000];
        for (int it = 0; it < 200; it++) {
            int na = (int)rnd(900), nb = it % 2 ? mutate(a, na, b, 30) : (int)rnd(900);
            rand_seq(a, na, 20);
            if (it % 2 == 0) rand_seq(b, nb, 20);
            if (nb > 999) nb = 999;
            mnw_ped_guide(a, na, b, nb, cen);
            const int32_t ref = mnw_ped_band(a, na, b, nb, cen, lin.match, lin.mismatch, lin.gap_open);
            mnw_pedc_query(w, a, na);
            bpairs++;
            for (int isa = isa_lo; isa < 3; isa++)
                if (mnw_pedc_band(w, b, nb, lin.match, lin.mismatch, lin.gap_open, isa) != ref) band_bad[isa]++;
        }
    }
    for (int isa = isa_lo; isa < 3; isa++)
        T_OK(band_bad[isa] == 0,
             "mnw_pedc_band and mnw_pedc_bands (a row at once) (%s) = mnw_ped_band over mnw_ped_guide's centres on %d pairs (780 real, 12 built, 200 random; linear and affine) (%d differ)",
             ISA[isa], bpairs, band_bad[isa]);
    if (isa_lo == 0)
        T_OK(narrow_bad == 0 && narrow_n == 792,
             "mnw_pedc_narrow (avx512, 16 cells) = mnw_ped_band_w(8, 7) and <= the 32-cell band's score on %d real and built pairs (%d wrong)",
             narrow_n, narrow_bad);
    T_OK(prem_bad == 0 && prem_n > 1500, "the guided band's score <= the optimal score on %d real and built pairs, linear and affine (%d above)",
         prem_n, prem_bad);
    T_OK(thm_bad == 0 && thm_pruned[1] > 0,
         "Theorem 2 on %d real and built pairs: ED > tau only for pairs beyond the cutoff (vsearch2 pruned %d/%d beyond at 0.05, %d/%d at 0.10, %d/%d at 0.15; needle checked too; %d wrong)",
         bpairs - 200, thm_pruned[0], thm_beyond[0], thm_pruned[1], thm_beyond[1], thm_pruned[2], thm_beyond[2], thm_bad);
    free(cen);
    mnw_cpu_ws_free(ws);
    mnw_cpu_ws_free(wsa);
    mnw_pedc_free(w);
    mnw_seqset_free(&S);
    return t_exit();
}
