/* outdir.h - checks on the output directory before anything is written,
 * and its creation once the input has been validated (so bad input leaves
 * OUTDIR untouched). Thread-safety: main thread only. */
#ifndef MNW_OUTDIR_H
#define MNW_OUTDIR_H

#include "lib/util.h"

/* Refuses an OUTDIR that is not a directory, is not writable, or (unless
 * force) is not empty (mnw.lock alone counts as empty); or whose first existing ancestor is not writable.
 * Creates nothing. */
int mnw_outdir_check(const char *dir, int force, mnw_err *e) MNW_MUST_CHECK;
/* What stands at dir/names[k] (none followed: lib/safeio.h) before a run
 * that keeps dir's files (--resume) or replaces them (--force) changes
 * anything: nothing, or a regular file with one link; for the names in
 * replaced[] (may be NULL: none; the files --force removes) anything that
 * unlink removes too (a link is removed, never followed). 0 (also when dir
 * does not exist), or -1 with e naming the first other thing (a symbolic
 * link, FIFO, directory, device, hard link). Creates and changes nothing. */
int mnw_outdir_check_names(const char *dir, const char *const *names, const int *replaced, int n,
                           mnw_err *e) MNW_MUST_CHECK;
/* mkdir -p. */
int mnw_outdir_create(const char *dir, mnw_err *e) MNW_MUST_CHECK;

#endif
