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

#include <stdlib.h>
#include <string.h>

#include "lib/prune_ed.h"
#include "lib/util.h"

#define L MNW_PEDC_LANES
#define NEGB (-(1 << 29))
#define BPAD 64
#define BROW (BPAD + MNW_PED_BAND + BPAD)
#define SMAX 60 /* |shift| read at most: farther rows do not overlap the band (32) */
#define HBITS 14
#define HSIZE (1 << HBITS)
#define KMASK ((1u << (2 * MNW_PED_K)) - 1)
#define TPAD 48 /* padding codes around a target in the band's copy */

typedef uint64_t vu __attribute__((vector_size(8 * L)));
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
    uint32_t *key;
    int32_t *pos; /* -1 empty, -2 twice or more in a, else the position */
    int32_t *qslots; /* slots in use, to clear */
    int nq, qcap;
    /* per pair */
    int32_t *hpa, *hpb, *prev, *tail, *cen;
    int hcap, ccap;
    uint8_t *bp;
    int bcap;
    int32_t r0[BROW], ra[BROW], rb[BROW];
    uint16_t rows[15]; /* the codes whose base sets overlap code x's: the pattern rows a code of b sets */
};

mnw_pedc *mnw_pedc_new(void)
{
    mnw_pedc *w = mnw_xmalloc(sizeof *w);
    memset(w, 0, sizeof *w);
    w->key = mnw_xmalloc(HSIZE * sizeof *w->key);
    w->pos = mnw_xmalloc(HSIZE * sizeof *w->pos);
    for (int s = 0; s < HSIZE; s++) w->pos[s] = -1;
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
    free(w->key);
    free(w->pos);
    free(w->qslots);
    free(w->hpa);
    free(w->hpb);
    free(w->prev);
    free(w->tail);
    free(w->cen);
    free(w->bp);
    free(w);
}

static uint32_t slot_of(uint32_t v) { return (v * 2654435761u) >> (32 - HBITS); }

void mnw_pedc_query(mnw_pedc *w, const uint8_t *a, int na)
{
    for (int x = 0; x < w->nq; x++) w->pos[w->qslots[x]] = -1;
    w->nq = 0;
    w->a = a;
    w->na = na;
    if (na > w->qcap) {
        w->qslots = mnw_xrealloc(w->qslots, (size_t)na * sizeof *w->qslots);
        w->qcap = na;
    }
    uint32_t v = 0;
    int run = 0;
    for (int p = 0; p < na; p++) {
        if (a[p] < 4) {
            v = ((v << 2) | a[p]) & KMASK;
            run++;
        } else
            run = 0;
        if (run < MNW_PED_K) continue;
        uint32_t s = slot_of(v);
        while (w->pos[s] != -1 && w->key[s] != v) s = (s + 1) & (HSIZE - 1);
        if (w->pos[s] == -1) {
            w->key[s] = v;
            w->pos[s] = p - MNW_PED_K + 1;
            w->qslots[w->nq++] = (int32_t)s;
        } else
            w->pos[s] = -2;
    }
}

/* ---- ED ---- */

