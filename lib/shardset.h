/* shardset.h - the parent directory of a run split into shards by
 * `slurm/mnw-submit --shards N` (docs/SHARDS.md): its manifest,
 * PARENT/mnw.shards, which names the input, the number of shards, each
 * shard's directory, the merged run's directory and the Slurm jobs that
 * worked on it. mnw-submit writes the file (and appends a "job" line for
 * each submission); `mnw status PARENT` reads it through this module.
 *
 * The format is text, one "KEY VALUE" per line, "#" lines are comments:
 *   mnw-shards 1                 version, first line that is not a comment
 *   input PATH                   the input, absolute
 *   shards N                     1 <= N <= MNW_SHARD_MAX
 *   shard I NAME                 once for each I in 1..N: the shard's directory
 *   merged NAME                  the merged run's directory
 *   remove-shards yes|no         the merge job removes the shards after merging
 *   mnw-options WORDS            the shard tasks' mnw options, as shell words
 *   job shards ID LIST           an array job of shard tasks (LIST: "1-4", "2,5")
 *   job merge ID                 a merge job
 * NAMEs are single path components inside PARENT (no '/', not "." or "..").
 * Unknown keys are refused: a newer mnw-submit's file is named as such.
 *
 * A shard is queued again only when it is neither complete nor queued in
 * an earlier array job, so every shard task still in Slurm's queue belongs
 * to one of the "job shards" jobs.
 *
 * Ownership: a mnw_shardset owns its arrays (mnw_shardset_free).
 * Thread-safety: plain data; the functions touch only their arguments.
 */
#ifndef MNW_SHARDSET_H
#define MNW_SHARDSET_H

#include <stdint.h>

#include "lib/util.h"

#define MNW_SHARDSET_FILE "mnw.shards"
#define MNW_SHARDSET_NAME 256 /* a directory name's bytes, with its NUL */

typedef struct {
    char input[4096];
    uint32_t count;                   /* N */
    char (*dir)[MNW_SHARDSET_NAME];   /* dir[I-1]: shard I's directory name */
    char merged[MNW_SHARDSET_NAME];
    int remove_shards;
    char array_job[32], array_list[256]; /* the last "job shards" line, or "" */
    char (*arrays)[32];                  /* every "job shards" id, oldest first */
    int narrays;
    char merge_job[32];                  /* the last "job merge" line, or "" */
    int njobs;                           /* "job" lines in all */
} mnw_shardset;

/* Does dir hold a manifest (PARENT/mnw.shards exists)? */
int mnw_shardset_present(const char *dir);

/* Reads dir/mnw.shards into *s (initialised here). 0, or -1 with e set
 * naming the file and line; *s is then empty (nothing to free). */
int mnw_shardset_read(const char *dir, mnw_shardset *s, mnw_err *e)
    __attribute__((warn_unused_result));
void mnw_shardset_free(mnw_shardset *s);

#endif
