/* bench_prune.c - the CPU filter's own cost (issue 39, workers/cpu/prune_cpu.h):
 * for a FASTA and one or more cutoffs, the filter alone on every pair of the
 * first N genes (q-gram count, bands and decisions timed apart), and the DP
 * (mnw_cpu_align in counts mode, as a `--outputs dist` run aligns) on the
 * last rows' pairs in the same run; prints pairs/s, ns/pair, the fraction
 * pruned, the ratio DP / filter per pair and the would-be speed-up
 * (DP on every pair) / (filter on every pair + DP on the kept ones).
 *
 * Usage: bench_prune FASTA [--cutoff D]... [--genes N] [--iddef NAME]
 *                    [--dp-pairs N] [--threads T] [--no-ed]
 *   --cutoff D    (repeatable; default 0.03 and 0.10)
 *   --genes N     the first N genes (default all)
 *   --iddef NAME  identity definition (default vsearch2); default scoring
 *   --dp-pairs N  pairs the DP is timed on (the last rows; default 20000)
 *   --threads T   filter threads (rows dealt round-robin; default 1): the
 *                 wall time and pairs/s of all of them, the ns/pair figures
 *                 are per thread (CPU time of the filter calls)
 *   --no-ed       the q-gram stage alone (stage 2 taken out of the plan);
 *                 by default the run's plan, with stage 2 (the
 *                 edit-distance bound) where it is used, timed apart
 *                 (guides and guided bands, ED)
 * Exit 0, or 2 (usage, input).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/prune.h"
#include "lib/util.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/cpu/prune_cpu.h"

static mnw_seqset S;
static int NG;

typedef struct {
    const mnw_prune_plan *p;
    const mnw_scoring *sc;
    int tid, nth;
    uint64_t pruned, pairs;
    mnw_prunec_stats st;
} job;

static void *filter_rows(void *arg)
{
    job *jb = arg;
    mnw_prunec *f = mnw_prunec_new(jb->p, jb->sc);
    mnw_prunec_flags(f, MNW_PRUNEC_TIME);
    const uint8_t **t = mnw_xmalloc((size_t)NG * sizeof *t);
    int *n = mnw_xmalloc((size_t)NG * sizeof *n);
    uint8_t *pr = mnw_xmalloc((size_t)NG);
    for (int i = 0; i < NG; i++) {
        t[i] = mnw_seq_codes(&S, (size_t)i);
        n[i] = (int)mnw_seq_len(&S, (size_t)i);
    }
    for (int i = 1 + jb->tid; i < NG; i += jb->nth) {
        mnw_prunec_query(f, t[i], n[i]);
        jb->pruned += mnw_prunec_run(f, t, n, (size_t)i, pr, NULL);
        jb->pairs += (uint64_t)i;
    }
    mnw_prunec_get_stats(f, &jb->st);
    mnw_prunec_free(f);
    free(t);
    free(n);
    free(pr);
    return NULL;
}

static int cmp_len(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    size_t la = mnw_seq_len(&S, (size_t)a), lb = mnw_seq_len(&S, (size_t)b);
    if (la != lb) return la < lb ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void usage(void)
{
    fprintf(stderr, "usage: bench_prune FASTA [--cutoff D]... [--genes N] [--iddef NAME] [--dp-pairs N] [--threads T]\n");
    exit(2);
}

static long num(const char *s, long lo, long hi, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) {
        fprintf(stderr, "bench_prune: %s: '%s' is not an integer in [%ld, %ld]\n", what, s, lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *idname = "vsearch2";
    double cuts[16];
    int ncut = 0, threads = 1, no_ed = 0;
    long genes = -1, dp_pairs = 20000;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--cutoff") && k + 1 < argc) {
            char *end;
            double d = strtod(argv[++k], &end);
            if (*end || !(d >= 0.0 && d < 1.0) || ncut == 16) {
                fprintf(stderr, "bench_prune: --cutoff: '%s' is not a number in [0, 1) (16 at most)\n", argv[k]);
                return 2;
            }
            cuts[ncut++] = d;
        } else if (!strcmp(argv[k], "--genes") && k + 1 < argc) genes = num(argv[++k], 2, 100000000, "--genes");
        else if (!strcmp(argv[k], "--dp-pairs") && k + 1 < argc) dp_pairs = num(argv[++k], 1, 1000000000, "--dp-pairs");
        else if (!strcmp(argv[k], "--threads") && k + 1 < argc) threads = (int)num(argv[++k], 1, 256, "--threads");
        else if (!strcmp(argv[k], "--no-ed")) no_ed = 1;
        else if (!strcmp(argv[k], "--iddef") && k + 1 < argc) idname = argv[++k];
        else if (argv[k][0] != '-' && !path) path = argv[k];
        else usage();
    }
    if (!path) usage();
    if (!ncut) {
        cuts[ncut++] = 0.03;
        cuts[ncut++] = 0.10;
    }
    mnw_iddef d;
    if (mnw_iddef_parse(idname, &d)) {
        fprintf(stderr, "bench_prune: --iddef: unknown definition '%s' (%s)\n", idname, mnw_iddef_names_help);
        return 2;
    }
    mnw_err e;
    mnw_seqset_init(&S);
    if (mnw_fasta_read(path, &S, &e)) {
        fprintf(stderr, "bench_prune: %s\n", e.msg);
        return 2;
    }
    NG = (int)S.n;
    if (genes > 0 && genes < NG) NG = (int)genes;
    if (NG < 2) {
        fprintf(stderr, "bench_prune: %s: %d sequences, need 2\n", path, NG);
        return 2;
    }
    const mnw_scoring sc = MNW_SCORING_DEFAULT;
    const uint64_t npairs = (uint64_t)NG * (uint64_t)(NG - 1) / 2;

    /* the DP on the last rows' pairs (sorted by length, as the workers do) */
    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    mnw_eqtab eqt;
    mnw_eqtab_of(&d, &eqt);
    mnw_cpu_ws_figures(ws, &eqt);
    int *order = mnw_xmalloc((size_t)NG * sizeof *order);
    const uint8_t **tp = mnw_xmalloc((size_t)NG * sizeof *tp);
    int *tn = mnw_xmalloc((size_t)NG * sizeof *tn);
    mnw_aln *out = mnw_xmalloc((size_t)NG * sizeof *out);
    for (int k = 0; k < NG; k++) mnw_aln_init(&out[k]);
    int ilo = NG;
    uint64_t acc = 0;
    while (ilo > 1 && acc < (uint64_t)dp_pairs) acc += (uint64_t)(--ilo);
    double tdp = 0.0;
    for (int i = ilo; i < NG; i++) {
        for (int j = 0; j < i; j++) order[j] = j;
        qsort(order, (size_t)i, sizeof *order, cmp_len);
        for (int k = 0; k < i; k++) {
            tp[k] = mnw_seq_codes(&S, (size_t)order[k]);
            tn[k] = (int)mnw_seq_len(&S, (size_t)order[k]);
        }
        double t0 = mnw_now();
        mnw_cpu_align(ws, &sc, mnw_seq_codes(&S, (size_t)i), (int)mnw_seq_len(&S, (size_t)i), tp, tn, i, out);
        tdp += mnw_now() - t0;
    }
    const double dp_ns = 1e9 * tdp / (double)acc;

    printf("bench_prune: %s, %d genes, %llu pairs, --iddef %s, scoring +%d/%d/gap %d, q %d, band half-width %d, "
           "%d filter thread%s\n",
           path, NG, (unsigned long long)npairs, idname, sc.match, sc.mismatch, sc.gap_open, MNW_PRUNE_Q, MNW_PRUNE_W,
           threads, threads > 1 ? "s" : "");
    printf("dp: %.0f ns/pair (%llu pairs of the last rows, mnw_cpu_align counts mode, isa %s, one thread)\n", dp_ns,
           (unsigned long long)acc, mnw_cpu_isa());
    for (int c = 0; c < ncut; c++) {
        mnw_prune_plan p;
        if (mnw_prune_plan_make(&d, &sc, cuts[c], NULL, MNW_PRUNE_YES, &p, &e)) {
            printf("cutoff %g: filter off: %s\n", cuts[c], e.msg);
            continue;
        }
        if (no_ed && !p.qgram) {
            printf("cutoff %g: filter off: --no-ed, and the q-gram bound is not used at this cutoff\n", cuts[c]);
            continue;
        }
        if (no_ed) p.ed = 0;
        job *jb = mnw_xcalloc((size_t)threads, sizeof *jb);
        pthread_t *th = mnw_xmalloc((size_t)threads * sizeof *th);
        double t0 = mnw_now();
        for (int k = 0; k < threads; k++) {
            jb[k] = (job){&p, &sc, k, threads, 0, 0, {0}};
            CHECK_PT(pthread_create(&th[k], NULL, filter_rows, &jb[k]));
        }
        for (int k = 0; k < threads; k++) CHECK_PT(pthread_join(th[k], NULL));
        const double wall = mnw_now() - t0;
        uint64_t pruned = 0, pairs = 0, b0 = 0, b1 = 0, e0 = 0, e1 = 0, e2 = 0;
        double tc = 0.0, tb = 0.0, tg = 0.0, te = 0.0;
        for (int k = 0; k < threads; k++) {
            pruned += jb[k].pruned;
            pairs += jb[k].pairs;
            b0 += jb[k].st.band0;
            b1 += jb[k].st.band1;
            tc += jb[k].st.t_count;
            tb += jb[k].st.t_band;
            tg += jb[k].st.t_guided;
            te += jb[k].st.t_ed;
            e0 += jb[k].st.ed_pairs;
            e1 += jb[k].st.ed_runs;
            e2 += jb[k].st.ed_pruned;
        }
        const double fns = 1e9 * (tc + tb + tg + te) / (double)pairs;
        printf("cutoff %g: plan %s\n", cuts[c], p.why);
        printf("cutoff %g: pairs %llu, pruned %llu (%.2f%%), band around diagonal 0 on %llu, around nb - na on %llu\n",
               cuts[c], (unsigned long long)pairs, (unsigned long long)pruned, 100.0 * (double)pruned / (double)pairs,
               (unsigned long long)b0, (unsigned long long)b1);
        printf("cutoff %g: filter %.0f ns/pair (q-gram count %.0f, bands and decisions %.0f ns/pair over all pairs; "
               "%.0f ns per banded pair), %.0f pairs/s (wall %.3f s)\n",
               cuts[c], fns, 1e9 * tc / (double)pairs, 1e9 * tb / (double)pairs, b0 ? 1e9 * tb / (double)b0 : 0.0,
               (double)pairs / wall, wall);
        if (p.ed)
            printf("cutoff %g: edit-distance stage on %llu pairs (ED computed on %llu, the lengths decided the rest), "
                   "pruned %llu; guides and guided bands %.0f, ED %.0f ns/pair over all pairs (%.0f, %.0f ns per "
                   "pair of the stage)\n",
                   cuts[c], (unsigned long long)e0, (unsigned long long)e1, (unsigned long long)e2,
                   1e9 * tg / (double)pairs, 1e9 * te / (double)pairs, e0 ? 1e9 * tg / (double)e0 : 0.0,
                   e0 ? 1e9 * te / (double)e0 : 0.0);
        const double full = dp_ns * (double)pairs, with = fns * (double)pairs + dp_ns * (double)(pairs - pruned);
        printf("cutoff %g: dp / filter per pair %.1fx, would-be speed-up (dp on all / (filter on all + dp on the "
               "kept)) %.2fx\n",
               cuts[c], dp_ns / fns, full / with);
        free(jb);
        free(th);
    }
    for (int k = 0; k < NG; k++) mnw_aln_free(&out[k]);
    free(out);
    free(order);
    free(tp);
    free(tn);
    mnw_cpu_ws_free(ws);
    mnw_seqset_free(&S);
    return 0;
}
