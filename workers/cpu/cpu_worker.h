/* cpu_worker.h - what one CPU worker thread does with a work list: align
 * every pair (worklist.h), format the outputs (output.h), compress the gzip
 * ones, and return the mnw_result for the CLD (mnw_cpu_worker_run); or, in
 * matrices-only mode (mnw_cpu_worker_run_tb), compute only the direction
 * matrices and hand them to the node's trace-back thread (workers/tb), which
 * traces, formats and compresses them and delivers the same result bytes.
 * With js->prune on (issue 39) both paths filter each row first
 * (worklist.h, workers/cpu/prune_cpu.h); the bytes are the same.
 * Ownership: a worker owns its scratch buffers; the returned result is the
 * caller's. Thread-safety: one mnw_cpu_worker per thread; the spec is shared
 * read-only. */
#ifndef MNW_CPU_WORKER_H
#define MNW_CPU_WORKER_H

#include "lib/jobspec.h"
#include "lib/output.h"
#include "lib/result.h"
#include "lib/score.h"
#include "lib/util.h"
#include "workers/cpu/worklist.h"
#include "workers/tb/tb_thread.h"

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
mnw_result *mnw_cpu_worker_run(mnw_cpu_worker *w, mnw_range r, mnw_err *e) MNW_MUST_CHECK;

/* Matrices-only mode: computes the direction matrices of work list r and
 * submits them to tb in batches (blocking while tb's back-pressure limit is
 * reached); r's result (byte for byte what mnw_cpu_worker_run returns)
 * arrives later through tb's deliver callback, on the trace-back thread.
 * tb must have been started with the same job spec as w. Returns 0, or -1
 * with e set when tb was aborted (r's result then never comes).
 *
 * How the node dispatcher (nld) uses it:
 *   1. before starting the workers:
 *        tb = mnw_tb_start(js, max_bytes, deliver, st, e);
 *      max_bytes e.g. 2 x workers x MNW_TB_BATCH_BYTES (16S: 2 lane groups
 *      per worker queued); deliver(ctx, res, err), called on the trace-back
 *      thread, locks nld's mutex, appends res to the done queue (res ==
 *      NULL: records *err as the worker error and sets stop), signals
 *      done_cv, unlocks. It must not call into tb.
 *   2. each worker thread, for each work list r taken from the queue:
 *        if (mnw_cpu_worker_run_tb(&w, r, tb, &e)) { record e, stop }
 *      instead of mnw_cpu_worker_run (nothing to queue: the result comes
 *      through deliver). A work list stays "in flight" until delivered, so
 *      the comm thread's inflight count works unchanged.
 *   3. on an error (stop): mnw_tb_abort(tb) (safe under nld's mutex), so
 *      workers blocked in submit return at once.
 *   4. after joining the workers: mnw_tb_stop(tb, NULL) (drains: every list
 *      submitted is delivered before it returns; none after), then drain
 *      nld's done queue as usual. Do not hold nld's mutex across
 *      mnw_tb_stop (deliver takes it). */
int mnw_cpu_worker_run_tb(mnw_cpu_worker *w, mnw_range r, mnw_tb *tb, mnw_err *e) MNW_MUST_CHECK;

#endif
