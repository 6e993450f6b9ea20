/* test_progress.c - the JSON reader (lib/json.h), OUTDIR/progress.json
 * (cld/progress.h) and `mnw status` (src/status.h).
 *
 * JSON: valid texts of every kind read back as written (nesting, escapes,
 * \u escapes with surrogate pairs, raw UTF-8, numbers, integers to 2^64-1
 * exactly); each of a list of malformed texts is refused with NAME:LINE:COL;
 * the depth limit. progress.json: a write with several nodes and devices
 * and awkward strings reads back field for field; every cut of the file
 * before its closing brace is refused and every cut after it (only the
 * final newline lost) reads back the same; unknown keys and another key
 * order are accepted; missing, mistyped and inconsistent values and a newer
 * version are refused naming file and line; the writer refuses what the
 * reader would refuse; a FIFO, a directory, a link loop and a dangling link
 * in its place are refused, named, without blocking. mnw status: outputs on hand-made OUTDIRs (running
 * here, killed, hung, on another host, stopped, failed, done, bookmark
 * only, nothing, damaged files) and its command line.
 * MNW_STATUS_SHOW=1 prints each status output as "# " lines. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cld/bookmark.h"
#include "cld/progress.h"
#include "lib/json.h"
#include "src/status.h"
#include "tests/tap.h"

static char dir[256];

static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    return n;
}

static void spit(const char *path, const char *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(buf, 1, n, f);
    fclose(f);
}

static mnw_json *parse(const char *s, mnw_err *e) { return mnw_json_parse("t", s, strlen(s), e); }

/* ---- the JSON reader ---- */

static void json_valid(void)
{
    mnw_err e;
    mnw_json *v = parse(" {\"a\": 1, \"b\": [true, false, null, [], {}], \"c\": {\"d\": \"x\", \"e\": [[-2.5e1]]}}\n", &e);
    T_OK(v && v->type == MNW_JSON_OBJECT && v->n == 3, "an object of three keys");
    const mnw_json *b = mnw_json_get(v, "b"), *c = mnw_json_get(v, "c");
    T_OK(b && b->type == MNW_JSON_ARRAY && b->n == 5 && b->items[0].type == MNW_JSON_TRUE &&
             b->items[1].type == MNW_JSON_FALSE && b->items[2].type == MNW_JSON_NULL &&
             b->items[3].type == MNW_JSON_ARRAY && b->items[3].n == 0 && b->items[4].type == MNW_JSON_OBJECT &&
             b->items[4].n == 0,
         "an array of literals and empty containers");
    const mnw_json *d = mnw_json_get(c, "d"), *ee = mnw_json_get(c, "e");
    T_OK(d && d->type == MNW_JSON_STRING && !strcmp(d->str, "x") && ee && ee->n == 1 && ee->items[0].n == 1 &&
             ee->items[0].items[0].num == -25.0,
         "nested values");
    T_OK(!mnw_json_get(v, "z") && !mnw_json_get(b, "a"), "a missing key, a key of an array: NULL");
    T_OK(v && v->line == 1 && v->col == 2 && b->col == 16, "value positions (line 1, columns 2 and 16)");
    mnw_json_free(v);

    v = parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t\"", &e);
    T_OK(v && v->type == MNW_JSON_STRING && !strcmp(v->str, "q\" b\\ s/ \b\f\n\r\t") && v->len == 14,
         "every short escape");
    mnw_json_free(v);
    v = parse("\"\\u00e9\\u4E2D\\ud83d\\ude00 \xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\"", &e);
    T_OK(v && !strcmp(v->str, "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80 \xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80"),
         "\\u escapes (2-, 3-byte, a surrogate pair) and raw UTF-8 give the same bytes");
    mnw_json_free(v);

    const char *nums[] = {"0", "-0", "1.5e3", "-2E-2", "1e+2", "123456789.125", "1e-400"};
    double want[] = {0, 0, 1500, -0.02, 100, 123456789.125, 0};
    int good = 0;
    for (int k = 0; k < 7; k++) {
        v = parse(nums[k], &e);
        if (v && v->type == MNW_JSON_NUMBER && v->num == want[k] && !strcmp(v->str, nums[k])) good++;
        mnw_json_free(v);
    }
    T_OK(good == 7, "numbers: value and text (%d of 7)", good);
    uint64_t u = 0;
    long long ll = 0;
    v = parse("[18446744073709551615, 9007199254740993, 18446744073709551616, 1.0, -1, 1e3, 7]", &e);
    T_OK(v && mnw_json_u64(&v->items[0], &u) == 0 && u == UINT64_MAX && mnw_json_u64(&v->items[1], &u) == 0 &&
             u == 9007199254740993ull,
         "integers to 2^64-1 read exactly, beyond a double's 2^53 too");
    T_OK(v && mnw_json_u64(&v->items[2], &u) != 0 && mnw_json_u64(&v->items[3], &u) != 0 &&
             mnw_json_u64(&v->items[4], &u) != 0 && mnw_json_u64(&v->items[5], &u) != 0,
         "2^64, 1.0, -1 and 1e3 are not unsigned integers");
    T_OK(v && mnw_json_int(&v->items[4], -5, 5, &ll) == 0 && ll == -1 && mnw_json_int(&v->items[6], 0, 6, &ll) != 0 &&
             mnw_json_int(&v->items[6], 7, 7, &ll) == 0,
         "integers within a range");
    mnw_json_free(v);
    v = parse("  \"top\"  ", &e);
    T_OK(v && v->type == MNW_JSON_STRING, "a scalar at the top");
    mnw_json_free(v);

    /* nesting: 64 levels read, 65 refused */
    char deep[200];
    memset(deep, '[', 64);
    memset(deep + 64, ']', 64);
    deep[128] = '\0';
    v = parse(deep, &e);
    T_OK(v != NULL, "arrays nested %d deep", MNW_JSON_MAX_DEPTH);
    mnw_json_free(v);
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    deep[130] = '\0';
    v = parse(deep, &e);
    T_OK(!v && strstr(e.msg, "nested more than 64"), "65 deep is refused: %s", e.msg);
    mnw_json_free(v);
}

