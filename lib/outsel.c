/* outsel.c - see outsel.h. */
#include "lib/outsel.h"

#include <string.h>

const char *const mnw_outsel_names[MNW_NOUT] = {"pairs", "dist", "phylip", "paf", "dist-plain", "userout"};
const char mnw_outsel_help[] = "pairs, dist, phylip, paf, dist-plain, userout";

int mnw_outsel_parse(const char *list, const char *where, int *mask, mnw_err *e)
{
    int m = 0;
    const char *p = list;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0)
            return mnw_err_set(e, "%s: outputs '%s': %s; name one or more of %s, separated by commas", where, list,
                               *list ? "an empty name" : "an empty list", mnw_outsel_help);
        int o = 0;
        while (o < MNW_NOUT && !(strlen(mnw_outsel_names[o]) == len && !strncmp(p, mnw_outsel_names[o], len))) o++;
        if (o == MNW_NOUT)
            return mnw_err_set(e, "%s: outputs '%s': unknown output '%.*s' (outputs: %s)", where, list, (int)len, p,
                               mnw_outsel_help);
        if (mnw_outsel_has(m, o))
            return mnw_err_set(e, "%s: outputs '%s': %s named twice", where, list, mnw_outsel_names[o]);
        m |= 1 << o;
        if (!end) break;
        p = end + 1;
    }
    *mask = m;
    return 0;
}

const char *mnw_outsel_format(int mask, char *buf, size_t cap)
{
    size_t n = 0;
    if (cap) buf[0] = 0;
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!mnw_outsel_has(mask, o)) continue;
        int w = snprintf(buf + n, cap > n ? cap - n : 0, "%s%s", n ? "," : "", mnw_outsel_names[o]);
        if (w > 0) n += (size_t)w;
    }
    return buf;
}
