/* gpushare.c - see gpushare.h. */
#include "nld/gpushare.h"

#include <string.h>

uint64_t mnw_gpushare_hash(const char *const *busids, int n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a, with a separator per id */
    for (int k = 0; k < n; k++) {
        for (const char *p = busids[k]; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ull;
        h = (h ^ 0xffu) * 1099511628211ull;
    }
    return h ? h : 1;
}

static int same_host(const mnw_gpushare_peer *a, const mnw_gpushare_peer *b)
{
    return !strncmp(a->host, b->host, sizeof a->host);
}

/* the block of member l of a group of L over G devices */
static void block_of(int l, int L, int G, int *first, int *count)
{
    if (G >= L) {
        *first = (int)((long)l * G / L);
        *count = (int)((long)(l + 1) * G / L) - *first;
    } else {
        *first = (int)((long)l * G / L);
        *count = 1;
    }
}

void mnw_gpushare_block(const mnw_gpushare_peer *peers, int size, int rank, int *first, int *count, int *sharers)
{
    const mnw_gpushare_peer *me = &peers[rank];
    *first = 0;
    *count = me->ndev;
    int other = 0, L = 0, l = 0;
    for (int r = 0; r < size; r++) {
        if (!same_host(&peers[r], me) || peers[r].ndev <= 0) continue;
        if (me->devset && peers[r].devset == me->devset && peers[r].ndev == me->ndev) {
            if (r < rank) l++;
            L++;
        } else {
            other++;
        }
    }
    if (me->ndev <= 0) {
        *sharers = 1;
        return;
    }
    if (!me->devset) { /* not split: every rank of the host with devices may share them */
        *sharers = other > 0 ? other : 1;
        return;
    }
    block_of(l, L, me->ndev, first, count);
    int on_mine = 0; /* members whose block holds my first device */
    for (int m = 0; m < L; m++) {
        int f, c;
        block_of(m, L, me->ndev, &f, &c);
        if (f <= *first && *first < f + c) on_mine++;
    }
    *sharers = on_mine + other;
}
