/* gpu_prune_ed_int.cuh - the filter's second stage on the GPU (issue 39,
 * docs/PRUNE.md Theorem 2): one thread per pair computes lib/prune_ed.h's
 * figures exactly as its reference does (the guide, the guided band's
 * score SG, ED banded by tau) and makes lib/prune.c's integer decision
 * (mnw_prune_ed_tau), so that a pair is pruned on the GPU exactly when it
 * is on the CPU (tests/gpu/test_gpu.c compares every figure). Included by
 * gpu_kernels.cu (the launcher) and by tests/emu (a thread-per-pair kernel
 * without __syncthreads runs there thread after thread).
 *
 * Per pair (i, j), a = sequence i (the query), b = sequence j, for a pair
 * stage 1 kept (out[x] = 0; every pair with FULL):
 *   the guide: a's unique words of MNW_PED_K bases and b's windows at
 *     multiples of MNW_PED_STRIDE, each a list sorted by word built once per
 *     sequence at open (mnw_gpu_pseq's uoff / soff), merged: a window whose
 *     word is one of a's gives the hit (pa, pb), written at the window's
 *     index pb / STRIDE of a local array; then the windows in b's order, the
 *     longest chain by patience sorting (lib/prune_ed.c's rule: a hit
 *     replaces the first tail whose pa is >= its own), and the chain read
 *     back from its end into the same local memory, in increasing order;
 *   SG: lib/prune_ed.c's band for one thread: row r's 32 cells (columns
 *     cen[r] - 16 .. cen[r] + 15) in registers, the previous row aligned to
 *     them by the shift cen[r] - cen[r-1] (>= 0: the chain increases in
 *     both), the substitution scores of a row from two 32-bit windows of
 *     b's base bitmaps (built once per sequence at open), the centres
 *     stepped along the chain's segments with a
 *     quotient and a remainder (the reference's integer division, exactly);
 *     the window's columns outside b computed like the others, to the same
 *     SG (band() says why);
 *   tau: mnw_prune_ed_tau's formula (int64);
 *   ED: Myers' bit vectors with the query a as the pattern (32-bit words,
 *     its four base rows built once per sequence at open: every thread of a
 *     warp whose pairs share a reads the same rows) and b as the text,
 *     computing only the words of Ukkonen's band for tau (workers/cpu/
 *     prune_ed_cpu.c's argument, the roles of a and b swapped: the band is
 *     symmetric), so ED is exact where ED <= tau and > tau where not: the
 *     decision is exact; FULL computes the exact ED.
 * The decision: |na - nb| > tau prunes, tau >= max(na, nb) keeps, else ED >
 * tau prunes (prune_cpu.c's stage2). out[x] = 2 for a pair this stage
 * prunes (the host counts them and writes 1).
 *
 * The kernels (gpu_kernels.cu launches them on a filter slot's stream
 * after stage 1; one thread a pair in each): compact lists the pairs
 * stage 1 kept, so that warps are full where stage 1 pruned most; bands
 * computes the guide, SG and tau, decides by the lengths where it can and
 * sorts the rest by the rows of their ED band; eds_reg<1> and eds_reg<2>
 * run ED with the band's words in registers (16 and 32 words: bands of up
 * to 480 and 992 rows: about three quarters and 99% of the ED runs on 150
 * genes of 16s-2k at 0.10), eds_wide the rest with ED's vectors in local
 * memory. prune_ed_full (tests)
 * computes every figure of every pair, the exact ED.
 *
 * Local memory: bands' guide arrays (3 x MNW_MAX_SEQ_LEN / MNW_PED_STRIDE
 * int16, 15 KB a thread), eds_wide's and prune_ed_full's ED vectors,
 * reserved by the driver for every thread the device can hold: gpu_dev.cu
 * launches the kernels once at open, before the batches take their share
 * of memory.
 *
 * Thread-safety: the kernels read the tables and write their pairs' slots
 * (the lists through atomic counters).
 */
#ifndef MNW_GPU_PRUNE_ED_CUH
#define MNW_GPU_PRUNE_ED_CUH

