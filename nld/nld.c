/* nld.c - see nld.h. */
#include "nld/nld.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "lib/log.h"
#include "nld/finplan.h"
#include "nld/nld_gpu_int.h"
#include "nld/nldq_int.h"
#include "workers/cpu/cpu_worker.h"

int mnw_nld_gpu_lists(int ngpus, int gpu_batch, uint64_t worklist_size)
{
    if (ngpus <= 0) return 0;
    uint64_t wl = worklist_size ? worklist_size : 1;
    uint64_t per_batch = ((uint64_t)gpu_batch + wl - 1) / wl + 1; /* a batch can straddle lists */
    return (int)((uint64_t)ngpus * (2 * per_batch) + 1);
}

int mnw_nld_gpu_reserve(const mnw_nld_cfg *cfg)
{
    if (cfg->ngpus <= 0) return 0;
    uint64_t wl = cfg->worklist_size ? cfg->worklist_size : 1;
    return (int)(((uint64_t)cfg->gpu_batch + wl - 1) / wl) * cfg->ngpus;
}

/* The trace-back thread's deliver callback: a finished work list (or an
 * error) into the done queue. */
static void tb_deliver(void *ctx, mnw_result *res, const mnw_err *e)
{
    nld_state *st = ctx;
    CHECK_PT(pthread_mutex_lock(&st->mu));
    if (res) mnw_nld_push_done_locked(st, res);
    else mnw_nld_fail_locked(st, e);
    CHECK_PT(pthread_mutex_unlock(&st->mu));
}

typedef struct {
    nld_state *st;
    int id;
    mnw_cpu_worker *w;
    int home; /* the device whose results it finishes first (-1: none) */
    int slot; /* the core slot it is bound to (-1: none) */
    int gen;  /* the plan it follows (nldq_int.h) */
} worker_arg;

/* With mu held: the worker's place from the dispatcher's plan when a new
 * one came; 1 when it must bind again (outside mu: rebind). */
static int follow_plan_locked(worker_arg *a)
{
    nld_state *st = a->st;
    if (st->plan_gen == a->gen) return 0;
    a->gen = st->plan_gen;
    a->home = st->home[a->id];
    const int moved = st->wslot[a->id] != a->slot;
    a->slot = st->wslot[a->id];
    return moved;
}

static void rebind(worker_arg *a)
{
    mnw_err be;
    if (a->st->cfg->topo && mnw_topo_bind_thread(a->st->cfg->topo, a->slot, &be))
        LOG_WARN("not bound to a core: %s", be.msg);
}

/* An aligning worker's yield (between lane groups): finish GPU results
 * waiting in the queue, so a GPU never waits about a second for a worker to
 * end its own list. */
static int worker_yield(void *p)
{
    worker_arg *a = p;
    nld_state *st = a->st;
    while (__atomic_load_n(&st->fin_n, __ATOMIC_ACQUIRE) > 0) {
        CHECK_PT(pthread_mutex_lock(&st->mu));
        const int moved = follow_plan_locked(a);
        nld_fin *f = st->fin_n && !st->stop ? mnw_nld_pop_fin_locked(st, a->home) : NULL;
        CHECK_PT(pthread_mutex_unlock(&st->mu));
        if (moved) rebind(a);
        if (!f) break;
        f->run(f, st, a->w);
    }
    return __atomic_load_n(&st->abandon, __ATOMIC_ACQUIRE); /* 1: leave this list */
}

