/* result.c - see result.h. */
#include "lib/result.h"

#include "lib/gzmember.h"
#include "lib/outsel.h"
#include "lib/util.h"

mnw_result *mnw_result_new(mnw_range r)
{
    mnw_result *res = mnw_xcalloc(1, sizeof *res);
    res->r = r;
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_init(&res->data[o]);
    return res;
}

void mnw_result_free(mnw_result *res)
{
    if (!res) return;
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_free(&res->data[o]);
    free(res);
}

mnw_result *mnw_result_build(const mnw_job_spec *js, mnw_range r, const mnw_aln *alns, uint64_t cells,
                             mnw_buf text[MNW_NOUT], mnw_err *e)
{
    mnw_result *res = mnw_result_new(r);
    res->cells = cells;
    res->dev_pairs[0] = r.count;
    for (uint64_t x = 0; x < r.count; x++) res->pruned += (uint64_t)(alns[x].pruned != 0);
    for (int o = 0; o < MNW_NOUT; o++) text[o].len = 0;
    mnw_output_format(js->spec, r, alns, text);
    for (int o = 0; o < MNW_NOUT; o++) {
        /* a gzip output gets its member also when no pair of the list is
         * in it (--cutoff): an empty member (20-23 bytes), so that the file is
         * gzip whatever the cutoff, and a shard's, joined by mnw merge, is
         * what the whole run writes for its lists (issue 38) */
        if (!js->spec->enabled[o] || (text[o].len == 0 && !mnw_out_gzip[o])) continue;
        if (mnw_out_gzip[o]) {
            if (mnw_gzip_member(text[o].p, text[o].len, mnw_outsel_gzip_level(js->gzip_level),
                                &res->data[o])) {
                mnw_result_free(res);
                mnw_err_set(e, "gzip compression failed for pairs %llu..", (unsigned long long)r.k0);
                return NULL;
            }
        } else {
            mnw_buf_put(&res->data[o], text[o].p, text[o].len);
        }
    }
    return res;
}
