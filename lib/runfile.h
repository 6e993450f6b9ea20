/* runfile.h - reading the files of a run (progress.json, progress.log,
 * mnw.log, mnw.shards, a shard's directory) for the commands that only
 * look at a run (mnw status, mnw report), without ever blocking or
 * misreading what stands in a file's place: a FIFO (opened for reading, it
 * waits for a writer), a directory, a device, a symbolic link loop or a
 * dangling symbolic link are refused with a message naming the path and
 * what is there. A symbolic link to a regular file (or a directory, for
 * mnw_runfile_dir) is followed: the readers only read, so reading through
 * a link writes nothing outside the run (docs/STATUS.md).
 *
 * Ownership: the caller owns what is returned (descriptor, FILE, buffer).
 * Thread-safety: reentrant.
 */
#ifndef MNW_RUNFILE_H
#define MNW_RUNFILE_H

#include <stddef.h>
#include <stdio.h>

#include "lib/buf.h"
#include "lib/util.h"

/* Does anything stand at path (lstat: a file, a directory, a FIFO, a
 * dangling link, a loop...)? 1 yes, 0 nothing there (ENOENT or ENOTDIR). A
 * path that cannot be looked at (EACCES, ...) counts as present, so that
 * opening it says why. */
int mnw_runfile_present(const char *path);

/* Why path cannot be opened, as "PATH: a symbolic link loop", "PATH: a
 * dangling symbolic link", "PATH: STRERROR", for errno er of a failed open
 * or stat of path. Returns -1 (e set). */
int mnw_runfile_why(const char *path, int er, mnw_err *e);

/* Opens path for reading when it is (or a symbolic link leads to) a
 * regular file, without blocking: the descriptor (O_CLOEXEC, blocking
 * reads), or -1 with e set ("PATH: is not a regular file (a FIFO)",
 * mnw_runfile_why's wordings) and errno ENOENT when nothing is there. */
int mnw_runfile_open(const char *path, mnw_err *e) MNW_MUST_CHECK;

/* 0 when path can be opened by mnw_runfile_open (then closed again), or
 * -1 with its e: for a reader of another module that opens the file itself
 * (the bookmark's), so that what stands there is named the same way. */
int mnw_runfile_check(const char *path, mnw_err *e) MNW_MUST_CHECK;

/* The same as a stdio stream ("r"); NULL with e set, errno ENOENT when
 * nothing is there. */
FILE *mnw_runfile_fopen(const char *path, mnw_err *e) MNW_MUST_CHECK;

/* Appends the whole regular file path to b: 0, or -1 with e set (not a
 * regular file, a read error, or more than max bytes: "PATH: larger than
 * MAX bytes"). */
int mnw_runfile_slurp(const char *path, size_t max, mnw_buf *b, mnw_err *e) MNW_MUST_CHECK;

/* Is path a directory (following links)? 1 yes, 0 nothing there, -1 with
 * e set: something else is there ("PATH: is not a directory (a FIFO)"), a
 * loop, a dangling link, or it cannot be looked at. */
int mnw_runfile_dir(const char *path, mnw_err *e) MNW_MUST_CHECK;

#endif
