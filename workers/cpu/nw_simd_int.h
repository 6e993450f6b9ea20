/* nw_simd_int.h - the CPU kernel, written once and instantiated per instruction
 * set and score width by nw_avx512.c, nw_avx2.c and nw_sse41.c (they define
 * the V_* macros below and include this file). Private to workers/cpu.
 *
 * Layout: one query q (rows r = 1..m) against LANES targets (columns
 * c = 1..n_l, one target per lane). The DP walks row by row; a row holds one
 * vector per column. Lanes whose target is shorter than the longest compute
 * padding columns past their end; those never feed a cell at or before the
 * lane's own last column, so results are exact.
 *
 * Direction bits (docs/SCORING.md): for each cell vector one DIR_T word
 * (32 bits; 64 for 32 lanes) holding two bits per lane, A and B, packed by
 * V_DIRBITS and found again at
 * V_POS_A(lane) / V_POS_B(lane):
 *   linear: A = H came from the diagonal; B = the left gap (D) is strictly
 *           better than the upper one (I), so without A: B ? D : I;
 *           under mothur's tie rule (sc->tie) B = the upper gap is strictly
 *           better than the left one, so without A: B ? I : D (the view's
 *           b_up), and the last column's end cell wins a tie
 *   affine: word 0: A = H equals the diagonal, B = H equals E (I) (mothur's
 *           and vsearch's rule: B = H equals F (D), the view's b_up);
 *           word 1: A = E extended (strictly better than opening), B = F
 *           extended
 * These are the bits of workers/tb/trace.h; its mnw_dirview describes this
 * layout (lane l: a_bit = V_POS_A(l), b_bit = V_POS_B(l), ext_bit = one
 * DIR_T word), and mnw_tb_trace, the one trace-back, walks them.
 *
 * Two entry points per variant: V_NAME_dirs computes the direction bits into
 * the caller's buffer (mnw_nw_dir_bytes) and fills, per lane, the view, the
 * end cell (chosen here with free end gaps: it needs the H values) and the
 * score; V_NAME does that into the workspace and traces every lane (or, in
 * counts mode, ws->figs set, counts each lane's figures: mnw_tb_finish).
 *
 * Required macros: V_NAME (function name), V_T (vector type), S_T (lane score
 * type), LANES, DIR_T, V_DIRBITS(maskA, maskB) -> DIR_T, V_POS_A(l), V_POS_B(l),
 * V_NEG (the -inf sentinel), V_SET1, V_ADD (saturating for 16 bit), V_MAX,
 * V_CMPEQ, V_CMPGT, V_LOAD, V_STORE (aligned).
 */

/* The body, for one tie rule and with or without terminal gap penalties
 * (constants in each of the copies V_NAME_dirs makes, so they cost nothing
 * per cell where they are off). V_BGT(left, up): the linear B bit.
 * End gaps (endg, sc->end_gaps): row 0 and column 0 hold mnw_endcost; a
 * vertical gap in a lane's last column takes the end penalties (per-column
 * vectors vgoc, vgec: each lane's own last column), a horizontal gap in the
 * last row too (that row's vgoh, vgeh). V_GOV(c), V_GEV(c): the vertical
 * gap's open / extend addend at column c. */
