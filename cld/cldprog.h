/* cldprog.h - the run's OUTDIR/progress.json (progress.h), kept by rank 0
 * from the CLD's counters: pairs written and, of them, pruned (the
 * bookmark's count), and per rank and device (the dev_pairs every result
 * carries) the pairs of this run, per rank also those pruned. Written when the
 * run starts, every MNW_PROGRESS_INTERVAL_S seconds, and when it ends
 * (done, stopped or failed), and at once on a change of state; each write
 * also appends to the run's history, OUTDIR/progress.log (proglog.h), when
 * that is due. A write that fails is logged once and the run goes on: the
 * files are advisory, the bookmark is the truth.
 * Ownership: owns its mnw_progress; borrows the mnw_cldnet.
 * Thread-safety: rank 0's comm thread only (after init by main).
 */
#ifndef MNW_CLDPROG_H
#define MNW_CLDPROG_H

#include "cld/cldnet.h"
#include "cld/proglog.h"
#include "cld/progress.h"

typedef struct {
    mnw_progress p;
    const mnw_cldnet *net;
    char dir[4096];
    double t0, last; /* mnw_now() at the start, at the last write */
    uint64_t base;   /* the first pair of the run's range */
    int warned;
    mnw_proglog log; /* OUTDIR/progress.log, the history */
    int log_warned;
} mnw_cldprog;

/* ngpus[r]: GPUs of rank r. The run aligns pairs base .. base +
 * pairs_total - 1 (a shard's range, shard.h; base 0 for a whole run), and
 * the file counts them from 0. resumed: this run continues a bookmark (the
 * count of resumes is taken from the progress.json there, plus one). */
void mnw_cldprog_init(mnw_cldprog *cp, const mnw_cldnet *net, const int *ngpus, const char *dir, const char *input,
                      uint64_t base, uint64_t pairs_total, int resumed);
/* Writes progress.json in `state` (message may be NULL) if `force` or the
 * interval has passed. */
void mnw_cldprog_update(mnw_cldprog *cp, const char *state, const char *message, int force);
void mnw_cldprog_free(mnw_cldprog *cp);

#endif
