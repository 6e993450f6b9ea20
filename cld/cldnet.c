/* cldnet.c - see cldnet.h. */
#include "cld/cldnet.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/log.h"
#include "lib/mpiw.h"
#include "lib/sig.h"
#include "lib/wire.h"

void mnw_cldnet_init(mnw_cldnet *n, mnw_cld *cld, int size, const mnw_cldnet_peer *peers, double timeout,
                     double grace)
{
    memset(n, 0, sizeof *n);
    n->cld = cld;
    n->size = size;
    n->peer = mnw_xcalloc((size_t)size, sizeof *n->peer);
    double now = mnw_now();
    for (int r = 0; r < size; r++) {
        n->peer[r] = peers[r];
        n->peer[r].last_heard = now;
    }
    n->peer[0].bye = 1; /* rank 0's own NLD talks through direct calls */
    n->timeout = timeout;
    n->grace = grace;
    n->beat_every = timeout / 4 < 1.0 ? timeout / 4 : 1.0; /* several beats per timeout */
    n->last_beat = now;
    mnw_buf_init(&n->rx);
    mnw_buf_init(&n->wbuf);
}

void mnw_cldnet_write_own(mnw_cldnet *n, mnw_nldout *out)
{
    n->out = out;
    n->place = mnw_xcalloc((size_t)n->size, sizeof *n->place);
    for (int r = 0; r < n->size; r++) mnw_buf_init(&n->place[r]);
}

void mnw_cldnet_free(mnw_cldnet *n)
{
    for (size_t k = 0; k < n->nrecvs; k++) mnw_buf_free(&n->recvs[k].buf);
    free(n->recvs);
    free(n->peer);
    mnw_buf_free(&n->rx);
    for (int r = 0; n->place && r < n->size; r++) mnw_buf_free(&n->place[r]);
    free(n->place);
    mnw_mpi_sends_free(&n->sends);
    mnw_buf_free(&n->wbuf);
    mnw_wire_written_free(&n->rec);
    memset(n, 0, sizeof *n);
}

/* Busy time is this thread's CPU time (mnw_thread_cpu_s), so that
 * preemption (ranks sharing cores) does not count as the CLD's own cost. */

static void send_ctl(int to, int tag, const void *p, int len)
{
    CHECK_MPI(MPI_Send(p, len, MPI_BYTE, to, tag, MPI_COMM_WORLD));
}

/* A list's pairs, by device, its pruned pairs and cells to rank src's
 * share (progress). */
static void count_pairs(mnw_cldnet_peer *p, uint64_t count, const uint64_t dev_pairs[MNW_RESULT_DEVS], uint64_t pruned,
                        uint64_t cells)
{
    p->pairs += count;
    p->pruned += pruned;
    for (int d = 0; d < MNW_RESULT_DEVS; d++) p->dev_pairs[d] += dev_pairs[d];
    p->cells += cells;
}

/* Counts res for rank src and hands it to the dispatcher (which takes it). */
static int accept_from(mnw_cldnet *n, int src, mnw_result *res, size_t bytes, mnw_err *e)
{
    mnw_cldnet_peer *p = &n->peer[src];
    p->lists++;
    p->lists_out--;
    count_pairs(p, res->r.count, res->dev_pairs, res->pruned, res->cells);
    p->bytes += bytes;
    return mnw_cld_accept(n->cld, res, e);
}

static int take_result(mnw_cldnet *n, int src, const mnw_buf *msg, mnw_err *e)
{
    double t0 = mnw_thread_cpu_s();
    mnw_err e2;
    mnw_result *res = mnw_wire_unpack_result(msg->p, msg->len, &e2);
    int rc = res ? accept_from(n, src, res, msg->len, &e2) : -1;
    n->busy_s += mnw_thread_cpu_s() - t0;
    if (rc) return mnw_err_set(e, "rank %d (%s): %s", src, n->peer[src].host, e2.msg);
    return 0;
}

/* Output through MPI-IO: a list's sizes from rank src (its header). */
static int sized_from(mnw_cldnet *n, int src, const mnw_wire_head *h, mnw_err *e)
{
    count_pairs(&n->peer[src], h->count, h->dev_pairs, h->pruned, h->cells);
    return mnw_cld_sized(n->cld, h, src, e);
}

