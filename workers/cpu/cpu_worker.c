/* cpu_worker.c - see cpu_worker.h. */
#include "workers/cpu/cpu_worker.h"

#include <stdlib.h>

#include "lib/util.h"

void mnw_cpu_worker_init(mnw_cpu_worker *w, const mnw_job_spec *js)
{
    memset(w, 0, sizeof *w);
    w->js = js;
    mnw_wl_scratch_init(&w->scratch);
    mnw_cpu_ws_figures(w->scratch.ws, js->figs);
    mnw_wl_scratch_prune(&w->scratch, js->prune, js->sc); /* issue 39: NULL or off: none */
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
    uint64_t cells = mnw_wl_align(&w->scratch, js->spec->seqs, js->sc, r, w->alns);
    return mnw_result_build(js, r, w->alns, cells, w->text, e);
}

int mnw_cpu_worker_run_tb(mnw_cpu_worker *w, mnw_range r, mnw_tb *tb, mnw_err *e)
{
    const mnw_job_spec *js = w->js;
    mnw_tb_list *l = mnw_tb_list_open(tb, r);
    return mnw_wl_submit(&w->scratch, js->spec->seqs, js->sc, r, tb, l, e);
}