#define V_BGT(left, up) (tie ? V_CMPGT((up), (left)) : V_CMPGT((left), (up)))
/* an extension bit: strictly better than opening; needle's rule: at least as good (x + 1 > o) */
#define V_EXT(x, o) (nd ? V_CMPGT(V_ADD((x), vone), (o)) : V_CMPGT((x), (o)))
#define V_GOV(c) (endg ? V_LOAD(&vgoc[c]) : vgo)
#define V_GEV(c) (endg ? V_LOAD(&vgec[c]) : vge)
static inline __attribute__((always_inline)) void MNW_CAT(V_NAME, _dirs_tie)(
    struct mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m, const uint8_t *const *t, const int *n,
    int count, void *dirbuf, mnw_tb_end *ends, const int tie, const int endg)
{
    int nl[LANES];
    int maxn = 0;
    for (int l = 0; l < LANES; l++) {
        nl[l] = l < count ? n[l] : 0;
        if (nl[l] > maxn) maxn = nl[l];
    }
    const int affine = mnw_scoring_affine(sc);
    const int fe = sc->free_ends;
    const size_t W = (size_t)maxn + 1; /* vectors per row, column 0 included */

    /* Which codes occur in the query: one profile row per code present. */
    int slot[MNW_NCODES];
    int nslot = 0;
    for (int k = 0; k < MNW_NCODES; k++) slot[k] = -1;
    for (int r = 0; r < m; r++)
        if (slot[q[r]] < 0) slot[q[r]] = nslot++;

    /* needle's rule (tie 2, score.h MNW_TIE_NEEDLE): the diagonal values
     * and left gaps at the lanes' last columns, and the last row's
     * diagonal values, are kept (drow, frow; drow1, frow1 for the first
     * row of a two-row pass) for the end cell */
    const int nd = tie == 2;
    size_t rows_need = (3 + (endg ? 2u : 0u) + (nd ? 4u : 0u) + (size_t)nslot) * W * sizeof(V_T) + W;
    mnw_ws_reserve(&ws->rows, &ws->rows_bytes, rows_need);
    V_T *hrow = (V_T *)ws->rows;
    V_T *erow = hrow + W;
    V_T *row1 = erow + W; /* free end gaps, two rows per pass: row r0's H at last columns */
    V_T *vgoc = row1 + W, *vgec = vgoc + (endg ? W : 0); /* end gaps: the vertical gaps' addends per column */
    V_T *frow = vgec + (endg ? W : 0), *drow = frow + (nd ? W : 0);
    V_T *frow1 = drow + (nd ? W : 0), *drow1 = frow1 + (nd ? W : 0);
    V_T *prof = drow1 + (nd ? W : 0);
    S_T *profs = (S_T *)prof;
    for (int k = 0; k < MNW_NCODES; k++) {
        if (slot[k] < 0) continue;
        S_T *p = profs + (size_t)slot[k] * W * LANES;
        for (int l = 0; l < LANES; l++) p[l] = 0;
        for (int l = 0; l < LANES; l++) {
            const uint8_t *tl = t[l < count ? l : 0];
            for (int c = 1; c <= nl[l]; c++) p[(size_t)c * LANES + l] = (S_T)mnw_sub(sc, (uint8_t)k, tl[c - 1]);
            for (int c = nl[l] + 1; c <= maxn; c++) p[(size_t)c * LANES + l] = 0;
        }
    }

    /* islast[c]: column c is some lane's last column (free end gaps) */
    uint8_t *islast = (uint8_t *)(prof + (size_t)nslot * W);
    if (fe) {
        memset(islast, 0, W);
        for (int l = 0; l < count; l++) islast[nl[l]] = 1;
    }
    DIR_T *dir = (DIR_T *)dirbuf;
    size_t lc_need = (size_t)LANES * ((size_t)m + 1) * (nd ? 2u : 1u); /* needle: the last column's F too */
    if (fe && ws->lastcol_n < lc_need) {
        free(ws->lastcol);
        ws->lastcol = mnw_xmalloc(lc_need * sizeof(int32_t));
        ws->lastcol_n = lc_need;
    }

    const S_T go = (S_T)sc->gap_open, ge = (S_T)sc->gap_extend;
    const V_T vgo = V_SET1((S_T)-go), vge = V_SET1((S_T)-ge);
    const V_T vneg = V_SET1((S_T)V_NEG);
    const V_T vone = V_SET1((S_T)1);
    /* end gaps: the last row's horizontal addends, each column's vertical ones */
    const V_T vgoe = V_SET1((S_T)-sc->end_open), vgee = V_SET1((S_T)-sc->end_extend);
    if (endg)
        for (int c = 0; c <= maxn; c++) {
            S_T *po = (S_T *)&vgoc[c], *pe = (S_T *)&vgec[c];
            for (int l = 0; l < LANES; l++) {
                const int last = l < count && c == nl[l];
                po[l] = (S_T)-(last ? sc->end_open : go);
                pe[l] = (S_T)-(last ? sc->end_extend : ge);
            }
        }
    /* row 0 */
    for (size_t c = 0; c <= (size_t)maxn; c++) {
        S_T h0 = (S_T)-mnw_endcost(sc, (int64_t)c);
        V_STORE(&hrow[c], V_SET1(h0));
        V_STORE(&erow[c], vneg);
    }
    if (fe)
        for (int l = 0; l < LANES; l++) ws->lastcol[(size_t)l * (m + 1)] = 0;

    int r0 = 1;
    if (!affine) { /* (needle's rule is affine: mnw_scoring_affine) */
        /* Linear gaps: two rows per pass, so row r's H stays in a register
         * for row r+1 and the H row is loaded and stored once per two rows.
         * Same recurrence and bits. With free end gaps row r's H is kept
         * (row1) at the columns where a lane's target ends. */
        for (; r0 + 1 <= m; r0 += 2) {
            const V_T *pr1 = prof + (size_t)slot[q[r0 - 1]] * W;
            const V_T *pr2 = prof + (size_t)slot[q[r0]] * W;
            V_T hdiag1 = V_LOAD(&hrow[0]);
            V_T hleft1 = V_SET1((S_T)-mnw_endcost(sc, r0));
            V_T hleft2 = V_SET1((S_T)-mnw_endcost(sc, r0 + 1));
            V_STORE(&hrow[0], hleft2);
            V_T hdiag2 = hleft1;
            /* row r0 < m: interior horizontal gaps; row r0 + 1 may be the last */
            const V_T vgoh2 = endg && r0 + 1 == m ? vgoe : vgo;
            V_T hg1 = V_ADD(hleft1, vgo), hg2 = V_ADD(hleft2, vgoh2);
            DIR_T *dr1 = dir + (size_t)(r0 - 1) * maxn;
            DIR_T *dr2 = dr1 + maxn;
            for (int c = 1; c <= maxn; c++) {
                V_T up1 = V_LOAD(&hrow[c]);
                V_T d1 = V_ADD(hdiag1, V_LOAD(&pr1[c]));
                V_T u1 = V_ADD(up1, V_GOV(c));
                V_T h1 = V_MAX(V_MAX(d1, u1), hg1);
                dr1[c - 1] = V_DIRBITS(V_CMPEQ(h1, d1), V_BGT(hg1, u1));
                if (fe && islast[c]) V_STORE(&row1[c], h1);
                hg1 = V_ADD(h1, vgo);       /* row r0's left gap at c + 1 */
                V_T u2 = V_ADD(h1, V_GOV(c)); /* row r0+1's upper gap (the same add without end gaps) */
                hdiag1 = up1;
                V_T d2 = V_ADD(hdiag2, V_LOAD(&pr2[c]));
                V_T h2 = V_MAX(V_MAX(d2, u2), hg2);
                dr2[c - 1] = V_DIRBITS(V_CMPEQ(h2, d2), V_BGT(hg2, u2));
                hg2 = V_ADD(h2, vgoh2);
                hdiag2 = h1;
                V_STORE(&hrow[c], h2);
            }
            if (fe) { /* H of both rows at each lane's last column */
                const S_T *h1s = (const S_T *)row1, *h2s = (const S_T *)hrow;
                for (int l = 0; l < count; l++) {
                    size_t at = (size_t)nl[l] * LANES + (size_t)l;
                    ws->lastcol[(size_t)l * (m + 1) + r0] = nl[l] ? h1s[at] : 0;
                    ws->lastcol[(size_t)l * (m + 1) + r0 + 1] = h2s[at];
                }
            }
        }
    }
    if (affine) {
        /* Affine gaps: two rows per pass as above; row r's H and E feed row
         * r+1 from registers. */
        for (; r0 + 1 <= m; r0 += 2) {
            const V_T *pr1 = prof + (size_t)slot[q[r0 - 1]] * W;
            const V_T *pr2 = prof + (size_t)slot[q[r0]] * W;
            V_T hdiag1 = V_LOAD(&hrow[0]);
            V_T hleft1 = V_SET1((S_T)-mnw_endcost(sc, r0));
            V_T hleft2 = V_SET1((S_T)-mnw_endcost(sc, r0 + 1));
            V_STORE(&hrow[0], hleft2);
            V_T hdiag2 = hleft1;
            const V_T vgoh2 = endg && r0 + 1 == m ? vgoe : vgo, vgeh2 = endg && r0 + 1 == m ? vgee : vge;
            const int lastr2 = r0 + 1 == m;
            V_T f1 = vneg, f2 = vneg;
            DIR_T *dr1 = dir + (size_t)(r0 - 1) * maxn * 2;
            DIR_T *dr2 = dr1 + (size_t)maxn * 2;
            for (int c = 1; c <= maxn; c++) {
                V_T up1 = V_LOAD(&hrow[c]);
                V_T eo1 = V_ADD(up1, V_GOV(c)), ex1 = V_ADD(V_LOAD(&erow[c]), V_GEV(c));
                V_T e1 = V_MAX(eo1, ex1);
                V_T fo1 = V_ADD(hleft1, vgo), fx1 = V_ADD(f1, vge);
                f1 = V_MAX(fo1, fx1);
                V_T d1 = V_ADD(hdiag1, V_LOAD(&pr1[c]));
                V_T h1 = V_MAX(V_MAX(d1, e1), f1);
                dr1[2 * (c - 1)] = V_DIRBITS(V_CMPEQ(h1, d1), tie ? V_CMPEQ(h1, f1) : V_CMPEQ(h1, e1));
                dr1[2 * (c - 1) + 1] = V_DIRBITS(V_EXT(ex1, eo1), V_EXT(fx1, fo1));
                if (fe && islast[c]) V_STORE(&row1[c], h1);
                if (nd && islast[c]) {
                    V_STORE(&drow1[c], d1);
                    V_STORE(&frow1[c], f1);
                }
                hdiag1 = up1;
                hleft1 = h1;
                V_T eo2 = V_ADD(h1, V_GOV(c)), ex2 = V_ADD(e1, V_GEV(c));
                V_T e2 = V_MAX(eo2, ex2);
                V_T fo2 = V_ADD(hleft2, vgoh2), fx2 = V_ADD(f2, vgeh2);
                f2 = V_MAX(fo2, fx2);
                V_T d2 = V_ADD(hdiag2, V_LOAD(&pr2[c]));
                V_T h2 = V_MAX(V_MAX(d2, e2), f2);
                dr2[2 * (c - 1)] = V_DIRBITS(V_CMPEQ(h2, d2), tie ? V_CMPEQ(h2, f2) : V_CMPEQ(h2, e2));
                dr2[2 * (c - 1) + 1] = V_DIRBITS(V_EXT(ex2, eo2), V_EXT(fx2, fo2));
                if (nd && (lastr2 || islast[c])) {
                    V_STORE(&drow[c], d2);
                    V_STORE(&frow[c], f2);
                }
                hdiag2 = h1;
                hleft2 = h2;
                V_STORE(&hrow[c], h2);
                V_STORE(&erow[c], e2);
            }
            if (nd) { /* needle: both rows' diagonal values and left gaps at each lane's last column */
                const S_T *d1s = (const S_T *)drow1, *f1s = (const S_T *)frow1;
                const S_T *d2s = (const S_T *)drow, *f2s = (const S_T *)frow;
                int32_t *lf = ws->lastcol + (size_t)LANES * ((size_t)m + 1);
                for (int l = 0; l < count; l++) {
                    const size_t at = (size_t)nl[l] * LANES + (size_t)l, o = (size_t)l * (m + 1) + r0;
                    ws->lastcol[o] = nl[l] ? d1s[at] : 0;
                    lf[o] = nl[l] ? f1s[at] : 0;
                    ws->lastcol[o + 1] = nl[l] ? d2s[at] : 0;
                    lf[o + 1] = nl[l] ? f2s[at] : 0;
                }
            } else if (fe) { /* H of both rows at each lane's last column */
                const S_T *h1s = (const S_T *)row1, *h2s = (const S_T *)hrow;
                for (int l = 0; l < count; l++) {
                    size_t at = (size_t)nl[l] * LANES + (size_t)l;
                    ws->lastcol[(size_t)l * (m + 1) + r0] = nl[l] ? h1s[at] : 0;
                    ws->lastcol[(size_t)l * (m + 1) + r0 + 1] = h2s[at];
                }
            }
        }
    }
    for (int r = r0; r <= m; r++) {
        const V_T *pr = prof + (size_t)slot[q[r - 1]] * W;
        V_T hdiag = V_LOAD(&hrow[0]);
        V_T hleft = V_SET1((S_T)-mnw_endcost(sc, r));
        V_STORE(&hrow[0], hleft);
        const V_T vgoh = endg && r == m ? vgoe : vgo, vgeh = endg && r == m ? vgee : vge;
        if (!affine) {
            DIR_T *dr = dir + (size_t)(r - 1) * maxn;
            V_T hg = V_ADD(hleft, vgoh); /* H[r][c-1] + gap: the only add on the critical path */
            for (int c = 1; c <= maxn; c++) {
                V_T up = V_LOAD(&hrow[c]);
                V_T d = V_ADD(hdiag, V_LOAD(&pr[c]));
                V_T u = V_ADD(up, V_GOV(c));
                V_T h = V_MAX(V_MAX(d, u), hg);
                /* bit A: H came from the diagonal; bit B: the left gap is strictly
                 * better than the upper one (so, without A, D rather than I;
                 * mothur's rule: the reverse) */
                dr[c - 1] = V_DIRBITS(V_CMPEQ(h, d), V_BGT(hg, u));
                V_STORE(&hrow[c], h);
                hdiag = up;
                hg = V_ADD(h, vgoh);
            }
        } else {
            DIR_T *dr = dir + (size_t)(r - 1) * maxn * 2;
            V_T f = vneg;
            for (int c = 1; c <= maxn; c++) {
                V_T up = V_LOAD(&hrow[c]);
                V_T eo = V_ADD(up, V_GOV(c)), ex = V_ADD(V_LOAD(&erow[c]), V_GEV(c));
                V_T e = V_MAX(eo, ex);
                V_T fo = V_ADD(hleft, vgoh), fx = V_ADD(f, vgeh);
                f = V_MAX(fo, fx);
                V_T d = V_ADD(hdiag, V_LOAD(&pr[c]));
                V_T h = V_MAX(V_MAX(d, e), f);
                dr[2 * (c - 1)] = V_DIRBITS(V_CMPEQ(h, d), tie ? V_CMPEQ(h, f) : V_CMPEQ(h, e));
                dr[2 * (c - 1) + 1] = V_DIRBITS(V_EXT(ex, eo), V_EXT(fx, fo));
                if (nd && (r == m || islast[c])) {
                    V_STORE(&drow[c], d);
                    V_STORE(&frow[c], f);
                }
                V_STORE(&hrow[c], h);
                V_STORE(&erow[c], e);
                hdiag = up;
                hleft = h;
            }
        }
        if (nd) { /* needle: the diagonal value and the left gap at each lane's last column */
            const S_T *ds = (const S_T *)drow, *fs = (const S_T *)frow;
            int32_t *lf = ws->lastcol + (size_t)LANES * ((size_t)m + 1);
            for (int l = 0; l < count; l++) {
                ws->lastcol[(size_t)l * (m + 1) + r] = nl[l] ? ds[(size_t)nl[l] * LANES + l] : 0;
                lf[(size_t)l * (m + 1) + r] = nl[l] ? fs[(size_t)nl[l] * LANES + l] : 0;
            }
        } else if (fe) {
            const S_T *hs = (const S_T *)hrow;
            for (int l = 0; l < count; l++)
                ws->lastcol[(size_t)l * (m + 1) + r] = hs[(size_t)nl[l] * LANES + l];
        }
    }

    /* End cells, lane by lane (the trace-back is mnw_tb_trace's). */
    const S_T *hs = (const S_T *)hrow;
    const uint64_t wbits = 8 * sizeof(DIR_T);
    const uint64_t cbits = wbits * (affine ? 2 : 1);
    for (int l = 0; l < count; l++) {
        int nn = nl[l];
        int re = m, ce = nn;
        int32_t best = hs[(size_t)nn * LANES + l];
        uint32_t force = 0; /* needle: the end cell's step (trace_walk.h dfirst) */
        if (nd && m > 0 && nn > 0) {
            /* needle (score.h MNW_TIE_NEEDLE; tests/ref/ref_nw.c the same in
             * plain words): the corner's diagonal value if no worse than the
             * others; else the last row's leftmost best (0 at column 0: the
             * empty alignment) if no worse than the last column's topmost
             * best (0 at row 0); the end cell's step from D against the gap
             * into it (I in the last row, D in the last column) */
            const S_T *ds = (const S_T *)drow, *es = (const S_T *)erow;
            const int32_t *lc = ws->lastcol + (size_t)l * (m + 1);
            const int32_t *lf = ws->lastcol + (size_t)LANES * ((size_t)m + 1) + (size_t)l * (m + 1);
            int rb = 0, cb = 0;
            int32_t rv = 0, cv = 0;
            for (int c = 1; c < nn; c++)
                if (ds[(size_t)c * LANES + l] > rv) {
                    rv = ds[(size_t)c * LANES + l];
                    rb = c;
                }
            for (int r = 1; r < m; r++)
                if (lc[r] > cv) {
                    cv = lc[r];
                    cb = r;
                }
            const int32_t corner = ds[(size_t)nn * LANES + l];
            if (corner >= rv && corner >= cv) {
                best = corner;
                force = 1;
            } else if (rv >= cv) {
                ce = rb;
                best = rv;
                force = rb == 0 ? 0 : rv >= es[(size_t)rb * LANES + l] ? 1 : 2;
            } else {
                re = cb;
                best = cv;
                force = cb == 0 ? 0 : cv >= lf[cb] ? 1 : 3;
            }
        } else if (fe) {
            int bc = 0, br = 0;
            int32_t vbc = hs[l], vbr = ws->lastcol[(size_t)l * (m + 1)];
            for (int c = 0; c <= nn; c++)
                if (hs[(size_t)c * LANES + l] >= vbc) {
                    vbc = hs[(size_t)c * LANES + l];
                    bc = c;
                }
            const int32_t *lc = ws->lastcol + (size_t)l * (m + 1);
            for (int r = 0; r <= m; r++)
                if (lc[r] >= vbr) {
                    vbr = lc[r];
                    br = r;
                }
            if (tie ? vbc > vbr : vbc >= vbr) { /* mnw: the last row wins a tie; mothur: the last column */
                re = m;
                ce = bc;
                best = vbc;
            } else {
                re = br;
                ce = nn;
                best = vbr;
            }
        }
        mnw_tb_end *en = &ends[l];
        en->v.base = (const uint8_t *)dirbuf;
        en->v.base_bit = 0;
        en->v.row_bits = (uint64_t)maxn * cbits;
        en->v.col_bits = cbits;
        en->v.a_bit = (uint32_t)V_POS_A(l);
        en->v.b_bit = (uint32_t)V_POS_B(l);
        en->v.ext_bit = (uint32_t)wbits;
        en->v.rshift = 0;
        en->v.sub_bits = 0;
        en->v.b_up = (uint32_t)(tie != 0); /* linear: B = up strictly better; affine: B = H == F */
        en->v.tr = 0;
        en->v.stream = 0;
        en->v.dfirst = force;
        en->re = re;
        en->ce = ce;
        en->score = best;
    }
}

