/* test_prune_cpu.c - the CPU filter (workers/cpu/prune_cpu.h) and its use by
 * the workers (worklist.c, the trace-back thread):
 *   1. its figures against plain scalar restatements written here (the
 *      q-gram count with a table per sequence and min(); the ambiguity
 *      count; the band DP cell by cell over the set of cells the header
 *      states, every exit tried; the decision through lib/prune with every
 *      figure), on real genes (16s-200, the RDP gold sample, 16s-500) and
 *      pairs built at the bound, for every band kernel (AVX-512BW, AVX2,
 *      plain x86-64; 16- and 32-bit lanes) the CPU has; the quick decision
 *      (pre-test, second band only when needed) equals the one with every
 *      figure;
 *   2. "pruned => distance > cutoff" against the full DP (mnw_cpu_align,
 *      lib/identity as the outputs compute it) for every definition whose
 *      bound is proven, four scoring modes (default, affine 12/2, free end
 *      gaps with --prune yes, +2/-3/gap 5) and cutoffs 0, 0.01, 0.03, 0.05,
 *      0.10, on the built pairs, a random mutation series across D and real
 *      genes; every band score <= the optimal score;
 *   3. mnw_wl_align and mnw_wl_submit (a real trace-back thread) with the
 *      plan on: every kept pair's alignment identical to the plan-off run,
 *      pruned only where the distance > D, the result bytes identical, the
 *      cells those of the aligned pairs only, and the yield path.
 * MNW_TEST_QUICK=1 (tests/san/run.sh, under the sanitizers, where the DP
 * costs 10-20 times as much): part 2 on the built pairs and the mutation
 * series in default and free-end-gap scoring, part 3 in one setting;
 * every kind of check still runs.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/prune.h"
#include "tests/tap.h"
#include "workers/cpu/cpu_worker.h"
#include "workers/cpu/nw_cpu.h"
#include "lib/prune_ed.h"
#include "workers/cpu/prune_cpu.h"
#include "workers/cpu/worklist.h"
#include "workers/tb/tb_thread.h"

#define NWORDS (1 << (2 * MNW_PRUNE_Q))
#define KW (2 * MNW_PRUNE_W + 1)

/* ---- the scalar restatements ---- */

static uint16_t *ca_, *cb_;

static void words(const uint8_t *s, int n, uint16_t *cnt, int add)
{
    for (int p = 0; p + MNW_PRUNE_Q <= n; p++) {
        uint32_t v = 0;
        int ok = 1;
        for (int k = 0; k < MNW_PRUNE_Q && ok; k++) {
            if (s[p + k] >= 4) ok = 0;
            v = v * 4 + s[p + k];
        }
        if (ok) cnt[v] = (uint16_t)(cnt[v] + add);
    }
}

static int32_t ref_shared(const uint8_t *a, int na, const uint8_t *b, int nb)
{
    words(a, na, ca_, 1);
    words(b, nb, cb_, 1);
    int32_t sh = 0;
    for (int p = 0; p + MNW_PRUNE_Q <= na; p++) { /* each word of a once: min(count in a, count in b) */
        uint32_t v = 0;
        int ok = 1;
        for (int k = 0; k < MNW_PRUNE_Q && ok; k++) {
            if (a[p + k] >= 4) ok = 0;
            v = v * 4 + a[p + k];
        }
        if (!ok || !ca_[v]) continue;
        sh += ca_[v] < cb_[v] ? ca_[v] : cb_[v];
        ca_[v] = 0;
    }
    words(b, nb, cb_, -1); /* back to 0 (ca_ is already) */
    return sh;
}

static int32_t ref_amb(const uint8_t *s, int n)
{
    int32_t k = 0;
    for (int p = 0; p < n; p++) k += s[p] >= 4;
    return k;
}

