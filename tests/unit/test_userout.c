/* test_userout.c - lib/userout.c on alignments built by hand, each field
 * against a value worked out by hand from vsearch's definitions (its
 * results.cc and searchcore.cc, as lib/userout.h states them): terminal gap
 * runs on both sides and of both sequences (vsearch's trims), an alignment
 * of one gap run (zero denominators, vsearch's right trim zeroed), ambiguity
 * codes (vsearch's overlap rule: N/C and R/G match, B/A does not), caln's
 * runs (= and X merged into M, a length of 1 left out); the --userfields
 * parser (vsearch's names joined by '+', a name twice, the refusals with the
 * name) and its canonical spelling; t_userout.sh compares with vsearch
 * itself on real genes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/aln.h"
#include "lib/buf.h"
#include "lib/seq.h"
#include "lib/userout.h"
#include "tests/tap.h"

#define ALL "query+target+evalue+id+pctpv+pctgaps+pairs+gaps+qlo+qhi+tlo+thi+pv+ql+tl+qs+ts+alnlen+opens+exts+raw+bits+" \
            "caln+qstrand+tstrand+qframe+tframe+mism+ids+qcov+tcov+id0+id1+id2+id3+id4+qilo+qihi+tilo+tihi"

static void codes(const char *s, uint8_t *out)
{
    for (size_t k = 0; s[k]; k++) out[k] = mnw_code_of[(unsigned char)s[k]];
}

/* the line of runs "I2 =2 X1 ..." (op letter, length) for i over j */
static const char *line(const char *runs, int score, const char *si, const char *sj, const char *fields, int id_kind)
{
    static mnw_buf b;
    static int init;
    if (!init) mnw_buf_init(&b), init = 1;
    b.len = 0;
    mnw_aln a;
    mnw_aln_init(&a);
    for (const char *p = runs; *p;) {
        int op = *p == '=' ? MNW_OP_EQ : *p == 'X' ? MNW_OP_X : *p == 'I' ? MNW_OP_I : MNW_OP_D;
        char *end;
        long n = strtol(p + 1, &end, 10);
        mnw_aln_push(&a, op, (uint32_t)n);
        p = end;
        while (*p == ' ') p++;
    }
    a.score = score;
    uint8_t ci[64], cj[64];
    codes(si, ci);
    codes(sj, cj);
    mnw_userfields uf;
    mnw_err e;
    if (mnw_userfields_parse(fields, "test", &uf, &e)) abort();
    mnw_userout_line(&b, &uf, id_kind, &a, "ti", 2, ci, strlen(si), "qj", 2, cj, strlen(sj));
    mnw_aln_free(&a);
    mnw_buf_putc(&b, 0);
    return b.p;
}

