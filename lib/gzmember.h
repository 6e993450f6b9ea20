/* gzmember.h - one complete gzip member (RFC 1952) of a whole buffer: how
 * every slice of a gzip output is written (one member per work list, the
 * CLD's head member); concatenated members form a valid gzip file that zcat
 * and Python's gzip read. Two encoders, both whole-buffer (exactly their
 * API): libdeflate for levels 1-12 (about three times zlib's speed at a
 * smaller output), and ISA-L's igzip for MNW_GZIP_FAST (about four times
 * libdeflate 5's speed at a fifth more bytes on CIGAR text: what keeps
 * finishing up with GPUs that write CIGARs; docs/DECISIONS.md, issue 40).
 * zlib stays for reading gzip input, which streams.
 * Ownership: the caller's buffers. Thread-safety: reentrant; libdeflate
 * compressors and igzip work buffers come from a pool shared under a mutex
 * (one lock per member). */
#ifndef MNW_GZMEMBER_H
#define MNW_GZMEMBER_H

#include <stddef.h>

#include "lib/buf.h"

/* --gzip-level's settings besides 1-9: AUTO (the default) is 5 for every
 * output (outsel.h: mnw_outsel_gzip_level); FAST, asked for, is igzip's
 * level MNW_GZIP_FAST_ISAL, whose members are the same text but, in mnw
 * runs, not always the same bytes from one run to the next (a few members
 * in one run of five; not reproduced outside mnw: docs/DECISIONS.md). The
 * values travel in bookmarks (as their names) and on the wire (as these
 * numbers). Level 2, not 3: igzip's levels 1 and 2 write the same bytes
 * on every x86-64 CPU with SSE4.2 (its SSE, AVX2 and AVX-512 code,
 * tests/unit/test_isal_variants.c), level 3 runs another match search on
 * AVX-512 CPUs than on the others, so its bytes would depend on the node;
 * 2 is also the fastest of the three (docs/DECISIONS.md, issue 40). */
#define MNW_GZIP_AUTO 0
#define MNW_GZIP_FAST 100
#define MNW_GZIP_FAST_ISAL 2
/* The level of AUTO's outputs without CIGARs (issue 19's measurements). */
#define MNW_GZIP_LEVEL_PLAIN 5

/* Compresses in[0..len) into out (replacing its content) as one gzip
 * member at level (libdeflate's 0-12, or MNW_GZIP_FAST; mnw's --gzip-level
 * takes 1-9 and fast). Returns 0, or -1 (a level out of range, or an
 * encoder's failure). */
int mnw_gzip_member(const char *in, size_t len, int level, mnw_buf *out);

/* The name of a level for logs: "5", "fast". */
const char *mnw_gzip_level_name(int level, char buf[8]);

#endif
