/* prune_proto.c - issue 39, step 1: a CPU prototype of an exact filter that
 * proves pairs to be beyond the distance cutoff before the DP, and its
 * measured prune rate on real pairs. The bound and its proof: docs/PRUNE.md.
 *
 * Scope: the default identity definition (vsearch2, M / (L - T)) and linear
 * gaps without free end gaps (the default scoring, +4 / -5 / gap 10,
 * ambiguity codes 0); the program refuses anything else.
 *
 * For a pair (a = sequence i, b = sequence j < i) with na, nb bases:
 *   shared = sum over the q-grams w of ACGT only of min(count in a, count in b)
 *   A      = ambiguity codes in a + ambiguity codes in b
 *   S      = the score of a cheap global alignment: the best path inside a
 *            band of 2w+1 diagonals around diagonal 0 or around diagonal
 *            nb - na (two passes; the path enters the band from row 0 or
 *            column 0 and leaves it to row na or column nb by a terminal
 *            gap run), a lower bound of the optimal score S*
 *   Pmin   = ceil((S + g (na + nb)) / (ms + 2 g)), a lower bound of the aligned
 *            columns of every optimal alignment (PRUNE.md, lemma 3)
 *   d      = D' / (1 - D'), D' = D + 1e-9 (room for the double rounding of
 *            the distance mnw computes)
 *   need   = Pmin (1 - q d) - q A - (q - 1)
 * The pair is pruned when 1 - q d > 0 and shared < need: then every optimal
 * alignment, the tie-broken one mnw reports included, has distance > D
 * (PRUNE.md, theorem). The band DP runs only for the pairs whose shared count
 * is below need computed with Pmin = min(na, nb) (the others are kept at once).
 *
 * Usage: prune_proto FASTA --cutoff D [--q Q] [--w W] [--genes N] [--check]
 *                    [--dp-pairs N]
 *   --q Q        q-gram length, 2..12 (default 8)
 *   --w W        band half-width of the cheap alignment (default 4)
 *   --genes N    the first N genes only (default all)
 *   --check      align every pair with mnw's CPU aligner (counts mode, as a
 *                dist run does), compute its distance with lib/identity.c,
 *                and fail (exit 1, naming the pair) if a pruned pair has
 *                distance <= D, or if a band score is above the optimal score
 *                (lemma 3's premise); also counts the pairs within D
 *   --dp-pairs N without --check: pairs aligned (the last queries' rows) to
 *                measure the DP's cost per pair (default 20000)
 *   --diag       when the global count does not prune a pair, count the
 *                windows of a that have an equal window of b on a diagonal
 *                an optimal alignment can use (PRUNE.md, lemma 1'); every
 *                pair then takes the band DP
 *   --ed         when the count does not prune a pair, the edit-distance
 *                bound (PRUNE.md, the candidate for larger D): every pair
 *                then takes the band DP (scalar Myers bit-vector, slow)
 *   --prune-all  (tests only) prune every pair, ignoring the bound, so that
 *                --check must fail where a pair lies within D
 * One thread. Exit 0, 1 (a pruned pair within D), 2 (usage, input).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/score.h"
#include "lib/util.h"
#include "workers/cpu/nw_cpu.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static void *xcalloc(size_t n, size_t s)
{
    void *p = calloc(n ? n : 1, s ? s : 1);
    if (!p) {
        fprintf(stderr, "prune_proto: out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- the cheap alignment: banded DP, LANES pairs at once (one query, LANES
 * targets), each lane its own band centre. int32 lanes: no overflow for any
 * length mnw accepts. ---- */
#define LANES 16
#define NEG (-(1 << 28))

typedef struct {
    int32_t *tt;   /* [idx][lane]: b[c - 1] where 1 <= c <= n, else 15 */
    int32_t *hp, *hc;
    size_t cap_idx, cap_k;
} band_ws;

static void band_reserve(band_ws *ws, size_t nidx, size_t K)
{
    if (nidx > ws->cap_idx) {
        free(ws->tt);
        ws->tt = mnw_xmalloc(nidx * LANES * sizeof(int32_t));
        ws->cap_idx = nidx;
    }
    if (K + 1 > ws->cap_k) {
        free(ws->hp);
        free(ws->hc);
        ws->hp = mnw_xmalloc((K + 1) * LANES * sizeof(int32_t));
        ws->hc = mnw_xmalloc((K + 1) * LANES * sizeof(int32_t));
        ws->cap_k = K + 1;
    }
}

