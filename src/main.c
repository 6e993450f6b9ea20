/* main.c - mnw: start MPI when a launcher started us, read and validate the
 * input on rank 0 (or, for --resume, the bookmark and the input it names),
 * share it with the other ranks, then run the CLD (rank 0) and one NLD per
 * rank. Without mpirun it is one process: rank 0 alone. Only main exits.
 * Exit status: 0 done (or a resumed run that was already complete), 1
 * failure while running, 2 bad command line, config or settings,
 * 3 (MNW_EXIT_STOPPED) stopped by a signal with a valid bookmark, 128+N a
 * second signal N (sig.h). docs/DISTRIBUTED.md and docs/RESUME.md describe
 * the run. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cld/cld.h"
#include "cld/cldnet.h"
#include "cld/cldprog.h"
#include "cld/merge.h"
#include "cld/verify.h"
#include "cld/writer.h"
#include "lib/fmtnum.h"
#include "lib/fasta.h"
#include "lib/log.h"
#include "lib/mpiw.h"
#include "lib/outdir.h"
#include "lib/outlock.h"
#include "lib/outsel.h"
#include "lib/shard.h"
#include "lib/sig.h"
#include "lib/slurm.h"
#include "lib/wire.h"
#include "nld/gpushare.h"
#include "nld/nld.h"
#include "nld/nldnet.h"
#include "nld/nldout.h"
#include "nld/topo.h"
#include "src/like.h"
#include "src/opts.h"
#include "src/report.h"
#include "src/resume.h"
#include "src/status.h"
#include "workers/cpu/nw_cpu.h"
#include "workers/gpu/gpu.h"

/* What every rank tells the others after start-up (MPI_Allgather). */
typedef struct {
    char host[64];
    int32_t workers;
    char isa[48]; /* "avx512 (32 lanes of int16)" */
    int32_t tb_mode;
    int32_t ngpus;     /* GPUs this rank drives */
    int32_t gpu_lists; /* work lists its GPUs keep queued (mnw_nld_gpu_lists) */
} node_info;

/* The first broadcast: did rank 0 read the input, and how big is the job. */
typedef struct {
    int32_t status; /* 0 ok, else the exit status */
    int32_t complete; /* a resumed run that is complete: nothing to do */
    char msg[MNW_ERR_MAX];
    uint64_t blob_len;
} start_head;

typedef struct {
    mnw_cld *cld;
    double t0;
    uint64_t k0, npairs; /* the run's pairs: k0 .. k0 + npairs - 1 */
    int quiet;
    mnw_err err;   /* a checkpoint that failed on a tick */
    int failed;
    mnw_cldprog *prog; /* progress.json */
    const mnw_cldnet *net;
} progress_ctx;

static void fmt_secs(char *buf, size_t n, double s)
{
    if (s < 0 || s > 1e9) snprintf(buf, n, "?");
    else if (s < 60) snprintf(buf, n, "%.0fs", s);
    else if (s < 3600) snprintf(buf, n, "%dm%02ds", (int)s / 60, (int)s % 60);
    else snprintf(buf, n, "%dh%02dm", (int)s / 3600, ((int)s % 3600) / 60);
}

/* Twice a second on rank 0's comm thread: the bookmark when due (results
 * may stall while time passes) and the progress bar on a terminal. */
static void progress_tick(void *ctx)
{
    progress_ctx *pc = ctx;
    if (!pc->failed && mnw_cld_checkpoint(pc->cld, 0, &pc->err)) pc->failed = 1;
    mnw_cldprog_update(pc->prog, pc->net->stop_sig ? "stopping" : "running", NULL, 0);
    if (pc->quiet) return;
    double dt = mnw_now() - pc->t0;
    uint64_t done = pc->cld->watermark - pc->k0, now_done = pc->cld->watermark - pc->cld->start;
    double rate = dt > 0 ? (double)now_done / dt : 0;
    char eta[32], bar[32];
    fmt_secs(eta, sizeof eta, rate > 0 ? (double)(pc->npairs - done) / rate : -1);
    double frac = pc->npairs ? (double)done / (double)pc->npairs : 1.0;
    int fill = (int)(frac * 24);
    for (int k = 0; k < 24; k++) bar[k] = k < fill ? '#' : '.';
    bar[24] = 0;
    mnw_log_progress("[%s] %5.1f%%  %llu/%llu pairs  %.0f pairs/s  ETA %s", bar, 100.0 * frac,
                     (unsigned long long)done, (unsigned long long)pc->npairs, rate, eta);
}

/* This node's machine, loaded once by main before any thread starts. */
static mnw_topo topo;
static int topo_ok;

/* 1 when Slurm allocated fewer CPUs per task than the process binding holds
 * (no cgroup confines the process to its allocation): the worker count
 * follows SLURM_CPUS_PER_TASK, and workers are not bound, since the cores
 * they would be bound to may be another job's (docs/TOPOLOGY.md, Slurm). */
static int slurm_narrower(void)
{
    int sc = mnw_slurm_cpus();
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    return sc > 0 && sc < (topo_ok ? topo.bound_cores : nc > 0 ? (int)nc : 1);
}

static int node_workers(const mnw_opts *o)
{
    if (o->threads > 0) return o->threads;
    if (slurm_narrower()) return mnw_topo_workers_for_cores(mnw_slurm_cpus());
    if (topo_ok) return mnw_topo_default_workers(&topo);
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    return mnw_topo_workers_for_cores(nc > 0 ? (int)nc : 1);
}

static const mnw_topo *node_topo(const mnw_opts *o) { return o->bind && topo_ok && !slurm_narrower() ? &topo : NULL; }

/* This node's GPUs (--gpus), chosen once by main before any thread starts. */
#define MAX_GPUS 64
static int gpu_ids[MAX_GPUS], ngpus;
static const char *gpu_why; /* why none, for the log */

/* The filter's plan (lib/prune.h, --prune), made on every rank from the
 * jobset by broadcast_job before any thread starts; read-only afterwards
 * (every worker's mnw_job_spec points to it). */
static mnw_prune_plan prune_plan;

