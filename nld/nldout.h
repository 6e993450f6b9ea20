/* nldout.h - a rank's own writes into the run's output files when the
 * nodes write their results (--output-via mpiio, issue 22,
 * docs/DISTRIBUTED.md).
 *
 * It keeps each finished work list's bytes (mnw_nldout_hold, which gives
 * the header to send to the CLD instead of the bytes), writes them where
 * the CLD placed them (mnw_nldout_write: MPI_File_write_at on the shared
 * files, opened with MPI_File_open on MPI_COMM_SELF: Open MPI's MPI-IO
 * layer), and about every MNW_NLDOUT_SYNC_EVERY seconds, or when told,
 * syncs the files (MPI_File_sync) and only then gives out the records of
 * the lists written since (mnw_nldout_sync: WRITTEN records with the CRC-32
 * pieces of each list's bytes, cut at the sums' block edges), so the CLD
 * never counts a byte that is not on disk.
 *
 * A changed file stops the job (issue 38): several ranks write one file at
 * placed offsets, so a file cut during the run and then written again past
 * the cut keeps its length, with NUL bytes where the cut lists were. At
 * each sync every rank checks each output it writes: still the file it
 * opened (device and inode of the path), at least as long as its highest
 * synced byte, and the last MNW_NLDOUT_TAIL bytes of each list written
 * since the last sync (a gzip member's trailer: CRC-32 and length), and of
 * its highest list synced before, read back (pread) as written. A cut below
 * any list of this rank cuts its highest one, so the rank's next sync (its
 * last one comes before its lists are reported at the end) finds it; the
 * sync then fails naming the file, and the lists of that sync are never
 * reported (the bookmark does not count them). Rank 0 checks the durable
 * lengths at each bookmark (cld.c).
 *
 * mnw_nldout_join starts it on every rank at once and is MPI-collective
 * (MPI_COMM_WORLD): rank 0 has created the outputs; every rank checks that
 * it sees rank 0's OUTDIR (a token file rank 0 writes there) and opens the
 * outputs; a rank that cannot ends the start for all, with a message naming
 * the rank, its host and the file. The other calls are MPI-IO on files
 * opened on MPI_COMM_SELF (MPI_File_write_at, MPI_File_sync,
 * MPI_File_close): collective over this rank alone, so no rank waits for
 * another.
 *
 * Errors name this rank, its host and the file. Ownership: owns the held
 * results, the file handles and the records. Thread-safety: only the MPI
 * thread of its rank calls it.
 */
#ifndef MNW_NLDOUT_H
#define MNW_NLDOUT_H

#include <mpi.h>
#include <sys/types.h>

#include "lib/buf.h"
#include "lib/output.h"
#include "lib/result.h"
#include "lib/util.h"
#include "lib/wire.h"

#define MNW_NLDOUT_SYNC_EVERY 0.1 /* seconds a written list waits for its sync at most */
#define MNW_NLDOUT_TOKEN "mnw.token"
#define MNW_NLDOUT_TAIL 8 /* bytes of each list read back at the sync: a gzip member's trailer */

/* The end of one list's bytes in one output, as written (read back later). */
typedef struct {
    uint64_t off;  /* of tail[0] in the file */
    uint32_t len;  /* 1..MNW_NLDOUT_TAIL; 0: none */
    unsigned char b[MNW_NLDOUT_TAIL];
} mnw_nldout_tail;

typedef struct {
    MPI_File fh[MNW_NOUT];
    int open[MNW_NOUT];
    int enabled[MNW_NOUT];
    uint64_t base[MNW_NOUT];    /* where pieces are cut: the sums' first block size */
    char path[MNW_NOUT][4200];
    char dir[4200];             /* OUTDIR, for messages */
    int rfd[MNW_NOUT];          /* read-only, of each open output: its identity, the read-backs (-1: none) */
    dev_t dev[MNW_NOUT];        /* the file opened */
    ino_t ino[MNW_NOUT];
    mnw_nldout_tail *tails;     /* of the lists written since the last sync, [output + MNW_NOUT * list] */
    size_t ntails, tails_cap;
    mnw_nldout_tail top[MNW_NOUT]; /* the highest list synced: read back again at every sync */
    char who[96];               /* "rank R (HOST)" for messages */
    mnw_result **held;          /* lists waiting for their offsets */
    size_t nheld, held_cap;
    mnw_buf pending;            /* WRITTEN records of lists written, not yet synced */
    size_t npending;
    double pending_since;       /* mnw_now() of the oldest unsynced write */
    mnw_wire_written rec;       /* scratch */
    uint64_t lists, bytes, syncs, dropped;
    double io_s;                /* wall time in writes and syncs */
    /* tests only (MNW_TEST_WRITE_PAUSE=SECONDS:WHERE:N): this rank pauses at
     * its Nth list, WHERE = mid (half of its first output written),
     * unsynced (written, not synced) or unreported (synced, not reported),
     * so that a test can kill it there */
    double test_pause;
    int test_where, test_nth;
} mnw_nldout;

/* MPI-collective. On rank 0, outdir, enabled[] and base[] are the run's
 * (the outputs exist, their heads written); the others get them from rank 0.
 * 0 on every rank, or -1 on every rank with e set: on rank 0 the first
 * rank's failure ("rank R (HOST): ..."), on the others their own or "rank 0
 * stopped the start". */
int mnw_nldout_join(mnw_nldout *w, const char *outdir, const int enabled[MNW_NOUT], const uint64_t base[MNW_NOUT],
                    mnw_err *e) MNW_MUST_CHECK;
/* Keeps res (takes it) until it is placed; *h is what to report. */
void mnw_nldout_hold(mnw_nldout *w, mnw_result *res, mnw_wire_head *h);
/* Writes the held list pl->k0 at its offsets. 0; 1 when it is not held
 * (dropped at a stop); -1 with e set (a write failed). */
int mnw_nldout_write(mnw_nldout *w, const mnw_wire_place *pl, mnw_err *e) MNW_MUST_CHECK;
/* When lists are written and unsynced, and `force` or the oldest waited
 * MNW_NLDOUT_SYNC_EVERY seconds: syncs every file, checks them (above:
 * identity, length, the lists' last bytes read back), then appends their
 * WRITTEN records to out. Their count (0: nothing now), or -1 with e set
 * (a failed sync, or a file changed by something else: e names it; the
 * records are then never given out). */
int mnw_nldout_sync(mnw_nldout *w, int force, mnw_buf *out, mnw_err *e) MNW_MUST_CHECK;
/* A stop: drops the lists still waiting for offsets. */
void mnw_nldout_drop(mnw_nldout *w);
static inline int mnw_nldout_busy(const mnw_nldout *w) { return w->nheld > 0 || w->npending > 0; }
/* Closes the files (after the last sync). 0, or -1 with e set. */
int mnw_nldout_close(mnw_nldout *w, mnw_err *e) MNW_MUST_CHECK;
/* One log line: lists and bytes written, syncs, time in I/O. */
void mnw_nldout_log(const mnw_nldout *w);

#endif
