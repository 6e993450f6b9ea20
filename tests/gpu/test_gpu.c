/* test_gpu.c - the GPU aligner (workers/gpu) against the CPU aligner, pair
 * by pair: same score and same alignment (the one tie-break rule), in every
 * scoring mode, with device and host trace-back, on real 16S pairs
 * (tests/data/16s-200.fa) and on edge cases: lengths 1, 2, 31, 32, 33, 511,
 * 512, 513, 1024, 1025, 5000, very different lengths, all-N, ambiguity
 * codes, and an empty sequence (which the device must refuse, -1). Every
 * kernel: the automatic choice (which uses all three here) and each one
 * forced (DScan forced hands rows > 512 to TiledDScan), and score-only
 * (the benchmarks' mode) per kernel. Batches of 7 pairs force many batches
 * and both slots in flight; the default size puts everything in one.
 * Needs a GPU: run by `make test-gpu`.
 * MNW_GPU_TEST_SMALL=1: a few small pairs only (for compute-sanitizer).
 * MNW_GPU_TEST_MODE=k: scoring mode k of modes[] only (debugging).
 * Built with -DMNW_GPU_EMU (build/tests/test_gpu_emu, part of `make test`):
 * the same checks on the host emulation of the GPU code (tests/emu), with
 * fewer and shorter pairs, since warps run lane by lane there.
 *
 * The filter (issue 39, prune_checks): the device's figures (q-gram count,
 * ambiguity count, both band scores, P0; stage 2's guided band score SG,
 * ED and tau) and decision equal the CPU filter's (workers/cpu/prune_cpu.h,
 * MNW_PRUNEC_FULL) for every pair of real genes (tests/data/16s-200.fa) and
 * of pairs built at the bound, for vsearch2, needle, vsearch3,
 * mothur-onegap-noends and mothur-eachgap-noends, default, affine and
 * free-end-gap scoring (the plan made with --prune yes), cutoffs 0.01, 0.03,
 * 0.10 and 0.15 (stage 2 alone); the device's quick decision (pre-test, second band only where
 * needed) equals it too; small filter batches make many of them, both host
 * batches in turn. MNW_TEST_QUICK=1 or MNW_GPU_TEST_SMALL=1 (the sanitizer
 * runs, compute-sanitizer): 8 real genes beside the built pairs.
 * MNW_GPU_TEST_PRUNE_ONLY=1: the filter's checks only. */
#include <stdlib.h>
#include <string.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/prune.h"
#include "tests/tap.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/cpu/prune_cpu.h"
#include "workers/gpu/gpu.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static void add_rand(mnw_seqset *S, const char *id, int len, int amb, const uint8_t *rel, int rel_len)
{
    uint8_t *s = malloc((size_t)len + 1);
    for (int i = 0; i < len; i++) {
        if (rel && i < rel_len && rnd() % 100 < 85) s[i] = rel[i];
        else s[i] = (uint8_t)(rnd() % 4);
        if ((int)(rnd() % 100) < amb) s[i] = (uint8_t)(4 + rnd() % 11);
    }
    mnw_seqset_add(S, id, s, (size_t)len);
    free(s);
}

typedef struct {
    uint32_t i, j;
} pr;

static int same(const mnw_aln *a, const mnw_aln *b)
{
    return a->score == b->score && a->nops == b->nops && !memcmp(a->ops, b->ops, a->nops * sizeof *a->ops);
}

/* Runs every pair through device g in batches (filled until full, at most
 * two in flight, finished ones read and returned); got[x] gets pair x and
 * refused[x] is set for the pairs the device refuses. Returns how many it
 * refused, or -1 on a CUDA error. */
