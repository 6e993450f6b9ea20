/* writer.h - the output files of a run in OUTDIR, appended in pair order.
 *
 * Every output is opened in append mode (O_APPEND): if something else cuts
 * a file during the run, the next bytes land at its new end and its size no
 * longer matches (never a hole of NUL bytes that looks whole). The writer
 * records each file's device and inode when it opens it and keeps a running
 * CRC-32 of every byte written, whole and per block (mnw_sum, bookmark.h),
 * which the CLD puts in the bookmark. mnw_writer_check tells whether the
 * files in OUTDIR are still the ones written, of the length written.
 *
 * Ownership: the writer owns its FILE handles; paths, lengths, identities
 * and sums are kept in the struct (also after mnw_writer_close, which frees
 * everything: there is no other free). Thread-safety: used by the CLD's
 * thread only (rank 0's comm thread; main before and after the run), but
 * for mnw_writer_fsync and mnw_writer_check_len, which the CLD's bookmark
 * thread runs beside the appends (cld/durable.h).
 */
#ifndef MNW_WRITER_H
#define MNW_WRITER_H

#include <stdio.h>
#include <sys/types.h>

#include "cld/bookmark.h"
#include "lib/output.h"
#include "lib/util.h"

#define MNW_WRITER_PATH_MAX 4200

typedef struct {
    FILE *f[MNW_NOUT];
    char path[MNW_NOUT][MNW_WRITER_PATH_MAX]; /* OUTDIR/name (kept after close) */
    char outdir[MNW_WRITER_PATH_MAX];
    uint64_t bytes[MNW_NOUT];
    int enabled[MNW_NOUT]; /* the outputs of this run (kept after close) */
    dev_t dev[MNW_NOUT];   /* the file opened (kept after close) */
    ino_t ino[MNW_NOUT];
    mnw_sum sum[MNW_NOUT]; /* of the bytes[o] bytes written */
} mnw_writer;

/* Creates (truncates) the enabled outputs in outdir and, where heads is
 * set, writes their heads (the pairs.tsv header as its own gzip member; a
 * shard after the first has none: shard.h). An output path that exists
 * and is not a regular file is refused. Blocks of the sums start at
 * MNW_SUM_BLOCK bytes (tests only: MNW_TEST_SUM_BLOCK, a power of 2 from
 * 4096 to 1 MiB). 0, or -1 with e set naming the file. */
int mnw_writer_open(mnw_writer *w, const char *outdir, const mnw_outspec *sp, int gzip_level, int heads, mnw_err *e) MNW_MUST_CHECK;
/* For a resumed run: reads outdir/mnw.bookmark again, whose lengths must be
 * bytes[] (what mnw_resume_check_outputs checked), opens the enabled
 * outputs (regular files that exist, without blocking on anything else),
 * cuts each to bytes[o] and appends from there; the sums continue from the
 * bookmark's (a version-1 bookmark has none: then the first bytes[o] bytes
 * are read once to compute them). 0, or -1 with e set. */
int mnw_writer_reopen(mnw_writer *w, const char *outdir, const mnw_outspec *sp, const uint64_t bytes[MNW_NOUT],
                      mnw_err *e) MNW_MUST_CHECK;
int mnw_writer_append(mnw_writer *w, int out, const char *data, size_t len, mnw_err *e) MNW_MUST_CHECK;
/* Flush the stdio buffers: what bytes[] counts is with the kernel (not yet
 * on disk). */
int mnw_writer_flush(mnw_writer *w, mnw_err *e) MNW_MUST_CHECK;
/* The descriptor of output o, or -1 when it is not open. */
int mnw_writer_fd(const mnw_writer *w, int o);
/* fsync of the descriptors fd[o] >= 0 (mnw_writer_fd's), an error naming
 * the output's file. Reads only the paths: another thread may call it
 * while the writer's thread appends (cld/durable.h). */
int mnw_writer_fsync(const mnw_writer *w, const int fd[MNW_NOUT], mnw_err *e) MNW_MUST_CHECK;
/* Flush and fsync every open file: what bytes[] counts is on disk. */
int mnw_writer_sync(mnw_writer *w, mnw_err *e) MNW_MUST_CHECK;
/* After mnw_writer_sync or mnw_writer_close: each enabled output must still
 * exist in OUTDIR as the file this writer opened (device and inode) and be
 * exactly bytes[o] long. 0, or -1 with e naming the file and what happened
 * (deleted, replaced by another file, cut or written to by something else). */
int mnw_writer_check(mnw_writer *w, mnw_err *e) MNW_MUST_CHECK;
/* Output through MPI-IO (other processes write at placed offsets): each
 * enabled output must still be the file this writer opened and at least
 * bytes[o] long (lists placed beyond the durable bytes may be written
 * already), exactly bytes[o] once the run is `complete`. 0, or -1 with e
 * set as mnw_writer_check. */
int mnw_writer_check_others(mnw_writer *w, int complete, mnw_err *e) MNW_MUST_CHECK;
/* Both above against the lengths bytes[] (a snapshot of a writer's):
 * exactly, or at least with longer_ok. Reads only the paths, identities and
 * which outputs are enabled (set at open, constant until the writer is
 * opened again): another thread may call it while the writer's thread
 * appends (cld/durable.h). */
int mnw_writer_check_len(const mnw_writer *w, const uint64_t bytes[MNW_NOUT], int longer_ok, mnw_err *e) MNW_MUST_CHECK;
/* Flush, fsync and close every file (bytes[], paths, identities and sums
 * stay for mnw_writer_check and the last bookmark). */
int mnw_writer_close(mnw_writer *w, mnw_err *e) MNW_MUST_CHECK;

#endif
