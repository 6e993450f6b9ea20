/* prune_ed_cpu.c - see prune_ed_cpu.h; the figures are lib/prune_ed.h's.
 *
 * ED: lane l of a vector of MNW_PEDC_LANES uint64 runs Myers' algorithm for
 * the pattern t[l] (rows) against the text a (columns), all lanes over the
 * same text, so the pattern bits of a column are one vector load
 * (peq[code][word], the lanes side by side). Lanes of different lengths
 * share the number of words of the longest: the rows past a lane's end are
 * computed and never read (Myers' values flow from low rows to high ones
 * only), and the lane's score takes the horizontal delta at its own last
 * row (lastm[word] holds that row's bit in the lane's last word, 0
 * elsewhere). ED(a, empty) = na is set without lanes.
 *
 * The guided band: row r's cells are columns c0 + k, c0 = cen[r] - 16, k =
 * 0..31, in two vectors of 16 int32 (lo, hi). A row buffer holds the 32
 * slots between BPAD slots of NEG on each side, so that the previous row
 * read at the shift s = cen[r] - cen[r-1] (clamped: farther shifts read
 * padding either way) gives, for the diagonal and up predecessors, the
 * previous row's value where that column was in its band and NEG where not,
 * as lib/prune_ed.c's range tests do. Row 0 has a buffer of its own whose
 * every slot holds row 0's exact value (-g c for 0 <= c <= nb). Column 0 is
 * never a cell: the diagonal predecessor of column 1 is set to -g (r - 1),
 * and column 0's slot (when c0 <= 0) holds -g r before the scan, where it
 * is column 1's left predecessor (when c0 = 1 that is added to slot 0).
 * The horizontal moves are H[k] = max over j <= k of H'[j] - g (k - j), a
 * prefix-max scan with linear decay (4 shift-and-max steps per 16 lanes,
 * then the low half's last cell into the high half); every value is
 * clamped at NEG, and the slots outside 1..nb set to NEG, as the reference
 * clamps every cell. Values of real paths stay above -1000 x 20,000, far
 * above NEG = -2^29, and every sum stays inside int32.
 */
#include "workers/cpu/prune_ed_cpu.h"

#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

#include "lib/prune_ed.h"
#include "lib/util.h"

#define L MNW_PEDC_LANES
#define NEGB (-(1 << 29))
#define BPAD 64
#define BROW (BPAD + MNW_PED_BAND + BPAD)
#define SMAX 60 /* |shift| read at most: farther rows do not overlap the band (32) */
/* the guide's table: the next power of 2 >= 4 na slots, at least HMIN (at
 * most a quarter full, so a miss, most of b's windows, ends at the first or
 * second slot; at 2 na the guides and bands took 1.5 us more a pair) */
#define HMIN 4096
#define TPAD 48 /* padding codes around a target in the band's copy */
#define PB 4     /* the guided band's pairs at once (AVX-512) */

typedef uint64_t vu __attribute__((vector_size(8 * L)));
typedef struct {
    uint32_t key;
    int32_t pos;
} hslot;
typedef int32_t vi __attribute__((vector_size(64)));
typedef uint8_t vb __attribute__((vector_size(16)));
#define SEL(m, a, b) (((m) & (a)) | (~(m) & (b)))

struct mnw_pedc {
    /* ED */
    vu *peq, *lastm, *pv, *mv;
    int wcap;
    /* the query and its guide table */
    const uint8_t *a;
    int na;
    hslot *hash;  /* a's words: key, and pos -1 empty, -2 twice or more in a, else the position */
    uint32_t hmask, hshift;
    size_t hcap_slots;
    uint16_t amask; /* the codes a holds: the pattern rows ED reads */
    /* per pair */
    int32_t *hpa, *hpb, *prev, *tail, *cen[PB]; /* cen: one guide a pair of a band group */
    int hcap, ccap;
    /* ED's targets in the order of their lengths (mnw_pedc_ed) */
    uint32_t *ord;
    const uint8_t **ot;
    int *on;
    int64_t *otau;
    int32_t *oed;
    size_t ocap;
    size_t *cnt, ccnt;
    uint8_t *bp[PB];
    size_t bcap;
    int32_t r0[PB * BROW], ra[BROW], rb[BROW];
    uint16_t rows[15]; /* the codes whose base sets overlap code x's: the pattern rows a code of b sets */
};

mnw_pedc *mnw_pedc_new(void)
{
    mnw_pedc *w = mnw_xmalloc(sizeof *w);
    memset(w, 0, sizeof *w);
    for (int x = 0; x < 15; x++)
        for (int c = 0; c < 15; c++)
            if (mnw_ped_bases[x] & mnw_ped_bases[c]) w->rows[x] |= (uint16_t)(1u << c);
    return w;
}

void mnw_pedc_free(mnw_pedc *w)
{
    if (!w) return;
    free(w->peq);
    free(w->lastm);
    free(w->pv);
    free(w->mv);
    free(w->hash);
    free(w->hpa);
    free(w->hpb);
    free(w->prev);
    free(w->tail);
    free(w->ord);
    free(w->ot);
    free(w->on);
    free(w->otau);
    free(w->oed);
    free(w->cnt);
    for (int x = 0; x < PB; x++) {
        free(w->cen[x]);
        free(w->bp[x]);
    }
    free(w);
}

static inline uint32_t slot_of(const mnw_pedc *w, uint32_t v) { return (v * 2654435761u) >> w->hshift; }

void mnw_pedc_query(mnw_pedc *w, const uint8_t *a, int na)
{
    size_t slots = HMIN;
    while (slots < 4 * (size_t)na) slots *= 2;
    if (slots > w->hcap_slots) {
        free(w->hash);
        w->hash = mnw_xmalloc(slots * sizeof *w->hash);
        w->hcap_slots = slots;
    }
    unsigned bits = 0;
    while (((size_t)1 << bits) < slots) bits++;
    w->hmask = (uint32_t)(slots - 1);
    w->hshift = 32 - bits;
    for (size_t x = 0; x < slots; x++) w->hash[x].pos = -1;
    w->a = a;
    w->na = na;
    if (na + 1 > w->ccap) { /* the guides' centres, one a row */
        for (int x = 0; x < PB; x++) w->cen[x] = mnw_xrealloc(w->cen[x], (size_t)(na + 1) * sizeof *w->cen[x]);
        w->ccap = na + 1;
    }
    uint16_t am = 0;
    uint32_t v = 0;
    int run = 0;
    for (int p = 0; p < na; p++) {
        am |= (uint16_t)(1u << a[p]);
        if (a[p] < 4) {
            v = (v >> 2) | ((uint32_t)a[p] << (2 * MNW_PED_K - 2)); /* base t of the word at bits 2t (pack12) */
            run++;
        } else
            run = 0;
        if (run < MNW_PED_K) continue;
        uint32_t s = slot_of(w, v);
        while (w->hash[s].pos != -1 && w->hash[s].key != v) s = (s + 1) & w->hmask;
        if (w->hash[s].pos == -1) {
            w->hash[s].key = v;
            w->hash[s].pos = p - MNW_PED_K + 1;
        } else
            w->hash[s].pos = -2;
    }
    w->amask = am;
}

