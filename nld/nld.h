/* nld.h - the node-level dispatcher: keeps a queue of work lists filled
 * from its link to the CLD (pulling when it runs low), feeds the CPU worker
 * threads, and passes finished results back through the link.
 *
 * The link abstracts where work comes from: in one process it calls the
 * CLD directly (main.c); with MPI (a later transport) it exchanges messages.
 * Ownership: results are handed to link->deliver, which takes them.
 * Threads: the comm thread (the caller), cfg->workers CPU workers, the GPU
 * dispatcher thread when cfg->ngpus > 0 (nld_gpu.c: it takes work lists
 * from the same queue, runs them on every device, and queues their results
 * as finish tasks that the CPU workers complete before taking new lists),
 * and one trace-back thread (workers/tb/tb_thread.h), which rebuilds alignments from
 * the direction matrices that matrices-only workers hand over (the GPU
 * path's hand-over; with cfg->tb_mode the CPU workers use it too) and
 * delivers those results into the same done queue.
 * Thread-safety: mnw_nld_run is called by one thread (the comm thread),
 * which is also the only thread that calls the link; workers only touch
 * the queues.
 */
#ifndef MNW_NLD_H
#define MNW_NLD_H

#include "lib/result.h"
#include "lib/util.h"
#include "nld/nldcfg.h"
#include "nld/topo.h"

typedef struct {
    /* 1: *r filled; 0: none right now (asked for, or the CLD's window is
     * full); -1: no more work. `want` is how many lists the queue lacks. */
    int (*next)(void *ctx, mnw_range *r, int want);
    /* takes ownership of res; 0 or -1 with e set (fatal) */
    int (*deliver)(void *ctx, mnw_result *res, mnw_err *e);
    /* called on every turn of the comm loop (MPI progress, heartbeats);
     * > 0 if it did something, 0 if idle, -1 with e set (fatal). May be NULL. */
    int (*poll)(void *ctx, mnw_err *e);
    /* 1 while the link has work of its own left (the CLD has results to
     * collect from other ranks): the loop keeps turning. May be NULL. */
    int (*busy)(void *ctx);
    /* 1 when the lists in flight are to be dropped now (a stop whose grace
     * is over): workers leave their lists, mnw_nld_run returns
     * MNW_NLD_DROPPED. May be NULL. */
    int (*abandon)(void *ctx);
    /* called about twice a second from the comm thread (may be NULL) */
    void (*tick)(void *ctx);
    /* longest sleep of the comm thread when idle, in seconds: 0.25 alone,
     * about 0.0005 with MPI (messages are only seen when polled) */
    double wait_s;
    void *ctx;
} mnw_nld_link;


/* Work lists a node with these GPUs keeps queued for them: two batches in
 * flight per device plus one being filled. */
int mnw_nld_gpu_lists(int ngpus, int gpu_batch, uint64_t worklist_size);

/* Work lists the CLD's automatic reorder window adds per GPU (~1.3 M pairs
 * of 5,000: a few seconds of a GPU, longer than a CPU worker's list). */
#define MNW_GPU_WINDOW_LISTS 256

/* Lists of the queue CPU workers leave to the GPUs (a batch's worth per
 * GPU): a CPU worker takes a list only while more are queued, and none once
 * the CLD has no more (the end of the job is the GPUs'). */
int mnw_nld_gpu_reserve(const mnw_nld_cfg *cfg);

/* Runs until the link has no more work and every result is delivered.
 * Returns 0; MNW_NLD_DROPPED when the link said abandon (the lists still in
 * flight were dropped); or -1 with e set (a worker or delivery failed). All
 * threads are joined before it returns. */
#define MNW_NLD_DROPPED 1
int mnw_nld_run(const mnw_nld_cfg *cfg, mnw_nld_link *link, mnw_err *e) MNW_MUST_CHECK;

#endif
