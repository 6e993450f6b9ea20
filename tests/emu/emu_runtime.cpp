/* tests/emu/emu_runtime.cpp - the CUDA runtime calls of cuda_runtime.h for
 * the host emulation: one device ("emulated GPU", 8 GiB free; more with
 * MNW_EMU_DEVICES), memory from
 * malloc (device allocations start as a 0xA5 pattern, so a kernel reading
 * what nothing wrote gets garbage, as on a GPU), every copy and memset done
 * at once, streams and events trivially in order (an event has fired as
 * soon as it is recorded).
 * Thread-safety: as cuda_runtime.h says.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/emu/cuda_runtime.h"

struct emu_stream {
    int unused;
};
struct emu_event {
    int recorded;
};

static const size_t FREE_BYTES = (size_t)8 << 30;

const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorECCUncorrectable: return "uncorrectable ECC error encountered";
    }
    return "unknown error";
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
/* MNW_EMU_DEVICES=N (1 to 16; default 1): N emulated devices, alike but
 * for their PCI device number, sharing the host's memory (tests a node's
 * several GPUs: opened at once, lists spread over them). */
static int emu_devices(void)
{
    const char *v = getenv("MNW_EMU_DEVICES");
    int n = v && *v ? atoi(v) : 1;
    return n < 1 ? 1 : n > 16 ? 16 : n;
}
cudaError_t cudaGetDeviceCount(int *n)
{
    *n = emu_devices();
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int dev) { return dev >= 0 && dev < emu_devices() ? cudaSuccess : cudaErrorInvalidValue; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev)
{
    if (dev < 0 || dev >= emu_devices()) return cudaErrorInvalidValue;
    memset(p, 0, sizeof *p);
    strcpy(p->name, "emulated GPU (tests/emu)");
    p->major = 9;
    p->multiProcessorCount = 1;
    p->totalGlobalMem = FREE_BYTES;
    p->pciDeviceID = dev;
    return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b)
{
    *free_b = FREE_BYTES;
    *total_b = FREE_BYTES;
    return cudaSuccess;
}
cudaError_t cudaMalloc(void **p, size_t n)
{
    /* MNW_EMU_MALLOC_MAX=BYTES: a larger allocation fails as on a GPU whose
     * memory another process took after cudaMemGetInfo counted it free */
    const char *max = getenv("MNW_EMU_MALLOC_MAX");
    if (max && *max && n > strtoull(max, NULL, 10)) {
        *p = NULL;
        return cudaErrorMemoryAllocation;
    }
    /* large arenas stay untouched until used (the kernels write before
     * they read); small buffers get the pattern */
    *p = aligned_alloc(256, (n + 255) & ~(size_t)255);
    if (!*p) return cudaErrorMemoryAllocation;
    if (n <= ((size_t)1 << 24)) memset(*p, 0xA5, n);
    return cudaSuccess;
}
cudaError_t cudaFree(void *p)
{
    free(p);
    return cudaSuccess;
}
cudaError_t cudaMallocHost(void **p, size_t n)
{
    *p = malloc(n ? n : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFreeHost(void *p)
{
    free(p);
    return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int v, size_t n)
{
    memset(p, v, n);
    return cudaSuccess;
}
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind)
{
    memcpy(dst, src, n);
    return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t)
{
    return cudaMemcpy(dst, src, n, k);
}
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t) { return cudaMemset(p, v, n); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *st, unsigned)
{
    *st = (cudaStream_t)calloc(1, sizeof(emu_stream));
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t st)
{
    free(st);
    return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned)
{
    *ev = (cudaEvent_t)calloc(1, sizeof(emu_event));
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t)
{
    ev->recorded = 1;
    return cudaSuccess;
}
/* MNW_EMU_FAIL_EVENT=N: the device fails at the N-th event query of the
 * process (counted from 1), as a GPU does on an uncorrectable ECC error:
 * that query and every later one report it (a real device's error is
 * sticky). Tests a GPU lost in the middle of a run. */
static int emu_failed(void)
{
    static unsigned long n;
    static int failed;
    const char *at = getenv("MNW_EMU_FAIL_EVENT");
    if (!at || !*at) return 0;
    if (!__atomic_load_n(&failed, __ATOMIC_RELAXED) &&
        __atomic_add_fetch(&n, 1, __ATOMIC_RELAXED) >= strtoul(at, NULL, 10))
        __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
    return __atomic_load_n(&failed, __ATOMIC_RELAXED);
}
cudaError_t cudaEventQuery(cudaEvent_t ev)
{
    if (emu_failed()) return cudaErrorECCUncorrectable;
    return ev->recorded ? cudaSuccess : cudaErrorInvalidValue;
}
cudaError_t cudaEventDestroy(cudaEvent_t ev)
{
    free(ev);
    return cudaSuccess;
}
