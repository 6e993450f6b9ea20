/* bookmark.h - the bookmark of a run (OUTDIR/mnw.bookmark): what a resumed
 * run needs to continue exactly where an interrupted one stopped. Text, one
 * "key value" per line (docs/RESUME.md):
 *
 *   mnw-bookmark 1
 *   input-hash <32 hex digits>     the sequences (ids and bases, in order)
 *   sequences <n>
 *   pairs <n (n - 1) / 2>
 *   setting <key> <value>          every setting that changes the outputs
 *   watermark <k>                  pairs 0 .. k-1 are in the outputs
 *   output <file> <bytes>          each output's length at the watermark
 *   end <8 hex digits>             CRC-32 of every byte above this line
 *
 * The CRC and the "end" line make a torn or edited bookmark an error
 * (never a silent resume from a wrong place). Writing is atomic: a
 * temporary file in OUTDIR, fsync, rename over mnw.bookmark, fsync of the
 * directory; a crash at any moment leaves the previous bookmark or the new
 * one, whole.
 *
 * Ownership: a mnw_bookmark owns its settings strings (mnw_bookmark_free).
 * Thread-safety: plain data and functions of their arguments; one writer
 * per OUTDIR (the CLD).
 */
#ifndef MNW_BOOKMARK_H
#define MNW_BOOKMARK_H

#include <stdint.h>

#include "seq.h"
#include "util.h"

#define MNW_BOOKMARK_FILE "mnw.bookmark"
#define MNW_BOOKMARK_MAX_SET 64
#define MNW_BOOKMARK_MAX_OUT 8

typedef struct {
    char input_hash[33];
    uint64_t sequences, pairs, watermark;
    int nset;
    char *set_key[MNW_BOOKMARK_MAX_SET], *set_val[MNW_BOOKMARK_MAX_SET];
    int nout;
    char *out_name[MNW_BOOKMARK_MAX_OUT];
    uint64_t out_bytes[MNW_BOOKMARK_MAX_OUT];
} mnw_bookmark;

void mnw_bookmark_init(mnw_bookmark *b);
void mnw_bookmark_free(mnw_bookmark *b);
/* Adds a setting / an output (copies the strings). Keys and file names are
 * one word; values may hold spaces but no newline. 0, or -1 with e set. */
int mnw_bookmark_set(mnw_bookmark *b, const char *key, const char *val, mnw_err *e);
int mnw_bookmark_output(mnw_bookmark *b, const char *name, uint64_t bytes, mnw_err *e);
/* The value of a setting, or NULL. */
const char *mnw_bookmark_get(const mnw_bookmark *b, const char *key);

/* The input fingerprint: 128 bits over the ids and bases, in order, as 32
 * hex digits (out: 33 bytes). Not cryptographic: it tells runs apart. */
void mnw_bookmark_input_hash(const mnw_seqset *s, char out[33]);

/* Writes dir/mnw.bookmark atomically (above). 0, or -1 with e set. */
int mnw_bookmark_write(const char *dir, const mnw_bookmark *b, mnw_err *e);
/* Reads and checks a bookmark; errors name the file and line (a missing
 * file, a bad line, a missing key, a CRC that does not match, a watermark
 * beyond the pairs). 0, or -1 with e set; *b is left initialised. */
int mnw_bookmark_read(const char *path, mnw_bookmark *b, mnw_err *e);

#endif
