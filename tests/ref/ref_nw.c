/* ref_nw.c - see ref_nw.h. Plain on purpose: no SIMD, no banding, no tricks. */
#include "tests/ref/ref_nw.h"

#include <stdlib.h>

#include "lib/util.h"

#define NEG (INT64_MIN / 4)

void ref_nw(const mnw_scoring *sc, const uint8_t *a, int m, const uint8_t *b, int n, mnw_aln *out)
{
    size_t w = (size_t)n + 1;
    int64_t *H = mnw_xmalloc((size_t)(m + 1) * w * sizeof *H);
    int64_t *E = mnw_xmalloc((size_t)(m + 1) * w * sizeof *E);
    int64_t *F = mnw_xmalloc((size_t)(m + 1) * w * sizeof *F);
#define AT(M, r, c) M[(size_t)(r)*w + (size_t)(c)]
    int64_t go = sc->gap_open, ge = sc->gap_extend;
    /* end gaps (sc->end_gaps): the last column's vertical and the last row's
     * horizontal gaps are terminal; row 0 and column 0 too (mnw_endcost) */
    const int eg = sc->end_gaps;
    const int64_t eo = sc->end_open, ee = sc->end_extend;
#define GO_V(c) (eg && (c) == n ? eo : go)
#define GE_V(c) (eg && (c) == n ? ee : ge)
#define GO_H(r) (eg && (r) == m ? eo : go)
#define GE_H(r) (eg && (r) == m ? ee : ge)
    for (int r = 0; r <= m; r++) {
        AT(H, r, 0) = -mnw_endcost(sc, r);
        AT(E, r, 0) = NEG;
        AT(F, r, 0) = NEG;
    }
    for (int c = 0; c <= n; c++) {
        AT(H, 0, c) = -mnw_endcost(sc, c);
        AT(E, 0, c) = NEG;
        AT(F, 0, c) = NEG;
    }
    for (int r = 1; r <= m; r++) {
        for (int c = 1; c <= n; c++) {
            int64_t e_open = AT(H, r - 1, c) - GO_V(c), e_ext = AT(E, r - 1, c) - GE_V(c);
            int64_t f_open = AT(H, r, c - 1) - GO_H(r), f_ext = AT(F, r, c - 1) - GE_H(r);
            int64_t e = e_open > e_ext ? e_open : e_ext;
            int64_t f = f_open > f_ext ? f_open : f_ext;
            int64_t d = AT(H, r - 1, c - 1) + mnw_sub(sc, a[r - 1], b[c - 1]);
            int64_t h = d;
            if (e > h) h = e;
            if (f > h) h = f;
            AT(E, r, c) = e;
            AT(F, r, c) = f;
            AT(H, r, c) = h;
        }
    }
    /* End cell: (m, n); with free end gaps the best cell of the last row
     * (ties: largest column) or, if strictly better, of the last column
     * (ties: largest row). mothur's tie rule: the last column's unless the
     * last row's is strictly better. */
    const int mothur = sc->tie == MNW_TIE_MOTHUR, needle = sc->tie == MNW_TIE_NEEDLE;
    int re = m, ce = n;
    int64_t best = AT(H, m, n);
    int force = 0; /* needle: the end cell's step (0 its own rule, 1 diagonal, 2 I, 3 D) */
    if (needle && m > 0 && n > 0) {
        /* needle (score.h MNW_TIE_NEEDLE): the corner's diagonal value if
         * no worse than the other two; else the last row's (its leftmost
         * best, 0 standing for the empty alignment at column 0) if no worse
         * than the last column's (its topmost best, 0 at row 0). A trailing
         * gap opens only from an aligned column: the diagonal values D. The
         * end cell's step: needle's walk compares D there with the gap into
         * it, I in the last row, D in the last column. */
#define DV(r, c) (AT(H, (r) - 1, (c) - 1) + mnw_sub(sc, a[(r) - 1], b[(c) - 1]))
        int rb = 0, cb = 0;
        int64_t rv = 0, cv = 0;
        for (int c = 1; c < n; c++)
            if (DV(m, c) > rv) {
                rv = DV(m, c);
                rb = c;
            }
        for (int r = 1; r < m; r++)
            if (DV(r, n) > cv) {
                cv = DV(r, n);
                cb = r;
            }
        const int64_t corner = DV(m, n);
        if (corner >= rv && corner >= cv) {
            best = corner;
            force = 1;
        } else if (rv >= cv) {
            ce = rb;
            best = rv;
            force = rb == 0 ? 0 : DV(m, rb) >= AT(E, m, rb) ? 1 : 2;
        } else {
            re = cb;
            best = cv;
            force = cb == 0 ? 0 : DV(cb, n) >= AT(F, cb, n) ? 1 : 3;
        }
#undef DV
    } else if (sc->free_ends) {
        int bc = 0, br = 0;
        for (int c = 0; c <= n; c++)
            if (AT(H, m, c) >= AT(H, m, bc)) bc = c;
        for (int r = 0; r <= m; r++)
            if (AT(H, r, n) >= AT(H, br, n)) br = r;
        if (mothur ? AT(H, m, bc) > AT(H, br, n) : AT(H, m, bc) >= AT(H, br, n)) {
            re = m;
            ce = bc;
        } else {
            re = br;
            ce = n;
        }
        best = AT(H, re, ce);
    }
    mnw_aln_clear(out);
    out->score = (int32_t)best;
    /* trailing overhang, then the trace-back proper; built end first */
    mnw_aln_push(out, MNW_OP_I, (uint32_t)(m - re));
    mnw_aln_push(out, MNW_OP_D, (uint32_t)(n - ce));
    enum { SH, SE, SF } st = force == 2 ? SE : force == 3 ? SF : SH;
    int r = re, c = ce;
    while (r > 0 && c > 0) {
        if (st == SH) {
            int64_t d = AT(H, r - 1, c - 1) + mnw_sub(sc, a[r - 1], b[c - 1]);
            if (AT(H, r, c) == d || force == 1) {
                force = 0;
                int same = a[r - 1] == b[c - 1] && mnw_code_is_base(a[r - 1]);
                mnw_aln_push(out, same ? MNW_OP_EQ : MNW_OP_X, 1);
                r--;
                c--;
                continue;
            }
            /* mnw: I before D; mothur and needle: D before I */
            if (mothur || needle) st = AT(H, r, c) == AT(F, r, c) ? SF : SE;
            else st = AT(H, r, c) == AT(E, r, c) ? SE : SF;
        }
        if (st == SE) {
            /* a gap opens on a tie; needle's extends */
            int64_t x = AT(E, r - 1, c) - GE_V(c), o = AT(H, r - 1, c) - GO_V(c);
            int ext = needle ? x >= o : x > o;
            mnw_aln_push(out, MNW_OP_I, 1);
            r--;
            st = ext ? SE : SH;
        } else {
            int64_t x = AT(F, r, c - 1) - GE_H(r), o = AT(H, r, c - 1) - GO_H(r);
            int ext = needle ? x >= o : x > o;
            mnw_aln_push(out, MNW_OP_D, 1);
            c--;
            st = ext ? SF : SH;
        }
    }
    mnw_aln_push(out, MNW_OP_I, (uint32_t)r);
    mnw_aln_push(out, MNW_OP_D, (uint32_t)c);
    mnw_aln_reverse(out);
#undef AT
#undef GO_V
#undef GE_V
#undef GO_H
#undef GE_H
    free(H);
    free(E);
    free(F);
}
