/* userout.c - see userout.h. */
#include "lib/userout.h"

#include <string.h>

#include "lib/fmtnum.h"
#include "lib/identity.h"
#include "lib/pathfig.h"

static const char *const uf_name[MNW_UF_N] = {
    "query", "target", "evalue", "id",      "pctpv",   "pctgaps", "pairs", "gaps",  "qlo",  "qhi",
    "tlo",   "thi",    "pv",     "ql",      "tl",      "qs",      "ts",    "alnlen", "opens", "exts",
    "raw",   "bits",   "caln",   "qstrand", "tstrand", "qframe",  "tframe", "mism", "ids",  "qcov",
    "tcov",  "id0",    "id1",    "id2",     "id3",     "id4",     "qilo",  "qihi",  "tilo", "tihi"};

int mnw_userfields_parse(const char *list, const char *where, mnw_userfields *uf, mnw_err *e)
{
    mnw_userfields t = {0};
    const char *p = list;
    for (;;) {
        const char *q = strchr(p, '+');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len == 0)
            return mnw_err_set(e, "%s: userfields '%s': an empty field name (names are joined by '+')", where, list);
        int k = 0;
        while (k < MNW_UF_N && !(strlen(uf_name[k]) == len && !strncmp(p, uf_name[k], len))) k++;
        if (k == MNW_UF_N) {
            char known[512];
            size_t n = 0;
            for (int x = 0; x < MNW_UF_N; x++)
                n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", x ? " " : "", uf_name[x]);
            return mnw_err_set(e, "%s: userfields '%s': unknown field '%.*s' (fields: %s; not aln, qrow, trow)", where,
                               list, (int)len, p, known);
        }
        if (t.n == MNW_USERFIELDS_MAX)
            return mnw_err_set(e, "%s: userfields '%s': more than %d fields", where, list, MNW_USERFIELDS_MAX);
        t.f[t.n++] = (uint8_t)k;
        if (!q) break;
        p = q + 1;
    }
    *uf = t;
    return 0;
}

const char *mnw_userfields_format(const mnw_userfields *uf, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < uf->n && n < cap; k++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", k ? "+" : "", uf_name[uf->f[k]]);
    return buf;
}

int mnw_userfields_has(const mnw_userfields *uf, mnw_ufield f)
{
    for (int k = 0; k < uf->n; k++)
        if (uf->f[k] == f) return 1;
    return 0;
}

/* Room one field needs at most besides the names and the caln. */
#define FIELD_ROOM (MNW_FMT_INT_MAX + MNW_FMT_DBL_MAX + 2)
/* Room one caln run needs: a length below 2^30 and its op. */
#define CALN_RUN_ROOM 11

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

static inline double pct(uint64_t a, uint64_t b) { return b > 0 ? 100.0 * (double)a / (double)b : 0.0; }

