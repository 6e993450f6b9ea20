/* verify.c - `mnw verify OUTDIR` (verify.h). */
#include "cld/verify.h"
#include "lib/regfile.h"
#include "lib/statfmt.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/output.h"
#include "lib/outsel.h"

static const char usage[] =
    "usage: mnw verify OUTDIR\n"
    "Checks that the outputs of the run in OUTDIR hold what the run wrote: reads each\n"
    "output once, to its end, and compares the CRC-32 of its first bytes, as many as\n"
    "OUTDIR/mnw.bookmark records (whole and per block), with the bookmark's; a difference\n"
    "is named by file and byte range. Also says whether the run is complete, how many\n"
    "pairs the bookmark counts pruned (not checked: they have no bytes), and whether\n"
    "an output holds bytes past the bookmark: on a run that is not complete, those written\n"
    "after the last bookmark (mnw --resume cuts them); on a complete run, bytes mnw did\n"
    "not write (an error, with the truncate command that cuts them). Changes nothing.\n"
    "  -h, --help  this help\n"
    "Exit status: 0 every output matches; 1 an output differs, is missing, shorter,\n"
    "longer than a complete run or unreadable, or the bookmark is missing or damaged;\n"
    "2 bad command line.\n";

int mnw_verify_fd(int fd, const char *path, const mnw_sum *want, mnw_verify_diff *d, mnw_err *e)
{
    mnw_sum got;
    mnw_sum_init(&got, want->block);
    if (mnw_sum_fd(fd, path, want->bytes, &got, e)) return -1;
    memset(d, 0, sizeof *d);
    d->crc = mnw_sum_crc(&got);
    /* want->bytes / block < MNW_SUM_MAX_BLOCKS: got never merged, its
     * blocks are want's blocks */
    for (uint32_t i = 0; i < got.nblocks && i < want->nblocks; i++)
        if (got.blocks[i] != want->blocks[i]) {
            d->from = (uint64_t)i * want->block;
            d->to = d->from + want->block - 1;
            return 0;
        }
    if (d->crc != mnw_sum_crc(want)) { /* in the bytes after the whole blocks */
        d->from = (uint64_t)want->nblocks * want->block;
        d->to = want->bytes - 1;
        return 0;
    }
    d->same = 1;
    return 0;
}

void mnw_verify_describe(const mnw_verify_diff *d, char *out, size_t n)
{
    char a[32], b[32];
    if (d->same) snprintf(out, n, "the same bytes as the run wrote");
    else
        snprintf(out, n, "bytes %s to %s differ from what the run wrote", mnw_statfmt_count(d->from, a),
                 mnw_statfmt_count(d->to, b));
}

/* Reads fd from byte `from` to its end: the bytes past the bookmark are
 * read too (a read error there is found). Their count, or -1 with e set. */
static int64_t read_rest(int fd, const char *path, uint64_t from, mnw_err *e)
{
    enum { CHUNK = 1 << 20 };
    if (lseek(fd, (off_t)from, SEEK_SET) != (off_t)from)
        return mnw_err_set(e, "%s: cannot read: %s", path, strerror(errno));
    char *buf = mnw_xmalloc(CHUNK);
    int64_t n = 0;
    for (;;) {
        ssize_t r = read(fd, buf, CHUNK);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            n = mnw_err_set(e, "%s: read failed at byte %llu: %s", path, (unsigned long long)(from + (uint64_t)n),
                            strerror(errno));
            break;
        }
        if (r == 0) break;
        n += r;
    }
    free(buf);
    return n;
}

/* The bytes past the bookmark's len in an output: on a run that is not
 * complete, the lists written after the last bookmark (mnw --resume cuts
 * them: "beyond" gets what to print after the ok line); on a complete run
 * nothing mnw wrote: an error (printed here), 2. */
static int past_bookmark(const char *path, uint64_t len, uint64_t extra, int complete, char *beyond, size_t n)
{
    char n1[32], n2[32];
    beyond[0] = 0;
    if (!extra) return 0;
    if (complete) {
        fflush(stdout);
        fprintf(stderr, "mnw: error: %s: %s bytes after byte %s, where the complete run ended: mnw did not write "
                        "them (something appended to the file); mnw --resume leaves a complete run as it is: cut "
                        "them with: truncate -s %" PRIu64 " %s\n",
                path, mnw_statfmt_count(extra, n1), mnw_statfmt_count(len, n2), len, path);
        return 2;
    }
    snprintf(beyond, n, "; %s bytes beyond the bookmark (written after it; mnw --resume cuts them)",
             mnw_statfmt_count(extra, n1));
    return 0;
}