#include "workers/gpu/gpu_kern_int.h"
#include "workers/gpu/gpu_prune_int.cuh" /* imax, max3, addmax */

namespace mnw_ge {

constexpr int K = 12;                      /* MNW_PED_K (gpu_dev.cu asserts it) */
constexpr int STRIDE = 4;                  /* MNW_PED_STRIDE */
constexpr int WL = 16, BW = 32;            /* MNW_PED_WL, MNW_PED_BAND */
constexpr int MAXLEN = 10000;              /* MNW_MAX_SEQ_LEN */
constexpr int NWIN = MAXLEN / STRIDE + 1;  /* windows of b at most */
constexpr int NWORD = (MAXLEN + 31) / 32;  /* ED's words at most */
constexpr int NEG = -(1 << 29);
constexpr int32_t NONE = INT32_MIN;

using mnw_gp::addmax;
using mnw_gp::imax;
using mnw_gp::max3;

/* lib/prune_ed.c's mnw_ped_bases */
__device__ __forceinline__ uint32_t bases(int c)
{
    /* nibble c of the table {1, 2, 4, 8, 5, 10, 6, 9, 12, 3, 14, 13, 11, 7, 15} */
    const uint64_t t = 0x0F7BDE3C96A58421ull;
    return (uint32_t)(t >> (4 * c)) & 15u;
}

/* The band's view of b: its base bitmaps (gpu_dev.cu's ed_tables: word
 * q of row y at 5 q + y; rows 0-3 bit i where code i is base y, row 4
 * where code i is a base, i.e. < 4; 32 zero bits before position 0 and
 * after the end). A row's two windows, bits st .. st + 31 of row y and of
 * row 4 (st >= -32), 32 columns read as one word whatever the shift, in
 * two steps: load, the four words, a row ahead (their loads are in flight
 * while the band computes the row before; the profile showed the row's
 * loads waited on), then eq() and base() when the row comes. */
struct bwin {
    uint32_t e0, e1, b0, b1;
    int sh;
    __device__ __forceinline__ void load(const uint32_t *__restrict__ B, int y, int st)
    {
        const int p = st + 32, q = p >> 5;
        e0 = B[5 * q + y];
        e1 = B[5 * q + 5 + y];
        b0 = B[5 * q + 4];
        b1 = B[5 * q + 9];
        sh = p & 31;
    }
    __device__ __forceinline__ uint32_t eq() const { return __funnelshift_r(e0, e1, (unsigned)sh); }
    __device__ __forceinline__ uint32_t base() const { return __funnelshift_r(b0, b1, (unsigned)sh); }
};

/* The guide: the chain's hits, in increasing order, as (pa, pb) into
 * cha[] / chb[] (the window index pb / STRIDE); returns its length.
 * U: a's unique words (word << 32 | pos), nu of them; S: b's windows at
 * multiples of STRIDE (word << 32 | start), ns of them; both sorted. */
__device__ __forceinline__ int guide(const uint64_t *__restrict__ U, int nu, const uint64_t *__restrict__ S, int ns,
                                     int nb, int16_t *hit, int16_t *prev, int16_t *tail)
{
    const int nwin = nb >= K ? (nb - K) / STRIDE + 1 : 0;
    for (int w = 0; w < nwin; w++) hit[w] = -1;
    /* the merge as one flat loop, a step a word of either list (a's word
     * below b's: a's next; else b's window, a hit when equal, then b's
     * next), one load a step: the threads of a warp (their a is mostly one
     * sequence) take about as many steps, where a loop over b's windows
     * with an inner loop over a's words kept 8 of 32 threads active */
    if (nu > 0 && ns > 0) {
        int u = 0, s = 0;
        uint64_t uv = U[0], sv = S[0];
        for (;;) {
            const uint32_t uw = (uint32_t)(uv >> 32), sw = (uint32_t)(sv >> 32);
            if (uw == sw) hit[(uint32_t)sv / STRIDE] = (int16_t)(uint32_t)uv;
            const bool au = uw < sw;
            if (au ? u + 1 == nu : s + 1 == ns) break;
            u += au;
            s += !au;
            const uint64_t v = au ? U[u] : S[s];
            uv = au ? v : uv;
            sv = au ? sv : v;
        }
    }
    int L = 0;
    for (int w = 0; w < nwin; w++) {
        const int pa = hit[w];
        if (pa < 0) continue;
        int lo;
        if (L == 0 || hit[tail[L - 1]] < pa)
            lo = L; /* the usual case: the chain grows at its end */
        else {
            int l = 0, h = L;
            while (l < h) {
                const int md = (l + h) / 2;
                if (hit[tail[md]] < pa)
                    l = md + 1;
                else
                    h = md;
            }
            lo = l;
        }
        prev[w] = (int16_t)(lo ? tail[lo - 1] : -1);
        tail[lo] = (int16_t)w;
        if (lo == L) L++;
    }
    /* the chain from its end; tail[] is free once its last entry is read:
     * the chain's window indices go to tail[0 .. L) in increasing order */
    int x = L ? tail[L - 1] : -1;
    for (int k = L - 1; k >= 0; k--) {
        tail[k] = (int16_t)x;
        x = prev[x];
    }
    return L;
}

/* The centres cen[r] along the points (0, 0), the chain, (na, nb): a
 * segment r0 < r <= r1 at a time, cen = c0 + floor((r - r0)(c1 - c0) /
 * (r1 - r0)) as a quotient and a remainder stepped by one row. */
struct centres {
    const int16_t *hit, *chain;
    int L, k, na, nb;
    int r1, c1, q, rem, qs, rs, den;