#define ED_KERNEL(NAME, TARGET)                                                                                    \
    TARGET static void NAME(const uint8_t *restrict a, int na, const vu *restrict peq, int W,                       \
                            const vu *restrict lastm, vu *restrict pv, vu *restrict mv, uint64_t *restrict out)     \
    {                                                                                                              \
        const vu zero = {0}, one = zero + 1;                                                                       \
        vu score;                                                                                                  \
        memcpy(&score, out, sizeof score);                                                                         \
        for (int x = 0; x < W; x++) {                                                                              \
            pv[x] = ~zero;                                                                                         \
            mv[x] = zero;                                                                                          \
        }                                                                                                          \
        for (int j = 0; j < na; j++) {                                                                             \
            const vu *restrict eqr = peq + (size_t)a[j] * (size_t)W;                                               \
            vu hp = one, hm = zero;                                                                                \
            for (int x = 0; x < W; x++) {                                                                          \
                const vu Pv = pv[x], Mv = mv[x], E = eqr[x];                                                       \
                const vu Xv = E | Mv, Eq = E | hm;                                                                 \
                const vu Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;                                                        \
                vu Ph = Mv | ~(Xh | Pv), Mh = Pv & Xh;                                                             \
                const vu lm = lastm[x];                                                                            \
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
typedef void (*ed_fn)(const uint8_t *, int, const vu *, int, const vu *, vu *, vu *, uint64_t *);
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


static void ed_group(mnw_pedc *w, const uint8_t *const *t, const int *n, int count, int32_t *ed, int isa)
{
    int W = 1;
    for (int l = 0; l < count; l++)
        if ((n[l] + 63) / 64 > W) W = (n[l] + 63) / 64;
    ed_reserve(w, W);
    memset(w->peq, 0, (size_t)15 * (size_t)W * sizeof(vu));
    memset(w->lastm, 0, (size_t)W * sizeof(vu));
    uint64_t *pq = (uint64_t *)w->peq, *lm = (uint64_t *)w->lastm;
    uint64_t sc[L] = {0};
    for (int l = 0; l < count; l++) {
        const uint8_t *b = t[l];
        const int nb = n[l];
        for (int i = 0; i < nb; i++) {
            const uint64_t bit = (uint64_t)1 << (i % 64);
            const int wd = i / 64;
            uint16_t rows = w->rows[b[i]];
            while (rows) {
                const int c = __builtin_ctz(rows);
                rows &= (uint16_t)(rows - 1);
                pq[((size_t)c * W + wd) * L + l] |= bit;
            }
        }
        sc[l] = (uint64_t)nb;
        if (nb > 0) lm[(size_t)((nb - 1) / 64) * L + l] = (uint64_t)1 << ((nb - 1) % 64);
    }
    kern_ed[isa](w->a, w->na, w->peq, W, w->lastm, w->pv, w->mv, sc);
    for (int l = 0; l < count; l++) ed[l] = n[l] == 0 ? w->na : (int32_t)(int64_t)sc[l];
}

void mnw_pedc_ed(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, int32_t *ed, int isa)
{
    for (size_t k = 0; k < count; k += L) {
        const int c = count - k < L ? (int)(count - k) : L;
        ed_group(w, t + k, n + k, c, ed + k, isa);
    }
}

/* ---- the guide ---- */

static void guide(mnw_pedc *w, const uint8_t *b, int nb)
{
    const int na = w->na;
    if (nb > w->hcap) {
        w->hpa = mnw_xrealloc(w->hpa, (size_t)nb * sizeof *w->hpa);
        w->hpb = mnw_xrealloc(w->hpb, (size_t)nb * sizeof *w->hpb);
        w->prev = mnw_xrealloc(w->prev, (size_t)nb * sizeof *w->prev);
        w->tail = mnw_xrealloc(w->tail, (size_t)nb * sizeof *w->tail);
        w->hcap = nb;
    }
    if (na + 1 > w->ccap) {
        w->cen = mnw_xrealloc(w->cen, (size_t)(na + 1) * sizeof *w->cen);
        w->ccap = na + 1;
    }
    int32_t *hpa = w->hpa, *hpb = w->hpb, *prev = w->prev, *tail = w->tail, *cen = w->cen;
    int h = 0, len = 0;
    uint32_t v = 0;
    int run = 0;
    for (int p = 0; p < nb; p++) {
        if (b[p] < 4) {
            v = ((v << 2) | b[p]) & KMASK;
            run++;
        } else
            run = 0;
        if (run < MNW_PED_K) continue;
        uint32_t s = slot_of(v);
        while (w->pos[s] != -1 && w->key[s] != v) s = (s + 1) & (HSIZE - 1);
        if (w->pos[s] < 0) continue;
        const int32_t pa = w->pos[s];
        hpa[h] = pa;
        hpb[h] = p - MNW_PED_K + 1;
        int lo = 0, hi = len;
        while (lo < hi) {
            int md = (lo + hi) / 2;
            if (hpa[tail[md]] < pa)
                lo = md + 1;
            else
                hi = md;
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
        for (int r = r1; r > r0; r--) cen[r] = c0 + (int32_t)((int64_t)(r - r0) * (c1 - c0) / (r1 - r0));
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

BAND_KERNEL(band_avx512, T_AVX512)
BAND_KERNEL(band_avx2, T_AVX2)
BAND_KERNEL(band_base, T_BASE)
typedef int32_t (*band_fn)(const uint8_t *, int, const uint8_t *, int, const int32_t *, int, int, int, int32_t *,
                           int32_t *, int32_t *);
static const band_fn kern_band[3] = {band_avx512, band_avx2, band_base};

int32_t mnw_pedc_band(mnw_pedc *w, const uint8_t *b, int nb, int ms, int mm, int gap, int isa)
{
    const int na = w->na;
    if (na == 0 || nb == 0) return -gap * (na + nb);
    guide(w, b, nb);
    /* b with TPAD padding codes (15: scores 0) on each side: bp[c - 1] for
     * every column a row's window can name (c0 - 1 >= -TPAD + ...) */
    const int need = nb + 2 * TPAD + 2 * MNW_PED_BAND;
    if (need > w->bcap) {
        free(w->bp);
        w->bp = mnw_xmalloc((size_t)need);
        w->bcap = need;
    }
    memset(w->bp, 15, (size_t)need);
    memcpy(w->bp + TPAD + MNW_PED_BAND, b, (size_t)nb);
    return kern_band[isa](w->a, na, w->bp + TPAD + MNW_PED_BAND, nb, w->cen, ms, mm, gap, w->r0, w->ra, w->rb);
}
