/* gpu_ptab.c - see gpu_ptab.h. */
#include "workers/gpu/gpu_ptab.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/prune.h"
#include "lib/prune_ed.h"

/* One thread's run of sequences [i0, i1): its arrays, offsets local to it. */
typedef struct {
    const mnw_seqset *s;
    mnw_gpu_pseq *ps;
    size_t i0, i1;
    int ed;
    uint32_t *runs;
    size_t nruns, cruns;
    uint64_t *guides;
    size_t nguides, cguides;
    uint32_t *peqs;
    size_t npeqs, cpeqs;
    size_t bad; /* the first sequence too long for the counts, or SIZE_MAX */
} chunk;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return p;
    size_t c = *cap ? *cap : 4096;
    while (c < need) c *= 2;
    *cap = c;
    return mnw_xrealloc(p, c * elem);
}

/* Sorts v[0 .. n) by the word in bits 32.. (2 MNW_PED_K bits), stably:
 * passes of 8 bits through tmp. */
static void sort_words(uint64_t *v, uint64_t *tmp, size_t n)
{
    for (int sh = 32; sh < 32 + 2 * MNW_PED_K; sh += 8) {
        size_t cnt[257];
        memset(cnt, 0, sizeof cnt);
        for (size_t x = 0; x < n; x++) cnt[((v[x] >> sh) & 255) + 1]++;
        for (int k = 0; k < 256; k++) cnt[k + 1] += cnt[k];
        for (size_t x = 0; x < n; x++) tmp[cnt[(v[x] >> sh) & 255]++] = v[x];
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* Stage 1: the q-gram runs (a bit set of the words met and a count per
 * word, scanned in word order) and the ambiguity count. */
static void qgram_runs(chunk *c, size_t i, uint16_t *cnt, uint64_t *bits)
{
    const uint8_t *a = mnw_seq_codes(c->s, i);
    const size_t len = mnw_seq_len(c->s, i);
    uint32_t v = 0;
    int run = 0, amb = 0;
    for (size_t p = 0; p < len; p++) {
        const uint8_t x = a[p];
        if (x < 4) {
            v = ((v << 2) | x) & 0xffffu;
            run++;
        } else {
            amb++;
            run = 0;
        }
        if (run >= MNW_PRUNE_Q) {
            bits[v >> 6] |= (uint64_t)1 << (v & 63);
            cnt[v]++;
        }
    }
    c->runs = grow(c->runs, &c->cruns, c->nruns + len + 1, sizeof *c->runs);
    mnw_gpu_pseq *q = &c->ps[i];
    q->code = c->s->off[i];
    q->woff = c->nruns;
    q->len = (int32_t)len;
    q->amb = amb;
    for (int w = 0; w < (1 << 16) / 64; w++)
        while (bits[w]) {
            const int b = __builtin_ctzll(bits[w]);
            const uint32_t word = (uint32_t)(w * 64 + b);
            c->runs[c->nruns++] = word << 16 | cnt[word];
            cnt[word] = 0;
            bits[w] &= bits[w] - 1;
        }
    q->nw = (int32_t)(c->nruns - q->woff);
}

/* Stage 2: the unique words and the stride windows, ED's pattern rows, the
 * band's base bitmaps (gpu_ptab.h). */
static void ed_rows(chunk *c, size_t i, uint64_t *win, uint64_t *tmp)
{
    const uint8_t *a = mnw_seq_codes(c->s, i);
    const size_t len = mnw_seq_len(c->s, i);
    const uint32_t kmask = (1u << (2 * MNW_PED_K)) - 1;
    mnw_gpu_pseq *q = &c->ps[i];
    size_t nwin = 0;
    uint32_t v = 0;
    int run = 0;
    for (size_t p = 0; p < len; p++) {
        if (a[p] < 4) {
            v = ((v << 2) | a[p]) & kmask;
            run++;
        } else
            run = 0;
        if (run >= MNW_PED_K) win[nwin++] = (uint64_t)v << 32 | (uint64_t)(p - MNW_PED_K + 1);
    }
    sort_words(win, tmp, nwin);
    c->guides = grow(c->guides, &c->cguides, c->nguides + nwin + nwin / MNW_PED_STRIDE + 2, sizeof *c->guides);
    q->uoff = c->nguides;
    for (size_t x = 0; x < nwin; x++) {
        const uint64_t w = win[x] >> 32;
        if ((x > 0 && win[x - 1] >> 32 == w) || (x + 1 < nwin && win[x + 1] >> 32 == w)) continue;
        c->guides[c->nguides++] = win[x];
    }
    q->nu = (int32_t)(c->nguides - q->uoff);
    q->soff = c->nguides;
    for (size_t x = 0; x < nwin; x++)
        if ((uint32_t)win[x] % MNW_PED_STRIDE == 0) c->guides[c->nguides++] = win[x];
    q->ns = (int32_t)(c->nguides - q->soff);

    const size_t W = (len + 31) / 32, Q = (len + 32 + 63) / 32 + 1;
    c->peqs = grow(c->peqs, &c->cpeqs, c->npeqs + 4 * W + 5 * Q, sizeof *c->peqs);
    uint32_t *pq = c->peqs + c->npeqs;
    memset(pq, 0, (4 * W + 5 * Q) * sizeof *pq);
    q->eoff = c->npeqs;
    for (size_t p = 0; p < len; p++)
        for (int x = 0; x < 4; x++)
            if (mnw_ped_bases[a[p]] >> x & 1) pq[(p / 32) * 4 + (size_t)x] |= 1u << (p % 32);
    q->boff = c->npeqs + 4 * W;
    uint32_t *bm = pq + 4 * W;
    for (size_t p = 0; p < len; p++)
        if (a[p] < 4) {
            const size_t b = p + 32;
            bm[5 * (b / 32) + a[p]] |= 1u << (b % 32);
            bm[5 * (b / 32) + 4] |= 1u << (b % 32);
        }
    /* row 4 also set outside b (the 32 bits before, those after the end):
     * the band kernel's fast cell takes a window whose columns are all
     * bases or outside b (its values there are never read) */
    bm[4] = ~0u;
    for (size_t q = (len + 32) / 32; q < Q; q++) bm[5 * q + 4] |= q == (len + 32) / 32 ? ~0u << ((len + 32) % 32) : ~0u;
    c->npeqs += 4 * W + 5 * Q;
}

static void *build(void *arg)
{
    chunk *c = arg;
    uint16_t *cnt = mnw_xcalloc((size_t)1 << 16, sizeof *cnt);
    uint64_t *bits = mnw_xcalloc((1 << 16) / 64, sizeof *bits);
    uint64_t *win = c->ed ? mnw_xmalloc((c->s->max_len + 1) * sizeof *win) : NULL;
    uint64_t *tmp = c->ed ? mnw_xmalloc((c->s->max_len + 1) * sizeof *tmp) : NULL;
    for (size_t i = c->i0; i < c->i1; i++) {
        if (mnw_seq_len(c->s, i) > 65535) { /* a word's count must fit its 16 bits */
            c->bad = i;
            break;
        }
        qgram_runs(c, i, cnt, bits);
        if (c->ed) ed_rows(c, i, win, tmp);
    }
    free(cnt);
    free(bits);
    free(win);
    free(tmp);
    return NULL;
}

int mnw_gpu_ptab_build(const mnw_seqset *s, int ed, int threads, int dev, mnw_gpu_ptab *t, mnw_err *e)
{
    memset(t, 0, sizeof *t);
    const size_t n = s->n;
    t->ps = mnw_xcalloc(n ? n : 1, sizeof *t->ps);
    size_t T = threads < 1 ? 1 : (size_t)threads;
    if (T > n / 64 + 1) T = n / 64 + 1; /* at least 64 sequences a thread */
    chunk *c = mnw_xcalloc(T, sizeof *c);
    pthread_t *th = mnw_xcalloc(T, sizeof *th);
    /* runs of about equal bases */
    const size_t total = s->off[n];
    size_t i = 0;
    for (size_t k = 0; k < T; k++) {
        c[k].s = s;
        c[k].ps = t->ps;
        c[k].ed = ed;
        c[k].bad = SIZE_MAX;
        c[k].i0 = i;
        const size_t goal = total / T * (k + 1);
        while (i < n && (k == T - 1 || s->off[i] < goal)) i++;
        c[k].i1 = i;
    }
    for (size_t k = 1; k < T; k++) CHECK_PT(pthread_create(&th[k], NULL, build, &c[k]));
    build(&c[0]);
    for (size_t k = 1; k < T; k++) CHECK_PT(pthread_join(th[k], NULL));
    size_t bad = SIZE_MAX;
    for (size_t k = 0; k < T && bad == SIZE_MAX; k++) bad = c[k].bad;
    int rc = 0;
    if (bad != SIZE_MAX)
        rc = mnw_err_set(e, "GPU %d: sequence %s has %zu bases, more than the filter's tables hold (65535)", dev,
                         mnw_seq_id(s, bad), mnw_seq_len(s, bad));
    else { /* join the runs in order: each offset moves by what the earlier runs hold */
        size_t nr = 0, ng = 0, np = 0;
        for (size_t k = 0; k < T; k++) {
            nr += c[k].nruns;
            ng += c[k].nguides;
            np += c[k].npeqs;
        }
        t->runs = mnw_xmalloc((nr ? nr : 1) * sizeof *t->runs);
        if (ed) {
            t->guides = mnw_xmalloc((ng ? ng : 1) * sizeof *t->guides);
            t->peqs = mnw_xmalloc((np ? np : 1) * sizeof *t->peqs);
        }
        for (size_t k = 0; k < T; k++) {
            if (c[k].nruns) memcpy(t->runs + t->nruns, c[k].runs, c[k].nruns * sizeof *t->runs);
            if (c[k].nguides) memcpy(t->guides + t->nguides, c[k].guides, c[k].nguides * sizeof *t->guides);
            if (c[k].npeqs) memcpy(t->peqs + t->npeqs, c[k].peqs, c[k].npeqs * sizeof *t->peqs);
            for (size_t j = c[k].i0; j < c[k].i1; j++) {
                t->ps[j].woff += t->nruns;
                if (ed) {
                    t->ps[j].uoff += t->nguides;
                    t->ps[j].soff += t->nguides;
                    t->ps[j].eoff += t->npeqs;
                    t->ps[j].boff += t->npeqs;
                }
            }
            t->nruns += c[k].nruns;
            t->nguides += c[k].nguides;
            t->npeqs += c[k].npeqs;
        }
    }
    for (size_t k = 0; k < T; k++) {
        free(c[k].runs);
        free(c[k].guides);
        free(c[k].peqs);
    }
    free(c);
    free(th);
    return rc;
}

void mnw_gpu_ptab_free(mnw_gpu_ptab *t)
{
    free(t->ps);
    free(t->runs);
    free(t->guides);
    free(t->peqs);
    memset(t, 0, sizeof *t);
}
