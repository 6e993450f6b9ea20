/* cld.h - the cluster-level dispatcher: hands out work lists (contiguous
 * pair ranges) on request and writes results back in pair order, or, when
 * the nodes write their own results (output through MPI-IO, issue 22:
 * mnw_cld_place_mode), places them: each list's offsets follow from the
 * sizes its writer reports (place.h), and the watermark moves over the
 * lists their writers have written and synced.
 *
 * Reorder memory is bounded: no work list is handed out more than `window`
 * lists ahead of the watermark (the first pair not yet written), so at most
 * `window` results wait in memory however slow one node is (docs/ARCHITECTURE.md).
 * It also keeps the run's bookmark (bookmark.h, docs/RESUME.md): after
 * results are written, at most every `every` seconds, and when the last
 * pair is written, it flushes and fsyncs the outputs, checks that they are
 * still the files written and of the length written (mnw_writer_check),
 * and then replaces the bookmark with the new watermark and the outputs'
 * lengths and checksums, so a bookmark never counts a byte that is not on
 * disk, nor a file that was deleted, replaced or cut. When the CLD writes
 * the outputs, a bookmark that is not forced is made durable in a thread of
 * its own (durable.h: the fsync, the check, at least the length counted,
 * and the bookmark file), so that handing out lists and writing results go
 * on meanwhile; a forced one (the first, the last) is written in the caller
 * and checks the exact lengths.
 * Ownership: the CLD takes ownership of every result passed to
 * mnw_cld_accept; it borrows the writer and the bookmark. Thread-safety: one
 * thread (the comm thread of rank 0), which mnw_cld_checkpoint and
 * mnw_cld_accept may leave a bookmark thread beside (joined by the next
 * forced checkpoint, mnw_cld_settle or mnw_cld_free: settle before closing
 * the writer).
 */
#ifndef MNW_CLD_H
#define MNW_CLD_H

#include "cld/bookmark.h"
#include "cld/durable.h"
#include "cld/place.h"
#include "cld/writer.h"
#include "lib/result.h"
#include "lib/wire.h"

typedef struct {
    uint64_t npairs, wl, window;
    uint64_t next_k;    /* first pair not yet handed out */
    uint64_t watermark; /* all pairs below are written */
    uint64_t cells;     /* DP cells of the written pairs */
    uint64_t pruned;    /* pairs below the watermark the filter pruned (lib/prune.h), those of the runs
                           before a resume included: the bookmark's "pruned" */
    mnw_result **slots; /* window slots, by (k0 / wl) % window */
    mnw_writer *w;
    uint64_t start;     /* watermark the run started from (> 0: resumed) */
    uint64_t start_pruned; /* pruned below it (the bookmark's count) */
    int stopping;       /* a stop was asked for: no more lists handed out */
    const char *dir;    /* OUTDIR of the bookmark; NULL: none kept */
    mnw_bookmark *bm;   /* filled by the caller but for watermark and outputs */
    double bm_every, bm_last;
    uint64_t bm_mark;   /* watermark of the last bookmark written */
    uint64_t bm_writes;
    mnw_durable dur;    /* the bookmark being made durable in its thread (the CLD writes the outputs) */
    uint64_t dur_mark;  /* its watermark */
    double here_s, here_last_s; /* wall seconds of the bookmarks written in the caller: all, the last */
    mnw_place *place;   /* output through MPI-IO: where lists go (NULL: the CLD writes them) */
} mnw_cld;

void mnw_cld_init(mnw_cld *c, uint64_t npairs, uint64_t wl, uint64_t window, mnw_writer *w);
void mnw_cld_free(mnw_cld *c);
/* A resumed run: pairs below watermark are in the outputs already (a
 * multiple of wl, or npairs), `pruned` of them pruned (the bookmark's
 * count). Call before handing out anything. */
void mnw_cld_start_at(mnw_cld *c, uint64_t watermark, uint64_t pruned);
/* Keep the bookmark dir/mnw.bookmark: b holds the input hash, counts and
 * settings; the CLD fills in the watermark, the pairs pruned below it and
 * the output lengths. */
void mnw_cld_keep_bookmark(mnw_cld *c, const char *dir, mnw_bookmark *b, double every);
/* Writes the bookmark now if `force`, or if `every` seconds passed and the
 * watermark moved (then in its thread when the CLD writes the outputs; a
 * call while it runs only looks whether it has finished). 0, or -1 with e
 * set (an output or the bookmark could not be written, or an output is not
 * what this run wrote: then no bookmark is written and the one before
 * stays; from a bookmark thread, said at the next call). Forced: waits for
 * a bookmark thread first; also after mnw_writer_close (the last
 * bookmark). */
int mnw_cld_checkpoint(mnw_cld *c, int force, mnw_err *e) MNW_MUST_CHECK;
/* Waits for a bookmark thread (none: returns at once) and takes its
 * outcome: 0, or -1 with e set (that bookmark was not written). Call before
 * closing the writer. */
int mnw_cld_settle(mnw_cld *c, mnw_err *e) MNW_MUST_CHECK;
/* Stop handing out lists (a stop signal); results of lists out still count. */
void mnw_cld_stop(mnw_cld *c);
/* 1: *r is the next work list; 0: none until results come back (window
 * full); -1: every list has been handed out, or the CLD is stopping. */
int mnw_cld_next(mnw_cld *c, mnw_range *r);
/* Takes a result; writes every result now contiguous with the watermark.
 * Returns 0, or -1 with e set (write error, or a result that was never
 * handed out / arrives twice). */
int mnw_cld_accept(mnw_cld *c, mnw_result *res, mnw_err *e) MNW_MUST_CHECK;
static inline int mnw_cld_done(const mnw_cld *c) { return c->watermark == c->npairs; }

/* Output through MPI-IO: from now on the nodes write the results and the
 * CLD places them. Call after mnw_cld_start_at and the first bookmark (the
 * heads are written and synced: the writer is closed here and only checks
 * the files from then on). 0, or -1 with e set (the close failed). */
int mnw_cld_place_mode(mnw_cld *c, mnw_err *e) MNW_MUST_CHECK;
/* The sizes of a list from rank (its result header). 0, or -1 with e set. */
int mnw_cld_sized(mnw_cld *c, const mnw_wire_head *h, int rank, mnw_err *e) __attribute__((warn_unused_result));
/* 1 when no list can be handed out until older ones are written (the
 * reorder window is full): writers should sync what they wrote now. */
int mnw_cld_window_full(const mnw_cld *c);
/* The next list placed: 1 with *pl and the *rank to write it; 0: none now. */
int mnw_cld_take(mnw_cld *c, mnw_wire_place *pl, int *rank);
/* A list written and synced by rank: moves the watermark over the lists now
 * durable, then bookmarks as mnw_cld_accept does. 0, or -1 with e set. */
int mnw_cld_written(mnw_cld *c, const mnw_wire_written *w, int rank, mnw_err *e) __attribute__((warn_unused_result));

#endif
