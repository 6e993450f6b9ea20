/* mpiw.c - see mpiw.h. */
#include "lib/mpiw.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"

static int active, rank, size = 1;
static char host[64] = "?";

static void read_host(void)
{
    mnw_hostname(host, sizeof host, 1);
}

static int launched(void)
{
    const char *f = getenv("MNW_MPI");
    if (f && *f) return strcmp(f, "0") != 0;
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int mnw_mpi_init(int *argc, char ***argv, mnw_err *e)
{
    read_host();
    if (!launched()) return 0;
    int provided = 0;
    int rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (rc != MPI_SUCCESS) return mnw_err_set(e, "MPI_Init_thread failed (error %d)", rc);
    active = 1;
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (provided < MPI_THREAD_FUNNELED)
        return mnw_err_set(e, "this MPI library gives thread level %d; mnw needs MPI_THREAD_FUNNELED", provided);
    return 0;
}

int mnw_mpi_active(void) { return active; }
int mnw_mpi_rank(void) { return rank; }
int mnw_mpi_size(void) { return size; }
const char *mnw_mpi_host(void) { return host; }

void mnw_mpi_finalize(void)
{
    if (active) MPI_Finalize();
    active = 0;
}

void mnw_mpi_abort(int code)
{
    fflush(stdout);
    fflush(stderr);
    if (active) MPI_Abort(MPI_COMM_WORLD, code);
    _exit(code);
}

void mnw_mpi_die(const char *file, int line, const char *what, int rc)
{
    char s[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, s, &len);
    LOG_ERR("%s:%d: %s failed: %s", file, line, what, s);
    fprintf(stderr, "mnw: rank %d (%s): %s:%d: %s failed: %s\n", rank, host, file, line, what, s);
    mnw_mpi_abort(1);
}

void mnw_mpi_bcast_blob(void **p, size_t n)
{
    if (rank != 0) *p = mnw_xmalloc(n);
    const size_t chunk = (size_t)1 << 30;
    for (size_t off = 0; off < n; off += chunk) {
        size_t len = n - off < chunk ? n - off : chunk;
        CHECK_MPI(MPI_Bcast((char *)*p + off, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD));
    }
}
