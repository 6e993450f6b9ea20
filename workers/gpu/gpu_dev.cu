/* gpu_dev.cu - the host side of the GPU aligner: devices, slots, batches,
 * copies and results (gpu.h). Kernels are gpu_kernels.cu's.
 *
 * Device memory per slot: a fixed part (the batch's pair table, end cells
 * and the trace-back header, for max_pairs pairs) and a variable region
 * where each pair gets its direction words, boundary rows and (device
 * trace-back) its run slot, followed by the packed runs of the whole batch.
 * mnw_gpu_batch_add refuses a pair when the region would overflow (0: the
 * batch is full; -1: the pair alone does not fit).
 *
 * Kernels: each pair gets one when it is added (kind_of: the rule of
 * gpu.h, or the one forced where it can take the pair); at launch the
 * batch's pairs are listed kernel by kernel (idx) and each kernel runs on
 * its list.
 *
 * A launched batch, on its slot's stream: pair table and lists in; the
 * matrix kernels; then
 *   device trace-back: the trace kernel, end cells and header out (event
 *     1); when event 1 has fired, the header says how many runs there are
 *     and only those are copied out (event 2);
 *   host trace-back: end cells and the variable region (direction words)
 *     out (event 2).
 * mnw_gpu_poll only queries events (never blocks), so the dispatcher
 * thread keeps every device and slot going.
 *
 * The filter (issue 39, gpu_prune_int.cuh): with a plan that is on, the
 * open builds each sequence's q-gram runs and ambiguity count (and stage
 * 2's tables with a plan that has it; gpu_ptab.c, on the host by up to 16
 * threads, then one copy) before the slots take their share of free
 * memory; MNW_GPU_FBATCHES host filter
 * batches (pinned) take turns on MNW_GPU_FSLOTS device filter slots, each
 * with its own stream and event, so filter batches run beside the
 * alignment batches and beside each other.
 *
 * Errors: every CUDA call goes through CK (file:line, the call, CUDA's
 * message, the device); the caller stops the run with a non-zero exit.
 * Thread-safety: see gpu.h. A batch's state is handed between the
 * dispatcher and finisher threads with atomic loads and stores.
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern "C" {
#include "lib/prune_ed.h"
#include "lib/seq.h"
#include "workers/gpu/gpu.h"
#include "workers/gpu/gpu_ptab.h"
}
#include "workers/gpu/gpu_launch_int.h"

static_assert((int)MNW_GPU_KERNEL_RSCAN == (int)MNW_GPU_K_RSCAN && (int)MNW_GPU_KERNEL_DSCAN == (int)MNW_GPU_K_DSCAN &&
                  (int)MNW_GPU_KERNEL_TILED == (int)MNW_GPU_K_TILED,
              "gpu.h and gpu_kern_int.h number the kernels alike");

enum { B_FREE = 0, B_FILLING, B_LAUNCHED, B_DONE };

struct mnw_gpu_batch {
    mnw_gpu *g;
    int state; /* B_*, atomic */
    int np, cap;
    mnw_gpu_kpair *h_pairs; /* pinned */
    mnw_gpu_kend *h_ends;   /* pinned */
    uint32_t *h_idx;        /* pinned: the pairs kernel by kernel (DSCAN2, TILED2: units of two) */
    int kn[MNW_GPU_K_N];    /* pairs per kernel */
    uint32_t *h_hdr;        /* pinned: total, nruns[cap], off[cap] */
    uint32_t *h_packed;     /* pinned, grows */
    size_t packed_cap;      /* words */
    uint8_t *h_var;         /* pinned (host trace-back): the variable region */
    size_t h_var_cap;
    uint32_t *pi, *pj;      /* the pairs (i, j) */
    uint64_t var_used;      /* bytes of per-pair areas */
    uint64_t packed_words;  /* room for the packed runs (sum of m + n), or in counts mode the figures (MNW_GPU_FIG_WORDS a pair) */
    uint64_t cells;
};

/* A filter batch (issue 39): pairs in, decisions (and figures) out. */
struct mnw_gpu_fbatch {
    mnw_gpu *g;
    int busy; /* lent (filling, launched or finished, until put) */
    int np, cap;
    uint2 *h_pairs;      /* pinned */
    uint8_t *h_out;      /* pinned */
    mnw_gpu_pfig *h_figs; /* pinned (prune_figs) */
};

struct slot {
    cudaStream_t st;
    cudaEvent_t ev_hdr, ev_done;
    uint8_t *arena;
    mnw_gpu_kpair *d_pairs;
    uint32_t *d_idx;
    mnw_gpu_kend *d_ends;
    uint32_t *d_hdr;
    uint8_t *d_var;
    size_t var_cap;
    mnw_gpu_batch *b; /* launched batch or NULL */
    int phase;        /* 0 idle, 1 waiting for the header, 2 waiting for the results */
};

/* A device filter slot: its stream, event and buffers; a batch on it. */
typedef struct {
    cudaStream_t st;
    cudaEvent_t ev;
    uint2 *d_pairs;
    uint8_t *d_out;
    mnw_gpu_kpfig *d_figs;
    uint32_t *d_list, *d_list2, *d_list3, *d_cnt; /* stage 2's lists and their counters */
    int32_t *d_tau;
    mnw_gpu_fbatch *run; /* the batch on it, or NULL */
    uint64_t seq;        /* its launch number */
} fslot;

struct mnw_gpu {
    int dev;
    mnw_gpu_opts o;
    const mnw_seqset *seqs;
    mnw_gpu_kscore ks;
    int pack2;         /* two pairs per lane where kind_of allows (o.two_per_lane and fits16) */
    uint8_t *d_codes;
    slot sl[2];
    mnw_gpu_batch *hb;
    int nhb;
    char desc[400], busid[32], kdesc[400];
    char calib[200]; /* the measured ratios (calibrate) */
    int sms;
    mnw_gpu_stats stats;
    double busy_since; /* > 0 while a batch is in flight */
    int inflight;
    /* the filter (issue 39): tables, its stream and the batch on it */
    int prune;
    mnw_gpu_kprune kp;
    mnw_gpu_pseq *d_pseq;
    uint32_t *d_runs;
    uint64_t *d_guides; /* stage 2: each sequence's unique words and windows (gpu_prune_ed_int.cuh) */
    uint32_t *d_peqs;   /* stage 2: each sequence's ED pattern rows */
    fslot fs[MNW_GPU_FSLOTS];
    mnw_gpu_fbatch fb[MNW_GPU_FBATCHES];
    int fnrun;       /* filter batches on the device */
    uint64_t flaunches; /* filter batches launched (their order) */
    double fsince, prune_open_s; /* fsince: since fnrun last rose from 0 */
};

