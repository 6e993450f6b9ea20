/* test_nw.c - every CPU kernel variant (AVX2/SSE4.1 x 16/32-bit) and the
 * dispatcher against the plain reference aligner: random sequences in every
 * scoring mode, edge cases (length 0 and 1, very different lengths, all-N,
 * no overlap), and overflow-prone scores that force 32-bit lanes. Each
 * alignment must also be self-consistent: its ops consume both sequences
 * and re-score to the reported score. */
#include <stdlib.h>
#include <string.h>

#include "tests/ref/ref_nw.h"
#include "tests/ref/ref_rescore.h"
#include "tests/tap.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/cpu/nw_kernel_int.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* random sequence; `amb` percent ambiguity codes; `rel` a related source */
static void rand_seq(uint8_t *s, int len, int amb, const uint8_t *rel, int rel_len)
{
    for (int i = 0; i < len; i++) {
        if (rel && i < rel_len && rnd() % 100 < 85) s[i] = rel[i];
        else s[i] = (uint8_t)(rnd() % 4);
        if ((int)(rnd() % 100) < amb) s[i] = (uint8_t)(4 + rnd() % 11);
    }
}

/* 1 if the ops consume a and b exactly and re-score to aln->score. */
static int consistent(const mnw_scoring *sc, const uint8_t *a, int m, const uint8_t *b, int n, const mnw_aln *al)
{
    int64_t s;
    if (ref_rescore(sc, a, m, b, n, al->ops, al->nops, &s)) return 0;
    if (s == al->score) return 1;
    /* needle's walk (as EMBOSS's): where the gap into its end cell beats
     * the cell's diagonal value, the path takes that gap before the free
     * trailing one, and its value is not the score (re-scored with both
     * terminal runs free, more) (score.h MNW_TIE_NEEDLE) */
    if (sc->tie != MNW_TIE_NEEDLE || al->nops < 2) return 0;
    const uint32_t o1 = al->ops[al->nops - 1] & 3u, o2 = al->ops[al->nops - 2] & 3u;
    return (o1 == MNW_OP_I && o2 == MNW_OP_D) || (o1 == MNW_OP_D && o2 == MNW_OP_I);
}

static int same(const mnw_aln *x, const mnw_aln *y)
{
    return x->score == y->score && x->nops == y->nops &&
           (x->nops == 0 || memcmp(x->ops, y->ops, x->nops * sizeof *x->ops) == 0);
}

typedef struct {
    const char *name;
    mnw_kernel_fn fn;
    int lanes;
    int wide; /* 32-bit */
} variant;

