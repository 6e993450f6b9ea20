/* aln.c - see aln.h. */
#include "lib/aln.h"

#include "lib/util.h"

const char mnw_op_char[4] = {'=', 'X', 'I', 'D'};

void mnw_aln_init(mnw_aln *a) { memset(a, 0, sizeof *a); }

void mnw_aln_free(mnw_aln *a)
{
    free(a->ops);
    memset(a, 0, sizeof *a);
}

void mnw_aln_clear(mnw_aln *a)
{
    a->nops = 0;
    a->score = 0;
    a->has_fig = 0;
    a->pruned = 0;
}

void mnw_aln_push(mnw_aln *a, int op, uint32_t len)
{
    if (len == 0) return;
    if (a->nops && MNW_RUN_OP(a->ops[a->nops - 1]) == (uint32_t)op) {
        a->ops[a->nops - 1] += len << 2;
        return;
    }
    if (a->nops == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 256;
        a->ops = mnw_xrealloc(a->ops, a->cap * sizeof *a->ops);
    }
    a->ops[a->nops++] = MNW_RUN(len, op);
}

void mnw_aln_reserve(mnw_aln *a, size_t runs)
{
    if (runs <= a->cap) return;
    size_t cap = a->cap ? a->cap : 256;
    while (cap < runs) cap *= 2;
    a->ops = mnw_xrealloc(a->ops, cap * sizeof *a->ops);
    a->cap = cap;
}

void mnw_aln_reverse(mnw_aln *a)
{
    for (size_t i = 0, j = a->nops; i + 1 < j; i++, j--) {
        uint32_t t = a->ops[i];
        a->ops[i] = a->ops[j - 1];
        a->ops[j - 1] = t;
    }
}

void mnw_runs_stats(const uint32_t *ops, size_t nops, mnw_alnstats *st)
{
    uint32_t len = 0, eq = 0, x = 0, gruns = 0;
    for (size_t k = 0; k < nops; k++) {
        uint32_t n = MNW_RUN_LEN(ops[k]), op = MNW_RUN_OP(ops[k]);
        len += n;
        eq += op == MNW_OP_EQ ? n : 0;
        x += op == MNW_OP_X ? n : 0;
        gruns += op >> 1; /* I and D */
    }
    st->length = len;
    st->matches = eq;
    st->mismatches = x;
    st->gap_opens = gruns;
    st->gaps = len - eq - x;
}

void mnw_aln_stats(const mnw_aln *a, mnw_alnstats *st) { mnw_runs_stats(a->ops, a->nops, st); }
