/* progress.c - writing and reading OUTDIR/progress.json (progress.h). */
#include "cld/progress.h"

#include "lib/afile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/json.h"
#include "lib/runfile.h"

double mnw_progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void mnw_progress_init(mnw_progress *p, int nnodes)
{
    memset(p, 0, sizeof *p);
    snprintf(p->state, sizeof p->state, "starting");
    mnw_hostname(p->host, sizeof p->host, 0);
    p->pid = (long)getpid();
    p->started = p->updated = mnw_progress_now();
    p->eta_s = -1;
    if (nnodes > 0) {
        p->nodes = mnw_xcalloc((size_t)nnodes, sizeof *p->nodes);
        p->nnodes = nnodes;
        for (int k = 0; k < nnodes; k++) p->nodes[k].rank = k;
    }
}

void mnw_progress_free(mnw_progress *p)
{
    free(p->nodes);
    p->nodes = NULL;
    p->nnodes = 0;
}

void mnw_progress_set_state(mnw_progress *p, const char *state, const char *message)
{
    snprintf(p->state, sizeof p->state, "%s", state);
    snprintf(p->message, sizeof p->message, "%s", message ? message : "");
}

void mnw_progress_rates(mnw_progress *p)
{
    double t = p->elapsed_s > 0 && isfinite(p->elapsed_s) ? p->elapsed_s : 0;
    uint64_t run = p->pairs_done >= p->pairs_at_start ? p->pairs_done - p->pairs_at_start : 0;
    p->pairs_per_s = t > 0 ? (double)run / t : 0;
    for (int k = 0; k < p->nnodes; k++) {
        mnw_progress_node *n = &p->nodes[k];
        n->pairs_per_s = t > 0 ? (double)n->pairs / t : 0;
        for (int d = 0; d < n->ndev && d < MNW_PROGRESS_MAX_DEV; d++)
            n->dev[d].pairs_per_s = t > 0 ? (double)n->dev[d].pairs / t : 0;
    }
    if (p->pairs_done >= p->pairs_total) p->eta_s = 0;
    else if (p->pairs_per_s > 0) p->eta_s = (double)(p->pairs_total - p->pairs_done) / p->pairs_per_s;
    else p->eta_s = -1;
}

/* ---- the checks both directions share ---- */

static int terminated(const char *s, size_t cap) { return memchr(s, '\0', cap) != NULL; }

static int rate_ok(double r) { return isfinite(r) && r >= 0; }

/* 0, or -1 with why set */
static int check(const mnw_progress *p, char *why, size_t n)
{
    if (!terminated(p->state, sizeof p->state) || !p->state[0]) return snprintf(why, n, "empty state"), -1;
    if (!terminated(p->message, sizeof p->message) || !terminated(p->input, sizeof p->input) ||
        !terminated(p->outdir, sizeof p->outdir) || !terminated(p->host, sizeof p->host) ||
        !terminated(p->slurm_job, sizeof p->slurm_job) || !terminated(p->slurm_jobs, sizeof p->slurm_jobs))
        return snprintf(why, n, "a string without its end (NUL)"), -1;
    if (!(p->pairs_at_start <= p->pairs_done && p->pairs_done <= p->pairs_total))
        return snprintf(why, n,
                        "pairs_at_start %" PRIu64 ", pairs_done %" PRIu64 " and pairs_total %" PRIu64
                        " do not fit together (at_start <= done <= total)",
                        p->pairs_at_start, p->pairs_done, p->pairs_total),
               -1;
    if (p->pruned > p->pairs_done)
        return snprintf(why, n, "pruned %" PRIu64 " is more than pairs_done %" PRIu64, p->pruned, p->pairs_done), -1;
    if (!isfinite(p->started) || !isfinite(p->updated) || !rate_ok(p->elapsed_s))
        return snprintf(why, n, "started, updated or elapsed_s is not a finite number (elapsed_s >= 0)"), -1;
    if (!rate_ok(p->pairs_per_s) || isnan(p->eta_s) || isinf(p->eta_s))
        return snprintf(why, n, "pairs_per_s or eta_s is not a finite number (pairs_per_s >= 0)"), -1;
    if (p->pid < 0 || p->resumes < 0 || p->slurm_restarts < 0 || p->nnodes < 0 || (p->nnodes > 0 && !p->nodes))
        return snprintf(why, n, "a negative pid, resumes, slurm_restarts or node count"), -1;
    for (int k = 0; k < p->nnodes; k++) {
        const mnw_progress_node *nd = &p->nodes[k];
        if (!terminated(nd->host, sizeof nd->host)) return snprintf(why, n, "node %d: host without its end", k), -1;
        if (nd->rank < 0 || nd->workers < 0 || nd->ngpus < 0)
            return snprintf(why, n, "node %d: a negative rank, workers or gpus", k), -1;
        if (nd->pruned > nd->pairs)
            return snprintf(why, n, "node %d: pruned %" PRIu64 " is more than its pairs %" PRIu64, k, nd->pruned,
                            nd->pairs),
                   -1;
        if (!rate_ok(nd->pairs_per_s)) return snprintf(why, n, "node %d: pairs_per_s not a finite number >= 0", k), -1;
        if (nd->ndev < 0 || nd->ndev > MNW_PROGRESS_MAX_DEV)
            return snprintf(why, n, "node %d: %d devices (0 to %d)", k, nd->ndev, MNW_PROGRESS_MAX_DEV), -1;
        for (int d = 0; d < nd->ndev; d++) {
            if (!terminated(nd->dev[d].name, sizeof nd->dev[d].name) || !nd->dev[d].name[0])
                return snprintf(why, n, "node %d device %d: empty name", k, d), -1;
            if (!rate_ok(nd->dev[d].pairs_per_s))
                return snprintf(why, n, "node %d device %d: pairs_per_s not a finite number >= 0", k, d), -1;
        }
    }
    return 0;
}

