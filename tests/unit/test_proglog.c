/* test_proglog.c - OUTDIR/progress.log, the run's history (cld/proglog.h).
 *
 * A snapshot line is one JSON object (read back by lib/json.c) with every
 * field of its record, a host with quotes and control characters escaped;
 * appends are due at the first call, at a change of state, with force and
 * after the interval, and not otherwise; a file cut in the middle of a line
 * gets its newline before the next run's first line; a FIFO or a directory
 * in its place is an error, not a hang; past its size bound the file is
 * compacted: first and last line, every change of state or resume count
 * kept, every second line of a stretch dropped, the interval doubled, and
 * over a long run the file stays bounded while every change stays in it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cld/proglog.h"
#include "lib/json.h"
#include "tests/tap.h"

static char dir[256];

/* The file's lines: count, and into states[] (cap) each line's
 * "state/resumes" ("?" for a line that is not a JSON object). */
static int read_lines(const char *path, char states[][40], int cap, int *bad)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[8192];
    int n = 0;
    *bad = 0;
    while (fgets(line, sizeof line, f)) {
        mnw_err e;
        mnw_json *v = mnw_json_parse("line", line, strlen(line), &e);
        const mnw_json *s = v ? mnw_json_get(v, "state") : NULL, *r = v ? mnw_json_get(v, "resumes") : NULL;
        if (n < cap) {
            if (s && r && s->type == MNW_JSON_STRING && r->type == MNW_JSON_NUMBER)
                snprintf(states[n], 40, "%s/%s", s->str, r->str);
            else
                snprintf(states[n], 40, "?");
        }
        if (!s) (*bad)++;
        mnw_json_free(v);
        n++;
    }
    fclose(f);
    return n;
}

static void record(mnw_progress *p, int nnodes)
{
    mnw_progress_init(p, nnodes);
    p->pairs_total = 1000000;
    p->pairs_done = p->pairs_at_start = 1000;
    for (int r = 0; r < nnodes; r++) {
        mnw_progress_node *n = &p->nodes[r];
        snprintf(n->host, sizeof n->host, r ? "node-%d" : "we\"ird\thost\\", r);
        n->ndev = 2;
        snprintf(n->dev[0].name, sizeof n->dev[0].name, "CPU");
        snprintf(n->dev[1].name, sizeof n->dev[1].name, "GPU 0");
    }
}

static void test_line(void)
{
    mnw_progress p;
    record(&p, 2);
    p.resumes = 3;
    mnw_progress_set_state(&p, "running", NULL);
    p.updated = 1795000000.25;
    p.elapsed_s = 12.5;
    p.pairs_done = 123456;
    p.nodes[1].pairs = 777;
    p.nodes[1].dev[1].pairs = 700;
    mnw_buf b;
    mnw_buf_init(&b);
    mnw_proglog_line(&p, &b);
    T_OK(b.len > 0 && b.p[b.len - 1] == '\n' && !memchr(b.p, '\n', b.len - 1), "a snapshot is one line");
    mnw_err e;
    mnw_json *v = mnw_json_parse("line", b.p, b.len, &e);
    T_OK(v && v->type == MNW_JSON_OBJECT, "the line is a JSON object");
    uint64_t u = 0;
    long long i = 0;
    const mnw_json *x;
    T_OK(v && (x = mnw_json_get(v, "t")) && x->num == 1795000000.25, "t");
    T_OK(v && !mnw_json_int(mnw_json_get(v, "resumes"), 0, 100, &i) && i == 3, "resumes");
    T_OK(v && (x = mnw_json_get(v, "state")) && x->type == MNW_JSON_STRING && !strcmp(x->str, "running"), "state");
    T_OK(v && (x = mnw_json_get(v, "elapsed_s")) && x->num == 12.5, "elapsed_s");
    T_OK(v && !mnw_json_u64(mnw_json_get(v, "pairs_done"), &u) && u == 123456, "pairs_done");
    T_OK(v && !mnw_json_u64(mnw_json_get(v, "pairs_at_start"), &u) && u == 1000, "pairs_at_start");
    T_OK(v && !mnw_json_u64(mnw_json_get(v, "pairs_total"), &u) && u == 1000000, "pairs_total");
    const mnw_json *nodes = v ? mnw_json_get(v, "nodes") : NULL;
    T_OK(nodes && nodes->type == MNW_JSON_ARRAY && nodes->n == 2, "two nodes");
    if (nodes && nodes->n == 2) {
        const mnw_json *n0 = &nodes->items[0], *n1 = &nodes->items[1];
        T_OK((x = mnw_json_get(n0, "host")) && !strcmp(x->str, "we\"ird\thost\\"), "a host with quotes, a tab and a backslash reads back");
        T_OK(!mnw_json_int(mnw_json_get(n1, "rank"), 0, 10, &i) && i == 1, "node rank");
        T_OK(!mnw_json_u64(mnw_json_get(n1, "pairs"), &u) && u == 777, "node pairs");
        const mnw_json *dev = mnw_json_get(n1, "dev");
        T_OK(dev && dev->type == MNW_JSON_ARRAY && dev->n == 2 && !strcmp(mnw_json_get(&dev->items[1], "name")->str, "GPU 0") &&
                 !mnw_json_u64(mnw_json_get(&dev->items[1], "pairs"), &u) && u == 700,
             "devices: name and pairs");
    }
    mnw_json_free(v);
    mnw_buf_free(&b);
    mnw_progress_free(&p);
}