#define RNEG (INT64_MIN / 4)
/* H over A = band cells + row 0 + column 0; the best over every exit */
static int64_t ref_band(const mnw_scoring *sc, int g, const uint8_t *a, int m, const uint8_t *b, int n, int centre)
{
    const int off = centre - MNW_PRUNE_W;
    int64_t *prev = malloc(KW * sizeof *prev), *cur = malloc(KW * sizeof *cur);
#define HGET(row, r, c)                                                                                            \
    ((c) < 0 || (c) > n ? RNEG                                                                                     \
     : (r) == 0         ? -(int64_t)g * (c)                                                                        \
     : (c) == 0         ? -(int64_t)g * (r)                                                                        \
     : ((c) - (r)-off >= 0 && (c) - (r)-off < KW) ? row[(c) - (r)-off]                                             \
                                                  : RNEG)
    int64_t best = -(int64_t)g * (m + n); /* the all-gap path; (0, n) and (m, 0) are in A */
    for (int k = 0; k < KW; k++) prev[k] = RNEG; /* row 0 is read through HGET's r == 0 */
    for (int r = 1; r <= m; r++) {
        for (int k = 0; k < KW; k++) {
            int c = r + off + k;
            if (c < 1 || c > n) {
                cur[k] = RNEG;
                continue;
            }
            int64_t d = HGET(prev, r - 1, c - 1);
            if (d > RNEG) d += mnw_sub(sc, a[r - 1], b[c - 1]);
            int64_t u = HGET(prev, r - 1, c), f = HGET(cur, r, c - 1);
            int64_t h = d;
            if (u > RNEG && u - g > h) h = u - g;
            if (f > RNEG && f - g > h) h = f - g;
            cur[k] = h;
        }
        int64_t hn = HGET(cur, r, n);
        if (hn > RNEG && hn - (int64_t)g * (m - r) > best) best = hn - (int64_t)g * (m - r);
        if (r == m)
            for (int c = 0; c <= n; c++) {
                int64_t h = HGET(cur, r, c);
                if (h > RNEG && h - (int64_t)g * (n - c) > best) best = h - (int64_t)g * (n - c);
            }
        int64_t *t = prev;
        prev = cur;
        cur = t;
    }
    if (m == 0)
        for (int c = 0; c <= n; c++) {
            int64_t h = -(int64_t)g * c;
            if (h - (int64_t)g * (n - c) > best) best = h - (int64_t)g * (n - c);
        }
#undef HGET
    free(prev);
    free(cur);
    return best;
}

/* ---- sets ---- */

static mnw_seqset S200, GOLD, S500, BOUND, SERIES;

static uint32_t rng = 39;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

static void add(mnw_seqset *s, const char *id, const uint8_t *c, size_t n) { mnw_seqset_add(s, id, c, n); }

static void mutate(uint8_t *s, int n, int k)
{
    for (int x = 0; x < k; x++) {
        int p = (int)rnd((uint32_t)n);
        s[p] = (uint8_t)((s[p] + 1 + rnd(3)) % 4);
    }
}

/* Pairs at the bound (PRUNE.md, t_bench's set) from gene G of 16s-200,
 * and the first 14 real genes. */
static void build_bound(void)
{
    mnw_seqset_init(&BOUND);
    size_t gi = 0;
    for (size_t k = 0; k < S200.n; k++)
        if (ref_amb(mnw_seq_codes(&S200, k), (int)mnw_seq_len(&S200, k)) == 0) {
            gi = k;
            break;
        }
    const uint8_t *g = mnw_seq_codes(&S200, gi);
    int gn = (int)mnw_seq_len(&S200, gi);
    for (size_t k = 0; k < 14; k++) add(&BOUND, mnw_seq_id(&S200, k), mnw_seq_codes(&S200, k), mnw_seq_len(&S200, k));
    uint8_t *buf = malloc((size_t)gn * 2 + 1000);
    add(&BOUND, "G", g, (size_t)gn);
    add(&BOUND, "G_copy", g, (size_t)gn);
    add(&BOUND, "G_core600", g + 300, 600); /* a perfect core between long terminal gaps */
    add(&BOUND, "G_short60", g + 500, 60);  /* a 60-base piece of the gene */
    memcpy(buf, g, (size_t)gn);
    for (int p = 40; p < gn; p += 70) buf[p] = 14; /* N */
    add(&BOUND, "G_N", buf, (size_t)gn);
    memcpy(buf, g, (size_t)gn);
    for (int p = 200; p < 230; p++) buf[p] = 14; /* a run of N */
    add(&BOUND, "G_Nrun30", buf, (size_t)gn);
    add(&BOUND, "P200", g + 100, 200);
    memcpy(buf, g + 100, 200);
    mutate(buf, 200, 6); /* at most 6 substitutions: distance <= 0.03 */
    add(&BOUND, "P200_3pct", buf, 200);
    memcpy(buf, g, (size_t)gn);
    mutate(buf, gn, gn / 50);
    add(&BOUND, "G_2pct", buf, (size_t)gn);
    static const uint8_t unit[13] = {0, 1, 2, 3, 3, 2, 1, 0, 0, 2, 2, 1, 3}; /* ACGTTGCAAGGCT */
    for (int k = 0; k < 40; k++) memcpy(buf + 13 * k, unit, 13);
    add(&BOUND, "rep40", buf, 520);
    add(&BOUND, "rep33", buf, 429);
    add(&BOUND, "short5", g + 7, 5); /* shorter than q */
    add(&BOUND, "one", g + 9, 1);
    add(&BOUND, "empty", g, 0);
    uint8_t nn[50];
    memset(nn, 14, sizeof nn);
    add(&BOUND, "N50", nn, 50);
    free(buf);
}

