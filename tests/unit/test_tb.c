/* test_tb.c - the trace-back thread (workers/tb): CPU workers in
 * matrices-only mode (mnw_cpu_worker_run_tb) on the real 16S-200 set give
 * results byte for byte equal to mnw_cpu_worker_run's, in every scoring
 * mode, for work lists of 1, 7, 333 and 5000 pairs and 1 or 3 workers
 * submitting at once; back-pressure (a tiny limit still completes, with never
 * two batches outstanding); abort (a blocked producer returns at once,
 * nothing leaks); a failing result build reaches deliver as an error; and
 * mnw_tb_trace over a dense GPU-style layout (and a padded, offset one) built
 * by a plain full-matrix DP gives the reference aligner's alignments.
 * MNW_TEST_TB_QUICK=1 (tests/san/run.sh, under ThreadSanitizer, where each
 * alignment costs 10-20 times as much): the first part in linear scoring
 * with lists of 1, 7 and 333 pairs only, the yielding worker on 777 pairs;
 * every kind of check still runs. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fasta.h"
#include "tests/ref/ref_nw.h"
#include "tests/tap.h"
#include "workers/cpu/cpu_worker.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/tb/tb_thread.h"
#include "workers/tb/trace.h"

static mnw_seqset S;
static uint64_t NPAIRS;

/* ---- results collected from deliver ---- */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    const mnw_range *rs;
    size_t nr;
    mnw_result **got; /* by range index */
    int dup, stray, errors, delivered;
    char errmsg[MNW_ERR_MAX];
    int gate; /* abort test: deliver waits while gate == 0 */
    int in_deliver;
} sink;

static void sink_init(sink *s, const mnw_range *rs, size_t nr)
{
    memset(s, 0, sizeof *s);
    CHECK_PT(pthread_mutex_init(&s->mu, NULL));
    CHECK_PT(pthread_cond_init(&s->cv, NULL));
    s->rs = rs;
    s->nr = nr;
    s->got = calloc(nr ? nr : 1, sizeof *s->got);
    s->gate = 1;
}

static void sink_free(sink *s)
{
    for (size_t k = 0; k < s->nr; k++) mnw_result_free(s->got[k]);
    free(s->got);
    CHECK_PT(pthread_cond_destroy(&s->cv));
    CHECK_PT(pthread_mutex_destroy(&s->mu));
}

static void deliver(void *ctx, mnw_result *res, const mnw_err *e)
{
    sink *s = ctx;
    CHECK_PT(pthread_mutex_lock(&s->mu));
    s->in_deliver = 1;
    CHECK_PT(pthread_cond_broadcast(&s->cv));
    while (!s->gate) CHECK_PT(pthread_cond_wait(&s->cv, &s->mu));
    s->delivered++;
    if (!res) {
        s->errors++;
        snprintf(s->errmsg, sizeof s->errmsg, "%s", e ? e->msg : "(no message)");
    } else {
        size_t k = 0;
        while (k < s->nr && s->rs[k].k0 != res->r.k0) k++;
        if (k == s->nr || s->rs[k].count != res->r.count) {
            s->stray++;
            mnw_result_free(res);
        } else if (s->got[k]) {
            s->dup++;
            mnw_result_free(res);
        } else {
            s->got[k] = res;
        }
    }
    CHECK_PT(pthread_mutex_unlock(&s->mu));
}

/* ---- workers submitting to a tb ---- */
typedef struct {
    const mnw_job_spec *js;
    mnw_tb *tb;
    const mnw_range *rs;
    size_t nr;
    pthread_mutex_t mu;
    size_t next;
    int failed;
} feed;

static void *feeder(void *p)
{
    feed *f = p;
    mnw_cpu_worker w;
    mnw_cpu_worker_init(&w, f->js);
    for (;;) {
        CHECK_PT(pthread_mutex_lock(&f->mu));
        size_t k = f->next++;
        CHECK_PT(pthread_mutex_unlock(&f->mu));
        if (k >= f->nr) break;
        mnw_err e;
        if (mnw_cpu_worker_run_tb(&w, f->rs[k], f->tb, &e)) {
            CHECK_PT(pthread_mutex_lock(&f->mu));
            f->failed++;
            CHECK_PT(pthread_mutex_unlock(&f->mu));
            break;
        }
    }
    mnw_cpu_worker_free(&w);
    return NULL;
}

