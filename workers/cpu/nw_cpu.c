/* nw_cpu.c - see nw_cpu.h: instruction-set dispatch (resolved once) and the
 * split of a target list into lane groups of the right score width. */
#include "nw_cpu.h"

#include <pthread.h>
#include <stdlib.h>

#include "nw_kernel.h"
#include "util.h"

typedef struct {
    const char *name;
    mnw_kernel_fn k16, k32;
    int lanes16, lanes32;
} isa_t;

static const isa_t isa_avx2 = {"avx2", mnw_nw_avx2_16, mnw_nw_avx2_32, 16, 8};
static const isa_t isa_sse41 = {"sse41", mnw_nw_sse41_16, mnw_nw_sse41_32, 8, 4};
static const isa_t *isa_used;
static pthread_once_t isa_once = PTHREAD_ONCE_INIT;

static void isa_pick(void)
{
    const char *force = getenv("MNW_SIMD");
    __builtin_cpu_init();
    int has_avx2 = __builtin_cpu_supports("avx2");
    int has_sse41 = __builtin_cpu_supports("sse4.1");
    if (force && strcmp(force, "sse41") == 0 && has_sse41) isa_used = &isa_sse41;
    else if (force && strcmp(force, "avx2") == 0 && has_avx2) isa_used = &isa_avx2;
    else if (has_avx2) isa_used = &isa_avx2;
    else if (has_sse41) isa_used = &isa_sse41;
    else isa_used = NULL;
}

static const isa_t *isa(void)
{
    CHECK_PT(pthread_once(&isa_once, isa_pick));
    return isa_used;
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
    *buf = aligned_alloc(64, sz);
    if (!*buf) {
        fprintf(stderr, "mnw: %s:%d: out of memory allocating %zu bytes\n", __FILE__, __LINE__, sz);
        abort();
    }
    *have = sz;
}

mnw_cpu_ws *mnw_cpu_ws_new(void) { return mnw_xcalloc(1, sizeof(mnw_cpu_ws)); }

void mnw_cpu_ws_free(mnw_cpu_ws *ws)
{
    if (!ws) return;
    free(ws->dir);
    free(ws->rows);
    free(ws->lastcol);
    free(ws);
}

void mnw_cpu_align(mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m,
                   const uint8_t *const *t, const int *n, int count, mnw_aln *out)
{
    const isa_t *is = isa();
    int k = 0;
    while (k < count) {
        int g = count - k < is->lanes16 ? count - k : is->lanes16;
        int all16 = 1;
        for (int l = 0; l < g && all16; l++) all16 = mnw_fits16(sc, m, n[k + l]);
        if (all16) {
            is->k16(ws, sc, q, m, t + k, n + k, g, out + k);
        } else {
            if (g > is->lanes32) g = is->lanes32;
            is->k32(ws, sc, q, m, t + k, n + k, g, out + k);
        }
        k += g;
    }
}