/* CHECK_CUDA(err, dev, call): a CUDA call that failed sets the mnw_err
 * `err` to "file:line: call: CUDA's message (GPU dev)" and returns -1 from
 * the calling function. Every argument is named: nothing is taken from the
 * caller's scope. */
#define CHECK_CUDA(err, dev, call)                                                                                     \
    do {                                                                                                               \
        cudaError_t rc_ = (call);                                                                                      \
        if (rc_ != cudaSuccess) {                                                                                      \
            mnw_err_set((err), "%s:%d: %s: %s (GPU %d)", __FILE__, __LINE__, #call, cudaGetErrorString(rc_), (dev));    \
            return -1;                                                                                                 \
        }                                                                                                              \
    } while (0)

static uint64_t al256(uint64_t x) { return (x + 255) & ~(uint64_t)255; }
static double now_s(void);
static int calibrate(mnw_gpu *g, mnw_err *e);

/* The two-per-lane kernels' bound (gpu_pack2_int.cuh, docs/GPU.md): a lane's
 * values stay within 4 (T + 48 L) + 2 of its base, which must fit a signed
 * 16-bit half. Linear gaps: L = max(match, 0) + 2 g, T = 0; affine: L =
 * max(match, 0) + o + 2 ge, T = 3 o + max(match, 0) + 2 ge + 2 with o =
 * open - extend. And the profile's S = 4 (s + 2 g) + 1 must fit. */
static int fits16(const mnw_gpu_kscore *k)
{
    const long sp = k->match > 0 ? k->match : 0, g = k->affine ? k->ge : k->go;
    const long o = k->affine ? (long)k->go - k->ge : 0;
    const long L = sp + o + 2 * g, T = k->affine ? 3 * o + sp + 2 * g + 2 : 0;
    return o >= 0 && 4 * (T + 48 * L) + 2 <= 32767 && 4 * (k->mismatch + 2 * g) + 1 >= -32768;
}

extern "C" const char *mnw_gpu_build(void)
{
    static char s[96];
    if (!s[0])
        snprintf(s, sizeof s, "CUDA %d.%d, sm_80 sm_90 + PTX", CUDART_VERSION / 1000, (CUDART_VERSION % 1000) / 10);
    return s;
}

extern "C" int mnw_gpu_count(const char **why)
{
    int n = 0;
    cudaError_t rc = cudaGetDeviceCount(&n);
    if (rc != cudaSuccess) {
        if (why) *why = cudaGetErrorString(rc);
        (void)cudaGetLastError();
        return 0;
    }
    if (n == 0 && why) *why = "no CUDA device";
    return n;
}

static void fixed_bytes(int maxp, uint64_t *o_idx, uint64_t *o_ends, uint64_t *o_hdr, uint64_t *o_var)
{
    *o_idx = al256((uint64_t)maxp * sizeof(mnw_gpu_kpair));
    *o_ends = *o_idx + al256(2 * (uint64_t)maxp * sizeof(uint32_t)); /* units take up to 2 entries a pair */
    *o_hdr = *o_ends + al256((uint64_t)maxp * sizeof(mnw_gpu_kend));
    *o_var = *o_hdr + al256((1 + 2 * (uint64_t)maxp) * sizeof(uint32_t));
}

static_assert(MNW_PRUNE_W == 4 && MNW_PRUNE_Q == 8, "gpu_prune_int.cuh's band (9 diagonals) and 16-bit words");
static_assert(MNW_PED_K == 12 && MNW_PED_STRIDE == 4 && MNW_PED_WL == 16 && MNW_PED_BAND == 32 && MNW_MAX_SEQ_LEN == 10000,
              "gpu_prune_ed_int.cuh's constants are lib/prune_ed.h's");
static_assert(sizeof(mnw_gpu_pfig) == sizeof(mnw_gpu_kpfig) && offsetof(mnw_gpu_pfig, p0) == offsetof(mnw_gpu_kpfig, p0) &&
                  offsetof(mnw_gpu_pfig, pruned) == offsetof(mnw_gpu_kpfig, pruned),
              "gpu.h's figures are the kernel's");

/* The filter's tables (issue 39, gpu_ptab.h: built on the host by up to 16
 * threads, then copied once), the filter slots, and a first launch of
 * stage 2's kernels (the driver reserves their local memory then). */
static int prune_tables(mnw_gpu *g, mnw_err *e)
{
    const double t0 = now_s();
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    if (nc < 1) nc = 1;
    if (nc > 16) nc = 16;
    mnw_gpu_ptab t;
    if (mnw_gpu_ptab_build(g->seqs, g->kp.ed, (int)nc, g->dev, &t, e)) {
        mnw_gpu_ptab_free(&t);
        return -1;
    }
    const size_t n = g->seqs->n;
    cudaError_t rc = cudaMalloc((void **)&g->d_pseq, (n ? n : 1) * sizeof *t.ps);
    if (rc == cudaSuccess) rc = cudaMalloc((void **)&g->d_runs, (t.nruns ? t.nruns : 1) * sizeof *t.runs);
    if (rc == cudaSuccess && n) rc = cudaMemcpy(g->d_pseq, t.ps, n * sizeof *t.ps, cudaMemcpyHostToDevice);
    if (rc == cudaSuccess && t.nruns)
        rc = cudaMemcpy(g->d_runs, t.runs, t.nruns * sizeof *t.runs, cudaMemcpyHostToDevice);
    if (rc == cudaSuccess && g->kp.ed) {
        rc = cudaMalloc((void **)&g->d_guides, (t.nguides ? t.nguides : 1) * sizeof *t.guides);
        if (rc == cudaSuccess) rc = cudaMalloc((void **)&g->d_peqs, (t.npeqs ? t.npeqs : 1) * sizeof *t.peqs);
        if (rc == cudaSuccess && t.nguides)
            rc = cudaMemcpy(g->d_guides, t.guides, t.nguides * sizeof *t.guides, cudaMemcpyHostToDevice);
        if (rc == cudaSuccess && t.npeqs)
            rc = cudaMemcpy(g->d_peqs, t.peqs, t.npeqs * sizeof *t.peqs, cudaMemcpyHostToDevice);
    }
    mnw_gpu_ptab_free(&t);
    CHECK_CUDA(e, g->dev, rc);
    const int cap2 = g->o.prune_pairs;
    const cudaError_t prc = mnw_gpu_filter_prefs(); /* a hint: a refusal is said, not fatal */
    if (prc != cudaSuccess) {
        (void)cudaGetLastError();
        size_t l = strlen(g->desc);
        snprintf(g->desc + l, sizeof g->desc - l,
                 "; %s:%d: the filter kernels' preferred L1/shared split was refused (%s): the driver's choice, "
                 "slower beside the alignments (docs/GPU.md)",
                 __FILE__, __LINE__, cudaGetErrorString(prc));
    }
    for (int k = 0; k < MNW_GPU_FSLOTS; k++) {
        fslot *S = &g->fs[k];
        CHECK_CUDA(e, g->dev, cudaStreamCreateWithFlags(&S->st, cudaStreamNonBlocking));
        CHECK_CUDA(e, g->dev, cudaEventCreateWithFlags(&S->ev, cudaEventDisableTiming));
        CHECK_CUDA(e, g->dev, cudaMalloc((void **)&S->d_pairs, (size_t)cap2 * sizeof(uint2)));
        CHECK_CUDA(e, g->dev, cudaMalloc((void **)&S->d_out, (size_t)cap2));
        if (g->o.prune_figs) CHECK_CUDA(e, g->dev, cudaMalloc((void **)&S->d_figs, (size_t)cap2 * sizeof(mnw_gpu_kpfig)));
        if (!g->kp.ed) continue;
        CHECK_CUDA(e, g->dev, cudaMalloc((void **)&S->d_list, (size_t)cap2 * sizeof *S->d_list));
        CHECK_CUDA(e, g->dev, cudaMalloc((void **)&S->d_list2, (size_t)cap2 * sizeof *S->d_list2));
        CHECK_CUDA(e, g->dev, cudaMalloc((void **)&S->d_tau, (size_t)cap2 * sizeof *S->d_tau));
        CHECK_CUDA(e, g->dev, cudaMalloc((void **)&S->d_list3, (size_t)cap2 * sizeof *S->d_list3));
        CHECK_CUDA(e, g->dev, cudaMalloc((void **)&S->d_cnt, 4 * sizeof *S->d_cnt));
        /* the driver reserves stage 2's local memory now, before the batches take theirs */
        for (int full = 0; full < 1 + (S->d_figs != NULL); full++)
            mnw_gpu_run_prune_ed(S->st, S->d_pairs, 0, 1, g->d_pseq, g->d_guides, g->d_peqs, g->d_codes, &g->kp,
                                 S->d_out, full ? S->d_figs : NULL, S->d_list, S->d_list2, S->d_list3, S->d_tau,
                                 S->d_cnt);
        CHECK_CUDA(e, g->dev, cudaGetLastError());
        CHECK_CUDA(e, g->dev, cudaStreamSynchronize(S->st));
    }
    for (int k = 0; k < MNW_GPU_FBATCHES; k++) {
        mnw_gpu_fbatch *f = &g->fb[k];
        f->g = g;
        f->cap = cap2;
        CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&f->h_pairs, (size_t)cap2 * sizeof *f->h_pairs));
        CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&f->h_out, (size_t)cap2));
        if (g->o.prune_figs) CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&f->h_figs, (size_t)cap2 * sizeof *f->h_figs));
    }
    g->prune_open_s = now_s() - t0;
    return 0;
}

