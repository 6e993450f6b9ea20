/* nldnet.c - see nldnet.h. */
#include "nld/nldnet.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/log.h"
#include "lib/mpiw.h"
#include "lib/sig.h"
#include "lib/wire.h"

void mnw_nldnet_init(mnw_nldnet *n, const char *cld_host, double timeout)
{
    memset(n, 0, sizeof *n);
    snprintf(n->cld_host, sizeof n->cld_host, "%s", cld_host);
    n->timeout = timeout;
    n->beat_every = timeout / 4 < 1.0 ? timeout / 4 : 1.0; /* several beats per timeout */
    n->last_beat = n->last_heard = mnw_now();
    mnw_buf_init(&n->rx);
    mnw_buf_init(&n->wbuf);
}

void mnw_nldnet_free(mnw_nldnet *n)
{
    mnw_mpi_sends_free(&n->sends);
    free(n->q);
    mnw_buf_free(&n->rx);
    mnw_buf_free(&n->wbuf);
    memset(n, 0, sizeof *n);
}

static void send_ctl(int tag, const void *p, int len)
{
    CHECK_MPI(MPI_Send(p, len, MPI_BYTE, 0, tag, MPI_COMM_WORLD));
}

static void push_range(mnw_nldnet *n, mnw_range r)
{
    if (n->qn == n->qcap) {
        size_t cap = n->qcap ? 2 * n->qcap : 64;
        mnw_range *q = mnw_xmalloc(cap * sizeof *q);
        for (size_t k = 0; k < n->qn; k++) q[k] = n->q[(n->qhead + k) % n->qcap];
        free(n->q);
        n->q = q;
        n->qcap = cap;
        n->qhead = 0;
    }
    n->q[(n->qhead + n->qn) % n->qcap] = r;
    n->qn++;
}

