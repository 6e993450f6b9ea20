/* bench_gpu.c - GPU kernel benchmark (make bench-gpu): pairs/s and GCUPS
 * (cells = len1 x len2) of the GPU aligner on real 16S pairs, per kernel
 * (the automatic choice and each one forced), with device trace-back, host
 * trace-back and score-only, beside two baselines measured in the same run: one
 * CPU thread aligning one pair per call, and the seed paper's GPU baseline,
 * Rodinia-style NW (bench/rodinia_nw.cu: one pair at a time, 16 x 16 tiles,
 * host-driven diagonals, host trace-back; linear gaps), whose scores are
 * checked against mnw's. The "x rodinia" column is the ratio to it.
 *
 * usage: bench_gpu FASTA [--pairs N] [--tb LIST] [--kernels LIST] [--gaps linear|affine|both|mothur|all|A,B]
 *                  [--lanes LIST] [--trim L] [--max-pairs N] [--cpu-pairs N] [--rodinia-pairs N] [--reps R] [--finishers F]
 *                  [--host-pairs N] [--json FILE] [--label TEXT] [--free-ends 0|1]
 * --host-pairs: pairs of the host trace-back rows (default: --pairs / 10;
 * they copy every direction word over PCIe); --json FILE: every row also
 * goes to FILE (device, date, command, entries [{kernel, gaps, traceback,
 * lanes, pairs, pairs_per_s, gcups, seconds}], traceback one of device,
 * host, none; the baselines rodinia-nw and cpu1-pair are entries too);
 * --label: a note for the JSON (the commit, say); --free-ends 1: both
 * scorings with free end gaps.
 * --gaps: linear and affine (both, the default), mothur (--like mothur:
 * 1/-1/2, free end gaps, mothur's ambiguity and tie rules),
 * all three, or a list (linear,mothur).
 * --tb: of device,host,score (default all three); --kernels: of
 * auto,rscan,dscan,tileddscan (default all); --lanes: of x2,x1 (DScan and
 * TiledDScan: two pairs per lane in 16-bit halves where the bound allows, or
 * 32-bit lanes; default x2, the production setting); --trim L cuts every
 * sequence to its first L bases (short-read classes from real genes).
 * Pairs: the first N of the lower triangle, i > j (the order mnw hands out).
 * The time is wall time from the first launch to the last batch read back,
 * alignments converted on the host (mnw_gpu_batch_aln) by F finisher
 * threads (--finishers, default 8; mnw's finishers do this work in a run),
 * best of R runs. Until 2026-11-25 the main thread converted every
 * alignment itself, which bounded the device trace-back rows once the
 * kernels got faster.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/fasta.h"
#include "lib/json.h"
#include "lib/pairs.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/gpu/gpu.h"

/* bench/rodinia_nw.cu (not in the emulated build, MNW_GPU_EMU) */
typedef struct rnw rnw;
rnw *rnw_open(int max_len, char *err, size_t errn);
int32_t rnw_align(rnw *r, const uint8_t *a, int m, const uint8_t *b, int n, int match, int mismatch, int gap,
                  int *cols, char *err, size_t errn);
void rnw_close(rnw *r);

/* Finished batches go to `nfin` finisher threads in tasks of at most
 * FIN_CHUNK pairs (mnw: one task per work list of 5,000 pairs), which turn
 * every pair into its alignment (mnw_gpu_batch_aln: the runs, or the host
 * walk with host trace-back); the task that ends last returns the batch, as
 * in mnw. The main thread only fills, launches and polls. */
enum { FIN_CHUNK = 5000, FIN_Q = 4096 };
typedef struct {
    mnw_gpu_batch *b;
    int x0, x1;
    int *pending; /* the batch's tasks not done (atomic) */
} fintask;
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    fintask q[FIN_Q];
    int head, tail, stop;
} finq;

