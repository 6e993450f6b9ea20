/* prune_ed.c - see prune_ed.h; the bound is docs/PRUNE.md's Theorem 2. */
#include "lib/prune_ed.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

const uint8_t mnw_ped_bases[15] = {1, 2, 4, 8, 5, 10, 6, 9, 12, 3, 14, 13, 11, 7, 15};

int32_t mnw_ped_ed(const uint8_t *a, int na, const uint8_t *b, int nb)
{
    if (nb == 0) return na;
    const int W = (nb + 63) / 64;
    uint64_t *peq = mnw_xmalloc((size_t)15 * (size_t)W * sizeof(uint64_t));
    uint64_t *pv = mnw_xmalloc((size_t)W * sizeof(uint64_t)), *mv = mnw_xmalloc((size_t)W * sizeof(uint64_t));
    memset(peq, 0, (size_t)15 * (size_t)W * sizeof(uint64_t));
    for (int i = 0; i < nb; i++)
        for (int c = 0; c < 15; c++)
            if (mnw_ped_bases[b[i]] & mnw_ped_bases[c]) peq[(size_t)c * W + i / 64] |= (uint64_t)1 << (i % 64);
    for (int w = 0; w < W; w++) {
        pv[w] = ~(uint64_t)0;
        mv[w] = 0;
    }
    const uint64_t top = (uint64_t)1 << ((nb - 1) % 64);
    int32_t score = nb; /* D[nb][0] */
    for (int j = 0; j < na; j++) {
        const uint64_t *eq = peq + (size_t)a[j] * W;
        uint64_t hp = 1, hm = 0; /* the top row: D[0][j + 1] - D[0][j] = +1 */
        for (int w = 0; w < W; w++) {
            uint64_t Pv = pv[w], Mv = mv[w], Eq = eq[w] | hm;
            uint64_t Xv = eq[w] | Mv;
            uint64_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
            uint64_t Ph = Mv | ~(Xh | Pv);
            uint64_t Mh = Pv & Xh;
            uint64_t bit = w == W - 1 ? top : (uint64_t)1 << 63;
            uint64_t op = (Ph & bit) != 0, om = (Mh & bit) != 0;
            Ph = (Ph << 1) | hp;
            Mh = (Mh << 1) | hm;
            pv[w] = Mh | ~(Xv | Ph);
            mv[w] = Ph & Xv;
            hp = op;
            hm = om;
        }
        score += (int32_t)hp - (int32_t)hm;
    }
    free(peq);
    free(pv);
    free(mv);
    return score;
}

/* ---- the guide ---- */

#define HBITS 14 /* a's words: an open-addressing table of 2^14 slots */
#define HSIZE (1 << HBITS)
#define KMASK ((1u << (2 * MNW_PED_K)) - 1)

static uint32_t slot_of(uint32_t w) { return (w * 2654435761u) >> (32 - HBITS); }

