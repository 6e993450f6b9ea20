/* bookmark.h - the bookmark of a run (OUTDIR/mnw.bookmark): what a resumed
 * run needs to continue exactly where an interrupted one stopped, and the
 * checksums that prove its outputs hold what the run wrote. Text, one
 * "key value" per line (docs/RESUME.md):
 *
 *   mnw-bookmark 2
 *   input-hash <32 hex digits>     the sequences (ids and bases, in order)
 *   sequences <n>
 *   pairs <n (n - 1) / 2>
 *   setting <key> <value>          every setting that changes the outputs
 *   watermark <k>                  pairs 0 .. k-1 are in the outputs (a
 *                                  shard's: pairs K0 .. k-1, mnw_bookmark_range)
 *   output <file> <bytes> <crc>    each output's length at the watermark and
 *                                  the CRC-32 of those bytes (8 hex digits)
 *   blocks <file> <size> <crc>...  right after its output line: the CRC-32 of
 *                                  each whole block of <size> bytes (below)
 *   end <8 hex digits>             CRC-32 of every byte above this line
 *
 * Version 1 (mnw before the output checksums) has "output <file> <bytes>"
 * and no blocks lines; it is still read (out_sum[] is then NULL: lengths
 * only).
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

#include "seq.h"
#include "util.h"

#define MNW_BOOKMARK_FILE "mnw.bookmark"
#define MNW_BOOKMARK_MAX_SET 64
#define MNW_BOOKMARK_MAX_OUT 8
#define MNW_BOOKMARK_MAX_BYTES (1 << 20) /* a larger file is not a bookmark */

/* ---- output checksums ----
 * The running checksums of one output: the CRC-32 (zlib's) of all its bytes
 * and of each whole block. Blocks start at MNW_SUM_BLOCK bytes; when there
 * are MNW_SUM_MAX_BLOCKS of them, neighbours merge (crc32_combine) and the
 * block size doubles, so an output has fewer than MNW_SUM_MAX_BLOCKS whole
 * blocks (9 KB of bookmark text at most) and a damaged byte is located to
 * within 1/512 of the file, or 1 MiB for files below 1 GiB. The block CRCs
 * only say where; the whole-file CRC decides. A plain value (copyable). */
#define MNW_SUM_BLOCK 1048576u
#define MNW_SUM_MIN_BLOCK 4096u /* what a bookmark may hold (tests use small blocks) */
#define MNW_SUM_MAX_BLOCKS 1024u
typedef struct {
    uint64_t bytes;   /* bytes summed */
    uint64_t block;   /* block size, a power of 2 */
    uint32_t nblocks; /* whole blocks: bytes / block, < MNW_SUM_MAX_BLOCKS */
    uint32_t prefix;  /* CRC-32 of the whole blocks together */
    uint32_t part;    /* CRC-32 of the bytes after them */
    uint32_t blocks[MNW_SUM_MAX_BLOCKS]; /* CRC-32 of each whole block */
} mnw_sum;

/* Empty, with blocks of `block` bytes (a power of 2, >= MNW_SUM_MIN_BLOCK). */
void mnw_sum_init(mnw_sum *s, uint64_t block);
/* Adds n bytes; merges blocks when MNW_SUM_MAX_BLOCKS are whole. */
void mnw_sum_add(mnw_sum *s, const void *p, size_t n);
/* The CRC-32 of every byte added. */
uint32_t mnw_sum_crc(const mnw_sum *s);
/* Sums kept without the bytes (issue 22: another rank writes them): the
 * writer cuts what it writes at file offset off into pieces at every
 * multiple of `base` (the sum's first block size, MNW_SUM_BLOCK) and sends
 * each piece's CRC-32 and length; the keeper adds them in file order.
 * Since a sum's blocks only ever double, a piece cut this way lies inside
 * one block of the sum, whatever size its blocks have grown to, and the
 * sum ends exactly as if every byte had been added with mnw_sum_add.
 * mnw_sum_split writes the pieces of p[0..n) into crc[] and len[] (room
 * for cap; n / base + 2 always suffice) and returns their count, or -1 when
 * cap is too small. mnw_sum_add_piece adds one: 0, or -1 (s unchanged)
 * when it would cross a block of s (not cut at `base`, or added out of
 * order). */
int mnw_sum_split(const void *p, size_t n, uint64_t off, uint64_t base, uint32_t *crc, uint64_t *len, int cap);
int mnw_sum_add_piece(mnw_sum *s, uint32_t crc, uint64_t len);
/* The state after `bytes` bytes whose CRC-32 is crc and whose whole blocks
 * of `block` bytes have the n CRCs in blocks (a bookmark's values), so that
 * mnw_sum_add continues from there. -1 when they cannot belong together
 * (block size, count; the CRCs of a whole number of blocks must combine to
 * crc): what = why, for a message. */
int mnw_sum_set(mnw_sum *s, uint64_t bytes, uint32_t crc, uint64_t block, const uint32_t *blocks, uint32_t n,
                const char **what);
/* Sums the first `len` bytes of the open file fd (path for messages) from
 * offset 0 into s, which the caller initialised (the block size): one
 * sequential read, without blocking on a FIFO. 0, or -1 with e set (a read
 * error, or the file ends before len). */
int mnw_sum_fd(int fd, const char *path, uint64_t len, mnw_sum *s, mnw_err *e) MNW_MUST_CHECK;

typedef struct {
    char input_hash[33];
    uint64_t sequences, pairs, watermark;
    int nset;
    char *set_key[MNW_BOOKMARK_MAX_SET], *set_val[MNW_BOOKMARK_MAX_SET];
    int version; /* of the file read (1: no output checksums); 0: not read */
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
 * accepted (its range is sound). */
void mnw_bookmark_progress(const mnw_bookmark *b, uint64_t *done, uint64_t *total, char *shard, size_t cap);

/* The input fingerprint: 128 bits over the ids and bases, in order, as 32
 * hex digits (out: 33 bytes). Not cryptographic: it tells runs apart. */
void mnw_bookmark_input_hash(const mnw_seqset *s, char out[33]);

/* Writes dir/mnw.bookmark atomically (above): version 2, or version 1 when
 * no output has a sum (what was read from one); outputs with and without
 * sums together are refused. 0, or -1 with e set. */
int mnw_bookmark_write(const char *dir, const mnw_bookmark *b, mnw_err *e) MNW_MUST_CHECK;
/* Reads and checks a bookmark; errors name the file and line (a missing
 * file, one that is not a regular file, a bad line, a missing key, a CRC
 * that does not match, a watermark beyond the pairs or, when the bookmark
 * has the worklist-size setting, not at a work-list boundary; output sums
 * that cannot belong together). 0, or -1 with e set; *b is left
 * initialised. */
int mnw_bookmark_read(const char *path, mnw_bookmark *b, mnw_err *e) MNW_MUST_CHECK;

#endif