static void *worker_main(void *p)
{
    worker_arg *a = p;
    nld_state *st = a->st;
    char name[24];
    snprintf(name, sizeof name, "cpu%d", a->id);
    mnw_log_set_thread(name);
    a->home = -1;
    a->slot = st->cfg->slot0 + a->id;
    rebind(a);
    mnw_cpu_worker w;
    mnw_cpu_worker_init(&w, st->cfg->js);
    a->w = &w;
    /* between lane groups: GPU results to finish come first, even mid-list;
     * an abandoned run leaves its list */
    w.scratch.yield = worker_yield;
    w.scratch.yield_ctx = a;
    /* with GPUs the first mnw_finplan_finishers() workers only finish GPU
     * results, so a GPU never waits for its results to be taken while every
     * worker is busy with a work list of its own */
    const int align = st->cfg->ngpus == 0 || (st->cfg->cpu_align && a->id >= mnw_finplan_finishers(st->cfg->workers, st->cfg->ngpus, 1));
    for (;;) {
        CHECK_PT(pthread_mutex_lock(&st->mu));
        if (follow_plan_locked(a)) { /* the dispatcher's plan moved this worker (an aligner too) */
            CHECK_PT(pthread_mutex_unlock(&st->mu));
            rebind(a);
            continue;
        }
        /* finish tasks first; then a work list (unless --cpu-align no);
         * leave when no list and no finish task can come any more */
        while (!st->stop && !st->fin_n && !(align && st->work_n) && !(st->no_more && !st->work_n && !st->gpu_active))
            CHECK_PT(pthread_cond_wait(&st->work_cv, &st->mu));
        if (st->stop) {
            CHECK_PT(pthread_mutex_unlock(&st->mu));
            break;
        }
        if (st->fin_n) {
            const int moved = follow_plan_locked(a);
            nld_fin *f = mnw_nld_pop_fin_locked(st, a->home);
            CHECK_PT(pthread_mutex_unlock(&st->mu));
            if (moved) rebind(a);
            f->run(f, st, &w);
            continue;
        }
        mnw_range r;
        /* with GPUs, leave the last lists of the queue to them: a GPU does a
         * list in milliseconds, a CPU worker in about a second, so at the end
         * of a job a CPU worker would only make the run longer */
        if (align && st->cfg->ngpus && (st->no_more || st->work_n <= (size_t)mnw_nld_gpu_reserve(st->cfg))) {
            if (st->no_more && !st->work_n && !st->gpu_active) {
                CHECK_PT(pthread_mutex_unlock(&st->mu));
                break;
            }
            if (st->no_more) { /* only finish tasks can come now */
                CHECK_PT(pthread_cond_wait(&st->work_cv, &st->mu));
                CHECK_PT(pthread_mutex_unlock(&st->mu));
                continue;
            }
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 20000000L;
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            int wr = pthread_cond_timedwait(&st->work_cv, &st->mu, &ts);
            if (wr != 0 && wr != ETIMEDOUT) mnw_die_rc(__FILE__, __LINE__, "pthread_cond_timedwait", wr);
            CHECK_PT(pthread_mutex_unlock(&st->mu));
            continue;
        }
        if (!align || !mnw_nld_take_locked(st, &r)) {
            CHECK_PT(pthread_mutex_unlock(&st->mu));
            break;
        }
        CHECK_PT(pthread_mutex_unlock(&st->mu));

        mnw_err e;
        if (st->cfg->tb_mode) { /* the result comes from the trace-back thread */
            if (mnw_cpu_worker_run_tb(&w, r, st->tb, &e)) {
                CHECK_PT(pthread_mutex_lock(&st->mu));
                mnw_nld_fail_locked(st, &e);
                CHECK_PT(pthread_mutex_unlock(&st->mu));
            }
            continue;
        }
        mnw_result *res = mnw_cpu_worker_run(&w, r, &e);

        CHECK_PT(pthread_mutex_lock(&st->mu));
        if (st->abandon) mnw_result_free(res); /* dropped (maybe cut short) */
        else if (!res) mnw_nld_fail_locked(st, &e);
        else mnw_nld_push_done_locked(st, res);
        CHECK_PT(pthread_mutex_unlock(&st->mu));
    }
    mnw_cpu_worker_free(&w);
    return NULL;
}

/* One node's run: the shared state, its threads, and the comm thread's
 * count of lists taken from the link and not yet delivered. */
typedef struct {
    nld_state st;
    size_t target; /* lists kept queued: one per worker + prefetch + the GPUs' */
    nld_gpu *gpu;
    pthread_t *th;
    int nth; /* worker threads started */
    worker_arg *args;
    uint64_t inflight;
} nld_node;