/* The rows, compiled for the widest vector unit the CPU has. Cell (r, c) of
 * lane l sits in slot k = c - r - off[l]. A cell of the grid with c >= 1
 * reads only cells of the grid (c - 1 >= 0 and c <= n), so the cells outside
 * the grid need no test: those with c < 0 start at NEG in row 0 and stay
 * near it (they only feed column 0, where the up move gives the exact -g r;
 * the slot right of the band holds column 0 of row r - 1 when column 0 enters
 * the band there), and those with c > n are never read. tt holds 15 outside 1 <= c <= n and
 * for ambiguity codes (score 0). best[l] gets the best score of a path that
 * leaves the band through row m or column n, plus that terminal gap run. */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
band_rows(const uint8_t *restrict q, int m, int K, int ms, int mm, int g, const int32_t *restrict off,
          const int32_t *restrict tt, const int32_t *restrict nn, int32_t *restrict hp, int32_t *restrict hc,
          int32_t *restrict best)
{
    for (int k = 0; k < K; k++)
        for (int l = 0; l < LANES; l++) {
            int32_t c = k + off[l];
            hp[k * LANES + l] = (c >= 0 && c <= nn[l]) ? -g * c : NEG;
        }
    for (int l = 0; l < LANES; l++) hp[K * LANES + l] = NEG;
    for (int l = 0; l < LANES; l++) hc[K * LANES + l] = NEG;
    for (int l = 0; l < LANES; l++) { /* row 0 leaving through column n: only when n is in the band at row 0 */
        int32_t k = nn[l] - off[l];
        if (nn[l] >= 0 && k >= 0 && k < K && hp[k * LANES + l] - g * m > best[l]) best[l] = hp[k * LANES + l] - g * m;
    }
    for (int r = 1; r <= m; r++) {
        const int32_t qa = q[r - 1] < 4 ? q[r - 1] : 16; /* 16: an ambiguity code, every column scores 0 */
        const int32_t *restrict tv = tt + (size_t)r * LANES;
        int32_t left[LANES];
        for (int l = 0; l < LANES; l++) {
            left[l] = NEG;
            /* the slot right of the band in row r - 1: column 0 there, when
             * column 0 enters the band at slot K - 1 in row r */
            hp[K * LANES + l] = (r - 1 + K + off[l] == 0) ? -g * (r - 1) : NEG;
        }
        for (int k = 0; k < K; k++) {
            for (int l = 0; l < LANES; l++) {
                int32_t t = tv[k * LANES + l];
                int32_t sdiag = t == qa ? ms : ((t < 4 && qa < 4) ? mm : 0);
                int32_t h = hp[k * LANES + l] + sdiag;
                int32_t u = hp[(k + 1) * LANES + l] - g;
                int32_t f = left[l] - g;
                h = h > u ? h : u;
                h = h > f ? h : f;
                hc[k * LANES + l] = h;
                left[l] = h;
            }
        }
        for (int l = 0; l < LANES; l++) { /* leave through column n at row r */
            int32_t k = nn[l] - r - off[l];
            if (nn[l] >= 0 && k >= 0 && k < K) {
                int32_t e = hc[k * LANES + l] - g * (m - r);
                if (e > best[l]) best[l] = e;
            }
        }
        int32_t *restrict tmp = hp;
        hp = hc;
        hc = tmp;
    }
    /* row m: leave through row m to (m, n) */
    for (int k = 0; k < K; k++)
        for (int l = 0; l < LANES; l++) {
            int32_t c = m + k + off[l];
            int32_t h = hp[k * LANES + l];
            int32_t e = h - g * (nn[l] - c);
            if (c >= 0 && c <= nn[l] && e > best[l]) best[l] = e;
        }
}

/* Scores of cheap global alignments of q (length m) with t[0..count), count
 * <= LANES, band centred on diagonal centre[l] (c - r), half-width w. Each
 * out[l] is the score of one real global alignment (or of the all-gap one). */
