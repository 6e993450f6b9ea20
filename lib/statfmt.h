/* statfmt.h - what mnw prints a run's figures with, for a person (`mnw
 * status` of one run, src/status.c, and of a run split into shards,
 * src/status_shards.c; the counts in mnw verify, merge and resume messages):
 * counts with thousands separators, rates, durations, local times, a
 * percent bar, a path as one shell word, and whether a recorded host and
 * pid are this machine and a live mnw process.
 *
 * Ownership: results go into caller buffers (the returned pointer is out).
 * Thread-safety: reentrant; mnw_statfmt_done writes stdout;
 * mnw_statfmt_local needs tzset() called before threads start.
 */
#ifndef MNW_STATFMT_H
#define MNW_STATFMT_H

#include <stddef.h>
#include <stdint.h>

/* 312487500 -> "312,487,500" */
const char *mnw_statfmt_count(uint64_t v, char out[32]);
/* pairs/s: "12.5", "1,234", "?" when unknown */
const char *mnw_statfmt_rate(double r, char out[32]);
/* "42s", "3m 05s", "2h 07m", "3d 04h", "unknown" */
const char *mnw_statfmt_dur(double s, char out[32]);
/* a Unix time as "2026-11-26 22:01:48 UTC" in the local zone, "?" if out of range */
const char *mnw_statfmt_local(double t, char out[64]);
/* 100 done / total; 100 for total 0 */
double mnw_statfmt_percent(uint64_t done, uint64_t total);
/* prints "42.0% [############..................]" (never 100.0% before the end) */
void mnw_statfmt_done(uint64_t done, uint64_t total);
/* "1,234 (12.3% of the pairs done)" into out: pairs the filter pruned
 * (lib/prune.h) of those done */
const char *mnw_statfmt_pruned(uint64_t pruned, uint64_t done, char out[80]);
/* s as one shell word, quoted when needed, into out */
void mnw_statfmt_word(const char *s, char *out, size_t cap);
/* equal, or equal up to the first dot (short and full names) */
int mnw_statfmt_same_host(const char *a, const char *b);

enum { MNW_PID_MNW, MNW_PID_GONE, MNW_PID_OTHER, MNW_PID_UNKNOWN };
/* Is pid an mnw process on this machine? MNW_PID_*; name: its command name
 * for MNW_PID_OTHER */
int mnw_statfmt_pid(long pid, char name[64]);
/* a progress state in which the run is (or was last seen) working */
int mnw_statfmt_active(const char *state);

#endif
