/* wire.h - what travels between ranks, packed into byte blobs: the job
 * (the job-wide settings and the packed sequence set: one broadcast), one
 * work list's result (one message, NLD -> CLD, output through rank 0) and,
 * when the nodes write their own results (output through MPI-IO, issue 22),
 * the metadata in their place: a result's sizes (NLD -> CLD), the offsets
 * the CLD places it at (CLD -> NLD), and the checksum pieces of what was
 * written and synced (NLD -> CLD).
 *
 * The layout is the host's own (native integers): every rank of a job runs
 * the same mnw build; a magic number, a format version and a byte-order
 * mark in the job blob catch a mismatch with a clear error.
 * Ownership: pack functions append to a caller-owned mnw_buf; unpack
 * functions fill caller-owned structs (the seqset then owns its arrays) or
 * return a new mnw_result. Thread-safety: reentrant.
 */
#ifndef MNW_WIRE_H
#define MNW_WIRE_H

#include <stdint.h>

#include "lib/buf.h"
#include "lib/identity.h"
#include "lib/result.h"
#include "lib/score.h"
#include "lib/seq.h"
#include "lib/userout.h"
#include "lib/util.h"

/* The settings every rank must share (rank 0's win; node-local settings
 * such as the worker count are not here). */
typedef struct {
    mnw_scoring sc;
    mnw_iddef iddef;
    double cutoff;
    int32_t cigar, outputs, gzip_level; /* outputs: a mask of MNW_OUT_* (outsel.h) */
    uint64_t worklist_size;
    double rank_timeout;
    int32_t output_via; /* MNW_VIA_* (opts.h): who writes the outputs */
    int32_t cutoff_scope; /* MNW_CUTOFF_SCOPE_* (output.h): what the cutoff filters */
    int32_t prune;        /* mnw_prune_mode (prune.h): rank 0's --prune; each rank makes the plan from the jobset */
    mnw_userfields userfields; /* userout.tsv.gz's fields (userout.h) */
} mnw_jobset;

void mnw_wire_pack_job(const mnw_jobset *js, const mnw_seqset *s, mnw_buf *out);
/* s must be freshly initialised (mnw_seqset_init). 0 or -1 with e set. */
int mnw_wire_unpack_job(const void *p, size_t n, mnw_jobset *js, mnw_seqset *s, mnw_err *e) MNW_MUST_CHECK;

/* Result message: header (mnw_wire_head), then the output bytes back to
 * back. */
void mnw_wire_pack_result(const mnw_result *res, mnw_buf *out);
/* NULL with e set if the message is malformed (lengths that do not add up,
 * more pairs pruned than the list has). */
mnw_result *mnw_wire_unpack_result(const void *p, size_t n, mnw_err *e) MNW_MUST_CHECK;

/* A result's header: its range, cells, pairs by device, the pairs the
 * filter pruned (lib/prune.h: done, no output line; at most count) and the
 * length of each output's bytes. Output through MPI-IO sends it alone (the
 * SIZES message: the writer keeps the bytes). */
typedef struct {
    uint64_t k0, count, cells, len[MNW_NOUT], dev_pairs[MNW_RESULT_DEVS], pruned;
} mnw_wire_head;
void mnw_wire_head_of(const mnw_result *res, mnw_wire_head *h);
/* 0, or -1 with e set when n is not one header, or one that counts more
 * pairs pruned than it has. */
int mnw_wire_unpack_head(const void *p, size_t n, mnw_wire_head *h, mnw_err *e) MNW_MUST_CHECK;

/* Where a work list's bytes go (the PLACE message holds one or more). */
typedef struct {
    uint64_t k0, off[MNW_NOUT];
} mnw_wire_place;

/* One work list written and synced (the WRITTEN message holds one or more
 * records): for each output, the CRC-32 and length of each piece of its
 * bytes, cut by mnw_sum_split (bookmark.h). Unpacked, the arrays are the
 * record's own (grown as needed; mnw_wire_written_free). */
typedef struct {
    uint64_t k0;
    int n[MNW_NOUT];
    uint32_t *crc[MNW_NOUT];
    uint64_t *len[MNW_NOUT];
    int cap[MNW_NOUT];
} mnw_wire_written;
void mnw_wire_pack_written(const mnw_wire_written *w, mnw_buf *out);
/* Reads the record at *pos of p[0..n) into w and moves *pos past it: 1; 0
 * at the end; -1 with e set when the record is cut short. */
int mnw_wire_next_written(const void *p, size_t n, size_t *pos, mnw_wire_written *w, mnw_err *e) MNW_MUST_CHECK;
void mnw_wire_written_free(mnw_wire_written *w);

#endif
