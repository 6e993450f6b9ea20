/* report.c - `mnw report OUTDIR [-o FILE] [--outlier X] [-t N]`: one
 * self-contained HTML page about a run and its results (docs/STATUS.md):
 * the run's summary from the bookmark, progress.json and mnw.log; the
 * identities and nearest neighbours from one pass over pairs.tsv.gz
 * (report_scan.c); throughput over time and each device's share from
 * progress.log. Written whole (temp file, rename) or not at all. */
#include "src/report.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cld/bookmark.h"
#include "cld/progress.h"
#include "cld/proglog.h"
#include "lib/afile.h"
#include "lib/buf.h"
#include "lib/json.h"
#include "lib/runfile.h"
#include "lib/safeio.h"
#include "lib/svg.h"
#include "lib/output.h"
#include "src/report_scan.h"

/* the common 16S thresholds marked on the identity charts */
static const struct {
    double id;
    const char *what;
} thresholds[] = {
    {0.865, "86.5% family"}, {0.945, "94.5% genus"}, {0.97, "97% OTU"}, {0.987, "98.7% species"}, {0.99, "99% OTU"},
};

typedef struct { /* one snapshot of progress.log */
    double t, elapsed;
    int resumes;
    char state[16];
    uint64_t done;
    int ndev;
    char dev[32][112];      /* "rank R HOST CPU" ... */
    uint64_t dev_pairs[32];
} snap;

typedef struct {
    snap *v;
    size_t n, cap;
    uint64_t bad; /* lines that are not snapshots */
} history;

static int read_history(const char *path, history *h, mnw_err *e)
{
    memset(h, 0, sizeof *h);
    if (!mnw_runfile_present(path)) return 0; /* no history */
    FILE *f = mnw_runfile_fopen(path, e);      /* never a FIFO, never a loop */
    if (!f) return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] != '\n') break; /* a last line without its newline: a write cut short */
        mnw_err je;
        mnw_json *v = mnw_json_parse(path, line, (size_t)len, &je);
        mnw_proglog_snap ps; /* a line of an mnw before the filter: pruned 0 */
        if (!v || mnw_proglog_snap_of(v, &ps)) {
            h->bad++;
            mnw_json_free(v);
            continue;
        }
        const mnw_json *nodes = mnw_json_get(v, "nodes");
        if (h->n == h->cap) {
            h->cap = h->cap ? 2 * h->cap : 256;
            h->v = mnw_xrealloc(h->v, h->cap * sizeof *h->v);
        }
        snap *s = &h->v[h->n++];
        memset(s, 0, sizeof *s);
        s->t = ps.t;
        s->elapsed = ps.elapsed_s;
        s->resumes = ps.resumes;
        snprintf(s->state, sizeof s->state, "%s", ps.state);
        s->done = ps.pairs_done;
        for (size_t k = 0; k < nodes->n; k++) {
            const mnw_json *nd = &nodes->items[k], *host = mnw_json_get(nd, "host"), *dev = mnw_json_get(nd, "dev");
            if (!dev || dev->type != MNW_JSON_ARRAY) continue;
            for (size_t d = 0; d < dev->n && s->ndev < 32; d++) {
                const mnw_json *nm = mnw_json_get(&dev->items[d], "name");
                snprintf(s->dev[s->ndev], sizeof s->dev[0], "rank %zu %s %s", k, host ? host->str : "?",
                         nm ? nm->str : "?");
                if (mnw_json_u64(mnw_json_get(&dev->items[d], "pairs"), &s->dev_pairs[s->ndev])) s->dev_pairs[s->ndev] = 0;
                s->ndev++;
            }
        }
        mnw_json_free(v);
    }
    free(line);
    fclose(f);
    return 0;
}

static const char *palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

/* throughput over time: per device, pairs/s between consecutive snapshots
 * of one run; resumes and stops marked */
/* the index of name in names[0..*n), added if it is not there (-1: the
 * 32 are taken) */
static int name_slot(char names[][112], int *n, const char *name)
{
    for (int x = 0; x < *n; x++)
        if (!strcmp(names[x], name)) return x;
    if (*n == 32) return -1;
    snprintf(names[*n], sizeof names[0], "%s", name);
    return (*n)++;
}

/* the index of the device called name in snapshot s, or -1 */
static int dev_of(const snap *s, const char *name)
{
    for (int x = 0; x < s->ndev; x++)
        if (!strcmp(s->dev[x], name)) return x;
    return -1;
}