#undef V_BGT
#undef V_EXT
#undef V_GOV
#undef V_GEV

void MNW_CAT(V_NAME, _dirs)(struct mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m,
                            const uint8_t *const *t, const int *n, int count, void *dirbuf, mnw_tb_end *ends)
{
    const int tie = sc->tie == MNW_TIE_MOTHUR;
    if (sc->tie == MNW_TIE_NEEDLE) { /* free end gaps, affine (score.h) */
        MNW_CAT(V_NAME, _dirs_tie)(ws, sc, q, m, t, n, count, dirbuf, ends, 2, 0);
    } else if (sc->end_gaps) {
        if (tie) MNW_CAT(V_NAME, _dirs_tie)(ws, sc, q, m, t, n, count, dirbuf, ends, 1, 1);
        else MNW_CAT(V_NAME, _dirs_tie)(ws, sc, q, m, t, n, count, dirbuf, ends, 0, 1);
    } else if (tie) {
        MNW_CAT(V_NAME, _dirs_tie)(ws, sc, q, m, t, n, count, dirbuf, ends, 1, 0);
    } else {
        MNW_CAT(V_NAME, _dirs_tie)(ws, sc, q, m, t, n, count, dirbuf, ends, 0, 0);
    }
}

void V_NAME(struct mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m,
            const uint8_t *const *t, const int *n, int count, mnw_aln *out)
{
    int maxn = 0;
    for (int l = 0; l < count; l++)
        if (n[l] > maxn) maxn = n[l];
    const int affine = mnw_scoring_affine(sc);
    mnw_ws_reserve(&ws->dir, &ws->dir_bytes, mnw_nw_dir_bytes(sizeof(DIR_T), m, maxn, affine));
    mnw_tb_end ends[LANES];
    MNW_CAT(V_NAME, _dirs)(ws, sc, q, m, t, n, count, ws->dir, ends);
    for (int l = 0; l < count; l++) mnw_tb_finish(&ends[l], affine, q, m, t[l], n[l], ws->figs, &out[l]);
}

/* The per-variant macros end here, so the next instantiation can define
 * its own (V_T, V_LOAD and V_STORE are per instruction set and stay). */
#undef V_NAME
#undef S_T
#undef LANES
#undef V_DIRBITS
#undef DIR_T
#undef V_POS_A
#undef V_POS_B
#undef V_NEG
#undef V_SET1
#undef V_ADD
#undef V_MAX
#undef V_CMPEQ
#undef V_CMPGT
