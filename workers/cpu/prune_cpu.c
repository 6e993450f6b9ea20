/* prune_cpu.c - see prune_cpu.h; the bound is docs/PRUNE.md's.
 *
 * The band DP. Lane l aligns the query a (rows r = 0..m) with its target b
 * (columns c = 0..n, n = nn[l]) inside the band off <= c - r < off + K,
 * off = centre - MNW_PRUNE_W, K = 2 MNW_PRUNE_W + 1; cell (r, c) sits in
 * slot k = c - r - off. The cells used are A = {band cells of the grid} +
 * row 0 + column 0 (their exact values -g c and -g r: a leading gap run),
 * with H(r, c) = max(H(r-1, c-1) + sub, H(r-1, c) - g, H(r, c-1) - g) over
 * the predecessors in A (g = band_gap, sub = match / mismatch / 0 for an
 * ambiguity code). The score is the best of leaving A's last cell of
 * column n, (rn, n), down to (m, n) and A's last cell of row m, (m, cm),
 * right to (m, n) (a trailing gap run; a later cell of column n or row m
 * is never worse, as H(r + 1, n) >= H(r, n) - g inside A), and the all-gap
 * path. Every value is the score of a real path, so S <= S* (Lemma 3).
 *
 * Slots outside A hold sentinels: cells with c < 0 stay exactly NEG (their
 * diagonal is NEG + 0, the padding code scores 0; up and left are NEG - g);
 * cells with c > n hold values never read by a cell of the grid (a cell
 * reads only columns c - 1 and c); the slot right of the band in row r
 * (column r + off + K) is row 0's value in row 0, column 0's value -g r
 * where that is column 0, else NEG; the one left of the band (column
 * r + off - 1) the same for column 0.
 *
 * 16-bit lanes (the range, proven): every cell of A with 0 <= c - r... has
 * |c - r| <= |off| + K (the sentinel columns included), and H(r, c) is at
 * least the score of a leading gap of |c - r| columns followed by min(r, c)
 * diagonal steps (all in A), so H >= lo = -g (|off| + K) + min(mm, 0)
 * min(m, n); and H <= hi = ms min(m, n). Every diagonal predecessor of a
 * cell of A is in A (so each cell has a real candidate); candidates from a
 * sentinel are at most NEG - g or NEG + 0 (padding code). With
 * Mx = max(ms, -mm, g) <= 1000 (lib/score.c's ranges) and NEG = -32768 +
 * 2048: when lo > NEG + Mx and hi + Mx <= 32767, every candidate lies in
 * [NEG - Mx, hi + Mx], inside int16 (no wrap), sentinels never beat a real
 * candidate, and the values are exact. Lengths <= MNW_MAX_SEQ_LEN (10,000)
 * make r, n and off fit too. 32-bit lanes: NEG = -2^29, |values| <= 1000 x
 * (3 x 10,000 + K), always inside.
 */
#include "workers/cpu/prune_cpu.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util.h"
#include "workers/cpu/nw_cpu.h"

#define PK (2 * MNW_PRUNE_W + 1) /* band width in diagonals */
#define L16 32                   /* lanes of the 16-bit band */
#define L32 16                   /* lanes of the 32-bit band */
#define NEG16 (-32768 + 2048)
#define NEG32 (-(1 << 29))
#define PAD 15 /* target code outside 1 <= c <= n, and for ambiguity codes: scores 0 */
#define NW (1 << (2 * MNW_PRUNE_Q)) /* q-gram words */
#define QMASK ((uint32_t)NW - 1)

/* One row loop per lane type, in GCC vector types of 64 bytes (one zmm
 * register with AVX-512BW, two ymm with AVX2, four xmm otherwise), the
 * band's K + 1 slots held in registers. tt[(r + k) * L + l] is the code of
 * column r + off + k of lane l (PAD outside 1..n); offv, nnv per lane
 * (nnv = -1: an empty lane). rowm gets row m's K slots, coln the value of
 * (rn, n) when rn = n - off lies in 0..m (else NEG). */
