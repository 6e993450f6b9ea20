/* status_shards.c - `mnw status PARENT` for a run split into shards by
 * mnw-submit --shards (status.h, docs/STATUS.md, docs/SHARDS.md). */
#include "src/status_shards.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "cld/bookmark.h"
#include "cld/progress.h"
#include "lib/buf.h"
#include "lib/json.h"
#include "lib/runfile.h"
#include "lib/shardset.h"
#include "lib/slurm.h"
#include "lib/statfmt.h"

/* what one shard's directory says */
typedef struct {
    char state[24];    /* done running starting stopping stopped failed killed stalled queued damaged "not started" */
    uint64_t done, total;
    uint64_t pruned;   /* of done, those the filter pruned (lib/prune.h) */
    int total_known;
    double rate;       /* pairs/s of a live shard, else 0 */
    char job[64];      /* its Slurm job or array task */
    char slurm[112];   /* "RUNNING", "PENDING (Resources)", or "" */
    int queued;        /* its task is in Slurm's queue */
    uint64_t run_pairs; /* the whole run's pairs (its bookmark), 0 if unknown */
    char err[MNW_ERR_MAX]; /* a damaged or foreign file, or "" */
} row;

/* the liveness of an active run: its state word */
static const char *live_word(const mnw_progress *p)
{
    char me[256], pname[64];
    mnw_hostname(me, sizeof me, 0);
    double age = mnw_progress_now() - p->updated;
    if (mnw_statfmt_same_host(p->host, me)) {
        int ps = mnw_statfmt_pid(p->pid, pname);
        if (ps == MNW_PID_GONE || ps == MNW_PID_OTHER) return "killed";
    }
    return age > MNW_PROGRESS_STALE_S ? "stalled" : p->state;
}

static void look(const char *parent, const char *name, uint32_t index, uint32_t count, row *r)
{
    memset(r, 0, sizeof *r);
    char dir[4400], path[4500], want[32];
    snprintf(dir, sizeof dir, "%s/%s", parent, name);
    snprintf(want, sizeof want, "%u/%u", index, count);
    mnw_err e;
    mnw_bookmark bm;
    mnw_bookmark_init(&bm);
    /* the shard's directory: a FIFO, a file, a loop or a dangling link in
     * its place is named, not taken for a shard not started */
    if (mnw_runfile_dir(dir, &e) < 0) {
        snprintf(r->err, sizeof r->err, "%s", e.msg);
        snprintf(r->state, sizeof r->state, "damaged");
        return;
    }
    snprintf(path, sizeof path, "%s/%s", dir, MNW_BOOKMARK_FILE);
    int have_b = mnw_runfile_present(path), b_ok = 0;
    if (have_b) {
        if (mnw_runfile_check(path, &e) || mnw_bookmark_read(path, &bm, &e)) {
            snprintf(r->err, sizeof r->err, "%s", e.msg);
        } else {
            const char *v = mnw_bookmark_get(&bm, "shard");
            char sh[32];
            if (!v || strcmp(v, want)) {
                mnw_fmt_fit(r->err, sizeof r->err, "%s: the run there is shard %s, not %s: not this run's shard", path,
                         v ? v : "none", want);
            } else {
                b_ok = 1;
                mnw_bookmark_progress(&bm, &r->done, &r->total, sh, sizeof sh);
                r->pruned = bm.pruned;
                r->total_known = 1;
                r->run_pairs = bm.pairs;
                snprintf(r->state, sizeof r->state, "%s", r->done == r->total ? "done" : "stopped");
            }
        }
    }
    mnw_bookmark_free(&bm);
    snprintf(path, sizeof path, "%s/%s", dir, MNW_PROGRESS_FILE);
    mnw_progress p;
    memset(&p, 0, sizeof p);
    if (!r->err[0] && mnw_runfile_present(path)) {
        if (mnw_progress_read(path, &p, &e)) {
            snprintf(r->err, sizeof r->err, "%s", e.msg);
        } else {
            snprintf(r->job, sizeof r->job, "%s", p.slurm_job);
            const char *w = mnw_statfmt_active(p.state) ? live_word(&p) : p.state;
            if (!(b_ok && !strcmp(r->state, "done"))) snprintf(r->state, sizeof r->state, "%s", w);
            if (!b_ok || mnw_statfmt_active(p.state)) {
                /* a live run counts ahead of its bookmark */
                if (p.pairs_total || !mnw_statfmt_active(p.state)) {
                    r->done = p.pairs_done;
                    r->pruned = p.pruned;
                    r->total = p.pairs_total;
                    r->total_known = 1;
                }
            }
            if (!strcmp(w, "running") || !strcmp(w, "starting") || !strcmp(w, "stopping")) r->rate = p.pairs_per_s;
        }
    }
    mnw_progress_free(&p);
    if (!r->state[0]) snprintf(r->state, sizeof r->state, "not started");
    if (r->err[0]) snprintf(r->state, sizeof r->state, "damaged");
}

