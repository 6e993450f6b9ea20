/* test_place.c - the CLD's placement of results written by the nodes
 * (cld/place.h, issue 22): three simulated writers size, are placed,
 * write into one file image at their offsets and report CRC-32 pieces, in
 * scrambled orders; the file equals the lists' bytes in pair order, the
 * durable watermark never passes a list that is not written, the sums
 * equal those of the bytes (through block merges), a resumed placement
 * continues to the same end; the pairs the filter pruned count once their
 * list is durable; every refusal leaves the state as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cld/bookmark.h"
#include "cld/place.h"
#include "tests/tap.h"

enum { NLISTS = 157, WL = 100, BASE = 4096, OUTS = 2 };
static const int outs[OUTS] = {MNW_OUT_PAIRS, MNW_OUT_DIST};

static uint32_t rng = 2463534242u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

typedef struct {
    unsigned char *data[MNW_NOUT];
    uint64_t size[MNW_NOUT];
} list_bytes;

static list_bytes lists[NLISTS];
static unsigned char *file[MNW_NOUT];
static uint64_t file_cap;

/* the bytes every list writes: sizes from 1 byte to 150 KB (list 0: 10,000) */
static void make_lists(void)
{
    uint64_t total = 0;
    for (int l = 0; l < NLISTS; l++)
        for (int i = 0; i < OUTS; i++) {
            int o = outs[i];
            uint64_t n = l == 0 ? 10000 : 1 + rnd() % (l % 5 == 0 ? 200 : 150000);
            lists[l].size[o] = n;
            lists[l].data[o] = malloc(n);
            for (uint64_t b = 0; b < n; b++) lists[l].data[o][b] = (unsigned char)rnd();
            total += n;
        }
    file_cap = total + 1;
    for (int i = 0; i < OUTS; i++) file[outs[i]] = calloc(1, file_cap);
}

/* a writer's report: write list l at off[], cut pieces, tell the placement */
static int write_list(mnw_place *p, int l, const uint64_t off[MNW_NOUT], int rank, mnw_err *e)
{
    int n[MNW_NOUT] = {0};
    uint32_t *crc[MNW_NOUT] = {0};
    uint64_t *len[MNW_NOUT] = {0};
    for (int i = 0; i < OUTS; i++) {
        int o = outs[i];
        memcpy(file[o] + off[o], lists[l].data[o], lists[l].size[o]);
        int cap = (int)(lists[l].size[o] / BASE) + 2;
        crc[o] = malloc(cap * sizeof *crc[o]);
        len[o] = malloc(cap * sizeof *len[o]);
        n[o] = mnw_sum_split(lists[l].data[o], lists[l].size[o], off[o], BASE, crc[o], len[o], cap);
    }
    int rc = mnw_place_written(p, (uint64_t)l * WL, rank, n, crc, len, e);
    for (int o = 0; o < MNW_NOUT; o++) free(crc[o]), free(len[o]);
    return rc;
}

static void sizes_of(int l, uint64_t size[MNW_NOUT])
{
    for (int o = 0; o < MNW_NOUT; o++) size[o] = lists[l].size[o];
}

/* runs the placement from list `from` (start: bytes[], sums[]) with three
 * writers in scrambled order; checks as it goes. Returns 0 when every check
 * held. */
