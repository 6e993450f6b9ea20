/* bench_fwdcount.c - issue 20's question, measured: instead of storing
 * direction bits and walking them back (counts mode: mnw_tb_walk_fig), carry
 * an alignment's figures forward through the DP along the path the tie rule
 * chooses, with no direction matrix. A prototype of that kernel (AVX-512BW,
 * 32 lanes of int16, one query against up to 32 targets, the layout of
 * workers/cpu/nw_simd_int.h, linear gaps, no free end gaps: the default scoring)
 * timed in the same run, on the same lane groups, beside mnw's own kernel.
 *
 * Usage: bench_fwdcount FASTA [--pairs N] [--reps N]
 *   --pairs N  the first N pairs in pair order (default all)
 *   --reps N   timed repetitions of every row (default 3); each row keeps its
 *              fastest (min seconds), the rows interleaved within a repetition
 *
 * Rows (single thread; each runs the same lane groups: per query row i, the
 * targets j < i sorted by length, 32 per group, as mnw_wl_align does):
 *   counts   mnw_cpu_align in counts mode (mnw_cpu_ws_figures) on the
 *            AVX-512BW 16-bit kernel (MNW_SIMD=avx512, set here): DP with
 *            direction bits, then the walk counts each lane's figures (mnw's
 *            counts mode); the baseline of the ratios
 *   dirs     mnw_cpu_plan + mnw_cpu_dirs: the same DP and bits, no walk
 *   fwd-full the prototype carrying pairs, matches, eq, gap opens, the
 *            current gap run and the leading gap per cell (6 int16 counts)
 *   fwd-lean the prototype carrying pairs, gap opens, the current gap run and
 *            the leading gap (4 counts) plus, only in groups holding an
 *            ambiguity code, one packed count of the ambiguity columns and
 *            of those the definition counts as identical; matches then come
 *            from the score: H = ms*M + mm*(P - M - Amb) - g*(m + n - 2P)
 *   floor    the prototype's H recurrence alone (score only, no bits, no
 *            counts): the least any DP of this layout costs
 * Every fwd row computes two rows per pass, as mnw's linear kernel does.
 *
 * Correctness: an untimed pass compares every pair's figures (all 11 fields
 * of mnw_pathfig) and score from both prototypes with mnw's counts mode, plus
 * a set of edge pairs (identical, empty, length 1, very different lengths,
 * ambiguity codes, groups of mixed lengths); each timed pass is compared with
 * that pass again. Exit status 1 if any pair differs.
 *
 * The prototype relies on one property of the scoring, checked at start: every
 * substitution score s > -2 g (g = the linear gap cost), so an I next to a D
 * is never on an optimal path (replacing the two by one diagonal scores
 * better, and the tie rule takes the diagonal on equality), hence gap runs are
 * separated by aligned columns: at most one leading and one trailing gap run,
 * and no aligned column only when m = 0 or n = 0. The default scoring (+4, -5,
 * ambiguity 0, gap 10) has it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/pairs.h"
#include "lib/util.h"
#include "workers/cpu/nw_cpu.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define LANES 32

/* ---- the prototype (AVX-512BW, as nw_avx512.c: only this part is compiled
 * for it, so the rest of the program runs anywhere and says so) ---- */
#pragma GCC push_options
#pragma GCC target("avx512bw")
#include <immintrin.h>

typedef __m512i V;

/* What a cell carries besides H. p: aligned columns; g: gap runs; r: length
 * of the gap run the cell ends (0 when its move is diagonal; row 0 and
 * column 0 cells: c, r); f: the leading gap, valid once p > 0 (the gap run
 * before the first aligned column). x1, x2: mode FULL matches and eq; mode
 * LEANZ x1 = ambiguity columns + 256 * those counted identical. */
typedef struct {
    V p, g, r, f, x1, x2;
} cnt;

enum { M_FLOOR, M_LEAN, M_LEANZ, M_FULL };

/* One cell's counts from its three predecessors: A = H came from the
 * diagonal (cmpeq(h, d)), B = the left gap is strictly better than the upper
 * one (cmpgt(left, up)); the tie rule: A ? diagonal : B ? left (D) : up (I).
 * xi1, xi2: the diagonal move's increments of x1, x2 (the profiles). */
static inline __attribute__((always_inline)) void cstep(const int mode, __mmask32 A, __mmask32 B, const cnt *dg,
                                                        const cnt *up, const cnt *lf, V xi1, V xi2, cnt *o)
{
    const V one = _mm512_set1_epi16(1), zero = _mm512_setzero_si512();
    /* the gap move's predecessor (B ? left : up) */
    V gr = _mm512_mask_blend_epi16(B, up->r, lf->r);
    V gp = _mm512_mask_blend_epi16(B, up->p, lf->p);
    V gg = _mm512_mask_blend_epi16(B, up->g, lf->g);
    V gf = _mm512_mask_blend_epi16(B, up->f, lf->f);
    /* a gap move opens a run where its predecessor's move was diagonal (r 0;
     * an I next to a D is never on the path, see the top) */
    __mmask32 open = _mm512_mask_cmpeq_epi16_mask(~A, gr, zero);
    o->r = _mm512_maskz_add_epi16(~A, gr, one);
    o->p = _mm512_mask_blend_epi16(A, gp, _mm512_add_epi16(dg->p, one));
    V sg = _mm512_mask_blend_epi16(A, gg, dg->g);
    o->g = _mm512_mask_add_epi16(sg, open, sg, one);
    /* the first aligned column fixes the leading gap: the run its diagonal
     * predecessor ended */
    V df = _mm512_mask_mov_epi16(dg->f, _mm512_cmpeq_epi16_mask(dg->p, zero), dg->r);
    o->f = _mm512_mask_blend_epi16(A, gf, df);
    if (mode == M_FULL || mode == M_LEANZ)
        o->x1 = _mm512_mask_blend_epi16(A, _mm512_mask_blend_epi16(B, up->x1, lf->x1), _mm512_add_epi16(dg->x1, xi1));
    if (mode == M_FULL)
        o->x2 = _mm512_mask_blend_epi16(A, _mm512_mask_blend_epi16(B, up->x2, lf->x2), _mm512_add_epi16(dg->x2, xi2));
}