static int finished(const row *r) { return !strcmp(r->state, "done"); }
static int live(const row *r)
{
    return !strcmp(r->state, "running") || !strcmp(r->state, "starting") || !strcmp(r->state, "stopping");
}

/* the merged run: "complete", "partial" (being written, or a merge that was
 * killed), "none", or "damaged" with err set */
static const char *merged_state(const char *parent, const char *name, char *err, size_t cap)
{
    char dir[4400], path[4500];
    snprintf(dir, sizeof dir, "%s/%s", parent, name);
    snprintf(path, sizeof path, "%s/%s", dir, MNW_BOOKMARK_FILE);
    mnw_err de;
    if (mnw_runfile_dir(dir, &de) < 0) {
        snprintf(err, cap, "%s", de.msg);
        return "damaged";
    }
    if (mnw_runfile_present(path)) {
        mnw_bookmark bm;
        mnw_bookmark_init(&bm);
        mnw_err e;
        int bad = mnw_runfile_check(path, &e) || mnw_bookmark_read(path, &bm, &e);
        if (bad) snprintf(err, cap, "%s", e.msg);
        int done = !bad && bm.watermark == bm.pairs;
        mnw_bookmark_free(&bm);
        return bad ? "damaged" : done ? "complete" : "partial";
    }
    DIR *d = opendir(dir);
    if (!d) return "none";
    int empty = 1;
    for (struct dirent *de; empty && (de = readdir(d));)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) empty = 0;
    closedir(d);
    return empty ? "none" : "partial";
}

/* "PENDING (Dependency)", "RUNNING", "COMPLETED", or why it is not known */
static void job_state(const char *job, char *out, size_t cap)
{
    mnw_slurm_info si;
    char why[256];
    if (!job[0]) snprintf(out, cap, "-");
    else if (mnw_slurm_query(job, &si, why, sizeof why)) snprintf(out, cap, "state unknown: %s", why);
    else if (si.reason[0] && strcmp(si.reason, "None")) snprintf(out, cap, "%s (%s)", si.state, si.reason);
    else snprintf(out, cap, "%s", si.state);
}

/* a job state in which Slurm will still run it */
static int job_pending_or_running(const char *state)
{
    return !strncmp(state, "PENDING", 7) || !strncmp(state, "RUNNING", 7) || !strncmp(state, "REQUEUE", 7) ||
           !strncmp(state, "CONFIGURING", 11) || !strncmp(state, "COMPLETING", 10) ||
           !strncmp(state, "SUSPENDED", 9) || !strncmp(state, "RESIZING", 8);
}

typedef struct {
    const mnw_shardset *set;
    const char *parent;
    row *rows;
    uint64_t done, total, pruned;
    int total_known;
    double rate;
    uint32_t ndone, nlive, nqueued, nstuck, nbad;
    const char *merged;
    char merged_err[MNW_ERR_MAX];
    char merge_slurm[300];
    int queue_known; /* squeue answered */
    char queue_why[256];
} view;

