/* merge.h - `mnw merge OUTDIR SHARD_DIR...` (issue 21, docs/SHARDS.md):
 * joins the complete shards 1..N of one run (mnw --shard I/N, shard.h) into
 * OUTDIR, a run of every pair: each output is the shards' outputs
 * concatenated in order, read once and written once, never decompressed,
 * and byte for byte what one run over every pair writes; the bookmark
 * (every setting but the shard, the watermark at the last pair, each
 * output's length and checksums), mnw.log and progress.json make OUTDIR a
 * complete run for `mnw status`, `mnw verify` and `--resume`.
 *
 * Refused before anything is written, with a message naming the directory:
 * a directory that is not a shard, a shard that is not complete, shards of
 * other splits, inputs or settings, a shard given twice or missing, ranges
 * that do not join, an OUTDIR that is not empty. A shard output whose bytes
 * are not what its bookmark says is found while it is copied: then
 * everything the merge wrote is removed (OUTDIR too, when the merge made
 * it), and the message names the file.
 *
 * Ownership: nothing kept between calls. Thread-safety: main thread only
 * (writes stdout, stderr and OUTDIR/mnw.log). No MPI.
 */
#ifndef MNW_MERGE_H
#define MNW_MERGE_H

/* argv[0] is "merge". Returns the exit status: 0 merged, 1 refused or
 * failed (nothing left in OUTDIR), 2 bad command line. */
int mnw_merge_main(int argc, char **argv);

#endif
