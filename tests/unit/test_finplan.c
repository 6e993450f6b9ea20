/* test_finplan.c - the CPU workers' plan on a node with GPUs (nld/finplan.h,
 * issue 40): each finishing worker's home device, its core near that
 * device where the rank has one, the rank's slots only permuted (every slot
 * once), the identity where nothing is near. */
#include <stdio.h>
#include <string.h>

#include "nld/finplan.h"
#include "tests/tap.h"

/* slots (mod 32) 0-15 near devices 0 and 1, 16-31 near 2 and 3: two NUMA
 * nodes of 16 cores with two GPUs each */
static int near_two_numa(void *ctx, int slot, int dev)
{
    (void)ctx;
    return (slot % 32 < 16) == (dev < 2);
}

/* only slots 0 and 1 are near anything (every device) */
static int near_two_slots(void *ctx, int slot, int dev)
{
    (void)ctx;
    (void)dev;
    return slot < 2;
}

static int nothing_near(void *ctx, int slot, int dev)
{
    (void)ctx;
    (void)slot;
    (void)dev;
    return 0;
}

/* every slot of slot0 .. slot0 + W - 1 exactly once */
static int permutation(const int *slot, int W, int slot0)
{
    int seen[256] = {0};
    for (int k = 0; k < W; k++) {
        if (slot[k] < slot0 || slot[k] >= slot0 + W || seen[slot[k] - slot0]) return 0;
        seen[slot[k] - slot0] = 1;
    }
    return 1;
}

int main(void)
{
    int slot[256], home[256];

    T_OK(mnw_finplan_finishers(62, 4, 0) == 62 && mnw_finplan_finishers(62, 4, 1) == 8 &&
             mnw_finplan_finishers(3, 4, 1) == 3 && mnw_finplan_finishers(10, 0, 0) == 0,
         "finishers: every worker by default, 2 per GPU with --cpu-align yes (at most all), none without GPUs");

    /* no topology: the identity, homes round-robin */
    mnw_finplan(16, 0, 16, 4, NULL, NULL, slot, home);
    int ok = 1;
    for (int k = 0; k < 16; k++) ok &= slot[k] == k && home[k] == k % 4;
    T_OK(ok, "no topology: worker k on slot k, home device k mod 4");
    mnw_finplan(16, 3, 16, 4, nothing_near, NULL, slot, home);
    ok = 1;
    for (int k = 0; k < 16; k++) ok &= slot[k] == 3 + k;
    T_OK(ok, "no slot near any GPU: the identity from slot0 (3)");

    /* two NUMA nodes, 32 workers, all finishers (the default --cpu-align no) */
    mnw_finplan(32, 0, 32, 4, near_two_numa, NULL, slot, home);
    ok = permutation(slot, 32, 0);
    for (int k = 0; k < 32; k++) ok &= near_two_numa(NULL, slot[k], home[k]);
    T_OK(ok, "2 NUMA nodes x 2 GPUs, 32 finishers: every one on a core near its GPU, each slot once");
    T_OK(slot[0] == 0 && slot[1] == 1 && slot[2] == 16 && slot[3] == 17 && slot[4] == 2,
         "in slot order per NUMA node: %d %d %d %d %d", slot[0], slot[1], slot[2], slot[3], slot[4]);

    /* the second rank of the host (slot0 32): its own slots only */
    mnw_finplan(32, 32, 32, 4, near_two_numa, NULL, slot, home);
    ok = permutation(slot, 32, 32);
    for (int k = 0; k < 32; k++) ok &= near_two_numa(NULL, slot[k], home[k]);
    T_OK(ok, "a rank whose slots start at 32: a permutation of 32..63, each finisher near its GPU");

    /* more finishers of one NUMA node than the rank has cores of it (20
     * workers: slots 0-15 on NUMA 0, 16-19 on NUMA 1): the 10 of GPUs 2
     * and 3 find 4 near slots, the other 6 take what is left */
    mnw_finplan(20, 0, 20, 4, near_two_numa, NULL, slot, home);
    int near = 0;
    for (int k = 0; k < 20; k++) near += near_two_numa(NULL, slot[k], home[k]);
    T_OK(permutation(slot, 20, 0) && near == 14, "20 workers, 4 slots on NUMA 1: 14 near their GPU (%d), each slot once",
         near);

    /* --cpu-align yes: 8 finishers near, the 24 aligners on what is left */
    mnw_finplan(32, 0, 8, 4, near_two_numa, NULL, slot, home);
    ok = permutation(slot, 32, 0);
    for (int k = 0; k < 8; k++) ok &= home[k] == k % 4 && near_two_numa(NULL, slot[k], home[k]);
    for (int k = 8; k < 32; k++) ok &= home[k] == -1;
    T_OK(ok && slot[2] == 16 && slot[8] == 4,
         "8 finishers of 32 workers: homes and near cores for them (GPU 2's first on slot %d), none for the "
         "aligners, who take the free slots in order (the first: %d)",
         slot[2], slot[8]);

    /* two near slots for six finishers of three GPUs */
    mnw_finplan(6, 0, 6, 3, near_two_slots, NULL, slot, home);
    T_OK(permutation(slot, 6, 0) && slot[0] == 0 && slot[1] == 1 && slot[2] == 2 && slot[5] == 5,
         "two near slots: the first two finishers take them, the rest in order");
    return t_exit();
}