/* Runs ranges rs through `threads` matrices-only workers and one tb;
 * results land in s (initialised by the caller). */
static void run_tb(const mnw_job_spec *js, const mnw_range *rs, size_t nr, int threads, size_t max_bytes, sink *s,
                   mnw_tb_stats *st, int *failed)
{
    mnw_err e;
    mnw_tb *tb = mnw_tb_start(js, max_bytes, deliver, s, &e);
    if (!tb) {
        T_OK(0, "mnw_tb_start: %s", e.msg);
        return;
    }
    feed f = {js, tb, rs, nr, PTHREAD_MUTEX_INITIALIZER, 0, 0};
    pthread_t th[8];
    for (int k = 0; k < threads; k++) CHECK_PT(pthread_create(&th[k], NULL, feeder, &f));
    for (int k = 0; k < threads; k++) CHECK_PT(pthread_join(th[k], NULL));
    mnw_tb_stop(tb, st);
    *failed = f.failed;
    CHECK_PT(pthread_mutex_destroy(&f.mu));
}

static int count_yield(void *ctx) { (*(int *)ctx)++; return 0; }

static int same_result(const mnw_result *a, const mnw_result *b)
{
    if (!a || !b) return 0;
    if (a->r.k0 != b->r.k0 || a->r.count != b->r.count || a->cells != b->cells) return 0;
    for (int o = 0; o < MNW_NOUT; o++) {
        if (a->data[o].len != b->data[o].len) return 0;
        if (a->data[o].len && memcmp(a->data[o].p, b->data[o].p, a->data[o].len)) return 0;
    }
    return 1;
}

/* ranges of `size` pairs spread over the set, the last one ending at the last pair */
static size_t make_ranges(uint64_t size, mnw_range *rs, size_t max)
{
    size_t nr = 0;
    if (size >= 5000) {
        rs[nr++] = (mnw_range){10000, size};
        return nr;
    }
    size_t want = size == 1 ? 40 : size == 7 ? 30 : 6;
    uint64_t step = NPAIRS / want;
    for (size_t k = 0; k < want && nr < max; k++) {
        uint64_t k0 = k * step + (k * 37) % 11;
        if (k + 1 == want) k0 = NPAIRS - size; /* the last pairs */
        rs[nr++] = (mnw_range){k0, size};
    }
    return nr;
}

/* ---- a plain full-matrix DP writing dense direction bits ---- */
#define NEG (INT64_MIN / 4)
static void setbit(uint8_t *p, uint64_t k, int v)
{
    if (v) p[k >> 3] |= (uint8_t)(1u << (k & 7));
}

/* Fills bits per view v (buffer zeroed by the caller) and end->re/ce/score,
 * following docs/SCORING.md literally. */