static int run_all(mnw_gpu *g, const pr *P, int np, mnw_aln *got, int *refused)
{
    enum { MAXB = 16 };
    mnw_err e;
    int next = 0, finished = 0, nref = 0;
    mnw_gpu_batch *cur = NULL, *bptr[MAXB] = {0};
    int *bidx[MAXB] = {0}, cur_slot = -1;
    while (finished + nref < np) {
        if (next < np && !cur && (cur = mnw_gpu_batch_get(g)) != NULL) {
            for (cur_slot = 0; bptr[cur_slot]; cur_slot++)
                if (cur_slot == MAXB - 1) abort();
            bptr[cur_slot] = cur;
            bidx[cur_slot] = malloc((size_t)np * sizeof(int));
        }
        int full = 0;
        while (cur && next < np && !full) {
            int r = mnw_gpu_batch_add(cur, P[next].i, P[next].j);
            if (r == 1) bidx[cur_slot][mnw_gpu_batch_count(cur) - 1] = next++;
            else if (r < 0) refused[next++] = 1, nref++;
            else full = 1;
        }
        if (cur && (full || next == np) && mnw_gpu_can_launch(g)) {
            if (mnw_gpu_launch(g, cur, &e)) {
                printf("# launch: %s\n", e.msg);
                return -1;
            }
            cur = NULL;
        }
        mnw_gpu_batch *done;
        int rc = mnw_gpu_poll(g, &done, &e);
        if (rc < 0) {
            printf("# poll: %s\n", e.msg);
            return -1;
        }
        if (rc == 1) {
            int k = 0;
            while (bptr[k] != done) k++;
            int cnt = mnw_gpu_batch_count(done);
            for (int x = 0; x < cnt; x++) mnw_gpu_batch_aln(done, x, &got[bidx[k][x]]);
            finished += cnt;
            free(bidx[k]);
            bptr[k] = NULL;
            mnw_gpu_batch_put(done);
        }
    }
    return nref;
}

/* Opens GPU 0 with o and runs every pair through it (run_all, after
 * clearing got and refused); *nref as run_all returns it. NULL (a failed
 * check printed) when the device does not open; else the caller closes it. */
static mnw_gpu *open_and_run(const mnw_seqset *S, const mnw_scoring *sc, const mnw_gpu_opts *o, const pr *P, int np,
                             mnw_aln *got, int *refused, int *nref)
{
    mnw_err e;
    mnw_gpu *g = mnw_gpu_open(0, S, sc, o, &e);
    if (!g) {
        T_OK(0, "open GPU 0: %s", e.msg);
        return NULL;
    }
    memset(refused, 0, (size_t)np * sizeof *refused);
    for (int x = 0; x < np; x++) mnw_aln_clear(&got[x]);
    *nref = run_all(g, P, np, got, refused);
    return g;
}

/* ---- the filter (issue 39) ---- */

/* Pairs at the bound (PRUNE.md; test_prune_cpu's set): from the first gene
 * of S without ambiguity codes; then the first nreal genes of S. */
static void build_bound(mnw_seqset *B, const mnw_seqset *S, int nreal)
{
    size_t gi = 0;
    for (size_t k = 0; k < S->n; k++) {
        const uint8_t *c = mnw_seq_codes(S, k);
        int amb = 0;
        for (size_t p = 0; p < mnw_seq_len(S, k); p++) amb += c[p] >= 4;
        if (!amb) {
            gi = k;
            break;
        }
    }
    const uint8_t *g = mnw_seq_codes(S, gi);
    const int gn = (int)mnw_seq_len(S, gi);
    uint8_t *buf = malloc((size_t)gn + 1000);
    mnw_seqset_add(B, "G", g, (size_t)gn);
    mnw_seqset_add(B, "G_copy", g, (size_t)gn);
    mnw_seqset_add(B, "G_core600", g + 300, 600); /* a perfect core between long terminal gaps */
    mnw_seqset_add(B, "G_short60", g + 500, 60);
    memcpy(buf, g, (size_t)gn);
    for (int p = 40; p < gn; p += 70) buf[p] = MNW_CODE_N;
    mnw_seqset_add(B, "G_N", buf, (size_t)gn);
    memcpy(buf, g, (size_t)gn);
    for (int p = 200; p < 230; p++) buf[p] = MNW_CODE_N;
    mnw_seqset_add(B, "G_Nrun30", buf, (size_t)gn);
    mnw_seqset_add(B, "P200", g + 100, 200);
    memcpy(buf, g + 100, 200);
    for (int k = 0; k < 6; k++) buf[rnd() % 200] = (uint8_t)((buf[k * 31] + 1 + rnd() % 3) % 4);
    mnw_seqset_add(B, "P200_3pct", buf, 200);
    memcpy(buf, g, (size_t)gn);
    for (int k = 0; k < gn / 50; k++) {
        const int p = (int)(rnd() % (uint32_t)gn);
        buf[p] = (uint8_t)((buf[p] + 1 + rnd() % 3) % 4);
    }
    mnw_seqset_add(B, "G_2pct", buf, (size_t)gn);
    memcpy(buf, g + 3, (size_t)gn - 3); /* three bases shorter at the start: the second band's centre */
    mnw_seqset_add(B, "G_cut3", buf, (size_t)gn - 3);
    static const uint8_t unit[13] = {0, 1, 2, 3, 3, 2, 1, 0, 0, 2, 2, 1, 3};
    for (int k = 0; k < 40; k++) memcpy(buf + 13 * k, unit, 13);
    mnw_seqset_add(B, "rep40", buf, 520);
    mnw_seqset_add(B, "rep33", buf, 429);
    mnw_seqset_add(B, "short5", g + 7, 5);
    mnw_seqset_add(B, "one", g + 9, 1);
    mnw_seqset_add(B, "empty", g, 0);
    memset(buf, MNW_CODE_N, 50);
    mnw_seqset_add(B, "N50", buf, 50);
    /* a 700-base core with L random bases before it, beside the core
     * alone (on both sides, so that each is the query once): the guided
     * band's path runs down column 0 for L rows, where the band's centre
     * stays near column 17 (its shift 0, column 0 brought in at P[0]) */
    mnw_seqset_add(B, "G700", g, 700);
    static const int pre[] = {20, 33, 47};
    for (size_t x = 0; x < sizeof pre / sizeof *pre; x++) {
        const int L = pre[x];
        char id[16];
        for (int k = 0; k < L; k++) buf[k] = (uint8_t)(rnd() % 4);
        memcpy(buf + L, g, 700);
        snprintf(id, sizeof id, "pre%d_G700", L);
        mnw_seqset_add(B, id, buf, (size_t)L + 700);
    }
    mnw_seqset_add(B, "G700_again", g, 700);
    for (int k = 0; k < nreal && (size_t)k < S->n; k++)
        mnw_seqset_add(B, mnw_seq_id(S, (size_t)k), mnw_seq_codes(S, (size_t)k), mnw_seq_len(S, (size_t)k));
    free(buf);
}