static void json_malformed(void)
{
    static const struct {
        const char *text;
        size_t len; /* 0: strlen */
    } bad[] = {
        {"", 0}, {"   \n", 0}, {"{", 0}, {"}", 0}, {"[1,]", 0}, {"{\"a\":1,}", 0}, {"{'a':1}", 0}, {"{a:1}", 0},
        {"[01]", 0}, {"[1.]", 0}, {"[.5]", 0}, {"[+1]", 0}, {"[1e]", 0}, {"[-]", 0}, {"NaN", 0}, {"[Infinity]", 0},
        {"[1e999]", 0}, {"{\"a\" 1}", 0}, {"{\"a\":1 \"b\":2}", 0}, {"[1 2]", 0}, {"tru", 0}, {"nul", 0}, {"True", 0},
        {"\"abc", 0}, {"\"\\x\"", 0}, {"\"\\u12\"", 0}, {"\"\\u12g4\"", 0}, {"\"\\ud800\"", 0}, {"\"\\udc00\"", 0},
        {"\"\\ud800\\u0041\"", 0}, {"\"\\u0000\"", 0}, {"\"a\tb\"", 0}, {"\"a\nb\"", 0}, {"\"a\0b\"", 5},
        {"[1]\0", 4}, {"\"\xff\"", 0}, {"\"\xc0\xaf\"", 0}, {"\"\xed\xa0\x80\"", 0}, {"\"\xf4\x90\x80\x80\"", 0},
        {"\"\xe4\xb8\"", 0}, {"{\"a\":1,\"a\":2}", 0}, {"{\"b\":{\"x\":1,\"y\":2,\"x\":3}}", 0}, {"[1] x", 0},
        {"[1][2]", 0}, {"\xef\xbb\xbf{}", 0}, {"/*c*/{}", 0}, {"{}//", 0}, {"[1,,2]", 0}, {"[,1]", 0},
        {"{\"a\":}", 0}, {"{:1}", 0}, {"[\"a\" : 1]", 0}, {"\x0c[]", 0},
    };
    int n = (int)(sizeof bad / sizeof bad[0]), refused = 0, named = 0;
    char first_pass[256] = "";
    for (int k = 0; k < n; k++) {
        mnw_err e = {""};
        size_t len = bad[k].len ? bad[k].len : strlen(bad[k].text);
        mnw_json *v = mnw_json_parse("t", bad[k].text, len, &e);
        if (!v) refused++;
        else if (!first_pass[0]) snprintf(first_pass, sizeof first_pass, "%s", bad[k].text);
        int line = 0, col = 0, used = 0;
        if (!v && sscanf(e.msg, "t:%d:%d: %n", &line, &col, &used) == 2 && used > 0 && line >= 1 && col >= 1) named++;
        mnw_json_free(v);
    }
    T_OK(refused == n, "each of %d malformed texts is refused (%d were; first accepted: '%s')", n, refused, first_pass);
    T_OK(named == n, "each error starts NAME:LINE:COL (%d of %d)", named, n);

    mnw_err e;
    mnw_json *v = parse("{\n  \"a\": 1,\n  \"b\" 2\n}", &e);
    T_OK(!v && !strcmp(e.msg, "t:3:7: expected ':' after the key, found '2'"), "line and column: %s", e.msg);
    v = parse("{\n  \"a\": [1,\n", &e);
    T_OK(!v && strstr(e.msg, "t:3:1:") && strstr(e.msg, "cut short"), "cut short: %s", e.msg);
    v = parse("{\"k\": 1,\n \"k\": 2}", &e);
    T_OK(!v && strstr(e.msg, "t:2:") && strstr(e.msg, "\"k\" appears twice"), "a duplicate key: %s", e.msg);
    v = parse("[\"\xff\"]", &e);
    T_OK(!v && strstr(e.msg, "0xff is not valid UTF-8"), "bad UTF-8: %s", e.msg);
}

static void json_write(void)
{
    mnw_buf b;
    mnw_buf_init(&b);
    const char *s = "q\"b\\n\nt\t\x01\x1f \xc3\xa9 \xf0\x9f\x98\x80";
    mnw_json_put_string(&b, s);
    mnw_buf_putc(&b, '\0');
    T_OK(!strcmp(b.p, "\"q\\\"b\\\\n\\nt\\t\\u0001\\u001f \xc3\xa9 \xf0\x9f\x98\x80\""), "escapes written: %s", b.p);
    mnw_err e;
    mnw_json *v = mnw_json_parse("t", b.p, b.len - 1, &e);
    T_OK(v && !strcmp(v->str, s), "and read back as the same bytes");
    mnw_json_free(v);
    b.len = 0;
    mnw_json_put_string(&b, "a\xff" "b\xc3");
    mnw_buf_putc(&b, '\0');
    v = mnw_json_parse("t", b.p, b.len - 1, &e);
    T_OK(v && !strcmp(b.p, "\"a\\ufffdb\\ufffd\"") && !strcmp(v->str, "a\xef\xbf\xbd" "b\xef\xbf\xbd"),
         "bytes that are not UTF-8 become U+FFFD: the output stays valid JSON (%s)", b.p);
    mnw_json_free(v);
    b.len = 0;
    T_OK(mnw_json_put_double(&b, "%.3f", NAN) != 0 && mnw_json_put_double(&b, "%.3f", INFINITY) != 0 && b.len == 0,
         "NaN and infinity are refused, nothing appended");
    T_OK(mnw_json_put_double(&b, "%.3f", 1e300) == 0 && b.len == 305, "a long number is written whole (%zu chars)",
         b.len);
    mnw_buf_free(&b);
}

/* ---- progress.json ---- */

static void sample(mnw_progress *p, int nnodes)
{
    mnw_progress_init(p, nnodes);
    mnw_progress_set_state(p, "running", NULL);
    snprintf(p->input, sizeof p->input, "/data/16s-25k.fa.gz");
    snprintf(p->outdir, sizeof p->outdir, "%s", dir);
    snprintf(p->host, sizeof p->host, "node01");
    p->pid = 4242;
    p->started = 1795000000.25;
    p->updated = 1795000300.5;
    p->elapsed_s = 300.25;
    p->pairs_total = 312487500;
    p->pairs_done = 131244750;
    p->pairs_at_start = 100000000;
    p->resumes = 1;
    for (int k = 0; k < nnodes; k++) {
        mnw_progress_node *n = &p->nodes[k];
        snprintf(n->host, sizeof n->host, "node%02d", k + 1);
        n->workers = 14;
        n->ngpus = k == 0 ? 2 : 0;
        n->ndev = 1 + n->ngpus;
        snprintf(n->dev[0].name, sizeof n->dev[0].name, "CPU");
        n->dev[0].pairs = 1000000 + (uint64_t)k;
        for (int g = 0; g < n->ngpus; g++) {
            snprintf(n->dev[1 + g].name, sizeof n->dev[1 + g].name, "GPU %d", g);
            n->dev[1 + g].pairs = 9000000 + (uint64_t)g;
        }
        n->pairs = 0;
        for (int d = 0; d < n->ndev; d++) n->pairs += n->dev[d].pairs;
    }
    mnw_progress_rates(p);
}