/* Resolves --gpus against the devices this process sees. 0, or -1 with e. */
static int select_gpus(const mnw_opts *o, mnw_err *e)
{
    ngpus = 0;
    if (!strcmp(o->gpus, "none")) {
        gpu_why = "--gpus none";
        return 0;
    }
    int have = mnw_gpu_count(&gpu_why);
    if (!strcmp(o->gpus, "auto")) {
        for (int k = 0; k < have && k < MAX_GPUS; k++) gpu_ids[ngpus++] = k;
        return 0;
    }
    for (const char *p = o->gpus; *p;) {
        char *end;
        long id = strtol(p, &end, 10);
        if (end == p) return mnw_err_set(e, "--gpus %s: not a list of device ids", o->gpus);
        if (id >= have)
            return mnw_err_set(e, "--gpus %s: GPU %ld asked for, but this node has %d (%s)", o->gpus, id, have,
                               have ? "CUDA_VISIBLE_DEVICES applies" : gpu_why);
        for (int k = 0; k < ngpus; k++)
            if (gpu_ids[k] == id) return mnw_err_set(e, "--gpus %s: GPU %ld named twice", o->gpus, id);
        if (ngpus == MAX_GPUS) return mnw_err_set(e, "--gpus %s: more than %d GPUs", o->gpus, MAX_GPUS);
        gpu_ids[ngpus++] = (int)id;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

static mnw_nld_cfg nld_cfg(const mnw_opts *o, const mnw_job_spec *js, int workers, int slot0, uint64_t wl,
                           int sharers)
{
    int ng = ngpus;
    const char *nogpu = mnw_gpu_scoring_unsupported(js->sc);
    if (ng > 0 && nogpu) { /* issue 41's scorings the GPU kernels do not have yet */
        LOG_WARN("%s: the GPU kernels do not have it yet; this node's %d GPU%s stay%s idle and its CPU workers "
                 "align every pair",
                 nogpu, ng, ng == 1 ? "" : "s", ng == 1 ? "s" : "");
        ng = 0;
    }
    mnw_nld_cfg cfg = {js, workers, o->prefetch, node_topo(o), slot0, o->tb_mode,
                       ng, gpu_ids, o->tb_device, o->gpu_batch, mnw_gpu_kernel_parse(o->gpu_kernel),
                       o->cpu_align, wl, sharers};
    return cfg;
}

/* Ranks of this host that may drive the same GPUs as this one (itself
 * counted; nld/gpushare.h): they split each GPU's memory (mpirun -np 4 on a
 * one-GPU host; at 75% each of what was free, the later ranks found none).
 * Set by share_out_gpus. */
static int gpu_sharers = 1;
static char gpu_share_note[160]; /* for the log: the block this rank took */

/* (MPI-collective with more than one rank.) Ranks of one host that see the
 * same devices with --gpus auto take a block of them each
 * (nld/gpushare.h): gpu_ids and ngpus become this rank's block. */
static void share_out_gpus(const mnw_opts *o)
{
    if (mnw_mpi_size() < 2) return;
    mnw_gpushare_peer me;
    memset(&me, 0, sizeof me);
    snprintf(me.host, sizeof me.host, "%s", mnw_mpi_host());
    me.ndev = ngpus;
    if (!strcmp(o->gpus, "auto") && ngpus > 0) {
        char ids[MAX_GPUS][32];
        const char *idp[MAX_GPUS];
        int ok = 1;
        for (int k = 0; k < ngpus && ok; k++) {
            ok = mnw_gpu_busid_of(gpu_ids[k], ids[k], sizeof ids[k]) == 0;
            idp[k] = ids[k];
        }
        if (ok) me.devset = mnw_gpushare_hash(idp, ngpus);
    }
    const int size = mnw_mpi_size();
    mnw_gpushare_peer *all = mnw_xcalloc((size_t)size, sizeof *all);
    CHECK_MPI(MPI_Allgather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, MPI_COMM_WORLD));
    int first = 0, count = ngpus;
    mnw_gpushare_block(all, size, mnw_mpi_rank(), &first, &count, &gpu_sharers);
    if (me.devset && (first != 0 || count != ngpus)) {
        int peers = 0;
        for (int r = 0; r < size; r++) peers += all[r].devset == me.devset && !strcmp(all[r].host, me.host);
        if (count == 1)
            snprintf(gpu_share_note, sizeof gpu_share_note, "; device %d of the %d that %d ranks of this host see (--gpus auto shares them out)",
                     gpu_ids[first], ngpus, peers);
        else
            snprintf(gpu_share_note, sizeof gpu_share_note, "; devices %d-%d of the %d that %d ranks of this host see (--gpus auto shares them out)",
                     gpu_ids[first], gpu_ids[first + count - 1], ngpus, peers);
        memmove(gpu_ids, gpu_ids + first, (size_t)count * sizeof *gpu_ids);
        ngpus = count;
    }
    free(all);
}

/* Ranks sharing a host take consecutive cores: the first core slot of
 * this rank's workers. */
static int first_slot(const node_info *nodes, int rank)
{
    int slot = 0;
    for (int r = 0; r < rank; r++)
        if (!strcmp(nodes[r].host, nodes[rank].host)) slot += nodes[r].workers;
    return slot;
}

/* The file names of the outputs in mask, joined by ", ", in buf. */
static const char *outputs_files(int mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < MNW_NOUT; k++)
        if (mnw_outsel_has(mask, k)) {
            int w = snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", mnw_out_name[k]);
            if (w > 0 && (size_t)w < cap - n) n += (size_t)w;
        }
    return buf;
}

static void jobset_from_opts(const mnw_opts *o, mnw_jobset *js)
{
    memset(js, 0, sizeof *js);
    js->sc = o->sc;
    js->iddef = o->iddef;
    js->cutoff = o->cutoff;
    js->cigar = o->cigar;
    js->outputs = mnw_opts_outputs(o);
    js->gzip_level = o->gzip_level;
    js->worklist_size = o->worklist_size;
    js->rank_timeout = o->rank_timeout;
    js->cutoff_scope = o->cutoff_scope;
    js->prune = (int32_t)o->prune;
    js->userfields = o->userfields;
    /* one process without MPI writes its outputs itself whatever was asked */
    js->output_via = !mnw_mpi_active()                 ? MNW_VIA_RANK0
                     : o->output_via != MNW_VIA_AUTO ? o->output_via
                     : mnw_mpi_size() > 1            ? MNW_VIA_MPIIO
                                                     : MNW_VIA_RANK0;
}

static void outspec_from_jobset(const mnw_jobset *js, const mnw_seqset *seqs, mnw_outspec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->seqs = seqs;
    spec->iddef = js->iddef;
    spec->cutoff = js->cutoff;
    spec->cigar = js->cigar;
    spec->half = js->sc.half;
    spec->cutoff_scope = js->cutoff_scope;
    spec->userfields = js->userfields;
    for (int k = 0; k < MNW_NOUT; k++) spec->enabled[k] = mnw_outsel_has(js->outputs, k);
}

/* The filter's plan of the job (issue 39): on or off and why, from the
 * job-wide settings, so every rank makes the same. 0, or -1 with e set for
 * --prune yes where the filter cannot be used. */
static int prune_plan_of(const mnw_jobset *js, mnw_prune_plan *p, mnw_err *e)
{
    return mnw_prune_plan_make(&js->iddef, &js->sc, js->cutoff,
                               mnw_opts_unfiltered(js->outputs, js->cutoff, js->cutoff_scope),
                               (mnw_prune_mode)js->prune, p, e);
}

/* Rank 0, once the run's settings are known (a resumed run's from its
 * bookmark): refuses --prune yes where the filter cannot be used, before
 * anything is written. 0, or -1 with e set. */
static int prune_gate(const mnw_opts *o, mnw_err *e)
{
    mnw_jobset js;
    mnw_prune_plan p;
    jobset_from_opts(o, &js);
    return prune_plan_of(&js, &p, e);
}

/* Counts mode (issue 20, docs/DECISIONS.md): the figures are counted along
 * the path and no runs are kept, unless --counts no or an output needs a
 * CIGAR (then --counts yes was refused by mnw_opts_check_counts). Returns the
 * table of the identity definition in t, or NULL for runs. */
static const mnw_eqtab *counts_table(const mnw_opts *o, const mnw_jobset *js, mnw_eqtab *t)
{
    if (o->counts == 0 || mnw_outsel_needs_runs(js->outputs, js->cigar)) return NULL;
    mnw_eqtab_of(&js->iddef, t);
    return t;
}

/* What rank 0 knows of the run before it starts. */
typedef struct {
    int resumed;
    mnw_bookmark bm; /* as read from OUTDIR (a resumed run) */
    char bmpath[4200];
    uint64_t bytes[MNW_NOUT]; /* each output's length at the bookmark */
    mnw_bookmark tmpl;        /* this run's bookmark, but for what the CLD fills in */
    mnw_outlock lock;         /* OUTDIR's lock, held until the end */
    mnw_range range;          /* the pairs this run aligns (a shard's, shard.h, or all) */
} run_start;

