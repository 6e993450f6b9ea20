/* test_cld.c - the CLD's hand-out window, reordering and its refusals; pair
 * numbering; the gzip members it concatenates; option and config parsing,
 * a config key given twice in one section refused (naming both lines); the
 * pairs the filter pruned, on the wire and counted below the watermark into
 * the bookmark (rank 0 writing, resumed, placed for MPI-IO); the bookmark
 * made durable in its own thread (issue 40): what it writes, a failure it
 * finds said at the next call, the bookmark before kept. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cld/cld.h"
#include "lib/gzmember.h"
#include "lib/pairs.h"
#include "lib/wire.h"
#include "src/opts.h"
#include "tests/tap.h"

static mnw_result *mkres(mnw_range r)
{
    mnw_result *res = mnw_result_new(r);
    char line[64];
    mnw_buf text;
    mnw_buf_init(&text);
    for (uint64_t k = r.k0; k < r.k0 + r.count; k++) {
        int n = snprintf(line, sizeof line, "%llu\n", (unsigned long long)k);
        mnw_buf_put(&text, line, (size_t)n);
    }
    mnw_gzip_member(text.p, text.len, 6, &res->data[MNW_OUT_PAIRS]);
    mnw_buf_put(&res->data[MNW_OUT_PHYLIP], text.p, text.len);
    mnw_buf_free(&text);
    return res;
}

/* res with `pruned` of its pairs pruned */
static mnw_result *mkres_pruned(mnw_range r, uint64_t pruned)
{
    mnw_result *res = mkres(r);
    res->pruned = pruned;
    return res;
}

/* a template bookmark for runs of 11 sequences (55 pairs) */
static void tmpl_of(mnw_bookmark *b)
{
    mnw_bookmark_init(b);
    strcpy(b->input_hash, "0123456789abcdef0123456789abcdef");
    b->sequences = 11;
    b->pairs = 55;
}

/* the pruned pairs (issue 39): on the wire, counted by the CLD below the
 * watermark (out of order, resumed, placed), into the bookmark */