void mnw_userout_line(mnw_buf *b, const mnw_userfields *uf, int id_kind, const mnw_aln *a, const char *id_i,
                      size_t li, const uint8_t *ci, size_t ni, const char *id_j, size_t lj, const uint8_t *cj,
                      size_t nj)
{
    static const mnw_iddef vs = {MNW_ID_VSEARCH2, 1}; /* vsearch's rule for the matching columns */
    /* the default list for a zeroed record (its 13 fields, MNW_USERFIELDS_DEFAULT's order) */
    static const mnw_userfields dflt = {13, {MNW_UF_QUERY, MNW_UF_TARGET, MNW_UF_ID0, MNW_UF_ID1, MNW_UF_ID2, MNW_UF_ID3,
                                             MNW_UF_ID4, MNW_UF_ALNLEN, MNW_UF_MISM, MNW_UF_OPENS, MNW_UF_GAPS,
                                             MNW_UF_RAW, MNW_UF_CALN}};
    if (uf->n == 0) uf = &dflt;
    mnw_pathfig f;
    mnw_pathfig_of_runs(&vs, a->ops, a->nops, ci, ni, cj, nj, &f);
    const uint64_t L = (uint64_t)f.pairs + f.gaps, M = f.eq, mism = (uint64_t)f.pairs - f.eq;
    const uint64_t T = (uint64_t)f.first_gap + f.last_gap, O = f.gap_opens;
    const uint64_t shortest = ni < nj ? ni : nj, longest = ni < nj ? nj : ni;
    /* the terminal runs vsearch trims, by side: D is the query's (j), I the target's (i) */
    const int op0 = a->nops ? (int)MNW_RUN_OP(a->ops[0]) : MNW_OP_EQ;
    const int op1 = a->nops ? (int)MNW_RUN_OP(a->ops[a->nops - 1]) : MNW_OP_EQ;
    const uint64_t tql = op0 == MNW_OP_D ? f.first_gap : 0, ttl = op0 == MNW_OP_I ? f.first_gap : 0;
    const uint64_t tqr = op1 == MNW_OP_D ? f.last_gap : 0, ttr = op1 == MNW_OP_I ? f.last_gap : 0;
    const uint64_t ialn = L - T, iind = (uint64_t)f.gaps - T;
    const uint64_t igaps = O - (f.first_gap > 0) - (f.last_gap > 0);
    /* vsearch's expressions, operation for operation */
    double id[5];
    id[0] = pct(M, shortest);
    id[1] = pct(M, L);
    id[2] = pct(M, ialn);
    id[3] = longest > 0 ? 100.0 * (1.0 - (1.0 * (double)(mism + O) / (double)longest)) : 0.0;
    if (id[3] < 0.0) id[3] = 0.0;
    id[4] = id[1]; /* BLAST's: the same formula as id1 in vsearch */
    size_t ncaln = 0;
    for (int k = 0; k < uf->n; k++) ncaln += uf->f[k] == MNW_UF_CALN;
    mnw_buf_reserve(b, (size_t)uf->n * (li + lj + FIELD_ROOM) + ncaln * a->nops * CALN_RUN_ROOM + 1);
    char *p = b->p + b->len;
    for (int k = 0; k < uf->n; k++) {
        if (k) *p++ = '\t';
        double d = -1.0;
        uint64_t u = 0;
        switch ((mnw_ufield)uf->f[k]) {
        case MNW_UF_QUERY: memcpy(p, id_j, lj), p += lj; continue;
        case MNW_UF_TARGET: memcpy(p, id_i, li), p += li; continue;
        case MNW_UF_EVALUE: *p++ = '-', *p++ = '1'; continue;
        case MNW_UF_BITS: *p++ = '0'; continue;
        case MNW_UF_QSTRAND: case MNW_UF_TSTRAND: *p++ = '+'; continue;
        case MNW_UF_QFRAME: case MNW_UF_TFRAME: *p++ = '+', *p++ = '0'; continue;
        case MNW_UF_RAW: p += mnw_fmt_i64(p, a->score); continue;
        case MNW_UF_CALN: p = put_caln(p, a->ops, a->nops); continue;
        case MNW_UF_ID: d = id[id_kind >= 0 && id_kind <= 4 ? id_kind : 2]; break;
        case MNW_UF_ID0: case MNW_UF_ID1: case MNW_UF_ID2: case MNW_UF_ID3: case MNW_UF_ID4:
            d = id[uf->f[k] - MNW_UF_ID0];
            break;
        case MNW_UF_PCTPV: d = pct(M, ialn); break;
        case MNW_UF_PCTGAPS: d = pct(iind, ialn); break;
        case MNW_UF_QCOV: d = pct(M + mism, nj); break;
        case MNW_UF_TCOV: d = pct(M + mism, ni); break;
        case MNW_UF_PAIRS: u = M + mism; break;
        case MNW_UF_GAPS: u = iind; break;
        case MNW_UF_QLO: case MNW_UF_TLO: u = 1; break;
        case MNW_UF_QHI: case MNW_UF_QL: case MNW_UF_QS: u = nj; break;
        case MNW_UF_THI: case MNW_UF_TL: case MNW_UF_TS: u = ni; break;
        case MNW_UF_PV: case MNW_UF_IDS: u = M; break;
        case MNW_UF_ALNLEN: u = ialn; break;
        case MNW_UF_OPENS: u = igaps; break;
        case MNW_UF_EXTS: u = iind - igaps; break;
        case MNW_UF_MISM: u = mism; break;
        case MNW_UF_QILO: u = tql + 1; break;
        case MNW_UF_QIHI: u = nj - tqr; break;
        case MNW_UF_TILO: u = ttl + 1; break;
        case MNW_UF_TIHI: u = ni - ttr; break;
        case MNW_UF_N: continue;
        }
        if (d >= 0.0) p += mnw_fmt_f(p, d, 1);
        else p += mnw_fmt_u64(p, u);
    }
    *p++ = '\n';
    b->len = (size_t)(p - b->p);
}
