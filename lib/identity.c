/* identity.c - see identity.h and docs/IDENTITY.md. */
#include "lib/identity.h"

#include <string.h>

#include "lib/aln.h"
#include "lib/seq.h"

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

/* 1 when s[0..n) holds an ambiguity code: an OR of every code, which the
 * compiler vectorizes (the bases 0-3 set no bit above the lowest two). */
static int has_ambiguity(const uint8_t *s, size_t n)
{
    uint8_t acc = 0;
    for (size_t k = 0; k < n; k++) acc |= s[k];
    return acc > 3;
}

/* The first position >= from of s[0..n) that holds an ambiguity code (a
 * code >= 4), or n. Eight codes at a time: the bases 0-3 set no bit above
 * the lowest two of their byte. */
static size_t next_ambiguity(const uint8_t *s, size_t n, size_t from)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; from + 8 <= n; from += 8) {
        uint64_t w;
        memcpy(&w, s + from, sizeof w);
        w &= 0xfcfcfcfcfcfcfcfcull;
        if (w) return from + (size_t)(__builtin_ctzll(w) >> 3);
    }
#endif
    while (from < n && s[from] < 4) from++;
    return from;
}

/* Columns of X runs that match by the tool's rule. Only a column with an
 * ambiguity code on one side can (the X columns of two bases hold different
 * bases, aln.h), so the walk over the runs visits only the positions of a
 * and b that hold one (pa, pb: usually none or a few), without a branch per
 * run that depends on its kind. Inlined into each caller with fam constant. */
static inline uint64_t x_matches(int fam, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                                 const uint8_t *b, size_t nb)
{
    size_t pa = has_ambiguity(a, na) ? next_ambiguity(a, na, 0) : na;
    size_t pb = has_ambiguity(b, nb) ? next_ambiguity(b, nb, 0) : nb;
    size_t ia = 0, ib = 0;
    uint64_t e = 0;
    for (size_t k = 0; k < nops && (pa < na || pb < nb); k++) {
        uint32_t n = MNW_RUN_LEN(ops[k]);
        unsigned op = MNW_RUN_OP(ops[k]);
        size_t ea = ia + (op != MNW_OP_D ? n : 0), eb = ib + (op != MNW_OP_I ? n : 0);
        for (; pa < ea && pa < na; pa = next_ambiguity(a, na, pa + 1))
            if (op == MNW_OP_X) e += (uint64_t)col_eq(fam, a[pa], b[ib + (pa - ia)]);
        for (; pb < eb && pb < nb; pb = next_ambiguity(b, nb, pb + 1)) /* a's codes were counted above */
            if (op == MNW_OP_X && a[ia + (pb - ib)] < 4) e += (uint64_t)col_eq(fam, a[ia + (pb - ib)], b[pb]);
        ia = ea;
        ib = eb;
    }
    return e;
}

/* The counts of every definition. The column and run totals come from
 * mnw_runs_stats (no branch on the op: the kinds of a real alignment's runs
 * alternate at random, about 550 runs a 16S pair, and a branch per run
 * mispredicted about every other one); the terminal gaps from the runs at
 * either end; the X columns that match from x_matches. */
static inline void count_runs(int fam, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                              const uint8_t *b, size_t nb, mnw_pathfig *c, mnw_alnstats *st)
{
    mnw_runs_stats(ops, nops, st);
    c->pairs = st->matches + st->mismatches;
    c->matches = st->matches;
    c->eq = st->matches;
    c->gaps = st->gaps;
    c->gap_opens = st->gap_opens;
    c->lead_cols = c->lead_runs = c->trail_cols = c->trail_runs = 0;
    size_t f = 0;
    while (f < nops && MNW_RUN_OP(ops[f]) >= MNW_OP_I) {
        c->lead_cols += MNW_RUN_LEN(ops[f]);
        c->lead_runs++;
        f++;
    }
    if (f == nops) { /* no pair column: every gap is leading and trailing */
        c->trail_cols = c->lead_cols;
        c->trail_runs = c->lead_runs;
    } else {
        for (size_t t = nops; MNW_RUN_OP(ops[t - 1]) >= MNW_OP_I; t--) {
            c->trail_cols += MNW_RUN_LEN(ops[t - 1]);
            c->trail_runs++;
        }
    }
    c->first_gap = nops && MNW_RUN_OP(ops[0]) >= MNW_OP_I ? MNW_RUN_LEN(ops[0]) : 0;
    c->last_gap = nops >= 2 && MNW_RUN_OP(ops[nops - 1]) >= MNW_OP_I ? MNW_RUN_LEN(ops[nops - 1]) : 0;
    c->ends_one_row = c->first_gap && c->last_gap && MNW_RUN_OP(ops[0]) == MNW_RUN_OP(ops[nops - 1]);
    if (st->mismatches) c->eq += (uint32_t)x_matches(fam, ops, nops, a, na, b, nb);
}

