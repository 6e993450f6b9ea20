/* report_scan.h - the one streaming pass of `mnw report` over pairs.tsv.gz
 * (WIP, issue 24; not built yet). */
#ifndef MNW_REPORT_SCAN_H
#define MNW_REPORT_SCAN_H

#include <stdint.h>

#include "lib/util.h"

#define MNW_SCAN_BINS 1000 /* identity bins of 0.1% */
#define MNW_SCAN_TOP 10

typedef struct {
    uint64_t i, j;
    double identity;
} mnw_scan_pair;

#define MNW_SCAN_MAX_TH 8

typedef struct {
    uint64_t nseq, lines, pairs;
    int nth;                          /* identity thresholds counted exactly */
    double th[MNW_SCAN_MAX_TH];
    uint64_t above[MNW_SCAN_MAX_TH];  /* pairs with identity >= th[k] */
    uint64_t hist[MNW_SCAN_BINS];
    double id_min, id_max, id_sum;
    float *nn;        /* per sequence: the identity of its nearest neighbour (-1: none seen) */
    uint32_t *nn_of;  /* and which sequence that is */
    char **name;      /* per sequence: its id, as pairs.tsv writes it */
    mnw_scan_pair closest[MNW_SCAN_TOP], distant[MNW_SCAN_TOP];
    int nclosest, ndistant;
} mnw_scan;

void mnw_scan_init(mnw_scan *s, uint64_t nseq);
void mnw_scan_free(mnw_scan *s);
/* Reads the first `bytes` bytes of path (whole gzip members) line by line. */
int mnw_scan_pairs(mnw_scan *s, const char *path, uint64_t bytes, mnw_err *e);

#endif
