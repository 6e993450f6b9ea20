/* place.c - see place.h. */
#include "cld/place.h"

#include <stdlib.h>
#include <string.h>

void mnw_place_init(mnw_place *p, uint64_t npairs, uint64_t wl, uint64_t window, uint64_t start,
                    const int enabled[MNW_NOUT], const uint64_t bytes[MNW_NOUT], const mnw_sum sums[MNW_NOUT])
{
    memset(p, 0, sizeof *p);
    p->npairs = npairs;
    p->wl = wl < 1 ? 1 : wl;
    p->window = window < 1 ? 1 : window;
    p->next_k = p->place_k = p->watermark = start;
    for (int o = 0; o < MNW_NOUT; o++) {
        p->enabled[o] = enabled[o];
        p->end[o] = p->bytes[o] = bytes[o];
        p->sum[o] = sums[o];
        p->base[o] = sums[o].block;
    }
    p->slots = mnw_xcalloc(p->window, sizeof *p->slots);
}

static void clear(mnw_place_slot *s)
{
    for (int o = 0; o < MNW_NOUT; o++) free(s->crc[o]), free(s->len[o]);
    memset(s, 0, sizeof *s);
}

void mnw_place_free(mnw_place *p)
{
    for (uint64_t k = 0; p->slots && k < p->window; k++) clear(&p->slots[k]);
    free(p->slots);
    p->slots = NULL;
}

static mnw_place_slot *slot_of(mnw_place *p, uint64_t k0) { return &p->slots[(k0 / p->wl) % p->window]; }

int mnw_place_next(mnw_place *p, mnw_range *r)
{
    if (p->next_k >= p->npairs) return -1;
    if (p->next_k >= p->watermark + p->window * p->wl) return 0;
    mnw_place_slot *s = slot_of(p, p->next_k);
    r->k0 = p->next_k;
    r->count = p->npairs - p->next_k < p->wl ? p->npairs - p->next_k : p->wl;
    s->state = MNW_PLACE_OUT;
    s->r = *r;
    p->next_k += r->count;
    return 1;
}

/* the slot of a list handed out and not yet durable, or NULL */
static mnw_place_slot *out_slot(mnw_place *p, uint64_t k0)
{
    if (k0 % p->wl || k0 < p->watermark || k0 >= p->next_k) return NULL;
    mnw_place_slot *s = slot_of(p, k0);
    return s->state != MNW_PLACE_FREE && s->r.k0 == k0 ? s : NULL;
}

int mnw_place_sized(mnw_place *p, uint64_t k0, uint64_t count, const uint64_t size[MNW_NOUT], uint64_t cells,
                    uint64_t pruned, int rank, mnw_err *e)
{
    mnw_place_slot *s = out_slot(p, k0);
    if (pruned > count)
        return mnw_err_set(e, "sizes for pairs %llu from rank %d count %llu pruned of its %llu pairs",
                           (unsigned long long)k0, rank, (unsigned long long)pruned, (unsigned long long)count);
    if (!s || s->state != MNW_PLACE_OUT || s->r.count != count)
        return mnw_err_set(e, "sizes for pairs %llu (+%llu) from rank %d were not expected (not handed out, or "
                              "sized twice)",
                           (unsigned long long)k0, (unsigned long long)count, rank);
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!p->enabled[o] && size[o])
            return mnw_err_set(e, "rank %d sized %llu bytes of %s for pairs %llu: an output this run does not write",
                               rank, (unsigned long long)size[o], mnw_out_name[o], (unsigned long long)k0);
        s->size[o] = size[o];
    }
    s->rank = rank;
    s->pruned = pruned;
    s->state = MNW_PLACE_SIZED;
    p->cells += cells;
    return 0;
}

int mnw_place_take(mnw_place *p, uint64_t *k0, uint64_t off[MNW_NOUT], int *rank)
{
    if (p->place_k >= p->next_k) return 0;
    mnw_place_slot *s = slot_of(p, p->place_k);
    if (s->state != MNW_PLACE_SIZED || s->r.k0 != p->place_k) return 0;
    for (int o = 0; o < MNW_NOUT; o++) {
        s->off[o] = off[o] = p->end[o];
        p->end[o] += s->size[o];
    }
    s->state = MNW_PLACE_PLACED;
    *k0 = s->r.k0;
    *rank = s->rank;
    p->place_k += s->r.count;
    return 1;
}

/* the pieces of output o fill exactly its size and each stays inside one
 * block of p->base[o] bytes counted from the file's start */
static int pieces_fit(const mnw_place *p, const mnw_place_slot *s, int o, int n, const uint64_t *len)
{
    uint64_t at = s->off[o], base = p->base[o];
    for (int i = 0; i < n; i++) {
        if (!len[i] || at % base + len[i] > base) return 0;
        at += len[i];
    }
    return at - s->off[o] == s->size[o];
}

int mnw_place_written(mnw_place *p, uint64_t k0, int rank, const int n[MNW_NOUT], uint32_t *const crc[MNW_NOUT],
                      uint64_t *const len[MNW_NOUT], mnw_err *e)
{
    mnw_place_slot *s = out_slot(p, k0);
    if (!s || s->state != MNW_PLACE_PLACED || s->rank != rank)
        return mnw_err_set(e, "rank %d says pairs %llu are written, but they were not placed for it (or are written "
                              "already)",
                           rank, (unsigned long long)k0);
    for (int o = 0; o < MNW_NOUT; o++)
        if (n[o] < 0 || (n[o] && !p->enabled[o]) || !pieces_fit(p, s, o, n[o], len[o]))
            return mnw_err_set(e, "rank %d: the checksum pieces of %s for pairs %llu do not cover its %llu bytes at "
                                  "offset %llu in blocks of %llu",
                               rank, mnw_out_name[o], (unsigned long long)k0, (unsigned long long)s->size[o],
                               (unsigned long long)s->off[o], (unsigned long long)p->base[o]);
    for (int o = 0; o < MNW_NOUT; o++) {
        s->npiece[o] = n[o];
        if (!n[o]) continue;
        s->crc[o] = mnw_xmalloc((size_t)n[o] * sizeof *s->crc[o]);
        s->len[o] = mnw_xmalloc((size_t)n[o] * sizeof *s->len[o]);
        memcpy(s->crc[o], crc[o], (size_t)n[o] * sizeof *s->crc[o]);
        memcpy(s->len[o], len[o], (size_t)n[o] * sizeof *s->len[o]);
    }
    s->state = MNW_PLACE_WRITTEN;
    /* durable: every written list contiguous with the watermark */
    for (;;) {
        mnw_place_slot *x = slot_of(p, p->watermark);
        if (p->watermark >= p->place_k || x->state != MNW_PLACE_WRITTEN || x->r.k0 != p->watermark) break;
        for (int o = 0; o < MNW_NOUT; o++) {
            for (int i = 0; i < x->npiece[o]; i++)
                if (mnw_sum_add_piece(&p->sum[o], x->crc[o][i], x->len[o][i]))
                    return mnw_err_set(e, "%s: a checksum piece at byte %llu crosses a block (internal)",
                                       mnw_out_name[o], (unsigned long long)p->sum[o].bytes);
            p->bytes[o] += x->size[o];
        }
        p->watermark += x->r.count;
        p->pruned += x->pruned;
        clear(x);
    }
    return 0;
}
