/* cldnet.h - the CLD's side of the MPI protocol, on rank 0: answers the work
 * requests of the other ranks' NLDs from the dispatcher (cld.h), takes their
 * result messages into the reorder buffer, exchanges heartbeats (to every
 * rank until FIN, those that said BYE included), and ends
 * the job cleanly (every rank says BYE, then FIN) or with an error naming
 * the rank and host (a rank that reports an error, or sends nothing for
 * `timeout` seconds). A stop signal (sig.h, on rank 0 or passed on by a
 * rank's HALT) stops the dispatcher handing out lists; the lists in flight
 * are collected for `grace` seconds, then dropped (STOP to every rank, and
 * rank 0's own NLD through the link's abandon). It also gives rank 0's own NLD its link (nld.h):
 * local requests go straight to the dispatcher, after the remote ones
 * waiting. With output through MPI-IO (mnw_cldnet_write_own) it takes
 * sizes instead of results, sends each list's offsets to its writer (rank
 * 0's own lists go to rank 0's writer directly), and counts lists durable
 * when their writers report them written and synced. Protocol:
 * docs/DISTRIBUTED.md.
 *
 * MPI: point-to-point only (MPI_Send, MPI_Isend, MPI_Improbe, MPI_Mrecv,
 * MPI_Imrecv, MPI_Test), no collective call.
 * Ownership: borrows the mnw_cld; owns its peer table and receive buffer.
 * Thread-safety: only the MPI thread (rank 0's comm thread) may call it.
 */
#ifndef MNW_CLDNET_H
#define MNW_CLDNET_H

#include <mpi.h>

#include "cld/cld.h"
#include "lib/buf.h"
#include "lib/mpisend.h"
#include "nld/nld.h"
#include "nld/nldout.h"

typedef struct {
    char host[64];
    int workers;
    int want;          /* lists asked for and not yet answered (0: no request) */
    int bye;           /* said BYE: sends nothing more */
    double last_heard; /* mnw_now() of its last message */
    uint64_t lists_out, lists, pairs, cells, bytes;
    uint64_t pruned;   /* of its pairs, those the filter pruned (lib/prune.h) */
    uint64_t dev_pairs[MNW_RESULT_DEVS]; /* pairs by device: [0] CPU, [1 + k] GPU k */
} mnw_cldnet_peer;

typedef struct {
    MPI_Request req;
    mnw_buf buf;
    int src;
} mnw_cldnet_recv;

typedef struct {
    mnw_cld *cld;
    int size;               /* ranks */
    mnw_cldnet_peer *peer;  /* by rank; peer[0] is rank 0's own NLD */
    mnw_buf rx;              /* control messages */
    mnw_cldnet_recv *recvs;  /* result messages being received (MPI_Imrecv) */
    size_t nrecvs, recvs_cap;
    double timeout, beat_every, last_beat;
    double last_poll;       /* mnw_now() of the last watch (0: none yet) */
    double busy_s;          /* time spent taking in results: the CLD's own cost */
    double own_s;           /* of it, rank 0's own writes (MPI-IO: its NLD's work, not the CLD's) */
    uint64_t msgs;
    int rr;                 /* round-robin start for answering requests */
    double grace;           /* seconds a stop waits for the lists in flight */
    int stop_sig;           /* the stop signal being handled (0: none) */
    double stop_at;         /* when the lists still in flight are dropped */
    int dropping;           /* past stop_at: STOP sent, lists in flight dropped */
    void (*tick)(void *);   /* progress report, called by the link's tick */
    void *tick_ctx;
    mnw_nldout *out;        /* output through MPI-IO: rank 0's own writes (NULL: the CLD writes all) */
    mnw_buf *place;         /* by rank: PLACE records to send */
    mnw_mpi_sends sends;    /* PLACE messages in flight (MPI_Isend: a rank may be sending
                               WRITTEN to rank 0 at the same time) */
    mnw_buf wbuf;           /* rank 0's WRITTEN records */
    mnw_wire_written rec;   /* scratch */
} mnw_cldnet;

/* peers[r] gives each rank's host and worker count (gathered at start). */
void mnw_cldnet_init(mnw_cldnet *n, mnw_cld *cld, int size, const mnw_cldnet_peer *peers, double timeout,
                     double grace);
void mnw_cldnet_free(mnw_cldnet *n);
/* Output through MPI-IO: the nodes write; rank 0's NLD through out
 * (borrowed, joined: nldout.h). Before the run starts. */
void mnw_cldnet_write_own(mnw_cldnet *n, mnw_nldout *out);
/* The link for rank 0's own NLD (ctx = n). */
mnw_nld_link mnw_cldnet_link(mnw_cldnet *n, double wait_s);
/* After rank 0's NLD loop returned (every result written, or a stop):
 * waits for every rank's BYE, then sends FIN with the job's exit status
 * (0, or MNW_EXIT_STOPPED). 0 or -1 with e set (a rank failed or went
 * silent). */
int mnw_cldnet_finish(mnw_cldnet *n, int status, mnw_err *e) MNW_MUST_CHECK;
/* One line per rank into the log: lists, pairs, pruned, pairs/s over `secs`. */
void mnw_cldnet_log_ranks(const mnw_cldnet *n, double secs);

#endif