static void band_group(band_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m, const uint8_t *const *t,
                       const int *n, const int *centre, int count, int w, int32_t *out)
{
    const int K = 2 * w + 1, g = sc->gap_open;
    const size_t nidx = (size_t)m + K + 1;
    band_reserve(ws, nidx, (size_t)K);
    int32_t nn[LANES], best[LANES], off[LANES];
    int32_t *tt = ws->tt;
    for (size_t x = 0; x < nidx * LANES; x++) tt[x] = 15;
    for (int l = 0; l < LANES; l++) {
        nn[l] = l < count ? n[l] : -1;
        best[l] = NEG;
        off[l] = l < count ? centre[l] - w : 0;
        if (l >= count) continue;
        /* slot idx holds column c = idx + off: b[c - 1] for 1 <= c <= n */
        int64_t lo = 1 - (int64_t)off[l], hi = (int64_t)n[l] - off[l];
        if (lo < 0) lo = 0;
        if (hi > (int64_t)nidx - 1) hi = (int64_t)nidx - 1;
        for (int64_t idx = lo; idx <= hi; idx++) {
            uint8_t code = t[l][idx + off[l] - 1];
            tt[idx * LANES + l] = code < 4 ? code : 15;
        }
    }
    band_rows(q, m, K, sc->match, sc->mismatch, g, off, ws->tt, nn, ws->hp, ws->hc, best);
    for (int l = 0; l < count; l++) {
        int32_t allgap = -g * (m + n[l]);
        out[l] = best[l] > allgap ? best[l] : allgap;
    }
}

/* ---- q-grams ---- */
typedef struct {
    uint32_t *w; /* windows of ACGT only, in order (codes < 4^q) */
    int *pos;    /* their start positions */
    int nw;
    int amb; /* ambiguity codes in the sequence */
} qseq;

static void qgrams_of(const uint8_t *s, int len, int q, qseq *o)
{
    o->w = mnw_xmalloc(((size_t)(len > 0 ? len : 1)) * sizeof(uint32_t));
    o->pos = mnw_xmalloc(((size_t)(len > 0 ? len : 1)) * sizeof(int));
    o->nw = 0;
    o->amb = 0;
    uint32_t mask = (q >= 16) ? 0xffffffffu : ((1u << (2 * q)) - 1);
    uint32_t v = 0;
    int run = 0; /* ACGT bases in a row ending here */
    for (int p = 0; p < len; p++) {
        if (s[p] < 4) {
            v = ((v << 2) | s[p]) & mask;
            run++;
        } else {
            o->amb++;
            run = 0;
        }
        if (run >= q) {
            o->pos[o->nw] = p - q + 1;
            o->w[o->nw++] = v;
        }
    }
}

/* ---- the semi-global unit-cost edit distance (PRUNE.md, the candidate for
 * larger D): ED(p in t) = the least substitutions, insertions and deletions
 * turning p into some substring of t, two codes equal where vsearch counts
 * them a match (their base sets overlap). Myers' bit-vector algorithm in
 * blocks of 64 pattern positions. ---- */
static const uint8_t base_set[MNW_NCODES] = {1, 2, 4, 8, 5, 10, 6, 9, 12, 3, 14, 13, 11, 7, 15};

typedef struct {
    uint64_t *peq; /* [code][word] */
    uint64_t *pv, *mv;
    int cap;
} ed_ws;

static void ed_peq(ed_ws *e, const uint8_t *p, int m)
{
    int W = (m + 63) / 64;
    if (W > e->cap) {
        free(e->peq);
        free(e->pv);
        free(e->mv);
        e->peq = mnw_xmalloc((size_t)MNW_NCODES * (size_t)W * sizeof(uint64_t));
        e->pv = mnw_xmalloc((size_t)W * sizeof(uint64_t));
        e->mv = mnw_xmalloc((size_t)W * sizeof(uint64_t));
        e->cap = W;
    }
    memset(e->peq, 0, (size_t)MNW_NCODES * (size_t)W * sizeof(uint64_t));
    for (int i = 0; i < m; i++)
        for (int c = 0; c < MNW_NCODES; c++)
            if (base_set[p[i]] & base_set[c]) e->peq[(size_t)c * W + i / 64] |= (uint64_t)1 << (i % 64);
}

/* ED of the pattern whose peq is in e (length m) in the text t (length n),
 * stopping as soon as it is <= stop (returns a value <= stop then). */
static int ed_search(ed_ws *e, int m, const uint8_t *t, int n, int stop)
{
    if (m == 0) return 0;
    const int W = (m + 63) / 64;
    const uint64_t top = (uint64_t)1 << ((m - 1) % 64);
    for (int w = 0; w < W; w++) {
        e->pv[w] = ~(uint64_t)0;
        e->mv[w] = 0;
    }
    int score = m, best = m;
    if (best <= stop) return best;
    for (int j = 0; j < n; j++) {
        const uint64_t *eqc = e->peq + (size_t)t[j] * W;
        int hin = 0; /* the top row is 0 everywhere: the text's start is free */
        for (int w = 0; w < W; w++) {
            uint64_t Pv = e->pv[w], Mv = e->mv[w], Eq = eqc[w];
            uint64_t Xv = Eq | Mv;
            if (hin < 0) Eq |= 1;
            uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
            uint64_t Ph = Mv | ~(Xh | Pv);
            uint64_t Mh = Pv & Xh;
            uint64_t hb = w == W - 1 ? top : (uint64_t)1 << 63;
            int hout = (Ph & hb) ? 1 : (Mh & hb) ? -1 : 0;
            Ph <<= 1;
            Mh <<= 1;
            if (hin < 0)
                Mh |= 1;
            else if (hin > 0)
                Ph |= 1;
            e->pv[w] = Mh | ~(Xv | Ph);
            e->mv[w] = Ph & Xv;
            hin = hout;
        }
        score += hin;
        if (score < best) {
            best = score;
            if (best <= stop) return best;
        }
    }
    return best;
}