static int same_progress(const mnw_progress *a, const mnw_progress *b)
{
    if (strcmp(a->state, b->state) || strcmp(a->message, b->message) || strcmp(a->input, b->input) ||
        strcmp(a->outdir, b->outdir) || strcmp(a->host, b->host) || a->pid != b->pid ||
        fabs(a->started - b->started) > 5e-4 || fabs(a->updated - b->updated) > 5e-4 ||
        fabs(a->elapsed_s - b->elapsed_s) > 5e-4 || a->pairs_total != b->pairs_total ||
        a->pairs_done != b->pairs_done || a->pairs_at_start != b->pairs_at_start || a->resumes != b->resumes ||
        fabs(a->pairs_per_s - b->pairs_per_s) > 5e-4 || (a->eta_s < 0) != (b->eta_s < 0) ||
        (a->eta_s >= 0 && fabs(a->eta_s - b->eta_s) > 5e-4) || strcmp(a->slurm_job, b->slurm_job) ||
        a->slurm_restarts != b->slurm_restarts || strcmp(a->slurm_jobs, b->slurm_jobs) || a->nnodes != b->nnodes)
        return 0;
    for (int k = 0; k < a->nnodes; k++) {
        const mnw_progress_node *x = &a->nodes[k], *y = &b->nodes[k];
        if (x->rank != y->rank || strcmp(x->host, y->host) || x->workers != y->workers || x->ngpus != y->ngpus ||
            x->pairs != y->pairs || fabs(x->pairs_per_s - y->pairs_per_s) > 5e-4 || x->ndev != y->ndev)
            return 0;
        for (int d = 0; d < x->ndev; d++)
            if (strcmp(x->dev[d].name, y->dev[d].name) || x->dev[d].pairs != y->dev[d].pairs ||
                fabs(x->dev[d].pairs_per_s - y->dev[d].pairs_per_s) > 5e-4)
                return 0;
    }
    return 1;
}

static char big[1 << 16], cut[1 << 16];
static size_t n_big;

