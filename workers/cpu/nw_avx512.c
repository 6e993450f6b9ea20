/* nw_avx512.c - AVX-512BW instantiations of nw_simd_int.h: 32 lanes of int16
 * (saturating) and 16 lanes of int32. Compares yield mask registers
 * directly, so a cell vector's direction bits are two 32-bit (or 16-bit)
 * masks side by side in one 64-bit word. Compiled with -mavx512bw only;
 * called only after cpuid says AVX-512BW is there (nw_cpu.c). */
#include <immintrin.h>
#include <stdlib.h>

#include "lib/util.h"
#include "workers/cpu/nw_kernel_int.h"

#define V_T __m512i
#define V_LOAD(p) _mm512_load_si512(p)
#define V_STORE(p, v) _mm512_store_si512((p), (v))

#define V_NAME mnw_nw_avx512_16
#define S_T int16_t
#define LANES 32
#define DIR_T uint64_t
/* A masks in the low 32 bits, B masks in the high 32 */
#define V_DIRBITS(a, b) ((uint64_t)(uint32_t)(a) | ((uint64_t)(uint32_t)(b) << 32))
#define V_POS_A(l) (l)
#define V_POS_B(l) ((l) + 32)
#define V_NEG INT16_MIN
#define V_SET1(x) _mm512_set1_epi16(x)
#define V_ADD(a, b) _mm512_adds_epi16((a), (b))
#define V_MAX(a, b) _mm512_max_epi16((a), (b))
#define V_CMPEQ(a, b) _mm512_cmpeq_epi16_mask((a), (b))
#define V_CMPGT(a, b) _mm512_cmpgt_epi16_mask((a), (b))
#include "workers/cpu/nw_simd_int.h"

#define V_NAME mnw_nw_avx512_32
#define S_T int32_t
#define LANES 16
#define DIR_T uint32_t
#define V_DIRBITS(a, b) ((uint32_t)(uint16_t)(a) | ((uint32_t)(uint16_t)(b) << 16))
#define V_POS_A(l) (l)
#define V_POS_B(l) ((l) + 16)
#define V_NEG (-(1 << 29))
#define V_SET1(x) _mm512_set1_epi32(x)
#define V_ADD(a, b) _mm512_add_epi32((a), (b))
#define V_MAX(a, b) _mm512_max_epi32((a), (b))
#define V_CMPEQ(a, b) _mm512_cmpeq_epi32_mask((a), (b))
#define V_CMPGT(a, b) _mm512_cmpgt_epi32_mask((a), (b))
#include "workers/cpu/nw_simd_int.h"