static void chart_throughput(mnw_buf *b, const history *h)
{
    if (h->n < 2) {
        mnw_buf_puts(b, "<p>No history (progress.log) with two snapshots or more.</p>\n");
        return;
    }
    double t0 = h->v[0].t, t1 = h->v[h->n - 1].t, ymax = 1;
    int ndev = 0;
    char names[32][112];
    for (size_t k = 0; k < h->n; k++)
        for (int d = 0; d < h->v[k].ndev; d++) (void)name_slot(names, &ndev, h->v[k].dev[d]);
    /* rate[d * h->n + k]: device d's pairs/s from snapshot k-1 to k of one
     * run (NAN: not in both, or across a resume) */
    double *rate = mnw_xmalloc((size_t)(ndev ? ndev : 1) * h->n * sizeof *rate);
    for (int d = 0; d < ndev; d++) {
        rate[(size_t)d * h->n] = NAN;
        for (size_t k = 1; k < h->n; k++) {
            const snap *a = &h->v[k - 1], *s = &h->v[k];
            int ia = dev_of(a, names[d]), is = dev_of(s, names[d]);
            double r = NAN;
            if (ia >= 0 && is >= 0 && a->resumes == s->resumes && s->t > a->t)
                r = ((double)s->dev_pairs[is] - (double)a->dev_pairs[ia]) / (s->t - a->t);
            rate[(size_t)d * h->n + k] = r;
            if (r > ymax) ymax = r;
        }
    }
    double *xs = mnw_xmalloc(h->n * sizeof *xs), *ys = mnw_xmalloc(h->n * sizeof *ys);
    mnw_svg c;
    mnw_svg_begin(&c, b, 900, 320, "Throughput over time per rank and device", 0, (t1 - t0) / 60, 0, ymax * 1.1, 0);
    mnw_svg_axes(&c, 8, "%g", "minutes since the first snapshot", 5, "%g", "pairs/s");
    for (int d = 0; d < ndev; d++) {
        size_t n = 0;
        for (size_t k = 1; k < h->n; k++) {
            if (isnan(rate[(size_t)d * h->n + k])) continue;
            xs[n] = (h->v[k].t - t0) / 60;
            ys[n] = rate[(size_t)d * h->n + k];
            n++;
        }
        mnw_svg_line(&c, xs, ys, (int)n, palette[d % 10], 1.5);
        mnw_svg_legend(&c, d, palette[d % 10], names[d]);
    }
    for (size_t k = 1; k < h->n; k++) {
        if (h->v[k].resumes != h->v[k - 1].resumes) mnw_svg_vline(&c, (h->v[k].t - t0) / 60, "resume", "#090", 1);
        else if (!strcmp(h->v[k].state, "stopped")) mnw_svg_vline(&c, (h->v[k].t - t0) / 60, "stop", "#c00", 0);
    }
    mnw_svg_end(&c);
    free(rate);
    free(xs);
    free(ys);
}


static void esc(mnw_buf *b, const char *s) { mnw_svg_escape(b, s ? s : ""); }

/* a row of the summary table */
static void row(mnw_buf *b, const char *key, const char *val)
{
    mnw_buf_puts(b, "<tr><th>");
    esc(b, key);
    mnw_buf_puts(b, "</th><td>");
    esc(b, val);
    mnw_buf_puts(b, "</td></tr>\n");
}

/* the identities: histogram (log count axis) and the cumulative share of
 * pairs at or above each identity, the thresholds marked */
