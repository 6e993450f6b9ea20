/* jobspec.h - what every worker of a job needs to know: the outputs
 * (output.h), the scoring (score.h), the gzip level and whether the
 * alignments keep runs or only their figures (counts mode).
 * Ownership: the caller (main) owns the spec and what it points to, for the
 * whole run. Thread-safety: shared read-only by every thread. */
#ifndef MNW_JOBSPEC_H
#define MNW_JOBSPEC_H

#include "lib/output.h"
#include "lib/prune.h"
#include "lib/score.h"

typedef struct {
    const mnw_outspec *spec;
    const mnw_scoring *sc;
    int gzip_level;
    /* counts mode (issue 20): the identity definition's table (pathfig.h);
     * the workers count each pair's figures along its path and keep no runs.
     * NULL: every alignment keeps its runs (an output needs a CIGAR, or
     * --counts no). The outputs are the same bytes either way. */
    const mnw_eqtab *figs;
    /* issue 39: the filter's plan (lib/prune.h); NULL or !prune->on: every
     * pair is aligned. The outputs are the same bytes either way. */
    const mnw_prune_plan *prune;
} mnw_job_spec;

#endif
