/* bench_cpu.c - single-thread CPU benchmark of mnw's CPU worker against
 * parasail (nw_trace, several vectorisations), vsearch --allpairs_global and
 * the plain reference aligner, on the same real 16S pairs. See
 * bench/README.md for what each timed piece of work includes.
 *
 * Usage: bench_cpu FASTA [--budget SEC] [--ref-pairs N] [--wl N] [--rounds N]
 *                        [--vsearch PATH|none] [--vsearch-seqs N]
 *   --budget SEC     seconds per parasail variant (default 4): each variant
 *                    aligns pairs of a fixed spread-out order until SEC pass
 *   --ref-pairs N    pairs for the reference aligner (default 200)
 *   --wl N           pairs per mnw work list (default 5000, mnw's default)
 *   --rounds N       rounds (default 2): round 1 times every tool; later
 *                    rounds time mnw, parasail's best variant and vsearch
 *                    again; those rows keep their best round
 *   --vsearch PATH   vsearch binary (default "vsearch" on PATH; none: skip)
 *   --vsearch-seqs N vsearch on the first N sequences only (default all)
 *
 * Every score is checked: parasail's and the reference's against mnw's on
 * the pairs they timed (the reference also alignment-for-alignment), and
 * vsearch's raw score of every pair it aligned. Exit status 1 if any differ.
 */
#include <errno.h>
#include <fcntl.h>
#include <parasail.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/fasta.h"
#include "lib/pairs.h"
#include "tests/ref/ref_nw.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/cpu/worklist.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- how busy the rest of the machine was while a tool ran ---- */
typedef struct {
    double wall, busy, steal, own;
} probe;

static void probe_now(probe *p)
{
    p->wall = now();
    p->busy = p->steal = 0;
    FILE *f = fopen("/proc/stat", "r");
    if (f) {
        unsigned long long u, ni, sy, id, io, irq, sirq, st = 0;
        if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &ni, &sy, &id, &io, &irq, &sirq, &st) >= 7) {
            double hz = (double)sysconf(_SC_CLK_TCK);
            p->busy = (double)(u + ni + sy + irq + sirq) / hz;
            p->steal = (double)st / hz;
        }
        fclose(f);
    }
    struct rusage a, b;
    getrusage(RUSAGE_SELF, &a);
    getrusage(RUSAGE_CHILDREN, &b);
    p->own = (double)(a.ru_utime.tv_sec + a.ru_stime.tv_sec + b.ru_utime.tv_sec + b.ru_stime.tv_sec) +
             1e-6 * (double)(a.ru_utime.tv_usec + a.ru_stime.tv_usec + b.ru_utime.tv_usec + b.ru_stime.tv_usec);
}

/* CPUs kept busy by other processes (plus hypervisor steal), on average,
 * between p0 and p1 */
static double probe_others(const probe *p0, const probe *p1)
{
    double w = p1->wall - p0->wall;
    if (w <= 0) return 0;
    double o = ((p1->busy - p0->busy) - (p1->own - p0->own) + (p1->steal - p0->steal)) / w;
    return o < 0 ? 0 : o;
}

/* One timed pass of the CPU worker's path over all pairs, in work lists of
 * wl: each pair's score into scores[] (and, where want is not NULL, the
 * pairs whose score differs from want[] or that lack figures when figs
 * counted into *bad). Returns the seconds; cells, runs and the other CPUs'
 * load (probe_others) through the pointers. */
static double mnw_pass(mnw_wl_scratch *scr, const mnw_seqset *S, const mnw_scoring *sc, uint64_t npairs, long wl,
                       mnw_aln *alns, int figs, int32_t *scores, const int32_t *want, uint64_t *cells, uint64_t *runs,
                       long *bad, double *others)
{
    *cells = *runs = 0;
    *bad = 0;
    probe p0, p1;
    probe_now(&p0);
    double t0 = now();
    for (uint64_t k0 = 0; k0 < npairs; k0 += (uint64_t)wl) {
        mnw_range r = {k0, npairs - k0 < (uint64_t)wl ? npairs - k0 : (uint64_t)wl};
        *cells += mnw_wl_align(scr, S, sc, r, alns);
        for (uint64_t x = 0; x < r.count; x++) {
            scores[k0 + x] = alns[x].score;
            *runs += alns[x].nops;
            if (want) *bad += alns[x].score != want[k0 + x] || alns[x].has_fig != figs;
        }
    }
    double secs = now() - t0;
    probe_now(&p1);
    *others = probe_others(&p0, &p1);
    return secs;
}

