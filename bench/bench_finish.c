/* bench_finish.c - the cost of turning alignments into output bytes, which
 * mnw's CPU workers pay for every pair a GPU aligns (issue 19). Needs no
 * GPU.
 *
 * The alignments of the first N pairs of a real 16S set are computed once
 * (the CPU aligner, as every worker's are byte for byte the same); then,
 * timed, work lists of W pairs go through exactly the production path
 * (mnw_result_build: the text of every enabled output, the gzip ones
 * compressed as one member per work list) on T threads that take work lists
 * from a shared counter, as mnw's finishers do; and through the baseline,
 * the path before issue 19 (bench/finish_base.c), in the same run. Two
 * output settings: mnw's defaults (pairs.tsv.gz, dist.column.gz) and
 * --cigar (pairs.tsv.gz with a CIGAR column, dist.column.gz). It checks that
 * both paths give the same decompressed bytes for every work list. A third
 * setting, --outputs paf (alignments.paf.gz alone), has no baseline (the
 * path before issue 19 wrote no PAF): its rows are the production path's.
 * A fourth, counts (issue 20): the default outputs from alignments that
 * hold only their figures (pathfig.h, as counts mode's workers and GPU
 * hand them over), the default setting's runs path as its baseline in the
 * same run; it checks that both give the same compressed bytes. A fifth,
 * --outputs userout (userout.tsv.gz alone, issue 41), against paf's rows
 * (the other output that reads every alignment's runs).
 *
 * usage: bench_finish FASTA [--pairs N] [--worklist W] [--threads LIST]
 *                           [--reps R] [--level L]
 * (defaults: 50,000 pairs, 5,000, "1,<online CPUs>", 3, mnw's default level). Prints per row
 * pairs/s, pairs/s per core (pairs/s / threads) and bytes per pair
 * (compressed, all outputs), best of R; ends with
 *   finish: paf R pairs/s/core
 *   finish: userout U pairs/s/core (U/R paf's, ...)
 *   finish: counts C pairs/s/core (runs P, C/P)
 *   finish: default P pairs/s/core, cigar Q pairs/s/core (baseline P0, Q0)
 * from the one-thread rows.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "bench/finish_base.h"
#include "lib/fasta.h"
#include "lib/gzmember.h"
#include "lib/outsel.h"
#include "lib/pairs.h"
#include "lib/result.h"
#include "lib/util.h"
#include "src/opts.h"
#include "workers/cpu/nw_cpu.h"

typedef struct {
    const mnw_job_spec *js;
    const mnw_aln *alns; /* all pairs */
    uint64_t npairs, wl;
    int base;                  /* 1: the baseline path (zlib) */
    const mnw_job_spec *js5;   /* base 2: mnw's path at level 5 (the default level), beside another --level */
    uint64_t next;             /* next work list (atomic) */
    uint64_t bytes;            /* output bytes (atomic) */
    int fail;                  /* atomic */
} job;

static void *run_thread(void *arg)
{
    job *J = arg;
    mnw_buf text[MNW_NOUT], out[MNW_NOUT];
    for (int o = 0; o < MNW_NOUT; o++) {
        mnw_buf_init(&text[o]);
        mnw_buf_init(&out[o]);
    }
    mnw_err e;
    for (;;) {
        uint64_t w = __atomic_fetch_add(&J->next, 1, __ATOMIC_RELAXED);
        uint64_t k0 = w * J->wl;
        if (k0 >= J->npairs) break;
        mnw_range r = {k0, J->npairs - k0 < J->wl ? J->npairs - k0 : J->wl};
        uint64_t b = 0;
        if (J->base == 1) {
            if (fb_build(J->js, r, J->alns + k0, text, out)) __atomic_store_n(&J->fail, 1, __ATOMIC_RELAXED);
            for (int o = 0; o < MNW_NOUT; o++) b += out[o].len;
        } else {
            mnw_result *res = mnw_result_build(J->base == 2 ? J->js5 : J->js, r, J->alns + k0, 0, text, &e);
            if (!res) {
                __atomic_store_n(&J->fail, 1, __ATOMIC_RELAXED);
                continue;
            }
            for (int o = 0; o < MNW_NOUT; o++) b += res->data[o].len;
            mnw_result_free(res);
        }
        __atomic_fetch_add(&J->bytes, b, __ATOMIC_RELAXED);
    }
    for (int o = 0; o < MNW_NOUT; o++) {
        mnw_buf_free(&text[o]);
        mnw_buf_free(&out[o]);
    }
    return NULL;
}