static void *fin_main(void *arg)
{
    finq *f = arg;
    mnw_aln a;
    mnw_aln_init(&a);
    for (;;) {
        pthread_mutex_lock(&f->mu);
        while (f->head == f->tail && !f->stop) pthread_cond_wait(&f->cv, &f->mu);
        if (f->head == f->tail) {
            pthread_mutex_unlock(&f->mu);
            break;
        }
        fintask t = f->q[f->head++ % FIN_Q];
        pthread_mutex_unlock(&f->mu);
        for (int x = t.x0; x < t.x1; x++) mnw_gpu_batch_aln(t.b, x, &a);
        if (__atomic_sub_fetch(t.pending, 1, __ATOMIC_ACQ_REL) == 0) {
            free(t.pending);
            mnw_gpu_batch_put(t.b);
        }
    }
    mnw_aln_free(&a);
    return NULL;
}

static double run_gpu(mnw_gpu *g, const mnw_seqset *S, uint64_t npairs, uint64_t *cells_out, int nfin)
{
    mnw_err e;
    uint64_t k = 0, done_pairs = 0, cells = 0, refused = 0;
    uint64_t i, j;
    mnw_pair_ij(0, &i, &j);
    mnw_gpu_batch *cur = NULL;
    static finq f;
    f.head = f.tail = f.stop = 0;
    pthread_mutex_init(&f.mu, NULL);
    pthread_cond_init(&f.cv, NULL);
    pthread_t th[64];
    if (nfin < 1) nfin = 1;
    if (nfin > 64) nfin = 64;
    double t0 = mnw_now();
    for (int t = 0; t < nfin; t++) pthread_create(&th[t], NULL, fin_main, &f);
    while (done_pairs + refused < npairs) {
        if (k < npairs && !cur) cur = mnw_gpu_batch_get(g);
        int full = 0;
        while (cur && k < npairs && !full) {
            int r = mnw_gpu_batch_add(cur, (uint32_t)i, (uint32_t)j);
            if (r == 0) {
                full = 1;
                break;
            }
            if (r < 0) refused++;
            else cells += (uint64_t)mnw_seq_len(S, i) * mnw_seq_len(S, j);
            k++;
            if (++j == i) {
                i++;
                j = 0;
            }
        }
        if (cur && (full || k == npairs) && mnw_gpu_can_launch(g)) {
            if (mnw_gpu_launch(g, cur, &e)) {
                fprintf(stderr, "bench_gpu: %s\n", e.msg);
                exit(1);
            }
            cur = NULL;
        }
        mnw_gpu_batch *b;
        int rc = mnw_gpu_poll(g, &b, &e);
        if (rc < 0) {
            fprintf(stderr, "bench_gpu: %s\n", e.msg);
            exit(1);
        }
        if (rc == 1) {
            const int cnt = mnw_gpu_batch_count(b);
            done_pairs += (uint64_t)cnt;
            const int nt = cnt > 0 ? (cnt + FIN_CHUNK - 1) / FIN_CHUNK : 1;
            int *pending = malloc(sizeof *pending);
            *pending = nt;
            pthread_mutex_lock(&f.mu);
            for (int t = 0; t < nt; t++) {
                const int x1 = (t + 1) * FIN_CHUNK < cnt ? (t + 1) * FIN_CHUNK : cnt;
                f.q[f.tail++ % FIN_Q] = (fintask){b, t * FIN_CHUNK, x1, pending};
            }
            pthread_cond_broadcast(&f.cv);
            pthread_mutex_unlock(&f.mu);
        }
    }
    pthread_mutex_lock(&f.mu);
    f.stop = 1;
    pthread_cond_broadcast(&f.cv);
    pthread_mutex_unlock(&f.mu);
    for (int t = 0; t < nfin; t++) pthread_join(th[t], NULL);
    double dt = mnw_now() - t0;
    pthread_mutex_destroy(&f.mu);
    pthread_cond_destroy(&f.cv);
    *cells_out = cells;
    return dt;
}