/* ---- writing ---- */

static void put_key(mnw_buf *b, int indent, const char *key)
{
    for (int k = 0; k < indent; k++) mnw_buf_putc(b, ' ');
    mnw_json_put_string(b, key);
    mnw_buf_puts(b, ": ");
}

static void kv_str(mnw_buf *b, int indent, const char *key, const char *v)
{
    put_key(b, indent, key);
    mnw_json_put_string(b, v);
    mnw_buf_puts(b, ",\n");
}

static void kv_u64(mnw_buf *b, int indent, const char *key, uint64_t v)
{
    put_key(b, indent, key);
    mnw_buf_put_u64(b, v);
    mnw_buf_puts(b, ",\n");
}

static void kv_i64(mnw_buf *b, int indent, const char *key, int64_t v)
{
    put_key(b, indent, key);
    mnw_buf_put_i64(b, v);
    mnw_buf_puts(b, ",\n");
}

/* the values are checked finite before (check) */
static void kv_num(mnw_buf *b, int indent, const char *key, const char *fmt, double v)
{
    put_key(b, indent, key);
    mnw_json_put_double(b, fmt, v);
    mnw_buf_puts(b, ",\n");
}

static void utc(double t, char out[32])
{
    time_t s = (time_t)floor(t);
    struct tm tm;
    if (t < -1e15 || t > 1e15 || !gmtime_r(&s, &tm) || !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(out, 32, "?");
}

static void text_of(const mnw_progress *p, mnw_buf *b)
{
    char t[32];
    mnw_buf_puts(b, "{\n");
    kv_i64(b, 2, "mnw_progress", 1);
    kv_str(b, 2, "state", p->state);
    kv_str(b, 2, "message", p->message);
    kv_str(b, 2, "input", p->input);
    kv_str(b, 2, "outdir", p->outdir);
    kv_str(b, 2, "host", p->host);
    kv_i64(b, 2, "pid", p->pid);
    kv_num(b, 2, "started", "%.3f", p->started);
    utc(p->started, t);
    kv_str(b, 2, "started_utc", t);
    kv_num(b, 2, "updated", "%.3f", p->updated);
    utc(p->updated, t);
    kv_str(b, 2, "updated_utc", t);
    kv_num(b, 2, "elapsed_s", "%.3f", p->elapsed_s);
    kv_u64(b, 2, "pairs_total", p->pairs_total);
    kv_u64(b, 2, "pairs_done", p->pairs_done);
    kv_u64(b, 2, "pairs_at_start", p->pairs_at_start);
    kv_u64(b, 2, "pruned", p->pruned);
    kv_i64(b, 2, "resumes", p->resumes);
    kv_num(b, 2, "pairs_per_s", "%.3f", p->pairs_per_s);
    if (p->eta_s < 0) {
        put_key(b, 2, "eta_s");
        mnw_buf_puts(b, "null,\n");
    } else {
        kv_num(b, 2, "eta_s", "%.3f", p->eta_s);
    }
    kv_str(b, 2, "slurm_job", p->slurm_job);
    kv_i64(b, 2, "slurm_restarts", p->slurm_restarts);
    kv_str(b, 2, "slurm_jobs", p->slurm_jobs);
    put_key(b, 2, "nodes");
    mnw_buf_puts(b, p->nnodes ? "[\n" : "[]\n");
    for (int k = 0; k < p->nnodes; k++) {
        const mnw_progress_node *n = &p->nodes[k];
        mnw_buf_puts(b, "    {\n");
        kv_i64(b, 6, "rank", n->rank);
        kv_str(b, 6, "host", n->host);
        kv_i64(b, 6, "workers", n->workers);
        kv_i64(b, 6, "gpus", n->ngpus);
        kv_u64(b, 6, "pairs", n->pairs);
        kv_u64(b, 6, "pruned", n->pruned);
        kv_num(b, 6, "pairs_per_s", "%.3f", n->pairs_per_s);
        put_key(b, 6, "devices");
        mnw_buf_puts(b, n->ndev ? "[\n" : "[]\n");
        for (int d = 0; d < n->ndev; d++) {
            mnw_buf_puts(b, "        {\"name\": ");
            mnw_json_put_string(b, n->dev[d].name);
            mnw_buf_puts(b, ", \"pairs\": ");
            mnw_buf_put_u64(b, n->dev[d].pairs);
            mnw_buf_puts(b, ", \"pairs_per_s\": ");
            mnw_json_put_double(b, "%.3f", n->dev[d].pairs_per_s);
            mnw_buf_puts(b, d + 1 < n->ndev ? "},\n" : "}\n");
        }
        if (n->ndev) mnw_buf_puts(b, "      ]\n");
        mnw_buf_puts(b, k + 1 < p->nnodes ? "    },\n" : "    }\n");
    }
    if (p->nnodes) mnw_buf_puts(b, "  ]\n");
    mnw_buf_puts(b, "}\n");
}

int mnw_progress_write(const char *dir, const mnw_progress *p, mnw_err *e)
{
    char why[512];
    if (check(p, why, sizeof why)) return mnw_err_set(e, "%s/%s: not written: %s", dir, MNW_PROGRESS_FILE, why);
    mnw_buf t;
    mnw_buf_init(&t);
    text_of(p, &t);
    int rc = mnw_afile_replace(dir, MNW_PROGRESS_FILE, t.p, t.len, 0, NULL, e);
    mnw_buf_free(&t);
    return rc;
}

/* ---- reading ---- */

typedef struct {
    const char *path;
    mnw_err *e;
} rd;

/* the value of key in obj (ctx names obj in messages: "" or "nodes[2]") */
static const mnw_json *need(rd *r, const mnw_json *obj, const char *ctx, const char *key)
{
    const mnw_json *v = mnw_json_get(obj, key);
    if (!v)
        mnw_err_set(r->e, "%s:%d: missing key \"%s%s%s\"", r->path, obj->line, ctx, *ctx ? "." : "", key);
    return v;
}

static int bad_type(rd *r, const mnw_json *v, const char *ctx, const char *key, const char *want)
{
    const char *found = mnw_json_type_name(v->type);
    return mnw_err_set(r->e, "%s:%d: \"%s%s%s\" must be %s, found %s%s%.40s", r->path, v->line, ctx, *ctx ? "." : "",
                       key, want, found, v->type == MNW_JSON_NUMBER ? " " : "",
                       v->type == MNW_JSON_NUMBER ? v->str : "");
}

static int rd_u64(rd *r, const mnw_json *obj, const char *ctx, const char *key, uint64_t *out)
{
    const mnw_json *v = need(r, obj, ctx, key);
    if (!v) return -1;
    if (mnw_json_u64(v, out)) return bad_type(r, v, ctx, key, "an integer from 0 to 2^64-1");
    return 0;
}

static int rd_int(rd *r, const mnw_json *obj, const char *ctx, const char *key, long long lo, long long hi,
                  long long *out)
{
    const mnw_json *v = need(r, obj, ctx, key);
    if (!v) return -1;
    if (mnw_json_int(v, lo, hi, out)) {
        char want[96];
        snprintf(want, sizeof want, "an integer from %lld to %lld", lo, hi);
        return bad_type(r, v, ctx, key, want);
    }
    return 0;
}

/* a finite number >= lo; null reads as -1 when null_ok */
static int rd_num(rd *r, const mnw_json *obj, const char *ctx, const char *key, double lo, int null_ok, double *out)
{
    const mnw_json *v = need(r, obj, ctx, key);
    if (!v) return -1;
    if (null_ok && v->type == MNW_JSON_NULL) {
        *out = -1;
        return 0;
    }
    if (v->type != MNW_JSON_NUMBER || !(v->num >= lo))
        return bad_type(r, v, ctx, key, lo > -INFINITY ? (null_ok ? "a number >= 0 or null" : "a number >= 0") : "a number");
    *out = v->num;
    return 0;
}

/* copies a string, cut at a UTF-8 character boundary if longer than the field */
static int rd_str(rd *r, const mnw_json *obj, const char *ctx, const char *key, char *dst, size_t cap)
{
    const mnw_json *v = need(r, obj, ctx, key);
    if (!v) return -1;
    if (v->type != MNW_JSON_STRING) return bad_type(r, v, ctx, key, "a string");
    size_t n = v->len;
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)v->str[n] & 0xc0) == 0x80) n--;
    }
    memcpy(dst, v->str, n);
    dst[n] = '\0';
    return 0;
}

