/* proglog.h - OUTDIR/progress.log: the run's history, one JSON object a
 * line (docs/STATUS.md), for `mnw report` (throughput over time per rank and
 * device, stops and resumes) and for scripts. progress.json says where the
 * run stands now; this file keeps where it stood.
 *
 * Rank 0 appends a snapshot of its progress record (progress.h) when the
 * run starts, every MNW_PROGLOG_INTERVAL_S seconds while it runs, at every
 * change of state (running, stopping) and when it ends (done, stopped,
 * failed). A resumed run appends to the same file: its lines carry the
 * resume count, so a reader sees where each run began. Each line:
 *
 *   {"t": UNIX_TIME, "resumes": R, "state": "running", "elapsed_s": S,
 *    "pairs_done": D, "pairs_at_start": A, "pairs_total": T, "pruned": N,
 *    "nodes": [{"rank": 0, "host": "h", "pairs": P, "pruned": NP,
 *               "dev": [{"name": "CPU", "pairs": P0}, {"name": "GPU 0", "pairs": P1}]}]}
 *
 * (written without the spaces), where pairs_done counts from the run's
 * first pair (a shard's first, shard.h), pruned is how many of them the
 * filter pruned (progress.h), and a node's and device's pairs (and a
 * node's pruned) are those of this run since its start or resume. Lines
 * of an mnw before the filter have no "pruned": they read as 0.
 *
 * Bounded: when the file passes MNW_PROGLOG_MAX_BYTES it is rewritten
 * (atomically: a temporary file renamed over it) keeping the first and
 * last line, every line whose state or resume count differs from the line
 * before it, and every second line of the rest (and when the changes alone
 * would keep more than 3/4 of it, every second line of all: it always
 * shrinks); the interval of this run doubles. So a run of any length keeps its history at a coarser grain,
 * every stop and resume included. Appends are single write()s of whole
 * lines (O_APPEND); a run killed in the middle of one leaves it without its
 * newline, which the next run's first append adds, so a reader skips a
 * line that is not a JSON object (and the last one without a newline). Advisory, as progress.json: a failed write is
 * reported to the caller, who logs it and goes on.
 *
 * Ownership: a mnw_proglog holds the path and timing only.
 * Thread-safety: one writer per OUTDIR (rank 0's comm thread).
 */
#ifndef MNW_PROGLOG_H
#define MNW_PROGLOG_H

#include "cld/progress.h"
#include "lib/buf.h"
#include "lib/json.h"
#include "lib/util.h"

#define MNW_PROGLOG_FILE "progress.log"
#define MNW_PROGLOG_INTERVAL_S 10.0
#define MNW_PROGLOG_MAX_BYTES (4u << 20)

typedef struct {
    char path[4200];
    double interval; /* seconds between snapshots while the state stays */
    double last;     /* mnw_now() of the last snapshot; 0: none yet */
    char state[16];  /* the state of the last snapshot */
    uint64_t max_bytes;
} mnw_proglog;

/* The history of the run writing dir (nothing is written yet). */
void mnw_proglog_init(mnw_proglog *l, const char *dir);

/* Appends a snapshot of p when p's state differs from the last one's, the
 * interval has passed, or force; compacts the file when it passes
 * l->max_bytes. 1 appended, 0 not due, -1 with e set (nothing appended, or
 * the compaction failed and the file is as it was). */
int mnw_proglog_add(mnw_proglog *l, const mnw_progress *p, int force, mnw_err *e);

/* One snapshot line of p (with its newline) into b. */
void mnw_proglog_line(const mnw_progress *p, mnw_buf *b);

/* The run-wide figures of one line (parsed by mnw_json_parse). */
typedef struct {
    double t, elapsed_s;
    int resumes;
    char state[16];
    uint64_t pairs_done, pruned; /* pruned: 0 in a line without it (an mnw before the filter) */
} mnw_proglog_snap;
/* 0 with *s filled, or -1 when v is not a snapshot (no "state" string,
 * "nodes" array or "resumes" count; a "pruned" that is not a count, or
 * more than pairs_done): a reader skips it. */
int mnw_proglog_snap_of(const mnw_json *v, mnw_proglog_snap *s);

/* Rewrites path keeping the first and last line, each line whose "state"
 * or "resumes" differs from its predecessor's, and every second other line.
 * 0, or -1 with e set (the file is unchanged). */
int mnw_proglog_compact(const char *path, mnw_err *e) MNW_MUST_CHECK;

#endif
