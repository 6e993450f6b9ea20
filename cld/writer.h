/* writer.h - the output files of a run in OUTDIR, appended in pair order.
 * Ownership: the writer owns its FILE handles. Thread-safety: used by the
 * CLD's thread only. */
#ifndef MNW_WRITER_H
#define MNW_WRITER_H

#include <stdio.h>

#include "output.h"
#include "util.h"

typedef struct {
    FILE *f[MNW_NOUT];
    char *path[MNW_NOUT];
    uint64_t bytes[MNW_NOUT];
    int enabled[MNW_NOUT]; /* the outputs of this run (kept after close) */
} mnw_writer;

/* Creates (truncates) the enabled outputs in outdir and writes their heads
 * (the pairs.tsv header as its own gzip member). */
int mnw_writer_open(mnw_writer *w, const char *outdir, const mnw_outspec *sp, int gzip_level, mnw_err *e);
/* For a resumed run: opens the enabled outputs (which must exist), cuts
 * each to bytes[o] (its length at the bookmark) and appends from there. */
int mnw_writer_reopen(mnw_writer *w, const char *outdir, const mnw_outspec *sp, const uint64_t bytes[MNW_NOUT],
                      mnw_err *e);
int mnw_writer_append(mnw_writer *w, int out, const char *data, size_t len, mnw_err *e);
/* Flush and fsync every open file: what bytes[] counts is on disk. */
int mnw_writer_sync(mnw_writer *w, mnw_err *e);
/* Flush, fsync and close every file (bytes[] stays). */
int mnw_writer_close(mnw_writer *w, mnw_err *e);

#endif