static void dense_dp(const mnw_scoring *sc, const uint8_t *a, int m, const uint8_t *b, int n, uint8_t *bits,
                     const mnw_dirview *v, mnw_tb_end *end)
{
    size_t w = (size_t)n + 1;
    size_t cells = (size_t)(m + 1) * w;
    int64_t *H = mnw_xcalloc(cells, sizeof *H), *E = mnw_xcalloc(cells, sizeof *E), *F = mnw_xcalloc(cells, sizeof *F);
#define AT(M, r, c) M[(size_t)(r)*w + (size_t)(c)]
    int64_t go = sc->gap_open, ge = sc->gap_extend;
    int affine = mnw_scoring_affine(sc);
    for (int r = 0; r <= m; r++) {
        AT(H, r, 0) = sc->free_ends ? 0 : -mnw_gapcost(sc, r);
        AT(E, r, 0) = AT(F, r, 0) = NEG;
    }
    for (int c = 0; c <= n; c++) {
        AT(H, 0, c) = sc->free_ends ? 0 : -mnw_gapcost(sc, c);
        AT(E, 0, c) = AT(F, 0, c) = NEG;
    }
    for (int r = 1; r <= m; r++)
        for (int c = 1; c <= n; c++) {
            int64_t eo = AT(H, r - 1, c) - go, ex = AT(E, r - 1, c) - ge;
            int64_t fo = AT(H, r, c - 1) - go, fx = AT(F, r, c - 1) - ge;
            int64_t e = eo > ex ? eo : ex, f = fo > fx ? fo : fx;
            int64_t d = AT(H, r - 1, c - 1) + mnw_sub(sc, a[r - 1], b[c - 1]);
            int64_t h = d > e ? d : e;
            if (f > h) h = f;
            AT(H, r, c) = h;
            AT(E, r, c) = e;
            AT(F, r, c) = f;
            uint64_t p = mnw_dirview_pos(v, r, c) - v->a_bit;
            setbit(bits, p + v->a_bit, h == d);
            if (!affine) {
                setbit(bits, p + v->b_bit, f > e);
            } else {
                setbit(bits, p + v->b_bit, h == e);
                setbit(bits, p + v->ext_bit + v->a_bit, ex > eo);
                setbit(bits, p + v->ext_bit + v->b_bit, fx > fo);
            }
        }
    int re = m, ce = n;
    if (sc->free_ends) {
        int bc = 0, br = 0;
        for (int c = 0; c <= n; c++)
            if (AT(H, m, c) >= AT(H, m, bc)) bc = c;
        for (int r = 0; r <= m; r++)
            if (AT(H, r, n) >= AT(H, br, n)) br = r;
        if (AT(H, m, bc) >= AT(H, br, n)) ce = bc;
        else re = br;
    }
    end->v = *v;
    end->re = re;
    end->ce = ce;
    end->score = (int32_t)AT(H, re, ce);
#undef AT
    free(H);
    free(E);
    free(F);
}

static int same_aln(const mnw_aln *x, const mnw_aln *y)
{
    return x->score == y->score && x->nops == y->nops &&
           (x->nops == 0 || memcmp(x->ops, y->ops, x->nops * sizeof *x->ops) == 0);
}

