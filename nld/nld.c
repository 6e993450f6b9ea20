/* nld.c - see nld.h. */
#include "nld.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "log.h"
#include "nld_int.h"

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

int mnw_nld_finishers(const mnw_nld_cfg *cfg)
{
    if (cfg->ngpus <= 0) return 0;
    int f = 2 * cfg->ngpus;
    return f < cfg->workers ? f : cfg->workers;
}

void mnw_nld_fail_locked(nld_state *st, const mnw_err *e)
{
    if (!st->werr_set) {
        st->werr = *e;
        st->werr_set = 1;
    }
    st->stop = 1;
    if (st->tb) mnw_tb_abort(st->tb); /* releases workers blocked in submit */
    CHECK_PT(pthread_cond_broadcast(&st->work_cv));
    CHECK_PT(pthread_cond_signal(&st->done_cv));
}

void mnw_nld_push_done_locked(nld_state *st, mnw_result *res)
{
    if (st->done_tail) st->done_tail->next = res;
    else st->done_head = res;
    st->done_tail = res;
    CHECK_PT(pthread_cond_signal(&st->done_cv));
}

void mnw_nld_push_fin_locked(nld_state *st, nld_fin *f)
{
    f->next = NULL;
    if (st->fin_tail) st->fin_tail->next = f;
    else st->fin_head = f;
    st->fin_tail = f;
    __atomic_add_fetch(&st->fin_n, 1, __ATOMIC_RELEASE);
    CHECK_PT(pthread_cond_signal(&st->work_cv));
}

int mnw_nld_take_locked(nld_state *st, mnw_range *r)
{
    if (st->work_n == 0) return 0;
    *r = st->work[st->work_head];
    st->work_head = (st->work_head + 1) % st->work_cap;
    st->work_n--;
    CHECK_PT(pthread_cond_signal(&st->done_cv)); /* queue ran lower: the comm thread may pull */
    return 1;
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
} worker_arg;

