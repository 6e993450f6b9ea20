/* proglog.c - see proglog.h. */
#include "cld/proglog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/json.h"
#include "lib/runfile.h"
#include "lib/safeio.h"

void mnw_proglog_init(mnw_proglog *l, const char *dir)
{
    memset(l, 0, sizeof *l);
    snprintf(l->path, sizeof l->path, "%s/%s", dir, MNW_PROGLOG_FILE);
    l->interval = MNW_PROGLOG_INTERVAL_S;
    l->max_bytes = MNW_PROGLOG_MAX_BYTES;
}

/* ,"key":value (the comma unless first) */
static void key(mnw_buf *b, int first, const char *k)
{
    if (!first) mnw_buf_putc(b, ',');
    mnw_json_put_string(b, k);
    mnw_buf_putc(b, ':');
}
static void kv_u64(mnw_buf *b, int first, const char *k, uint64_t v)
{
    key(b, first, k);
    mnw_buf_put_u64(b, v);
}
static void kv_str(mnw_buf *b, int first, const char *k, const char *v)
{
    key(b, first, k);
    mnw_json_put_string(b, v);
}
static void kv_secs(mnw_buf *b, int first, const char *k, double v)
{
    key(b, first, k);
    if (mnw_json_put_double(b, "%.3f", v)) mnw_buf_puts(b, "0"); /* never NaN: the progress writer refuses it */
}

void mnw_proglog_line(const mnw_progress *p, mnw_buf *b)
{
    mnw_buf_putc(b, '{');
    kv_secs(b, 1, "t", p->updated);
    key(b, 0, "resumes");
    mnw_buf_put_i64(b, p->resumes);
    kv_str(b, 0, "state", p->state);
    kv_secs(b, 0, "elapsed_s", p->elapsed_s);
    kv_u64(b, 0, "pairs_done", p->pairs_done);
    kv_u64(b, 0, "pairs_at_start", p->pairs_at_start);
    kv_u64(b, 0, "pairs_total", p->pairs_total);
    kv_u64(b, 0, "pruned", p->pruned);
    key(b, 0, "nodes");
    mnw_buf_putc(b, '[');
    for (int r = 0; r < p->nnodes; r++) {
        const mnw_progress_node *n = &p->nodes[r];
        if (r) mnw_buf_putc(b, ',');
        mnw_buf_putc(b, '{');
        key(b, 1, "rank");
        mnw_buf_put_i64(b, n->rank);
        kv_str(b, 0, "host", n->host);
        kv_u64(b, 0, "pairs", n->pairs);
        kv_u64(b, 0, "pruned", n->pruned);
        key(b, 0, "dev");
        mnw_buf_putc(b, '[');
        for (int d = 0; d < n->ndev; d++) {
            if (d) mnw_buf_putc(b, ',');
            mnw_buf_putc(b, '{');
            kv_str(b, 1, "name", n->dev[d].name);
            kv_u64(b, 0, "pairs", n->dev[d].pairs);
            mnw_buf_putc(b, '}');
        }
        mnw_buf_puts(b, "]}");
    }
    mnw_buf_puts(b, "]}\n");
}

int mnw_proglog_snap_of(const mnw_json *v, mnw_proglog_snap *s)
{
    memset(s, 0, sizeof *s);
    const mnw_json *st = v ? mnw_json_get(v, "state") : NULL, *nodes = v ? mnw_json_get(v, "nodes") : NULL;
    const mnw_json *t = v ? mnw_json_get(v, "t") : NULL, *el = v ? mnw_json_get(v, "elapsed_s") : NULL;
    const mnw_json *pr = v ? mnw_json_get(v, "pruned") : NULL;
    long long r = 0;
    if (!st || st->type != MNW_JSON_STRING || !nodes || nodes->type != MNW_JSON_ARRAY ||
        mnw_json_int(mnw_json_get(v, "resumes"), 0, 1000000, &r))
        return -1;
    s->resumes = (int)r;
    snprintf(s->state, sizeof s->state, "%s", st->str);
    s->t = t && t->type == MNW_JSON_NUMBER ? t->num : 0;
    s->elapsed_s = el && el->type == MNW_JSON_NUMBER ? el->num : 0;
    if (mnw_json_u64(mnw_json_get(v, "pairs_done"), &s->pairs_done)) s->pairs_done = 0;
    if (pr && (mnw_json_u64(pr, &s->pruned) || s->pruned > s->pairs_done)) return -1;
    return 0;
}

