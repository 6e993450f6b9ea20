/* userout.c - see userout.h. */
#include "lib/userout.h"

#include <string.h>

#include "lib/fmtnum.h"
#include "lib/identity.h"
#include "lib/pathfig.h"

/* Room a line needs besides its two names and its caln: six integers,
 * five percentages ("100.0"), thirteen separators. */
#define USEROUT_LINE_ROOM (6 * MNW_FMT_INT_MAX + 5 * MNW_FMT_DBL_MAX + 16)
/* Room one caln run needs: a length below 2^30 and its op. */
#define CALN_RUN_ROOM 11

static inline char *put_pct(char *p, double v)
{
    p += mnw_fmt_f(p, v, 1);
    *p++ = '\t';
    return p;
}

static inline char *put_u(char *p, uint64_t v)
{
    p += mnw_fmt_u64(p, v);
    *p++ = '\t';
    return p;
}

/* vsearch's CIGAR: aligned columns (= and X runs, adjacent in mnw's runs)
 * as one M run, a run's length left out when it is 1 */
static char *put_caln(char *p, const uint32_t *ops, size_t nops)
{
    size_t k = 0;
    while (k < nops) {
        const int op = (int)MNW_RUN_OP(ops[k]);
        const int m = op == MNW_OP_EQ || op == MNW_OP_X;
        uint64_t n = 0;
        do n += MNW_RUN_LEN(ops[k++]);
        while (k < nops && m && (MNW_RUN_OP(ops[k]) == MNW_OP_EQ || MNW_RUN_OP(ops[k]) == MNW_OP_X));
        if (n > 1) p += mnw_fmt_u64(p, n);
        *p++ = m ? 'M' : mnw_op_char[op];
    }
    return p;
}

void mnw_userout_line(mnw_buf *b, const mnw_aln *a, const char *id_i, size_t li, const uint8_t *ci, size_t ni,
                      const char *id_j, size_t lj, const uint8_t *cj, size_t nj)
{
    static const mnw_iddef vs = {MNW_ID_VSEARCH2, 1}; /* vsearch's rule for the matching columns */
    mnw_pathfig f;
    mnw_pathfig_of_runs(&vs, a->ops, a->nops, ci, ni, cj, nj, &f);
    const uint64_t L = (uint64_t)f.pairs + f.gaps, M = f.eq, mism = (uint64_t)f.pairs - f.eq;
    const uint64_t T = (uint64_t)f.first_gap + f.last_gap, O = f.gap_opens;
    const uint64_t shortest = ni < nj ? ni : nj, longest = ni < nj ? nj : ni;
    /* vsearch's expressions, operation for operation (results.cc, searchcore.cc) */
    const double id0 = shortest > 0 ? 100.0 * (double)M / (double)shortest : 0.0;
    const double id1 = L > 0 ? 100.0 * (double)M / (double)L : 0.0;
    const double id2 = L - T > 0 ? 100.0 * (double)M / (double)(L - T) : 0.0;
    double id3 = longest > 0 ? 100.0 * (1.0 - (1.0 * (double)(mism + O) / (double)longest)) : 0.0;
    if (id3 < 0.0) id3 = 0.0;
    mnw_buf_reserve(b, li + lj + USEROUT_LINE_ROOM + a->nops * CALN_RUN_ROOM);
    char *p = b->p + b->len;
    memcpy(p, id_j, lj), p += lj, *p++ = '\t';
    memcpy(p, id_i, li), p += li, *p++ = '\t';
    p = put_pct(p, id0);
    p = put_pct(p, id1);
    p = put_pct(p, id2);
    p = put_pct(p, id3);
    p = put_pct(p, id1); /* id4: BLAST's, the same formula as id1 in vsearch */
    p = put_u(p, L - T);
    p = put_u(p, mism);
    p = put_u(p, O - (f.first_gap > 0) - (f.last_gap > 0));
    p = put_u(p, (uint64_t)f.gaps - T);
    p += mnw_fmt_i64(p, a->score);
    *p++ = '\t';
    p = put_caln(p, a->ops, a->nops);
    *p++ = '\n';
    b->len = (size_t)(p - b->p);
}
