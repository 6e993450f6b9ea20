/* topo.h - the machine as hwloc sees it: packages, cores, PUs, NUMA nodes,
 * the process's CPU binding (what mpirun --bind-to, taskset or a Slurm
 * cgroup left it), NVIDIA GPUs with the CPUs local to them; and thread
 * binding: CPU workers one per core of the process binding, a GPU
 * dispatcher near its GPU. docs/TOPOLOGY.md describes the policy.
 *
 * Ownership: an mnw_topo owns its hwloc topology and every bitmap in it
 * (mnw_topo_free releases them all); the caller owns the mnw_topo itself.
 * Thread-safety: mnw_topo_load and mnw_topo_free are called from one thread,
 * with no other thread using the mnw_topo. Once loaded, the mnw_topo is only
 * read: mnw_topo_bind_thread, mnw_topo_bind_near_gpu, mnw_topo_describe and
 * the fields may be used from any number of threads at once. hwloc documents
 * concurrent reading or traversing of one topology as safe (its "Thread
 * Safety" page; load, destroy, restrict, insert and set_* modify it);
 * hwloc_set_cpubind only reads the topology (its cpusets and binding hooks)
 * and then calls sched_setaffinity, and load ends with
 * hwloc_topology_refresh so that no lazily refreshed cache is left.
 * Load the topology before any thread is bound: the process binding read at
 * load is the union of every thread's binding at that moment.
 * The first load keeps hwloc's plugins loaded for the life of the process
 * (otherwise LeakSanitizer reports libpciaccess's state once hwloc unloads
 * them; topo.c).
 */
#ifndef MNW_TOPO_H
#define MNW_TOPO_H

#include <hwloc.h>
#include <stddef.h>

#include "lib/util.h"

#define MNW_TOPO_MAX_GPUS 64

typedef struct {
    char name[128];   /* "NVIDIA H100 80GB HBM3" (cuda/nvml plugin), the PCI
                         database name, or "NVIDIA PCI device 2330" */
    char busid[16];   /* "0000:1b:00.0" */
    unsigned device_id; /* PCI device id */
    int numa;         /* OS index of the NUMA node local to it; -1 when
                         none or several are */
    char numa_list[64]; /* the local NUMA nodes as a list, "0" or "0-1" */
    hwloc_cpuset_t cpuset; /* CPUs local to it (the non-I/O ancestor's) */
} mnw_topo_gpu;

typedef struct {
    hwloc_topology_t topo; /* NULL until loaded */
    char host[256];
    /* the machine (including CPUs a cgroup does not allow this process) */
    int packages, cores, pus, numa_nodes;
    /* the process binding at load: cores = cores with at least one PU in it */
    hwloc_cpuset_t bound;
    int bound_cores, bound_pus;
    char bound_list[256]; /* OS indexes, "0-15" */
    /* NVIDIA GPUs (PCI vendor 0x10de, class 0x0300 or 0x0302) in PCI bus id
     * order; match them to CUDA devices by bus id */
    int ngpus;
    mnw_topo_gpu gpu[MNW_TOPO_MAX_GPUS];
} mnw_topo;

/* Loads the topology (I/O devices kept) and fills the fields. 0, or -1 with
 * e set (nothing left to free). */
int mnw_topo_load(mnw_topo *t, mnw_err *e) MNW_MUST_CHECK;
/* Frees everything; t is zeroed (freeing twice, or a zeroed t, is fine). */
void mnw_topo_free(mnw_topo *t);

/* Default CPU worker count: max(1, bound cores - 2); one core is left for
 * the comm thread and one for the trace-back / GPU dispatcher thread. */
int mnw_topo_default_workers(const mnw_topo *t);
/* The same rule for a core count (when no topology could be loaded). */
int mnw_topo_workers_for_cores(int cores);

/* Binds the calling thread to core (slot mod bound_cores) of the process
 * binding, cores in hwloc's logical order: all PUs of that core that the
 * process binding holds. slot >= 0. 0, or -1 with e set (the thread's
 * binding is then unchanged). */
int mnw_topo_bind_thread(const mnw_topo *t, int slot, mnw_err *e) MNW_MUST_CHECK;

/* Binds the calling thread to the CPUs local to GPU gpu (index into t->gpu)
 * that the process binding holds; to the process binding if none are.
 * 0, or -1 with e set (no such GPU, or binding failed). */
int mnw_topo_bind_near_gpu(const mnw_topo *t, int gpu, mnw_err *e) MNW_MUST_CHECK;

/* The index into t->gpu of the GPU at PCI bus id busid ("0000:1b:00.0",
 * any case), or -1 when hwloc did not find it. */
int mnw_topo_gpu_index(const mnw_topo *t, const char *busid);
/* 1 when the core of slot (as mnw_topo_bind_thread counts them) has CPUs
 * local to GPU gpu (index into t->gpu); 0 otherwise, or when the GPU or
 * the core is not known. */
int mnw_topo_slot_near_gpu(const mnw_topo *t, int slot, int gpu);
/* The OS CPUs ("0-7,16") of the cores of slots[0..n) that the process
 * binding holds, into buf (empty when none or not loaded). */
void mnw_topo_slots_list(const mnw_topo *t, const int *slots, int n, char *buf, size_t len);

/* One line for the log: "host X: 1 package, 16 cores, 16 PUs, 1 NUMA node;
 * process bound to 16 cores / 16 PUs (0-15); GPUs: none". Truncated to n. */
void mnw_topo_describe(const mnw_topo *t, char *buf, size_t n);

#endif
