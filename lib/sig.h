/* sig.h - the stop signals of a run: SIGTERM, SIGINT and SIGUSR1 (what
 * Slurm and a person send before a time limit, a preemption or Ctrl-C).
 *
 * The first one only records itself (mnw_sig_pending); the rank's comm
 * thread polls it and stops the run cleanly (docs/RESUME.md: no new work,
 * the lists in flight collected for --stop-grace seconds, then dropped, a
 * last bookmark, exit status MNW_EXIT_STOPPED). A second one exits at once
 * (status 128 + signal) without touching any file: the bookmark on disk is
 * the last one written, whole (it is replaced atomically), so the run still
 * resumes from there (its message says whether a bookmark exists yet).
 * SIGXFSZ is ignored, so a file-size limit shows as a write error (EFBIG)
 * naming the file instead of killing the process; SIGPIPE too, so a closed
 * stdout pipe is a write error main reports, not a silent exit 141.
 *
 * Thread-safety: mnw_sig_install once from main before any thread starts;
 * mnw_sig_pending from any thread (an atomic read).
 */
#ifndef MNW_SIG_H
#define MNW_SIG_H

/* Exit status of a run stopped by a signal with a valid bookmark. */
#define MNW_EXIT_STOPPED 3

void mnw_sig_install(void);
/* 0, or the number of the first stop signal received. */
int mnw_sig_pending(void);
/* Records a stop as if signal signo had arrived (a stop asked for by
 * another rank). */
void mnw_sig_raise_stop(int signo);
/* What the second signal's message says of the bookmark: none written yet
 * (the default: the input is still being read), one on disk, or this is
 * another rank than 0 (rank 0 keeps it). */
enum { MNW_SIG_BM_NONE = 0, MNW_SIG_BM_WRITTEN = 1, MNW_SIG_BM_RANK0 = 2 };
void mnw_sig_bookmark_state(int state);
/* "SIGTERM", "SIGINT", "SIGUSR1" (or "a stop signal"); a constant string. */
const char *mnw_sig_name(int signo);

#endif