typedef int16_t v16 __attribute__((vector_size(64)));
typedef int32_t v32 __attribute__((vector_size(64)));
typedef uint8_t u8x32 __attribute__((vector_size(32)));
typedef uint8_t u8x16 __attribute__((vector_size(16)));
#define SEL(m, a, b) (((m) & (a)) | (~(m) & (b)))
#define BAND_KERNEL(NAME, T, VT, U8V, L, TARGET)                                                                  \
    TARGET static void NAME(const uint8_t *restrict q, int m, const uint8_t *restrict tt,                         \
                            const T *restrict offp, const T *restrict nnp, int ms_, int mm_, int g_, T neg_,       \
                            T *restrict rowm, T *restrict coln)                                                    \
    {                                                                                                              \
        VT off, nn, hp[PK + 1], hc[PK + 1];                                                                        \
        memcpy(&off, offp, sizeof off);                                                                            \
        memcpy(&nn, nnp, sizeof nn);                                                                               \
        const VT zero = {0}, neg = zero + neg_, g = zero + (T)g_, ms = zero + (T)ms_, four = zero + 4;             \
        const VT dn = nn - off; /* the row where column n is in slot 0 */                                          \
        for (int k = 0; k <= PK; k++) { /* row 0: -g c for 0 <= c <= n */                                         \
            VT c = off + (T)k;                                                                                     \
            hp[k] = SEL((c >= zero) & (c <= nn), zero - g * c, neg);                                               \
        }                                                                                                          \
        VT colv = SEL(dn == zero, hp[0], neg);                                                                     \
        for (int r = 1; r <= m; r++) {                                                                             \
            const uint8_t qa = q[r - 1];                                                                           \
            const VT qv = zero + (T)(qa < 4 ? qa : 16), mmv = zero + (T)(qa < 4 ? mm_ : 0);                        \
            const VT gr = zero + (T)(-g_ * r);                                                                     \
            VT left = SEL(off == (T)(1 - r), gr, neg); /* column 0 left of the band */                             \
            _Pragma("GCC unroll 16") for (int k = 0; k < PK; k++) {                                                \
                U8V raw;                                                                                           \
                memcpy(&raw, tt + (size_t)(r + k) * L, sizeof raw);                                                \
                const VT t = __builtin_convertvector(raw, VT);                                                     \
                const VT s = SEL(t == qv, ms, SEL(t < four, mmv, zero));                                           \
                const VT d = hp[k] + s, u = hp[k + 1] - g, f = left - g;                                           \
                VT h = SEL(d > u, d, u);                                                                           \
                h = SEL(h > f, h, f);                                                                              \
                hc[k] = h;                                                                                         \
                left = h;                                                                                          \
            }                                                                                                      \
            hc[PK] = SEL(off == (T)(-r - PK), gr, neg); /* column 0 right of the band */                          \
            colv = SEL(dn == (T)r, hc[0], colv);                                                                   \
            _Pragma("GCC unroll 16") for (int k = 0; k <= PK; k++) hp[k] = hc[k];                                  \
        }                                                                                                          \
        memcpy(rowm, hp, sizeof(T) * PK * L);                                                                      \
        memcpy(coln, &colv, sizeof colv);                                                                          \
    }

#define T_AVX512 __attribute__((target("avx512bw")))
#define T_AVX2 __attribute__((target("avx2")))
#define T_BASE
BAND_KERNEL(band16_avx512, int16_t, v16, u8x32, L16, T_AVX512)
BAND_KERNEL(band32_avx512, int32_t, v32, u8x16, L32, T_AVX512)
BAND_KERNEL(band16_avx2, int16_t, v16, u8x32, L16, T_AVX2)
BAND_KERNEL(band32_avx2, int32_t, v32, u8x16, L32, T_AVX2)
BAND_KERNEL(band16_base, int16_t, v16, u8x32, L16, T_BASE)
BAND_KERNEL(band32_base, int32_t, v32, u8x16, L32, T_BASE)

typedef void (*band16_fn)(const uint8_t *, int, const uint8_t *, const int16_t *, const int16_t *, int, int, int,
                          int16_t, int16_t *, int16_t *);
typedef void (*band32_fn)(const uint8_t *, int, const uint8_t *, const int32_t *, const int32_t *, int, int, int,
                          int32_t, int32_t *, int32_t *);
