/* main.c - mnw: read and validate the input, check OUTDIR, then run the CLD
 * and one NLD in this process (the local link of nld.h). Only main exits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cld.h"
#include "fasta.h"
#include "log.h"
#include "nld.h"
#include "nw_cpu.h"
#include "opts.h"
#include "outdir.h"
#include "writer.h"

typedef struct {
    mnw_cld *cld;
    double t0;
    uint64_t npairs;
} local_ctx;

static int local_next(void *ctx, mnw_range *r) { return mnw_cld_next(((local_ctx *)ctx)->cld, r); }
static int local_deliver(void *ctx, mnw_result *res, mnw_err *e) { return mnw_cld_accept(((local_ctx *)ctx)->cld, res, e); }

static void fmt_secs(char *buf, size_t n, double s)
{
    if (s < 0 || s > 1e9) snprintf(buf, n, "?");
    else if (s < 60) snprintf(buf, n, "%.0fs", s);
    else if (s < 3600) snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(buf, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

static void local_tick(void *ctx)
{
    local_ctx *lc = ctx;
    double dt = mnw_now() - lc->t0;
    uint64_t done = lc->cld->watermark;
    double rate = dt > 0 ? (double)done / dt : 0;
    char eta[32];
    fmt_secs(eta, sizeof eta, rate > 0 ? (double)(lc->npairs - done) / rate : -1);
    mnw_log_progress("%5.1f%%  %llu/%llu pairs  %.0f pairs/s  ETA %s", 100.0 * (double)done / (double)lc->npairs,
                     (unsigned long long)done, (unsigned long long)lc->npairs, rate, eta);
}

static int run(mnw_opts *o, mnw_err *e)
{
    if (!mnw_cpu_isa()) return mnw_err_set(e, "this CPU lacks SSE4.1, which mnw's CPU worker needs");
    if (mnw_outdir_check(o->outdir, o->force, e)) return -1;

    mnw_seqset seqs;
    mnw_seqset_init(&seqs);
    double t_read = mnw_now();
    if (mnw_fasta_read(o->input, &seqs, e)) {
        mnw_seqset_free(&seqs);
        return -1;
    }
    t_read = mnw_now() - t_read;
    if (seqs.n < 2) {
        mnw_err_set(e, "%s: %zu sequence%s; all-against-all needs at least 2", o->input, seqs.n, seqs.n == 1 ? "" : "s");
        mnw_seqset_free(&seqs);
        return -1;
    }
    if (mnw_outdir_create(o->outdir, e)) {
        mnw_seqset_free(&seqs);
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/mnw.log", o->outdir);
    if (o->force) unlink(path);
    if (mnw_log_open(path)) {
        mnw_seqset_free(&seqs);
        return mnw_err_set(e, "%s: cannot create the log file", path);
    }
    int threads = o->threads;
    if (threads <= 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        threads = nc > 0 ? (int)nc : 1;
    }
    uint64_t npairs = (uint64_t)seqs.n * (seqs.n - 1) / 2;
    size_t min_len = seqs.max_len;
    for (size_t i = 0; i < seqs.n; i++)
        if (mnw_seq_len(&seqs, i) < min_len) min_len = mnw_seq_len(&seqs, i);
    LOG_INFO("mnw %s: input %s: %zu sequences of %zu to %zu bases, %llu pairs, read in %.2fs", MNW_VERSION,
             o->input, seqs.n, min_len, seqs.max_len, (unsigned long long)npairs, t_read);
    LOG_INFO("scoring: match %d mismatch %d gap-open %d gap-extend %d%s%s; identity %s%s", o->sc.match, o->sc.mismatch,
             o->sc.gap_open, o->sc.gap_extend, mnw_scoring_affine(&o->sc) ? " (affine)" : " (linear)",
             o->sc.free_ends ? ", free end gaps" : "", mnw_iddef_name(&o->iddef),
             o->iddef.countends ? "" : " (countends=no)");
    LOG_INFO("workers: %d CPU threads, %s (%d lanes of int16), work lists of %llu pairs", threads, mnw_cpu_isa(),
             mnw_cpu_lanes(), (unsigned long long)o->worklist_size);

    mnw_outspec spec;
    memset(&spec, 0, sizeof spec);
    spec.seqs = &seqs;
    spec.iddef = o->iddef;
    spec.cutoff = o->cutoff;
    spec.cigar = o->cigar;
    spec.enabled[MNW_OUT_PAIRS] = 1;
    spec.enabled[MNW_OUT_DIST] = 1;
    spec.enabled[MNW_OUT_PHYLIP] = o->phylip;
    if (o->force) { /* also an earlier run's output this run does not write (a stale dist.phylip) */
        for (int k = 0; k < MNW_NOUT; k++) {
            snprintf(path, sizeof path, "%s/%s", o->outdir, mnw_out_name[k]);
            unlink(path);
        }
    }
    mnw_writer w;
    if (mnw_writer_open(&w, o->outdir, &spec, o->gzip_level, e)) {
        mnw_writer_close(&w, NULL);
        mnw_seqset_free(&seqs);
        return -1;
    }
    mnw_cld cld;
    uint64_t window = 4 * (uint64_t)(threads + 2);
    if (window < 64) window = 64;
    mnw_cld_init(&cld, npairs, o->worklist_size, window, &w);
    mnw_job_spec js = {&spec, &o->sc, o->gzip_level};
    mnw_nld_cfg cfg = {&js, threads, 2};
    local_ctx lc = {&cld, mnw_now(), npairs};
    mnw_nld_link link = {local_next, local_deliver, o->quiet ? NULL : local_tick, &lc};
    int rc = mnw_nld_run(&cfg, &link, e);
    mnw_log_progress_end();
    mnw_err e2;
    if (mnw_writer_close(&w, &e2) && !rc) {
        *e = e2;
        rc = -1;
    }
    double dt = mnw_now() - lc.t0;
    if (!rc) {
        double gcups = (double)cld.cells / dt / 1e9;
        LOG_INFO("done: %llu pairs in %.2fs: %.0f pairs/s, %.2f GCUPS", (unsigned long long)npairs, dt,
                 (double)npairs / dt, gcups);
        if (!o->quiet) {
            printf("mnw: aligned %llu pairs of %zu sequences in %.1f s (%.0f pairs/s, %.2f GCUPS, %d threads)\n",
                   (unsigned long long)npairs, seqs.n, dt, (double)npairs / dt, gcups, threads);
            printf("mnw: results in %s/: pairs.tsv.gz, dist.column.gz%s, mnw.log\n", o->outdir,
                   o->phylip ? ", dist.phylip" : "");
        }
    }
    mnw_cld_free(&cld);
    mnw_seqset_free(&seqs);
    return rc;
}

int main(int argc, char **argv)
{
    mnw_log_init(0, MNW_LOG_INFO);
    mnw_opts o;
    mnw_opts_init(&o);
    mnw_err e;
    int rc = 0;
    if (mnw_opts_parse(&o, argc, argv, &e) || (!o.help && !o.version && mnw_opts_check(&o, &e))) {
        fprintf(stderr, "mnw: %s\n", e.msg);
        rc = 2;
    } else if (o.help) {
        mnw_opts_usage(stdout);
    } else if (o.version) {
        printf("mnw %s\n", MNW_VERSION);
    } else {
        if (o.quiet) mnw_log_set_stderr_level(MNW_LOG_WARN);
        if (run(&o, &e)) {
            mnw_log_set_stderr_level(-1); /* the log file gets it; stderr one clean line */
            LOG_ERR("%s", e.msg);
            fprintf(stderr, "mnw: error: %s\n", e.msg);
            rc = 1;
        }
    }
    mnw_log_close();
    mnw_opts_free(&o);
    return rc;
}