/* the pairs pruned (issue 39): in the line of the run and of each node; a
 * line of an mnw before the filter reads as 0 pruned; a bad count is not a
 * snapshot */
static void test_pruned(void)
{
    mnw_progress p;
    record(&p, 2);
    mnw_progress_set_state(&p, "running", NULL);
    p.updated = 1795000000.25;
    p.elapsed_s = 7.5;
    p.pairs_done = 123456;
    p.pruned = 120000;
    p.nodes[1].pairs = 777;
    p.nodes[1].pruned = 700;
    mnw_buf b;
    mnw_buf_init(&b);
    mnw_proglog_line(&p, &b);
    mnw_err e;
    mnw_json *v = mnw_json_parse("line", b.p, b.len, &e);
    mnw_proglog_snap s;
    T_OK(v && mnw_proglog_snap_of(v, &s) == 0 && s.pruned == 120000 && s.pairs_done == 123456 && s.resumes == 0 &&
             !strcmp(s.state, "running") && s.t == 1795000000.25 && s.elapsed_s == 7.5,
         "the line's figures read back, pruned 120000 of 123456 done");
    const mnw_json *nodes = v ? mnw_json_get(v, "nodes") : NULL;
    uint64_t u = 0;
    T_OK(nodes && nodes->n == 2 && !mnw_json_u64(mnw_json_get(&nodes->items[1], "pruned"), &u) && u == 700 &&
             !mnw_json_u64(mnw_json_get(&nodes->items[0], "pruned"), &u) && u == 0,
         "each node's pruned: 0 and 700");
    mnw_json_free(v);
    mnw_buf_free(&b);
    static const struct {
        const char *line, *what;
        int ok;
        uint64_t pruned;
    } lines[] = {
        {"{\"t\":1795000000.000,\"resumes\":0,\"state\":\"running\",\"elapsed_s\":2.000,\"pairs_done\":5000,"
         "\"pairs_at_start\":0,\"pairs_total\":19900,\"nodes\":[{\"rank\":0,\"host\":\"h\",\"pairs\":5000,"
         "\"dev\":[{\"name\":\"CPU\",\"pairs\":5000}]}]}",
         "a line of an mnw before the filter: 0 pruned", 1, 0},
        {"{\"t\":1,\"resumes\":1,\"state\":\"done\",\"pairs_done\":5000,\"pruned\":5000,\"nodes\":[]}",
         "every pair pruned", 1, 5000},
        {"{\"t\":1,\"resumes\":1,\"state\":\"done\",\"pairs_done\":5000,\"pruned\":5001,\"nodes\":[]}",
         "more pruned than done: not a snapshot", 0, 0},
        {"{\"t\":1,\"resumes\":1,\"state\":\"done\",\"pairs_done\":5000,\"pruned\":-3,\"nodes\":[]}",
         "a negative count: not a snapshot", 0, 0},
        {"{\"t\":1,\"resumes\":1,\"state\":\"done\",\"pairs_done\":5000,\"pruned\":\"3\",\"nodes\":[]}",
         "a count in a string: not a snapshot", 0, 0},
        {"{\"t\":1,\"state\":\"done\",\"pruned\":3,\"nodes\":[]}", "no resumes: not a snapshot", 0, 0},
    };
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
        v = mnw_json_parse("line", lines[k].line, strlen(lines[k].line), &e);
        int rc = v ? mnw_proglog_snap_of(v, &s) : -2;
        T_OK(lines[k].ok ? rc == 0 && s.pruned == lines[k].pruned : rc == -1, "%s (%d, pruned %llu)", lines[k].what,
             rc, (unsigned long long)s.pruned);
        mnw_json_free(v);
    }
    mnw_progress_free(&p);
}