/* s is in the comma-separated list */
static int in_list(const char *list, const char *s)
{
    size_t n = strlen(s);
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t k = c ? (size_t)(c - p) : strlen(p);
        if (k == n && !strncmp(p, s, n)) return 1;
        p += k + (c != NULL);
    }
    return 0;
}

/* rows for --json */
typedef struct {
    char kernel[24], gaps[8], tb[8], lanes[8];
    uint64_t pairs;
    double pps, gcups, secs;
} jrow;
static jrow jrows[256];
static int njrows;

static void jrow_add(const char *kernel, const char *gaps, const char *tb, const char *lanes, uint64_t pairs, double secs,
                     double cells)
{
    if (njrows == (int)(sizeof jrows / sizeof *jrows)) return;
    jrow *r = &jrows[njrows++];
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    snprintf(r->gaps, sizeof r->gaps, "%s", gaps);
    snprintf(r->tb, sizeof r->tb, "%s", tb);
    snprintf(r->lanes, sizeof r->lanes, "%s", lanes);
    r->pairs = pairs;
    r->secs = secs;
    r->pps = (double)pairs / secs;
    r->gcups = cells / secs / 1e9;
}

/* Writes the rows as JSON to path (atomically: a temporary file renamed).
 * Returns 0, or -1 with a message on stderr. */