static int run(mnw_place *p, int from, const char *what)
{
    int ok = 1, sized[NLISTS] = {0}, placed_rank[NLISTS], written[NLISTS] = {0};
    uint64_t off[NLISTS][MNW_NOUT];
    int pend_size[NLISTS], nps = 0, pend_write[NLISTS], npw = 0, out_full = 0;
    for (int l = 0; l < NLISTS; l++) placed_rank[l] = -1;
    mnw_err e;
    for (int step = 0; step < 100000; step++) {
        mnw_range r;
        int got = mnw_place_next(p, &r);
        if (got == 1) {
            pend_size[nps++] = (int)(r.k0 / WL);
            continue;
        }
        if (got == 0) out_full = 1;
        if (!nps && !npw) break;
        /* one event at random: a list sized (its writer: list % 3), or a
         * placed list written */
        if (nps && (!npw || rnd() % 2)) {
            int k = (int)(rnd() % (uint32_t)nps), l = pend_size[k];
            pend_size[k] = pend_size[--nps];
            uint64_t size[MNW_NOUT];
            sizes_of(l, size);
            if (mnw_place_sized(p, (uint64_t)l * WL, WL, size, 10, (uint64_t)(l % 7) * 9, l % 3, &e))
                ok = 0, printf("# %s\n", e.msg);
            sized[l] = 1;
            uint64_t k0, o2[MNW_NOUT];
            int rank;
            while (mnw_place_take(p, &k0, o2, &rank)) {
                int m = (int)(k0 / WL);
                if (!sized[m] || rank != m % 3) ok = 0;
                for (int o = 0; o < MNW_NOUT; o++) off[m][o] = o2[o];
                placed_rank[m] = rank;
                pend_write[npw++] = m;
            }
        } else {
            int k = (int)(rnd() % (uint32_t)npw), l = pend_write[k];
            pend_write[k] = pend_write[--npw];
            if (write_list(p, l, off[l], placed_rank[l], &e)) ok = 0, printf("# %s\n", e.msg);
            written[l] = 1;
        }
        /* never a list below the watermark that is not written; the durable
         * lengths are the lists' below it */
        uint64_t want[MNW_NOUT] = {0}, pruned = 0;
        for (int l = 0; l < (int)(p->watermark / WL); l++) {
            if (l >= from && !written[l]) ok = 0;
            for (int o = 0; o < MNW_NOUT; o++) want[o] += lists[l].size[o];
            if (l >= from) pruned += (uint64_t)(l % 7) * 9;
        }
        for (int o = 0; o < MNW_NOUT; o++)
            if (p->bytes[o] != want[o]) ok = 0;
        if (p->pruned != pruned) ok = 0; /* the pruned pairs of the durable lists only */
    }
    T_OK(ok && mnw_place_done(p), "%s: all lists placed, written and durable; the watermark never passed a list "
                                  "not written, the durable lengths and pruned pairs always the lists' below it",
         what);
    T_OK(out_full, "%s: the window (8 lists) held lists back until the watermark moved", what);
    return ok ? 0 : -1;
}

/* the file and sums equal the lists' bytes in order */
static void check_end(const mnw_place *p, const char *what)
{
    int same = 1, sums = 1;
    for (int i = 0; i < OUTS; i++) {
        int o = outs[i];
        uint64_t at = 0;
        mnw_sum s;
        mnw_sum_init(&s, BASE);
        for (int l = 0; l < NLISTS; l++) {
            same &= !memcmp(file[o] + at, lists[l].data[o], lists[l].size[o]);
            mnw_sum_add(&s, lists[l].data[o], lists[l].size[o]);
            at += lists[l].size[o];
        }
        same &= at == p->bytes[o] && at == p->end[o];
        sums &= s.bytes == p->sum[o].bytes && s.block == p->sum[o].block && s.nblocks == p->sum[o].nblocks &&
                s.prefix == p->sum[o].prefix && s.part == p->sum[o].part &&
                !memcmp(s.blocks, p->sum[o].blocks, s.nblocks * sizeof *s.blocks) && s.nblocks > 0;
        if (i == 0)
            printf("# %s: %s %llu bytes, %u blocks of %llu\n", what, mnw_out_name[o],
                   (unsigned long long)p->bytes[o], p->sum[o].nblocks, (unsigned long long)p->sum[o].block);
    }
    T_OK(same, "%s: each output is the lists' bytes in pair order, written at the offsets placed", what);
    T_OK(sums, "%s: the sums from the writers' pieces equal the sums of the bytes (whole, each block, merged)", what);
}

