/* rodinia_nw.cu - the seed paper's GPU baseline, Rodinia-style NW, written
 * here from its published description (Rodinia's "nw" benchmark): ONE pair
 * at a time; the host fills an m x n substitution ("reference") matrix and
 * copies it and the first row/column to the device; the score matrix is
 * computed in 16 x 16 tiles, one thread block of 16 threads per tile, the
 * host launching one kernel per anti-diagonal of tiles; the whole score
 * matrix is copied back and traced on the host. Linear gaps only (as
 * Rodinia). Used by bench_gpu as the baseline of the GPU table; not part of
 * mnw.
 *
 * C API for bench_gpu.c: rnw_open(max_len) / rnw_align(...) / rnw_close().
 * Thread-safety: one context, one thread.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define T 16 /* tile side, threads per block */

extern "C" {
typedef struct rnw rnw;
rnw *rnw_open(int max_len, char *err, size_t errn);
/* Aligns a (m) with b (n) (codes, mnw's: 0-3 bases, >= 4 ambiguity);
 * returns the score, and the alignment's column count in *cols (host
 * trace-back); INT32_MIN on a CUDA error (err set). */
int32_t rnw_align(rnw *r, const uint8_t *a, int m, const uint8_t *b, int n, int match, int mismatch, int gap,
                  int *cols, char *err, size_t errn);
void rnw_close(rnw *r);
}

struct rnw {
    int max;
    int32_t *d_H, *d_ref, *h_H, *h_ref;
};

#define RCK(call)                                                                                                      \
    do {                                                                                                               \
        cudaError_t rc_ = (call);                                                                                      \
        if (rc_ != cudaSuccess) {                                                                                      \
            snprintf(err, errn, "%s:%d: %s: %s", __FILE__, __LINE__, #call, cudaGetErrorString(rc_));                  \
            return INT32_MIN;                                                                                          \
        }                                                                                                              \
    } while (0)

/* One tile per block: tiles (ty, tx) on anti-diagonal d of the tile grid,
 * blockIdx.x picks which. H is (m+1) x (n+1), row-major, stride w. */
__global__ void tile_diag(int32_t *H, const int32_t *ref, int m, int n, int w, int d, int ty0, int gap)
{
    __shared__ int32_t s[T + 1][T + 1];
    __shared__ int32_t rf[T][T];
    const int ty = ty0 + blockIdx.x, tx = d - ty;
    const int t = threadIdx.x;
    const int r0 = ty * T, c0 = tx * T; /* the tile's cells are rows r0+1.., columns c0+1.. */
    /* the row above and the column to the left (and the corner) */
    if (c0 + t + 1 <= n) s[0][t + 1] = H[(size_t)r0 * w + c0 + t + 1];
    if (r0 + t + 1 <= m) s[t + 1][0] = H[(size_t)(r0 + t + 1) * w + c0];
    if (t == 0) s[0][0] = H[(size_t)r0 * w + c0];
    for (int i = 0; i < T; i++)
        if (r0 + i < m && c0 + t < n) rf[i][t] = ref[(size_t)(r0 + i) * n + c0 + t];
    __syncthreads();
    /* anti-diagonals of the tile: thread t does row t */
    for (int k = 0; k < 2 * T - 1; k++) {
        int c = k - t;
        if (c >= 0 && c < T && r0 + t < m && c0 + c < n) {
            int d1 = s[t][c] + rf[t][c], u = s[t][c + 1] - gap, l = s[t + 1][c] - gap;
            int h = d1 > u ? d1 : u;
            s[t + 1][c + 1] = h > l ? h : l;
        }
        __syncthreads();
    }
    for (int i = 0; i < T; i++)
        if (r0 + i < m && c0 + t < n) H[(size_t)(r0 + i + 1) * w + c0 + t + 1] = s[i + 1][t + 1];
}

rnw *rnw_open(int max_len, char *err, size_t errn)
{
    rnw *r = (rnw *)calloc(1, sizeof *r);
    r->max = max_len;
    size_t cells = (size_t)(max_len + 1) * (max_len + 1);
    cudaError_t rc;
    if ((rc = cudaMalloc((void **)&r->d_H, cells * 4)) != cudaSuccess ||
        (rc = cudaMalloc((void **)&r->d_ref, cells * 4)) != cudaSuccess ||
        (rc = cudaMallocHost((void **)&r->h_H, cells * 4)) != cudaSuccess ||
        (rc = cudaMallocHost((void **)&r->h_ref, cells * 4)) != cudaSuccess) {
        snprintf(err, errn, "rodinia_nw: %s", cudaGetErrorString(rc));
        rnw_close(r);
        return NULL;
    }
    return r;
}

void rnw_close(rnw *r)
{
    if (!r) return;
    cudaFree(r->d_H);
    cudaFree(r->d_ref);
    cudaFreeHost(r->h_H);
    cudaFreeHost(r->h_ref);
    free(r);
}

int32_t rnw_align(rnw *r, const uint8_t *a, int m, const uint8_t *b, int n, int match, int mismatch, int gap,
                  int *cols, char *err, size_t errn)
{
    if (m > r->max || n > r->max || m < 1 || n < 1) {
        snprintf(err, errn, "rodinia_nw: lengths %d x %d outside 1..%d", m, n, r->max);
        return INT32_MIN;
    }
    const int w = n + 1;
    /* host: the reference matrix and the first row and column */
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            r->h_ref[(size_t)i * n + j] = (a[i] >= 4 || b[j] >= 4) ? 0 : a[i] == b[j] ? match : mismatch;
    for (int j = 0; j <= n; j++) r->h_H[j] = -gap * j;
    for (int i = 0; i <= m; i++) r->h_H[(size_t)i * w] = -gap * i;
    RCK(cudaMemcpy(r->d_ref, r->h_ref, (size_t)m * n * 4, cudaMemcpyHostToDevice));
    RCK(cudaMemcpy(r->d_H, r->h_H, (size_t)(m + 1) * w * 4, cudaMemcpyHostToDevice));
    const int tm = (m + T - 1) / T, tn = (n + T - 1) / T;
    for (int d = 0; d < tm + tn - 1; d++) { /* host-driven tile diagonals */
        int ty0 = d - (tn - 1) > 0 ? d - (tn - 1) : 0;
        int ty1 = d < tm - 1 ? d : tm - 1;
        tile_diag<<<ty1 - ty0 + 1, T>>>(r->d_H, r->d_ref, m, n, w, d, ty0, gap);
    }
    RCK(cudaGetLastError());
    RCK(cudaMemcpy(r->h_H, r->d_H, (size_t)(m + 1) * w * 4, cudaMemcpyDeviceToHost));
    /* host trace-back over the whole score matrix */
    int i = m, j = n, c = 0;
    while (i > 0 && j > 0) {
        int32_t h = r->h_H[(size_t)i * w + j];
        if (h == r->h_H[(size_t)(i - 1) * w + j - 1] + r->h_ref[(size_t)(i - 1) * n + j - 1]) i--, j--;
        else if (h == r->h_H[(size_t)(i - 1) * w + j] - gap) i--;
        else j--;
        c++;
    }
    *cols = c + i + j;
    return r->h_H[(size_t)m * w + n];
}