/* Output through MPI-IO: WRITTEN records p[0..len) from rank src. */
static int written_from(mnw_cldnet *n, int src, const void *p, size_t len, mnw_err *e)
{
    size_t pos = 0;
    int r;
    while ((r = mnw_wire_next_written(p, len, &pos, &n->rec, e)) > 0) {
        n->peer[src].lists++;
        n->peer[src].lists_out--;
        if (mnw_cld_written(n->cld, &n->rec, src, e)) return -1;
    }
    return r;
}

/* Output through MPI-IO: sends every list that can be placed now its
 * offsets (rank 0's own are written here). */
static int drain_places(mnw_cldnet *n, mnw_err *e)
{
    mnw_wire_place pl;
    int r, did = 0;
    while (mnw_cld_take(n->cld, &pl, &r)) {
        did = 1;
        if (r != 0) {
            mnw_buf_put(&n->place[r], &pl, sizeof pl);
            continue;
        }
        double t0 = mnw_thread_cpu_s();
        int w = mnw_nldout_write(n->out, &pl, e);
        n->own_s += mnw_thread_cpu_s() - t0;
        if (w < 0) return -1;
        if (w > 0 && !n->stop_sig)
            return mnw_err_set(e, "pairs %llu were placed for rank 0, which does not hold them (internal)",
                               (unsigned long long)pl.k0);
    }
    for (int k = 1; did && k < n->size; k++) {
        if (!n->place[k].len) continue;
        mnw_mpi_sends_post(&n->sends, &n->place[k], k, MNW_TAG_PLACE); /* a fresh buffer for the next */
    }
    return did;
}

/* Output through MPI-IO: rank 0's own lists written and due for their
 * sync (at once when no more lists go out, or none can until older ones
 * are durable). */
static int sync_own(mnw_cldnet *n, mnw_err *e)
{
    int force = n->cld->next_k >= n->cld->npairs || n->stop_sig || mnw_cld_window_full(n->cld);
    int k = mnw_nldout_sync(n->out, force, &n->wbuf, e);
    if (k <= 0) return k;
    double t0 = mnw_thread_cpu_s();
    int rc = written_from(n, 0, n->wbuf.p, n->wbuf.len, e);
    n->busy_s += mnw_thread_cpu_s() - t0;
    n->wbuf.len = 0;
    return rc < 0 ? -1 : 1;
}

/* Completes result receives that MPI has finished. */
static int finish_recvs(mnw_cldnet *n, mnw_err *e)
{
    int did = 0;
    for (size_t k = 0; k < n->nrecvs;) {
        int flag = 0;
        double t0 = mnw_thread_cpu_s();
        CHECK_MPI(MPI_Test(&n->recvs[k].req, &flag, MPI_STATUS_IGNORE));
        n->busy_s += mnw_thread_cpu_s() - t0;
        if (!flag) {
            k++;
            continue;
        }
        mnw_cldnet_recv r = n->recvs[k];
        n->recvs[k] = n->recvs[--n->nrecvs];
        int rc = take_result(n, r.src, &r.buf, e);
        mnw_buf_free(&r.buf);
        if (rc) return -1;
        did = 1;
    }
    return did;
}

