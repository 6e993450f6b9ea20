/* gpu_none.c - gpu.h in a build without CUDA (no nvcc when it was built):
 * no device is ever found, so the node dispatcher runs CPU workers only and
 * says why. mnw_gpu_open always fails; the batch functions are never
 * reached without an open device and abort if they are (a broken
 * invariant, not a silent no-op). */
#include "workers/gpu/gpu.h"

#include <stdio.h>
#include <stdlib.h>

static void unreachable(const char *f)
{
    fprintf(stderr, "mnw: %s:%d: %s called in a build without CUDA\n", __FILE__, __LINE__, f);
    abort();
}

const char *mnw_gpu_build(void) { return "built without CUDA"; }

int mnw_gpu_count(const char **why)
{
    if (why) *why = "mnw was built without CUDA (no nvcc at build time)";
    return 0;
}

int mnw_gpu_busid_of(int dev, char *buf, size_t n)
{
    (void)dev;
    if (n) buf[0] = 0;
    return -1;
}

mnw_gpu *mnw_gpu_open(int dev, const mnw_seqset *seqs, const mnw_scoring *sc, const mnw_gpu_opts *o, mnw_err *e)
{
    (void)seqs, (void)sc, (void)o;
    mnw_err_set(e, "GPU %d: mnw was built without CUDA", dev);
    return NULL;
}

void mnw_gpu_close(mnw_gpu *g)
{
    if (g) unreachable(__func__);
}
const char *mnw_gpu_describe(const mnw_gpu *g) { return (void)g, unreachable(__func__), ""; }
const char *mnw_gpu_busid(const mnw_gpu *g) { return (void)g, unreachable(__func__), ""; }
const char *mnw_gpu_kernel_name(const mnw_gpu *g) { return (void)g, unreachable(__func__), ""; }
mnw_gpu_batch *mnw_gpu_batch_get(mnw_gpu *g) { return (void)g, unreachable(__func__), NULL; }
int mnw_gpu_batch_add(mnw_gpu_batch *b, uint32_t i, uint32_t j) { return (void)b, (void)i, (void)j, unreachable(__func__), -1; }
int mnw_gpu_batch_count(const mnw_gpu_batch *b) { return (void)b, unreachable(__func__), 0; }
int mnw_gpu_can_launch(const mnw_gpu *g) { return (void)g, unreachable(__func__), 0; }
int mnw_gpu_launch(mnw_gpu *g, mnw_gpu_batch *b, mnw_err *e) { return (void)g, (void)b, (void)e, unreachable(__func__), -1; }
int mnw_gpu_poll(mnw_gpu *g, mnw_gpu_batch **done, mnw_err *e) { return (void)g, (void)done, (void)e, unreachable(__func__), -1; }
int mnw_gpu_inflight(const mnw_gpu *g) { return (void)g, unreachable(__func__), 0; }
void mnw_gpu_batch_aln(const mnw_gpu_batch *b, int x, mnw_aln *out) { (void)b, (void)x, (void)out, unreachable(__func__); }
void mnw_gpu_batch_put(mnw_gpu_batch *b) { (void)b, unreachable(__func__); }
void mnw_gpu_get_stats(const mnw_gpu *g, mnw_gpu_stats *st) { (void)g, (void)st, unreachable(__func__); }
int mnw_gpu_prunes(const mnw_gpu *g) { return (void)g, unreachable(__func__), 0; }
double mnw_gpu_prune_open_s(const mnw_gpu *g) { return (void)g, unreachable(__func__), 0.0; }
mnw_gpu_fbatch *mnw_gpu_fbatch_get(mnw_gpu *g) { return (void)g, unreachable(__func__), NULL; }
int mnw_gpu_fbatch_add(mnw_gpu_fbatch *f, uint32_t i, uint32_t j) { return (void)f, (void)i, (void)j, unreachable(__func__), 0; }
uint64_t mnw_gpu_fbatch_add_run(mnw_gpu_fbatch *f, uint64_t *i, uint64_t *j, uint64_t n) { return (void)f, (void)i, (void)j, (void)n, unreachable(__func__), 0; }
int mnw_gpu_fbatch_count(const mnw_gpu_fbatch *f) { return (void)f, unreachable(__func__), 0; }
int mnw_gpu_fbatch_can_launch(const mnw_gpu *g) { return (void)g, unreachable(__func__), 0; }
int mnw_gpu_fbatch_launch(mnw_gpu *g, mnw_gpu_fbatch *f, mnw_err *e) { return (void)g, (void)f, (void)e, unreachable(__func__), -1; }
int mnw_gpu_fbatch_poll(mnw_gpu *g, mnw_gpu_fbatch **done, mnw_err *e) { return (void)g, (void)done, (void)e, unreachable(__func__), -1; }
const uint8_t *mnw_gpu_fbatch_pruned(const mnw_gpu_fbatch *f) { return (void)f, unreachable(__func__), NULL; }
const mnw_gpu_pfig *mnw_gpu_fbatch_figs(const mnw_gpu_fbatch *f) { return (void)f, unreachable(__func__), NULL; }
void mnw_gpu_fbatch_put(mnw_gpu_fbatch *f) { (void)f, unreachable(__func__); }