/* ---- the results table ---- */
typedef struct {
    char tool[64];
    char note[96];
    uint64_t pairs, cells;
    double secs, others;
} row;

static row rows[16];
static int nrows;

static void add_row(const char *tool, const char *note, uint64_t pairs, uint64_t cells, double secs, double others)
{
    row *r = &rows[nrows++];
    snprintf(r->tool, sizeof r->tool, "%s", tool);
    snprintf(r->note, sizeof r->note, "%s", note);
    r->pairs = pairs;
    r->cells = cells;
    r->secs = secs;
    r->others = others;
}

/* ---- data ---- */
static mnw_seqset S;
static char *letters;   /* S as letters, same offsets */
static int32_t *mnw_score; /* mnw's score of every pair k */
static mnw_scoring SC = MNW_SCORING_DEFAULT;

static uint64_t pair_cells(uint64_t k)
{
    uint64_t i, j;
    mnw_pair_ij(k, &i, &j);
    return (uint64_t)mnw_seq_len(&S, i) * (uint64_t)mnw_seq_len(&S, j);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The x-th pair of a fixed order that spreads any prefix over the whole
 * triangle (every row i, short and long sequences alike). */
static uint64_t spread_step;
static uint64_t spread_pair(uint64_t x, uint64_t npairs) { return (x * spread_step) % npairs; }

/* ---- system facts ---- */
static void cpu_model(char *buf, size_t n)
{
    snprintf(buf, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            char *p = strchr(line, ':');
            if (p) {
                p++;
                while (*p == ' ' || *p == '\t') p++;
                p[strcspn(p, "\n")] = 0;
                snprintf(buf, n, "%s", p);
            }
            break;
        }
    }
    fclose(f);
}

static void cpu_flags(char *buf, size_t n)
{
    buf[0] = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    static char line[1 << 16];
    const char *want[] = {"sse4_1", "avx2", "avx512bw"};
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "flags", 5)) {
            for (size_t w = 0; w < sizeof want / sizeof *want; w++) {
                char pat[32];
                snprintf(pat, sizeof pat, " %s", want[w]);
                char *p = strstr(line, pat);
                size_t l = strlen(pat);
                if (p && (p[l] == ' ' || p[l] == '\n' || p[l] == 0))
                    snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? " " : "", want[w]);
            }
            break;
        }
    }
    fclose(f);
}

/* ---- parasail ---- */
typedef struct {
    const char *name;
    parasail_function_t *fn;
} pvariant;

static const pvariant PV[] = {
    {"parasail_nw_trace_striped_sse41_128_16", parasail_nw_trace_striped_sse41_128_16},
    {"parasail_nw_trace_scan_sse41_128_16", parasail_nw_trace_scan_sse41_128_16},
    {"parasail_nw_trace_diag_sse41_128_16", parasail_nw_trace_diag_sse41_128_16},
    {"parasail_nw_trace_striped_avx2_256_16", parasail_nw_trace_striped_avx2_256_16},
    {"parasail_nw_trace_scan_avx2_256_16", parasail_nw_trace_scan_avx2_256_16},
    {"parasail_nw_trace_diag_avx2_256_16", parasail_nw_trace_diag_avx2_256_16},
};
#define NPV ((int)(sizeof PV / sizeof *PV))

static long total_bad;

/* Runs fn over the spread order until `budget` seconds pass (at least one
 * pair); with_cigar also builds the CIGAR. Checks every score against mnw's
 * (after the clock stops). */
