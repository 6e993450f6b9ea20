/* cpu_worker.h - what one CPU worker thread does with a work list: align
 * every pair (worklist.h), format the outputs (output.h), compress the gzip
 * ones, and return the mnw_result for the CLD.
 * Ownership: a worker owns its scratch buffers; the returned result is the
 * caller's. Thread-safety: one mnw_cpu_worker per thread; the spec is shared
 * read-only. */
#ifndef MNW_CPU_WORKER_H
#define MNW_CPU_WORKER_H

#include "output.h"
#include "result.h"
#include "score.h"
#include "util.h"
#include "worklist.h"

typedef struct {
    const mnw_outspec *spec;
    const mnw_scoring *sc;
    int gzip_level;
} mnw_job_spec;

typedef struct {
    const mnw_job_spec *js;
    mnw_wl_scratch scratch;
    mnw_aln *alns;
    size_t nalns;
    mnw_buf text[MNW_NOUT];
} mnw_cpu_worker;

void mnw_cpu_worker_init(mnw_cpu_worker *w, const mnw_job_spec *js);
void mnw_cpu_worker_free(mnw_cpu_worker *w);
/* Returns the result, or NULL with e set (compression failure). */
mnw_result *mnw_cpu_worker_run(mnw_cpu_worker *w, mnw_range r, mnw_err *e);

#endif