static double ratio(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : 0.0; }

/* The figures' columns (pairs + gaps) as 64 bits, for the sums below. */
static inline uint64_t fig_len(const mnw_pathfig *c) { return (uint64_t)c->pairs + c->gaps; }

static double id_vsearch(mnw_idkind kind, const mnw_pathfig *c, size_t na, size_t nb)
{
    switch (kind) {
    case MNW_ID_VSEARCH0: return ratio(c->eq, na < nb ? na : nb);
    case MNW_ID_VSEARCH2: return ratio(c->eq, fig_len(c) - c->first_gap - c->last_gap);
    case MNW_ID_VSEARCH3: {
        size_t longest = na > nb ? na : nb;
        if (longest == 0) return 0.0;
        double v = 1.0 - (double)((uint64_t)c->pairs - c->eq + c->gap_opens) / (double)longest;
        return v > 0.0 ? v : 0.0;
    }
    default: /* VSEARCH1, VSEARCH4 */ return ratio(c->eq, fig_len(c));
    }
}

/* mothur's distance: diff/den as it divides (1 when den is 0, clamped to 1
 * by its cutoff test); the identity is 1 - distance, and the distance is
 * this quotient itself (not 1 - identity, which can differ in the last bit
 * and print another sixth digit: 13/1280 is 0.0101563 as mothur prints it,
 * 1 - (1 - 13/1280) 0.0101562). */
static mnw_iddist mothur_dist(uint64_t diff, uint64_t den)
{
    mnw_iddist r = {0.0, 1.0};
    if (den == 0) return r;
    double dist = (double)diff / (double)den;
    if (dist > 1.0) dist = 1.0;
    r.dist = dist;
    r.id = 1.0 - dist;
    return r;
}

static mnw_iddist id_mothur(mnw_idkind kind, int countends, const mnw_pathfig *c)
{
    uint64_t mism = (uint64_t)c->pairs - c->eq;
    if (kind == MNW_ID_MOTHUR_NOGAPS) return mothur_dist(mism, c->pairs);
    if (countends) {
        if (kind == MNW_ID_MOTHUR_ONEGAP) return mothur_dist(mism + c->gap_opens, (uint64_t)c->pairs + c->gap_opens);
        return mothur_dist(mism + c->gaps, fig_len(c)); /* eachgap */
    }
    if (c->pairs == 0) return mothur_dist(0, 0); /* no overlap: distance 1 */
    if (kind == MNW_ID_MOTHUR_ONEGAP) {
        /* from the first to the last pair column; mothur's denominator is
         * one less than the columns it counts (onegapignore.cpp) */
        uint64_t gi = (uint64_t)c->gap_opens - c->lead_runs - c->trail_runs;
        return mothur_dist(mism + gi, c->pairs + gi - 1);
    }
    /* eachgap: its denominator from the first to the last pair column, its
     * differences counted on after the last pair column until a column
     * marked missing ('.'); mothur marks a row's trailing gaps so only when
     * the row begins with a gap (Sequence::setAligned), so the final run
     * stops the count only when it is a gap run of the row whose gaps
     * also begin the alignment, and is counted otherwise */
    uint64_t gci = (uint64_t)c->gaps - c->lead_cols - c->trail_cols;
    uint64_t extra = (uint64_t)c->trail_cols - (c->ends_one_row ? c->last_gap : 0);
    return mothur_dist(mism + gci + extra, c->pairs + gci);
}

static int fam_of(mnw_idkind kind)
{
    switch (kind) {
    case MNW_ID_NEEDLE: return EQ_NEEDLE;
    case MNW_ID_MOTHUR_ONEGAP:
    case MNW_ID_MOTHUR_EACHGAP:
    case MNW_ID_MOTHUR_NOGAPS: return EQ_MOTHUR;
    default: return EQ_VSEARCH;
    }
}

void mnw_eqtab_of(const mnw_iddef *d, mnw_eqtab *t)
{
    const int fam = fam_of(d->kind);
    memset(t, 0, sizeof *t);
    for (int x = 0; x < MNW_NCODES; x++)
        for (int y = 0; y < MNW_NCODES; y++)
            if (col_eq(fam, (uint8_t)x, (uint8_t)y)) t->row[x] |= (uint16_t)(1u << y);
}

