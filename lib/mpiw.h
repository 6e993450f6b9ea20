/* mpiw.h - the MPI layer: start-up, the CHECK_MPI macro, rank/size/host,
 * message tags, and broadcast of large blobs.
 *
 * MPI is started only when a launcher started this process (mpirun/mpiexec:
 * OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK in the environment, or
 * MNW_MPI=1): `mnw` run plainly stays a single process and never touches
 * MPI. The thread level asked for is MPI_THREAD_FUNNELED: exactly one thread
 * per process (the one that called mnw_mpi_init, which is also the NLD's comm
 * thread) calls MPI; workers talk to it through locked queues
 * (docs/DISTRIBUTED.md says why not MPI_THREAD_MULTIPLE).
 *
 * Errors: MPI_ERRORS_RETURN is set on MPI_COMM_WORLD, so CHECK_MPI can name
 * the call and file:line before it aborts the job (mnw_mpi_die).
 * MPI-collective (every rank of MPI_COMM_WORLD calls them, in the same
 * order): mnw_mpi_init (MPI_Init_thread), mnw_mpi_finalize (MPI_Finalize)
 * and mnw_mpi_bcast_blob (MPI_Bcast). mnw_mpi_abort is not: any one rank
 * ends the job. The job's start-up in main.c adds its own collectives
 * (MPI_Allreduce of the settings' status, MPI_Bcast of the job,
 * MPI_Allgather of the nodes; docs/DISTRIBUTED.md), and nldout.h one more.
 * Thread-safety: mnw_mpi_rank/size/host/active read values fixed at start-up
 * and may be called from any thread; everything else only from the MPI
 * thread.
 */
#ifndef MNW_MPIW_H
#define MNW_MPIW_H

#include <mpi.h>
#include <stddef.h>

#include "lib/util.h"

/* Message tags of the CLD <-> NLD protocol (docs/DISTRIBUTED.md). */
enum {
    MNW_TAG_REQ = 1,    /* NLD -> CLD: uint32 number of work lists wanted */
    MNW_TAG_WORK = 2,   /* CLD -> NLD: 1..n ranges (uint64 k0, count) */
    MNW_TAG_DONE = 3,   /* CLD -> NLD: no more work lists (empty) */
    MNW_TAG_RESULT = 4, /* NLD -> CLD: one work list's result (wire.h) */
    MNW_TAG_BEAT = 5,   /* either way: heartbeat (empty) */
    MNW_TAG_ERROR = 6,  /* NLD -> CLD: a fatal error, message text */
    MNW_TAG_BYE = 7,    /* NLD -> CLD: all results sent, nothing more will come */
    MNW_TAG_FIN = 8,    /* CLD -> NLD: every rank said bye; finalize */
    MNW_TAG_HALT = 9,   /* NLD -> CLD: this rank got a stop signal (int32 signal number) */
    MNW_TAG_STOP = 10,  /* CLD -> NLD: stopping: drop the lists in flight now, then BYE */
    /* output through MPI-IO (issue 22): the nodes write, the CLD places */
    MNW_TAG_SIZES = 11,   /* NLD -> CLD: one work list's result header (mnw_wire_head), no bytes */
    MNW_TAG_PLACE = 12,   /* CLD -> NLD: 1..n offsets (mnw_wire_place) to write lists at */
    MNW_TAG_WRITTEN = 13, /* NLD -> CLD: 1..n lists written and synced, with checksum pieces */
};

/* Starts MPI if a launcher started us. Returns 0 or -1 with e set. */
int mnw_mpi_init(int *argc, char ***argv, mnw_err *e) MNW_MUST_CHECK;
int mnw_mpi_active(void); /* 1 when MPI was started */
int mnw_mpi_rank(void);   /* 0 when not active */
int mnw_mpi_size(void);   /* 1 when not active */
const char *mnw_mpi_host(void); /* this process's host name (short) */
void mnw_mpi_finalize(void);
/* Ends every rank of the job (MPI_Abort) or, without MPI, this process. */
void mnw_mpi_abort(int code) __attribute__((noreturn));
void mnw_mpi_die(const char *file, int line, const char *what, int rc) __attribute__((noreturn));

#define CHECK_MPI(call)                                                       \
    do {                                                                      \
        int mnw_mrc_ = (call);                                                \
        if (mnw_mrc_ != MPI_SUCCESS) mnw_mpi_die(__FILE__, __LINE__, #call, mnw_mrc_); \
    } while (0)

/* Broadcast from rank 0 of a blob of any size (chunks of 1 GiB; one chunk
 * for any realistic input). On rank 0 *p holds n bytes; on the others n
 * is the size (broadcast first) and *p is allocated here. */
void mnw_mpi_bcast_blob(void **p, size_t n);

#endif