/* Every pair (i, j), j < i, of B through the device's filter (batches of
 * fb pairs); dec[x] the decisions, figs[x] the figures when the device
 * keeps them. -1 on a CUDA error. */
static int prune_all(mnw_gpu *g, const pr *P, int np, int fb, uint8_t *dec, mnw_gpu_pfig *figs)
{
    mnw_err e;
    int next = 0, done = 0, base[MNW_GPU_FBATCHES] = {0};
    mnw_gpu_fbatch *fill = NULL, *held[MNW_GPU_FBATCHES] = {NULL};
    while (done < np) {
        if (!fill && next < np && (fill = mnw_gpu_fbatch_get(g)) != NULL) {
            int h = 0;
            while (held[h]) h++;
            held[h] = fill;
            base[h] = next;
            while (next < np && mnw_gpu_fbatch_count(fill) < fb && mnw_gpu_fbatch_add(fill, P[next].i, P[next].j) == 1)
                next++;
        }
        if (fill && mnw_gpu_fbatch_can_launch(g)) {
            if (mnw_gpu_fbatch_launch(g, fill, &e)) {
                printf("# filter launch: %s\n", e.msg);
                return -1;
            }
            fill = NULL;
        }
        mnw_gpu_fbatch *d;
        const int rc = mnw_gpu_fbatch_poll(g, &d, &e);
        if (rc < 0) {
            printf("# filter poll: %s\n", e.msg);
            return -1;
        }
        if (rc == 1) {
            int h = 0;
            while (held[h] != d) h++;
            const int cnt = mnw_gpu_fbatch_count(d);
            memcpy(dec + base[h], mnw_gpu_fbatch_pruned(d), (size_t)cnt);
            if (figs) memcpy(figs + base[h], mnw_gpu_fbatch_figs(d), (size_t)cnt * sizeof *figs);
            done += cnt;
            held[h] = NULL;
            mnw_gpu_fbatch_put(d);
        }
    }
    return 0;
}