/* Step 1: the queues, the trace-back thread, the GPU dispatcher thread and
 * the CPU workers. 0; -1 with e set (nothing left running); or -2 with e
 * set when a worker could not start (out of memory: EAGAIN): the node is
 * stopped, and close_node joins the threads that did start. */
static int open_node(nld_node *n, const mnw_nld_cfg *cfg, mnw_err *e)
{
    memset(n, 0, sizeof *n);
    n->target = (size_t)cfg->workers + (size_t)(cfg->prefetch > 0 ? cfg->prefetch : 0) +
                (size_t)mnw_nld_gpu_lists(cfg->ngpus, cfg->gpu_batch, cfg->worklist_size);
    nld_state *st = &n->st;
    mnw_nld_state_init(st, cfg, n->target + 1);
    /* 2 lane groups of 16S pairs queued per worker before workers wait */
    st->tb = mnw_tb_start(cfg->js, 2 * (size_t)cfg->workers * MNW_TB_BATCH_BYTES, tb_deliver, st, e);
    if (!st->tb) {
        mnw_nld_state_free(st);
        return -1;
    }
    if (cfg->ngpus > 0) {
        st->gpu_active = 1;
        n->gpu = mnw_nld_gpu_start(st, e);
        if (!n->gpu) { /* out of memory: the trace-back thread is joined by close_node */
            CHECK_PT(pthread_mutex_lock(&st->mu));
            st->gpu_active = 0;
            mnw_nld_stop_locked(st);
            CHECK_PT(pthread_mutex_unlock(&st->mu));
            return -2;
        }
    }
    n->th = mnw_xcalloc((size_t)cfg->workers, sizeof *n->th);
    n->args = mnw_xcalloc((size_t)cfg->workers, sizeof *n->args);
    for (int k = 0; k < cfg->workers; k++) {
        n->args[k] = (worker_arg){st, k, NULL, -1, -1, 0};
        int rc = pthread_create(&n->th[k], NULL, worker_main, &n->args[k]);
        if (rc) {
            char what[64];
            snprintf(what, sizeof what, "CPU worker %d of %d", k + 1, cfg->workers);
            mnw_err_thread(e, what, rc);
            CHECK_PT(pthread_mutex_lock(&st->mu));
            mnw_nld_stop_locked(st);
            CHECK_PT(pthread_mutex_unlock(&st->mu));
            return -2;
        }
        n->nth = k + 1;
    }
    return 0;
}

/* Step 2a, with mu held: pull work lists from the link until `target` are
 * queued or the link has none right now. */
static void pull_lists_locked(nld_node *n, mnw_nld_link *link)
{
    nld_state *st = &n->st;
    while (!st->no_more && !st->stop && st->work_n < n->target) {
        mnw_range r;
        int got = link->next(link->ctx, &r, (int)(n->target - st->work_n));
        if (got < 0) {
            st->no_more = 1;
            CHECK_PT(pthread_cond_broadcast(&st->work_cv));
        } else if (got == 0) {
            break;
        } else {
            mnw_nld_put_locked(st, r);
            n->inflight++;
        }
    }
}

/* Step 2b, with mu held: 1 when the node is done (no more work, nothing in
 * flight, the link idle); else waits up to link->wait_s for a result. */
static int wait_results_locked(nld_node *n, mnw_nld_link *link)
{
    nld_state *st = &n->st;
    if (st->no_more && n->inflight == 0 && !(link->busy && link->busy(link->ctx))) return 1;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long ns = (long)(link->wait_s * 1e9);
    if (ns <= 0) ns = 1000;
    ts.tv_sec += ns / 1000000000L;
    ts.tv_nsec += ns % 1000000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    int w = pthread_cond_timedwait(&st->done_cv, &st->mu, &ts);
    if (w != 0 && w != ETIMEDOUT) mnw_die_rc(__FILE__, __LINE__, "pthread_cond_timedwait", w);
    return 0;
}