static nld_fin *pop_fin_locked(nld_state *st)
{
    nld_fin *f = st->fin_head;
    st->fin_head = f->next;
    if (!st->fin_head) st->fin_tail = NULL;
    __atomic_sub_fetch(&st->fin_n, 1, __ATOMIC_RELAXED);
    return f;
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
        nld_fin *f = st->fin_head && !st->stop ? pop_fin_locked(st) : NULL;
        CHECK_PT(pthread_mutex_unlock(&st->mu));
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
    if (st->cfg->topo) {
        mnw_err be;
        if (mnw_topo_bind_thread(st->cfg->topo, st->cfg->slot0 + a->id, &be)) LOG_WARN("not bound to a core: %s", be.msg);
    }
    mnw_cpu_worker w;
    mnw_cpu_worker_init(&w, st->cfg->js);
    a->w = &w;
    /* between lane groups: GPU results to finish come first, even mid-list;
     * an abandoned run leaves its list */
    w.scratch.yield = worker_yield;
    w.scratch.yield_ctx = a;
    /* with GPUs the first mnw_nld_finishers() workers only finish GPU
     * results, so a GPU never waits for its results to be taken while every
     * worker is busy with a work list of its own */
    const int align = st->cfg->ngpus == 0 || (st->cfg->cpu_align && a->id >= mnw_nld_finishers(st->cfg));
    for (;;) {
        CHECK_PT(pthread_mutex_lock(&st->mu));
        /* finish tasks first; then a work list (unless --cpu-align no);
         * leave when no list and no finish task can come any more */
        while (!st->stop && !st->fin_head && !(align && st->work_n) && !(st->no_more && !st->work_n && !st->gpu_active))
            CHECK_PT(pthread_cond_wait(&st->work_cv, &st->mu));
        if (st->stop) {
            CHECK_PT(pthread_mutex_unlock(&st->mu));
            break;
        }
        if (st->fin_head) {
            nld_fin *f = pop_fin_locked(st);
            CHECK_PT(pthread_mutex_unlock(&st->mu));
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

int mnw_nld_run(const mnw_nld_cfg *cfg, mnw_nld_link *link, mnw_err *e)
{
    nld_state st;
    memset(&st, 0, sizeof st);
    st.cfg = cfg;
    CHECK_PT(pthread_mutex_init(&st.mu, NULL));
    CHECK_PT(pthread_cond_init(&st.work_cv, NULL));
    CHECK_PT(pthread_cond_init(&st.done_cv, NULL));
    size_t target = (size_t)cfg->workers + (size_t)(cfg->prefetch > 0 ? cfg->prefetch : 0) +
                    (size_t)mnw_nld_gpu_lists(cfg->ngpus, cfg->gpu_batch, cfg->worklist_size);
    st.work_cap = target + 1;
    st.work = mnw_xcalloc(st.work_cap, sizeof *st.work);

    /* 2 lane groups of 16S pairs queued per worker before workers wait */
    st.tb = mnw_tb_start(cfg->js, 2 * (size_t)cfg->workers * MNW_TB_BATCH_BYTES, tb_deliver, &st, e);
    if (!st.tb) {
        free(st.work);
        CHECK_PT(pthread_cond_destroy(&st.work_cv));
        CHECK_PT(pthread_cond_destroy(&st.done_cv));
        CHECK_PT(pthread_mutex_destroy(&st.mu));
        return -1;
    }
    nld_gpu *gpu = NULL;
    if (cfg->ngpus > 0) {
        st.gpu_active = 1;
        gpu = mnw_nld_gpu_start(&st);
    }
    pthread_t *th = mnw_xcalloc((size_t)cfg->workers, sizeof *th);
    worker_arg *args = mnw_xcalloc((size_t)cfg->workers, sizeof *args);
    for (int k = 0; k < cfg->workers; k++) {
        args[k] = (worker_arg){&st, k, NULL};
        CHECK_PT(pthread_create(&th[k], NULL, worker_main, &args[k]));
    }

    uint64_t inflight = 0; /* taken from the link, not yet delivered */
    int rc = 0, polled = 0;
    double last_tick = mnw_now();
    CHECK_PT(pthread_mutex_lock(&st.mu));
    for (;;) {
        /* pull: keep `target` lists queued (one per worker + prefetch) */
        while (!st.no_more && !st.stop && st.work_n < target) {
            mnw_range r;
            int got = link->next(link->ctx, &r, (int)(target - st.work_n));
            if (got < 0) {
                st.no_more = 1;
                CHECK_PT(pthread_cond_broadcast(&st.work_cv));
            } else if (got == 0) {
                break;
            } else {
                st.work[(st.work_head + st.work_n) % st.work_cap] = r;
                st.work_n++;
                inflight++;
                CHECK_PT(pthread_cond_signal(&st.work_cv));
            }
        }
        if (st.stop) break;
        if (!st.done_head && !polled) {
            if (st.no_more && inflight == 0 && !(link->busy && link->busy(link->ctx))) break;
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
            int w = pthread_cond_timedwait(&st.done_cv, &st.mu, &ts);
            if (w != 0 && w != ETIMEDOUT) mnw_die_rc(__FILE__, __LINE__, "pthread_cond_timedwait", w);
        }
        mnw_result *list = st.done_head;
        st.done_head = st.done_tail = NULL;
        CHECK_PT(pthread_mutex_unlock(&st.mu));
        while (list) {
            mnw_result *nx = list->next;
            list->next = NULL;
            inflight--;
            if (!rc && link->deliver(link->ctx, list, e)) rc = -1;
            else if (rc) mnw_result_free(list);
            list = nx;
        }
        polled = 0;
        if (!rc && link->poll) {
            int p = link->poll(link->ctx, e);
            if (p < 0) rc = -1;
            else polled = p > 0;
        }
        if (!rc && link->abandon && link->abandon(link->ctx)) {
            CHECK_PT(pthread_mutex_lock(&st.mu));
            __atomic_store_n(&st.abandon, 1, __ATOMIC_RELEASE);
            st.stop = 1;
            mnw_tb_abort(st.tb);
            CHECK_PT(pthread_cond_broadcast(&st.work_cv));
            break;
        }
        double now = mnw_now();
        if (link->tick && now - last_tick >= 0.5) {
            link->tick(link->ctx);
            last_tick = now;
        }
        CHECK_PT(pthread_mutex_lock(&st.mu));
        if (rc) {
            st.stop = 1;
            mnw_tb_abort(st.tb);
            CHECK_PT(pthread_cond_broadcast(&st.work_cv));
            break;
        }
        if (st.stop) break;
    }
    if (st.stop) CHECK_PT(pthread_cond_broadcast(&st.work_cv));
    CHECK_PT(pthread_mutex_unlock(&st.mu));
    if (gpu) mnw_nld_gpu_join(gpu); /* after an error it stops on st.stop */
    for (int k = 0; k < cfg->workers; k++) CHECK_PT(pthread_join(th[k], NULL));
    mnw_tb_stop(st.tb, NULL); /* every submitted list delivered (or discarded after an abort) */
    if (st.abandon) rc = MNW_NLD_DROPPED; /* the errors of cut lists are not errors */
    else if (!rc && st.werr_set) {
        *e = st.werr;
        rc = -1;
    }
    while (st.done_head) {
        mnw_result *nx = st.done_head->next;
        mnw_result_free(st.done_head);
        st.done_head = nx;
    }
    if (rc >= 0 && link->tick) link->tick(link->ctx);
    free(th);
    free(args);
    free(st.work);
    CHECK_PT(pthread_cond_destroy(&st.work_cv));
    CHECK_PT(pthread_cond_destroy(&st.done_cv));
    CHECK_PT(pthread_mutex_destroy(&st.mu));
    return rc;
}
