/* result.c - see result.h. */
#include "result.h"

#include "util.h"

mnw_result *mnw_result_new(mnw_range r)
{
    mnw_result *res = mnw_xcalloc(1, sizeof *res);
    res->r = r;
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_init(&res->data[o]);
    return res;
}

void mnw_result_free(mnw_result *res)
{
    if (!res) return;
    for (int o = 0; o < MNW_NOUT; o++) mnw_buf_free(&res->data[o]);
    free(res);
}
