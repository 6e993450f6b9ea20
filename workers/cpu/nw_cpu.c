/* nw_cpu.c - see nw_cpu.h: instruction-set dispatch (resolved once) and the
 * split of a target list into lane groups of the right score width. */
#include "workers/cpu/nw_cpu.h"

#include <pthread.h>
#include <stdlib.h>

#include "lib/util.h"
#include "workers/cpu/nw_kernel_int.h"

typedef struct {
    const char *name, *cpu_feature;
    mnw_kernel_fn k16, k32;
    mnw_kernel_dirs_fn d16, d32;
    int lanes16, lanes32;
    int dirword16, dirword32; /* bytes of direction bits per cell vector (sizeof DIR_T) */
} isa_t;

/* widest first; every CPU with one of them has the ones below it */
static const isa_t isas[] = {
    {"avx512", "avx512bw", mnw_nw_avx512_16, mnw_nw_avx512_32, mnw_nw_avx512_16_dirs, mnw_nw_avx512_32_dirs, 32, 16, 8, 4},
    {"avx2", "avx2", mnw_nw_avx2_16, mnw_nw_avx2_32, mnw_nw_avx2_16_dirs, mnw_nw_avx2_32_dirs, 16, 8, 4, 4},
    {"sse41", "sse4.1", mnw_nw_sse41_16, mnw_nw_sse41_32, mnw_nw_sse41_16_dirs, mnw_nw_sse41_32_dirs, 8, 4, 2, 2},
};
#define NISA ((int)(sizeof isas / sizeof *isas))
/* Direction bits one lane group may take before a narrower instruction set
 * is used for it (long sequences only: 16S pairs take 18 MB at most). */
#define DIR_BUDGET ((size_t)256 << 20)

static int isa_used = -1;
static pthread_once_t isa_once = PTHREAD_ONCE_INIT;

/* ThreadSanitizer builds (make tsan) compile the SIMD kernels without
 * instrumentation: their vector loads and stores took about 90% of a TSan
 * run's time (Makefile). Each kernel call is told to TSan here instead, one
 * access per buffer: the sequences it read, the workspace it used (its
 * header stands for the workspace's own direction bits, which never leave
 * the thread), the results or, for mnw_cpu_dirs, the direction bits and end
 * cells it wrote for the trace-back thread. A race on any of them is still
 * reported, at the granularity of a kernel call. Other builds: nothing. */
#if defined(__SANITIZE_THREAD__)
void __tsan_read_range(void *addr, unsigned long size);
void __tsan_write_range(void *addr, unsigned long size);
static void tsan_kernel(mnw_cpu_ws *ws, const uint8_t *q, int m, const uint8_t *const *t, const int *n, int count,
                        void *out, size_t out_bytes, void *ends, size_t ends_bytes)
{
    __tsan_read_range((void *)q, (unsigned long)m);
    for (int l = 0; l < count; l++) __tsan_read_range((void *)t[l], (unsigned long)n[l]);
    __tsan_write_range(ws, sizeof *ws);
    if (ws->rows) __tsan_write_range(ws->rows, ws->rows_bytes);
    if (ws->lastcol) __tsan_write_range(ws->lastcol, ws->lastcol_n * sizeof *ws->lastcol);
    __tsan_write_range(out, out_bytes);
    if (ends) __tsan_write_range(ends, ends_bytes);
}
#else
#define tsan_kernel(...) ((void)0)
#endif

static int cpu_has(const char *f)
{
    if (!strcmp(f, "avx512bw")) return __builtin_cpu_supports("avx512bw");
    if (!strcmp(f, "avx2")) return __builtin_cpu_supports("avx2");
    return __builtin_cpu_supports("sse4.1");
}

static void isa_pick(void)
{
    const char *force = getenv("MNW_SIMD");
    __builtin_cpu_init();
    isa_used = -1;
    for (int k = 0; k < NISA && isa_used < 0; k++)
        if (cpu_has(isas[k].cpu_feature) && (!force || !*force || !strcmp(force, isas[k].name))) isa_used = k;
    if (isa_used < 0 && force) /* an unknown or unsupported MNW_SIMD: the best there is */
        for (int k = 0; k < NISA && isa_used < 0; k++)
            if (cpu_has(isas[k].cpu_feature)) isa_used = k;
}

