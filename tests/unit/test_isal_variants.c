/* test_isal_variants.c - the evidence for --gzip-level fast's one claim
 * beyond round-tripping (lib/gzmember.h): ISA-L's igzip at levels 1 and 2
 * writes the same bytes whichever of its CPU-specific bodies runs (SSE4.2,
 * AVX2, AVX-512) and whichever encoder (base, AVX-512, AVX-512 gen 2), so a
 * run's gzip members do not depend on the nodes that wrote them. Inside
 * libisal the level dispatchers are called through its PLT, so this
 * program's own definitions of them take their place and call a chosen
 * body and encoder (the variants are exported by libisal 2.30, Debian 12's;
 * a libisal without them fails here, and the claim must be checked again).
 * Only the variants this CPU can run are compared. The plain-C body (for
 * CPUs without SSE4.2) writes other bytes, as docs/DECISIONS.md says;
 * the test shows that too, so that it can tell variants apart at all. */
#include <dlfcn.h>
#include <isa-l/igzip_lib.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/gzmember.h"
#include "tests/tap.h"

typedef void (*body_fn)(void *, void *);
typedef void *(*enc_fn)(void *, void *, void *, void *);
static body_fn body_now, finish_now;
static enc_fn enc_now;
static long calls;

/* the library's dispatchers for levels 1 and 2 and its encoder, replaced */
void isal_deflate_icf_body_lvl1(void *a, void *b);
void isal_deflate_icf_body_lvl2(void *a, void *b);
void isal_deflate_icf_finish_lvl1(void *a, void *b);
void isal_deflate_icf_finish_lvl2(void *a, void *b);
void *encode_deflate_icf(void *a, void *b, void *c, void *d);
void isal_deflate_icf_body_lvl1(void *a, void *b) { calls++, body_now(a, b); }
void isal_deflate_icf_body_lvl2(void *a, void *b) { calls++, body_now(a, b); }
void isal_deflate_icf_finish_lvl1(void *a, void *b) { finish_now(a, b); }
void isal_deflate_icf_finish_lvl2(void *a, void *b) { finish_now(a, b); }
void *encode_deflate_icf(void *a, void *b, void *c, void *d) { return enc_now(a, b, c, d); }

static void *sym(const char *name)
{
    void *p = dlsym(RTLD_DEFAULT, name);
    T_OK(p != NULL, "libisal exports %s", name);
    return p;
}

/* in compressed at level lvl as gzip members of 1.5 MB (a work list's
 * with CIGARs) into out */
static int compress(const mnw_buf *in, int lvl, mnw_buf *out)
{
    static unsigned char lb[ISAL_DEF_LVL2_DEFAULT > ISAL_DEF_LVL1_DEFAULT ? ISAL_DEF_LVL2_DEFAULT : ISAL_DEF_LVL1_DEFAULT];
    const size_t chunk = 1500000;
    out->len = 0;
    for (size_t p = 0; p < in->len; p += chunk) {
        size_t l = in->len - p < chunk ? in->len - p : chunk;
        mnw_buf_reserve(out, l * 2 + 1024);
        struct isal_zstream s;
        isal_deflate_stateless_init(&s);
        s.level = (uint32_t)lvl;
        s.level_buf = lb;
        s.level_buf_size = lvl == 1 ? ISAL_DEF_LVL1_DEFAULT : ISAL_DEF_LVL2_DEFAULT;
        s.gzip_flag = IGZIP_GZIP;
        s.next_in = (uint8_t *)in->p + p;
        s.avail_in = (uint32_t)l;
        s.next_out = (uint8_t *)out->p + out->len;
        s.avail_out = (uint32_t)(out->cap - out->len);
        s.end_of_stream = 1;
        if (isal_deflate_stateless(&s) != COMP_OK) return -1;
        out->len += s.total_out;
    }
    return 0;
}