/* ED by the plain DP (the --ed self-test): column over the pattern, the
 * top row 0 (free text start), the best of the last row (free text end). */
static int ed_plain(const uint8_t *p, int m, const uint8_t *t, int n)
{
    int *col = mnw_xmalloc((size_t)(m + 1) * sizeof(int));
    for (int i = 0; i <= m; i++) col[i] = i;
    int best = m;
    for (int j = 1; j <= n; j++) {
        int diag = col[0];
        col[0] = 0;
        for (int i = 1; i <= m; i++) {
            int up = col[i];
            int v = diag + !(base_set[p[i - 1]] & base_set[t[j - 1]]);
            if (up + 1 < v) v = up + 1;
            if (col[i - 1] + 1 < v) v = col[i - 1] + 1;
            diag = up;
            col[i] = v;
        }
        if (col[m] < best) best = col[m];
    }
    free(col);
    return best;
}

static void ed_selftest(void)
{
    ed_ws e = {0};
    uint8_t p[300], t[300];
    unsigned x = 12345;
    for (int k = 0; k < 400; k++) {
        x = x * 1103515245u + 12345u;
        int m = (int)((x >> 8) % 200), n = (int)((x >> 16) % 200);
        for (int i = 0; i < m; i++) {
            x = x * 1103515245u + 12345u;
            p[i] = (uint8_t)((x >> 10) % 50 == 0 ? 4 + (x >> 20) % 11 : (x >> 12) % 4);
        }
        for (int i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            t[i] = i < m && (x >> 9) % 5 ? p[i] : (uint8_t)((x >> 12) % 4);
        }
        ed_peq(&e, p, m);
        int a = ed_search(&e, m, t, n, -1), b = ed_plain(p, m, t, n);
        if (a != b) {
            fprintf(stderr, "prune_proto: --ed self-test: m %d n %d: bit-vector %d, DP %d\n", m, n, a, b);
            exit(1);
        }
    }
    free(e.peq);
    free(e.pv);
    free(e.mv);
}

/* The prune test (docs/PRUNE.md). For the query a (sequence i) the context
 * holds its q-gram positions by q-gram (head/next, for the diagonal count)
 * and a stamp per window. */
typedef struct {
    int ms, g, q, diag;
    double coef;
    int32_t *head;  /* [4^q]: the last window of a with this q-gram, -1 none */
    int32_t *next;  /* [window of a]: the previous window with the same q-gram */
    uint32_t *stamp; /* [window of a]: the pair that last counted it */
    uint32_t cur;
    uint64_t ndiag;  /* pairs that needed the diagonal count */
    int ed;          /* --ed: the edit-distance bound when the counts do not prune */
    const uint8_t *a, *b;
    ed_ws ea, eb;    /* ea: the query's peq (built once per query), eb: the target's */
    double dl;       /* delta' */
    uint64_t ned, ned_pruned;
} decide_ctx;

/* S the score of some global alignment of a (na bases) with b (nb), amb the
 * ambiguity codes of both, shared the q-gram count (Lemma 1). Returns 1 when
 * every optimal alignment has distance > D: shared < need (theorem), or,
 * with diag, the windows of a with an equal window of b on a diagonal an
 * aligned column of an alignment with >= Pmin aligned columns can have are
 * fewer than need (theorem, Lemma 1'). */