    __device__ __forceinline__ void segment(int r0, int c0)
    {
        /* the next point after (r0, c0) with a row > r0 (a hit's row is
         * below na, and the rows increase along the chain) */
        if (k < L) {
            r1 = hit[chain[k]];
            c1 = chain[k] * STRIDE;
            k++;
        } else {
            r1 = na;
            c1 = nb;
            k = L + 1;
        }
        den = r1 - r0;
        q = c0;
        rem = 0;
        /* (c1 - c0) / den and % den; the chain's segments are mostly a
         * window's stride in both, a slope below 2: no division there */
        const int num = c1 - c0;
        if (den <= 0) {
            qs = 0;
            rs = 0;
        } else if (num >= 0 && num < den) {
            qs = 0;
            rs = num;
        } else if (num >= den && num - den < den) {
            qs = 1;
            rs = num - den;
        } else {
            qs = num / den;
            rs = num % den;
        }
    }
    __device__ __forceinline__ void start(const int16_t *h, const int16_t *ch, int l, int m, int n)
    {
        hit = h;
        chain = ch;
        L = l;
        k = 0;
        na = m;
        nb = n;
        r1 = 0;
        c1 = 0;
        segment(0, 0);
    }
    /* cen[r] for r = previous r + 1 (the first call r = 1) */
    __device__ __forceinline__ int next(int r)
    {
        while (r > r1) segment(r1, c1);
        q += qs;
        rem += rs;
        if (rem >= den) {
            rem -= den;
            q++;
        }
        return q;
    }
};

/* SG, lib/prune_ed.c's mnw_ped_band (32 cells a row) on the centres; bb
 * is b's bitmaps (bwin): a row's substitution scores come from two
 * 32-bit windows, the columns where b's code equals a's base and those
 * where it is a base (or outside b: gpu_ptab.c sets row 4's padding).
 *
 * Every row takes one of two cell loops, the same for the whole warp (a
 * vote): the fast cell (five instructions on sm_90: a bit test, a select,
 * an add, a max, an add-max) where each column of the window is a base of
 * b or outside b (or a's code is not a base: 0 everywhere), the general
 * cell (the three scores) where some thread's window holds a code of b
 * that is not a base. Neither treats the band's ends apart; the values
 * are the reference's where it matters, because:
 *   - columns < 0: their cells start at NEG and only decrease (outside b
 *     the match bits are 0, so a cell's score there is <= 0); column 0
 *     then computes max(NEG - x, -g (r - 1) - g, NEG - y) = -g r, the
 *     reference's exact value (the previous row's column 0 is either
 *     computed or, where the shift brings it in at P[0], set below);
 *   - columns > nb: computed like any other, never read by a column <= nb
 *     (a cell reads its left, upper and upper-left neighbours), and left
 *     out of the last row's maximum. Their values stay between a real
 *     cell's minus 32 g and a real cell's: no overflow;
 *   - column nb: the reference also carries column nb's value down the
 *     rows before the band reaches it (the path along row 0, then down
 *     column nb) and takes the larger of it and the band's value above.
 *     Dropped here: the centres never pass nb and never decrease, so once
 *     column nb enters the window it stays to the last row, where every
 *     value that the carried path gave (or gave to the cells below it) is
 *     -g (nb + r) - g (na - r) = -g (na + nb), the all-gap score SG is
 *     never below (the return). So SG is the reference's bit for bit.
 * Unreachable cells are not clamped at NEG (the reference's clamp): every
 * reachable value is above -2 x 10^7, every unreachable one below -5 x
 * 10^8, so the best, a reachable value, is the reference's. */
__device__ __forceinline__ int32_t band(const uint8_t *__restrict__ a, int na, const uint32_t *__restrict__ bb,
                                        int nb, centres &cs, int ms, int mm, int g)
{
    const int allgap = -g * (na + nb);
    if (na == 0 || nb == 0) return allgap;
    int P[BW + 1];
    int cen = cs.next(1);
    /* row 0, every column, aligned to row 1: P[k] = column cen - 17 + k */
#pragma unroll
    for (int k = 0; k <= BW; k++) {
        const int c = cen - WL - 1 + k;
        P[k] = (c >= 0 && c <= nb) ? -g * c : NEG;
    }
    int best = allgap;
    /* row r's code of a and b's words for it, loaded a row ahead (a code
     * that is not a base loads base 0's words, unused) */
    int x = a[0];
    bwin wn;
    wn.load(bb, x < 4 ? x : 0, cen - WL - 1);
    for (int r = 1; r <= na; r++) {
        const int c0 = cen - WL; /* slot k is column c0 + k, code b[c0 + k - 1] */
        const uint32_t eqw = x < 4 ? wn.eq() : 0u, basew = x < 4 ? wn.base() : 0u;
        /* the next row's centre, code and words, before this row's cells */
        int cn = cen, xn = 0;
        if (r < na) {
            cn = cs.next(r + 1);
            xn = a[r];
            wn.load(bb, xn < 4 ? xn : 0, cn - WL - 1);
        }
        int left = c0 - 1 == 0 ? -g * r : NEG;
        if (__all_sync(__activemask(), x >= 4 || basew == ~0u)) {
            const int sE = x < 4 ? ms : 0, sX = x < 4 ? mm : 0;
#pragma unroll
            for (int k = 0; k < BW; k++) {
                const int d = P[k] + ((eqw >> k & 1) ? sE : sX);
                const int h = addmax(imax(P[k + 1], left), -g, d); /* max(P[k] + s, P[k + 1] - g, left - g) */
                P[k] = h; /* P[k] is not read again this row; P[k + 1] still is */
                left = h;
            }
        } else {
#pragma unroll
            for (int k = 0; k < BW; k++) {
                const int s = (eqw >> k & 1) ? ms : ((basew >> k & 1) ? mm : 0);
                const int h = max3(P[k] + s, P[k + 1] - g, left - g);
                P[k] = h;
                left = h;
            }
        }
        if (r == na) {
#pragma unroll
            for (int k = 0; k < BW; k++) {
                const int c = c0 + k;
                if (c >= 1 && c <= nb && P[k] - g * (nb - c) > best) best = P[k] - g * (nb - c);
            }
            break;
        }
        /* the next row: P'[k] = this row at column cn - 17 + k = P[k - 1 +
         * sh]; sh = 1 (the diagonal) moves nothing */
        const int sh = cn - cen;
        P[BW] = NEG;
        if (sh == 0) {
#pragma unroll
            for (int k = BW; k > 0; k--) P[k] = P[k - 1];
            P[0] = NEG;
        } else if (sh > 1) { /* by sh - 1, in steps of 1, 2, 4, .. 32 (no loop: P stays in registers) */
            const int m = sh - 1 > BW + 1 ? BW + 1 : sh - 1;
#pragma unroll
            for (int st = 1; st <= 32; st *= 2)
                if (m & st) {
#pragma unroll
                    for (int k = 0; k <= BW; k++) P[k] = k + st <= BW ? P[k + st] : NEG;
                }
        }
        if (cn - WL - 1 == 0) P[0] = -g * r; /* column 0 at P[0]: its exact value */
        cen = cn;
        x = xn;
    }
    return best > allgap ? best : allgap;
}

/* Ukkonen's band for tau (workers/cpu/prune_ed_cpu.c): rows i of a (the
 * pattern) with i - j in [lo, hi] at column j of b, lo = min(0, d) - e, hi
 * = max(0, d) + e, d = na - nb, e = floor((tau - |d|) / 2) (0 when
 * negative); tau < 0: the whole matrix. Its rows: hi - lo + 1. */
struct ukk {
    int lo, hi;
    int64_t rows;
};

__device__ __forceinline__ ukk ukk_band(int na, int nb, int64_t tau)
{
    const int64_t d = (int64_t)na - nb, ad = d < 0 ? -d : d;
    int64_t e = tau >= 0 ? tau - ad : INT64_MAX / 4;
    if (e < 0) e = 0;
    e /= 2;
    if (e > (int64_t)na + nb) e = (int64_t)na + nb;
    ukk u;
    u.lo = (int)((d < 0 ? d : 0) - e);
    u.hi = (int)((d > 0 ? d : 0) + e);
    u.rows = ad + 2 * e + 1;
    return u;
}

/* The words of Ukkonen's band at column j (0-based) of b: wlo .. whi of
 * a's W words. */
__device__ __forceinline__ void band_words(const ukk &u, int j, int W, int *wlo, int *whi)
{
    const int lo = j + 1 + u.lo, hi = j + 1 + u.hi;
    int l = lo <= 1 ? 0 : (lo - 1) / 32, h = hi <= 1 ? 0 : (hi - 1) / 32;
    if (h > W - 1) h = W - 1;
    if (l > h) l = h;
    *wlo = l;
    *whi = h;
}

/* The pattern bits of word x for b's code c: where a's base set meets
 * c's (one row for a base, the union of its bases' rows for a code >= 4). */
__device__ __forceinline__ uint32_t eq_word(const uint32_t *__restrict__ peq, int x, int c)
{
    if (c < 4) return peq[x * 4 + c];
    const uint32_t bs = bases(c);
    uint32_t E = 0;
    for (int y = 0; y < 4; y++)
        if (bs >> y & 1) E |= peq[x * 4 + y];
    return E;
}

/* One word of Myers' step: the word's vertical deltas (pv, mv) for the new
 * column, the horizontal carry (hp, hm) passed down; *ph, *mh the word's
 * horizontal deltas before the shift (its last row's is bit 31, or the
 * row's own bit in the last word). */
__device__ __forceinline__ void myers_word(uint32_t E, uint32_t &pv, uint32_t &mv, uint32_t &hp, uint32_t &hm,
                                           uint32_t *ph, uint32_t *mh)
{
    const uint32_t Pv = pv, Mv = mv;
    const uint32_t Xv = E | Mv, Eq = E | hm;
    const uint32_t Xh = (((Eq & Pv) + Pv) ^ Pv) | Eq;
    const uint32_t Ph = Mv | ~(Xh | Pv), Mh = Pv & Xh;
    *ph = Ph;
    *mh = Mh;
    const uint32_t sp = (Ph << 1) | hp, sm = (Mh << 1) | hm;
    hp = Ph >> 31;
    hm = Mh >> 31;
    pv = sm | ~(Xv | sp);
    mv = sp & Xv;
}

/* ED(a, b) with a the pattern (its base rows peq: word x of row y at x * 4 + y) and b
 * the text; tau < 0: exact, else exact where <= tau, > tau where not. */
__device__ __forceinline__ int32_t ed(const uint32_t *__restrict__ peq, int na, const uint8_t *__restrict__ b, int nb,
                                      int64_t tau, uint32_t *pv, uint32_t *mv)
{
    if (na == 0) return nb;
    if (nb == 0) return na;
    const int W = (na + 31) / 32;
    const ukk u = ukk_band(na, nb, tau);
    for (int x = 0; x < W; x++) {
        pv[x] = ~0u;
        mv[x] = 0;
    }
    const uint32_t top = 1u << ((na - 1) % 32);
    int32_t score = na;
    for (int j = 0; j < nb; j++) {
        int wlo, whi;
        band_words(u, j, W, &wlo, &whi);
        const int c = b[j];
        uint32_t hp = 1, hm = 0, ph = 0, mh = 0; /* the top row's delta: +1 */
        for (int x = wlo; x <= whi; x++) myers_word(eq_word(peq, x, c), pv[x], mv[x], hp, hm, &ph, &mh);
        const uint32_t bit = whi == W - 1 ? top : 0x80000000u; /* row na, or the last computed row */
        score += (ph & bit) != 0;
        score -= (mh & bit) != 0;
    }
    return score;
}

constexpr int TPB = 128; /* threads a block (gpu_kernels.cu launches with it) */

/* The same ED with the band's words in registers: a window of NBW words
 * that slides down with the band (its first word rises by at most one a
 * column; a word entering at the bottom is in its column-0 state, as the
 * words below the band are in ed()), for bands of at most 32 (NBW - 1)
 * rows (ukk_band); the same values word for word as ed(). Two windows: 16
 * words (bands of up to 480 rows, most pairs at 0.10) and 32 (992). */
constexpr int NBW1 = 16, NBW2 = 32;

template <int NBW>
__device__ __forceinline__ int32_t ed_reg(const uint32_t *__restrict__ peq, int na, const uint8_t *__restrict__ b,
                                          int nb, int64_t tau)
{
    if (na == 0) return nb;
    if (nb == 0) return na;
    const int W = (na + 31) / 32;
    const ukk u = ukk_band(na, nb, tau);
    uint32_t pv[NBW], mv[NBW];
#pragma unroll
    for (int s = 0; s < NBW; s++) {
        pv[s] = ~0u;
        mv[s] = 0;
    }
    const uint32_t top = 1u << ((na - 1) % 32);
    int32_t score = na;
    int wb = 0; /* the window's first word */
    for (int j = 0; j < nb; j++) {
        int wlo, whi;
        band_words(u, j, W, &wlo, &whi);
        if (wb < wlo) { /* the band's first word rose (by one): the window slides */
#pragma unroll
            for (int s = 0; s < NBW - 1; s++) {
                pv[s] = pv[s + 1];
                mv[s] = mv[s + 1];
            }
            pv[NBW - 1] = ~0u;
            mv[NBW - 1] = 0;
            wb++;
        }
        const int nact = whi - wb + 1;
        const int c = b[j];
        uint32_t hp = 1, hm = 0, ph = 0, mh = 0;
#pragma unroll
        for (int s = 0; s < NBW; s++)
            if (s < nact) myers_word(eq_word(peq, wb + s, c), pv[s], mv[s], hp, hm, &ph, &mh);
        const uint32_t bit = whi == W - 1 ? top : 0x80000000u; /* row na, or the last computed row */
        score += (ph & bit) != 0;
        score -= (mh & bit) != 0;
    }
    return score;
}

/* lib/prune.c's mnw_prune_ed_tau */
__device__ __forceinline__ int64_t tau_of(const mnw_gpu_kprune &p, int64_t sg, int64_t amb, int na, int nb)
{
    const int64_t lmin = na < nb ? na : nb, Kd = p.Dd - p.Dn;
    if (p.ed_len) return p.Dn * lmin / Kd;
    const int64_t c2 = (int64_t)p.ms * ((int64_t)na + nb) - 2 * sg;
    const int64_t num = (c2 + p.ed_gamma * amb) * Kd + p.ed_alpha * p.Dn * lmin, den = p.ed_cg * Kd;
    return num >= 0 ? num / den : -((-num + den - 1) / den);
}

/* SG (or NONE with the length-alone bound) and tau of pair (i, j). */
__device__ __forceinline__ int64_t sg_tau(const mnw_gpu_pseq &A, const mnw_gpu_pseq &B,
                                          const uint64_t *__restrict__ guides, const uint8_t *__restrict__ codes,
                                          const uint32_t *__restrict__ bmaps, const mnw_gpu_kprune &p,
                                          int32_t *sg_out)
{
    int16_t hit[NWIN], prev[NWIN], tail[NWIN];
    const int na = A.len, nb = B.len;
    int32_t sg = NONE;
    if (!p.ed_len) {
        const int L = guide(guides + A.uoff, A.nu, guides + B.soff, B.ns, nb, hit, prev, tail);
        centres cs;
        cs.start(hit, tail, L, na, nb);
        sg = band(codes + A.code, na, bmaps + B.boff, nb, cs, p.ms, p.mm, p.band_gap);
    }
    *sg_out = sg;
    return tau_of(p, sg, (int64_t)A.amb + B.amb, na, nb);
}

/* FULL (tests): every figure of every pair, the exact ED; figs[x] gains
 * sg, ed, tau and the decision, out[x] = 2 where stage 2 prunes a pair
 * stage 1 kept. */
__global__ void __launch_bounds__(TPB) prune_ed_full(const uint2 *__restrict__ pairs, int np,
                                                     const mnw_gpu_pseq *__restrict__ ps,
                                                     const uint64_t *__restrict__ guides,
                                                     const uint32_t *__restrict__ peqs,
                                                     const uint8_t *__restrict__ codes, mnw_gpu_kprune p, uint8_t *out,
                                                     mnw_gpu_kpfig *figs)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (x >= np) return;
    uint32_t pv[NWORD], mv[NWORD];
    const uint2 pr = pairs[x];
    const mnw_gpu_pseq A = ps[pr.x], B = ps[pr.y];
    int32_t sg;
    const int64_t tau = sg_tau(A, B, guides, codes, peqs, p, &sg);
    const int32_t dist = ed(peqs + A.eoff, A.len, codes + B.code, B.len, -1, pv, mv);
    mnw_gpu_kpfig *f = &figs[x];
    f->sg = sg;
    f->ed = dist;
    f->tau = tau;
    if (dist > tau) {
        f->pruned = 1;
        if (!out[x]) out[x] = 2;
    }
}

