/* test_cld.c - the CLD's hand-out window, reordering and its refusals; pair
 * numbering; the gzip members it concatenates; option and config parsing,
 * a config key given twice in one section refused (naming both lines). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cld/cld.h"
#include "lib/gzmember.h"
#include "lib/pairs.h"
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
    return t_exit();
}