static void progress_file(void)
{
    char path[512], tmp[512];
    snprintf(path, sizeof path, "%s/progress.json", dir);
    snprintf(tmp, sizeof tmp, "%s/.progress.json.tmp", dir);
    mnw_err e;
    mnw_progress p, r;

    sample(&p, 3);
    T_OK(p.nodes[0].rank == 0 && p.nodes[2].rank == 2 && p.eta_s > 0 && fabs(p.pairs_per_s - 31244750 / 300.25) < 1e-6 &&
             fabs(p.eta_s - (312487500.0 - 131244750) / p.pairs_per_s) < 1e-6 &&
             fabs(p.nodes[0].dev[1].pairs_per_s - 9000000 / 300.25) < 1e-6,
         "init numbers the nodes; rates and ETA are this run's averages");
    mnw_progress_set_state(&p, "stopping",
                           "a \"quoted\" C:\\path\\ and a\nnewline, a tab\t, \x01, caf\xc3\xa9 and \xf0\x9f\x98\x80");
    snprintf(p.input, sizeof p.input, "/data/with \"quotes\"/and\\backslash/\xe6\xb5\x8b.fa");
    snprintf(p.slurm_job, sizeof p.slurm_job, "123456_7");
    snprintf(p.slurm_jobs, sizeof p.slurm_jobs, "123400_7,123456_7");
    p.slurm_restarts = 3;
    snprintf(p.nodes[1].host, sizeof p.nodes[1].host, "n\"ode\\2");
    T_OK(mnw_progress_write(dir, &p, &e) == 0, "write progress.json with 3 nodes, 5 devices, awkward strings");
    T_OK(access(tmp, F_OK) != 0, "no temporary file is left");
    T_OK(mnw_progress_read(path, &r, &e) == 0, "read it back: %s", e.msg);
    T_OK(same_progress(&p, &r), "every field reads back (strings byte for byte, numbers within 0.0005)");
    mnw_progress_free(&r);

    size_t n = slurp(path, big, sizeof big);
    T_OK(!strncmp(big, "{\n  \"mnw_progress\": 1,\n  \"state\": \"stopping\",\n", 46) &&
             strstr(big, "\"pairs_done\": 131244750,\n") && strstr(big, "\"started_utc\": \"2026-11-18T11:06:40Z\"") &&
             strstr(big, "\\\"quoted\\\" C:\\\\path\\\\ and a\\nnewline, a tab\\t, \\u0001") &&
             strstr(big, "        {\"name\": \"GPU 1\", \"pairs\": 9000001, \"pairs_per_s\": "),
         "indented JSON: version first, integers as integers, UTC times, escapes, a device per line");
    mnw_json *v = mnw_json_parse("f", big, n, &e);
    T_OK(v != NULL, "the file is valid JSON to the generic reader");
    mnw_json_free(v);

    /* a file from before slurm_restarts and slurm_jobs still reads (0, "") */
    {
        static char old[1 << 16];
        char *o = old;
        const char *q = big;
        int gone = 0;
        while (*q) { /* copy big without the two keys' lines */
            const char *nl = strchr(q, '\n');
            size_t len = nl ? (size_t)(nl - q) + 1 : strlen(q);
            if (strstr(q, "\"slurm_restarts\"") == q + 2 || strstr(q, "\"slurm_jobs\"") == q + 2) gone++;
            else memcpy(o, q, len), o += len;
            q += len;
        }
        *o = '\0';
        int rc = mnw_progress_parse("old", old, (size_t)(o - old), &r, &e);
        T_OK(gone == 2 && rc == 0 && r.slurm_restarts == 0 && !r.slurm_jobs[0] && !strcmp(r.slurm_job, "123456_7"),
             "a file without slurm_restarts and slurm_jobs reads as 0 and \"\" (%s)", rc ? e.msg : "read");
        if (!rc) mnw_progress_free(&r);
        p.slurm_restarts = -1;
        T_OK(mnw_progress_write(dir, &p, &e) != 0, "a negative slurm_restarts is not written: %s", e.msg);
        p.slurm_restarts = 3;
    }

    /* every cut: before the closing brace refused, after it (only the final newline lost) the same */
    const char *close = strrchr(big, '}');
    size_t end = (size_t)(close - big) + 1;
    int wrong = 0;
    for (size_t k = 0; k <= n; k++) {
        int ok = mnw_progress_parse("f", big, k, &r, &e) == 0;
        int right = k >= end ? ok && same_progress(&p, &r) : !ok;
        if (ok) mnw_progress_free(&r);
        if (!right) wrong++;
    }
    T_OK(wrong == 0 && end == n - 1, "each of the %zu cuts: refused before the closing brace, the same after (%d wrong)",
         n + 1, wrong);
    /* every byte replaced by each of a few others: refused, or a record that writes and reads back the same */
    const char subst[] = "0-9\"\\} x\xff\n";
    int tried = 0, accepted = 0, unstable = 0;
    for (size_t k = 0; k < n; k++) {
        for (const char *c = subst; *c; c++) {
            if (big[k] == *c) continue;
            memcpy(cut, big, n);
            cut[k] = *c;
            tried++;
            if (mnw_progress_parse("f", cut, n, &r, &e) != 0) continue;
            accepted++;
            mnw_progress q;
            if (mnw_progress_write(dir, &r, &e) || mnw_progress_read(path, &q, &e)) {
                unstable++;
            } else {
                if (!same_progress(&r, &q)) unstable++;
                mnw_progress_free(&q);
            }
            mnw_progress_free(&r);
        }
    }
    T_OK(unstable == 0 && accepted > 0 && accepted < tried,
         "%d one-byte changes: %d refused, %d accepted, each of those writes and reads back (%d did not)", tried,
         tried - accepted, accepted, unstable);
    spit(path, big, n / 2);
    T_OK(mnw_progress_read(path, &r, &e) != 0 && !strncmp(e.msg, path, strlen(path)) && strstr(e.msg, "cut short"),
         "a cut file: the error names the file and says so: %s", e.msg);
    spit(path, "", 0);
    T_OK(mnw_progress_read(path, &r, &e) != 0 && strstr(e.msg, path) && strstr(e.msg, "empty"), "an empty file: %s",
         e.msg);

    /* forward compatibility: other key order, unknown keys anywhere */
    const char *other =
        "{\"nodes\": [{\"devices\": [{\"pairs_per_s\": 2.5, \"name\": \"GPU 3\", \"pairs\": 7, \"temp_c\": 61}],"
        " \"pairs_per_s\": 2.5, \"pairs\": 7, \"gpus\": 1, \"workers\": 0, \"host\": \"h\", \"rank\": 5,"
        " \"future\": {\"x\": [1, {\"y\": null}]}}],"
        " \"slurm_job\": \"\", \"eta_s\": 12.5, \"pairs_per_s\": 1, \"resumes\": 0, \"pairs_at_start\": 0,"
        " \"pairs_done\": 7, \"pairs_total\": 10, \"elapsed_s\": 7, \"updated\": 100, \"started\": 93, \"pid\": 1,"
        " \"host\": \"h\", \"outdir\": \"/o\", \"input\": \"i.fa\", \"message\": \"\", \"state\": \"paused\","
        " \"new_key\": [true], \"mnw_progress\": 1}";
    T_OK(mnw_progress_parse("o", other, strlen(other), &r, &e) == 0 && !strcmp(r.state, "paused") && r.nnodes == 1 &&
             r.nodes[0].rank == 5 && r.nodes[0].ndev == 1 && !strcmp(r.nodes[0].dev[0].name, "GPU 3") &&
             r.eta_s == 12.5 && r.pairs_done == 7,
         "keys in another order, unknown keys and an unknown state are accepted: %s", e.msg);
    mnw_progress_free(&r);

    /* refusals, each naming the file and line */
    static const struct {
        const char *from, *to, *msg;
    } edits[] = {
        {"\"pairs_done\": 131244750", "\"pairs_done\": \"131244750\"", "f:15: \"pairs_done\" must be an integer"},
        {"\"pairs_done\": 131244750", "\"pairs_done\": 1.5", "f:15: \"pairs_done\" must be an integer"},
        {"\"pairs_done\": 131244750", "\"pairs_done\": -1", "f:15: \"pairs_done\" must be an integer"},
        {"\"pairs_done\": 131244750", "\"pairs_dome\": 131244750", "f:1: missing key \"pairs_done\""},
        {"\"pairs_done\": 131244750", "\"pairs_done\": 312487501", "pairs_done 312487501 and pairs_total 312487500 do not fit"},
        {"\"pairs_at_start\": 100000000", "\"pairs_at_start\": 200000000", "do not fit together"},
        {"\"mnw_progress\": 1", "\"mnw_progress\": 2", "f:2: progress format 2, written by a newer mnw"},
        {"\"mnw_progress\": 1", "\"mnw_progres\": 1", "f:1: not an mnw progress file"},
        {"\"state\": \"stopping\"", "\"state\": \"\"", "f:3: \"state\" is empty"},
        {"\"state\": \"stopping\"", "\"state\": null", "f:3: \"state\" must be a string, found null"},
        {"\"eta_s\": ", "\"eta_s\": -", "f:20: \"eta_s\" must be a number >= 0 or null"},
        {"\"workers\": 14", "\"workers\": 2147483648", "f:28: \"nodes[0].workers\" must be an integer from 0 to"},
        {"\"name\": \"GPU 1\"", "\"name\": \"\"", "\"nodes[0].devices[2].name\" is empty"},
        {"\"name\": \"GPU 1\"", "\"nam\": \"GPU 1\"", "missing key \"nodes[0].devices[2].name\""},
        {"\"devices\": [", "\"devices\": {", "f:34:9: expected a key (a string), found '{'"},
        {"\"nodes\": [", "\"nodes\": 3, \"x\": [", "f:24: \"nodes\" must be an array, found a number 3"},
        {"\"slurm_restarts\": 3", "\"slurm_restarts\": -3", "f:22: \"slurm_restarts\" must be an integer from 0"},
        {"\"slurm_jobs\": \"", "\"slurm_jobs\": 5, \"x\": \"", "f:23: \"slurm_jobs\" must be a string"},
    };
    int ne = (int)(sizeof edits / sizeof edits[0]);
    for (int k = 0; k < ne; k++) {
        char *at = strstr(big, edits[k].from);
        if (!at) {
            T_OK(0, "edit %d: '%s' not in the file", k, edits[k].from);
            continue;
        }
        size_t pre = (size_t)(at - big), fl = strlen(edits[k].from), tl = strlen(edits[k].to);
        memcpy(cut, big, pre);
        memcpy(cut + pre, edits[k].to, tl);
        memcpy(cut + pre + tl, at + fl, n - pre - fl);
        size_t m = n - fl + tl;
        int rc = mnw_progress_parse("f", cut, m, &r, &e);
        T_OK(rc != 0 && strstr(e.msg, edits[k].msg) && r.nodes == NULL && r.nnodes == 0,
             "%s -> %s: refused: %s", edits[k].from, edits[k].to, rc ? e.msg : "(read as valid)");
        if (!rc) mnw_progress_free(&r);
    }
    /* 18 devices in a node */
    mnw_buf b;
    mnw_buf_init(&b);
    const char *dv = strstr(big, "\"devices\": [") + 12;
    mnw_buf_put(&b, big, (size_t)(dv - big));
    for (int k = 0; k < 18; k++) mnw_buf_puts(&b, "{\"name\": \"GPU\", \"pairs\": 1, \"pairs_per_s\": 0},");
    mnw_buf_put(&b, dv, n - (size_t)(dv - big));
    T_OK(mnw_progress_parse("f", b.p, b.len, &r, &e) != 0 && strstr(e.msg, "has 21 devices (at most 17)"),
         "more devices than a node can have: %s", e.msg);
    mnw_buf_free(&b);
    T_OK(mnw_progress_parse("f", "[1]", 3, &r, &e) != 0 && strstr(e.msg, "not an mnw progress file (an array"),
         "an array: %s", e.msg);

    /* the writer refuses what the reader would refuse, and leaves the file alone */
    spit(path, big, n);
    p.nodes[2].pairs_per_s = NAN;
    T_OK(mnw_progress_write(dir, &p, &e) != 0 && strstr(e.msg, path) && strstr(e.msg, "node 2: pairs_per_s"),
         "a NaN rate is refused: %s", e.msg);
    p.nodes[2].pairs_per_s = 1;
    p.pairs_done = p.pairs_total + 1;
    T_OK(mnw_progress_write(dir, &p, &e) != 0 && strstr(e.msg, "do not fit"), "done > total is refused: %s", e.msg);
    p.pairs_done = p.pairs_total;
    p.nodes[0].ndev = MNW_PROGRESS_MAX_DEV + 1;
    T_OK(mnw_progress_write(dir, &p, &e) != 0 && strstr(e.msg, "18 devices"), "18 devices are refused: %s", e.msg);
    p.nodes[0].ndev = 3;
    p.eta_s = INFINITY;
    T_OK(mnw_progress_write(dir, &p, &e) != 0, "an infinite ETA is refused");
    p.state[0] = '\0';
    p.eta_s = 0;
    T_OK(mnw_progress_write(dir, &p, &e) != 0 && strstr(e.msg, "empty state"), "an empty state is refused");
    size_t n2 = slurp(path, cut, sizeof cut);
    T_OK(n2 == n && !memcmp(cut, big, n), "after the refusals the file is the one written before");
    mnw_progress_set_state(&p, "done", "");
    p.eta_s = -1;
    p.nodes[1].ndev = 0;
    p.slurm_job[0] = '\0';
    T_OK(mnw_progress_write(dir, &p, &e) == 0 && mnw_progress_read(path, &r, &e) == 0 && same_progress(&p, &r) &&
             r.eta_s < 0 && r.nodes[1].ndev == 0,
         "a done run, an unknown ETA (null) and a node without devices read back");
    mnw_progress_free(&r);
    slurp(path, big, sizeof big);
    T_OK(strstr(big, "\"eta_s\": null,\n") && strstr(big, "\"devices\": []\n"), "null ETA and an empty array in the file");
    mnw_progress_free(&p);
    mnw_progress_init(&p, 0);
    T_OK(mnw_progress_write(dir, &p, &e) == 0 && mnw_progress_read(path, &r, &e) == 0 && same_progress(&p, &r) &&
             !strcmp(r.state, "starting") && r.pid == (long)getpid(),
         "a fresh record (starting, no nodes) reads back");
    mnw_progress_free(&r);
    T_OK(mnw_progress_write("/nonexistent-dir-mnw", &p, &e) != 0 && strstr(e.msg, "/nonexistent-dir-mnw/.progress.json.tmp"),
         "an impossible directory: %s", e.msg);
    if (truncate(path, (off_t)MNW_PROGRESS_MAX_BYTES + 1) == 0)
        T_OK(mnw_progress_read(path, &r, &e) != 0 && strstr(e.msg, path) && strstr(e.msg, "larger than 64 MiB"),
             "a file over 64 MiB is refused: %s", e.msg);
    else
        T_OK(0, "truncate %s: %s", path, strerror(errno));
    unlink(path);
    T_OK(mnw_progress_read(path, &r, &e) != 0 && strstr(e.msg, path) && strstr(e.msg, "No such file"),
         "a missing file: %s", e.msg);
    /* what stands in its place is named, never waited on (a FIFO with no
     * writer would block an open for reading: the alarm ends the test) */
    alarm(10);
    T_OK(mkfifo(path, 0644) == 0 && mnw_progress_read(path, &r, &e) != 0 && strstr(e.msg, path) &&
             strstr(e.msg, "is not a regular file (a FIFO)"),
         "a FIFO: %s", e.msg);
    unlink(path);
    T_OK(mkdir(path, 0755) == 0 && mnw_progress_read(path, &r, &e) != 0 && strstr(e.msg, "(a directory)"),
         "a directory: %s", e.msg);
    rmdir(path);
    T_OK(symlink("progress.json", path) == 0 && mnw_progress_read(path, &r, &e) != 0 && strstr(e.msg, path) &&
             strstr(e.msg, "a symbolic link loop"),
         "a link to itself: %s", e.msg);
    unlink(path);
    T_OK(symlink("nowhere", path) == 0 && mnw_progress_read(path, &r, &e) != 0 && strstr(e.msg, path) &&
             strstr(e.msg, "a dangling symbolic link"),
         "a dangling link: %s", e.msg);
    unlink(path);
    alarm(0);
    mnw_progress_free(&p);
}

