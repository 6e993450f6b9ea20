/* finplan.h - on a node with GPUs, which core each CPU worker binds to and
 * whose GPU results it finishes first (issue 40): the finishing workers of
 * GPU g on cores near g where the rank has such cores, so that the results
 * they read (the GPU's pinned buffers, allocated by a thread bound near it)
 * and the outputs they format stay on the GPU's NUMA node. A pure
 * function of the counts and of which slot is near which GPU: nld_gpu.c
 * asks hwloc (topo.h), the unit test gives its own.
 *
 * Slots are those of mnw_topo_bind_thread: the rank's workers own slots
 * slot0 .. slot0 + workers - 1 (cores of other ranks of the host lie
 * outside), and the plan only permutes them, so ranks never share a core
 * because of it. Without a slot near a GPU the identity comes out (worker
 * k on slot slot0 + k).
 *
 * Ownership: the caller's arrays. Thread-safety: none needed (no state).
 */
#ifndef MNW_FINPLAN_H
#define MNW_FINPLAN_H

/* Workers of a node with ngpus GPUs that finish GPU results first (0
 * without GPUs): every one (--cpu-align no, the default: no worker aligns a
 * list of its own), or with cpu_align the first 2 per GPU, at most all of
 * them, which never align a list of their own, so that a GPU never waits
 * for its results while every worker is busy with a list. */
int mnw_finplan_finishers(int workers, int ngpus, int cpu_align);

/* 1 when slot is near device dev (0 .. ndev-1) */
typedef int (*mnw_finplan_near)(void *ctx, int slot, int dev);

/* Workers 0 .. nfin-1 finish GPU results first, worker k those of device
 * k mod ndev (home[k]); the others (--cpu-align yes) have home -1. slot[k]:
 * the first free slot near home[k], in slot order, for the finishers in
 * worker order; then every worker still without one takes the first free
 * slot. workers >= 1, 0 <= nfin <= workers, ndev >= 1. */
void mnw_finplan(int workers, int slot0, int nfin, int ndev, mnw_finplan_near near, void *ctx, int *slot, int *home);

#endif
