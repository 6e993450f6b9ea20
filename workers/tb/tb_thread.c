/* tb_thread.c - see tb_thread.h. */
#include "workers/tb/tb_thread.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"

typedef struct {
    mnw_tb_list *l;
    uint64_t x;
    mnw_tb_end end;
    const uint8_t *a, *b;
    int m, n;
    int none;   /* a list of no pairs */
    int pruned; /* a pair the filter proved beyond the cutoff: no matrix */
} tb_item;

struct mnw_tb_batch {
    uint8_t *dir; /* 64-byte aligned */
    size_t cap, used;
    tb_item *items;
    size_t n, ncap;
    mnw_tb_batch *next;
};

struct mnw_tb_list {
    mnw_range r;
    mnw_aln *alns;
    size_t cap;     /* alns initialised */
    uint64_t left;  /* pairs not yet traced (the tb thread's) */
    uint64_t cells; /* the tb thread's */
    mnw_tb_list *prev, *next;
};

struct mnw_tb {
    const mnw_job_spec *js;
    size_t max_bytes;
    mnw_tb_deliver_fn deliver;
    void *ctx;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t work_cv;  /* a batch queued, stop or abort */
    pthread_cond_t space_cv; /* outstanding bytes went down, or abort */
    mnw_tb_batch *head, *tail; /* queue */
    mnw_tb_batch *free_b;      /* recycled batches */
    size_t free_bytes;
    mnw_tb_list *open;   /* registered, not yet delivered */
    mnw_tb_list *free_l; /* recycled lists (alns kept) */
    int stopping, aborted;
    mnw_tb_stats st;
    mnw_buf text[MNW_NOUT]; /* the thread's formatting scratch */
};

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

static void batch_free(mnw_tb_batch *b)
{
    free(b->dir);
    free(b->items);
    free(b);
}

/* With tb->mu held: keep b for reuse while the kept ones total less than
 * max_bytes (so at most max_bytes + one batch), or free it. */
static void recycle(mnw_tb *tb, mnw_tb_batch *b)
{
    if (tb->free_bytes >= tb->max_bytes) {
        batch_free(b);
        return;
    }
    b->used = 0;
    b->n = 0;
    b->next = tb->free_b;
    tb->free_b = b;
    tb->free_bytes += b->cap;
}

static void list_free(mnw_tb_list *l)
{
    for (size_t k = 0; k < l->cap; k++) mnw_aln_free(&l->alns[k]);
    free(l->alns);
    free(l);
}

/* A traced list: build and deliver its result, recycle it. */
static void finish(mnw_tb *tb, mnw_tb_list *l)
{
    mnw_err e;
    e.msg[0] = 0;
    mnw_result *res = mnw_result_build(tb->js, l->r, l->alns, l->cells, tb->text, &e);
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    if (l->prev) l->prev->next = l->next;
    else tb->open = l->next;
    if (l->next) l->next->prev = l->prev;
    l->prev = NULL;
    l->next = tb->free_l;
    tb->free_l = l;
    tb->st.lists++;
    int aborted = tb->aborted;
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
    if (aborted) mnw_result_free(res);
    else if (res) tb->deliver(tb->ctx, res, NULL);
    else tb->deliver(tb->ctx, NULL, &e);
}

static void *tb_main(void *p)
{
    mnw_tb *tb = p;
    mnw_log_set_thread("tb");
    const int affine = mnw_scoring_affine(tb->js->sc);
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    for (;;) {
        while (!tb->head && !tb->stopping && !tb->aborted) CHECK_PT(pthread_cond_wait(&tb->work_cv, &tb->mu));
        if (tb->aborted || !tb->head) break;
        mnw_tb_batch *b = tb->head;
        tb->head = b->next;
        if (!tb->head) tb->tail = NULL;
        CHECK_PT(pthread_mutex_unlock(&tb->mu));

        for (size_t k = 0; k < b->n; k++) {
            tb_item *it = &b->items[k];
            mnw_tb_list *l = it->l;
            if (it->pruned) {
                mnw_aln_clear(&l->alns[it->x]);
                l->alns[it->x].pruned = 1;
            } else if (!it->none) {
                mnw_tb_finish(&it->end, affine, it->a, it->m, it->b, it->n, tb->js->figs, &l->alns[it->x]);
                l->cells += (uint64_t)it->m * (uint64_t)it->n;
            }
            if (--l->left == 0) finish(tb, l);
        }

        CHECK_PT(pthread_mutex_lock(&tb->mu));
        tb->st.pairs += b->n;
        tb->st.outstanding_bytes -= b->cap;
        recycle(tb, b);
        CHECK_PT(pthread_cond_broadcast(&tb->space_cv));
    }
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
    return NULL;
}