static void run_parasail(const pvariant *v, const parasail_matrix_t *mx, double budget, uint64_t npairs, int with_cigar,
                         uint64_t *pairs_out, uint64_t *cells_out, double *secs_out, long *bad_out, long *sat_out,
                         double *others_out)
{
    int32_t *got = mnw_xmalloc(npairs * sizeof *got);
    /* warm-up: one pair */
    {
        uint64_t i, j;
        mnw_pair_ij(spread_pair(0, npairs), &i, &j);
        parasail_result_t *r = v->fn(letters + S.off[i], (int)mnw_seq_len(&S, i), letters + S.off[j],
                                     (int)mnw_seq_len(&S, j), SC.gap_open, SC.gap_extend, mx);
        parasail_result_free(r);
    }
    uint64_t x = 0, cells = 0;
    long sat = 0;
    probe p0, p1;
    probe_now(&p0);
    double t0 = now(), t1 = t0;
    while (x < npairs) {
        uint64_t k = spread_pair(x, npairs), i, j;
        mnw_pair_ij(k, &i, &j);
        const char *a = letters + S.off[i], *b = letters + S.off[j];
        int m = (int)mnw_seq_len(&S, i), n = (int)mnw_seq_len(&S, j);
        parasail_result_t *r = v->fn(a, m, b, n, SC.gap_open, SC.gap_extend, mx);
        if (with_cigar) {
            parasail_cigar_t *c = parasail_result_get_cigar(r, a, m, b, n, mx);
            parasail_cigar_free(c);
        }
        got[x] = parasail_result_get_score(r);
        sat += parasail_result_is_saturated(r) != 0;
        parasail_result_free(r);
        cells += (uint64_t)m * (uint64_t)n;
        x++;
        t1 = now();
        if (t1 - t0 >= budget) break;
    }
    probe_now(&p1);
    *others_out = probe_others(&p0, &p1);
    long bad = 0;
    for (uint64_t y = 0; y < x; y++) {
        uint64_t k = spread_pair(y, npairs);
        if (got[y] != mnw_score[k]) {
            if (bad++ < 3) {
                uint64_t i, j;
                mnw_pair_ij(k, &i, &j);
                printf("  MISMATCH %s pair (%llu,%llu): mnw %d parasail %d\n", v->name, (unsigned long long)i,
                       (unsigned long long)j, mnw_score[k], got[y]);
            }
        }
    }
    free(got);
    *pairs_out = x;
    *cells_out = cells;
    *secs_out = t1 - t0;
    *bad_out = bad;
    *sat_out = sat;
}

/* ---- vsearch ---- */
static int run_cmd(char *const argv[], const char *log_path)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int write_fasta(const char *path, size_t nseq)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    for (size_t i = 0; i < nseq; i++)
        fprintf(f, ">%s\n%.*s\n", mnw_seq_id(&S, i), (int)mnw_seq_len(&S, i), letters + S.off[i]);
    return fclose(f);
}