static const band16_fn k16[3] = {band16_avx512, band16_avx2, band16_base};
static const band32_fn k32[3] = {band32_avx512, band32_avx2, band32_base};
/* the kernel of the instruction set the aligner uses (nw_cpu.h: cpuid, or
 * MNW_SIMD), so that one setting picks both */
static int isa_index(void)
{
    const char *isa = mnw_cpu_isa();
    if (isa && !strcmp(isa, "avx512")) return 0;
    if (isa && !strcmp(isa, "avx2")) return 1;
    return 2;
}

struct mnw_prunec {
    mnw_prune_plan p;
    mnw_scoring sc;
    int flags;
    int isa; /* k16 / k32 index */
    mnw_prunec_stats st;
    /* the query and its q-grams */
    const uint8_t *qa;
    int qlen, qnw, qamb, qset;
    uint64_t a1[NW / 64]; /* words in a */
    uint64_t a2[NW / 64]; /* words twice or more in a */
    uint64_t seen[NW / 64];
    uint16_t *cnt;  /* [NW]: a's windows per word (0 outside a's words) */
    uint16_t *used; /* [NW]: the target's windows per word, a2 words only (0 between targets) */
    uint16_t *qw;   /* a's words, to clear the tables */
    uint16_t *mw;   /* the target's a2 words, to reset used */
    size_t qw_cap, mw_cap;
    /* the band */
    uint8_t *tt;
    size_t tt_cap;
    /* per call: the targets that take a band */
    uint32_t *cand, *cand2;
    int32_t *csh, *camb, *s0, *s1, *bout;
    const uint8_t **bt;
    int *bn, *bc;
    size_t ccap;
    /* stage 2 (the edit-distance bound): its workspace, per call the pairs
     * that take it, their amb, tau and ED */
    mnw_pedc *ped;
    int32_t *kamb, *eed, *sgn, *ked; /* ked[k]: pair k's ED when the first pass found it <= its tauN, else -1 */
    uint32_t *eidx3;
    int64_t *etau;
    uint32_t *eidx, *eidx2;
    const uint8_t **et;
    int *en;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

mnw_prunec *mnw_prunec_new(const mnw_prune_plan *p, const mnw_scoring *sc)
{
    mnw_prunec *f = mnw_xaligned(64, sizeof *f);
    memset(f, 0, sizeof *f);
    f->p = *p;
    f->sc = *sc;
    f->isa = isa_index();
    f->cnt = mnw_xcalloc(NW, sizeof *f->cnt);
    f->used = mnw_xcalloc(NW, sizeof *f->used);
    if (p->ed) f->ped = mnw_pedc_new();
    return f;
}

void mnw_prunec_free(mnw_prunec *f)
{
    if (!f) return;
    free(f->cnt);
    free(f->used);
    free(f->qw);
    free(f->mw);
    free(f->tt);
    free(f->cand);
    free(f->cand2);
    free(f->csh);
    free(f->camb);
    free(f->s0);
    free(f->s1);
    free(f->bout);
    free(f->bt);
    free(f->bn);
    free(f->bc);
    mnw_pedc_free(f->ped);
    free(f->kamb);
    free(f->eed);
    free(f->sgn);
    free(f->ked);
    free(f->eidx3);
    free(f->etau);
    free(f->eidx);
    free(f->eidx2);
    free(f->et);
    free(f->en);
    free(f);
}

void mnw_prunec_flags(mnw_prunec *f, int flags)
{
    f->flags = flags;
    f->isa = isa_index();
    if ((flags & MNW_PRUNEC_AVX2) && f->isa < 1) f->isa = 1;
    if (flags & MNW_PRUNEC_BASE) f->isa = 2;
}

const char *mnw_prunec_isa(const mnw_prunec *f)
{
    static const char *const names[3] = {"avx512bw", "avx2", "x86-64"};
    return names[f->isa];
}

void mnw_prunec_get_stats(const mnw_prunec *f, mnw_prunec_stats *st) { *st = f->st; }

static int64_t absl(int64_t x) { return x < 0 ? -x : x; }

int mnw_prunec_fits16(const mnw_scoring *sc, int band_gap, int na, int nb, int centre)
{
    const int64_t g = band_gap, ms = sc->match, mm = sc->mismatch < 0 ? sc->mismatch : 0;
    int64_t mx = ms > -mm ? ms : -mm;
    if (g > mx) mx = g;
    const int64_t lmin = na < nb ? na : nb, off = (int64_t)centre - MNW_PRUNE_W;
    const int64_t lo = -g * (absl(off) + PK) + mm * lmin, hi = ms * lmin;
    return mx <= 1000 && lo > NEG16 + mx && hi + mx <= 32767 && absl(off) + PK < 32767 && na < 32767 - PK &&
           nb < 32767 - PK;
}

/* ---- the q-gram count ---- */

void mnw_prunec_query(mnw_prunec *f, const uint8_t *a, int na)
{
    if (f->qset) /* clear the last query's words (whole bit-set words: only its bits are set in them) */
        for (int x = 0; x < f->qnw; x++) {
            uint16_t v = f->qw[x];
            f->cnt[v] = 0;
            f->a1[v >> 6] = 0;
            f->a2[v >> 6] = 0;
        }
    if ((size_t)na > f->qw_cap) {
        free(f->qw);
        f->qw_cap = (size_t)na + (size_t)na / 4 + 64;
        f->qw = mnw_xmalloc(f->qw_cap * sizeof *f->qw);
    }
    uint32_t v = 0;
    int run = 0, nw = 0, amb = 0;
    for (int p = 0; p < na; p++) {
        const uint8_t c = a[p];
        if (c < 4) {
            v = ((v << 2) | c) & QMASK;
            run++;
        } else {
            amb++;
            run = 0;
        }
        if (run >= MNW_PRUNE_Q) {
            const uint64_t bit = (uint64_t)1 << (v & 63);
            f->qw[nw++] = (uint16_t)v;
            if (f->a1[v >> 6] & bit) f->a2[v >> 6] |= bit;
            f->a1[v >> 6] |= bit;
            f->cnt[v]++;
        }
    }
    f->qa = a;
    f->qlen = na;
    f->qnw = nw;
    f->qamb = amb;
    f->qset = 1;
    if (f->ped) mnw_pedc_query(f->ped, a, na);
}

/* shared of (a, b): a word once in a counts once at its first window in b
 * (the seen bits); a word several times in a counts while b's windows of it
 * number at most a's (used against cnt). */
static int32_t count_target(mnw_prunec *f, const uint8_t *b, int nb, int32_t *amb_out)
{
    if ((size_t)nb > f->mw_cap) {
        free(f->mw);
        f->mw_cap = (size_t)nb + (size_t)nb / 4 + 64;
        f->mw = mnw_xmalloc(f->mw_cap * sizeof *f->mw);
    }
    memset(f->seen, 0, sizeof f->seen);
    const uint64_t *restrict a1 = f->a1, *restrict a2 = f->a2;
    uint64_t *restrict seen = f->seen;
    uint32_t v = 0;
    int run = 0;
    int32_t shared = 0, amb = 0;
    size_t nm = 0;
    for (int p = 0; p < nb; p++) {
        const uint8_t c = b[p];
        if (c >= 4) {
            amb++;
            run = 0;
            continue;
        }
        v = ((v << 2) | c) & QMASK;
        if (++run < MNW_PRUNE_Q) continue;
        const uint32_t w = v >> 6;
        const uint64_t bit = (uint64_t)1 << (v & 63);
        if (a2[w] & bit) {
            shared += f->used[v] < f->cnt[v];
            if (f->used[v]++ == 0) f->mw[nm++] = (uint16_t)v;
        } else {
            shared += (a1[w] & ~seen[w] & bit) != 0;
            seen[w] |= bit;
        }
    }
    for (size_t x = 0; x < nm; x++) f->used[f->mw[x]] = 0;
    *amb_out = amb;
    return shared;
}

/* ---- the band ---- */

static void tt_reserve(mnw_prunec *f, size_t bytes)
{
    if (bytes <= f->tt_cap) return;
    free(f->tt);
    f->tt_cap = bytes + bytes / 4 + 4096;
    f->tt = mnw_xaligned(64, f->tt_cap);
}

/* The score from the kernel's row m and column n values (int64: the exits'
 * gap runs may leave the lane type). */
static int32_t band_finish(int64_t m, int64_t n, int64_t off, int64_t g, int64_t rowm_at_cm, int64_t coln)
{
    int64_t best = -g * (m + n); /* the all-gap path */
    const int64_t rn = n - off;  /* column n's last row in the band */
    if (rn >= 0 && rn <= m && coln - g * (m - rn) > best) best = coln - g * (m - rn);
    int64_t cm = m + off + PK - 1; /* row m's last column in the band */
    if (cm > n) cm = n;
    if (cm >= 0 && cm >= m + off && rowm_at_cm - g * (n - cm) > best) best = rowm_at_cm - g * (n - cm);
    return (int32_t)best;
}

#define BAND_GROUP(NAME, KERN, T, L, NEGV)                                                                         \
    static void NAME(mnw_prunec *f, const uint8_t *a, int m, const uint8_t *const *t, const int *n,               \
                     const int *centre, int count, int32_t *out)                                                   \
    {                                                                                                              \
        const size_t rows = (size_t)m + PK;                                                                        \
        tt_reserve(f, rows * L);                                                                                   \
        memset(f->tt, PAD, rows * L);                                                                              \
        T offv[L], nnv[L], rowm[PK * L], coln[L];                                                                  \
        for (int l = 0; l < L; l++) {                                                                              \
            if (l >= count) {                                                                                      \
                offv[l] = 0;                                                                                       \
                nnv[l] = -1;                                                                                       \
                continue;                                                                                          \
            }                                                                                                      \
            const int off = centre[l] - MNW_PRUNE_W;                                                               \
            offv[l] = (T)off;                                                                                      \
            nnv[l] = (T)n[l];                                                                                      \
            int64_t lo = 1 - (int64_t)off, hi = (int64_t)n[l] - off;                                               \
            if (lo < 0) lo = 0;                                                                                    \
            if (hi > (int64_t)rows - 1) hi = (int64_t)rows - 1;                                                    \
            const uint8_t *b = t[l];                                                                               \
            uint8_t *dst = f->tt + l;                                                                              \
            for (int64_t idx = lo; idx <= hi; idx++) {                                                             \
                const uint8_t c = b[idx + off - 1];                                                                \
                dst[idx * L] = c < 4 ? c : PAD;                                                                    \
            }                                                                                                      \
        }                                                                                                          \
        const int g = f->p.band_gap;                                                                               \
        KERN(a, m, f->tt, offv, nnv, f->sc.match, f->sc.mismatch, g, (T)(NEGV), rowm, coln);                       \
        for (int l = 0; l < count; l++) {                                                                          \
            const int64_t off = (int64_t)centre[l] - MNW_PRUNE_W;                                                  \
            int64_t cm = (int64_t)m + off + PK - 1;                                                                \
            if (cm > n[l]) cm = n[l];                                                                              \
            const int64_t slot = cm - m - off;                                                                     \
            const int64_t rv = (slot >= 0 && slot < PK) ? rowm[slot * L + l] : (int64_t)(NEGV);                    \
            out[l] = band_finish(m, n[l], off, g, rv, coln[l]);                                                    \
        }                                                                                                          \
    }

BAND_GROUP(group16, k16[f->isa], int16_t, L16, NEG16)
BAND_GROUP(group32, k32[f->isa], int32_t, L32, NEG32)

static void band_scores(mnw_prunec *f, const uint8_t *a, int na, const uint8_t *const *t, const int *n,
                        const int *centre, size_t count, int32_t *out)
{
    size_t k = 0;
    while (k < count) {
        size_t g = count - k < L16 ? count - k : L16;
        int fit = !(f->flags & MNW_PRUNEC_WIDE);
        for (size_t l = 0; l < g && fit; l++) fit = mnw_prunec_fits16(&f->sc, f->p.band_gap, na, n[k + l], centre[k + l]);
        if (fit) {
            group16(f, a, na, t + k, n + k, centre + k, (int)g, out + k);
        } else {
            if (g > L32) g = L32;
            group32(f, a, na, t + k, n + k, centre + k, (int)g, out + k);
        }
        k += g;
    }
}

void mnw_prunec_band(mnw_prunec *f, const uint8_t *a, int na, const uint8_t *const *t, const int *n,
                     const int *centre, size_t count, int32_t *out)
{
    band_scores(f, a, na, t, n, centre, count, out);
}

/* ---- the decision ---- */

static void grow(mnw_prunec *f, size_t count)
{
    if (count <= f->ccap) return;
    size_t cap = f->ccap ? f->ccap : 256;
    while (cap < count) cap *= 2;
    f->cand = mnw_xrealloc(f->cand, cap * sizeof *f->cand);
    f->cand2 = mnw_xrealloc(f->cand2, cap * sizeof *f->cand2);
    f->csh = mnw_xrealloc(f->csh, cap * sizeof *f->csh);
    f->camb = mnw_xrealloc(f->camb, cap * sizeof *f->camb);
    f->s0 = mnw_xrealloc(f->s0, cap * sizeof *f->s0);
    f->s1 = mnw_xrealloc(f->s1, cap * sizeof *f->s1);
    f->bout = mnw_xrealloc(f->bout, cap * sizeof *f->bout);
    f->bt = mnw_xrealloc(f->bt, cap * sizeof *f->bt);
    f->bn = mnw_xrealloc(f->bn, cap * sizeof *f->bn);
    f->bc = mnw_xrealloc(f->bc, cap * sizeof *f->bc);
    f->kamb = mnw_xrealloc(f->kamb, cap * sizeof *f->kamb);
    f->eed = mnw_xrealloc(f->eed, cap * sizeof *f->eed);
    f->sgn = mnw_xrealloc(f->sgn, cap * sizeof *f->sgn);
    f->ked = mnw_xrealloc(f->ked, cap * sizeof *f->ked);
    f->eidx3 = mnw_xrealloc(f->eidx3, cap * sizeof *f->eidx3);
    f->etau = mnw_xrealloc(f->etau, cap * sizeof *f->etau);
    f->eidx = mnw_xrealloc(f->eidx, cap * sizeof *f->eidx);
    f->eidx2 = mnw_xrealloc(f->eidx2, cap * sizeof *f->eidx2);
    f->et = mnw_xrealloc(f->et, cap * sizeof *f->et);
    f->en = mnw_xrealloc(f->en, cap * sizeof *f->en);
    f->ccap = cap;
}

/* Stage 2 for the pairs k = idx[0 .. m) (f->kamb[k] their ambiguity
 * codes): the guided band (unless the lengths alone prove, ed_len), tau,
 * and ED where the lengths do not decide (|na - nb| <= ED <= max(na, nb):
 * a pair with |na - nb| > tau is pruned and one with tau >= max(na, nb)
 * kept without it, the decision ED > tau being the same). Sets pruned[k]
 * (only ever to 1) and the figures; returns the number it pruned. */
static size_t stage2(mnw_prunec *f, const uint8_t *const *t, const int *n, const uint32_t *idx, size_t m,
                     uint8_t *pruned, mnw_prunec_fig *figs, int full)
{
    const mnw_prune_plan *p = &f->p;
    const int na = f->qlen, timing = (f->flags & MNW_PRUNEC_TIME) != 0;
    double t0 = timing ? now() : 0.0, tp1 = 0.0;
    size_t ne = 0, npr = 0, runs = 0;
    const size_t m_all = m;
    if (!full && !p->ed_len) {
        /* the first pass: the narrow band (16 cells) gives tauN >= tau (a
         * narrower band on the same guide, lib/prune_ed.h), so ED > tauN
         * proves what ED > tau would, and the pairs it settles skip the
         * 32-cell band; the others go on as if it had not run */
        for (size_t x = 0; x < m; x++) {
            f->et[x] = t[idx[x]];
            f->en[x] = n[idx[x]];
        }
        if (mnw_pedc_narrow(f->ped, f->et, f->en, m, f->sc.match, f->sc.mismatch, p->band_gap, f->isa, f->sgn)) {
            size_t m2 = 0;
            for (size_t x = 0; x < m; x++) {
                const size_t k = idx[x];
                const int64_t tn = mnw_prune_ed_tau(p, f->sgn[x], f->kamb[k], na, n[k]);
                const int64_t lo = na > n[k] ? na - n[k] : n[k] - na, hi = na > n[k] ? na : n[k];
                if (lo > tn) {
                    pruned[k] = 1;
                    npr++;
                    if (figs) figs[k].pruned = 1;
                } else if (tn < hi) {
                    f->eidx2[ne] = (uint32_t)k;
                    f->etau[ne] = tn;
                    f->et[ne] = t[k];
                    f->en[ne] = n[k];
                    ne++;
                } else {
                    f->ked[k] = -1;
                    f->eidx3[m2++] = (uint32_t)k;
                }
            }
            double ta = timing ? now() : 0.0;
            if (ne) mnw_pedc_ed(f->ped, f->et, f->en, ne, f->etau, f->eed, f->isa);
            for (size_t y = 0; y < ne; y++) {
                const size_t k = f->eidx2[y];
                if (f->eed[y] > f->etau[y]) {
                    pruned[k] = 1;
                    npr++;
                    if (figs) figs[k].pruned = 1;
                } else { /* ED <= tauN: exact (Ukkonen's band), kept for the second pass */
                    f->ked[k] = f->eed[y];
                    f->eidx3[m2++] = (uint32_t)k;
                }
            }
            runs += ne;
            ne = 0;
            if (timing) tp1 = now() - ta; /* ED's share of the first pass */
            idx = f->eidx3;
            m = m2;
        }
    }
    if (!p->ed_len) { /* the guided bands, four at once where AVX-512 is */
        for (size_t x = 0; x < m; x++) {
            f->et[x] = t[idx[x]];
            f->en[x] = n[idx[x]];
        }
        mnw_pedc_bands(f->ped, f->et, f->en, m, f->sc.match, f->sc.mismatch, p->band_gap, f->isa, f->eed);
    }
    for (size_t x = 0; x < m; x++) {
        const size_t k = idx[x];
        const int32_t sg = p->ed_len ? MNW_PRUNEC_NONE : f->eed[x];
        const int64_t tau = mnw_prune_ed_tau(p, sg, f->kamb[k], na, n[k]);
        const int64_t lo = na > n[k] ? na - n[k] : n[k] - na, hi = na > n[k] ? na : n[k];
        if (figs) {
            figs[k].sg = sg;
            figs[k].tau = tau;
        }
        if (!full && idx == f->eidx3 && f->ked[k] >= 0) { /* ED known from the first pass */
            if (f->ked[k] > tau) {
                pruned[k] = 1;
                npr++;
                if (figs) figs[k].pruned = 1;
            }
        } else if (full || (lo <= tau && tau < hi)) {
            f->eidx2[ne] = (uint32_t)k;
            f->etau[ne] = tau;
            f->et[ne] = t[k];
            f->en[ne] = n[k];
            ne++;
        } else if (lo > tau) {
            if (!pruned[k]) npr++;
            pruned[k] = 1;
            if (figs) figs[k].pruned = 1;
        }
    }
    double t1 = timing ? now() : 0.0;
    if (ne) mnw_pedc_ed(f->ped, f->et, f->en, ne, full ? NULL : f->etau, f->eed, f->isa); /* FULL: the exact ED */
    for (size_t y = 0; y < ne; y++) {
        const size_t k = f->eidx2[y];
        if (figs) figs[k].ed = f->eed[y];
        if (f->eed[y] > f->etau[y] && !pruned[k]) {
            pruned[k] = 1;
            npr++;
        }
        if (figs) figs[k].pruned = pruned[k];
    }
    if (timing) {
        double t2 = now();
        f->st.t_guided += t1 - t0 - tp1;
        f->st.t_ed += t2 - t1 + tp1;
    }
    f->st.ed_pairs += m_all;
    f->st.ed_runs += runs + ne;
    f->st.ed_pruned += npr;
    return npr;
}

size_t mnw_prunec_run(mnw_prunec *f, const uint8_t *const *t, const int *n, size_t count, uint8_t *pruned,
                      mnw_prunec_fig *figs)
{
    const mnw_prune_plan *p = &f->p;
    const uint8_t *a = f->qa;
    const int na = f->qlen, full = (f->flags & MNW_PRUNEC_FULL) != 0, timing = (f->flags & MNW_PRUNEC_TIME) != 0;
    grow(f, count);
    double t0 = timing ? now() : 0.0;
    size_t nc = 0, npr = 0;
    for (size_t k = 0; k < count; k++) {
        int32_t ambb = 0, sh = MNW_PRUNEC_NONE;
        if (p->qgram)
            sh = count_target(f, t[k], n[k], &ambb);
        else
            for (int x = 0; x < n[k]; x++) ambb += t[k][x] >= 4;
        const int32_t amb = f->qamb + ambb;
        f->kamb[k] = amb;
        if (!p->qgram) { /* stage 1 is off: every pair goes to stage 2 */
            pruned[k] = 0;
            if (figs)
                figs[k] = (mnw_prunec_fig){sh, amb, MNW_PRUNEC_NONE, MNW_PRUNEC_NONE, 0, MNW_PRUNEC_NONE, MNW_PRUNEC_NONE,
                                           INT64_MIN, 0};
            continue;
        }
        const int lmin = na < n[k] ? na : n[k];
        int pr = 0;
        int64_t p0;
        if (!p->use_score) {
            p0 = mnw_prune_p0_len(p, na, n[k]);
            pr = mnw_prune_test(p, sh, amb, na, n[k], p0);
        } else {
            p0 = lmin; /* the pre-test; for the band's candidates, replaced below */
            if (full || mnw_prune_test(p, sh, amb, na, n[k], p0)) {
                f->cand[nc] = (uint32_t)k;
                f->csh[nc] = sh;
                f->camb[nc] = amb;
                nc++;
            }
        }
        pruned[k] = (uint8_t)pr;
        npr += (size_t)pr;
        if (figs)
            figs[k] = (mnw_prunec_fig){sh, amb, MNW_PRUNEC_NONE, MNW_PRUNEC_NONE, p0, MNW_PRUNEC_NONE, MNW_PRUNEC_NONE,
                                       INT64_MIN, pr};
    }
    double t1 = timing ? now() : 0.0;
    size_t n2 = 0;
    if (nc) {
        for (size_t x = 0; x < nc; x++) {
            f->bt[x] = t[f->cand[x]];
            f->bn[x] = n[f->cand[x]];
            f->bc[x] = 0;
        }
        band_scores(f, a, na, f->bt, f->bn, f->bc, nc, f->s0);
        for (size_t x = 0; x < nc; x++) {
            const size_t k = f->cand[x];
            const int64_t p0 = mnw_prune_p0(p, f->s0[x], na, n[k]);
            const int pr = mnw_prune_test(p, f->csh[x], f->camb[x], na, n[k], p0);
            if (figs) {
                figs[k].s0 = f->s0[x];
                figs[k].p0 = p0;
            }
            if (full || (!pr && n[k] != na)) { /* the band around nb - na */
                f->cand2[n2] = (uint32_t)x;
                f->bt[n2] = t[k];
                f->bn[n2] = n[k];
                f->bc[n2] = n[k] - na;
                n2++;
            } else {
                pruned[k] = (uint8_t)pr;
                npr += (size_t)pr;
                if (figs) figs[k].pruned = pr;
            }
        }
        if (n2) band_scores(f, a, na, f->bt, f->bn, f->bc, n2, f->s1);
        for (size_t y = 0; y < n2; y++) {
            const size_t x = f->cand2[y], k = f->cand[x];
            const int32_t s = f->s1[y] > f->s0[x] ? f->s1[y] : f->s0[x];
            const int64_t p0 = mnw_prune_p0(p, s, na, n[k]);
            const int pr = mnw_prune_test(p, f->csh[x], f->camb[x], na, n[k], p0);
            pruned[k] = (uint8_t)pr;
            npr += (size_t)pr;
            if (figs) {
                figs[k].s1 = f->s1[y];
                figs[k].p0 = p0;
                figs[k].pruned = pr;
            }
        }
    }
    if (timing) {
        double t2 = now();
        f->st.t_count += t1 - t0;
        f->st.t_band += t2 - t1;
    }
    if (p->ed) { /* stage 2 for the pairs stage 1 kept (every pair with FULL) */
        size_t m = 0;
        for (size_t k = 0; k < count; k++)
            if (full || !pruned[k]) f->eidx[m++] = (uint32_t)k;
        npr += stage2(f, t, n, f->eidx, m, pruned, figs, full);
    }
    f->st.pairs += count;
    f->st.pruned += npr;
    f->st.band0 += nc;
    f->st.band1 += n2;
    return npr;
}
