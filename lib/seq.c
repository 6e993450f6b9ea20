/* seq.c - see seq.h. */
#include "lib/seq.h"

#include "lib/util.h"

#define X MNW_CODE_INVALID
/* clang-format off */
const uint8_t mnw_code_of[256] = {
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    /* @  A  B  C  D  E  F  G  H  I  J  K  L  M  N  O */
       X, 0,10, 1,11, X, X, 2,12, X, X, 8, X, 9,14, X,
    /* P  Q  R  S  T  U  V  W  X  Y  Z */
       X, X, 4, 6, 3, 3,13, 7, X, 5, X, X,X,X,X,X,
       X, 0,10, 1,11, X, X, 2,12, X, X, 8, X, 9,14, X,
       X, X, 4, 6, 3, 3,13, 7, X, 5, X, X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
    X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
};
/* clang-format on */
#undef X

const char mnw_letter_of[MNW_NCODES] = {'A', 'C', 'G', 'T', 'R', 'Y', 'S', 'W',
                                        'K', 'M', 'B', 'D', 'H', 'V', 'N'};

void mnw_seqset_init(mnw_seqset *s) { memset(s, 0, sizeof *s); }

void mnw_seqset_free(mnw_seqset *s)
{
    free(s->codes);
    free(s->off);
    free(s->idbuf);
    free(s->idoff);
    memset(s, 0, sizeof *s);
}

void mnw_seqset_add(mnw_seqset *s, const char *id, const uint8_t *codes, size_t len)
{
    if (s->n + 2 > s->off_cap) {
        s->off_cap = s->off_cap ? 2 * s->off_cap : 1024;
        s->off = mnw_xrealloc(s->off, s->off_cap * sizeof *s->off);
        s->idoff = mnw_xrealloc(s->idoff, s->off_cap * sizeof *s->idoff);
    }
    if (s->n == 0) s->off[0] = 0;
    size_t used = s->off[s->n];
    if (used + len > s->codes_cap) {
        s->codes_cap = s->codes_cap ? 2 * s->codes_cap : 1 << 16;
        while (s->codes_cap < used + len) s->codes_cap *= 2;
        s->codes = mnw_xrealloc(s->codes, s->codes_cap);
    }
    memcpy(s->codes + used, codes, len);
    size_t idlen = strlen(id) + 1;
    if (s->idbuf_len + idlen > s->idbuf_cap) {
        s->idbuf_cap = s->idbuf_cap ? 2 * s->idbuf_cap : 1 << 14;
        while (s->idbuf_cap < s->idbuf_len + idlen) s->idbuf_cap *= 2;
        s->idbuf = mnw_xrealloc(s->idbuf, s->idbuf_cap);
    }
    memcpy(s->idbuf + s->idbuf_len, id, idlen);
    s->idoff[s->n] = s->idbuf_len;
    s->idbuf_len += idlen;
    s->off[s->n + 1] = used + len;
    if (len > s->max_len) s->max_len = len;
    s->n++;
}
