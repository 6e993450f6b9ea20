/* test_fmtnum.c - lib/fmtnum.c against glibc's snprintf, byte for byte:
 *   - integers: every value below 2,000,000, the values around each power of
 *     2 and 10, random ones of every length, the extremes;
 *   - every value the outputs can hold (fmtnum.h): for each fraction a/b,
 *     q = RN(a/b) and 1 - q as identities ("%.6f") and 1 minus each as
 *     distances ("%g", "%.4g"); every a for b <= 4,096 and for some large b
 *     (the powers of two 8,192 and 16,384, 10,000, 19,999 and 20,000, the
 *     longest alignment of two 10,000-base sequences), 40 a's each for the
 *     other b up to 20,000; none of them may take the snprintf fallback;
 *   - the doubles nearest to and on either side of every 6-decimal rounding
 *     boundary (d + 1/2) 10^-6, and of the %.4g and %g boundaries between
 *     1e-5 and 1 (all for %.4g, a sample for %g);
 *   - exact ties (dyadic values: 1/128 = 0.0078125), with the expected text
 *     computed independently and glibc checked to give it too (half to even);
 *   - random doubles in [2^-70, 1] at every precision;
 *   - the snprintf cases (negative, -0, above 1, tiny, subnormal, NaN, inf,
 *     precisions out of range): the same text as snprintf, and the bound
 *     MNW_FMT_DBL_MAX.
 * MNW_TEST_QUICK=1 (the sanitizer runs): every a for b <= 512 and a sample
 * of the rest; every kind of check still runs. About 10 s otherwise on one
 * core of the 2-core test machine. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fmtnum.h"
#include "tests/tap.h"

static long n_checked, n_bad;

/* one value in one format: ours against snprintf */
static void check_one(double v, char conv, int prec)
{
    char want[512], got[MNW_FMT_DBL_MAX + 8];
    int wn = conv == 'f' ? snprintf(want, sizeof want, "%.*f", prec, v) : snprintf(want, sizeof want, "%.*g", prec, v);
    size_t gn = conv == 'f' ? mnw_fmt_f(got, v, prec) : mnw_fmt_g(got, v, prec);
    n_checked++;
    if (wn < 0 || (size_t)wn != gn || memcmp(want, got, gn)) {
        if (n_bad++ < 10)
            printf("# %%.%d%c of %.17g (%a): printf \"%s\", mnw_fmt \"%.*s\"\n", prec, conv, v, v, want,
                   (int)(gn < sizeof got ? gn : 0), got);
    }
}

static long n_fallback;

/* an output value: its three formats, and none may fall back to snprintf */
static void check_id(double id)
{
    double dist = 1.0 - id;
    check_one(id, 'f', 6);
    check_one(dist, 'g', 6);
    check_one(dist, 'g', 4);
    if (!mnw_fmt_f_exact(id, 6) || !mnw_fmt_g_exact(dist, 6) || !mnw_fmt_g_exact(dist, 4)) {
        if (n_fallback++ < 5) printf("# %.17g or 1 - it falls back to snprintf\n", id);
    }
}

