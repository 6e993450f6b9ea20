/* result.h - the results of one work list as they travel from an NLD to
 * the CLD: for each output the bytes to append (gzip members for the gzip
 * files), already in pair order.
 * Ownership: whoever holds the pointer; mnw_result_free releases it.
 * Thread-safety: handed from thread to thread through locked queues, never
 * shared; mnw_result_build is reentrant (one text scratch per thread). */
#ifndef MNW_RESULT_H
#define MNW_RESULT_H

#include "lib/buf.h"
#include "lib/jobspec.h"
#include "lib/output.h"
#include "lib/pairs.h"

/* Devices a node counts pairs by: [0] its CPU workers, [1 + k] its GPU k. */
#define MNW_RESULT_DEVS 17

typedef struct mnw_result {
    mnw_range r;
    mnw_buf data[MNW_NOUT];
    uint64_t cells;
    uint64_t dev_pairs[MNW_RESULT_DEVS]; /* pairs by the device that aligned them or (its filter) pruned them (progress.json) */
    uint64_t pruned;                     /* pairs of r the filter proved beyond the cutoff (lib/prune.h) */
    struct mnw_result *next;
} mnw_result;

mnw_result *mnw_result_new(mnw_range r);
void mnw_result_free(mnw_result *res);

/* The result of work list r from its alignments (alns[x] is pair r.k0 + x):
 * the text of every enabled output (mnw_output_format), the gzip ones
 * compressed as one member each at js->gzip_level, `cells`, and `pruned`
 * (the alignments marked pruned); its pairs count as the CPU's (dev_pairs[0]) until the caller says otherwise. text is the
 * caller's scratch (reused between calls, contents replaced). Every worker
 * kind builds its results here (CPU workers, the trace-back thread), so they
 * are byte for byte the same. Returns the result (the caller's), or NULL
 * with e set when compression fails. */
mnw_result *mnw_result_build(const mnw_job_spec *js, mnw_range r, const mnw_aln *alns, uint64_t cells,
                             mnw_buf text[MNW_NOUT], mnw_err *e) MNW_MUST_CHECK;

#endif