static const mnw_scoring modes[] = {
    {4, -5, 10, 10, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, /* linear (default) */
    {4, -5, 10, 1, 0, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},  /* affine */
    {4, -5, 10, 10, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0}, /* linear, free end gaps */
    {4, -5, 10, 1, 1, MNW_TIE_MNW, MNW_AMB_ZERO, 0, 0, 0, 0},  /* affine, free end gaps */
};
static const char *mode_name[] = {"linear", "affine", "free-end-gaps", "affine+free-end-gaps"};

static void *abort_feeder(void *p)
{
    feed *f = p;
    mnw_cpu_worker w;
    mnw_cpu_worker_init(&w, f->js);
    for (size_t k = 0; k < f->nr; k++) {
        mnw_err e;
        if (mnw_cpu_worker_run_tb(&w, f->rs[k], f->tb, &e)) {
            CHECK_PT(pthread_mutex_lock(&f->mu));
            f->failed++;
            CHECK_PT(pthread_mutex_unlock(&f->mu));
            break;
        }
    }
    mnw_cpu_worker_free(&w);
    return NULL;
}

int main(void)
{
    mnw_err e;
    mnw_seqset_init(&S);
    if (mnw_fasta_read("tests/data/16s-200.fa", &S, &e)) {
        T_OK(0, "read 16s-200: %s", e.msg);
        return t_exit();
    }
    NPAIRS = mnw_npairs(S.n);
    T_OK(S.n == 200 && NPAIRS == 19900, "16s-200: %zu sequences", S.n);

    mnw_outspec spec = {&S, MNW_IDDEF_DEFAULT, -1.0, 1, {1, 1, 1}, MNW_CUTOFF_SCOPE_DIST, {0, {0}}, 0}; /* CIGAR and phylip on */
    const uint64_t sizes[] = {1, 7, 333, 5000};
    const char *q = getenv("MNW_TEST_TB_QUICK");
    int quick = q && *q && strcmp(q, "0");
    size_t nmodes = quick ? 1 : sizeof modes / sizeof *modes, nsizes = quick ? 3 : sizeof sizes / sizeof *sizes;
    if (quick) printf("# MNW_TEST_TB_QUICK: linear scoring, lists of 1, 7 and 333 pairs; yielding on 777 pairs\n");
    mnw_range rs[64];
    mnw_result *ref_lin333[8] = {0};
    mnw_range rs_lin333[8];
    size_t n_lin333 = 0;

    /* 1. tb path == mnw_cpu_worker_run, byte for byte */
    for (size_t mi = 0; mi < nmodes; mi++) {
        mnw_job_spec js = {&spec, &modes[mi], 6, NULL, NULL};
        for (size_t si = 0; si < nsizes; si++) {
            size_t nr = make_ranges(sizes[si], rs, 64);
            mnw_result *ref[64];
            mnw_cpu_worker w;
            mnw_cpu_worker_init(&w, &js);
            int reffail = 0;
            double t0 = mnw_now();
            for (size_t k = 0; k < nr; k++) {
                ref[k] = mnw_cpu_worker_run(&w, rs[k], &e);
                if (!ref[k]) reffail++;
            }
            mnw_cpu_worker_free(&w);
            T_OK(reffail == 0, "%s, lists of %llu: reference results built by mnw_cpu_worker_run (%.1f s)",
                 mode_name[mi], (unsigned long long)sizes[si], mnw_now() - t0);
            for (int threads = 1; threads <= 3; threads += 2) {
                sink s;
                sink_init(&s, rs, nr);
                mnw_tb_stats st;
                int failed = 0;
                size_t maxb = 4 * MNW_TB_BATCH_BYTES;
                double t0 = mnw_now();
                run_tb(&js, rs, nr, threads, maxb, &s, &st, &failed);
                double dt = mnw_now() - t0;
                int diff = 0, missing = 0;
                for (size_t k = 0; k < nr; k++) {
                    if (!s.got[k]) missing++;
                    else if (!same_result(s.got[k], ref[k])) diff++;
                }
                T_OK(failed == 0 && missing == 0 && diff == 0 && s.dup == 0 && s.stray == 0 && s.errors == 0 &&
                         st.lists == nr,
                     "%s, %zu lists of %llu, %d worker%s: every output byte-identical to mnw_cpu_worker_run "
                     "(%d missing, %d differ, %llu batches, %.1f s)",
                     mode_name[mi], nr, (unsigned long long)sizes[si], threads, threads > 1 ? "s" : "", missing,
                     diff, (unsigned long long)st.batches, dt);
                size_t lim = st.max_batch_bytes > maxb ? st.max_batch_bytes : maxb;
                T_OK(st.peak_bytes <= lim && st.outstanding_bytes == 0,
                     "%s, lists of %llu, %d workers: outstanding direction bytes peaked at %zu <= %zu",
                     mode_name[mi], (unsigned long long)sizes[si], threads, st.peak_bytes, lim);
                sink_free(&s);
            }
            if (mi == 0 && sizes[si] == 333) {
                for (size_t k = 0; k < nr; k++) {
                    ref_lin333[k] = ref[k];
                    rs_lin333[k] = rs[k];
                }
                n_lin333 = nr;
            } else {
                for (size_t k = 0; k < nr; k++) mnw_result_free(ref[k]);
            }
        }
    }

    /* 2. back-pressure: a 1-byte limit still completes, one batch at a time */
    {
        mnw_job_spec js = {&spec, &modes[0], 6, NULL, NULL};
        sink s;
        n_lin333 = 2; /* 2 x 333 pairs: about 30 batches */
        sink_init(&s, rs_lin333, n_lin333);
        mnw_tb_stats st;
        int failed = 0;
        run_tb(&js, rs_lin333, n_lin333, 3, 1, &s, &st, &failed);
        int diff = 0;
        for (size_t k = 0; k < n_lin333; k++) diff += !same_result(s.got[k], ref_lin333[k]);
        T_OK(failed == 0 && diff == 0 && st.lists == n_lin333,
             "max_bytes = 1, 3 workers: all %zu lists complete and identical (%d differ)", n_lin333, diff);
        T_OK(st.peak_bytes == st.max_batch_bytes && st.peak_bytes > 0,
             "max_bytes = 1: never two batches outstanding (peak %zu bytes = largest batch %zu; %llu batches, "
             "%llu submits waited)",
             st.peak_bytes, st.max_batch_bytes, (unsigned long long)st.batches, (unsigned long long)st.waits);
        sink_free(&s);
        for (size_t k = 0; k < 8; k++) mnw_result_free(ref_lin333[k]);
    }

    /* 3. abort: a producer blocked by back-pressure returns at once */
    {
        mnw_job_spec js = {&spec, &modes[0], 6, NULL, NULL};
        mnw_range ar[2] = {{100, 7}, {5000, 333}};
        sink s;
        sink_init(&s, ar, 2);
        s.gate = 0; /* the first deliver blocks, so the tb stalls */
        mnw_tb *tb = mnw_tb_start(&js, 1, deliver, &s, &e);
        feed f = {&js, tb, ar, 2, PTHREAD_MUTEX_INITIALIZER, 0, 0};
        pthread_t th;
        CHECK_PT(pthread_create(&th, NULL, abort_feeder, &f));
        mnw_tb_stats st;
        int waited = 0;
        /* both: the producer waits, and the first list is in deliver (a
         * loaded machine can make the producer wait while the list is still
         * being traced: aborted then, it would never be delivered) */
        int indel = 0;
        for (int k = 0; k < 6000 && !(waited && indel); k++) { /* up to a minute */
            mnw_tb_get_stats(tb, &st);
            waited = st.waits > 0;
            CHECK_PT(pthread_mutex_lock(&s.mu));
            indel = s.in_deliver;
            CHECK_PT(pthread_mutex_unlock(&s.mu));
            if (!(waited && indel)) usleep(10000);
        }
        T_OK(waited && indel, "abort test: the producer waits on back-pressure while deliver is held");
        mnw_tb_abort(tb);
        CHECK_PT(pthread_join(th, NULL)); /* returns although deliver is still held */
        T_OK(f.failed == 1, "after mnw_tb_abort the blocked run_tb returns -1");
        CHECK_PT(pthread_mutex_lock(&s.mu));
        s.gate = 1;
        CHECK_PT(pthread_cond_broadcast(&s.cv));
        CHECK_PT(pthread_mutex_unlock(&s.mu));
        mnw_tb_stop(tb, NULL);
        T_OK(s.got[0] && !s.got[1] && s.delivered == 1,
             "abort: the list being delivered completes, the aborted one is never delivered");
        mnw_tb *tb2 = mnw_tb_start(&js, 1, deliver, &s, &e);
        mnw_tb_abort(tb2);
        mnw_cpu_worker w;
        mnw_cpu_worker_init(&w, &js);
        T_OK(mnw_cpu_worker_run_tb(&w, ar[0], tb2, &e) == -1 && strstr(e.msg, "abort"),
             "run_tb after abort fails: %s", e.msg);
        mnw_cpu_worker_free(&w);
        mnw_tb_stop(tb2, NULL);
        CHECK_PT(pthread_mutex_destroy(&f.mu));
        sink_free(&s);
    }

    /* 4. a result that cannot be built reaches deliver as an error */
    {
        mnw_job_spec js = {&spec, &modes[0], 99, NULL, NULL}; /* no such gzip level */
        mnw_range er[2] = {{0, 7}, {300, 40}};
        sink s;
        sink_init(&s, er, 2);
        mnw_tb_stats st;
        int failed = 0;
        run_tb(&js, er, 2, 1, 4 * MNW_TB_BATCH_BYTES, &s, &st, &failed);
        T_OK(s.errors == 2 && !s.got[0] && !s.got[1] && strstr(s.errmsg, "gzip"),
             "gzip failure: deliver(NULL, \"%s\") for each list", s.errmsg);
        sink_free(&s);
    }

    /* 4b. a worker that yields between lane groups (what an aligning worker
     * does beside GPUs, to finish their results) builds the same results */
    {
        mnw_job_spec js = {&spec, &modes[1], 6, NULL, NULL};
        mnw_range yr[2] = {{0, 5000}, {19900 - 777, 777}};
        int calls = 0, diff = 0, npairs = quick ? 777 : 5777;
        for (int k = quick ? 1 : 0; k < 2; k++) {
            mnw_cpu_worker a, b;
            mnw_cpu_worker_init(&a, &js);
            mnw_cpu_worker_init(&b, &js);
            b.scratch.yield = count_yield;
            b.scratch.yield_ctx = &calls;
            mnw_result *ra = mnw_cpu_worker_run(&a, yr[k], &e), *rb = mnw_cpu_worker_run(&b, yr[k], &e);
            diff += !ra || !rb || !same_result(ra, rb);
            mnw_result_free(ra);
            mnw_result_free(rb);
            mnw_cpu_worker_free(&a);
            mnw_cpu_worker_free(&b);
        }
        T_OK(diff == 0 && calls >= npairs / mnw_cpu_lanes(),
             "a worker yielding between lane groups gives the same results (%d yields for %d pairs)", calls, npairs);
    }

    /* 5. an empty work list still completes through the tb */
    {
        mnw_job_spec js = {&spec, &modes[0], 6, NULL, NULL};
        mnw_range er[1] = {{50, 0}};
        sink s;
        sink_init(&s, er, 1);
        mnw_tb_stats st;
        int failed = 0;
        run_tb(&js, er, 1, 1, 1, &s, &st, &failed);
        mnw_cpu_worker w;
        mnw_cpu_worker_init(&w, &js);
        mnw_result *ref = mnw_cpu_worker_run(&w, er[0], &e);
        mnw_cpu_worker_free(&w);
        T_OK(failed == 0 && same_result(s.got[0], ref), "a work list of no pairs is delivered, as run gives it");
        mnw_result_free(ref);
        sink_free(&s);
    }

    /* 6. dense GPU-style layouts: mnw_tb_trace == the reference aligner */
    {
        const uint64_t pk[][4] = {/* i, j, cut of i, cut of j (0: whole) */
                                  {1, 0, 0, 0},     {57, 12, 0, 0},   {199, 198, 0, 0}, {120, 33, 400, 0},
                                  {77, 5, 0, 350},  {150, 149, 90, 600}, {30, 29, 1, 0}, {31, 2, 0, 1}};
        mnw_aln ref, got, cpu;
        mnw_aln_init(&ref);
        mnw_aln_init(&got);
        mnw_aln_init(&cpu);
        mnw_cpu_ws *ws = mnw_cpu_ws_new();
        for (size_t mi = 0; mi < sizeof modes / sizeof *modes; mi++) {
            const mnw_scoring *sc = &modes[mi];
            int affine = mnw_scoring_affine(sc);
            int bad_dense = 0, bad_odd = 0, bad_blk = 0, bad_tr = 0, bad_st = 0, bad_st_map = 0, bad_cpu = 0, npk = (int)(sizeof pk / sizeof *pk);
            for (int p = 0; p < npk; p++) {
                const uint8_t *a = mnw_seq_codes(&S, pk[p][0]), *b = mnw_seq_codes(&S, pk[p][1]);
                int m = (int)mnw_seq_len(&S, pk[p][0]), n = (int)mnw_seq_len(&S, pk[p][1]);
                if (pk[p][2]) m = (int)pk[p][2];
                if (pk[p][3]) n = (int)pk[p][3];
                ref_nw(sc, a, m, b, n, &ref);
                /* the dense row-major layout a GPU kernel writes */
                size_t bytes = (size_t)mnw_dirview_dense_bytes(m, n, affine);
                uint8_t *bits = calloc(bytes + 1, 1);
                mnw_dirview v = mnw_dirview_dense(bits, 0, n, affine);
                mnw_tb_end end;
                dense_dp(sc, a, m, b, n, bits, &v, &end);
                mnw_tb_trace(&end, affine, a, m, b, n, &got);
                bad_dense += !same_aln(&got, &ref);
                free(bits);
                /* an odd one: cell (1,1) at bit 5, rows padded by 3 cells, B below A */
                uint64_t cb = affine ? 4 : 2;
                mnw_dirview o = {NULL, 5, cb * (uint64_t)(n + 3), cb, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
                bytes = (size_t)((5 + (uint64_t)m * o.row_bits + 7) / 8);
                bits = calloc(bytes + 1, 1);
                o.base = bits;
                dense_dp(sc, a, m, b, n, bits, &o, &end);
                mnw_tb_trace(&end, affine, a, m, b, n, &got);
                bad_odd += !same_aln(&got, &ref);
                free(bits);
                /* the GPU kernels' skewed row blocks (workers/gpu): 16 rows per
                 * word (two words with affine gaps), word (tg, c) at
                 * (c - 1 + tg) * nrb + tg */
                uint64_t W = affine ? 64 : 32, nrb = ((uint64_t)m + 15) / 16;
                mnw_dirview g = {NULL, 0, (nrb + 1) * W, nrb * W, 0, 1, 32, 4, 2, 0, 0, 0, 0, 0, 0, 0};
                bytes = (size_t)(((uint64_t)n + nrb) * nrb * W / 8);
                bits = calloc(bytes + 1, 1);
                g.base = bits;
                dense_dp(sc, a, m, b, n, bits, &g, &end);
                mnw_tb_trace(&end, affine, a, m, b, n, &got);
                bad_blk += !same_aln(&got, &ref);
                free(bits);
                /* the same layout for the transposed n x m matrix, read with
                 * r and c swapped (the two-pairs-per-lane kernels) */
                uint64_t nrbt = ((uint64_t)n + 15) / 16;
                mnw_dirview gt = {NULL, 0, (nrbt + 1) * W, nrbt * W, 0, 1, 32, 4, 2, 0, 1, 0, 0, 0, 0, 0};
                bytes = (size_t)(((uint64_t)m + nrbt) * nrbt * W / 8);
                bits = calloc(bytes + 1, 1);
                gt.base = bits;
                dense_dp(sc, a, m, b, n, bits, &gt, &end);
                mnw_tb_trace(&end, affine, a, m, b, n, &got);
                bad_tr += !same_aln(&got, &ref);
                free(bits);
                /* the two-pairs-per-lane kernels' streamed layout of the
                 * transposed matrix (gpu_kern_int.h): stripes of 32 blocks, each
                 * a stream of groups of G steps, G = 4 (linear) or 2 (affine) */
                {
                    const uint32_t gs = affine ? 1u : 2u, G = 1u << gs;
                    mnw_dirview st = gt;
                    st.stream = 1;
                    st.gshift = gs;
                    st.nrb = (uint32_t)nrbt;
                    st.sstep = ((uint32_t)m + 31 + G - 1) & ~(G - 1);
                    st.row_bits = 0;
                    st.col_bits = W;
                    const uint64_t sbits = nrbt * st.sstep * W;
                    bytes = (size_t)(sbits / 8);
                    bits = calloc(bytes + 1, 1);
                    st.base = bits;
                    /* every cell's word lies inside the pair's nrb * sstep
                     * words, and no two cells share a word and row */
                    uint8_t *seen = calloc((size_t)(sbits / 2 / 8) + 1, 1);
                    for (int r = 1; r <= m; r++)
                        for (int c = 1; c <= n; c++) {
                            uint64_t q = mnw_dirview_pos(&st, r, c) - st.a_bit;
                            if (q + W > sbits || (q % 2) || mnw_tbw_bit(seen, q / 2)) bad_st_map++;
                            setbit(seen, q / 2, 1);
                        }
                    free(seen);
                    dense_dp(sc, a, m, b, n, bits, &st, &end);
                    mnw_tb_trace(&end, affine, a, m, b, n, &got);
                    bad_st += !same_aln(&got, &ref);
                    free(bits);
                }
                /* and the CPU kernels' own layout through the dispatcher */
                const uint8_t *tp[1] = {b};
                int nn[1] = {n};
                mnw_cpu_align(ws, sc, a, m, tp, nn, 1, &cpu);
                bad_cpu += !same_aln(&cpu, &ref);
            }
            T_OK(bad_dense == 0, "%s: dense 2/4-bit row-major layout traces to the reference alignment (%d pairs, %d differ)",
                 mode_name[mi], npk, bad_dense);
            T_OK(bad_blk == 0, "%s: skewed 16-row blocks (the GPU layout) trace to the reference (%d differ)", mode_name[mi],
                 bad_blk);
            T_OK(bad_tr == 0, "%s: the GPU layout of the transposed matrix, read transposed, traces to the reference (%d differ)",
                 mode_name[mi], bad_tr);
            T_OK(bad_st == 0,
                 "%s: the streamed layout of the transposed matrix (two pairs per lane, groups of steps) traces to the "
                 "reference (%d differ)",
                 mode_name[mi], bad_st);
            T_OK(bad_st_map == 0, "%s: the streamed layout gives every cell its own bits inside nrb * sstep words (%d clash)",
                 mode_name[mi], bad_st_map);
            T_OK(bad_odd == 0, "%s: offset, padded layout with B below A traces to the reference (%d differ)",
                 mode_name[mi], bad_odd);
            T_OK(bad_cpu == 0, "%s: the CPU kernel agrees on the same pairs (%d differ)", mode_name[mi], bad_cpu);
        }
        mnw_cpu_ws_free(ws);
        mnw_aln_free(&ref);
        mnw_aln_free(&got);
        mnw_aln_free(&cpu);
    }

    /* 7. matrices-only groups equal mnw_cpu_align, lane for lane */
    {
        mnw_cpu_ws *ws = mnw_cpu_ws_new();
        int bad = 0, groups = 0;
        mnw_aln got, want[200];
        mnw_aln_init(&got);
        for (int k = 0; k < 200; k++) mnw_aln_init(&want[k]);
        for (size_t mi = 0; mi < sizeof modes / sizeof *modes; mi++) {
            const mnw_scoring *sc = &modes[mi];
            uint64_t i = 150;
            const uint8_t *q = mnw_seq_codes(&S, i);
            int m = (int)mnw_seq_len(&S, i);
            const uint8_t *t[150];
            int n[150];
            for (int x = 0; x < 150; x++) {
                t[x] = mnw_seq_codes(&S, (size_t)x);
                n[x] = (int)mnw_seq_len(&S, (size_t)x);
            }
            mnw_cpu_align(ws, sc, q, m, t, n, 150, want);
            mnw_tb_end ends[64];
            for (int k = 0; k < 150;) {
                mnw_cpu_group g;
                mnw_cpu_plan(sc, m, n + k, 150 - k, &g);
                void *dir = aligned_alloc(64, (g.dir_bytes + 63) / 64 * 64 + 64);
                mnw_cpu_dirs(ws, &g, sc, q, m, t + k, n + k, dir, ends);
                for (int l = 0; l < g.count; l++) {
                    mnw_tb_trace(&ends[l], mnw_scoring_affine(sc), q, m, t[k + l], n[k + l], &got);
                    bad += !same_aln(&got, &want[k + l]);
                }
                free(dir);
                groups++;
                k += g.count;
            }
        }
        T_OK(bad == 0, "mnw_cpu_plan/mnw_cpu_dirs + mnw_tb_trace == mnw_cpu_align (4 modes, %d groups, %d differ)",
             groups, bad);
        mnw_aln_free(&got);
        for (int k = 0; k < 200; k++) mnw_aln_free(&want[k]);
        mnw_cpu_ws_free(ws);
    }

    mnw_seqset_free(&S);
    return t_exit();
}
