/* verify.h - `mnw verify OUTDIR`: do the outputs of a run hold what the run
 * wrote? Reads OUTDIR/mnw.bookmark and checks each output's first bytes (as
 * many as the bookmark counts) against the bookmark's CRC-32s, whole and
 * per block (bookmark.h), naming the first block that differs; says whether
 * the run is complete and whether an output holds bytes written after the
 * bookmark (docs/RESUME.md). The comparison (mnw_verify_fd) is also what
 * --resume checks before it touches anything (resume.c).
 *
 * Ownership: nothing kept between calls. Thread-safety: reentrant, but
 * mnw_verify_main writes stdout and stderr (main thread only).
 */
#ifndef MNW_VERIFY_H
#define MNW_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "cld/bookmark.h"
#include "lib/util.h"

typedef struct {
    int same;          /* 1: the bytes read give want's checksums */
    uint64_t from, to; /* else the first byte range known to differ, inclusive */
    uint32_t crc;      /* the CRC-32 of the bytes read */
} mnw_verify_diff;

/* Reads the first want->bytes bytes of the open file fd (path for
 * messages) once, sequentially, and compares their checksums with want
 * (blocks of want->block bytes). 0 with *d filled, or -1 with e set (a
 * read error, or the file ends before want->bytes). */
int mnw_verify_fd(int fd, const char *path, const mnw_sum *want, mnw_verify_diff *d, mnw_err *e) MNW_MUST_CHECK;
/* "bytes 2,097,152 to 3,145,727 differ from what the run wrote" (d->same 0). */
void mnw_verify_describe(const mnw_verify_diff *d, char *out, size_t n);

/* argv[0] is "verify". Prints one line per output on stdout (problems on
 * stderr). Returns the exit status: 0 every output holds what the bookmark
 * says, 1 one differs, is missing, shorter or unreadable, or the bookmark
 * is (the message names the file), 2 bad command line. */
int mnw_verify_main(int argc, char **argv);

#endif
