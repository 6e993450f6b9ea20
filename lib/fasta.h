/* fasta.h - the FASTA reader (plain or gzip-compressed), see docs/INPUT.md.
 *
 * The reader reads the file descriptor itself (no gzread): the first two
 * bytes decide the format, 1f 8b for gzip (inflated with zlib, any number of
 * members back to back, nothing else after them), anything else plain text.
 * Records may span many lines; LF or CRLF line ends; blank (or
 * whitespace-only) lines are ignored anywhere; the last line may lack its
 * newline. The id is the first word of the header line (the bytes after '>'
 * up to the first space, tab, CR or LF); the rest of the header is ignored.
 * Sequence letters map through mnw_code_of[] (seq.h): case-insensitive, U
 * read as T, IUPAC ambiguity codes accepted; anything else is an error.
 *
 * Ownership: the caller owns `out` (mnw_seqset_init before, mnw_seqset_free
 * after, also after a failure or a stop, when `out` may hold the records
 * read so far).
 * Thread-safety: reentrant; one call per `out` at a time. `stopped` is called
 * from the calling thread only.
 */
#ifndef MNW_FASTA_H
#define MNW_FASTA_H

#include "lib/seq.h"
#include "lib/util.h"

/* Longest id accepted (bytes). */
#define MNW_MAX_ID_LEN 1000

/* Reads the FASTA file `path` and appends its records to `out`. Returns 0, or
 * -1 with e->msg set to one line "PATH:LINE: reason" (PATH as given; "PATH:
 * cannot open: ..." when it cannot be opened; "PATH: N bytes of data that is
 * not gzip after the last gzip member, from byte offset OFF ..." for bytes
 * after gzip data). Ids must be unique, also against records already in
 * `out`. The caller checks how many records it needs. Blocks while a pipe or
 * FIFO has no data and its writer stays open. Same as
 * mnw_fasta_read_until(path, out, NULL, e). */
int mnw_fasta_read(const char *path, mnw_seqset *out, mnw_err *e) MNW_MUST_CHECK;

/* mnw_fasta_read that can be stopped: `stopped` (may be NULL) is called
 * before every read(2) of the file and, on a pipe, FIFO or device, after
 * every 100 ms that poll(2) waited for data (also when a signal interrupted
 * the wait), so a silent writer does not hold a stop back; opening a FIFO
 * does not wait for its writer. When `stopped` returns non-zero, reading
 * ends and the call returns -2 with e->msg "PATH: reading stopped at line N"
 * (`out` holds the records completed so far). Otherwise as mnw_fasta_read.
 * `stopped` must be async-signal-safe enough to call often (e.g.
 * mnw_sig_pending of sig.h). */
int mnw_fasta_read_until(const char *path, mnw_seqset *out, int (*stopped)(void), mnw_err *e) MNW_MUST_CHECK;

#endif