static int prune_test(decide_ctx *cx, int64_t S, const qseq *A, int na, const qseq *B, int nb, int shared)
{
    if (!(cx->coef > 0.0)) return 0;
    int64_t num = S + (int64_t)cx->g * (na + nb), den = cx->ms + 2 * cx->g;
    int64_t pmin = num <= 0 ? 0 : (num + den - 1) / den;
    int pmax = na < nb ? na : nb;
    if (pmin > pmax) pmin = pmax; /* cannot happen (S <= ms P - g G); kept safe */
    const int q = cx->q;
    double need = (double)pmin * cx->coef - (double)q * (A->amb + B->amb) - (q - 1);
    if ((double)shared < need) return 1;
    if (cx->ed) {
        /* ED(a in b) <= delta' P0 + na - P0 and the same for b in a, for every
         * pair within D (PRUNE.md); prune when either is larger */
        cx->ned++;
        double ta = cx->dl * (double)pmin + (double)(na - pmin), tb = cx->dl * (double)pmin + (double)(nb - pmin);
        int sa = (int)floor(ta), sb = (int)floor(tb);
        if (ed_search(&cx->ea, na, cx->b, nb, sa) > ta) {
            cx->ned_pruned++;
            return 1;
        }
        ed_peq(&cx->eb, cx->b, nb);
        if (ed_search(&cx->eb, nb, cx->a, na, sb) > tb) {
            cx->ned_pruned++;
            return 1;
        }
    }
    if (!cx->diag || need <= 0.0) return 0;
    /* the diagonal count: windows x of a (start p) with a window y of b
     * (start p') of the same q-gram and -(nb - Pmin) <= p - p' <= na - Pmin */
    cx->ndiag++;
    const int64_t dlo = -((int64_t)nb - pmin), dhi = (int64_t)na - pmin;
    const uint32_t cur = ++cx->cur;
    int count = 0;
    for (int y = 0; y < B->nw; y++) {
        int pb = B->pos[y];
        for (int32_t x = cx->head[B->w[y]]; x >= 0; x = cx->next[x]) {
            int64_t d = (int64_t)A->pos[x] - pb;
            if (d >= dlo && d <= dhi && cx->stamp[x] != cur) {
                cx->stamp[x] = cur;
                if (++count >= need) return 0;
            }
        }
    }
    return (double)count < need;
}