int main(void)
{
    /* real text: the 200 real 16S genes of tests/data, then CIGAR-like runs */
    mnw_buf text, ref, got;
    mnw_buf_init(&text);
    mnw_buf_init(&ref);
    mnw_buf_init(&got);
    FILE *f = fopen("tests/data/16s-200.fa", "rb");
    char tmp[65536];
    size_t n;
    while (f && (n = fread(tmp, 1, sizeof tmp, f)) > 0) mnw_buf_put(&text, tmp, n);
    if (f) fclose(f);
    T_OK(text.len > 300000, "tests/data/16s-200.fa read (%zu bytes)", text.len);
    uint64_t y = 99;
    while (text.len < (3u << 20)) {
        y = y * 6364136223846793005ull + 1442695040888963407ull;
        mnw_buf_put_u64(&text, 1 + (y >> 59));
        mnw_buf_putc(&text, "=XID"[(y >> 40) % 3 == 0 ? (y >> 20) % 4 : 0]);
        if ((y >> 33) % 500 == 0) mnw_buf_putc(&text, '\n');
    }

    body_fn bodies[4] = {sym("isal_deflate_icf_body_hash_hist_base"), sym("isal_deflate_icf_body_hash_hist_01"),
                         sym("isal_deflate_icf_body_hash_hist_02"), sym("isal_deflate_icf_body_hash_hist_04")};
    body_fn finishes[2] = {sym("isal_deflate_icf_finish_hash_hist_base"), sym("isal_deflate_icf_finish_hash_hist_01")};
    enc_fn encs[3] = {(enc_fn)(uintptr_t)sym("encode_deflate_icf_base"), (enc_fn)(uintptr_t)sym("encode_deflate_icf_04"),
                      (enc_fn)(uintptr_t)sym("encode_deflate_icf_06")};
    const char *bname[4] = {"plain C", "SSE4.2", "AVX2", "AVX-512"}, *ename[3] = {"base", "AVX-512", "AVX-512 gen 2"};
    __builtin_cpu_init();
    const int can[4] = {1, __builtin_cpu_supports("sse4.2"), __builtin_cpu_supports("avx2"),
                        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                            __builtin_cpu_supports("avx512vl")};
    const int ecan[3] = {1, can[3], can[3] && __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("gfni") &&
                                        __builtin_cpu_supports("vpclmulqdq")};
    for (int k = 0; k < 4; k++)
        if (!bodies[k]) return t_exit();
    for (int k = 0; k < 3; k++)
        if (!encs[k]) return t_exit();
    if (!finishes[0] || !finishes[1]) return t_exit();
    T_OK(can[1], "this CPU has SSE4.2 (x86-64-v2: every node mnw supports)");

    for (int lvl = 1; lvl <= 2; lvl++) {
        body_now = bodies[1], finish_now = finishes[1], enc_now = encs[0];
        calls = 0;
        T_OK(compress(&text, lvl, &ref) == 0 && calls > 0, "level %d, SSE4.2 body and base encoder: %zu bytes (%ld body calls)",
             lvl, ref.len, calls);
        for (int b = 1; b < 4; b++)
            for (int en = 0; en < 3; en++) {
                if (!can[b] || !ecan[en]) {
                    printf("# level %d: the %s body with the %s encoder: not on this CPU\n", lvl, bname[b], ename[en]);
                    continue;
                }
                body_now = bodies[b], enc_now = encs[en];
                T_OK(compress(&text, lvl, &got) == 0 && got.len == ref.len && !memcmp(got.p, ref.p, ref.len),
                     "level %d: the %s body with the %s encoder writes the same %zu bytes", lvl, bname[b], ename[en],
                     got.len);
            }
        body_now = bodies[0], finish_now = finishes[0], enc_now = encs[0];
        T_OK(compress(&text, lvl, &got) == 0 && (got.len != ref.len || memcmp(got.p, ref.p, ref.len)),
             "level %d: the plain-C body (CPUs without SSE4.2) writes other bytes (%zu): the variants are told apart",
             lvl, got.len);
    }
    /* mnw's fast level through its own path, the library's dispatch back */
    body_now = bodies[1], finish_now = finishes[1], enc_now = encs[0];
    T_OK(MNW_GZIP_FAST_ISAL == 2 && compress(&text, 2, &ref) == 0 &&
             mnw_gzip_member(text.p, 1500000, MNW_GZIP_FAST, &got) == 0 && got.len > 100,
         "mnw's fast level is igzip's level %d, which this test covers", MNW_GZIP_FAST_ISAL);
    mnw_buf_free(&text);
    mnw_buf_free(&ref);
    mnw_buf_free(&got);
    return t_exit();
}