void mnw_pathfig_of_runs(const mnw_iddef *d, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                         const uint8_t *b, size_t nb, mnw_pathfig *f)
{
    mnw_alnstats st;
    count_runs(fam_of(d->kind), ops, nops, a, na, b, nb, f, &st);
}

void mnw_pathfig_stats(const mnw_pathfig *f, mnw_alnstats *st)
{
    st->length = f->pairs + f->gaps;
    st->matches = f->matches;
    st->mismatches = f->pairs - f->matches;
    st->gap_opens = f->gap_opens;
    st->gaps = f->gaps;
}

static mnw_iddist of_id(double id)
{
    mnw_iddist r = {id, 1.0 - id};
    return r;
}

mnw_iddist mnw_iddist_fig(const mnw_iddef *d, const mnw_pathfig *f, size_t na, size_t nb)
{
    switch (d->kind) {
    case MNW_ID_VSEARCH0:
    case MNW_ID_VSEARCH1:
    case MNW_ID_VSEARCH2:
    case MNW_ID_VSEARCH3:
    case MNW_ID_VSEARCH4: return of_id(id_vsearch(d->kind, f, na, nb));
    case MNW_ID_NEEDLE: return of_id(ratio(f->eq, fig_len(f)));
    case MNW_ID_MOTHUR_ONEGAP:
    case MNW_ID_MOTHUR_EACHGAP:
    case MNW_ID_MOTHUR_NOGAPS: return id_mothur(d->kind, d->countends, f);
    }
    return of_id(0.0);
}

double mnw_identity_fig(const mnw_iddef *d, const mnw_pathfig *f, size_t na, size_t nb)
{
    return mnw_iddist_fig(d, f, na, nb).id;
}

mnw_iddist mnw_iddist_stats(const mnw_iddef *d, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                            const uint8_t *b, size_t nb, mnw_alnstats *st)
{
    mnw_pathfig c;
    mnw_alnstats own;
    if (!st) st = &own;
    if ((int)d->kind < 0 || (int)d->kind >= MNW_ID_NKINDS) {
        mnw_runs_stats(ops, nops, st);
        return of_id(0.0);
    }
    count_runs(fam_of(d->kind), ops, nops, a, na, b, nb, &c, st);
    return mnw_iddist_fig(d, &c, na, nb);
}

double mnw_identity_stats(const mnw_iddef *d, const uint32_t *ops, size_t nops, const uint8_t *a, size_t na,
                          const uint8_t *b, size_t nb, mnw_alnstats *st)
{
    return mnw_iddist_stats(d, ops, nops, a, na, b, nb, st).id;
}

double mnw_identity(const mnw_iddef *d, const uint32_t *ops, size_t nops,
                    const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    return mnw_identity_stats(d, ops, nops, a, na, b, nb, NULL);
}

static const char *const id_names[MNW_ID_NKINDS] = {
    "vsearch0", "vsearch1", "vsearch2", "vsearch3", "vsearch4",
    "needle", "mothur-onegap", "mothur-eachgap", "mothur-nogaps"};
static const char *const id_noends[3] = {"mothur-onegap-noends", "mothur-eachgap-noends",
                                         "mothur-nogaps-noends"};

const char mnw_iddef_names_help[] =
    "vsearch0, vsearch1, vsearch2 (default), vsearch3, vsearch4, needle, "
    "mothur-onegap, mothur-eachgap, mothur-nogaps (add -noends for countends=F)";

int mnw_iddef_parse(const char *name, mnw_iddef *out)
{
    if (!name) return -1;
    for (int k = 0; k < MNW_ID_NKINDS; k++) {
        if (strcmp(name, id_names[k]) == 0) {
            out->kind = (mnw_idkind)k;
            out->countends = 1;
            return 0;
        }
    }
    for (int k = 0; k < 3; k++) {
        if (strcmp(name, id_noends[k]) == 0) {
            out->kind = (mnw_idkind)(MNW_ID_MOTHUR_ONEGAP + k);
            out->countends = 0;
            return 0;
        }
    }
    return -1;
}

const char *mnw_iddef_name(const mnw_iddef *d)
{
    int k = (int)d->kind;
    if (k < 0 || k >= MNW_ID_NKINDS) return "?";
    if (k >= MNW_ID_MOTHUR_ONEGAP && !d->countends) return id_noends[k - MNW_ID_MOTHUR_ONEGAP];
    return id_names[k];
}