/* wall seconds of one pass over every work list on nt threads */
static double run_pass(job *J, int nt, uint64_t *bytes)
{
    pthread_t th[256];
    J->next = 0;
    J->bytes = 0;
    double t0 = mnw_now();
    for (int t = 0; t < nt; t++) pthread_create(&th[t], NULL, run_thread, J);
    for (int t = 0; t < nt; t++) pthread_join(th[t], NULL);
    *bytes = J->bytes;
    return mnw_now() - t0;
}

/* the concatenated decompressed bytes of gzip members in[0..len) into out */
static int gunzip_all(const mnw_buf *in, mnw_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) return -1;
    z.next_in = (Bytef *)in->p;
    z.avail_in = (uInt)in->len;
    char tmp[1 << 16];
    int rc = Z_OK;
    while (z.avail_in > 0) {
        z.next_out = (Bytef *)tmp;
        z.avail_out = sizeof tmp;
        rc = inflate(&z, Z_NO_FLUSH);
        mnw_buf_put(out, tmp, sizeof tmp - z.avail_out);
        if (rc == Z_STREAM_END && z.avail_in > 0) rc = inflateReset(&z);
        else if (rc == Z_STREAM_END) break;
        if (rc != Z_OK) break;
    }
    inflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}

/* every work list: the production path's output, decompressed, equals the
 * baseline's text. Returns the work lists that differ (-1: a gzip error). */
static long check_same(const mnw_job_spec *js, const mnw_aln *alns, uint64_t npairs, uint64_t wl)
{
    mnw_buf text[MNW_NOUT], out[MNW_NOUT], t2[MNW_NOUT], plain;
    for (int o = 0; o < MNW_NOUT; o++) {
        mnw_buf_init(&text[o]);
        mnw_buf_init(&out[o]);
        mnw_buf_init(&t2[o]);
    }
    mnw_buf_init(&plain);
    long bad = 0;
    mnw_err e;
    for (uint64_t k0 = 0; k0 < npairs && bad >= 0; k0 += wl) {
        mnw_range r = {k0, npairs - k0 < wl ? npairs - k0 : wl};
        mnw_result *res = mnw_result_build(js, r, alns + k0, 0, t2, &e);
        if (!res || fb_build(js, r, alns + k0, text, out)) {
            bad = -1;
            mnw_result_free(res);
            break;
        }
        for (int o = 0; o < MNW_NOUT; o++) {
            if (!js->spec->enabled[o]) continue;
            plain.len = 0;
            if (!mnw_out_gzip[o]) mnw_buf_put(&plain, res->data[o].p, res->data[o].len);
            else if (gunzip_all(&res->data[o], &plain)) {
                bad = -1;
                break;
            }
            if (plain.len != text[o].len || memcmp(plain.p, text[o].p, plain.len)) {
                bad++;
                break;
            }
        }
        mnw_result_free(res);
    }
    for (int o = 0; o < MNW_NOUT; o++) {
        mnw_buf_free(&text[o]);
        mnw_buf_free(&out[o]);
        mnw_buf_free(&t2[o]);
    }
    mnw_buf_free(&plain);
    return bad;
}

/* Work lists whose results from the figures differ from those from the
 * runs (compressed bytes of every output). */
