/* nw_kernel_int.h - private to workers/cpu: the workspace layout and the kernel
 * entry points of each instruction-set variant (nw_avx512.c, nw_avx2.c,
 * nw_sse41.c, all generated from nw_simd_int.h). Not for use outside workers/cpu (the unit tests
 * call the variants directly to compare them).
 * Ownership: the workspace owns its buffers (mnw_cpu_ws_free).
 * Thread-safety: a kernel call uses only its workspace and arguments; one
 * workspace per thread. A variant may only run where cpuid reports its
 * instruction set. */
#ifndef MNW_NW_KERNEL_H
#define MNW_NW_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/aln.h"
#include "lib/score.h"
#include "workers/tb/trace.h"

struct mnw_cpu_ws {
    void *dir;        /* direction words, 64-byte aligned */
    size_t dir_bytes;
    void *rows;       /* H row, E row, profile: 64-byte aligned */
    size_t rows_bytes;
    int32_t *lastcol; /* per lane, H of the target's last column, rows 0..m */
    size_t lastcol_n;
    const mnw_eqtab *figs; /* counts mode: the walk counts figures (mnw_tb_finish); NULL: runs */
};

/* Grows a 64-byte aligned buffer to at least `need` bytes. */
void mnw_ws_reserve(void **buf, size_t *have, size_t need);

#define MNW_CAT_(a, b) a##b
#define MNW_CAT(a, b) MNW_CAT_(a, b)

/* Bytes of direction bits a variant whose cell vector takes `word` bytes
 * (sizeof DIR_T) writes for an m-row group whose longest target is maxn. */
static inline size_t mnw_nw_dir_bytes(size_t word, int m, int maxn, int affine)
{
    return (size_t)m * (size_t)maxn * word * (affine ? 2 : 1);
}

/* One group of 1 to the variant's lane count of targets (AVX-512BW: 32
 * lanes of int16 or 16 of int32; AVX2: 16 or 8; SSE4.1: 8 or 4), aligned
 * with trace-back (mnw_tb_trace) into out[0 .. count). */
typedef void (*mnw_kernel_fn)(struct mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m,
                              const uint8_t *const *t, const int *n, int count, mnw_aln *out);
/* The same group, matrices only: the direction bits go to dir (at least
 * mnw_nw_dir_bytes bytes, aligned for a uint64_t), and ends[0 .. count) get
 * each lane's view into dir, end cell and score; nothing is traced. */
typedef void (*mnw_kernel_dirs_fn)(struct mnw_cpu_ws *ws, const mnw_scoring *sc, const uint8_t *q, int m,
                                   const uint8_t *const *t, const int *n, int count, void *dir, mnw_tb_end *ends);

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

void mnw_nw_avx2_16_dirs(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int, const uint8_t *const *,
                         const int *, int, void *, mnw_tb_end *);
void mnw_nw_avx2_32_dirs(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int, const uint8_t *const *,
                         const int *, int, void *, mnw_tb_end *);
void mnw_nw_avx512_16_dirs(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int, const uint8_t *const *,
                           const int *, int, void *, mnw_tb_end *);
void mnw_nw_avx512_32_dirs(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int, const uint8_t *const *,
                           const int *, int, void *, mnw_tb_end *);
void mnw_nw_sse41_16_dirs(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int, const uint8_t *const *,
                          const int *, int, void *, mnw_tb_end *);
void mnw_nw_sse41_32_dirs(struct mnw_cpu_ws *, const mnw_scoring *, const uint8_t *, int, const uint8_t *const *,
                          const int *, int, void *, mnw_tb_end *);

#endif
