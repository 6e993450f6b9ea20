/* check_output.c - verifies an mnw output directory against its input
 * (tests only). Usage:
 *   check_output FASTA PAIRS_TSV_GZ MATCH MISMATCH GAP_OPEN GAP_EXTEND FREE_ENDS
 *                [--parasail] [--ref N] [--tie mothur|needle] [--ambiguity mothur|ednafull] [--half] [--iddef NAME]
 * For every line of pairs.tsv.gz (written with --cigar): the pairs are all
 * there, in k order, with the right ids; the CIGAR consumes both sequences
 * exactly; re-scoring the CIGAR gives the score column; length, matches,
 * mismatches, gap_opens and gaps agree with the CIGAR; the identity column
 * equals vsearch2 recomputed. --parasail: every score equals parasail's
 * optimal score (parasail's score-only nw / sg, scan, 16-bit: the
 * CIGAR re-scores to the score column, so an equal optimum makes it an
 * optimal alignment) with the same scoring. Not the striped score-only
 * functions: Debian 12's parasail returns lower scores from
 * nw_striped_16/32 than from its own trace and scan variants on some 16S
 * pairs (docs/TESTING.md). --ref N: the first N pairs equal the reference aligner's
 * (score and CIGAR; --tie mothur: under mothur's tie rule). Prints "ok - ..." / "not ok - ..." lines. */
#include <parasail.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/fasta.h"
#include "lib/identity.h"
#include "lib/pairs.h"
#include "tests/ref/ref_nw.h"
#include "tests/ref/ref_rescore.h"

static int parse_cigar(const char *s, mnw_aln *a)
{
    mnw_aln_clear(a);
    while (*s) {
        char *end;
        unsigned long len = strtoul(s, &end, 10);
        if (end == s || len == 0) return -1;
        int op = *end == '=' ? MNW_OP_EQ : *end == 'X' ? MNW_OP_X : *end == 'I' ? MNW_OP_I : *end == 'D' ? MNW_OP_D : -1;
        if (op < 0) return -1;
        size_t before = a->nops;
        mnw_aln_push(a, op, (uint32_t)len);
        if (a->nops == before) return -1; /* two runs of one op in a row */
        s = end + 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: check_output FASTA PAIRS_TSV_GZ MATCH MISMATCH GAP_OPEN GAP_EXTEND FREE_ENDS [--parasail] [--ref N] [--tie mothur|needle] [--ambiguity mothur|ednafull] [--half] [--iddef NAME]\n");
        return 2;
    }
    mnw_scoring sc = {atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]), MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0};
    int use_parasail = 0;
    long nref = 0;
    mnw_iddef def = MNW_IDDEF_DEFAULT;
    for (int a = 8; a < argc; a++) {
        if (!strcmp(argv[a], "--parasail")) use_parasail = 1;
        else if (!strcmp(argv[a], "--ref") && a + 1 < argc) nref = atol(argv[++a]);
        else if (!strcmp(argv[a], "--tie") && a + 1 < argc) {
            a++;
            sc.tie = !strcmp(argv[a], "mothur") ? MNW_TIE_MOTHUR : !strcmp(argv[a], "needle") ? MNW_TIE_NEEDLE : MNW_TIE_MNW;
        } else if (!strcmp(argv[a], "--ambiguity") && a + 1 < argc) {
            a++;
            sc.amb = !strcmp(argv[a], "mothur") ? MNW_AMB_MOTHUR : !strcmp(argv[a], "ednafull") ? MNW_AMB_EDNAFULL : MNW_AMB_ZERO;
        } else if (!strcmp(argv[a], "--iddef") && a + 1 < argc) {
            if (mnw_iddef_parse(argv[++a], &def)) {
                fprintf(stderr, "check_output: unknown --iddef %s\n", argv[a]);
                return 2;
            }
        } else if (!strcmp(argv[a], "--half")) {
            sc.half = 1; /* the scoring's values in half points, the score column value / 2 */
        }
    }
    mnw_seqset s;
    mnw_seqset_init(&s);
    mnw_err e;
    if (mnw_fasta_read(argv[1], &s, &e)) {
        printf("not ok - read %s: %s\n", argv[1], e.msg);
        return 1;
    }
    gzFile gz = gzopen(argv[2], "rb");
    if (!gz) {
        printf("not ok - open %s\n", argv[2]);
        return 1;
    }
    parasail_matrix_t *mx = parasail_matrix_create("ACGTRYSWKMBDHVN", sc.match, sc.mismatch);
    for (int x = 0; x < MNW_NCODES; x++)
        for (int y = 0; y < MNW_NCODES; y++) parasail_matrix_set_value(mx, x, y, mnw_sub(&sc, (uint8_t)x, (uint8_t)y));
    char *letters = malloc(s.n ? s.codes_cap + 1 : 1);
    for (size_t k = 0; k < s.off[s.n]; k++) letters[k] = mnw_letter_of[s.codes[k]];

    static char line[1 << 20];
    mnw_aln a, r;
    mnw_aln_init(&a);
    mnw_aln_init(&r);
    uint64_t k = 0, npairs = mnw_npairs(s.n);
    long no_overlap = 0, bad_order = 0, bad_cigar = 0, bad_score = 0, bad_counts = 0, bad_id = 0, bad_parasail = 0, bad_ref = 0, refs = 0;
    int header = 1;
    while (gzgets(gz, line, sizeof line)) {
        if (header) {
            header = 0;
            if (strncmp(line, "i\tj\tid_i\tid_j\tscore\tlength\tmatches\tmismatches\tgap_opens\tgaps\tidentity\tcigar\n",
                        strlen(line))) {
                printf("not ok - header line: %s", line);
                return 1;
            }
            continue;
        }
        char *f[12] = {0};
        int nf = 0;
        char *p = line;
        line[strcspn(line, "\n")] = 0;
        while (nf < 12) {
            f[nf++] = p;
            p = strchr(p, '\t');
            if (!p) break;
            *p++ = 0;
        }
        uint64_t i, j;
        mnw_pair_ij(k, &i, &j);
        if (nf != 12 || strtoull(f[0], NULL, 10) != i || strtoull(f[1], NULL, 10) != j ||
            strcmp(f[2], mnw_seq_id(&s, i)) || strcmp(f[3], mnw_seq_id(&s, j))) {
            if (bad_order++ < 3) printf("# pair %llu: expected (%llu,%llu)\n", (unsigned long long)k, (unsigned long long)i, (unsigned long long)j);
            k++;
            continue;
        }
        const uint8_t *ca = mnw_seq_codes(&s, i), *cb = mnw_seq_codes(&s, j);
        int m = (int)mnw_seq_len(&s, i), n = (int)mnw_seq_len(&s, j);
        int score = sc.half ? (int)lround(2.0 * atof(f[4])) : atoi(f[4]);
        if (parse_cigar(f[11], &a)) {
            bad_cigar++;
            k++;
            continue;
        }
        int64_t sum;
        if (ref_rescore(&sc, ca, m, cb, n, a.ops, a.nops, &sum)) bad_cigar++;
        else if (sum != score) bad_score++;
        mnw_alnstats st;
        mnw_aln_stats(&a, &st);
        if (st.length != strtoul(f[5], NULL, 10) || st.matches != strtoul(f[6], NULL, 10) ||
            st.mismatches != strtoul(f[7], NULL, 10) || st.gap_opens != strtoul(f[8], NULL, 10) ||
            st.gaps != strtoul(f[9], NULL, 10))
            bad_counts++;
        char idbuf[64];
        snprintf(idbuf, sizeof idbuf, "%.6f", mnw_identity(&def, a.ops, a.nops, ca, (size_t)m, cb, (size_t)n));
        if (strcmp(idbuf, f[10])) bad_id++;
        if (use_parasail) {
            const char *la = letters + s.off[i], *lb = letters + s.off[j];
            parasail_result_t *pr = sc.free_ends
                ? parasail_sg_scan_16(la, m, lb, n, sc.gap_open, sc.gap_extend, mx)
                : parasail_nw_scan_16(la, m, lb, n, sc.gap_open, sc.gap_extend, mx);
            int want = parasail_result_get_score(pr);
            /* parasail's sg_* end only in cells with an aligned column; the
             * no-overlap alignment (score 0, every base against a gap) is one
             * more candidate for mnw (docs/SCORING.md) */
            if (sc.free_ends && want < 0 && score == 0 && st.matches + st.mismatches == 0) {
                want = 0;
                no_overlap++;
            }
            if (want != score) {
                if (bad_parasail++ < 3)
                    printf("# pair %llu: mnw %d parasail %d\n", (unsigned long long)k, score, parasail_result_get_score(pr));
            }
            parasail_result_free(pr);
        }
        if ((long)k < nref) {
            refs++;
            ref_nw(&sc, ca, m, cb, n, &r);
            if (r.score != score || r.nops != a.nops || memcmp(r.ops, a.ops, a.nops * sizeof *a.ops)) bad_ref++;
        }
        k++;
    }
    int zerr;
    gzerror(gz, &zerr);
    gzclose(gz);
    int fail = 0;
