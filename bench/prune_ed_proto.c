/* prune_ed_proto.c - issue 39, a bound for larger cutoffs (0.10): Theorem 2
 * of docs/PRUNE.md (the global edit-distance bound), measured on real pairs
 * beside the q-gram filter mnw uses, with the cheap alignment Y taken from
 * several kinds of band and, as the limit of what a better Y could give,
 * from the optimal alignment itself (an oracle: a measure of the bound's
 * strength, not a filter).
 *
 * For a pair (a, b), default scoring (vsearch2, linear gaps, end gaps
 * penalised), C2(X) = ms (na + nb) - 2 score(X), cg = ms + 2 g, cx = 2 (ms -
 * mm), ca = 2 ms, ED the global unit-cost edit distance (codes equal where
 * their base sets overlap), A the ambiguity codes of both:
 *   cg ED > C2(Y) + (cg - cx)+ delta Lmin + (cx - ca)+ A
 * proves every optimal alignment beyond D (delta = D' / (1 - D'), D' = D +
 * 1e-9; the test in doubles here, in integers in a filter).
 *
 * Usage: prune_ed_proto FASTA --cutoff D [--genes N] [--w W]... [--aw W]...
 *                       [--sw W]... [--gw W]... [--room FILE] [--no-slack]
 *   --w W     Y: the best of the bands of half-width W around diagonals 0
 *             and nb - na (default 4, 16 and 64 when no kind is given)
 *   --aw W    Y: an adaptive band of W cells along the anti-diagonals
 *   --sw W    Y: the band of half-width W around the line (0, 0)-(na, nb)
 *   --gw W    Y: the guided band: half-width W around the piecewise-linear
 *             line through the longest chain of 12-base words found once
 *             in a and once in b
 *   --room F  one line per pair beyond D: i j distance ED C2* slack na nb
 *             and C2(Y) of each --aw band
 *   --no-slack (tests) drop the slack terms: a wrong bound, which the check
 *             must catch (exit 1)
 * Every pair is aligned (mnw's CPU aligner, counts mode, one thread) and
 * checked: the run fails (exit 1) if a pair within D is proved beyond or a
 * band scores above the optimal score. ED is lib/prune_ed.c's mnw_ped_ed
 * (test_prune_ed checks it against a plain DP). Exit 0, 1, 2 (usage, input).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/prune.h"
#include "lib/prune_ed.h"
#include "lib/score.h"
#include "lib/util.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/cpu/prune_cpu.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- a band alignment's score, scalar: every path inside the diagonals
 * [centre - w, centre + w] (c - r), entering from row 0 or column 0 and
 * leaving to row m or column n by a terminal gap run (a global alignment) */
#define NEG (-(1 << 28))
static int32_t band_score(const uint8_t *a, int m, const uint8_t *b, int n, int centre, int w, int ms, int mm,
                          int g, int32_t *hp, int32_t *hc)
{
    const int K = 2 * w + 1, off = centre - w;
    /* slot k of row r holds column c = r + off + k; slot K is a sentinel */
    for (int k = 0; k <= K; k++) {
        int c = off + k;
        hp[k] = (k < K && c >= 0 && c <= n) ? -g * c : NEG;
    }
    int32_t colN = -g * n; /* best value in column n at the current row: (0, n) by the all-gap row */
    int32_t best = NEG;
    for (int r = 1; r <= m; r++) {
        int32_t left = NEG;
        const int ca = a[r - 1];
        for (int k = 0; k < K; k++) {
            int c = r + off + k;
            int32_t h;
            if (c < 0 || c > n) {
                h = NEG;
            } else if (c == 0) {
                h = -g * r;
            } else {
                int cb = b[c - 1];
                int32_t s = (ca < 4 && cb < 4) ? (ca == cb ? ms : mm) : 0;
                int32_t dg = hp[k]; /* (r - 1, c - 1) is slot k of row r - 1 */
                int32_t up = (c == n) ? colN : r == 1 ? -g * c : hp[k + 1];
                int32_t lf = (c - 1 == 0) ? -g * r : left;
                h = dg + s;
                if (up - g > h) h = up - g;
                if (lf - g > h) h = lf - g;
            }
            hc[k] = h;
            left = h;
        }
        hc[K] = NEG;
        /* column n: its best at row r */
        int kn = n - r - off;
        colN -= g;
        if (kn >= 0 && kn < K && hc[kn] > colN) colN = hc[kn];
        int32_t *tmp = hp;
        hp = hc;
        hc = tmp;
    }
    best = colN;
    for (int k = 0; k < K; k++) {
        int c = m + off + k;
        if (c >= 0 && c <= n && hp[k] > NEG / 2) {
            int32_t e = hp[k] - g * (n - c);
            if (e > best) best = e;
        }
    }
    int32_t allgap = -g * (m + n);
    return best > allgap ? best : allgap;
}

