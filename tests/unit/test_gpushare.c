/* test_gpushare.c - nld/gpushare.c: ranks of one host that see the same
 * GPUs share them out in blocks (issue 40), on made-up ranks: one rank;
 * 2, 3 and 4 ranks over 4 devices; more ranks than devices (sharing, and
 * the sharers each device's memory is split by); per-rank device sets
 * (CUDA_VISIBLE_DEVICES: nothing split, counted as before); --gpus LIST
 * (devset 0); two hosts; ranks without devices; the hash. */
#include <string.h>

#include "nld/gpushare.h"
#include "tests/tap.h"

static mnw_gpushare_peer peer(const char *host, uint64_t set, int ndev)
{
    mnw_gpushare_peer p;
    memset(&p, 0, sizeof p);
    strncpy(p.host, host, sizeof p.host - 1);
    p.devset = set;
    p.ndev = ndev;
    return p;
}

/* "first,count,sharers" of every rank, joined by spaces */
static const char *blocks(const mnw_gpushare_peer *p, int n)
{
    static char out[512];
    size_t len = 0;
    out[0] = 0;
    for (int r = 0; r < n; r++) {
        int f = -1, c = -1, s = -1;
        mnw_gpushare_block(p, n, r, &f, &c, &s);
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%d,%d,%d", r ? " " : "", f, c, s);
    }
    return out;
}

#define EXPECT(p, n, want, what)                                                                        \
    do {                                                                                             \
        const char *got_ = blocks(p, n);                                                             \
        T_OK(!strcmp(got_, want), "%s: %s (want %s)", what, got_, want);                             \
    } while (0)

int main(void)
{
    const uint64_t A = 0x1234, B = 0x5678;
    mnw_gpushare_peer p[8];

    p[0] = peer("n1", A, 4);
    EXPECT(p, 1, "0,4,1", "one rank drives all four");
    p[1] = peer("n1", A, 4);
    EXPECT(p, 2, "0,2,1 2,2,1", "two ranks of a 4-GPU host: two each, no device shared");
    p[2] = peer("n1", A, 4);
    EXPECT(p, 3, "0,1,1 1,1,1 2,2,1", "three ranks over four: 1, 1 and 2");
    p[3] = peer("n1", A, 4);
    EXPECT(p, 4, "0,1,1 1,1,1 2,1,1 3,1,1", "four ranks over four: one each");

    for (int k = 0; k < 4; k++) p[k] = peer("h", A, 1);
    EXPECT(p, 4, "0,1,4 0,1,4 0,1,4 0,1,4", "four ranks over one device: all on it, its memory split four ways");
    for (int k = 0; k < 3; k++) p[k] = peer("h", A, 2);
    EXPECT(p, 3, "0,1,2 0,1,2 1,1,1", "three ranks over two devices: two share the first");

    p[0] = peer("h", A, 2);
    p[1] = peer("h", B, 2);
    EXPECT(p, 2, "0,2,2 0,2,2", "per-rank device sets (CUDA_VISIBLE_DEVICES): each keeps its own, counted as sharers");
    p[0] = peer("h", 0, 4);
    p[1] = peer("h", 0, 4);
    EXPECT(p, 2, "0,4,2 0,4,2", "--gpus LIST (no set): each keeps its devices, both counted");

    p[0] = peer("n1", A, 4);
    p[1] = peer("n2", A, 4);
    p[2] = peer("n1", A, 4);
    p[3] = peer("n2", A, 4);
    EXPECT(p, 4, "0,2,1 0,2,1 2,2,1 2,2,1", "two hosts of two ranks: split within each host, in rank order");

    p[0] = peer("h", 0, 0);
    p[1] = peer("h", A, 4);
    p[2] = peer("h", A, 4);
    EXPECT(p, 3, "0,0,1 0,2,1 2,2,1", "a rank without devices (rank 0 on a CPU share) takes none and counts for none");

    const char *x[] = {"0000:18:00.0", "0000:2a:00.0"}, *y[] = {"0000:2a:00.0", "0000:18:00.0"},
               *z[] = {"0000:18:00.0"};
    T_OK(mnw_gpushare_hash(x, 2) == mnw_gpushare_hash(x, 2) && mnw_gpushare_hash(x, 2) != mnw_gpushare_hash(y, 2) &&
             mnw_gpushare_hash(x, 2) != mnw_gpushare_hash(z, 1) && mnw_gpushare_hash(x, 0) != 0,
         "the set's hash: the same list the same, another order or list another, never 0");
    return t_exit();
}
