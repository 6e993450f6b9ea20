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

/* EMBOSS 6.6's data/EDNAFULL (NCBI's NUC.4.4), rows and columns in mnw's
 * code order A C G T R Y S W K M B D H V N (its U row is T's, as U reads as
 * T here). Symmetric. */
const int8_t mnw_ednafull[MNW_NCODES][MNW_NCODES] = {
    /*        A   C   G   T   R   Y   S   W   K   M   B   D   H   V   N */
    /* A */ {5, -4, -4, -4, 1, -4, -4, 1, -4, 1, -4, -1, -1, -1, -2},
    /* C */ {-4, 5, -4, -4, -4, 1, 1, -4, -4, 1, -1, -4, -1, -1, -2},
    /* G */ {-4, -4, 5, -4, 1, -4, 1, -4, 1, -4, -1, -1, -4, -1, -2},
    /* T */ {-4, -4, -4, 5, -4, 1, -4, 1, 1, -4, -1, -1, -1, -4, -2},
    /* R */ {1, -4, 1, -4, -1, -4, -2, -2, -2, -2, -3, -1, -3, -1, -1},
    /* Y */ {-4, 1, -4, 1, -4, -1, -2, -2, -2, -2, -1, -3, -1, -3, -1},
    /* S */ {-4, 1, 1, -4, -2, -2, -1, -4, -2, -2, -1, -3, -3, -1, -1},
    /* W */ {1, -4, -4, 1, -2, -2, -4, -1, -2, -2, -3, -1, -1, -3, -1},
    /* K */ {-4, -4, 1, 1, -2, -2, -2, -2, -1, -4, -1, -1, -3, -3, -1},
    /* M */ {1, 1, -4, -4, -2, -2, -2, -2, -4, -1, -3, -3, -1, -1, -1},
    /* B */ {-4, -1, -1, -1, -3, -1, -1, -3, -1, -3, -1, -2, -2, -2, -1},
    /* D */ {-1, -4, -1, -1, -1, -3, -3, -1, -1, -3, -2, -1, -2, -2, -1},
    /* H */ {-1, -1, -4, -1, -3, -1, -3, -1, -3, -1, -2, -2, -1, -2, -1},
    /* V */ {-1, -1, -1, -4, -1, -3, -1, -3, -3, -1, -2, -2, -2, -1, -1},
    /* N */ {-2, -2, -2, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
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
    const int u = sc->half ? 2 : 1; /* the values are in half points: the ranges' are in points */
    for (size_t k = 0; k < sizeof set / sizeof set[0]; k++) {
        int lo = 0, hi = 0;
        if (mnw_scoring_range(set[k].key, &lo, &hi)) continue;
        if (set[k].v < lo * u || set[k].v > hi * u)
            return mnw_err_set(e, "--%s must be between %d and %d", set[k].key, lo, hi);
    }
    if (sc->gap_extend > sc->gap_open) return mnw_err_set(e, "--gap-extend must not exceed --gap-open");
    if (sc->end_gaps && sc->end_extend > sc->end_open)
        return mnw_err_set(e, "--end-gap-extend must not exceed --end-gap-open");
    if (sc->end_gaps && sc->free_ends)
        return mnw_err_set(e, "--end-gap-open/--end-gap-extend and --free-end-gaps: terminal gaps either have "
                              "penalties of their own or cost nothing (--end-gap-open 0 --end-gap-extend 0 is "
                              "free inside the DP, the alignment ending at the last cell; docs/SCORING.md)");
    if (sc->tie != MNW_TIE_MNW && sc->tie != MNW_TIE_MOTHUR && sc->tie != MNW_TIE_NEEDLE)
        return mnw_err_set(e, "unknown tie rule %d", sc->tie);
    if (sc->tie == MNW_TIE_NEEDLE && !sc->free_ends)
        return mnw_err_set(e, "--tie-rule needle without --free-end-gaps: needle's rule is that of its free end gaps "
                              "(-endweight false; --like needle sets both)");
    if (sc->amb != MNW_AMB_ZERO && sc->amb != MNW_AMB_MOTHUR && sc->amb != MNW_AMB_EDNAFULL)
        return mnw_err_set(e, "unknown ambiguity rule %d", sc->amb);
    return 0;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The lowest (at most 0) and highest substitution score of any two codes:
 * match and mismatch (mothur's ambiguity rule takes those too, mnw's 0),
 * widened by EDNAFULL's ambiguity entries (score.h MNW_EDNAFULL_AMB_MIN/MAX).
 * No loop: mnw_fits16 runs for every pair the CPU dispatches. */
static void sub_range(const mnw_scoring *sc, int *lo, int *hi)
{
    *lo = sc->mismatch < 0 ? sc->mismatch : 0;
    *hi = sc->match;
    if (sc->amb == MNW_AMB_EDNAFULL) {
        const int u = sc->half ? 2 : 1;
        if (MNW_EDNAFULL_AMB_MIN * u < *lo) *lo = MNW_EDNAFULL_AMB_MIN * u;
        if (MNW_EDNAFULL_AMB_MAX * u > *hi) *hi = MNW_EDNAFULL_AMB_MAX * u;
    }
}

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
    int lo_s, hi_s;
    sub_range(sc, &lo_s, &hi_s);
    int64_t min_sub = lo_s;
    int64_t hi = (int64_t)hi_s * lo_len;
    int64_t lo = min64(min64(-mnw_gapcost(sc, m), -mnw_gapcost(sc, n)),
                       lo_len * min_sub - mnw_gapcost(sc, hi_len - lo_len));
    int64_t step = max64(max64(sc->gap_open, sc->gap_extend), max64(-min_sub, hi_s));
    /* candidates are one step past a real value; keep 2 steps of margin above
     * the saturating floor -32768 that serves as -inf */
    return hi + step < 32767 && lo - 2 * step > -32768 + 2 * step;
}
