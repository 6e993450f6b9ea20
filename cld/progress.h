/* progress.h - OUTDIR/progress.json: where a run stands, for people and
 * scripts (`mnw status OUTDIR`, docs/STATUS.md). Rank 0 rewrites it every
 * few seconds (MNW_PROGRESS_INTERVAL_S) while the run lasts and once more
 * when it ends; a reader that finds "updated" older than
 * MNW_PROGRESS_STALE_S in a running state knows the run stopped updating.
 *
 * It is advisory: the bookmark (bookmark.h) is the truth of what is safely
 * written, and progress.json may lag it or lead it. So writing is atomic
 * (a temporary file in OUTDIR renamed over progress.json: a reader sees the
 * old file or the new one, whole) but not fsync'd.
 *
 * The file is JSON (lib/json.h), version key "mnw_progress": 1. The reader
 * ignores keys it does not know and accepts any key order; it refuses
 * malformed JSON, a missing or mistyped key, numbers out of range, strings
 * too long for their field and counts that do not fit together
 * (pairs_at_start <= pairs_done <= pairs_total, pruned <= pairs_done, a
 * node's pruned <= its pairs), naming the file and line.
 * "slurm_restarts" and "slurm_jobs" came later: a file without them reads
 * as 0 and "", and so does one without "pruned" (issue 39; of the run and
 * of each node) as 0, which it is: the mnw that wrote it pruned nothing.
 * The writer refuses what the reader would refuse, so what it writes reads
 * back.
 *
 * Ownership: a mnw_progress owns its nodes array (mnw_progress_free).
 * Thread-safety: plain data; the functions touch only their arguments. One
 * writer per OUTDIR (rank 0); readers may be other processes at any time.
 */
#ifndef MNW_PROGRESS_H
#define MNW_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

#define MNW_PROGRESS_FILE "progress.json"
#define MNW_PROGRESS_MAX_DEV 17     /* the CPU workers and up to 16 GPUs */
#define MNW_PROGRESS_INTERVAL_S 2.0 /* how often a run rewrites the file */
#define MNW_PROGRESS_STALE_S 30.0   /* a running state older than this is stale */
#define MNW_PROGRESS_MAX_BYTES (64u << 20) /* a larger file is not a progress file */

typedef struct {
    char name[32];      /* "CPU" or "GPU 0" .. "GPU 15" */
    uint64_t pairs;     /* pairs this device aligned in this run (since the start or resume) */
    double pairs_per_s; /* >= 0 */
} mnw_progress_dev;

typedef struct {
    int rank;
    char host[64];
    int workers, ngpus; /* CPU worker threads, GPUs driven */
    uint64_t pairs;     /* pairs this node did in this run (aligned, or pruned by the filter) */
    uint64_t pruned;    /* of them, those the filter pruned (lib/prune.h) */
    double pairs_per_s; /* >= 0 */
    int ndev;           /* 0 .. MNW_PROGRESS_MAX_DEV */
    mnw_progress_dev dev[MNW_PROGRESS_MAX_DEV];
} mnw_progress_node;

typedef struct {
    char state[16];    /* "starting" "running" "stopping" "stopped" "done" "failed" */
    char message[512]; /* why it stopped or failed, or "" */
    char input[4096];  /* the input file (as given) */
    char outdir[4096]; /* OUTDIR, absolute */
    char host[64];     /* host and pid of rank 0 */
    long pid;
    double started, updated; /* Unix time (s) of the start of this run, of this write */
    double elapsed_s;        /* seconds since the start of this run */
    uint64_t pairs_total;    /* n (n - 1) / 2 */
    uint64_t pairs_done;     /* written to the outputs (the CLD's watermark) */
    uint64_t pairs_at_start; /* the watermark this run resumed from (0 for a fresh run) */
    uint64_t pruned;         /* of pairs_done, those the filter pruned (the runs before a resume too:
                                the CLD's count, the bookmark's "pruned") */
    int resumes;             /* how many times this OUTDIR was resumed */
    double pairs_per_s;      /* this run's rate, >= 0 */
    double eta_s;            /* seconds to the end; < 0: unknown (written as null) */
    char slurm_job[64];      /* "" unless run under Slurm: this run's job (lib/slurm.h) */
    int slurm_restarts;      /* times Slurm requeued that job (SLURM_RESTART_COUNT) */
    char slurm_jobs[512];    /* every job that worked on OUTDIR, oldest first, comma-separated
                                (the oldest dropped, "...," first, when it would not fit) */
    int nnodes;
    mnw_progress_node *nodes; /* nnodes, owned */
} mnw_progress;

/* Wall-clock (Unix) time in seconds. */
double mnw_progress_now(void);

/* Zeroes *p and sets: state "starting", host (mnw_hostname) and pid
 * (getpid) of this process, started = updated = now, eta_s = -1, and
 * nnodes zeroed nodes whose rank is their index. */
void mnw_progress_init(mnw_progress *p, int nnodes);
void mnw_progress_free(mnw_progress *p);

/* Sets state and message (message may be NULL for ""; both truncated to
 * their fields). */
void mnw_progress_set_state(mnw_progress *p, const char *state, const char *message);

/* The rates as averages over this run, from the counts and elapsed_s:
 * each node's and device's pairs / elapsed_s, the run's
 * (pairs_done - pairs_at_start) / elapsed_s, and eta_s = pairs left / the
 * run's rate (-1 while the rate is 0, 0 once every pair is done). A caller
 * measuring rates over a shorter window sets the fields itself instead. */
void mnw_progress_rates(mnw_progress *p);

/* Writes dir/progress.json atomically (dir/.progress.json.tmp, rename; no
 * fsync). Refuses (-1, e set, nothing written) a record the reader would
 * refuse: empty state, counts that do not fit, rates that are negative or
 * not finite, more than MNW_PROGRESS_MAX_DEV devices. 0, or -1 with e set
 * naming the file. */
int mnw_progress_write(const char *dir, const mnw_progress *p, mnw_err *e) MNW_MUST_CHECK;

/* Reads path (above). 0, or -1 with e set ("PATH:LINE: reason", or
 * "PATH: reason" for a missing file); *p is then zeroed. Files over
 * MNW_PROGRESS_MAX_BYTES are refused. */
int mnw_progress_read(const char *path, mnw_progress *p, mnw_err *e) MNW_MUST_CHECK;
/* The same on text[0..len) already read; name names it in errors. */
int mnw_progress_parse(const char *name, const char *text, size_t len, mnw_progress *p, mnw_err *e) MNW_MUST_CHECK;

#endif
