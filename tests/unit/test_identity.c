/* test_identity.c - unit tests of lib/identity.c, plus a helper mode for
 * tests/sh/t_identity_tools.sh.
 *
 *   test_identity            hand-made alignments (every definition, terminal
 *                            gaps on either side, gaps in both sequences,
 *                            ambiguity codes, all-N, zero denominators) and
 *                            random alignments checked against column-by-
 *                            column re-statements of each tool's counting
 *   test_identity --rows     reads lines "FIELD...<TAB>ROWA<TAB>ROWB" (aligned
 *                            rows, '-' or '.' for gaps) from stdin; prints
 *                            "FIELD...<TAB>na<TAB>nb<TAB>L" followed by the
 *                            identity (%.10f) of every definition in the
 *                            order of rows_defs[] below, then the distance
 *                            of each as dist.column.gz prints it (%g, 6
 *                            digits, mnw_fmt_g), tab-separated.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/aln.h"
#include "lib/fmtnum.h"
#include "lib/identity.h"
#include "lib/seq.h"
#include "lib/util.h"
#include "tests/tap.h"

/* ---------- rows -> ops + codes ------------------------------------------ */

typedef struct {
    mnw_aln aln;
    uint8_t *a, *b;
    size_t na, nb;
} pairaln;

static int is_gap(char c) { return c == '-' || c == '.'; }

/* Build ops and codes from two aligned rows. Columns with a gap on both
 * sides are dropped. Returns -1 on a letter that is not a nucleotide code or
 * rows of different lengths. */
static int from_rows(const char *ra, const char *rb, pairaln *p)
{
    size_t L = strlen(ra);
    if (strlen(rb) != L) return -1;
    mnw_aln_init(&p->aln);
    p->a = mnw_xmalloc(L + 1);
    p->b = mnw_xmalloc(L + 1);
    p->na = p->nb = 0;
    for (size_t i = 0; i < L; i++) {
        int ga = is_gap(ra[i]), gb = is_gap(rb[i]);
        uint8_t ca = ga ? 0 : mnw_code_of[(unsigned char)ra[i]];
        uint8_t cb = gb ? 0 : mnw_code_of[(unsigned char)rb[i]];
        if (ca == MNW_CODE_INVALID || cb == MNW_CODE_INVALID) {
            mnw_aln_free(&p->aln);
            free(p->a);
            free(p->b);
            return -1;
        }
        if (ga && gb) continue;
        if (!ga) p->a[p->na++] = ca;
        if (!gb) p->b[p->nb++] = cb;
        int op = ga ? MNW_OP_D : gb ? MNW_OP_I : (ca == cb && ca < 4) ? MNW_OP_EQ : MNW_OP_X;
        mnw_aln_push(&p->aln, op, 1);
    }
    return 0;
}

static void pair_free(pairaln *p)
{
    mnw_aln_free(&p->aln);
    free(p->a);
    free(p->b);
}

static double ident(mnw_idkind k, int countends, const pairaln *p)
{
    mnw_iddef d = {k, countends};
    return mnw_identity(&d, p->aln.ops, p->aln.nops, p->a, p->na, p->b, p->nb);
}

/* ---------- the --rows helper --------------------------------------------- */

static const mnw_iddef rows_defs[] = {
    {MNW_ID_VSEARCH0, 1},       {MNW_ID_VSEARCH1, 1},       {MNW_ID_VSEARCH2, 1},
    {MNW_ID_VSEARCH3, 1},       {MNW_ID_VSEARCH4, 1},       {MNW_ID_NEEDLE, 1},
    {MNW_ID_MOTHUR_ONEGAP, 1},  {MNW_ID_MOTHUR_EACHGAP, 1}, {MNW_ID_MOTHUR_NOGAPS, 1},
    {MNW_ID_MOTHUR_ONEGAP, 0},  {MNW_ID_MOTHUR_EACHGAP, 0}, {MNW_ID_MOTHUR_NOGAPS, 0},
};
#define N_ROWS_DEFS (sizeof rows_defs / sizeof rows_defs[0])

