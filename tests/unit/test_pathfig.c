/* test_pathfig.c - counts mode (issue 20): the figures the trace-back walk
 * counts without keeping runs (mnw_tb_walk_fig, through the CPU aligner with
 * mnw_cpu_ws_figures) equal, field for field, those counted from the same
 * alignment's runs (mnw_pathfig_of_runs), for every identity definition,
 * in six scoring modes, on real 16S genes (tests/data/16s-200.fa), real
 * genes with IUPAC codes (tests/data/gold-sample.fa.gz) and made-up pairs
 * that give leading and trailing gaps of both kinds, I next to D, runs
 * of ambiguity codes and one-base sequences; and that the identity and
 * pairs.tsv figures computed from them (mnw_identity_fig,
 * mnw_pathfig_stats) equal mnw_identity_stats's on the runs, bit for bit.
 * The plain reference aligner checks the runs themselves elsewhere
 * (test_nw.c); here the two ways of counting one path must agree.
 * MNW_TEST_QUICK=1 (the sanitizer runs): 8 genes of each set instead of 16. */
#include <stdlib.h>
#include <string.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/seq.h"
#include "tests/tap.h"
#include "workers/cpu/nw_cpu.h"

static const mnw_scoring modes[] = {
    {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, /* the default: linear */
    {4, -5, 12, 3, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},  /* affine */
    {4, -5, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, /* linear, free end gaps */
    {4, -5, 12, 3, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},  /* affine, free end gaps */
    {1, -1, 1, 1, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},   /* cheap gaps: many runs, I next to D */
    {2, -3, 5, 1, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},   /* cheap extension, free end gaps */
};
#define NMODES (sizeof modes / sizeof *modes)

static const char *const iddefs[] = {"vsearch0",       "vsearch1",      "vsearch2",
                                     "vsearch3",       "vsearch4",      "needle",
                                     "mothur-onegap",  "mothur-eachgap", "mothur-nogaps",
                                     "mothur-onegap-noends", "mothur-eachgap-noends", "mothur-nogaps-noends"};
#define NIDDEFS (sizeof iddefs / sizeof *iddefs)

/* one call of the aligner: query a against targets b[0 .. count) (lanes) */
typedef struct {
    const uint8_t *a;
    int m;
    const uint8_t *b[16];
    int n[16];
    int count;
} group;

static int same_fig(const mnw_pathfig *x, const mnw_pathfig *y) { return !memcmp(x, y, sizeof *x); }

static void fig_str(const mnw_pathfig *f, char *buf, size_t cap)
{
    snprintf(buf, cap, "pairs %u matches %u eq %u opens %u gaps %u lead %u/%u trail %u/%u first %u last %u one-row ends %u",
             f->pairs, f->matches, f->eq, f->gap_opens, f->gaps, f->lead_cols, f->lead_runs, f->trail_cols,
             f->trail_runs, f->first_gap, f->last_gap, f->ends_one_row);
}

/* Codes of a made-up sequence: len codes from s (a string of seq.h letters). */
static uint8_t *codes_of(const char *s, int *len)
{
    size_t n = strlen(s);
    uint8_t *c = malloc(n ? n : 1);
    for (size_t k = 0; k < n; k++) {
        int code = -1;
        for (int x = 0; x < MNW_NCODES; x++)
            if (mnw_letter_of[x] == s[k]) code = x;
        c[k] = (uint8_t)(code < 0 ? 14 : code);
    }
    *len = (int)n;
    return c;
}

int main(void)
{
    mnw_err e;
    mnw_seqset S, G;
    mnw_seqset_init(&S);
    mnw_seqset_init(&G);
    if (mnw_fasta_read("tests/data/16s-200.fa", &S, &e) || mnw_fasta_read("tests/data/gold-sample.fa.gz", &G, &e)) {
        T_OK(0, "read the test data: %s", e.msg);
        return t_exit();
    }

    /* the pairs: all pairs of 16 real genes, of 16 gold genes (one aligner
     * call per query, its targets in lanes), and made-up ones */
    const char *qk = getenv("MNW_TEST_QUICK");
    const int NREAL = qk && *qk && strcmp(qk, "0") ? 8 : 16, NGOLD = NREAL;
    static const char *const made[][2] = {
        {"ACGTACGTAC", "TTACGTACGTACGG"},       {"GGGGACGTACGTAAAA", "ACGTACGT"},
        {"ACGTNNNNACGT", "ACGTRYKMACGT"},       {"A", "C"},
        {"A", "ACGTTGCA"},                      {"NNNNNNNN", "ACGTACGT"},
        {"ACGTTTTTTACG", "ACGTACG"},            {"AAAACCCC", "CCCCGGGG"},
        {"ACGTACGTACGTAAAAAAAA", "TTTTTTTTACGTACGTACGT"}, {"RYSWKMBDHVN", "NVHDBMKWSYR"},
        {"ACGTACGTACGTACGTACGTACGT", "ACGTAGTACGTACTACGTACGGT"}, {"TTTTT", "AAAAA"},
    };
    const int nmade = (int)(sizeof made / sizeof *made);
    group *P = calloc((size_t)(NREAL + NGOLD + 2 * nmade), sizeof *P);
    uint8_t **own = calloc((size_t)(4 * nmade), sizeof *own);
    int ng = 0, nown = 0, np = 0;
    for (int set = 0; set < 2; set++) {
        const mnw_seqset *X = set ? &G : &S;
        const int nseq = set ? (NGOLD < (int)G.n ? NGOLD : (int)G.n) : NREAL;
        for (int i = 1; i < nseq; i++) {
            group *g = &P[ng++];
            g->a = mnw_seq_codes(X, (size_t)i);
            g->m = (int)mnw_seq_len(X, (size_t)i);
            for (int j = 0; j < i; j++) {
                g->b[g->count] = mnw_seq_codes(X, (size_t)j);
                g->n[g->count++] = (int)mnw_seq_len(X, (size_t)j);
            }
            np += g->count;
        }
    }
    for (int k = 0; k < nmade; k++) {
        int la, lb;
        uint8_t *a = codes_of(made[k][0], &la), *b = codes_of(made[k][1], &lb);
        own[nown++] = a;
        own[nown++] = b;
        P[ng++] = (group){a, la, {b}, {lb}, 1};
        P[ng++] = (group){b, lb, {a}, {la}, 1}; /* and the other way round */
        np += 2;
    }
    printf("# %d pairs: %d of 16S genes, %d of gold genes (IUPAC codes), %d made up\n", np,
           NREAL * (NREAL - 1) / 2, NGOLD * (NGOLD - 1) / 2, 2 * nmade);

    mnw_iddef defs[NIDDEFS];
    mnw_eqtab tabs[NIDDEFS];
    for (size_t d = 0; d < NIDDEFS; d++) {
        T_OK(mnw_iddef_parse(iddefs[d], &defs[d]) == 0, "iddef %s parses", iddefs[d]);
        mnw_eqtab_of(&defs[d], &tabs[d]);
    }

    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    mnw_aln runs[16], fig[16];
    for (int k = 0; k < 16; k++) {
        mnw_aln_init(&runs[k]);
        mnw_aln_init(&fig[k]);
    }
    for (size_t mi = 0; mi < NMODES; mi++) {
        const mnw_scoring *sc = &modes[mi];
        long bad_fig = 0, bad_id = 0, bad_st = 0, bad_flag = 0, seen_lead = 0, seen_trail = 0, seen_id = 0,
             seen_one_row = 0;
        char first_bad[1024] = "";
        for (int p = 0; p < ng; p++) {
            const group *x = &P[p];
            mnw_cpu_ws_figures(ws, NULL);
            mnw_cpu_align(ws, sc, x->a, x->m, x->b, x->n, x->count, runs);
            for (size_t d = 0; d < NIDDEFS; d++) {
                /* the walk's figures depend on the definition only through
                 * its table: once per table that differs from the last */
                if (d == 0 || memcmp(&tabs[d], &tabs[d - 1], sizeof tabs[d])) {
                    mnw_cpu_ws_figures(ws, &tabs[d]);
                    mnw_cpu_align(ws, sc, x->a, x->m, x->b, x->n, x->count, fig);
                }
                for (int l = 0; l < x->count; l++) {
                    const mnw_aln *R = &runs[l], *F = &fig[l];
                    const size_t m = (size_t)x->m, n = (size_t)x->n[l];
                    if (!F->has_fig || F->nops != 0 || F->score != R->score) bad_flag++;
                    mnw_pathfig want;
                    mnw_pathfig_of_runs(&defs[d], R->ops, R->nops, x->a, m, x->b[l], n, &want);
                    if (!same_fig(&want, &F->fig) && !bad_fig++) {
                        char w[200], g[200];
                        fig_str(&want, w, sizeof w);
                        fig_str(&F->fig, g, sizeof g);
                        snprintf(first_bad, sizeof first_bad, "group %d lane %d %s: runs %s; walk %s", p, l, iddefs[d],
                                 w, g);
                    }
                    mnw_alnstats s1, s2;
                    mnw_iddist id1 = mnw_iddist_stats(&defs[d], R->ops, R->nops, x->a, m, x->b[l], n, &s1);
                    mnw_iddist id2 = mnw_iddist_fig(&defs[d], &F->fig, m, n);
                    double id3 = mnw_identity_stats(&defs[d], R->ops, R->nops, x->a, m, x->b[l], n, NULL);
                    mnw_pathfig_stats(&F->fig, &s2);
                    if (memcmp(&id1.id, &id2.id, sizeof id1.id) || memcmp(&id1.dist, &id2.dist, sizeof id1.dist) ||
                        memcmp(&id1.id, &id3, sizeof id3))
                        bad_id++;
                    if (want.ends_one_row) seen_one_row++;
                    if (memcmp(&s1, &s2, sizeof s1)) bad_st++;
                    if (want.lead_cols && want.pairs) seen_lead++;
                    if (want.trail_runs > 1) seen_trail++;
                    if (want.eq != want.matches) seen_id++;
                }
            }
        }
        T_OK(bad_flag == 0, "mode %zu: counts mode gives figures, no runs, the same score (%ld of %d wrong)", mi, bad_flag,
             np * (int)NIDDEFS);
        T_OK(bad_fig == 0, "mode %zu (%d/%d/%d/%d%s): walk figures == figures of the runs, %d pairs x %zu definitions "
                           "(%ld differ)%s%s",
             mi, sc->match, sc->mismatch, sc->gap_open, sc->gap_extend, sc->free_ends ? " free ends" : "", np, NIDDEFS,
             bad_fig, bad_fig ? "; first: " : "", first_bad);
        T_OK(bad_id == 0 && bad_st == 0, "mode %zu: identity, distance and pairs.tsv figures from the figures == from "
                                         "the runs, bit for bit (%ld, %ld differ; %ld pairs with both ends gaps of one row)",
             mi, bad_id, bad_st, seen_one_row);
        T_OK(seen_lead > 0 && seen_id > 0, "mode %zu: the pairs cover leading gaps (%ld) and ambiguity columns counted as "
                                           "identical (%ld); several trailing runs: %ld",
             mi, seen_lead, seen_id, seen_trail);
    }
    for (int k = 0; k < 16; k++) {
        mnw_aln_free(&runs[k]);
        mnw_aln_free(&fig[k]);
    }
    mnw_cpu_ws_free(ws);
    for (int k = 0; k < nown; k++) free(own[k]);
    free(own);
    free(P);
    mnw_seqset_free(&S);
    mnw_seqset_free(&G);
    return t_exit();
}