/* ---- the pairs pruned (issue 39) ---- */

static void pruned_counts(void)
{
    mnw_progress p, r;
    mnw_err e;
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, MNW_PROGRESS_FILE);
    sample(&p, 2);
    p.pruned = 120000000;
    p.nodes[0].pruned = 19000000;
    p.nodes[1].pruned = 123;
    T_OK(mnw_progress_write(dir, &p, &e) == 0, "progress.json with pruned pairs is written: %s", e.msg);
    n_big = slurp(path, big, sizeof big - 1);
    big[n_big] = '\0';
    T_OK(strstr(big, "\n  \"pruned\": 120000000,\n") && strstr(big, "\n      \"pruned\": 19000000,\n") &&
             strstr(big, "\n      \"pruned\": 123,\n"),
         "\"pruned\" of the run and of each node");
    T_OK(mnw_progress_read(path, &r, &e) == 0 && r.pruned == 120000000 && r.nnodes == 2 &&
             r.nodes[0].pruned == 19000000 && r.nodes[1].pruned == 123,
         "they read back: %s", e.msg);
    mnw_progress_free(&r);
    /* a file of an mnw before the filter: no "pruned" anywhere, read as 0 */
    static char old[1 << 16];
    size_t m = 0;
    for (const char *c = big; *c;) {
        const char *nl = strchr(c, '\n');
        size_t len = nl ? (size_t)(nl - c) + 1 : strlen(c);
        if (!strstr(c, "\"pruned\"") || strstr(c, "\"pruned\"") >= c + len) memcpy(old + m, c, len), m += len;
        c += len;
    }
    old[m] = '\0';
    T_OK(!strstr(old, "pruned") && mnw_progress_parse("old", old, m, &r, &e) == 0 && r.pruned == 0 &&
             r.nodes[0].pruned == 0 && r.pairs_done == 131244750,
         "a file without \"pruned\" (an mnw before the filter) reads as 0 pruned: %s", e.msg);
    mnw_progress_free(&r);
    static const struct {
        const char *from, *to, *msg;
    } edits[] = {
        {"\"pruned\": 120000000", "\"pruned\": 131244751", "pruned 131244751 is more than pairs_done 131244750"},
        {"\"pruned\": 123,", "\"pruned\": 1000002,", "node 1: pruned 1000002 is more than its pairs 1000001"},
        {"\"pruned\": 120000000", "\"pruned\": -1", ":17: \"pruned\" must be an integer"},
        {"\"pruned\": 120000000", "\"pruned\": \"12\"", ":17: \"pruned\" must be an integer"},
        {"\"pruned\": 123,", "\"pruned\": 1.5,", "\"nodes[1].pruned\" must be an integer"},
    };
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++) {
        char *at = strstr(big, edits[k].from);
        if (!at) {
            T_OK(0, "pruned edit %zu: '%s' not in the file", k, edits[k].from);
            continue;
        }
        size_t pre = (size_t)(at - big), fl = strlen(edits[k].from), tl = strlen(edits[k].to);
        memcpy(cut, big, pre);
        memcpy(cut + pre, edits[k].to, tl);
        memcpy(cut + pre + tl, at + fl, n_big - pre - fl);
        int rc = mnw_progress_parse("f", cut, n_big - fl + tl, &r, &e);
        T_OK(rc != 0 && strstr(e.msg, edits[k].msg), "%s -> %s: refused: %s", edits[k].from, edits[k].to,
             rc ? e.msg : "(read as valid)");
        if (!rc) mnw_progress_free(&r);
    }
    p.pruned = p.pairs_done + 1;
    T_OK(mnw_progress_write(dir, &p, &e) == -1 && strstr(e.msg, "is more than pairs_done"),
         "the writer refuses more pruned than done: %s", e.msg);
    mnw_progress_free(&p);
}