static int rows_mode(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    int rc = 0;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        char *t2 = strrchr(line, '\t');
        if (!t2) {
            fprintf(stderr, "test_identity --rows: line %ld: no tab\n", lineno);
            rc = 1;
            continue;
        }
        *t2 = 0;
        char *t1 = strrchr(line, '\t');
        char *ra = t1 ? t1 + 1 : line;
        if (t1) *t1 = 0;
        pairaln p;
        if (from_rows(ra, t2 + 1, &p) != 0) {
            fprintf(stderr, "test_identity --rows: line %ld: bad rows\n", lineno);
            rc = 1;
            continue;
        }
        size_t L = 0;
        for (size_t k = 0; k < p.aln.nops; k++) L += MNW_RUN_LEN(p.aln.ops[k]);
        if (t1) printf("%s\t", line);
        printf("%zu\t%zu\t%zu", p.na, p.nb, L);
        for (size_t k = 0; k < N_ROWS_DEFS; k++)
            printf("\t%.10f", mnw_identity(&rows_defs[k], p.aln.ops, p.aln.nops, p.a, p.na, p.b, p.nb));
        for (size_t k = 0; k < N_ROWS_DEFS; k++) { /* each distance as dist.column.gz prints it */
            char d[MNW_FMT_DBL_MAX];
            mnw_iddist x = mnw_iddist_stats(&rows_defs[k], p.aln.ops, p.aln.nops, p.a, p.na, p.b, p.nb, NULL);
            d[mnw_fmt_g(d, x.dist, 6)] = 0;
            printf("\t%s", d);
        }
        printf("\n");
        pair_free(&p);
    }
    free(line);
    return rc;
}

/* ---------- column-by-column re-statements of each tool ------------------- */
/* Written from the tools' sources (vsearch 2.22.1 align_simd.cc backtrack16 +
 * searchcore.cc align_trim; EMBOSS 6.6 ajalign.c alignConsStats; mothur
 * 1.48.0 sequence.cpp + calculators/ onegapdist, eachgapdist, ignoregaps, onegapignore,
 * eachgapignore), literally column by column, to
 * cross-check the run-based formulas of identity.c. */

static unsigned vmask(char c)
{
    static const char *L = "ACGTRYSWKMBDHVN";
    static const unsigned m[] = {1, 2, 4, 8, 5, 10, 6, 9, 12, 3, 14, 13, 11, 7, 15};
    const char *p = strchr(L, c);
    return p && c ? m[p - L] : 0;
}

static void ref_vsearch(const char *A, const char *B, size_t na, size_t nb, double out[5])
{
    size_t L = strlen(A);
    long matches = 0, mism = 0, gaps = 0, len = (long)L;
    char prev = 0;
    for (size_t i = 0; i < L; i++) {
        char op = A[i] == '-' ? 'I' : B[i] == '-' ? 'D' : 'M';
        if (op == 'M') {
            if (vmask(A[i]) & vmask(B[i])) matches++;
            else mism++;
        } else if (op != prev) {
            gaps++;
        }
        prev = op;
    }
    /* trim: first run if a gap, last run if a gap (unless it was the whole
     * alignment and already trimmed) */
    long tl = 0, tr = 0;
    if (L && (A[0] == '-' || B[0] == '-')) {
        int inA = A[0] == '-';
        size_t i = 0;
        while (i < L && (inA ? A[i] == '-' : B[i] == '-')) i++;
        tl = (long)i;
    }
    if (L && (A[L - 1] == '-' || B[L - 1] == '-') && tl < len) {
        int inA = A[L - 1] == '-';
        size_t i = L;
        while (i > 0 && (inA ? A[i - 1] == '-' : B[i - 1] == '-')) i--;
        tr = (long)(L - i);
    }
    long internal = len - tl - tr;
    size_t sh = na < nb ? na : nb, lo = na > nb ? na : nb;
    out[0] = sh ? (double)matches / sh : 0;
    out[1] = len ? (double)matches / len : 0;
    out[2] = internal ? (double)matches / internal : 0;
    out[3] = lo ? fmax(0.0, 1.0 - (double)(mism + gaps) / lo) : 0;
    out[4] = out[1];
}

static double ref_needle(const char *A, const char *B)
{
    size_t L = strlen(A), id = 0;
    for (size_t i = 0; i < L; i++)
        if (A[i] != '-' && A[i] == B[i]) id++;
    return L ? (double)id / L : 0;
}

/* mothur's view of a row as pairwise.seqs hands it to the calculators
 * (Sequence::setAligned): upper case, letters other than ACGTN read as N,
 * and, only in a row that begins with a gap, its leading and trailing gaps
 * marked missing ('.'); a row that begins with a base keeps its trailing
 * gaps as '-'. */
