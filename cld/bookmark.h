/* bookmark.h - the bookmark of a run (OUTDIR/mnw.bookmark): what a resumed
 * run needs to continue exactly where an interrupted one stopped, and the
 * checksums that prove its outputs hold what the run wrote. Text, one
 * "key value" per line (docs/RESUME.md):
 *
 *   mnw-bookmark 3                 (2 where pruned is 0: below)
 *   input-hash <32 hex digits>     the sequences (ids and bases, in order)
 *   sequences <n>
 *   pairs <n (n - 1) / 2>
 *   setting <key> <value>          every setting that changes the outputs
 *   watermark <k>                  pairs 0 .. k-1 are in the outputs (a
 *                                  shard's: pairs K0 .. k-1, mnw_bookmark_range)
 *   pruned <n>                     version 3 only: how many of those pairs
 *                                  the filter pruned (lib/prune.h: done, no
 *                                  output line); n <= the pairs written
 *   output <file> <bytes> <crc>    each output's length at the watermark and
 *                                  the CRC-32 of those bytes (8 hex digits)
 *   blocks <file> <size> <crc>...  right after its output line: the CRC-32 of
 *                                  each whole block of <size> bytes (below)
 *   end <8 hex digits>             CRC-32 of every byte above this line
 *
 * Version 1 (mnw before the output checksums) has "output <file> <bytes>"
 * and no blocks lines; it is still read (out_sum[] is then NULL: lengths
 * only). Version 3 is version 2 with the pruned line, which it must have;
 * versions 1 and 2 have none and read as 0 pruned, which they are: the
 * mnw that wrote them had no filter, or one that pruned none of the pairs
 * below the watermark (an mnw with the filter writes version 2 exactly
 * then, so that a run in which nothing was pruned stays readable by an
 * mnw of version 2; that mnw refuses a version 3 bookmark as of an
 * unknown version, rather than resume it and drop the count).
 *
 * The CRC and the "end" line make a torn or edited bookmark an error
 * (never a silent resume from a wrong place). Writing is atomic: a
 * temporary file in OUTDIR, fsync, rename over mnw.bookmark, fsync of the
 * directory; a crash at any moment leaves the previous bookmark or the new
 * one, whole. Reading never blocks: a FIFO, a directory or a device in its
 * place is an error naming the file.
 *
 * Ownership: a mnw_bookmark owns its settings strings and output sums
 * (mnw_bookmark_free). Thread-safety: plain data and functions of their
 * arguments; one writer per OUTDIR (the CLD).
 */
#ifndef MNW_BOOKMARK_H
#define MNW_BOOKMARK_H

#include <stddef.h>
#include <stdint.h>

#include "lib/seq.h"
#include "lib/sum.h"
#include "lib/util.h"

#define MNW_BOOKMARK_FILE "mnw.bookmark"
#define MNW_BOOKMARK_MAX_SET 64
#define MNW_BOOKMARK_MAX_OUT 8
#define MNW_BOOKMARK_MAX_BYTES (1 << 20) /* a larger file is not a bookmark */

typedef struct {
    char input_hash[33];
    uint64_t sequences, pairs, watermark;
    uint64_t pruned; /* pairs below the watermark the filter pruned (0 in versions 1 and 2) */
    int nset;
    char *set_key[MNW_BOOKMARK_MAX_SET], *set_val[MNW_BOOKMARK_MAX_SET];
    int version; /* of the file read (1: no output checksums; 3: a pruned line); 0: not read */
    int nout;
    char *out_name[MNW_BOOKMARK_MAX_OUT];
    uint64_t out_bytes[MNW_BOOKMARK_MAX_OUT];
    mnw_sum *out_sum[MNW_BOOKMARK_MAX_OUT]; /* NULL: no checksums (version 1) */
} mnw_bookmark;

void mnw_bookmark_init(mnw_bookmark *b);
void mnw_bookmark_free(mnw_bookmark *b);
/* Adds a setting / an output (copies the strings). Keys and file names are
 * one word; values may hold spaces but no newline. An output added with
 * mnw_bookmark_output has a length only (what version 1 held); with
 * mnw_bookmark_output_sum, its length and checksums (a copy of sum, whose
 * bytes is the length). 0, or -1 with e set. */
int mnw_bookmark_set(mnw_bookmark *b, const char *key, const char *val, mnw_err *e) MNW_MUST_CHECK;
int mnw_bookmark_output(mnw_bookmark *b, const char *name, uint64_t bytes, mnw_err *e) MNW_MUST_CHECK;
int mnw_bookmark_output_sum(mnw_bookmark *b, const char *name, const mnw_sum *sum, mnw_err *e) MNW_MUST_CHECK;
/* The value of a setting, or NULL. */
const char *mnw_bookmark_get(const mnw_bookmark *b, const char *key);
/* The outputs b's run writes (a mask of MNW_OUT_*): its "outputs" setting,
 * or, in a bookmark of an mnw from before --outputs, pairs and dist and
 * dist.phylip where its "phylip" setting says yes. 0, or -1 with e set
 * (bmpath names the file). */
int mnw_bookmark_outputs(const mnw_bookmark *b, const char *bmpath, int *mask, mnw_err *e) MNW_MUST_CHECK;

/* The pairs b's run aligns, [*k0, *k1): a shard's (its "shard-range"
 * setting, "K0 K1", written by mnw --shard, shard.h), or every pair. 0, or
 * -1 with e set (a range that is not two numbers with K0 <= K1 <= pairs;
 * bmpath names the file). */
int mnw_bookmark_range(const mnw_bookmark *b, const char *bmpath, uint64_t *k0, uint64_t *k1, mnw_err *e) MNW_MUST_CHECK;

/* The pairs of b's run (a shard's, or the whole run's) written so far
 * (watermark - K0) and in all (K1 - K0), and in shard (at least 24 bytes)
 * its "I/N", or "" for a whole run. For a bookmark mnw_bookmark_read
 * accepted (its range is sound). Of the pairs written, b->pruned were
 * pruned. */
void mnw_bookmark_progress(const mnw_bookmark *b, uint64_t *done, uint64_t *total, char *shard, size_t cap);

/* The input fingerprint: 128 bits over the ids and bases, in order, as 32
 * hex digits (out: 33 bytes). Not cryptographic: it tells runs apart. */
void mnw_bookmark_input_hash(const mnw_seqset *s, char out[33]);

/* Writes dir/mnw.bookmark atomically (above): version 3 when b->pruned >
 * 0, else version 2, or version 1 when no output has a sum (what was read
 * from one); outputs with and without sums together are refused, and so
 * are pruned pairs without sums or more than the pairs written. 0, or -1
 * with e set. */
int mnw_bookmark_write(const char *dir, const mnw_bookmark *b, mnw_err *e) MNW_MUST_CHECK;
/* Reads and checks a bookmark; errors name the file and line (a missing
 * file, one that is not a regular file, a bad line, a missing key, a CRC
 * that does not match, a watermark beyond the pairs or, when the bookmark
 * has the worklist-size setting, not at a work-list boundary; output sums
 * that cannot belong together; a version 3 bookmark without its pruned
 * line, a pruned line in an older version, more pairs pruned than
 * written). 0, or -1 with e set; *b is left
 * initialised. */
int mnw_bookmark_read(const char *path, mnw_bookmark *b, mnw_err *e) MNW_MUST_CHECK;

#endif
