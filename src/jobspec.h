/* jobspec.h - what every worker of a job needs to know: the outputs
 * (output.h), the scoring (score.h) and the gzip level.
 * Ownership: the caller (main) owns the spec and what it points to, for the
 * whole run. Thread-safety: shared read-only by every thread. */
#ifndef MNW_JOBSPEC_H
#define MNW_JOBSPEC_H

#include "output.h"
#include "score.h"

typedef struct {
    const mnw_outspec *spec;
    const mnw_scoring *sc;
    int gzip_level;
} mnw_job_spec;

#endif