/* Rank 0, --resume: reads the bookmark and takes its settings (refusing a
 * different one given explicitly). 0, or -1 with e set. */
static int resume_settings(mnw_opts *o, run_start *rs, mnw_err *e)
{
    struct stat sb;
    if (stat(o->resume, &sb)) return mnw_err_set(e, "--resume %s: %s", o->resume, strerror(errno));
    if (!S_ISDIR(sb.st_mode)) return mnw_err_set(e, "--resume %s: not a directory", o->resume);
    snprintf(rs->bmpath, sizeof rs->bmpath, "%s/%s", o->resume, MNW_BOOKMARK_FILE);
    if (access(rs->bmpath, F_OK))
        return mnw_err_set(e, "%s: %s: %s holds no run to resume (a run writes its first bookmark once its input is "
                              "read; start it again with -i and --force)",
                           rs->bmpath, strerror(errno), o->resume);
    if (mnw_bookmark_read(rs->bmpath, &rs->bm, e)) return -1;
    if (mnw_resume_apply(o, &rs->bm, rs->bmpath, e) || mnw_scoring_check(&o->sc, e)) return -2;
    rs->resumed = 1;
    return 0;
}

/* The bookmark of this run, but for the watermark and output lengths the
 * CLD fills in, and the pairs it aligns into *range. 0, or -1 with e set. */
static int bookmark_template(const mnw_opts *o, const mnw_seqset *seqs, mnw_bookmark *b, mnw_range *range, mnw_err *e)
{
    *range = mnw_shard_range(seqs, &o->shard, o->worklist_size);
    mnw_bookmark_input_hash(seqs, b->input_hash);
    b->sequences = seqs->n;
    b->pairs = mnw_npairs(seqs->n);
    char abs[PATH_MAX];
    if (mnw_resume_put_settings(o, realpath(o->input, abs) ? abs : o->input, b, e)) return -1;
    if (!o->shard.count) return 0;
    char v[48];
    snprintf(v, sizeof v, "%llu %llu", (unsigned long long)range->k0, (unsigned long long)(range->k0 + range->count));
    return mnw_bookmark_set(b, "shard-range", v, e);
}

static void run_start_free(run_start *rs)
{
    mnw_bookmark_free(&rs->bm);
    mnw_bookmark_free(&rs->tmpl);
    mnw_outlock_release(&rs->lock);
}

/* After the lock is taken: OUTDIR is still as the checks found it (another
 * mnw may have started, run and ended while this one read its input). */
static int recheck(const mnw_opts *o, const run_start *rs, mnw_err *e)
{
    if (!rs->resumed) return o->force ? 0 : mnw_outdir_check(o->outdir, 0, e);
    mnw_bookmark now;
    if (mnw_bookmark_read(rs->bmpath, &now, e)) return -1;
    int same = now.watermark == rs->bm.watermark && now.nout == rs->bm.nout;
    for (int k = 0; same && k < now.nout; k++) same = now.out_bytes[k] == rs->bm.out_bytes[k];
    mnw_bookmark_free(&now);
    if (!same)
        return mnw_err_set(e, "%s: the run moved on while this mnw read its input (another mnw ran on %s meanwhile); "
                              "start this one again",
                           rs->bmpath, o->outdir);
    return 0;
}

/* Before a --resume or --force start changes anything: nothing planted at
 * the names of mnw's files in OUTDIR (a symbolic link, FIFO, directory,
 * device, or a hard link to a file elsewhere); --force removes what is at
 * the names it replaces (a link, never followed), a directory excepted. */
static int check_planted(const mnw_opts *o, mnw_err *e)
{
    const char *names[MNW_NOUT + 10];
    int replaced[MNW_NOUT + 10], n = 0;
    for (int k = 0; k < MNW_NOUT; k++) replaced[n] = 1, names[n++] = mnw_out_name[k];
    static const char *const kept[] = {MNW_BOOKMARK_FILE, MNW_PROGRESS_FILE, MNW_PROGLOG_FILE, "mnw.log"};
    static const char *const temps[] = {"." MNW_BOOKMARK_FILE ".tmp", "." MNW_PROGRESS_FILE ".tmp",
                                        MNW_PROGLOG_FILE ".tmp", MNW_NLDOUT_TOKEN};
    for (int k = 0; k < 4; k++) replaced[n] = 1, names[n++] = kept[k];
    for (int k = 0; k < 4; k++) replaced[n] = 0, names[n++] = temps[k];
    if (!o->force)
        for (int k = 0; k < n; k++) replaced[k] = 0;
    return mnw_outdir_check_names(o->outdir, names, replaced, n, e);
}

/* Rank 0, before anything is shared. Every check comes first, and changes
 * nothing: a live mnw on OUTDIR (its lock), OUTDIR (or its bookmark and
 * outputs), the input, this run's bookmark. Then the changes: OUTDIR
 * created, its lock taken, an earlier run's files removed (--force), the
 * log opened. 0; 1 when a resumed run is complete already (nothing is
 * touched); -1 with e set, -2 for a setting that contradicts the
 * bookmark or --prune yes where the filter cannot be used, or -3 (e set)
 * when a stop signal came while the input was read (nothing is touched). */