/* ---- an adaptive band along the anti-diagonals (t = r + c): W cells, rows
 * lo .. lo + W - 1 of anti-diagonal t; after each anti-diagonal the band
 * moves down (lo + 1) when its lower end scores more than its upper end,
 * else right; forced to stay on the grid. Row 0 and column 0 are exact
 * (leading gap runs); a path leaves through row m or column n by a terminal
 * gap run. Every path it scores is a global alignment. */
static inline int32_t ab_get(const int32_t *v, int lo, int W, int r, int t, int m, int n, int g)
{
    int c = t - r;
    if (r < 0 || r > m || c < 0 || c > n) return NEG;
    if (r == 0) return -g * c;
    if (c == 0) return -g * r;
    int k = r - lo;
    return (k >= 0 && k < W) ? v[k] : NEG;
}

static int32_t adaptive_score(const uint8_t *a, int m, const uint8_t *b, int n, int W, int ms, int mm, int g,
                              int32_t *v0, int32_t *v1, int32_t *v2)
{
    /* v2: t - 2, v1: t - 1, v0: t */
    int lo2 = 0, lo1 = -W / 2, lo0;
    for (int k = 0; k < W; k++) v1[k] = v2[k] = NEG;
    /* t = 0: only (0, 0) */
    for (int k = 0; k < W; k++) v1[k] = (lo1 + k == 0) ? 0 : NEG;
    int32_t best = -g * (m + n);
    if (m == 0 || n == 0) return best;
    for (int t = 1; t <= m + n; t++) {
        /* the move: compare the ends of t - 1 */
        int32_t up_end = ab_get(v1, lo1, W, lo1, t - 1, m, n, g), lw_end = ab_get(v1, lo1, W, lo1 + W - 1, t - 1, m, n, g);
        int down;
        if (lw_end != up_end)
            down = lw_end > up_end;
        else /* towards the line from (0, 0) to (m, n) */
            down = (double)(lo1 + (W - 1) / 2.0) < (double)(t - 1) * m / (double)(m + n);
        lo0 = lo1 + down;
        int rmin = t - n > 0 ? t - n : 0, rmax = t < m ? t : m;
        if (lo0 + W - 1 < rmin) lo0 = rmin - (W - 1);
        if (lo0 > rmax) lo0 = rmax;
        for (int k = 0; k < W; k++) {
            int r = lo0 + k, c = t - r;
            int32_t h;
            if (r < 0 || r > m || c < 0 || c > n)
                h = NEG;
            else if (r == 0)
                h = -g * c;
            else if (c == 0)
                h = -g * r;
            else {
                int x = a[r - 1], y = b[c - 1];
                int32_t s = (x < 4 && y < 4) ? (x == y ? ms : mm) : 0;
                h = ab_get(v2, lo2, W, r - 1, t - 2, m, n, g) + s;
                int32_t u = ab_get(v1, lo1, W, r - 1, t - 1, m, n, g) - g;
                int32_t l = ab_get(v1, lo1, W, r, t - 1, m, n, g) - g;
                if (u > h) h = u;
                if (l > h) h = l;
            }
            if (h < NEG) h = NEG;
            v0[k] = h;
            if (h > NEG / 2) {
                if (r == m && c <= n && h - g * (n - c) > best) best = h - g * (n - c);
                if (c == n && r <= m && h - g * (m - r) > best) best = h - g * (m - r);
            }
        }
        int32_t *tmp = v2;
        v2 = v1;
        v1 = v0;
        v0 = tmp;
        lo2 = lo1;
        lo1 = lo0;
    }
    return best;
}