static char *mothur_row(const char *r)
{
    size_t L = strlen(r);
    char *s = mnw_xmalloc(L + 1);
    for (size_t i = 0; i <= L; i++) {
        char c = r[i];
        s[i] = (c == 0 || c == '-' || c == '.' || strchr("ACGTN", c)) ? c : 'N';
    }
    if (L && s[0] == '-') {
        for (size_t i = 0; i < L && s[i] == '-'; i++) s[i] = '.';
        for (size_t i = L; i > 0 && s[i - 1] == '-'; i--) s[i - 1] = '.';
    }
    return s;
}

static int gapc(char c) { return c == '-' || c == '.'; }

/* returns mothur's distance */
static double ref_mothur(const char *A0, const char *B0, mnw_idkind kind, int countends)
{
    char *A = mothur_row(A0), *B = mothur_row(B0);
    long L = (long)strlen(A), diff = 0, den;
    double dist = 1.0;
    if (kind == MNW_ID_MOTHUR_NOGAPS) { /* ignoreGaps, either countends */
        long start = -1, end = -1;
        for (long i = 0; i < L; i++)
            if (A[i] != '.' && B[i] != '.') { start = i; break; }
        for (long i = L - 1; i >= 0; i--)
            if (A[i] != '.' && B[i] != '.') { end = i; break; }
        if (start < 0) goto out;
        den = end - start + 1;
        for (long i = start; i < L; i++) {
            if (A[i] == '.' || B[i] == '.') break;
            if (A[i] != '-' && B[i] != '-') diff += A[i] != B[i];
            else den--;
        }
        dist = den ? (double)diff / den : 1.0;
    } else if (countends) {
        long start = 0, end = 0;
        for (long i = 0; i < L; i++)
            if (A[i] != '.' || B[i] != '.') { start = i; break; }
        for (long i = L - 1; i >= 0; i--)
            if (A[i] != '.' || B[i] != '.') { end = i; break; }
        den = end - start + 1;
        int openA = 0, openB = 0;
        for (long i = start; i < L; i++) {
            if (gapc(A[i]) && gapc(B[i])) {
                if (A[i] == '.' && B[i] == '.') break;
                den--;
            } else if (kind == MNW_ID_MOTHUR_EACHGAP) {
                diff += A[i] != B[i];
            } else if (gapc(A[i])) {
                if (!openA) { diff++; openA = 1; openB = 0; } else den--;
            } else if (gapc(B[i])) {
                if (!openB) { diff++; openB = 1; openA = 0; } else den--;
            } else {
                openA = openB = 0;
                diff += A[i] != B[i];
            }
        }
        dist = den ? (double)diff / den : 1.0;
    } else {
        long start = -1, end = -1;
        for (long i = 0; i < L; i++)
            if (!gapc(A[i]) && !gapc(B[i])) { start = i; break; }
        for (long i = L - 1; i >= 0; i--)
            if (!gapc(A[i]) && !gapc(B[i])) { end = i; break; }
        if (start < 0) goto out;
        if (kind == MNW_ID_MOTHUR_ONEGAP) {
            den = end - start; /* sic: one less than the columns counted */
            int openA = 0, openB = 0;
            for (long i = start; i <= end; i++) {
                if (A[i] == '-' && B[i] == '-') den--;
                else if (A[i] == '-') { if (!openA) { diff++; openA = 1; openB = 0; } else den--; }
                else if (B[i] == '-') { if (!openB) { diff++; openB = 1; openA = 0; } else den--; }
                else { openA = openB = 0; diff += A[i] != B[i]; }
            }
        } else {
            den = end - start + 1;
            for (long i = start; i < L; i++) { /* runs past end until a '.' */
                if (A[i] == '.' || B[i] == '.') break;
                if (A[i] == '-' && B[i] == '-') den--;
                else diff += A[i] != B[i];
            }
        }
        dist = den ? (double)diff / den : 1.0;
    }
    if (dist > 1.0 || isnan(dist)) dist = 1.0; /* its "dist > cutoff" test */
out:
    free(A);
    free(B);
    return dist;
}

/* ---------- tests ---------------------------------------------------------- */

#define EPS 1e-12

typedef struct {
    const char *name, *A, *B;
    /* vsearch0..4, needle, onegap, eachgap, nogaps, onegap-F, eachgap-F, nogaps-F */
    double want[12];
} handcase;

