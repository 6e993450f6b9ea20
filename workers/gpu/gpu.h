/* gpu.h - the GPU aligner as the node dispatcher sees it (C API; CUDA stays
 * inside workers/gpu). One mnw_gpu per device: the sequence set copied to
 * the device once, two device slots (each a stream, a memory arena and its
 * events) so two batches are in flight, and a few host batches (pinned
 * buffers) that carry a batch's pairs in and its results out.
 *
 * A batch: mnw_gpu_batch_get, mnw_gpu_batch_add per pair, mnw_gpu_launch;
 * mnw_gpu_poll advances the device work (copies in, kernels, copies out)
 * and hands back finished batches; mnw_gpu_batch_aln gives pair x's
 * alignment (traced on the device, or on the host from the direction words
 * copied back: mnw_gpu_opts.traceback_device); mnw_gpu_batch_put returns
 * the batch. Results equal the CPU's byte for byte (docs/GPU.md).
 *
 * The filter of issue 39 (lib/prune.h, docs/PRUNE.md), when the device is
 * opened with a plan that is on (mnw_gpu_opts.prune): filter batches of
 * pairs (i, j), mnw_gpu_fbatch_get / _add / _launch / _poll / _put, decided
 * on the device on streams of their own (so filter batches run beside the
 * two alignment batches), each pair exactly as the CPU filter decides it
 * (workers/cpu/prune_cpu.h): the same figures, the same integer test.
 *
 * Built without CUDA (no nvcc), gpu_none.c provides the same API with no
 * devices: mnw_gpu_count returns 0 and says why.
 *
 * Ownership: mnw_gpu_open borrows the sequence set and scoring for the
 * device's lifetime; a batch is the device's, lent between get and put.
 * Thread-safety: one thread (the GPU dispatcher) calls everything but
 * mnw_gpu_batch_aln, mnw_gpu_batch_put and the batch accessors, which any
 * thread may call on a finished batch (each pair from one thread at a
 * time; put once, after the last use).
 */
#ifndef MNW_GPU_H
#define MNW_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "lib/aln.h"
#include "lib/prune.h"
#include "lib/score.h"
#include "lib/seq.h"
#include "lib/util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* AUTO's RScan limit (rows): measured per device when it opens
 * (mnw_gpu_opts.rscan_rows = MNW_GPU_RSCAN_MEASURE, the default; docs/GPU.md
 * "The choice"), or a fixed rule. MNW_GPU_RSCAN_ROWS is the rule from the
 * kernels' shapes (a DScan warp on a pair of <= 128 rows leaves >= 3 of 4
 * lanes idle), which the H100's measurement confirmed
 * (bench/results/gpu-affine-two-per-lane-h100-2026-11-25.md). */
#define MNW_GPU_RSCAN_ROWS 128
#define MNW_GPU_RSCAN_MEASURE (-1)

typedef struct mnw_gpu mnw_gpu;
typedef struct mnw_gpu_batch mnw_gpu_batch;

/* Kernels (docs/GPU.md); the numbers are gpu_kern_int.h's. */
enum {
    MNW_GPU_KERNEL_AUTO = -1, /* per pair by the rule below */
    MNW_GPU_KERNEL_RSCAN = 0, /* RScan-mNW: a thread per pair; any length */
    MNW_GPU_KERNEL_DSCAN = 1, /* DScan-mNW: a warp per pair, rows <= 512 (longer: TiledDScan) */
    MNW_GPU_KERNEL_TILED = 2  /* TiledDScan-mNW: a warp per pair, tiles of 512 rows; any length */
};
/* "rscan", "dscan", "tileddscan"; NULL for others */
const char *mnw_gpu_kernel_str(int kernel);
/* "auto", a kernel name: the id, or -2 for an unknown name */
int mnw_gpu_kernel_parse(const char *s);

typedef struct {
    int traceback_device; /* 1: trace on the device (runs come back); 0: direction words come back */
    double mem_frac;      /* share of the device's free memory for the two slots (0.75) */
    size_t host_bytes;    /* host trace-back: pinned bytes of direction words per batch */
    int max_pairs;        /* pairs per batch at most */
    int host_batches;     /* host batches (>= 2): finished ones wait for their finishers */
    int kernel;           /* MNW_GPU_KERNEL_*: AUTO, or the one to use where it can */
    int rscan_rows;       /* AUTO: pairs of at most this many rows go to RScan-mNW, the others
                             of at most 512 rows to DScan-mNW, longer ones to TiledDScan-mNW;
                             MNW_GPU_RSCAN_MEASURE: measured when the device opens (about 0.5 s
                             at most; mnw_gpu_kernel_name says what it found) */
    int score_only;       /* benchmarks only: no direction words, no trace-back; alignments
                             carry the score and no runs */
    int two_per_lane;     /* 1: DScan/TiledDScan pairs two per lane in 16-bit halves where
                             the bound allows (linear gaps; docs/GPU.md); 0: 32-bit lanes */
    int figures;          /* counts mode (issue 20): the trace-back counts each pair's figures
                             (pathfig.h, eq by the table eqt) and keeps no runs: on the device
                             only the figures come back; alignments carry has_fig */
    mnw_eqtab eqt;
    const mnw_prune_plan *prune; /* issue 39: the run's plan; on: the device filters (its q-gram tables
                                    are built at open). NULL or off: no filter. Borrowed for the
                                    device's lifetime */
    int prune_pairs;      /* pairs per filter batch at most (262144) */
    int prune_figs;       /* tests: every figure of every pair (mnw_gpu_fbatch_figs) */
} mnw_gpu_opts;