int mnw_gpu_busid_of(int dev, char *buf, size_t n)
{
    cudaDeviceProp pr;
    if (cudaGetDeviceProperties(&pr, dev) != cudaSuccess) return -1;
    snprintf(buf, n, "%04x:%02x:%02x.0", pr.pciDomainID, pr.pciBusID, pr.pciDeviceID);
    return 0;
}

static int open_dev(mnw_gpu *g, mnw_err *e)
{
    CHECK_CUDA(e, g->dev, cudaSetDevice(g->dev));
    cudaDeviceProp pr;
    CHECK_CUDA(e, g->dev, cudaGetDeviceProperties(&pr, g->dev));
    (void)mnw_gpu_busid_of(g->dev, g->busid, sizeof g->busid); /* the same call just succeeded */
    g->sms = pr.multiProcessorCount;
    snprintf(g->desc, sizeof g->desc, "GPU %d: %s, sm_%d%d, %d SMs, %.1f GiB, bus %s", g->dev, pr.name, pr.major,
             pr.minor, pr.multiProcessorCount, (double)pr.totalGlobalMem / (1 << 30), g->busid);
    size_t total = g->seqs->off[g->seqs->n];
    CHECK_CUDA(e, g->dev, cudaMalloc((void **)&g->d_codes, total + 16)); /* RScan reads up to 8 bytes past a sequence */
    CHECK_CUDA(e, g->dev, cudaMemset(g->d_codes, 4, total + 16));
    if (total) CHECK_CUDA(e, g->dev, cudaMemcpy(g->d_codes, g->seqs->codes, total, cudaMemcpyHostToDevice));
    if (g->prune && prune_tables(g, e)) return -1;

    size_t fr = 0, tot = 0;
    CHECK_CUDA(e, g->dev, cudaMemGetInfo(&fr, &tot));
    uint64_t o_idx, o_ends, o_hdr, o_var;
    fixed_bytes(g->o.max_pairs, &o_idx, &o_ends, &o_hdr, &o_var);
    uint64_t per = (uint64_t)((double)fr * g->o.mem_frac / 2) & ~(uint64_t)255;
    if (per < o_var + ((uint64_t)64 << 20)) {
        mnw_err_set(e, "GPU %d: %.0f MiB free, too little for two batches", g->dev, (double)fr / (1 << 20));
        return -1;
    }
    /* the two batch arenas: what was free a moment ago may be taken by
     * another process on this GPU (several ranks of one host start at once
     * and each sizes its arenas from the same free memory): on "out of
     * memory" both are tried again at half the size, down to the least two
     * batches need */
    const uint64_t want = per;
    for (;;) {
        cudaError_t a = cudaMalloc((void **)&g->sl[0].arena, per);
        cudaError_t b = a == cudaSuccess ? cudaMalloc((void **)&g->sl[1].arena, per) : a;
        if (b == cudaSuccess) break;
        if (a == cudaSuccess) CHECK_CUDA(e, g->dev, cudaFree(g->sl[0].arena));
        g->sl[0].arena = g->sl[1].arena = NULL;
        CHECK_CUDA(e, g->dev, b == cudaErrorMemoryAllocation ? cudaSuccess : b);
        (void)cudaGetLastError(); /* clear the allocation error: it is not sticky */
        per = (per / 2) & ~(uint64_t)255;
        if (per < o_var + ((uint64_t)64 << 20)) {
            CHECK_CUDA(e, g->dev, cudaMemGetInfo(&fr, &tot));
            mnw_err_set(e, "GPU %d: %.0f MiB free now (another process took the rest), too little for two batches",
                        g->dev, (double)fr / (1 << 20));
            return -1;
        }
    }
    if (per < want) {
        size_t l = strlen(g->desc);
        snprintf(g->desc + l, sizeof g->desc - l, "; batch memory 2 x %.0f MiB, not %.0f: another process on this "
                 "GPU holds the rest", (double)per / (1 << 20), (double)want / (1 << 20));
    }
    for (int s = 0; s < 2; s++) {
        slot *sl = &g->sl[s];
        CHECK_CUDA(e, g->dev, cudaStreamCreateWithFlags(&sl->st, cudaStreamNonBlocking));
        CHECK_CUDA(e, g->dev, cudaEventCreateWithFlags(&sl->ev_hdr, cudaEventDisableTiming));
        CHECK_CUDA(e, g->dev, cudaEventCreateWithFlags(&sl->ev_done, cudaEventDisableTiming));
        sl->d_pairs = (mnw_gpu_kpair *)sl->arena;
        sl->d_idx = (uint32_t *)(sl->arena + o_idx);
        sl->d_ends = (mnw_gpu_kend *)(sl->arena + o_ends);
        sl->d_hdr = (uint32_t *)(sl->arena + o_hdr);
        sl->d_var = sl->arena + o_var;
        sl->var_cap = per - o_var;
    }
    g->nhb = g->o.host_batches < 2 ? 2 : g->o.host_batches;
    g->hb = (mnw_gpu_batch *)mnw_xcalloc((size_t)g->nhb, sizeof *g->hb);
    for (int k = 0; k < g->nhb; k++) {
        mnw_gpu_batch *b = &g->hb[k];
        int cap = g->o.max_pairs;
        b->g = g;
        b->cap = cap;
        CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&b->h_pairs, (size_t)cap * sizeof *b->h_pairs));
        CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&b->h_ends, (size_t)cap * sizeof *b->h_ends));
        CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&b->h_idx, 2 * (size_t)cap * sizeof *b->h_idx));
        CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&b->h_hdr, (1 + 2 * (size_t)cap) * sizeof *b->h_hdr));
        if (!g->o.traceback_device) { /* (score-only runs set traceback_device) */
            b->h_var_cap = g->o.host_bytes < g->sl[0].var_cap ? g->o.host_bytes : g->sl[0].var_cap;
            CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&b->h_var, b->h_var_cap));
        }
        b->pi = (uint32_t *)mnw_xmalloc((size_t)cap * sizeof *b->pi);
        b->pj = (uint32_t *)mnw_xmalloc((size_t)cap * sizeof *b->pj);
    }
    return 0;
}

