/* tb_thread.h - the trace-back thread of a node: workers that compute only
 * direction matrices (GPU workers; CPU workers in matrices-only mode,
 * mnw_cpu_worker_run_tb) hand them over in batches; this one thread traces
 * every pair (mnw_tb_finish, trace.h: runs, or in counts mode the figures
 * only) into its work list's alignments and,
 * when a work list's last pair is traced, builds its result exactly as a
 * CPU worker does (mnw_result_build: format, gzip) and delivers it.
 *
 * Producer protocol (one work list r, from any worker thread):
 *   l = mnw_tb_list_open(tb, r);              register r (r.count pairs)
 *   b = mnw_tb_batch_get(tb, bytes);          an empty batch
 *   dir = mnw_tb_batch_room(b, bytes);        space for a matrix (NULL: full,
 *                                             submit b and get another)
 *   ... compute into dir, then per pair x (0 <= x < r.count, pair r.k0 + x):
 *   mnw_tb_batch_add(b, l, x, &end, a, m, bseq, n);
 *   mnw_tb_submit(tb, b, e);                  hand over (b is the tb's now)
 *   or, for a pair the filter pruned (issue 39; no matrix):
 *   mnw_tb_batch_add_pruned(b, l, x);
 * Every pair of an opened list must be added exactly once (a list of no
 * pairs: one add with end == NULL), in batches that are all submitted; a
 * batch may hold pairs of several lists and a list's pairs may span many
 * batches. The list is the tb's from mnw_tb_list_open on: the producer only
 * passes it to mnw_tb_batch_add until its last pair is submitted, then
 * forgets it.
 *
 * Back-pressure: mnw_tb_submit blocks while direction bytes are outstanding
 * (submitted, not yet traced: the queue and the batch being traced,
 * counted by their buffers' size) and this batch would take them past
 * max_bytes; a batch is always accepted when nothing is outstanding, so one
 * larger than max_bytes still passes, alone. The thread therefore holds at
 * most max(max_bytes, largest batch) of submitted bits, plus recycled empty
 * buffers (kept while they total less than max_bytes, else freed); each
 * producer holds the one batch it fills. A batch takes at least
 * MNW_TB_BATCH_BYTES (one lane group of 16S pairs: 18 MB with 32 AVX-512
 * lanes), so a few times that per worker is a sensible max_bytes.
 *
 * Results: deliver(ctx, res, NULL) on the trace-back thread for each
 * completed work list (res is the callee's), in completion order (any
 * order of k0). If building a result fails (gzip), deliver(ctx, NULL, e):
 * that list is lost and the run should stop (mnw_tb_abort). deliver must
 * not call into the tb; it runs with no tb lock held.
 *
 * Ownership: the tb owns lists, batches once submitted, and its buffers;
 * results pass to deliver. Thread-safety: mnw_tb_list_open, _batch_get,
 * _submit, _abort and _stats may be called from any thread at once; a batch
 * is used by one thread until submitted; mnw_tb_start and mnw_tb_stop once
 * each, by one thread, mnw_tb_stop after every producer is done.
 */
#ifndef MNW_TB_THREAD_H
#define MNW_TB_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/jobspec.h"
#include "lib/result.h"
#include "lib/util.h"
#include "workers/tb/trace.h"

/* Smallest direction buffer of a batch: lane groups smaller than this are
 * packed into one batch. */
#define MNW_TB_BATCH_BYTES ((size_t)16 << 20)

typedef struct mnw_tb mnw_tb;
typedef struct mnw_tb_list mnw_tb_list;
typedef struct mnw_tb_batch mnw_tb_batch;

/* Called on the trace-back thread: res (now the callee's), or res == NULL
 * and e set when building a work list's result failed. */
typedef void (*mnw_tb_deliver_fn)(void *ctx, mnw_result *res, const mnw_err *e);