static int cmp_len_idx(const void *x, const void *y, void *arg)
{
    const int *len = arg;
    int a = *(const int *)x, b = *(const int *)y;
    if (len[a] != len[b]) return len[a] < len[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void usage(void)
{
    fprintf(stderr, "usage: prune_proto FASTA --cutoff D [--q Q] [--w W] [--genes N] [--check] [--dp-pairs N] [--diag] [--ed] [--prune-all]\n");
    exit(2);
}

static long parse_long(const char *s, long lo, long hi, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || v < lo || v > hi) {
        fprintf(stderr, "prune_proto: %s: '%s' is not an integer in [%ld, %ld]\n", what, s, lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    double D = -1.0;
    int q = 8, w = 4, check = 0, prune_all = 0, diag = 0, ed = 0;
    long genes = -1, dp_pairs = 20000;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--cutoff") && k + 1 < argc) {
            char *end;
            D = strtod(argv[++k], &end);
            if (*end || !(D >= 0.0 && D < 1.0)) {
                fprintf(stderr, "prune_proto: --cutoff: '%s' is not a number in [0, 1)\n", argv[k]);
                exit(2);
            }
        } else if (!strcmp(argv[k], "--q") && k + 1 < argc)
            q = (int)parse_long(argv[++k], 2, 12, "--q");
        else if (!strcmp(argv[k], "--w") && k + 1 < argc)
            w = (int)parse_long(argv[++k], 0, 1000, "--w");
        else if (!strcmp(argv[k], "--genes") && k + 1 < argc)
            genes = parse_long(argv[++k], 2, 100000000, "--genes");
        else if (!strcmp(argv[k], "--dp-pairs") && k + 1 < argc)
            dp_pairs = parse_long(argv[++k], 1, 1000000000, "--dp-pairs");
        else if (!strcmp(argv[k], "--check"))
            check = 1;
        else if (!strcmp(argv[k], "--diag"))
            diag = 1;
        else if (!strcmp(argv[k], "--ed"))
            ed = 1;
        else if (!strcmp(argv[k], "--prune-all"))
            prune_all = 1;
        else if (argv[k][0] != '-' && !path)
            path = argv[k];
        else
            usage();
    }
    if (!path || D < 0.0) usage();

    mnw_seqset set;
    mnw_seqset_init(&set);
    mnw_err e;
    if (mnw_fasta_read(path, &set, &e) != 0) {
        fprintf(stderr, "prune_proto: %s\n", e.msg);
        return 2;
    }
    int n = (int)set.n;
    if (genes > 0 && genes < n) n = (int)genes;
    if (n < 2) {
        fprintf(stderr, "prune_proto: %s: %d sequences, need 2\n", path, n);
        return 2;
    }
    const mnw_scoring sc = MNW_SCORING_DEFAULT;
    const mnw_iddef idd = MNW_IDDEF_DEFAULT;
    const int ms = sc.match, g = sc.gap_open;
    const uint64_t npairs = (uint64_t)n * (uint64_t)(n - 1) / 2;

    int *len = mnw_xmalloc((size_t)n * sizeof(int));
    const uint8_t **seq = mnw_xmalloc((size_t)n * sizeof(*seq));
    for (int i = 0; i < n; i++) {
        len[i] = (int)mnw_seq_len(&set, (size_t)i);
        seq[i] = mnw_seq_codes(&set, (size_t)i);
    }

    if (ed) ed_selftest(); /* the bit-vector ED against the plain DP, 400 random pairs */
    /* the bound's constants */
    const double Dp = D + 1e-9;
    const double delta = Dp / (1.0 - Dp);
    const double coef = 1.0 - q * delta;

    printf("prune_proto: %s, %d genes, %llu pairs, cutoff %g, q %d, band half-width %d, vsearch2, "
           "scoring +%d/%d/gap %d, diagonal count %s, one thread\n",
           path, n, (unsigned long long)npairs, D, q, w, sc.match, sc.mismatch, g, diag ? "on" : "off");
    if (coef <= 0.0) printf("note: 1 - q d = %.4f <= 0: the bound prunes nothing at this q\n", coef);

    /* ---- the filter, timed (q-gram tables included) ---- */
    uint8_t *pruned = xcalloc((size_t)npairs, 1); /* pair index k = i(i-1)/2 + j */
    int32_t *sy = NULL; /* with --check: each pair's best band score, INT32_MIN where none ran */
    if (check) {
        sy = mnw_xmalloc((size_t)npairs * sizeof(int32_t));
        for (uint64_t k = 0; k < npairs; k++) sy[k] = INT32_MIN;
    }
    const size_t nbins = (size_t)1 << (2 * q);
    uint16_t *cnt = xcalloc(nbins, sizeof(uint16_t));
    uint16_t *used = xcalloc(nbins, sizeof(uint16_t));
    qseq *qs = mnw_xmalloc((size_t)n * sizeof(qseq));
    band_ws bws = {0};
    int *cand = mnw_xmalloc((size_t)n * sizeof(int));
    int *cshared = mnw_xmalloc((size_t)n * sizeof(int));
    uint64_t nband = 0, nband2 = 0, npruned = 0;
    decide_ctx cx = {0};
    cx.ms = ms;
    cx.g = g;
    cx.q = q;
    cx.diag = diag;
    cx.coef = coef;
    cx.ed = ed;
    cx.dl = delta;
    cx.head = mnw_xmalloc(nbins * sizeof(int32_t));
    for (size_t v = 0; v < nbins; v++) cx.head[v] = -1;
    cx.next = mnw_xmalloc((set.max_len + 1) * sizeof(int32_t));
    cx.stamp = xcalloc(set.max_len + 1, sizeof(uint32_t));
    double t0 = now();
    for (int i = 0; i < n; i++) qgrams_of(seq[i], len[i], q, &qs[i]);
    double tq = 0.0, tb = 0.0;
    for (int i = 1; i < n; i++) {
        double ta = now();
        const qseq *A = &qs[i];
        for (int x = 0; x < A->nw; x++) cnt[A->w[x]]++;
        int nc = 0;
        for (int j = 0; j < i; j++) {
            const qseq *B = &qs[j];
            int shared = 0;
            for (int x = 0; x < B->nw; x++) {
                uint32_t v = B->w[x];
                shared += used[v] < cnt[v];
                used[v]++;
            }
            for (int x = 0; x < B->nw; x++) used[B->w[x]] = 0;
            int amb = A->amb + B->amb;
            int pmax = len[i] < len[j] ? len[i] : len[j];
            double need_max = pmax * coef - (double)q * amb - (q - 1);
            if (coef > 0.0 && (diag || ed || shared < need_max)) {
                cand[nc] = j;
                cshared[nc] = shared;
                nc++;
            }
        }
        for (int x = 0; x < A->nw; x++) cnt[A->w[x]] = 0;
        if (ed) {
            cx.a = seq[i];
            ed_peq(&cx.ea, seq[i], len[i]);
        }
        if (diag)
            for (int x = 0; x < A->nw; x++) {
                cx.next[x] = cx.head[A->w[x]];
                cx.head[A->w[x]] = x;
            }
        double tm = now();
        tq += tm - ta;
        /* the band DP for the candidates, LANES at a time, two centres each */
        for (int c0 = 0; c0 < nc; c0 += LANES) {
            int count = nc - c0 < LANES ? nc - c0 : LANES;
            const uint8_t *tp[LANES];
            int tn[LANES], cen[LANES];
            int32_t s0[LANES], s1[LANES];
            for (int l = 0; l < count; l++) {
                int j = cand[c0 + l];
                tp[l] = seq[j];
                tn[l] = len[j];
                cen[l] = 0;
            }
            /* centre 0 first; centre nb - na only for the pairs it did not prune */
            band_group(&bws, &sc, seq[i], len[i], tp, tn, cen, count, w, s0);
            if (sy)
                for (int l = 0; l < count; l++) sy[(uint64_t)i * (i - 1) / 2 + cand[c0 + l]] = s0[l];
            int rest[LANES], nr = 0;
            for (int l = 0; l < count; l++) {
                int j = cand[c0 + l];
                cx.b = seq[j];
                if (prune_test(&cx, s0[l], &qs[i], len[i], &qs[j], len[j], cshared[c0 + l])) {
                    pruned[(uint64_t)i * (i - 1) / 2 + j] = 1;
                    npruned++;
                } else if (tn[l] != len[i]) {
                    rest[nr++] = l;
                }
            }
            if (nr) {
                const uint8_t *tp2[LANES];
                int tn2[LANES];
                for (int x = 0; x < nr; x++) {
                    tp2[x] = tp[rest[x]];
                    tn2[x] = tn[rest[x]];
                    cen[x] = tn2[x] - len[i];
                }
                band_group(&bws, &sc, seq[i], len[i], tp2, tn2, cen, nr, w, s1);
                if (sy)
                    for (int x = 0; x < nr; x++) {
                        int32_t *v = &sy[(uint64_t)i * (i - 1) / 2 + cand[c0 + rest[x]]];
                        if (s1[x] > *v) *v = s1[x];
                    }
                for (int x = 0; x < nr; x++) {
                    int j = cand[c0 + rest[x]];
                    cx.b = seq[j];
                    if (prune_test(&cx, (s0[rest[x]] > s1[x] ? s0[rest[x]] : s1[x]), &qs[i], len[i], &qs[j], len[j],
                                   cshared[c0 + rest[x]])) {
                        pruned[(uint64_t)i * (i - 1) / 2 + j] = 1;
                        npruned++;
                    }
                }
                nband2 += (uint64_t)nr;
            }
            nband += (uint64_t)count;
        }
        if (diag)
            for (int x = 0; x < A->nw; x++) cx.head[A->w[x]] = -1;
        tb += now() - tm;
    }
    double tfilter = now() - t0;
    if (prune_all) { /* the test of --check: every pair pruned, the bound ignored */
        memset(pruned, 1, (size_t)npairs);
        npruned = npairs;
    }

    /* ---- the DP: every pair (--check) or a sample of rows (timing only) ---- */
    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    mnw_eqtab eqt;
    mnw_eqtab_of(&idd, &eqt);
    mnw_cpu_ws_figures(ws, &eqt);
    int *order = mnw_xmalloc((size_t)n * sizeof(int));
    const uint8_t **tp = mnw_xmalloc((size_t)n * sizeof(*tp));
    int *tn = mnw_xmalloc((size_t)n * sizeof(int));
    mnw_aln *out = mnw_xmalloc((size_t)n * sizeof(mnw_aln));
    for (int k = 0; k < n; k++) mnw_aln_init(&out[k]);
    uint64_t within = 0, kept_beyond = 0, dp_done = 0, fails = 0;
    uint64_t miss_hist[12] = {0}; /* kept but beyond, by distance: D..D+0.01, ..., >= D+0.10, 1 */
    double tdp = 0.0;
    int ilo = 1;
    if (!check) {
        uint64_t acc = 0;
        ilo = n;
        while (ilo > 1 && acc < (uint64_t)dp_pairs) acc += (uint64_t)(--ilo);
    }
    for (int i = ilo; i < n; i++) {
        for (int j = 0; j < i; j++) order[j] = j;
        qsort_r(order, (size_t)i, sizeof(int), cmp_len_idx, len);
        for (int k = 0; k < i; k++) {
            tp[k] = seq[order[k]];
            tn[k] = len[order[k]];
        }
        double ta = now();
        mnw_cpu_align(ws, &sc, seq[i], len[i], tp, tn, i, out);
        tdp += now() - ta;
        dp_done += (uint64_t)i;
        if (!check) continue;
        for (int k = 0; k < i; k++) {
            int j = order[k];
            double id = mnw_identity_fig(&idd, &out[k].fig, (size_t)len[i], (size_t)len[j]);
            double dist = 1.0 - id;
            int in = !(dist > D);
            int pr = pruned[(uint64_t)i * (i - 1) / 2 + j];
            int32_t band = sy[(uint64_t)i * (i - 1) / 2 + j];
            if (band != INT32_MIN && band > out[k].score) { /* lemma 3's premise: S_Y <= S* */
                fails++;
                printf("FAIL: pair %s %s (i %d, j %d): band score %d above the optimal score %d\n",
                       mnw_seq_id(&set, (size_t)i), mnw_seq_id(&set, (size_t)j), i, j, (int)band, (int)out[k].score);
            }
            within += (uint64_t)in;
            if (pr && in) {
                fails++;
                if (fails <= 10)
                    printf("FAIL: pair %s %s (i %d, j %d, lengths %d %d) pruned but its distance %.6f <= %g\n",
                           mnw_seq_id(&set, (size_t)i), mnw_seq_id(&set, (size_t)j), i, j, len[i], len[j], dist,
                           D);
            }
            if (!pr && !in) {
                kept_beyond++;
                int bin = dist >= 1.0 ? 11 : (int)((dist - D) / 0.01);
                miss_hist[bin < 0 ? 0 : bin > 10 ? 10 : bin]++;
            }
        }
    }
    double dp_per = dp_done ? tdp / (double)dp_done : 0.0;
    uint64_t kept = npairs - npruned;

    printf("pairs: %llu\n", (unsigned long long)npairs);
    if (check) {
        uint64_t beyond = npairs - within;
        printf("within the cutoff (aligned, distance <= %g): %llu\n", D, (unsigned long long)within);
        printf("pruned: %llu\n", (unsigned long long)npruned);
        printf("kept: %llu\n", (unsigned long long)kept);
        printf("kept but beyond the cutoff (the filter's misses): %llu\n", (unsigned long long)kept_beyond);
        printf("misses by distance:");
        for (int b = 0; b < 10; b++) printf(" %.2f-%.2f %llu,", D + 0.01 * b, D + 0.01 * (b + 1), (unsigned long long)miss_hist[b]);
        printf(" >= %.2f %llu, 1 %llu\n", D + 0.10, (unsigned long long)miss_hist[10], (unsigned long long)miss_hist[11]);
        printf("prune rate (pruned / beyond): %.2f%% (%llu / %llu)\n",
               beyond ? 100.0 * (double)npruned / (double)beyond : 0.0, (unsigned long long)npruned,
               (unsigned long long)beyond);
    } else {
        printf("within the cutoff: not checked (no --check)\n");
        printf("pruned: %llu\n", (unsigned long long)npruned);
        printf("kept: %llu\n", (unsigned long long)kept);
        printf("pruned / pairs (a lower bound of pruned / beyond): %.2f%%\n",
               100.0 * (double)npruned / (double)npairs);
    }
    printf("filter: %.3f s, %.0f ns/pair (q-gram count %.0f ns/pair over all pairs; band DP and diagonal count %.0f "
           "ns/pair over their %llu pairs, %llu of them a second band, %llu a diagonal count)\n",
           tfilter, 1e9 * tfilter / (double)npairs, 1e9 * tq / (double)npairs,
           nband ? 1e9 * tb / (double)nband : 0.0, (unsigned long long)nband, (unsigned long long)nband2,
           (unsigned long long)cx.ndiag);
    if (ed)
        printf("edit-distance bound: run on %llu pairs, pruned %llu of them\n", (unsigned long long)cx.ned,
               (unsigned long long)cx.ned_pruned);
    printf("dp (mnw_cpu_align, counts mode, isa %s): %.3f s for %llu pairs, %.0f ns/pair%s\n", mnw_cpu_isa(), tdp,
           (unsigned long long)dp_done, 1e9 * dp_per, check ? "" : " (the last rows, timing only)");
    double full = dp_per * (double)npairs, with = tfilter + dp_per * (double)kept;
    printf("would-be speed-up (DP on all pairs / (filter on all + DP on the kept)): %.2fx\n",
           with > 0 ? full / with : 0.0);
    if (check) {
        if (fails) {
            printf("check: FAILED: %llu pruned pairs have distance <= %g\n", (unsigned long long)fails, D);
            return 1;
        }
        printf("check: every band score <= the optimal score\n");
        printf("check: every pruned pair is beyond the cutoff (all %llu pairs aligned)\n",
               (unsigned long long)npairs);
    }
    for (int k = 0; k < n; k++) mnw_aln_free(&out[k]);
    mnw_cpu_ws_free(ws);
    return 0;
}
