/* report_scan.c - the one streaming pass of `mnw report` over a run's
 * pairs.tsv.gz (WIP, issue 24): up to the bookmark's length of it (the
 * whole gzip members a running run has made durable), the identities'
 * histogram, each sequence's nearest neighbour, the closest and the most
 * distant pairs. */
#include "src/report_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/regfile.h"

void mnw_scan_init(mnw_scan *s, uint64_t nseq)
{
    memset(s, 0, sizeof *s);
    s->nseq = nseq;
    s->nn = mnw_xmalloc((size_t)(nseq ? nseq : 1) * sizeof *s->nn);
    s->nn_of = mnw_xmalloc((size_t)(nseq ? nseq : 1) * sizeof *s->nn_of);
    s->name = mnw_xcalloc((size_t)(nseq ? nseq : 1), sizeof *s->name);
    for (uint64_t k = 0; k < nseq; k++) s->nn[k] = -1, s->nn_of[k] = UINT32_MAX;
    s->id_min = 2;
}

void mnw_scan_free(mnw_scan *s)
{
    for (uint64_t k = 0; k < s->nseq; k++) free(s->name[k]);
    free(s->name);
    free(s->nn);
    free(s->nn_of);
    memset(s, 0, sizeof *s);
}

/* keeps the MNW_SCAN_TOP best pairs of its kind in top[] (closest: larger
 * identity first; distant: smaller first); ties by pair order */
static void keep_top(mnw_scan_pair *top, int *n, const mnw_scan_pair *p, int closest)
{
    int k = *n;
    if (k == MNW_SCAN_TOP) {
        const mnw_scan_pair *w = &top[k - 1];
        if (closest ? p->identity <= w->identity : p->identity >= w->identity) return;
        k--;
    }
    while (k > 0 && (closest ? p->identity > top[k - 1].identity : p->identity < top[k - 1].identity)) {
        top[k] = top[k - 1];
        k--;
    }
    top[k] = *p;
    if (*n < MNW_SCAN_TOP) (*n)++;
}

static void name_of(mnw_scan *s, uint64_t i, const char *f, size_t len)
{
    if (s->name[i]) return;
    s->name[i] = mnw_xmalloc(len + 1);
    memcpy(s->name[i], f, len);
    s->name[i][len] = 0;
}

/* One line of pairs.tsv (without its newline). 0, or -1 with e set. */
static int one_line(mnw_scan *s, const char *path, char *line, size_t len, mnw_err *e)
{
    s->lines++;
    if (s->lines == 1) {
        if (len >= 2 && line[0] == 'i' && line[1] == '\t') return 0; /* the header */
    }
    char *f[12];
    size_t fl[12];
    int nf = 0;
    char *p = line, *end = line + len;
    while (nf < 12) {
        char *t = memchr(p, '\t', (size_t)(end - p));
        f[nf] = p;
        fl[nf] = (size_t)((t ? t : end) - p);
        nf++;
        if (!t) break;
        p = t + 1;
    }
    if (nf < 11)
        return mnw_err_set(e, "%s: line %llu: %d columns, not the 11 or 12 of pairs.tsv", path,
                           (unsigned long long)s->lines, nf);
    char *ep;
    errno = 0;
    unsigned long long i = strtoull(f[0], &ep, 10), j;
    if (ep != f[0] + fl[0] || errno || i >= s->nseq) goto bad;
    j = strtoull(f[1], &ep, 10);
    if (ep != f[1] + fl[1] || errno || j >= i) goto bad;
    f[10][fl[10]] = 0;
    double id = strtod(f[10], &ep);
    if (ep != f[10] + fl[10] || !(id >= 0 && id <= 1)) goto bad;
    name_of(s, i, f[2], fl[2]);
    name_of(s, j, f[3], fl[3]);
    int bin = (int)(id * MNW_SCAN_BINS);
    if (bin >= MNW_SCAN_BINS) bin = MNW_SCAN_BINS - 1;
    s->hist[bin]++;
    for (int t = 0; t < s->nth; t++) s->above[t] += id >= s->th[t];
    s->pairs++;
    if (id < s->id_min) s->id_min = id;
    if (id > s->id_max) s->id_max = id;
    s->id_sum += id;
    if (id > s->nn[i] || (id == s->nn[i] && (uint32_t)j < s->nn_of[i])) s->nn[i] = (float)id, s->nn_of[i] = (uint32_t)j;
    if (id > s->nn[j] || (id == s->nn[j] && (uint32_t)i < s->nn_of[j])) s->nn[j] = (float)id, s->nn_of[j] = (uint32_t)i;
    mnw_scan_pair pr = {i, j, id};
    keep_top(s->closest, &s->nclosest, &pr, 1);
    keep_top(s->distant, &s->ndistant, &pr, 0);
    return 0;
bad:
    return mnw_err_set(e, "%s: line %llu: not a pairs.tsv line of this run (i, j, identity)", path,
                       (unsigned long long)s->lines);
}