static void test_pruned(void)
{
    mnw_err e;
    /* the wire: a result and its header carry the count; more pruned than
     * pairs is refused */
    mnw_result *res = mkres_pruned((mnw_range){20, 10}, 7);
    res->cells = 99;
    res->dev_pairs[0] = 3;
    res->dev_pairs[2] = 7;
    mnw_buf m;
    mnw_buf_init(&m);
    mnw_wire_pack_result(res, &m);
    mnw_result *back = mnw_wire_unpack_result(m.p, m.len, &e);
    T_OK(back && back->pruned == 7 && back->r.k0 == 20 && back->r.count == 10 && back->cells == 99 &&
             back->dev_pairs[2] == 7 && back->data[MNW_OUT_PAIRS].len == res->data[MNW_OUT_PAIRS].len &&
             !memcmp(back->data[MNW_OUT_PAIRS].p, res->data[MNW_OUT_PAIRS].p, res->data[MNW_OUT_PAIRS].len),
         "a result message carries its 7 pruned pairs (and the rest as before)");
    mnw_result_free(back);
    mnw_wire_head h, h2;
    mnw_wire_head_of(res, &h);
    T_OK(h.pruned == 7 && mnw_wire_unpack_head(&h, sizeof h, &h2, &e) == 0 && h2.pruned == 7 && h2.count == 10,
         "a SIZES header (output through MPI-IO) carries them too");
    h.pruned = 11;
    T_OK(mnw_wire_unpack_head(&h, sizeof h, &h2, &e) == -1 && strstr(e.msg, "counts 11 pruned of its 10 pairs"),
         "a header with 11 pruned of 10 pairs: refused (%s)", e.msg);
    memcpy(m.p, &h, sizeof h);
    back = mnw_wire_unpack_result(m.p, m.len, &e);
    T_OK(!back && strstr(e.msg, "counts 11 pruned of its 10 pairs"), "a result message with it: refused (%s)", e.msg);
    mnw_result_free(back);
    mnw_buf_free(&m);
    mnw_result_free(res);

    /* rank 0 writes: the count moves with the watermark only */
    char dir[] = "/tmp/mnw-test-cldp.XXXXXX";
    T_OK(mkdtemp(dir) != NULL, "temp dir");
    mnw_outspec sp = {0};
    sp.enabled[MNW_OUT_PAIRS] = 1;
    sp.enabled[MNW_OUT_PHYLIP] = 1;
    mnw_writer w;
    T_OK(mnw_writer_open(&w, dir, &sp, 6, 1, &e) == 0, "writer opens");
    mnw_cld c;
    mnw_bookmark tmpl, rb;
    tmpl_of(&tmpl);
    mnw_cld_init(&c, 55, 10, 8, &w);
    mnw_cld_start_at(&c, 0, 0);
    mnw_cld_keep_bookmark(&c, dir, &tmpl, 1e9);
    mnw_range r[6];
    int got = 0;
    while (got < 6 && mnw_cld_next(&c, &r[got]) == 1) got++;
    const uint64_t pr[6] = {10, 4, 0, 1, 2, 5}; /* list 0 all pruned, list 5 (5 pairs) all pruned */
    T_OK(got == 6 && mnw_cld_accept(&c, mkres_pruned(r[1], pr[1]), &e) == 0 && c.pruned == 0 && c.watermark == 0,
         "list 1 (4 pruned) waits: 0 pruned below the watermark");
    T_OK(mnw_cld_accept(&c, mkres_pruned(r[0], pr[0]), &e) == 0 && c.pruned == 14 && c.watermark == 20,
         "list 0 (10 pruned) releases it: 14 pruned below watermark 20");
    T_OK(mnw_cld_accept(&c, mkres_pruned(r[2], 11), &e) == -1 && strstr(e.msg, "counts 11 pruned of its 10 pairs") &&
             c.pruned == 14,
         "a result with 11 pruned of 10: refused, nothing counted (%s)", e.msg);
    int ok = 1;
    for (int k = 5; k >= 2; k--) ok &= mnw_cld_accept(&c, mkres_pruned(r[k], pr[k]), &e) == 0;
    T_OK(ok && mnw_cld_done(&c) && c.pruned == 22, "all 55 pairs: 22 pruned (%llu)", (unsigned long long)c.pruned);
    char bp[256];
    snprintf(bp, sizeof bp, "%s/%s", dir, MNW_BOOKMARK_FILE);
    T_OK(mnw_bookmark_read(bp, &rb, &e) == 0 && rb.version == 3 && rb.pruned == 22 && rb.watermark == 55,
         "the last bookmark: version 3, pruned 22 (%s)", e.msg);
    mnw_bookmark_free(&rb);
    T_OK(mnw_writer_close(&w, &e) == 0, "writer closes");
    mnw_cld_free(&c);

    /* a resumed run: its count goes on from the bookmark's */
    T_OK(mnw_writer_open(&w, dir, &sp, 6, 1, &e) == 0, "writer opens again");
    mnw_cld_init(&c, 55, 10, 8, &w);
    mnw_cld_start_at(&c, 30, 14); /* the bookmark at 30 counted lists 0..2: 14 */
    mnw_cld_keep_bookmark(&c, dir, &tmpl, 1e9);
    got = 0;
    while (got < 3 && mnw_cld_next(&c, &r[3 + got]) == 1) got++;
    ok = got == 3 && r[3].k0 == 30;
    for (int k = 3; k < 6; k++) ok &= mnw_cld_accept(&c, mkres_pruned(r[k], pr[k]), &e) == 0;
    T_OK(ok && mnw_cld_done(&c) && c.pruned == 22 && c.start_pruned == 14,
         "resumed at 30 with 14 pruned: 22 at the end, 8 of them this run's");
    T_OK(mnw_bookmark_read(bp, &rb, &e) == 0 && rb.pruned == 22, "its last bookmark: pruned 22");
    mnw_bookmark_free(&rb);
    T_OK(mnw_writer_close(&w, &e) == 0, "writer closes");
    mnw_cld_free(&c);

    /* output through MPI-IO: counted when a list is durable (written and
     * synced, and every list before it) */
    T_OK(mnw_writer_open(&w, dir, &sp, 6, 0, &e) == 0, "writer opens (placement)");
    mnw_cld_init(&c, 55, 10, 8, &w);
    mnw_cld_start_at(&c, 0, 0);
    mnw_cld_keep_bookmark(&c, dir, &tmpl, 1e9);
    T_OK(mnw_cld_place_mode(&c, &e) == 0, "place mode");
    got = 0;
    while (got < 6 && mnw_cld_next(&c, &r[got]) == 1) got++;
    ok = got == 6;
    for (int k = 5; k >= 0; k--) { /* every list sized (no bytes), in reverse */
        mnw_wire_head hd;
        memset(&hd, 0, sizeof hd);
        hd.k0 = r[k].k0, hd.count = r[k].count, hd.pruned = pr[k];
        ok &= mnw_cld_sized(&c, &hd, 1 + k % 2, &e) == 0;
    }
    mnw_wire_place pl;
    int rank, placed = 0;
    while (mnw_cld_take(&c, &pl, &rank)) placed++;
    mnw_wire_written wr;
    memset(&wr, 0, sizeof wr);
    wr.k0 = 10;
    ok &= placed == 6 && mnw_cld_written(&c, &wr, 2, &e) == 0;
    T_OK(ok && c.pruned == 0 && c.watermark == 0, "list 1 written before list 0: nothing durable, 0 pruned (%s)",
         e.msg);
    wr.k0 = 0;
    T_OK(mnw_cld_written(&c, &wr, 1, &e) == 0 && c.pruned == 14 && c.watermark == 20,
         "list 0 written: 14 pruned below watermark 20");
    ok = 1;
    for (int k = 2; k < 6; k++) {
        wr.k0 = r[k].k0;
        ok &= mnw_cld_written(&c, &wr, 1 + k % 2, &e) == 0;
    }
    T_OK(ok && mnw_cld_done(&c) && c.pruned == 22, "all written: 22 pruned (%s)", e.msg);
    T_OK(mnw_bookmark_read(bp, &rb, &e) == 0 && rb.pruned == 22 && rb.version == 3, "its bookmark: pruned 22 (%s)",
         e.msg);
    mnw_bookmark_free(&rb);
    mnw_cld_free(&c);
    mnw_bookmark_free(&tmpl);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) printf("# could not remove %s\n", dir);
}