/* ---- a band given row by row: columns lo[r] .. hi[r] of row r (1 <= r <=
 * m; clamped to 1 .. n), with column 0 and row 0 exact, column n carried
 * down and row m left to the right (terminal gap runs): a global
 * alignment's score. prev/cur: n + 1 ints each. */
static int32_t band_rows_score(const uint8_t *a, int m, const uint8_t *b, int n, const int *lo, const int *hi, int ms,
                               int mm, int g, int32_t *prev, int32_t *cur)
{
    int plo = 0, phi = n; /* row 0: every column */
    for (int c = 0; c <= n; c++) prev[c] = -g * c;
    int32_t colN = -g * n;
    for (int r = 1; r <= m; r++) {
        int l = lo[r] < 1 ? 1 : lo[r], h = hi[r] > n ? n : hi[r];
        const int x = a[r - 1];
        int32_t left = (l == 1) ? -g * r : NEG; /* column l - 1 of row r: exact only when it is column 0 */
        for (int c = l; c <= h; c++) {
            int y = b[c - 1];
            int32_t s = (x < 4 && y < 4) ? (x == y ? ms : mm) : 0;
            int32_t dg = (c - 1 == 0) ? -g * (r - 1) : (c - 1 >= plo && c - 1 <= phi) ? prev[c - 1] : NEG;
            int32_t up = (c >= plo && c <= phi) ? prev[c] : NEG;
            if (c == n && colN > up) up = colN;
            int32_t v = dg + s;
            if (up - g > v) v = up - g;
            if (left - g > v) v = left - g;
            cur[c] = v;
            left = v;
        }
        colN -= g;
        if (h == n && l <= n && cur[n] > colN) colN = cur[n];
        if (r == m) {
            int32_t best = colN;
            for (int c = l; c <= h; c++)
                if (cur[c] - g * (n - c) > best) best = cur[c] - g * (n - c);
            int32_t allgap = -g * (m + n);
            return best > allgap ? best : allgap;
        }
        int32_t *t = prev;
        prev = cur;
        cur = t;
        plo = l;
        phi = h;
        if (l > h) { /* an empty row: nothing carried but column 0 and column n */
            plo = 1;
            phi = 0;
        }
    }
    int32_t allgap = -g * (m + n);
    return colN > allgap ? colN : allgap;
}

/* ---- the guide: a chain of anchors (words of K bases of ACGT that occur
 * once in a and once in b), the longest chain increasing in both, and the
 * band around the piecewise-linear line through them from (0, 0) to (m, n) */
#define GK 12
static int gstride = 1; /* (--gstride) only b's windows at multiples of it give hits */
typedef struct {
    uint32_t w;
    int pos;
} wpos;

static int cmp_wpos(const void *x, const void *y)
{
    const wpos *a = x, *b = y;
    if (a->w != b->w) return a->w < b->w ? -1 : 1;
    return a->pos - b->pos;
}

static int words_of(const uint8_t *s, int len, wpos *o, int unique)
{
    uint32_t v = 0, mask = (1u << (2 * GK)) - 1;
    int run = 0, nw = 0;
    for (int p = 0; p < len; p++) {
        if (s[p] < 4) {
            v = ((v << 2) | s[p]) & mask;
            run++;
        } else
            run = 0;
        if (run >= GK) o[nw++] = (wpos){v, p - GK + 1};
    }
    qsort(o, (size_t)nw, sizeof(wpos), cmp_wpos);
    if (!unique) return nw;
    /* keep the words that occur once */
    int k = 0;
    for (int x = 0; x < nw;) {
        int y = x;
        while (y < nw && o[y].w == o[x].w) y++;
        if (y - x == 1) o[k++] = o[x];
        x = y;
    }
    return k;
}

