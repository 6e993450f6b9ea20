/* cldprog.c - see cldprog.h. */
#include "cld/cldprog.h"

#include <limits.h>
#include <stdlib.h>

#include "lib/log.h"
#include "lib/slurm.h"

/* jobs = the last run's list (old) with job appended unless it is already
 * the last entry; the oldest entries go ("...," first) when it would not
 * fit */
static void job_list(char *jobs, size_t cap, const char *old, const char *job)
{
    size_t ol = strlen(old), jl = strlen(job);
    int last = jl && ol >= jl && memcmp(old + ol - jl, job, jl) == 0 && (ol == jl || old[ol - jl - 1] == ',');
    if (!jl || last) {
        snprintf(jobs, cap, "%s", old);
        return;
    }
    size_t k = 0; /* old + k: the entries kept */
    while (k < ol && ol - k + 1 + jl + 4 >= cap) { /* drop the oldest */
        const char *c = memchr(old + k, ',', ol - k);
        k = c ? (size_t)(c - old) + 1 : ol;
        if (ol - k >= 4 && memcmp(old + k, "...,", 4) == 0) k += 4;
    }
    /* "...," if any was dropped, the kept ones, ",", job: fits by the loop */
    size_t n = 0;
    if (k && k < ol) memcpy(jobs, "...,", 4), n = 4;
    memcpy(jobs + n, old + k, ol - k), n += ol - k;
    if (k < ol) jobs[n++] = ',';
    if (n + jl >= cap) jl = cap - 1 - n; /* a job id longer than the field: cut */
    memcpy(jobs + n, job, jl), n += jl;
    jobs[n] = '\0';
}

void mnw_cldprog_init(mnw_cldprog *cp, const mnw_cldnet *net, const int *ngpus, const char *dir, const char *input,
                      uint64_t base, uint64_t pairs_total, int resumed)
{
    memset(cp, 0, sizeof *cp);
    cp->net = net;
    cp->base = base;
    snprintf(cp->dir, sizeof cp->dir, "%s", dir);
    mnw_proglog_init(&cp->log, dir);
    cp->t0 = mnw_now();
    mnw_progress *p = &cp->p;
    int resumes = 0;
    char jobs[sizeof p->slurm_jobs] = "";
    if (resumed) { /* the counts go on from the last run's file */
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, MNW_PROGRESS_FILE);
        mnw_progress old;
        mnw_err e;
        if (!mnw_progress_read(path, &old, &e)) {
            resumes = old.resumes;
            snprintf(jobs, sizeof jobs, "%s", old.slurm_jobs);
        }
        mnw_progress_free(&old);
        resumes++;
    }
    mnw_progress_init(p, net->size);
    p->resumes = resumes;
    char abs[PATH_MAX];
    snprintf(p->input, sizeof p->input, "%s", realpath(input, abs) ? abs : input);
    snprintf(p->outdir, sizeof p->outdir, "%s", realpath(dir, abs) ? abs : dir);
    p->pairs_total = pairs_total;
    p->pairs_at_start = p->pairs_done = net->cld->start - base;
    p->pruned = net->cld->pruned;
    mnw_slurm_job(p->slurm_job, sizeof p->slurm_job, &p->slurm_restarts);
    job_list(p->slurm_jobs, sizeof p->slurm_jobs, jobs, p->slurm_job);
    for (int r = 0; r < net->size; r++) {
        mnw_progress_node *n = &p->nodes[r];
        snprintf(n->host, sizeof n->host, "%s", net->peer[r].host);
        n->workers = net->peer[r].workers;
        n->ngpus = ngpus[r] < MNW_PROGRESS_MAX_DEV - 1 ? ngpus[r] : MNW_PROGRESS_MAX_DEV - 1;
        n->ndev = 1 + n->ngpus;
        snprintf(n->dev[0].name, sizeof n->dev[0].name, "CPU");
        for (int k = 0; k < n->ngpus; k++) snprintf(n->dev[1 + k].name, sizeof n->dev[1 + k].name, "GPU %d", k);
    }
}

void mnw_cldprog_update(mnw_cldprog *cp, const char *state, const char *message, int force)
{
    double now = mnw_now();
    if (strcmp(cp->p.state, state) != 0) force = 1; /* a change of state is written at once */
    if (!force && now - cp->last < MNW_PROGRESS_INTERVAL_S) return;
    cp->last = now;
    mnw_progress *p = &cp->p;
    const mnw_cldnet *net = cp->net;
    mnw_progress_set_state(p, state, message);
    p->updated = mnw_progress_now();
    p->elapsed_s = now - cp->t0;
    p->pairs_done = net->cld->watermark - cp->base;
    p->pruned = net->cld->pruned;
    for (int r = 0; r < net->size; r++) {
        mnw_progress_node *n = &p->nodes[r];
        n->pairs = net->peer[r].pairs;
        n->pruned = net->peer[r].pruned;
        for (int d = 0; d < n->ndev; d++) n->dev[d].pairs = net->peer[r].dev_pairs[d];
    }
    mnw_progress_rates(p);
    mnw_err e;
    if (mnw_progress_write(cp->dir, p, &e) && !cp->warned) {
        LOG_WARN("progress.json not written: %s (the run goes on; the bookmark is what counts)", e.msg);
        cp->warned = 1;
    }
    if (mnw_proglog_add(&cp->log, p, force, &e) < 0 && !cp->log_warned) {
        LOG_WARN("progress.log not written: %s (the run goes on; the history has a gap)", e.msg);
        cp->log_warned = 1;
    }
}

void mnw_cldprog_free(mnw_cldprog *cp) { mnw_progress_free(&cp->p); }