static int json_write(const char *path, int argc, char **argv, const char *device, const char *label)
{
    mnw_buf b;
    mnw_buf_init(&b);
    char date[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char cmd[2048] = "bench_gpu";
    for (int a = 1; a < argc; a++) {
        size_t l = strlen(cmd);
        snprintf(cmd + l, sizeof cmd - l, " %s", argv[a]);
    }
    mnw_buf_puts(&b, "{\n  \"device\": ");
    mnw_json_put_string(&b, device);
    mnw_buf_puts(&b, ",\n  \"date\": ");
    mnw_json_put_string(&b, date);
    mnw_buf_puts(&b, ",\n  \"command\": ");
    mnw_json_put_string(&b, cmd);
    mnw_buf_puts(&b, ",\n  \"label\": ");
    mnw_json_put_string(&b, label);
    mnw_buf_puts(&b, ",\n  \"build\": ");
    mnw_json_put_string(&b, mnw_gpu_build());
    mnw_buf_puts(&b, ",\n  \"note\": ");
    mnw_json_put_string(&b, "gcups: cells (len1 x len2) per second, wall time from the first launch to the last "
                            "alignment converted, best of the runs; lanes x1: the 32-bit kernels, the implementation "
                            "before two pairs per lane (the previous kernel, the baseline); rodinia-nw: the seed paper's "
                            "GPU baseline, one pair at a time; cpu1-pair: one CPU thread");
    mnw_buf_puts(&b, ",\n  \"entries\": [");
    for (int k = 0; k < njrows; k++) {
        const jrow *r = &jrows[k];
        mnw_buf_puts(&b, k ? ",\n    {\"kernel\": " : "\n    {\"kernel\": ");
        mnw_json_put_string(&b, r->kernel);
        mnw_buf_puts(&b, ", \"gaps\": ");
        mnw_json_put_string(&b, r->gaps);
        mnw_buf_puts(&b, ", \"traceback\": ");
        mnw_json_put_string(&b, r->tb);
        mnw_buf_puts(&b, ", \"lanes\": ");
        mnw_json_put_string(&b, r->lanes);
        mnw_buf_puts(&b, ", \"pairs\": ");
        mnw_buf_put_u64(&b, r->pairs);
        mnw_buf_puts(&b, ", \"pairs_per_s\": ");
        mnw_json_put_double(&b, "%.0f", r->pps);
        mnw_buf_puts(&b, ", \"gcups\": ");
        mnw_json_put_double(&b, "%.6g", r->gcups);
        mnw_buf_puts(&b, ", \"seconds\": ");
        mnw_json_put_double(&b, "%.4f", r->secs);
        mnw_buf_puts(&b, "}");
    }
    mnw_buf_puts(&b, "\n  ]\n}\n");
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int bad = !f || fwrite(b.p, 1, b.len, f) != b.len;
    if (f && fclose(f)) bad = 1;
    if (!bad && rename(tmp, path)) bad = 1;
    if (bad) {
        fprintf(stderr, "bench_gpu: %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    mnw_buf_free(&b);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_gpu FASTA [--pairs N] [--tb device,host,score] [--kernels auto,rscan,dscan,tileddscan] "
                        "[--gaps linear|affine|both|mothur|all|A,B] [--lanes x2,x1] [--trim L] [--max-pairs N] [--cpu-pairs N] [--rodinia-pairs N] [--reps R] [--finishers F] [--free-ends 0|1]\n");
        return 2;
    }
    uint64_t npairs = 200000, cpu_pairs = 2000, rod_pairs = 200;
    const char *tb = "device,host,score", *kernels = "auto,rscan,dscan,tileddscan", *gaps = "both", *lanes = "x2";
    int max_pairs = 0, reps = 2, trim = 0, nfin = 8, free_ends = 0;
    uint64_t host_pairs = 0;
    const char *json_path = NULL, *label = "";
    for (int a = 2; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--pairs")) npairs = strtoull(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--tb")) tb = argv[a + 1];
        else if (!strcmp(argv[a], "--kernels")) kernels = argv[a + 1];
        else if (!strcmp(argv[a], "--gaps")) gaps = argv[a + 1];
        else if (!strcmp(argv[a], "--lanes")) lanes = argv[a + 1];
        else if (!strcmp(argv[a], "--trim")) trim = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--max-pairs")) max_pairs = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--cpu-pairs")) cpu_pairs = strtoull(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--rodinia-pairs")) rod_pairs = strtoull(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--reps")) reps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--finishers")) nfin = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--host-pairs")) host_pairs = strtoull(argv[a + 1], NULL, 10);
        else if (!strcmp(argv[a], "--json")) json_path = argv[a + 1];
        else if (!strcmp(argv[a], "--label")) label = argv[a + 1];
        else if (!strcmp(argv[a], "--free-ends")) free_ends = atoi(argv[a + 1]);
        else {
            fprintf(stderr, "bench_gpu: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    mnw_seqset S;
    mnw_seqset_init(&S);
    mnw_err e;
    if (mnw_fasta_read(argv[1], &S, &e)) {
        fprintf(stderr, "bench_gpu: %s\n", e.msg);
        return 1;
    }
    if (trim > 0) {
        mnw_seqset T;
        mnw_seqset_init(&T);
        for (size_t k = 0; k < S.n; k++) {
            size_t l = mnw_seq_len(&S, k);
            mnw_seqset_add(&T, mnw_seq_id(&S, k), mnw_seq_codes(&S, k), l < (size_t)trim ? l : (size_t)trim);
        }
        mnw_seqset_free(&S);
        S = T;
    }
    if (npairs > mnw_npairs(S.n)) npairs = mnw_npairs(S.n);
    if (host_pairs == 0 || host_pairs > npairs) host_pairs = npairs / 10 ? npairs / 10 : npairs;
    if (cpu_pairs > npairs) cpu_pairs = npairs;
    if (rod_pairs > cpu_pairs) rod_pairs = cpu_pairs; /* their scores are checked against the CPU's */
    const char *why = NULL;
    if (mnw_gpu_count(&why) < 1) {
        fprintf(stderr, "bench_gpu: no GPU: %s\n", why);
        return 1;
    }
    /* mothur: --like mothur (its own free end gaps, whatever --free-ends says) */
    const mnw_scoring modes[] = {{4, -5, 10, 10, free_ends, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},
                                 {4, -5, 12, 3, free_ends, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},
                                 {1, -1, 2, 2, 1, MNW_TIE_MOTHUR, MNW_AMB_MOTHUR, 0, 0, 0, 0}};
    const char *mname[] = {"linear", "affine", "mothur"};
    if (free_ends) printf("# --free-ends 1: terminal gaps cost nothing (the rows' gaps label says linear or affine)\n");
    char device[512] = "";
    mnw_aln tmp;
    mnw_aln_init(&tmp);
    printf("# bench_gpu %s: %zu sequences, first %llu pairs; %s\n", argv[1], S.n, (unsigned long long)npairs,
           mnw_gpu_build());
    if (trim) printf("# --trim %d: every sequence cut to its first %d bases\n", trim, trim);
    printf("%-8s %-20s %10s %12s %9s %10s %8s %10s\n", "gaps", "worker", "pairs", "pairs/s", "GCUPS", "seconds", "x cpu1",
           "x rodinia");
    int32_t *cpu_score = calloc(cpu_pairs ? cpu_pairs : 1, sizeof *cpu_score);
    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    for (size_t mi = 0; mi < 3; mi++) {
        if (!strcmp(gaps, "both") ? mi == 2 : strcmp(gaps, "all") && !strstr(gaps, mname[mi])) continue;
        const mnw_scoring *sc = &modes[mi];
        /* baseline: one CPU worker, the first cpu_pairs pairs */
        uint64_t i = 1, j = 0, cells = 0;
        double t0 = mnw_now();
        for (uint64_t k = 0; k < cpu_pairs; k++) {
            const uint8_t *t = mnw_seq_codes(&S, j);
            int n = (int)mnw_seq_len(&S, j);
            mnw_cpu_align(ws, sc, mnw_seq_codes(&S, i), (int)mnw_seq_len(&S, i), &t, &n, 1, &tmp);
            cpu_score[k] = tmp.score;
            cells += (uint64_t)mnw_seq_len(&S, i) * (uint64_t)n;
            if (++j == i) {
                i++;
                j = 0;
            }
        }
        double tc = mnw_now() - t0;
        double cpu_ps = (double)cpu_pairs / tc;
        /* the paper's baseline (linear gaps only, as Rodinia) */
        double rod_ps = 0;
#ifdef MNW_GPU_EMU
        if (rod_pairs > 0) {
            printf("# rodinia-nw: not in the emulation (a CUDA program of its own)\n");
            rod_pairs = 0;
        }
#else
        if (!mnw_scoring_affine(sc) && !sc->free_ends && rod_pairs > 0) { /* Rodinia-NW: plain end gaps */
            char er[512];
            rnw *R = rnw_open((int)S.max_len, er, sizeof er);
            if (!R) {
                fprintf(stderr, "bench_gpu: %s\n", er);
                return 1;
            }
            uint64_t ri = 1, rj = 0, rcells = 0, bad = 0;
            double r0 = mnw_now();
            for (uint64_t k = 0; k < rod_pairs; k++) {
                int cols, m = (int)mnw_seq_len(&S, ri), n = (int)mnw_seq_len(&S, rj);
                int32_t sco = rnw_align(R, mnw_seq_codes(&S, ri), m, mnw_seq_codes(&S, rj), n, sc->match, sc->mismatch,
                                        sc->gap_open, &cols, er, sizeof er);
                if (sco == INT32_MIN) {
                    fprintf(stderr, "bench_gpu: %s\n", er);
                    return 1;
                }
                bad += sco != cpu_score[k];
                rcells += (uint64_t)m * (uint64_t)n;
                if (++rj == ri) {
                    ri++;
                    rj = 0;
                }
            }
            double tr = mnw_now() - r0;
            rnw_close(R);
            rod_ps = (double)rod_pairs / tr;
            jrow_add("rodinia-nw", mname[mi], "host", "-", rod_pairs, tr, (double)rcells);
            printf("%-8s %-20s %10llu %12.0f %9.2f %10.3f %8.2f %10s   (scores equal mnw's: %llu of %llu)\n", mname[mi],
                   "rodinia-nw", (unsigned long long)rod_pairs, rod_ps, (double)rcells / tr / 1e9, tr, rod_ps / cpu_ps, "1.0",
                   (unsigned long long)(rod_pairs - bad), (unsigned long long)rod_pairs);
        }
#endif
        printf("%-8s %-20s %10llu %12.0f %9.2f %10.3f %8s %10s\n", mname[mi], "cpu1-pair", (unsigned long long)cpu_pairs,
               cpu_ps, (double)cells / tc / 1e9, tc, "1.0", "");
        if (cpu_pairs) jrow_add("cpu1-pair", mname[mi], "host", "-", cpu_pairs, tc, (double)cells);
        static const char *const tbs[] = {"device", "host", "score"};
        for (int kern = MNW_GPU_KERNEL_AUTO; kern <= MNW_GPU_KERNEL_TILED; kern++)
        for (int x2 = 1; x2 >= 0; x2--)
        for (int d = 0; d < 3; d++) {
            const char *kname = kern == MNW_GPU_KERNEL_AUTO ? "auto" : mnw_gpu_kernel_str(kern);
            if (!in_list(tb, tbs[d]) || !in_list(kernels, kname)) continue;
            /* RScan has 32-bit lanes only: one row */
            const int only32 = kern == MNW_GPU_KERNEL_RSCAN;
            if (only32 ? !x2 : !in_list(lanes, x2 ? "x2" : "x1")) continue;
            mnw_gpu_opts o;
            mnw_gpu_opts_default(&o);
            o.traceback_device = d == 0;
            o.score_only = d == 2;
            o.kernel = kern;
            o.two_per_lane = x2;
            if (max_pairs > 0) o.max_pairs = max_pairs;
            mnw_gpu *g = mnw_gpu_open(0, &S, sc, &o, &e);
            if (!g) {
                fprintf(stderr, "bench_gpu: %s\n", e.msg);
                return 1;
            }
            if (d == 0) printf("# %s, kernel %s\n", mnw_gpu_describe(g), mnw_gpu_kernel_name(g));
            if (!device[0]) snprintf(device, sizeof device, "%s", mnw_gpu_describe(g));
            const uint64_t np = d == 1 ? host_pairs : npairs;
            double best = 1e30;
            uint64_t gc = 0;
            for (int r = 0; r < reps; r++) {
                double t = run_gpu(g, &S, np, &gc, nfin);
                if (t < best) best = t;
            }
            char name[40];
            snprintf(name, sizeof name, "%s/%s%s", kname, d == 0 ? "dev-tb" : d == 1 ? "host-tb" : "score-only",
                     only32 ? "" : x2 ? "/x2" : "/x1");
            char rx[32] = "";
            if (rod_ps > 0) snprintf(rx, sizeof rx, "%.0f", (double)np / best / rod_ps);
            printf("%-8s %-20s %10llu %12.0f %9.2f %10.3f %8.1f %10s\n", mname[mi], name, (unsigned long long)np,
                   (double)np / best, (double)gc / best / 1e9, best, (double)np / best / cpu_ps, rx);
            jrow_add(kname, mname[mi], d == 0 ? "device" : d == 1 ? "host" : "none", only32 ? "x1" : x2 ? "x2" : "x1",
                     np, best, (double)gc);
            mnw_gpu_stats st;
            mnw_gpu_get_stats(g, &st);
            if (st.busy_s > 0)
                printf("#   %s: %.1f batches a run; GPU busy %.3f s a run, mean of the runs (%.2f GCUPS while busy)\n", name,
                       (double)st.batches / reps, st.busy_s / reps, (double)st.cells / st.busy_s / 1e9);
            fflush(stdout);
            mnw_gpu_close(g);
        }
    }
    const int rc = json_path && json_write(json_path, argc, argv, device, label) ? 1 : 0;
    free(cpu_score);
    mnw_cpu_ws_free(ws);
    mnw_aln_free(&tmp);
    mnw_seqset_free(&S);
    return rc;
}