/* Takes every message waiting. >0 if any, 0 if none, -1 on a fatal one. */
static int receive(mnw_cldnet *n, mnw_err *e)
{
    int did = 0;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Message m;
        CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st));
        if (!flag) break;
        int count = 0;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        int src = st.MPI_SOURCE;
        if (st.MPI_TAG == MNW_TAG_RESULT) {
            /* large: received without waiting on the sender (MPI_Imrecv) */
            double t0 = mnw_thread_cpu_s();
            if (n->nrecvs == n->recvs_cap) {
                n->recvs_cap = n->recvs_cap ? 2 * n->recvs_cap : 16;
                n->recvs = mnw_xrealloc(n->recvs, n->recvs_cap * sizeof *n->recvs);
            }
            mnw_cldnet_recv *r = &n->recvs[n->nrecvs++];
            mnw_buf_init(&r->buf);
            mnw_buf_reserve(&r->buf, (size_t)count + 1);
            r->buf.len = (size_t)count;
            r->src = src;
            CHECK_MPI(MPI_Imrecv(r->buf.p, count, MPI_BYTE, &m, &r->req));
            n->peer[src].last_heard = mnw_now();
            n->msgs++;
            n->busy_s += mnw_thread_cpu_s() - t0;
            did = 1;
            continue;
        }
        n->rx.len = 0;
        mnw_buf_reserve(&n->rx, (size_t)count + 1);
        CHECK_MPI(MPI_Mrecv(n->rx.p, count, MPI_BYTE, &m, MPI_STATUS_IGNORE));
        n->rx.len = (size_t)count;
        mnw_cldnet_peer *p = &n->peer[src];
        p->last_heard = mnw_now();
        n->msgs++;
        did = 1;
        switch (st.MPI_TAG) {
        case MNW_TAG_REQ: {
            uint32_t want = 1;
            if (count == sizeof want) memcpy(&want, n->rx.p, sizeof want);
            p->want = want < 1 ? 1 : (int)want;
            break;
        }
        case MNW_TAG_SIZES:
        case MNW_TAG_WRITTEN: {
            mnw_err e2;
            int rc = -1;
            double t0 = mnw_thread_cpu_s(), own0 = n->own_s;
            p->bytes += (uint64_t)count;
            if (!n->out) {
                mnw_err_set(&e2, "sent output metadata, but rank 0 writes the outputs");
            } else if (st.MPI_TAG == MNW_TAG_WRITTEN) {
                rc = written_from(n, src, n->rx.p, n->rx.len, &e2);
            } else {
                mnw_wire_head h;
                rc = mnw_wire_unpack_head(n->rx.p, n->rx.len, &h, &e2);
                if (!rc) rc = sized_from(n, src, &h, &e2);
                if (!rc) rc = drain_places(n, &e2) < 0 ? -1 : 0;
            }
            n->busy_s += mnw_thread_cpu_s() - t0 - (n->own_s - own0); /* rank 0's own writes are not the CLD's */
            if (rc < 0) return mnw_err_set(e, "rank %d (%s): %s", src, p->host, e2.msg);
            break;
        }
        case MNW_TAG_BEAT:
            break;
        case MNW_TAG_BYE:
            p->bye = 1;
            break;
        case MNW_TAG_HALT: {
            int32_t sig = 15;
            if (count == sizeof sig) memcpy(&sig, n->rx.p, sizeof sig);
            LOG_INFO("rank %d (%s) got %s", src, p->host, mnw_sig_name(sig));
            mnw_sig_raise_stop(sig);
            break;
        }
        case MNW_TAG_ERROR:
            n->rx.p[count] = 0;
            return mnw_err_set(e, "rank %d (%s): %s", src, p->host, n->rx.p);
        default:
            return mnw_err_set(e, "rank %d (%s) sent an unknown message (tag %d)", src, p->host, st.MPI_TAG);
        }
    }
    return did;
}

/* Answers waiting requests, round-robin, while the dispatcher has lists. */
static int answer(mnw_cldnet *n)
{
    int did = 0;
    mnw_range rs[64];
    for (int k = 0; k < n->size - 1; k++) { /* each remote rank once, from rr on */
        int r = 1 + (n->rr + k) % (n->size - 1);
        mnw_cldnet_peer *p = &n->peer[r];
        if (!p->want) continue;
        int got = 0, end = 0;
        while (got < p->want && got < 64) {
            int x = mnw_cld_next(n->cld, &rs[got]);
            if (x < 0) end = 1;
            if (x <= 0) break;
            got++;
        }
        if (got) {
            send_ctl(r, MNW_TAG_WORK, rs, (int)(got * sizeof *rs));
            p->lists_out += (uint64_t)got;
            p->want = 0;
            did = 1;
        } else if (end) {
            send_ctl(r, MNW_TAG_DONE, NULL, 0);
            p->want = 0;
            did = 1;
        } else {
            break; /* window full: the others wait too */
        }
    }
    if (n->size > 1) n->rr = (n->rr + 1) % (n->size - 1);
    return did;
}

