/* outlock.h - the lock on an output directory: one mnw at a time per
 * OUTDIR (docs/RESUME.md, "One run per OUTDIR").
 *
 * The lock is flock(2) LOCK_EX on OUTDIR/mnw.lock, taken by rank 0 before
 * anything in OUTDIR is changed and held until the process ends (the
 * kernel drops it when the holder dies, kill -9 included, so a dead run
 * never blocks a resume). The file stays between runs (unlinking a lock
 * file races with the next taker); it holds the holder's host, pid and
 * start time, which a refused mnw names. Where the file system has no
 * flock (ENOLCK, ENOSYS, EOPNOTSUPP: NFS without a lock manager, Lustre
 * mounted without -o flock), mnw falls back to the holder the file names:
 * a live mnw of that pid on this host refuses the start; any other holder
 * is taken over with a warning that the lock is advisory there.
 *
 * Ownership: a mnw_outlock owns its file descriptor. Thread-safety: main
 * thread of rank 0 only. Not MPI-collective.
 */
#ifndef MNW_OUTLOCK_H
#define MNW_OUTLOCK_H

#include "lib/util.h"

#define MNW_LOCK_FILE "mnw.lock"

typedef struct {
    int fd;       /* -1: not held */
    int advisory; /* 1: no flock on this file system (the fallback above) */
    char why[160]; /* for advisory: what flock said */
} mnw_outlock;

/* Is dir's lock held by a live mnw? Creates and changes nothing: 0 when it
 * is free (also when dir or its lock file does not exist), -1 with e set
 * naming the holder (host, pid, start) when it is held, or naming the file
 * when mnw.lock is not a regular file. */
int mnw_outlock_probe(const char *dir, mnw_err *e) MNW_MUST_CHECK;
/* Takes dir's lock (dir must exist): opens or creates dir/mnw.lock, locks
 * it and writes this process's host, pid and start time into it. 0, or -1
 * with e set (held by another mnw: e names it; or a file error). */
int mnw_outlock_take(mnw_outlock *l, const char *dir, mnw_err *e) MNW_MUST_CHECK;
/* Releases the lock (closes the file; the file stays). Safe on a lock that
 * was never taken (fd -1). */
void mnw_outlock_release(mnw_outlock *l);

#endif
