/* test_gpu_ptab.c - workers/gpu/gpu_ptab.c, the GPU filter's per-sequence
 * tables (issue 39), on the host: built by 1, 3 and 16 threads from 16s-200
 * plus sequences built for the edges (empty, 1 base, all N, N every 7,
 * 11 and 12 ACGT bases, a tandem repeat of 12 bases, the longest gene
 * twice over), the arrays are byte-identical, and each sequence's entries
 * are checked against a direct computation: the q-gram runs (every ACGT
 * 8-mer window counted, sorted, the counts), the ambiguity count, the
 * unique 12-mers (a word listed iff it occurs once, at its position), the
 * windows at multiples of 4 (all of them, sorted by word then position),
 * ED's pattern rows (bit i of row x iff code i's base set holds x) and the
 * band's bitmaps (bit i + 32 of row y iff code i is y; row 4 iff a base;
 * outside the sequence rows 0-3 zero, row 4 one). A sequence over 65535
 * bases is refused, naming it. */
#include <stdlib.h>
#include <string.h>

#include "lib/fasta.h"
#include "lib/prune.h"
#include "lib/prune_ed.h"
#include "tests/tap.h"
#include "workers/gpu/gpu_ptab.h"

static void add(mnw_seqset *S, const char *id, const uint8_t *c, size_t n)
{
    mnw_seqset_add(S, id, c, n);
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* every window of k ACGT bases (runs restart at a code >= 4) as word << 32
 * | position, sorted by word then position */
static size_t windows(const uint8_t *a, size_t len, int k, uint64_t *out)
{
    size_t n = 0;
    const uint32_t mask = k == 16 ? 0xffffffffu : (1u << (2 * k)) - 1;
    uint32_t v = 0;
    int run = 0;
    for (size_t p = 0; p < len; p++) {
        if (a[p] < 4) {
            v = ((v << 2) | a[p]) & mask;
            run++;
        } else
            run = 0;
        if (run >= k) out[n++] = (uint64_t)v << 32 | (uint64_t)(p - (size_t)k + 1);
    }
    qsort(out, n, sizeof *out, cmp_u64);
    return n;
}

/* 0 when sequence i's entries in t are right */
static int check_one(const mnw_seqset *S, size_t i, const mnw_gpu_ptab *t, uint64_t *w)
{
    const uint8_t *a = mnw_seq_codes(S, i);
    const size_t len = mnw_seq_len(S, i);
    const mnw_gpu_pseq *q = &t->ps[i];
    if (q->code != S->off[i] || q->len != (int32_t)len) return 1;
    int amb = 0;
    for (size_t p = 0; p < len; p++) amb += a[p] >= 4;
    if (q->amb != amb) return 2;
    /* q-gram runs */
    size_t n = windows(a, len, MNW_PRUNE_Q, w), r = 0;
    for (size_t x = 0; x < n;) {
        size_t y = x;
        while (y < n && w[y] >> 32 == w[x] >> 32) y++;
        if (r >= (size_t)q->nw || t->runs[q->woff + r] != ((uint32_t)(w[x] >> 32) << 16 | (uint32_t)(y - x))) return 3;
        r++;
        x = y;
    }
    if (r != (size_t)q->nw) return 4;
    /* unique 12-mers and stride windows */
    n = windows(a, len, MNW_PED_K, w);
    size_t u = 0, s = 0;
    for (size_t x = 0; x < n; x++) {
        const int once = (x == 0 || w[x - 1] >> 32 != w[x] >> 32) && (x + 1 == n || w[x + 1] >> 32 != w[x] >> 32);
        if (once && (u >= (size_t)q->nu || t->guides[q->uoff + u++] != w[x])) return 5;
    }
    if (u != (size_t)q->nu) return 6;
    for (size_t x = 0; x < n; x++)
        if ((uint32_t)w[x] % MNW_PED_STRIDE == 0 && (s >= (size_t)q->ns || t->guides[q->soff + s++] != w[x])) return 7;
    if (s != (size_t)q->ns) return 8;
    /* ED's rows and the band's bitmaps */
    const size_t W = (len + 31) / 32, Q = (len + 32 + 63) / 32 + 1;
    for (size_t p = 0; p < W * 32; p++)
        for (int x = 0; x < 4; x++) {
            const int want = p < len && (mnw_ped_bases[a[p]] >> x & 1);
            if (((t->peqs[q->eoff + (p / 32) * 4 + (size_t)x] >> (p % 32)) & 1) != (uint32_t)want) return 9;
        }
    if (q->boff != q->eoff + 4 * W) return 10;
    for (size_t b = 0; b < Q * 32; b++)
        for (int y = 0; y < 5; y++) {
            const size_t p = b - 32;
            const int inside = b >= 32 && p < len;
            const int want = inside ? a[p] < 4 && (y == 4 || a[p] == y) : y == 4;
            if (((t->peqs[q->boff + 5 * (b / 32) + (size_t)y] >> (b % 32)) & 1) != (uint32_t)want) return 11;
        }
    return 0;
}

int main(void)
{
    mnw_err e;
    mnw_seqset S;
    mnw_seqset_init(&S);
    T_MUST(mnw_fasta_read("tests/data/16s-200.fa", &S, &e), e);
    size_t longest = 0;
    for (size_t i = 0; i < S.n; i++)
        if (mnw_seq_len(&S, i) > mnw_seq_len(&S, longest)) longest = i;
    /* the built sequences */
    uint8_t buf[8000];
    add(&S, "empty", buf, 0);
    buf[0] = 2;
    add(&S, "one", buf, 1);
    memset(buf, 14, 100);
    add(&S, "allN", buf, 100);
    for (int p = 0; p < 300; p++) buf[p] = p % 7 == 6 ? 14 : (uint8_t)((p * 5 + p / 3) % 4);
    add(&S, "N7", buf, 300);
    for (int p = 0; p < 12; p++) buf[p] = (uint8_t)(p % 4);
    add(&S, "eleven", buf, 11);
    add(&S, "twelve", buf, 12);
    for (int p = 0; p < 240; p++) buf[p] = (uint8_t)((p % 12) * 7 % 4);
    add(&S, "tandem", buf, 240);
    const size_t ll = mnw_seq_len(&S, longest);
    memcpy(buf, mnw_seq_codes(&S, longest), ll);
    memcpy(buf + ll, mnw_seq_codes(&S, longest), ll);
    add(&S, "twice", buf, 2 * ll);

    mnw_gpu_ptab t[3];
    static const int th[3] = {1, 3, 16};
    for (int k = 0; k < 3; k++) T_MUST(mnw_gpu_ptab_build(&S, 1, th[k], 0, &t[k], &e), e);
    int same = 1;
    for (int k = 1; k < 3; k++)
        same &= t[k].nruns == t[0].nruns && t[k].nguides == t[0].nguides && t[k].npeqs == t[0].npeqs &&
                !memcmp(t[k].ps, t[0].ps, S.n * sizeof *t[0].ps) &&
                !memcmp(t[k].runs, t[0].runs, t[0].nruns * sizeof *t[0].runs) &&
                !memcmp(t[k].guides, t[0].guides, t[0].nguides * sizeof *t[0].guides) &&
                !memcmp(t[k].peqs, t[0].peqs, t[0].npeqs * sizeof *t[0].peqs);
    T_OK(same, "the tables of %zu sequences built by 1, 3 and 16 threads are byte-identical", S.n);
    uint64_t *w = malloc((2 * ll + 16) * sizeof *w);
    int bad = 0, first = 0;
    size_t bad_i = 0;
    for (size_t i = 0; i < S.n; i++) {
        const int r = check_one(&S, i, &t[1], w);
        if (r && !bad++) {
            first = r;
            bad_i = i;
        }
    }
    T_OK(bad == 0, "every sequence's entries equal a direct computation (%d wrong; the first %s, check %d)", bad,
         bad ? mnw_seq_id(&S, bad_i) : "-", first);
    /* without stage 2: its arrays absent, stage 1's the same */
    mnw_gpu_ptab t1;
    T_MUST(mnw_gpu_ptab_build(&S, 0, 4, 0, &t1, &e), e);
    int s1 = t1.guides == NULL && t1.peqs == NULL && t1.nruns == t[0].nruns &&
             !memcmp(t1.runs, t[0].runs, t1.nruns * sizeof *t1.runs);
    for (size_t i = 0; i < S.n; i++)
        s1 &= t1.ps[i].woff == t[0].ps[i].woff && t1.ps[i].nw == t[0].ps[i].nw && t1.ps[i].amb == t[0].ps[i].amb;
    T_OK(s1, "without stage 2: no stage 2 arrays, stage 1's runs the same");
    mnw_gpu_ptab_free(&t1);
    for (int k = 0; k < 3; k++) mnw_gpu_ptab_free(&t[k]);
    free(w);

    /* a sequence too long for the 16-bit counts is refused, naming it */
    {
        mnw_seqset L;
        mnw_seqset_init(&L);
        uint8_t *big = malloc(70000);
        for (int p = 0; p < 70000; p++) big[p] = (uint8_t)(p * 7 % 4);
        add(&L, "short", big, 100);
        add(&L, "huge", big, 70000);
        mnw_gpu_ptab tl;
        const int rc = mnw_gpu_ptab_build(&L, 1, 2, 3, &tl, &e);
        T_OK(rc == -1 && strstr(e.msg, "GPU 3: sequence huge has 70000 bases") != NULL,
             "a 70,000-base sequence is refused, naming it (%s)", rc ? e.msg : "accepted");
        mnw_gpu_ptab_free(&tl);
        free(big);
        mnw_seqset_free(&L);
    }
    mnw_seqset_free(&S);
    return t_exit();
}