/* Step 2c, mu not held: hands finished results to the link in the order
 * they came; after a failure (*rc set) the rest are freed. */
static void deliver_results(nld_node *n, mnw_result *list, mnw_nld_link *link, int *rc, mnw_err *e)
{
    while (list) {
        mnw_result *nx = list->next;
        list->next = NULL;
        n->inflight--;
        if (!*rc && link->deliver(link->ctx, list, e)) *rc = -1;
        else if (*rc) mnw_result_free(list);
        list = nx;
    }
}

/* Step 2: the comm loop: pull, wait, deliver, poll the link, until the
 * work is done, a stop drops the lists in flight, or something fails.
 * 0, or -1 with e set. */
static int comm_loop(nld_node *n, mnw_nld_link *link, mnw_err *e)
{
    nld_state *st = &n->st;
    int rc = 0, polled = 0;
    double last_tick = mnw_now();
    CHECK_PT(pthread_mutex_lock(&st->mu));
    for (;;) {
        pull_lists_locked(n, link);
        if (st->stop) break;
        if (!st->done_head && !polled && wait_results_locked(n, link)) break;
        mnw_result *list = st->done_head;
        st->done_head = st->done_tail = NULL;
        CHECK_PT(pthread_mutex_unlock(&st->mu));
        deliver_results(n, list, link, &rc, e);
        polled = 0;
        if (!rc && link->poll) {
            int p = link->poll(link->ctx, e);
            if (p < 0) rc = -1;
            else polled = p > 0;
        }
        if (!rc && link->abandon && link->abandon(link->ctx)) {
            CHECK_PT(pthread_mutex_lock(&st->mu));
            __atomic_store_n(&st->abandon, 1, __ATOMIC_RELEASE);
            mnw_nld_stop_locked(st);
            break;
        }
        double now = mnw_now();
        if (link->tick && now - last_tick >= 0.5) {
            link->tick(link->ctx);
            last_tick = now;
        }
        CHECK_PT(pthread_mutex_lock(&st->mu));
        if (rc) {
            mnw_nld_stop_locked(st);
            break;
        }
        if (st->stop) break;
    }
    if (st->stop) CHECK_PT(pthread_cond_broadcast(&st->work_cv));
    CHECK_PT(pthread_mutex_unlock(&st->mu));
    return rc;
}

/* Step 3: joins every thread and frees the node. rc is the comm loop's;
 * returns the run's: MNW_NLD_DROPPED after a stop that dropped the lists
 * in flight, a worker's error (into e), or rc. */
static int close_node(nld_node *n, mnw_nld_link *link, int rc, mnw_err *e)
{
    nld_state *st = &n->st;
    /* the workers first: they end on st->stop or once the GPU thread has
     * cleared gpu_active, and after an error the GPU side's teardown frees
     * the batches and lists a worker could still be finishing */
    for (int k = 0; k < n->nth; k++) CHECK_PT(pthread_join(n->th[k], NULL));
    if (n->gpu) mnw_nld_gpu_join(n->gpu); /* after an error it stops on st->stop */
    mnw_tb_stop(st->tb, NULL); /* every submitted list delivered (or discarded after an abort) */
    if (st->abandon) rc = MNW_NLD_DROPPED; /* the errors of cut lists are not errors */
    else if (!rc && st->werr_set) {
        *e = st->werr;
        rc = -1;
    }
    mnw_nld_state_free(st);
    if (rc >= 0 && link->tick) link->tick(link->ctx);
    free(n->th);
    free(n->args);
    return rc;
}

int mnw_nld_run(const mnw_nld_cfg *cfg, mnw_nld_link *link, mnw_err *e)
{
    nld_node n;
    int rc = open_node(&n, cfg, e);
    if (rc == -1) return -1;
    if (rc == 0) rc = comm_loop(&n, link, e);
    else rc = -1; /* a worker did not start: the node is stopped, e says why */
    return close_node(&n, link, rc, e);
}
