/* fmtnum.h - numbers as text without printf, byte for byte what glibc's
 * printf writes: integers ("%llu", "%lld"), fixed-point ("%.Nf") and
 * shortest-of-two ("%.Pg"). The finishing path writes every pair's figures,
 * identity and distance with these (lib/output.c), since they run once per
 * pair for hundreds of thousands of pairs a second per core.
 *
 * Exactness. A finite double v >= 0 is exactly M 2^-k with integers
 * M < 2^53 and k (normal: M = 2^52 + the 52 stored bits, k = 1075 - the
 * biased exponent; subnormal: M = the stored bits, k = 1074). glibc prints
 * the decimal expansion of that exact binary value, rounded to the requested
 * digits to nearest with ties to even (in the default rounding mode, which
 * mnw never changes): a double just below x.5 rounds down, and an exact tie
 * (only dyadic values: 1/128 = 0.0078125 is "0.007812" in %.6f) goes to the
 * even digit. The integer path does exactly that, in unsigned 128-bit
 * arithmetic:
 *   %.Nf, v in [0, 1], 0 <= N <= 17: v 10^N = M 10^N / 2^k, where
 *     M 10^N < 2^53 10^17 < 2^110 is exact; q = floor(M 10^N / 2^k) is a
 *     shift, the remainder against 2^(k-1) decides the rounding (above:
 *     up; equal: to even). For k > 110 (v < 2^-58) M 10^N < 2^(k-1), so v
 *     rounds to 0. Every v in [0, 1] takes this path.
 *   %.Pg, v in (0, 1], 1 <= P <= 17: X0 = floor(log10 v) = -j for the
 *     least j >= 0 with M 10^j >= 2^k (an exact comparison); then
 *     D = v 10^(P-1+j) rounded as above (needs P-1+j <= 19: 10^19 < 2^64, so
 *     M 10^(P-1+j) < 2^117, and k <= 127). D = 10^P (rounding carried into a
 *     new digit) becomes 10^(P-1) with X = X0 + 1, else X = X0; X is the
 *     exponent C's %g decides by: style e (d.ddde-XX) when X < -4, else
 *     style f with P-1-X decimals, whose digits are D's (rounding at the
 *     same decimal place; after a carry the coarser place gives the same
 *     10^X); trailing zeros and a bare point are removed, as %g does. This
 *     path covers v = 0 and (1e-14, 1] for P = 6 (v >= 10^(P-20) in
 *     general).
 * Anything else (negative, above 1, NaN, infinite, tinier than the above,
 * a precision out of range) is written by snprintf: the same text, slower.
 *
 * Which values mnw prints (lib/identity.c): identities are q = RN(a/b)
 * (vsearch0, 1, 2, 4, needle: matches over columns), 1 - RN(a/b) clamped at
 * 0 (vsearch3) or 1 - min(RN(a/b), 1) (mothur), with integer counts
 * 0 <= a and 1 <= b <= 20,000 (alignment columns: two sequences of at most
 * MNW_MAX_SEQ_LEN = 10,000 bases), or 0; distances are 1 minus these. All
 * lie in [0, 1], so %.6f of an identity always takes the integer path; a
 * distance is 0 or at least 1/b - 2^-53 > 4.9e-5, far above 1e-14, so %g
 * and %.4g of a distance take it too. tests/unit/test_fmtnum.c compares
 * every function with snprintf over the fractions a/b (all of them for
 * b <= 4,096, a sample up to 20,000) in each of these forms, the doubles on
 * either side of every 6-decimal rounding boundary, exact ties, random
 * doubles and precisions, and the snprintf cases.
 *
 * Ownership: writes into the caller's array (no NUL), returns the bytes
 * written; nothing is allocated. Thread-safety: reentrant, no state.
 */
#ifndef MNW_FMTNUM_H
#define MNW_FMTNUM_H

#include <stddef.h>
#include <stdint.h>

/* Room for any mnw_fmt_u64 / mnw_fmt_i64 text (INT64_MIN is 20 bytes). */
#define MNW_FMT_INT_MAX 20
/* Room for any mnw_fmt_f / mnw_fmt_g text, the snprintf cases included
 * (%.17f of -DBL_MAX is 327 bytes). */
#define MNW_FMT_DBL_MAX 336
/* The largest precision of the integer path. */
#define MNW_FMT_PREC_MAX 17

/* "%llu" / "%lld" of v. mnw_fmt_u64 is inline for one and two digits
 * (most CIGAR run lengths and pairs.tsv counts of gap runs). */
size_t mnw_fmt_u64_big(char *out, uint64_t v); /* any v; mnw_fmt_u64's v >= 100 */
static inline size_t mnw_fmt_u64(char *out, uint64_t v)
{
    if (v < 10) {
        out[0] = (char)('0' + v);
        return 1;
    }
    if (v < 100) {
        out[0] = (char)('0' + v / 10);
        out[1] = (char)('0' + v % 10);
        return 2;
    }
    return mnw_fmt_u64_big(out, v);
}
size_t mnw_fmt_i64(char *out, int64_t v);

/* A score: v itself, or with half (scores in half points, score.h) v / 2
 * with one decimal, as EMBOSS prints it: 42.0, 43.5, -0.5. */
size_t mnw_fmt_score(char *out, int64_t v, int half);

/* "%.*f" of v with prec decimals (0 <= prec <= MNW_FMT_PREC_MAX; others
 * are taken as the nearest of those). */
size_t mnw_fmt_f(char *out, double v, int prec);

/* "%.*g" of v with prec significant digits (1 <= prec <= MNW_FMT_PREC_MAX;
 * others are taken as the nearest of those). */
size_t mnw_fmt_g(char *out, double v, int prec);

/* 1 when mnw_fmt_f / mnw_fmt_g write v by the integer path, 0 when they
 * fall back to snprintf (the tests check that no printed value does). */
int mnw_fmt_f_exact(double v, int prec);
int mnw_fmt_g_exact(double v, int prec);

#endif