static int rd_array(rd *r, const mnw_json *obj, const char *ctx, const char *key, const mnw_json **out)
{
    const mnw_json *v = need(r, obj, ctx, key);
    if (!v) return -1;
    if (v->type != MNW_JSON_ARRAY) return bad_type(r, v, ctx, key, "an array");
    *out = v;
    return 0;
}

static int rd_node(rd *r, const mnw_json *o, int k, mnw_progress_node *n)
{
    char ctx[64];
    snprintf(ctx, sizeof ctx, "nodes[%d]", k);
    if (o->type != MNW_JSON_OBJECT)
        return mnw_err_set(r->e, "%s:%d: \"%s\" must be an object, found %s", r->path, o->line, ctx,
                           mnw_json_type_name(o->type));
    long long x;
    const mnw_json *devs = NULL;
    if (rd_int(r, o, ctx, "rank", 0, INT32_MAX, &x)) return -1;
    n->rank = (int)x;
    if (rd_str(r, o, ctx, "host", n->host, sizeof n->host)) return -1;
    if (rd_int(r, o, ctx, "workers", 0, INT32_MAX, &x)) return -1;
    n->workers = (int)x;
    if (rd_int(r, o, ctx, "gpus", 0, INT32_MAX, &x)) return -1;
    n->ngpus = (int)x;
    if (rd_u64(r, o, ctx, "pairs", &n->pairs) || rd_num(r, o, ctx, "pairs_per_s", 0, 0, &n->pairs_per_s) ||
        rd_array(r, o, ctx, "devices", &devs))
        return -1;
    if (mnw_json_get(o, "pruned") && rd_u64(r, o, ctx, "pruned", &n->pruned)) return -1; /* later: optional */
    if (devs->n > MNW_PROGRESS_MAX_DEV)
        return mnw_err_set(r->e, "%s:%d: \"%s.devices\" has %zu devices (at most %d)", r->path, devs->line, ctx,
                           devs->n, MNW_PROGRESS_MAX_DEV);
    n->ndev = (int)devs->n;
    for (int d = 0; d < n->ndev; d++) {
        const mnw_json *dv = &devs->items[d];
        char dctx[96];
        snprintf(dctx, sizeof dctx, "%s.devices[%d]", ctx, d);
        if (dv->type != MNW_JSON_OBJECT)
            return mnw_err_set(r->e, "%s:%d: \"%s\" must be an object, found %s", r->path, dv->line, dctx,
                               mnw_json_type_name(dv->type));
        mnw_progress_dev *dev = &n->dev[d];
        if (rd_str(r, dv, dctx, "name", dev->name, sizeof dev->name) || rd_u64(r, dv, dctx, "pairs", &dev->pairs) ||
            rd_num(r, dv, dctx, "pairs_per_s", 0, 0, &dev->pairs_per_s))
            return -1;
        if (!dev->name[0]) return mnw_err_set(r->e, "%s:%d: \"%s.name\" is empty", r->path, dv->line, dctx);
    }
    return 0;
}