/* fills cen[r] (1 <= r <= m): the guide's column at row r; returns the anchors used */
static int guide_of(const wpos *A, int nA, int m, const wpos *B, int nB, int n, int *cen, int *pa, int *pb, int *tail,
                    int *prevx)
{
    /* hits by position in b */
    int h = 0;
    for (int x = 0, y = 0; x < nA && y < nB;) {
        if (A[x].w < B[y].w)
            x++;
        else if (A[x].w > B[y].w)
            y++;
        else { /* a's words are unique; b's may repeat (each its own hit) */
            pa[h] = A[x].pos;
            pb[h] = B[y].pos;
            h += B[y].pos % gstride == 0;
            y++;
        }
    }
    /* sort hits by pb (insertion sort: few) */
    for (int x = 1; x < h; x++) {
        int ka = pa[x], kb = pb[x], y = x - 1;
        while (y >= 0 && pb[y] > kb) {
            pa[y + 1] = pa[y];
            pb[y + 1] = pb[y];
            y--;
        }
        pa[y + 1] = ka;
        pb[y + 1] = kb;
    }
    /* the longest chain with pa and pb strictly increasing (patience) */
    int L = 0;
    for (int x = 0; x < h; x++) {
        int lo = 0, hi = L;
        while (lo < hi) {
            int md = (lo + hi) / 2;
            if (pa[tail[md]] < pa[x])
                lo = md + 1;
            else
                hi = md;
        }
        prevx[x] = lo ? tail[lo - 1] : -1;
        tail[lo] = x;
        if (lo == L) L++;
    }
    /* the chain's points, from the end */
    int npt = 0;
    int *ca = mnw_xmalloc((size_t)(L + 2) * sizeof(int)), *cb = mnw_xmalloc((size_t)(L + 2) * sizeof(int));
    for (int x = L ? tail[L - 1] : -1; x >= 0; x = prevx[x]) {
        ca[npt] = pa[x];
        cb[npt] = pb[x];
        npt++;
    }
    /* reverse, with (0, 0) first and (m, n) last */
    int *ra = mnw_xmalloc((size_t)(npt + 2) * sizeof(int)), *rb = mnw_xmalloc((size_t)(npt + 2) * sizeof(int));
    ra[0] = 0;
    rb[0] = 0;
    for (int x = 0; x < npt; x++) {
        ra[1 + x] = ca[npt - 1 - x];
        rb[1 + x] = cb[npt - 1 - x];
    }
    ra[npt + 1] = m;
    rb[npt + 1] = n;
    for (int s = 0; s <= npt; s++) {
        int r0 = ra[s], r1 = ra[s + 1], c0 = rb[s], c1 = rb[s + 1];
        for (int r = r0 + 1; r <= r1 && r <= m; r++)
            cen[r] = c0 + (int)((int64_t)(r - r0) * (c1 - c0) / (r1 - r0 ? r1 - r0 : 1));
    }
    free(ca);
    free(cb);
    free(ra);
    free(rb);
    return npt;
}

static void usage(void)
{
    fprintf(stderr, "usage: prune_ed_proto FASTA --cutoff D [--genes N] [--w W]... [--aw W]... [--sw W]... [--gw W]... "
                    "[--room FILE] [--no-slack]\n");
    exit(2);
}