mnw_tb *mnw_tb_start(const mnw_job_spec *js, size_t max_bytes, mnw_tb_deliver_fn deliver, void *ctx, mnw_err *e)
{
    mnw_tb *tb = mnw_xcalloc(1, sizeof *tb);
    tb->js = js;
    tb->max_bytes = max_bytes;
    tb->deliver = deliver;
    tb->ctx = ctx;
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_init(&tb->text[o]);
    CHECK_PT(pthread_mutex_init(&tb->mu, NULL));
    CHECK_PT(pthread_cond_init(&tb->work_cv, NULL));
    CHECK_PT(pthread_cond_init(&tb->space_cv, NULL));
    int rc = pthread_create(&tb->th, NULL, tb_main, tb);
    if (rc) {
        mnw_err_thread(e, "the trace-back thread", rc);
        CHECK_PT(pthread_cond_destroy(&tb->work_cv));
        CHECK_PT(pthread_cond_destroy(&tb->space_cv));
        CHECK_PT(pthread_mutex_destroy(&tb->mu));
        free(tb);
        return NULL;
    }
    return tb;
}

void mnw_tb_abort(mnw_tb *tb)
{
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    tb->aborted = 1;
    while (tb->head) {
        mnw_tb_batch *b = tb->head;
        tb->head = b->next;
        tb->st.outstanding_bytes -= b->cap;
        batch_free(b);
    }
    tb->tail = NULL;
    CHECK_PT(pthread_cond_broadcast(&tb->work_cv));
    CHECK_PT(pthread_cond_broadcast(&tb->space_cv));
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
}

void mnw_tb_stop(mnw_tb *tb, mnw_tb_stats *final)
{
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    tb->stopping = 1;
    CHECK_PT(pthread_cond_broadcast(&tb->work_cv));
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
    CHECK_PT(pthread_join(tb->th, NULL));
    /* the thread is gone: no lock needed from here on */
    if (final) *final = tb->st;
    if (tb->open && !tb->aborted) LOG_WARN("trace-back: work lists left incomplete at stop (first: pairs %llu..)",
                                           (unsigned long long)tb->open->r.k0);
    for (mnw_tb_list *l = tb->open, *nx; l; l = nx) {
        nx = l->next;
        list_free(l);
    }
    for (mnw_tb_list *l = tb->free_l, *nx; l; l = nx) {
        nx = l->next;
        list_free(l);
    }
    for (mnw_tb_batch *b = tb->head, *nx; b; b = nx) {
        nx = b->next;
        batch_free(b);
    }
    for (mnw_tb_batch *b = tb->free_b, *nx; b; b = nx) {
        nx = b->next;
        batch_free(b);
    }
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_free(&tb->text[o]);
    CHECK_PT(pthread_cond_destroy(&tb->work_cv));
    CHECK_PT(pthread_cond_destroy(&tb->space_cv));
    CHECK_PT(pthread_mutex_destroy(&tb->mu));
    free(tb);
}

mnw_tb_list *mnw_tb_list_open(mnw_tb *tb, mnw_range r)
{
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    mnw_tb_list *l = tb->free_l;
    if (l) tb->free_l = l->next;
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
    if (!l) l = mnw_xcalloc(1, sizeof *l);
    if (r.count > l->cap) {
        l->alns = mnw_xrealloc(l->alns, r.count * sizeof *l->alns);
        for (size_t k = l->cap; k < r.count; k++) mnw_aln_init(&l->alns[k]);
        l->cap = r.count;
    }
    l->r = r;
    l->left = r.count ? r.count : 1; /* no pairs: one end == NULL item */
    l->cells = 0;
    l->prev = NULL;
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    l->next = tb->open;
    if (tb->open) tb->open->prev = l;
    tb->open = l;
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
    return l;
}