typedef struct {
    void *buf;
    size_t bytes;
} fwd_ws;

/* Grows a 64-byte aligned buffer to at least need bytes (contents lost). */
static void reserve(void **buf, size_t *have, size_t need)
{
    if (*have >= need) return;
    free(*buf);
    *have = (need + 63) & ~(size_t)63;
    *buf = mnw_xaligned(64, *have);
}

/* Per lane l < count at (m, n[l]): score and the carried counts */
typedef struct {
    int32_t h;
    uint16_t p, g, r, f, x1, x2;
} fwd_end;

static inline __attribute__((always_inline)) void fwd_kernel(const int mode, fwd_ws *ws, const mnw_scoring *sc,
                                                             const mnw_eqtab *eqt, const uint8_t *q, int m,
                                                             const uint8_t *const *t, const int *n, int count,
                                                             fwd_end *out)
{
    int nl[LANES], maxn = 0;
    for (int l = 0; l < LANES; l++) {
        nl[l] = l < count ? n[l] : 0;
        if (nl[l] > maxn) maxn = nl[l];
    }
    const size_t W = (size_t)maxn + 1;
    int slot[MNW_NCODES], nslot = 0;
    for (int k = 0; k < MNW_NCODES; k++) slot[k] = -1;
    for (int r = 0; r < m; r++)
        if (slot[q[r]] < 0) slot[q[r]] = nslot++;
    const int nx = mode == M_FULL ? 2 : mode == M_LEANZ ? 1 : 0; /* extra counts and profiles */
    const int nc = mode == M_FLOOR ? 0 : 4 + nx;                 /* count rows */
    size_t need = ((size_t)(1 + nc) + (size_t)nslot * (1 + (size_t)nx)) * W * sizeof(V);
    reserve(&ws->buf, &ws->bytes, need);
    V *hrow = (V *)ws->buf;
    V *prow = hrow + W, *grow = prow + W, *rrow = grow + W, *frow = rrow + W, *x1row = frow + W, *x2row = x1row + W;
    V *prof = hrow + (size_t)(1 + nc) * W; /* substitution, then x1, then x2 profiles: nslot rows each */
    V *xprof1 = prof + (size_t)nslot * W, *xprof2 = xprof1 + (size_t)nslot * W;
    for (int k = 0; k < MNW_NCODES; k++) {
        if (slot[k] < 0) continue;
        int16_t *p = (int16_t *)(prof + (size_t)slot[k] * W);
        int16_t *p1 = nx >= 1 ? (int16_t *)(xprof1 + (size_t)slot[k] * W) : NULL;
        int16_t *p2 = nx >= 2 ? (int16_t *)(xprof2 + (size_t)slot[k] * W) : NULL;
        for (int l = 0; l < LANES; l++) {
            const uint8_t *tl = t[l < count ? l : 0];
            for (int c = 0; c <= maxn; c++) {
                size_t at = (size_t)c * LANES + (size_t)l;
                int in = c >= 1 && c <= nl[l];
                uint8_t y = in ? tl[c - 1] : 0;
                p[at] = in ? (int16_t)mnw_sub(sc, (uint8_t)k, y) : 0;
                int match = in && k == y && k < 4, eq = in && (match || ((eqt->row[k] >> y) & 1u));
                if (mode == M_FULL) {
                    p1[at] = (int16_t)match;
                    p2[at] = (int16_t)eq;
                } else if (mode == M_LEANZ) {
                    p1[at] = (int16_t)(uint16_t)(in && (k >= 4 || y >= 4) ? 1 + (!match && eq ? 256 : 0) : 0);
                }
            }
        }
    }
    const int16_t g = (int16_t)sc->gap_open;
    const V vgo = _mm512_set1_epi16((int16_t)-g), zero = _mm512_setzero_si512();
    /* row 0: D moves from (0, 0) */
    for (int c = 0; c <= maxn; c++) {
        _mm512_store_si512(&hrow[c], _mm512_set1_epi16((int16_t)(-g * c)));
        if (mode == M_FLOOR) continue;
        _mm512_store_si512(&prow[c], zero);
        _mm512_store_si512(&grow[c], _mm512_set1_epi16(c > 0));
        _mm512_store_si512(&rrow[c], _mm512_set1_epi16((int16_t)c));
        _mm512_store_si512(&frow[c], zero);
        if (nx >= 1) _mm512_store_si512(&x1row[c], zero);
        if (nx >= 2) _mm512_store_si512(&x2row[c], zero);
    }
#define LOADC(dst, c)                                                                                                 \
    do {                                                                                                              \
        (dst).p = _mm512_load_si512(&prow[c]);                                                                        \
        (dst).g = _mm512_load_si512(&grow[c]);                                                                        \
        (dst).r = _mm512_load_si512(&rrow[c]);                                                                        \
        (dst).f = _mm512_load_si512(&frow[c]);                                                                        \
        if (nx >= 1) (dst).x1 = _mm512_load_si512(&x1row[c]);                                                         \
        if (nx >= 2) (dst).x2 = _mm512_load_si512(&x2row[c]);                                                         \
    } while (0)
#define STOREC(c, src)                                                                                                \
    do {                                                                                                              \
        _mm512_store_si512(&prow[c], (src).p);                                                                        \
        _mm512_store_si512(&grow[c], (src).g);                                                                        \
        _mm512_store_si512(&rrow[c], (src).r);                                                                        \
        _mm512_store_si512(&frow[c], (src).f);                                                                        \
        if (nx >= 1) _mm512_store_si512(&x1row[c], (src).x1);                                                         \
        if (nx >= 2) _mm512_store_si512(&x2row[c], (src).x2);                                                         \
    } while (0)
    /* column 0 of row r: I moves from (0, 0) */
#define COL0(dst, rr)                                                                                                 \
    do {                                                                                                              \
        (dst).p = zero;                                                                                               \
        (dst).g = _mm512_set1_epi16((rr) > 0);                                                                        \
        (dst).r = _mm512_set1_epi16((int16_t)(rr));                                                                   \
        (dst).f = zero;                                                                                               \
        (dst).x1 = zero;                                                                                              \
        (dst).x2 = zero;                                                                                              \
    } while (0)
    cnt dg1 = {0}, lf1 = {0}, lf2 = {0}, up1 = {0}, n1 = {0};
    V xi11 = zero, xi12 = zero, xi21 = zero, xi22 = zero;
    int r0 = 1;
    for (; r0 + 1 <= m; r0 += 2) {
        const size_t s1 = (size_t)slot[q[r0 - 1]] * W, s2 = (size_t)slot[q[r0]] * W;
        const V *pr1 = prof + s1, *pr2 = prof + s2;
        V hdiag1 = _mm512_load_si512(&hrow[0]);
        V hleft1 = _mm512_set1_epi16((int16_t)(-g * r0)), hleft2 = _mm512_set1_epi16((int16_t)(-g * (r0 + 1)));
        _mm512_store_si512(&hrow[0], hleft2);
        V hdiag2 = hleft1;
        V hg1 = _mm512_adds_epi16(hleft1, vgo), hg2 = _mm512_adds_epi16(hleft2, vgo);
        if (mode != M_FLOOR) {
            LOADC(dg1, 0);
            COL0(lf1, r0);
            COL0(lf2, r0 + 1);
            STOREC(0, lf2);
        }
        /* Unrolled twice with the two sets of loop-carried values (suffix a,
         * b) trading roles, so that no register moves rotate them. */
#define BODY2(c, DG, L1, L2, HD1, HG1, HD2, HG2, NDG, NL1, NL2, NHD1, NHG1, NHD2, NHG2)                            \
    do {                                                                                                              \
        V uph = _mm512_load_si512(&hrow[c]);                                                                          \
        V d1 = _mm512_adds_epi16(HD1, _mm512_load_si512(&pr1[c]));                                                    \
        V u1 = _mm512_adds_epi16(uph, vgo);                                                                           \
        V h1 = _mm512_max_epi16(_mm512_max_epi16(d1, u1), HG1);                                                       \
        V hg1n = _mm512_adds_epi16(h1, vgo);                                                                          \
        V d2 = _mm512_adds_epi16(HD2, _mm512_load_si512(&pr2[c]));                                                    \
        V h2 = _mm512_max_epi16(_mm512_max_epi16(d2, hg1n), HG2);                                                     \
        if (mode != M_FLOOR) {                                                                                        \
            __mmask32 A1 = _mm512_cmpeq_epi16_mask(h1, d1), B1 = _mm512_cmpgt_epi16_mask(HG1, u1);                    \
            __mmask32 A2 = _mm512_cmpeq_epi16_mask(h2, d2), B2 = _mm512_cmpgt_epi16_mask(HG2, hg1n);                  \
            LOADC(NDG, c);                                                                                            \
            if (nx >= 1) {                                                                                            \
                xi11 = _mm512_load_si512(&xprof1[s1 + (c)]);                                                          \
                xi21 = _mm512_load_si512(&xprof1[s2 + (c)]);                                                          \
            }                                                                                                         \
            if (nx >= 2) {                                                                                            \
                xi12 = _mm512_load_si512(&xprof2[s1 + (c)]);                                                          \
                xi22 = _mm512_load_si512(&xprof2[s2 + (c)]);                                                          \
            }                                                                                                         \
            cstep(mode, A1, B1, &DG, &NDG, &L1, xi11, xi12, &NL1);                                                    \
            cstep(mode, A2, B2, &L1, &NL1, &L2, xi21, xi22, &NL2);                                                    \
            STOREC(c, NL2);                                                                                           \
        }                                                                                                             \
        _mm512_store_si512(&hrow[c], h2);                                                                             \
        NHD1 = uph;                                                                                                   \
        NHG1 = hg1n;                                                                                                  \
        NHD2 = h1;                                                                                                    \
        NHG2 = _mm512_adds_epi16(h2, vgo);                                                                            \
    } while (0)
        cnt dgb, l1b, l2b;
        V hd1b, hg1b, hd2b, hg2b;
        int c = 1;
        for (; c + 1 <= maxn; c += 2) {
            BODY2(c, dg1, lf1, lf2, hdiag1, hg1, hdiag2, hg2, dgb, l1b, l2b, hd1b, hg1b, hd2b, hg2b);
            BODY2(c + 1, dgb, l1b, l2b, hd1b, hg1b, hd2b, hg2b, dg1, lf1, lf2, hdiag1, hg1, hdiag2, hg2);
        }
        if (c <= maxn) BODY2(c, dg1, lf1, lf2, hdiag1, hg1, hdiag2, hg2, dgb, l1b, l2b, hd1b, hg1b, hd2b, hg2b);
#undef BODY2
    }
    for (; r0 <= m; r0++) { /* the last row when m is odd */
        const size_t s1 = (size_t)slot[q[r0 - 1]] * W;
        const V *pr = prof + s1;
        V hdiag = _mm512_load_si512(&hrow[0]);
        V hleft = _mm512_set1_epi16((int16_t)(-g * r0));
        _mm512_store_si512(&hrow[0], hleft);
        V hg = _mm512_adds_epi16(hleft, vgo);
        if (mode != M_FLOOR) {
            LOADC(dg1, 0);
            COL0(lf1, r0);
            STOREC(0, lf1);
        }
        for (int c = 1; c <= maxn; c++) {
            V uph = _mm512_load_si512(&hrow[c]);
            V d = _mm512_adds_epi16(hdiag, _mm512_load_si512(&pr[c]));
            V u = _mm512_adds_epi16(uph, vgo);
            V h = _mm512_max_epi16(_mm512_max_epi16(d, u), hg);
            if (mode != M_FLOOR) {
                __mmask32 A = _mm512_cmpeq_epi16_mask(h, d), B = _mm512_cmpgt_epi16_mask(hg, u);
                LOADC(up1, c);
                if (nx >= 1) xi11 = _mm512_load_si512(&xprof1[s1 + c]);
                if (nx >= 2) xi12 = _mm512_load_si512(&xprof2[s1 + c]);
                cstep(mode, A, B, &dg1, &up1, &lf1, xi11, xi12, &n1);
                STOREC(c, n1);
                dg1 = up1;
                lf1 = n1;
            }
            _mm512_store_si512(&hrow[c], h);
            hdiag = uph;
            hg = _mm512_adds_epi16(h, vgo);
        }
    }
#undef LOADC
#undef STOREC
#undef COL0
    const int16_t *hs = (const int16_t *)hrow;
    for (int l = 0; l < count; l++) {
        size_t at = (size_t)nl[l] * LANES + (size_t)l;
        fwd_end *e = &out[l];
        e->h = hs[at];
        if (mode == M_FLOOR) continue;
        e->p = ((const uint16_t *)prow)[at];
        e->g = ((const uint16_t *)grow)[at];
        e->r = ((const uint16_t *)rrow)[at];
        e->f = ((const uint16_t *)frow)[at];
        e->x1 = nx >= 1 ? ((const uint16_t *)x1row)[at] : 0;
        e->x2 = nx >= 2 ? ((const uint16_t *)x2row)[at] : 0;
    }
}