/* Beats go to every rank until FIN, those that said BYE included: a rank
 * that ran out of work early waits for FIN while this one may be busy for a
 * long time yet (its own lists, the last writes), and it must not take that
 * silence for a dead CLD. A stall of this rank's own loop (the whole job
 * suspended and continued, a long write or fsync) says nothing about the
 * others: their clocks start again. */
static int beat_and_watch(mnw_cldnet *n, mnw_err *e)
{
    double now = mnw_now();
    if (n->last_poll > 0 && now - n->last_poll > n->timeout / 2) {
        LOG_WARN("this rank's own loop did not run for %.0f s (a suspended job, a slow write?); the other ranks get "
                 "a fresh --rank-timeout of %.0f s",
                 now - n->last_poll, n->timeout);
        for (int r = 1; r < n->size; r++) n->peer[r].last_heard = now;
    }
    n->last_poll = now;
    if (now - n->last_beat >= n->beat_every) {
        for (int r = 1; r < n->size; r++) send_ctl(r, MNW_TAG_BEAT, NULL, 0);
        n->last_beat = now;
    }
    for (int r = 1; r < n->size; r++) {
        mnw_cldnet_peer *p = &n->peer[r];
        if (!p->bye && now - p->last_heard > n->timeout)
            return mnw_err_set(e, "rank %d (%s) has sent nothing for %.0f s (--rank-timeout); it holds %llu work list%s; "
                                  "stopping the job",
                               r, p->host, now - p->last_heard, (unsigned long long)p->lists_out,
                               p->lists_out == 1 ? "" : "s");
    }
    return 0;
}

/* Lists handed out and not yet back. */
static uint64_t lists_out(const mnw_cldnet *n, int from)
{
    uint64_t x = 0;
    for (int r = from; r < n->size; r++) x += n->peer[r].lists_out;
    return x;
}

/* A stop signal: no more lists; after the grace, drop those in flight. */
static void watch_stop(mnw_cldnet *n)
{
    int sig = mnw_sig_pending();
    if (!sig) return;
    double now = mnw_now();
    if (!n->stop_sig) {
        n->stop_sig = sig;
        n->stop_at = now + n->grace;
        mnw_cld_stop(n->cld);
        LOG_WARN("%s: stopping: no new work; collecting the %llu work list%s in flight for up to %.1f s, then a last "
                 "bookmark",
                 mnw_sig_name(sig), (unsigned long long)lists_out(n, 0), lists_out(n, 0) == 1 ? "" : "s", n->grace);
    }
    if (!n->dropping && now >= n->stop_at && !mnw_cld_done(n->cld)) {
        n->dropping = 1;
        LOG_WARN("stop: dropping the %llu work list%s still in flight (they are done again on resume)",
                 (unsigned long long)lists_out(n, 0), lists_out(n, 0) == 1 ? "" : "s");
        if (n->out) mnw_nldout_drop(n->out);
        for (int r = 1; r < n->size; r++)
            if (!n->peer[r].bye) send_ctl(r, MNW_TAG_STOP, NULL, 0);
    }
}

static int net_poll(void *ctx, mnw_err *e)
{
    mnw_cldnet *n = ctx;
    watch_stop(n);
    if (n->size == 1 && !n->out) return 0; /* alone: no MPI at all */
    int did = receive(n, e);
    if (did < 0) return -1;
    int f = finish_recvs(n, e);
    if (f < 0) return -1;
    did |= f;
    if (n->out) {
        f = sync_own(n, e);
        if (f < 0) return -1;
        did |= f | mnw_mpi_sends_reap(&n->sends);
    }
    did |= answer(n);
    if (beat_and_watch(n, e)) return -1;
    return did;
}

static int net_next(void *ctx, mnw_range *r, int want)
{
    (void)want;
    mnw_cldnet *n = ctx;
    for (int k = 1; k < n->size; k++)
        if (n->peer[k].want) return 0; /* remote requests first (answered in poll) */
    int x = mnw_cld_next(n->cld, r);
    if (x > 0) n->peer[0].lists_out++;
    return x;
}