/* ---- ED ---- */

/* Columns j = 1..na; at column j only the words holding rows j + off_lo ..
 * j + off_hi are computed (Ukkonen's band, below); lw[l] is lane l's last
 * word. The first computed word takes +1 from above (the top row's delta
 * when it is word 0); the score of a lane whose last word lies below the
 * computed ones follows the last computed row (bit 63 of word whi). */
#define ED_KERNEL(NAME, TARGET)                                                                                    \
    TARGET static void NAME(const uint8_t *restrict a, int na, const vu *restrict peq, int W,                       \
                            const vu *restrict lastm, vu *restrict pv, vu *restrict mv, uint64_t *restrict out,     \
                            int off_lo, int off_hi, const int *restrict lw)                                        \
    {                                                                                                              \
        const vu zero = {0}, one = zero + 1;                                                                       \
        vu score, deep = zero;                                                                                     \
        memcpy(&score, out, sizeof score);                                                                         \
        for (int x = 0; x < W; x++) {                                                                              \
            pv[x] = ~zero;                                                                                         \
            mv[x] = zero;                                                                                          \
        }                                                                                                          \
        int whi_was = -1;                                                                                          \
        for (int j = 0; j < na; j++) {                                                                             \
            const int lo = j + 1 + off_lo, hi = j + 1 + off_hi;                                                    \
            int wlo = lo <= 1 ? 0 : (lo - 1) / 64, whi = hi <= 1 ? 0 : (hi - 1) / 64;                              \
            if (whi > W - 1) whi = W - 1;                                                                          \
            if (wlo > whi) wlo = whi;                                                                              \
            if (whi != whi_was) { /* the lanes whose last row lies below word whi */                              \
                uint64_t d[L];                                                                                     \
                for (int l = 0; l < L; l++) d[l] = lw[l] > whi ? (uint64_t)1 << 63 : 0;                            \
                memcpy(&deep, d, sizeof deep);                                                                     \
                whi_was = whi;                                                                                     \
            }                                                                                                      \
            const vu *restrict eqr = peq + (size_t)a[j] * (size_t)W;                                               \
            vu hp = one, hm = zero;                                                                                \
            for (int x = wlo; x <= whi; x++) {                                                                     \
                const vu Pv = pv[x], Mv = mv[x], E = eqr[x];                                                       \
                const vu Xv = E | Mv, Eq = E | hm;                                                                 \
                const vu Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;                                                        \
                vu Ph = Mv | ~(Xh | Pv), Mh = Pv & Xh;                                                             \
                const vu lm = x == whi ? lastm[x] | deep : lastm[x];                                               \
                score -= (vu)((Ph & lm) != 0); /* a comparison is -1 where true: +1 for Ph */                  \
                score += (vu)((Mh & lm) != 0); /* -1 for Mh */                                                  \
                const vu op = Ph >> 63, om = Mh >> 63;                                                             \
                Ph = (Ph << 1) | hp;                                                                               \
                Mh = (Mh << 1) | hm;                                                                               \
                pv[x] = Mh | ~(Xv | Ph);                                                                           \
                mv[x] = Ph & Xv;                                                                                   \
                hp = op;                                                                                           \
                hm = om;                                                                                           \
            }                                                                                                      \
        }                                                                                                          \
        memcpy(out, &score, sizeof score);                                                                         \
    }

#define T_AVX512 __attribute__((target("avx512f")))
#define T_AVX2 __attribute__((target("avx2")))
#define T_BASE
ED_KERNEL(ed_avx512, T_AVX512)
ED_KERNEL(ed_avx2, T_AVX2)
ED_KERNEL(ed_base, T_BASE)
typedef void (*ed_fn)(const uint8_t *, int, const vu *, int, const vu *, vu *, vu *, uint64_t *, int, int, const int *);
static const ed_fn kern_ed[3] = {ed_avx512, ed_avx2, ed_base};

static void ed_reserve(mnw_pedc *w, int W)
{
    if (W <= w->wcap) return;
    free(w->peq);
    free(w->lastm);
    free(w->pv);
    free(w->mv);
    w->peq = mnw_xaligned(64, (size_t)15 * (size_t)W * sizeof(vu));
    w->lastm = mnw_xaligned(64, (size_t)W * sizeof(vu));
    w->pv = mnw_xaligned(64, (size_t)W * sizeof(vu));
    w->mv = mnw_xaligned(64, (size_t)W * sizeof(vu));
    w->wcap = W;
}


/* Ukkonen's band: a path through cell (i, j) (row i of the pattern, m
 * rows; column j of the text, n columns) costs at least |i - j| + |(m - i)
 * - (n - j)|, so every path of cost <= tau keeps i - j within [min(0, d) -
 * e, max(0, d) + e], d = m - n, e = floor((tau - |d|) / 2). Outside it the
 * DP is given values no lower than the true ones (+1 deltas: the words
 * above the band feed +1 into the first computed one; the words below
 * keep their column-0 state, +1 a row, until the band reaches them), so
 * every computed value is >= the true one and equal along every path of
 * cost <= tau: the result is ED where ED <= tau, and > tau where ED > tau.
 * The lanes of a group share the union of their bands. */
/* Lane l's pattern rows from target b (the loop in ed_group) with AVX-512
 * (isa 0, which needs avx512bw): 64 codes at a time mapped to their base
 * sets by one byte shuffle, each row of a's codes (amask) one test. */
__attribute__((target("avx512f,avx512bw"))) static void peq_avx512(uint64_t *pq, int W, int l, const uint8_t *b,
                                                                   int nb, uint16_t amask)
{
    uint8_t tab[16] = {0};
    memcpy(tab, mnw_ped_bases, sizeof mnw_ped_bases);
    const __m512i sets_of = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)tab));
    for (int wd = 0; wd * 64 < nb; wd++) {
        const int left = nb - wd * 64;
        const __mmask64 in = left >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << left) - 1);
        const __m512i sets = _mm512_shuffle_epi8(sets_of, _mm512_maskz_loadu_epi8(in, b + (size_t)wd * 64));
        for (uint16_t cs = amask; cs; cs &= (uint16_t)(cs - 1)) {
            const int c = __builtin_ctz(cs);
            pq[((size_t)c * W + wd) * L + l] = _mm512_test_epi8_mask(sets, _mm512_set1_epi8((char)mnw_ped_bases[c])) & in;
        }
    }
}