/* Writes all of p[0..n) to fd. 0, or -1 with errno set. */
static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int mnw_proglog_add(mnw_proglog *l, const mnw_progress *p, int force, mnw_err *e)
{
    double now = mnw_now();
    int changed = strcmp(l->state, p->state) != 0;
    if (!force && !changed && l->last > 0 && now - l->last < l->interval) return 0;
    int first = l->last == 0;
    l->last = now;
    snprintf(l->state, sizeof l->state, "%s", p->state);
    mnw_buf b;
    mnw_buf_init(&b);
    /* a regular file of mnw's own: no link followed, no FIFO waited on */
    int fd = mnw_safe_open_path(l->path, MNW_SAFE_RDWR | MNW_SAFE_CREATE | MNW_SAFE_APPEND, NULL, e);
    int rc = 1;
    if (fd < 0) {
        rc = -1;
    } else {
        struct stat st;
        char last = '\n';
        /* a run killed in the middle of a line left it without its newline:
         * end it, so that the next run's lines stand apart from it */
        if (first && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
            pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n')
            mnw_buf_putc(&b, '\n');
        mnw_proglog_line(p, &b);
        if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
            rc = mnw_err_set(e, "%s: not a regular file", l->path);
        } else if (write_all(fd, b.p, b.len)) {
            rc = mnw_err_set(e, "%s: cannot write: %s", l->path, strerror(errno));
        } else if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > l->max_bytes) {
            if (mnw_proglog_compact(l->path, e)) rc = -1;
            else l->interval *= 2;
        }
        close(fd);
    }
    mnw_buf_free(&b);
    return rc;
}

/* The line's "state" and "resumes" as one key (state "\n" resumes), or ""
 * for a line that is not a snapshot (kept as it is). */
static void line_key(const char *line, size_t len, char *key, size_t cap)
{
    key[0] = '\0';
    mnw_err e;
    mnw_json *v = mnw_json_parse("progress.log", line, len, &e);
    if (!v) return;
    const mnw_json *s = mnw_json_get(v, "state"), *r = mnw_json_get(v, "resumes");
    if (s && s->type == MNW_JSON_STRING && r && r->type == MNW_JSON_NUMBER)
        snprintf(key, cap, "%s\n%s", s->str, r->str);
    mnw_json_free(v);
}

int mnw_proglog_compact(const char *path, mnw_err *e)
{
    mnw_buf all;
    mnw_buf_init(&all);
    /* a regular file only: never blocks on a FIFO (lib/runfile.h) */
    if (mnw_runfile_slurp(path, SIZE_MAX / 2, &all, e)) {
        mnw_buf_free(&all);
        return -1;
    }
    /* the whole lines (a last one without its newline is dropped) */
    size_t nl = 0, cap = 1024;
    size_t *start = mnw_xmalloc(cap * sizeof *start), *len = mnw_xmalloc(cap * sizeof *len);
    for (size_t at = 0; at < all.len;) {
        const char *eol = memchr(all.p + at, '\n', all.len - at);
        if (!eol) break;
        if (nl == cap) {
            cap *= 2;
            start = mnw_xrealloc(start, cap * sizeof *start);
            len = mnw_xrealloc(len, cap * sizeof *len);
        }
        start[nl] = at;
        len[nl] = (size_t)(eol - (all.p + at));
        nl++;
        at = (size_t)(eol - all.p) + 1;
    }
    mnw_buf out;
    mnw_buf_init(&out);
    /* pass 0 keeps every change; when the changes alone hold most of the
     * file (a run resumed thousands of times), pass 1 keeps every second
     * line of all, so the file always shrinks */
    for (int pass = 0; pass < 2; pass++) {
        out.len = 0;
        char prev[64] = "", key[64];
        int odd = 0;
        for (size_t k = 0; k < nl; k++) {
            int keep;
            if (pass == 0) {
                line_key(all.p + start[k], len[k], key, sizeof key);
                keep = k == 0 || k + 1 == nl || !key[0] || strcmp(key, prev) != 0;
                if (!keep) keep = (odd ^= 1) == 0; /* every second line of a stretch */
                else odd = 0;
                snprintf(prev, sizeof prev, "%s", key);
            } else {
                keep = k == 0 || k + 1 == nl || k % 2 == 0;
            }
            if (keep) mnw_buf_put(&out, all.p + start[k], len[k] + 1);
        }
        if (out.len <= all.len / 4 * 3) break;
    }
    free(start);
    free(len);
    mnw_buf_free(&all);
    /* NAME.tmp beside it, created exclusively (lib/safeio.h), renamed over it */
    const char *name;
    char *dir = mnw_safe_split(path, &name);
    char *tmp = mnw_xmalloc(strlen(name) + 5);
    sprintf(tmp, "%s.tmp", name);
    int rc = -1;
    int dfd = mnw_safe_dir(dir, e);
    int fd = dfd < 0 ? -1 : mnw_safe_tmp(dfd, dir, tmp, 0644, e);
    if (fd >= 0) {
        rc = 0;
        if (write_all(fd, out.p, out.len)) rc = mnw_err_set(e, "%s.tmp: cannot write: %s", path, strerror(errno));
        if (close(fd) && !rc) rc = mnw_err_set(e, "%s.tmp: cannot write: %s", path, strerror(errno));
        if (!rc) rc = mnw_safe_rename(dfd, dir, tmp, name, e);
        if (rc) unlinkat(dfd, tmp, 0); /* the temporary this call made */
    }
    if (dfd >= 0) close(dfd);
    free(tmp);
    free(dir);
    mnw_buf_free(&out);
    return rc;
}