/* the bookmark thread (cld/durable.h): a bookmark that is not forced is
 * made durable off the caller's thread; its outcome is taken at the next
 * call (a failure: said then, the bookmark before kept on disk) */
static void test_bookmark_thread(void)
{
    mnw_err e;
    char dir[] = "/tmp/mnw-test-cldt.XXXXXX", bp[256], pairs[256];
    T_OK(mkdtemp(dir) != NULL, "temp dir");
    snprintf(bp, sizeof bp, "%s/%s", dir, MNW_BOOKMARK_FILE);
    snprintf(pairs, sizeof pairs, "%s/%s", dir, mnw_out_name[MNW_OUT_PAIRS]);
    mnw_outspec sp = {0};
    sp.enabled[MNW_OUT_PAIRS] = 1;
    sp.enabled[MNW_OUT_PHYLIP] = 1;
    mnw_writer w;
    mnw_bookmark tmpl, rb;
    tmpl_of(&tmpl);
    T_OK(mnw_writer_open(&w, dir, &sp, 6, 1, &e) == 0, "writer opens");
    mnw_cld c;
    mnw_cld_init(&c, 55, 10, 8, &w);
    mnw_cld_start_at(&c, 0, 0);
    mnw_cld_keep_bookmark(&c, dir, &tmpl, 0); /* due at every watermark move */
    T_OK(mnw_cld_checkpoint(&c, 1, &e) == 0 && c.bm_writes == 1 && !c.dur.running && c.dur.n == 0,
         "the first bookmark (forced): written in the caller");
    mnw_range r[6];
    int got = 0;
    while (got < 6 && mnw_cld_next(&c, &r[got]) == 1) got++;
    T_OK(got == 6 && mnw_cld_accept(&c, mkres(r[0]), &e) == 0 && c.dur.running && c.bm_writes == 1,
         "list 0 written: its bookmark in a thread of its own, not yet counted");
    T_OK(mnw_cld_accept(&c, mkres(r[1]), &e) == 0 && c.watermark == 20, "list 1 is written meanwhile or after");
    T_OK(mnw_cld_settle(&c, &e) == 0 && !c.dur.running && c.dur.n >= 1 && c.bm_writes == 1 + c.dur.n &&
             (c.bm_mark == 10 || c.bm_mark == 20),
         "settled: %llu bookmark(s) from the thread, the last at %llu", (unsigned long long)c.dur.n,
         (unsigned long long)c.bm_mark);
    struct stat st;
    T_OK(mnw_bookmark_read(bp, &rb, &e) == 0 && rb.watermark == c.bm_mark && stat(pairs, &st) == 0 &&
             (uint64_t)st.st_size >= rb.out_bytes[0] && rb.out_bytes[0] > 0,
         "the bookmark on disk is the thread's: watermark %llu, %llu bytes of pairs (the file has %lld)",
         (unsigned long long)rb.watermark, (unsigned long long)rb.out_bytes[0], (long long)st.st_size);
    mnw_bookmark_free(&rb);
    uint64_t mark = c.bm_mark, writes = c.bm_writes;

    /* the pairs file deleted: the thread finds it, the caller hears it at
     * its next call, no bookmark is written past the one before */
    T_OK(unlink(pairs) == 0, "someone deletes %s", pairs);
    T_OK(mnw_cld_accept(&c, mkres(r[2]), &e) == 0 && c.dur.running, "list 2 written: its bookmark thread starts");
    T_OK(mnw_cld_settle(&c, &e) == -1 && strstr(e.msg, pairs) && strstr(e.msg, "was deleted during the run") && !c.dur.running &&
             c.bm_mark == mark && c.bm_writes == writes,
         "said at the next call: %s", e.msg);
    T_OK(mnw_bookmark_read(bp, &rb, &e) == 0 && rb.watermark == mark, "the bookmark on disk stays at %llu",
         (unsigned long long)rb.watermark);
    mnw_bookmark_free(&rb);
    T_OK(mnw_cld_settle(&c, &e) == 0, "nothing left to settle");
    MNW_IGNORE(mnw_writer_close(&w, &e));
    mnw_cld_free(&c);
    mnw_bookmark_free(&tmpl);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) printf("# could not remove %s\n", dir);
}

