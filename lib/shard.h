/* shard.h - one run split into N independent jobs (--shard I/N, issue 21;
 * docs/SHARDS.md). Shard I of N aligns one contiguous range of the pair
 * order (pairs.h), [k0, k0 + count): the ranges of shards 1..N follow each
 * other and cover every pair once. Their boundaries are balanced by cells
 * (the sum of len_i x len_j over a shard's pairs is close to 1/N of all),
 * then moved to the nearest multiple of the work-list size, so that every
 * work list of a shard is a work list of the whole run: each output of a
 * shard is then byte for byte the part of the whole run's output that its
 * pairs make (one gzip member per work list, docs/FORMATS.md), and the
 * shards' outputs concatenated in order are the whole run's. A shard may
 * hold no pair (N above the number of work lists).
 *
 * Ownership: plain values. Thread-safety: pure functions.
 */
#ifndef MNW_SHARD_H
#define MNW_SHARD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/pairs.h"
#include "lib/seq.h"

#define MNW_SHARD_MAX 1000000 /* shards of one run at most */

typedef struct {
    uint32_t index; /* 1 .. count */
    uint32_t count; /* 0: no shard, the whole run */
} mnw_shard;

/* "I/N" (1 <= I <= N <= MNW_SHARD_MAX) or "none" into *s. 0, or -1 when v
 * is neither (*s unchanged). */
int mnw_shard_parse(const char *v, mnw_shard *s);
/* "I/N", or "none" for the whole run, into buf (at least 24 bytes). */
const char *mnw_shard_format(const mnw_shard *s, char *buf, size_t cap);
/* The pairs shard s of the sequences in seqs aligns, with work lists of wl
 * pairs (wl >= 1); the whole range for count 0. */
mnw_range mnw_shard_range(const mnw_seqset *seqs, const mnw_shard *s, uint64_t wl);

#endif
