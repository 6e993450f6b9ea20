/* prune.h - the filter that proves pairs beyond the distance cutoff before
 * the DP (issue 39): whether a run may use it (the gate), and the decision
 * for one pair from the figures a filter computed. docs/PRUNE.md proves
 * the bound; this module only states it in integers, so that every
 * implementation (the CPU filter, workers/cpu/prune_cpu.h; a GPU one) that
 * computes the same figures decides the same.
 *
 * The decision for a pair (a, b), na and nb bases, Lmin / Lmax the shorter /
 * longer length:
 *   shared  the q-gram count of PRUNE.md (sum over the words w of ACGT^q of
 *           min(windows of a equal to w, windows of b equal to w)),
 *           q = MNW_PRUNE_Q
 *   amb     the ambiguity codes (codes >= 4) of a plus those of b
 *   S       when the plan uses the score (p->use_score): the best score of
 *           the band alignments of PRUNE.md (half-width MNW_PRUNE_W around
 *           diagonal 0, and around diagonal nb - na when the first does not
 *           prune; S is the larger), linear gap cost p->band_gap a column
 *   P0      a lower bound of the aligned columns of every optimal
 *           alignment within the cutoff: the larger of ceil((1 - D') Lmax)
 *           (p->use_len) and Lemma 3's bound from S (p->use_score)
 * pruned  <=>  P0 > Lmin
 *          or  (shared + q amb + q - 1) W < P0 Kp - Lmax Kl
 * with D' = Dn / Dd >= cutoff + 1e-9 and W, Kp, Kl of the plan. The test is
 * monotone in P0 (Kp > 0), so a filter may first try P0 = Lmin (no pair
 * passes with a smaller P0 if it fails there) and skip the band, and may
 * compute the second band only when the first did not prune: the decision
 * is the same as with every figure computed.
 *
 * Ownership: mnw_prune_plan is a plain value (its why points to a static
 * string or its own text). Thread-safety: every function is reentrant and
 * reads only its arguments; a plan is shared read-only by all workers.
 */
#ifndef MNW_PRUNE_H
#define MNW_PRUNE_H

#include <stdint.h>

#include "lib/identity.h"
#include "lib/score.h"
#include "lib/util.h"

#define MNW_PRUNE_Q 8 /* q-gram length: 4^8 counters of 16 bits, 128 KiB */
#define MNW_PRUNE_W 4 /* band half-width: 9 diagonals */
/* auto turns the filter on only where 1 - q delta (the share of a pair's
 * windows an error budget at the cutoff leaves standing) is at least this:
 * below it the filter prunes too little to pay (PRUNE.md, measured) */
#define MNW_PRUNE_AUTO_MIN 0.10
/* auto uses the edit-distance bound (stage 2) up to this cutoff (PRUNE.md,
 * measured) */
#define MNW_PRUNE_ED_AUTO_MAX 0.15

typedef enum { MNW_PRUNE_AUTO = 0, MNW_PRUNE_YES = 1, MNW_PRUNE_NO = 2 } mnw_prune_mode;

typedef struct {
    int on;          /* the run filters */
    char why[512];   /* one sentence: why it is on or off (mnw.log) */
    int q;           /* MNW_PRUNE_Q */
    int64_t Dn, Dd;  /* D' = Dn / Dd (Dd = 2^30), cutoff + 1e-9 rounded up */
    int64_t W, Kp, Kl;
    int use_len;     /* P0 >= ceil((Dd - Dn) Lmax / Dd) (the M / L definitions) */
    int use_score;   /* P0 from the band score (Lemma 3) */
    int ms, ge, free_ends; /* Lemma 3: match, gap-extend, free end gaps */
    int band_gap;    /* the band DP's cost per gap column (gap-open: a lower bound) */
    double factor;   /* 1 - q delta (or 1 - q D for vsearch3): what auto compares */
    int qgram;       /* stage 1, the q-gram bound (Theorem 1), is used */
    /* stage 2, the edit-distance bound (Theorem 2; lib/prune_ed.h's figures),
     * for the pairs stage 1 keeps (every pair when stage 1 is off) */
    int ed;          /* stage 2 is used */
    int ed_len;      /* the M / L definitions: ED > delta' Lmin alone proves (no band) */
    int64_t ed_cg, ed_alpha, ed_gamma; /* cg = ms + 2 ge, alpha+ = (cg - cx)+, (beta - alpha+)+ */
} mnw_prune_plan;

/* The plan of a run: on or off, and why (p->why, always set).
 *   filtered: every output the run writes is cutoff-filtered (so that a
 *             pair beyond the cutoff has no line anywhere); when not,
 *             unfiltered names one that is not (e.g. "dist.phylip (a full
 *             matrix)"), else NULL
 *   cutoff < 0: none.
 * MNW_PRUNE_NO: off. MNW_PRUNE_AUTO: on where the bound is proven for the
 * definition and scoring, every output is filtered, and factor >=
 * MNW_PRUNE_AUTO_MIN (and not with free end gaps for the definitions whose
 * bound needs the score: proven, but weak). MNW_PRUNE_YES: on where proven
 * and every output filtered, whatever the factor; otherwise -1 with e set
 * (the reason, for a refusal before anything is written). Returns 0 or -1. */
int mnw_prune_plan_make(const mnw_iddef *d, const mnw_scoring *sc, double cutoff, const char *unfiltered,
                        mnw_prune_mode mode, mnw_prune_plan *p, mnw_err *e) MNW_MUST_CHECK;

/* "auto", "yes", "no" -> mode; 0, or -1 for another word. */
int mnw_prune_mode_parse(const char *s, mnw_prune_mode *m);
const char *mnw_prune_mode_name(mnw_prune_mode m);

/* P0 of a pair (see above). S is the band score when p->use_score (ignored
 * otherwise). Never negative. */
int64_t mnw_prune_p0(const mnw_prune_plan *p, int64_t S, int na, int nb);
/* P0 when only the lengths are known: the length bound (use_len) or 0. */
int64_t mnw_prune_p0_len(const mnw_prune_plan *p, int na, int nb);

/* The decision for P0 (mnw_prune_p0): 1 = every optimal alignment of the
 * pair has distance > cutoff (prune), 0 = not proven (align it). */
int mnw_prune_test(const mnw_prune_plan *p, int64_t shared, int64_t amb, int na, int nb, int64_t p0);

/* Stage 2 (p->ed): the largest ED that does not prove the pair beyond the
 * cutoff, for the guided band's score SG (ignored with p->ed_len) and amb
 * the ambiguity codes of both: prune <=> ED > tau. With C2 = ms (na + nb)
 * - 2 SG and K = Dd - Dn:
 *   ed_len: tau = floor(Dn Lmin / K)
 *   else:   tau = floor(((C2 + gamma amb) K + alpha Dn Lmin) / (cg K))
 * (PRUNE.md, Theorem 2, in integers; may be negative: then every ED
 * prunes, which only happens where SG is impossible for a real pair). */
int64_t mnw_prune_ed_tau(const mnw_prune_plan *p, int64_t sg, int64_t amb, int na, int nb);

#endif
