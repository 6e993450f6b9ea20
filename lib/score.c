/* score.c - see score.h. */
#include "lib/score.h"


int mnw_scoring_check(const mnw_scoring *sc, mnw_err *e)
{
    const char *why = NULL;
    if (sc->match <= 0 || sc->match > 1000) why = "--match must be between 1 and 1000";
    else if (sc->mismatch > 0 || sc->mismatch < -1000) why = "--mismatch must be between -1000 and 0";
    else if (sc->gap_open < 0 || sc->gap_open > 1000) why = "--gap-open must be between 0 and 1000";
    else if (sc->gap_extend < 0 || sc->gap_extend > 1000) why = "--gap-extend must be between 0 and 1000";
    else if (sc->gap_extend > sc->gap_open) why = "--gap-extend must not exceed --gap-open";
    return why ? mnw_err_set(e, "%s", why) : 0;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

int mnw_fits16(const mnw_scoring *sc, int m, int n)
{
    int64_t lo_len = min64(m, n), hi_len = max64(m, n);
    int64_t min_sub = min64(sc->mismatch, 0);
    int64_t hi = (int64_t)sc->match * lo_len;
    int64_t lo = min64(min64(-mnw_gapcost(sc, m), -mnw_gapcost(sc, n)),
                       lo_len * min_sub - mnw_gapcost(sc, hi_len - lo_len));
    int64_t step = max64(max64(sc->gap_open, sc->gap_extend), max64(-min_sub, sc->match));
    /* candidates are one step past a real value; keep 2 steps of margin above
     * the saturating floor -32768 that serves as -inf */
    return hi + step < 32767 && lo - 2 * step > -32768 + 2 * step;
}