int main(void)
{
    /* pair numbering */
    int bad = 0;
    for (uint64_t i = 1; i < 3000; i++)
        for (uint64_t j = 0; j < i; j += 7) {
            uint64_t k = mnw_pair_k(i, j), ii, jj;
            mnw_pair_ij(k, &ii, &jj);
            if (ii != i || jj != j) bad++;
        }
    T_OK(bad == 0, "k = i(i-1)/2 + j round-trips for i < 3000");
    uint64_t big_i = 150000, ii, jj;
    mnw_pair_ij(mnw_pair_k(big_i, big_i - 1), &ii, &jj);
    T_OK(ii == big_i && jj == big_i - 1, "last pair of 150,000 sequences round-trips");
    mnw_pair_ij(mnw_pair_k(4000000000ull, 17), &ii, &jj);
    T_OK(ii == 4000000000ull && jj == 17, "k near 8e18 round-trips");
    T_OK(mnw_npairs(25000) == 312487500ull, "25,000 sequences are 312,487,500 pairs");

    /* CLD: window, out-of-order results, refusals */
    char dir[] = "/tmp/mnw-test-cld.XXXXXX";
    T_OK(mkdtemp(dir) != NULL, "temp dir");
    mnw_outspec sp = {0};
    sp.enabled[MNW_OUT_PAIRS] = 1;
    sp.enabled[MNW_OUT_PHYLIP] = 1;
    mnw_writer w;
    mnw_err e;
    T_OK(mnw_writer_open(&w, dir, &sp, 6, 1, &e) == 0, "writer opens");
    mnw_cld c;
    mnw_cld_init(&c, 103, 10, 4, &w); /* 11 lists, 4 in the window */
    mnw_range r[11];
    int got = 0;
    while (got < 11 && mnw_cld_next(&c, &r[got]) == 1) got++;
    T_OK(got == 4, "window of 4 lists: 4 handed out before any result (%d)", got);
    T_OK(mnw_cld_accept(&c, mkres(r[2]), &e) == 0 && c.watermark == 0, "a later list waits (watermark 0)");
    T_OK(mnw_cld_accept(&c, mkres(r[2]), &e) != 0, "the same list twice is refused: %s", e.msg);
    mnw_range never = {90, 10};
    T_OK(mnw_cld_accept(&c, mkres(never), &e) != 0, "a list never handed out is refused");
    T_OK(mnw_cld_next(&c, &r[got]) == 0, "window still full");
    T_OK(mnw_cld_accept(&c, mkres(r[0]), &e) == 0 && c.watermark == 10, "first list written (watermark 10)");
    T_OK(mnw_cld_accept(&c, mkres(r[1]), &e) == 0 && c.watermark == 30, "second list releases the third (watermark 30)");
    /* hand out the rest; whenever the window is full, return the oldest
     * outstanding list; at the end return what is left in reverse */
    int rc, oldest = 3, refills = 0;
    while ((rc = mnw_cld_next(&c, &r[got])) != -1) {
        if (rc == 0) {
            if (mnw_cld_accept(&c, mkres(r[oldest++]), &e) != 0 || oldest > got) break;
            refills++;
            continue;
        }
        got++;
    }
    T_OK(rc == -1 && got == 11 && refills > 0, "all 11 lists handed out, the window refilled %d times", refills);
    int rev_ok = 1;
    for (int k = got - 1; k >= oldest; k--) rev_ok &= mnw_cld_accept(&c, mkres(r[k]), &e) == 0;
    T_OK(rev_ok, "the last %d lists accepted in reverse order", got - oldest);
    T_OK(mnw_cld_done(&c) && c.watermark == 103, "all 103 pairs written (watermark %llu); last list has %llu pairs",
         (unsigned long long)c.watermark, (unsigned long long)r[got - 1].count);
    T_OK(mnw_writer_close(&w, &e) == 0, "writer closes");
    mnw_cld_free(&c);

    /* the gzip members concatenate to the pairs in order */
    char path[256];
    snprintf(path, sizeof path, "%s/pairs.tsv.gz", dir);
    gzFile gz = gzopen(path, "rb");
    char line[256];
    int lines = 0, order_ok = 1;
    T_OK(gz && gzgets(gz, line, sizeof line) && line[0] == 'i', "header first");
    while (gz && gzgets(gz, line, sizeof line)) {
        if (strtoull(line, NULL, 10) != (unsigned long long)lines) order_ok = 0;
        lines++;
    }
    if (gz) gzclose(gz);
    T_OK(order_ok && lines == 103, "gzip members read back as 103 lines in pair order (%d)", lines);
    snprintf(path, sizeof path, "%s/dist.phylip", dir);
    FILE *f = fopen(path, "r");
    lines = 0;
    while (f && fgets(line, sizeof line, f)) lines++;
    if (f) fclose(f);
    T_OK(lines == 103, "plain output appended in order too");
    unlink(path);
    snprintf(path, sizeof path, "%s/pairs.tsv.gz", dir);
    unlink(path);
    rmdir(dir);

    /* options: config file first, command line wins; countends */
    char conf[] = "/tmp/mnw-test-conf.XXXXXX";
    int fd = mkstemp(conf);
    FILE *cf = fdopen(fd, "w");
    fprintf(cf, "# comment\n  match = 7  \nmismatch=-2\nfree-end-gaps\ncigar = no\niddef = mothur-onegap-noends\n");
    fclose(cf);
    mnw_opts o;
    mnw_opts_init(&o);
    char *argv[] = {"mnw", "-c", conf, "--match", "3", "-i", "x.fa", "-o", "out", "--cigar", NULL};
    T_OK(mnw_opts_parse(&o, 10, argv, &e) == 0, "parse argv with a config file");
    T_OK(mnw_opts_check(&o, &e) == 0, "check");
    T_OK(o.sc.match == 3 && o.sc.mismatch == -2 && o.sc.free_ends == 1 && o.cigar == 1,
         "command line wins (match 3, cigar), config applies (mismatch -2, free ends)");
    T_OK(o.iddef.kind == MNW_ID_MOTHUR_ONEGAP && o.iddef.countends == 0, "-noends name sets countends=0");
    mnw_opts_free(&o);
    mnw_opts_init(&o);
    char *argv2[] = {"mnw", "--iddef", "mothur-eachgap-noends", "--countends", "yes", "-i", "x", "-o", "y", "--gap", "7", NULL};
    T_OK(mnw_opts_parse(&o, 11, argv2, &e) == 0 && mnw_opts_check(&o, &e) == 0 && o.iddef.countends == 1,
         "--countends yes wins over a -noends name");
    T_OK(o.sc.gap_open == 7 && o.sc.gap_extend == 7, "--gap sets a linear gap");
    mnw_opts_free(&o);
    mnw_opts_init(&o);
    char *argv3[] = {"mnw", "--worklist-size", "0", NULL};
    T_OK(mnw_opts_parse(&o, 3, argv3, &e) != 0, "worklist-size 0 refused: %s", e.msg);
    mnw_opts_free(&o);

    /* a key given twice in one section is refused, naming both lines (issue 38: the last one won silently);
     * the same key in another section, or host rules, may repeat */
    struct {
        const char *text, *want; /* want: the message after "CONF:", NULL: accepted */
    } dup[] = {
        {"match = 4\nthreads = 2\n# again\nthreads = 3\n", "4: 'threads' given a second time (first at line 2): keep one of them"},
        {"free-end-gaps\nfree-end-gaps = no\n", "2: 'free-end-gaps' given a second time (first at line 1): keep one of them"},
        {"threads = 2\n[host a*]\nthreads = 1\n[host b*]\nthreads = 4\n[host a*]\nprefetch = 1\nthreads = 5\n",
         "8: 'threads' given a second time for [host a*] (first at line 3): keep one of them"},
        {"threads = 2\n[host a*]\nthreads = 1\n[host b*]\nthreads = 4\n", NULL},
        {"host = a:threads=1\nhost = b:threads=2\nthreads = 1\n", NULL},
    };
    for (size_t k = 0; k < sizeof dup / sizeof dup[0]; k++) {
        cf = fopen(conf, "w");
        fputs(dup[k].text, cf);
        fclose(cf);
        mnw_opts_init(&o);
        int rc = mnw_opts_read_config(&o, conf, &e);
        char want[256];
        snprintf(want, sizeof want, "%s:%s", conf, dup[k].want ? dup[k].want : "");
        if (dup[k].want)
            T_OK(rc == -1 && !strcmp(e.msg, want), "config key twice in one section refused: \"%s\"", rc ? e.msg : "accepted");
        else
            T_OK(rc == 0, "config: the same key in other sections, host = twice: accepted (%s)", rc ? e.msg : "ok");
        mnw_opts_free(&o);
    }
    /* a host pattern too long for the reader: said so (it said "needs a host name pattern") */
    cf = fopen(conf, "w");
    fprintf(cf, "[host %0600d]\nthreads = 1\n", 7);
    fclose(cf);
    mnw_opts_init(&o);
    char want[256];
    snprintf(want, sizeof want, "%s:1: [host GLOB]: a host name pattern of 600 bytes (at most 511)", conf);
    T_OK(mnw_opts_read_config(&o, conf, &e) == -1 && !strcmp(e.msg, want), "a 600-byte host pattern: \"%s\"", e.msg);
    mnw_opts_free(&o);
    unlink(conf);
    test_pruned();
    test_bookmark_thread();
    return t_exit();
}
