/* bench_gpu_prune.c - the GPU filter of issue 39 (workers/gpu/gpu_prune_int.cuh)
 * on real genes: pairs decided per second and the fraction pruned, per
 * cutoff, beside the CPU filter (workers/cpu/prune_cpu.h) on one thread,
 * whose decisions the device's must equal (the run fails otherwise).
 *
 * usage: bench_gpu_prune FASTA [--pairs N] [--cutoffs D,D..] [--iddef NAME] [--batch P]
 *                        [--reps R] [--cpu-pairs K]
 * Pairs: the first N of the lower triangle, i > j (mnw's order; default
 * 2,000,000). Scoring: mnw's default (+4/-5/gap 10). The plan: --iddef
 * (default vsearch2) at each cutoff (default 0.03,0.10) with --prune yes.
 * Filter batches of P pairs (default 262144, mnw's), two on the host in
 * turn (one filled while the other runs), as the dispatcher uses them. The
 * time: wall time from the first launch to the last decision read back,
 * best of R (default 3); "busy" is the device's own filter time
 * (mnw_gpu_stats.fbusy_s). --cpu-pairs K (default 20000): the CPU filter on
 * the first K pairs, timed on one thread, decisions compared with the
 * device's.
 * Built for a GPU (make bench-build with nvcc: build/bench/bench_gpu_prune)
 * and on the emulation (build/tests/bench_gpu_prune_emu, t_gpu_emu.sh runs
 * it small: its figures there are the emulation's, not a GPU's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/pairs.h"
#include "lib/prune.h"
#include "lib/util.h"
#include "workers/cpu/prune_cpu.h"
#include "workers/gpu/gpu.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* pairs [0, np) through device g, decisions into dec; the wall seconds, or
 * -1 on a CUDA error */