static void gather(view *v)
{
    const mnw_shardset *s = v->set;
    mnw_slurm_task *tasks = NULL;
    int nt = 0;
    v->queue_known = 1; /* no array job recorded: none queued */
    int cap = (int)s->count + 8;
    tasks = s->narrays ? calloc((size_t)cap, sizeof *tasks) : NULL;
    for (int k = 0; tasks && k < s->narrays && v->queue_known; k++) {
        int got = mnw_slurm_queued(s->arrays[k], tasks + nt, cap - nt, v->queue_why, sizeof v->queue_why);
        if (got < 0) v->queue_known = 0;
        else nt += got < cap - nt ? got : cap - nt;
    }
    if (!v->queue_known) nt = 0;
    v->total_known = 1;
    uint64_t run_pairs = 0;
    for (uint32_t i = 0; i < s->count; i++) {
        row *r = &v->rows[i];
        look(v->parent, s->dir[i], i + 1, s->count, r);
        for (int k = 0; k < nt; k++)
            if (tasks[k].task == (long)i + 1) {
                r->queued = 1;
                if (!r->job[0] || strcmp(r->job, tasks[k].id)) snprintf(r->job, sizeof r->job, "%s", tasks[k].id);
                if (strcmp(tasks[k].reason, "None")) snprintf(r->slurm, sizeof r->slurm, "%s (%s)", tasks[k].state,
                                                              tasks[k].reason);
                else snprintf(r->slurm, sizeof r->slurm, "%s", tasks[k].state);
            }
        if (r->queued && !strcmp(r->state, "not started")) snprintf(r->state, sizeof r->state, "queued");
        if (r->run_pairs) run_pairs = r->run_pairs;
        v->done += r->done;
        v->pruned += r->pruned;
        if (r->total_known) v->total += r->total;
        else v->total_known = 0;
        v->rate += r->rate;
        if (r->err[0]) v->nbad++;
        else if (finished(r)) v->ndone++;
        else if (live(r)) v->nlive++;
        else if (r->queued) v->nqueued++;
        else v->nstuck++;
    }
    free(tasks);
    if (run_pairs) { /* one shard's bookmark knows the whole run */
        v->total = run_pairs;
        v->total_known = 1;
    }
    v->merged = merged_state(v->parent, s->merged, v->merged_err, sizeof v->merged_err);
    job_state(s->merge_job, v->merge_slurm, sizeof v->merge_slurm);
}

/* "2, 5, 7" of the rows matching want(), at most 20 named */
static void list_rows(const view *v, int (*want)(const row *))
{
    uint32_t shown = 0, all = 0;
    for (uint32_t i = 0; i < v->set->count; i++)
        if (want(&v->rows[i]) && all++ < 20) printf("%s%u", shown++ ? ", " : "", i + 1);
    if (all > shown) printf(" and %u more", all - shown);
}

static int stuck(const row *r) { return !r->err[0] && !finished(r) && !live(r) && !r->queued; }

