/* prune_cpu.h - the CPU filter of issue 39: for one query a (sequence i,
 * the rows) and a group of targets b (sequences j, the columns), the
 * figures of lib/prune.h (the q-gram count `shared`, the ambiguity count
 * `amb`, the band score S) and the decision mnw_prune_test makes from them.
 * docs/PRUNE.md proves the bound; "The CPU filter as built" there says how
 * this one computes it.
 *
 * Per target, in order:
 *   1. shared and amb (one pass over b's windows against bit sets of a's
 *      q-grams; words that occur twice or more in a go through a count
 *      table, so the sum of min() is exact);
 *   2. with a plan that uses the length bound (p->use_len): P0 from the
 *      lengths, the decision, done;
 *   3. with a plan that uses the score: the pre-test with P0 = min(na, nb)
 *      (no larger P0 exists): a pair it keeps is kept (no band); the others
 *      get the band around diagonal 0 (half-width MNW_PRUNE_W, linear gap
 *      cost p->band_gap, the run's match and mismatch, ambiguity 0), the
 *      decision with its P0; those it does not prune and whose lengths
 *      differ get the band around diagonal nb - na, and the decision with
 *      the better score. Monotone in P0 (prune.h), so this is the decision
 *      with every figure computed (MNW_PRUNEC_FULL computes them all; the
 *      tests compare).
 * The band score is that of one real global alignment: the best path
 * through the band's cells, row 0 and column 0 (leading gaps), leaving the
 * band through row na or column nb (a trailing gap run), each gap column
 * costing band_gap. So S <= the optimal score under the run's scoring
 * (affine or not, free end gaps or not: PRUNE.md, Lemma 3).
 *
 * The band runs in SIMD lanes (one target per lane, 32 lanes of 16 bits or
 * 16 of 32 bits; the loop compiled for AVX-512BW, AVX2 and plain x86-64 by
 * target attributes, picked as the aligner's instruction set); 16-bit lanes for a group whose every lane's score range
 * fits (prune_cpu.c states and proves the bound), else 32-bit ones.
 *
 * Ownership: a mnw_prunec is a workspace owned by one thread (one per
 * worker thread); it copies the plan and scoring and holds its buffers, which
 * grow to the longest sequence and the largest group seen (no allocation per
 * pair). Thread-safety: any number of threads, each with its own
 * workspace; the sequences are read only.
 */
#ifndef MNW_PRUNE_CPU_H
#define MNW_PRUNE_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "lib/prune.h"
#include "lib/score.h"
#include "workers/cpu/prune_ed_cpu.h"

typedef struct mnw_prunec mnw_prunec;

#define MNW_PRUNEC_NONE INT32_MIN /* a band score not computed */

/* One pair's figures (tests, bench). */
typedef struct {
    int32_t shared; /* the q-gram count */
    int32_t amb;    /* ambiguity codes of a plus those of b */
    int32_t s0, s1; /* band scores around diagonal 0 and nb - na, or MNW_PRUNEC_NONE */
    int64_t p0;     /* the P0 of the decision (Lmin for a pair the pre-test kept) */
    int32_t sg;     /* stage 2: the guided band's score, or MNW_PRUNEC_NONE */
    int32_t ed;     /* stage 2: ED, or MNW_PRUNEC_NONE (the lengths decided, or no stage 2) */
    int64_t tau;    /* stage 2: prune <=> ED > tau (lib/prune.h), or INT64_MIN */
    int pruned;     /* the decision */
} mnw_prunec_fig;

typedef struct {
    uint64_t pairs;  /* decided */
    uint64_t pruned; /* of them pruned */
    uint64_t band0;  /* pairs that took the band around diagonal 0 */
    uint64_t band1;  /* ... and around diagonal nb - na */
    double t_count;  /* seconds in the q-gram count (MNW_PRUNEC_TIME) */
    double t_band;   /* seconds in the bands and decisions (MNW_PRUNEC_TIME) */
    uint64_t ed_pairs;  /* pairs that took stage 2 (the edit-distance bound) */
    uint64_t ed_runs;   /* of them whose ED was computed (the lengths did not decide) */
    uint64_t ed_pruned; /* of them pruned by stage 2 */
    double t_guided;    /* seconds in the guides and guided bands (MNW_PRUNEC_TIME) */
    double t_ed;        /* seconds in ED (MNW_PRUNEC_TIME) */
} mnw_prunec_stats;

enum {
    MNW_PRUNEC_FULL = 1, /* every figure of every pair: both bands, no pre-test (tests) */
    MNW_PRUNEC_WIDE = 2, /* 32-bit lanes only (tests) */
    MNW_PRUNEC_TIME = 4, /* time the count and the band (bench) */
    MNW_PRUNEC_AVX2 = 8, /* the band's AVX2 kernel even where AVX-512BW is used (tests) */
    MNW_PRUNEC_BASE = 16, /* the band's plain x86-64 (SSE2) kernel (tests) */
};

/* A workspace for plan p (on, or at least made by mnw_prune_plan_make
 * with its constants set) and scoring sc. Never NULL (aborts when out of
 * memory, as mnw_xmalloc). */
mnw_prunec *mnw_prunec_new(const mnw_prune_plan *p, const mnw_scoring *sc);
void mnw_prunec_free(mnw_prunec *f);
void mnw_prunec_flags(mnw_prunec *f, int flags);
/* The band kernel in use: "avx512bw", "avx2" or "x86-64" (the aligner's
 * instruction set, nw_cpu.h, MNW_SIMD included, or the flags'). */
const char *mnw_prunec_isa(const mnw_prunec *f);

/* Sets the query a (na bases; read until the next mnw_prunec_query, which
 * must come before a's bytes change): its q-gram tables. */
void mnw_prunec_query(mnw_prunec *f, const uint8_t *a, int na);

/* Decides for the query and targets t[0 .. count) (n[k] bases): pruned[k]
 * = 1 when every optimal alignment of (a, t[k]) has distance > the cutoff,
 * 0 when not proven. figs (may be NULL) gets the figures. Returns the
 * number pruned. */
size_t mnw_prunec_run(mnw_prunec *f, const uint8_t *const *t, const int *n, size_t count, uint8_t *pruned,
                      mnw_prunec_fig *figs);

/* The band alone (tests): out[k] = the band score of (a, t[k]) around
 * diagonal centre[k] (c - r), half-width MNW_PRUNE_W. */
void mnw_prunec_band(mnw_prunec *f, const uint8_t *a, int na, const uint8_t *const *t, const int *n,
                     const int *centre, size_t count, int32_t *out);

/* 1 when 16-bit lanes hold every value of the band of an na x nb pair
 * around centre under scoring sc (the bound of prune_cpu.c). */
int mnw_prunec_fits16(const mnw_scoring *sc, int band_gap, int na, int nb, int centre);

void mnw_prunec_get_stats(const mnw_prunec *f, mnw_prunec_stats *st);

#endif
