/* result.h - the results of one work list as they travel from an NLD to
 * the CLD: for each output the bytes to append (gzip members for the gzip
 * files), already in pair order.
 * Ownership: whoever holds the pointer; mnw_result_free releases it.
 * Thread-safety: handed from thread to thread through locked queues, never
 * shared. */
#ifndef MNW_RESULT_H
#define MNW_RESULT_H

#include "buf.h"
#include "output.h"
#include "pairs.h"

typedef struct mnw_result {
    mnw_range r;
    mnw_buf data[MNW_NOUT];
    uint64_t cells;
    struct mnw_result *next;
} mnw_result;

mnw_result *mnw_result_new(mnw_range r);
void mnw_result_free(mnw_result *res);

#endif
