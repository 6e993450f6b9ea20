/* mpi_hello.c - smallest MPI check for the Slurm test cluster
 * (tests/slurm/cluster.sh): each rank prints one line
 *   rank R size S host H
 * so a test can see which ranks of one MPI_COMM_WORLD ran on which node.
 * Build: mpicc -o DIR/mpi_hello tests/slurm/mpi_hello.c (into the cluster's
 * folder, not into the repository). */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank = -1, size = -1;
    char host[256] = "?";

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        fprintf(stderr, "mpi_hello: MPI_Init failed\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* the node's own UTS name (each slurmd runs in a namespace of its own) */
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "?");
    /* a collective, so a world that is not really one fails here */
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d size %d host %s\n", rank, size, host);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
