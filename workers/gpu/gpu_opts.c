/* gpu_opts.c - the GPU aligner's options and kernel names (gpu.h), the
 * same in builds with and without CUDA.
 * Thread-safety: pure functions.
 */
#include "workers/gpu/gpu.h"

#include <string.h>

static const char *const kernel_names[] = {"rscan", "dscan", "tileddscan"};

void mnw_gpu_opts_default(mnw_gpu_opts *o)
{
    o->traceback_device = 1;
    o->mem_frac = 0.75;
    o->host_bytes = (size_t)1 << 30;
    o->max_pairs = 65536;
    o->host_batches = 8;
    o->kernel = MNW_GPU_KERNEL_AUTO;
    o->rscan_rows = MNW_GPU_RSCAN_MEASURE;
    o->score_only = 0;
    o->two_per_lane = 1;
    o->figures = 0;
    memset(&o->eqt, 0, sizeof o->eqt);
    o->prune = NULL;
    o->prune_pairs = 262144;
    o->prune_figs = 0;
}

const char *mnw_gpu_scoring_unsupported(const mnw_scoring *sc)
{
    if (sc->end_gaps) return "terminal gap penalties (--end-gap-open/--end-gap-extend)";
    if (sc->tie == MNW_TIE_NEEDLE) return "needle's tie rule (--tie-rule needle)";
    if (sc->amb == MNW_AMB_EDNAFULL) return "EDNAFULL's ambiguity scores (--ambiguity ednafull)";
    return NULL;
}

const char *mnw_gpu_kernel_str(int kernel)
{
    return kernel >= 0 && kernel < (int)(sizeof kernel_names / sizeof *kernel_names) ? kernel_names[kernel] : NULL;
}

int mnw_gpu_kernel_parse(const char *s)
{
    if (!strcmp(s, "auto")) return MNW_GPU_KERNEL_AUTO;
    for (int k = 0; k < (int)(sizeof kernel_names / sizeof *kernel_names); k++)
        if (!strcmp(s, kernel_names[k])) return k;
    return -2;
}