/* One output k of the bookmark: prints its line; 0 ok, 1 a problem, 2 the
 * output is whole, then bytes mnw did not write (a complete run's). */
static int verify_output(const char *outdir, const mnw_bookmark *bm, int k, int complete)
{
    char path[8400], n1[32], n2[32];
    snprintf(path, sizeof path, "%s/%s", outdir, bm->out_name[k]);
    const uint64_t len = bm->out_bytes[k];
    struct stat st;
    mnw_err oe;
    int fd = mnw_open_regular(path, O_RDONLY, 0, &st, &oe);
    if (fd < 0) {
        fflush(stdout);
        if (fd == -2) fprintf(stderr, "mnw: error: %s\n", oe.msg);
        else
            fprintf(stderr, "mnw: error: %s: %s; the bookmark says it holds %s bytes\n", path, strerror(errno),
                    mnw_statfmt_count(len, n1));
        return 1;
    }
    if ((uint64_t)st.st_size < len) {
        close(fd);
        fflush(stdout);
        fprintf(stderr, "mnw: error: %s: %s bytes, shorter than the %s the bookmark says were written: it was cut "
                        "after the bookmark\n",
                path, mnw_statfmt_count((uint64_t)st.st_size, n1), mnw_statfmt_count(len, n2));
        return 1;
    }
    char beyond[160] = "";
    const mnw_sum *want = bm->out_sum[k];
    mnw_verify_diff d;
    mnw_err e;
    int rc = want ? mnw_verify_fd(fd, path, want, &d, &e) : 0;
    int64_t extra = rc ? 0 : read_rest(fd, path, len, &e); /* every byte, those past the bookmark too */
    close(fd);
    if (rc || extra < 0) {
        fflush(stdout);
        fprintf(stderr, "mnw: error: %s\n", e.msg);
        return 1;
    }
    if (!want) {
        if (past_bookmark(path, len, (uint64_t)extra, complete, beyond, sizeof beyond)) return 2;
        printf("%s: length ok (%s bytes; the bookmark holds no checksums to compare)%s\n", path,
               mnw_statfmt_count(len, n1), beyond);
        return 0;
    }
    if (!d.same) {
        char what[160];
        mnw_verify_describe(&d, what, sizeof what);
        fflush(stdout);
        fprintf(stderr, "mnw: error: %s: %s (CRC-32 of its first %s bytes %08lx, the bookmark says %08lx)\n", path,
                what, mnw_statfmt_count(len, n1), (unsigned long)d.crc, (unsigned long)mnw_sum_crc(want));
        return 1;
    }
    if (past_bookmark(path, len, (uint64_t)extra, complete, beyond, sizeof beyond)) return 2;
    size_t nl = strlen(path);
    if (complete && !len && nl > 3 && !strcmp(path + nl - 3, ".gz")) /* no member at all: a run of an older mnw */
        snprintf(beyond, sizeof beyond, "; an empty file, not gzip (zcat fails on it): no pair passed --cutoff, and "
                                        "the mnw that wrote it wrote no gzip member then");
    printf("%s: ok (%s bytes, CRC-32 %08lx)%s\n", path, mnw_statfmt_count(len, n1), (unsigned long)d.crc, beyond);
    return 0;
}