static void fwd_floor(fwd_ws *ws, const mnw_scoring *sc, const mnw_eqtab *e, const uint8_t *q, int m,
                      const uint8_t *const *t, const int *n, int count, fwd_end *out)
{
    fwd_kernel(M_FLOOR, ws, sc, e, q, m, t, n, count, out);
}
static void fwd_lean(fwd_ws *ws, const mnw_scoring *sc, const mnw_eqtab *e, const uint8_t *q, int m,
                     const uint8_t *const *t, const int *n, int count, fwd_end *out)
{
    fwd_kernel(M_LEAN, ws, sc, e, q, m, t, n, count, out);
}
static void fwd_leanz(fwd_ws *ws, const mnw_scoring *sc, const mnw_eqtab *e, const uint8_t *q, int m,
                      const uint8_t *const *t, const int *n, int count, fwd_end *out)
{
    fwd_kernel(M_LEANZ, ws, sc, e, q, m, t, n, count, out);
}
static void fwd_full(fwd_ws *ws, const mnw_scoring *sc, const mnw_eqtab *e, const uint8_t *q, int m,
                     const uint8_t *const *t, const int *n, int count, fwd_end *out)
{
    fwd_kernel(M_FULL, ws, sc, e, q, m, t, n, count, out);
}
#pragma GCC pop_options