static double run(mnw_gpu *g, uint64_t np, uint8_t *dec)
{
    mnw_err e;
    uint64_t next = 0, done = 0, i = 1, j = 0, base[MNW_GPU_FBATCHES] = {0};
    mnw_gpu_fbatch *fill = NULL, *held[MNW_GPU_FBATCHES] = {NULL};
    const double t0 = now();
    while (done < np) {
        if (!fill && next < np && (fill = mnw_gpu_fbatch_get(g)) != NULL) {
            int h = 0;
            while (held[h]) h++;
            held[h] = fill;
            base[h] = next;
            while (next < np && mnw_gpu_fbatch_add(fill, (uint32_t)i, (uint32_t)j) == 1) {
                next++;
                if (++j == i) i++, j = 0;
            }
        }
        if (fill && mnw_gpu_fbatch_can_launch(g)) {
            if (mnw_gpu_fbatch_launch(g, fill, &e)) {
                fprintf(stderr, "bench_gpu_prune: %s\n", e.msg);
                return -1;
            }
            fill = NULL;
        }
        mnw_gpu_fbatch *d;
        const int rc = mnw_gpu_fbatch_poll(g, &d, &e);
        if (rc < 0) {
            fprintf(stderr, "bench_gpu_prune: %s\n", e.msg);
            return -1;
        }
        if (rc == 1) {
            int h = 0;
            while (held[h] != d) h++;
            const int cnt = mnw_gpu_fbatch_count(d);
            memcpy(dec + base[h], mnw_gpu_fbatch_pruned(d), (size_t)cnt);
            done += (uint64_t)cnt;
            held[h] = NULL;
            mnw_gpu_fbatch_put(d);
        }
    }
    return now() - t0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_gpu_prune FASTA [--pairs N] [--cutoffs D,D..] [--iddef NAME] [--batch P] "
                        "[--reps R] [--cpu-pairs K]\n");
        return 2;
    }
    uint64_t npairs = 2000000, cpu_pairs = 20000;
    const char *cutoffs = "0.03,0.10", *iddef = "vsearch2";
    int batch = 262144, reps = 3;
    for (int a = 2; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--pairs")) npairs = strtoull(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--cutoffs")) cutoffs = argv[a + 1];
        else if (!strcmp(argv[a], "--iddef")) iddef = argv[a + 1];
        else if (!strcmp(argv[a], "--batch")) batch = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--reps")) reps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--cpu-pairs")) cpu_pairs = strtoull(argv[a + 1], NULL, 10);
        else {
            fprintf(stderr, "bench_gpu_prune: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if ((argc - 2) % 2) {
        fprintf(stderr, "bench_gpu_prune: option %s needs a value\n", argv[argc - 1]);
        return 2;
    }
    mnw_seqset S;
    mnw_seqset_init(&S);
    mnw_err e;
    if (mnw_fasta_read(argv[1], &S, &e)) {
        fprintf(stderr, "bench_gpu_prune: %s\n", e.msg);
        return 1;
    }
    if (npairs > mnw_npairs(S.n)) npairs = mnw_npairs(S.n);
    if (cpu_pairs > npairs) cpu_pairs = npairs;
    mnw_iddef d;
    if (mnw_iddef_parse(iddef, &d)) {
        fprintf(stderr, "bench_gpu_prune: unknown --iddef %s\n", iddef);
        return 2;
    }
    const char *why = NULL;
    if (mnw_gpu_count(&why) < 1) {
        fprintf(stderr, "bench_gpu_prune: no GPU: %s\n", why);
        return 1;
    }
    const mnw_scoring sc = MNW_SCORING_DEFAULT;
    uint8_t *dec = malloc(npairs ? npairs : 1), *cdec = malloc(cpu_pairs ? cpu_pairs : 1);
    printf("# bench_gpu_prune %s: %zu sequences, first %llu pairs, %s, default scoring, filter batches of %d, "
           "best of %d; %s\n",
           argv[1], S.n, (unsigned long long)npairs, iddef, batch, reps, mnw_gpu_build());
    printf("%-7s %11s %11s %8s %13s %13s %9s %13s %8s\n", "cutoff", "pairs", "pruned", "%", "pairs/s", "busy pairs/s",
           "cpu pairs", "cpu1 pairs/s", "differ");
    int rc = 0, first = 1;
    for (const char *c = cutoffs; *c;) {
        const double cut = strtod(c, NULL);
        const char *comma = strchr(c, ',');
        c = comma ? comma + 1 : c + strlen(c);
        mnw_prune_plan plan;
        if (mnw_prune_plan_make(&d, &sc, cut, NULL, MNW_PRUNE_YES, &plan, &e)) {
            printf("%-7.3f no plan: %s\n", cut, e.msg);
            continue;
        }
        mnw_gpu_opts o;
        mnw_gpu_opts_default(&o);
        o.rscan_rows = MNW_GPU_RSCAN_ROWS; /* no alignment here: skip the kernels' measurement */
        o.mem_frac = 0.05;
        o.prune = &plan;
        o.prune_pairs = batch;
        mnw_gpu *g = mnw_gpu_open(0, &S, &sc, &o, &e);
        if (!g) {
            fprintf(stderr, "bench_gpu_prune: %s\n", e.msg);
            return 1;
        }
        if (first) printf("# %s; the filter's tables built in %.2fs\n", mnw_gpu_describe(g), mnw_gpu_prune_open_s(g));
        first = 0;
        double best = 1e30, busy = 0;
        for (int r = 0; r < reps; r++) {
            mnw_gpu_stats s0, s1;
            mnw_gpu_get_stats(g, &s0);
            const double t = run(g, npairs, dec);
            if (t < 0) return 1;
            mnw_gpu_get_stats(g, &s1);
            if (t < best) {
                best = t;
                busy = s1.fbusy_s - s0.fbusy_s;
            }
        }
        uint64_t npr = 0;
        for (uint64_t x = 0; x < npairs; x++) npr += dec[x];
        /* the CPU filter on one thread: the same decisions */
        mnw_prunec *f = mnw_prunec_new(&plan, &sc);
        const uint8_t **t = malloc(S.n * sizeof *t);
        int *n = malloc(S.n * sizeof *n);
        uint64_t k = 0, differ = 0;
        const double c0 = now();
        for (size_t i = 1; k < cpu_pairs; i++) {
            size_t cnt = i;
            if (cnt > cpu_pairs - k) cnt = (size_t)(cpu_pairs - k);
            for (size_t j = 0; j < cnt; j++) {
                t[j] = mnw_seq_codes(&S, j);
                n[j] = (int)mnw_seq_len(&S, j);
            }
            mnw_prunec_query(f, mnw_seq_codes(&S, i), (int)mnw_seq_len(&S, i));
            mnw_prunec_run(f, t, n, cnt, cdec + k, NULL);
            k += cnt;
        }
        const double ct = now() - c0;
        for (uint64_t x = 0; x < cpu_pairs; x++) differ += cdec[x] != dec[x];
        printf("%-7.3f %11llu %11llu %7.2f%% %13.0f %13.0f %9llu %13.0f %8llu\n", cut, (unsigned long long)npairs,
               (unsigned long long)npr, npairs ? 100.0 * (double)npr / (double)npairs : 0.0,
               best > 0 ? (double)npairs / best : 0.0, busy > 0 ? (double)npairs / busy : 0.0,
               (unsigned long long)cpu_pairs, ct > 0 ? (double)cpu_pairs / ct : 0.0, (unsigned long long)differ);
        if (differ) rc = 1;
        free(t);
        free(n);
        mnw_prunec_free(f);
        mnw_gpu_close(g);
    }
    if (rc) printf("DECISIONS DIFFER from the CPU filter's\n");
    free(dec);
    free(cdec);
    mnw_seqset_free(&S);
    return rc;
}