extern "C" mnw_gpu *mnw_gpu_open(int dev, const mnw_seqset *seqs, const mnw_scoring *sc, const mnw_gpu_opts *o,
                                 mnw_err *e)
{
    const char *lack = mnw_gpu_scoring_unsupported(sc);
    if (lack) {
        mnw_err_set(e, "GPU %d: %s: the GPU kernels do not have it yet", dev, lack);
        return NULL;
    }
    mnw_gpu *g = (mnw_gpu *)mnw_xcalloc(1, sizeof *g);
    g->dev = dev;
    g->o = *o;
    if (g->o.max_pairs < 1) g->o.max_pairs = 1;
    g->seqs = seqs;
    g->ks.match = sc->match;
    g->ks.mismatch = sc->mismatch;
    g->ks.go = sc->gap_open;
    g->ks.ge = sc->gap_extend;
    g->ks.affine = mnw_scoring_affine(sc);
    g->ks.free_ends = sc->free_ends;
    /* mothur's (and vsearch's) tie rule, D before I: linear kernels keep
     * the tag T = 1 - tie, affine ones swap the tags of E^ and F^
     * (gpu_kern_int.h) */
    g->ks.tie = sc->tie == MNW_TIE_MOTHUR ? 1 : 0;
    const int lin_tie = g->ks.tie && !g->ks.affine;
    g->ks.mask2 = 0xfffcfffcu;
    g->ks.one2 = lin_tie ? 0u : 0x00010001u; /* H^'s tag: T (linear), 1 (affine) */
    g->ks.lt2 = lin_tie ? 0x00010001u : 0xffffffffu;
    g->ks.ambn = sc->amb == MNW_AMB_MOTHUR;
    if (g->o.score_only) g->o.traceback_device = 1; /* nothing to copy back but the ends */
    g->pack2 = g->o.two_per_lane && fits16(&g->ks);
    if (g->o.prune && g->o.prune->on) {
        const mnw_prune_plan *p = g->o.prune;
        g->prune = 1;
        if (g->o.prune_pairs < 1) g->o.prune_pairs = 1;
        g->kp.W = p->W;
        g->kp.Kp = p->Kp;
        g->kp.Kl = p->Kl;
        g->kp.Dn = p->Dn;
        g->kp.Dd = p->Dd;
        g->kp.q = p->q;
        g->kp.use_len = p->use_len;
        g->kp.use_score = p->use_score;
        g->kp.free_ends = p->free_ends;
        g->kp.ms = sc->match;
        g->kp.mm = sc->mismatch;
        g->kp.ge = p->ge;
        g->kp.band_gap = p->band_gap;
        g->kp.qgram = p->qgram;
        g->kp.ed = p->ed;
        g->kp.ed_len = p->ed_len;
        g->kp.ed_cg = p->ed_cg;
        g->kp.ed_alpha = p->ed_alpha;
        g->kp.ed_gamma = p->ed_gamma;
    }
    const int measure = g->o.kernel == MNW_GPU_KERNEL_AUTO && g->o.rscan_rows < 0;
    if (open_dev(g, e) || (measure && calibrate(g, e))) {
        mnw_gpu_close(g);
        return NULL;
    }
    if (measure)
        snprintf(g->kdesc, sizeof g->kdesc,
                 "rscan for rows <= %d (measured; rscan / dscan time per cell at rows %s), dscan for rows <= %d, "
                 "tileddscan above (auto)",
                 g->o.rscan_rows, g->calib, MNW_GPU_DSCAN_ROWS);
    else if (g->o.kernel == MNW_GPU_KERNEL_AUTO)
        snprintf(g->kdesc, sizeof g->kdesc, "rscan for rows <= %d, dscan for rows <= %d, tileddscan above (auto)",
                 g->o.rscan_rows, MNW_GPU_DSCAN_ROWS);
    else if (g->o.kernel == MNW_GPU_KERNEL_DSCAN)
        snprintf(g->kdesc, sizeof g->kdesc, "dscan, tileddscan for rows > %d (forced)", MNW_GPU_DSCAN_ROWS);
    else
        snprintf(g->kdesc, sizeof g->kdesc, "%s (forced)", mnw_gpu_kernel_str(g->o.kernel));
    if (g->pack2) {
        size_t l = strlen(g->kdesc);
        snprintf(g->kdesc + l, sizeof g->kdesc - l, "; DScan/TiledDScan pairs two per lane");
    }
    return g;
}