#define MAXW 8
static FILE *rf;
int main(int argc, char **argv)
{
    const char *path = NULL;
    double D = -1.0;
    long genes = -1;
    int no_slack = 0;
    int ws_[MAXW], nw = 0, aw_[MAXW], naw = 0, sw_[MAXW], nsw = 0, gw_[MAXW], ngw = 0;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--cutoff") && k + 1 < argc)
            D = strtod(argv[++k], NULL);
        else if (!strcmp(argv[k], "--genes") && k + 1 < argc)
            genes = strtol(argv[++k], NULL, 10);
        else if (!strcmp(argv[k], "--w") && k + 1 < argc && nw < MAXW)
            ws_[nw++] = (int)strtol(argv[++k], NULL, 10);
        else if (!strcmp(argv[k], "--room") && k + 1 < argc) {
            rf = fopen(argv[++k], "w");
            if (!rf) {
                perror(argv[k]);
                exit(2);
            }
        } else if (!strcmp(argv[k], "--gstride") && k + 1 < argc)
            gstride = (int)strtol(argv[++k], NULL, 10);
        else if (!strcmp(argv[k], "--no-slack"))
            no_slack = 1;
        else if (!strcmp(argv[k], "--gw") && k + 1 < argc && ngw < MAXW)
            gw_[ngw++] = (int)strtol(argv[++k], NULL, 10);
        else if (!strcmp(argv[k], "--sw") && k + 1 < argc && nsw < MAXW)
            sw_[nsw++] = (int)strtol(argv[++k], NULL, 10);
        else if (!strcmp(argv[k], "--aw") && k + 1 < argc && naw < MAXW)
            aw_[naw++] = (int)strtol(argv[++k], NULL, 10);
        else if (argv[k][0] != '-' && !path)
            path = argv[k];
        else
            usage();
    }
    if (!path || !(D >= 0.0 && D < 1.0)) usage();
    if (nw + naw + nsw + ngw == 0) {
        ws_[nw++] = 4;
        ws_[nw++] = 16;
        ws_[nw++] = 64;
    }
    mnw_seqset set;
    mnw_seqset_init(&set);
    mnw_err e;
    if (mnw_fasta_read(path, &set, &e) != 0) {
        fprintf(stderr, "prune_ed_proto: %s\n", e.msg);
        return 2;
    }
    int n = (int)set.n;
    if (genes > 0 && genes < n) n = (int)genes;
    const mnw_scoring sc = MNW_SCORING_DEFAULT;
    const mnw_iddef idd = MNW_IDDEF_DEFAULT;
    const int ms = sc.match, mm = sc.mismatch, g = sc.gap_open;
    const int64_t cg = ms + 2 * g, cx = 2 * (ms - mm), ca = 2 * ms;
    const double Dp = D + 1e-9, delta = Dp / (1.0 - Dp);
    mnw_prune_plan plan;
    const int qgram_ok = mnw_prune_plan_make(&idd, &sc, D, NULL, MNW_PRUNE_YES, &plan, &e) == 0;
    if (!qgram_ok) { /* the q-gram filter proves nothing here: count it as proving nothing */
        printf("note: %s\n", e.msg);
        if (mnw_prune_plan_make(&idd, &sc, 0.03, NULL, MNW_PRUNE_YES, &plan, &e)) return 2;
    }
    mnw_prunec *pf = mnw_prunec_new(&plan, &sc);
    mnw_cpu_ws *cws = mnw_cpu_ws_new();
    mnw_eqtab eqt;
    mnw_eqtab_of(&idd, &eqt);
    mnw_cpu_ws_figures(cws, &eqt);
    int32_t *hp = mnw_xmalloc((size_t)(2 * 1000 + 4) * sizeof(int32_t));
    int32_t *hc = mnw_xmalloc((size_t)(2 * 1000 + 4) * sizeof(int32_t));

    const uint8_t **tp = mnw_xmalloc((size_t)n * sizeof(*tp));
    int *tn = mnw_xmalloc((size_t)n * sizeof(int));
    mnw_aln *out = mnw_xmalloc((size_t)n * sizeof(mnw_aln));
    for (int k = 0; k < n; k++) mnw_aln_init(&out[k]);
    mnw_prunec_fig *figs = mnw_xmalloc((size_t)n * sizeof(*figs));
    uint8_t *pr = mnw_xmalloc((size_t)n);
    int *amb = mnw_xmalloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) {
        const uint8_t *s = mnw_seq_codes(&set, (size_t)i);
        int L = (int)mnw_seq_len(&set, (size_t)i);
        amb[i] = 0;
        for (int p = 0; p < L; p++) amb[i] += s[p] >= 4;
    }
    /* counters: [0] q-gram filter, [1 + x] ED bound with band w[x] (centres 0
     * and nb - na), [1 + nw] ED bound with the oracle C2*, [2 + nw] q-gram
     * filter or ED with the widest band */
    uint64_t within = 0, beyond = 0, proved[MAXW + 3] = {0}, fails = 0, aproved[MAXW] = {0}, aany[MAXW] = {0};
    double t_ab[MAXW] = {0}, t_sb[MAXW] = {0};
    uint64_t sproved[MAXW] = {0}, gproved[MAXW] = {0}, gany[MAXW] = {0}, ganchors = 0;
    double t_gb[MAXW] = {0}, t_guide = 0;
    wpos **wl = mnw_xmalloc((size_t)n * sizeof(*wl));
    int *nwl = mnw_xmalloc((size_t)n * sizeof(int));
    for (int x = 0; x < n; x++) {
        wl[x] = mnw_xmalloc((mnw_seq_len(&set, (size_t)x) + 1) * sizeof(wpos));
        nwl[x] = words_of(mnw_seq_codes(&set, (size_t)x), (int)mnw_seq_len(&set, (size_t)x), wl[x], 1);
    }
    /* b's side of the guide: every word (repeats included) */
    wpos **wb = mnw_xmalloc((size_t)n * sizeof(*wb));
    int *nwb = mnw_xmalloc((size_t)n * sizeof(int));
    for (int x = 0; x < n; x++) {
        wb[x] = mnw_xmalloc((mnw_seq_len(&set, (size_t)x) + 1) * sizeof(wpos));
        nwb[x] = words_of(mnw_seq_codes(&set, (size_t)x), (int)mnw_seq_len(&set, (size_t)x), wb[x], 0);
    }
    int *gcen = mnw_xmalloc(20000 * sizeof(int)), *gpa = mnw_xmalloc(20000 * sizeof(int)),
        *gpb = mnw_xmalloc(20000 * sizeof(int)), *gtail = mnw_xmalloc(20000 * sizeof(int)),
        *gprev = mnw_xmalloc(20000 * sizeof(int));
    int *rlo = mnw_xmalloc(20000 * sizeof(int)), *rhi = mnw_xmalloc(20000 * sizeof(int));
    int32_t *bp = mnw_xmalloc(20000 * sizeof(int32_t)), *bc = mnw_xmalloc(20000 * sizeof(int32_t));
    int32_t *av0 = mnw_xmalloc(4096 * sizeof(int32_t)), *av1 = mnw_xmalloc(4096 * sizeof(int32_t)),
            *av2 = mnw_xmalloc(4096 * sizeof(int32_t));
    uint64_t hist_beyond[20] = {0}, hist_ed_or[20] = {0}, hist_ed_w[20] = {0};
    double t_ed = 0, t_band[MAXW] = {0}, t_dp = 0, t_q = 0;
    uint64_t nb_ = 0;
    for (int i = 1; i < n; i++) {
        const uint8_t *a = mnw_seq_codes(&set, (size_t)i);
        int na = (int)mnw_seq_len(&set, (size_t)i);
        for (int j = 0; j < i; j++) {
            tp[j] = mnw_seq_codes(&set, (size_t)j);
            tn[j] = (int)mnw_seq_len(&set, (size_t)j);
        }
        double t0 = now();
        mnw_cpu_align(cws, &sc, a, na, tp, tn, i, out);
        double t1 = now();
        mnw_prunec_query(pf, a, na);
        mnw_prunec_run(pf, tp, tn, (size_t)i, pr, figs);
        if (!qgram_ok) memset(pr, 0, (size_t)i);
        double t2 = now();
        t_dp += t1 - t0;
        t_q += t2 - t1;
        for (int j = 0; j < i; j++) {
            int nbb = tn[j];
            double dist = 1.0 - mnw_identity_fig(&idd, &out[j].fig, (size_t)na, (size_t)nbb);
            int in = !(dist > D);
            within += (uint64_t)in;
            int bin = (int)(dist * 20.0);
            if (bin > 19) bin = 19;
            if (!in) {
                beyond++;
                hist_beyond[bin]++;
            }
            int64_t Lmin = na < nbb ? na : nbb;
            int64_t A = amb[i] + amb[j];
            double slack = (double)(cg > cx ? cg - cx : 0) * delta * (double)Lmin + (double)(cx > ca ? cx - ca : 0) * (double)A;
            if (no_slack) slack = 0.0; /* (tests) a wrong bound, which the check must catch */
            double ta = now();
            int64_t ed = mnw_ped_ed(a, na, tp[j], nbb); /* lib/prune_ed.c: test_prune_ed checks it against a plain DP */
            t_ed += now() - ta;
            int64_t lhs = cg * ed;
            int any = 0;
            if (pr[j]) {
                proved[0]++;
                any = 1;
                if (in) fails++;
            }
            /* oracle */
            int64_t C2s = (int64_t)ms * (na + nbb) - 2 * (int64_t)out[j].score;
            int por = (double)lhs > (double)C2s + slack;
            if (por) {
                proved[1 + nw]++;
                if (in) {
                    fails++;
                    if (fails < 10)
                        printf("FAIL oracle: pair %d %d dist %.4f ed %lld C2* %lld slack %.1f\n", i, j, dist,
                               (long long)ed, (long long)C2s, slack);
                }
                if (!in) hist_ed_or[bin]++;
            }
            if (!in && rf) {
                fprintf(rf, "%d %d %.4f %lld %lld %.1f %d %d", i, j, dist, (long long)ed, (long long)C2s, slack, na, nbb);
            }
            int pw_last = 0;
            for (int x = 0; x < nw; x++) {
                double tb = now();
                int32_t s0 = band_score(a, na, tp[j], nbb, 0, ws_[x], ms, mm, g, hp, hc);
                int32_t s1 = nbb != na ? band_score(a, na, tp[j], nbb, nbb - na, ws_[x], ms, mm, g, hp, hc) : s0;
                t_band[x] += now() - tb;
                int32_t sy = s0 > s1 ? s0 : s1;
                if (sy > out[j].score) {
                    printf("FAIL band: pair %d %d w %d band %d > S* %d\n", i, j, ws_[x], sy, out[j].score);
                    fails++;
                }
                int64_t C2y = (int64_t)ms * (na + nbb) - 2 * (int64_t)sy;
                int pw = (double)lhs > (double)C2y + slack;
                if (pw) {
                    proved[1 + x]++;
                    if (in) fails++;
                }
                if (x == nw - 1) pw_last = pw;
                if (x == nw - 1 && pw && !in) hist_ed_w[bin]++;
            }
            if (any || pw_last) proved[2 + nw]++;
            for (int x = 0; x < naw; x++) {
                double tb = now();
                int32_t sy = adaptive_score(a, na, tp[j], nbb, aw_[x], ms, mm, g, av0, av1, av2);
                t_ab[x] += now() - tb;
                if (sy > out[j].score) {
                    printf("FAIL adaptive: pair %d %d W %d band %d > S* %d\n", i, j, aw_[x], sy, out[j].score);
                    fails++;
                }
                int64_t C2y = (int64_t)ms * (na + nbb) - 2 * (int64_t)sy;
                int pw = (double)lhs > (double)C2y + slack;
                if (pw) {
                    aproved[x]++;
                    if (in) fails++;
                }
                if (pw || pr[j]) aany[x]++;
                if (!in && rf) {
                    fprintf(rf, " %lld", (long long)C2y);
                }
            }
            for (int x = 0; x < nsw; x++) { /* the slanted band: around the line (0, 0) - (m, n) */
                double tb = now();
                for (int r = 1; r <= na; r++) {
                    int c0 = (int)((int64_t)r * nbb / (na ? na : 1));
                    rlo[r] = c0 - sw_[x];
                    rhi[r] = c0 + sw_[x];
                }
                int32_t sy = band_rows_score(a, na, tp[j], nbb, rlo, rhi, ms, mm, g, bp, bc);
                t_sb[x] += now() - tb;
                if (sy > out[j].score) {
                    printf("FAIL slanted: pair %d %d w %d band %d > S* %d\n", i, j, sw_[x], sy, out[j].score);
                    fails++;
                }
                int64_t C2y = (int64_t)ms * (na + nbb) - 2 * (int64_t)sy;
                if ((double)lhs > (double)C2y + slack) {
                    sproved[x]++;
                    if (in) fails++;
                }
            }
            if (ngw) {
                double tg = now();
                ganchors += (uint64_t)guide_of(wl[i], nwl[i], na, wb[j], nwb[j], nbb, gcen, gpa, gpb, gtail, gprev);
                t_guide += now() - tg;
            }
            for (int x = 0; x < ngw; x++) {
                double tb = now();
                for (int r = 1; r <= na; r++) {
                    rlo[r] = gcen[r] - gw_[x];
                    rhi[r] = gcen[r] + gw_[x];
                }
                int32_t sy = band_rows_score(a, na, tp[j], nbb, rlo, rhi, ms, mm, g, bp, bc);
                t_gb[x] += now() - tb;
                if (sy > out[j].score) {
                    printf("FAIL guided: pair %d %d w %d band %d > S* %d\n", i, j, gw_[x], sy, out[j].score);
                    fails++;
                }
                int64_t C2y = (int64_t)ms * (na + nbb) - 2 * (int64_t)sy;
                int pg = (double)lhs > (double)C2y + slack;
                if (pg) {
                    gproved[x]++;
                    if (in) fails++;
                }
                if (pg || pr[j]) gany[x]++;
            }
            if (!in && rf) {
                fprintf(rf, "\n");
            }
            nb_++;
        }
    }
    uint64_t npairs = (uint64_t)n * (uint64_t)(n - 1) / 2;
    printf("prune_ed_proto: %s, %d genes, %llu pairs, cutoff %g, vsearch2, +%d/%d/gap %d\n", path, n,
           (unsigned long long)npairs, D, ms, mm, g);
    printf("within %llu, beyond %llu\n", (unsigned long long)within, (unsigned long long)beyond);
    printf("proved beyond (share of the beyond pairs):\n");
    printf("  q-gram filter (mnw's):            %6.2f%%\n", 100.0 * proved[0] / beyond);
    for (int x = 0; x < nw; x++)
        printf("  ED bound, band w %3d:              %6.2f%%   (band %.0f ns/pair, 2 centres)\n", ws_[x],
               100.0 * proved[1 + x] / beyond, 1e9 * t_band[x] / nb_);
    for (int x = 0; x < naw; x++)
        printf("  ED bound, adaptive W %3d:          %6.2f%%   (or q-gram %6.2f%%; band %.0f ns/pair)\n", aw_[x],
               100.0 * aproved[x] / beyond, 100.0 * aany[x] / beyond, 1e9 * t_ab[x] / nb_);
    for (int x = 0; x < nsw; x++)
        printf("  ED bound, slanted w %3d:           %6.2f%%   (band %.0f ns/pair, scalar)\n", sw_[x],
               100.0 * sproved[x] / beyond, 1e9 * t_sb[x] / nb_);
    for (int x = 0; x < ngw; x++)
        printf("  ED bound, guided w %3d:            %6.2f%%   (or q-gram %6.2f%%; band %.0f ns/pair, scalar; guide %.0f ns/pair, %.1f anchors/pair)\n", gw_[x],
               100.0 * gproved[x] / beyond, 100.0 * gany[x] / beyond, 1e9 * t_gb[x] / nb_, 1e9 * t_guide / nb_, (double)ganchors / nb_);
    printf("  ED bound, oracle C2*:             %6.2f%%\n", 100.0 * proved[1 + nw] / beyond);
    if (nw) printf("  q-gram or ED band w %d:           %6.2f%%\n", ws_[nw - 1], 100.0 * proved[2 + nw] / beyond);
    printf("times: DP %.0f ns/pair, q-gram filter %.0f ns/pair, ED (scalar Myers) %.0f ns/pair\n", 1e9 * t_dp / nb_,
           1e9 * t_q / nb_, 1e9 * t_ed / nb_);
    printf("distance histogram of the beyond pairs (bin 0.05): beyond / ED-oracle-proved / ED-w%d-proved\n",
           nw ? ws_[nw - 1] : 0);
    for (int b = 0; b < 20; b++)
        if (hist_beyond[b])
            printf("  %.2f-%.2f %8llu %8llu %8llu\n", b * 0.05, b * 0.05 + 0.05, (unsigned long long)hist_beyond[b],
                   (unsigned long long)hist_ed_or[b], (unsigned long long)hist_ed_w[b]);
    if (fails) {
        printf("FAILED: %llu\n", (unsigned long long)fails);
        return 1;
    }
    printf("check: no pair within the cutoff proved beyond\n");
    return 0;
}