static void test_due(void)
{
    char d[300], path[400];
    snprintf(d, sizeof d, "%s/due", dir);
    T_OK(mkdir(d, 0755) == 0, "mkdir");
    snprintf(path, sizeof path, "%s/%s", d, MNW_PROGLOG_FILE);
    mnw_proglog l;
    mnw_proglog_init(&l, d);
    mnw_progress p;
    record(&p, 1);
    mnw_err e;
    mnw_progress_set_state(&p, "running", NULL);
    T_OK(mnw_proglog_add(&l, &p, 0, &e) == 1, "the first snapshot is due");
    T_OK(mnw_proglog_add(&l, &p, 0, &e) == 0, "the same state within the interval is not");
    T_OK(mnw_proglog_add(&l, &p, 1, &e) == 1, "force is");
    mnw_progress_set_state(&p, "stopping", NULL);
    T_OK(mnw_proglog_add(&l, &p, 0, &e) == 1, "a change of state is");
    l.last -= l.interval + 0.1;
    T_OK(mnw_proglog_add(&l, &p, 0, &e) == 1, "after the interval it is");
    char st[8][40];
    int bad;
    T_OK(read_lines(path, st, 8, &bad) == 4 && bad == 0 && !strcmp(st[2], "stopping/0"), "4 lines, all JSON");
    /* a run killed in the middle of a line; the next run's first line stands apart */
    FILE *f = fopen(path, "a");
    fputs("{\"t\":17", f);
    fclose(f);
    mnw_proglog_init(&l, d);
    p.resumes = 1;
    mnw_progress_set_state(&p, "running", NULL);
    T_OK(mnw_proglog_add(&l, &p, 0, &e) == 1, "a resumed run appends");
    int n = read_lines(path, st, 8, &bad);
    T_OK(n == 6 && bad == 1 && !strcmp(st[4], "?") && !strcmp(st[5], "running/1"),
         "the cut line ends where it was cut; the new one is whole (%d lines, %d unreadable)", n, bad);
    mnw_progress_free(&p);
}

static void test_not_a_file(void)
{
    char d[300], path[400];
    mnw_progress p;
    record(&p, 1);
    mnw_progress_set_state(&p, "running", NULL);
    mnw_err e;
    mnw_proglog l;
    snprintf(d, sizeof d, "%s/fifo", dir);
    T_OK(mkdir(d, 0755) == 0, "mkdir");
    snprintf(path, sizeof path, "%s/%s", d, MNW_PROGLOG_FILE);
    T_OK(mkfifo(path, 0644) == 0, "mkfifo");
    mnw_proglog_init(&l, d);
    T_OK(mnw_proglog_add(&l, &p, 1, &e) == -1 && strstr(e.msg, "progress.log: is not a regular file (a FIFO)"),
         "a FIFO in its place: an error naming it, no hang (%s)", e.msg);
    snprintf(d, sizeof d, "%s/dir", dir);
    T_OK(mkdir(d, 0755) == 0, "mkdir");
    snprintf(path, sizeof path, "%s/%s", d, MNW_PROGLOG_FILE);
    T_OK(mkdir(path, 0755) == 0, "a directory in its place");
    mnw_proglog_init(&l, d);
    T_OK(mnw_proglog_add(&l, &p, 1, &e) == -1 && strstr(e.msg, "progress.log: is not a regular file (a directory)"), "a directory: an error (%s)", e.msg);
    mnw_progress_free(&p);
}