static void ed_group(mnw_pedc *w, const uint8_t *const *t, const int *n, int count, const int64_t *tau, int32_t *ed,
                     int isa)
{
    const int na = w->na;
    int W = 1, lw[L];
    int64_t off_lo = INT64_MAX, off_hi = INT64_MIN;
    for (int l = 0; l < L; l++) lw[l] = 0;
    for (int l = 0; l < count; l++) {
        if ((n[l] + 63) / 64 > W) W = (n[l] + 63) / 64;
        lw[l] = n[l] > 0 ? (n[l] - 1) / 64 : 0;
        if (n[l] == 0) continue;
        const int64_t d = (int64_t)n[l] - na, ad = d < 0 ? -d : d;
        int64_t e = tau ? tau[l] - ad : INT64_MAX / 4;
        if (e < 0) e = 0; /* ED > tau certainly (ED >= |d|): any band gives a value > tau */
        e /= 2;
        if (e > (int64_t)n[l] + na) e = (int64_t)n[l] + na;
        const int64_t lo = (d < 0 ? d : 0) - e, hi = (d > 0 ? d : 0) + e;
        if (lo < off_lo) off_lo = lo;
        if (hi > off_hi) off_hi = hi;
    }
    if (off_lo == INT64_MAX) off_lo = off_hi = 0; /* only empty lanes */
    ed_reserve(w, W);
    /* only the rows of the codes a holds are read: only those are built */
    for (int c = 0; c < 15; c++)
        if (w->amask >> c & 1) memset(w->peq + (size_t)c * W, 0, (size_t)W * sizeof(vu));
    memset(w->lastm, 0, (size_t)W * sizeof(vu));
    uint64_t *pq = (uint64_t *)w->peq, *lm = (uint64_t *)w->lastm;
    uint64_t sc[L] = {0};
    uint16_t rows_of[15];
    for (int c = 0; c < 15; c++) rows_of[c] = w->rows[c] & w->amask;
    for (int l = 0; l < count; l++) {
        const uint8_t *b = t[l];
        const int nb = n[l];
        if (isa == 0) { /* ED 7.6 -> 5.65 us a pair against the loop below (bench_prune, 0.10) */
            peq_avx512(pq, W, l, b, nb, w->amask);
            sc[l] = (uint64_t)nb;
            if (nb > 0) lm[(size_t)((nb - 1) / 64) * L + l] = (uint64_t)1 << ((nb - 1) % 64);
            continue;
        }
        for (int i = 0; i < nb; i++) {
            const uint64_t bit = (uint64_t)1 << (i % 64);
            const int wd = i / 64;
            uint16_t rows = rows_of[b[i]];
            while (rows) {
                const int c = __builtin_ctz(rows);
                rows &= (uint16_t)(rows - 1);
                pq[((size_t)c * W + wd) * L + l] |= bit;
            }
        }
        sc[l] = (uint64_t)nb;
        if (nb > 0) lm[(size_t)((nb - 1) / 64) * L + l] = (uint64_t)1 << ((nb - 1) % 64);
    }
    kern_ed[isa](w->a, na, w->peq, W, w->lastm, w->pv, w->mv, sc, (int)off_lo, (int)off_hi, lw);
    for (int l = 0; l < count; l++) ed[l] = n[l] == 0 ? na : (int32_t)(int64_t)sc[l];
}

/* With tau, the targets are taken in the order of their lengths: a lane
 * group shares the union of its lanes' bands, whose centres lie at d / 2 (d
 * = n - na), so lanes of near lengths compute fewer words (each lane's
 * result is its own either way). A counting sort on the length. */
void mnw_pedc_ed(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, const int64_t *tau, int32_t *ed,
                 int isa)
{
    if (!tau || count <= L) {
        for (size_t k = 0; k < count; k += L) {
            const int c = count - k < L ? (int)(count - k) : L;
            ed_group(w, t + k, n + k, c, tau ? tau + k : NULL, ed + k, isa);
        }
        return;
    }
    if (count > w->ocap) {
        w->ocap = count;
        w->ord = mnw_xrealloc(w->ord, count * sizeof *w->ord);
        w->ot = mnw_xrealloc(w->ot, count * sizeof *w->ot);
        w->on = mnw_xrealloc(w->on, count * sizeof *w->on);
        w->otau = mnw_xrealloc(w->otau, count * sizeof *w->otau);
        w->oed = mnw_xrealloc(w->oed, count * sizeof *w->oed);
    }
    int lo = n[0], hi = n[0];
    for (size_t k = 1; k < count; k++) {
        if (n[k] < lo) lo = n[k];
        if (n[k] > hi) hi = n[k];
    }
    const size_t span = (size_t)(hi - lo) + 1;
    if (span > w->ccnt) {
        w->ccnt = span;
        w->cnt = mnw_xrealloc(w->cnt, (span + 1) * sizeof *w->cnt);
    }
    memset(w->cnt, 0, (span + 1) * sizeof *w->cnt);
    for (size_t k = 0; k < count; k++) w->cnt[n[k] - lo + 1]++;
    for (size_t v = 0; v < span; v++) w->cnt[v + 1] += w->cnt[v];
    for (size_t k = 0; k < count; k++) w->ord[w->cnt[n[k] - lo]++] = (uint32_t)k;
    for (size_t x = 0; x < count; x++) {
        const uint32_t k = w->ord[x];
        w->ot[x] = t[k];
        w->on[x] = n[k];
        w->otau[x] = tau[k];
    }
    for (size_t x = 0; x < count; x += L) {
        const int c = count - x < L ? (int)(count - x) : L;
        ed_group(w, w->ot + x, w->on + x, c, w->otau + x, w->oed + x, isa);
    }
    for (size_t x = 0; x < count; x++) ed[w->ord[x]] = w->oed[x];
}

/* ---- the guide ---- */

/* The word of the MNW_PED_K (12) codes at c: base t at bits 2t, as
 * mnw_pedc_query's rolling word; 0 when one of them is not a base (>= 4).
 * Twelve codes from an 8-byte and a 4-byte load, two bits of each byte
 * gathered by shifts (portable; the windows at multiples of MNW_PED_STRIDE
 * cost a few operations each instead of a rolling step for every base). */