/* Defaults: device trace-back, 0.75, 1 GiB, 65536 pairs, 8 batches, AUTO
 * with the RScan limit measured, two per lane; no filter, 262144 pairs a
 * filter batch. */
void mnw_gpu_opts_default(mnw_gpu_opts *o);

/* "CUDA 13.0, sm_80 sm_90 + PTX" or "built without CUDA". */
const char *mnw_gpu_build(void);

/* NULL when the GPU kernels compute scoring sc, else what they lack (for
 * the log): terminal gap penalties apart from interior ones, mothur's and
 * vsearch's tie rule with affine gaps (issue 41's next steps). mnw_gpu_open
 * refuses such a scoring; a node leaves its GPUs idle (src/main.c). */
const char *mnw_gpu_scoring_unsupported(const mnw_scoring *sc);

/* Devices this process sees (CUDA_VISIBLE_DEVICES applies). 0 when there
 * are none, no driver, or no CUDA in the build: *why (may be NULL) then
 * says which. Never fails. */
int mnw_gpu_count(const char **why);

/* The PCI bus id of device dev ("0000:18:00.0") into buf before it is
 * opened (to place the thread that opens it, nld/topo.h). 0, or -1 when the
 * device cannot be asked. */
int mnw_gpu_busid_of(int dev, char *buf, size_t n);

/* Opens device dev (0 .. count-1): copies the sequences, allocates the
 * slots within o->mem_frac of free memory. NULL with e set on failure. */
mnw_gpu *mnw_gpu_open(int dev, const mnw_seqset *seqs, const mnw_scoring *sc, const mnw_gpu_opts *o, mnw_err *e) MNW_MUST_CHECK;
void mnw_gpu_close(mnw_gpu *g);

/* One line: "GPU 0: NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.2 GiB, bus 0000:18:00.0". */
const char *mnw_gpu_describe(const mnw_gpu *g);
/* The PCI bus id ("0000:18:00.0") for hwloc locality. */
const char *mnw_gpu_busid(const mnw_gpu *g);
/* The kernel choice, one line: "rscan for rows <= 128 (measured; rscan /
 * dscan time per cell at rows 32: 0.61, ...), dscan for rows <= 512,
 * tileddscan above (auto)" or "tileddscan (forced)". */
const char *mnw_gpu_kernel_name(const mnw_gpu *g);

/* A free host batch, or NULL while all are busy (launched, or lent to
 * finishers). */
mnw_gpu_batch *mnw_gpu_batch_get(mnw_gpu *g);
/* Adds pair (i, j) (rows: sequence i). 1: added as pair number
 * mnw_gpu_batch_count() - 1; 0: the batch is full (launch it and add the
 * pair to the next); -1: this device can never take the pair (an empty
 * sequence, or too large for its memory): align it elsewhere. */
int mnw_gpu_batch_add(mnw_gpu_batch *b, uint32_t i, uint32_t j);
int mnw_gpu_batch_count(const mnw_gpu_batch *b);
/* 1 when a device slot is free for mnw_gpu_launch. */
int mnw_gpu_can_launch(const mnw_gpu *g);
/* Enqueues the batch (copies in, kernels, copies out) on a free slot. 0, or
 * -1 with e set (a CUDA error). An empty batch completes at once. */
int mnw_gpu_launch(mnw_gpu *g, mnw_gpu_batch *b, mnw_err *e) MNW_MUST_CHECK;
/* Advances launched batches. 1 with *done = a finished batch (its results
 * readable), 0 when none finished, -1 with e set on a CUDA error. */
int mnw_gpu_poll(mnw_gpu *g, mnw_gpu_batch **done, mnw_err *e) MNW_MUST_CHECK;
/* Batches launched and not yet handed back by mnw_gpu_poll. */
int mnw_gpu_inflight(const mnw_gpu *g);

/* Pair x of a finished batch: its alignment into out (score and runs). */
void mnw_gpu_batch_aln(const mnw_gpu_batch *b, int x, mnw_aln *out);
/* Returns a finished batch to its device (any thread). */
void mnw_gpu_batch_put(mnw_gpu_batch *b);