/* The quick path: three kernels after stage 1 on the filter's stream (the
 * counters zeroed before), each launched with a thread for every pair of
 * the batch (those past the count return at once).
 * compact: list[cnt[0]++] = x for every pair stage 1 kept (out[x] = 0), so
 *   that stage 2's warps are full where stage 1 pruned most pairs; */
__global__ void __launch_bounds__(TPB) compact(const uint8_t *__restrict__ out, int np, uint32_t *list, uint32_t *cnt)
{
    const int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (x < np && !out[x]) list[atomicAdd(&cnt[0], 1u)] = (uint32_t)x;
}

/* bands: the guide, SG and tau of each listed pair; where the lengths
 * decide (|na - nb| > tau prunes, tau >= max(na, nb) keeps) that is the
 * decision, else the pair goes with taus[x] = tau to list2 from its start
 * (cnt[1] of them) when its band fits NBW1 words, from its end (cnt[2] of
 * them at list2[np - cnt[2] ..]) when it fits NBW2, else to list3
 * (cnt[3]); */
/* (5 blocks an SM: at most 102 registers, 96 with 52 bytes spilled at
 * step 7 and 16 since step 8, where the compiler would take 128 and leave
 * room for 4: 12.1 against 11.8 M pairs/s at 0.10, H200) */
