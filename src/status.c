/* status.c - `mnw status OUTDIR` (status.h). */
#include "src/status.h"
#include "src/status_shards.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cld/bookmark.h"
#include "cld/progress.h"
#include "lib/buf.h"
#include "lib/runfile.h"
#include "lib/shardset.h"
#include "lib/slurm.h"
#include "lib/statfmt.h"
#include "lib/util.h"

static const char usage[] =
    "usage: mnw status [--json] OUTDIR\n"
    "Shows where the run writing OUTDIR stands: state, percent done, pairs pruned by the\n"
    "filter, pairs/s, ETA, and each node and device, from OUTDIR/progress.json and\n"
    "OUTDIR/mnw.bookmark. Works for a run on this machine or another node, and for a\n"
    "stopped or killed run. For the OUTDIR of mnw-submit --shards N: every shard's state,\n"
    "the pairs of all, the merge.\n"
    "  --json      print OUTDIR/progress.json as it is (after checking it); for shards,\n"
    "              their states as one JSON object (docs/STATUS.md)\n"
    "  -h, --help  this help\n"
    "Exit status: 0 shown; 1 OUTDIR has neither file, or one is damaged; 2 bad command line.\n";

/* ---- the report ---- */

static void node_table(const mnw_progress *p)
{
    uint64_t sum = 0;
    int hw = 4;
    for (int k = 0; k < p->nnodes; k++) {
        sum += p->nodes[k].pairs;
        int l = (int)strlen(p->nodes[k].host);
        if (l > hw) hw = l;
    }
    if (hw > 40) hw = 40;
    char a[32], b[32], c[32];
    int pruned = 0; /* a column of the pairs each node pruned, where any did */
    for (int k = 0; k < p->nnodes; k++) pruned |= p->nodes[k].pruned > 0;
    printf("\n  %4s  %-*s  %7s  %4s  %15s  %11s  %6s%s\n", "rank", hw, "host", "workers", "GPUs", "pairs", "pairs/s",
           "share", pruned ? "           pruned" : "");
    for (int k = 0; k < p->nnodes; k++) {
        const mnw_progress_node *n = &p->nodes[k];
        printf("  %4d  %-*.*s  %7d  %4d  %15s  %11s  %5.1f%%", n->rank, hw, hw, n->host, n->workers, n->ngpus,
               mnw_statfmt_count(n->pairs, a), mnw_statfmt_rate(n->pairs_per_s, b), sum ? 100.0 * (double)n->pairs / (double)sum : 0.0);
        if (pruned) printf("  %15s", mnw_statfmt_count(n->pruned, c));
        printf("\n");
        for (int d = 0; d < n->ndev; d++) {
            const mnw_progress_dev *dv = &n->dev[d];
            /* the device name under the host column, indented by 2 */
            printf("  %4s    %-*s  %15s  %11s  %5.1f%%\n", "", hw + 13, dv->name,
                   mnw_statfmt_count(dv->pairs, a), mnw_statfmt_rate(dv->pairs_per_s, b),
                   sum ? 100.0 * (double)dv->pairs / (double)sum : 0.0);
        }
    }
}

/* notes comparing progress.json with the bookmark (bm may be NULL) */
static void bookmark_lines(const mnw_progress *p, const mnw_bookmark *bm, int bm_damaged)
{
    char a[32], b[32];
    if (bm_damaged) {
        printf("  bookmark   %s is damaged (the error is below)\n", MNW_BOOKMARK_FILE);
        return;
    }
    if (!bm) {
        printf("  bookmark   none yet (no %s): nothing is recorded as safely written\n", MNW_BOOKMARK_FILE);
        return;
    }
    uint64_t done, all;
    char sh[32];
    mnw_bookmark_progress(bm, &done, &all, sh, sizeof sh);
    printf("  bookmark   %s pairs safely written (%.1f%%)", mnw_statfmt_count(done, a), mnw_statfmt_percent(done, all));
    if (bm->pruned) printf(", %s of them pruned", mnw_statfmt_count(bm->pruned, b));
    printf("\n");
    if (all != p->pairs_total)
        printf("note: the bookmark is for %s pairs but progress.json for %s: they are from different runs; the "
               "bookmark is what --resume goes by\n",
               mnw_statfmt_count(all, a), mnw_statfmt_count(p->pairs_total, b));
    else if (done != p->pairs_done)
        printf("note: progress.json counts %s pairs done, the bookmark %s: the bookmark is the truth (what is safely "
               "in the outputs; a resume continues from there)\n",
               mnw_statfmt_count(p->pairs_done, a), mnw_statfmt_count(done, b));
}