/* 24 copies of one gene with 0-8% substitutions and 1-3 base indels, cut by
 * 0-80 bases at either end, some N */
static void build_series(void)
{
    mnw_seqset_init(&SERIES);
    size_t gi = 20;
    while (ref_amb(mnw_seq_codes(&S200, gi), (int)mnw_seq_len(&S200, gi))) gi++;
    const uint8_t *g = mnw_seq_codes(&S200, gi);
    int gn = (int)mnw_seq_len(&S200, gi);
    uint8_t *s = malloc((size_t)gn * 2), *t = malloc((size_t)gn * 2);
    for (int k = 0; k < 24; k++) {
        memcpy(s, g, (size_t)gn);
        int n = gn;
        int edits = (int)(0.08 * k / 23 * gn);
        for (int e = 0; e < edits; e++) {
            int p = (int)rnd((uint32_t)n), r = (int)rnd(100), l = 1 + (int)rnd(3);
            if (r < 70) s[p] = (uint8_t)((s[p] + 1 + rnd(3)) % 4);
            else if (r < 85) {
                if (p + l > n) l = n - p;
                memmove(s + p, s + p + l, (size_t)(n - p - l));
                n -= l;
            } else {
                memmove(s + p + l, s + p, (size_t)(n - p));
                for (int x = 0; x < l; x++) s[p + x] = (uint8_t)rnd(4);
                n += l;
            }
        }
        if (k % 5 == 4) s[rnd((uint32_t)n)] = 14;
        int c0 = (int)rnd(81), c1 = (int)rnd(81);
        memcpy(t, s + c0, (size_t)(n - c0 - c1));
        char id[16];
        snprintf(id, sizeof id, "m%02d", k);
        add(&SERIES, id, t, (size_t)(n - c0 - c1));
    }
    free(s);
    free(t);
}

/* ---- 1. figures ---- */

static mnw_prune_plan plan_of(const char *def, const mnw_scoring *sc, double cutoff)
{
    mnw_iddef d;
    mnw_prune_plan p;
    mnw_err e;
    if (mnw_iddef_parse(def, &d)) abort();
    if (mnw_prune_plan_make(&d, sc, cutoff, NULL, MNW_PRUNE_YES, &p, &e)) {
        printf("# %s\n", e.msg);
        memset(&p, 0, sizeof p);
    }
    return p;
}

/* rows lo..hi-1 of set s (each against every j < i): figures against the
 * restatements, quick = full decision */
