/* pairs.h - pair numbering: pair (i, j), 0 <= j < i < n, has index
 * k = i(i-1)/2 + j (lower-triangle row order, the order of every output).
 * A work list is the contiguous range [k0, k0 + count). Pure functions. */
#ifndef MNW_PAIRS_H
#define MNW_PAIRS_H

#include <math.h>
#include <stdint.h>

typedef struct {
    uint64_t k0, count;
} mnw_range;

static inline uint64_t mnw_npairs(uint64_t n) { return n < 2 ? 0 : n * (n - 1) / 2; }
static inline uint64_t mnw_pair_k(uint64_t i, uint64_t j) { return i * (i - 1) / 2 + j; }

/* (i, j) of pair k; exact for any k below 2^62. */
static inline void mnw_pair_ij(uint64_t k, uint64_t *i, uint64_t *j)
{
    uint64_t r = (uint64_t)((1.0 + sqrt(1.0 + 8.0 * (double)k)) / 2.0);
    while (r * (r - 1) / 2 > k) r--;
    while ((r + 1) * r / 2 <= k) r++;
    *i = r;
    *j = k - r * (r - 1) / 2;
}

#endif
