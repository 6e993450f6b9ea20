/* place.h - where each work list's bytes go when the nodes write their own
 * results (issue 22, docs/DISTRIBUTED.md): the CLD's bookkeeping, without a
 * byte of the results.
 *
 * A list is handed out (mnw_place_next), then its writer reports the size
 * of each output's bytes for it (mnw_place_sized). Lists are placed in pair
 * order: a list gets its file offsets once every list before it has its
 * sizes, as a running sum per output (mnw_place_take), so the files are
 * byte for byte the single writer's. Its writer then writes there, syncs,
 * and reports the CRC-32 pieces of what it wrote (mnw_place_written, cut at
 * the sums' block edges: mnw_sum_split in bookmark.h). The durable
 * watermark moves over contiguous written lists only, and only then do
 * their pieces enter the output sums and lengths: what a bookmark takes
 * from here (watermark, bytes, sums) never counts a byte that is not on
 * disk, whatever order the lists are written in.
 *
 * Memory is bounded as in the CLD (cld.h): no list is handed out `window`
 * lists or more beyond the durable watermark, so at most `window` lists
 * wait here, each with its sizes, offsets and pieces (a few dozen bytes).
 *
 * Ownership: a mnw_place owns its slots and their pieces
 * (mnw_place_free). Thread-safety: one thread (the CLD's).
 */
#ifndef MNW_PLACE_H
#define MNW_PLACE_H

#include <stdint.h>

#include "cld/bookmark.h"
#include "lib/output.h"
#include "lib/pairs.h"
#include "lib/util.h"

enum { MNW_PLACE_FREE, MNW_PLACE_OUT, MNW_PLACE_SIZED, MNW_PLACE_PLACED, MNW_PLACE_WRITTEN };

typedef struct {
    int state;                /* MNW_PLACE_* */
    mnw_range r;
    int rank;                 /* who reported its sizes: the writer */
    uint64_t size[MNW_NOUT];  /* bytes of each output for this list */
    uint64_t pruned;          /* its pairs the filter pruned (lib/prune.h) */
    uint64_t off[MNW_NOUT];   /* where they go (PLACED on) */
    int npiece[MNW_NOUT];     /* WRITTEN: the CRC-32 pieces of each output */
    uint32_t *crc[MNW_NOUT];
    uint64_t *len[MNW_NOUT];
} mnw_place_slot;

typedef struct {
    uint64_t npairs, wl, window;
    uint64_t next_k;              /* first pair not handed out */
    uint64_t place_k;             /* first pair not placed */
    uint64_t watermark;           /* every pair below is written and durable */
    uint64_t end[MNW_NOUT];       /* bytes placed: the next list's offsets */
    uint64_t bytes[MNW_NOUT];     /* durable bytes (a bookmark's lengths) */
    mnw_sum sum[MNW_NOUT];        /* of the durable bytes */
    uint64_t base[MNW_NOUT];      /* where writers cut pieces: the sums' block size at the start */
    int enabled[MNW_NOUT];
    uint64_t cells;
    uint64_t pruned;              /* pairs pruned in the lists made durable here (not those below start) */
    mnw_place_slot *slots;        /* window slots, by (k0 / wl) % window */
} mnw_place;

/* npairs pairs in lists of wl, at most window lists beyond the watermark;
 * starting at watermark start (a resumed run: a multiple of wl, or npairs)
 * with the outputs' durable lengths and sums there (bytes[], sums[]: their
 * block size decides where writers cut their pieces; a new run: 0 and
 * empty sums, or the heads already written). */
void mnw_place_init(mnw_place *p, uint64_t npairs, uint64_t wl, uint64_t window, uint64_t start,
                    const int enabled[MNW_NOUT], const uint64_t bytes[MNW_NOUT], const mnw_sum sums[MNW_NOUT]);
void mnw_place_free(mnw_place *p);
/* 1: *r is the next list to hand out; 0: none until lists become durable
 * (window full); -1: every list is out. */
int mnw_place_next(mnw_place *p, mnw_range *r);
/* The sizes of list k0 from rank (after it aligned it), and how many of
 * its pairs the filter pruned (counted in p->pruned once the list is
 * durable). 0, or -1 with e set: a list not handed out, or sized twice. */
int mnw_place_sized(mnw_place *p, uint64_t k0, uint64_t count, const uint64_t size[MNW_NOUT], uint64_t cells,
                    uint64_t pruned, int rank, mnw_err *e) __attribute__((warn_unused_result));
/* The next list that can be placed now (every list before it is placed):
 * 1 with *k0, off[] and *rank (send them the offsets), or 0 when none. */
int mnw_place_take(mnw_place *p, uint64_t *k0, uint64_t off[MNW_NOUT], int *rank);
/* List k0 is written and synced by rank: for each enabled output o, n[o]
 * pieces (crc[o][i], len[o][i]) cut by mnw_sum_split at its offset, whose
 * lengths add up to its size. Moves the durable watermark over every
 * contiguous written list, adding their pieces to the sums. 0, or -1 with
 * e set: not placed, not that rank's, written twice, or pieces that do
 * not add up or cross a block edge. */
int mnw_place_written(mnw_place *p, uint64_t k0, int rank, const int n[MNW_NOUT], uint32_t *const crc[MNW_NOUT],
                      uint64_t *const len[MNW_NOUT], mnw_err *e) __attribute__((warn_unused_result));
static inline int mnw_place_done(const mnw_place *p) { return p->watermark == p->npairs; }

#endif