int main(void)
{
    /* i (target) GGACGTA over j (query) ACCTAT: 2I 2= 1X 2= 1D. L 8, pairs 5,
     * M 4, mism 1, gap runs 2, terminal: the target's 2 at the left, the
     * query's 1 at the right (T 3); id0 400/6, id1 400/8, id2 400/5, id3
     * 100 (1 - 3/7), qcov 500/6, tcov 500/7 */
    const char *l = line("I2 =2 X1 =2 D1", -7, "GGACGTA", "ACCTAT", ALL, 2);
    T_OK(!strcmp(l, "qj\tti\t-1\t80.0\t80.0\t0.0\t5\t0\t1\t6\t1\t7\t4\t6\t7\t6\t7\t5\t0\t0\t-7\t0\t2I5MD\t+\t+\t+0\t+0\t1\t4\t"
                    "83.3\t71.4\t66.7\t50.0\t80.0\t57.1\t50.0\t1\t5\t3\t7\n"),
         "terminal gaps of both sequences at both ends: every field as worked out (%s)", l);
    l = line("I2 =2 X1 =2 D1", -7, "GGACGTA", "ACCTAT", "id", 3);
    T_OK(!strcmp(l, "57.1\n"), "id follows the definition asked for (vsearch3: %s)", l);
    l = line("I2 =2 X1 =2 D1", -7, "GGACGTA", "ACCTAT", "id0+id0+query", 2);
    T_OK(!strcmp(l, "66.7\t66.7\tqj\n"), "a field named twice is written twice, in the order given (%s)", l);
    /* the query's leading gap run and an interior one of each kind: D1 =3 I1 =1 D2 =1 */
    l = line("D1 =3 I1 =1 D2 =1", 0, "ACGTAC", "TACGAGGC", "alnlen+opens+exts+gaps+qilo+qihi+tilo+tihi+caln", 2);
    T_OK(!strcmp(l, "8\t2\t1\t3\t2\t8\t1\t6\tD3MIM2DM\n"),
         "interior gaps counted, the query's leading run trimmed (qilo 2), lengths of 1 left out (%s)", l);
    /* one gap run: the target is empty; vsearch zeroes the right trim */
    l = line("D5", 0, "", "ACGTA", "alnlen+mism+opens+gaps+id0+id1+id2+id3+qilo+qihi+tilo+tihi+caln+qcov+tcov", 2);
    T_OK(!strcmp(l, "0\t0\t0\t0\t0.0\t0.0\t0.0\t80.0\t6\t5\t1\t0\t5D\t0.0\t0.0\n"),
         "an alignment of one gap run: zero denominators give 0.0, the right trim zeroed (%s)", l);
    /* ambiguity codes: N/C and R/G match in vsearch, B/A does not (B = CGT) */
    l = line("=1 X3 =1", 0, "ANRBT", "ACGAT", "ids+mism+pairs+id1+caln", 2);
    T_OK(!strcmp(l, "4\t1\t5\t80.0\t5M\n"), "ambiguity codes by vsearch's overlap rule: N/C, R/G match, B/A not (%s)", l);

    mnw_userfields uf, keep;
    mnw_err e;
    char buf[512];
    {   /* a zeroed list (an outspec built without one) writes the default fields */
        char dflt[512];
        snprintf(dflt, sizeof dflt, "%s", line("I2 =2 X1 =2 D1", -7, "GGACGTA", "ACCTAT", MNW_USERFIELDS_DEFAULT, 2));
        mnw_aln a;
        mnw_aln_init(&a);
        mnw_aln_push(&a, MNW_OP_I, 2), mnw_aln_push(&a, MNW_OP_EQ, 2), mnw_aln_push(&a, MNW_OP_X, 1);
        mnw_aln_push(&a, MNW_OP_EQ, 2), mnw_aln_push(&a, MNW_OP_D, 1);
        a.score = -7;
        uint8_t ci[8], cj[8];
        codes("GGACGTA", ci), codes("ACCTAT", cj);
        const mnw_userfields zero = {0};
        mnw_buf b;
        mnw_buf_init(&b);
        mnw_userout_line(&b, &zero, 2, &a, "ti", 2, ci, 7, "qj", 2, cj, 6);
        T_OK(b.len == strlen(dflt) && !memcmp(b.p, dflt, b.len) && b.len > 20,
             "a zeroed field list writes the default list's line (%.*s)", (int)b.len - 1, b.p);
        mnw_buf_free(&b);
        mnw_aln_free(&a);
    }
    T_OK(mnw_userfields_parse(ALL, "x", &uf, &e) == 0 && uf.n == 40 &&
             !strcmp(mnw_userfields_format(&uf, buf, sizeof buf), ALL),
         "all 40 names parse and spell back the same");
    T_OK(mnw_userfields_parse(MNW_USERFIELDS_DEFAULT, "x", &uf, &e) == 0 && uf.n == 13 &&
             mnw_userfields_has(&uf, MNW_UF_CALN) && !mnw_userfields_has(&uf, MNW_UF_ID),
         "the default list: 13 fields, caln among them");
    keep = uf;
    T_OK(mnw_userfields_parse("query+aln", "cfg:3", &uf, &e) == -1 && strstr(e.msg, "cfg:3") &&
             strstr(e.msg, "unknown field 'aln'") && !memcmp(&uf, &keep, sizeof uf),
         "aln is refused, named with where it was given; the list unchanged (%s)", e.msg);
    T_OK(mnw_userfields_parse("", "x", &uf, &e) == -1 && mnw_userfields_parse("query+", "x", &uf, &e) == -1 &&
             mnw_userfields_parse("+query", "x", &uf, &e) == -1 && strstr(e.msg, "empty field name"),
         "an empty list or name is refused");
    char many[1024] = "query";
    for (int k = 1; k <= MNW_USERFIELDS_MAX; k++) strcat(many, "+ids");
    T_OK(mnw_userfields_parse(many, "x", &uf, &e) == -1 && strstr(e.msg, "more than"), "more than %d fields refused",
         MNW_USERFIELDS_MAX);
    return t_exit();
}
