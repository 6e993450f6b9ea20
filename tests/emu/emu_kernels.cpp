/* tests/emu/emu_kernels.cpp - gpu_launch_int.h's launchers for the host
 * emulation: the kernels of workers/gpu/gpu_kernels_int.cuh, compiled by g++,
 * run on the host. Thread-per-pair kernels (RScan-mNW, the trace-back, the filter) run
 * one thread after another; warp-per-pair kernels (DScan-mNW,
 * TiledDScan-mNW) run each warp as 32 coroutines that meet at every
 * shuffle (emu_device.h). Launches finish before they return, in stream
 * order by construction. On x86-64 a lane switch is a few instructions of
 * assembly (callee-saved registers and the stack pointer); elsewhere it is
 * ucontext's swapcontext (a system call per switch: slower, same result).
 * Thread-safety: the launchers take one lock, so one launch runs at a time
 * (the state above is the process's); several threads may call them (the
 * devices of MNW_EMU_DEVICES opened at once).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "tests/emu/emu_device.h"
#include "workers/gpu/gpu_kernels_int.cuh"
#include "workers/gpu/gpu_launch_int.h"
#include "workers/gpu/gpu_pack2_int.cuh"
#include "workers/gpu/gpu_prune_int.cuh"
#include "workers/gpu/gpu_prune_ed_int.cuh"

using namespace mnw_gk;

emu_dim3 emu_block_dim;
static emu_ids ids_now;      /* thread-per-pair kernels */
static emu_ids lane_ids[32]; /* the warp being run */
static int in_warp = 0, lane_now = 0;

const emu_ids *emu_cur(void) { return in_warp ? &lane_ids[lane_now] : &ids_now; }

/* the warp: one coroutine per lane, switched by ctx_switch */
enum { STACK = 1 << 18 };
#if defined(__x86_64__)
/* saves the callee-saved registers on the current stack, stores the stack
 * pointer in *from, continues on stack `to` (as left by ctx_switch or
 * ctx_make) */
extern "C" void emu_ctx_switch(void **from, void *to);
asm(".text\n"
    ".globl emu_ctx_switch\n"
    ".type emu_ctx_switch,@function\n"
    "emu_ctx_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size emu_ctx_switch, .-emu_ctx_switch\n");
typedef void *ctx_t;
static void ctx_to(ctx_t *from, ctx_t *to) { emu_ctx_switch(from, *to); }
/* a context that starts fn on stack [base, base + size) */
static void ctx_make(ctx_t *c, char *base, size_t size, void (*fn)(void))
{
    uintptr_t top = ((uintptr_t)(base + size)) & ~(uintptr_t)15;
    void **sp = (void **)top;
    *--sp = NULL;        /* fn's return address: fn never returns */
    *--sp = (void *)fn;  /* ctx_switch's ret goes here, rsp = 8 mod 16 as at a call */
    for (int k = 0; k < 6; k++) *--sp = NULL; /* rbp rbx r12..r15 */
    *c = sp;
}
#else
typedef ucontext_t ctx_t;
static void ctx_to(ctx_t *from, ctx_t *to) { swapcontext(from, to); }
static void ctx_make(ctx_t *c, char *base, size_t size, void (*fn)(void))
{
    getcontext(c);
    c->uc_stack.ss_sp = base;
    c->uc_stack.ss_size = size;
    c->uc_link = NULL;
    makecontext(c, fn, 0);
}
#endif
static ctx_t sched_ctx, lane_ctx[32];
static char *stacks;
static int slot[2][32], lane_round[32], lane_done[32];
static void (*warp_fn)(void *);
static void *warp_arg;

int emu_shfl(int v, int how, int arg)
{
    if (!in_warp) {
        fprintf(stderr, "emu: a shuffle outside a warp launch\n");
        abort();
    }
    const int L = lane_now, r = lane_round[L]++;
    slot[r & 1][L] = v;
    ctx_to(&lane_ctx[L], &sched_ctx); /* wait for the other 31 */
    int src = how == EMU_SHFL_IDX ? (arg & 31) : how == EMU_SHFL_UP ? (L >= arg ? L - arg : L) : ((L ^ arg) & 31);
    return slot[r & 1][src];
}

static void lane_main(void)
{
    warp_fn(warp_arg);
    for (;;) { /* ended: back to the scheduler, which never resumes it */
        lane_done[lane_now] = 1;
        ctx_to(&lane_ctx[lane_now], &sched_ctx);
    }
}