static void print_view(const view *v)
{
    const mnw_shardset *s = v->set;
    char a[32], b[32], c[32], word[8300];
    mnw_statfmt_word(v->parent, word, sizeof word);
    printf("mnw run in %s, split into %u shard%s (mnw-submit --shards)\n", v->parent, s->count, s->count == 1 ? "" : "s");
    printf("  input      %s\n", s->input);
    printf("  shards     %u done, %u running, %u queued, %u stopped or not started%s", v->ndone, v->nlive, v->nqueued,
           v->nstuck,
           v->queue_known ? "" : " (the queue is not known)");
    if (v->nbad) printf(", %u damaged", v->nbad);
    printf("\n");
    if (v->total_known) {
        printf("  done       ");
        mnw_statfmt_done(v->done, v->total);
        printf(" %s of %s pairs\n", mnw_statfmt_count(v->done, a), mnw_statfmt_count(v->total, b));
    } else {
        printf("  done       %s pairs (the total is known once a shard has started)\n", mnw_statfmt_count(v->done, a));
    }
    if (v->pruned) {
        char pr[80];
        printf("  pruned     %s\n", mnw_statfmt_pruned(v->pruned, v->done, pr));
    }
    if (v->nlive && !(v->rate > 0)) {
        printf("  speed      - (no speed measured yet)\n");
    } else if (v->nlive) {
        printf("  speed      %s pairs/s (the %u shard%s running now)\n", mnw_statfmt_rate(v->rate, a), v->nlive,
               v->nlive == 1 ? "" : "s");
        if (v->total_known && v->rate > 0)
            printf("  ETA        %s at that speed\n", mnw_statfmt_dur((double)(v->total - v->done) / v->rate, a));
    }
    printf("  merged     %s/%s: %s\n", v->parent, s->merged,
           !strcmp(v->merged, "complete") ? "complete"
           : !strcmp(v->merged, "partial") ? "not complete (a merge is writing it, or one was stopped: the merge job starts again)"
           : !strcmp(v->merged, "damaged") ? "damaged (its bookmark or directory: the error is below)"
                                            : "not yet");
    if (s->array_job[0]) printf("  Slurm      shards: array job %s (tasks %s)%s%s\n", s->array_job, s->array_list,
                                v->queue_known ? "" : "; queue not known: ", v->queue_known ? "" : v->queue_why);
    if (s->merge_job[0]) printf("             merge: job %s %s\n", s->merge_job, v->merge_slurm);
    if (s->njobs > 2) printf("             (%d jobs in all; %s lists them)\n", s->njobs, MNW_SHARDSET_FILE);

    int w = 9;
    for (uint32_t i = 0; i < s->count; i++) {
        int l = (int)strlen(s->dir[i]);
        if (l > w) w = l;
    }
    if (w > 40) w = 40;
    printf("\n  %-11s  %-11s  %6s  %27s  %9s  %-*s  %s\n", "shard", "state", "done", "pairs", "pairs/s", w, "directory",
           "Slurm");
    for (uint32_t i = 0; i < s->count; i++) {
        const row *r = &v->rows[i];
        char sh[32], pc[16] = "-", pairs[80] = "-";
        snprintf(sh, sizeof sh, "%u/%u", i + 1, s->count);
        if (r->total_known) {
            double p = mnw_statfmt_percent(r->done, r->total);
            if (r->done < r->total && p > 99.9) p = 99.9;
            snprintf(pc, sizeof pc, "%.1f%%", p);
            snprintf(pairs, sizeof pairs, "%s of %s", mnw_statfmt_count(r->done, a), mnw_statfmt_count(r->total, b));
        }
        printf("  %-11s  %-11s  %6s  %27s  %9s  %-*.*s  %s%s%s\n", sh, r->state, pc, pairs,
               r->rate > 0 ? mnw_statfmt_rate(r->rate, c) : "-", w, w, s->dir[i], r->job[0] ? r->job : "-",
               r->slurm[0] ? " " : "", r->slurm);
    }
    printf("\n");
    if (!strcmp(v->merged, "complete")) {
        printf("The run is complete: its %u shards are merged into %s/%s (mnw status %s/%s).\n", s->count, v->parent,
               s->merged, v->parent, s->merged);
        return;
    }
    if (v->ndone == s->count) {
        if (job_pending_or_running(v->merge_slurm))
            printf("All %u shards are complete; merge job %s is %s.\n", s->count, s->merge_job, v->merge_slurm);
        else
            printf("All %u shards are complete, but no merge job is queued: merge them with mnw-submit --resume %s\n",
                   s->count, word);
        return;
    }
    if (v->nstuck && v->queue_known) {
        printf("Shard%s ", v->nstuck == 1 ? "" : "s");
        list_rows(v, stuck);
        printf(" %s neither complete nor running nor queued: continue %s and the merge with mnw-submit --resume "
               "%s\n",
               v->nstuck == 1 ? "is" : "are", v->nstuck == 1 ? "it" : "them", word);
    } else if (v->nstuck) {
        printf("Slurm's queue is not known here (%s): if no job works on shards ", v->queue_why);
        list_rows(v, stuck);
        printf(", continue them and the merge with mnw-submit --resume %s\n", word);
    } else {
        printf("%u shard%s running and %u queued; the merge follows them%s%s.\n", v->nlive,
               v->nlive == 1 ? "" : "s", v->nqueued, s->merge_job[0] ? ": job " : "",
               s->merge_job[0] ? s->merge_job : "");
    }
    if (s->merge_job[0] && strstr(v->merge_slurm, "DependencyNeverSatisfied"))
        printf("Merge job %s can no longer start (a shard task failed or was cancelled); mnw-submit --resume %s "
               "cancels it and queues a new one.\n",
               s->merge_job, word);
}

static void put_u64_or_null(mnw_buf *b, int known, uint64_t v)
{
    char t[32];
    if (known) snprintf(t, sizeof t, "%" PRIu64, v);
    else snprintf(t, sizeof t, "null");
    mnw_buf_puts(b, t);
}

