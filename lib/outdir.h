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
/* mkdir -p. */
int mnw_outdir_create(const char *dir, mnw_err *e) MNW_MUST_CHECK;

#endif
