/* mpisend.c - see mpisend.h. */
#include "lib/mpisend.h"

#include <stdlib.h>

#include "lib/mpiw.h"

void mnw_mpi_sends_init(mnw_mpi_sends *s) { s->v = NULL, s->n = s->cap = 0; }

void mnw_mpi_sends_post(mnw_mpi_sends *s, mnw_buf *buf, int to, int tag)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = mnw_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    mnw_mpi_send *sd = &s->v[s->n++];
    sd->buf = *buf; /* the buffer goes with the send */
    mnw_buf_init(buf);
    CHECK_MPI(MPI_Isend(sd->buf.p, (int)sd->buf.len, MPI_BYTE, to, tag, MPI_COMM_WORLD, &sd->req));
}

int mnw_mpi_sends_reap(mnw_mpi_sends *s)
{
    int did = 0;
    for (size_t k = 0; k < s->n;) {
        int flag = 0;
        CHECK_MPI(MPI_Test(&s->v[k].req, &flag, MPI_STATUS_IGNORE));
        if (!flag) {
            k++;
            continue;
        }
        mnw_buf_free(&s->v[k].buf);
        s->v[k] = s->v[--s->n];
        did = 1;
    }
    return did;
}

void mnw_mpi_sends_free(mnw_mpi_sends *s)
{
    for (size_t k = 0; k < s->n; k++) mnw_buf_free(&s->v[k].buf);
    free(s->v);
    mnw_mpi_sends_init(s);
}
