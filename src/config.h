/* config.h - config files: one "key = value" per line (a flag may stand
 * alone or take yes/no), '#' starts a comment, blank lines are ignored;
 * errors name FILE:LINE. A line "[host GLOB]" starts a section of per-node
 * settings for hosts whose name matches GLOB; it runs to the next section.
 * A UTF-8 byte-order mark at the start of the file is skipped; a NUL byte is
 * refused (a binary file, not a long line). This module knows the file's
 * form only: what the keys mean is the caller's (opts.c: the long options).
 * Ownership: the strings handed to fn live until fn returns.
 * Thread-safety: functions of their arguments only.
 */
#ifndef MNW_CONFIG_H
#define MNW_CONFIG_H

#include "lib/util.h"

/* One setting: section is the [host GLOB] pattern it stands under, or NULL
 * at the top; val is NULL for a key without '='; where is "FILE:LINE".
 * 0, or -1 with e set (the read stops). */
typedef int (*mnw_config_fn)(void *ctx, const char *section, const char *key, const char *val, const char *where,
                             mnw_err *e);

/* Reads the file at path and calls fn for each setting, in order.
 * 0, or -1 with e set (the file cannot be read, a line is malformed, or fn
 * failed). */
int mnw_config_parse(const char *path, mnw_config_fn fn, void *ctx, mnw_err *e) MNW_MUST_CHECK;

#endif
