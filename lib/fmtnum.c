/* fmtnum.c - see fmtnum.h (the exactness argument is there). */
#include "lib/fmtnum.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;

/* "00" "01" .. "99" (no NUL) */
static const char d2[200] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                            "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                            "8081828384858687888990919293949596979899";

static const uint64_t p10[20] = {1ull,
                                 10ull,
                                 100ull,
                                 1000ull,
                                 10000ull,
                                 100000ull,
                                 1000000ull,
                                 10000000ull,
                                 100000000ull,
                                 1000000000ull,
                                 10000000000ull,
                                 100000000000ull,
                                 1000000000000ull,
                                 10000000000000ull,
                                 100000000000000ull,
                                 1000000000000000ull,
                                 10000000000000000ull,
                                 100000000000000000ull,
                                 1000000000000000000ull,
                                 10000000000000000000ull};

/* decimal digits of v (1 for 0) */
static inline int ndigits(uint64_t v)
{
    int n = 1;
    while (n < 20 && v >= p10[n]) n++;
    return n;
}

/* v as exactly n digits (zero-padded on the left; v < 10^n) */
static inline void put_digits(char *out, uint64_t v, int n)
{
    char *p = out + n;
    while (n >= 2) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, d2 + 2 * r, 2);
        n -= 2;
    }
    if (n) *--p = (char)('0' + v);
}

size_t mnw_fmt_u64_big(char *out, uint64_t v)
{
    int n = ndigits(v);
    put_digits(out, v, n);
    return (size_t)n;
}

size_t mnw_fmt_i64(char *out, int64_t v)
{
    if (v >= 0) return mnw_fmt_u64(out, (uint64_t)v);
    out[0] = '-';
    return 1 + mnw_fmt_u64(out + 1, (uint64_t)(-(v + 1)) + 1);
}

size_t mnw_fmt_score(char *out, int64_t v, int half)
{
    if (!half) return mnw_fmt_i64(out, v);
    size_t k = 0;
    if (v < 0) out[k++] = '-';
    const uint64_t a = v < 0 ? (uint64_t)(-(v + 1)) + 1 : (uint64_t)v;
    k += mnw_fmt_u64(out + k, a / 2);
    out[k++] = '.';
    out[k++] = (a & 1) ? '5' : '0';
    return k;
}

static inline int clamp_prec(int prec, int lo)
{
    return prec < lo ? lo : prec > MNW_FMT_PREC_MAX ? MNW_FMT_PREC_MAX : prec;
}

/* v = m 2^-k exactly, for a finite v >= 0 */
static inline void split(double v, uint64_t *m, int *k)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    unsigned e = (unsigned)(bits >> 52) & 0x7ff;
    uint64_t frac = bits & ((1ull << 52) - 1);
    if (e == 0) {
        *m = frac;
        *k = 1074;
    } else {
        *m = frac | (1ull << 52);
        *k = 1075 - (int)e;
    }
}

/* n / 2^k rounded to nearest, ties to even (1 <= k <= 127) */
static inline uint64_t round_shift(u128 n, int k)
{
    u128 q = n >> k;
    u128 rem = n - (q << k);
    u128 half = (u128)1 << (k - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
    return (uint64_t)q;
}

int mnw_fmt_f_exact(double v, int prec)
{
    (void)prec;
    return v >= 0.0 && v <= 1.0 && !signbit(v);
}

/* snprintf's text of v with "%.*f" (conv 'f') or "%.*g" (conv 'g'): the
 * values outside the exact paths */
static size_t fallback(char *out, double v, int prec, char conv)
{
    char tmp[MNW_FMT_DBL_MAX + 1];
    int n = conv == 'f' ? snprintf(tmp, sizeof tmp, "%.*f", prec, v) : snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    if (n < 0) return 0;
    if ((size_t)n > MNW_FMT_DBL_MAX) n = MNW_FMT_DBL_MAX; /* cannot happen: fmtnum.h */
    memcpy(out, tmp, (size_t)n);
    return (size_t)n;
}

size_t mnw_fmt_f(char *out, double v, int prec)
{
    prec = clamp_prec(prec, 0);
    if (!mnw_fmt_f_exact(v, prec)) return fallback(out, v, prec, 'f');
    uint64_t m;
    int k;
    split(v, &m, &k);
    /* m 10^prec < 2^110: for k > 110 the value rounds to 0 */
    uint64_t q = k > 110 ? 0 : round_shift((u128)m * p10[prec], k);
    uint64_t ip = q / p10[prec], fp = q % p10[prec]; /* ip is 0 or 1 */
    out[0] = (char)('0' + ip);
    if (prec == 0) return 1;
    out[1] = '.';
    put_digits(out + 2, fp, prec);
    return 2 + (size_t)prec;
}

/* the least j in [0, jmax] with m 10^j >= 2^k, or -1 (m < 2^53, k <= 127) */
static inline int dec_exp(uint64_t m, int k, int jmax)
{
    const u128 pk = (u128)1 << k;
    for (int j = 0; j <= jmax; j++)
        if ((u128)m * p10[j] >= pk) return j;
    return -1;
}

int mnw_fmt_g_exact(double v, int prec)
{
    prec = clamp_prec(prec, 1);
    if (!(v > 0.0 && v <= 1.0)) return v == 0.0 && !signbit(v);
    uint64_t m;
    int k;
    split(v, &m, &k);
    return k <= 127 && dec_exp(m, k, 20 - prec) >= 0;
}

size_t mnw_fmt_g(char *out, double v, int prec)
{
    prec = clamp_prec(prec, 1);
    if (v == 0.0 && !signbit(v)) {
        out[0] = '0';
        return 1;
    }
    if (!(v > 0.0 && v <= 1.0)) return fallback(out, v, prec, 'g');
    uint64_t m;
    int k;
    split(v, &m, &k);
    int j = k <= 127 ? dec_exp(m, k, 20 - prec) : -1;
    if (j < 0) return fallback(out, v, prec, 'g');
    /* prec significant digits: v 10^(prec-1+j) rounded; m 10^19 < 2^117 */
    uint64_t d = round_shift((u128)m * p10[prec - 1 + j], k);
    int x = -j; /* the decimal exponent of the rounded value */
    if (d == p10[prec]) {
        d = p10[prec - 1];
        x++;
    }
    char dig[MNW_FMT_PREC_MAX];
    put_digits(dig, d, prec);
    int nd = prec; /* digits kept: trailing zeros go */
    while (nd > 1 && dig[nd - 1] == '0') nd--;
    size_t n = 0;
    if (x < -4) { /* style e: d.ddde-XX */
        out[n++] = dig[0];
        if (nd > 1) {
            out[n++] = '.';
            memcpy(out + n, dig + 1, (size_t)(nd - 1));
            n += (size_t)(nd - 1);
        }
        out[n++] = 'e';
        out[n++] = '-';
        memcpy(out + n, d2 + 2 * (-x), 2); /* -x <= 19 */
        return n + 2;
    }
    if (x == 0) { /* v rounds to 1 at this precision (v <= 1) */
        out[n++] = dig[0];
        if (nd > 1) {
            out[n++] = '.';
            memcpy(out + n, dig + 1, (size_t)(nd - 1));
            n += (size_t)(nd - 1);
        }
        return n;
    }
    out[n++] = '0'; /* style f, -4 <= x <= -1: 0.000ddd */
    out[n++] = '.';
    for (int z = -1; z > x; z--) out[n++] = '0';
    memcpy(out + n, dig, (size_t)nd);
    return n + (size_t)nd;
}