static void test_compact(void)
{
    char d[300], path[400];
    snprintf(d, sizeof d, "%s/compact", dir);
    T_OK(mkdir(d, 0755) == 0, "mkdir");
    snprintf(path, sizeof path, "%s/%s", d, MNW_PROGLOG_FILE);
    mnw_progress p;
    record(&p, 4);
    mnw_err e;
    mnw_proglog l;
    mnw_proglog_init(&l, d);
    l.max_bytes = 20000; /* about 40 lines of 4 nodes */
    /* 3 runs of 2,000 snapshots each: running ..., stopping, stopped; the last ends done */
    int changes = 0, compactions = 0, maxsize = 0, failed = 0;
    double interval0 = l.interval;
    for (int run = 0; run < 3; run++) {
        if (run) mnw_proglog_init(&l, d), l.max_bytes = 20000;
        p.resumes = run;
        for (int k = 0; k < 2000; k++) {
            const char *s = k == 1999 ? (run == 2 ? "done" : "stopped") : k == 1998 && run < 2 ? "stopping" : "running";
            if (strcmp(p.state, s) || k == 0) changes++;
            mnw_progress_set_state(&p, s, NULL);
            p.pairs_done++;
            double before = l.interval;
            if (mnw_proglog_add(&l, &p, 1, &e) != 1) failed++;
            if (l.interval > before) compactions++;
            struct stat st;
            if (stat(path, &st) == 0 && st.st_size > maxsize) maxsize = (int)st.st_size;
        }
    }
    T_OK(!failed, "every append went in (%d failed)", failed);
    T_OK(compactions >= 3 && l.interval > interval0, "the file was compacted (%d times), the interval doubled", compactions);
    T_OK(maxsize <= 20000 + 600, "the file never passed its bound by more than a line (largest %d bytes)", maxsize);
    char st[4096][40];
    int bad, n = read_lines(path, st, 4096, &bad);
    T_OK(n > 10 && n < 80 && bad == 0, "%d lines kept of 6,000, all JSON", n);
    int seen_stop0 = 0, seen_stopped0 = 0, seen_run1 = 0, seen_stopped1 = 0, seen_run2 = 0;
    for (int k = 0; k < n && k < 4096; k++) {
        seen_stop0 += !strcmp(st[k], "stopping/0");
        seen_stopped0 += !strcmp(st[k], "stopped/0");
        seen_run1 += !strcmp(st[k], "running/1");
        seen_stopped1 += !strcmp(st[k], "stopped/1");
        seen_run2 += !strcmp(st[k], "running/2");
    }
    T_OK(!strcmp(st[0], "running/0") && !strcmp(st[n - 1], "done/2"), "the first and the last line kept (%s, %s)", st[0],
         st[n - 1]);
    T_OK(seen_stop0 == 1 && seen_stopped0 == 1 && seen_run1 >= 1 && seen_stopped1 == 1 && seen_run2 >= 1,
         "every stop and every resume kept");
    (void)changes;
    /* compaction alone, on a hand-made file: state changes and the ends stay, every second of a stretch goes */
    FILE *f = fopen(path, "w");
    for (int k = 0; k < 9; k++)
        fprintf(f, "{\"t\":%d,\"resumes\":0,\"state\":\"%s\"}\n", k, k == 5 ? "stopping" : k == 8 ? "stopped" : "running");
    fputs("not json\n", f);
    fclose(f);
    T_MUST(mnw_proglog_compact(path, &e), e);
    n = read_lines(path, st, 4096, &bad);
    /* kept: 0 (first), 2, 4 (every second of 1-4), 5 (change), 6? no: 7 (second of 6-7), 8 (change), "not json" (last) */
    T_OK(n == 7 && bad == 1, "9 snapshots and a stray line -> %d lines (7 expected), the stray one kept", n);
    T_OK(!strcmp(st[0], "running/0") && !strcmp(st[3], "stopping/0") && !strcmp(st[5], "stopped/0"),
         "the changes of state stay in place");
    /* a file of nothing but changes (a run resumed on every line) still shrinks */
    f = fopen(path, "w");
    for (int k = 0; k < 1000; k++) fprintf(f, "{\"t\":%d,\"resumes\":%d,\"state\":\"running\"}\n", k, k);
    fclose(f);
    T_MUST(mnw_proglog_compact(path, &e), e);
    n = read_lines(path, st, 4096, &bad);
    T_OK(n == 501 && !strcmp(st[0], "running/0") && !strcmp(st[n - 1], "running/999"),
         "1,000 lines that each change -> %d (501: every second, the ends kept)", n);
    mnw_progress_free(&p);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/mnw-proglog.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_line();
    test_pruned();
    test_due();
    test_not_a_file();
    test_compact();
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "# could not remove %s\n", dir);
    return t_exit();
}