static int from_tree(rd *r, const mnw_json *root, mnw_progress *p)
{
    if (root->type != MNW_JSON_OBJECT)
        return mnw_err_set(r->e, "%s:%d: not an mnw progress file (%s, not an object)", r->path, root->line,
                           mnw_json_type_name(root->type));
    const mnw_json *ver = mnw_json_get(root, "mnw_progress");
    long long x;
    if (!ver) return mnw_err_set(r->e, "%s:%d: not an mnw progress file (no \"mnw_progress\" key)", r->path, root->line);
    if (mnw_json_int(ver, 1, INT32_MAX, &x)) return bad_type(r, ver, "", "mnw_progress", "a version number (1)");
    if (x != 1)
        return mnw_err_set(r->e, "%s:%d: progress format %lld, written by a newer mnw (this one reads format 1)",
                           r->path, ver->line, x);
    const char *c = "";
    const mnw_json *nodes = NULL;
    if (rd_str(r, root, c, "state", p->state, sizeof p->state) ||
        rd_str(r, root, c, "message", p->message, sizeof p->message) ||
        rd_str(r, root, c, "input", p->input, sizeof p->input) ||
        rd_str(r, root, c, "outdir", p->outdir, sizeof p->outdir) || rd_str(r, root, c, "host", p->host, sizeof p->host))
        return -1;
    if (rd_int(r, root, c, "pid", 0, INT64_MAX, &x)) return -1;
    p->pid = (long)x;
    if (rd_num(r, root, c, "started", -INFINITY, 0, &p->started) ||
        rd_num(r, root, c, "updated", -INFINITY, 0, &p->updated) ||
        rd_num(r, root, c, "elapsed_s", 0, 0, &p->elapsed_s) || rd_u64(r, root, c, "pairs_total", &p->pairs_total) ||
        rd_u64(r, root, c, "pairs_done", &p->pairs_done) || rd_u64(r, root, c, "pairs_at_start", &p->pairs_at_start))
        return -1;
    if (rd_int(r, root, c, "resumes", 0, INT32_MAX, &x)) return -1;
    p->resumes = (int)x;
    if (rd_num(r, root, c, "pairs_per_s", 0, 0, &p->pairs_per_s) || rd_num(r, root, c, "eta_s", 0, 1, &p->eta_s) ||
        rd_str(r, root, c, "slurm_job", p->slurm_job, sizeof p->slurm_job) || rd_array(r, root, c, "nodes", &nodes))
        return -1;
    /* later keys: optional */
    if (mnw_json_get(root, "slurm_restarts")) {
        if (rd_int(r, root, c, "slurm_restarts", 0, INT32_MAX, &x)) return -1;
        p->slurm_restarts = (int)x;
    }
    if (mnw_json_get(root, "slurm_jobs") && rd_str(r, root, c, "slurm_jobs", p->slurm_jobs, sizeof p->slurm_jobs))
        return -1;
    if (mnw_json_get(root, "pruned") && rd_u64(r, root, c, "pruned", &p->pruned)) return -1;
    if (!p->state[0]) return mnw_err_set(r->e, "%s:%d: \"state\" is empty", r->path, mnw_json_get(root, "state")->line);
    if (nodes->n > INT32_MAX) return mnw_err_set(r->e, "%s:%d: too many nodes", r->path, nodes->line);
    p->nnodes = (int)nodes->n;
    p->nodes = p->nnodes ? mnw_xcalloc((size_t)p->nnodes, sizeof *p->nodes) : NULL;
    for (int k = 0; k < p->nnodes; k++)
        if (rd_node(r, &nodes->items[k], k, &p->nodes[k])) return -1;
    char why[512];
    if (check(p, why, sizeof why)) return mnw_err_set(r->e, "%s: %s", r->path, why);
    return 0;
}

