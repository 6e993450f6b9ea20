/* report_scan.h - the one streaming pass of `mnw report` over a run's
 * pairs.tsv.gz: the identities' histogram and threshold counts, each
 * sequence's nearest neighbour, the closest and the most distant pairs.
 *
 * The file is a chain of gzip members, one per work list (docs/FORMATS.md).
 * The pass splits it into byte ranges read by threads at once: each thread
 * finds the first member that starts in its range and reads the members that
 * start there; the chain is then checked whole (each thread's last member
 * ends where the next one's first begins), so a damaged or cut file is an
 * error, never a silent gap. The figures do not depend on the thread count:
 * identities are counted in whole millionths (pairs.tsv writes 6 decimals),
 * and ties go to the earlier pair in the file (closest/most distant) or the
 * smaller index (nearest neighbour).
 *
 * Ownership: mnw_scan owns its arrays (mnw_scan_free). Thread-safety: one
 * mnw_scan per call; the call starts and joins its own threads.
 */
#ifndef MNW_REPORT_SCAN_H
#define MNW_REPORT_SCAN_H

#include <stdint.h>

#include "lib/util.h"

#define MNW_SCAN_BINS 1000 /* identity bins of 0.1% */
#define MNW_SCAN_TOP 10
#define MNW_SCAN_ONE 1000000u      /* identity 1 in the millionths counted */
#define MNW_SCAN_NONE UINT32_MAX   /* nn[i] of a sequence in no pair read */
#define MNW_SCAN_MAX_TH 8

typedef struct {
    uint64_t i, j;
    uint32_t id; /* identity in millionths */
} mnw_scan_pair;

typedef struct {
    uint64_t nseq, pairs;
    int nth;                          /* identity thresholds counted exactly */
    uint32_t th[MNW_SCAN_MAX_TH];     /* in millionths */
    uint64_t above[MNW_SCAN_MAX_TH];  /* pairs with identity >= th[k] */
    uint64_t hist[MNW_SCAN_BINS];
    uint32_t id_min, id_max;          /* millionths */
    uint64_t id_sum;                  /* millionths */
    uint32_t *nn;     /* per sequence: its nearest neighbour's identity (millionths; MNW_SCAN_NONE: none read) */
    uint32_t *nn_of;  /* and which sequence that is */
    char **name;      /* per sequence: its id, as pairs.tsv writes it (NULL: in no pair read) */
    mnw_scan_pair closest[MNW_SCAN_TOP], distant[MNW_SCAN_TOP];
    int nclosest, ndistant;
    uint64_t min_range; /* the fewest bytes a thread is given (0: 4 MiB; the caller may set it) */
    int threads;      /* how many threads read the file (set by mnw_scan_pairs) */
    uint64_t members; /* gzip members read */
} mnw_scan;

/* nseq must be below 2^32 - 1 (the caller checks). */
void mnw_scan_init(mnw_scan *s, uint64_t nseq);
void mnw_scan_free(mnw_scan *s);
/* Reads the first `bytes` bytes of path, which must be whole gzip members of
 * pairs.tsv lines, with up to `threads` threads (at least 1). 0, or -1 with
 * e naming the file and the byte (and line of its member) where it went
 * wrong. */
int mnw_scan_pairs(mnw_scan *s, const char *path, uint64_t bytes, int threads, mnw_err *e) MNW_MUST_CHECK;
/* The CPUs this process may run on (at least 1). */
int mnw_scan_cpus(void);

#endif