/* ---- the figures from the counts at (m, n) ---- */
static void fig_of(int mode, const mnw_scoring *sc, const fwd_end *e, int m, int n, mnw_pathfig *f)
{
    memset(f, 0, sizeof *f);
    f->pairs = e->p;
    f->gaps = (uint32_t)(m + n) - 2u * e->p;
    f->gap_opens = e->g;
    if (mode == M_FULL) {
        f->matches = e->x1;
        f->eq = e->x2;
    } else { /* H = ms M + mm (P - M - Amb) - g gaps: M from the score */
        int64_t amb = mode == M_LEANZ ? (e->x1 & 0xff) : 0, eqamb = mode == M_LEANZ ? (e->x1 >> 8) : 0;
        int64_t num = (int64_t)e->h - (int64_t)sc->mismatch * ((int64_t)e->p - amb) + (int64_t)sc->gap_open * f->gaps;
        int64_t den = (int64_t)sc->match - sc->mismatch;
        f->matches = num % den ? 0xffffffffu : (uint32_t)(num / den); /* not divisible: a wrong count, caught */
        f->eq = f->matches + (uint32_t)eqamb;
    }
    f->ends_one_row = 0; /* not tracked here (fig_eq) */
    if (e->p == 0) { /* m = 0 or n = 0: one gap run, or none */
        uint32_t all = (uint32_t)(m + n);
        f->lead_cols = f->trail_cols = f->first_gap = all;
        f->lead_runs = f->trail_runs = all > 0;
        f->last_gap = 0;
    } else {
        f->lead_cols = f->first_gap = e->f;
        f->lead_runs = e->f > 0;
        f->trail_cols = f->last_gap = e->r;
        f->trail_runs = e->r > 0;
    }
}

