/* finish_base.c - see finish_base.h. A frozen copy of the production path
 * of 2026-11-25 (lib/output.c, lib/buf.c's mnw_gzip_member, and what they
 * called that has changed since: mnw_identity, mnw_aln_stats and the integer
 * writers, copied below); do not improve it: it is the baseline. */
#include "bench/finish_base.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "lib/seq.h"

/* ---- lib/identity.c's mnw_identity, lib/aln.c's mnw_aln_stats and
 * lib/buf.c's integer writers as of 2026-11-25 (since then one branch-free
 * pass and fmtnum.h) ---- */

/* How each tool decides that an aligned column (two residues, no gap) is a
 * match. */
enum { EQ_VSEARCH, EQ_NEEDLE, EQ_MOTHUR };

/* vsearch (maps.cc chrmap_4bit): each code as its set of bases A=1 C=2 G=4
 * T=8; a column matches when the sets overlap (N matches everything, R
 * matches A, G, R, N, ...). Indexed by seq.h code. */
static const uint8_t vs_mask[MNW_NCODES] = {
    1, 2, 4, 8,   /* A C G T */
    5, 10, 6, 9,  /* R=AG Y=CT S=CG W=AT */
    12, 3,        /* K=GT M=AC */
    14, 13, 11, 7, /* B=CGT D=AGT H=ACT V=ACG */
    15            /* N */
};

/* mothur (sequence.cpp getSequenceString): every letter other than ACGTN is
 * read as N, then letters are compared; the class of each code. */
static const uint8_t mo_class[MNW_NCODES] = {0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};

static inline int col_eq(int fam, uint8_t x, uint8_t y)
{
    switch (fam) {
    case EQ_VSEARCH: return (vs_mask[x] & vs_mask[y]) != 0;
    /* EMBOSS: identical when both letters are the same matrix symbol. */
    case EQ_NEEDLE: return x == y;
    /* mothur: two ambiguity codes (any two) are equal, a code never equals
     * a base. */
    default: return mo_class[x] == mo_class[y];
    }
}

typedef struct {
    uint64_t len;        /* columns */
    uint64_t pairs;      /* columns with a residue on both sides (= and X) */
    uint64_t eq;         /* of those, matches by the tool's rule */
    uint64_t gcols;      /* gap columns (I and D) */
    uint64_t gruns;      /* gap runs (I and D runs; terminal ones included) */
    uint64_t lead_cols, lead_runs;   /* gaps before the first pair column */
    uint64_t trail_cols, trail_runs; /* gaps after the last pair column */
    uint64_t first_gap;  /* length of the first run if it is a gap run */
    uint64_t last_gap;   /* length of the last run if it is a gap run and
                            not also the first run */
} idcount;

/* One pass over the runs. Inlined into each caller with fam constant. */
static inline void count_runs(int fam, const uint32_t *ops, size_t nops,
                              const uint8_t *a, const uint8_t *b, idcount *c)
{
    memset(c, 0, sizeof *c);
    size_t ia = 0, ib = 0;
    int seen_pair = 0;
    for (size_t k = 0; k < nops; k++) {
        uint32_t n = MNW_RUN_LEN(ops[k]);
        unsigned op = MNW_RUN_OP(ops[k]);
        c->len += n;
        if (op == MNW_OP_EQ || op == MNW_OP_X) {
            c->pairs += n;
            if (op == MNW_OP_EQ) {
                c->eq += n;
            } else {
                const uint8_t *pa = a + ia, *pb = b + ib;
                uint64_t e = 0;
                for (uint32_t i = 0; i < n; i++) e += (uint64_t)col_eq(fam, pa[i], pb[i]);
                c->eq += e;
            }
            ia += n;
            ib += n;
            seen_pair = 1;
            c->trail_cols = c->trail_runs = 0;
        } else {
            if (op == MNW_OP_I) ia += n;
            else ib += n;
            c->gcols += n;
            c->gruns++;
            if (!seen_pair) {
                c->lead_cols += n;
                c->lead_runs++;
            }
            c->trail_cols += n;
            c->trail_runs++;
            if (k == 0) c->first_gap = n;
            else if (k == nops - 1) c->last_gap = n;
        }
    }
}

static double ratio(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : 0.0; }

static double id_vsearch(mnw_idkind kind, const idcount *c, size_t na, size_t nb)
{
    switch (kind) {
    case MNW_ID_VSEARCH0: return ratio(c->eq, na < nb ? na : nb);
    case MNW_ID_VSEARCH2: return ratio(c->eq, c->len - c->first_gap - c->last_gap);
    case MNW_ID_VSEARCH3: {
        size_t longest = na > nb ? na : nb;
        if (longest == 0) return 0.0;
        double v = 1.0 - (double)(c->pairs - c->eq + c->gruns) / (double)longest;
        return v > 0.0 ? v : 0.0;
    }
    default: /* VSEARCH1, VSEARCH4 */ return ratio(c->eq, c->len);
    }
}