/* Runs warp w of a 128-thread block grid: fn(arg) on its 32 lanes. */
static void run_warp(int w, void (*fn)(void *), void *arg)
{
    if (!stacks) stacks = (char *)malloc((size_t)STACK * 32);
    warp_fn = fn;
    warp_arg = arg;
    for (int L = 0; L < 32; L++) {
        lane_ids[L].bid = emu_dim3{(unsigned)(w / 4), 0, 0};
        lane_ids[L].tid = emu_dim3{(unsigned)((w % 4) * 32 + L), 0, 0};
        lane_round[L] = 0;
        lane_done[L] = 0;
        ctx_make(&lane_ctx[L], stacks + (size_t)STACK * L, STACK, lane_main);
    }
    in_warp = 1;
    for (;;) {
        int done = 0;
        for (int L = 0; L < 32; L++) {
            lane_now = L;
            ctx_to(&sched_ctx, &lane_ctx[L]);
            done += lane_done[L];
        }
        if (done == 32) break;
        if (done) {
            fprintf(stderr, "emu: warp %d diverged: %d lanes ended while others wait at a shuffle\n", w, done);
            abort();
        }
        for (int L = 1; L < 32; L++)
            if (lane_round[L] != lane_round[0]) {
                fprintf(stderr, "emu: warp %d: lanes at different shuffles\n", w);
                abort();
            }
    }
    in_warp = 0;
}

struct margs {
    const mnw_gpu_kpair *pairs;
    const uint32_t *idx;
    int np;
    const uint8_t *codes;
    mnw_gpu_kscore sc;
    uint8_t *var;
    mnw_gpu_kend *ends;
};

template <bool AFF, bool FE, bool TILED, bool DIRS, bool EXT> static void dscan_lane(void *p)
{
    margs *a = (margs *)p;
    dscan<AFF, FE, TILED, DIRS, EXT>(a->pairs, a->idx, a->np, a->codes, a->sc, a->var, a->ends);
}

template <bool AFF, bool FE, bool TILED, bool DIRS, bool EXT> static void dscan2_lane(void *p)
{
    margs *a = (margs *)p;
    dscan2<AFF, FE, TILED, DIRS, EXT>(a->pairs, a->idx, a->np, a->codes, a->sc, a->var, a->ends);
}

template <bool AFF, bool FE, bool DIRS, bool EXT> static void launch(int kind, margs &a)
{
    emu_block_dim = emu_dim3{128, 1, 1};
    if (mnw_gpu_kind_tr(kind)) { /* a.np units */
        void (*fn)(void *) =
            kind == MNW_GPU_K_DSCAN2 ? dscan2_lane<AFF, FE, false, DIRS, EXT> : dscan2_lane<AFF, FE, true, DIRS, EXT>;
        const int nw = (a.np + 3) / 4 * 4;
        for (int w = 0; w < nw; w++) run_warp(w, fn, &a);
        return;
    }
    if (kind == MNW_GPU_K_RSCAN) {
        for (int x = 0; x < a.np; x++) {
            ids_now.bid = emu_dim3{(unsigned)(x / 128), 0, 0};
            ids_now.tid = emu_dim3{(unsigned)(x % 128), 0, 0};
            rscan<AFF, FE, DIRS, EXT>(a.pairs, a.idx, a.np, a.codes, a.sc, a.var, a.ends);
        }
        return;
    }
    void (*fn)(void *) =
        kind == MNW_GPU_K_DSCAN ? dscan_lane<AFF, FE, false, DIRS, EXT> : dscan_lane<AFF, FE, true, DIRS, EXT>;
    const int nw = (a.np + 3) / 4 * 4; /* whole blocks of 4 warps, as launched */
    for (int w = 0; w < nw; w++) run_warp(w, fn, &a);
}

template <bool AFF, bool FE, bool DIRS> static void launch_ext(int kind, margs &a)
{
    if (a.sc.tie || a.sc.ambn) launch<AFF, FE, DIRS, true>(kind, a);
    else launch<AFF, FE, DIRS, false>(kind, a);
}

template <bool DIRS> static void launch_mode(int kind, margs &a)
{
    if (a.sc.affine) {
        if (a.sc.free_ends) launch_ext<true, true, DIRS>(kind, a);
        else launch_ext<true, false, DIRS>(kind, a);
    } else {
        if (a.sc.free_ends) launch_ext<false, true, DIRS>(kind, a);
        else launch_ext<false, false, DIRS>(kind, a);
    }
}

