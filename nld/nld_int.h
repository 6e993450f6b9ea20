/* nld_int.h - private to nld/: the node dispatcher's shared state, used by
 * nld.c (comm thread, CPU workers) and nld_gpu.c (the GPU dispatcher
 * thread). Everything here is guarded by `mu` unless said otherwise.
 *
 * Two queues feed the CPU workers: `work` (work lists from the CLD, also
 * taken by the GPU dispatcher) and `fin` (finish tasks: GPU results to turn
 * into alignments and output; workers take these first, so the GPU is never
 * held up by its results). Results go to `done` for the comm thread.
 * Ownership: the state is the comm thread's (mnw_nld_run); the queues' items
 * belong to the queue until taken.
 */
#ifndef MNW_NLD_INT_H
#define MNW_NLD_INT_H

#include <pthread.h>

#include "nld.h"

typedef struct nld_fin nld_fin;
typedef struct nld_state nld_state;

/* A finish task; run on a CPU worker with its scratch (outside mu). */
struct nld_fin {
    nld_fin *next;
    void (*run)(nld_fin *f, nld_state *st, mnw_cpu_worker *w);
};

struct nld_state {
    const mnw_nld_cfg *cfg;
    pthread_mutex_t mu;
    pthread_cond_t work_cv, done_cv;
    mnw_range *work; /* ring of pending work lists */
    size_t work_cap, work_head, work_n;
    nld_fin *fin_head, *fin_tail;
    int fin_n; /* tasks in fin (read without mu by aligning workers: atomic) */
    mnw_result *done_head, *done_tail;
    int no_more;    /* the link has no more work */
    int stop;       /* error or abandon: workers quit */
    int abandon;    /* drop the lists in flight (atomic: read by aligning workers) */
    int gpu_active; /* the GPU dispatcher may still queue finish tasks */
    mnw_err werr;
    int werr_set;
    mnw_tb *tb; /* the trace-back thread */
};

/* With mu held: records the first error and stops every thread. */
void mnw_nld_fail_locked(nld_state *st, const mnw_err *e);
/* With mu held: a finished result for the comm thread. */
void mnw_nld_push_done_locked(nld_state *st, mnw_result *res);
/* With mu held: a finish task for the CPU workers. */
void mnw_nld_push_fin_locked(nld_state *st, nld_fin *f);
/* With mu held: takes the next work list; 1, or 0 if the queue is empty. */
int mnw_nld_take_locked(nld_state *st, mnw_range *r);

/* The GPU dispatcher (nld_gpu.c). mnw_nld_gpu_start starts its thread,
 * which opens cfg->ngpus devices (a failure stops the node through
 * mnw_nld_fail_locked), and returns at once. The caller sets
 * st->gpu_active first; the thread clears it, under mu, once it has queued
 * its last finish task. mnw_nld_gpu_join waits for the thread. */
typedef struct nld_gpu nld_gpu;
nld_gpu *mnw_nld_gpu_start(nld_state *st);
void mnw_nld_gpu_join(nld_gpu *g);

#endif