static void check_figs(const char *what, const mnw_seqset *s, size_t lo, size_t hi, const mnw_prune_plan *p,
                       const mnw_scoring *sc, int flags)
{
    mnw_prunec *f = mnw_prunec_new(p, sc), *fq = mnw_prunec_new(p, sc);
    mnw_prunec_flags(f, MNW_PRUNEC_FULL | flags);
    mnw_prunec_flags(fq, flags);
    const uint8_t **t = malloc(s->n * sizeof *t);
    int *n = malloc(s->n * sizeof *n);
    uint8_t *pr = malloc(s->n), *prq = malloc(s->n);
    mnw_prunec_fig *fg = malloc(s->n * sizeof *fg), *fgq = malloc(s->n * sizeof *fgq);
    uint64_t pairs = 0, bad_sh = 0, bad_amb = 0, bad_band = 0, bad_dec = 0, bad_quick = 0, npr = 0, bad_ed = 0;
    int32_t *cen = malloc((s->max_len + 1) * sizeof *cen);
    for (size_t i = lo; i < hi && i < s->n; i++) {
        const uint8_t *a = mnw_seq_codes(s, i);
        int na = (int)mnw_seq_len(s, i);
        for (size_t j = 0; j < i; j++) {
            t[j] = mnw_seq_codes(s, j);
            n[j] = (int)mnw_seq_len(s, j);
        }
        mnw_prunec_query(f, a, na);
        mnw_prunec_query(fq, a, na);
        size_t c1 = mnw_prunec_run(f, t, n, i, pr, fg);
        size_t c2 = mnw_prunec_run(fq, t, n, i, prq, fgq);
        if (c1 != c2) bad_quick++;
        for (size_t j = 0; j < i; j++) {
            pairs++;
            int32_t sh = ref_shared(a, na, t[j], n[j]), amb = ref_amb(a, na) + ref_amb(t[j], n[j]);
            bad_sh += fg[j].shared != sh || fgq[j].shared != sh;
            bad_amb += fg[j].amb != amb || fgq[j].amb != amb;
            int dec;
            if (p->use_score) {
                int64_t s0 = ref_band(sc, p->band_gap, a, na, t[j], n[j], 0);
                int64_t s1 = ref_band(sc, p->band_gap, a, na, t[j], n[j], n[j] - na);
                if (fg[j].s0 != s0 || fg[j].s1 != s1) {
                    if (bad_band < 3)
                        printf("# %s: pair (%zu, %zu) lengths %d %d: band %d %d, restated %lld %lld\n", what, i, j,
                               na, n[j], fg[j].s0, fg[j].s1, (long long)s0, (long long)s1);
                    bad_band++;
                }
                int64_t p0 = mnw_prune_p0(p, s0 > s1 ? s0 : s1, na, n[j]);
                dec = mnw_prune_test(p, sh, amb, na, n[j], p0);
            } else {
                dec = mnw_prune_test(p, sh, amb, na, n[j], mnw_prune_p0_len(p, na, n[j]));
            }
            if (p->ed) { /* stage 2: lib/prune_ed.c's reference figures, the decision ED > tau */
                int32_t sg = MNW_PRUNEC_NONE;
                if (!p->ed_len) {
                    mnw_ped_guide(a, na, t[j], n[j], cen);
                    sg = mnw_ped_band(a, na, t[j], n[j], cen, sc->match, sc->mismatch, p->band_gap);
                }
                const int32_t ed = mnw_ped_ed(a, na, t[j], n[j]);
                const int64_t tau = mnw_prune_ed_tau(p, sg, amb, na, n[j]);
                if (fg[j].sg != sg || fg[j].ed != ed || fg[j].tau != tau) {
                    if (bad_ed < 3)
                        printf("# %s: pair (%zu, %zu): stage 2 figures sg %d ed %d tau %lld, restated %d %d %lld\n", what, i,
                               j, fg[j].sg, fg[j].ed, (long long)fg[j].tau, sg, ed, (long long)tau);
                    bad_ed++;
                }
                dec = dec || ed > tau;
            }
            bad_dec += pr[j] != dec || fg[j].pruned != dec;
            bad_quick += prq[j] != pr[j] || fgq[j].pruned != prq[j];
            npr += pr[j];
        }
    }
    T_OK(bad_sh == 0 && bad_amb == 0 && bad_band == 0 && bad_dec == 0 && bad_quick == 0 && bad_ed == 0,
         "%s (band %s): %llu pairs, %llu pruned: q-gram count (%llu differ), ambiguity count (%llu), both band "
         "scores (%llu), stage 2's guided band, ED and tau (%llu), decision (%llu) equal the restatements; quick "
         "decision = every-figure decision (%llu differ)",
         what, mnw_prunec_isa(f), (unsigned long long)pairs, (unsigned long long)npr, (unsigned long long)bad_sh,
         (unsigned long long)bad_amb, (unsigned long long)bad_band, (unsigned long long)bad_ed,
         (unsigned long long)bad_dec, (unsigned long long)bad_quick);
    free(cen);
    free(t);
    free(n);
    free(pr);
    free(prq);
    free(fg);
    free(fgq);
    mnw_prunec_free(f);
    mnw_prunec_free(fq);
}

/* ---- 2. pruned => beyond, against the DP ---- */

static const char *const DEFS[] = {"vsearch1",      "vsearch2",       "vsearch3",
                                   "vsearch4",      "needle",         "mothur-onegap",
                                   "mothur-eachgap", "mothur-onegap-noends", "mothur-eachgap-noends"};
#define NDEFS (sizeof DEFS / sizeof *DEFS)
static const double CUTS[] = {0.0, 0.01, 0.03, 0.05, 0.10, 0.15}; /* 0.15: stage 2 alone */
#define NCUTS (sizeof CUTS / sizeof *CUTS)

typedef struct {
    uint64_t pairs, within, pruned, bad, band_bad;
} sound_tot;