/* ---- the lane groups ---- */
typedef struct {
    const uint8_t *q;
    int m, count;
    const uint8_t *t[LANES];
    int n[LANES];
    uint64_t k[LANES]; /* pair numbers */
    int lean_mode;     /* M_LEAN, M_LEANZ or M_FULL (fwd-lean's choice) */
} group;

static mnw_seqset S;
static int *amb_of; /* ambiguity codes per sequence */
static const mnw_seqset *cmp_set;
static int by_len(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    size_t la = mnw_seq_len(cmp_set, a), lb = mnw_seq_len(cmp_set, b);
    if (la != lb) return la < lb ? -1 : 1;
    return a < b ? -1 : a > b;
}

static int n_amb(const uint8_t *s, int n)
{
    int a = 0;
    for (int x = 0; x < n; x++) a += s[x] >= 4;
    return a;
}

static int lean_mode_of(const group *gr, int amb_q, const int *amb_t)
{
    int any = amb_q > 0, fits = 1;
    for (int l = 0; l < gr->count; l++) {
        any |= amb_t[l] > 0;
        fits &= amb_q + amb_t[l] < 256; /* ambiguity columns <= both sequences' codes: 8 bits */
    }
    return !any ? M_LEAN : fits ? M_LEANZ : M_FULL;
}

/* per query row i < nrows_done, targets sorted by length; pairs k < npairs */
static group *make_groups(uint64_t npairs, size_t *ng_out)
{
    size_t cap = 64, ng = 0;
    group *G = mnw_xmalloc(cap * sizeof *G);
    uint64_t *ord = mnw_xmalloc(S.n * sizeof *ord);
    for (uint64_t i = 1; i < S.n && mnw_pair_k(i, 0) < npairs; i++) {
        uint64_t nj = i;
        if (mnw_pair_k(i, 0) + nj > npairs) nj = npairs - mnw_pair_k(i, 0);
        for (uint64_t j = 0; j < nj; j++) ord[j] = j;
        cmp_set = &S;
        qsort(ord, nj, sizeof *ord, by_len);
        for (uint64_t x = 0; x < nj; x += LANES) {
            if (ng == cap) G = mnw_xrealloc(G, (cap *= 2) * sizeof *G);
            group *gr = &G[ng++];
            memset(gr, 0, sizeof *gr);
            gr->q = mnw_seq_codes(&S, i);
            gr->m = (int)mnw_seq_len(&S, i);
            gr->count = (int)(nj - x < LANES ? nj - x : LANES);
            int at[LANES];
            for (int l = 0; l < gr->count; l++) {
                uint64_t j = ord[x + (uint64_t)l];
                gr->t[l] = mnw_seq_codes(&S, j);
                gr->n[l] = (int)mnw_seq_len(&S, j);
                gr->k[l] = mnw_pair_k(i, j);
                at[l] = amb_of[j];
            }
            gr->lean_mode = lean_mode_of(gr, amb_of[i], at);
        }
    }
    free(ord);
    *ng_out = ng;
    return G;
}

/* every figure but ends_one_row (which sequence the end gap runs are in:
 * the prototype's forward counts do not tell; mothur-eachgap-noends needs it) */
static int fig_eq(const mnw_pathfig *a, const mnw_pathfig *b)
{
    mnw_pathfig x = *a, y = *b;
    x.ends_one_row = y.ends_one_row = 0;
    return !memcmp(&x, &y, sizeof x);
}

static void print_fig(const char *what, int32_t score, const mnw_pathfig *f)
{
    printf("    %-8s score %d pairs %u matches %u eq %u gap_opens %u gaps %u lead %u/%u trail %u/%u first %u last %u\n",
           what, score, f->pairs, f->matches, f->eq, f->gap_opens, f->gaps, f->lead_cols, f->lead_runs, f->trail_cols,
           f->trail_runs, f->first_gap, f->last_gap);
}

typedef void (*fwd_fn)(fwd_ws *, const mnw_scoring *, const mnw_eqtab *, const uint8_t *, int, const uint8_t *const *,
                       const int *, int, fwd_end *);
static fwd_fn fn_of(int mode)
{
    return mode == M_FULL ? fwd_full : mode == M_LEANZ ? fwd_leanz : mode == M_LEAN ? fwd_lean : fwd_floor;
}

static const mnw_scoring SC = MNW_SCORING_DEFAULT;
static mnw_eqtab EQT;

/* One group through mnw's counts mode and both prototypes; returns the
 * lanes whose figures or score differ (printing the first few). */