int mnw_ped_guide(const uint8_t *a, int na, const uint8_t *b, int nb, int32_t *cen)
{
    uint32_t *key = mnw_xmalloc(HSIZE * sizeof(uint32_t));
    int32_t *pos = mnw_xmalloc(HSIZE * sizeof(int32_t)); /* -1 empty, -2 twice or more, else the position */
    for (int s = 0; s < HSIZE; s++) pos[s] = -1;
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
        while (pos[s] != -1 && key[s] != v) s = (s + 1) & (HSIZE - 1);
        if (pos[s] == -1) {
            key[s] = v;
            pos[s] = p - MNW_PED_K + 1;
        } else
            pos[s] = -2;
    }
    /* the hits in b's order and the longest chain (patience) */
    int cap = nb > 0 ? nb : 1;
    int32_t *hpa = mnw_xmalloc((size_t)cap * sizeof(int32_t)), *hpb = mnw_xmalloc((size_t)cap * sizeof(int32_t));
    int32_t *prev = mnw_xmalloc((size_t)cap * sizeof(int32_t)), *tail = mnw_xmalloc((size_t)cap * sizeof(int32_t));
    int h = 0, L = 0;
    v = 0;
    run = 0;
    for (int p = 0; p < nb; p++) {
        if (b[p] < 4) {
            v = ((v << 2) | b[p]) & KMASK;
            run++;
        } else
            run = 0;
        if (run < MNW_PED_K || (p - MNW_PED_K + 1) % MNW_PED_STRIDE) continue;
        uint32_t s = slot_of(v);
        while (pos[s] != -1 && key[s] != v) s = (s + 1) & (HSIZE - 1);
        if (pos[s] < 0) continue;
        hpa[h] = pos[s];
        hpb[h] = p - MNW_PED_K + 1;
        int lo = 0, hi = L;
        while (lo < hi) {
            int md = (lo + hi) / 2;
            if (hpa[tail[md]] < hpa[h])
                lo = md + 1;
            else
                hi = md;
        }
        prev[h] = lo ? tail[lo - 1] : -1;
        tail[lo] = h;
        if (lo == L) L++;
        h++;
    }
    /* the points: (0, 0), the chain, (na, nb); centres by segment, from the end */
    int r1 = na, c1 = nb;
    int x = L ? tail[L - 1] : -1;
    for (;;) {
        int r0 = x >= 0 ? hpa[x] : 0, c0 = x >= 0 ? hpb[x] : 0;
        for (int r = r1; r > r0; r--) cen[r] = c0 + (int32_t)((int64_t)(r - r0) * (c1 - c0) / (r1 - r0));
        if (x < 0) break;
        r1 = r0;
        c1 = c0;
        x = prev[x];
    }
    cen[0] = na > 0 ? cen[1] : 0;
    free(key);
    free(pos);
    free(hpa);
    free(hpb);
    free(prev);
    free(tail);
    return L;
}

/* ---- the guided band ---- */

#define NEGB (-(1 << 29))

int32_t mnw_ped_band(const uint8_t *a, int na, const uint8_t *b, int nb, const int32_t *cen, int ms, int mm,
                     int gap)
{
    return mnw_ped_band_w(a, na, b, nb, cen, ms, mm, gap, MNW_PED_WL, MNW_PED_WR);
}

int32_t mnw_ped_band_w(const uint8_t *a, int na, const uint8_t *b, int nb, const int32_t *cen, int ms, int mm,
                       int gap, int wl, int wr)
{
    const int32_t g = gap, allgap = -g * (na + nb);
    if (na == 0 || nb == 0) return allgap;
    int32_t *prev = mnw_xmalloc((size_t)(nb + 1) * sizeof(int32_t)), *cur = mnw_xmalloc((size_t)(nb + 1) * sizeof(int32_t));
    for (int c = 0; c <= nb; c++) prev[c] = -g * c; /* row 0: every column */
    int plo = 0, phi = nb;
    int32_t coln = -g * nb, best = allgap;
    for (int r = 1; r <= na; r++) {
        int lo = cen[r] - wl, hi = cen[r] + wr;
        if (lo < 1) lo = 1;
        if (hi > nb) hi = nb;
        const int x = a[r - 1];
        int32_t left = lo == 1 ? -g * r : NEGB; /* column lo - 1: exact only as column 0 */
        for (int c = lo; c <= hi; c++) {
            const int y = b[c - 1];
            const int32_t s = (x < 4 && y < 4) ? (x == y ? ms : mm) : 0;
            int32_t dg = c - 1 == 0 ? -g * (r - 1) : (c - 1 >= plo && c - 1 <= phi) ? prev[c - 1] : NEGB;
            int32_t up = (c >= plo && c <= phi) ? prev[c] : NEGB;
            if (c == nb && coln > up) up = coln;
            int32_t h = dg + s;
            if (up - g > h) h = up - g;
            if (left - g > h) h = left - g;
            if (h < NEGB) h = NEGB;
            cur[c] = h;
            left = h;
        }
        coln -= g;
        if (hi == nb && lo <= nb && cur[nb] > coln) coln = cur[nb];
        if (coln < NEGB) coln = NEGB;
        if (r == na) {
            best = coln;
            for (int c = lo; c <= hi; c++)
                if (cur[c] - g * (nb - c) > best) best = cur[c] - g * (nb - c);
        }
        int32_t *t = prev;
        prev = cur;
        cur = t;
        plo = lo;
        phi = hi;
    }
    free(prev);
    free(cur);
    return best > allgap ? best : allgap;
}
