/* gzmember.h - one complete gzip member (RFC 1952) of a whole buffer: how
 * every slice of a gzip output is written (one member per work list, the
 * CLD's head member); concatenated members form a valid gzip file that zcat
 * and Python's gzip read. Compression is libdeflate's (whole-buffer
 * compression is exactly its API, and it is about three times zlib's speed
 * at a smaller output: docs/DECISIONS.md, bench/results/finish-*); zlib
 * stays for reading gzip input, which streams.
 * Ownership: the caller's buffers. Thread-safety: reentrant; compressors
 * come from a pool shared under a mutex (one lock per member). */
#ifndef MNW_GZMEMBER_H
#define MNW_GZMEMBER_H

#include <stddef.h>

#include "lib/buf.h"

/* Compresses in[0..len) into out (replacing its content) as one gzip
 * member at level (0-12; mnw's --gzip-level takes 1-9). Returns 0, or -1
 * (no memory for a compressor, or a level out of range). */
int mnw_gzip_member(const char *in, size_t len, int level, mnw_buf *out);

#endif
