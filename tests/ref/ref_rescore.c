/* ref_rescore.c - see ref_rescore.h. */
#include "tests/ref/ref_rescore.h"

int ref_rescore(const mnw_scoring *sc, const uint8_t *a, int m, const uint8_t *b, int n, const uint32_t *ops,
                size_t nops, int64_t *score)
{
    int r = 0, c = 0;
    int64_t s = 0;
    for (size_t k = 0; k < nops; k++) {
        uint32_t len = MNW_RUN_LEN(ops[k]), op = MNW_RUN_OP(ops[k]);
        if (len == 0 || (k > 0 && MNW_RUN_OP(ops[k - 1]) == op)) return -1;
        if (op == MNW_OP_EQ || op == MNW_OP_X) {
            for (uint32_t x = 0; x < len; x++, r++, c++) {
                if (r >= m || c >= n) return -1;
                int eq = a[r] == b[c] && a[r] < 4;
                if (eq != (op == MNW_OP_EQ)) return -1;
                s += mnw_sub(sc, a[r], b[c]);
            }
        } else {
            /* leading (nothing consumed yet) or trailing (last run): the
             * runs in row 0, column 0, the last row or the last column */
            int terminal = (r == 0 && c == 0) || k + 1 == nops;
            s -= terminal ? mnw_endcost(sc, len) : mnw_gapcost(sc, len);
            if (op == MNW_OP_I) r += (int)len;
            else c += (int)len;
        }
    }
    if (r != m || c != n) return -1;
    *score = s;
    return 0;
}
