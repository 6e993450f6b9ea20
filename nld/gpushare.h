/* gpushare.h - ranks of one host that see the same GPUs share them out
 * (issue 40): with --gpus auto, L ranks of a host whose visible devices are
 * the same (the same PCI bus ids, in the same order: no per-rank
 * CUDA_VISIBLE_DEVICES) each drive a contiguous block of them, so that
 * `srun --ntasks-per-node=2` or `mpirun -np 2` on a 4-GPU node runs two
 * ranks of two GPUs each (the layout measured fastest, docs/GPU.md) with no
 * per-rank environment. With fewer GPUs than ranks, ranks share a device
 * as before (its memory split among them).
 *
 * A pure function of the ranks' (host, device set) pairs, which main.c
 * gathers from every rank (an MPI_Allgather). Ownership: the caller's
 * arrays. Thread-safety: none needed (no state). */
#ifndef MNW_GPUSHARE_H
#define MNW_GPUSHARE_H

#include <stddef.h>
#include <stdint.h>

/* What a rank tells the others before it picks its GPUs. */
typedef struct {
    char host[64];
    uint64_t devset; /* hash of the bus ids of the devices it would drive; 0: none, or not --gpus auto */
    int32_t ndev;    /* how many */
} mnw_gpushare_peer;

/* The hash of a list of bus ids ("0000:18:00.0", ...), never 0. */
uint64_t mnw_gpushare_hash(const char *const *busids, int n);

/* Rank `rank` of `size` (peers[r] for each): its block of its own
 * peers[rank].ndev devices, as [*first, *first + *count), and *sharers, the
 * ranks of the host that may drive the same devices (each takes 1/sharers
 * of a device's memory): the ranks of its group (same host and devset)
 * whose block holds its devices, plus every rank of the host with devices
 * of another set (which may overlap: counted, as before this split). A rank
 * with devset 0 keeps its devices (first 0, count ndev) and counts every
 * rank of its host with devices. */
void mnw_gpushare_block(const mnw_gpushare_peer *peers, int size, int rank, int *first, int *count, int *sharers);

#endif