static const isa_t *isa(void)
{
    CHECK_PT(pthread_once(&isa_once, isa_pick));
    return isa_used < 0 ? NULL : &isas[isa_used];
}

const char *mnw_cpu_isa(void) { return isa() ? isa()->name : NULL; }
int mnw_cpu_lanes(void) { return isa() ? isa()->lanes16 : 0; }

void mnw_ws_reserve(void **buf, size_t *have, size_t need)
{
    if (*have >= need) return;
    size_t sz = (need + 63) & ~(size_t)63;
    sz += sz / 4;
    sz = (sz + 63) & ~(size_t)63;
    free(*buf);
    *buf = mnw_xaligned(64, sz);
    *have = sz;
}

mnw_cpu_ws *mnw_cpu_ws_new(void) { return mnw_xcalloc(1, sizeof(mnw_cpu_ws)); }

void mnw_cpu_ws_figures(mnw_cpu_ws *ws, const mnw_eqtab *figs) { ws->figs = figs; }

void mnw_cpu_ws_free(mnw_cpu_ws *ws)
{
    if (!ws) return;
    free(ws->dir);
    free(ws->rows);
    free(ws->lastcol);
    free(ws);
}

void mnw_cpu_plan(const mnw_scoring *sc, int m, const int *n, int count, mnw_cpu_group *gp)
{
    const isa_t *is = isa();
    int g = count < is->lanes16 ? count : is->lanes16;
    int maxn = 0;
    for (int l = 0; l < g; l++)
        if (n[l] > maxn) maxn = n[l];
    const int affine = mnw_scoring_affine(sc);
    size_t dir = mnw_nw_dir_bytes((size_t)is->dirword16, m, maxn, affine);
    while (dir > DIR_BUDGET && is + 1 < isas + NISA) {
        is++;
        dir = mnw_nw_dir_bytes((size_t)is->dirword16, m, maxn, affine);
        if (g > is->lanes16) g = is->lanes16;
    }
    int all16 = 1;
    for (int l = 0; l < g && all16; l++) all16 = mnw_fits16(sc, m, n[l]);
    int word = is->dirword16;
    if (!all16) {
        if (g > is->lanes32) g = is->lanes32;
        word = is->dirword32;
    }
    maxn = 0; /* of the group as it ends up (32-bit lanes: fewer) */
    for (int l = 0; l < g; l++)
        if (n[l] > maxn) maxn = n[l];
    gp->count = g;
    gp->dir_bytes = mnw_nw_dir_bytes((size_t)word, m, maxn, affine);
    gp->isa_ = (int)(is - isas);
    gp->wide_ = !all16;
}

void mnw_cpu_dirs(mnw_cpu_ws *ws, const mnw_cpu_group *g, const mnw_scoring *sc, const uint8_t *q, int m,
                  const uint8_t *const *t, const int *n, void *dir, mnw_tb_end *ends)
{
    const isa_t *is = &isas[g->isa_];
    (g->wide_ ? is->d32 : is->d16)(ws, sc, q, m, t, n, g->count, dir, ends);
    tsan_kernel(ws, q, m, t, n, g->count, dir, g->dir_bytes, ends, (size_t)g->count * sizeof *ends);
}

void mnw_cpu_align(mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m,
                   const uint8_t *const *t, const int *n, int count, mnw_aln *out)
{
    int k = 0;
    while (k < count) {
        mnw_cpu_group g;
        mnw_cpu_plan(sc, m, n + k, count - k, &g);
        const isa_t *is = &isas[g.isa_];
        (g.wide_ ? is->k32 : is->k16)(ws, sc, q, m, t + k, n + k, g.count, out + k);
        tsan_kernel(ws, q, m, t + k, n + k, g.count, out + k, (size_t)g.count * sizeof *out, NULL, 0);
        k += g.count;
    }
}
