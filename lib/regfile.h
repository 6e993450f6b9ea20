/* regfile.h - opening a file that must be a regular one, without ever
 * blocking on what stands in its place (a FIFO opened for reading waits for
 * a writer; one opened for writing, for a reader): the bookmark, the
 * outputs, the lock file. Thread-safety: reentrant. Ownership: the caller
 * owns the returned descriptor.
 */
#ifndef MNW_REGFILE_H
#define MNW_REGFILE_H

#include <sys/stat.h>

#include "lib/util.h"

/* "a regular file", "a FIFO", "a directory", ... for a st_mode. */
const char *mnw_file_kind(unsigned mode);

/* open(path, flags | O_NONBLOCK | O_CLOEXEC, mode), then fstat into *st:
 * the descriptor (O_NONBLOCK cleared again), or
 *   -1 when open or fstat failed (errno says why; e untouched, so that the
 *      caller words it), or
 *   -2 when path is not a regular file: closed, e = "PATH: is not a regular
 *      file (a FIFO)" (st->st_mode tells which kind). */
int mnw_open_regular(const char *path, int flags, unsigned mode, struct stat *st, mnw_err *e) MNW_MUST_CHECK;

#endif