/* a launch's hold on the emulation's one set of warps and ids */
static pthread_mutex_t launch_mu = PTHREAD_MUTEX_INITIALIZER;
struct launch_lock {
    launch_lock() { pthread_mutex_lock(&launch_mu); }
    ~launch_lock() { pthread_mutex_unlock(&launch_mu); }
};

void mnw_gpu_run_matrix(cudaStream_t, int kind, int dirs, const mnw_gpu_kpair *pairs, const uint32_t *idx, int np,
                        const uint8_t *codes, const mnw_gpu_kscore *sc, uint8_t *var, mnw_gpu_kend *ends)
{
    launch_lock held;
    if (np <= 0) return;
    margs a = {pairs, idx, np, codes, *sc, var, ends};
    if (dirs) launch_mode<true>(kind, a);
    else launch_mode<false>(kind, a);
}

void mnw_gpu_run_trace(cudaStream_t, const mnw_gpu_kpair *pairs, int np, const uint8_t *codes, int affine,
                       int tie, uint8_t *var, const mnw_gpu_kend *ends, uint32_t *packed, uint32_t *hdr, const mnw_eqtab *figs)
{
    launch_lock held;
    emu_block_dim = emu_dim3{128, 1, 1};
    mnw_eqtab t;
    if (figs) t = *figs;
    else memset(&t, 0, sizeof t);
    for (int x = 0; x < np; x++) {
        ids_now.bid = emu_dim3{(unsigned)(x / 128), 0, 0};
        ids_now.tid = emu_dim3{(unsigned)(x % 128), 0, 0};
        trace(pairs, np, codes, affine, tie, var, ends, packed, hdr, figs != NULL, t);
    }
}

void mnw_gpu_run_prune(cudaStream_t, const uint2 *pairs, int np, const mnw_gpu_pseq *ps, const uint32_t *runs,
                       const uint8_t *codes, const mnw_gpu_kprune *p, uint8_t *out, mnw_gpu_kpfig *figs)
{
    launch_lock held;
    emu_block_dim = emu_dim3{128, 1, 1};
    for (int x = 0; x < np; x++) {
        ids_now.bid = emu_dim3{(unsigned)(x / 128), 0, 0};
        ids_now.tid = emu_dim3{(unsigned)(x % 128), 0, 0};
        if (figs) mnw_gp::prune<true>(pairs, np, ps, runs, codes, *p, out, figs);
        else mnw_gp::prune<false>(pairs, np, ps, runs, codes, *p, out, figs);
    }
}

void mnw_gpu_run_prune_ed(cudaStream_t, const uint2 *pairs, int np, int, const mnw_gpu_pseq *ps, const uint64_t *guides,
                          const uint32_t *peqs, const uint8_t *codes, const mnw_gpu_kprune *p, uint8_t *out,
                          mnw_gpu_kpfig *figs, uint32_t *list, uint32_t *list2, uint32_t *list3, int32_t *taus,
                          uint32_t *cnt)
{
    launch_lock held;
    emu_block_dim = emu_dim3{(unsigned)mnw_ge::TPB, 1, 1};
    auto each = [&](auto &&k) {
        for (int x = 0; x < np; x++) {
            ids_now.bid = emu_dim3{(unsigned)(x / mnw_ge::TPB), 0, 0};
            ids_now.tid = emu_dim3{(unsigned)(x % mnw_ge::TPB), 0, 0};
            k();
        }
    };
    if (figs) {
        each([&] { mnw_ge::prune_ed_full(pairs, np, ps, guides, peqs, codes, *p, out, figs); });
        return;
    }
    cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0;
    each([&] { mnw_ge::compact(out, np, list, cnt); });
    each([&] { mnw_ge::bands(pairs, ps, guides, peqs, codes, *p, out, list, cnt, list2, list3, taus, np); });
    each([&] { mnw_ge::eds_wide(pairs, ps, peqs, codes, out, list3, cnt, taus); });
    each([&] { mnw_ge::eds_reg<2>(pairs, ps, peqs, codes, out, list2, cnt, taus, np); });
    each([&] { mnw_ge::eds_reg<1>(pairs, ps, peqs, codes, out, list2, cnt, taus, np); });
}

cudaError_t mnw_gpu_filter_prefs(void) { return cudaSuccess; }