static inline int pack12(const uint8_t *c, uint32_t *v)
{
    uint64_t u;
    uint32_t t;
    memcpy(&u, c, 8);
    memcpy(&t, c + 8, 4);
    if ((u & 0xFCFCFCFCFCFCFCFCull) | (t & 0xFCFCFCFCu)) return 0;
    u |= u >> 6;                 /* byte pairs: codes 2k, 2k + 1 in bits 16k .. 16k + 3 */
    u &= 0x000F000F000F000Full;
    u |= u >> 12;                /* quads: bits 32q .. 32q + 7 */
    const uint32_t lo = (uint32_t)(u & 0xFFu) | (uint32_t)((u >> 24) & 0xFF00u);
    t |= t >> 6;
    t &= 0x000F000Fu;
    t |= t >> 12;
    *v = lo | (t & 0xFFu) << 16;
    return 1;
}

static void guide(mnw_pedc *w, const uint8_t *b, int nb, int32_t *cen_out)
{
    const int na = w->na;
    if (nb > w->hcap) {
        w->hpa = mnw_xrealloc(w->hpa, (size_t)nb * sizeof *w->hpa);
        w->hpb = mnw_xrealloc(w->hpb, (size_t)nb * sizeof *w->hpb);
        w->prev = mnw_xrealloc(w->prev, (size_t)nb * sizeof *w->prev);
        w->tail = mnw_xrealloc(w->tail, (size_t)nb * sizeof *w->tail);
        w->hcap = nb;
    }
    int32_t *hpa = w->hpa, *hpb = w->hpb, *prev = w->prev, *tail = w->tail, *cen = cen_out;
    const hslot *restrict hash = w->hash; /* locals: the stores below cannot change them */
    const uint32_t hmask = w->hmask, hshift = w->hshift;
    int h = 0, len = 0;
    for (int pb = 0; pb + MNW_PED_K <= nb; pb += MNW_PED_STRIDE) {
        uint32_t v;
        if (!pack12(b + pb, &v)) continue; /* an ambiguity code in the window */
        uint32_t s = (v * 2654435761u) >> hshift;
        while (hash[s].pos != -1 && hash[s].key != v) s = (s + 1) & hmask;
        const int32_t pa = hash[s].pos;
        if (pa < 0) continue;
        hpa[h] = pa;
        hpb[h] = pb;
        int lo;
        if (len == 0 || hpa[tail[len - 1]] < pa) { /* the usual case: the chain grows at its end */
            lo = len;
        } else { /* the first tail whose pa is >= pa: a branch-free binary search */
            lo = 0;
            for (int step = len; step > 0;) {
                const int half = step / 2;
                const int go = hpa[tail[lo + half]] < pa;
                lo = go ? lo + half + 1 : lo;
                step = go ? step - half - 1 : half;
            }
        }
        prev[h] = lo ? tail[lo - 1] : -1;
        tail[lo] = h;
        if (lo == len) len++;
        h++;
    }
    int r1 = na, c1 = nb;
    int x = len ? tail[len - 1] : -1;
    for (;;) {
        const int r0 = x >= 0 ? hpa[x] : 0, c0 = x >= 0 ? hpb[x] : 0;
        if (r1 > r0) { /* cen[r] = c0 + floor((r - r0) dc / dr), stepped without a division a row */
            const int dr = r1 - r0, dc = c1 - c0, q = dc / dr, rem = dc % dr;
            int v = c0, frac = 0;
            for (int r = r0 + 1; r <= r1; r++) {
                v += q;
                frac += rem;
                if (frac >= dr) {
                    frac -= dr;
                    v++;
                }
                cen[r] = v;
            }
        }
        if (x < 0) break;
        r1 = r0;
        c1 = c0;
        x = prev[x];
    }
    cen[0] = na > 0 ? cen[1] : 0;
}

/* ---- the guided band ---- */

/* an unaligned load of 16 int32 (a macro: a function returning a 64-byte
 * vector would change the ABI outside AVX-512) */
#define LDV(dst, p) memcpy(&(dst), (p), sizeof(vi))

#define VMAX(x, y) SEL((x) > (y), (x), (y))