static void check_sound(const char *what, const mnw_seqset *s, const mnw_scoring *sc, sound_tot *tot)
{
    const uint64_t np = s->n * (s->n - 1) / 2;
    int32_t *score = malloc(np * sizeof *score);
    double *dist = malloc(np * NDEFS * sizeof *dist);
    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    mnw_aln *out = malloc(s->n * sizeof *out);
    for (size_t k = 0; k < s->n; k++) mnw_aln_init(&out[k]);
    const uint8_t **t = malloc(s->n * sizeof *t);
    int *n = malloc(s->n * sizeof *n);
    mnw_iddef d[NDEFS];
    for (size_t k = 0; k < NDEFS; k++)
        if (mnw_iddef_parse(DEFS[k], &d[k])) abort();
    for (size_t i = 1; i < s->n; i++) {
        for (size_t j = 0; j < i; j++) {
            t[j] = mnw_seq_codes(s, j);
            n[j] = (int)mnw_seq_len(s, j);
        }
        const uint8_t *a = mnw_seq_codes(s, i);
        size_t na = mnw_seq_len(s, i);
        mnw_cpu_align(ws, sc, a, (int)na, t, n, (int)i, out);
        for (size_t j = 0; j < i; j++) {
            uint64_t k = i * (i - 1) / 2 + j;
            score[k] = out[j].score;
            for (size_t x = 0; x < NDEFS; x++)
                dist[k * NDEFS + x] = 1.0 - mnw_identity(&d[x], out[j].ops, out[j].nops, a, na, t[j], (size_t)n[j]);
        }
    }
    uint8_t *pr = malloc(s->n);
    mnw_prunec_fig *fg = malloc(s->n * sizeof *fg);
    /* the band scores (every pair, both bands) <= the optimal score */
    {
        mnw_prune_plan p = plan_of("vsearch2", sc, 0.03);
        p.on = 1; /* the band's settings come from the scoring whatever the gate says */
        mnw_prunec *f = mnw_prunec_new(&p, sc);
        mnw_prunec_flags(f, MNW_PRUNEC_FULL);
        uint64_t bad = 0;
        for (size_t i = 1; i < s->n; i++) {
            for (size_t j = 0; j < i; j++) {
                t[j] = mnw_seq_codes(s, j);
                n[j] = (int)mnw_seq_len(s, j);
            }
            mnw_prunec_query(f, mnw_seq_codes(s, i), (int)mnw_seq_len(s, i));
            mnw_prunec_run(f, t, n, i, pr, fg);
            for (size_t j = 0; j < i; j++) {
                int32_t opt = score[i * (i - 1) / 2 + j];
                if (fg[j].s0 > opt || fg[j].s1 > opt || (fg[j].sg != MNW_PRUNEC_NONE && fg[j].sg > opt)) {
                    if (bad < 3)
                        printf("# %s: pair (%zu, %zu): band %d %d guided %d above the optimal score %d\n", what, i, j,
                               fg[j].s0, fg[j].s1, fg[j].sg, opt);
                    bad++;
                }
            }
        }
        tot->band_bad += bad;
        mnw_prunec_free(f);
    }
    for (size_t x = 0; x < NDEFS; x++)
        for (size_t c = 0; c < NCUTS; c++) {
            mnw_prune_plan p = plan_of(DEFS[x], sc, CUTS[c]);
            if (!p.on) continue;
            mnw_prunec *f = mnw_prunec_new(&p, sc);
            for (size_t i = 1; i < s->n; i++) {
                for (size_t j = 0; j < i; j++) {
                    t[j] = mnw_seq_codes(s, j);
                    n[j] = (int)mnw_seq_len(s, j);
                }
                mnw_prunec_query(f, mnw_seq_codes(s, i), (int)mnw_seq_len(s, i));
                mnw_prunec_run(f, t, n, i, pr, NULL);
                for (size_t j = 0; j < i; j++) {
                    double dd = dist[(i * (i - 1) / 2 + j) * NDEFS + x];
                    int in = !(dd > CUTS[c]);
                    tot->pairs++;
                    tot->within += (uint64_t)in;
                    tot->pruned += pr[j];
                    if (pr[j] && in) {
                        if (tot->bad < 5)
                            printf("# %s: %s at %g: pair %s %s pruned, distance %.6f\n", what, DEFS[x], CUTS[c],
                                   mnw_seq_id(s, i), mnw_seq_id(s, j), dd);
                        tot->bad++;
                    }
                }
            }
            mnw_prunec_free(f);
        }
    for (size_t k = 0; k < s->n; k++) mnw_aln_free(&out[k]);
    free(out);
    free(t);
    free(n);
    free(pr);
    free(fg);
    free(score);
    free(dist);
    mnw_cpu_ws_free(ws);
}

/* the first k sequences of s */
static void head(mnw_seqset *dst, const mnw_seqset *s, size_t k)
{
    mnw_seqset_init(dst);
    for (size_t x = 0; x < k && x < s->n; x++) add(dst, mnw_seq_id(s, x), mnw_seq_codes(s, x), mnw_seq_len(s, x));
}

