/* nw_sse41.c - SSE4.1 instantiations of nw_simd_int.h: 8 lanes of int16
 * (saturating) and 4 lanes of int32. Compiled with -msse4.1 only; called only
 * after cpuid says SSE4.1 is there (nw_cpu.c). */
#include <immintrin.h>
#include <stdlib.h>

#include "lib/util.h"
#include "workers/cpu/nw_kernel_int.h"

#define V_T __m128i
#define V_LOAD(p) _mm_load_si128(p)
#define V_STORE(p, v) _mm_store_si128((p), (v))

#define V_NAME mnw_nw_sse41_16
#define S_T int16_t
#define LANES 8
/* packs_epi16 of two lane masks: 8 A bytes then 8 B bytes */
#define DIR_T uint16_t
#define V_DIRBITS(a, b) ((uint16_t)_mm_movemask_epi8(_mm_packs_epi16((a), (b))))
#define V_POS_A(l) (l)
#define V_POS_B(l) ((l) + 8)
#define V_NEG INT16_MIN
#define V_SET1(x) _mm_set1_epi16(x)
#define V_ADD(a, b) _mm_adds_epi16((a), (b))
#define V_MAX(a, b) _mm_max_epi16((a), (b))
#define V_CMPEQ(a, b) _mm_cmpeq_epi16((a), (b))
#define V_CMPGT(a, b) _mm_cmpgt_epi16((a), (b))
#include "workers/cpu/nw_simd_int.h"

#define V_NAME mnw_nw_sse41_32
#define S_T int32_t
#define LANES 4
/* movemask_epi8 gives 4 bits per int32 lane: A at the lowest, B above */
#define DIR_T uint16_t
#define V_DIRBITS(a, b) ((uint16_t)(((unsigned)_mm_movemask_epi8(a) & 0x1111u) | ((unsigned)_mm_movemask_epi8(b) & 0x2222u)))
#define V_POS_A(l) (4 * (l))
#define V_POS_B(l) (4 * (l) + 1)
#define V_NEG (-(1 << 29))
#define V_SET1(x) _mm_set1_epi32(x)
#define V_ADD(a, b) _mm_add_epi32((a), (b))
#define V_MAX(a, b) _mm_max_epi32((a), (b))
#define V_CMPEQ(a, b) _mm_cmpeq_epi32((a), (b))
#define V_CMPGT(a, b) _mm_cmpgt_epi32((a), (b))
#include "workers/cpu/nw_simd_int.h"

