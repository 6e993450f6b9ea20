/* tests/emu/cuda_runtime.h - the part of the CUDA runtime API that
 * workers/gpu uses, for the host emulation (tests/emu, README there): with
 * this header first on the include path, gpu_dev.cu compiles with g++ and
 * runs against emu_runtime.cpp, which executes every call at once (copies
 * are memcpy, streams are in order by construction, events have always
 * fired) and runs the kernels through emu_kernels.cpp. One emulated device.
 * Thread-safety: calls from one thread at a time (as workers/gpu makes them).
 */
#ifndef MNW_EMU_CUDA_RUNTIME_H
#define MNW_EMU_CUDA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#define CUDART_VERSION 0 /* the emulation: no DPX, gpu_kernels_int.cuh's portable paths */

typedef enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorECCUncorrectable = 214,
    cudaErrorNotReady = 600
} cudaError_t;
typedef enum { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 } cudaMemcpyKind;
typedef struct emu_stream *cudaStream_t;
typedef struct emu_event *cudaEvent_t;
#define cudaStreamNonBlocking 1u
#define cudaEventDisableTiming 2u

typedef struct {
    char name[256];
    int major, minor, multiProcessorCount;
    size_t totalGlobalMem;
    int pciDomainID, pciBusID, pciDeviceID;
} cudaDeviceProp;

struct uint2 { unsigned x, y; };
struct int4 { int x, y, z, w; };
struct uint4 { unsigned x, y, z, w; };
static inline uint2 make_uint2(unsigned x, unsigned y) { return uint2{x, y}; }
static inline int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }

const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaSetDevice(int dev);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev);
cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemset(void *p, int v, size_t n);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t st);
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t st);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *st, unsigned flags);
cudaError_t cudaStreamSynchronize(cudaStream_t st);
cudaError_t cudaStreamDestroy(cudaStream_t st);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned flags);
cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t st);
cudaError_t cudaEventQuery(cudaEvent_t ev);
cudaError_t cudaEventDestroy(cudaEvent_t ev);

#endif