/* how to go on: the resume command where there is a bookmark to resume
 * from; lead: "Continue it", "If it is not running, continue it", ... */
static void continue_hint(const char *lead, int conditional, const char *word, const char *input,
                          const mnw_bookmark *bm, int bm_damaged)
{
    const char *head = conditional ? "If it is not running:" : "The run cannot be resumed:";
    if (bm) {
        printf("%s with: mnw --resume %s\n", lead, word);
    } else if (bm_damaged) {
        printf("%s its bookmark is damaged (the error is below), so mnw --resume cannot continue it.\n", head);
    } else {
        char in[8300];
        mnw_statfmt_word(input[0] ? input : "INPUT", in, sizeof in);
        printf("%s it recorded no bookmark (nothing safely written), so there is nothing to resume: start it again "
               "with mnw -i %s -o %s --force\n",
               head, in, word);
    }
}

/* the run's Slurm job, live from scontrol where it answers */
static void slurm_lines(const mnw_progress *p)
{
    mnw_slurm_info si;
    char why[256];
    if (mnw_slurm_query(p->slurm_job, &si, why, sizeof why)) {
        printf("  Slurm job  %s, requeued %d time%s when this run started (state now unknown: %s)\n", p->slurm_job,
               p->slurm_restarts, p->slurm_restarts == 1 ? "" : "s", why);
    } else {
        printf("  Slurm job  %s: %s", p->slurm_job, si.state);
        if (strcmp(si.reason, "None") && si.reason[0]) printf(" (%s)", si.reason);
        if (strcmp(si.nodes, "(null)") && si.nodes[0]) printf(" on %s", si.nodes);
        printf(", requeued %d time%s\n", si.restarts, si.restarts == 1 ? "" : "s");
        if (!strcmp(si.state, "PENDING") || !strncmp(si.state, "REQUEUE", 7))
            printf("             queued again: it resumes this run when it starts\n");
    }
    if (strchr(p->slurm_jobs, ','))
        printf("  Slurm jobs %s (every job that worked on this run, oldest first)\n", p->slurm_jobs);
}