static void prune_checks(const mnw_seqset *S200, int nreal)
{
    mnw_seqset B;
    mnw_seqset_init(&B);
    build_bound(&B, S200, nreal);
    const int nb = (int)B.n, np = nb * (nb - 1) / 2;
    pr *P = malloc(sizeof(pr) * (size_t)np);
    int x = 0;
    for (int i = 1; i < nb; i++)
        for (int j = 0; j < i; j++) P[x++] = (pr){(uint32_t)i, (uint32_t)j};
    static const char *const defs[] = {"vsearch2", "needle", "vsearch3", "mothur-onegap-noends", "mothur-eachgap-noends"};
    static const mnw_scoring scs[] = {{4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, {4, -5, 12, 3, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, {4, -5, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}};
    static const char *const scn[] = {"default", "affine 12/3", "free end gaps"};
    static const double cuts[] = {0.01, 0.03, 0.10, 0.15};
    uint8_t *dec = malloc((size_t)np), *decq = malloc((size_t)np), *cpr = malloc((size_t)nb);
    mnw_gpu_pfig *gf = malloc(sizeof *gf * (size_t)np);
    mnw_prunec_fig *cf = malloc(sizeof *cf * (size_t)nb);
    const uint8_t **t = malloc(sizeof *t * (size_t)nb);
    int *tn = malloc(sizeof *tn * (size_t)nb);
    uint64_t all = 0, all_pruned = 0, banded = 0, all_ed = 0, all_pruned2 = 0;
    for (size_t di = 0; di < sizeof defs / sizeof *defs; di++)
        for (size_t si = 0; si < sizeof scs / sizeof *scs; si++)
            for (size_t ci = 0; ci < sizeof cuts / sizeof *cuts; ci++) {
                mnw_iddef d;
                mnw_prune_plan plan;
                mnw_err e;
                if (mnw_iddef_parse(defs[di], &d)) abort();
                if (mnw_prune_plan_make(&d, &scs[si], cuts[ci], NULL, MNW_PRUNE_YES, &plan, &e) || !plan.on) {
                    /* 0.15: only stage 2, which vsearch3, onegap and free end gaps (score) do not have */
                    T_OK(cuts[ci] > 0.12, "%s, %s, cutoff %.2f: the plan is on with --prune yes (%s)", defs[di],
                         scn[si], cuts[ci], e.msg);
                    continue;
                }
                /* the CPU's figures, every one */
                mnw_prunec *f = mnw_prunec_new(&plan, &scs[si]);
                mnw_prunec_flags(f, MNW_PRUNEC_FULL);
                mnw_gpu *g[2];
                int bad_open = 0;
                for (int q = 0; q < 2; q++) { /* q 0: with figures (every one); 1: the quick decision */
                    mnw_gpu_opts o;
                    mnw_gpu_opts_default(&o);
                    o.rscan_rows = MNW_GPU_RSCAN_ROWS;
                    o.mem_frac = 0.02;
                    o.prune = &plan;
                    o.prune_pairs = q ? 97 : 4096;
                    o.prune_figs = !q;
                    g[q] = mnw_gpu_open(0, &B, &scs[si], &o, &e);
                    if (!g[q]) {
                        T_OK(0, "open GPU 0 with the filter: %s", e.msg);
                        bad_open = 1;
                    }
                }
                int rc = bad_open ? -1 : prune_all(g[0], P, np, 4096, dec, gf);
                if (rc == 0) rc = prune_all(g[1], P, np, 97, decq, NULL);
                uint64_t bad_sh = 0, bad_amb = 0, bad_band = 0, bad_p0 = 0, bad_dec = 0, bad_q = 0, npr = 0, bad_ed = 0;
                int shown = 0;
                for (int i = 1, xx = 0; rc == 0 && i < nb; i++) {
                    for (int j = 0; j < i; j++) {
                        t[j] = mnw_seq_codes(&B, (size_t)j);
                        tn[j] = (int)mnw_seq_len(&B, (size_t)j);
                    }
                    mnw_prunec_query(f, mnw_seq_codes(&B, (size_t)i), (int)mnw_seq_len(&B, (size_t)i));
                    mnw_prunec_run(f, t, tn, (size_t)i, cpr, cf);
                    for (int j = 0; j < i; j++, xx++) {
                        const mnw_gpu_pfig *G = &gf[xx];
                        const mnw_prunec_fig *C = &cf[j];
                        bad_sh += G->shared != C->shared;
                        bad_amb += G->amb != C->amb;
                        bad_band += G->s0 != C->s0 || G->s1 != C->s1;
                        bad_p0 += G->p0 != C->p0;
                        bad_ed += G->sg != C->sg || G->ed != C->ed || G->tau != C->tau;
                        all_ed += C->ed != MNW_PRUNEC_NONE;
                        bad_dec += G->pruned != C->pruned || dec[xx] != cpr[j];
                        bad_q += decq[xx] != cpr[j];
                        npr += cpr[j];
                        banded += C->s0 != MNW_PRUNEC_NONE;
                        if ((G->shared != C->shared || G->amb != C->amb || G->s0 != C->s0 || G->s1 != C->s1 ||
                             G->p0 != C->p0 || G->sg != C->sg || G->ed != C->ed || G->tau != C->tau ||
                             dec[xx] != cpr[j] || decq[xx] != cpr[j]) &&
                            shown++ < 3)
                            printf("#   %s x %s: gpu shared %d amb %d s0 %d s1 %d p0 %lld sg %d ed %d tau %lld pruned "
                                   "%d/%d; cpu %d %d %d %d %lld %d %d %lld %d\n",
                                   mnw_seq_id(&B, (size_t)i), mnw_seq_id(&B, (size_t)j), G->shared, G->amb, G->s0,
                                   G->s1, (long long)G->p0, G->sg, G->ed, (long long)G->tau, dec[xx], decq[xx],
                                   C->shared, C->amb, C->s0, C->s1, (long long)C->p0, C->sg, C->ed, (long long)C->tau,
                                   cpr[j]);
                    }
                }
                mnw_gpu_stats st;
                if (rc == 0) mnw_gpu_get_stats(g[1], &st);
                T_OK(rc == 0 && !bad_sh && !bad_amb && !bad_band && !bad_p0 && !bad_ed && !bad_dec && !bad_q,
                     "%s, %s, cutoff %.2f (stages:%s%s): %d pairs, %llu pruned: the device's q-gram count (%llu "
                     "differ), ambiguity count (%llu), band scores (%llu), P0 (%llu), stage 2's SG, ED and tau (%llu), "
                     "decision (%llu) are the CPU filter's; its quick decision too (%llu)",
                     defs[di], scn[si], cuts[ci], plan.qgram ? " q-gram" : "", plan.ed ? " ED" : "", np,
                     (unsigned long long)npr, (unsigned long long)bad_sh, (unsigned long long)bad_amb,
                     (unsigned long long)bad_band, (unsigned long long)bad_p0, (unsigned long long)bad_ed,
                     (unsigned long long)bad_dec, (unsigned long long)bad_q);
                if (rc == 0) all_pruned2 += st.fpruned2;
                if (rc == 0)
                    T_OK(st.fpairs == (uint64_t)np && st.fpruned == npr && st.fbatches == (uint64_t)(np + 96) / 97 &&
                             st.fpruned2 <= st.fpruned && (plan.ed || st.fpruned2 == 0),
                         "%s, %s, cutoff %.2f: the device's filter totals (%llu pairs, %llu pruned, %llu batches)",
                         defs[di], scn[si], cuts[ci], (unsigned long long)st.fpairs, (unsigned long long)st.fpruned,
                         (unsigned long long)st.fbatches);
                all += (uint64_t)np;
                all_pruned += npr;
                for (int q = 0; q < 2; q++) mnw_gpu_close(g[q]);
                mnw_prunec_free(f);
            }
    { /* a plan that is off (vsearch0: no bound proven, refused): the device does not filter */
        mnw_iddef d;
        mnw_prune_plan plan;
        mnw_err e;
        const mnw_scoring sc = MNW_SCORING_DEFAULT;
        if (mnw_iddef_parse("vsearch0", &d)) abort();
        const int refused = mnw_prune_plan_make(&d, &sc, 0.03, NULL, MNW_PRUNE_YES, &plan, &e) != 0;
        mnw_gpu_opts o;
        mnw_gpu_opts_default(&o);
        o.rscan_rows = MNW_GPU_RSCAN_ROWS;
        o.mem_frac = 0.02;
        o.prune = &plan;
        mnw_gpu *g = mnw_gpu_open(0, &B, &sc, &o, &e);
        T_OK(refused && !plan.on && g && !mnw_gpu_prunes(g) && !mnw_gpu_fbatch_get(g),
             "vsearch0 at 0.03: no plan (%s): the device opened with it does not filter", plan.why);
        mnw_gpu_close(g);
    }
    /* the checks above must have met both outcomes and the band */
    T_OK(all_pruned > 0 && all_pruned < all && banded > 0 && all_ed > 0 && all_pruned2 > 0,
         "the filter checks met pruned and kept pairs (%llu of %llu pruned), banded ones (%llu), stage 2's ED (%llu) "
         "and pairs only stage 2 pruned (%llu)",
         (unsigned long long)all_pruned, (unsigned long long)all, (unsigned long long)banded,
         (unsigned long long)all_ed, (unsigned long long)all_pruned2);
    free(dec);
    free(decq);
    free(cpr);
    free(gf);
    free(cf);
    free(t);
    free(tn);
    free(P);
    mnw_seqset_free(&B);
}

int main(void)
{
    const char *why = NULL;
    int ndev = mnw_gpu_count(&why);
    T_OK(ndev > 0, "a CUDA device is visible (%s)", ndev > 0 ? mnw_gpu_build() : why);
    if (ndev <= 0) return t_exit();
#ifdef MNW_GPU_EMU
    const int emu = 1;
#else
    const int emu = 0;
#endif
    const int small = getenv("MNW_GPU_TEST_SMALL") != NULL;
    const int only = getenv("MNW_GPU_TEST_MODE") ? atoi(getenv("MNW_GPU_TEST_MODE")) : -1;
    const int quick = getenv("MNW_TEST_QUICK") && atoi(getenv("MNW_TEST_QUICK"));
    { /* the filter (issue 39) on real genes and pairs at the bound */
        mnw_seqset R;
        mnw_seqset_init(&R);
        mnw_err re;
        if (mnw_fasta_read("tests/data/16s-200.fa", &R, &re)) {
            printf("# %s\n", re.msg);
            return 1;
        }
        prune_checks(&R, small || quick ? 8 : emu ? 40 : 120);
        mnw_seqset_free(&R);
        if (getenv("MNW_GPU_TEST_PRUNE_ONLY")) return t_exit();
    }

    mnw_seqset S;
    mnw_seqset_init(&S);
    mnw_err e;
    int nreal = 0;
    if (!small) {
        if (mnw_fasta_read("tests/data/16s-200.fa", &S, &e)) {
            printf("# %s\n", e.msg);
            return 1;
        }
        nreal = emu ? 3 : 36; /* emu: 3 pairs of real genes (each 1,500 x 1,500 cells, lane by lane) */
    }
    const size_t first_edge = S.n;
    const int lens_gpu[] = {1, 2, 31, 32, 33, 511, 512, 513, 1024, 1025, 5000};
    const int lens_emu[] = {1, 2, 31, 32, 33, 129, 511, 512, 513, 1025};
    const int *lens = emu ? lens_emu : lens_gpu;
    int nl = emu ? (int)(sizeof lens_emu / sizeof *lens_emu) : (int)(sizeof lens_gpu / sizeof *lens_gpu);
    if (small) nl = 5;
    uint8_t *base = malloc(5000);
    for (int k = 0; k < 5000; k++) base[k] = (uint8_t)(rnd() % 4);
    for (int k = 0; k < nl; k++) {
        char id[32];
        snprintf(id, sizeof id, "len%d", lens[k]);
        add_rand(&S, id, lens[k], k % 3 == 0 ? 2 : 0, base, 5000);
    }
    uint8_t nn[700];
    memset(nn, MNW_CODE_N, sizeof nn);
    mnw_seqset_add(&S, "allN40", nn, 40);
    mnw_seqset_add(&S, "allN700", nn, small ? 70 : 700);
    add_rand(&S, "amb30", small ? 60 : 300, 30, base, 300);
    mnw_seqset_add(&S, "empty", nn, 0);
    const size_t nseq = S.n;

    /* pairs: all among the first nreal real genes, every edge pair (both
     * orders), real x edge */
    pr *P = malloc(sizeof(pr) * 20000);
    int np = 0;
    for (int i = 1; i < nreal; i++)
        for (int j = 0; j < i; j++) P[np++] = (pr){(uint32_t)i, (uint32_t)j};
    for (size_t i = first_edge; i < nseq; i++)
        for (size_t j = first_edge; j < nseq; j++) P[np++] = (pr){(uint32_t)i, (uint32_t)j};
    for (int r = 0; r < nreal; r += 7)
        for (size_t j = first_edge; j < nseq; j++) {
            P[np++] = (pr){(uint32_t)r, (uint32_t)j};
            P[np++] = (pr){(uint32_t)j, (uint32_t)r};
        }

    /* the last two: at the two-per-lane bound (docs/GPU.md, gpu_dev.cu's
     * fits16): linear 4 (48 L) + 2 <= 32767 with L = max(match, 0) + 2 gap =
     * 170; affine 4 (T + 48 L) + 2 = 31,690 with L = 80 + 40 + 2 20, T = 3 40 +
     * 80 + 2 20 + 2 */
    const mnw_scoring modes[] = {{4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},    {4, -5, 12, 3, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},
                                 {4, -5, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},    {4, -5, 12, 3, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},
                                 {2, -3, 5, 2, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},      {1, -1, 2, 2, 1, MNW_TIE_MOTHUR, MNW_AMB_MOTHUR, 0, 0, 0, 0},
                                 {4, -5, 10, 10, 0, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 0, 0, 0, 0}, {2, -3, 5, 2, 1, MNW_TIE_MOTHUR, MNW_AMB_MOTHUR, 0, 0, 0, 0},
                                 {150, -9, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},
                                 {80, -30, 60, 20, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},  {80, -30, 70, 21, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}};
    const char *mname[] = {"linear",          "affine",
                           "free-end-gaps",   "affine+free-end-gaps",
                           "affine 2/-3/5/2", "--like mothur (1/-1/2, free end gaps, mothur's ambiguity and tie rules)",
                           "mothur's tie rule, linear 4/-5/10",
                           "affine 2/-3/5/2, free end gaps, D before I, mothur's ambiguity rule",
                           "free-end-gaps 150/-9/10 (16-bit bound)",
                           "affine 80/-30/60/20 (16-bit bound)", "affine 80/-30/70/21 (past the bound: 32-bit lanes)"};
    const size_t bound = 8; /* the modes from here: at the two-per-lane bound */
    const size_t past = 10; /* 4 (T + 48 L) + 2 = 33,918 */
    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    mnw_aln *ref = calloc((size_t)np, sizeof *ref), *got = calloc((size_t)np, sizeof *got);
    int *refused = calloc((size_t)np, sizeof *refused);
    for (int x = 0; x < np; x++) {
        mnw_aln_init(&ref[x]);
        mnw_aln_init(&got[x]);
    }
    for (size_t mi = 0; mi < sizeof modes / sizeof *modes; mi++) {
        if (only >= 0 && (int)mi != only) continue;
#ifdef MNW_GPU_EMU
        if (mi == 6 && only < 0) continue; /* mothur's rule at 4/-5/10: the device's test (CI time; mode 5 has the rule) */
#endif
        const mnw_scoring *sc = &modes[mi];
        for (int x = 0; x < np; x++) {
            const uint8_t *t = mnw_seq_codes(&S, P[x].j);
            int n = (int)mnw_seq_len(&S, P[x].j);
            mnw_cpu_align(ws, sc, mnw_seq_codes(&S, P[x].i), (int)mnw_seq_len(&S, P[x].i), &t, &n, 1, &ref[x]);
        }
        for (int kern = MNW_GPU_KERNEL_AUTO; kern <= MNW_GPU_KERNEL_TILED; kern++)
        for (int tbdev = 1; tbdev >= 0; tbdev--)
            for (int bs = 0; bs < 3; bs++) {
                /* bs 1: batches of 7 */
                if (kern != MNW_GPU_KERNEL_AUTO && bs == 1) continue;
                /* bs 2: 32-bit lanes (the two-per-lane kernels' baseline) */
                if (bs == 2 && (kern == MNW_GPU_KERNEL_RSCAN || !tbdev)) continue;
                if (mi >= bound && (bs || !tbdev)) continue; /* the bounds: device trace-back, two per lane */
                mnw_gpu_opts o;
                mnw_gpu_opts_default(&o);
                o.rscan_rows = MNW_GPU_RSCAN_ROWS; /* the rule: every kernel gets pairs */
                o.traceback_device = tbdev;
                o.max_pairs = bs == 1 ? 7 : 65536;
                o.kernel = kern;
                o.two_per_lane = bs != 2;
                if (small) o.mem_frac = 0.05;
                int nref;
                mnw_gpu *g = open_and_run(&S, sc, &o, P, np, got, refused, &nref);
                if (!g) continue;
                int bad = 0, badref = 0, first = -1;
                for (int x = 0; x < np; x++) {
                    int empty = mnw_seq_len(&S, P[x].i) == 0 || mnw_seq_len(&S, P[x].j) == 0;
                    if (refused[x] != empty) badref++;
                    if (!refused[x] && !same(&got[x], &ref[x])) {
                        if (first < 0) first = x;
                        bad++;
                    }
                }
                mnw_gpu_stats st;
                mnw_gpu_get_stats(g, &st);
                T_OK(nref >= 0 && bad == 0,
                     "%s, %s, %s trace-back, batches of %d, %s: %d pairs equal the CPU's (%d differ%s%s)", mname[mi],
                     mnw_gpu_kernel_name(g), tbdev ? "device" : "host", o.max_pairs,
                     o.two_per_lane ? "two pairs per lane where it can" : "32-bit lanes", np - (nref > 0 ? nref : 0),
                     bad, first >= 0 ? ", first: " : "", first >= 0 ? mnw_seq_id(&S, P[first].i) : "");
                for (int x = first, shown = 0; x >= 0 && x < np && shown < 3; x++)
                    if (!refused[x] && !same(&got[x], &ref[x])) {
                        printf("#   pair %s (%zu) x %s (%zu): cpu score %d, gpu %d\n", mnw_seq_id(&S, P[x].i),
                               mnw_seq_len(&S, P[x].i), mnw_seq_id(&S, P[x].j), mnw_seq_len(&S, P[x].j),
                               ref[x].score, got[x].score);
                        shown++;
                    }
                T_OK(badref == 0, "%s: exactly the pairs with an empty sequence are refused (%d wrong)", mname[mi],
                     badref);
                if (bs == 1 && !small)
                    T_OK(st.batches > 2, "batches of 7 pairs: %llu batches ran", (unsigned long long)st.batches);
                if (kern != MNW_GPU_KERNEL_RSCAN && !small)
                    T_OK(o.two_per_lane && mi != past ? st.pairs2 > st.pairs / 4 : st.pairs2 == 0,
                         "%s: %llu of %llu pairs two per lane", o.two_per_lane && mi != past ? "two per lane" : "32-bit lanes",
                         (unsigned long long)st.pairs2, (unsigned long long)st.pairs);
                if (kern == MNW_GPU_KERNEL_AUTO && !small && bs == 0 && tbdev)
                    T_OK(st.kpairs[0] && st.kpairs[1] && st.kpairs[2],
                         "auto: every kernel took pairs (rscan %llu, dscan %llu, tileddscan %llu)",
                         (unsigned long long)st.kpairs[0], (unsigned long long)st.kpairs[1],
                         (unsigned long long)st.kpairs[2]);
                if (kern == MNW_GPU_KERNEL_RSCAN || kern == MNW_GPU_KERNEL_TILED)
                    T_OK(st.kpairs[kern] == st.pairs, "forced %s took all %llu pairs", mnw_gpu_kernel_str(kern),
                         (unsigned long long)st.pairs);
                mnw_gpu_close(g);
            }
        /* the default: AUTO's RScan limit measured when the device opens
         * (one of the lengths it tries, stated in the kernel line); the
         * results stay the CPU's whichever kernel each pair got */
        if (mi == 0 || mi == 1) {
            mnw_gpu_opts o;
            mnw_gpu_opts_default(&o);
            if (small) o.mem_frac = 0.05;
            int nref;
            mnw_gpu *g = open_and_run(&S, sc, &o, P, np, got, refused, &nref);
            if (g) {
                int bad = 0, lim = -1;
                for (int x = 0; x < np; x++)
                    if (!refused[x] && !same(&got[x], &ref[x])) bad++;
                const char *kn = mnw_gpu_kernel_name(g);
                const int parsed = sscanf(kn, "rscan for rows <= %d (measured; rscan / dscan time per cell at rows 32:",
                                          &lim) == 1 &&
                                   strstr(kn, "(measured; rscan / dscan time per cell at rows 32: ") != NULL;
                T_OK(parsed && lim >= 0 && lim <= 512 && lim % 32 == 0,
                     "%s: the RScan limit measured at open, one of the lengths tried (%s)", mname[mi], kn);
                T_OK(nref >= 0 && bad == 0, "%s, measured choice: %d pairs equal the CPU's (%d differ)", mname[mi],
                     np - (nref > 0 ? nref : 0), bad);
                mnw_gpu_close(g);
            }
        }
        /* score-only (benchmarks): the CPU's scores, no runs */
        for (int kern = MNW_GPU_KERNEL_RSCAN; kern <= MNW_GPU_KERNEL_TILED; kern++) {
            mnw_gpu_opts o;
            mnw_gpu_opts_default(&o);
            o.rscan_rows = MNW_GPU_RSCAN_ROWS;
            o.kernel = kern;
            o.score_only = 1;
            if (small) o.mem_frac = 0.05;
            int nref, bad = 0;
            mnw_gpu *g = open_and_run(&S, sc, &o, P, np, got, refused, &nref);
            if (!g) continue;
            for (int x = 0; x < np; x++)
                if (!refused[x] && (got[x].score != ref[x].score || got[x].nops != 0)) bad++;
            T_OK(nref >= 0 && bad == 0, "%s, %s score-only: the CPU's scores (%d differ)", mname[mi],
                 mnw_gpu_kernel_name(g), bad);
            for (int x = 0, shown = 0; x < np && shown < 3; x++)
                if (!refused[x] && (got[x].score != ref[x].score || got[x].nops != 0)) {
                    printf("#   pair %s (%zu) x %s (%zu): cpu score %d, gpu %d\n", mnw_seq_id(&S, P[x].i),
                           mnw_seq_len(&S, P[x].i), mnw_seq_id(&S, P[x].j), mnw_seq_len(&S, P[x].j),
                           ref[x].score, got[x].score);
                    shown++;
                }
            mnw_gpu_close(g);
        }
    }
    for (int x = 0; x < np; x++) {
        mnw_aln_free(&ref[x]);
        mnw_aln_free(&got[x]);
    }
    free(ref);
    free(got);
    free(refused);
    free(P);
    free(base);
    mnw_cpu_ws_free(ws);
    mnw_seqset_free(&S);
    return t_exit();
}