__global__ void __launch_bounds__(TPB, 5) bands(const uint2 *__restrict__ pairs, const mnw_gpu_pseq *__restrict__ ps,
                                             const uint64_t *__restrict__ guides, const uint32_t *__restrict__ peqs,
                                             const uint8_t *__restrict__ codes,
                                             mnw_gpu_kprune p, uint8_t *out, const uint32_t *__restrict__ list,
                                             uint32_t *cnt, uint32_t *list2, uint32_t *list3, int32_t *taus,
                                             int np)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= cnt[0]) return;
    const uint32_t x = list[t];
    const uint2 pr = pairs[x];
    const mnw_gpu_pseq A = ps[pr.x], B = ps[pr.y];
    int32_t sg;
    const int64_t tau = sg_tau(A, B, guides, codes, peqs, p, &sg);
    const int na = A.len, nb = B.len, lo = na > nb ? na - nb : nb - na, hi = na > nb ? na : nb;
    if (lo > tau)
        out[x] = 2;
    else if (tau < hi) {
        taus[x] = (int32_t)tau; /* lo <= tau < hi */
        const int64_t rows = ukk_band(na, nb, tau).rows;
        if (rows <= 32 * (NBW1 - 1))
            list2[atomicAdd(&cnt[1], 1u)] = x;
        else if (rows <= 32 * (NBW2 - 1))
            list2[np - 1 - (int)atomicAdd(&cnt[2], 1u)] = x;
        else
            list3[atomicAdd(&cnt[3], 1u)] = x;
    }
}