static void report(const char *outdir_arg, const mnw_progress *p, const mnw_bookmark *bm, int bm_damaged)
{
    char a[32], b[32], t1[64], t2[64], word[8300];
    double now = mnw_progress_now(), age = now - p->updated;
    int active = mnw_statfmt_active(p->state);
    mnw_statfmt_word(outdir_arg, word, sizeof word);

    /* is an active run alive? The pid only where it ran (this host) */
    char me[256], pname[64] = "";
    mnw_hostname(me, sizeof me, 0);
    int here = mnw_statfmt_same_host(p->host, me);
    int ps = active && here ? mnw_statfmt_pid(p->pid, pname) : MNW_PID_UNKNOWN;
    int gone = ps == MNW_PID_GONE || ps == MNW_PID_OTHER;
    int stale = active && !gone && age > MNW_PROGRESS_STALE_S;

    printf("mnw run in %s\n", outdir_arg);
    printf("  state      %s%s%s%s\n", p->state, p->message[0] ? ": " : "", p->message,
           gone ? " (as last recorded: it is not running)" : stale ? " (as last recorded: it is not updating)" : "");
    printf("  input      %s\n", p->input);
    if (bm) {
        uint64_t d, t;
        char sh[32];
        mnw_bookmark_progress(bm, &d, &t, sh, sizeof sh);
        if (sh[0]) printf("  shard      %s (the counts below are its own pairs)\n", sh);
    }
    printf("  outdir     %s\n", p->outdir);
    printf("  host       %s, pid %ld\n", p->host, p->pid);
    printf("  started    %s\n", mnw_statfmt_local(p->started, t1));
    if (age >= 0) printf("  updated    %s (%s ago)\n", mnw_statfmt_local(p->updated, t2), mnw_statfmt_dur(age, a));
    else printf("  updated    %s (%s in the future: the clocks differ)\n", mnw_statfmt_local(p->updated, t2), mnw_statfmt_dur(-age, a));
    printf("  elapsed    %s\n", mnw_statfmt_dur(p->elapsed_s, a));
    if (active && p->pairs_total == 0) {
        printf("  done       - (the number of pairs is not known yet: the input is being read)\n");
    } else {
        printf("  done       ");
        mnw_statfmt_done(p->pairs_done, p->pairs_total);
        printf(" %s of %s pairs\n", mnw_statfmt_count(p->pairs_done, a), mnw_statfmt_count(p->pairs_total, b));
    }
    if (p->pruned) {
        char pr[80];
        printf("  pruned     %s\n", mnw_statfmt_pruned(p->pruned, p->pairs_done, pr));
    }
    if (p->pairs_at_start)
        printf("  this run   %s pairs since it resumed at pair %s\n", mnw_statfmt_count(p->pairs_done - p->pairs_at_start, a),
               mnw_statfmt_count(p->pairs_at_start, b));
    printf("  speed      %s pairs/s\n", mnw_statfmt_rate(p->pairs_per_s, a));
    if (active) {
        if (gone) printf("  ETA        - (the run is not running)\n");
        else if (stale && p->eta_s >= 0) printf("  ETA        - (not updating; it was %s)\n", mnw_statfmt_dur(p->eta_s, a));
        else if (p->eta_s >= 0)
            printf("  ETA        %s (about %s)\n", mnw_statfmt_dur(p->eta_s, a), mnw_statfmt_local(p->updated + p->eta_s, t1));
        else printf("  ETA        unknown (no speed measured yet)\n");
    }
    printf("  resumes    %d\n", p->resumes);
    if (p->slurm_job[0]) slurm_lines(p);
    bookmark_lines(p, bm, bm_damaged);
    if (p->nnodes) node_table(p);
    printf("\n");

    if (active) {
        if (here) {
            if (ps == MNW_PID_GONE)
                printf("The run is not running: process %ld is gone from this host (%s): it was killed or "
                       "crashed before it could record that it stopped.\n",
                       p->pid, me);
            else if (ps == MNW_PID_OTHER)
                printf("The run is not running: pid %ld on this host is now '%s', not mnw: the run was killed or "
                       "crashed before it could record that it stopped.\n",
                       p->pid, pname);
            else if (stale)
                printf("The run is not updating: progress.json was last written %s ago, but process %ld is still "
                       "there: it may be hung or stopped (SIGSTOP).\n",
                       mnw_statfmt_dur(age, a), p->pid);
            else
                printf("The run is %s on this host (pid %ld).\n", p->state, p->pid);
        } else {
            printf("The run is on host %s (pid %ld there; this machine is %s), so its process cannot be checked from "
                   "here.\n",
                   p->host, p->pid, me[0] ? me : "?");
            if (stale)
                printf("It is not updating: progress.json was last written %s ago (by this machine's clock): it "
                       "was killed, or the clocks of %s and this machine differ.\n",
                       mnw_statfmt_dur(age, a), p->host);
            else if (age < -MNW_PROGRESS_STALE_S)
                printf("progress.json was written %s in the future by this machine's clock: the clocks of %s and "
                       "this machine differ.\n",
                       mnw_statfmt_dur(-age, a), p->host);
        }
        if (gone) continue_hint("Continue it", 0, word, p->input, bm, bm_damaged);
        else if (stale) continue_hint("If it is not running, continue it", 1, word, p->input, bm, bm_damaged);
    } else if (!strcmp(p->state, "done")) {
        printf("The run is complete: all %s pairs are in the outputs.\n", mnw_statfmt_count(p->pairs_total, a));
    } else if (!strcmp(p->state, "stopped")) {
        printf("The run stopped%s%s.\n", p->message[0] ? ": " : "", p->message);
        continue_hint("Continue it", 0, word, p->input, bm, bm_damaged);
    } else if (!strcmp(p->state, "failed")) {
        printf("The run failed%s%s.\n", p->message[0] ? ": " : "", p->message);
        continue_hint("Once the cause is fixed, continue it", 0, word, p->input, bm, bm_damaged);
    } else {
        printf("The state '%s' is not one this mnw knows (a newer mnw wrote the file?).\n", p->state);
    }
}