/* mothur computes a distance diff/den (1 when den is 0, clamped to 1 by its
 * cutoff test); identity = 1 - distance. */
static double mothur_id(uint64_t diff, uint64_t den)
{
    if (den == 0) return 0.0;
    double dist = (double)diff / (double)den;
    if (dist > 1.0) dist = 1.0;
    return 1.0 - dist;
}

static double id_mothur(mnw_idkind kind, int countends, const idcount *c)
{
    uint64_t mism = c->pairs - c->eq;
    if (kind == MNW_ID_MOTHUR_NOGAPS) return mothur_id(mism, c->pairs);
    if (countends) {
        if (kind == MNW_ID_MOTHUR_ONEGAP) return mothur_id(mism + c->gruns, c->pairs + c->gruns);
        return mothur_id(mism + c->gcols, c->len); /* eachgap */
    }
    if (c->pairs == 0) return 0.0; /* no overlap: distance 1 */
    if (kind == MNW_ID_MOTHUR_ONEGAP) {
        /* from the first to the last pair column; mothur's denominator is
         * one less than the columns it counts (onegapignore.cpp) */
        uint64_t gi = c->gruns - c->lead_runs - c->trail_runs;
        return mothur_id(mism + gi, c->pairs + gi - 1);
    }
    /* eachgap: from the first to the last pair column, plus, in the
     * numerator only, the trailing gap runs before the final one */
    uint64_t gci = c->gcols - c->lead_cols - c->trail_cols;
    uint64_t extra = c->trail_runs ? c->trail_cols - c->last_gap : 0;
    return mothur_id(mism + gci + extra, c->pairs + gci);
}

static double fb_identity(const mnw_iddef *d, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                          const uint8_t *b, size_t nb)
{
    idcount c;
    switch (d->kind) {
    case MNW_ID_VSEARCH0:
    case MNW_ID_VSEARCH1:
    case MNW_ID_VSEARCH2:
    case MNW_ID_VSEARCH3:
    case MNW_ID_VSEARCH4:
        count_runs(EQ_VSEARCH, ops, nops, a, b, &c);
        return id_vsearch(d->kind, &c, na, nb);
    case MNW_ID_NEEDLE:
        count_runs(EQ_NEEDLE, ops, nops, a, b, &c);
        return ratio(c.eq, c.len);
    case MNW_ID_MOTHUR_ONEGAP:
    case MNW_ID_MOTHUR_EACHGAP:
    case MNW_ID_MOTHUR_NOGAPS:
        count_runs(EQ_MOTHUR, ops, nops, a, b, &c);
        return id_mothur(d->kind, d->countends, &c);
    }
    return 0.0;
}

static void fb_aln_stats(const mnw_aln *a, mnw_alnstats *st)
{
    memset(st, 0, sizeof *st);
    for (size_t k = 0; k < a->nops; k++) {
        uint32_t len = MNW_RUN_LEN(a->ops[k]);
        st->length += len;
        switch (MNW_RUN_OP(a->ops[k])) {
        case MNW_OP_EQ: st->matches += len; break;
        case MNW_OP_X: st->mismatches += len; break;
        default:
            st->gaps += len;
            st->gap_opens++;
            break;
        }
    }
}

static void fb_put_u64(mnw_buf *b, uint64_t v)
{
    char tmp[24];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    mnw_buf_reserve(b, (size_t)k);
    while (k) b->p[b->len++] = tmp[--k];
}

static void fb_put_i64(mnw_buf *b, int64_t v)
{
    if (v < 0) {
        mnw_buf_putc(b, '-');
        fb_put_u64(b, (uint64_t)(-(v + 1)) + 1);
    } else {
        fb_put_u64(b, (uint64_t)v);
    }
}

/* ---- lib/output.c and lib/buf.c as of 2026-11-25 ---- */

static void fb_put_double(mnw_buf *b, const char *fmt, double v)
{
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    if (n > 0 && (size_t)n < sizeof tmp) mnw_buf_put(b, tmp, (size_t)n);
}

static void fb_put_padded(mnw_buf *b, const char *name)
{
    size_t len = strlen(name);
    mnw_buf_put(b, name, len);
    for (; len < 10; len++) mnw_buf_putc(b, ' ');
}

