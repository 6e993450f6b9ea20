/* nw_avx2.c - AVX2 instantiations of nw_simd_int.h: 16 lanes of int16
 * (saturating) and 8 lanes of int32. Compiled with -mavx2 only; called only
 * after cpuid says AVX2 is there (nw_cpu.c). */
#include <immintrin.h>
#include <stdlib.h>

#include "lib/util.h"
#include "workers/cpu/nw_kernel_int.h"

#define V_T __m256i
#define V_LOAD(p) _mm256_load_si256(p)
#define V_STORE(p, v) _mm256_store_si256((p), (v))

#define V_NAME mnw_nw_avx2_16
#define S_T int16_t
#define LANES 16
/* packs_epi16 of two lane masks: per 128-bit half, 8 A bytes then 8 B bytes */
#define DIR_T uint32_t
#define V_DIRBITS(a, b) ((uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16((a), (b))))
#define V_POS_A(l) ((l) < 8 ? (l) : (l) + 8)
#define V_POS_B(l) ((l) < 8 ? (l) + 8 : (l) + 16)
#define V_NEG INT16_MIN
#define V_SET1(x) _mm256_set1_epi16(x)
#define V_ADD(a, b) _mm256_adds_epi16((a), (b))
#define V_MAX(a, b) _mm256_max_epi16((a), (b))
#define V_CMPEQ(a, b) _mm256_cmpeq_epi16((a), (b))
#define V_CMPGT(a, b) _mm256_cmpgt_epi16((a), (b))
#include "workers/cpu/nw_simd_int.h"

#define V_NAME mnw_nw_avx2_32
#define S_T int32_t
#define LANES 8
/* movemask_epi8 gives 4 bits per int32 lane: A at the lowest, B above */
#define DIR_T uint32_t
#define V_DIRBITS(a, b) (((uint32_t)_mm256_movemask_epi8(a) & 0x11111111u) | ((uint32_t)_mm256_movemask_epi8(b) & 0x22222222u))
#define V_POS_A(l) (4 * (l))
#define V_POS_B(l) (4 * (l) + 1)
#define V_NEG (-(1 << 29))
#define V_SET1(x) _mm256_set1_epi32(x)
#define V_ADD(a, b) _mm256_add_epi32((a), (b))
#define V_MAX(a, b) _mm256_max_epi32((a), (b))
#define V_CMPEQ(a, b) _mm256_cmpeq_epi32((a), (b))
#define V_CMPGT(a, b) _mm256_cmpgt_epi32((a), (b))
#include "workers/cpu/nw_simd_int.h"

