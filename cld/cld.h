/* cld.h - the cluster-level dispatcher: hands out work lists (contiguous
 * pair ranges) on request and writes results back in pair order.
 *
 * Reorder memory is bounded: no work list is handed out more than `window`
 * lists ahead of the watermark (the first pair not yet written), so at most
 * `window` results wait in memory however slow one node is (docs/ARCHITECTURE.md).
 * Ownership: the CLD takes ownership of every result passed to
 * mnw_cld_accept. Thread-safety: one thread (the comm thread of rank 0).
 */
#ifndef MNW_CLD_H
#define MNW_CLD_H

#include "result.h"
#include "writer.h"

typedef struct {
    uint64_t npairs, wl, window;
    uint64_t next_k;    /* first pair not yet handed out */
    uint64_t watermark; /* all pairs below are written */
    uint64_t cells;     /* DP cells of the written pairs */
    mnw_result **slots; /* window slots, by (k0 / wl) % window */
    mnw_writer *w;
} mnw_cld;

void mnw_cld_init(mnw_cld *c, uint64_t npairs, uint64_t wl, uint64_t window, mnw_writer *w);
void mnw_cld_free(mnw_cld *c);
/* 1: *r is the next work list; 0: none until results come back (window
 * full); -1: every list has been handed out. */
int mnw_cld_next(mnw_cld *c, mnw_range *r);
/* Takes a result; writes every result now contiguous with the watermark.
 * Returns 0, or -1 with e set (write error, or a result that was never
 * handed out / arrives twice). */
int mnw_cld_accept(mnw_cld *c, mnw_result *res, mnw_err *e);
static inline int mnw_cld_done(const mnw_cld *c) { return c->watermark == c->npairs; }

#endif
