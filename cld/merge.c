/* merge.c - `mnw merge OUTDIR SHARD_DIR...` (merge.h). */
#include "cld/merge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cld/bookmark.h"
#include "cld/progress.h"
#include "cld/verify.h"
#include "lib/outdir.h"
#include "lib/outlock.h"
#include "lib/output.h"
#include "lib/regfile.h"
#include "lib/safeio.h"
#include "lib/shard.h"
#include "lib/statfmt.h"

static const char usage[] =
    "usage: mnw merge OUTDIR SHARD_DIR...\n"
    "Joins the complete shards 1..N of one run (mnw --shard I/N, one OUTDIR each, given in\n"
    "any order) into OUTDIR, a new or empty directory: each output is the shards' outputs\n"
    "concatenated in shard order (read once, written once, never decompressed), byte for\n"
    "byte what one run over every pair writes, with a bookmark, mnw.log and progress.json\n"
    "that make OUTDIR a complete run for mnw status, mnw verify and mnw --resume.\n"
    "Refused, with nothing written: a directory that is not a complete shard, shards of\n"
    "another split, input or settings, a shard given twice or missing, an OUTDIR that is\n"
    "not empty. An output whose bytes are not what its shard wrote is found while it is\n"
    "copied; then everything the merge wrote is removed.\n"
    "  -h, --help  this help\n"
    "Exit status: 0 merged; 1 refused or failed (OUTDIR as it was); 2 bad command line.\n";

typedef struct {
    const char *dir;
    char bmpath[4200];
    mnw_bookmark bm;
    mnw_shard sh;
    uint64_t k0, k1;
} shard_in;

/* Reads s->dir's bookmark and what it says of the shard. 0, or -1 with e set. */
static int load(shard_in *s, mnw_err *e)
{
    const char *dir = s->dir;
    snprintf(s->bmpath, sizeof s->bmpath, "%s/%s", dir, MNW_BOOKMARK_FILE);
    if (mnw_bookmark_read(s->bmpath, &s->bm, e)) return -1;
    const char *v = mnw_bookmark_get(&s->bm, "shard");
    if (!v || mnw_shard_parse(v, &s->sh) || s->sh.count == 0)
        return mnw_err_set(e, "%s: not a shard (setting shard %s): the run in %s aligned every pair already", s->bmpath,
                           v ? v : "missing", dir);
    if (mnw_bookmark_range(&s->bm, s->bmpath, &s->k0, &s->k1, e)) return -1;
    if (!mnw_bookmark_get(&s->bm, "shard-range"))
        return mnw_err_set(e, "%s: shard %s without its setting shard-range: not written by mnw", s->bmpath, v);
    if (s->bm.watermark != s->k1) {
        char a[32], b[32];
        return mnw_err_set(e, "%s: shard %s is not complete (%s of its %s pairs written): finish it first with mnw "
                              "--resume %s",
                           s->bmpath, v, mnw_statfmt_count(s->bm.watermark - s->k0, a),
                           mnw_statfmt_count(s->k1 - s->k0, b), dir);
    }
    for (int k = 0; k < s->bm.nout; k++)
        if (!s->bm.out_sum[k])
            return mnw_err_set(e, "%s: no checksum for %s: not a shard this mnw wrote", s->bmpath, s->bm.out_name[k]);
    return 0;
}

/* The settings two shards of one run may differ in: which shard, and where
 * each found the input (the input-hash is what must agree). */
static int per_shard(const char *key)
{
    return !strcmp(key, "shard") || !strcmp(key, "shard-range") || !strcmp(key, "input");
}

/* b belongs to the same run as a: the same input, settings and split. 0, or
 * -1 with e set naming both. */
