/* report.h - `mnw report OUTDIR [-o FILE] [--outlier X]`: the run and its
 * results as one self-contained HTML page (inline SVG, no script, nothing
 * from the network): the summary, the identities' distribution with the
 * common 16S thresholds, each sequence's nearest neighbour and the
 * outliers, throughput over time per rank and device with stops and
 * resumes (progress.log), and the share of pairs per node and device.
 * Works on a finished run and on one in progress (the outputs up to the
 * bookmark's lengths), in one streaming pass over pairs.tsv.gz.
 * Ownership: nothing kept between calls. Thread-safety: main thread only.
 */
#ifndef MNW_REPORT_H
#define MNW_REPORT_H

/* argv[0] is "report". Returns the exit status: 0 written, 1 OUTDIR is not
 * an mnw run or a file is damaged (named on stderr; no report left), 2 bad
 * command line. */
int mnw_report_main(int argc, char **argv);

#endif
