/* trace.c - see trace.h. The walk is trace_walk.h's (shared with the GPU). */
#include "workers/tb/trace.h"

void mnw_tb_trace(const mnw_tb_end *end, int affine, const uint8_t *a, int m, const uint8_t *b, int n, mnw_aln *out)
{
    mnw_aln_clear(out);
    mnw_aln_reserve(out, (size_t)m + (size_t)n);
    out->score = end->score;
    out->nops = mnw_tb_walk(&end->v, affine, end->re, end->ce, a, m, b, n, out->ops);
    mnw_aln_reverse(out);
}

void mnw_tb_finish(const mnw_tb_end *end, int affine, const uint8_t *a, int m, const uint8_t *b, int n,
                   const mnw_eqtab *figs, mnw_aln *out)
{
    if (!figs) {
        mnw_tb_trace(end, affine, a, m, b, n, out);
        return;
    }
    mnw_aln_clear(out);
    out->score = end->score;
    mnw_tb_walk_fig(&end->v, affine, end->re, end->ce, a, m, b, n, figs, &out->fig);
    out->has_fig = 1;
}