static int same_run(const shard_in *a, const shard_in *b, mnw_err *e)
{
    if (strcmp(a->bm.input_hash, b->bm.input_hash) || a->bm.sequences != b->bm.sequences)
        return mnw_err_set(e, "%s and %s are shards of different inputs (input-hash %s, %s)", a->dir, b->dir,
                           a->bm.input_hash, b->bm.input_hash);
    if (a->sh.count != b->sh.count)
        return mnw_err_set(e, "%s is shard %u/%u and %s shard %u/%u: shards of different splits", a->dir, a->sh.index,
                           a->sh.count, b->dir, b->sh.index, b->sh.count);
    for (int pass = 0; pass < 2; pass++) {
        const shard_in *x = pass ? b : a, *y = pass ? a : b;
        for (int k = 0; k < x->bm.nset; k++) {
            if (per_shard(x->bm.set_key[k])) continue;
            const char *yv = mnw_bookmark_get(&y->bm, x->bm.set_key[k]);
            if (!yv || strcmp(yv, x->bm.set_val[k]))
                return mnw_err_set(e, "%s has setting %s %s, and %s %s: shards of different runs", x->dir,
                                   x->bm.set_key[k], x->bm.set_val[k], y->dir, yv ? yv : "none");
        }
    }
    if (a->bm.nout != b->bm.nout) return mnw_err_set(e, "%s and %s have different outputs", a->dir, b->dir);
    for (int k = 0; k < a->bm.nout; k++)
        if (strcmp(a->bm.out_name[k], b->bm.out_name[k]))
            return mnw_err_set(e, "%s and %s have different outputs (%s, %s)", a->dir, b->dir, a->bm.out_name[k],
                               b->bm.out_name[k]);
    return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* Appends the first s->bm.out_bytes[k] bytes of s's output k to fd (path
 * names it), adding them to *all, and checks them against s's checksum.
 * 0, or -1 with e set. */
static int copy_one(const shard_in *s, int k, int fd, const char *path, mnw_sum *all, char *buf, size_t cap,
                    mnw_err *e)
{
    char src[4400];
    snprintf(src, sizeof src, "%s/%s", s->dir, s->bm.out_name[k]);
    struct stat st;
    int in = mnw_open_regular(src, O_RDONLY, 0, &st, e);
    if (in == -1) return mnw_err_set(e, "%s: %s", src, strerror(errno));
    if (in < 0) return -1;
    const mnw_sum *want = s->bm.out_sum[k];
    mnw_sum got;
    mnw_sum_init(&got, want->block);
    uint64_t left = s->bm.out_bytes[k];
    int rc = 0;
    while (left && !rc) {
        size_t n = left < cap ? (size_t)left : cap;
        ssize_t r = read(in, buf, n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) rc = mnw_err_set(e, "%s: read failed: %s", src, strerror(errno));
        else if (r == 0)
            rc = mnw_err_set(e, "%s: ends %llu bytes before the %llu its bookmark counts", src,
                             (unsigned long long)left, (unsigned long long)s->bm.out_bytes[k]);
        else {
            mnw_sum_add(&got, buf, (size_t)r);
            mnw_sum_add(all, buf, (size_t)r);
            if (write_all(fd, buf, (size_t)r)) rc = mnw_err_set(e, "%s: write failed: %s", path, strerror(errno));
            left -= (uint64_t)r;
        }
    }
    close(in);
    if (!rc && mnw_sum_crc(&got) != mnw_sum_crc(want))
        rc = mnw_err_set(e, "%s: its bytes are not what shard %u/%u wrote (CRC-32 %08x, the bookmark says %08x; mnw "
                            "verify %s locates it)",
                         src, s->sh.index, s->sh.count, (unsigned)mnw_sum_crc(&got), (unsigned)mnw_sum_crc(want),
                         s->dir);
    return rc;
}

static int by_index(const void *a, const void *b)
{
    const shard_in *x = a, *y = b;
    return (x->sh.index > y->sh.index) - (x->sh.index < y->sh.index);
}

/* Every check that needs no output byte: the shards (sorted by index on
 * return) are one run's complete 1..N and their ranges join. 0, or -1. */
