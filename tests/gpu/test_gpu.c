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
 * fewer and shorter pairs, since warps run lane by lane there. */
#include <stdlib.h>
#include <string.h>

#include "lib/fasta.h"
#include "tests/tap.h"
#include "workers/cpu/nw_cpu.h"
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
    const mnw_scoring modes[] = {{4, -5, 10, 10, 0}, {4, -5, 12, 3, 0}, {4, -5, 10, 10, 1},   {4, -5, 12, 3, 1},
                                 {2, -3, 5, 2, 0},   {150, -9, 10, 10, 1}, {80, -30, 60, 20, 0},
                                 {80, -30, 70, 21, 0}};
    const char *mname[] = {"linear",          "affine",
                           "free-end-gaps",   "affine+free-end-gaps",
                           "affine 2/-3/5/2", "free-end-gaps 150/-9/10 (16-bit bound)",
                           "affine 80/-30/60/20 (16-bit bound)", "affine 80/-30/70/21 (past the bound: 32-bit lanes)"};
    const size_t past = 7; /* 4 (T + 48 L) + 2 = 33,918 */
    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    mnw_aln *ref = calloc((size_t)np, sizeof *ref), *got = calloc((size_t)np, sizeof *got);
    int *refused = calloc((size_t)np, sizeof *refused);
    for (int x = 0; x < np; x++) {
        mnw_aln_init(&ref[x]);
        mnw_aln_init(&got[x]);
    }
    for (size_t mi = 0; mi < sizeof modes / sizeof *modes; mi++) {
        if (only >= 0 && (int)mi != only) continue;
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
                if (mi >= 5 && (bs || !tbdev)) continue; /* the bounds: device trace-back, two per lane */
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