static int net_deliver(void *ctx, mnw_result *res, mnw_err *e)
{
    mnw_cldnet *n = ctx;
    if (n->out) { /* rank 0's own list: sized here, written where it is placed */
        if (n->dropping) {
            mnw_result_free(res);
            return 0;
        }
        mnw_wire_head h;
        mnw_nldout_hold(n->out, res, &h);
        double t0 = mnw_thread_cpu_s(), own0 = n->own_s;
        int rc = sized_from(n, 0, &h, e);
        if (!rc) rc = drain_places(n, e) < 0 ? -1 : 0;
        n->busy_s += mnw_thread_cpu_s() - t0 - (n->own_s - own0);
        return rc;
    }
    double t0 = mnw_thread_cpu_s();
    int rc = accept_from(n, 0, res, 0, e);
    n->busy_s += mnw_thread_cpu_s() - t0;
    return rc;
}

static int net_busy(void *ctx)
{
    mnw_cldnet *n = ctx;
    int own = n->out && (n->out->npending > 0 || n->sends.n > 0); /* own writes wait for their sync; PLACE in flight */
    if (n->stop_sig) return (!n->dropping && lists_out(n, 1) > 0) || n->nrecvs > 0 || own;
    return !mnw_cld_done(n->cld) || n->nrecvs > 0 || own;
}

static int net_abandon(void *ctx) { return ((mnw_cldnet *)ctx)->dropping; }

static void net_tick(void *ctx)
{
    mnw_cldnet *n = ctx;
    if (n->tick) n->tick(n->tick_ctx);
}

mnw_nld_link mnw_cldnet_link(mnw_cldnet *n, double wait_s)
{
    mnw_nld_link l = {net_next, net_deliver, net_poll, net_busy, net_abandon, net_tick, wait_s, n};
    return l;
}

int mnw_cldnet_finish(mnw_cldnet *n, int status, mnw_err *e)
{
    for (;;) {
        int all = 1;
        for (int r = 1; r < n->size; r++) all &= n->peer[r].bye;
        if (all && !n->sends.n) break; /* and every PLACE taken (the ranks receive until FIN) */
        int did = net_poll(n, e);
        if (did < 0) return -1;
        if (!did) {
            struct timespec ts = {0, 200 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    int32_t s32 = status;
    for (int r = 1; r < n->size; r++) send_ctl(r, MNW_TAG_FIN, &s32, sizeof s32);
    return 0;
}

void mnw_cldnet_log_ranks(const mnw_cldnet *n, double secs)
{
    for (int r = 0; r < n->size; r++) {
        const mnw_cldnet_peer *p = &n->peer[r];
        LOG_INFO("rank %d (%s, %d workers): %llu work lists, %llu pairs (%llu pruned), %.0f pairs/s, %.2f GCUPS", r,
                 p->host, p->workers, (unsigned long long)p->lists, (unsigned long long)p->pairs,
                 (unsigned long long)p->pruned,
                 secs > 0 ? (double)p->pairs / secs : 0.0, secs > 0 ? (double)p->cells / secs / 1e9 : 0.0);
    }
    /* result bytes that came over MPI (rank 0's own results are handed
     * over in memory), per pair of this run; the CLD's CPU time per pair */
    uint64_t got = 0, pairs = n->cld->watermark - n->cld->start;
    for (int r = 1; r < n->size; r++) got += n->peer[r].bytes;
    LOG_INFO("cld: %llu messages, result bytes received: %llu (%.3f per pair%s); %.4f s taking in results (%s; CPU "
             "time) (%.1f%% of %.2f s; %.3f us per pair): ceiling about %.0f pairs/s",
             (unsigned long long)n->msgs, (unsigned long long)got, pairs ? (double)got / (double)pairs : 0.0,
             n->out ? "; metadata only: the ranks write through MPI-IO" : "",
             n->busy_s, n->out ? "receive sizes, place, count what is synced, bookmark" : "receive, reorder, write",
             secs > 0 ? 100.0 * n->busy_s / secs : 0.0, secs,
             pairs ? 1e6 * n->busy_s / (double)pairs : 0.0, n->busy_s > 0 ? (double)pairs / n->busy_s : 0.0);
}