#define BAND_KERNEL(NAME, TARGET)                                                                                  \
    TARGET static int32_t NAME(const uint8_t *restrict a, int na, const uint8_t *restrict bp, int nb,             \
                               const int32_t *restrict cen, int ms, int mm, int g, int32_t *r0, int32_t *ra,       \
                               int32_t *rb)                                                                        \
    {                                                                                                              \
        const vi iota = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};                                    \
        const vi zero = {0}, neg = zero + NEGB, gv = zero + g;                                                     \
        const vi sh1 = {16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};                                     \
        const vi sh2 = {16, 17, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};                                     \
        const vi sh4 = {16, 17, 18, 19, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};                                     \
        const vi sh8 = {16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7};                                   \
        const vi dec = (iota + 1) * g; /* the high half's distance to the low half's last cell */                  \
        const int32_t allgap = -g * (na + nb);                                                                     \
        for (int x = 0; x < BROW; x++) {                                                                           \
            const int c = cen[0] - MNW_PED_WL + x - BPAD;                                                          \
            r0[x] = (c >= 0 && c <= nb) ? -g * c : NEGB;                                                           \
            ra[x] = rb[x] = NEGB;                                                                                  \
        }                                                                                                          \
        const int32_t *prev = r0;                                                                                  \
        int32_t *cur = ra, *spare = rb;                                                                            \
        int32_t coln = -g * nb, best = allgap;                                                                     \
        for (int r = 1; r <= na; r++) {                                                                            \
            int s = cen[r] - cen[r - 1];                                                                           \
            if (s > SMAX) s = SMAX;                                                                                \
            if (s < -SMAX) s = -SMAX;                                                                              \
            const int c0 = cen[r] - MNW_PED_WL;                                                                    \
            const vi clo = zero + c0 + iota, chi = clo + 16;                                                       \
            vi dlo, dhi, ulo, uhi;                                                                                 \
            LDV(dlo, prev + BPAD + s - 1);                                                                         \
            LDV(dhi, prev + BPAD + s + 15);                                                                        \
            LDV(ulo, prev + BPAD + s);                                                                             \
            LDV(uhi, prev + BPAD + s + 16);                                                                        \
            vb blo, bhi;                                                                                           \
            memcpy(&blo, bp + c0 - 1, sizeof blo);                                                                 \
            memcpy(&bhi, bp + c0 + 15, sizeof bhi);                                                                \
            const vi tlo = __builtin_convertvector(blo, vi), thi = __builtin_convertvector(bhi, vi);              \
            const int x = a[r - 1];                                                                                \
            vi slo = zero, shi = zero;                                                                             \
            if (x < 4) {                                                                                           \
                const vi xv = zero + x, msv = zero + ms, mmv = zero + mm, four = zero + 4;                         \
                slo = SEL(tlo == xv, msv, SEL(tlo < four, mmv, zero));                                             \
                shi = SEL(thi == xv, msv, SEL(thi < four, mmv, zero));                                             \
            }                                                                                                      \
            const vi gr1 = zero - g * (r - 1), gr = zero - g * r;                                                  \
            dlo = SEL(clo == 1, gr1, dlo);                                                                         \
            dhi = SEL(chi == 1, gr1, dhi);                                                                         \
            const vi cn = zero + coln, nbv = zero + nb, onev = zero + 1;                                           \
            ulo = SEL(clo == nbv, VMAX(ulo, cn), ulo);                                                             \
            uhi = SEL(chi == nbv, VMAX(uhi, cn), uhi);                                                             \
            dlo += slo;                                                                                            \
            dhi += shi;                                                                                            \
            ulo -= gv;                                                                                             \
            uhi -= gv;                                                                                             \
            vi hlo = VMAX(dlo, ulo), hhi = VMAX(dhi, uhi);                                                         \
            const vi outlo = (clo < onev) | (clo > nbv), outhi = (chi < onev) | (chi > nbv);                       \
            hlo = SEL(outlo, neg, hlo);                                                                            \
            hhi = SEL(outhi, neg, hhi);                                                                            \
            hlo = SEL(clo == zero, gr, hlo); /* column 0: column 1's left predecessor */                           \
            if (c0 == 1 && hlo[0] < -g * r - g) hlo[0] = -g * r - g;                                               \
            hlo = VMAX(hlo, __builtin_shuffle(hlo, neg, sh1) - gv);                                                \
            hlo = VMAX(hlo, __builtin_shuffle(hlo, neg, sh2) - 2 * gv);                                            \
            hlo = VMAX(hlo, __builtin_shuffle(hlo, neg, sh4) - 4 * gv);                                            \
            hlo = VMAX(hlo, __builtin_shuffle(hlo, neg, sh8) - 8 * gv);                                            \
            hhi = VMAX(hhi, __builtin_shuffle(hhi, neg, sh1) - gv);                                                \
            hhi = VMAX(hhi, __builtin_shuffle(hhi, neg, sh2) - 2 * gv);                                            \
            hhi = VMAX(hhi, __builtin_shuffle(hhi, neg, sh4) - 4 * gv);                                            \
            hhi = VMAX(hhi, __builtin_shuffle(hhi, neg, sh8) - 8 * gv);                                            \
            hhi = VMAX(hhi, (zero + hlo[15]) - dec);                                                               \
            hlo = VMAX(hlo, neg);                                                                                  \
            hhi = VMAX(hhi, neg);                                                                                  \
            hlo = SEL(outlo, neg, hlo);                                                                            \
            hhi = SEL(outhi, neg, hhi);                                                                            \
            memcpy(cur + BPAD, &hlo, sizeof hlo);                                                                  \
            memcpy(cur + BPAD + 16, &hhi, sizeof hhi);                                                             \
            coln -= g;                                                                                             \
            const int kn = nb - c0;                                                                                \
            if (nb >= 1 && kn >= 0 && kn < MNW_PED_BAND && cur[BPAD + kn] > coln) coln = cur[BPAD + kn];           \
            if (coln < NEGB) coln = NEGB;                                                                          \
            if (r == na) {                                                                                         \
                best = coln;                                                                                       \
                for (int k = 0; k < MNW_PED_BAND; k++) {                                                           \
                    const int c = c0 + k;                                                                          \
                    if (c >= 1 && c <= nb && cur[BPAD + k] - g * (nb - c) > best) best = cur[BPAD + k] - g * (nb - c); \
                }                                                                                                  \
            }                                                                                                      \
            prev = cur;                                                                                            \
            int32_t *t_ = spare;                                                                                   \
            spare = cur;                                                                                           \
            cur = t_;                                                                                              \
        }                                                                                                          \
        return best > allgap ? best : allgap;                                                                      \
    }

/* Row 0's buffer for a band whose slot 0 is column cen0 - wl: exact
 * everywhere (-g c for 0 <= c <= nb), the padding included. */
static void row0_fill(int32_t *r0, int cen0, int wl, int nb, int g)
{
    for (int x = 0; x < BROW; x++) {
        const int c = cen0 - wl + x - BPAD;
        r0[x] = (c >= 0 && c <= nb) ? -g * c : NEGB;
    }
}

/* The band's score from its last row v[0 .. width) (slot 0 = column c0)
 * and column nb's best (coln): leave through row na to the right, or the
 * all-gap path. */
static int32_t band_best(const int32_t *v, int width, int c0, int na, int nb, int32_t coln, int g)
{
    const int32_t allgap = -g * (na + nb);
    int32_t best = coln;
    for (int k = 0; k < width; k++) {
        const int c = c0 + k;
        if (c >= 1 && c <= nb && v[k] - g * (nb - c) > best) best = v[k] - g * (nb - c);
    }
    return best > allgap ? best : allgap;
}

/* The same rows with AVX-512 intrinsics, the previous row kept in two
 * registers: its cells at the shift s are picked by one two-source permute
 * (lanes whose source lies outside the previous row's 32 cells take NEG,
 * as the padding gives the generic code), and the horizontal moves by the
 * generic code's scan. */
__attribute__((target("avx512f"))) static inline void shifted(__m512i plo, __m512i phi, int s, __m512i iota,
                                                               __m512i neg, __m512i *olo, __m512i *ohi)
{
    /* out[k] = prev[k + s] for 0 <= k + s < 32, else NEG */
    const __m512i ilo = _mm512_add_epi32(iota, _mm512_set1_epi32(s)), ihi = _mm512_add_epi32(ilo, _mm512_set1_epi32(16));
    const __m512i top = _mm512_set1_epi32(31);
    const __mmask16 vlo = _mm512_cmpge_epi32_mask(ilo, _mm512_setzero_si512()) & _mm512_cmple_epi32_mask(ilo, top);
    const __mmask16 vhi = _mm512_cmpge_epi32_mask(ihi, _mm512_setzero_si512()) & _mm512_cmple_epi32_mask(ihi, top);
    *olo = _mm512_mask_mov_epi32(neg, vlo, _mm512_permutex2var_epi32(plo, ilo, phi));
    *ohi = _mm512_mask_mov_epi32(neg, vhi, _mm512_permutex2var_epi32(plo, ihi, phi));
}

/* The substitution scores of the query's base xv (< 4) against the 16 target
 * codes at bp[0 .. 16): ms where equal, mm for another base, 0 for an
 * ambiguity code or the padding. */
__attribute__((target("avx512f"))) static inline __m512i subst16(const uint8_t *bp, __m512i xv, __m512i msv,
                                                                  __m512i mmv)
{
    const __m512i t = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)bp));
    return _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(t, xv),
                                   _mm512_maskz_mov_epi32(_mm512_cmplt_epi32_mask(t, _mm512_set1_epi32(4)), mmv), msv);
}