static long check_counts(const mnw_job_spec *js, const mnw_aln *alns, const mnw_aln *figs, uint64_t npairs, uint64_t wl)
{
    mnw_buf t[MNW_NOUT];
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_init(&t[o]);
    long bad = 0;
    mnw_err e;
    for (uint64_t k0 = 0; k0 < npairs; k0 += wl) {
        mnw_range r = {k0, npairs - k0 < wl ? npairs - k0 : wl};
        mnw_result *a = mnw_result_build(js, r, alns + k0, 0, t, &e);
        mnw_result *f = mnw_result_build(js, r, figs + k0, 0, t, &e);
        int same = a && f;
        for (int o = 0; same && o < MNW_NOUT; o++)
            same = a->data[o].len == f->data[o].len && !memcmp(a->data[o].p, f->data[o].p, a->data[o].len);
        if (!same) bad++;
        mnw_result_free(a);
        mnw_result_free(f);
    }
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_free(&t[o]);
    return bad;
}

typedef struct {
    const mnw_seqset *S;
    const mnw_scoring *sc;
    mnw_aln *alns;
    uint64_t npairs;
    uint64_t next; /* next query row i (atomic) */
} aljob;

/* the alignments of pairs (i, 0..i-1), one query row at a time */
static void *align_thread(void *arg)
{
    aljob *A = arg;
    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    const uint8_t **t = malloc(A->S->n * sizeof *t);
    int *n = malloc(A->S->n * sizeof *n);
    for (;;) {
        uint64_t i = __atomic_fetch_add(&A->next, 1, __ATOMIC_RELAXED);
        uint64_t k0 = mnw_pair_k(i, 0);
        if (i < 1) continue;
        if (k0 >= A->npairs || i >= A->S->n) break;
        uint64_t cnt = A->npairs - k0 < i ? A->npairs - k0 : i;
        for (uint64_t j = 0; j < cnt; j++) {
            t[j] = mnw_seq_codes(A->S, j);
            n[j] = (int)mnw_seq_len(A->S, j);
        }
        mnw_cpu_align(ws, A->sc, mnw_seq_codes(A->S, i), (int)mnw_seq_len(A->S, i), t, n, (int)cnt, A->alns + k0);
    }
    free(t);
    free(n);
    mnw_cpu_ws_free(ws);
    return NULL;
}