#define REPORT(cond, ...)                                      \
    do {                                                       \
        if (cond) printf("ok - "); else { printf("not ok - "); fail = 1; } \
        printf(__VA_ARGS__);                                   \
        printf("\n");                                          \
    } while (0)
    REPORT(zerr == Z_OK && k == npairs && bad_order == 0, "%s: all %llu pairs present, in k order, with their ids (%llu read)",
           argv[2], (unsigned long long)npairs, (unsigned long long)k);
    REPORT(bad_cigar == 0, "every CIGAR consumes both sequences, = and X as the bases say (%ld bad)", bad_cigar);
    REPORT(bad_score == 0, "every CIGAR re-scores to the score column (%ld differ)", bad_score);
    REPORT(bad_counts == 0, "length/matches/mismatches/gap_opens/gaps agree with every CIGAR (%ld differ)", bad_counts);
    REPORT(bad_id == 0, "identity column equals %s of the CIGAR (%ld differ)", mnw_iddef_name(&def), bad_id);
    if (use_parasail)
        REPORT(bad_parasail == 0, "every score equals parasail's %s_scan_16 (%ld differ; %ld no-overlap pairs at 0)",
               sc.free_ends ? "sg" : "nw", bad_parasail, no_overlap);
    if (nref) REPORT(bad_ref == 0, "first %ld pairs identical to the reference aligner (%ld differ)", refs, bad_ref);
    parasail_matrix_free(mx);
    free(letters);
    mnw_aln_free(&a);
    mnw_aln_free(&r);
    mnw_seqset_free(&s);
    return fail;
}
