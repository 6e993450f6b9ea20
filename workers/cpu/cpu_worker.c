/* cpu_worker.c - see cpu_worker.h. */
#include "cpu_worker.h"

#include <stdlib.h>

#include "util.h"

void mnw_cpu_worker_init(mnw_cpu_worker *w, const mnw_job_spec *js)
{
    memset(w, 0, sizeof *w);
    w->js = js;
    mnw_wl_scratch_init(&w->scratch);
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_init(&w->text[o]);
}

void mnw_cpu_worker_free(mnw_cpu_worker *w)
{
    mnw_wl_scratch_free(&w->scratch);
    for (size_t k = 0; k < w->nalns; k++) mnw_aln_free(&w->alns[k]);
    free(w->alns);
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_free(&w->text[o]);
    memset(w, 0, sizeof *w);
}

mnw_result *mnw_cpu_worker_run(mnw_cpu_worker *w, mnw_range r, mnw_err *e)
{
    if (r.count > w->nalns) {
        w->alns = mnw_xrealloc(w->alns, r.count * sizeof *w->alns);
        for (size_t k = w->nalns; k < r.count; k++) mnw_aln_init(&w->alns[k]);
        w->nalns = r.count;
    }
    const mnw_job_spec *js = w->js;
    mnw_result *res = mnw_result_new(r);
    res->cells = mnw_wl_align(&w->scratch, js->spec->seqs, js->sc, r, w->alns);
    for (int o = 0; o < MNW_NOUT; o++) w->text[o].len = 0;
    mnw_output_format(js->spec, r, w->alns, w->text);
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!js->spec->enabled[o] || w->text[o].len == 0) continue;
        if (mnw_out_gzip[o]) {
            if (mnw_gzip_member(w->text[o].p, w->text[o].len, js->gzip_level, &res->data[o])) {
                mnw_result_free(res);
                mnw_err_set(e, "gzip compression failed for pairs %llu..", (unsigned long long)r.k0);
                return NULL;
            }
        } else {
            mnw_buf_put(&res->data[o], w->text[o].p, w->text[o].len);
        }
    }
    return res;
}