int main(void)
{
    make_lists();
    int en[MNW_NOUT] = {0};
    uint64_t zero[MNW_NOUT] = {0};
    mnw_sum s0[MNW_NOUT];
    for (int o = 0; o < MNW_NOUT; o++) mnw_sum_init(&s0[o], BASE);
    for (int i = 0; i < OUTS; i++) en[outs[i]] = 1;
    const uint64_t npairs = (uint64_t)NLISTS * WL;

    mnw_place p;
    mnw_place_init(&p, npairs, WL, 8, 0, en, zero, s0);
    run(&p, 0, "3 writers, scrambled");
    check_end(&p, "3 writers, scrambled");
    mnw_place_free(&p);

    /* resumed at list 61: the lengths and sums a bookmark would hold */
    uint64_t b61[MNW_NOUT] = {0};
    mnw_sum s61[MNW_NOUT];
    for (int o = 0; o < MNW_NOUT; o++) mnw_sum_init(&s61[o], BASE);
    for (int l = 0; l < 61; l++)
        for (int i = 0; i < OUTS; i++) {
            b61[outs[i]] += lists[l].size[outs[i]];
            mnw_sum_add(&s61[outs[i]], lists[l].data[outs[i]], lists[l].size[outs[i]]);
        }
    for (int i = 0; i < OUTS; i++) memset(file[outs[i]] + b61[outs[i]], 0, file_cap - b61[outs[i]]);
    mnw_place_init(&p, npairs, WL, 8, 61 * WL, en, b61, s61);
    run(&p, 61, "resumed at list 61");
    check_end(&p, "resumed at list 61");
    mnw_place_free(&p);

    /* refusals: nothing changes */
    mnw_err e;
    mnw_range r;
    uint64_t size[MNW_NOUT], k0, off[MNW_NOUT];
    int rank;
    mnw_place_init(&p, npairs, WL, 8, 0, en, zero, s0);
    T_OK(mnw_place_next(&p, &r) == 1 && mnw_place_next(&p, &r) == 1, "two lists out");
    sizes_of(0, size);
    T_OK(mnw_place_sized(&p, 200, WL, size, 1, 0, 0, &e) == -1 && strstr(e.msg, "not expected"),
         "sizes of a list not handed out: refused (%s)", e.msg);
    T_OK(mnw_place_take(&p, &k0, off, &rank) == 0, "nothing to place before the first list's sizes");
    T_OK(mnw_place_sized(&p, 0, WL, size, 1, WL + 1, 1, &e) == -1 && strstr(e.msg, "count 101 pruned of its 100 pairs"),
         "sizes that count more pairs pruned than the list has are refused: %s", e.msg);
    T_OK(mnw_place_sized(&p, 0, WL, size, 1, 0, 1, &e) == 0 && mnw_place_sized(&p, 0, WL, size, 1, 0, 1, &e) == -1,
         "a list sized twice: refused");
    size[MNW_OUT_PAF] = 5;
    T_OK(mnw_place_sized(&p, 100, WL, size, 1, 0, 2, &e) == -1 && strstr(e.msg, "alignments.paf.gz"),
         "sizes of an output the run does not write: refused (%s)", e.msg);
    int n[MNW_NOUT] = {0};
    uint32_t *crc[MNW_NOUT] = {0};
    uint64_t *len[MNW_NOUT] = {0};
    T_OK(mnw_place_written(&p, 0, 1, n, crc, len, &e) == -1 && strstr(e.msg, "not placed"),
         "written before it was placed: refused");
    T_OK(mnw_place_take(&p, &k0, off, &rank) == 1 && k0 == 0 && rank == 1 && off[MNW_OUT_PAIRS] == 0,
         "the first list placed at 0 for rank 1");
    T_OK(mnw_place_written(&p, 0, 2, n, crc, len, &e) == -1, "written by another rank: refused");
    T_OK(mnw_place_written(&p, 0, 1, n, crc, len, &e) == -1 && strstr(e.msg, "do not cover"),
         "no pieces for its bytes: refused (%s)", e.msg);
    /* one piece across the 4 KiB edge (the whole list as one piece) */
    uint32_t c1 = 0;
    uint64_t l1 = lists[0].size[MNW_OUT_PAIRS];
    n[MNW_OUT_PAIRS] = 1;
    crc[MNW_OUT_PAIRS] = &c1;
    len[MNW_OUT_PAIRS] = &l1;
    T_OK(mnw_place_written(&p, 0, 1, n, crc, len, &e) == -1 && strstr(e.msg, "do not cover"),
         "its %llu bytes as one piece, across the 4 KiB edge: refused", (unsigned long long)l1);
    T_OK(p.watermark == 0 && p.bytes[MNW_OUT_PAIRS] == 0 && p.sum[MNW_OUT_PAIRS].bytes == 0,
         "after the refusals nothing is durable");
    mnw_place_free(&p);
    for (int l = 0; l < NLISTS; l++)
        for (int o = 0; o < MNW_NOUT; o++) free(lists[l].data[o]);
    for (int o = 0; o < MNW_NOUT; o++) free(file[o]);
    return t_exit();
}
