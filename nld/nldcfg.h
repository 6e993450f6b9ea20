/* nldcfg.h - what a node-level dispatcher runs with (mnw_nld_run, nld.h):
 * its job, its CPU workers, its GPUs. A header of its own so that the
 * dispatcher's parts (nldq.c, nld_gpu.c) read the settings without the
 * dispatcher's entry points.
 * Ownership: the pointers are the caller's and outlive the run.
 * Thread-safety: read-only while the node runs.
 */
#ifndef MNW_NLDCFG_H
#define MNW_NLDCFG_H

#include <stdint.h>

#include "lib/jobspec.h"
#include "nld/topo.h"

typedef struct {
    const mnw_job_spec *js;
    int workers;  /* CPU worker threads, >= 1 */
    int prefetch; /* work lists kept queued beyond one per worker */
    const mnw_topo *topo; /* worker k binds to core slot slot0 + k; NULL: unbound */
    int slot0;            /* cores taken by other ranks on this host */
    int tb_mode;          /* 1: workers compute matrices only; the
                             trace-back thread traces (workers/tb) */
    /* GPUs (workers/gpu): device ids to open (ngpus of them; 0: none) */
    int ngpus;
    const int *gpu_ids;
    int tb_device;        /* GPU trace-back on the device (1) or the host (0) */
    int gpu_batch;        /* pairs per GPU batch at most */
    int gpu_kernel;       /* MNW_GPU_KERNEL_* (gpu.h): AUTO or the one forced */
    int cpu_align;        /* 0: CPU workers only finish GPU results */
    uint64_t worklist_size; /* pairs per work list (sizes the GPU's share of the queue) */
    int gpu_sharers;      /* ranks of this host that drive GPUs, this one included (>= 1):
                             each takes that share of a GPU's memory, since they may
                             open the same GPUs (the host name cannot tell) */
} mnw_nld_cfg;

#endif