typedef struct {
    uint64_t batches, pairs, lists; /* submitted batches, traced pairs, delivered lists */
    uint64_t waits;                 /* submits that had to wait (counted when they start waiting) */
    size_t outstanding_bytes;       /* now */
    size_t peak_bytes;              /* most outstanding bytes ever */
    size_t max_batch_bytes;         /* largest batch submitted */
} mnw_tb_stats;

/* Starts the thread (named "tb" in the logs). js is shared read-only and
 * must be the workers' (js->sc says which bits, linear or affine, the
 * matrices hold). max_bytes: back-pressure (above). Returns NULL with e set
 * when the thread cannot be created. */
mnw_tb *mnw_tb_start(const mnw_job_spec *js, size_t max_bytes, mnw_tb_deliver_fn deliver, void *ctx, mnw_err *e) MNW_MUST_CHECK;

/* Drains: waits until every submitted pair is traced and every completed
 * list delivered, then joins the thread and frees everything; *final (if
 * not NULL) gets the last statistics. Call it once every producer has
 * returned (after mnw_tb_abort too, to join and free). Lists opened but not
 * completely submitted are never delivered (freed, with a warning in the
 * log, unless after an abort). */
void mnw_tb_stop(mnw_tb *tb, mnw_tb_stats *final);

/* Discards queued batches and makes every later (or blocked) mnw_tb_submit
 * fail at once, so producers quit quickly; returns without waiting. The
 * thread stops after the batch it is tracing; a result being built at that
 * moment may still be delivered, none after mnw_tb_stop returns. Does not
 * call deliver, so it may be called with the deliver callback's locks held.
 * Then mnw_tb_stop as usual. */
void mnw_tb_abort(mnw_tb *tb);

/* Registers work list r (r.count pairs): its result comes through deliver
 * once all of them are traced. */
mnw_tb_list *mnw_tb_list_open(mnw_tb *tb, mnw_range r);

/* An empty batch (recycled when possible) with room for at least `bytes`
 * bytes of direction bits, and at least MNW_TB_BATCH_BYTES. */
mnw_tb_batch *mnw_tb_batch_get(mnw_tb *tb, size_t bytes);
/* 64-byte aligned space for `bytes` more bytes of direction bits in b, or
 * NULL when b has not that much room left (submit it, get another). The
 * space is b's: views into it stay valid while b lives. */
void *mnw_tb_batch_room(mnw_tb_batch *b, size_t bytes);
/* Adds pair x (pair l->r.k0 + x) of list l: its matrix (end: view into this
 * batch's space, end cell, score), a (length m, sequence i, the rows) and
 * bseq (length n, sequence j, the columns), which must stay valid until the
 * list is delivered (the job's sequence set). end == NULL: a list of no
 * pairs (x ignored). */
void mnw_tb_batch_add(mnw_tb_batch *b, mnw_tb_list *l, uint64_t x, const mnw_tb_end *end, const uint8_t *a, int m,
                      const uint8_t *bseq, int n);
/* Adds pair x of list l as pruned (lib/prune.h): the thread clears its
 * alignment with pruned = 1 (no output line, no cells) in batch order, like
 * any other pair; it takes no direction bytes. */
void mnw_tb_batch_add_pruned(mnw_tb_batch *b, mnw_tb_list *l, uint64_t x);
/* Pairs in b so far. */
size_t mnw_tb_batch_pairs(const mnw_tb_batch *b);
/* Hands b over (it is the tb's from now on, also on failure); blocks while
 * the back-pressure limit says so. Returns 0, or -1 with e set after
 * mnw_tb_abort (b discarded). */
int mnw_tb_submit(mnw_tb *tb, mnw_tb_batch *b, mnw_err *e) MNW_MUST_CHECK;
/* Gives back a batch that will not be submitted (e.g. a producer quitting). */
void mnw_tb_batch_put(mnw_tb *tb, mnw_tb_batch *b);

void mnw_tb_get_stats(mnw_tb *tb, mnw_tb_stats *st);

#endif
