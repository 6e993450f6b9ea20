/* trace.c - see trace.h. */
#include "trace.h"

static inline unsigned bit_at(const uint8_t *base, uint64_t k) { return (base[k >> 3] >> (k & 7)) & 1u; }

/* Runs are collected here and pushed when the op changes (one push per run,
 * not per column). */
#define EMIT(o)                                                                                                        \
    do {                                                                                                               \
        if ((o) != op) {                                                                                               \
            mnw_aln_push(out, op, len);                                                                                \
            op = (o);                                                                                                  \
            len = 0;                                                                                                   \
        }                                                                                                              \
        len++;                                                                                                         \
    } while (0)

void mnw_tb_trace(const mnw_tb_end *end, int affine, const uint8_t *a, int m, const uint8_t *b, int n, mnw_aln *out)
{
    const mnw_dirview *v = &end->v;
    int r = end->re, c = end->ce;
    mnw_aln_clear(out);
    out->score = end->score;
    mnw_aln_push(out, MNW_OP_I, (uint32_t)(m - r));
    mnw_aln_push(out, MNW_OP_D, (uint32_t)(n - c));
    if (r > 0 && c > 0) {
        const uint8_t *base = v->base;
        const uint64_t rs = v->row_bits, cs = v->col_bits, ds = rs + cs;
        /* p: bit A of cell (r, c); B and the second word relative to it */
        uint64_t p = v->base_bit + (uint64_t)(r - 1) * rs + (uint64_t)(c - 1) * cs + v->a_bit;
        const uint64_t ob = (uint64_t)v->b_bit - v->a_bit; /* mod 2^64: B may lie below A */
        const uint64_t ox = v->ext_bit;
        int op = MNW_OP_EQ;
        uint32_t len = 0;
        if (!affine) {
            while (r > 0 && c > 0) {
                if (bit_at(base, p)) {
                    uint8_t x = a[r - 1], y = b[c - 1];
                    EMIT((x == y && x < 4) ? MNW_OP_EQ : MNW_OP_X);
                    r--;
                    c--;
                    p -= ds;
                } else if (!bit_at(base, p + ob)) {
                    EMIT(MNW_OP_I);
                    r--;
                    p -= rs;
                } else {
                    EMIT(MNW_OP_D);
                    c--;
                    p -= cs;
                }
            }
        } else {
            int st = 0; /* 0 = H, 1 = E (I), 2 = F (D) */
            while (r > 0 && c > 0) {
                if (st == 0) {
                    if (bit_at(base, p)) {
                        uint8_t x = a[r - 1], y = b[c - 1];
                        EMIT((x == y && x < 4) ? MNW_OP_EQ : MNW_OP_X);
                        r--;
                        c--;
                        p -= ds;
                        continue;
                    }
                    st = bit_at(base, p + ob) ? 1 : 2;
                }
                if (st == 1) {
                    EMIT(MNW_OP_I);
                    st = bit_at(base, p + ox) ? 1 : 0;
                    r--;
                    p -= rs;
                } else {
                    EMIT(MNW_OP_D);
                    st = bit_at(base, p + ox + ob) ? 2 : 0;
                    c--;
                    p -= cs;
                }
            }
        }
        mnw_aln_push(out, op, len);
    }
    mnw_aln_push(out, MNW_OP_I, (uint32_t)r);
    mnw_aln_push(out, MNW_OP_D, (uint32_t)c);
    mnw_aln_reverse(out);
}