static void chart_identity(mnw_buf *b, const mnw_scan *s, const char *sofar)
{
    if (!s->pairs) {
        mnw_buf_puts(b, "<p>No pair written yet.</p>\n");
        return;
    }
    int lo = (int)(s->id_min / (MNW_SCAN_ONE / 20)) * (MNW_SCAN_BINS / 20); /* from the 5% step below the lowest */
    if (lo >= MNW_SCAN_BINS) lo = MNW_SCAN_BINS - MNW_SCAN_BINS / 20;
    double xs[MNW_SCAN_BINS], ys[MNW_SCAN_BINS], ymax = 1;
    int n = 0;
    for (int k = lo; k < MNW_SCAN_BINS; k++) {
        xs[n] = 100.0 * k / MNW_SCAN_BINS;
        ys[n] = (double)s->hist[k];
        if (ys[n] > ymax) ymax = ys[n];
        n++;
    }
    mnw_svg c;
    char title[160];
    snprintf(title, sizeof title, "Pairwise identity: pairs per 0.1%% bin (the %llu pairs written%s)",
             (unsigned long long)s->pairs, sofar);
    mnw_svg_begin(&c, b, 900, 320, title, xs[0], 100, 0.8, ymax * 1.5, 1);
    mnw_svg_axes(&c, 10, "%g%%", "identity (%)", 5, "%g", "pairs (log scale)");
    mnw_svg_bars(&c, xs, ys, n, 100.0 / MNW_SCAN_BINS, "#1f77b4");
    for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++)
        mnw_svg_vline(&c, 100 * thresholds[t].id, NULL, "#c00", 0);
    mnw_svg_end(&c);
    /* cumulative: share of pairs with identity >= x */
    double cum = 0;
    for (int k = n - 1; k >= 0; k--) {
        cum += ys[k];
        ys[k] = 100.0 * cum / (double)s->pairs;
    }
    snprintf(title, sizeof title, "Share of pairs at or above each identity (of the pairs written%s)", sofar);
    mnw_svg_begin(&c, b, 900, 320, title, xs[0], 100, 0, 100, 0);
    mnw_svg_axes(&c, 10, "%g%%", "identity (%)", 5, "%g%%", "pairs at or above");
    mnw_svg_line(&c, xs, ys, n, "#1f77b4", 2);
    for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++)
        mnw_svg_vline(&c, 100 * thresholds[t].id, thresholds[t].what, "#c00", (int)t);
    mnw_svg_end(&c);
    mnw_buf_printf(b, "<p>Mean identity %.4f%%, lowest %.4f%%, highest %.4f%%%s.</p>\n",
                   100.0 * ((double)s->id_sum / (double)s->pairs) / MNW_SCAN_ONE, 100.0 * s->id_min / MNW_SCAN_ONE,
                   100.0 * s->id_max / MNW_SCAN_ONE, sofar);
    mnw_buf_puts(b, "<table class=\"num\"><tr><th>threshold</th><th>pairs at or above</th><th>share</th></tr>\n");
    for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++) {
        uint64_t above = s->above[t];
        mnw_buf_printf(b, "<tr><td>%s</td><td data-k=\"above-%.3f\">%llu</td><td>%.2f%%</td></tr>\n", thresholds[t].what,
             thresholds[t].id, (unsigned long long)above, 100.0 * (double)above / (double)s->pairs);
    }
    mnw_buf_puts(b, "</table>\n");
}

/* each sequence's nearest neighbour: histogram, and the sequences whose
 * nearest neighbour is below `outlier` (millionths); in a run not complete,
 * the nearest among the pairs written so far */
static void chart_neighbours(mnw_buf *b, const mnw_scan *s, uint32_t outlier, const char *sofar, int shard)
{
    uint64_t hist[100] = {0}, seen = 0;
    for (uint64_t i = 0; i < s->nseq; i++) {
        if (s->nn[i] == MNW_SCAN_NONE) continue;
        int k = (int)(s->nn[i] / (MNW_SCAN_ONE / 100));
        hist[k > 99 ? 99 : k]++;
        seen++;
    }
    if (!seen) return;
    if (seen < s->nseq)
        mnw_buf_printf(b, "<p>%llu of the %llu sequences are in no pair %s.</p>\n",
                       (unsigned long long)(s->nseq - seen), (unsigned long long)s->nseq,
                       shard ? "of this shard written so far (a shard holds the pairs of some rows only)"
                             : "written yet");
    double xs[100], ys[100], ymax = 1;
    int lo = 100;
    for (int k = 0; k < 100; k++)
        if (hist[k] && k < lo) lo = k;
    int n = 0;
    for (int k = lo; k < 100; k++) {
        xs[n] = k;
        ys[n] = (double)hist[k];
        if (ys[n] > ymax) ymax = ys[n];
        n++;
    }
    char title[160], axis[120];
    snprintf(title, sizeof title, "Each sequence's nearest neighbour%s: sequences per 1%% bin", sofar);
    snprintf(axis, sizeof axis, "identity to the nearest neighbour%s (%%)", sofar);
    mnw_svg c;
    mnw_svg_begin(&c, b, 900, 280, title, lo, 100, 0.8, ymax * 1.5, 1);
    mnw_svg_axes(&c, 10, "%g%%", axis, 5, "%g", "sequences (log scale)");
    mnw_svg_bars(&c, xs, ys, n, 1, "#2ca02c");
    mnw_svg_vline(&c, 100.0 * outlier / MNW_SCAN_ONE, "outlier below", "#c00", 0);
    mnw_svg_end(&c);
    uint64_t nout = 0;
    for (uint64_t i = 0; i < s->nseq; i++) nout += s->nn[i] != MNW_SCAN_NONE && s->nn[i] < outlier;
    mnw_buf_printf(b, "<p data-k=\"outliers\">%llu sequence%s whose nearest neighbour%s is below %.1f%% identity%s</p>\n",
         (unsigned long long)nout, nout == 1 ? "" : "s", sofar, 100.0 * outlier / MNW_SCAN_ONE, nout ? ":" : ".");
    if (!nout) return;
    mnw_buf_printf(b, "<table class=\"num\"><tr><th>#</th><th>sequence</th><th>nearest neighbour%s</th><th>identity</th></tr>\n",
                   sofar);
    uint64_t shown = 0;
    for (uint64_t i = 0; i < s->nseq && shown < 200; i++) {
        if (!(s->nn[i] != MNW_SCAN_NONE && s->nn[i] < outlier)) continue;
        mnw_buf_printf(b, "<tr><td>%llu</td><td>", (unsigned long long)i);
        esc(b, s->name[i]);
        mnw_buf_puts(b, "</td><td>");
        esc(b, s->nn_of[i] < s->nseq ? s->name[s->nn_of[i]] : "?");
        mnw_buf_printf(b, "</td><td>%.4f%%</td></tr>\n", 100.0 * s->nn[i] / MNW_SCAN_ONE);
        shown++;
    }
    mnw_buf_puts(b, "</table>\n");
    if (nout > shown) mnw_buf_printf(b, "<p>(the first %llu shown)</p>\n", (unsigned long long)shown);
}

