/* nld_gpu_int.h - private to nld/: the GPU dispatcher thread of a node
 * (nld_gpu.c), started and joined by the comm thread (nld.c).
 * Ownership: the thread's state is the returned handle's until
 * mnw_nld_gpu_join frees it. Thread-safety: start and join from the comm
 * thread only.
 */
#ifndef MNW_NLD_GPU_INT_H
#define MNW_NLD_GPU_INT_H

#include "nld/nldq_int.h"

/* The GPU dispatcher (nld_gpu.c). mnw_nld_gpu_start starts its thread,
 * which opens cfg->ngpus devices (a failure stops the node through
 * mnw_nld_fail_locked), and returns at once; NULL with e set when the
 * thread cannot start (mnw_err_thread: EAGAIN is out of memory). The caller
 * sets st->gpu_active first; the thread clears it, under mu, once it has
 * queued its last finish task. mnw_nld_gpu_join waits for the thread. */
typedef struct nld_gpu nld_gpu;
nld_gpu *mnw_nld_gpu_start(nld_state *st, mnw_err *e);
void mnw_nld_gpu_join(nld_gpu *g);

#endif