static int check_shards(shard_in *s, int n, mnw_err *e)
{
    for (int i = 0; i < n; i++)
        if (load(&s[i], e)) return -1;
    for (int i = 1; i < n; i++)
        if (same_run(&s[0], &s[i], e)) return -1;
    qsort(s, (size_t)n, sizeof *s, by_index);
    for (int i = 1; i < n; i++)
        if (s[i].sh.index == s[i - 1].sh.index)
            return mnw_err_set(e, "shard %u/%u given twice: %s and %s", s[i].sh.index, s[i].sh.count, s[i - 1].dir,
                               s[i].dir);
    uint32_t want = s[0].sh.count;
    if ((uint32_t)n != want) {
        uint32_t miss = 1;
        for (int i = 0; i < n && s[i].sh.index == miss; i++) miss++;
        return mnw_err_set(e, "shard %u/%u is missing (%d of the %u shards given)", miss, want, n, want);
    }
    for (int i = 0; i < n; i++) {
        uint64_t from = i ? s[i - 1].k1 : 0;
        if (s[i].k0 != from || (i == n - 1 && s[i].k1 != s[i].bm.pairs))
            return mnw_err_set(e, "%s: shard %u/%u holds pairs %llu .. %llu, where pair %llu was expected next: the "
                                  "shards' ranges do not join",
                               s[i].bmpath, s[i].sh.index, s[i].sh.count, (unsigned long long)s[i].k0,
                               (unsigned long long)s[i].k1, (unsigned long long)from);
    }
    return 0;
}

/* The merged run's files, written under temporary names in outdir, then
 * renamed; the bookmark last. 0, or -1 with e set (the temporary files
 * removed). */
