/* shard.c - see shard.h. */
#include "lib/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mnw_shard_parse(const char *v, mnw_shard *s)
{
    if (!strcmp(v, "none")) {
        s->index = s->count = 0;
        return 0;
    }
    char *end;
    if (*v < '1' || *v > '9') return -1;
    unsigned long i = strtoul(v, &end, 10);
    if (*end != '/' || end[1] < '1' || end[1] > '9') return -1;
    unsigned long n = strtoul(end + 1, &end, 10);
    if (*end || i > n || n > MNW_SHARD_MAX) return -1;
    s->index = (uint32_t)i;
    s->count = (uint32_t)n;
    return 0;
}

const char *mnw_shard_format(const mnw_shard *s, char *buf, size_t cap)
{
    if (s->count == 0) snprintf(buf, cap, "none");
    else snprintf(buf, cap, "%u/%u", s->index, s->count);
    return buf;
}

/* Cells of the pairs before pair (i, j): the rows before i, then j pairs of
 * row i. off[] are the sequences' offsets, so off[j] is the length of the
 * sequences 0 .. j-1 together. */
static uint64_t row_cells(const mnw_seqset *s, size_t i) { return (uint64_t)mnw_seq_len(s, i) * s->off[i]; }

/* Boundary b of n (0 < b < n): the first pair at which the cells before it
 * reach b/n of all, moved to the nearest multiple of wl (at most total). */
static uint64_t boundary(const mnw_seqset *s, uint64_t all, uint32_t b, uint32_t n, uint64_t wl, uint64_t total)
{
    /* b/n of all without overflow: all < 2^64, (all % n) * b < n^2 */
    uint64_t target = all / n * b + all % n * b / n;
    uint64_t before = 0, k = total;
    for (size_t i = 1; i < s->n; i++) {
        uint64_t r = row_cells(s, i);
        if (before + r >= target) {
            /* the first j of row i with len_i * off[j] >= target - before */
            uint64_t need = target - before, len = mnw_seq_len(s, i);
            size_t lo = 0, hi = i;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (len * s->off[mid] >= need) hi = mid;
                else lo = mid + 1;
            }
            k = mnw_pair_k(i, 0) + lo;
            break;
        }
        before += r;
    }
    uint64_t snapped = (k + wl / 2) / wl * wl;
    return snapped < total ? snapped : total;
}

mnw_range mnw_shard_range(const mnw_seqset *seqs, const mnw_shard *s, uint64_t wl)
{
    uint64_t total = mnw_npairs(seqs->n);
    if (s->count <= 1) return (mnw_range){0, total};
    uint64_t all = 0;
    for (size_t i = 1; i < seqs->n; i++) all += row_cells(seqs, i);
    uint64_t k0 = s->index == 1 ? 0 : boundary(seqs, all, s->index - 1, s->count, wl, total);
    uint64_t k1 = s->index == s->count ? total : boundary(seqs, all, s->index, s->count, wl, total);
    return (mnw_range){k0, k1 - k0};
}