/* The horizontal moves of 16 cells: h[k] = max over j <= k of h[j] - g (k -
 * j), a 4-step scan (gv, g2, g4, g8: g, 2g, 4g, 8g; NEG shifted in). */
__attribute__((target("avx512f"))) static inline __m512i hscan16(__m512i h, __m512i neg, __m512i gv, __m512i g2,
                                                                  __m512i g4, __m512i g8)
{
    h = _mm512_max_epi32(h, _mm512_sub_epi32(_mm512_alignr_epi32(h, neg, 15), gv));
    h = _mm512_max_epi32(h, _mm512_sub_epi32(_mm512_alignr_epi32(h, neg, 14), g2));
    h = _mm512_max_epi32(h, _mm512_sub_epi32(_mm512_alignr_epi32(h, neg, 12), g4));
    return _mm512_max_epi32(h, _mm512_sub_epi32(_mm512_alignr_epi32(h, neg, 8), g8));
}

/* Lane k (0 <= k < 16) of v. */
__attribute__((target("avx512f"))) static inline int32_t lane16(__m512i v, int k)
{
    return _mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_permutexvar_epi32(_mm512_set1_epi32(k), v)));
}

/* PB pairs of the query at once, row by row: independent chains the core
 * overlaps (one pair's row is a chain of about 40 cycles of latency). */
__attribute__((target("avx512f"))) static void band_avx512(const uint8_t *restrict a, int na,
                                                           const uint8_t *const *bps, const int *nbs,
                                                           const int32_t *const *cens, int cnt, int ms, int mm, int g,
                                                           int32_t *r0s, int32_t *out)
{
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i neg = _mm512_set1_epi32(NEGB), gv = _mm512_set1_epi32(g), zero = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi32(1), sixteen = _mm512_set1_epi32(16);
    const __m512i msv = _mm512_set1_epi32(ms), mmv = _mm512_set1_epi32(mm), last = _mm512_set1_epi32(15);
    const __m512i g2 = _mm512_set1_epi32(2 * g), g4 = _mm512_set1_epi32(4 * g), g8 = _mm512_set1_epi32(8 * g);
    const __m512i dec = _mm512_mullo_epi32(_mm512_add_epi32(iota, one), gv);
    __m512i plo[PB], phi[PB], nbv[PB];
    int32_t coln[PB];
    int c0[PB];
    for (int p = 0; p < PB; p++) {
        const int q = p < cnt ? p : 0; /* lanes past cnt repeat pair 0, their results unused */
        const int nb = nbs[q];
        int32_t *r0 = r0s + (size_t)p * BROW;
        row0_fill(r0, cens[q][0], MNW_PED_WL, nb, g); /* the first row reads it at shift 0 (cen[0] = cen[1]) */
        plo[p] = _mm512_loadu_si512(r0 + BPAD);
        phi[p] = _mm512_loadu_si512(r0 + BPAD + 16);
        nbv[p] = _mm512_set1_epi32(nb);
        coln[p] = -g * nb;
        c0[p] = 0;
    }
    for (int r = 1; r <= na; r++) {
        const int x = a[r - 1];
        const __m512i xv = _mm512_set1_epi32(x);
        const __m512i gr1 = _mm512_set1_epi32(-g * (r - 1)), gr = _mm512_set1_epi32(-g * r);
        _Pragma("GCC unroll 4") for (int p = 0; p < PB; p++)
        {
            const int q = p < cnt ? p : 0;
            const int32_t *cen = cens[q];
            const uint8_t *bp = bps[q];
            const int nb = nbs[q];
            const int s = cen[r] - cen[r - 1];
            const int cc = cen[r] - MNW_PED_WL;
            c0[p] = cc;
            if (r > 1 && s >= 0 && s <= 2 && cc >= 2 && cc + MNW_PED_BAND < nb) {
                /* inside: every slot a cell of column 2 .. nb - 1 (no column 0,
                 * 1 or nb to mend, no cell outside), the shift 0, 1 or 2
                 * (the chain's usual steps): the generic row's masks are no
                 * operations there, and the shift is two aligns a half */
                __m512i dl, dh, ul, uh;
                if (s == 1) {
                    dl = plo[p];
                    dh = phi[p];
                    ul = _mm512_alignr_epi32(phi[p], plo[p], 1);
                    uh = _mm512_alignr_epi32(neg, phi[p], 1);
                } else if (s == 0) {
                    dl = _mm512_alignr_epi32(plo[p], neg, 15);
                    dh = _mm512_alignr_epi32(phi[p], plo[p], 15);
                    ul = plo[p];
                    uh = phi[p];
                } else {
                    dl = _mm512_alignr_epi32(phi[p], plo[p], 1);
                    dh = _mm512_alignr_epi32(neg, phi[p], 1);
                    ul = _mm512_alignr_epi32(phi[p], plo[p], 2);
                    uh = _mm512_alignr_epi32(neg, phi[p], 2);
                }
                if (x < 4) {
                    dl = _mm512_add_epi32(dl, subst16(bp + cc - 1, xv, msv, mmv));
                    dh = _mm512_add_epi32(dh, subst16(bp + cc + 15, xv, msv, mmv));
                }
                __m512i hl = _mm512_max_epi32(_mm512_max_epi32(dl, _mm512_sub_epi32(ul, gv)), neg);
                __m512i hh = _mm512_max_epi32(_mm512_max_epi32(dh, _mm512_sub_epi32(uh, gv)), neg);
                hl = hscan16(hl, neg, gv, g2, g4, g8);
                hh = hscan16(hh, neg, gv, g2, g4, g8);
                hh = _mm512_max_epi32(hh, _mm512_sub_epi32(_mm512_permutexvar_epi32(last, hl), dec));
                const int32_t cl = coln[p] - g;
                coln[p] = cl < NEGB ? NEGB : cl;
                plo[p] = hl;
                phi[p] = hh;
                continue;
            }
            const __m512i clo = _mm512_add_epi32(_mm512_set1_epi32(cc), iota), chi = _mm512_add_epi32(clo, sixteen);
            __m512i dlo, dhi, ulo, uhi;
            if (r == 1) { /* row 0 holds values outside the 32 cells too */
                const int32_t *r0 = r0s + (size_t)p * BROW;
                dlo = _mm512_loadu_si512(r0 + BPAD - 1);
                dhi = _mm512_loadu_si512(r0 + BPAD + 15);
                ulo = plo[p];
                uhi = phi[p];
            } else if (s > SMAX || s < -SMAX) {
                dlo = dhi = ulo = uhi = neg;
            } else {
                shifted(plo[p], phi[p], s - 1, iota, neg, &dlo, &dhi);
                shifted(plo[p], phi[p], s, iota, neg, &ulo, &uhi);
            }
            /* column 1's diagonal predecessor is column 0, exact: -g (r - 1) */
            dlo = _mm512_mask_mov_epi32(dlo, _mm512_cmpeq_epi32_mask(clo, one), gr1);
            dhi = _mm512_mask_mov_epi32(dhi, _mm512_cmpeq_epi32_mask(chi, one), gr1);
            if (x < 4) {
                dlo = _mm512_add_epi32(dlo, subst16(bp + cc - 1, xv, msv, mmv));
                dhi = _mm512_add_epi32(dhi, subst16(bp + cc + 15, xv, msv, mmv));
            }
            const __m512i cn = _mm512_set1_epi32(coln[p]);
            ulo = _mm512_mask_max_epi32(ulo, _mm512_cmpeq_epi32_mask(clo, nbv[p]), ulo, cn);
            uhi = _mm512_mask_max_epi32(uhi, _mm512_cmpeq_epi32_mask(chi, nbv[p]), uhi, cn);
            __m512i hlo = _mm512_max_epi32(dlo, _mm512_sub_epi32(ulo, gv));
            __m512i hhi = _mm512_max_epi32(dhi, _mm512_sub_epi32(uhi, gv));
            const __mmask16 outlo = _mm512_cmplt_epi32_mask(clo, one) | _mm512_cmpgt_epi32_mask(clo, nbv[p]);
            const __mmask16 outhi = _mm512_cmplt_epi32_mask(chi, one) | _mm512_cmpgt_epi32_mask(chi, nbv[p]);
            hlo = _mm512_mask_mov_epi32(hlo, outlo, neg);
            hhi = _mm512_mask_mov_epi32(hhi, outhi, neg);
            hlo = _mm512_mask_mov_epi32(hlo, _mm512_cmpeq_epi32_mask(clo, zero), gr); /* column 0: column 1's left */
            if (cc == 1) hlo = _mm512_mask_max_epi32(hlo, 1, hlo, _mm512_set1_epi32(-g * r - g));
            hlo = _mm512_max_epi32(hlo, neg);
            hhi = _mm512_max_epi32(hhi, neg);
            /* horizontal moves: H[k] = max over j <= k of H'[j] - g (k - j), a scan over the 32 cells */
            hlo = hscan16(hlo, neg, gv, g2, g4, g8);
            hhi = hscan16(hhi, neg, gv, g2, g4, g8);
            hhi = _mm512_max_epi32(hhi, _mm512_sub_epi32(_mm512_permutexvar_epi32(last, hlo), dec));
            hlo = _mm512_mask_mov_epi32(hlo, outlo, neg);
            hhi = _mm512_mask_mov_epi32(hhi, outhi, neg);
            int32_t cl = coln[p] - g;
            const int kn = nb - cc;
            if (nb >= 1 && kn >= 0 && kn < MNW_PED_BAND) {
                const int32_t v = kn < 16 ? lane16(hlo, kn) : lane16(hhi, kn - 16);
                if (v > cl) cl = v;
            }
            coln[p] = cl < NEGB ? NEGB : cl;
            plo[p] = hlo;
            phi[p] = hhi;
        }
    }
    for (int p = 0; p < cnt; p++) {
        int32_t v[MNW_PED_BAND];
        _mm512_storeu_si512(v, plo[p]);
        _mm512_storeu_si512(v + 16, phi[p]);
        out[p] = band_best(v, MNW_PED_BAND, c0[p], na, nbs[p], coln[p], g);
    }
}
/* The first pass's narrow band (lib/prune_ed.h: columns cen[r] - 8 ..
 * cen[r] + 7, 16 cells, one register a pair), four pairs in lockstep; the
 * same steps as band_avx512 on one half. */
