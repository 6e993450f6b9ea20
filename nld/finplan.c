/* finplan.c - see finplan.h. */
#include "nld/finplan.h"

#include <stdlib.h>

#include "lib/util.h"

int mnw_finplan_finishers(int workers, int ngpus, int cpu_align)
{
    if (ngpus <= 0) return 0;
    if (!cpu_align) return workers;
    return 2 * ngpus < workers ? 2 * ngpus : workers;
}

void mnw_finplan(int workers, int slot0, int nfin, int ndev, mnw_finplan_near near, void *ctx, int *slot, int *home)
{
    char *used = mnw_xcalloc((size_t)workers, 1);
    for (int k = 0; k < workers; k++) {
        home[k] = k < nfin ? k % ndev : -1;
        slot[k] = -1;
        if (home[k] < 0 || !near) continue;
        for (int j = 0; j < workers; j++)
            if (!used[j] && near(ctx, slot0 + j, home[k])) {
                used[j] = 1;
                slot[k] = slot0 + j;
                break;
            }
    }
    for (int k = 0, j = 0; k < workers; k++) {
        if (slot[k] >= 0) continue;
        while (used[j]) j++;
        used[j] = 1;
        slot[k] = slot0 + j;
    }
    free(used);
}