/* id -> sequence index (ids are unique: the FASTA reader checks) */
static size_t *id_order;
static int cmp_id(const void *a, const void *b)
{
    return strcmp(mnw_seq_id(&S, *(const size_t *)a), mnw_seq_id(&S, *(const size_t *)b));
}
static long find_id(const char *id)
{
    size_t lo = 0, hi = S.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(mnw_seq_id(&S, id_order[mid]), id);
        if (c == 0) return (long)id_order[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

static void first_line_of(const char *cmd, char *buf, size_t n)
{
    snprintf(buf, n, "unknown");
    FILE *p = popen(cmd, "r");
    if (!p) return;
    if (fgets(buf, (int)n, p)) buf[strcspn(buf, "\n")] = 0;
    while (fgetc(p) != EOF) {
    }
    pclose(p);
}

int main(int argc, char **argv)
{
    const char *fasta = NULL, *vsearch = "vsearch";
    double budget = 4.0;
    long ref_pairs = 200, wl = 5000, vs_seqs = 0;
    int rounds = 2;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--budget") && a + 1 < argc) budget = atof(argv[++a]);
        else if (!strcmp(argv[a], "--ref-pairs") && a + 1 < argc) ref_pairs = atol(argv[++a]);
        else if (!strcmp(argv[a], "--wl") && a + 1 < argc) wl = atol(argv[++a]);
        else if (!strcmp(argv[a], "--rounds") && a + 1 < argc) rounds = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--vsearch") && a + 1 < argc) vsearch = argv[++a];
        else if (!strcmp(argv[a], "--vsearch-seqs") && a + 1 < argc) vs_seqs = atol(argv[++a]);
        else if (argv[a][0] != '-' && !fasta) fasta = argv[a];
        else {
            fprintf(stderr, "usage: bench_cpu FASTA [--budget SEC] [--ref-pairs N] [--wl N] [--rounds N] [--vsearch PATH|none] [--vsearch-seqs N]\n");
            return 2;
        }
    }
    if (!fasta || budget <= 0 || wl < 1 || rounds < 1 || ref_pairs < 0 || vs_seqs < 0) {
        fprintf(stderr, "usage: bench_cpu FASTA [--budget SEC] [--ref-pairs N] [--wl N] [--rounds N] [--vsearch PATH|none] [--vsearch-seqs N]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    /* ---- header: machine, date, command ---- */
    char model[256], flags[128], host[256] = "?", date[64], vsver[256] = "not used";
    cpu_model(model, sizeof model);
    cpu_flags(flags, sizeof flags);
    mnw_hostname(host, sizeof host, 0);
    time_t tt = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&tt));
    struct utsname un;
    uname(&un);
    int use_vs = strcmp(vsearch, "none") != 0;
    if (use_vs) {
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "'%s' --version 2>&1", vsearch);
        first_line_of(cmd, vsver, sizeof vsver);
    }
    printf("mnw CPU benchmark (bench/bench_cpu.c), every tool single-threaded\n");
    printf("command:   ");
    for (int a = 0; a < argc; a++) printf("%s%s", a ? " " : "", argv[a]);
    printf("\ndate:      %s\n", date);
    printf("host:      %s (%s %s %s)\n", host, un.sysname, un.release, un.machine);
    printf("cpu:       %s; nproc %ld; flags: %s\n", model, sysconf(_SC_NPROCESSORS_ONLN), flags);
    {
        char la[128] = "?";
        FILE *f = fopen("/proc/loadavg", "r");
        if (f) {
            if (fgets(la, sizeof la, f)) la[strcspn(la, "\n")] = 0;
            fclose(f);
        }
        printf("load:      %s (/proc/loadavg before the run; other work on the machine skews timings)\n", la);
    }
    {
        /* the binary is build/bench/bench_cpu: the tree is two levels up */
        char head[128], cmd[4200], dir[4096];
        snprintf(dir, sizeof dir, "%s", argv[0]);
        char *sl = strrchr(dir, '/');
        if (sl) *sl = 0;
        else snprintf(dir, sizeof dir, ".");
        snprintf(cmd, sizeof cmd, "git -C '%s/../..' rev-parse --short HEAD 2>/dev/null || echo unknown", dir);
        first_line_of(cmd, head, sizeof head);
        printf("mnw:       libmnw.a of the working tree at git %s (uncommitted edits, if any, included)\n", head);
    }
    printf("software:  gcc %s; parasail %d.%d.%d; %s\n", __VERSION__, PARASAIL_VERSION_MAJOR, PARASAIL_VERSION_MINOR,
           PARASAIL_VERSION_PATCH, vsver);

    /* ---- data ---- */
    mnw_seqset_init(&S);
    mnw_err e;
    if (mnw_fasta_read(fasta, &S, &e)) {
        fprintf(stderr, "bench_cpu: %s\n", e.msg);
        return 2;
    }
    if (S.n < 2) {
        fprintf(stderr, "bench_cpu: %s: fewer than 2 sequences\n", fasta);
        return 2;
    }
    uint64_t npairs = mnw_npairs(S.n), all_cells = 0;
    size_t minl = SIZE_MAX, maxl = 0, suml = 0;
    for (size_t i = 0; i < S.n; i++) {
        size_t l = mnw_seq_len(&S, i);
        minl = l < minl ? l : minl;
        maxl = l > maxl ? l : maxl;
        suml += l;
    }
    for (uint64_t k = 0; k < npairs; k++) all_cells += pair_cells(k);
    letters = mnw_xmalloc(S.off[S.n] + 1);
    for (size_t k = 0; k < S.off[S.n]; k++) letters[k] = mnw_letter_of[S.codes[k]];
    letters[S.off[S.n]] = 0;
    spread_step = 7919;
    while (gcd(spread_step, npairs) != 1) spread_step++;
    printf("data:      %s: %zu sequences, %llu pairs, lengths %zu-%zu (mean %.0f), %.4g cells in all pairs\n", fasta, S.n,
           (unsigned long long)npairs, minl, maxl, (double)suml / (double)S.n, (double)all_cells);
    printf("scoring:   match %d, mismatch %d, linear gap %d per column (gap_open = gap_extend = %d), end gaps "
           "penalised, ambiguity codes 0\n\n",
           SC.match, SC.mismatch, SC.gap_open, SC.gap_open);

    /* ---- the tools, in rounds: round 1 times everything, later rounds
     * time again mnw, parasail's best variant and vsearch (the rows that
     * matter); each row keeps its best round (noise only ever slows) ---- */
    mnw_score = mnw_xmalloc(npairs * sizeof *mnw_score);
    int32_t *score2 = mnw_xmalloc(npairs * sizeof *score2);
    int32_t *score3 = mnw_xmalloc(npairs * sizeof *score3); /* counts mode's, checked against the round's */
    mnw_aln *alns = mnw_xmalloc((size_t)wl * sizeof *alns);
    for (long x = 0; x < wl; x++) mnw_aln_init(&alns[x]);
    mnw_wl_scratch scr;
    mnw_wl_scratch_init(&scr);
    const char *isa = mnw_cpu_isa();
    if (!isa) {
        fprintf(stderr, "bench_cpu: this CPU lacks SSE4.1\n");
        return 2;
    }
    parasail_matrix_t *mx = parasail_matrix_create("ACGTRYSWKMBDHVN", SC.match, SC.mismatch);
    for (int x = 0; x < MNW_NCODES; x++)
        for (int y = 0; y < MNW_NCODES; y++) parasail_matrix_set_value(mx, x, y, mnw_sub(&SC, (uint8_t)x, (uint8_t)y));

    /* vsearch: input written once */
    char dir[] = "/tmp/mnw-bench-XXXXXX", in[64], warm[64], out[64], log[64];
    size_t nseq = vs_seqs > 0 && (size_t)vs_seqs < S.n ? (size_t)vs_seqs : S.n;
    uint64_t vpairs = mnw_npairs(nseq), vcells = 0;
    char *vargv[] = {(char *)vsearch, "--allpairs_global", in, "--acceptall", "--threads", "1", "--match", "4",
                     "--mismatch", "-5", "--gapopen", "10", "--gapext", "10", "--qmask", "none", "--userout", out,
                     "--userfields", "query+target+raw+caln", NULL};
    char ms[16], mm[16], go[16], ge[16];
    if (use_vs) {
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            return 2;
        }
        for (uint64_t k = 0; k < vpairs; k++) vcells += pair_cells(k); /* pairs of the first nseq = k < vpairs */
        snprintf(in, sizeof in, "%s/in.fa", dir);
        snprintf(warm, sizeof warm, "%s/warm.fa", dir);
        snprintf(out, sizeof out, "%s/out.tsv", dir);
        snprintf(log, sizeof log, "%s/log.txt", dir);
        if (write_fasta(in, nseq) || write_fasta(warm, S.n < 10 ? S.n : 10)) {
            fprintf(stderr, "bench_cpu: cannot write %s\n", dir);
            return 2;
        }
        snprintf(ms, sizeof ms, "%d", SC.match);
        snprintf(mm, sizeof mm, "%d", SC.mismatch);
        snprintf(go, sizeof go, "%d", SC.gap_open);
        snprintf(ge, sizeof ge, "%d", SC.gap_extend);
        vargv[7] = ms;
        vargv[9] = mm;
        vargv[11] = go;
        vargv[13] = ge;
        printf("vsearch command: ");
        for (char **p = vargv; *p; p++) printf("%s%s", p == vargv ? "" : " ", *p == in ? "IN.fa" : *p == out ? "OUT.tsv" : *p);
        printf("\n");
        id_order = mnw_xmalloc(S.n * sizeof *id_order);
        for (size_t i = 0; i < S.n; i++) id_order[i] = i;
        qsort(id_order, S.n, sizeof *id_order, cmp_id);
    }

    char mnw_note[128];
    snprintf(mnw_note, sizeof mnw_note, "%s, %d lanes x 16 bit, work lists of %ld", isa, mnw_cpu_lanes(), wl);
    double mnw_secs = 1e300, mnw_oth = 0, cnt_secs = 1e300, cnt_oth = 0;
    uint64_t cnt_cells = 0;
    uint64_t mnw_cells = 0;
    int best = -1;
    uint64_t p_pairs[NPV] = {0}, p_cells[NPV] = {0}, c_pairs = 0, c_cells = 0;
    double p_secs[NPV] = {0}, p_oth[NPV] = {0}, c_secs = 0, c_oth = 0;
    double vs_secs = 1e300, vs_oth = 0;
    int vs_ok = 0;
    for (int round = 1; round <= rounds; round++) {
        printf("-- round %d of %d%s\n", round, rounds, round == 1 ? "" : ": mnw, parasail best, vsearch again");

        /* 1. mnw: the CPU worker's path, all pairs */
        if (round == 1) {
            mnw_range r = {0, npairs < (uint64_t)wl ? npairs : (uint64_t)wl};
            mnw_wl_align(&scr, &S, &SC, r, alns); /* warm-up: the first work list */
        }
        int32_t *sc_out = round == 1 ? mnw_score : score2;
        uint64_t cells, runs;
        long nobad;
        double oth;
        double secs = mnw_pass(&scr, &S, &SC, npairs, wl, alns, 0, sc_out, NULL, &cells, &runs, &nobad, &oth);
        int same = round == 1 || !memcmp(mnw_score, score2, npairs * sizeof *score2);
        if (!same) total_bad++;
        printf("mnw: %llu pairs in %.2f s, %.3f GCUPS (%s; %llu CIGAR runs)%s\n", (unsigned long long)npairs, secs,
               (double)cells / secs / 1e9, mnw_note, (unsigned long long)runs,
               round == 1 ? "" : same ? "; scores identical to round 1" : "; SCORES DIFFER FROM ROUND 1");
        if (secs < mnw_secs) {
            mnw_secs = secs;
            mnw_cells = cells;
            mnw_oth = oth;
        }

        /* 1b. mnw in counts mode (issue 20): the same path counting each
         * pair's figures, no runs kept (the default where no output needs a
         * CIGAR); the scores must equal the runs path's */
        {
            mnw_eqtab eqt;
            const mnw_iddef d = MNW_IDDEF_DEFAULT;
            mnw_eqtab_of(&d, &eqt);
            mnw_cpu_ws_figures(scr.ws, &eqt);
            uint64_t ccells, cruns;
            long cbad;
            double coth;
            double usecs = mnw_pass(&scr, &S, &SC, npairs, wl, alns, 1, score3, sc_out, &ccells, &cruns, &cbad, &coth);
            mnw_cpu_ws_figures(scr.ws, NULL);
            total_bad += cbad;
            printf("mnw counts mode: %llu pairs in %.2f s, %.3f GCUPS (%.2fx the runs path in this round); scores = "
                   "runs path: %s (%ld differ)\n",
                   (unsigned long long)npairs, usecs, (double)ccells / usecs / 1e9, secs / usecs, cbad ? "NO" : "yes", cbad);
            if (usecs < cnt_secs) {
                cnt_secs = usecs;
                cnt_cells = ccells;
                cnt_oth = coth;
            }
        }

        /* 2. parasail nw_trace variants on a spread subset; later rounds:
         * the best variant only */
        double best_gcups = best >= 0 ? (double)p_cells[best] / p_secs[best] / 1e9 : 0;
        for (int v = 0; v < NPV; v++) {
            if (round > 1 && v != best) continue;
            uint64_t pp, pc;
            double ps, po;
            long bad, sat;
            run_parasail(&PV[v], mx, budget, npairs, 0, &pp, &pc, &ps, &bad, &sat, &po);
            double g = (double)pc / ps / 1e9;
            printf("parasail %-40s %6llu pairs %6.2f s %7.3f GCUPS; scores = mnw: %s (%ld differ, %ld saturated)\n",
                   PV[v].name, (unsigned long long)pp, ps, g, bad || sat ? "NO" : "yes", bad, sat);
            total_bad += bad + sat;
            if (round == 1 || g > (double)p_cells[v] / p_secs[v] / 1e9) {
                p_pairs[v] = pp;
                p_cells[v] = pc;
                p_secs[v] = ps;
                p_oth[v] = po;
            }
            if (round == 1 && g > best_gcups) {
                best_gcups = g;
                best = v;
            }
        }
        if (round == 1) {
            uint64_t pp, pc;
            double ps, po;
            long bad, sat;
            run_parasail(&PV[best], mx, budget, npairs, 1, &pp, &pc, &ps, &bad, &sat, &po);
            printf("parasail %s + parasail_result_get_cigar: %llu pairs %.2f s %.3f GCUPS; scores = mnw: %s (%ld "
                   "differ)\n",
                   PV[best].name, (unsigned long long)pp, ps, (double)pc / ps / 1e9, bad || sat ? "NO" : "yes", bad);
            total_bad += bad + sat;
            c_pairs = pp;
            c_cells = pc;
            c_secs = ps;
            c_oth = po;
        }

        /* 3. vsearch --allpairs_global with alignments: the whole command */
        if (use_vs) {
            int rc = 0;
            if (round == 1) {
                vargv[2] = warm; /* warm-up: 10 sequences */
                rc = run_cmd(vargv, log);
                vargv[2] = in;
            }
            probe v0, v1;
            probe_now(&v0);
            double vt0 = now();
            if (rc == 0) rc = run_cmd(vargv, log);
            double vsecs = now() - vt0;
            probe_now(&v1);
            if (rc != 0) {
                printf("vsearch: failed (exit %d); its log: %s\n", rc, log);
                total_bad++;
            } else {
                /* check every raw score against mnw's */
                char *seen = mnw_xcalloc(vpairs, 1);
                FILE *f = fopen(out, "r");
                static char line[1 << 20];
                long lines = 0, bad = 0, unknown = 0, dup = 0;
                while (f && fgets(line, sizeof line, f)) {
                    char *q = strtok(line, "\t\n"), *t = strtok(NULL, "\t\n"), *raw = strtok(NULL, "\t\n");
                    lines++;
                    long a = q ? find_id(q) : -1, b = t ? find_id(t) : -1;
                    if (a < 0 || b < 0 || a == b || !raw || (size_t)a >= nseq || (size_t)b >= nseq) {
                        unknown++;
                        continue;
                    }
                    uint64_t k = a > b ? mnw_pair_k((uint64_t)a, (uint64_t)b) : mnw_pair_k((uint64_t)b, (uint64_t)a);
                    if (seen[k]++) dup++;
                    if (atoi(raw) != mnw_score[k] && bad++ < 3)
                        printf("  MISMATCH vsearch pair (%s,%s): mnw %d vsearch %s\n", q, t, mnw_score[k], raw);
                }
                if (f) fclose(f);
                free(seen);
                int ok = lines == (long)vpairs && !bad && !unknown && !dup;
                printf("vsearch: %llu pairs in %.2f s, %.3f GCUPS; %ld alignments written; raw scores = mnw: %s (%ld "
                       "differ, %ld unknown, %ld duplicate)\n",
                       (unsigned long long)vpairs, vsecs, (double)vcells / vsecs / 1e9, lines, ok ? "yes" : "NO", bad,
                       unknown, dup);
                if (!ok) total_bad += bad + unknown + dup + (lines != (long)vpairs);
                vs_ok = 1;
                if (vsecs < vs_secs) {
                    vs_secs = vsecs;
                    vs_oth = probe_others(&v0, &v1);
                }
            }
        }
    }
    printf("-- reference aligner\n");

    char rn[32] = "";
    if (rounds > 1) snprintf(rn, sizeof rn, "best of %d; ", rounds);
    char note[160];
    snprintf(note, sizeof note, "%s%s", rn, mnw_note);
    add_row("mnw CPU worker (mnw_wl_align)", note, npairs, mnw_cells, mnw_secs, mnw_oth);
    snprintf(note, sizeof note, "%sfigures counted along the path, no runs kept", rn);
    add_row("mnw CPU worker, counts mode", note, npairs, cnt_cells, cnt_secs, cnt_oth);
    for (int v = 0; v < NPV; v++) {
        char tool[64];
        snprintf(tool, sizeof tool, "%sparasail %s", v == best ? "* " : "  ", PV[v].name + strlen("parasail_"));
        snprintf(note, sizeof note, "%s", v == best ? "parasail best nw_trace" : "");
        if (v == best && rounds > 1) snprintf(note, sizeof note, "%sparasail best nw_trace", rn);
        add_row(tool, note, p_pairs[v], p_cells[v], p_secs[v], p_oth[v]);
    }
    add_row("  parasail best + get_cigar", "same variant, CIGAR built too", c_pairs, c_cells, c_secs, c_oth);
    parasail_matrix_free(mx);
    if (use_vs) {
        if (vs_ok) {
            snprintf(note, sizeof note, "%s%s", rn, nseq < S.n ? "first sequences only" : "whole command, CIGAR (caln)");
            add_row("vsearch --allpairs_global", note, vpairs, vcells, vs_secs, vs_oth);
        }
        unlink(in);
        unlink(warm);
        unlink(out);
        if (vs_ok) unlink(log);
        rmdir(dir);
    } else {
        printf("vsearch: skipped (--vsearch none)\n");
    }

    /* ---- 4. the plain reference aligner ---- */
    if (ref_pairs > 0) {
        uint64_t nref = (uint64_t)ref_pairs < npairs ? (uint64_t)ref_pairs : npairs, rcells = 0;
        mnw_aln ra, ma;
        mnw_aln_init(&ra);
        mnw_aln_init(&ma);
        {
            uint64_t i, j;
            mnw_pair_ij(spread_pair(0, npairs), &i, &j);
            ref_nw(&SC, mnw_seq_codes(&S, i), (int)mnw_seq_len(&S, i), mnw_seq_codes(&S, j), (int)mnw_seq_len(&S, j), &ra);
        }
        double rsecs = 0, rbusy = 0;
        long bad = 0;
        mnw_wl_scratch one;
        mnw_wl_scratch_init(&one);
        for (uint64_t x = 0; x < nref; x++) {
            uint64_t k = spread_pair(x, npairs), i, j;
            mnw_pair_ij(k, &i, &j);
            probe q0, q1;
            probe_now(&q0);
            double a0 = now();
            ref_nw(&SC, mnw_seq_codes(&S, i), (int)mnw_seq_len(&S, i), mnw_seq_codes(&S, j), (int)mnw_seq_len(&S, j), &ra);
            rsecs += now() - a0;
            probe_now(&q1);
            rbusy += probe_others(&q0, &q1) * (q1.wall - q0.wall);
            rcells += pair_cells(k);
            /* mnw's alignment of this pair (untimed): must be the same */
            mnw_range r1 = {k, 1};
            mnw_wl_align(&one, &S, &SC, r1, &ma);
            if (ra.score != mnw_score[k] || ma.score != ra.score || ma.nops != ra.nops ||
                memcmp(ma.ops, ra.ops, ra.nops * sizeof *ra.ops))
                bad++;
        }
        printf("reference: %llu pairs in %.2f s; score and alignment = mnw: %s (%ld differ)\n", (unsigned long long)nref,
               rsecs, bad ? "NO" : "yes", bad);
        total_bad += bad;
        add_row("ref_nw (tests/ref, plain)", "int64, 3 full matrices", nref, rcells, rsecs, rsecs > 0 ? rbusy / rsecs : 0);
        mnw_wl_scratch_free(&one);
        mnw_aln_free(&ra);
        mnw_aln_free(&ma);
    }

    /* ---- the table ---- */
    double mnw_ps = (double)rows[0].pairs / rows[0].secs, mnw_g = (double)rows[0].cells / rows[0].secs / 1e9;
    printf("\n%-46s %7s %8s %9s %8s %9s %9s %7s  %s\n", "tool (1 thread each)", "pairs", "seconds", "pairs/s", "GCUPS",
           "mnw/tool", "mnw/tool", "others", "note");
    printf("%-46s %7s %8s %9s %8s %9s %9s %7s\n", "", "", "", "", "", "(GCUPS)", "(pairs/s)", "(CPUs)");
    int disturbed = 0;
    for (int x = 0; x < nrows; x++) {
        row *r = &rows[x];
        double ps = (double)r->pairs / r->secs, g = (double)r->cells / r->secs / 1e9;
        disturbed |= r->others > 0.2;
        printf("%-46s %7llu %8.2f %9.1f %8.3f %8.2fx %8.2fx %6.2f%s  %s\n", r->tool, (unsigned long long)r->pairs, r->secs, ps,
               g, mnw_g / g, mnw_ps / ps, r->others, r->others > 0.2 ? "!" : " ", r->note);
    }
    printf("\n* = parasail best nw_trace (highest GCUPS); parasail rows time a spread subset (pair x * %llu mod %llu), "
           "%g s each.\n",
           (unsigned long long)spread_step, (unsigned long long)npairs, budget);
    printf("GCUPS = sum of len_i x len_j over the pairs timed / seconds / 1e9.\n");
    printf("others = CPUs kept busy by other processes (and hypervisor steal) during that row's timing, on average "
           "(/proc/stat); %s\n",
           disturbed ? "rows marked ! (> 0.2) were disturbed: rerun on a quiet machine"
                     : "all rows <= 0.2: the machine was quiet");
    printf("verification: %s\n", total_bad ? "FAILED - some scores differ (see MISMATCH lines above)"
                                           : "all scores agree with mnw on every timed pair (reference: alignments too)");

    for (long x = 0; x < wl; x++) mnw_aln_free(&alns[x]);
    free(alns);
    mnw_wl_scratch_free(&scr);
    free(mnw_score);
    free(score2);
    free(score3);
    free(letters);
    free(id_order);
    mnw_seqset_free(&S);
    return total_bad ? 1 : 0;
}