static int read_input(mnw_opts *o, mnw_seqset *seqs, double *t_read, run_start *rs, mnw_err *e)
{
    if (mnw_outlock_probe(o->outdir, e)) return -1; /* refused at once */
    if ((o->resume || o->force) && check_planted(o, e)) return -1;
    if (o->resume) {
        int r = resume_settings(o, rs, e);
        if (r) return r;
        if (mnw_opts_check_counts(o, e) || mnw_opts_check_userout(o, 1, e))
            return -1; /* the resumed job's outputs are known now */
        if (prune_gate(o, e)) return -2;
        mnw_sig_bookmark_state(MNW_SIG_BM_WRITTEN);
        mnw_oom_set_state(MNW_OOM_RESUME, o->outdir); /* out of memory from here: resume */
        /* before anything is written (the log included) */
        mnw_outspec spec;
        memset(&spec, 0, sizeof spec);
        for (int k = 0; k < MNW_NOUT; k++) spec.enabled[k] = mnw_outsel_has(mnw_opts_outputs(o), k);
        if (mnw_resume_check_outputs(o->outdir, &rs->bm, &spec, rs->bytes, e)) return -1;
        uint64_t k0, k1;
        if (mnw_bookmark_range(&rs->bm, rs->bmpath, &k0, &k1, e)) return -1;
        if (rs->bm.watermark == k1) return 1;
    } else if (prune_gate(o, e)) {
        return -2;
    } else if (mnw_outdir_check(o->outdir, o->force, e)) {
        char bm[4200];
        snprintf(bm, sizeof bm, "%s/%s", o->outdir, MNW_BOOKMARK_FILE);
        if (!o->force && !access(bm, F_OK))
            mnw_err_add(e, "; it holds a run (%s): continue it with mnw --resume %s", MNW_BOOKMARK_FILE, o->outdir);
        return -1;
    }
    *t_read = mnw_now();
    int fr = mnw_fasta_read_until(o->input, seqs, mnw_sig_pending, e);
    if (fr == -2) { /* a stop signal while the input was read (a FIFO, a slow pipe) */
        char at[MNW_ERR_MAX];
        snprintf(at, sizeof at, "%s", e->msg);
        if (rs->resumed)
            return mnw_err_set(e, "%s while reading the input (%s): nothing was changed; continue with mnw --resume %s",
                               mnw_sig_name(mnw_sig_pending()), at, o->outdir), -3;
        return mnw_err_set(e, "%s while reading the input (%s), before the run began: nothing was written; start it "
                              "again with the same command",
                           mnw_sig_name(mnw_sig_pending()), at), -3;
    }
    if (fr) {
        if (rs->resumed && access(o->input, F_OK))
            mnw_err_add(e, " (the input of the run in %s; give its new place with -i)", o->outdir);
        return -1;
    }
    *t_read = mnw_now() - *t_read;
    if (seqs->n < 2)
        return mnw_err_set(e, "%s: %zu sequence%s; all-against-all needs at least 2", o->input, seqs->n,
                           seqs->n == 1 ? "" : "s");
    if (rs->resumed) {
        char h[33];
        mnw_bookmark_input_hash(seqs, h);
        if (strcmp(h, rs->bm.input_hash) || rs->bm.sequences != seqs->n)
            return mnw_err_set(e, "%s: these sequences are not the input of the run in %s (%zu sequences, input-hash "
                                  "%s; the bookmark says %llu, %s): a resumed run needs the same input",
                               o->input, o->outdir, seqs->n, h, (unsigned long long)rs->bm.sequences,
                               rs->bm.input_hash);
    }
    /* a path the bookmark cannot hold is refused here, before any change */
    if (bookmark_template(o, seqs, &rs->tmpl, &rs->range, e)) return -1;
    if (rs->resumed) { /* the shard's pairs, as this mnw computes them, are the bookmark's */
        uint64_t a0, a1, b0 = rs->range.k0, b1 = rs->range.k0 + rs->range.count;
        if (mnw_bookmark_range(&rs->bm, rs->bmpath, &a0, &a1, e)) return -1;
        if (a0 != b0 || a1 != b1)
            return mnw_err_set(e, "%s: the shard's pairs are %llu .. %llu, and this mnw makes them %llu .. %llu: "
                                  "resume it with the mnw that started it",
                               rs->bmpath, (unsigned long long)a0, (unsigned long long)a1, (unsigned long long)b0,
                               (unsigned long long)b1);
    }

    /* the changes */
    if (!rs->resumed && mnw_outdir_create(o->outdir, e)) return -1;
    if (mnw_outlock_take(&rs->lock, o->outdir, e) || recheck(o, rs, e)) return -1;
    char path[4200];
    if (o->force) { /* an earlier run's files, those this run does not write too (a stale dist.phylip) */
        static const char *const extra[] = {MNW_BOOKMARK_FILE, MNW_PROGRESS_FILE, MNW_PROGLOG_FILE, "mnw.log"};
        const int nextra = (int)(sizeof extra / sizeof extra[0]);
        for (int k = 0; k < MNW_NOUT + nextra; k++) {
            snprintf(path, sizeof path, "%s/%s", o->outdir, k < MNW_NOUT ? mnw_out_name[k] : extra[k - MNW_NOUT]);
            unlink(path);
        }
    }
    snprintf(path, sizeof path, "%s/mnw.log", o->outdir);
    if (mnw_log_open(path, e)) return -1;
    if (rs->lock.advisory)
        LOG_WARN("%s/%s: this file system has no flock (%s): the lock is advisory; make sure no other mnw uses %s",
                 o->outdir, MNW_LOCK_FILE, rs->lock.why, o->outdir);
    return 0;
}

/* Rank 0's run, as its steps build it up. */
typedef struct {
    const mnw_opts *o;
    const mnw_jobset *jset;
    const mnw_seqset *seqs;
    const node_info *nodes;
    int size;
    run_start *rs;
    uint64_t k0, npairs; /* this run's pairs: k0 .. k0 + npairs - 1 */
    uint64_t all_workers;
    mnw_outspec spec;
    mnw_writer w;
    mnw_cld cld;
    int mpiio;
    mnw_nldout nout;
    mnw_cldnet net;
    mnw_cldprog prog;
    progress_ctx pc;
} rank0_run;

/* Step 1: the job, in the log: the input, the shard, the scoring, the
 * outputs and every rank. */
static void log_job(const rank0_run *R, double t_read)
{
    const mnw_opts *o = R->o;
    const mnw_seqset *seqs = R->seqs;
    const uint64_t allpairs = mnw_npairs(seqs->n);
    size_t min_len = seqs->max_len;
    for (size_t i = 0; i < seqs->n; i++)
        if (mnw_seq_len(seqs, i) < min_len) min_len = mnw_seq_len(seqs, i);
    LOG_INFO("mnw %s: input %s: %zu sequences of %zu to %zu bases, %llu pairs, read in %.2fs", MNW_VERSION,
             o->input, seqs->n, min_len, seqs->max_len, (unsigned long long)allpairs, t_read);
    if (o->shard.count) {
        char sh[24];
        if (R->npairs)
            LOG_INFO("shard %s: pairs %llu to %llu, %llu of the %llu (%.2f%%; the shards' boundaries are balanced by "
                     "cells, at work-list boundaries)",
                     mnw_shard_format(&o->shard, sh, sizeof sh), (unsigned long long)R->k0,
                     (unsigned long long)(R->k0 + R->npairs - 1), (unsigned long long)R->npairs,
                     (unsigned long long)allpairs, 100.0 * (double)R->npairs / (double)allpairs);
        else
            LOG_INFO("shard %s: no pair (more shards than work lists of %llu pairs); its outputs are empty",
                     mnw_shard_format(&o->shard, sh, sizeof sh), (unsigned long long)o->worklist_size);
    }
    /* the values as the options take them (half points: x / 2, score.h) */
    char sv[6][24], endg[96] = "";
    const int sx[6] = {o->sc.match, o->sc.mismatch, o->sc.gap_open, o->sc.gap_extend, o->sc.end_open, o->sc.end_extend};
    for (int k = 0; k < 6; k++) sv[k][mnw_fmt_score(sv[k], sx[k], o->sc.half)] = 0;
    if (o->sc.end_gaps) snprintf(endg, sizeof endg, ", end gaps open %s extend %s", sv[4], sv[5]);
    LOG_INFO("scoring: match %s mismatch %s gap-open %s gap-extend %s%s%s%s, ambiguity codes %s, tie rule %s; "
             "identity %s%s%s%s",
             sv[0], sv[1], sv[2], sv[3], mnw_scoring_affine(&o->sc) ? " (affine)" : " (linear)",
             o->sc.free_ends ? ", free end gaps" : "", endg,
             o->sc.amb == MNW_AMB_MOTHUR     ? "as mothur's N (two match)"
             : o->sc.amb == MNW_AMB_EDNAFULL ? "by EDNAFULL"
                                             : "0",
             o->sc.tie == MNW_TIE_MOTHUR   ? "D before I (mothur's, vsearch's)"
             : o->sc.tie == MNW_TIE_NEEDLE ? "needle's"
                                           : "mnw's",
             mnw_iddef_name(&o->iddef), o->iddef.countends ? "" : " (countends=no)",
             o->like != MNW_LIKE_MNW ? "; --like " : "", o->like != MNW_LIKE_MNW ? mnw_like_name(o->like) : "");
    char files[128];
    LOG_INFO("outputs: %s%s; %s", outputs_files(mnw_opts_outputs(o), files, sizeof files),
             o->cigar && mnw_outsel_has(mnw_opts_outputs(o), MNW_OUT_PAIRS) ? " (with CIGARs)" : "",
             mnw_outsel_needs_runs(mnw_opts_outputs(o), o->cigar) ? "alignments kept as runs (an output needs the CIGAR)"
             : o->counts == 0      ? "alignments kept as runs (--counts no)"
                                   : "counts mode: the figures counted along each path, no runs kept");
    char gz[160], lb[8], sb[8];
    size_t gn = 0;
    gz[0] = 0;
    for (int k = 0; k < MNW_NOUT; k++)
        if (mnw_out_gzip[k] && mnw_outsel_has(mnw_opts_outputs(o), k)) {
            const int lv = mnw_outsel_gzip_level(o->gzip_level);
            int w = lv == MNW_GZIP_FAST
                        ? snprintf(gz + gn, sizeof gz - gn, "%s%s fast (libdeflate %d)", gn ? ", " : "",
                                   mnw_out_name[k], MNW_GZIP_FAST_LEVEL)
                        : snprintf(gz + gn, sizeof gz - gn, "%s%s %s (libdeflate)", gn ? ", " : "", mnw_out_name[k],
                                   mnw_gzip_level_name(lv, lb));
            if (w > 0 && (size_t)w < sizeof gz - gn) gn += (size_t)w;
        }
    if (gn) LOG_INFO("gzip levels (--gzip-level %s): %s", mnw_gzip_level_name(o->gzip_level, sb), gz);
    LOG_INFO("filter before the DP: %s", prune_plan.why);
    for (int r = 0; r < R->size; r++) {
        const node_info *n = &R->nodes[r];
        LOG_INFO("rank %d (%s): %d CPU workers, %s, trace-back %s; %d GPU%s", r, n->host, n->workers, n->isa,
                 n->tb_mode ? "by the trace-back thread (--traceback-thread)" : "in the workers", n->ngpus,
                 n->ngpus == 1 ? "" : "s");
    }
}

