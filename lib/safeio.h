/* safeio.h - creating and rewriting mnw's own files in OUTDIR so that
 * nothing planted at their names is followed, waited on or written
 * through: a symbolic link (to a file elsewhere), a FIFO, a directory, a
 * device, or a hard link (a second name of a file elsewhere) is refused
 * with "DIR/NAME: is not a regular file (a symbolic link)" or
 * "DIR/NAME: has 2 hard links ...", never opened for writing.
 *
 * Every call works relative to a directory descriptor (mnw_safe_dir: the
 * directory opened once), with openat(O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC),
 * then fstat of what was opened: a regular file with one link, or the
 * descriptor is closed again and nothing was written (O_TRUNC is never
 * passed to open: a file is cut with ftruncate only after those checks).
 * Temporaries are created with O_CREAT | O_EXCL.
 *
 * `dir` is the directory's name as the messages give it; `name` is one
 * path component (no '/'). Ownership: the caller owns the returned
 * descriptors. Thread-safety: reentrant. Not MPI-collective.
 */
#ifndef MNW_SAFEIO_H
#define MNW_SAFEIO_H

#include <sys/stat.h>

#include "lib/util.h"

/* mnw_safe_open's flags */
enum {
    MNW_SAFE_CREATE = 1, /* create it when missing (mode 0644 less the umask) */
    MNW_SAFE_TRUNC = 2,  /* cut it to 0 bytes, after the checks */
    MNW_SAFE_APPEND = 4, /* O_APPEND */
    MNW_SAFE_RDWR = 8,   /* O_RDWR (default O_WRONLY) */
    MNW_SAFE_0666 = 16   /* create with mode 0666 less the umask (the outputs, mnw.log) */
};

/* open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC): the descriptor, or -1 with
 * e set naming dir. */
int mnw_safe_dir(const char *dir, mnw_err *e) MNW_MUST_CHECK;
/* 0 when st is a regular file with one link; else -1 with e set naming
 * dir/name and what it is. */
int mnw_safe_check(const char *dir, const char *name, const struct stat *st, mnw_err *e) MNW_MUST_CHECK;
/* What is at dir/name (not following a link): 0 when nothing is, or a
 * regular file with one link is; else -1 with e set (as mnw_safe_check, or
 * the error of fstatat). */
int mnw_safe_probe(int dfd, const char *dir, const char *name, mnw_err *e) MNW_MUST_CHECK;
/* Opens dir/name for writing (MNW_SAFE_* flags): the descriptor (blocking),
 * with *st (may be NULL) its fstat; or -1 with e set naming dir/name (a
 * missing file without MNW_SAFE_CREATE: "cannot open: No such file ...",
 * errno ENOENT). */
int mnw_safe_open(int dfd, const char *dir, const char *name, int flags, struct stat *st, mnw_err *e) MNW_MUST_CHECK;
/* The directory part of path, allocated (caller frees): "." without a
 * '/', "/" for "/NAME"; *name points at the last component inside path
 * ("" when path ends in '/'). */
char *mnw_safe_split(const char *path, const char **name) MNW_ALLOC;
/* mnw_safe_open of a whole path (its directory opened for the call). */
int mnw_safe_open_path(const char *path, int flags, struct stat *st, mnw_err *e) MNW_MUST_CHECK;
/* Creates the temporary dir/name (O_WRONLY, mode: 0644 or 0666 less the
 * umask), exclusively (O_CREAT | O_EXCL): the descriptor, or -1 with e set. A regular file with one link already there
 * (a temporary left by a killed run) is removed and the name created anew;
 * anything else there is refused as mnw_safe_check says. */
int mnw_safe_tmp(int dfd, const char *dir, const char *name, unsigned mode, mnw_err *e) MNW_MUST_CHECK;
/* renameat(dfd, from, dfd, to) after mnw_safe_probe(to): what stands at
 * `to` is replaced only when it is a regular file with one link (renaming
 * never writes through a link; refusing the rest keeps the rule one rule).
 * 0, or -1 with e set naming dir/to. */
int mnw_safe_rename(int dfd, const char *dir, const char *from, const char *to, mnw_err *e) MNW_MUST_CHECK;

#endif