mnw_tb_batch *mnw_tb_batch_get(mnw_tb *tb, size_t bytes)
{
    size_t want = round64(bytes > MNW_TB_BATCH_BYTES ? bytes + bytes / 4 : MNW_TB_BATCH_BYTES);
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    mnw_tb_batch **pp = &tb->free_b;
    while (*pp && (*pp)->cap < bytes) pp = &(*pp)->next;
    if (!*pp) pp = &tb->free_b; /* none large enough: grow the first one */
    mnw_tb_batch *b = *pp;
    if (b) {
        *pp = b->next;
        tb->free_bytes -= b->cap;
    }
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
    if (!b) b = mnw_xcalloc(1, sizeof *b);
    if (b->cap < bytes || !b->dir) {
        free(b->dir);
        b->dir = mnw_xaligned(64, want);
        b->cap = want;
    }
    b->used = 0;
    b->n = 0;
    b->next = NULL;
    return b;
}

void *mnw_tb_batch_room(mnw_tb_batch *b, size_t bytes)
{
    if (b->used > b->cap || bytes > b->cap - b->used) return NULL;
    void *p = b->dir + b->used;
    b->used = round64(b->used + bytes);
    return p;
}

void mnw_tb_batch_add(mnw_tb_batch *b, mnw_tb_list *l, uint64_t x, const mnw_tb_end *end, const uint8_t *a, int m,
                      const uint8_t *bseq, int n)
{
    if (b->n == b->ncap) {
        b->ncap = b->ncap ? 2 * b->ncap : 64;
        b->items = mnw_xrealloc(b->items, b->ncap * sizeof *b->items);
    }
    tb_item *it = &b->items[b->n++];
    memset(it, 0, sizeof *it);
    it->l = l;
    if (!end) {
        it->none = 1;
        return;
    }
    it->x = x;
    it->end = *end;
    it->a = a;
    it->m = m;
    it->b = bseq;
    it->n = n;
}

void mnw_tb_batch_add_pruned(mnw_tb_batch *b, mnw_tb_list *l, uint64_t x)
{
    if (b->n == b->ncap) {
        b->ncap = b->ncap ? 2 * b->ncap : 64;
        b->items = mnw_xrealloc(b->items, b->ncap * sizeof *b->items);
    }
    tb_item *it = &b->items[b->n++];
    memset(it, 0, sizeof *it);
    it->l = l;
    it->x = x;
    it->pruned = 1;
}

size_t mnw_tb_batch_pairs(const mnw_tb_batch *b) { return b->n; }

void mnw_tb_batch_put(mnw_tb *tb, mnw_tb_batch *b)
{
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    recycle(tb, b);
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
}

int mnw_tb_submit(mnw_tb *tb, mnw_tb_batch *b, mnw_err *e)
{
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    if (b->n == 0 && !tb->aborted) { /* nothing to trace */
        recycle(tb, b);
        CHECK_PT(pthread_mutex_unlock(&tb->mu));
        return 0;
    }
    if (!tb->aborted && tb->st.outstanding_bytes > 0 && tb->st.outstanding_bytes + b->cap > tb->max_bytes)
        tb->st.waits++;
    while (!tb->aborted && tb->st.outstanding_bytes > 0 && tb->st.outstanding_bytes + b->cap > tb->max_bytes)
        CHECK_PT(pthread_cond_wait(&tb->space_cv, &tb->mu));
    if (tb->aborted) {
        recycle(tb, b);
        CHECK_PT(pthread_mutex_unlock(&tb->mu));
        return mnw_err_set(e, "trace-back thread aborted");
    }
    b->next = NULL;
    if (tb->tail) tb->tail->next = b;
    else tb->head = b;
    tb->tail = b;
    tb->st.batches++;
    tb->st.outstanding_bytes += b->cap;
    if (tb->st.outstanding_bytes > tb->st.peak_bytes) tb->st.peak_bytes = tb->st.outstanding_bytes;
    if (b->cap > tb->st.max_batch_bytes) tb->st.max_batch_bytes = b->cap;
    CHECK_PT(pthread_cond_signal(&tb->work_cv));
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
    return 0;
}

void mnw_tb_get_stats(mnw_tb *tb, mnw_tb_stats *st)
{
    CHECK_PT(pthread_mutex_lock(&tb->mu));
    *st = tb->st;
    CHECK_PT(pthread_mutex_unlock(&tb->mu));
}