/* Step 2: the CLD's reorder window, in work lists: room for every node to
 * keep its queue full twice over, and per GPU room for what it finishes
 * while a CPU worker is still on an older list (a GPU does a CPU worker's
 * list in a few ms: without it the oldest CPU list would hold the GPUs
 * back; docs/GPU.md). Counts the workers of every rank too. */
static uint64_t reorder_window(rank0_run *R)
{
    const mnw_opts *o = R->o;
    uint64_t all_gpu_lists = 0, all_gpus = 0;
    R->all_workers = 0;
    for (int r = 0; r < R->size; r++) {
        R->all_workers += (uint64_t)R->nodes[r].workers;
        all_gpu_lists += (uint64_t)R->nodes[r].gpu_lists;
        all_gpus += (uint64_t)R->nodes[r].ngpus;
    }
    uint64_t window = o->reorder_window > 0
                          ? (uint64_t)o->reorder_window
                          : 2 * (R->all_workers + all_gpu_lists + (uint64_t)R->size * (uint64_t)(o->prefetch + 1)) +
                                MNW_GPU_WINDOW_LISTS * all_gpus;
    if (o->reorder_window <= 0 && window < 64) window = 64;
    LOG_INFO("%d rank%s, %llu CPU workers in all; work lists of %llu pairs, reorder window %llu lists", R->size,
             R->size == 1 ? "" : "s", (unsigned long long)R->all_workers, (unsigned long long)o->worklist_size,
             (unsigned long long)window);
    return window;
}

/* Step 3: the outputs (new, or cut back to a resumed run's bookmark) and
 * the CLD over them, with its first bookmark. 0, or -1 with e set (nothing
 * left open). */
static int open_cld(rank0_run *R, uint64_t window, mnw_err *e)
{
    const mnw_opts *o = R->o;
    outspec_from_jobset(R->jset, R->seqs, &R->spec);
    uint64_t start = 0;
    int wrc;
    if (R->rs->resumed) {
        wrc = mnw_writer_reopen(&R->w, o->outdir, &R->spec, R->rs->bytes, e);
        start = R->rs->bm.watermark;
        if (!wrc)
            LOG_INFO("resuming the run in %s at pair %llu of %llu (%.1f%% done); outputs cut to the bookmark's "
                     "lengths",
                     o->outdir, (unsigned long long)start, (unsigned long long)(R->k0 + R->npairs),
                     R->npairs ? 100.0 * (double)(start - R->k0) / (double)R->npairs : 100.0);
    } else {
        start = R->k0;
        /* the pairs.tsv header: in the whole run's first bytes, so the first shard's */
        wrc = mnw_writer_open(&R->w, o->outdir, &R->spec, R->jset->gzip_level,
                              o->shard.count == 0 || o->shard.index == 1, e);
    }
    if (wrc) {
        MNW_IGNORE(mnw_writer_close(&R->w, NULL));
        return -1;
    }
    mnw_cld_init(&R->cld, R->k0 + R->npairs, o->worklist_size, window, &R->w);
    mnw_cld_start_at(&R->cld, start, R->rs->resumed ? R->rs->bm.pruned : 0); /* the count goes on from the bookmark */
    mnw_cld_keep_bookmark(&R->cld, o->outdir, &R->rs->tmpl, o->bookmark_every);
    if (!R->rs->resumed && mnw_cld_checkpoint(&R->cld, 1, e)) {
        MNW_IGNORE(mnw_writer_close(&R->w, NULL));
        mnw_cld_free(&R->cld);
        return -1;
    }
    mnw_sig_bookmark_state(MNW_SIG_BM_WRITTEN);
    mnw_oom_set_state(MNW_OOM_RESUME, o->outdir); /* out of memory from here: resume */
    return 0;
}

/* Step 4: who writes the outputs (--output-via). Through MPI-IO every rank
 * opens them (MPI-collective, mnw_nldout_join) and rank 0 places the lists.
 * 0; -1 with e set; -2 with e set when the start failed on some rank (every
 * rank knows; the CLD is freed). */
static int choose_writers(rank0_run *R, mnw_err *e)
{
    const mnw_opts *o = R->o;
    R->mpiio = R->jset->output_via == MNW_VIA_MPIIO;
    if (R->mpiio) {
        uint64_t base[MNW_NOUT];
        for (int k = 0; k < MNW_NOUT; k++) base[k] = R->w.sum[k].block;
        if (mnw_cld_place_mode(&R->cld, e)) {
            mnw_cld_free(&R->cld);
            return -1;
        }
        if (mnw_nldout_join(&R->nout, o->outdir, R->w.enabled, base, e)) { /* every rank knows: no abort */
            mnw_err_add(e, "; nothing was aligned (continue with: mnw --resume %s --output-via rank0)", o->outdir);
            mnw_cld_free(&R->cld);
            return -2;
        }
        LOG_INFO("outputs: every rank writes its own results into %s through MPI-IO (--output-via mpiio); rank 0 "
                 "places them and receives their sizes only",
                 o->outdir);
    } else if (R->size > 1) {
        LOG_INFO("outputs: rank 0 receives every result and writes them (--output-via rank0)");
    }
    return 0;
}

/* Step 5: the CLD's loop, on the comm thread of rank 0's own NLD: the
 * network side (mnw_cldnet) serves the other ranks, progress.json and the
 * log follow the run. 0 (done or stopped), or -1 with e set. */