/* "1,8" -> {1, 8}; how many numbers (at most max) */
static int parse_list(const char *list, int *out, int max)
{
    int k = 0;
    for (const char *p = list; *p && k < max;) {
        out[k++] = atoi(p);
        p = strchr(p, ',');
        if (!p) break;
        p++;
    }
    return k;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_finish FASTA [--pairs N] [--worklist W] [--threads LIST] [--reps R] [--level 0-9|fast|auto]\n");
        return 2;
    }
    const int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN) > 0 ? (int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
    uint64_t npairs = 50000, wl = 5000;
    int reps = 3, level = MNW_GZIP_AUTO;
    char lvname[8];
    char tdef[32];
    snprintf(tdef, sizeof tdef, ncpu > 1 ? "1,%d" : "1", ncpu);
    const char *threads = tdef;
    for (int a = 2; a < argc; a += 2) {
        if (a + 1 >= argc) {
            fprintf(stderr, "bench_finish: %s needs a value\n", argv[a]);
            return 2;
        }
        if (!strcmp(argv[a], "--pairs")) npairs = strtoull(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--worklist")) wl = strtoull(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--threads")) threads = argv[a + 1];
        else if (!strcmp(argv[a], "--reps")) reps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--level"))
            level = !strcmp(argv[a + 1], "auto") ? MNW_GZIP_AUTO : !strcmp(argv[a + 1], "fast") ? MNW_GZIP_FAST : atoi(argv[a + 1]);
        else {
            fprintf(stderr, "bench_finish: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    if (wl < 1 || reps < 1 || ((level < 0 || level > 9) && level != MNW_GZIP_FAST)) {
        fprintf(stderr, "bench_finish: --worklist >= 1, --reps >= 1, --level 0..9, fast or auto\n");
        return 2;
    }
    int tl[16];
    int ntl = parse_list(threads, tl, 16);
    for (int k = 0; k < ntl; k++)
        if (tl[k] < 1 || tl[k] > 256) {
            fprintf(stderr, "bench_finish: --threads: 1..256 each\n");
            return 2;
        }
    mnw_seqset S;
    mnw_seqset_init(&S);
    mnw_err e;
    if (mnw_fasta_read(argv[1], &S, &e)) {
        fprintf(stderr, "bench_finish: %s\n", e.msg);
        return 1;
    }
    if (npairs > mnw_npairs(S.n)) npairs = mnw_npairs(S.n);
    if (npairs == 0) {
        fprintf(stderr, "bench_finish: %s: fewer than two sequences\n", argv[1]);
        return 1;
    }
    const mnw_scoring sc = {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0};
    mnw_aln *alns = calloc(npairs, sizeof *alns);
    for (uint64_t k = 0; k < npairs; k++) mnw_aln_init(&alns[k]);
    aljob A = {&S, &sc, alns, npairs, 0};
    double t0 = mnw_now();
    pthread_t th[256];
    for (int t = 0; t < ncpu && t < 256; t++) pthread_create(&th[t], NULL, align_thread, &A);
    for (int t = 0; t < ncpu && t < 256; t++) pthread_join(th[t], NULL);
    uint64_t ops = 0;
    for (uint64_t k = 0; k < npairs; k++) ops += alns[k].nops;
    printf("# bench_finish %s: %zu sequences, the first %llu pairs aligned once (%.1f s, %d threads; %.1f runs a "
           "pair); work lists of %llu pairs; gzip level %s; %d CPUs online; best of %d\n",
           argv[1], S.n, (unsigned long long)npairs, mnw_now() - t0, ncpu, (double)ops / (double)npairs,
           (unsigned long long)wl, mnw_gzip_level_name(level, lvname), ncpu, reps);

    /* counts mode: the same alignments as figures only */
    mnw_aln *figs = calloc(npairs, sizeof *figs);
    for (uint64_t k = 0; k < npairs; k++) {
        uint64_t i, j;
        mnw_pair_ij(k, &i, &j);
        mnw_aln_init(&figs[k]);
        figs[k].score = alns[k].score;
        figs[k].has_fig = 1;
        const mnw_iddef d = MNW_IDDEF_DEFAULT;
        mnw_pathfig_of_runs(&d, alns[k].ops, alns[k].nops, mnw_seq_codes(&S, i), mnw_seq_len(&S, i),
                            mnw_seq_codes(&S, j), mnw_seq_len(&S, j), &figs[k].fig);
    }

    enum { NSET = 5, SET_PAF = 2, SET_COUNTS = 3, SET_USEROUT = 4 };
    mnw_outspec spec[NSET];
    for (int c = 0; c < NSET; c++) {
        memset(&spec[c], 0, sizeof spec[c]);
        spec[c].seqs = &S;
        spec[c].iddef = MNW_IDDEF_DEFAULT;
        spec[c].cutoff = -1;
        spec[c].cigar = c == 1;
        if (c == SET_PAF)
            spec[c].enabled[MNW_OUT_PAF] = 1;
        else if (c == SET_USEROUT) {
            spec[c].enabled[MNW_OUT_USEROUT] = 1;
            mnw_err ue;
            if (mnw_userfields_parse(MNW_USERFIELDS_DEFAULT, "default", &spec[c].userfields, &ue)) return 1;
        }
        else
            spec[c].enabled[MNW_OUT_PAIRS] = spec[c].enabled[MNW_OUT_DIST] = 1;
    }
    const char *cname[NSET] = {"default", "cigar", "paf", "counts", "userout"};
    double one[NSET][3] = {{0}}; /* [setting][base]: pairs/s on 1 thread */
    double one5[NSET] = {0};
    printf("%-8s %-10s %7s %10s %9s %12s %14s %12s\n", "outputs", "path", "threads", "pairs", "seconds", "pairs/s",
           "pairs/s/core", "bytes/pair");
    int rc = 0;
    for (int c = 0; c < NSET; c++) {
        mnw_job_spec js = {&spec[c], &sc, level, NULL, NULL};
        mnw_job_spec js5 = {&spec[c], &sc, MNW_GZIP_LEVEL_PLAIN, NULL, NULL};
        /* the CIGAR files' default path (libdeflate 5) beside them when --level is another */
        const int with5 = (c == 1 || c == SET_PAF) && mnw_outsel_gzip_level(level) != MNW_GZIP_LEVEL_PLAIN;
        if (c == SET_COUNTS) {
            long bad = check_counts(&js, alns, figs, npairs, wl);
            printf("# counts: the outputs from the figures equal those from the runs, byte for byte, in %s (%ld of %llu "
                   "work lists differ)\n",
                   bad == 0 ? "every work list" : "NOT every work list", bad,
                   (unsigned long long)((npairs + wl - 1) / wl));
            if (bad) rc = 1;
        } else if (c != SET_PAF && c != SET_USEROUT) { /* PAF and userout have no baseline to equal */
            long bad = check_same(&js, alns, npairs, wl);
            printf("# %s: the production path's outputs, decompressed, equal the baseline's text in %s (%ld of %llu "
                   "work lists differ)\n",
                   cname[c], bad == 0 ? "every work list" : "NOT every work list", bad,
                   (unsigned long long)((npairs + wl - 1) / wl));
            if (bad) rc = 1;
        }
        for (int k = 0; k < ntl; k++)
            for (int base = 0; base < 3; base++) {
                if ((base == 1 && (c == SET_PAF || c == SET_USEROUT)) || (base == 2 && !with5)) continue;
                /* counts: its baseline is the runs path (the production path on the runs) */
                job J = {&js, c == SET_COUNTS && !base ? figs : alns, npairs, wl, c == SET_COUNTS ? 0 : base, &js5, 0, 0, 0};
                double best = 1e30;
                uint64_t bytes = 0;
                for (int r = 0; r < reps; r++) {
                    double t = run_pass(&J, tl[k], &bytes);
                    if (t < best) best = t;
                }
                if (J.fail) {
                    fprintf(stderr, "bench_finish: compression failed\n");
                    return 1;
                }
                const double pps = (double)npairs / best;
                if (tl[k] == 1) one[c][base] = pps;
                if (tl[k] == 1 && base == 2) one5[c] = pps;
                printf("%-8s %-10s %7d %10llu %9.3f %12.0f %14.0f %12.2f\n", cname[c],
                       base == 2 ? "mnw-level5" : base ? (c == SET_COUNTS ? "runs" : "baseline") : "mnw",
                       tl[k], (unsigned long long)npairs, best, pps, pps / tl[k], (double)bytes / (double)npairs);
                fflush(stdout);
            }
    }
    if (one[SET_PAF][0] > 0) printf("finish: paf %.0f pairs/s/core\n", one[SET_PAF][0]);
    if (one[SET_USEROUT][0] > 0 && one[SET_PAF][0] > 0)
        printf("finish: userout %.0f pairs/s/core (%.2fx paf's, the other output with every alignment)\n",
               one[SET_USEROUT][0], one[SET_USEROUT][0] / one[SET_PAF][0]);
    for (int c = 1; c <= SET_PAF; c++)
        if (one[c][0] > 0 && one5[c] > 0)
            printf("finish: %s at gzip level %s %.0f pairs/s/core, at level 5 (the default) %.0f: %.2fx\n", cname[c],
                   mnw_gzip_level_name(mnw_outsel_gzip_level(level), lvname),
                   one[c][0], one5[c], one[c][0] / one5[c]);
    if (one[SET_COUNTS][0] > 0 && one[SET_COUNTS][1] > 0)
        printf("finish: counts %.0f pairs/s/core (runs %.0f, %.2fx)\n", one[SET_COUNTS][0], one[SET_COUNTS][1],
               one[SET_COUNTS][0] / one[SET_COUNTS][1]);
    if (one[0][0] > 0)
        printf("finish: default %.0f pairs/s/core, cigar %.0f pairs/s/core (baseline %.0f, %.0f)\n", one[0][0], one[1][0],
               one[0][1], one[1][1]);
    for (uint64_t k = 0; k < npairs; k++) {
        mnw_aln_free(&alns[k]);
        mnw_aln_free(&figs[k]);
    }
    free(alns);
    free(figs);
    mnw_seqset_free(&S);
    return rc;
}
