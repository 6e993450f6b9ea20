/* nldnet.h - an NLD's link to the CLD over MPI, on ranks 1..N-1: asks for
 * work lists when the queue runs low (one request outstanding, for as many
 * lists as the queue lacks), sends each result as one message
 * (non-blocking; the buffer is kept until MPI is done with it) or, with
 * output through MPI-IO (mnw_nldnet_write_own), writes it itself: it sends
 * the result's sizes, writes the bytes where the CLD places them, and
 * reports them once synced (nldout.h), exchanges
 * heartbeats, and ends with BYE / FIN. A stop signal on this rank is passed
 * to the CLD (HALT), which stops the whole job; STOP from the CLD makes the
 * NLD drop its lists in flight (docs/RESUME.md). A CLD silent for `timeout` seconds
 * is an error naming rank 0 and its host, also after BYE (rank 0 beats to
 * every rank until FIN). Protocol: docs/DISTRIBUTED.md.
 *
 * MPI: point-to-point only (MPI_Send, MPI_Isend, MPI_Iprobe, MPI_Recv,
 * MPI_Test), no collective call.
 * Ownership: owns the queued ranges and the send buffers.
 * Thread-safety: only the MPI thread (this rank's comm thread) may call it.
 */
#ifndef MNW_NLDNET_H
#define MNW_NLDNET_H

#include <mpi.h>

#include "lib/buf.h"
#include "lib/mpisend.h"
#include "nld/nld.h"
#include "nld/nldout.h"

typedef struct {
    char cld_host[64];
    mnw_range *q;            /* work lists received, not yet taken */
    size_t qhead, qn, qcap;
    int asked, done, fin;
    int fin_status; /* the job's exit status, sent with FIN (0 or MNW_EXIT_STOPPED) */
    int stop;      /* the CLD said STOP: drop the lists in flight */
    int halt_sent; /* this rank's stop signal was passed to the CLD */
    mnw_mpi_sends sends;     /* results (or WRITTEN records) in flight */
    mnw_buf rx;
    double timeout, beat_every, last_beat, last_heard;
    double last_poll; /* mnw_now() of the last watch (0: none yet) */
    mnw_nldout *out;  /* output through MPI-IO: this rank's writes (NULL: results go to rank 0) */
    mnw_buf wbuf;     /* WRITTEN records to send */
} mnw_nldnet;

void mnw_nldnet_init(mnw_nldnet *n, const char *cld_host, double timeout);
void mnw_nldnet_free(mnw_nldnet *n);
mnw_nld_link mnw_nldnet_link(mnw_nldnet *n, double wait_s);
/* Output through MPI-IO: results are written through out (borrowed, joined). */
static inline void mnw_nldnet_write_own(mnw_nldnet *n, mnw_nldout *out) { n->out = out; }
/* After the NLD loop returned 0: BYE, then wait for FIN. 0 or -1 with e set. */
int mnw_nldnet_finish(mnw_nldnet *n, mnw_err *e) MNW_MUST_CHECK;
/* A fatal error on this rank: tell rank 0 (which stops the job), then wait
 * up to `grace` seconds to be stopped; returns so the caller can abort. */
void mnw_nldnet_fail(mnw_nldnet *n, const char *msg, double grace);

#endif
