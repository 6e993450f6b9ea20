/* nw_kernel.h - private to workers/cpu: the workspace layout and the kernel
 * entry points of each instruction-set variant (nw_avx2.c, nw_sse41.c, both
 * generated from nw_simd.h). Not for use outside workers/cpu (the unit tests
 * call the variants directly to compare them).
 * Ownership: the workspace owns its buffers (mnw_cpu_ws_free).
 * Thread-safety: a kernel call uses only its workspace and arguments; one
 * workspace per thread. A variant may only run where cpuid reports its
 * instruction set. */
#ifndef MNW_NW_KERNEL_H
#define MNW_NW_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "aln.h"
#include "score.h"

struct mnw_cpu_ws {
    void *dir;        /* direction words, 64-byte aligned */
    size_t dir_bytes;
    void *rows;       /* H row, E row, profile: 64-byte aligned */
    size_t rows_bytes;
    int32_t *lastcol; /* per lane, H of the target's last column, rows 0..m */
    size_t lastcol_n;
};

/* Grows a 64-byte aligned buffer to at least `need` bytes. */
void mnw_ws_reserve(void **buf, size_t *have, size_t need);

/* One group of at most the variant's lane count of targets (AVX-512BW: 32
 * lanes of int16 or 16 of int32; AVX2: 16 or 8; SSE4.1: 8 or 4), aligned
 * with trace-back. */
typedef void (*mnw_kernel_fn)(struct mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m,
                              const uint8_t *const *t, const int *n, int count, mnw_aln *out);

void mnw_nw_avx2_16(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int,
                    const uint8_t *const *, const int *, int, mnw_aln *);
void mnw_nw_avx2_32(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int,
                    const uint8_t *const *, const int *, int, mnw_aln *);
void mnw_nw_avx512_16(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int,
                      const uint8_t *const *, const int *, int, mnw_aln *);
void mnw_nw_avx512_32(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int,
                      const uint8_t *const *, const int *, int, mnw_aln *);
void mnw_nw_sse41_16(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int,
                     const uint8_t *const *, const int *, int, mnw_aln *);
void mnw_nw_sse41_32(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int,
                     const uint8_t *const *, const int *, int, mnw_aln *);

#endif