/* ---- 3. the workers ---- */

static int same_aln(const mnw_aln *x, const mnw_aln *y)
{
    if (x->pruned || y->pruned) return x->pruned == y->pruned;
    if (x->score != y->score || x->nops != y->nops || x->has_fig != y->has_fig) return 0;
    if (x->has_fig) return !memcmp(&x->fig, &y->fig, sizeof x->fig);
    return x->nops == 0 || !memcmp(x->ops, y->ops, x->nops * sizeof *x->ops);
}

static int same_result(const mnw_result *a, const mnw_result *b)
{
    if (!a || !b || a->r.k0 != b->r.k0 || a->r.count != b->r.count) return 0;
    for (int o = 0; o < MNW_NOUT; o++)
        if (a->data[o].len != b->data[o].len || (a->data[o].len && memcmp(a->data[o].p, b->data[o].p, a->data[o].len)))
            return 0;
    return 1;
}

typedef struct {
    pthread_mutex_t mu;
    mnw_result *got[8];
    mnw_range rs[8];
    int nr, errors;
} sink;

static void deliver(void *ctx, mnw_result *res, const mnw_err *e)
{
    (void)e;
    sink *s = ctx;
    CHECK_PT(pthread_mutex_lock(&s->mu));
    if (!res) s->errors++;
    else {
        int k = 0;
        while (k < s->nr && s->rs[k].k0 != res->r.k0) k++;
        if (k < s->nr && !s->got[k]) s->got[k] = res;
        else {
            s->errors++;
            mnw_result_free(res);
        }
    }
    CHECK_PT(pthread_mutex_unlock(&s->mu));
}

static int yields;
static int count_yield(void *ctx)
{
    (void)ctx;
    yields++;
    return 0;
}

static void check_workers(const mnw_scoring *sc, const char *def, double cutoff, int counts)
{
    mnw_iddef d;
    if (mnw_iddef_parse(def, &d)) abort();
    mnw_outspec spec = {&S200, d, cutoff, 0, {0}, MNW_CUTOFF_SCOPE_DIST, {0, {0}}, 0};
    spec.enabled[MNW_OUT_DIST] = 1;
    spec.enabled[MNW_OUT_DISTPLAIN] = 1;
    mnw_eqtab eqt;
    mnw_eqtab_of(&d, &eqt);
    mnw_prune_plan plan = plan_of(def, sc, cutoff);
    mnw_job_spec off = {&spec, sc, 6, counts ? &eqt : NULL, NULL};
    mnw_job_spec on = {&spec, sc, 6, counts ? &eqt : NULL, &plan};
    const mnw_range rs[4] = {{0, 1}, {100, 333}, {5000, 600}, {19900 - 400, 400}};
    const int nr = 4;
    mnw_cpu_worker w0, w1;
    mnw_cpu_worker_init(&w0, &off);
    mnw_cpu_worker_init(&w1, &on);
    int bad_aln = 0, bad_prune = 0, bad_res = 0, bad_cells = 0, bad_tb = 0;
    uint64_t pruned = 0, pairs = 0;
    mnw_result *ref[4];
    mnw_err e;
    for (int k = 0; k < nr; k++) {
        mnw_range r = rs[k];
        mnw_aln *a0 = calloc(r.count, sizeof *a0), *a1 = calloc(r.count, sizeof *a1);
        uint64_t c0 = mnw_wl_align(&w0.scratch, &S200, sc, r, a0);
        uint64_t c1 = mnw_wl_align(&w1.scratch, &S200, sc, r, a1);
        uint64_t want = 0;
        uint64_t i, j;
        mnw_pair_ij(r.k0, &i, &j);
        for (uint64_t x = 0; x < r.count; x++) {
            pairs++;
            const uint8_t *ca = mnw_seq_codes(&S200, i), *cb = mnw_seq_codes(&S200, j);
            size_t na = mnw_seq_len(&S200, i), nb = mnw_seq_len(&S200, j);
            double id = a0[x].has_fig ? mnw_identity_fig(&d, &a0[x].fig, na, nb)
                                      : mnw_identity(&d, a0[x].ops, a0[x].nops, ca, na, cb, nb);
            if (a1[x].pruned) {
                pruned++;
                bad_prune += !(1.0 - id > cutoff);
            } else {
                bad_aln += !same_aln(&a0[x], &a1[x]);
                want += (uint64_t)na * nb;
            }
            if (++j == i) {
                i++;
                j = 0;
            }
        }
        bad_cells += c1 != want;
        mnw_result *r0 = mnw_result_build(&off, r, a0, c0, w0.text, &e);
        mnw_result *r1 = mnw_result_build(&on, r, a1, c1, w1.text, &e);
        bad_res += !same_result(r0, r1);
        ref[k] = r1;
        mnw_result_free(r0);
        for (uint64_t x = 0; x < r.count; x++) {
            mnw_aln_free(&a0[x]);
            mnw_aln_free(&a1[x]);
        }
        free(a0);
        free(a1);
    }
    /* the yielding worker: the same alignments */
    w1.scratch.yield = count_yield;
    yields = 0;
    mnw_result *ry = mnw_cpu_worker_run(&w1, rs[3], &e);
    int bad_yield = !same_result(ry, ref[3]);
    mnw_result_free(ry);
    w1.scratch.yield = NULL;
    /* the trace-back thread */
    sink s;
    memset(&s, 0, sizeof s);
    CHECK_PT(pthread_mutex_init(&s.mu, NULL));
    s.nr = nr;
    memcpy(s.rs, rs, sizeof rs);
    mnw_tb *tb = mnw_tb_start(&on, 4 * MNW_TB_BATCH_BYTES, deliver, &s, &e);
    for (int k = 0; k < nr && tb; k++)
        if (mnw_cpu_worker_run_tb(&w1, rs[k], tb, &e)) bad_tb++;
    mnw_tb_stats st;
    if (tb) mnw_tb_stop(tb, &st);
    for (int k = 0; k < nr; k++) {
        bad_tb += !same_result(s.got[k], ref[k]);
        if (s.got[k]) bad_cells += s.got[k]->cells != ref[k]->cells || s.got[k]->pruned != ref[k]->pruned;
        mnw_result_free(s.got[k]);
        mnw_result_free(ref[k]);
    }
    bad_tb += s.errors;
    CHECK_PT(pthread_mutex_destroy(&s.mu));
    T_OK(plan.on && bad_aln == 0 && bad_prune == 0 && bad_res == 0 && bad_cells == 0 && bad_tb == 0 &&
             bad_yield == 0 && yields > 0,
         "workers, %s at %g, %s, %s: %llu pairs in 4 lists, %llu pruned only beyond the cutoff (%d not), kept "
         "alignments equal the plan-off run's (%d differ), dist outputs byte-identical (%d differ), cells of the "
         "aligned pairs only (%d), yielding worker (%d yields) and trace-back thread the same bytes (%d, %d differ)",
         def, cutoff, sc->gap_open != sc->gap_extend ? "affine" : "linear", counts ? "counts mode" : "runs",
         (unsigned long long)pairs, (unsigned long long)pruned, bad_prune, bad_aln, bad_res, bad_cells, yields,
         bad_yield, bad_tb);
    mnw_cpu_worker_free(&w0);
    mnw_cpu_worker_free(&w1);
}