static void check_case(const handcase *h)
{
    pairaln p;
    if (from_rows(h->A, h->B, &p) != 0) {
        T_OK(0, "%s: rows parse", h->name);
        return;
    }
    for (size_t k = 0; k < N_ROWS_DEFS; k++) {
        double got = mnw_identity(&rows_defs[k], p.aln.ops, p.aln.nops, p.a, p.na, p.b, p.nb);
        T_OK(fabs(got - h->want[k]) < EPS, "%s: %s = %.6f (want %.6f)", h->name,
             mnw_iddef_name(&rows_defs[k]), got, h->want[k]);
    }
    pair_free(&p);
}

static void hand_cases(void)
{
    static const handcase cases[] = {
        {"identical", "ACGT", "ACGT", {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"one mismatch in 10", "ACGTACGTAC", "ACGTTCGTAC",
         {.9, .9, .9, .9, .9, .9, .9, .9, .9, 1 - 1. / 9, .9, .9}},
        /* b longer at both ends: terminal gaps in a (D runs) */
        {"terminal gaps in a", "--ACGTACGT---", "TTACGTACGTGGG",
         {1, 8. / 13, 1, 11. / 13, 8. / 13, 8. / 13, .8, 8. / 13, 1, 1, 1, 1}},
        /* leading gap in b, trailing gap in a: a begins with a base, so
         * mothur keeps its trailing gaps as '-' and eachgap countends=F
         * counts them (2 of the 6 columns from the first to the last pair) */
        {"terminal gaps on both sides", "TTACGTAC--", "--ACGTACGG",
         {.75, .6, 1, .75, .6, .6, .75, .6, 1, 1, 1 - 2. / 6, 1}},
        /* both ends gaps of b, which begins with them: both marked missing */
        {"terminal gaps of one row", "TTACGTACGG", "--ACGTAC--",
         {1, .6, 1, .8, .6, .6, 1 - 2. / 8, .6, 1, 1, 1, 1}},
        /* internal gap in a (D2) and in b (I1) */
        {"internal gaps in both", "ACGTA--CGTACG", "ACG-ACCCGTACG",
         {10. / 11, 10. / 13, 10. / 13, 10. / 12, 10. / 13, 10. / 13, 1 - 2. / 12, 10. / 13, 1,
          1 - 2. / 11, 10. / 13, 1}},
        /* a gap in a right next to a gap in b: two gap runs */
        {"adjacent D and I runs", "AC-GT", "ACG-T",
         {.75, .6, .6, .5, .6, .6, .6, .6, 1, .5, .6, 1}},
        /* two gap runs at each end: vsearch trims only the outer run, mothur
         * eachgap-noends counts the inner trailing run in the numerator */
        {"double terminal runs", "TTT--ACGT--GGG", "---CCACGTCC---",
         {.5, 4. / 14, .5, .6, 4. / 14, 4. / 14, .5, 4. / 14, 1, 1, .5, 1}},
        /* =1 then R/A R/R R/Y N/A N/N B/A D/A */
        {"ambiguity codes", "ARRRNNBD", "AARYANAA",
         {.75, .75, .75, .75, .75, 3. / 8, .5, .5, .5, 1 - 4. / 7, .5, .5}},
        {"all N", "NNNN", "NNNN", {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
        {"N against bases", "NNNN", "ACGT", {1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}},
        {"lower case", "acgtn", "ACGTA", {1, 1, 1, 1, 1, .8, .8, .8, .8, .75, .8, .8}},
        /* every column a gap: b empty */
        {"b empty", "ACG", "---", {0, 0, 0, 2. / 3, 0, 0, 0, 0, 0, 0, 0, 0}},
        {"no pair column", "AC--", "--GT", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
        /* one aligned column: mothur onegap-noends divides by 0 -> distance 1 */
        {"single column", "A", "A", {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1}},
        {"single mismatch", "A", "C", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
        /* onegap-noends: distance over 1 is clamped to 1 */
        {"all mismatches", "AAAA", "CCCC", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(&cases[i]);

    /* empty alignment */
    mnw_iddef d;
    int all0 = 1;
    for (size_t k = 0; k < N_ROWS_DEFS; k++) {
        d = rows_defs[k];
        if (mnw_identity(&d, NULL, 0, NULL, 0, NULL, 0) != 0.0) all0 = 0;
    }
    T_OK(all0, "empty alignment: every definition gives 0");
}

static void names(void)
{
    static const char *const all[] = {
        "vsearch0", "vsearch1", "vsearch2", "vsearch3", "vsearch4", "needle",
        "mothur-onegap", "mothur-eachgap", "mothur-nogaps", "mothur-onegap-noends",
        "mothur-eachgap-noends", "mothur-nogaps-noends"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        mnw_iddef d = {MNW_ID_NEEDLE, 7};
        int rc = mnw_iddef_parse(all[i], &d);
        T_OK(rc == 0 && strcmp(mnw_iddef_name(&d), all[i]) == 0 &&
                 d.countends == (strstr(all[i], "noends") ? 0 : 1),
             "parse/name round trip: %s", all[i]);
    }
    static const char *const bad[] = {"", "vsearch5", "VSEARCH2", "needle-noends", "mothur",
                                      "mothur-onegap-", "vsearch2 "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mnw_iddef d = {MNW_ID_NEEDLE, 7};
        T_OK(mnw_iddef_parse(bad[i], &d) == -1 && d.kind == MNW_ID_NEEDLE && d.countends == 7,
             "parse rejects \"%s\"", bad[i]);
    }
    mnw_iddef d;
    T_OK(mnw_iddef_parse(NULL, &d) == -1, "parse rejects NULL");
    d = MNW_IDDEF_DEFAULT;
    T_OK(d.kind == MNW_ID_VSEARCH2 && strcmp(mnw_iddef_name(&d), "vsearch2") == 0,
         "default is vsearch2");
    d.kind = (mnw_idkind)42;
    T_OK(strcmp(mnw_iddef_name(&d), "?") == 0, "name of an invalid kind is \"?\"");
    d = (mnw_iddef){MNW_ID_VSEARCH3, 0};
    T_OK(strcmp(mnw_iddef_name(&d), "vsearch3") == 0, "countends ignored outside mothur");
}

/* random alignments: the run-based formulas against the column-by-column
 * re-statements, and symmetry under swapping a and b */
static uint64_t rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static char rbase(void)
{
    static const char *amb = "RYSWKMBDHVN";
    unsigned r = rnd(100);
    if (r < 8) return amb[rnd(11)];
    return "ACGT"[rnd(4)];
}

static void random_alignments(void)
{
    enum { NALN = 4000, MAXL = 60 };
    char A[2 * MAXL + 1], B[2 * MAXL + 1];
    long bad_v = 0, bad_n = 0, bad_m = 0, bad_sym = 0, bad_range = 0;
    for (int t = 0; t < NALN; t++) {
        size_t L = 0;
        size_t want = 1 + rnd(MAXL);
        while (L < want) { /* runs of random kind and length */
            unsigned kind = rnd(t % 3 == 0 ? 3 : 5), len = 1 + rnd(t % 2 ? 3 : 8);
            for (unsigned i = 0; i < len && L < 2 * MAXL; i++, L++) {
                if (kind == 0) { A[L] = rbase(); B[L] = '-'; }
                else if (kind == 1) { A[L] = '-'; B[L] = rbase(); }
                else if (kind == 2 && rnd(2)) { A[L] = rbase(); B[L] = rbase(); }
                else { A[L] = B[L] = rbase(); }
            }
        }
        A[L] = B[L] = 0;
        pairaln p, q;
        if (from_rows(A, B, &p) || from_rows(B, A, &q)) {
            T_OK(0, "random rows parse");
            return;
        }
        double rv[5];
        ref_vsearch(A, B, p.na, p.nb, rv);
        for (int k = 0; k < 5; k++)
            if (fabs(ident((mnw_idkind)(MNW_ID_VSEARCH0 + k), 1, &p) - rv[k]) > EPS) {
                if (bad_v++ < 3) printf("# vsearch%d %s / %s\n", k, A, B);
            }
        if (fabs(ident(MNW_ID_NEEDLE, 1, &p) - ref_needle(A, B)) > EPS) bad_n++;
        for (int ce = 0; ce <= 1; ce++)
            for (int k = MNW_ID_MOTHUR_ONEGAP; k <= MNW_ID_MOTHUR_NOGAPS; k++) {
                double got = 1.0 - ident((mnw_idkind)k, ce, &p);
                double ref = ref_mothur(A, B, (mnw_idkind)k, ce);
                if (fabs(got - ref) > EPS) {
                    if (bad_m++ < 3)
                        printf("# mothur kind %d countends %d: %g vs %g: %s / %s\n", k, ce, got,
                               ref, A, B);
                }
            }
        for (size_t k = 0; k < N_ROWS_DEFS; k++) {
            double x = mnw_identity(&rows_defs[k], p.aln.ops, p.aln.nops, p.a, p.na, p.b, p.nb);
            double y = mnw_identity(&rows_defs[k], q.aln.ops, q.aln.nops, q.a, q.na, q.b, q.nb);
            if (x != y) bad_sym++;
            if (!(x >= 0.0 && x <= 1.0)) bad_range++;
        }
        pair_free(&p);
        pair_free(&q);
    }
    T_OK(bad_v == 0, "random alignments: vsearch0..4 = column-by-column vsearch (%ld differ)", bad_v);
    T_OK(bad_n == 0, "random alignments: needle = column-by-column EMBOSS (%ld differ)", bad_n);
    T_OK(bad_m == 0, "random alignments: mothur x3 x countends = column-by-column mothur (%ld differ)",
         bad_m);
    T_OK(bad_sym == 0, "random alignments: symmetric in (a, b) (%ld differ)", bad_sym);
    T_OK(bad_range == 0, "random alignments: every value in [0,1] (%ld outside)", bad_range);
}

/* the rows helper converts rows the way the tests expect */
static void rows_conversion(void)
{
    pairaln p;
    int rc = from_rows("..AC-GTN-", "-TAARGT--", &p);
    char ops[64] = "";
    for (size_t k = 0; rc == 0 && k < p.aln.nops; k++)
        snprintf(ops + strlen(ops), sizeof ops - strlen(ops), "%u%c", MNW_RUN_LEN(p.aln.ops[k]),
                 mnw_op_char[MNW_RUN_OP(p.aln.ops[k])]);
    T_OK(rc == 0 && strcmp(ops, "1D1=1X1D2=1I") == 0 && p.na == 5 && p.nb == 6,
         "rows -> ops: %s (gap-gap column dropped)", ops);
    if (rc == 0) pair_free(&p);
    T_OK(from_rows("ACGT", "ACG", &p) == -1, "rows of different lengths rejected");
    T_OK(from_rows("ACXT", "ACGT", &p) == -1, "non-nucleotide letter rejected");
}

/* Deliverable 5 of issue 41: a mothur definition's distance is its quotient
 * as mothur divides it, so that it prints mothur's sixth digit: 13
 * differences in 1280 columns is 0.0101563 in mothur's files; 1 - identity
 * prints 0.0101562. Every mothur definition on such a pair, and one where
 * the identity is printed (vsearch2: 1 - identity, as before). */
static void exact_distances(void)
{
    char A[1281], B[1281];
    memset(A, 'A', 1280);
    memset(B, 'A', 1280);
    memset(B + 600, 'C', 13);
    A[1280] = B[1280] = 0;
    pairaln p;
    if (from_rows(A, B, &p) != 0) {
        T_OK(0, "exact distances: rows parse");
        return;
    }
    for (size_t k = 6; k < N_ROWS_DEFS; k++) {
        if (rows_defs[k].kind == MNW_ID_MOTHUR_ONEGAP && !rows_defs[k].countends) continue; /* 13/1279 */
        mnw_iddist d = mnw_iddist_stats(&rows_defs[k], p.aln.ops, p.aln.nops, p.a, p.na, p.b, p.nb, NULL);
        char got[MNW_FMT_DBL_MAX], alt[MNW_FMT_DBL_MAX];
        got[mnw_fmt_g(got, d.dist, 6)] = 0;
        alt[mnw_fmt_g(alt, 1.0 - d.id, 6)] = 0;
        T_OK(d.dist == 13.0 / 1280.0 && !strcmp(got, "0.0101563") && !strcmp(alt, "0.0101562") && d.id == 1.0 - d.dist,
             "%s: 13/1280 is the quotient, printed %s as mothur does (1 - identity would print %s)",
             mnw_iddef_name(&rows_defs[k]), got, alt);
    }
    mnw_iddist v = mnw_iddist_stats(&rows_defs[2], p.aln.ops, p.aln.nops, p.a, p.na, p.b, p.nb, NULL);
    T_OK(v.id == 1267.0 / 1280.0 && v.dist == 1.0 - v.id, "vsearch2: identity 1267/1280, distance 1 - identity");
    pair_free(&p);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--rows") == 0) return rows_mode();
    if (argc > 1) {
        fprintf(stderr, "usage: test_identity [--rows]\n");
        return 2;
    }
    hand_cases();
    names();
    rows_conversion();
    random_alignments();
    exact_distances();
    return t_exit();
}