static int write_merged(const char *outdir, const shard_in *s, int n, double t0, mnw_err *e)
{
    const mnw_bookmark *b0 = &s[0].bm;
    int nout = b0->nout, rc = 0;
    uint64_t pruned = 0; /* the shards' pruned pairs: each bookmark counts its own */
    for (int i = 0; i < n; i++) pruned += s[i].bm.pruned;
    char tmp[MNW_BOOKMARK_MAX_OUT][4400], dst[MNW_BOOKMARK_MAX_OUT][4400];
    mnw_sum *sums = calloc((size_t)nout, sizeof *sums);
    const size_t cap = 4u << 20;
    char *buf = malloc(cap);
    if (!sums || !buf) {
        free(sums), free(buf);
        return mnw_err_set(e, "out of memory");
    }
    /* every file in the directory opened once, none through a planted name (lib/safeio.h) */
    int dfd = mnw_safe_dir(outdir, e);
    if (dfd < 0) {
        free(sums), free(buf);
        return -1;
    }
    int made = 0;
    for (int k = 0; k < nout && !rc; k++, made++) {
        snprintf(tmp[k], sizeof tmp[k], ".%s.merge", b0->out_name[k]);
        snprintf(dst[k], sizeof dst[k], "%s/%s", outdir, b0->out_name[k]);
        int fd = mnw_safe_tmp(dfd, outdir, tmp[k], 0666, e);
        if (fd < 0) {
            rc = -1;
            break;
        }
        mnw_sum_init(&sums[k], MNW_SUM_BLOCK);
        for (int i = 0; i < n && !rc; i++) rc = copy_one(&s[i], k, fd, dst[k], &sums[k], buf, cap, e);
        if (!rc && fsync(fd)) rc = mnw_err_set(e, "%s: fsync failed: %s", dst[k], strerror(errno));
        if (close(fd) && !rc) rc = mnw_err_set(e, "%s: close failed: %s", dst[k], strerror(errno));
    }
    free(buf);
    int renamed = 0;
    for (int k = 0; k < nout && !rc; k++, renamed++) rc = mnw_safe_rename(dfd, outdir, tmp[k], b0->out_name[k], e);
    if (rc) {
        for (int k = 0; k < made && k < nout; k++) unlinkat(dfd, tmp[k], 0);
        for (int k = 0; k < renamed; k++) unlinkat(dfd, b0->out_name[k], 0);
        close(dfd);
        free(sums);
        return -1;
    }
    /* the log, progress.json, then the bookmark: OUTDIR is a run from here */
    char path[4400], abs[PATH_MAX];
    snprintf(path, sizeof path, "%s/mnw.log", outdir);
    int lfd = mnw_safe_open(dfd, outdir, "mnw.log", MNW_SAFE_CREATE | MNW_SAFE_TRUNC | MNW_SAFE_0666, NULL, e);
    int log_made = lfd >= 0;
    FILE *log = lfd < 0 ? NULL : fdopen(lfd, "w");
    if (lfd >= 0 && !log) close(lfd);
    if (log) {
        time_t now = time(NULL);
        char when[32];
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime(&now));
        fprintf(log, "%s mnw merge: %d shards of %llu pairs (%llu sequences of %s, input-hash %s) into %s:\n", when,
                n, (unsigned long long)b0->pairs, (unsigned long long)b0->sequences,
                mnw_bookmark_get(b0, "input") ? mnw_bookmark_get(b0, "input") : "?", b0->input_hash, outdir);
        for (int i = 0; i < n; i++)
            fprintf(log, "%s   shard %u/%u: pairs %llu .. %llu from %s\n", when, s[i].sh.index, s[i].sh.count,
                    (unsigned long long)s[i].k0, (unsigned long long)s[i].k1,
                    realpath(s[i].dir, abs) ? abs : s[i].dir);
        for (int k = 0; k < nout; k++)
            fprintf(log, "%s   %s: %llu bytes, CRC-32 %08x\n", when, b0->out_name[k],
                    (unsigned long long)sums[k].bytes, (unsigned)mnw_sum_crc(&sums[k]));
        fprintf(log, "%s done: the run is complete, all %llu pairs, %llu of them pruned (merged in %.2fs)\n", when,
                (unsigned long long)b0->pairs, (unsigned long long)pruned, mnw_progress_now() - t0);
        if (fclose(log)) rc = mnw_err_set(e, "%s: write failed", path);
    } else {
        rc = lfd < 0 ? -1 : mnw_err_set(e, "%s: cannot create: %s", path, strerror(errno));
    }
    mnw_progress p;
    mnw_progress_init(&p, 0);
    char msg[160];
    snprintf(msg, sizeof msg, "merged from %d shards (mnw merge)", n);
    mnw_progress_set_state(&p, "done", msg);
    snprintf(p.input, sizeof p.input, "%s", mnw_bookmark_get(b0, "input") ? mnw_bookmark_get(b0, "input") : "");
    snprintf(p.outdir, sizeof p.outdir, "%s", realpath(outdir, abs) ? abs : outdir);
    p.pairs_total = p.pairs_done = p.pairs_at_start = b0->pairs; /* the merge aligned none of them */
    p.pruned = pruned;
    p.elapsed_s = mnw_progress_now() - p.started;
    mnw_progress_rates(&p);
    if (!rc && mnw_progress_write(outdir, &p, e)) rc = -1;
    mnw_progress_free(&p);
    mnw_bookmark bm;
    mnw_bookmark_init(&bm);
    memcpy(bm.input_hash, b0->input_hash, sizeof bm.input_hash);
    bm.sequences = b0->sequences;
    bm.pairs = bm.watermark = b0->pairs;
    bm.pruned = pruned;
    for (int k = 0; k < b0->nset && !rc; k++) /* a whole run's: shard none, no range */
        if (strcmp(b0->set_key[k], "shard-range"))
            rc = mnw_bookmark_set(&bm, b0->set_key[k], strcmp(b0->set_key[k], "shard") ? b0->set_val[k] : "none", e);
    for (int k = 0; k < nout && !rc; k++) rc = mnw_bookmark_output_sum(&bm, b0->out_name[k], &sums[k], e);
    if (!rc) rc = mnw_bookmark_write(outdir, &bm, e);
    mnw_bookmark_free(&bm);
    free(sums);
    if (rc) { /* not a run: take everything back (what this merge made, none of what was planted) */
        for (int k = 0; k < nout; k++) unlinkat(dfd, b0->out_name[k], 0);
        if (log_made) unlinkat(dfd, "mnw.log", 0);
        if (mnw_safe_probe(dfd, outdir, MNW_PROGRESS_FILE, &(mnw_err){0}) == 0) unlinkat(dfd, MNW_PROGRESS_FILE, 0);
    }
    close(dfd);
    return rc;
}

/* Is name one a merge writes into OUTDIR (an output, its temporary
 * .NAME.merge, the log, progress.json, the lock)? */
static int merge_file(const char *name)
{
    static const char *const own[] = {"mnw.log", MNW_PROGRESS_FILE, MNW_LOCK_FILE};
    for (size_t k = 0; k < sizeof own / sizeof *own; k++)
        if (!strcmp(name, own[k])) return 1;
    for (int o = 0; o < MNW_NOUT; o++) {
        size_t n = strlen(mnw_out_name[o]);
        if (!strcmp(name, mnw_out_name[o])) return 1;
        if (name[0] == '.' && !strncmp(name + 1, mnw_out_name[o], n) && !strcmp(name + 1 + n, ".merge")) return 1;
    }
    return 0;
}

