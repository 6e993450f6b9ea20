/* afile.h - replacing a small file atomically: the new bytes go to
 * DIR/.NAME.tmp, which is then renamed over DIR/NAME. A reader, or a crash,
 * sees the old file or the new one, whole. `durable` adds an fsync of the
 * file before the rename and of DIR after it, so the new file survives a
 * power loss once the call returns (the bookmark); without it the file is
 * advisory (progress.json).
 * Nothing planted at either name is written through (lib/safeio.h): a
 * regular DIR/.NAME.tmp with one link (a killed run's) is removed and
 * created anew (O_EXCL); a symbolic link, FIFO, directory, device or hard
 * link at DIR/.NAME.tmp or DIR/NAME is refused with a message naming it.
 * Ownership: the caller's buffers. Thread-safety: reentrant; one writer per
 * DIR/NAME at a time.
 */
#ifndef MNW_AFILE_H
#define MNW_AFILE_H

#include <stddef.h>

#include "lib/util.h"

/* before_rename (may be NULL) is called with the temporary file whole, just
 * before the rename (a hook for fault tests). 0, or -1 with e set naming
 * the file; the temporary file this call created is removed on failure. */
int mnw_afile_replace(const char *dir, const char *name, const char *data, size_t len, int durable,
                      void (*before_rename)(void), mnw_err *e) MNW_MUST_CHECK;
/* The same through the temporary DIR/TMP (one path component: "NAME.tmp"
 * for the report page, docs/STATUS.md). */
int mnw_afile_replace_via(const char *dir, const char *name, const char *tmp, const char *data, size_t len,
                          int durable, void (*before_rename)(void), mnw_err *e) MNW_MUST_CHECK;

#endif