static void print_json(const view *v)
{
    const mnw_shardset *s = v->set;
    mnw_buf b;
    mnw_buf_init(&b);
    char t[160];
    mnw_buf_puts(&b, "{\n  \"mnw_shards_status\": 1,\n  \"parent\": ");
    mnw_json_put_string(&b, v->parent);
    mnw_buf_puts(&b, ",\n  \"input\": ");
    mnw_json_put_string(&b, s->input);
    snprintf(t, sizeof t, ",\n  \"shards\": %u,\n  \"pairs_done\": %" PRIu64 ",\n  \"pruned\": %" PRIu64,
             s->count, v->done, v->pruned);
    mnw_buf_puts(&b, t);
    snprintf(t, sizeof t, ",\n  \"pairs_total\": ");
    mnw_buf_puts(&b, t);
    put_u64_or_null(&b, v->total_known, v->total);
    mnw_buf_puts(&b, ",\n  \"pairs_per_s\": ");
    if (mnw_json_put_double(&b, "%.1f", v->rate)) mnw_buf_puts(&b, "0");
    mnw_buf_puts(&b, ",\n  \"merged\": {\"dir\": ");
    mnw_json_put_string(&b, s->merged);
    mnw_buf_puts(&b, ", \"state\": ");
    mnw_json_put_string(&b, v->merged);
    mnw_buf_puts(&b, "},\n  \"array_job\": ");
    mnw_json_put_string(&b, s->array_job);
    mnw_buf_puts(&b, ",\n  \"merge_job\": ");
    mnw_json_put_string(&b, s->merge_job);
    mnw_buf_puts(&b, ",\n  \"merge_job_state\": ");
    mnw_json_put_string(&b, s->merge_job[0] ? v->merge_slurm : "");
    mnw_buf_puts(&b, ",\n  \"shard\": [");
    for (uint32_t i = 0; i < s->count; i++) {
        const row *r = &v->rows[i];
        snprintf(t, sizeof t, "%s\n    {\"index\": %u, \"dir\": ", i ? "," : "", i + 1);
        mnw_buf_puts(&b, t);
        mnw_json_put_string(&b, s->dir[i]);
        mnw_buf_puts(&b, ", \"state\": ");
        mnw_json_put_string(&b, r->state);
        snprintf(t, sizeof t, ", \"pairs_done\": %" PRIu64 ", \"pruned\": %" PRIu64 ", \"pairs_total\": ", r->done,
                 r->pruned);
        mnw_buf_puts(&b, t);
        put_u64_or_null(&b, r->total_known, r->total);
        mnw_buf_puts(&b, ", \"pairs_per_s\": ");
        if (mnw_json_put_double(&b, "%.1f", r->rate)) mnw_buf_puts(&b, "0");
        mnw_buf_puts(&b, ", \"slurm_job\": ");
        mnw_json_put_string(&b, r->job);
        mnw_buf_puts(&b, ", \"slurm_state\": ");
        mnw_json_put_string(&b, r->slurm);
        mnw_buf_puts(&b, "}");
    }
    mnw_buf_puts(&b, "\n  ]\n}\n");
    fwrite(b.p, 1, b.len, stdout);
    mnw_buf_free(&b);
}

int mnw_status_shards(const char *parent, int json)
{
    mnw_shardset set;
    mnw_err e;
    if (mnw_shardset_read(parent, &set, &e)) {
        fprintf(stderr, "mnw: error: %s\n", e.msg);
        return 1;
    }
    view v;
    memset(&v, 0, sizeof v);
    v.set = &set;
    v.parent = parent;
    v.rows = calloc(set.count, sizeof *v.rows);
    if (!v.rows) {
        mnw_shardset_free(&set);
        fprintf(stderr, "mnw: error: out of memory for %u shards\n", set.count);
        return 1;
    }
    gather(&v);
    if (json) print_json(&v);
    else print_view(&v);
    fflush(stdout);
    int rc = 0;
    for (uint32_t i = 0; i < set.count; i++)
        if (v.rows[i].err[0]) fprintf(stderr, "mnw: error: %s\n", v.rows[i].err), rc = 1;
    if (v.merged_err[0]) fprintf(stderr, "mnw: error: %s\n", v.merged_err), rc = 1;
    free(v.rows);
    mnw_shardset_free(&set);
    return rc;
}