extern "C" void mnw_gpu_close(mnw_gpu *g)
{
    if (!g) return;
    if (cudaSetDevice(g->dev) == cudaSuccess) {
        for (int s = 0; s < 2; s++) {
            slot *sl = &g->sl[s];
            if (sl->st) (void)cudaStreamSynchronize(sl->st);
            if (sl->arena) (void)cudaFree(sl->arena);
            if (sl->ev_hdr) (void)cudaEventDestroy(sl->ev_hdr);
            if (sl->ev_done) (void)cudaEventDestroy(sl->ev_done);
            if (sl->st) (void)cudaStreamDestroy(sl->st);
        }
        for (int k = 0; k < g->nhb; k++) {
            mnw_gpu_batch *b = &g->hb[k];
            if (b->h_pairs) (void)cudaFreeHost(b->h_pairs);
            if (b->h_ends) (void)cudaFreeHost(b->h_ends);
            if (b->h_idx) (void)cudaFreeHost(b->h_idx);
            if (b->h_hdr) (void)cudaFreeHost(b->h_hdr);
            if (b->h_packed) (void)cudaFreeHost(b->h_packed);
            if (b->h_var) (void)cudaFreeHost(b->h_var);
            free(b->pi);
            free(b->pj);
        }
        if (g->d_codes) (void)cudaFree(g->d_codes);
        for (int k = 0; k < MNW_GPU_FSLOTS; k++)
            if (g->fs[k].st) (void)cudaStreamSynchronize(g->fs[k].st);
        if (g->d_pseq) (void)cudaFree(g->d_pseq);
        if (g->d_runs) (void)cudaFree(g->d_runs);
        if (g->d_guides) (void)cudaFree(g->d_guides);
        if (g->d_peqs) (void)cudaFree(g->d_peqs);
        for (int k = 0; k < MNW_GPU_FSLOTS; k++) {
            fslot *S = &g->fs[k];
            if (S->d_list) (void)cudaFree(S->d_list);
            if (S->d_list2) (void)cudaFree(S->d_list2);
            if (S->d_list3) (void)cudaFree(S->d_list3);
            if (S->d_tau) (void)cudaFree(S->d_tau);
            if (S->d_cnt) (void)cudaFree(S->d_cnt);
            if (S->d_pairs) (void)cudaFree(S->d_pairs);
            if (S->d_out) (void)cudaFree(S->d_out);
            if (S->d_figs) (void)cudaFree(S->d_figs);
            if (S->ev) (void)cudaEventDestroy(S->ev);
            if (S->st) (void)cudaStreamDestroy(S->st);
        }
        for (int k = 0; k < MNW_GPU_FBATCHES; k++) {
            if (g->fb[k].h_pairs) (void)cudaFreeHost(g->fb[k].h_pairs);
            if (g->fb[k].h_out) (void)cudaFreeHost(g->fb[k].h_out);
            if (g->fb[k].h_figs) (void)cudaFreeHost(g->fb[k].h_figs);
        }
    }
    (void)cudaGetLastError();
    free(g->hb);
    free(g);
}

extern "C" const char *mnw_gpu_describe(const mnw_gpu *g) { return g->desc; }
extern "C" const char *mnw_gpu_busid(const mnw_gpu *g) { return g->busid; }
extern "C" const char *mnw_gpu_kernel_name(const mnw_gpu *g) { return g->kdesc; }

/* The kernel of an m-row pair: the forced one where it can take it, else
 * the rule (gpu.h) */
static int kind_of_rows(const mnw_gpu *g, int m)
{
    int k = g->o.kernel;
    if (k == MNW_GPU_KERNEL_AUTO) k = m <= g->o.rscan_rows ? MNW_GPU_K_RSCAN : MNW_GPU_K_DSCAN;
    if (k == MNW_GPU_K_DSCAN && m > MNW_GPU_DSCAN_ROWS) k = MNW_GPU_K_TILED;
    return k;
}

/* The kernel of an m x n pair: DSCAN2/TILED2 (two per lane, computed
 * transposed: n kernel rows) where the rule gives DScan or TiledDScan both
 * ways round and the 16-bit bound holds (g->pack2), else kind_of_rows(m). */
static int kind_of(const mnw_gpu *g, int m, int n)
{
    int k = kind_of_rows(g, m);
    if (g->pack2 && k != MNW_GPU_K_RSCAN) {
        int kt = kind_of_rows(g, n);
        if (kt != MNW_GPU_K_RSCAN) return kt + 2;
    }
    return k;
}


extern "C" mnw_gpu_batch *mnw_gpu_batch_get(mnw_gpu *g)
{
    for (int k = 0; k < g->nhb; k++) {
        mnw_gpu_batch *b = &g->hb[k];
        if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) == B_FREE) {
            b->state = B_FILLING;
            b->np = 0;
            b->var_used = 0;
            b->packed_words = 0;
            b->cells = 0;
            memset(b->kn, 0, sizeof b->kn);
            return b;
        }
    }
    return NULL;
}

/* batch_add with the pair's rows and columns (m, n: the lengths, or
 * prefixes of them) and its kernel given (calibrate: forced kernels) */
static int add_kind(mnw_gpu_batch *b, uint32_t i, uint32_t j, int m, int n, int kind)
{
    const mnw_gpu *g = b->g;
    const mnw_seqset *S = g->seqs;
    const int aff = g->ks.affine, dev_tb = g->o.traceback_device && !g->o.score_only;
    uint64_t dir = g->o.score_only ? 0 : mnw_gpu_dir_bytes(m, n, aff, kind);
    uint64_t bnd = al256(mnw_gpu_bnd_ints(m, n, aff, kind) * 4);
    /* device trace-back: a run slot and room for the runs in the packed
     * buffer, or in counts mode the figures only */
    const uint64_t pkw = !dev_tb ? 0 : g->o.figures ? MNW_GPU_FIG_WORDS : (uint64_t)m + n;
    uint64_t runs = dev_tb && !g->o.figures ? al256(((uint64_t)m + n) * 4) : 0;
    uint64_t need = dir + bnd + runs;
    uint64_t cap = g->sl[0].var_cap;
    if (!g->o.traceback_device && b->h_var_cap < cap) cap = b->h_var_cap;
    uint64_t pk = pkw * 4;
    if (need + pk > cap) return -1;
    if (b->np == b->cap || b->var_used + need + (b->packed_words * 4 + pk) > cap) return 0;
    mnw_gpu_kpair *P = &b->h_pairs[b->np];
    P->a = S->off[i];
    P->b = S->off[j];
    P->m = m;
    P->n = n;
    P->dir = b->var_used;
    P->bnd = b->var_used + dir;
    P->runs = b->var_used + dir + bnd;
    P->kind = kind;
    P->pad_ = 0;
    b->kn[kind]++;
    b->var_used += need;
    b->packed_words += pkw;
    b->cells += (uint64_t)m * n;
    b->pi[b->np] = i;
    b->pj[b->np] = j;
    b->np++;
    return 1;
}

extern "C" int mnw_gpu_batch_add(mnw_gpu_batch *b, uint32_t i, uint32_t j)
{
    const mnw_seqset *S = b->g->seqs;
    int m = (int)mnw_seq_len(S, i), n = (int)mnw_seq_len(S, j);
    if (m < 1 || n < 1) return -1;
    return add_kind(b, i, j, m, n, kind_of(b->g, m, n));
}