static void fb_format(const mnw_outspec *sp, mnw_range r, const mnw_aln *alns, mnw_buf text[MNW_NOUT])
{
    const mnw_seqset *s = sp->seqs;
    uint64_t i, j;
    mnw_pair_ij(r.k0, &i, &j);
    for (uint64_t x = 0; x < r.count; x++) {
        const mnw_aln *a = &alns[x];
        const uint8_t *ca = mnw_seq_codes(s, i), *cb = mnw_seq_codes(s, j);
        size_t na = mnw_seq_len(s, i), nb = mnw_seq_len(s, j);
        double id = fb_identity(&sp->iddef, a->ops, a->nops, ca, na, cb, nb);
        double dist = 1.0 - id;
        if (sp->enabled[MNW_OUT_PAIRS]) {
            mnw_buf *b = &text[MNW_OUT_PAIRS];
            mnw_alnstats st;
            fb_aln_stats(a, &st);
            fb_put_u64(b, i);
            mnw_buf_putc(b, '\t');
            fb_put_u64(b, j);
            mnw_buf_putc(b, '\t');
            mnw_buf_puts(b, mnw_seq_id(s, i));
            mnw_buf_putc(b, '\t');
            mnw_buf_puts(b, mnw_seq_id(s, j));
            mnw_buf_putc(b, '\t');
            fb_put_i64(b, a->score);
            mnw_buf_putc(b, '\t');
            fb_put_u64(b, st.length);
            mnw_buf_putc(b, '\t');
            fb_put_u64(b, st.matches);
            mnw_buf_putc(b, '\t');
            fb_put_u64(b, st.mismatches);
            mnw_buf_putc(b, '\t');
            fb_put_u64(b, st.gap_opens);
            mnw_buf_putc(b, '\t');
            fb_put_u64(b, st.gaps);
            mnw_buf_putc(b, '\t');
            fb_put_double(b, "%.6f", id);
            if (sp->cigar) {
                mnw_buf_putc(b, '\t');
                for (size_t k = 0; k < a->nops; k++) {
                    fb_put_u64(b, MNW_RUN_LEN(a->ops[k]));
                    mnw_buf_putc(b, mnw_op_char[MNW_RUN_OP(a->ops[k])]);
                }
            }
            mnw_buf_putc(b, '\n');
        }
        if (sp->enabled[MNW_OUT_DIST] && !(sp->cutoff >= 0.0 && dist > sp->cutoff)) {
            mnw_buf *b = &text[MNW_OUT_DIST];
            mnw_buf_puts(b, mnw_seq_id(s, i));
            mnw_buf_putc(b, ' ');
            mnw_buf_puts(b, mnw_seq_id(s, j));
            mnw_buf_putc(b, ' ');
            fb_put_double(b, "%g", dist);
            mnw_buf_putc(b, '\n');
        }
        if (sp->enabled[MNW_OUT_PHYLIP]) {
            mnw_buf *b = &text[MNW_OUT_PHYLIP];
            if (j == 0) {
                if (i == 1) {
                    fb_put_u64(b, s->n);
                    mnw_buf_putc(b, '\n');
                    fb_put_padded(b, mnw_seq_id(s, 0));
                    mnw_buf_putc(b, '\n');
                }
                fb_put_padded(b, mnw_seq_id(s, i));
            }
            mnw_buf_putc(b, '\t');
            fb_put_double(b, "%.4g", dist);
            if (j + 1 == i) mnw_buf_putc(b, '\n');
        }
        if (++j == i) {
            i++;
            j = 0;
        }
    }
}

static int fb_gzip(const char *in, size_t len, int level, mnw_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
    out->len = 0;
    mnw_buf_reserve(out, deflateBound(&z, (uLong)len));
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out->p;
    z.avail_out = (uInt)out->cap;
    int rc = deflate(&z, Z_FINISH);
    out->len = z.total_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}

int fb_build(const mnw_job_spec *js, mnw_range r, const mnw_aln *alns, mnw_buf text[MNW_NOUT], mnw_buf out[MNW_NOUT])
{
    for (int o = 0; o < MNW_NOUT; o++) text[o].len = out[o].len = 0;
    fb_format(js->spec, r, alns, text);
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!js->spec->enabled[o] || text[o].len == 0) continue;
        if (mnw_out_gzip[o]) {
            /* zlib has no "fast": auto and fast are the old default, 5, here */
            if (fb_gzip(text[o].p, text[o].len, js->gzip_level >= 1 && js->gzip_level <= 9 ? js->gzip_level : 5, &out[o]))
                return -1;
        } else {
            mnw_buf_put(&out[o], text[o].p, text[o].len);
        }
    }
    return 0;
}