#define NW16 (MNW_PED_NL + 1 + MNW_PED_NR)
__attribute__((target("avx512f"))) static void narrow_avx512(const uint8_t *restrict a, int na,
                                                             const uint8_t *const *bps, const int *nbs,
                                                             const int32_t *const *cens, int cnt, int ms, int mm,
                                                             int g, int32_t *r0s, int32_t *out)
{
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i neg = _mm512_set1_epi32(NEGB), gv = _mm512_set1_epi32(g), zero = _mm512_setzero_si512();
    const __m512i one = _mm512_set1_epi32(1), top = _mm512_set1_epi32(NW16 - 1);
    const __m512i msv = _mm512_set1_epi32(ms), mmv = _mm512_set1_epi32(mm);
    const __m512i g2 = _mm512_set1_epi32(2 * g), g4 = _mm512_set1_epi32(4 * g), g8 = _mm512_set1_epi32(8 * g);
    __m512i prv[PB], nbv[PB];
    int32_t coln[PB];
    int c0[PB];
    for (int p = 0; p < PB; p++) {
        const int q = p < cnt ? p : 0;
        const int nb = nbs[q];
        int32_t *r0 = r0s + (size_t)p * BROW;
        row0_fill(r0, cens[q][0], MNW_PED_NL, nb, g);
        prv[p] = _mm512_loadu_si512(r0 + BPAD);
        nbv[p] = _mm512_set1_epi32(nb);
        coln[p] = -g * nb;
        c0[p] = 0;
    }
    for (int r = 1; r <= na; r++) {
        const int x = a[r - 1];
        const __m512i xv = _mm512_set1_epi32(x);
        const __m512i gr1 = _mm512_set1_epi32(-g * (r - 1)), gr = _mm512_set1_epi32(-g * r);
        _Pragma("GCC unroll 4") for (int p = 0; p < PB; p++)
        {
            const int q = p < cnt ? p : 0;
            const int32_t *cen = cens[q];
            const uint8_t *bp = bps[q];
            const int nb = nbs[q];
            const int s = cen[r] - cen[r - 1];
            const int cc = cen[r] - MNW_PED_NL;
            c0[p] = cc;
            if (r > 1 && s >= 0 && s <= 2 && cc >= 2 && cc + NW16 < nb) {
                /* inside (band_avx512's fast row, one register) */
                __m512i d, u;
                if (s == 1) {
                    d = prv[p];
                    u = _mm512_alignr_epi32(neg, prv[p], 1);
                } else if (s == 0) {
                    d = _mm512_alignr_epi32(prv[p], neg, 15);
                    u = prv[p];
                } else {
                    d = _mm512_alignr_epi32(neg, prv[p], 1);
                    u = _mm512_alignr_epi32(neg, prv[p], 2);
                }
                if (x < 4) d = _mm512_add_epi32(d, subst16(bp + cc - 1, xv, msv, mmv));
                __m512i h = _mm512_max_epi32(_mm512_max_epi32(d, _mm512_sub_epi32(u, gv)), neg);
                h = hscan16(h, neg, gv, g2, g4, g8);
                const int32_t cl = coln[p] - g;
                coln[p] = cl < NEGB ? NEGB : cl;
                prv[p] = h;
                continue;
            }
            const __m512i cv = _mm512_add_epi32(_mm512_set1_epi32(cc), iota);
            __m512i d, u;
            if (r == 1) {
                d = _mm512_loadu_si512(r0s + (size_t)p * BROW + BPAD - 1);
                u = prv[p];
            } else if (s > SMAX || s < -SMAX) {
                d = u = neg;
            } else { /* prev[k + s - 1] and prev[k + s], NEG off the previous row's 16 cells */
                const __m512i id = _mm512_add_epi32(iota, _mm512_set1_epi32(s - 1)), iu = _mm512_add_epi32(id, one);
                const __mmask16 vd = _mm512_cmpge_epi32_mask(id, zero) & _mm512_cmple_epi32_mask(id, top);
                const __mmask16 vu_ = _mm512_cmpge_epi32_mask(iu, zero) & _mm512_cmple_epi32_mask(iu, top);
                d = _mm512_mask_permutexvar_epi32(neg, vd, id, prv[p]);
                u = _mm512_mask_permutexvar_epi32(neg, vu_, iu, prv[p]);
            }
            d = _mm512_mask_mov_epi32(d, _mm512_cmpeq_epi32_mask(cv, one), gr1);
            if (x < 4) d = _mm512_add_epi32(d, subst16(bp + cc - 1, xv, msv, mmv));
            u = _mm512_mask_max_epi32(u, _mm512_cmpeq_epi32_mask(cv, nbv[p]), u, _mm512_set1_epi32(coln[p]));
            __m512i h = _mm512_max_epi32(d, _mm512_sub_epi32(u, gv));
            const __mmask16 out_ = _mm512_cmplt_epi32_mask(cv, one) | _mm512_cmpgt_epi32_mask(cv, nbv[p]);
            h = _mm512_mask_mov_epi32(h, out_, neg);
            h = _mm512_mask_mov_epi32(h, _mm512_cmpeq_epi32_mask(cv, zero), gr);
            if (cc == 1) h = _mm512_mask_max_epi32(h, 1, h, _mm512_set1_epi32(-g * r - g));
            h = _mm512_max_epi32(h, neg);
            h = hscan16(h, neg, gv, g2, g4, g8);
            h = _mm512_mask_mov_epi32(h, out_, neg);
            int32_t cl = coln[p] - g;
            const int kn = nb - cc;
            if (nb >= 1 && kn >= 0 && kn < NW16) {
                const int32_t v = lane16(h, kn);
                if (v > cl) cl = v;
            }
            coln[p] = cl < NEGB ? NEGB : cl;
            prv[p] = h;
        }
    }
    for (int p = 0; p < cnt; p++) {
        int32_t v[16];
        _mm512_storeu_si512(v, prv[p]);
        out[p] = band_best(v, NW16, c0[p], na, nbs[p], coln[p], g);
    }
}