int mnw_scan_pairs(mnw_scan *s, const char *path, uint64_t bytes, mnw_err *e)
{
    struct stat st;
    int fd = mnw_open_regular(path, O_RDONLY, 0, &st, e);
    if (fd == -1) return mnw_err_set(e, "%s: cannot open: %s", path, strerror(errno));
    if (fd < 0) return -1;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        close(fd);
        return mnw_err_set(e, "%s: zlib: cannot start", path);
    }
    enum { IN = 1 << 20, OUT = 4 << 20 };
    unsigned char *in = mnw_xmalloc(IN);
    char *out = mnw_xmalloc(OUT);
    size_t have = 0; /* bytes of a line carried over in out */
    uint64_t left = bytes, at = 0;
    int rc = 0, in_member = 0;
    while (!rc) {
        if (z.avail_in == 0) {
            if (left == 0) break;
            ssize_t r = read(fd, in, left < IN ? (size_t)left : IN);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) {
                rc = mnw_err_set(e, "%s: read failed at byte %llu: %s", path, (unsigned long long)at, strerror(errno));
                break;
            }
            if (r == 0) {
                rc = mnw_err_set(e, "%s: ends at byte %llu, before the bookmark's %llu", path, (unsigned long long)at,
                                 (unsigned long long)bytes);
                break;
            }
            z.next_in = in;
            z.avail_in = (uInt)r;
            left -= (uint64_t)r;
            at += (uint64_t)r;
        }
        z.next_out = (Bytef *)out + have;
        z.avail_out = (uInt)(OUT - have);
        in_member = 1;
        int zr = inflate(&z, Z_NO_FLUSH);
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
            rc = mnw_err_set(e, "%s: not gzip data near byte %llu (%s)", path,
                             (unsigned long long)(at - z.avail_in), z.msg ? z.msg : "damaged");
            break;
        }
        size_t n = OUT - z.avail_out; /* bytes in out */
        size_t from = 0;
        for (size_t k = have; k < n; k++) {
            if (out[k] != '\n') continue;
            if (one_line(s, path, out + from, k - from, e)) {
                rc = -1;
                break;
            }
            from = k + 1;
        }
        if (rc) break;
        if (from == 0 && n == OUT) {
            rc = mnw_err_set(e, "%s: line %llu is longer than %d bytes", path, (unsigned long long)s->lines + 1, OUT);
            break;
        }
        memmove(out, out + from, n - from);
        have = n - from;
        if (zr == Z_STREAM_END) { /* one member per work list: the next one follows */
            in_member = 0;
            if (inflateReset(&z) != Z_OK) {
                rc = mnw_err_set(e, "%s: zlib: cannot go on to the next member", path);
                break;
            }
        }
    }
    if (!rc && in_member && z.avail_in == 0 && left == 0 && have == 0 && z.total_out == 0) in_member = 0;
    if (!rc && (in_member || have))
        rc = mnw_err_set(e, "%s: the gzip data ends inside a member at byte %llu (a damaged or cut file)", path,
                         (unsigned long long)at);
    inflateEnd(&z);
    free(in);
    free(out);
    close(fd);
    return rc;
}
