/* prune_ed_cpu.h - the filter's second stage on the CPU (issue 39, docs/
 * PRUNE.md Theorem 2): for one query a, the figures lib/prune_ed.h defines,
 * computed by vector code and equal to its reference functions figure for
 * figure:
 *   - ED of a with up to MNW_PEDC_LANES targets at once (Myers' bit vectors,
 *     the targets as patterns in the 64-bit lanes of one vector, the query
 *     as the text: one vector load of the pattern bits per word step);
 *   - the guide (a's unique words in a hash table built once per query, the
 *     hits of a target in its order, the longest chain by patience sorting)
 *     and the guided band's score, one pair at a time, the band's 32 cells
 *     of a row in one vector of 32 int32 (the horizontal gaps by a
 *     prefix-max scan with linear decay).
 * The loops are compiled for AVX-512, AVX2 and plain x86-64 (GCC vector
 * types; `isa` 0, 1, 2 as prune_cpu.c picks them).
 *
 * Ownership: a mnw_pedc is a workspace owned by one thread; it holds its
 * buffers, which grow to the longest sequence seen. Thread-safety: one
 * workspace per thread; the sequences are read only.
 */
#ifndef MNW_PRUNE_ED_CPU_H
#define MNW_PRUNE_ED_CPU_H

#include <stddef.h>
#include <stdint.h>

#define MNW_PEDC_LANES 8

typedef struct mnw_pedc mnw_pedc;

/* Never NULL (aborts when out of memory, as mnw_xmalloc). */
mnw_pedc *mnw_pedc_new(void);
void mnw_pedc_free(mnw_pedc *w);

/* Sets the query a (na codes; read until the next call): its guide table. */
void mnw_pedc_query(mnw_pedc *w, const uint8_t *a, int na);

/* ed[k] = ED(a, t[k]) for k < count (any count; lanes of MNW_PEDC_LANES
 * inside). With tau (may be NULL: the exact ED everywhere): ed[k] is ED
 * where ED <= tau[k], and some value > tau[k] where ED > tau[k] (only the
 * band of diagonals a path of cost <= tau[k] can use is computed). */
void mnw_pedc_ed(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, const int64_t *tau, int32_t *ed,
                 int isa);

/* The guided band's score SG of (a, b) (lib/prune_ed.h), linear gap cost
 * gap a column. */
int32_t mnw_pedc_band(mnw_pedc *w, const uint8_t *b, int nb, int ms, int mm, int gap, int isa);
/* The same for count targets: out[k] = SG of (a, t[k]) (AVX-512: four pairs
 * at once). */
void mnw_pedc_bands(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, int ms, int mm, int gap,
                    int isa, int32_t *out);
/* The narrow band's score (lib/prune_ed.h: 16 cells, mnw_ped_band_w with
 * MNW_PED_NL, MNW_PED_NR) for the same targets: AVX-512 only (isa 0);
 * returns 0 (out untouched) for another instruction set. */
int mnw_pedc_narrow(mnw_pedc *w, const uint8_t *const *t, const int *n, size_t count, int ms, int mm, int gap,
                    int isa, int32_t *out);

#endif
