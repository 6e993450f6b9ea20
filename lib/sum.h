/* sum.h - the running checksums of one output: the CRC-32 (zlib's) of all its bytes
 * and of each whole block. Blocks start at MNW_SUM_BLOCK bytes; when there
 * are MNW_SUM_MAX_BLOCKS of them, neighbours merge (crc32_combine) and the
 * block size doubles, so an output has fewer than MNW_SUM_MAX_BLOCKS whole
 * blocks (9 KB of bookmark text at most) and a damaged byte is located to
 * within 1/512 of the file, or 1 MiB for files below 1 GiB. The block CRCs
 * only say where; the whole-file CRC decides. A plain value (copyable).
 * Ownership: none (plain values; mnw_sum_fd reads a descriptor the caller
 * owns). Thread-safety: functions of their arguments only. Used by the
 * bookmark (cld/bookmark.c) and by the ranks that write outputs themselves
 * (nld/nldout.c). */
#ifndef MNW_SUM_H
#define MNW_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

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

#endif