/* ---- mnw status ---- */

static char out[1 << 16], err[8192];

/* runs mnw_status_main in a child with stdout and stderr captured */
static int status(const char *a1, const char *a2, const char *a3)
{
    char *argv[5] = {"status", (char *)a1, (char *)a2, (char *)a3, NULL};
    int argc = 1 + (a1 != NULL) + (a1 && a2) + (a1 && a2 && a3);
    char po[512], pe[512];
    snprintf(po, sizeof po, "%s/status.out", dir);
    snprintf(pe, sizeof pe, "%s/status.err", dir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(po, "w", stdout) || !freopen(pe, "w", stderr)) _exit(99);
        int rc = mnw_status_main(argc, argv);
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    slurp(po, out, sizeof out);
    slurp(pe, err, sizeof err);
    err[strcspn(err, "\n")] = '\0'; /* one line of error */
    if (getenv("MNW_STATUS_SHOW")) {
        printf("# mnw status %s %s %s -> %d\n", a1 ? a1 : "", a2 ? a2 : "", a3 ? a3 : "", WEXITSTATUS(st));
        for (char *s = out; *s;) {
            char *nl = strchr(s, '\n');
            int len = nl ? (int)(nl - s) : (int)strlen(s);
            printf("# %.*s\n", len, s);
            s += len + (nl != NULL);
        }
        if (*err) printf("# stderr: %s\n", err);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char odir[512];

/* a fresh OUTDIR with progress.json (p may be NULL) and a bookmark of watermark wm (wm < 0: none) */
static void fixture(const char *name, const mnw_progress *p, long long wm)
{
    snprintf(odir, sizeof odir, "%s/%s", dir, name);
    mkdir(odir, 0755);
    mnw_err e;
    if (p && mnw_progress_write(odir, p, &e)) T_OK(0, "fixture %s: %s", name, e.msg);
    if (wm >= 0) {
        mnw_bookmark b;
        mnw_bookmark_init(&b);
        strcpy(b.input_hash, "0123456789abcdef0123456789abcdef");
        b.sequences = 25000;
        b.pairs = 312487500;
        b.watermark = (uint64_t)wm;
        if (mnw_bookmark_write(odir, &b, &e)) T_OK(0, "fixture %s: %s", name, e.msg);
        mnw_bookmark_free(&b);
    }
}

static void run_fixture(mnw_progress *p, const char *host, long pid, double age)
{
    mnw_progress_free(p);
    sample(p, 2);
    double now = mnw_progress_now();
    snprintf(p->outdir, sizeof p->outdir, "/scratch/run1");
    snprintf(p->host, sizeof p->host, "%s", host);
    snprintf(p->nodes[0].host, sizeof p->nodes[0].host, "%s", host);
    snprintf(p->nodes[1].host, sizeof p->nodes[1].host, "node02");
    p->pid = pid;
    p->started = now - age - 300.25;
    p->updated = now - age;
    p->nodes[0].dev[0].pairs = 1000000;
    p->nodes[0].dev[1].pairs = 10122375;
    p->nodes[0].dev[2].pairs = 10122375;
    p->nodes[0].pairs = 21244750;
    p->nodes[1].dev[0].pairs = 10000000;
    p->nodes[1].pairs = 10000000;
    mnw_progress_rates(p);
}

static int has(const char *s) { return strstr(out, s) != NULL; }

static void status_cmd(void)
{
    char me[256] = "";
    gethostname(me, sizeof me);
    setenv("TZ", "UTC", 1);
    mnw_progress p = {.nodes = NULL};

    /* a child named mnw stands for the running process */
    int fds[2];
    if (pipe(fds)) return;
    pid_t mnw_child = fork();
    if (mnw_child == 0) {
        prctl(PR_SET_NAME, "mnw", 0, 0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); /* never outlives the test */
        alarm(120);
        if (write(fds[1], "x", 1) != 1) _exit(1);
        pause();
        _exit(0);
    }
    char c;
    if (read(fds[0], &c, 1) != 1) c = 0;
    close(fds[0]);
    close(fds[1]);
    pid_t dead = fork();
    if (dead == 0) _exit(0);
    waitpid(dead, NULL, 0);

    run_fixture(&p, me, mnw_child, 1);
    fixture("running", &p, 131000000);
    int rc = status(odir, NULL, NULL);
    char line[600];
    snprintf(line, sizeof line, "The run is running on this host (pid %ld).", (long)mnw_child);
    T_OK(rc == 0 && has("  state      running\n") && has("  done       42.0% [############..................] "
                                                          "131,244,750 of 312,487,500 pairs\n") &&
             has("  this run   31,244,750 pairs since it resumed at pair 100,000,000\n") &&
             has("  speed      104,062 pairs/s\n") && has("  ETA        29m 02s (about ") && has(line) &&
             has(" UTC\n") && !has("resume OUTDIR") && !has("not updating"),
         "running here: state, percent with a bar, this run's pairs, speed, ETA, pid alive");
    T_OK(has("  bookmark   131,000,000 pairs safely written (41.9%)\n") &&
             has("note: progress.json counts 131,244,750 pairs done, the bookmark 131,000,000: the bookmark is the "
                 "truth"),
         "the bookmark's watermark, and that it is the truth where it differs");
    /* the table: columns line up under the header; device rows under the host column, indented */
    int hw = (int)strlen(me) > 6 ? (int)strlen(me) : 6;
    char row[600];
    snprintf(line, sizeof line, "\n  rank  %-*s  workers  GPUs            pairs      pairs/s   share\n", hw, "host");
    snprintf(row, sizeof row, "\n     0  %-*s       14     2       21,244,750       70,757   68.0%%\n", hw, me);
    int table = has(line) && has(row);
    snprintf(row, sizeof row, "\n          %-*s       10,122,375       33,713   32.4%%\n", hw + 13, "GPU 1");
    table = table && has(row);
    T_OK(table, "the node table: header, node row, device row aligned");
    T_OK(strstr(out, "\n     1  node02") && has("GPU 1") && has("10,122,375") && has("   32.0%\n") &&
             has("   68.0%\n"),
         "a row per node with its share, indented rows per device");
    T_OK(rc == 0 && err[0] == '\0', "nothing on stderr");

    /* the same run, not updated for 45 s (the limit is 30 s), process still there: hung */
    run_fixture(&p, me, mnw_child, 45);
    fixture("hung", &p, -1);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("The run is not updating: progress.json was last written 4") && has("s ago, but process") &&
             has("  bookmark   none yet (no mnw.bookmark)") &&
             has("If it is not running: it recorded no bookmark (nothing safely written), so there is nothing to "
                 "resume: start it again with mnw -i /data/16s-25k.fa.gz -o ") &&
             has("/hung --force\n") && !has("--resume") &&
             has("  state      running (as last recorded: it is not updating)\n") &&
             has("  ETA        - (not updating; it was 29m 02s)\n"),
         "not updating, process alive: hung or stopped; no bookmark: start again, not --resume");

    /* the process is gone */
    run_fixture(&p, me, dead, 3);
    fixture("killed", &p, 131000000);
    rc = status(odir, NULL, NULL);
    snprintf(line, sizeof line, "process %ld is gone from this host", (long)dead);
    T_OK(rc == 0 && has(line) && has("killed or crashed") && has("Continue it with: mnw --resume ") &&
             has("  state      running (as last recorded: it is not running)\n") &&
             has("  ETA        - (the run is not running)\n"),
         "the pid is gone: killed, and the resume command");
    /* the pid is another program */
    run_fixture(&p, me, getpid(), 3);
    fixture("other-pid", &p, -1);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("is now 'test_progress', not mnw") && has("The run cannot be resumed: it recorded no bookmark") &&
             !has("--resume"),
         "the pid is another program, not mnw; no bookmark");

    /* on another host, stale */
    run_fixture(&p, "elsewhere01", 999999, 3725);
    fixture("remote", &p, 131000000);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("The run is on host elsewhere01 (pid 999999 there; this machine is ") &&
             has("It is not updating: progress.json was last written 1h 02m ago") &&
             has("the clocks of elsewhere01 and this machine differ") && has("If it is not running, continue it with"),
         "another host: no pid check, staleness with its age, the resume command");
    run_fixture(&p, "elsewhere01", 999999, 45);
    fixture("remote-45s", &p, 131000000);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("It is not updating: progress.json was last written 4") && has("s ago (by this machine's clock)") &&
             has("If it is not running, continue it with"),
         "another host, 45 s without an update: stale");
    run_fixture(&p, "elsewhere01", 999999, -120);
    fixture("remote-future", &p, -1);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has(" in the future: the clocks differ)") && has(" in the future by this machine's clock") &&
             !has("--resume"),
         "another host whose clock runs ahead");
    run_fixture(&p, "elsewhere01", 999999, 2);
    fixture("remote-fresh", &p, -1);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("The run is on host elsewhere01") && !has("not updating") && !has("--resume"),
         "another host, fresh: no warning");

    /* stopped, failed, done */
    run_fixture(&p, me, mnw_child, 40);
    mnw_progress_set_state(&p, "stopped", "interrupted (SIGINT)");
    p.eta_s = -1;
    fixture("with space 'q'", &p, 131244750);
    rc = status(odir, NULL, NULL);
    snprintf(line, sizeof line,
             "The run stopped: interrupted (SIGINT).\nContinue it with: mnw --resume '%s/with space '\\''q'\\'''\n", dir);
    T_OK(rc == 0 && has("  state      stopped: interrupted (SIGINT)\n") && has(line) && !has("ETA") &&
             !has("note:") && !has("The run is"),
         "stopped: its message, the resume command (OUTDIR quoted for the shell), no ETA, bookmark agrees");
    mnw_progress_set_state(&p, "failed", "/scratch/run1/pairs.tsv.gz: No space left on device");
    fixture("failed", &p, 131000000);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("The run failed: /scratch/run1/pairs.tsv.gz: No space left on device.\nOnce the cause is fixed, "
                        "continue it with: mnw --resume "),
         "failed: its message and the resume command");
    mnw_progress_set_state(&p, "done", NULL);
    p.pairs_done = p.pairs_total;
    p.eta_s = 0;
    fixture("done", &p, 312487500);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has(" 100.0% [##############################] 312,487,500 of 312,487,500 pairs") &&
             has("The run is complete: all 312,487,500 pairs are in the outputs.") && !has("--resume") && !has("note:"),
         "done: complete, a full bar");
    /* a bookmark of another run (another pair count) */
    {
        mnw_bookmark b;
        mnw_err e;
        mnw_bookmark_init(&b);
        strcpy(b.input_hash, "0123456789abcdef0123456789abcdef");
        b.sequences = 200;
        b.pairs = 19900;
        b.watermark = 19900;
        if (mnw_bookmark_write(odir, &b, &e)) T_OK(0, "fixture: %s", e.msg);
        mnw_bookmark_free(&b);
        rc = status(odir, NULL, NULL);
        T_OK(rc == 0 && has("note: the bookmark is for 19,900 pairs but progress.json for 312,487,500: they are from "
                            "different runs"),
             "a bookmark of another run: said so");
    }
    mnw_progress_free(&p);

    /* starting: no pair count yet */
    mnw_progress_init(&p, 0);
    p.pid = mnw_child;
    fixture("starting", &p, -1);
    rc = status(odir, NULL, NULL);
    snprintf(line, sizeof line, "The run is starting on this host (pid %ld).\n", (long)mnw_child);
    T_OK(rc == 0 && has("  state      starting\n") && has("  done       - (the number of pairs is not known yet") &&
             has("  ETA        unknown (no speed measured yet)\n") && !has("  rank") && has(line),
         "starting: no pair count, no ETA, no table");
    mnw_progress_free(&p);

    /* a bookmark only */
    fixture("bookmark-only", NULL, 8358);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("  progress   not recorded (no progress.json") && has("  sequences  25,000\n") &&
             has(" 0.0% [..............................] 8,358 of 312,487,500 pairs safely written") &&
             has("The run is not complete. If no mnw is writing"),
         "bookmark only: its watermark and percent, progress not recorded");
    /* nothing, not a directory, missing */
    fixture("empty", NULL, -1);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 1 && out[0] == '\0' && strstr(err, odir) && strstr(err, "no progress.json and no mnw.bookmark"),
         "neither file: exit 1, the message names OUTDIR: %s", err);
    char missing[600];
    snprintf(missing, sizeof missing, "%s/none", dir);
    rc = status(missing, NULL, NULL);
    T_OK(rc == 1 && strstr(err, missing) && strstr(err, "No such file"), "no such OUTDIR: exit 1: %s", err);
    /* damaged files */
    fixture("damaged", NULL, 5);
    char pp[700];
    snprintf(pp, sizeof pp, "%s/progress.json", odir);
    spit(pp, "{\n  \"mnw_progress\": 1,\n  \"state\": \"runn", 39);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 1 && strstr(err, pp) && strstr(err, ":3:") && has("progress.json is damaged") &&
             has("5 of 312,487,500 pairs safely written"),
         "a damaged progress.json: exit 1, the error names file and line, the bookmark still shown: %s", err);
    run_fixture(&p, "elsewhere01", 1, 1);
    mnw_progress_set_state(&p, "stopped", "SIGTERM");
    fixture("damaged-bm", &p, -1);
    snprintf(pp, sizeof pp, "%s/mnw.bookmark", odir);
    spit(pp, "mnw-bookmark 1\nwatermark 9", 26);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 1 && strstr(err, pp) && has("  bookmark   mnw.bookmark is damaged") && has("  state      stopped: SIGTERM") &&
             has("The run cannot be resumed: its bookmark is damaged (the error is below), so mnw --resume cannot "
                 "continue it."),
         "a damaged bookmark: exit 1, named, the progress still shown: %s", err);
    mnw_progress_free(&p);

    /* --json, --help, bad command lines */
    snprintf(odir, sizeof odir, "%s/running", dir);
    snprintf(pp, sizeof pp, "%s/progress.json", odir);
    slurp(pp, big, sizeof big);
    rc = status("--json", odir, NULL);
    T_OK(rc == 0 && !strcmp(out, big) && !err[0], "--json prints the file as it is");
    rc = status(odir, "--json", NULL);
    T_OK(rc == 0 && !strcmp(out, big), "options after OUTDIR too");
    snprintf(odir, sizeof odir, "%s/bookmark-only", dir);
    rc = status("--json", odir, NULL);
    T_OK(rc == 1 && !out[0] && strstr(err, "progress.json: No such file"), "--json without the file: exit 1: %s", err);
    rc = status("--help", NULL, NULL);
    T_OK(rc == 0 && has("usage: mnw status [--json] OUTDIR"), "--help");
    rc = status(NULL, NULL, NULL);
    T_OK(rc == 2 && strstr(err, "which OUTDIR"), "no OUTDIR: exit 2");
    rc = status("--jsn", odir, NULL);
    T_OK(rc == 2 && strstr(err, "unknown option '--jsn'"), "an unknown option: exit 2");
    rc = status(odir, odir, NULL);
    T_OK(rc == 2 && strstr(err, "one OUTDIR only"), "two OUTDIRs: exit 2");

    kill(mnw_child, SIGKILL);
    waitpid(mnw_child, NULL, 0);
}