static int run_cld_loop(rank0_run *R, mnw_err *e)
{
    const mnw_opts *o = R->o;
    const int size = R->size;
    mnw_cldnet_peer *peers = mnw_xcalloc((size_t)size, sizeof *peers);
    for (int r = 0; r < size; r++) {
        snprintf(peers[r].host, sizeof peers[r].host, "%s", R->nodes[r].host);
        peers[r].workers = R->nodes[r].workers;
    }
    mnw_cldnet_init(&R->net, &R->cld, size, peers, (double)o->rank_timeout, o->stop_grace);
    free(peers);
    if (R->mpiio) mnw_cldnet_write_own(&R->net, &R->nout);
    int *node_gpus = mnw_xcalloc((size_t)size, sizeof *node_gpus);
    for (int r = 0; r < size; r++) node_gpus[r] = R->nodes[r].ngpus;
    mnw_cldprog_init(&R->prog, &R->net, node_gpus, o->outdir, o->input, R->k0, R->npairs, R->rs->resumed);
    free(node_gpus);
    mnw_cldprog_update(&R->prog, "running", NULL, 1);
    R->pc = (progress_ctx){&R->cld, mnw_now(), R->k0, R->npairs, o->quiet, {{0}}, 0, &R->prog, &R->net};
    R->net.tick = progress_tick;
    R->net.tick_ctx = &R->pc;
    mnw_eqtab eqt;
    mnw_job_spec js = {&R->spec, &R->jset->sc, R->jset->gzip_level, counts_table(o, R->jset, &eqt), &prune_plan};
    mnw_nld_cfg cfg = nld_cfg(o, &js, R->nodes[0].workers, first_slot(R->nodes, 0), R->jset->worklist_size,
                              gpu_sharers);
    mnw_nld_link link = mnw_cldnet_link(&R->net, size > 1 ? 0.0005 : 0.25);
    int rc = mnw_nld_run(&cfg, &link, e);
    if (rc == MNW_NLD_DROPPED) rc = 0;
    if (!rc && size > 1) rc = mnw_cldnet_finish(&R->net, mnw_cld_done(&R->cld) ? 0 : MNW_EXIT_STOPPED, e);
    if (!rc && R->pc.failed) {
        *e = R->pc.err;
        rc = -1;
    }
    mnw_log_progress_end();
    return rc;
}

/* Step 6: closes the outputs and writes the last bookmark (after an error
 * too, a lost rank, when it can). Returns rc, or -1 with e set when rc was 0
 * and closing failed. */
static int close_outputs(rank0_run *R, int rc, mnw_err *e)
{
    mnw_err e2;
    if (R->mpiio) {
        mnw_nldout_log(&R->nout);
        if (mnw_nldout_close(&R->nout, &e2) && !rc) {
            *e = e2;
            rc = -1;
        }
    }
    if (mnw_cld_settle(&R->cld, &e2) && !rc) { /* the bookmark thread joined: its fsync uses the files */
        *e = e2;
        rc = -1;
    }
    if (mnw_writer_close(&R->w, &e2) && !rc) {
        *e = e2;
        rc = -1;
    }
    if (mnw_cld_checkpoint(&R->cld, 1, &e2)) {
        if (!rc) *e = e2;
        else LOG_WARN("no last bookmark: %s (the one before stays)", e2.msg);
        rc = -1;
    }
    if (!R->mpiio)
        LOG_INFO("bookmarks: %llu written, %llu of them in their own thread (fsync, check and bookmark file: %.2f s "
                 "in all, the longest %.2f s, while work lists went out; waited for at the last: %.2f s); the others "
                 "%.2f s on the comm thread (the last %.2f s)",
                 (unsigned long long)R->cld.bm_writes, (unsigned long long)R->cld.dur.n, R->cld.dur.total_s,
                 R->cld.dur.longest_s, R->cld.dur.waited_s, R->cld.here_s, R->cld.here_last_s);
    return rc;
}

/* Step 7: how the run ended, in progress.json, the log and on the terminal.
 * Returns rc, or 1 when the run stopped before its end. */
static int report_end(rank0_run *R, int rc, const mnw_err *e)
{
    const mnw_opts *o = R->o;
    const mnw_cld *cld = &R->cld;
    double dt = mnw_now() - R->pc.t0;
    uint64_t ran = cld->watermark - cld->start;
    char why[MNW_ERR_MAX + 64];
    if (rc) mnw_cldprog_update(&R->prog, "failed", e->msg, 1);
    else if (mnw_cld_done(cld)) mnw_cldprog_update(&R->prog, "done", NULL, 1);
    else {
        snprintf(why, sizeof why, "stopped by %s", mnw_sig_name(R->net.stop_sig));
        mnw_cldprog_update(&R->prog, "stopped", why, 1);
    }
    mnw_cldprog_free(&R->prog);
    if (!rc && !mnw_cld_done(cld)) {
        rc = 1;
        const uint64_t written = cld->watermark - R->k0; /* of this run's pairs (a shard's) */
        const double pct = R->npairs ? 100.0 * (double)written / (double)R->npairs : 100.0;
        LOG_WARN("stopped (%s): %llu of %llu pairs written (%.1f%%), %llu in this run; bookmark %s/%s",
                 mnw_sig_name(R->net.stop_sig), (unsigned long long)written, (unsigned long long)R->npairs, pct,
                 (unsigned long long)ran, o->outdir, MNW_BOOKMARK_FILE);
        fprintf(stderr, "mnw: stopped by %s: %llu of %llu pairs written (%.1f%%); continue with: mnw --resume %s\n",
                mnw_sig_name(R->net.stop_sig), (unsigned long long)written, (unsigned long long)R->npairs, pct,
                o->outdir);
    } else if (!rc) {
        double gcups = (double)cld->cells / dt / 1e9;
        const uint64_t pruned = cld->pruned - cld->start_pruned; /* of this run's pairs (ran) */
        mnw_cldnet_log_ranks(&R->net, dt);
        LOG_INFO("done: %llu pairs in %.2fs: %.0f pairs/s, %.2f GCUPS, %llu pruned (%.1f%%)%s", (unsigned long long)ran,
                 dt, (double)ran / dt, gcups, (unsigned long long)pruned, ran ? 100.0 * (double)pruned / (double)ran : 0.0,
                 R->rs->resumed ? " (this resumed run's share)" : "");
        if (!o->quiet) {
            char pr[96] = "";
            if (pruned)
                snprintf(pr, sizeof pr, ", %llu of them pruned (%.1f%%)", (unsigned long long)pruned,
                         100.0 * (double)pruned / (double)ran);
            printf("mnw: %s %llu pairs of %zu sequences%s in %.1f s (%.0f pairs/s, %.2f GCUPS, %d rank%s, "
                   "%llu workers)%s\n",
                   pruned ? "did" : "aligned", (unsigned long long)ran, R->seqs->n, pr, dt, (double)ran / dt, gcups,
                   R->size, R->size == 1 ? "" : "s", (unsigned long long)R->all_workers,
                   R->rs->resumed ? "; resumed, the run is complete" : "");
            char files[128];
            printf("mnw: results in %s/: %s, mnw.log\n", o->outdir,
                   outputs_files(mnw_opts_outputs(o), files, sizeof files));
        }
    }
    return rc;
}

/* The CLD and rank 0's NLD. Returns 0 done, 1 stopped by a signal (the
 * bookmark is written), -1 with e set (then the caller stops every rank),
 * or -2 with e set when the output through MPI-IO could not start (every
 * rank knows and ends by itself). */
static int run_rank0(const mnw_opts *o, const mnw_jobset *jset, const mnw_seqset *seqs, double t_read,
                     const node_info *nodes, int size, run_start *rs, mnw_err *e)
{
    rank0_run R;
    memset(&R, 0, sizeof R);
    R.o = o;
    R.jset = jset;
    R.seqs = seqs;
    R.nodes = nodes;
    R.size = size;
    R.rs = rs;
    R.k0 = rs->range.k0;
    R.npairs = rs->range.count;
    log_job(&R, t_read);
    uint64_t window = reorder_window(&R);
    if (open_cld(&R, window, e)) return -1;
    int rc = choose_writers(&R, e);
    if (rc) return rc;
    rc = run_cld_loop(&R, e);
    rc = close_outputs(&R, rc, e);
    rc = report_end(&R, rc, e);
    mnw_cldnet_free(&R.net);
    mnw_cld_free(&R.cld);
    return rc;
}

