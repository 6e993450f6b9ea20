/* mpisend.h - messages sent without blocking (MPI_Isend), each with the
 * buffer it owns until MPI is done with it. The CLD (PLACE) and the NLDs
 * (RESULT, WRITTEN) send this way: a blocking send to a rank that is itself
 * in a blocking send back would wait forever once messages pass the eager
 * limit.
 * Ownership: the set owns the buffers handed to mnw_mpi_sends_post until
 * their send completes (mnw_mpi_sends_reap) or the set is freed.
 * Thread-safety: the MPI thread only. Not MPI-collective: point-to-point.
 */
#ifndef MNW_MPISEND_H
#define MNW_MPISEND_H

#include <mpi.h>
#include <stddef.h>

#include "lib/buf.h"

typedef struct {
    MPI_Request req;
    mnw_buf buf;
} mnw_mpi_send;

typedef struct {
    mnw_mpi_send *v;
    size_t n, cap; /* n: sends in flight */
} mnw_mpi_sends;

/* An empty set (or zero it). */
void mnw_mpi_sends_init(mnw_mpi_sends *s);
/* Sends the bytes of *buf (below 2 GiB) to rank `to` with `tag` on
 * MPI_COMM_WORLD; the set takes the buffer and *buf is left empty. */
void mnw_mpi_sends_post(mnw_mpi_sends *s, mnw_buf *buf, int to, int tag);
/* Frees the buffers of the sends MPI is done with; 1 if any ended. */
int mnw_mpi_sends_reap(mnw_mpi_sends *s);
/* Frees every buffer and the set (the job has ended: no send is waited for). */
void mnw_mpi_sends_free(mnw_mpi_sends *s);

#endif