static const mnw_scoring modes[] = {
    {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, /* default: linear */
    {4, -5, 16, 4, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},  /* affine */
    {4, -5, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, /* linear, free end gaps */
    {2, -3, 5, 2, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},   /* affine, free end gaps */
    {1, 0, 0, 0, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},    /* degenerate: zero penalties, many ties */
    {5, -4, 12, 1, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},  /* affine, cheap extension */
    {1, -1, 2, 2, 1, MNW_TIE_MOTHUR, MNW_AMB_MOTHUR, 0, 0, 0, 0}, /* --like mothur: pairwise.seqs' scoring, ambiguity and tie rules */
    {4, -5, 10, 10, 0, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 0, 0, 0, 0}, /* mothur's rule, end gaps counted */
    {1, 0, 0, 0, 1, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 0, 0, 0, 0},   /* mothur's rule, zero penalties: ties everywhere */
    {4, -5, 16, 4, 1, MNW_TIE_MNW, MNW_AMB_MOTHUR, 0, 0, 0, 0},  /* mothur's ambiguity rule, affine */
    {2, -4, 20, 2, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 1, 2, 1, 0},     /* end gaps: vsearch's penalties (affine both) */
    {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 1, 3, 3, 0},    /* end gaps, linear both */
    {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 1, 6, 2, 0},    /* end gaps affine, interior linear */
    {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 1, 0, 0, 0},    /* end gaps that cost nothing */
    {1, -1, 2, 2, 0, MNW_TIE_MOTHUR, MNW_AMB_MOTHUR, 1, 1, 1, 0}, /* end gaps, mothur's rule (linear) */
    {2, -4, 20, 2, 0, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 1, 2, 1, 0},  /* vsearch's: end gaps, affine, D before I */
    {4, -5, 16, 4, 1, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 0, 0, 0, 0},  /* mothur's rule, affine, free end gaps */
    {10, -8, 20, 1, 1, MNW_TIE_NEEDLE, MNW_AMB_EDNAFULL, 0, 0, 0, 1}, /* --like needle: EDNAFULL, 10/0.5 in half points */
    {2, -2, 2, 2, 1, MNW_TIE_NEEDLE, MNW_AMB_EDNAFULL, 0, 0, 0, 0},  /* needle's rule, one gap cost: ties everywhere */
    {4, -5, 12, 1, 1, MNW_TIE_NEEDLE, MNW_AMB_ZERO, 0, 0, 0, 0},    /* needle's rule, mnw's ambiguity scores */
};
static const char *mode_name[] = {"linear", "affine", "linear+free-ends", "affine+free-ends", "zero-gap", "affine-cheap-ext",
                                  "mothur", "mothur-rule+end-gaps", "mothur-rule+zero-gap", "mothur-amb+affine+free-ends",
                                  "end-gaps 20/2 2/1", "end-gaps linear 10 3", "end-gaps 10 6/2", "end-gaps 10 0/0",
                                  "end-gaps mothur-rule 2 1", "vsearch 2/-4 20/2 2/1 D-before-I",
                                  "mothur-rule affine free-ends", "needle", "needle-rule 2/-2/2", "needle-rule 4/-5/12/1"};

/* ops as a forward CIGAR-like string ("1D1I") */
static const char *ops_str(const mnw_aln *al, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (uint32_t k = 0; k < al->nops && n + 16 < cap; k++)
        n += (size_t)snprintf(buf + n, cap - n, "%u%c", al->ops[k] >> 2, "=XID"[al->ops[k] & 3]);
    return buf;
}

#define MAXL 700

int main(void)
{
    __builtin_cpu_init();
    variant vs[6];
    int nv = 0;
    if (__builtin_cpu_supports("avx512bw")) {
        vs[nv++] = (variant){"avx512_16", mnw_nw_avx512_16, 32, 0};
        vs[nv++] = (variant){"avx512_32", mnw_nw_avx512_32, 16, 1};
    }
    if (__builtin_cpu_supports("avx2")) {
        vs[nv++] = (variant){"avx2_16", mnw_nw_avx2_16, 16, 0};
        vs[nv++] = (variant){"avx2_32", mnw_nw_avx2_32, 8, 1};
    }
    vs[nv++] = (variant){"sse41_16", mnw_nw_sse41_16, 8, 0};
    vs[nv++] = (variant){"sse41_32", mnw_nw_sse41_32, 4, 1};
    T_OK(mnw_cpu_isa() != NULL, "an instruction set is available: %s", mnw_cpu_isa());

    mnw_cpu_ws *ws = mnw_cpu_ws_new();
    static uint8_t qs[MAXL], ts[32][MAXL];
    mnw_aln out[32], ref;
    for (int l = 0; l < 32; l++) mnw_aln_init(&out[l]);
    mnw_aln_init(&ref);

    /* random property tests: each mode x variant, groups of various shapes */
    for (size_t mi = 0; mi < sizeof modes / sizeof *modes; mi++) {
        const mnw_scoring *sc = &modes[mi];
        for (int v = 0; v < nv; v++) {
            int bad = 0, checked = 0, incons = 0;
            for (int it = 0; it < 12; it++) {
                int shape = it % 6;
                int m = shape == 0 ? 1 + (int)(rnd() % 3) : shape == 1 ? 0 : 20 + (int)(rnd() % 300);
                int amb = it % 4 == 3 ? 30 : 2;
                rand_seq(qs, m, amb, NULL, 0);
                int count = 1 + (int)(rnd() % (unsigned)vs[v].lanes);
                const uint8_t *tp[32];
                int n[32];
                for (int l = 0; l < count; l++) {
                    int len;
                    if (shape == 2) len = (int)(rnd() % 4);            /* tiny vs long */
                    else if (shape == 3) len = 400 + (int)(rnd() % 300); /* much longer */
                    else len = m + (int)(rnd() % 41) - 20;
                    if (len < 0) len = 0;
                    rand_seq(ts[l], len, amb, qs, m);
                    tp[l] = ts[l];
                    n[l] = len;
                }
                if (!vs[v].wide) {
                    int fits = 1;
                    for (int l = 0; l < count; l++) fits &= mnw_fits16(sc, m, n[l]);
                    if (!fits) continue;
                }
                vs[v].fn(ws, sc, qs, m, tp, n, count, out);
                for (int l = 0; l < count; l++) {
                    ref_nw(sc, qs, m, tp[l], n[l], &ref);
                    checked++;
                    if (!same(&out[l], &ref)) bad++;
                    if (!consistent(sc, qs, m, tp[l], n[l], &out[l])) incons++;
                }
            }
            T_OK(bad == 0 && checked > 0, "%s %s: %d random pairs identical to the reference (%d differ)",
                 vs[v].name, mode_name[mi], checked, bad);
            T_OK(incons == 0, "%s %s: ops consume both sequences and re-score to the score", vs[v].name, mode_name[mi]);
        }
    }

    /* edge cases through the dispatcher */
    for (size_t mi = 0; mi < sizeof modes / sizeof *modes; mi++) {
        const mnw_scoring *sc = &modes[mi];
        struct { int m, n, amb; const char *what; } cases[] = {
            {1, 1, 0, "length 1 vs 1"}, {1, 500, 0, "length 1 vs 500"}, {500, 1, 0, "500 vs 1"},
            {0, 5, 0, "empty vs 5"},     {5, 0, 0, "5 vs empty"},       {0, 0, 0, "empty vs empty"},
            {300, 300, 100, "all ambiguity codes"}, {31, 33, 0, "31 vs 33"}, {650, 20, 0, "650 vs 20"},
        };
        for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
            rand_seq(qs, cases[k].m, cases[k].amb, NULL, 0);
            rand_seq(ts[0], cases[k].n, cases[k].amb, NULL, 0);
            if (cases[k].amb == 100) {
                memset(qs, MNW_CODE_N, (size_t)cases[k].m);
                memset(ts[0], MNW_CODE_N, (size_t)cases[k].n);
            }
            const uint8_t *tp[1] = {ts[0]};
            int n[1] = {cases[k].n};
            mnw_cpu_align(ws, sc, qs, cases[k].m, tp, n, 1, out);
            ref_nw(sc, qs, cases[k].m, ts[0], cases[k].n, &ref);
            T_OK(same(&out[0], &ref) && consistent(sc, qs, cases[k].m, ts[0], cases[k].n, &out[0]),
                 "%s: %s (score %d, ref %d)", mode_name[mi], cases[k].what, out[0].score, ref.score);
        }
    }

    /* the two tie rules by hand (docs/SCORING.md): A against C, gap 1,
     * mismatch -5: I + D (-2) beats the mismatch, and the cell (1, 1)
     * takes I (up) under mnw's rule, D (left) under mothur's, so mnw reads
     * 1D1I and mothur 1I1D. With free end gaps every path scores 0 or
     * less and the ends tie at 0: (1, 0) in the last row (mnw: 1I1D) and
     * (0, 1) in the last column (mothur: 1D1I). */
    {
        const uint8_t a[1] = {0}, b[1] = {1};
        const uint8_t *tp[1] = {b};
        int n[1] = {1};
        struct { mnw_scoring sc; const char *want; } hc[] = {
            {{4, -5, 1, 1, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, "1D1I"},
            {{4, -5, 1, 1, 0, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 0, 0, 0, 0}, "1I1D"},
            {{4, -5, 1, 1, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, "1I1D"},
            {{4, -5, 1, 1, 1, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 0, 0, 0, 0}, "1D1I"},
        };
        for (size_t k = 0; k < sizeof hc / sizeof *hc; k++) {
            char b1[64], b2[64];
            ref_nw(&hc[k].sc, a, 1, b, 1, &ref);
            mnw_cpu_align(ws, &hc[k].sc, a, 1, tp, n, 1, out);
            T_OK(!strcmp(ops_str(&ref, b1, sizeof b1), hc[k].want) && !strcmp(ops_str(&out[0], b2, sizeof b2), hc[k].want),
                 "A vs C, %s's rule%s: %s (reference %s, kernel %s)", hc[k].sc.tie ? "mothur" : "mnw",
                 hc[k].sc.free_ends ? ", free end gaps" : "", hc[k].want, b1, b2);
        }
    }

    /* ambiguity codes scored as mothur scores them (score.h): mothur reads
     * every ambiguity letter as N, so R against Y is a match, N against A
     * a mismatch, A against A a match; the default scores each 0. And one
     * alignment by hand: RY against YR, 1/-1/2: two matches (score 2), where
     * the same letter only would make it two mismatches or two gap pairs. */
    {
        const mnw_scoring let = {1, -1, 2, 2, 0, MNW_TIE_MOTHUR, MNW_AMB_MOTHUR, 0, 0, 0, 0},
                          zer = {1, -1, 2, 2, 0, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 0, 0, 0, 0};
        const uint8_t R = mnw_code_of[(unsigned char)'R'], Y = mnw_code_of[(unsigned char)'Y'],
                      N = mnw_code_of[(unsigned char)'N'], A = mnw_code_of[(unsigned char)'A'];
        T_OK(mnw_sub(&let, R, Y) == 1 && mnw_sub(&let, N, N) == 1 && mnw_sub(&let, N, A) == -1 &&
                 mnw_sub(&let, A, R) == -1 && mnw_sub(&let, A, A) == 1 && mnw_sub(&let, A, mnw_code_of['C']) == -1,
             "mothur's ambiguity rule: two ambiguity codes match, one against a base mismatches");
        T_OK(mnw_sub(&zer, R, Y) == 0 && mnw_sub(&zer, N, A) == 0 && mnw_sub(&zer, A, A) == 1,
             "mnw's ambiguity rule: 0 against anything");
        const uint8_t a[2] = {R, Y}, b[2] = {Y, R};
        const uint8_t *tp[1] = {b};
        int n[1] = {2};
        mnw_cpu_align(ws, &let, a, 2, tp, n, 1, out);
        ref_nw(&let, a, 2, b, 2, &ref);
        T_OK(out[0].score == 2 && ref.score == 2 && same(&out[0], &ref), "RY against YR by mothur's rule: score 2 (%d, ref %d)",
             out[0].score, ref.score);
    }

    /* EDNAFULL's ambiguity entries lie in [MNW_EDNAFULL_AMB_MIN,
     * MNW_EDNAFULL_AMB_MAX], both met (the int16 bound reads them), and the
     * table is symmetric */
    {
        int lo = 127, hi = -128, sym = 1;
        for (int x = 0; x < MNW_NCODES; x++)
            for (int y = 0; y < MNW_NCODES; y++) {
                sym &= mnw_ednafull[x][y] == mnw_ednafull[y][x];
                if (x < 4 && y < 4) continue;
                if (mnw_ednafull[x][y] < lo) lo = mnw_ednafull[x][y];
                if (mnw_ednafull[x][y] > hi) hi = mnw_ednafull[x][y];
            }
        T_OK(lo == MNW_EDNAFULL_AMB_MIN && hi == MNW_EDNAFULL_AMB_MAX && sym,
             "EDNAFULL's ambiguity entries from %d to %d, the table symmetric", lo, hi);
    }

    /* the rules differ where ties are: on random pairs (related or not)
     * with mothur's scoring some alignments change with the rule (so the
     * tests above would see a kernel that ignored it) */
    {
        mnw_scoring mo = {1, -1, 2, 2, 1, MNW_TIE_MOTHUR, MNW_AMB_ZERO, 0, 0, 0, 0}, mn = mo;
        mn.tie = MNW_TIE_MNW;
        int differ = 0, samescore = 1;
        for (int it = 0; it < 100; it++) {
            int m = 100 + (int)(rnd() % 100), nn = m + (int)(rnd() % 21) - 10;
            rand_seq(qs, m, 0, NULL, 0);
            rand_seq(ts[0], nn, 0, it % 2 ? qs : NULL, m); /* related or not */
            const uint8_t *tp[1] = {ts[0]};
            int n[1] = {nn};
            mnw_cpu_align(ws, &mo, qs, m, tp, n, 1, out);
            mnw_cpu_align(ws, &mn, qs, m, tp, n, 1, &out[1]);
            differ += !same(&out[0], &out[1]);
            samescore &= out[0].score == out[1].score;
        }
        T_OK(differ > 0 && samescore, "mothur's and mnw's rules: the same scores, other alignments on %d of 100 random pairs",
             differ);
    }

    /* unrelated sequences: no overlap worth having with free end gaps */
    {
        mnw_scoring sc = {4, -5, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0};
        memset(qs, 0, 50);
        memset(ts[0], 1, 50);
        const uint8_t *tp[1] = {ts[0]};
        int n[1] = {50};
        mnw_cpu_align(ws, &sc, qs, 50, tp, n, 1, out);
        ref_nw(&sc, qs, 50, ts[0], 50, &ref);
        T_OK(same(&out[0], &ref) && out[0].score == 0, "free end gaps, no overlap: score 0 (%d)", out[0].score);
    }

    /* scores that overflow int16: the dispatcher must choose 32-bit lanes */
    {
        mnw_scoring sc = {900, -900, 1000, 1000, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0};
        int m = 600;
        rand_seq(qs, m, 2, NULL, 0);
        const uint8_t *tp[16];
        int n[16];
        for (int l = 0; l < 11; l++) {
            n[l] = 550 + l * 7;
            rand_seq(ts[l], n[l], 2, qs, m);
            tp[l] = ts[l];
        }
        T_OK(!mnw_fits16(&sc, m, n[0]), "int16 bound rejects 600 x 550 at +-900/1000");
        mnw_cpu_align(ws, &sc, qs, m, tp, n, 11, out);
        int bad = 0;
        for (int l = 0; l < 11; l++) {
            ref_nw(&sc, qs, m, tp[l], n[l], &ref);
            if (!same(&out[l], &ref)) bad++;
        }
        T_OK(bad == 0, "32-bit lanes: 11 large-score pairs identical to the reference (%d differ)", bad);
    }
    {
        mnw_scoring sc = {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0};
        T_OK(mnw_fits16(&sc, 1700, 1700), "int16 bound accepts 16S lengths (1700 x 1700) at +4/-5/10");
        T_OK(mnw_fits16(&sc, 3000, 3000) == 1, "int16 bound accepts 3000 x 3000 at +4/-5/10");
        T_OK(!mnw_fits16(&sc, 10000, 10000), "int16 bound rejects 10000 x 10000 at +4/-5/10");
    }

    /* long pair: the widest kernel's direction bits would pass the 256 MB
     * budget, so the dispatcher takes a narrower one; same result */
    {
        mnw_scoring sc = {1, -1, 2, 2, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0};
        int m = 6000, nn = 5900;
        uint8_t *a = malloc((size_t)m), *b = malloc((size_t)nn);
        rand_seq(a, m, 1, NULL, 0);
        rand_seq(b, nn, 1, a, m);
        const uint8_t *tp[1] = {b};
        int n[1] = {nn};
        mnw_cpu_align(ws, &sc, a, m, tp, n, 1, out);
        ref_nw(&sc, a, m, b, nn, &ref);
        T_OK(mnw_fits16(&sc, m, nn) && same(&out[0], &ref), "6000 x 5900 pair (over the direction budget of the widest lanes) equals the reference (score %d)",
             out[0].score);
        free(a);
        free(b);
    }

    for (int l = 0; l < 32; l++) mnw_aln_free(&out[l]);
    mnw_aln_free(&ref);
    mnw_cpu_ws_free(ws);
    return t_exit();
}