int mnw_progress_parse(const char *name, const char *text, size_t len, mnw_progress *p, mnw_err *e)
{
    memset(p, 0, sizeof *p);
    mnw_json *root = mnw_json_parse(name, text, len, e);
    if (!root) return -1;
    rd r = {name, e};
    int rc = from_tree(&r, root, p);
    mnw_json_free(root);
    if (rc) {
        mnw_progress_free(p);
        memset(p, 0, sizeof *p);
    }
    return rc;
}

int mnw_progress_read(const char *path, mnw_progress *p, mnw_err *e)
{
    memset(p, 0, sizeof *p);
    mnw_buf t;
    mnw_buf_init(&t);
    int rc = -1;
    /* never blocks on a FIFO, never follows a loop (lib/runfile.h) */
    if (mnw_runfile_slurp(path, MNW_PROGRESS_MAX_BYTES, &t, e)) {
        if (t.len > MNW_PROGRESS_MAX_BYTES)
            mnw_err_set(e, "%s: larger than %u MiB: not a progress file", path, MNW_PROGRESS_MAX_BYTES >> 20);
        goto out;
    }
    if (t.len == 0) {
        mnw_err_set(e, "%s: empty file (cut short?)", path);
        goto out;
    }
    rc = mnw_progress_parse(path, t.p, t.len, p, e);
out:
    mnw_buf_free(&t);
    return rc;
}