static long bad_printed;
static long check_group(mnw_cpu_ws *ws, fwd_ws *fw, const group *gr, mnw_aln *alns, const char *label)
{
    fwd_end ef[LANES], el[LANES];
    mnw_cpu_align(ws, &SC, gr->q, gr->m, gr->t, gr->n, gr->count, alns);
    fwd_full(fw, &SC, &EQT, gr->q, gr->m, gr->t, gr->n, gr->count, ef);
    fn_of(gr->lean_mode)(fw, &SC, &EQT, gr->q, gr->m, gr->t, gr->n, gr->count, el);
    long bad = 0;
    for (int l = 0; l < gr->count; l++) {
        mnw_pathfig ff, fl;
        fig_of(M_FULL, &SC, &ef[l], gr->m, gr->n[l], &ff);
        fig_of(gr->lean_mode, &SC, &el[l], gr->m, gr->n[l], &fl);
        int ok = alns[l].has_fig && ef[l].h == alns[l].score && el[l].h == alns[l].score && fig_eq(&ff, &alns[l].fig) &&
                 fig_eq(&fl, &alns[l].fig);
        if (!ok) {
            bad++;
            if (bad_printed++ < 5) {
                printf("  MISMATCH %s lane %d (m %d, n %d, lean mode %d):\n", label, l, gr->m, gr->n[l], gr->lean_mode);
                print_fig("walk", alns[l].score, &alns[l].fig);
                print_fig("fwd-full", ef[l].h, &ff);
                print_fig("fwd-lean", el[l].h, &fl);
            }
        }
    }
    return bad;
}

/* ---- edge pairs: each alone, then all of them against one query as a
 * group of mixed lengths ---- */
static long check_edges(mnw_cpu_ws *ws, fwd_ws *fw, mnw_aln *alns, long *npairs_out)
{
    const uint8_t *s0 = mnw_seq_codes(&S, 0), *s1 = mnw_seq_codes(&S, 1);
    int n0 = (int)mnw_seq_len(&S, 0), n1 = (int)mnw_seq_len(&S, 1);
    static uint8_t rnd1[1500], rnd2[900], amb1[1400], alln[600], rev0[4096];
    uint64_t x = 88172645463325252ull;
    for (int k = 0; k < 1500; k++) rnd1[k] = (uint8_t)((x ^= x << 13, x ^= x >> 7, x ^= x << 17) % 4);
    for (int k = 0; k < 900; k++) rnd2[k] = (uint8_t)((x ^= x << 13, x ^= x >> 7, x ^= x << 17) % 4);
    for (int k = 0; k < 1400; k++) /* s1 with every 4th code an ambiguity code: > 256 of them */
        amb1[k] = k % 4 == 1 ? (uint8_t)(4 + (k / 4) % 11) : s1[k % n1];
    for (int k = 0; k < 600; k++) alln[k] = 14; /* N */
    for (int k = 0; k < n0 && k < 4096; k++) rev0[k] = s0[n0 - 1 - k];
    static const uint8_t acgt[] = {0, 1, 2, 3}, tgca[] = {3, 2, 1, 0};
    struct {
        const uint8_t *a;
        int m;
        const uint8_t *b;
        int n;
    } E[] = {
        {s0, n0, s0, n0},       {s0, n0, s0, 1},          {s0, 1, s0, n0},         {s0 + 5, 1, s0, n0},
        {s0, n0, s0 + 700, 3},  {s0, n0, s0, 200},        {s0 + 700, 50, s1, n1},  {s0, 0, s1, n1},
        {s0, n0, s1, 0},        {s0, 0, s1, 0},           {s0, 1, s1, 1},          {acgt, 4, tgca, 4},
        {rnd1, 1500, rnd2, 900}, {rnd2, 900, rnd1, 1500}, {amb1, 1400, s1, n1},    {s0, n0, amb1, 1400},
        {alln, 600, s0, n0},    {alln, 600, alln, 300},   {s0, n0, rev0, n0},      {rnd1, 1500, s0, n0},
        {s0, 2, s1, 3},         {s0 + 100, 40, s0, n0},   {s0, n0, s0 + 1, n0 - 2}, {amb1, 300, amb1 + 2, 280},
    };
    int ne = (int)(sizeof E / sizeof *E);
    long bad = 0, np = 0;
    for (int e = 0; e < ne; e++) {
        group gr;
        memset(&gr, 0, sizeof gr);
        gr.q = E[e].a;
        gr.m = E[e].m;
        gr.count = 1;
        gr.t[0] = E[e].b;
        gr.n[0] = E[e].n;
        int at = n_amb(E[e].b, E[e].n);
        gr.lean_mode = lean_mode_of(&gr, n_amb(E[e].a, E[e].m), &at);
        char label[32];
        snprintf(label, sizeof label, "edge %d", e);
        bad += check_group(ws, fw, &gr, alns, label);
        np++;
    }
    /* every edge target against each distinct query, as one group (mixed lengths) */
    for (int qe = 0; qe < ne; qe++) {
        group gr;
        memset(&gr, 0, sizeof gr);
        gr.q = E[qe].a;
        gr.m = E[qe].m;
        int at[LANES];
        for (int e = 0; e < ne && gr.count < LANES; e++) {
            gr.t[gr.count] = E[e].b;
            gr.n[gr.count] = E[e].n;
            at[gr.count] = n_amb(E[e].b, E[e].n);
            gr.count++;
        }
        gr.lean_mode = lean_mode_of(&gr, n_amb(gr.q, gr.m), at);
        char label[32];
        snprintf(label, sizeof label, "edge group %d", qe);
        bad += check_group(ws, fw, &gr, alns, label);
        np += gr.count;
        /* and with the lean mode forced to each that fits */
        if (gr.lean_mode == M_LEANZ) {
            gr.lean_mode = M_FULL;
            bad += check_group(ws, fw, &gr, alns, label);
        }
    }
    *npairs_out = np;
    return bad;
}

