/* status.h - `mnw status [--json] OUTDIR`: where the run writing OUTDIR
 * stands, for a person (docs/STATUS.md). Reads OUTDIR/progress.json
 * (cld/progress.h) and OUTDIR/mnw.bookmark (cld/bookmark.h); works for a
 * run on this machine, on another node, or one that stopped or was killed;
 * and the parent directory of a run split into shards (mnw-submit --shards).
 *
 * Ownership: nothing kept between calls. Thread-safety: main thread only
 * (writes stdout and stderr).
 */
#ifndef MNW_STATUS_H
#define MNW_STATUS_H

/* argv[0] is "status". Prints the report on stdout, errors on stderr.
 * Returns the exit status: 0 printed, 1 OUTDIR has neither file or one is
 * damaged (the message names the file), 2 bad command line. */
int mnw_status_main(int argc, char **argv);

#endif