/* mnw status with pairs pruned: the run's line, the bookmark's, each node's
 * column; none of it where nothing was pruned */
static void status_pruned(void)
{
    setenv("TZ", "UTC", 1);
    mnw_progress p = {.nodes = NULL};
    run_fixture(&p, "elsewhere.example", 4242, 5);
    mnw_progress_set_state(&p, "stopped", "stopped by SIGTERM");
    p.pruned = 65622375; /* half of the 131,244,750 done */
    p.nodes[0].pruned = 1000;
    fixture("pruned", &p, -1);
    mnw_bookmark b;
    mnw_bookmark_init(&b);
    strcpy(b.input_hash, "0123456789abcdef0123456789abcdef");
    b.sequences = 25000;
    b.pairs = 312487500;
    b.watermark = 131244750;
    b.pruned = 65622375;
    mnw_err e;
    if (mnw_bookmark_write(odir, &b, &e)) T_OK(0, "fixture pruned: %s", e.msg);
    int rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("\n  pruned     65,622,375 (50.0% of the pairs done)\n"),
         "status: pruned N (x%% of the pairs done) under done (%d: %s)", rc, err);
    T_OK(has("  bookmark   131,244,750 pairs safely written (42.0%), 65,622,375 of them pruned\n"),
         "the bookmark's line says how many of its pairs were pruned");
    T_OK(has("share           pruned\n") && has("   68.0%            1,000\n") && has("   32.0%                0\n"),
         "the node table has a pruned column: 1,000 on rank 0, 0 on rank 1");
    /* the bookmark alone (no progress.json) */
    char pj[700];
    snprintf(pj, sizeof pj, "%s/%s", odir, MNW_PROGRESS_FILE);
    unlink(pj);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("safely written\n  pruned     65,622,375 (50.0% of the pairs done)\n"),
         "the bookmark alone: its pruned count (%d: %s)", rc, err);
    /* nothing pruned: no pruned line, no column */
    p.pruned = 0;
    p.nodes[0].pruned = 0;
    b.pruned = 0;
    fixture("plain", &p, -1);
    if (mnw_bookmark_write(odir, &b, &e)) T_OK(0, "fixture plain: %s", e.msg);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && !has("pruned") && has("  bookmark   131,244,750 pairs safely written (42.0%)\n"),
         "nothing pruned: the word is not in the report (%d: %s)", rc, err);
    /* all pruned but not all done: never 100% */
    p.pruned = p.pairs_done - 1;
    fixture("allpruned", &p, -1);
    rc = status(odir, NULL, NULL);
    T_OK(rc == 0 && has("  pruned     131,244,749 (99.9% of the pairs done)\n"), "one pair aligned: 99.9%%, not 100%%");
    mnw_bookmark_free(&b);
    mnw_progress_free(&p);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/mnw-pg.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return 1;
    json_valid();
    json_malformed();
    json_write();
    progress_file();
    pruned_counts();
    status_cmd();
    status_pruned();
    if (!t_failed_) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) printf("# could not remove %s\n", dir);
    } else {
        printf("# files left in %s\n", dir);
    }
    return t_exit();
}