/* eds_reg<1>: ED banded by tau in NBW1 registers for list2[0 .. cnt[1]);
 * eds_reg<2>: in NBW2 for list2[np - cnt[2] .. np); eds_wide: list3[0 ..
 * cnt[3]) (bands of more than 992 rows, a few pairs of very different
 * lengths or a weak band score) with ed()'s vectors in local memory;
 * out[x] = 2 where ED > tau. */
template <int K>
__global__ void __launch_bounds__(TPB) eds_reg(const uint2 *__restrict__ pairs, const mnw_gpu_pseq *__restrict__ ps,
                                               const uint32_t *__restrict__ peqs, const uint8_t *__restrict__ codes,
                                               uint8_t *out, const uint32_t *__restrict__ list2, const uint32_t *cnt,
                                               const int32_t *__restrict__ taus, int np)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= cnt[K]) return;
    const uint32_t x = K == 1 ? list2[t] : list2[np - 1 - (int)t];
    const uint2 pr = pairs[x];
    const mnw_gpu_pseq A = ps[pr.x], B = ps[pr.y];
    const int64_t tau = taus[x];
    const int32_t dist = K == 1 ? ed_reg<NBW1>(peqs + A.eoff, A.len, codes + B.code, B.len, tau)
                                : ed_reg<NBW2>(peqs + A.eoff, A.len, codes + B.code, B.len, tau);
    if (dist > tau) out[x] = 2;
}

__global__ void __launch_bounds__(TPB) eds_wide(const uint2 *__restrict__ pairs, const mnw_gpu_pseq *__restrict__ ps,
                                                const uint32_t *__restrict__ peqs, const uint8_t *__restrict__ codes,
                                                uint8_t *out, const uint32_t *__restrict__ list3, const uint32_t *cnt,
                                                const int32_t *__restrict__ taus)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= cnt[3]) return;
    const uint32_t x = list3[t];
    const uint2 pr = pairs[x];
    const mnw_gpu_pseq A = ps[pr.x], B = ps[pr.y];
    const int64_t tau = taus[x];
    uint32_t pv[NWORD], mv[NWORD];
    if (ed(peqs + A.eoff, A.len, codes + B.code, B.len, tau, pv, mv) > tau) out[x] = 2;
}

} // namespace mnw_ge

#endif
