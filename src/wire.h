/* wire.h - what travels between ranks, packed into byte blobs: the job
 * (the job-wide settings and the packed sequence set: one broadcast) and one
 * work list's result (one message, NLD -> CLD).
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

#include "buf.h"
#include "identity.h"
#include "result.h"
#include "score.h"
#include "seq.h"
#include "util.h"

/* The settings every rank must share (rank 0's win; node-local settings
 * such as the worker count are not here). */
typedef struct {
    mnw_scoring sc;
    mnw_iddef iddef;
    double cutoff;
    int32_t cigar, outputs, gzip_level; /* outputs: a mask of MNW_OUT_* (outsel.h) */
    uint64_t worklist_size;
    double rank_timeout;
} mnw_jobset;

void mnw_wire_pack_job(const mnw_jobset *js, const mnw_seqset *s, mnw_buf *out);
/* s must be freshly initialised (mnw_seqset_init). 0 or -1 with e set. */
int mnw_wire_unpack_job(const void *p, size_t n, mnw_jobset *js, mnw_seqset *s, mnw_err *e);

/* Result message: header (k0, count, cells, length of each output), then
 * the output bytes back to back. */
void mnw_wire_pack_result(const mnw_result *res, mnw_buf *out);
/* NULL with e set if the message is malformed. */
mnw_result *mnw_wire_unpack_result(const void *p, size_t n, mnw_err *e);

#endif
