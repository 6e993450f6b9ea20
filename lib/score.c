/* score.c - see score.h. */
#include "lib/score.h"

#include <string.h>

static const struct {
    const char *key;
    int lo, hi;
} ranges[] = {
    {"match", 1, 1000}, {"mismatch", -1000, 0}, {"gap", 0, 1000}, {"gap-open", 0, 1000}, {"gap-extend", 0, 1000},
    {"end-gap-open", 0, 1000}, {"end-gap-extend", 0, 1000},
};

int mnw_scoring_range(const char *key, int *lo, int *hi)
{
    for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++)
        if (!strcmp(key, ranges[k].key)) {
            *lo = ranges[k].lo;
            *hi = ranges[k].hi;
            return 0;
        }
    return -1;
}

int mnw_scoring_check(const mnw_scoring *sc, mnw_err *e)
{
    const struct {
        const char *key;
        int v;
    } set[] = {{"match", sc->match},         {"mismatch", sc->mismatch},         {"gap-open", sc->gap_open},
               {"gap-extend", sc->gap_extend}, {"end-gap-open", sc->end_open}, {"end-gap-extend", sc->end_extend}};
    for (size_t k = 0; k < sizeof set / sizeof set[0]; k++) {
        int lo = 0, hi = 0;
        if (mnw_scoring_range(set[k].key, &lo, &hi)) continue;
        if (set[k].v < lo || set[k].v > hi)
            return mnw_err_set(e, "--%s must be between %d and %d", set[k].key, lo, hi);
    }
    if (sc->gap_extend > sc->gap_open) return mnw_err_set(e, "--gap-extend must not exceed --gap-open");
    if (sc->end_gaps && sc->end_extend > sc->end_open)
        return mnw_err_set(e, "--end-gap-extend must not exceed --end-gap-open");
    if (sc->end_gaps && sc->free_ends)
        return mnw_err_set(e, "--end-gap-open/--end-gap-extend and --free-end-gaps: terminal gaps either have "
                              "penalties of their own or cost nothing (--end-gap-open 0 --end-gap-extend 0 is "
                              "free inside the DP, the alignment ending at the last cell; docs/SCORING.md)");
    if (sc->tie != MNW_TIE_MNW && sc->tie != MNW_TIE_MOTHUR) return mnw_err_set(e, "unknown tie rule %d", sc->tie);
    if (sc->amb != MNW_AMB_ZERO && sc->amb != MNW_AMB_MOTHUR) return mnw_err_set(e, "unknown ambiguity rule %d", sc->amb);
    return 0;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

int mnw_fits16(const mnw_scoring *sc, int m, int n)
{
    if (sc->end_gaps) {
        /* every gap run priced at the larger of the interior and end
         * penalties, and one more opening: a path's gap may be split into a
         * terminal and an interior run where the bound's paths have one */
        mnw_scoring w = *sc;
        w.end_gaps = 0;
        w.gap_open = (int)max64(sc->gap_open, sc->end_open) * 2;
        w.gap_extend = (int)max64(sc->gap_extend, sc->end_extend);
        return mnw_fits16(&w, m, n);
    }
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
