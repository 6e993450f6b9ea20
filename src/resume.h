/* resume.h - what a bookmark records of a run's settings, and how a resumed
 * run takes them back (docs/RESUME.md).
 *
 * The bookmark keeps every setting that changes the bytes of the outputs
 * (scoring, identity definition, cutoff and cutoff scope, cigar, the
 * outputs written, gzip level, work list size: each work list is one gzip
 * member) and the input's path; a
 * resumed run takes them from there. A setting given again on the command
 * line or in a config file must agree, or the resume is refused (the
 * outputs would mix two settings). Node-local settings (threads, GPUs, ...),
 * --prune (the same bytes either way) and the rank count may change freely.
 * Ownership: plain functions; strings are copied into the bookmark / opts.
 * Thread-safety: rank 0's main thread only.
 */
#ifndef MNW_RESUME_H
#define MNW_RESUME_H

#include <stdint.h>

#include "cld/bookmark.h"
#include "lib/output.h"
#include "src/opts.h"

/* Adds the result-changing settings of o (after mnw_opts_check) and
 * "input" = input_path to b. 0, or -1 with e set. */
int mnw_resume_put_settings(const mnw_opts *o, const char *input_path, mnw_bookmark *b, mnw_err *e) MNW_MUST_CHECK;

/* For --resume: refuses a setting given explicitly in o that differs from
 * the bookmark's (bmpath names it in messages), then sets o's
 * result-changing settings from b, and o->input too unless -i was given.
 * 0, or -1 with e set. */
int mnw_resume_apply(mnw_opts *o, const mnw_bookmark *b, const char *bmpath, mnw_err *e) MNW_MUST_CHECK;

/* Checks the outputs in outdir against b: every output sp enables is in b,
 * is a regular file (opened without blocking), is not shorter than b says
 * (longer is normal: written after the bookmark; not on a complete run,
 * where those bytes are not mnw's: refused, with the truncate command that
 * cuts them), and its first bytes, as
 * many as b says, give b's CRC-32s (one sequential read of each; a
 * difference is named by byte range). A version-1 bookmark has no
 * checksums: then lengths only, with a warning. Fills bytes[] with b's
 * lengths for mnw_writer_reopen. 0, or -1 with e set (nothing is changed). */
int mnw_resume_check_outputs(const char *outdir, const mnw_bookmark *b, const mnw_outspec *sp,
                             uint64_t bytes[MNW_NOUT], mnw_err *e) MNW_MUST_CHECK;

#endif