extern "C" int mnw_gpu_batch_count(const mnw_gpu_batch *b) { return b->np; }

/* AUTO's RScan limit, measured on this device at open (docs/GPU.md, "The
 * choice"; the seed paper chooses per device): pairs of L x L bases
 * (prefixes of the run's own sequences) through RScan-mNW and through
 * DScan-mNW (two per lane where the run would use it), with the run's
 * scoring and trace-back, each timed from launch to results, best of two,
 * per cell; the limit is the largest L up to which RScan was faster at
 * every L measured (0: DScan from the first). It stops at the first L where
 * DScan is as fast, where fewer than three sequences are that long, or
 * after CALIB_S seconds (the emulated GPU of the tests is slow). The pairs
 * per launch: 512 per SM (RScan's threads fill the GPU), as many as a batch
 * takes. */
static const int calib_len[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512};
#define CALIB_S 0.5

/* One timed launch of P pairs of kind at L x L: seconds per cell in *spc.
 * ids: nids (>= 3) sequences of at least L bases. */
static int calib_once(mnw_gpu *g, int kind, int L, const uint32_t *ids, int nids, int P, double *spc, mnw_err *e)
{
    mnw_gpu_batch *b = mnw_gpu_batch_get(g);
    if (!b) return mnw_err_set(e, "GPU %d: no free batch to measure the kernels", g->dev);
    /* pairs (i, j), (i, j') one after the other: they share i, as DScan's two per lane want */
    for (int x = 0; b->np < P; x++) {
        const int u = x >> 1;
        const uint32_t i = ids[u % nids], j = ids[(u + 1 + (x & 1)) % nids];
        if (add_kind(b, i, j, L, L, kind) != 1) break;
    }
    const double cells = (double)b->np * L * L, t0 = now_s();
    if (mnw_gpu_launch(g, b, e)) return -1;
    mnw_gpu_batch *done = NULL;
    for (;;) {
        int rc = mnw_gpu_poll(g, &done, e);
        if (rc < 0) return -1;
        if (rc == 1) break;
        for (int k = 0; k < 2; k++) CHECK_CUDA(e, g->dev, cudaStreamSynchronize(g->sl[k].st));
    }
    *spc = (now_s() - t0) / cells;
    mnw_gpu_batch_put(done);
    return 0;
}

static int calibrate(mnw_gpu *g, mnw_err *e)
{
    const mnw_seqset *S = g->seqs;
    const int dkind = g->pack2 ? MNW_GPU_K_DSCAN2 : MNW_GPU_K_DSCAN;
    const int P = g->o.max_pairs < 512 * g->sms ? g->o.max_pairs : 512 * g->sms;
    uint32_t *ids = (uint32_t *)mnw_xmalloc((S->n ? S->n : 1) * sizeof *ids);
    int limit = 0, at = 0;
    char *w = g->calib;
    size_t left = sizeof g->calib;
    const double t0 = now_s();
    for (size_t c = 0; c < sizeof calib_len / sizeof *calib_len && now_s() - t0 < CALIB_S; c++) {
        const int L = calib_len[c];
        int nids = 0;
        for (size_t k = 0; k < S->n; k++)
            if (mnw_seq_len(S, k) >= (size_t)L) ids[nids++] = (uint32_t)k;
        if (nids < 3) break;
        double r = 1e30, d = 1e30, t = 0;
        for (int rep = 0; rep < 2; rep++) {
            if (calib_once(g, MNW_GPU_K_RSCAN, L, ids, nids, P, &t, e)) goto fail;
            r = t < r ? t : r;
            if (calib_once(g, dkind, L, ids, nids, P, &t, e)) goto fail;
            d = t < d ? t : d;
        }
        at = snprintf(w, left, "%s%d: %.2f", c ? ", " : "", L, r / d);
        if (at > 0 && (size_t)at < left) w += at, left -= (size_t)at;
        if (r >= d) break;
        limit = L;
    }
    free(ids);
    g->o.rscan_rows = limit;
    memset(&g->stats, 0, sizeof g->stats);
    return 0;
fail:
    free(ids);
    return -1;
}

extern "C" int mnw_gpu_can_launch(const mnw_gpu *g) { return !g->sl[0].b || !g->sl[1].b; }

extern "C" int mnw_gpu_inflight(const mnw_gpu *g) { return g->inflight; }

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