/* An NLD on rank 1..N-1. Returns 0, MNW_EXIT_STOPPED (the job stopped),
 * MNW_REMOTE_START_FAILED (the output through MPI-IO could not start on
 * some rank: every rank knows, rank 0 reports it), or -1 (on failure it has
 * told rank 0). */
#define MNW_REMOTE_START_FAILED 1
static int run_remote(const mnw_opts *o, const mnw_jobset *jset, const mnw_seqset *seqs, const node_info *nodes,
                      mnw_err *e)
{
    mnw_outspec spec;
    outspec_from_jobset(jset, seqs, &spec);
    mnw_eqtab eqt;
    mnw_job_spec js = {&spec, &jset->sc, jset->gzip_level, counts_table(o, jset, &eqt), &prune_plan};
    mnw_nld_cfg cfg = nld_cfg(o, &js, node_workers(o), first_slot(nodes, mnw_mpi_rank()), jset->worklist_size,
                              gpu_sharers);
    const int mpiio = jset->output_via == MNW_VIA_MPIIO;
    mnw_nldout nout;
    if (mpiio && mnw_nldout_join(&nout, NULL, NULL, NULL, e)) return MNW_REMOTE_START_FAILED; /* rank 0 says why */
    mnw_nldnet net;
    mnw_nldnet_init(&net, nodes[0].host, jset->rank_timeout);
    if (mpiio) mnw_nldnet_write_own(&net, &nout);
    mnw_nld_link link = mnw_nldnet_link(&net, 0.0005);
    double t0 = mnw_now();
    int rc = mnw_nld_run(&cfg, &link, e);
    if (rc == MNW_NLD_DROPPED) rc = 0;
    if (!rc) rc = mnw_nldnet_finish(&net, e);
    else mnw_nldnet_fail(&net, e->msg, 30.0);
    if (mpiio) {
        mnw_nldout_log(&nout);
        mnw_err e2;
        if (mnw_nldout_close(&nout, &e2) && !rc) LOG_WARN("%s", e2.msg); /* after FIN: the job's status stands */
    }
    if (!rc) {
        LOG_INFO("%s in %.2fs", net.fin_status ? "stopped" : "done", mnw_now() - t0);
        rc = net.fin_status; /* the job's status, from rank 0 */
    }
    mnw_nldnet_free(&net);
    return rc;
}

/* Reports e on this rank (log file and one clean stderr line): "mnw: [rank
 * R (HOST): ][what: ]message". */
static void report(const char *what, const mnw_err *e)
{
    mnw_log_set_stderr_level(-1);
    LOG_ERR("%s", e->msg);
    char who[128] = "";
    if (mnw_mpi_active()) snprintf(who, sizeof who, "rank %d (%s): ", mnw_mpi_rank(), mnw_mpi_host());
    fprintf(stderr, "mnw: %s%s%s%s\n", who, what ? what : "", what ? ": " : "", e->msg);
}

/* What a run holds from its start to its end, on every rank. */
typedef struct {
    mnw_seqset seqs;
    mnw_jobset jset;
    run_start rs; /* rank 0's */
    double t_read;
    node_info *nodes;
} run_state;

/* Step 1 (MPI-collective): rank 0 reads the input (or a resumed run's
 * bookmark and outputs) and broadcasts the job: whether it can start, then
 * the packed sequences and job-wide settings in one blob. Returns 0 to go
 * on; else the exit status, with *done set when there is nothing to do
 * (a complete run). */
static int broadcast_job(mnw_opts *o, run_state *S, int *done)
{
    const int rank = mnw_mpi_rank(), size = mnw_mpi_size();
    mnw_err e;
    start_head head;
    memset(&head, 0, sizeof head);
    mnw_buf blob;
    mnw_buf_init(&blob);
    *done = 0;
    if (rank == 0) {
        int r = read_input(o, &S->seqs, &S->t_read, &S->rs, &e);
        jobset_from_opts(o, &S->jset); /* after a resume took the bookmark's settings */
        if (r < 0) {
            head.status = r == -2 ? 2 : r == -3 ? MNW_EXIT_STOPPED : 1;
            snprintf(head.msg, sizeof head.msg, "%s", e.msg);
        } else if (r == 1) {
            head.complete = 1;
            uint64_t k0, k1;
            if (mnw_bookmark_range(&S->rs.bm, S->rs.bmpath, &k0, &k1, &e)) k0 = k1 = 0; /* read_input checked it */
            char sh[24];
            if (o->shard.count)
                printf("mnw: shard %s in %s is complete (%llu pairs, %llu .. %llu); nothing to do\n",
                       mnw_shard_format(&o->shard, sh, sizeof sh), o->outdir, (unsigned long long)(k1 - k0),
                       (unsigned long long)k0, (unsigned long long)k1);
            else
                printf("mnw: the run in %s is complete (%llu pairs); nothing to do\n", o->outdir,
                       (unsigned long long)S->rs.bm.pairs);
        } else if (size > 1) {
            mnw_wire_pack_job(&S->jset, &S->seqs, &blob);
            head.blob_len = blob.len;
        }
    } else {
        mnw_sig_bookmark_state(MNW_SIG_BM_RANK0);
        mnw_oom_set_state(MNW_OOM_RANK, NULL);
        jobset_from_opts(o, &S->jset);
    }
    if (size > 1) CHECK_MPI(MPI_Bcast(&head, (int)sizeof head, MPI_BYTE, 0, MPI_COMM_WORLD));
    if (head.complete) {
        mnw_buf_free(&blob);
        *done = 1;
        return 0;
    }
    if (head.status) {
        snprintf(e.msg, sizeof e.msg, "%s", head.msg);
        report(head.status == MNW_EXIT_STOPPED ? "stopped" : "error", &e);
        mnw_buf_free(&blob);
        return head.status;
    }
    if (size > 1) {
        void *p = blob.p;
        mnw_mpi_bcast_blob(&p, head.blob_len);
        if (rank != 0) {
            if (mnw_wire_unpack_job(p, head.blob_len, &S->jset, &S->seqs, &e)) {
                report("error", &e);
                mnw_mpi_abort(1);
            }
            free(p);
        }
    }
    mnw_buf_free(&blob);
    /* every rank, from the same jobset; rank 0 refused --prune yes where it
     * fails already (read_input), so this fails on no rank */
    if (prune_plan_of(&S->jset, &prune_plan, &e)) {
        report("error", &e);
        if (size > 1) mnw_mpi_abort(1);
        return 2;
    }
    return 0;
}

/* Step 2 (MPI-collective): every rank tells the others its host, workers
 * and GPUs (S->nodes, one per rank). */
static void gather_nodes(const mnw_opts *o, run_state *S)
{
    const int size = mnw_mpi_size();
    node_info me;
    memset(&me, 0, sizeof me);
    snprintf(me.host, sizeof me.host, "%s", mnw_mpi_host());
    me.workers = node_workers(o);
    snprintf(me.isa, sizeof me.isa, "%s (%d lanes of int16)", mnw_cpu_isa(), mnw_cpu_lanes());
    me.tb_mode = o->tb_mode;
    me.ngpus = ngpus;
    me.gpu_lists = mnw_nld_gpu_lists(ngpus, o->gpu_batch, S->jset.worklist_size);
    S->nodes = mnw_xcalloc((size_t)size, sizeof *S->nodes);
    if (size > 1)
        CHECK_MPI(MPI_Allgather(&me, (int)sizeof me, MPI_BYTE, S->nodes, (int)sizeof me, MPI_BYTE, MPI_COMM_WORLD));
    else
        S->nodes[0] = me;
}

