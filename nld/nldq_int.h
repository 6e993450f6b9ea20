/* nldq_int.h - private to nld/: the node dispatcher's shared state and its
 * queues (nldq.c), used by nld.c (comm thread, CPU workers) and nld_gpu.c
 * (the GPU dispatcher thread). Everything here is guarded by `mu` unless
 * said otherwise.
 *
 * Two queues feed the CPU workers: `work` (work lists from the CLD, also
 * taken by the GPU dispatcher) and `fin` (finish tasks: GPU results to turn
 * into alignments and output; workers take these first, so the GPU is never
 * held up by its results). `fin` is one queue per device plus one for tasks
 * of no device: a worker takes those of no device first, then its home
 * device's (finplan.h), then any. Results go to `done` for the comm thread.
 * Ownership: the state is the comm thread's (mnw_nld_run); the queues' items
 * belong to the queue until taken.
 */
#ifndef MNW_NLDQ_INT_H
#define MNW_NLDQ_INT_H

#include <pthread.h>

#include "lib/result.h"
#include "nld/nldcfg.h"
#include "workers/cpu/cpu_worker.h"
#include "workers/tb/tb_thread.h"

typedef struct nld_fin nld_fin;
typedef struct nld_state nld_state;

/* A finish task; run on a CPU worker with its scratch (outside mu). */
struct nld_fin {
    nld_fin *next;
    void (*run)(nld_fin *f, nld_state *st, mnw_cpu_worker *w);
    int dev; /* the device (index into the node's GPUs) whose results it finishes; -1: none */
};

struct nld_state {
    const mnw_nld_cfg *cfg;
    pthread_mutex_t mu;
    pthread_cond_t work_cv, done_cv;
    mnw_range *work; /* ring of pending work lists */
    size_t work_cap, work_head, work_n;
    nld_fin **fin_head, **fin_tail; /* [0]: tasks of no device; [1 + d]: device d's */
    int nfinq;                      /* 1 + cfg->ngpus */
    int fin_n; /* tasks in fin (read without mu by aligning workers: atomic) */
    /* the workers' plan (finplan.h), set by the GPU dispatcher once its
     * devices are open; plan_gen 0: none yet (worker k on slot0 + k) */
    int plan_gen;
    int *home, *wslot;
    mnw_result *done_head, *done_tail;
    int no_more;    /* the link has no more work */
    int stop;       /* error or abandon: workers quit */
    int abandon;    /* drop the lists in flight (atomic: read by aligning workers) */
    int gpu_active; /* the GPU dispatcher may still queue finish tasks */
    mnw_err werr;
    int werr_set;
    mnw_tb *tb; /* the trace-back thread */
};

/* The state of a node with a ring of cap work lists; mnw_nld_state_free
 * frees what the done queue still holds and the ring (the threads have
 * ended). */
void mnw_nld_state_init(nld_state *st, const mnw_nld_cfg *cfg, size_t cap);
void mnw_nld_state_free(nld_state *st);

/* With mu held: records the first error and stops every thread. */
void mnw_nld_fail_locked(nld_state *st, const mnw_err *e);
/* With mu held: a finished result for the comm thread. */
void mnw_nld_push_done_locked(nld_state *st, mnw_result *res);
/* With mu held: a finish task for the CPU workers. */
void mnw_nld_push_fin_locked(nld_state *st, nld_fin *f);
/* With mu held: takes the next work list; 1, or 0 if the queue is empty. */
int mnw_nld_take_locked(nld_state *st, mnw_range *r);
/* With mu held: queues work list r (the ring has room). */
void mnw_nld_put_locked(nld_state *st, mnw_range r);
/* With mu held: takes a finish task (fin_n > 0): the first of the
 * no-device queue (they complete lists the filter pruned and are never
 * left to starve behind a busy GPU's), else of device home's, else of the
 * next device's with tasks after home. */
nld_fin *mnw_nld_pop_fin_locked(nld_state *st, int home);
/* With mu held: stops every thread without an error (a stop, or after the
 * comm thread's own failure): the trace-back thread drops what it holds. */
void mnw_nld_stop_locked(nld_state *st);

#endif