static void pair_table(mnw_buf *b, const mnw_scan *s, const mnw_scan_pair *v, int n, const char *title,
                       const char *sofar)
{
    mnw_buf_printf(b, "<h3>%s%s</h3>\n<table class=\"num\"><tr><th>i</th><th>j</th><th>sequence i</th><th>sequence j</th>"
            "<th>identity</th></tr>\n", title, sofar);
    for (int k = 0; k < n; k++) {
        mnw_buf_printf(b, "<tr><td>%llu</td><td>%llu</td><td>", (unsigned long long)v[k].i, (unsigned long long)v[k].j);
        esc(b, s->name[v[k].i]);
        mnw_buf_puts(b, "</td><td>");
        esc(b, s->name[v[k].j]);
        mnw_buf_printf(b, "</td><td>%.4f%%</td></tr>\n", 100.0 * v[k].id / MNW_SCAN_ONE);
    }
    mnw_buf_puts(b, "</table>\n");
}

/* the share of pairs per node and device: each run's last snapshot, summed
 * (without a history, progress.json's run) */
static void chart_shares(mnw_buf *b, const history *h, const mnw_progress *pj, int have_pj)
{
    char names[32][112];
    double pairs[32] = {0}, total = 0;
    int nd = 0;
    for (size_t k = 0; k < h->n; k++) {
        if (k + 1 < h->n && h->v[k + 1].resumes == h->v[k].resumes) continue; /* not the run's last */
        for (int d = 0; d < h->v[k].ndev; d++) {
            int x = name_slot(names, &nd, h->v[k].dev[d]);
            if (x >= 0) pairs[x] += (double)h->v[k].dev_pairs[d];
        }
    }
    if (!nd && have_pj)
        for (int r = 0; r < pj->nnodes; r++)
            for (int d = 0; d < pj->nodes[r].ndev && nd < 32; d++) {
                snprintf(names[nd], sizeof names[0], "rank %d %s %s", r, pj->nodes[r].host, pj->nodes[r].dev[d].name);
                pairs[nd++] = (double)pj->nodes[r].dev[d].pairs;
            }
    for (int d = 0; d < nd; d++) total += pairs[d];
    if (!nd || total <= 0) {
        mnw_buf_puts(b, "<p>No pairs counted per device yet.</p>\n");
        return;
    }
    mnw_svg c;
    mnw_svg_begin(&c, b, 900, 60 + 24 * nd, "Share of the pairs per rank and device", 0, 100, 0, nd, 0);
    c.left = 260;
    mnw_svg_axes(&c, 10, "%g%%", "share of the pairs aligned", 0, "", NULL);
    for (int d = 0; d < nd; d++) {
        double share = 100 * pairs[d] / total, y = mnw_svg_y(&c, nd - d - 0.15), y2 = mnw_svg_y(&c, nd - d - 0.85);
        mnw_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", mnw_svg_x(&c, 0), y,
             mnw_svg_x(&c, share) - mnw_svg_x(&c, 0), y2 - y, palette[d % 10]);
        char lab[200];
        snprintf(lab, sizeof lab, "%.111s: %.0f pairs (%.1f%%)", names[d], pairs[d], share);
        mnw_svg_text(&c, c.left - 6, (y + y2) / 2 + 4, "end", "#000", lab);
    }
    mnw_svg_end(&c);
}

/* GCUPS and rate of each run as mnw.log's "done:" lines say */
static int log_rates(mnw_buf *b, const char *outdir, mnw_err *e)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/mnw.log", outdir);
    if (!mnw_runfile_present(path)) return 0;
    FILE *f = mnw_runfile_fopen(path, e); /* never a FIFO, never a loop */
    if (!f) return -1;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        const char *d = strstr(line, "INFO done: ");
        if (!d) continue;
        line[strcspn(line, "\n")] = 0;
        row(b, n++ ? "a later run (mnw.log)" : "done (mnw.log)", d + 11);
    }
    fclose(f);
    return 0;
}