/* no progress.json: what the bookmark alone says */
static void report_bookmark(const char *outdir_arg, const char *bpath, const mnw_bookmark *bm, int progress_damaged)
{
    char a[32], b[32], word[8300];
    mnw_statfmt_word(outdir_arg, word, sizeof word);
    printf("mnw run in %s\n", outdir_arg);
    if (progress_damaged)
        printf("  progress   %s is damaged (the error is below)\n", MNW_PROGRESS_FILE);
    else
        printf("  progress   not recorded (no %s: a run by an mnw without it, or one stopped before its first "
               "update)\n",
               MNW_PROGRESS_FILE);
    printf("  bookmark   %s\n", bpath);
    printf("  sequences  %s\n", mnw_statfmt_count(bm->sequences, a));
    uint64_t done, all;
    char sh[32];
    mnw_bookmark_progress(bm, &done, &all, sh, sizeof sh);
    if (sh[0]) printf("  shard      %s (its own pairs below)\n", sh);
    printf("  done       ");
    mnw_statfmt_done(done, all);
    printf(" %s of %s pairs safely written\n", mnw_statfmt_count(done, a), mnw_statfmt_count(all, b));
    if (bm->pruned) {
        char pr[80];
        printf("  pruned     %s\n", mnw_statfmt_pruned(bm->pruned, done, pr));
    }
    printf("\n");
    if (done == all)
        printf("The bookmark says the %s is complete: all %s pairs are in the outputs.\n", sh[0] ? "shard" : "run",
               mnw_statfmt_count(all, a));
    else
        printf("The run is not complete. If no mnw is writing %s now, continue it with: mnw --resume %s\n",
               outdir_arg, word);
}

/* reads path whole into b (a regular file only: never a FIFO, never a
 * loop, lib/runfile.h): 0, or -1 with e set */
static int slurp(const char *path, mnw_buf *b, mnw_err *e)
{
    if (mnw_runfile_slurp(path, MNW_PROGRESS_MAX_BYTES, b, e) == 0) return 0;
    if (b->len > MNW_PROGRESS_MAX_BYTES)
        return mnw_err_set(e, "%s: larger than %u MiB: not a progress file", path, MNW_PROGRESS_MAX_BYTES >> 20);
    return -1;
}

