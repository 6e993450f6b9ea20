/* test_shard.c - --shard I/N (shard.h): the option's values, and the pair
 * ranges of shards 1..N: contiguous, covering every pair once, at
 * multiples of the work-list size, balanced by cells within what the
 * snapping to work lists allows; on real 16S genes (run from the
 * repository root) and on a set whose
 * lengths are very uneven (short genes first, long ones last). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fasta.h"
#include "lib/shard.h"
#include "tests/tap.h"

static uint64_t cells_of(const mnw_seqset *s, mnw_range r)
{
    uint64_t c = 0;
    for (uint64_t k = r.k0; k < r.k0 + r.count; k++) {
        uint64_t i, j;
        mnw_pair_ij(k, &i, &j);
        c += (uint64_t)mnw_seq_len(s, i) * mnw_seq_len(s, j);
    }
    return c;
}

/* Checks shards 1..n of s with work lists of wl; returns the number of
 * broken properties (and prints the first). */
static int check_set(const mnw_seqset *s, uint32_t n, uint64_t wl, const char *name)
{
    uint64_t total = mnw_npairs(s->n), at = 0, all = cells_of(s, (mnw_range){0, total});
    uint64_t maxlen = s->max_len, slack = 2 * (wl / 2 + 1) * maxlen * maxlen;
    for (uint32_t i = 1; i <= n; i++) {
        mnw_shard sh = {i, n};
        mnw_range r = mnw_shard_range(s, &sh, wl);
        uint64_t end = r.k0 + r.count;
        const char *why = r.k0 != at                           ? "does not start where the shard before ended"
                          : end > total                        ? "ends past the last pair"
                          : end != total && end % wl           ? "ends off a work-list boundary"
                          : i == n && end != total             ? "(the last) does not end at the last pair"
                                                               : NULL;
        int64_t off = (int64_t)cells_of(s, r) - (int64_t)(all / n);
        if (!why && (off > (int64_t)slack || -off > (int64_t)slack) && r.count) why = "is not balanced by cells";
        if (why) {
            printf("# %s, %u shards, lists of %llu: shard %u (%llu .. %llu) %s\n", name, n, (unsigned long long)wl, i,
                   (unsigned long long)r.k0, (unsigned long long)end, why);
            return 1;
        }
        at = end;
    }
    return 0;
}

int main(void)
{
    mnw_shard s = {7, 7};
    T_OK(!mnw_shard_parse("3/5", &s) && s.index == 3 && s.count == 5, "3/5 parses");
    T_OK(!mnw_shard_parse("1/1", &s) && s.index == 1 && s.count == 1, "1/1 parses");
    T_OK(!mnw_shard_parse("1000000/1000000", &s) && s.count == MNW_SHARD_MAX, "%d/%d parses", MNW_SHARD_MAX,
         MNW_SHARD_MAX);
    T_OK(!mnw_shard_parse("none", &s) && s.count == 0, "none: the whole run");
    const char *bad[] = {"0/3", "4/3", "1/0", "1/", "/3", "3", "a/b", "1/3x", "-1/3", "1/-3", "01/3", " 1/3",
                         "1/1000001", "", "1//3", "2/3/4"};
    int nbad = 0;
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        s = (mnw_shard){7, 7};
        if (!mnw_shard_parse(bad[k], &s) || s.index != 7 || s.count != 7) {
            printf("# '%s' was accepted or changed the shard\n", bad[k]);
            nbad++;
        }
    }
    T_OK(nbad == 0, "%zu malformed values refused, the shard unchanged", sizeof bad / sizeof *bad);
    char buf[24];
    s = (mnw_shard){2, 9};
    T_OK(!strcmp(mnw_shard_format(&s, buf, sizeof buf), "2/9"), "2/9 formats as 2/9");
    s.count = 0;
    T_OK(!strcmp(mnw_shard_format(&s, buf, sizeof buf), "none"), "no shard formats as none");

    /* real 16S genes */
    mnw_seqset g;
    mnw_seqset_init(&g);
    mnw_err e;
    const char *path = "tests/data/16s-200.fa"; /* run from the repository root, as every unit test */
    T_OK(!mnw_fasta_read(path, &g, &e), "%s read", path);
    uint64_t wls[] = {1, 7, 100, 500, 5000, 19900, 100000};
    int broken = 0, runs = 0;
    for (size_t w = 0; w < sizeof wls / sizeof *wls; w++)
        for (uint32_t n = 1; n <= 45; n++, runs++) broken += check_set(&g, n, wls[w], "16s-200");
    T_OK(broken == 0, "16s-200: shards 1..N for N = 1..45 and lists of 1 to 100,000 pairs: contiguous, every pair "
                      "once, at work-list boundaries, balanced by cells (%d of %d settings broken)",
         broken, runs);
    mnw_shard one = {1, 1}, whole = {0, 0};
    mnw_range r1 = mnw_shard_range(&g, &one, 500), rw = mnw_shard_range(&g, &whole, 500);
    T_OK(r1.k0 == 0 && r1.count == 19900 && rw.k0 == 0 && rw.count == 19900, "shard 1/1 and no shard: every pair");
    /* more shards than work lists (4 lists of 5,000): the rest are empty */
    int empty = 0;
    for (uint32_t i = 1; i <= 10; i++) {
        mnw_shard sh = {i, 10};
        empty += mnw_shard_range(&g, &sh, 5000).count == 0;
    }
    T_OK(empty == 6, "10 shards of 4 work lists: 6 empty (%d)", empty);

    /* uneven lengths: 150 genes cut to 100 bases, then 50 whole: by cells,
     * the first shard of 2 holds far more pairs than the second */
    mnw_seqset u;
    mnw_seqset_init(&u);
    for (size_t i = 0; i < 200; i++) {
        size_t len = mnw_seq_len(&g, i);
        if (i < 150 && len > 100) len = 100;
        mnw_seqset_add(&u, mnw_seq_id(&g, i), g.codes + g.off[i], len);
    }
    broken = 0;
    for (size_t w = 0; w < 4; w++)
        for (uint32_t n = 1; n <= 45; n++) broken += check_set(&u, n, wls[w], "uneven");
    T_OK(broken == 0, "uneven lengths: the same properties for lists of 1 to 500 pairs");
    mnw_shard h1 = {1, 2};
    mnw_range a = mnw_shard_range(&u, &h1, 1);
    T_OK(a.count > 19900 / 2 + 2000, "uneven lengths, 2 shards: the first (short genes) holds %llu of 19,900 pairs",
         (unsigned long long)a.count);
    mnw_seqset_free(&u);
    mnw_seqset_free(&g);
    return t_exit();
}