/* the forms of fmtnum.h for the fraction a/b */
static void check_fraction(uint32_t a, uint32_t b)
{
    double q = (double)a / (double)b;
    check_id(q);
    check_id(1.0 - q);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void test_integers(void)
{
    long bad = 0, n = 0;
    char want[32], got[MNW_FMT_INT_MAX + 4];
#define CHECK_U(v)                                                                                  \
    do {                                                                                            \
        uint64_t v_ = (v);                                                                          \
        int wn_ = snprintf(want, sizeof want, "%llu", (unsigned long long)v_);                       \
        size_t gn_ = mnw_fmt_u64(got, v_);                                                          \
        n++;                                                                                        \
        if ((size_t)wn_ != gn_ || memcmp(want, got, gn_)) {                                         \
            if (bad++ < 5) printf("# %%llu of %s: mnw_fmt_u64 \"%.*s\"\n", want, (int)gn_, got);   \
        }                                                                                           \
        gn_ = mnw_fmt_u64_big(got, v_);                                                             \
        if ((size_t)wn_ != gn_ || memcmp(want, got, gn_)) {                                         \
            if (bad++ < 5) printf("# %%llu of %s: mnw_fmt_u64_big \"%.*s\"\n", want, (int)gn_, got); \
        }                                                                                           \
    } while (0)
#define CHECK_I(v)                                                                                  \
    do {                                                                                            \
        int64_t v_ = (v);                                                                           \
        int wn_ = snprintf(want, sizeof want, "%lld", (long long)v_);                               \
        size_t gn_ = mnw_fmt_i64(got, v_);                                                          \
        n++;                                                                                        \
        if ((size_t)wn_ != gn_ || memcmp(want, got, gn_)) {                                         \
            if (bad++ < 5) printf("# %%lld of %s: mnw_fmt_i64 \"%.*s\"\n", want, (int)gn_, got);   \
        }                                                                                           \
    } while (0)
    for (uint64_t v = 0; v < 2000000; v++) CHECK_U(v);
    for (int64_t v = -1000000; v < 1000000; v++) CHECK_I(v);
    uint64_t p = 1;
    for (int e = 0; e < 20; e++, p *= 10)
        for (int d = -2; d <= 2; d++) {
            CHECK_U(p + (uint64_t)(int64_t)d);
            CHECK_I((int64_t)(p + (uint64_t)(int64_t)d));
            CHECK_I(-(int64_t)(p + (uint64_t)(int64_t)d));
        }
    for (int e = 0; e < 64; e++)
        for (int d = -2; d <= 2; d++) {
            CHECK_U((1ull << e) + (uint64_t)(int64_t)d);
            CHECK_I((int64_t)((1ull << e) + (uint64_t)(int64_t)d));
        }
    for (int r = 0; r < 300000; r++) {
        uint64_t v = next_rand() >> (next_rand() % 64);
        CHECK_U(v);
        CHECK_I((int64_t)v);
    }
    CHECK_U(UINT64_MAX);
    CHECK_I(INT64_MAX);
    CHECK_I(INT64_MIN);
    CHECK_I(INT64_MIN + 1);
    T_OK(bad == 0 && n > 4000000, "integers: %ld values, mnw_fmt_u64 (and its general case), mnw_fmt_i64 = %%llu / %%lld (%ld differ)", n, bad);
#undef CHECK_U
#undef CHECK_I
}

static void test_fractions(int quick)
{
    const uint32_t ball = quick ? 512 : 4096, bmax = 20000;
    n_checked = n_bad = n_fallback = 0;
    for (uint32_t b = 1; b <= ball; b++)
        for (uint32_t a = 0; a <= b; a++) check_fraction(a, b);
    T_OK(n_bad == 0 && n_fallback == 0,
         "every fraction a/b, b <= %u: %ld values as %%.6f, %%g, %%.4g equal printf (%ld differ, %ld fall back)", ball,
         n_checked, n_bad, n_fallback);

    n_checked = n_bad = n_fallback = 0;
    const uint32_t big[] = {8192, 16384, 10000, 19999, 20000};
    for (size_t x = 0; x < sizeof big / sizeof big[0]; x++)
        for (uint32_t a = 0; a <= big[x]; a += quick ? 7 : 1) check_fraction(a, big[x]);
    for (uint32_t b = ball + 1; b <= bmax; b += quick ? 13 : 1) {
        const uint32_t fixed[] = {0, 1, 2, 3, b / 2 - 1, b / 2, b / 2 + 1, b / 3, b / 4, b / 10, b / 100 + 1,
                                  b - 3, b - 2, b - 1, b, (uint32_t)((uint64_t)b * 95 / 100)};
        for (size_t x = 0; x < sizeof fixed / sizeof fixed[0]; x++) check_fraction(fixed[x], b);
        for (int r = 0; r < 24; r++) check_fraction((uint32_t)(next_rand() % (b + 1)), b);
    }
    T_OK(n_bad == 0 && n_fallback == 0,
         "fractions a/b up to b = %u (every a for 8,192, 16,384, 10,000, 19,999, 20,000; 40 a's for the other b): "
         "%ld values equal printf (%ld differ, %ld fall back)",
         bmax, n_checked, n_bad, n_fallback);
}

/* the double nearest t and its two neighbours, in one format */
static void check_around(double t, char conv, int prec)
{
    check_one(t, conv, prec);
    check_one(nextafter(t, 0.0), conv, prec);
    check_one(nextafter(t, 2.0), conv, prec);
}

static void test_boundaries(int quick)
{
    n_checked = n_bad = 0;
    /* %.6f: (2d + 1) / (2 10^6), the exact halfway points, as the nearest
     * double (RN of the exact quotient) and its neighbours */
    for (uint32_t d = 0; d < 1000000; d += quick ? 17 : 1) check_around((double)(2 * d + 1) / 2e6, 'f', 6);
    T_OK(n_bad == 0, "%%.6f at and beside every rounding boundary (d + 1/2) 1e-6: %ld values (%ld differ)", n_checked,
         n_bad);

    n_checked = n_bad = 0;
    /* %.4g: (D + 1/2) 10^(X-3) for every 4-digit D and X = -1..-5 (where
     * style e begins), and the point where rounding makes a new digit */
    for (int x = 1; x <= 5; x++) {
        double scale = pow(10.0, 3 + x);
        for (uint32_t d = 1000; d < 10000; d++) check_around((2.0 * d + 1.0) / (2.0 * scale), 'g', 4);
    }
    /* %g: (D + 1/2) 10^(X-5), 6-digit D, a sample (every 7th; every 101st
     * when quick) */
    for (int x = 1; x <= 5; x++) {
        double scale = pow(10.0, 5 + x);
        for (uint32_t d = 100000; d < 1000000; d += quick ? 101 : 7) check_around((2.0 * d + 1.0) / (2.0 * scale), 'g', 6);
    }
    for (int x = 0; x <= 6; x++) { /* 9.9995e-X, 9.999995e-X: carries into a new digit */
        double p = pow(10.0, -x);
        check_around(9.9995 * p, 'g', 4);
        check_around(9.999995 * p, 'g', 6);
        check_around(0.99999949999 * p, 'f', 6);
    }
    T_OK(n_bad == 0, "%%.4g and %%g at and beside the rounding boundaries between 1e-5 and 1: %ld values (%ld differ)",
         n_checked, n_bad);
}

/* exact ties: v = c / 2^k whose scaled value ends in exactly .5; the expected
 * digits by integer arithmetic (the exact decimal of c / 2^k, then half to
 * even), independent of both printf and fmtnum */
static void test_ties(void)
{
    long bad = 0, glibc_bad = 0, n = 0;
    char want[64], got[MNW_FMT_DBL_MAX], exp[64];
    /* %.6f: ties are exactly the odd multiples of 1/128 (v 10^6 =
     * c 15625 / 2) */
    for (uint32_t c = 1; c < 128; c += 2) {
        double v = c / 128.0;
        uint64_t twice = (uint64_t)c * 15625; /* 2 v 10^6, odd */
        uint64_t q = twice / 2;
        if (q & 1) q++; /* half to even */
        snprintf(exp, sizeof exp, "0.%06llu", (unsigned long long)q);
        snprintf(want, sizeof want, "%.6f", v);
        size_t gn = mnw_fmt_f(got, v, 6);
        n++;
        if (strcmp(want, exp)) glibc_bad++;
        if (gn != strlen(exp) || memcmp(got, exp, gn)) {
            if (bad++ < 5) printf("# tie %u/128: expected %s, mnw_fmt_f \"%.*s\"\n", c, exp, (int)gn, got);
        }
    }
    /* %.4g and %g: c / 2^k with k = P + j in [10^-j, 10^(1-j)), j = 1..3 */
    for (int P = 4; P <= 6; P += 2)
        for (int j = 1; j <= 3; j++) {
            int k = P + j;
            for (uint64_t c = 1; c < (1ull << k); c += 2) {
                double v = (double)c / (double)(1ull << k);
                if (!(v >= pow(10.0, -j) && v < pow(10.0, 1 - j))) continue;
                /* v 10^(P-1+j) = c 10^(P-1+j) / 2^k = c 5^(P-1+j) / 2 */
                uint64_t f = 1;
                for (int e = 0; e < P - 1 + j; e++) f *= 5;
                uint64_t q = c * f / 2;
                if (q & 1) q++;
                if (q == 1000000 || q == 10000) continue; /* a carry: not a tie of P digits any more */
                char dig[16];
                snprintf(dig, sizeof dig, "%llu", (unsigned long long)q);
                int nd = (int)strlen(dig);
                while (nd > 1 && dig[nd - 1] == '0') nd--;
                snprintf(exp, sizeof exp, "0.%.*s%.*s", j - 1, "000", nd, dig);
                snprintf(want, sizeof want, "%.*g", P, v);
                size_t gn = mnw_fmt_g(got, v, P);
                n++;
                if (strcmp(want, exp)) {
                    if (glibc_bad++ < 5) printf("# tie %llu/2^%d %%.%dg: expected %s, printf %s\n", (unsigned long long)c, k, P, exp, want);
                }
                if (gn != strlen(exp) || memcmp(got, exp, gn)) {
                    if (bad++ < 5) printf("# tie %llu/2^%d %%.%dg: expected %s, mnw_fmt_g \"%.*s\"\n", (unsigned long long)c, k, P, exp, (int)gn, got);
                }
            }
        }
    T_OK(bad == 0 && n > 100, "exact ties (%ld dyadic values): half to even, e.g. 1/128 -> 0.007812, 3/128 -> 0.023438 (%ld differ)", n, bad);
    T_OK(glibc_bad == 0, "glibc's printf rounds the same ties half to even (%ld differ)", glibc_bad);
    size_t gn = mnw_fmt_f(got, 1.0 / 128, 6);
    T_OK(gn == 8 && !memcmp(got, "0.007812", 8), "%%.6f of 1/128 is 0.007812");
    gn = mnw_fmt_g(got, 3.0 / 64, 4);
    T_OK(gn == 7 && !memcmp(got, "0.04688", 7), "%%.4g of 3/64 is 0.04688");
}

/* a random double in [2^-70, 1]: random exponent, random mantissa */
static double rand_unit(void)
{
    uint64_t e = 1023 - 1 - next_rand() % 70, mant = next_rand() & ((1ull << 52) - 1);
    uint64_t bits = (e << 52) | mant;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static void test_random(int quick)
{
    n_checked = n_bad = 0;
    const int n = quick ? 100000 : 400000;
    for (int r = 0; r < n; r++) {
        double v = rand_unit();
        check_one(v, 'f', 6);
        check_one(v, 'g', 6);
        check_one(v, 'g', 4);
        check_one(v, 'f', (int)(next_rand() % (MNW_FMT_PREC_MAX + 1)));
        check_one(v, 'g', 1 + (int)(next_rand() % MNW_FMT_PREC_MAX));
    }
    check_one(1.0, 'f', 0);
    check_one(0.5, 'f', 0);
    check_one(1.5 / 2, 'f', 0);
    check_one(1.0, 'g', 1);
    check_one(0.95, 'g', 1);
    check_one(nextafter(1.0, 0.0), 'g', 17);
    check_one(nextafter(1.0, 0.0), 'f', 17);
    T_OK(n_bad == 0, "random doubles in [2^-70, 1] at every precision 0..17: %ld values (%ld differ)", n_checked, n_bad);
}

static void test_fallback(void)
{
    n_checked = n_bad = 0;
    const double vals[] = {-0.0, -1e-9, -0.5, -1.0, 1.0 + DBL_EPSILON, 1.5, 2.0, 99.999999, 123456.5, 1e300,
                           DBL_MAX, -DBL_MAX, DBL_MIN, 5e-324, 1e-20, 1e-15, 1e-300, NAN, -NAN, INFINITY, -INFINITY};
    int exact = 0;
    for (size_t x = 0; x < sizeof vals / sizeof vals[0]; x++) {
        for (int p = 0; p <= MNW_FMT_PREC_MAX; p++) {
            check_one(vals[x], 'f', p);
            if (p) check_one(vals[x], 'g', p);
        }
        /* inside [0, 1] %.Nf is exact; tiny ones below 10^(P-20) are not %g's */
        exact += mnw_fmt_g_exact(vals[x], 6) + (vals[x] > 1.0 || vals[x] < 0.0 || vals[x] != vals[x] ? mnw_fmt_f_exact(vals[x], 6) : 0);
    }
    T_OK(n_bad == 0 && exact == 0, "the snprintf cases (negative, -0, above 1, huge, tiny, subnormal, NaN, inf): %ld values "
         "equal printf (%ld differ), none claimed by the integer path (%d)", n_checked, n_bad, exact);
    T_OK(mnw_fmt_f_exact(0.0, 6) && mnw_fmt_f_exact(1.0, 6) && mnw_fmt_f_exact(5e-324, 6) && mnw_fmt_g_exact(0.0, 6) &&
         mnw_fmt_g_exact(1.0, 6) && mnw_fmt_g_exact(1.1e-14, 6) && !mnw_fmt_g_exact(0.9e-14, 6) &&
         mnw_fmt_g_exact(1.1e-16, 4) && !mnw_fmt_g_exact(0.9e-16, 4),
         "the integer path's range: %%.Nf all of [0, 1], %%.Pg 0 and [10^(P-20), 1]");
    char got[MNW_FMT_DBL_MAX], want[512];
    size_t gn = mnw_fmt_f(got, -DBL_MAX, MNW_FMT_PREC_MAX);
    int wn = snprintf(want, sizeof want, "%.*f", MNW_FMT_PREC_MAX, -DBL_MAX);
    T_OK(gn == (size_t)wn && gn <= MNW_FMT_DBL_MAX && !memcmp(got, want, gn), "%%.17f of -DBL_MAX: %zu bytes <= MNW_FMT_DBL_MAX", gn);
    /* precisions out of range are the nearest in range */
    gn = mnw_fmt_f(got, 1.0 / 3, 40);
    wn = snprintf(want, sizeof want, "%.17f", 1.0 / 3);
    T_OK(gn == (size_t)wn && !memcmp(got, want, gn), "precision 40 is %%.17f");
    gn = mnw_fmt_g(got, 1.0 / 3, 0);
    wn = snprintf(want, sizeof want, "%.1g", 1.0 / 3);
    T_OK(gn == (size_t)wn && !memcmp(got, want, gn), "%%g precision 0 is 1");
    gn = mnw_fmt_f(got, 1.0 / 3, -1);
    wn = snprintf(want, sizeof want, "%.0f", 1.0 / 3);
    T_OK(gn == (size_t)wn && !memcmp(got, want, gn), "precision -1 is %%.0f");
}

/* scores in half points: value / 2 with one decimal, as EMBOSS prints them */
static void test_score(void)
{
    const struct {
        int64_t v;
        int half;
        const char *want;
    } c[] = {{42, 0, "42"}, {-7, 0, "-7"}, {84, 1, "42.0"}, {87, 1, "43.5"}, {-1, 1, "-0.5"},
             {-9, 1, "-4.5"}, {0, 1, "0.0"}, {1, 1, "0.5"}, {INT64_MIN, 1, "-4611686018427387904.0"}};
    int bad = 0;
    for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
        char out[MNW_FMT_INT_MAX + 4];
        size_t n = mnw_fmt_score(out, c[k].v, c[k].half);
        out[n] = 0;
        if (strcmp(out, c[k].want)) {
            bad++;
            printf("# %lld half %d: \"%s\", want \"%s\"\n", (long long)c[k].v, c[k].half, out, c[k].want);
        }
    }
    T_OK(bad == 0, "mnw_fmt_score: whole points, and half points with one decimal (%d differ)", bad);
}

int main(void)
{
    const char *q = getenv("MNW_TEST_QUICK");
    int quick = q && *q && strcmp(q, "0");
    test_integers();
    test_ties();
    test_fallback();
    test_random(quick);
    test_boundaries(quick);
    test_fractions(quick);
    test_score();
    return t_exit();
}
