/* durable.h - one bookmark made durable off the CLD's thread: fsyncs the
 * outputs the writer has flushed, checks they are still the files written
 * (at least the lengths counted), then replaces OUTDIR/mnw.bookmark, in a
 * thread of its own. Alone (the CLD writes every output), the fsync of a
 * few seconds of output takes tenths of a second to seconds, during which
 * the comm thread would hand out no work list: four GPUs drained their
 * queue in that time (issue 40). With the fsync here the comm thread goes
 * on handing out lists and appending results; the bookmark still counts
 * only bytes fsynced before it is written (they were flushed before the
 * fsync started).
 *
 * Ownership: borrows the writer (paths, identities and the descriptors,
 * constant while it is open) and the bookmark, which the caller fills
 * before mnw_durable_start and must neither change nor free, nor close the
 * writer, until mnw_durable_poll has returned something other than 1.
 * Thread-safety: one caller thread (the CLD's); the thread started reads
 * the snapshot and the borrowed parts above only.
 */
#ifndef MNW_DURABLE_H
#define MNW_DURABLE_H

#include <pthread.h>

#include "cld/bookmark.h"
#include "cld/writer.h"

typedef struct {
    pthread_t th;
    int running; /* a thread started and not yet joined */
    int done;    /* atomic: its work is finished */
    int rc;      /* its outcome (read after the join) */
    mnw_err err;
    const mnw_writer *w;
    const char *dir;
    const mnw_bookmark *b;
    int fd[MNW_NOUT]; /* -1: output not open */
    uint64_t bytes[MNW_NOUT];
    double t0, took_s; /* wall seconds of the one running / the last */
    /* for the log: bookmarks made durable here, their wall time, the
     * longest, and how long the caller waited for one (a forced bookmark) */
    uint64_t n;
    double total_s, longest_s, waited_s;
} mnw_durable;

/* Starts the thread: fsync of every open output of w, mnw_writer_check_len
 * against bytes[] (at least: the caller appends on), mnw_bookmark_write of
 * b into dir. 0; or -1 with e set when no thread could start (nothing was
 * done: the caller does it itself). */
int mnw_durable_start(mnw_durable *d, const mnw_writer *w, const uint64_t bytes[MNW_NOUT], const char *dir,
                      const mnw_bookmark *b, mnw_err *e) MNW_MUST_CHECK;
/* 1 while the thread runs (wait 0; with wait it is joined first); 0 when
 * none runs or the last one was joined here and succeeded (*finished set
 * to 1 then, else 0); -1 with e set when it failed (no bookmark was
 * written: the one before stays). */
int mnw_durable_poll(mnw_durable *d, int wait, int *finished, mnw_err *e) MNW_MUST_CHECK;

#endif