/* does name end in ".html"? */
static int html_name(const char *name)
{
    size_t l = strlen(name);
    return l > 5 && !strcmp(name + l - 5, ".html");
}

static int same_file(const struct stat *a, const struct stat *b) { return a->st_dev == b->st_dev && a->st_ino == b->st_ino; }

/* -o FILE may not be, nor lead to, a file of the run (docs/STATUS.md): in
 * OUTDIR (by the directory's device and inode, so through any path or link
 * to it) only a name ending in ".html" (no file of a run does; report.html
 * by default), and nowhere a name that is (by device and inode: a link, a
 * second name) one of OUTDIR's files but its .html pages, nor the run's
 * input. 0, or -1 with e set. */
static int check_out(const char *out, const char *outdir, const char *input, mnw_err *e)
{
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    char dir[4200];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == out) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
    if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
        return mnw_err_set(e, "-o %s: not a file name", out);
    struct stat so, sd, sp;
    if (stat(outdir, &sd) == 0 && stat(dir, &sp) == 0 && same_file(&sd, &sp) && !html_name(base))
        return mnw_err_set(e, "-o %s: a name in the run's directory %s that does not end in .html: the report is "
                              "never written over (or beside, as %s.tmp) a file of the run; name it NAME.html there, "
                              "or put it elsewhere", out, outdir, base);
    if (stat(out, &so) != 0) return 0; /* nothing there yet (or unreachable: the write says why) */
    if (S_ISDIR(so.st_mode)) return mnw_err_set(e, "-o %s: is a directory, not a file name", out);
    struct stat si;
    if (input && input[0] && stat(input, &si) == 0 && same_file(&so, &si))
        return mnw_err_set(e, "-o %s: is the run's input (%s): the report is never written over it", out, input);
    DIR *d = opendir(outdir);
    if (!d) return 0;
    int rc = 0;
    for (struct dirent *de; !rc && (de = readdir(d));) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || html_name(de->d_name)) continue;
        char path[4500];
        struct stat sf;
        snprintf(path, sizeof path, "%s/%s", outdir, de->d_name);
        if (stat(path, &sf) == 0 && same_file(&so, &sf)) /* stat opens nothing: a FIFO is no risk */
            rc = mnw_err_set(e, "-o %s: is %s, a file of the run (another name for it): the report is never written "
                                "over it", out, path);
    }
    closedir(d);
    return rc;
}

static const char *css =
    "body{font-family:sans-serif;margin:2em;max-width:960px;color:#111}"
    "table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:2px 8px;text-align:left}"
    "table.num td{font-variant-numeric:tabular-nums}h2{margin-top:1.5em;border-bottom:1px solid #ccc}"
    "svg{display:block;margin:.5em 0}";

