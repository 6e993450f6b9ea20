/* nldq.c - the node dispatcher's shared state and its queues (nldq_int.h). */
#include "nld/nldq_int.h"

#include <stdlib.h>
#include <string.h>

void mnw_nld_state_init(nld_state *st, const mnw_nld_cfg *cfg, size_t cap)
{
    memset(st, 0, sizeof *st);
    st->cfg = cfg;
    CHECK_PT(pthread_mutex_init(&st->mu, NULL));
    CHECK_PT(pthread_cond_init(&st->work_cv, NULL));
    CHECK_PT(pthread_cond_init(&st->done_cv, NULL));
    st->work_cap = cap;
    st->work = mnw_xcalloc(st->work_cap, sizeof *st->work);
    st->nfinq = 1 + (cfg->ngpus > 0 ? cfg->ngpus : 0);
    st->fin_head = mnw_xcalloc((size_t)st->nfinq, sizeof *st->fin_head);
    st->fin_tail = mnw_xcalloc((size_t)st->nfinq, sizeof *st->fin_tail);
}

void mnw_nld_state_free(nld_state *st)
{
    while (st->done_head) {
        mnw_result *nx = st->done_head->next;
        mnw_result_free(st->done_head);
        st->done_head = nx;
    }
    free(st->work);
    st->work = NULL;
    free(st->fin_head);
    free(st->fin_tail);
    free(st->home);
    free(st->wslot);
    st->fin_head = st->fin_tail = NULL;
    st->home = st->wslot = NULL;
    CHECK_PT(pthread_cond_destroy(&st->work_cv));
    CHECK_PT(pthread_cond_destroy(&st->done_cv));
    CHECK_PT(pthread_mutex_destroy(&st->mu));
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
    const int q = f->dev >= 0 && f->dev + 1 < st->nfinq ? f->dev + 1 : 0;
    if (st->fin_tail[q]) st->fin_tail[q]->next = f;
    else st->fin_head[q] = f;
    st->fin_tail[q] = f;
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

void mnw_nld_put_locked(nld_state *st, mnw_range r)
{
    st->work[(st->work_head + st->work_n) % st->work_cap] = r;
    st->work_n++;
    CHECK_PT(pthread_cond_signal(&st->work_cv));
}

nld_fin *mnw_nld_pop_fin_locked(nld_state *st, int home)
{
    int q = st->fin_head[0] || home < 0 || home + 1 >= st->nfinq ? 0 : home + 1;
    const int h = home >= 0 ? home : 0;
    for (int k = 1; !st->fin_head[q] && k < st->nfinq; k++) q = 1 + (h + k) % (st->nfinq - 1); /* after home, around */
    nld_fin *f = st->fin_head[q];
    st->fin_head[q] = f->next;
    if (!st->fin_head[q]) st->fin_tail[q] = NULL;
    __atomic_sub_fetch(&st->fin_n, 1, __ATOMIC_RELAXED);
    return f;
}

void mnw_nld_stop_locked(nld_state *st)
{
    st->stop = 1;
    mnw_tb_abort(st->tb);
    CHECK_PT(pthread_cond_broadcast(&st->work_cv));
}
