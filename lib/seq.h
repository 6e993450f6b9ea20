/* seq.h - the packed sequence set and the nucleotide code table.
 *
 * Codes: A=0 C=1 G=2 T=3 (U is read as T), then the IUPAC ambiguity codes
 * R=4 Y=5 S=6 W=7 K=8 M=9 B=10 D=11 H=12 V=13 N=14. Letters are
 * case-insensitive. Every other byte is invalid (MNW_CODE_INVALID).
 *
 * Ownership: an mnw_seqset owns its arrays; mnw_seqset_free releases them.
 * Thread-safety: a filled set is read-only and may be shared by any number of
 * threads; building one (mnw_seqset_add) is single-threaded.
 */
#ifndef MNW_SEQ_H
#define MNW_SEQ_H

#include <stddef.h>
#include <stdint.h>

#define MNW_NCODES 15
#define MNW_CODE_N 14
#define MNW_CODE_INVALID 255
/* Longest sequence accepted (bases); docs/INPUT.md and docs/SCORING.md say why. */
#define MNW_MAX_SEQ_LEN 10000

/* Byte -> code, MNW_CODE_INVALID for bytes that are not a nucleotide letter. */
extern const uint8_t mnw_code_of[256];
/* Code -> upper-case letter ("ACGTRYSWKMBDHVN"). */
extern const char mnw_letter_of[MNW_NCODES];

static inline int mnw_code_is_base(uint8_t c) { return c < 4; }

typedef struct {
    size_t n;          /* number of sequences */
    uint8_t *codes;    /* all sequences back to back, one code per byte */
    size_t *off;       /* n+1 offsets into codes; length of i = off[i+1]-off[i] */
    char *idbuf;       /* NUL-terminated ids back to back */
    size_t *idoff;     /* n offsets into idbuf */
    size_t max_len;    /* longest sequence */
    /* growth bookkeeping (used while building) */
    size_t codes_cap, off_cap, idbuf_len, idbuf_cap;
} mnw_seqset;

void mnw_seqset_init(mnw_seqset *s);
void mnw_seqset_free(mnw_seqset *s);
/* Append one sequence (codes already translated). Copies both arguments. */
void mnw_seqset_add(mnw_seqset *s, const char *id, const uint8_t *codes, size_t len);

static inline size_t mnw_seq_len(const mnw_seqset *s, size_t i) { return s->off[i + 1] - s->off[i]; }
static inline const uint8_t *mnw_seq_codes(const mnw_seqset *s, size_t i) { return s->codes + s->off[i]; }
static inline const char *mnw_seq_id(const mnw_seqset *s, size_t i) { return s->idbuf + s->idoff[i]; }

#endif
