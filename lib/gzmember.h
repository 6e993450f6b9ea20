/* gzmember.h - one complete gzip member (RFC 1952) of a whole buffer: how
 * every slice of a gzip output is written (one member per work list, the
 * CLD's head member); concatenated members form a valid gzip file that zcat
 * and Python's gzip read. The encoder is libdeflate (whole-buffer, exactly
 * its API; about three times zlib's speed at a smaller output), whose bytes
 * depend only on the input and the level. zlib stays for reading gzip
 * input, which streams.
 * Ownership: the caller's buffers. Thread-safety: reentrant; libdeflate
 * compressors come from a pool shared under a mutex (one lock per member). */
#ifndef MNW_GZMEMBER_H
#define MNW_GZMEMBER_H

#include <stddef.h>

#include "lib/buf.h"

/* --gzip-level's settings besides 1-9: AUTO (the default) is 5 for every
 * output (outsel.h: mnw_outsel_gzip_level); FAST is libdeflate's level 1
 * (MNW_GZIP_FAST_LEVEL: about twice level 5's speed on CIGAR text, for the
 * runs whose finishers cannot keep up at 5). It was ISA-L's igzip in
 * session 45, whose members were not always the same bytes from one mnw run
 * to the next; docs/DECISIONS.md. The values travel in bookmarks (as their
 * names) and on the wire (as these numbers). */
#define MNW_GZIP_AUTO 0
#define MNW_GZIP_FAST 100
#define MNW_GZIP_FAST_LEVEL 1
/* The level of AUTO's outputs (issue 19's measurements). */
#define MNW_GZIP_LEVEL_PLAIN 5

/* Compresses in[0..len) into out (replacing its content) as one gzip
 * member at level (libdeflate's 0-12, or MNW_GZIP_FAST, its level 1;
 * mnw's --gzip-level takes 1-9 and fast). The same input and level give the
 * same bytes on any node and thread. Returns 0, or -1 (a level out of range, or an
 * encoder's failure). */
int mnw_gzip_member(const char *in, size_t len, int level, mnw_buf *out);

/* The name of a level for logs: "5", "fast". */
const char *mnw_gzip_level_name(int level, char buf[8]);

#endif