/* OUTDIR must be new or empty (mnw_outdir_check); when it is not, says what
 * to do: a stopped merge's files (no bookmark) are removed by hand, as
 * mnw merge has no --force. 0, or -1 with e set. */
static int merge_outdir_check(const char *outdir, mnw_err *e)
{
    mnw_err e2;
    if (!mnw_outdir_check(outdir, 0, e)) return 0;
    if (mnw_outdir_check(outdir, 1, &e2)) return -1; /* not (only) a directory that is not empty */
    char bm[4400];
    snprintf(bm, sizeof bm, "%s/%s", outdir, MNW_BOOKMARK_FILE);
    int leftovers = access(bm, F_OK) != 0;
    DIR *d = leftovers ? opendir(outdir) : NULL;
    for (struct dirent *de; d && (de = readdir(d));)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && !merge_file(de->d_name)) leftovers = 0;
    if (d) closedir(d);
    if (leftovers)
        return mnw_err_set(e, "%s: holds what a stopped mnw merge left (its files, no %s: the merge did not finish); "
                              "remove the directory (rm -r %s) and run mnw merge again",
                           outdir, MNW_BOOKMARK_FILE, outdir);
    return mnw_err_set(e, "%s: output directory is not empty: mnw merge writes only into a new or empty directory "
                          "(give another one)",
                       outdir);
}

int mnw_merge_main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        fputs(usage, stdout);
        return 0;
    }
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(stderr, "mnw merge: unknown option '%s'\n%s", argv[i], usage);
            return 2;
        }
    if (argc < 3) {
        fprintf(stderr, "mnw merge: give OUTDIR and at least one shard directory\n%s", usage);
        return 2;
    }
    const char *outdir = argv[1];
    int n = argc - 2;
    shard_in *s = calloc((size_t)n, sizeof *s);
    if (!s) return fprintf(stderr, "mnw: error: out of memory\n"), 1;
    for (int i = 0; i < n; i++) {
        mnw_bookmark_init(&s[i].bm);
        s[i].dir = argv[2 + i];
    }
    mnw_err e;
    double t0 = mnw_progress_now();
    int rc = check_shards(s, n, &e);
    struct stat st;
    char lockpath[4400];
    snprintf(lockpath, sizeof lockpath, "%s/%s", outdir, MNW_LOCK_FILE);
    const int existed = !stat(outdir, &st), lock_existed = !access(lockpath, F_OK);
    mnw_outlock lock = {.fd = -1};
    if (!rc) rc = mnw_outlock_probe(outdir, &e) || merge_outdir_check(outdir, &e) ? -1 : 0;
    if (!rc) rc = mnw_outdir_create(outdir, &e) || mnw_outlock_take(&lock, outdir, &e) ? -1 : 0;
    if (!rc) rc = write_merged(outdir, s, n, t0, &e);
    if (rc) {
        fprintf(stderr, "mnw: error: %s\n", e.msg);
        if (lock.fd >= 0) { /* the merge made or took OUTDIR: leave it as it was */
            if (!lock_existed) unlink(lockpath);
            mnw_outlock_release(&lock);
        }
        if (!existed) rmdir(outdir); /* only if empty: what the merge made */
    } else {
        char a[32], b[32];
        mnw_outlock_release(&lock);
        uint64_t pruned = 0;
        char pr[64] = "";
        for (int i = 0; i < n; i++) pruned += s[i].bm.pruned;
        if (pruned) snprintf(pr, sizeof pr, " (%s pruned)", mnw_statfmt_count(pruned, b));
        printf("mnw merge: %d shard%s, %s pairs%s, into %s: the run is complete\n", n, n == 1 ? "" : "s",
               mnw_statfmt_count(s[0].bm.pairs, a), pr, outdir);
    }
    for (int i = 0; i < n; i++) mnw_bookmark_free(&s[i].bm);
    free(s);
    return rc ? 1 : 0;
}