extern "C" int mnw_gpu_launch(mnw_gpu *g, mnw_gpu_batch *b, mnw_err *e)
{
    slot *sl = !g->sl[0].b ? &g->sl[0] : !g->sl[1].b ? &g->sl[1] : NULL;
    if (!sl) return mnw_err_set(e, "GPU %d: no free slot (mnw_gpu_can_launch first)", g->dev);
    CHECK_CUDA(e, g->dev, cudaSetDevice(g->dev));
    b->state = B_LAUNCHED;
    sl->b = b;
    if (g->inflight++ == 0) g->busy_since = now_s();
    const int np = b->np;
    if (np > 0) {
        /* the lists kernel by kernel; DSCAN2 and TILED2 get units: two pairs
         * in a row that share sequence a (rows), or one alone (twice) */
        int at[MNW_GPU_K_N], k0[MNW_GPU_K_N], cnt[MNW_GPU_K_N], pend[MNW_GPU_K_N];
        for (int k = 0, s = 0; k < MNW_GPU_K_N; k++) {
            at[k] = k0[k] = s;
            s += mnw_gpu_kind_tr(k) ? 2 * b->kn[k] : b->kn[k];
            cnt[k] = mnw_gpu_kind_tr(k) ? 0 : b->kn[k];
            pend[k] = -1;
        }
        for (int x = 0; x < np; x++) {
            const int k = b->h_pairs[x].kind;
            if (!mnw_gpu_kind_tr(k)) {
                b->h_idx[at[k]++] = (uint32_t)x;
                continue;
            }
            const int q = pend[k];
            if (q >= 0 && b->h_pairs[q].a == b->h_pairs[x].a) {
                b->h_idx[at[k]++] = (uint32_t)q;
                b->h_idx[at[k]++] = (uint32_t)x;
                cnt[k]++;
                pend[k] = -1;
                continue;
            }
            if (q >= 0) {
                b->h_idx[at[k]++] = (uint32_t)q;
                b->h_idx[at[k]++] = (uint32_t)q;
                cnt[k]++;
            }
            pend[k] = x;
        }
        for (int k = 0; k < MNW_GPU_K_N; k++)
            if (pend[k] >= 0) {
                b->h_idx[at[k]++] = (uint32_t)pend[k];
                b->h_idx[at[k]++] = (uint32_t)pend[k];
                cnt[k]++;
            }
        const int nidx = k0[MNW_GPU_K_N - 1] + 2 * b->kn[MNW_GPU_K_N - 1];
        CHECK_CUDA(e, g->dev, cudaMemcpyAsync(sl->d_pairs, b->h_pairs, (size_t)np * sizeof *b->h_pairs, cudaMemcpyHostToDevice, sl->st));
        CHECK_CUDA(e, g->dev, cudaMemcpyAsync(sl->d_idx, b->h_idx, (size_t)nidx * sizeof *b->h_idx, cudaMemcpyHostToDevice, sl->st));
        for (int k = 0; k < MNW_GPU_K_N; k++) {
            mnw_gpu_run_matrix(sl->st, k, !g->o.score_only, sl->d_pairs, sl->d_idx + k0[k], cnt[k], g->d_codes, &g->ks,
                               sl->d_var, sl->d_ends);
            CHECK_CUDA(e, g->dev, cudaGetLastError());
        }
        CHECK_CUDA(e, g->dev, cudaMemcpyAsync(b->h_ends, sl->d_ends, (size_t)np * sizeof *b->h_ends, cudaMemcpyDeviceToHost, sl->st));
        if (!g->o.score_only && g->o.traceback_device) {
            CHECK_CUDA(e, g->dev, cudaMemsetAsync(sl->d_hdr, 0, sizeof(uint32_t), sl->st));
            mnw_gpu_run_trace(sl->st, sl->d_pairs, np, g->d_codes, g->ks.affine, g->ks.tie, sl->d_var, sl->d_ends,
                              (uint32_t *)(sl->d_var + b->var_used), sl->d_hdr, g->o.figures ? &g->o.eqt : NULL);
            CHECK_CUDA(e, g->dev, cudaGetLastError());
            CHECK_CUDA(e, g->dev, cudaMemcpyAsync(b->h_hdr, sl->d_hdr, (1 + 2 * (size_t)np) * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                               sl->st));
            CHECK_CUDA(e, g->dev, cudaEventRecord(sl->ev_hdr, sl->st));
            sl->phase = 1;
            return 0;
        }
        if (!g->o.score_only) /* host trace-back: the direction words */
            CHECK_CUDA(e, g->dev, cudaMemcpyAsync(b->h_var, sl->d_var, b->var_used, cudaMemcpyDeviceToHost, sl->st));
    }
    CHECK_CUDA(e, g->dev, cudaEventRecord(sl->ev_done, sl->st));
    sl->phase = 2;
    return 0;
}

/* 1 fired, 0 not yet, -1 error */
static int fired(mnw_gpu *g, cudaEvent_t ev, mnw_err *e)
{
    cudaError_t rc = cudaEventQuery(ev);
    if (rc == cudaErrorNotReady) return 0;
    if (rc != cudaSuccess)
        return mnw_err_set(e, "%s:%d: cudaEventQuery (the end of a batch's work): %s (GPU %d)", __FILE__, __LINE__,
                           cudaGetErrorString(rc), g->dev);
    return 1;
}

extern "C" int mnw_gpu_poll(mnw_gpu *g, mnw_gpu_batch **done, mnw_err *e)
{
    *done = NULL;
    CHECK_CUDA(e, g->dev, cudaSetDevice(g->dev));
    for (int s = 0; s < 2; s++) {
        slot *sl = &g->sl[s];
        mnw_gpu_batch *b = sl->b;
        if (!b) continue;
        if (sl->phase == 1) {
            int f = fired(g, sl->ev_hdr, e);
            if (f < 0) return -1;
            if (!f) continue;
            size_t total = b->h_hdr[0];
            if (total > b->packed_cap) {
                if (b->h_packed) CHECK_CUDA(e, g->dev, cudaFreeHost(b->h_packed));
                b->h_packed = NULL;
                size_t cap = total + total / 4 + 4096;
                CHECK_CUDA(e, g->dev, cudaMallocHost((void **)&b->h_packed, cap * sizeof(uint32_t)));
                b->packed_cap = cap;
            }
            if (total)
                CHECK_CUDA(e, g->dev, cudaMemcpyAsync(b->h_packed, sl->d_var + b->var_used, total * sizeof(uint32_t),
                                   cudaMemcpyDeviceToHost, sl->st));
            CHECK_CUDA(e, g->dev, cudaEventRecord(sl->ev_done, sl->st));
            sl->phase = 2;
        }
        if (sl->phase == 2) {
            int f = fired(g, sl->ev_done, e);
            if (f < 0) return -1;
            if (!f) continue;
            sl->phase = 0;
            sl->b = NULL;
            g->stats.pairs += (uint64_t)b->np;
            g->stats.cells += b->cells;
            g->stats.batches++;
            for (int k = 0; k < MNW_GPU_K_N; k++) g->stats.kpairs[mnw_gpu_kind_base(k)] += (uint64_t)b->kn[k];
            g->stats.pairs2 += (uint64_t)(b->kn[MNW_GPU_K_DSCAN2] + b->kn[MNW_GPU_K_TILED2]);
            if (--g->inflight == 0) g->stats.busy_s += now_s() - g->busy_since;
            __atomic_store_n(&b->state, B_DONE, __ATOMIC_RELEASE);
            *done = b;
            return 1;
        }
    }
    return 0;
}

extern "C" void mnw_gpu_batch_aln(const mnw_gpu_batch *b, int x, mnw_aln *out)
{
    const mnw_gpu *g = b->g;
    mnw_aln_clear(out);
    out->score = b->h_ends[x].score;
    if (g->o.score_only) return;
    if (g->o.figures && g->o.traceback_device) { /* counts mode: the device counted the figures */
        static_assert(sizeof(mnw_pathfig) == MNW_GPU_FIG_WORDS * sizeof(uint32_t), "the trace kernel writes its words");
        memcpy(&out->fig, b->h_packed + b->h_hdr[1 + b->np + x], sizeof out->fig);
        out->has_fig = 1;
        return;
    }
    if (g->o.traceback_device) {
        uint32_t k = b->h_hdr[1 + x], off = b->h_hdr[1 + b->np + x];
        mnw_aln_reserve(out, k);
        const uint32_t *r = b->h_packed + off;
        for (uint32_t t = 0; t < k; t++) out->ops[t] = r[k - 1 - t];
        out->nops = k;
        return;
    }
    const mnw_gpu_kpair *P = &b->h_pairs[x];
    const mnw_gpu_kend *E = &b->h_ends[x];
    const int aff = g->ks.affine;
    mnw_dirview v = mnw_gpu_view(b->h_var + P->dir, P->m, P->n, aff, g->ks.tie, P->kind);
    if (g->o.figures) { /* counts mode, host trace-back */
        mnw_tb_walk_fig(&v, aff, E->re, E->ce, mnw_seq_codes(g->seqs, b->pi[x]), P->m,
                        mnw_seq_codes(g->seqs, b->pj[x]), P->n, &g->o.eqt, &out->fig);
        out->has_fig = 1;
        return;
    }
    mnw_aln_reserve(out, (size_t)P->m + (size_t)P->n);
    out->nops = mnw_tb_walk(&v, aff, E->re, E->ce, mnw_seq_codes(g->seqs, b->pi[x]), P->m,
                            mnw_seq_codes(g->seqs, b->pj[x]), P->n, out->ops);
    mnw_aln_reverse(out);
}