BAND_KERNEL(band_avx2, T_AVX2)
BAND_KERNEL(band_base, T_BASE)
typedef int32_t (*band_fn)(const uint8_t *, int, const uint8_t *, int, const int32_t *, int, int, int, int32_t *,
                           int32_t *, int32_t *);
static const band_fn kern_band[3] = {NULL, band_avx2, band_base};

/* b with TPAD + 32 padding codes (15: scores 0) on each side, so that a
 * row's window reads bp[c - 1] for every column it can name */
static void padded_reserve(mnw_pedc *w, int nbmax)
{
    const size_t need = (size_t)nbmax + 2 * TPAD + 2 * MNW_PED_BAND;
    if (need > w->bcap) {
        for (int x = 0; x < PB; x++) {
            free(w->bp[x]);
            w->bp[x] = mnw_xmalloc(need);
        }
        w->bcap = need;
    }
}

/* (padded_reserve came first, for the longest target of the call) */
static const uint8_t *padded(mnw_pedc *w, int slot, const uint8_t *b, int nb)
{
    const size_t need = (size_t)nb + 2 * TPAD + 2 * MNW_PED_BAND;
    memset(w->bp[slot], 15, need);
    memcpy(w->bp[slot] + TPAD + MNW_PED_BAND, b, (size_t)nb);
    return w->bp[slot] + TPAD + MNW_PED_BAND;
}

static void bands(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, int ms, int mm, int gap,
                  int isa, int narrow, int32_t *out);

void mnw_pedc_bands(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, int ms, int mm, int gap,
                    int isa, int32_t *out)
{
    bands(w, t, n, count, ms, mm, gap, isa, 0, out);
}

int mnw_pedc_narrow(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, int ms, int mm, int gap,
                    int isa, int32_t *out)
{
    if (isa != 0) return 0;
    bands(w, t, n, count, ms, mm, gap, isa, 1, out);
    return 1;
}

static void bands(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, int ms, int mm, int gap,
                  int isa, int narrow, int32_t *out)
{
    const int na = w->na;
    int nbmax = 0;
    for (size_t k = 0; k < count; k++)
        if (n[k] > nbmax) nbmax = n[k];
    padded_reserve(w, nbmax);
    for (size_t k = 0; k < count;) {
        const uint8_t *bps[PB];
        const int32_t *cens[PB];
        int nbs[PB], cnt = 0;
        size_t idx[PB];
        /* up to PB pairs that need the band (empty ones are the all-gap path) */
        while (k < count && cnt < (isa == 0 ? PB : 1)) {
            if (na == 0 || n[k] == 0) {
                out[k] = -gap * (na + n[k]);
                k++;
                continue;
            }
            guide(w, t[k], n[k], w->cen[cnt]);
            bps[cnt] = padded(w, cnt, t[k], n[k]);
            cens[cnt] = w->cen[cnt];
            nbs[cnt] = n[k];
            idx[cnt] = k;
            cnt++;
            k++;
        }
        if (!cnt) continue;
        if (isa == 0) {
            int32_t o[PB];
            if (narrow)
                narrow_avx512(w->a, na, bps, nbs, cens, cnt, ms, mm, gap, w->r0, o);
            else
                band_avx512(w->a, na, bps, nbs, cens, cnt, ms, mm, gap, w->r0, o);
            for (int p = 0; p < cnt; p++) out[idx[p]] = o[p];
        } else
            out[idx[0]] = kern_band[isa](w->a, na, bps[0], nbs[0], cens[0], ms, mm, gap, w->r0, w->ra, w->rb);
    }
}

int32_t mnw_pedc_band(mnw_pedc *w, const uint8_t *b, int nb, int ms, int mm, int gap, int isa)
{
    int32_t o;
    mnw_pedc_bands(w, &b, &nb, 1, ms, mm, gap, isa, &o);
    return o;
}