int mnw_report_main(int argc, char **argv)
{
    const char *outdir = NULL, *out = NULL;
    double outlier = 0.80;
    int threads = mnw_scan_cpus();
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
            printf("usage: mnw report OUTDIR [-o FILE] [--outlier X] [-t N]\n"
                   "  writes FILE (default OUTDIR/report.html): the run and its results as one HTML page;\n"
                   "  never a file of the run (in OUTDIR only a NAME.html; not the input, not a link to a run file)\n"
                   "  --outlier X  list the sequences whose nearest neighbour is below identity X (default 0.80)\n"
                   "  -t, --threads N  read pairs.tsv.gz with up to N threads (default: the CPUs this process may use, %d)\n",
                   threads);
            return 0;
        } else if (!strcmp(argv[a], "-o") && a + 1 < argc) {
            out = argv[++a];
        } else if ((!strcmp(argv[a], "-t") || !strcmp(argv[a], "--threads")) && a + 1 < argc) {
            char *end;
            long t = strtol(argv[++a], &end, 10);
            if (*end || end == argv[a] || t < 1 || t > 256) {
                fprintf(stderr, "mnw report: --threads takes a number from 1 to 256 (each thread keeps 8 bytes per "
                                "sequence), not '%s'\n", argv[a]);
                return 2;
            }
            threads = (int)t;
        } else if (!strcmp(argv[a], "--outlier") && a + 1 < argc) {
            char *end;
            outlier = strtod(argv[++a], &end);
            if (*end || !(outlier > 0 && outlier <= 1)) {
                fprintf(stderr, "mnw report: --outlier takes an identity from 0 to 1, not '%s'\n", argv[a]);
                return 2;
            }
        } else if (argv[a][0] != '-' && !outdir) {
            outdir = argv[a];
        } else {
            fprintf(stderr, "mnw report: unknown or incomplete argument '%s' (mnw report --help)\n", argv[a]);
            return 2;
        }
    }
    if (!outdir) {
        fprintf(stderr, "usage: mnw report OUTDIR [-o FILE] [--outlier X] [-t N]\n");
        return 2;
    }
    char bmpath[4200], path[4200], def[4200];
    snprintf(bmpath, sizeof bmpath, "%s/%s", outdir, MNW_BOOKMARK_FILE);
    if (!mnw_runfile_present(bmpath)) {
        fprintf(stderr, "mnw report: %s: not an mnw run (no %s)\n", outdir, MNW_BOOKMARK_FILE);
        return 1;
    }
    mnw_err e;
    mnw_bookmark bm;
    mnw_bookmark_init(&bm);
    int mask = 0;
    uint64_t k0 = 0, k1 = 0;
    if (mnw_runfile_check(bmpath, &e) || mnw_bookmark_read(bmpath, &bm, &e) || mnw_bookmark_range(&bm, bmpath, &k0, &k1, &e) ||
        mnw_bookmark_outputs(&bm, bmpath, &mask, &e)) {
        fprintf(stderr, "mnw report: %s\n", e.msg);
        mnw_bookmark_free(&bm);
        return 1;
    }
    if (bm.sequences >= UINT32_MAX) {
        fprintf(stderr, "mnw report: %s: %llu sequences: the report counts at most %u\n", bmpath,
                (unsigned long long)bm.sequences, UINT32_MAX - 1);
        mnw_bookmark_free(&bm);
        return 1;
    }
    /* -o is checked against the run; the default name is the run's own
     * page, whose write refuses whatever stands there (exit 1) */
    if (out && check_out(out, outdir, mnw_bookmark_get(&bm, "input"), &e)) {
        fprintf(stderr, "mnw report: %s\n", e.msg);
        mnw_bookmark_free(&bm);
        return 2;
    }
    if (!out) {
        snprintf(def, sizeof def, "%s/report.html", outdir);
        out = def;
    }
    const int have_pairs = (mask & (1 << MNW_OUT_PAIRS)) != 0;
    const int complete = bm.watermark == k1;
    /* a shard's run (--shard I/N): every figure below is of its pairs only */
    char shard[32];
    uint64_t sh_done, sh_all;
    mnw_bookmark_progress(&bm, &sh_done, &sh_all, shard, sizeof shard);
    const char *sofar = shard[0] ? (complete ? " in this shard" : " in this shard so far") : complete ? "" : " so far";
    uint64_t bytes = 0;
    for (int k = 0; k < bm.nout; k++)
        if (!strcmp(bm.out_name[k], mnw_out_name[MNW_OUT_PAIRS])) bytes = bm.out_bytes[k];
    double t0 = mnw_now();
    mnw_scan s;
    mnw_scan_init(&s, bm.sequences);
    s.nth = (int)(sizeof thresholds / sizeof thresholds[0]);
    for (int t = 0; t < s.nth; t++) s.th[t] = (uint32_t)lround(thresholds[t].id * MNW_SCAN_ONE);
    snprintf(path, sizeof path, "%s/%s", outdir, mnw_out_name[MNW_OUT_PAIRS]);
    int rc = have_pairs ? mnw_scan_pairs(&s, path, bytes, threads, &e) : 0;
    /* every pair written has its line, but with --cutoff-scope all those
     * beyond the cutoff (the pruned among them) */
    const char *scope = mnw_bookmark_get(&bm, "cutoff-scope");
    const int pairs_cut = scope && !strcmp(scope, "all");
    if (!rc && have_pairs && (pairs_cut ? s.pairs > bm.watermark - k0 - bm.pruned : s.pairs != bm.watermark - k0))
        rc = mnw_err_set(&e, "%s: %llu pairs in its first %llu bytes, where the bookmark says %s%llu%s", path,
                         (unsigned long long)s.pairs, (unsigned long long)bytes, pairs_cut ? "at most " : "",
                         (unsigned long long)(bm.watermark - k0 - (pairs_cut ? bm.pruned : 0)),
                         pairs_cut ? " (the pairs written less those pruned; --cutoff-scope all)" : "");
    double t_scan = mnw_now() - t0;
    mnw_progress pj;
    int have_pj = 0;
    history h;
    memset(&h, 0, sizeof h);
    if (!rc) {
        snprintf(path, sizeof path, "%s/%s", outdir, MNW_PROGRESS_FILE);
        mnw_err pe;
        have_pj = mnw_progress_read(path, &pj, &pe) == 0;
        if (!have_pj && mnw_runfile_present(path)) fprintf(stderr, "mnw report: note: %s (left out)\n", pe.msg);
        snprintf(path, sizeof path, "%s/%s", outdir, MNW_PROGLOG_FILE);
        rc = read_history(path, &h, &e);
    }
    mnw_buf logrows; /* the summary's rows from mnw.log */
    mnw_buf_init(&logrows);
    if (!rc) rc = log_rates(&logrows, outdir, &e);
    if (rc) {
        fprintf(stderr, "mnw report: %s\n", e.msg);
        mnw_scan_free(&s);
        mnw_bookmark_free(&bm);
        if (have_pj) mnw_progress_free(&pj);
        free(h.v);
        mnw_buf_free(&logrows);
        return 1;
    }
    mnw_buf b;
    mnw_buf_init(&b);
    mnw_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
                     "<title>mnw report: ");
    esc(&b, outdir);
    if (shard[0]) {
        mnw_buf_puts(&b, " (shard ");
        esc(&b, shard);
        mnw_buf_puts(&b, ")");
    }
    mnw_buf_printf(&b, "</title><style>%s</style></head><body>\n<h1>mnw report: ", css);
    esc(&b, outdir);
    if (shard[0]) {
        mnw_buf_puts(&b, " (shard ");
        esc(&b, shard);
        mnw_buf_puts(&b, ")");
    }
    mnw_buf_puts(&b, "</h1>\n");
    if (shard[0]) {
        unsigned si = 0, sn = 0;
        char tail;
        if (sscanf(shard, "%u/%u%c", &si, &sn, &tail) == 2)
            mnw_buf_printf(&b, "<p data-k=\"shard\">This run is shard %u of %u (mnw --shard %u/%u)", si, sn, si, sn);
        else {
            mnw_buf_puts(&b, "<p data-k=\"shard\">This run is shard ");
            esc(&b, shard);
        }
        mnw_buf_printf(&b, ": the pairs k = %llu to %llu, %llu of the whole run's %llu. Its identities, closest and "
                           "most distant pairs, nearest neighbours and outliers come from this shard's pairs only, "
                           "not from the whole run: mnw merge joins the shards into one run to report on.</p>\n",
                       (unsigned long long)k0, (unsigned long long)(k1 ? k1 - 1 : 0), (unsigned long long)(k1 - k0),
                       (unsigned long long)bm.pairs);
    }
    mnw_buf_puts(&b, "<h2>The run</h2>\n<table>\n");
    char v[512];
    row(&b, "input", mnw_bookmark_get(&bm, "input"));
    snprintf(v, sizeof v, "%llu", (unsigned long long)bm.sequences);
    row(&b, "sequences", v);
    snprintf(v, sizeof v, "%llu of %llu (%.2f%%)%s", (unsigned long long)(bm.watermark - k0),
             (unsigned long long)(k1 - k0), k1 > k0 ? 100.0 * (double)(bm.watermark - k0) / (double)(k1 - k0) : 100.0,
             complete ? (shard[0] ? ", this shard complete (not the whole run)" : ", complete")
                      : ", in progress or stopped");
    mnw_buf_puts(&b, "<tr><th>pairs written (bookmark)</th><td data-k=\"pairs\">");
    esc(&b, v);
    mnw_buf_puts(&b, "</td></tr>\n");
    /* the filter's count (lib/prune.h): done pairs without an output line */
    snprintf(v, sizeof v, "%llu (%.2f%% of the pairs written): proven beyond the cutoff, so not aligned and in no "
                          "output",
             (unsigned long long)bm.pruned,
             bm.watermark > k0 ? 100.0 * (double)bm.pruned / (double)(bm.watermark - k0) : 0.0);
    mnw_buf_puts(&b, "<tr><th>pairs pruned (bookmark)</th><td data-k=\"pruned\">");
    esc(&b, v);
    mnw_buf_puts(&b, "</td></tr>\n");
    {
        /* settings an older bookmark lacks have their defaults (src/resume.c) */
        const char *eo = mnw_bookmark_get(&bm, "end-gap-open"), *ee = mnw_bookmark_get(&bm, "end-gap-extend");
        const char *amb = mnw_bookmark_get(&bm, "ambiguity"), *tie = mnw_bookmark_get(&bm, "tie-rule");
        const char *like = mnw_bookmark_get(&bm, "like");
        char endg[96] = "";
        if (eo && strcmp(eo, "none")) snprintf(endg, sizeof endg, ", end gaps open %s extend %s", eo, ee ? ee : eo);
        snprintf(v, sizeof v, "match %s, mismatch %s, gap-open %s, gap-extend %s, free end gaps %s%s, ambiguity codes %s, "
                              "tie rule %s%s%s",
                 mnw_bookmark_get(&bm, "match"), mnw_bookmark_get(&bm, "mismatch"), mnw_bookmark_get(&bm, "gap-open"),
                 mnw_bookmark_get(&bm, "gap-extend"), mnw_bookmark_get(&bm, "free-end-gaps"), endg,
                 amb ? amb : "zero", tie ? tie : "mnw", like && strcmp(like, "mnw") ? "; --like " : "",
                 like && strcmp(like, "mnw") ? like : "");
    }
    row(&b, "scoring", v);
    if (shard[0]) {
        snprintf(v, sizeof v, "%s: pairs k = %llu to %llu of the whole run's %llu", shard, (unsigned long long)k0,
                 (unsigned long long)(k1 ? k1 - 1 : 0), (unsigned long long)bm.pairs);
        row(&b, "shard", v);
    }
    row(&b, "identity", mnw_bookmark_get(&bm, "iddef"));
    if (have_pj) {
        row(&b, "state (progress.json)", pj.state);
        if (pj.eta_s >= 0 && strcmp(pj.state, "done"))
            snprintf(v, sizeof v, "%.0f s, %.0f pairs/s, about %.0f s to go", pj.elapsed_s, pj.pairs_per_s, pj.eta_s);
        else
            snprintf(v, sizeof v, "%.0f s, %.0f pairs/s", pj.elapsed_s, pj.pairs_per_s);
        row(&b, "the last run: time, rate (progress.json)", v);
        snprintf(v, sizeof v, "%d", pj.resumes);
        row(&b, "resumes", v);
        if (pj.slurm_jobs[0]) row(&b, "Slurm jobs", pj.slurm_jobs);
    }
    mnw_buf_put(&b, logrows.p, logrows.len);
    mnw_buf_free(&logrows);
    mnw_buf_puts(&b, "</table>\n<h2>Pairwise identity</h2>\n");
    const uint32_t outlier_m = (uint32_t)lround(outlier * MNW_SCAN_ONE);
    if (have_pairs) {
        chart_identity(&b, &s, sofar);
        pair_table(&b, &s, s.closest, s.nclosest, "The closest pairs", sofar);
        pair_table(&b, &s, s.distant, s.ndistant, "The most distant pairs", sofar);
        mnw_buf_puts(&b, "<h2>Nearest neighbours</h2>\n");
        chart_neighbours(&b, &s, outlier_m, sofar, shard[0] != 0);
    } else {
        mnw_buf_puts(&b, "<p data-k=\"no-pairs\">This run writes no pairs.tsv.gz (setting outputs ");
        esc(&b, mnw_bookmark_get(&bm, "outputs"));
        mnw_buf_puts(&b, "): the identities and nearest neighbours are read from it, so they are left out. A run with "
                         "pairs in --outputs has them.</p>\n");
    }
    mnw_buf_puts(&b, "<h2>Throughput over time</h2>\n");
    chart_throughput(&b, &h);
    mnw_buf_puts(&b, "<h2>Who aligned what</h2>\n");
    chart_shares(&b, &h, &pj, have_pj);
    mnw_buf_puts(&b, "<p>Made by mnw report from ");
    esc(&b, outdir);
    if (have_pairs)
        mnw_buf_printf(&b, "/pairs.tsv.gz (%llu pairs read in %.1f s by %d thread%s), ", (unsigned long long)s.pairs,
                       t_scan, s.threads, s.threads == 1 ? "" : "s");
    else
        mnw_buf_puts(&b, ": ");
    mnw_buf_printf(&b, "progress.json and progress.log (%zu snapshots", h.n);
    if (h.bad) mnw_buf_printf(&b, "; %llu line%s that %s not a snapshot left out", (unsigned long long)h.bad,
                              h.bad == 1 ? "" : "s", h.bad == 1 ? "is" : "are");
    mnw_buf_puts(&b, ").</p>\n</body></html>\n");
    /* the report whole, or none */
    /* through FILE.tmp, created exclusively; nothing planted at either name written through (lib/safeio.h) */
    const char *name;
    char *dir = mnw_safe_split(out, &name);
    char *tmp = mnw_xmalloc(strlen(name) + 5);
    sprintf(tmp, "%s.tmp", name);
    mnw_err we;
    rc = 0;
    if (!name[0]) MNW_IGNORE(mnw_err_set(&we, "%s: not a file name", out));
    if (!name[0] || mnw_afile_replace_via(dir, name, tmp, b.p, b.len, 0, NULL, &we)) rc = 1;
    if (rc) {
        fprintf(stderr, "mnw report: cannot write %s: %s\n", out, we.msg);
    } else {
        printf("mnw report: %s (%llu pairs read in %.1f s by %d thread%s; %llu pairs pruned)\n", out,
               (unsigned long long)s.pairs, t_scan, s.threads, s.threads == 1 ? "" : "s", (unsigned long long)bm.pruned);
    }
    free(tmp);
    free(dir);
    mnw_buf_free(&b);
    mnw_scan_free(&s);
    mnw_bookmark_free(&bm);
    if (have_pj) mnw_progress_free(&pj);
    free(h.v);
    return rc;
}