int mnw_verify_main(int argc, char **argv)
{
    const char *outdir = NULL;
    int opts_done = 0;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (!opts_done && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
            fputs(usage, stdout);
            return 0;
        } else if (!opts_done && !strcmp(a, "--")) {
            opts_done = 1;
        } else if (!opts_done && a[0] == '-' && a[1]) {
            fprintf(stderr, "mnw verify: unknown option '%s' (mnw verify --help)\n", a);
            return 2;
        } else if (outdir) {
            fprintf(stderr, "mnw verify: one OUTDIR only ('%s' and '%s') (mnw verify --help)\n", outdir, a);
            return 2;
        } else {
            outdir = a;
        }
    }
    if (!outdir || !*outdir) {
        fprintf(stderr, "mnw verify: which OUTDIR? usage: mnw verify OUTDIR\n");
        return 2;
    }
    struct stat st;
    if (stat(outdir, &st) != 0) {
        fprintf(stderr, "mnw: error: %s: %s\n", outdir, strerror(errno));
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "mnw: error: %s: not a directory (mnw verify takes the OUTDIR of a run)\n", outdir);
        return 1;
    }
    size_t dl = strlen(outdir);
    while (dl > 1 && outdir[dl - 1] == '/') dl--;
    char dir[8300], bpath[8400];
    snprintf(dir, sizeof dir, "%.*s", (int)dl, outdir);
    snprintf(bpath, sizeof bpath, "%s/%s", dir, MNW_BOOKMARK_FILE);
    mnw_bookmark bm;
    mnw_err e;
    if (mnw_bookmark_read(bpath, &bm, &e)) {
        if (access(bpath, F_OK) != 0 && errno == ENOENT)
            fprintf(stderr, "mnw: error: %s: no bookmark: not the OUTDIR of an mnw run, or a run killed before its "
                            "first bookmark\n",
                    bpath);
        else fprintf(stderr, "mnw: error: %s\n", e.msg);
        return 1;
    }
    char n1[32], n2[32], sh[32], what[64];
    uint64_t done, all;
    mnw_bookmark_progress(&bm, &done, &all, sh, sizeof sh);
    if (sh[0]) snprintf(what, sizeof what, "shard %s", sh);
    else snprintf(what, sizeof what, "run");
    if (done == all)
        printf("%s: %s of %s pairs written: the %s is complete\n", bpath, mnw_statfmt_count(done, n1),
               mnw_statfmt_count(all, n2), what);
    else
        printf("%s: %s of %s pairs written (%.1f%%): the %s is not complete (continue it with: mnw --resume %s)\n",
               bpath, mnw_statfmt_count(done, n1), mnw_statfmt_count(all, n2), all ? 100.0 * (double)done / (double)all : 0.0,
               what, dir);
    /* the filter's count: it holds no bytes to check (recounting it would
     * take the filter over every pair written) */
    printf("%s: %s of the pairs written were pruned (proven beyond --cutoff, so done without an output line); the "
           "count is the bookmark's: verify cannot check it\n",
           bpath, mnw_statfmt_count(bm.pruned, n1));
    if (bm.version == 1)
        printf("%s: written by an mnw from before output checksums (version 1): only the lengths are checked\n",
               bpath);
    int bad = 0, total = 0;
    /* the outputs the run's settings make: each must be in the bookmark */
    int outs = MNW_OUTSEL_DEFAULT;
    mnw_err oe;
    if (mnw_bookmark_outputs(&bm, bpath, &outs, &oe)) {
        fflush(stdout);
        fprintf(stderr, "mnw: error: %s\n", oe.msg);
        bad++, total++;
    }
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!mnw_outsel_has(outs, o)) continue;
        int k = 0;
        while (k < bm.nout && strcmp(bm.out_name[k], mnw_out_name[o])) k++;
        if (k == bm.nout) {
            fflush(stdout);
            fprintf(stderr, "mnw: error: %s: lists no length for %s, an output of this run\n", bpath, mnw_out_name[o]);
            bad++, total++;
        }
    }
    int longer = 0; /* outputs whole, then bytes mnw did not write */
    for (int k = 0; k < bm.nout; k++) {
        total++;
        int r = verify_output(dir, &bm, k, done == all);
        bad += r != 0;
        longer += r == 2;
    }
    if (bad && bad == longer) {
        fflush(stdout);
        fprintf(stderr, "mnw: error: %s: %d of %d outputs hold bytes after the end of the complete run (above): "
                        "cut them as said, then run mnw verify %s again\n",
                dir, bad, total, dir);
    } else if (bad) {
        fflush(stdout);
        fprintf(stderr, "mnw: error: %s: %d of %d outputs do not hold what the run wrote (above); mnw --resume "
                        "refuses this directory: start the run again\n",
                dir, bad, total);
    } else {
        printf("mnw verify: %s: %d output%s, as the run wrote them%s\n", dir, total, total == 1 ? "" : "s",
               done == all ? (sh[0] ? "; the shard is complete" : "; the run is complete") : "");
    }
    mnw_bookmark_free(&bm);
    return bad ? 1 : 0;
}
