/* fasta.h - the FASTA reader (plain or gzip-compressed), see docs/INPUT.md.
 *
 * One zlib code path reads both: gzread passes plain files through as-is.
 * Records may span many lines; LF or CRLF line ends; blank (or
 * whitespace-only) lines are ignored anywhere; the last line may lack its
 * newline. The id is the first word of the header line (the bytes after '>'
 * up to the first space, tab, CR or LF); the rest of the header is ignored.
 * Sequence letters map through mnw_code_of[] (seq.h): case-insensitive, U
 * read as T, IUPAC ambiguity codes accepted; anything else is an error.
 *
 * Ownership: the caller owns `out` (mnw_seqset_init before, mnw_seqset_free
 * after, also after a failure, when `out` may hold the records read so far).
 * Thread-safety: reentrant; one call per `out` at a time.
 */
#ifndef MNW_FASTA_H
#define MNW_FASTA_H

#include "seq.h"
#include "util.h"

/* Longest id accepted (bytes). */
#define MNW_MAX_ID_LEN 1000

/* Reads the FASTA file `path` and appends its records to `out`. Returns 0, or
 * -1 with e->msg set to one line "PATH:LINE: reason" (PATH as given; "PATH:
 * cannot open: ..." when it cannot be opened). Ids must be unique, also
 * against records already in `out`. The caller checks how many records it
 * needs. */
int mnw_fasta_read(const char *path, mnw_seqset *out, mnw_err *e);

#endif