int main(void)
{
    mnw_err e;
    ca_ = calloc(NWORDS, sizeof *ca_);
    cb_ = calloc(NWORDS, sizeof *cb_);
    mnw_seqset_init(&S200);
    mnw_seqset_init(&GOLD);
    mnw_seqset_init(&S500);
    T_MUST(mnw_fasta_read("tests/data/16s-200.fa", &S200, &e), e);
    T_MUST(mnw_fasta_read("tests/data/gold-sample.fa.gz", &GOLD, &e), e);
    T_MUST(mnw_fasta_read("data/16s-500.fa.gz", &S500, &e), e);
    if (S200.n < 200 || GOLD.n < 60 || S500.n < 60) return t_exit();
    build_bound();
    build_series();
    const char *qe = getenv("MNW_TEST_QUICK");
    const int quick = qe && *qe && strcmp(qe, "0");
    if (quick) printf("# MNW_TEST_QUICK: part 2 on the built pairs and the series, default and free end gaps; part 3 once\n");
    const mnw_scoring def = MNW_SCORING_DEFAULT;
    const mnw_scoring modes[4] = {{4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, {4, -5, 12, 2, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, {4, -5, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, {2, -3, 5, 5, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}};
    const char *mname[4] = {"default", "affine 12/2", "free end gaps", "+2/-3/gap 5"};

    double t0 = mnw_now();
    /* 1. figures */
    mnw_prune_plan p3 = plan_of("vsearch2", &def, 0.03);
    check_figs("16s-200 rows 150-160, vsearch2 0.03", &S200, 150, quick ? 152 : 160, &p3, &def, 0);
    check_figs("built at the bound, vsearch2 0.03", &BOUND, 1, BOUND.n, &p3, &def, 0);
    check_figs("built at the bound, vsearch2 0.03, 32-bit lanes", &BOUND, 1, BOUND.n, &p3, &def, MNW_PRUNEC_WIDE);
    check_figs("mutation series, vsearch2 0.05", &SERIES, 1, SERIES.n, &p3, &def, 0);
    if (__builtin_cpu_supports("avx2"))
        check_figs("gold rows 40-48, vsearch2 0.03", &GOLD, 40, 48, &p3, &def, MNW_PRUNEC_AVX2);
    check_figs("gold rows 40-48, vsearch2 0.03", &GOLD, 40, 48, &p3, &def, MNW_PRUNEC_BASE);
    check_figs("16s-500 rows 300-306, 32-bit lanes", &S500, 300, quick ? 302 : 306, &p3, &def, MNW_PRUNEC_WIDE);
    mnw_prune_plan pa = plan_of("vsearch2", &modes[1], 0.03), pl = plan_of("needle", &def, 0.05),
                   pm = plan_of("mothur-onegap-noends", &modes[3], 0.01), pv3 = plan_of("vsearch3", &def, 0.03);
    check_figs("built at the bound, affine 12/2", &BOUND, 1, BOUND.n, &pa, &modes[1], 0);
    check_figs("built at the bound, needle 0.05 (the length bound)", &BOUND, 1, BOUND.n, &pl, &def, 0);
    check_figs("mutation series, mothur-onegap-noends 0.01, +2/-3/gap 5", &SERIES, 1, SERIES.n, &pm, &modes[3], 0);
    check_figs("mutation series, vsearch3 0.03", &SERIES, 1, SERIES.n, &pv3, &def, 0);
    {   /* a score range that needs 32-bit lanes (mismatch -1000) */
        mnw_scoring big = {1000, -1000, 1000, 1000, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0};
        mnw_prune_plan pb = plan_of("vsearch2", &big, 0.03);
        int f16 = mnw_prunec_fits16(&big, 1000, 1500, 1500, 0);
        T_OK(!f16 && mnw_prunec_fits16(&def, 10, 1500, 1500, 0) && mnw_prunec_fits16(&def, 10, 1500, 1100, -400),
             "16-bit lanes: not for +1000/-1000/gap 1000 at 1,500 x 1,500, yes for the default scoring (centre 0 "
             "and -400)");
        check_figs("16s-200 rows 60-64, +1000/-1000/gap 1000 (32-bit lanes by the bound)", &S200, 60, 64, &pb, &big,
                   0);
    }

    printf("# figures: %.1f s\n", mnw_now() - t0);
    t0 = mnw_now();
    /* 2. pruned => beyond */
    mnw_seqset r200, rgold, r500;
    head(&r200, &S200, 20);
    head(&rgold, &GOLD, 16);
    head(&r500, &S500, 16);
    const mnw_seqset *sets[5] = {&BOUND, &SERIES, &r200, &rgold, &r500};
    const char *sname[5] = {"built at the bound", "mutation series", "16s-200 (20)", "gold (16)", "16s-500 (16)"};
    for (int m = 0; m < 4; m++) {
        if (quick && (m == 1 || m == 3)) continue;
        sound_tot tot = {0};
        for (int k = 0; k < (quick ? 2 : 5); k++) check_sound(sname[k], sets[k], &modes[m], &tot);
        T_OK(tot.bad == 0 && tot.band_bad == 0 && tot.pruned > 0 && tot.within > 0,
             "%s: every definition with a bound x cutoffs 0..0.15 on the sets (%llu decisions, %llu within): "
             "%llu pruned, none within the cutoff (%llu); every band score (the guided band's too) <= the optimal score (%llu above)",
             mname[m], (unsigned long long)tot.pairs, (unsigned long long)tot.within, (unsigned long long)tot.pruned,
             (unsigned long long)tot.bad, (unsigned long long)tot.band_bad);
    }

    printf("# pruned => beyond: %.1f s\n", mnw_now() - t0);
    t0 = mnw_now();
    /* 3. workers */
    check_workers(&def, "vsearch2", 0.03, 1);
    if (!quick) {
        check_workers(&modes[1], "mothur-onegap", 0.05, 0);
        check_workers(&def, "needle", 0.10, 1);
    }

    printf("# workers: %.1f s\n", mnw_now() - t0);
    mnw_seqset_free(&r200);
    mnw_seqset_free(&rgold);
    mnw_seqset_free(&r500);
    mnw_seqset_free(&BOUND);
    mnw_seqset_free(&SERIES);
    mnw_seqset_free(&S200);
    mnw_seqset_free(&GOLD);
    mnw_seqset_free(&S500);
    free(ca_);
    free(cb_);
    return t_exit();
}