/* ---- the filter (issue 39) ---- */

/* One pair's figures (opts.prune_figs): those of workers/cpu/prune_cpu.h's
 * mnw_prunec_fig with MNW_PRUNEC_FULL (both bands, no pre-test, the exact
 * ED); s0, s1 = INT32_MIN where not computed (a plan with the length bound
 * or without stage 1), sg, ed INT32_MIN and tau INT64_MIN without stage 2
 * (sg also with the M / L definitions' stage 2, which has no band). */
typedef struct {
    int32_t shared, amb, s0, s1;
    int64_t p0;
    int32_t pruned, pad_;
    int32_t sg, ed;
    int64_t tau;
} mnw_gpu_pfig;

typedef struct mnw_gpu_fbatch mnw_gpu_fbatch;

/* Filter batches on a device at once (each on a stream of its own, so
 * that one batch's stage 2, a few pairs' long threads where stage 1
 * pruned most, runs beside the next batch's stage 1), and the host
 * batches a device lends (one more: one fills while those run). */
#define MNW_GPU_FSLOTS 3
#define MNW_GPU_FBATCHES (MNW_GPU_FSLOTS + 1)

/* 1 when the device filters (opened with a plan that is on). */
int mnw_gpu_prunes(const mnw_gpu *g);
/* The seconds the filter's tables took at open (0 without a filter). */
double mnw_gpu_prune_open_s(const mnw_gpu *g);
/* A free filter batch (a device has MNW_GPU_FBATCHES: one filling while
 * the others run), or NULL while all are taken. Only on a device that
 * filters. */
mnw_gpu_fbatch *mnw_gpu_fbatch_get(mnw_gpu *g);
/* Adds pair (i, j) (rows: sequence i, as mnw_gpu_batch_add). 1: added as
 * number mnw_gpu_fbatch_count() - 1; 0: full. */
int mnw_gpu_fbatch_add(mnw_gpu_fbatch *f, uint32_t i, uint32_t j);
/* Adds up to n consecutive pairs in row order ((i, j), then (i, j + 1), ..
 * (i + 1, 0) after (i, i - 1)) from (*i, *j), as many as the batch has room
 * for; returns how many, and leaves (*i, *j) at the pair after the last one
 * added. One tight loop: the dispatcher's cost a pair (issue 39). */
uint64_t mnw_gpu_fbatch_add_run(mnw_gpu_fbatch *f, uint64_t *i, uint64_t *j, uint64_t n);
int mnw_gpu_fbatch_count(const mnw_gpu_fbatch *f);
/* 1 when a filter slot is free (fewer than MNW_GPU_FSLOTS batches run). */
int mnw_gpu_fbatch_can_launch(const mnw_gpu *g);
/* Enqueues the filter batch on a free filter slot's stream. 0, or -1 with
 * e set. An empty batch completes at once. */
int mnw_gpu_fbatch_launch(mnw_gpu *g, mnw_gpu_fbatch *f, mnw_err *e) MNW_MUST_CHECK;
/* 1 with *done = a finished filter batch (the batches in the order they
 * were launched), 0 when none finished, -1 with e set on a CUDA error.
 * Never blocks. */
int mnw_gpu_fbatch_poll(mnw_gpu *g, mnw_gpu_fbatch **done, mnw_err *e) MNW_MUST_CHECK;
/* A finished batch's decisions: [x] = 1 when pair x is pruned (every
 * optimal alignment is beyond the cutoff), 0 when it must be aligned. */
const uint8_t *mnw_gpu_fbatch_pruned(const mnw_gpu_fbatch *f);
/* Its figures (opts.prune_figs), else NULL. */
const mnw_gpu_pfig *mnw_gpu_fbatch_figs(const mnw_gpu_fbatch *f);
/* Returns a filter batch (filling or finished) to its device. */
void mnw_gpu_fbatch_put(mnw_gpu_fbatch *f);

/* Totals of a device so far: pairs, cells, seconds its slots were busy;
 * the filter's pairs decided, pruned, batches and busy seconds. */
typedef struct {
    uint64_t pairs, cells, batches;
    uint64_t kpairs[3]; /* pairs per kernel (MNW_GPU_KERNEL_RSCAN ..) */
    uint64_t pairs2;    /* of those, pairs computed two per lane (16-bit halves) */
    double busy_s;
    uint64_t fpairs, fpruned, fbatches; /* the filter */
    uint64_t fpruned2;                  /* of the pruned, those stage 2 (the edit-distance bound) pruned */
    double fbusy_s;
} mnw_gpu_stats;
void mnw_gpu_get_stats(const mnw_gpu *g, mnw_gpu_stats *st);

#ifdef __cplusplus
}
#endif

#endif