extern "C" void mnw_gpu_batch_put(mnw_gpu_batch *b) { __atomic_store_n(&b->state, B_FREE, __ATOMIC_RELEASE); }

extern "C" void mnw_gpu_get_stats(const mnw_gpu *g, mnw_gpu_stats *st)
{
    *st = g->stats;
    if (g->inflight) st->busy_s += now_s() - g->busy_since;
    if (g->fnrun) st->fbusy_s += now_s() - g->fsince;
}

/* ---- the filter (issue 39) ---- */

extern "C" int mnw_gpu_prunes(const mnw_gpu *g) { return g->prune; }
extern "C" double mnw_gpu_prune_open_s(const mnw_gpu *g) { return g->prune_open_s; }

extern "C" mnw_gpu_fbatch *mnw_gpu_fbatch_get(mnw_gpu *g)
{
    if (!g->prune) return NULL;
    for (int k = 0; k < MNW_GPU_FBATCHES; k++)
        if (!g->fb[k].busy) {
            g->fb[k].busy = 1;
            g->fb[k].np = 0;
            return &g->fb[k];
        }
    return NULL;
}

extern "C" int mnw_gpu_fbatch_add(mnw_gpu_fbatch *f, uint32_t i, uint32_t j)
{
    if (f->np == f->cap) return 0;
    f->h_pairs[f->np].x = i;
    f->h_pairs[f->np].y = j;
    f->np++;
    return 1;
}

extern "C" uint64_t mnw_gpu_fbatch_add_run(mnw_gpu_fbatch *f, uint64_t *i, uint64_t *j, uint64_t n)
{
    const uint64_t room = (uint64_t)(f->cap - f->np), m = n < room ? n : room;
    uint32_t ii = (uint32_t)*i, jj = (uint32_t)*j;
    uint2 *p = f->h_pairs + f->np;
    for (uint64_t x = 0; x < m; x++) {
        p[x].x = ii;
        p[x].y = jj;
        if (++jj == ii) {
            ii++;
            jj = 0;
        }
    }
    f->np += (int)m;
    *i = ii;
    *j = jj;
    return m;
}

extern "C" int mnw_gpu_fbatch_count(const mnw_gpu_fbatch *f) { return f->np; }
extern "C" int mnw_gpu_fbatch_can_launch(const mnw_gpu *g) { return g->prune && g->fnrun < MNW_GPU_FSLOTS; }

extern "C" int mnw_gpu_fbatch_launch(mnw_gpu *g, mnw_gpu_fbatch *f, mnw_err *e)
{
    fslot *S = NULL;
    for (int k = 0; k < MNW_GPU_FSLOTS && !S; k++)
        if (g->prune && !g->fs[k].run) S = &g->fs[k];
    if (!S) return mnw_err_set(e, "GPU %d: every filter slot is busy (mnw_gpu_fbatch_can_launch first)", g->dev);
    CHECK_CUDA(e, g->dev, cudaSetDevice(g->dev));
    S->run = f;
    S->seq = g->flaunches++;
    if (g->fnrun++ == 0) g->fsince = now_s();
    const int np = f->np;
    if (np > 0) {
        CHECK_CUDA(e, g->dev, cudaMemcpyAsync(S->d_pairs, f->h_pairs, (size_t)np * sizeof *f->h_pairs,
                                              cudaMemcpyHostToDevice, S->st));
        mnw_gpu_run_prune(S->st, S->d_pairs, np, g->d_pseq, g->d_runs, g->d_codes, &g->kp, S->d_out, S->d_figs);
        CHECK_CUDA(e, g->dev, cudaGetLastError());
        if (g->kp.ed) {
            mnw_gpu_run_prune_ed(S->st, S->d_pairs, np, 0, g->d_pseq, g->d_guides, g->d_peqs, g->d_codes, &g->kp,
                                 S->d_out, S->d_figs, S->d_list, S->d_list2, S->d_list3, S->d_tau,
                                 S->d_cnt);
            CHECK_CUDA(e, g->dev, cudaGetLastError());
        }
        CHECK_CUDA(e, g->dev, cudaMemcpyAsync(f->h_out, S->d_out, (size_t)np, cudaMemcpyDeviceToHost, S->st));
        if (S->d_figs)
            CHECK_CUDA(e, g->dev, cudaMemcpyAsync(f->h_figs, S->d_figs, (size_t)np * sizeof *f->h_figs,
                                                  cudaMemcpyDeviceToHost, S->st));
    }
    CHECK_CUDA(e, g->dev, cudaEventRecord(S->ev, S->st));
    return 0;
}

/* The oldest batch on the device first: a later one that finished waits
 * for it (the caller polls again). */
extern "C" int mnw_gpu_fbatch_poll(mnw_gpu *g, mnw_gpu_fbatch **done, mnw_err *e)
{
    *done = NULL;
    fslot *S = NULL;
    for (int k = 0; k < MNW_GPU_FSLOTS; k++)
        if (g->fs[k].run && (!S || g->fs[k].seq < S->seq)) S = &g->fs[k];
    if (!S) return 0;
    CHECK_CUDA(e, g->dev, cudaSetDevice(g->dev));
    const int f = fired(g, S->ev, e);
    if (f <= 0) return f;
    mnw_gpu_fbatch *b = S->run;
    S->run = NULL;
    if (--g->fnrun == 0) g->stats.fbusy_s += now_s() - g->fsince;
    g->stats.fbatches++;
    g->stats.fpairs += (uint64_t)b->np;
    uint64_t n1 = 0, n2 = 0; /* 1: stage 1 pruned it, 2: stage 2 (branch-free: a loop the compiler vectorizes) */
    uint8_t *o = b->h_out;
    for (int x = 0; x < b->np; x++) {
        const uint8_t v = o[x];
        n1 += v != 0;
        n2 += v == 2;
        o[x] = v != 0;
    }
    g->stats.fpruned += n1;
    g->stats.fpruned2 += n2;
    *done = b;
    return 1;
}

extern "C" const uint8_t *mnw_gpu_fbatch_pruned(const mnw_gpu_fbatch *f) { return f->h_out; }
extern "C" const mnw_gpu_pfig *mnw_gpu_fbatch_figs(const mnw_gpu_fbatch *f) { return f->h_figs; }
extern "C" void mnw_gpu_fbatch_put(mnw_gpu_fbatch *f) { f->busy = 0; }