int mnw_status_main(int argc, char **argv)
{
    int json = 0;
    const char *outdir = NULL;
    tzset(); /* local times below follow TZ */
    int opts_done = 0;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (!opts_done && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
            fputs(usage, stdout);
            return 0;
        } else if (!opts_done && !strcmp(a, "--json")) {
            json = 1;
        } else if (!opts_done && !strcmp(a, "--")) {
            opts_done = 1;
        } else if (!opts_done && a[0] == '-' && a[1]) {
            fprintf(stderr, "mnw status: unknown option '%s' (mnw status --help)\n", a);
            return 2;
        } else if (outdir) {
            fprintf(stderr, "mnw status: one OUTDIR only ('%s' and '%s') (mnw status --help)\n", outdir, a);
            return 2;
        } else {
            outdir = a;
        }
    }
    if (!outdir || !*outdir) {
        fprintf(stderr, "mnw status: which OUTDIR? usage: mnw status [--json] OUTDIR\n");
        return 2;
    }
    struct stat st;
    if (stat(outdir, &st) != 0) {
        fprintf(stderr, "mnw: error: %s: %s\n", outdir, strerror(errno));
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "mnw: error: %s: not a directory (mnw status takes the OUTDIR of a run)\n", outdir);
        return 1;
    }
    size_t dl = strlen(outdir);
    char bpath0[8300];
    snprintf(bpath0, sizeof bpath0, "%s/%s", outdir, MNW_BOOKMARK_FILE);
    if (mnw_shardset_present(outdir) && !mnw_runfile_present(bpath0)) return mnw_status_shards(outdir, json);
    while (dl > 1 && outdir[dl - 1] == '/') dl--;
    char ppath[8300], bpath[8300];
    snprintf(ppath, sizeof ppath, "%.*s/%s", (int)dl, outdir, MNW_PROGRESS_FILE);
    snprintf(bpath, sizeof bpath, "%.*s/%s", (int)dl, outdir, MNW_BOOKMARK_FILE);
    /* present: anything there, a FIFO, a loop or a dangling link too (the
     * reader then says what it is) */
    int have_p = mnw_runfile_present(ppath), have_b = mnw_runfile_present(bpath);

    mnw_err e;
    mnw_buf text;
    mnw_buf_init(&text);
    mnw_progress p;
    memset(&p, 0, sizeof p);
    int p_ok = 0, rc = 0;
    char perr[MNW_ERR_MAX] = "";
    if (have_p) {
        if (slurp(ppath, &text, &e) == 0 && mnw_progress_parse(ppath, text.p ? text.p : "", text.len, &p, &e) == 0)
            p_ok = 1;
        else
            snprintf(perr, sizeof perr, "%s", e.msg);
    }
    if (json) {
        if (p_ok) fwrite(text.p, 1, text.len, stdout);
        else if (have_p) fprintf(stderr, "mnw: error: %s\n", perr), rc = 1;
        else fprintf(stderr, "mnw: error: %s: %s\n", ppath, strerror(ENOENT)), rc = 1;
        mnw_buf_free(&text);
        mnw_progress_free(&p);
        return rc;
    }
    mnw_buf_free(&text);

    mnw_bookmark bm;
    mnw_bookmark_init(&bm);
    int b_ok = 0;
    char berr[MNW_ERR_MAX] = "";
    if (have_b) {
        if (mnw_runfile_check(bpath, &e) == 0 && mnw_bookmark_read(bpath, &bm, &e) == 0) b_ok = 1;
        else snprintf(berr, sizeof berr, "%s", e.msg);
    }

    if (!have_p && !have_b) {
        fprintf(stderr,
                "mnw: error: %s: no %s and no %s: not the OUTDIR of an mnw run, or a run that has recorded "
                "nothing yet\n",
                outdir, MNW_PROGRESS_FILE, MNW_BOOKMARK_FILE);
        rc = 1;
    } else if (p_ok) {
        report(outdir, &p, b_ok ? &bm : NULL, have_b && !b_ok);
    } else if (b_ok) {
        report_bookmark(outdir, bpath, &bm, have_p);
    }
    fflush(stdout);
    if (have_p && !p_ok) fprintf(stderr, "mnw: error: %s\n", perr), rc = 1;
    if (have_b && !b_ok) fprintf(stderr, "mnw: error: %s\n", berr), rc = 1;
    mnw_bookmark_free(&bm);
    mnw_progress_free(&p);
    return rc;
}