static int receive(mnw_nldnet *n, mnw_err *e)
{
    int did = 0;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
        if (!flag) break;
        int count = 0;
        CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        n->rx.len = 0;
        mnw_buf_reserve(&n->rx, (size_t)count + 1);
        CHECK_MPI(MPI_Recv(n->rx.p, count, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        n->last_heard = mnw_now();
        did = 1;
        switch (st.MPI_TAG) {
        case MNW_TAG_WORK:
            for (size_t k = 0; k + sizeof(mnw_range) <= (size_t)count; k += sizeof(mnw_range)) {
                mnw_range r;
                memcpy(&r, n->rx.p + k, sizeof r);
                push_range(n, r);
            }
            n->asked = 0;
            break;
        case MNW_TAG_DONE:
            n->done = 1;
            n->asked = 0;
            break;
        case MNW_TAG_BEAT:
            break;
        case MNW_TAG_FIN:
            n->fin = 1;
            if (count == sizeof(int32_t)) {
                int32_t s32;
                memcpy(&s32, n->rx.p, sizeof s32);
                n->fin_status = s32;
            }
            break;
        case MNW_TAG_STOP:
            if (!n->stop) LOG_INFO("rank 0 stops the job: dropping the work lists in flight");
            n->stop = 1;
            if (n->out) mnw_nldout_drop(n->out);
            break;
        case MNW_TAG_PLACE:
            if (!n->out) return mnw_err_set(e, "rank 0 (%s) placed work lists, but this rank sends them", n->cld_host);
            for (size_t k = 0; k + sizeof(mnw_wire_place) <= (size_t)count; k += sizeof(mnw_wire_place)) {
                mnw_wire_place pl;
                memcpy(&pl, n->rx.p + k, sizeof pl);
                int w = mnw_nldout_write(n->out, &pl, e);
                if (w < 0) return -1;
                if (w > 0 && !n->stop)
                    return mnw_err_set(e, "rank 0 (%s) placed pairs %llu, which this rank does not hold", n->cld_host,
                                       (unsigned long long)pl.k0);
            }
            break;
        default:
            return mnw_err_set(e, "rank 0 (%s) sent an unknown message (tag %d)", n->cld_host, st.MPI_TAG);
        }
    }
    return did;
}

/* Rank 0 beats to every rank until FIN (cldnet.c), so its silence for
 * --rank-timeout seconds means a dead or stopped CLD, also while this rank
 * waits for FIN. A stall of this rank's own loop (the job suspended and
 * continued) is not rank 0's silence: the clock starts again. 0, or -1
 * with e set. */
static int watch(mnw_nldnet *n, mnw_err *e)
{
    double now = mnw_now();
    if (n->last_poll > 0 && now - n->last_poll > n->timeout / 2) {
        LOG_WARN("this rank's own loop did not run for %.0f s (a suspended job?); rank 0 gets a fresh --rank-timeout",
                 now - n->last_poll);
        n->last_heard = now;
    }
    n->last_poll = now;
    if (now - n->last_heard > n->timeout)
        return mnw_err_set(e, "rank 0 (%s), the CLD, has sent nothing for %.0f s (--rank-timeout); stopping",
                           n->cld_host, now - n->last_heard);
    return 0;
}

static int net_poll(void *ctx, mnw_err *e)
{
    mnw_nldnet *n = ctx;
    int did = mnw_mpi_sends_reap(&n->sends);
    int r = receive(n, e);
    if (r < 0) return -1;
    did |= r;
    int sig = mnw_sig_pending();
    if (sig && !n->halt_sent) { /* rank 0 decides how the job stops */
        LOG_INFO("%s: asking rank 0 to stop the job", mnw_sig_name(sig));
        int32_t s32 = sig;
        send_ctl(MNW_TAG_HALT, &s32, sizeof s32);
        n->halt_sent = 1;
    }
    if (n->out) { /* lists written: synced, then reported; at once when no more work comes, or when this
                     rank waits for work (rank 0's window may wait for these lists) */
        int idle = n->qn == 0 && n->asked;
        int k = mnw_nldout_sync(n->out, n->done || n->stop || n->halt_sent || idle, &n->wbuf, e);
        if (k < 0) return -1;
        if (k > 0) { /* not blocking: rank 0 may be sending PLACE to this rank at the same time */
            mnw_buf b;
            mnw_buf_init(&b);
            mnw_buf_put(&b, n->wbuf.p, n->wbuf.len);
            n->wbuf.len = 0;
            mnw_mpi_sends_post(&n->sends, &b, 0, MNW_TAG_WRITTEN);
            did = 1;
        }
    }
    double now = mnw_now();
    if (now - n->last_beat >= n->beat_every) {
        send_ctl(MNW_TAG_BEAT, NULL, 0);
        n->last_beat = now;
    }
    if (watch(n, e)) return -1;
    /* while results are in flight, keep turning: MPI moves a large message
     * only while both sides call it */
    return did || n->sends.n > 0;
}

static int net_next(void *ctx, mnw_range *r, int want)
{
    mnw_nldnet *n = ctx;
    if (n->qn) {
        *r = n->q[n->qhead];
        n->qhead = (n->qhead + 1) % n->qcap;
        n->qn--;
        return 1;
    }
    if (n->done) return -1;
    if (!n->asked) {
        uint32_t w = want < 1 ? 1u : (uint32_t)want;
        send_ctl(MNW_TAG_REQ, &w, sizeof w);
        n->asked = 1;
    }
    return 0;
}

static int net_deliver(void *ctx, mnw_result *res, mnw_err *e)
{
    (void)e;
    mnw_nldnet *n = ctx;
    if (n->out) { /* the sizes go to rank 0, the bytes wait for their place */
        if (n->stop) {
            mnw_result_free(res);
            return 0;
        }
        mnw_wire_head h;
        mnw_nldout_hold(n->out, res, &h);
        send_ctl(MNW_TAG_SIZES, &h, (int)sizeof h);
        return 0;
    }
    mnw_buf b;
    mnw_buf_init(&b);
    mnw_wire_pack_result(res, &b);
    mnw_result_free(res);
    if (b.len > (size_t)0x7fffffff) {
        size_t len = b.len;
        mnw_buf_free(&b);
        return mnw_err_set(e, "a result message of %zu bytes is over MPI's 2 GiB; use a smaller --worklist-size", len);
    }
    mnw_mpi_sends_post(&n->sends, &b, 0, MNW_TAG_RESULT);
    return 0;
}

static int net_busy(void *ctx)
{
    mnw_nldnet *n = ctx;
    return n->sends.n > 0 || (n->out && mnw_nldout_busy(n->out));
}

static int net_abandon(void *ctx) { return ((mnw_nldnet *)ctx)->stop; }

mnw_nld_link mnw_nldnet_link(mnw_nldnet *n, double wait_s)
{
    mnw_nld_link l = {net_next, net_deliver, net_poll, net_busy, net_abandon, NULL, wait_s, n};
    return l;
}

static void nap(void)
{
    struct timespec ts = {0, 200 * 1000};
    nanosleep(&ts, NULL);
}

int mnw_nldnet_finish(mnw_nldnet *n, mnw_err *e)
{
    while (net_busy(n)) {
        int did = net_poll(n, e);
        if (did < 0) return -1;
        if (!did) nap();
    }
    send_ctl(MNW_TAG_BYE, NULL, 0);
    while (!n->fin) {
        int did = receive(n, e);
        if (did < 0 || watch(n, e)) return -1;
        if (!did) nap();
    }
    return 0;
}

void mnw_nldnet_fail(mnw_nldnet *n, const char *msg, double grace)
{
    send_ctl(MNW_TAG_ERROR, msg, (int)strlen(msg));
    double t0 = mnw_now();
    mnw_err e;
    while (mnw_now() - t0 < grace) {
        if (receive(n, &e) < 0) break;
        nap();
    }
}
