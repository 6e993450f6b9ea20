/* status_shards.h - `mnw status PARENT` for a run split by mnw-submit
 * --shards (it holds mnw.shards, lib/shardset.h): every shard's state, the
 * sum of their pairs, the merged run and the Slurm jobs (status_shards.c).
 * Ownership: nothing kept between calls. Thread-safety: main thread only
 * (writes stdout and stderr).
 */
#ifndef MNW_STATUS_SHARDS_H
#define MNW_STATUS_SHARDS_H

/* json: the same as one JSON object. Called by mnw_status_main. Returns 0
 * shown, 1 the manifest or a shard's file is damaged (named on stderr). */
int mnw_status_shards(const char *parent, int json);

#endif