/* Step 3: this node, in the log: its cores and binding, Slurm's share, its
 * GPUs and its own settings. */
static void log_node(const mnw_opts *o, const run_state *S)
{
    if (topo_ok) {
        char desc[1024];
        mnw_topo_describe(&topo, desc, sizeof desc);
        LOG_INFO("topology: %s; workers %s", desc,
                 !o->bind          ? "not bound (--bind no)"
                 : slurm_narrower() ? "not bound (Slurm allocated fewer CPUs than the binding holds)"
                                    : "bound one per core");
    }
    if (slurm_narrower()) {
        LOG_INFO("Slurm: %d CPUs per task (SLURM_CPUS_PER_TASK), fewer than the process binding holds: %s",
                 mnw_slurm_cpus(), o->threads > 0 ? "--threads decides the workers" : "the worker count follows it");
    }
    /* what Slurm (--gres=gpu:N) or a person made visible, for the log */
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    char vis[128] = "";
    if (cvd) snprintf(vis, sizeof vis, "; CUDA_VISIBLE_DEVICES=%.80s", cvd);
    if (ngpus) LOG_INFO("GPUs: %d (%s%s%s); CPU workers %s", ngpus, mnw_gpu_build(), vis, gpu_share_note,
                        o->cpu_align ? "align too and finish GPU results (--cpu-align yes)" : "only finish GPU results (default; --cpu-align yes to align too)");
    else LOG_INFO("GPUs: none (%s%s)", gpu_why ? gpu_why : "?", vis);
    if (o->host_applied) LOG_INFO("settings for this host (%s): %s", mnw_mpi_host(), o->host_applied);
    if (mnw_mpi_rank() != 0) {
        mnw_log_set_stderr_level(o->quiet ? MNW_LOG_WARN : MNW_LOG_INFO);
        const node_info *me = &S->nodes[mnw_mpi_rank()];
        LOG_INFO("NLD: %d CPU workers, %s, %zu sequences from rank 0 (%s)", me->workers, me->isa, S->seqs.n,
                 S->nodes[0].host);
    }
}

/* Step 4: the work: the CLD and its own NLD on rank 0, an NLD on every
 * other rank. Returns the exit status; a failure that leaves other ranks
 * waiting ends the job (MPI_Abort). */
static int do_work(const mnw_opts *o, run_state *S)
{
    const int size = mnw_mpi_size();
    mnw_err e;
    int rc = 0;
    if (mnw_mpi_rank() == 0) {
        int r = run_rank0(o, &S->jset, &S->seqs, S->t_read, S->nodes, size, &S->rs, &e);
        if (r == -2) { /* every rank knows (the start of the output through MPI-IO) */
            report("error", &e);
            rc = 1;
        } else if (r < 0) {
            report("error", &e);
            rc = 1;
            if (size > 1) mnw_mpi_abort(1); /* stops every rank */
        } else if (r == 1) {
            rc = MNW_EXIT_STOPPED;
        }
    } else {
        rc = run_remote(o, &S->jset, &S->seqs, S->nodes, &e);
        if (rc < 0) {
            report("error", &e);
            mnw_mpi_abort(1); /* rank 0 did not stop the job in time */
        }
    }
    return rc;
}

/* Everything after the command line was accepted on every rank. */
static int run(mnw_opts *o)
{
    run_state S;
    memset(&S, 0, sizeof S);
    mnw_seqset_init(&S.seqs);
    mnw_bookmark_init(&S.rs.bm);
    mnw_bookmark_init(&S.rs.tmpl);
    S.rs.lock.fd = -1;
    int done = 0;
    int rc = broadcast_job(o, &S, &done);
    if (!rc && !done) {
        gather_nodes(o, &S);
        log_node(o, &S);
        rc = do_work(o, &S);
    }
    run_start_free(&S.rs);
    free(S.nodes);
    mnw_seqset_free(&S.seqs);
    return rc;
}

/* Descriptors 0, 1 and 2 that a parent left closed (mnw >&-) get
 * /dev/null: otherwise the first file mnw opens would take number 1, and
 * what it prints would land in that file (an output, the log). */
static void open_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

/* A closed stdout pipe (mnw ... | head -0): the lines mnw prints are lost,
 * which is said on stderr; the run's status stays (its results are in
 * OUTDIR either way). */
static void check_stdout(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return;
    fprintf(stderr, "mnw: cannot write to standard output: %s (the lines mnw prints there were lost; the results "
                    "and mnw.log in OUTDIR are not affected)\n",
            strerror(errno ? errno : EIO));
}

int main(int argc, char **argv)
{
    open_std_fds();
    if (argc > 1 && !strcmp(argv[1], "status")) return mnw_status_main(argc - 1, argv + 1); /* no MPI */
    if (argc > 1 && !strcmp(argv[1], "report")) return mnw_report_main(argc - 1, argv + 1); /* no MPI */
    if (argc > 1 && !strcmp(argv[1], "verify")) return mnw_verify_main(argc - 1, argv + 1); /* no MPI */
    if (argc > 1 && !strcmp(argv[1], "merge")) return mnw_merge_main(argc - 1, argv + 1);   /* no MPI */
    mnw_err e;
    if (mnw_mpi_init(&argc, &argv, &e)) {
        fprintf(stderr, "mnw: %s\n", e.msg);
        return 1;
    }
    const int rank = mnw_mpi_rank(), size = mnw_mpi_size();
    mnw_log_init(rank, MNW_LOG_INFO);
    mnw_opts o;
    mnw_opts_init(&o);
    int rc = 0;
    if (mnw_opts_parse(&o, argc, argv, &e) || (!o.help && !o.version && mnw_opts_check(&o, &e))) {
        report(NULL, &e);
        rc = 2;
    } else if (!mnw_cpu_isa()) {
        mnw_err_set(&e, "this CPU lacks SSE4.1, which mnw's CPU worker needs");
        report("error", &e);
        rc = 1;
    } else if (!o.help && !o.version && select_gpus(&o, &e)) {
        report(NULL, &e);
        rc = 2;
    }
    /* a bad command line on any rank stops them all */
    int worst = rc;
    if (size > 1) CHECK_MPI(MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (worst) {
        if (!rc && rank == 0) fprintf(stderr, "mnw: another rank rejected its settings (its message is above)\n");
        rc = worst;
    } else if (o.help) {
        if (rank == 0) mnw_opts_usage(stdout);
    } else if (o.version) {
        if (rank == 0) printf("mnw %s\nLicense: MIT (the LICENSE file); no warranty.\n", MNW_VERSION);
    } else {
        if (o.quiet) mnw_log_set_stderr_level(MNW_LOG_WARN);
        mnw_sig_install();
        mnw_oom_set_state(MNW_OOM_START, NULL); /* a run, before its first bookmark */
        if (mnw_topo_load(&topo, &e)) LOG_WARN("hwloc: %s; workers will not be bound", e.msg);
        else topo_ok = 1;
        share_out_gpus(&o);
        rc = run(&o);
        mnw_topo_free(&topo);
    }
    check_stdout();
    mnw_log_close();
    mnw_opts_free(&o);
    mnw_mpi_finalize();
    return rc;
}