int main(int argc, char **argv)
{
    const char *fasta = NULL;
    long long want_pairs = -1;
    int reps = 3;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--pairs") && a + 1 < argc) want_pairs = atoll(argv[++a]);
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (argv[a][0] != '-' && !fasta) fasta = argv[a];
        else fasta = NULL, a = argc;
    }
    if (!fasta || reps < 1) {
        fprintf(stderr, "usage: bench_fwdcount FASTA [--pairs N] [--reps N]\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512bw")) {
        fprintf(stderr, "bench_fwdcount: this CPU lacks AVX-512BW (the prototype is AVX-512BW only)\n");
        return 2;
    }
    setenv("MNW_SIMD", "avx512", 1); /* mnw's kernel on the same instruction set (read on the first call) */
    if (!mnw_cpu_isa() || strcmp(mnw_cpu_isa(), "avx512") != 0) {
        fprintf(stderr, "bench_fwdcount: mnw's kernel runs %s, not avx512\n", mnw_cpu_isa() ? mnw_cpu_isa() : "nothing");
        return 2;
    }
    /* the property the prototype relies on (see the top) */
    int smin = SC.mismatch < 0 ? SC.mismatch : 0;
    if (mnw_scoring_affine(&SC) || SC.free_ends || !(smin > -2 * SC.gap_open)) {
        fprintf(stderr, "bench_fwdcount: the prototype needs linear gaps, no free end gaps and s > -2 g\n");
        return 2;
    }
    const mnw_iddef d = MNW_IDDEF_DEFAULT;
    mnw_eqtab_of(&d, &EQT);

    char model[256] = "unknown", host[256] = "?", date[64];
    {
        FILE *f = fopen("/proc/cpuinfo", "r");
        char line[4096];
        while (f && fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
                snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
                model[strcspn(model, "\n")] = 0;
                break;
            }
        if (f) fclose(f);
    }
    mnw_hostname(host, sizeof host, 0);
    time_t tt = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&tt));
    printf("forward-count prototype against mnw's counts mode (bench/bench_fwdcount.c), one thread\n");
    printf("command:   ");
    for (int a = 0; a < argc; a++) printf("%s%s", a ? " " : "", argv[a]);
    printf("\ndate:      %s\nhost:      %s; cpu %s; nproc %ld\n", date, host, model, sysconf(_SC_NPROCESSORS_ONLN));
    {
        char la[128] = "?";
        FILE *f = fopen("/proc/loadavg", "r");
        if (f) {
            if (fgets(la, sizeof la, f)) la[strcspn(la, "\n")] = 0;
            fclose(f);
        }
        printf("load:      %s (/proc/loadavg before the run)\n", la);
    }

    mnw_seqset_init(&S);
    mnw_err e;
    if (mnw_fasta_read(fasta, &S, &e)) {
        fprintf(stderr, "bench_fwdcount: %s\n", e.msg);
        return 2;
    }
    if (S.n < 2) {
        fprintf(stderr, "bench_fwdcount: %s: fewer than 2 sequences\n", fasta);
        return 2;
    }
    amb_of = mnw_xmalloc(S.n * sizeof *amb_of);
    for (size_t i = 0; i < S.n; i++) amb_of[i] = n_amb(mnw_seq_codes(&S, i), (int)mnw_seq_len(&S, i));
    uint64_t npairs = mnw_npairs(S.n);
    if (want_pairs >= 0 && (uint64_t)want_pairs < npairs) npairs = (uint64_t)want_pairs;
    size_t ng;
    group *G = make_groups(npairs, &ng);
    uint64_t cells = 0;
    int nmode[4] = {0};
    long nlong = 0;
    for (size_t x = 0; x < ng; x++) {
        nmode[G[x].lean_mode]++;
        for (int l = 0; l < G[x].count; l++) {
            cells += (uint64_t)G[x].m * (uint64_t)G[x].n[l];
            nlong += !mnw_fits16(&SC, G[x].m, G[x].n[l]);
        }
    }
    if (nlong) {
        fprintf(stderr, "bench_fwdcount: %ld pairs do not fit 16-bit lanes (the prototype is 16-bit only)\n", nlong);
        return 2;
    }
    int nseq_amb = 0;
    for (size_t i = 0; i < S.n; i++) nseq_amb += amb_of[i] > 0;
    printf("data:      %s: %zu sequences (%d with ambiguity codes), %llu pairs timed in %zu lane groups, %.4g cells\n",
           fasta, S.n, nseq_amb, (unsigned long long)npairs, ng, (double)cells);
    printf("scoring:   match %d, mismatch %d, ambiguity 0, linear gap %d, end gaps penalised; identity %s (eq table)\n",
           SC.match, SC.mismatch, SC.gap_open, mnw_iddef_name(&d));
    printf("fwd-lean:  %d groups without ambiguity codes (4 counts), %d with (4 + 1 packed), %d fell back to fwd-full\n",
           nmode[M_LEAN], nmode[M_LEANZ], nmode[M_FULL]);

    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    mnw_cpu_ws_figures(ws, &EQT); /* the dirs row ignores it */
    void *dir = NULL;             /* the dirs row's direction bits */
    size_t dir_bytes = 0;
    fwd_ws fw = {0};
    mnw_aln alns[LANES];
    for (int l = 0; l < LANES; l++) mnw_aln_init(&alns[l]);

    /* ---- correctness: edge pairs, then every pair timed (untimed) ---- */
    long enp, ebad = check_edges(ws, &fw, alns, &enp);
    printf("check:     edge pairs: %ld lane results, %ld differ\n", enp, ebad);
    mnw_pathfig *ref = mnw_xmalloc(npairs * sizeof *ref);
    int32_t *refs = mnw_xmalloc(npairs * sizeof *refs);
    long bad = 0;
    double tc = now();
    for (size_t x = 0; x < ng; x++) {
        bad += check_group(ws, &fw, &G[x], alns, "data");
        for (int l = 0; l < G[x].count; l++) {
            ref[G[x].k[l]] = alns[l].fig;
            refs[G[x].k[l]] = alns[l].score;
        }
    }
    printf("check:     %llu pairs of the data: figures (all 11 fields) and score of fwd-full and fwd-lean = mnw counts "
           "mode: %s (%ld differ; %.1f s)\n",
           (unsigned long long)npairs, bad ? "NO" : "yes", bad, now() - tc);
    bad += ebad;

    /* ---- timing ---- */
    enum { R_COUNTS, R_DIRS, R_FULL, R_LEAN, R_FLOOR, NR };
    static const char *names[NR] = {"mnw counts mode (DP + dir bits + walk)", "mnw DP + dir bits only (_dirs)",
                                    "fwd-full (6 counts carried)", "fwd-lean (4 counts [+1], M from score)",
                                    "floor: fwd DP score only"};
    double best[NR];
    for (int r = 0; r < NR; r++) best[r] = 1e300;
    mnw_tb_end ends[LANES];
    fwd_end fe[LANES];
    long tbad = 0;
    /* warm-up: a few groups of each */
    for (size_t x = 0; x < ng && x < 8; x++) {
        mnw_cpu_align(ws, &SC, G[x].q, G[x].m, G[x].t, G[x].n, G[x].count, alns);
        fwd_floor(&fw, &SC, &EQT, G[x].q, G[x].m, G[x].t, G[x].n, G[x].count, fe);
    }
    for (int rep = 1; rep <= reps; rep++) {
        double sec[NR];
        for (int r = 0; r < NR; r++) {
            long rb = 0;
            double t0 = now();
            for (size_t x = 0; x < ng; x++) {
                const group *gr = &G[x];
                if (r == R_COUNTS) {
                    mnw_cpu_align(ws, &SC, gr->q, gr->m, gr->t, gr->n, gr->count, alns);
                    for (int l = 0; l < gr->count; l++) rb += !fig_eq(&alns[l].fig, &ref[gr->k[l]]);
                } else if (r == R_DIRS) {
                    mnw_cpu_group g;
                    mnw_cpu_plan(&SC, gr->m, gr->n, gr->count, &g);
                    if (g.count != gr->count) {
                        fprintf(stderr, "bench_fwdcount: a lane group of %d split in %d\n", gr->count, g.count);
                        exit(2);
                    }
                    reserve(&dir, &dir_bytes, g.dir_bytes);
                    mnw_cpu_dirs(ws, &g, &SC, gr->q, gr->m, gr->t, gr->n, dir, ends);
                    for (int l = 0; l < gr->count; l++) rb += ends[l].score != refs[gr->k[l]];
                } else {
                    int mode = r == R_FULL ? M_FULL : r == R_LEAN ? gr->lean_mode : M_FLOOR;
                    fn_of(mode)(&fw, &SC, &EQT, gr->q, gr->m, gr->t, gr->n, gr->count, fe);
                    for (int l = 0; l < gr->count; l++) {
                        if (mode == M_FLOOR) {
                            rb += fe[l].h != refs[gr->k[l]];
                        } else {
                            mnw_pathfig f;
                            fig_of(mode, &SC, &fe[l], gr->m, gr->n[l], &f);
                            rb += !fig_eq(&f, &ref[gr->k[l]]) || fe[l].h != refs[gr->k[l]];
                        }
                    }
                }
            }
            sec[r] = now() - t0;
            if (sec[r] < best[r]) best[r] = sec[r];
            tbad += rb;
        }
        printf("rep %d:", rep);
        for (int r = 0; r < NR; r++) printf(" %.3f", sec[r]);
        printf(" s (rows in the order of the table)\n");
    }
    printf("\n%-42s %9s %10s %8s %12s\n", "row (1 thread, min of reps)", "seconds", "pairs/s", "GCUPS", "vs counts");
    for (int r = 0; r < NR; r++)
        printf("%-42s %9.3f %10.1f %8.3f %11.2fx\n", names[r], best[r], (double)npairs / best[r],
               (double)cells / best[r] / 1e9, best[R_COUNTS] / best[r]);
    printf("\nvs counts = counts mode's seconds / the row's (above 1: faster than mnw's counts mode).\n");
    printf("GCUPS = sum of len_i x len_j over the pairs / seconds / 1e9; every row includes building its profiles.\n");
    printf("verification: %s (timed passes: %ld results differ from the check pass)\n",
           bad || tbad ? "FAILED" : "every figure and score identical to mnw's counts mode", tbad);

    for (int l = 0; l < LANES; l++) mnw_aln_free(&alns[l]);
    mnw_cpu_ws_free(ws);
    free(dir);
    free(fw.buf);
    free(ref);
    free(refs);
    free(G);
    free(amb_of);
    mnw_seqset_free(&S);
    return bad || tbad ? 1 : 0;
}
