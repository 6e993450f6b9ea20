/* opts.c - see opts.h: the option table, the setter, argv parsing. */
#include "src/opts.h"

#include "lib/buf.h"
#include "lib/outsel.h"
#include "src/config.h"
#include "src/like.h"
#include "workers/gpu/gpu.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { T_FLAG, T_VALUE };
typedef struct {
    const char *name;
    char short_name;
    int type;
    const char *arg, *help;
} optdef;

static const optdef optdefs[] = {
    {"input", 'i', T_VALUE, "FILE", "FASTA input, plain or gzip (required)"},
    {"outdir", 'o', T_VALUE, "DIR", "output directory, created if missing (required)"},
    {"config", 'c', T_VALUE, "FILE", "read options from a config file (see config/example.conf)"},
    {"threads", 't', T_VALUE, "N", "CPU worker threads (default: cores of the process binding - 2, at least 1)"},
    {"bind", 0, T_VALUE, "yes|no", "bind each CPU worker to its own core (default yes)"},
    {"traceback-thread", 0, T_FLAG, NULL, "CPU workers compute direction matrices only; the trace-back thread traces"},
    {"gpus", 0, T_VALUE, "auto|none|LIST", "GPUs to use: all visible (auto, the default), none, or ids like 0,2"},
    {"traceback", 0, T_VALUE, "device|host", "GPU trace-back on the device (default) or from direction words on the host"},
    {"gpu-kernel", 0, T_VALUE, "auto|rscan|dscan|tileddscan", "GPU kernel (default auto: by the rows of each pair; docs/GPU.md)"},
    {"gpu-batch", 0, T_VALUE, "N", "pairs per GPU batch at most (default 65536)"},
    {"cpu-align", 0, T_VALUE, "yes|no", "with GPUs, CPU workers also align work lists (default no: they finish GPU results)"},
    {"match", 0, T_VALUE, "N", "score of identical bases (default 4)"},
    {"mismatch", 0, T_VALUE, "N", "score of different bases, <= 0 (default -5)"},
    {"gap", 0, T_VALUE, "N", "linear gap penalty per column (default 10)"},
    {"gap-open", 0, T_VALUE, "N", "affine: penalty of a gap's first column"},
    {"gap-extend", 0, T_VALUE, "N", "affine: penalty of each further column"},
    {"free-end-gaps", 0, T_FLAG, NULL, "terminal gaps (overhangs) cost nothing"},
    {"end-gap-open", 0, T_VALUE, "N|none", "terminal gaps: penalty of a leading or trailing gap run's first column, apart from interior ones (vsearch's; the other end-gap option defaults to it; not with --free-end-gaps)"},
    {"end-gap-extend", 0, T_VALUE, "N|none", "terminal gaps: penalty of each further column"},
    {"tie-rule", 0, T_VALUE, "mnw|mothur|vsearch|needle", "which of equally good alignments: mnw's rule (default), mothur's and vsearch's (one rule: D before I), or EMBOSS needle's (with free end gaps; docs/SCORING.md)"},
    {"ambiguity", 0, T_VALUE, "zero|mothur|ednafull", "how a column with an ambiguity code (N, R...) scores: 0 (default), as mothur scores it (two ambiguity codes a match, one against a base a mismatch), or by EMBOSS's EDNAFULL matrix (R/A 1, N/A -2...; docs/SCORING.md)"},
    {"like", 0, T_VALUE, "mnw|mothur|vsearch|needle", "another tool's numbers: its scoring, tie rule and identity as defaults (mothur: pairwise.seqs, vsearch: --allpairs_global, needle: EMBOSS needle; docs/SCORING.md)"},
    {"iddef", 0, T_VALUE, "NAME", "identity definition (default vsearch2; see docs/IDENTITY.md)"},
    {"countends", 0, T_VALUE, "yes|no", "mothur definitions: count terminal gaps (default: as the --iddef name says; yes for mothur-*, no for mothur-*-noends)"},
    {"cutoff", 0, T_VALUE, "D|none", "dist.column.gz and dist.column: drop pairs with distance > D (default none)"},
    {"cutoff-scope", 0, T_VALUE, "dist|all", "what --cutoff filters: dist.column.gz and dist.column (dist, the default), or pairs.tsv.gz, alignments.paf.gz and userout.tsv.gz too (all; not with dist.phylip)"},
    {"prune", 0, T_VALUE, "auto|yes|no", "skip the pairs a filter proves beyond --cutoff before aligning them, where every output is cutoff-filtered (default auto: where the bound is proven and pays; docs/PRUNE.md); the outputs are the same bytes either way"},
    {"cigar", 0, T_FLAG, NULL, "write the alignment (CIGAR) as the last column of pairs.tsv.gz (PAF has it always)"},
    {"counts", 0, T_VALUE, "auto|yes|no", "count the outputs' figures along the path and keep no alignment (default auto: where no output needs a CIGAR; no: the full trace-back, same bytes)"},
    {"outputs", 0, T_VALUE, "LIST", "the outputs to write, of pairs, dist, phylip, paf, dist-plain, userout (default pairs,dist; docs/FORMATS.md)"},
    {"userfields", 0, T_VALUE, "F+F...", "userout.tsv.gz's fields, vsearch's names joined by '+' (default " MNW_USERFIELDS_DEFAULT ")"},
    {"phylip", 0, T_FLAG, NULL, "also write dist.phylip (lower triangle, mothur's output=lt): adds phylip to --outputs"},
    {"worklist-size", 0, T_VALUE, "N", "pairs per work list (default 5000)"},
    {"gzip-level", 0, T_VALUE, "N", "gzip level of the outputs: 1-9, fast (= 1) or auto (default: 5)"},
    {"shard", 0, T_VALUE, "I/N|none", "align only the I-th of N pair ranges, an independent run (docs/SHARDS.md; default none: every pair)"},
    {"prefetch", 0, T_VALUE, "N", "work lists queued per node beyond one per worker (default 1)"},
    {"reorder-window", 0, T_VALUE, "N", "work lists handed out ahead of the last written one (default: auto)"},
    {"rank-timeout", 0, T_VALUE, "S", "MPI: a rank silent for S seconds stops the job (default 60)"},
    {"host", 0, T_VALUE, "GLOB:K=V,..", "per-node settings (threads, prefetch, bind, traceback-thread, gpus, traceback, gpu-kernel, gpu-batch, cpu-align) on hosts matching GLOB"},
    {"output-via", 0, T_VALUE, "rank0|mpiio", "who writes the outputs: rank 0 alone, or every rank through MPI-IO into the shared OUTDIR (default: mpiio with more than one rank)"},
    {"force", 0, T_FLAG, NULL, "write into a non-empty OUTDIR (replaces mnw's files there)"},
    {"resume", 0, T_VALUE, "DIR", "continue the run in DIR from its bookmark (input and settings from DIR; docs/RESUME.md)"},
    {"bookmark-every", 0, T_VALUE, "S", "seconds of progress between bookmarks at most (default 2)"},
    {"stop-grace", 0, T_VALUE, "S", "on SIGTERM/SIGINT/SIGUSR1, seconds to collect the work in flight before dropping it (default 2)"},
    {"quiet", 'q', T_FLAG, NULL, "no progress line, warnings and errors only"},
    {"help", 'h', T_FLAG, NULL, "this help"},
    {"version", 'V', T_FLAG, NULL, "print the version"},
};
#define NOPTS (sizeof optdefs / sizeof *optdefs)
_Static_assert(NOPTS <= 64, "mnw_opts.given has one bit per option");

void mnw_opts_init(mnw_opts *o)
{
    memset(o, 0, sizeof *o);
    mnw_scoring d = MNW_SCORING_DEFAULT;
    o->sc = d;
    o->match2 = 2 * d.match;
    o->mismatch2 = 2 * d.mismatch;
    o->gap_open2 = 2 * d.gap_open;
    o->gap_extend2 = 2 * d.gap_extend;
    mnw_iddef_parse("vsearch2", &o->iddef);
    o->cutoff = -1.0;
    o->cutoff_scope = MNW_CUTOFF_SCOPE_DIST;
    mnw_err ue;
    if (mnw_userfields_parse(MNW_USERFIELDS_DEFAULT, "default", &o->userfields, &ue)) abort(); /* a constant */
    o->prune = MNW_PRUNE_AUTO;
    o->countends = -1;
    o->counts = -1;
    o->end_open_opt = o->end_extend_opt = -1;
    o->gzip_level = MNW_GZIP_AUTO;
    o->outputs = MNW_OUTSEL_DEFAULT;
    o->worklist_size = 5000;
    o->prefetch = 1;
    o->bind = 1;
    o->rank_timeout = 60;
    o->gpus = mnw_xstrdup("auto");
    o->tb_device = 1;
    o->gpu_kernel = mnw_xstrdup("auto");
    o->gpu_batch = 65536;
    o->cpu_align = 0;
    o->bookmark_every = 2.0;
    o->stop_grace = 2.0;
}

void mnw_opts_free(mnw_opts *o)
{
    for (size_t k = 0; k < o->nrules; k++) {
        free(o->rules[k].pattern);
        free(o->rules[k].key);
        free(o->rules[k].value);
        free(o->rules[k].where);
    }
    free(o->rules);
    free(o->host_applied);
    free(o->input);
    free(o->outdir);
    free(o->config);
    free(o->gpus);
    free(o->gpu_kernel);
    free(o->resume);
    memset(o, 0, sizeof *o);
}

static const optdef *find(const char *key)
{
    for (size_t k = 0; k < NOPTS; k++)
        if (strcmp(optdefs[k].name, key) == 0) return &optdefs[k];
    return NULL;
}

int mnw_opts_given(const mnw_opts *o, const char *key)
{
    const optdef *d = find(key);
    return d && (o->given >> (d - optdefs) & 1);
}

int mnw_opts_outputs(const mnw_opts *o)
{
    return o->outputs | (o->phylip ? 1 << MNW_OUT_PHYLIP : 0);
}

int mnw_opts_takes_value(const char *key)
{
    const optdef *d = find(key);
    return d ? d->type == T_VALUE : -1;
}

static const char *const node_local_keys[] = {"threads", "prefetch", "bind", "traceback-thread", "gpus",
                                              "traceback", "gpu-kernel", "gpu-batch", "cpu-align"};

int mnw_opts_node_local(const char *key)
{
    for (size_t k = 0; k < sizeof node_local_keys / sizeof *node_local_keys; k++)
        if (!strcmp(key, node_local_keys[k])) return 1;
    return 0;
}

int mnw_opts_add_host_rule(mnw_opts *o, const char *pattern, const char *key, const char *value, const char *where,
                           mnw_err *e)
{
    if (!*pattern) return mnw_err_set(e, "%s: a host rule needs a host name pattern", where);
    if (mnw_opts_takes_value(key) < 0) return mnw_err_set(e, "%s: unknown key '%s' (see mnw --help)", where, key);
    if (!mnw_opts_node_local(key))
        return mnw_err_set(e, "%s: '%s' is a job-wide setting; per host only threads, prefetch, bind, traceback-thread, gpus, traceback, gpu-kernel, gpu-batch and cpu-align may be set", where,
                           key);
    if (!value || !*value) return mnw_err_set(e, "%s: '%s' needs a value", where, key);
    o->rules = mnw_xrealloc(o->rules, (o->nrules + 1) * sizeof *o->rules);
    mnw_host_rule *r = &o->rules[o->nrules++];
    r->pattern = mnw_xstrdup(pattern);
    r->key = mnw_xstrdup(key);
    r->value = mnw_xstrdup(value);
    r->where = mnw_xstrdup(where);
    return 0;
}

/* --host GLOB:key=value[,key=value...] */
static int parse_host_opt(mnw_opts *o, const char *v, const char *where, mnw_err *e)
{
    const char *colon = strrchr(v, ':');
    if (!colon || colon == v)
        return mnw_err_set(e, "%s: --host takes GLOB:key=value[,key=value], not '%s'", where, v);
    char *pat = mnw_xstrdup(v);
    pat[colon - v] = 0;
    char *list = mnw_xstrdup(colon + 1);
    int rc = 0;
    for (char *save = NULL, *kv = strtok_r(list, ",", &save); kv && !rc; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            rc = mnw_err_set(e, "%s: --host %s: '%s' is not key=value", where, v, kv);
            break;
        }
        *eq = 0;
        rc = mnw_opts_add_host_rule(o, pat, kv, eq + 1, where, e);
    }
    if (!rc && !colon[1]) rc = mnw_err_set(e, "%s: --host %s: no settings after ':'", where, v);
    free(pat);
    free(list);
    return rc;
}

int mnw_opts_apply_host_rules(mnw_opts *o, const char *host, const char *fullhost, mnw_err *e)
{
    mnw_buf applied;
    mnw_buf_init(&applied);
    int rc = 0;
    for (size_t k = 0; k < o->nrules && !rc; k++) {
        const mnw_host_rule *r = &o->rules[k];
        if (fnmatch(r->pattern, host, 0) != 0 && fnmatch(r->pattern, fullhost, 0) != 0) continue;
        rc = mnw_opts_set(o, r->key, r->value, r->where, e);
        char one[512];
        snprintf(one, sizeof one, "%s%s=%s (%s [host %s])", applied.len ? ", " : "", r->key, r->value, r->where,
                 r->pattern);
        mnw_buf_puts(&applied, one);
    }
    free(o->host_applied);
    o->host_applied = NULL;
    if (applied.len) {
        mnw_buf_putc(&applied, 0);
        o->host_applied = mnw_xstrdup(applied.p);
    }
    mnw_buf_free(&applied);
    return rc;
}

static int parse_long(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

/* "N", "N.0" or "N.5" (N an integer, lo <= value <= hi) into twice the value */
static int parse_half(const char *v, long lo, long hi, long *out2)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || x < lo - 1 || x > hi) return -1;
    long x2 = 2 * x;
    if (*end == '.') {
        if ((end[1] != '0' && end[1] != '5') || end[2]) return -1;
        if (end[1] == '5') x2 += v[0] == '-' ? -1 : 1;
    } else if (*end) {
        return -1;
    }
    if (x2 < 2 * lo || x2 > 2 * hi) return -1;
    *out2 = x2;
    return 0;
}

static int parse_bool(const char *v, int *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "on")) *out = 1;
    else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "off")) *out = 0;
    else return -1;
    return 0;
}

int mnw_opts_set(mnw_opts *o, const char *key, const char *v, const char *where, mnw_err *e)
{
    const optdef *d = find(key);
    if (!d) return mnw_err_set(e, "%s: unknown option '%s' (see mnw --help)", where, key);
    if (d->type == T_VALUE && (!v || !*v)) return mnw_err_set(e, "%s: option '%s' needs a value (%s)", where, key, d->arg);
    o->given |= 1ull << (d - optdefs);
    if (!strcmp(key, "gap")) o->given |= 1ull << (find("gap-open") - optdefs) | 1ull << (find("gap-extend") - optdefs);
    long x;
#define INT_OPT(lo, hi, dst)                                                                       \
    do {                                                                                           \
        if (parse_long(v, (lo), (hi), &x))                                                         \
            return mnw_err_set(e, "%s: %s must be an integer from %ld to %ld, not '%s'", where, key, \
                               (long)(lo), (long)(hi), v);                                         \
        dst = (int)x;                                                                              \
    } while (0)
/* a scoring value: a whole number or one ending in .5 (needle's extension),
 * kept in half points */
#define SCORE_OPT(dst)                                                                             \
    do {                                                                                           \
        int lo_ = 0, hi_ = 0;                                                                      \
        if (mnw_scoring_range(key, &lo_, &hi_)) mnw_die_rc(__FILE__, __LINE__, "mnw_scoring_range", EINVAL); \
        if (parse_half(v, lo_, hi_, &x))                                                           \
            return mnw_err_set(e, "%s: %s must be a number from %d to %d (whole, or ending in .5), not '%s'", \
                               where, key, lo_, hi_, v);                                           \
        dst = (int)x;                                                                              \
    } while (0)
    /* flags accept an optional yes/no in config files */
    int flag = 1;
    if (d->type == T_FLAG && v && parse_bool(v, &flag))
        return mnw_err_set(e, "%s: %s takes yes or no, not '%s'", where, key, v);
    if (!strcmp(key, "input")) { free(o->input); o->input = mnw_xstrdup(v); }
    else if (!strcmp(key, "outdir")) { free(o->outdir); o->outdir = mnw_xstrdup(v); }
    else if (!strcmp(key, "config")) { free(o->config); o->config = mnw_xstrdup(v); }
    else if (!strcmp(key, "threads")) INT_OPT(0, 4096, o->threads);
    /* the scoring settings' ranges live in lib/score.c (a bookmark's are checked there too) */
    else if (!strcmp(key, "match")) SCORE_OPT(o->match2);
    else if (!strcmp(key, "mismatch")) SCORE_OPT(o->mismatch2);
    else if (!strcmp(key, "gap")) { SCORE_OPT(o->gap_open2); o->gap_extend2 = o->gap_open2; }
    else if (!strcmp(key, "gap-open")) SCORE_OPT(o->gap_open2);
    else if (!strcmp(key, "gap-extend")) SCORE_OPT(o->gap_extend2);
    else if (!strcmp(key, "free-end-gaps")) o->sc.free_ends = flag;
    else if (!strcmp(key, "end-gap-open") || !strcmp(key, "end-gap-extend")) {
        int *dst = key[8] == 'o' ? &o->end_open_opt : &o->end_extend_opt;
        if (!strcmp(v, "none")) *dst = -1;
        else SCORE_OPT(*dst);
    } else if (!strcmp(key, "tie-rule")) {
        if (mnw_tie_parse(v, &o->sc.tie))
            return mnw_err_set(e, "%s: tie-rule takes mnw, mothur, vsearch or needle, not '%s'", where, v);
    } else if (!strcmp(key, "ambiguity")) {
        if (mnw_amb_parse(v, &o->sc.amb))
            return mnw_err_set(e, "%s: ambiguity takes zero, mothur or ednafull, not '%s'", where, v);
    } else if (!strcmp(key, "like")) {
        if (mnw_like_parse(v, &o->like))
            return mnw_err_set(e, "%s: like takes mnw, mothur, vsearch or needle, not '%s'", where, v);
    }
    else if (!strcmp(key, "iddef")) {
        if (mnw_iddef_parse(v, &o->iddef))
            return mnw_err_set(e, "%s: unknown identity definition '%s' (%s)", where, v, mnw_iddef_names_help);
    } else if (!strcmp(key, "countends")) {
        if (parse_bool(v, &o->countends)) return mnw_err_set(e, "%s: countends takes yes or no, not '%s'", where, v);
    } else if (!strcmp(key, "cutoff") && !strcmp(v, "none")) {
        o->cutoff = -1.0;
    } else if (!strcmp(key, "cutoff")) {
        char *end;
        errno = 0;
        double c = strtod(v, &end);
        if (errno || end == v || *end || !(c >= 0.0 && c <= 1.0))
            return mnw_err_set(e, "%s: cutoff must be a distance from 0 to 1, not '%s'", where, v);
        o->cutoff = c;
    } else if (!strcmp(key, "cutoff-scope")) {
        if (!strcmp(v, "dist")) o->cutoff_scope = MNW_CUTOFF_SCOPE_DIST;
        else if (!strcmp(v, "all")) o->cutoff_scope = MNW_CUTOFF_SCOPE_ALL;
        else return mnw_err_set(e, "%s: cutoff-scope takes dist or all, not '%s'", where, v);
    } else if (!strcmp(key, "prune")) {
        if (mnw_prune_mode_parse(v, &o->prune))
            return mnw_err_set(e, "%s: prune takes auto, yes or no, not '%s'", where, v);
    } else if (!strcmp(key, "cigar")) o->cigar = flag;
    else if (!strcmp(key, "counts")) {
        if (!strcmp(v, "auto")) o->counts = -1;
        else if (parse_bool(v, &o->counts))
            return mnw_err_set(e, "%s: counts takes auto, yes or no, not '%s'", where, v);
    }
    else if (!strcmp(key, "userfields")) {
        if (mnw_userfields_parse(v, where, &o->userfields, e)) return -1;
    }
    else if (!strcmp(key, "outputs")) {
        if (mnw_outsel_parse(v, where, &o->outputs, e)) return -1;
    }
    else if (!strcmp(key, "phylip")) o->phylip = flag;
    else if (!strcmp(key, "worklist-size")) {
        if (parse_long(v, 1, 1000000, &x))
            return mnw_err_set(e, "%s: worklist-size must be an integer from 1 to 1000000, not '%s'", where, v);
        o->worklist_size = (uint64_t)x;
    } else if (!strcmp(key, "shard")) {
        if (mnw_shard_parse(v, &o->shard))
            return mnw_err_set(e, "%s: shard takes I/N with 1 <= I <= N <= %d, or none, not '%s'", where, MNW_SHARD_MAX,
                               v);
    } else if (!strcmp(key, "gzip-level")) {
        if (!strcmp(v, "auto")) o->gzip_level = MNW_GZIP_AUTO;
        else if (!strcmp(v, "fast")) o->gzip_level = MNW_GZIP_FAST;
        else if (parse_long(v, 1, 9, &x))
            return mnw_err_set(e, "%s: gzip-level takes 1 to 9, fast or auto, not '%s'", where, v);
        else o->gzip_level = (int)x;
    }
    else if (!strcmp(key, "prefetch")) INT_OPT(0, 1000, o->prefetch);
    else if (!strcmp(key, "bind")) {
        if (parse_bool(v, &o->bind)) return mnw_err_set(e, "%s: bind takes yes or no, not '%s'", where, v);
    }
    else if (!strcmp(key, "reorder-window")) INT_OPT(0, 10000000, o->reorder_window);
    else if (!strcmp(key, "rank-timeout")) INT_OPT(1, 86400, o->rank_timeout);
    else if (!strcmp(key, "output-via")) {
        if (!strcmp(v, "rank0")) o->output_via = MNW_VIA_RANK0;
        else if (!strcmp(v, "mpiio")) o->output_via = MNW_VIA_MPIIO;
        else if (!strcmp(v, "auto")) o->output_via = MNW_VIA_AUTO;
        else return mnw_err_set(e, "%s: output-via must be rank0, mpiio or auto, not '%s'", where, v);
    }
    else if (!strcmp(key, "force")) o->force = flag;
    else if (!strcmp(key, "resume")) { free(o->resume); o->resume = mnw_xstrdup(v); }
    else if (!strcmp(key, "bookmark-every") || !strcmp(key, "stop-grace")) {
        char *end;
        errno = 0;
        double s = strtod(v, &end);
        if (errno || end == v || *end || !(s >= 0.0 && s <= 86400.0))
            return mnw_err_set(e, "%s: %s must be a number of seconds from 0 to 86400, not '%s'", where, key, v);
        if (key[0] == 'b') o->bookmark_every = s;
        else o->stop_grace = s;
    }
    else if (!strcmp(key, "traceback-thread")) o->tb_mode = flag;
    else if (!strcmp(key, "gpus")) {
        if (strcmp(v, "auto") && strcmp(v, "none") && (!*v || strspn(v, "0123456789,") != strlen(v)))
            return mnw_err_set(e, "%s: gpus takes auto, none or a list of device ids like 0,2, not '%s'", where, v);
        free(o->gpus);
        o->gpus = mnw_xstrdup(v);
    } else if (!strcmp(key, "traceback")) {
        if (strcmp(v, "device") && strcmp(v, "host"))
            return mnw_err_set(e, "%s: traceback takes device or host, not '%s'", where, v);
        o->tb_device = !strcmp(v, "device");
    } else if (!strcmp(key, "gpu-kernel")) {
        if (mnw_gpu_kernel_parse(v) < MNW_GPU_KERNEL_AUTO)
            return mnw_err_set(e, "%s: gpu-kernel takes auto, rscan, dscan or tileddscan, not '%s'", where, v);
        free(o->gpu_kernel);
        o->gpu_kernel = mnw_xstrdup(v);
    } else if (!strcmp(key, "gpu-batch")) INT_OPT(1, 1 << 24, o->gpu_batch);
    else if (!strcmp(key, "cpu-align")) {
        if (parse_bool(v, &o->cpu_align)) return mnw_err_set(e, "%s: cpu-align takes yes or no, not '%s'", where, v);
    }
    else if (!strcmp(key, "quiet")) o->quiet = flag;
    else if (!strcmp(key, "help")) o->help = flag;
    else if (!strcmp(key, "version")) o->version = flag;
    else if (!strcmp(key, "host")) return parse_host_opt(o, v, where, e);
#undef INT_OPT
#undef SCORE_OPT
    return 0;
}

/* One config file being read: the settings, and the keys seen so far with
 * their section and line (a key may be given once per section). */
typedef struct {
    mnw_opts *o;
    struct cfg_seen {
        char *section; /* NULL at the top */
        char *key;
        char *where;   /* "FILE:LINE" */
    } *seen;
    size_t nseen;
} cfg_read;

/* The line of "FILE:LINE". */
static const char *where_line(const char *where)
{
    const char *c = strrchr(where, ':');
    return c ? c + 1 : where;
}

/* One setting of a config file (config.h): the keys are the long options;
 * a [host GLOB] section holds per-node rules. A key given a second time in
 * one section (the top, or [host GLOB] sections of the same GLOB) is
 * refused, naming both lines: the file would say two things and one would
 * be dropped silently. `host` rules may repeat (like --host). */
static int config_setting(void *ctx, const char *section, const char *key, const char *val, const char *where,
                          mnw_err *e)
{
    cfg_read *cr = ctx;
    mnw_opts *o = cr->o;
    if (mnw_opts_takes_value(key) < 0)
        return mnw_err_set(e, "%s: unknown key '%s' (keys are the long options of mnw --help)", where, key);
    if (!strcmp(key, "config")) return mnw_err_set(e, "%s: a config file cannot include another", where);
    if (strcmp(key, "host")) {
        for (size_t k = 0; k < cr->nseen; k++) {
            const struct cfg_seen *s = &cr->seen[k];
            if (strcmp(s->key, key) || (!s->section != !section) || (section && strcmp(s->section, section))) continue;
            return mnw_err_set(e, "%s: '%s' given a second time%s%s%s (first at line %s): keep one of them", where,
                               key, section ? " for [host " : "", section ? section : "", section ? "]" : "",
                               where_line(s->where));
        }
        cr->seen = mnw_xrealloc(cr->seen, (cr->nseen + 1) * sizeof *cr->seen);
        cr->seen[cr->nseen++] =
            (struct cfg_seen){section ? mnw_xstrdup(section) : NULL, mnw_xstrdup(key), mnw_xstrdup(where)};
    }
    return section ? mnw_opts_add_host_rule(o, section, key, val, where, e) : mnw_opts_set(o, key, val, where, e);
}

int mnw_opts_read_config(mnw_opts *o, const char *path, mnw_err *e)
{
    cfg_read cr = {o, NULL, 0};
    int rc = mnw_config_parse(path, config_setting, &cr, e);
    for (size_t k = 0; k < cr.nseen; k++) {
        free(cr.seen[k].section);
        free(cr.seen[k].key);
        free(cr.seen[k].where);
    }
    free(cr.seen);
    return rc;
}

int mnw_opts_parse(mnw_opts *o, int argc, char **argv, mnw_err *e)
{
    /* the config file first, so the command line overrides it */
    for (int a = 1; a < argc; a++) {
        if ((!strcmp(argv[a], "-c") || !strcmp(argv[a], "--config")) && a + 1 < argc) {
            if (mnw_opts_read_config(o, argv[a + 1], e)) return -1;
        } else if (!strncmp(argv[a], "--config=", 9)) {
            if (mnw_opts_read_config(o, argv[a] + 9, e)) return -1;
        }
    }
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        char key[64];
        const char *val = NULL;
        const optdef *d = NULL;
        if (arg[0] == '-' && arg[1] == '-') {
            const char *eq = strchr(arg + 2, '=');
            size_t kl = eq ? (size_t)(eq - arg - 2) : strlen(arg + 2);
            if (kl >= sizeof key) return mnw_err_set(e, "command line: unknown option '%s' (see mnw --help)", arg);
            memcpy(key, arg + 2, kl);
            key[kl] = 0;
            d = find(key);
            if (!d) return mnw_err_set(e, "command line: unknown option '%s' (see mnw --help)", arg);
            if (eq) val = eq + 1;
        } else if (arg[0] == '-' && arg[1] && !arg[2]) {
            for (size_t k = 0; k < NOPTS; k++)
                if (optdefs[k].short_name == arg[1]) d = &optdefs[k];
            if (!d) return mnw_err_set(e, "command line: unknown option '%s' (see mnw --help)", arg);
            snprintf(key, sizeof key, "%s", d->name);
        } else {
            return mnw_err_set(e, "command line: unexpected argument '%s' (see mnw --help)", arg);
        }
        if (d->type == T_VALUE && !val) {
            if (a + 1 >= argc) return mnw_err_set(e, "command line: option '%s' needs a value (%s)", arg, d->arg);
            val = argv[++a];
        }
        if (!strcmp(key, "config")) continue; /* already applied */
        if (mnw_opts_set(o, key, val, "command line", e)) return -1;
    }
    char full[256], shorth[256];
    mnw_hostname(full, sizeof full, 0);
    mnw_hostname(shorth, sizeof shorth, 1);
    return mnw_opts_apply_host_rules(o, shorth, full, e);
}

/* A path with a control character (a newline, a tab, ESC...) is refused:
 * it cannot go into the bookmark's lines or a one-line message unchanged,
 * and it is almost always a mistake (a pasted line end). The message shows
 * it with the character escaped. */
static int path_ok(const char *opt, const char *path, mnw_err *e)
{
    if (!path) return 0;
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if (*c >= 0x20 && *c != 0x7f) continue;
        const size_t cap = 4 * strlen(path) + 1; /* the whole path, escaped: a long one is shortened in the message */
        char *shown = mnw_xmalloc(cap);
        size_t n = 0;
        for (const unsigned char *d = (const unsigned char *)path; *d; d++) {
            if (*d == '\n') n += (size_t)snprintf(shown + n, cap - n, "\\n");
            else if (*d == '\t') n += (size_t)snprintf(shown + n, cap - n, "\\t");
            else if (*d < 0x20 || *d == 0x7f) n += (size_t)snprintf(shown + n, cap - n, "\\x%02x", *d);
            else shown[n++] = (char)*d;
        }
        shown[n] = 0;
        mnw_err_set(e, "%s '%s': the path holds a control character (byte 0x%02x at position %zu); mnw refuses such "
                       "paths: rename the file or directory",
                    opt, shown, *c, (size_t)(c - (const unsigned char *)path) + 1);
        free(shown);
        return -1;
    }
    return 0;
}

/* sc.end_gaps and its penalties from --end-gap-open / --end-gap-extend
 * (a bookmark's too): either gives end gaps, the other defaulting to it */
void mnw_opts_units(mnw_opts *o)
{
    const int eo = o->end_open_opt, ee = o->end_extend_opt;
    const int half = o->like == MNW_LIKE_NEEDLE || (o->match2 | o->mismatch2 | o->gap_open2 | o->gap_extend2) & 1 ||
                     (eo > 0 && eo & 1) || (ee > 0 && ee & 1);
    const int d = half ? 1 : 2;
    o->sc.half = half;
    o->sc.match = o->match2 / d;
    o->sc.mismatch = o->mismatch2 / d;
    o->sc.gap_open = o->gap_open2 / d;
    o->sc.gap_extend = o->gap_extend2 / d;
    o->sc.end_gaps = eo >= 0 || ee >= 0;
    o->sc.end_open = (eo >= 0 ? eo : ee >= 0 ? ee : 0) / d;
    o->sc.end_extend = (ee >= 0 ? ee : eo >= 0 ? eo : 0) / d;
}

int mnw_opts_check(mnw_opts *o, mnw_err *e)
{
    mnw_opts_units(o);
    /* a new run's --like defaults (a resumed run's settings are its bookmark's) */
    if (!o->resume) {
        const mnw_like_given g = {mnw_opts_given(o, "match"),      mnw_opts_given(o, "mismatch"),
                                  mnw_opts_given(o, "gap-open"),   mnw_opts_given(o, "gap-extend"),
                                  mnw_opts_given(o, "free-end-gaps"), mnw_opts_given(o, "tie-rule"),
                                  mnw_opts_given(o, "ambiguity"),  mnw_opts_given(o, "iddef")};
        if (mnw_like_apply(o->like, &g, &o->sc, &o->iddef, e)) return -1;
    }
    if (o->countends >= 0) o->iddef.countends = o->countends;
    if (path_ok("-i", o->input, e) || path_ok("-o", o->outdir, e) || path_ok("--resume", o->resume, e)) return -1;
    if (o->resume) {
        if (o->force) return mnw_err_set(e, "--resume and --force: a resumed run keeps what is in %s (--force starts over)", o->resume);
        if (o->outdir && strcmp(o->outdir, o->resume))
            return mnw_err_set(e, "--resume %s and -o %s: a resumed run writes into the directory it resumes", o->resume,
                               o->outdir);
        free(o->outdir);
        o->outdir = mnw_xstrdup(o->resume);
        return mnw_scoring_check(&o->sc, e); /* the input comes from the bookmark */
    }
    if (!o->input) return mnw_err_set(e, "no input: give -i SEQS.fa (see mnw --help)");
    if (!o->outdir) return mnw_err_set(e, "no output directory: give -o OUTDIR (see mnw --help)");
    const int out = mnw_opts_outputs(o);
    const int scope_all = o->cutoff_scope == MNW_CUTOFF_SCOPE_ALL;
    if (scope_all && o->cutoff < 0.0)
        return mnw_err_set(e, "--cutoff-scope all: it filters pairs.tsv.gz, alignments.paf.gz and userout.tsv.gz by --cutoff, and no "
                              "--cutoff is given (give --cutoff D, or leave --cutoff-scope out)");
    if (scope_all && mnw_outsel_has(out, MNW_OUT_PHYLIP))
        return mnw_err_set(e, "--cutoff-scope all and dist.phylip: dist.phylip is a full matrix and needs every pair, "
                              "and --cutoff-scope all drops the pairs beyond --cutoff %g (leave phylip out of --outputs "
                              "and --phylip out, or give --cutoff-scope dist)",
                           o->cutoff);
    /* with --cutoff-scope all every output but dist.phylip (refused above) is filtered */
    if (o->cutoff >= 0.0 && !scope_all && !mnw_outsel_has(out, MNW_OUT_DIST) &&
        !mnw_outsel_has(out, MNW_OUT_DISTPLAIN)) {
        char buf[128];
        return mnw_err_set(e, "--cutoff %g: it filters dist.column.gz and dist.column only (without --cutoff-scope "
                              "all), and --outputs %s writes neither (add dist or dist-plain to --outputs, give "
                              "--cutoff-scope all to filter pairs.tsv.gz, alignments.paf.gz and userout.tsv.gz, or leave --cutoff "
                              "out)",
                           o->cutoff, mnw_outsel_format(out, buf, sizeof buf));
    }
    if (o->cigar && !mnw_outsel_has(out, MNW_OUT_PAIRS) && !mnw_outsel_has(out, MNW_OUT_PAF)) {
        char buf[128];
        return mnw_err_set(e, "--cigar: it adds each alignment's CIGAR to pairs.tsv.gz, and --outputs %s writes no "
                              "output that holds a CIGAR (add pairs to --outputs, or paf: alignments.paf.gz holds "
                              "the CIGAR always; or leave --cigar out)",
                           mnw_outsel_format(out, buf, sizeof buf));
    }
    if (mnw_opts_check_counts(o, e) || mnw_opts_check_userout(o, 0, e)) return -1;
    return mnw_scoring_check(&o->sc, e);
}

int mnw_opts_check_userout(const mnw_opts *o, int resumed, mnw_err *e)
{
    const int uo = mnw_outsel_has(mnw_opts_outputs(o), MNW_OUT_USEROUT);
    char buf[512];
    if (!resumed && mnw_opts_given(o, "userfields") && !uo)
        return mnw_err_set(e, "--userfields %s: it chooses the fields of userout.tsv.gz, and --outputs does not "
                              "name userout (add userout to --outputs, or leave --userfields out)",
                           mnw_userfields_format(&o->userfields, buf, sizeof buf));
    if (uo && mnw_userfields_has(&o->userfields, MNW_UF_ID) &&
        !(o->iddef.kind >= MNW_ID_VSEARCH0 && o->iddef.kind <= MNW_ID_VSEARCH4))
        return mnw_err_set(e, "--userfields %s and --iddef %s: the field id is vsearch's identity under its --iddef "
                              "(vsearch0-vsearch4), and %s is not one of vsearch's (give a vsearch --iddef, or name "
                              "id0-id4 instead of id)",
                           mnw_userfields_format(&o->userfields, buf, sizeof buf), mnw_iddef_name(&o->iddef),
                           mnw_iddef_name(&o->iddef));
    return 0;
}

const char *mnw_opts_unfiltered(int outputs, double cutoff, int cutoff_scope)
{
    const int all = cutoff >= 0.0 && cutoff_scope == MNW_CUTOFF_SCOPE_ALL;
    if (mnw_outsel_has(outputs, MNW_OUT_PAIRS) && !all) return "pairs.tsv.gz (without --cutoff-scope all)";
    if (mnw_outsel_has(outputs, MNW_OUT_PAF) && !all) return "alignments.paf.gz (without --cutoff-scope all)";
    if (mnw_outsel_has(outputs, MNW_OUT_USEROUT) && !all) return "userout.tsv.gz (without --cutoff-scope all)";
    if (mnw_outsel_has(outputs, MNW_OUT_PHYLIP)) return "dist.phylip (a full matrix)";
    return NULL;
}

int mnw_opts_check_counts(const mnw_opts *o, mnw_err *e)
{
    if (o->counts != 1 || !mnw_outsel_needs_runs(mnw_opts_outputs(o), o->cigar)) return 0;
    return mnw_err_set(e, "--counts yes: counts mode keeps no alignment, and %s needs one (leave --counts out, or "
                          "give --counts no)",
                       mnw_outsel_has(mnw_opts_outputs(o), MNW_OUT_PAF)       ? "the PAF output (alignments.paf.gz)"
                       : mnw_outsel_has(mnw_opts_outputs(o), MNW_OUT_USEROUT) ? "the userout output (userout.tsv.gz, its caln)"
                                                                               : "--cigar");
}

void mnw_opts_usage(FILE *f)
{
    fprintf(f, "mnw %s - all-against-all Needleman-Wunsch alignment of DNA sequences\n\n"
               "usage: mnw -i SEQS.fa[.gz] -o OUTDIR [options]\n"
               "       mnw -c job.conf [options]\n"
               "       mnw --resume OUTDIR [node options]   continue a stopped run\n"
               "       mnw status OUTDIR                    show a run's progress\n"
               "       mnw report OUTDIR [-o FILE]          the run and its results as one HTML page\n"
               "       mnw verify OUTDIR                    check the outputs against the bookmark\n"
               "       mnw merge OUTDIR SHARD_DIR...        join the shards of a run (--shard) into OUTDIR\n\n"
               "options:\n", MNW_VERSION);
    for (size_t k = 0; k < NOPTS; k++) {
        char left[64];
        const optdef *d = &optdefs[k];
        if (d->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", d->short_name, d->name, d->arg ? " " : "", d->arg ? d->arg : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
        fprintf(f, "  %-28s %s\n", left, d->help);
    }
    fprintf(f, "\nOutputs in OUTDIR (--outputs): pairs.tsv.gz, dist.column.gz, dist.phylip,\n"
               "alignments.paf.gz, dist.column, userout.tsv.gz; and mnw.log.\n"
               "Config files take the same keys as the long options: key = value.\n"
               "Docs: man mnw; README.md and docs/ (installed in PREFIX/share/doc/mnw).\n");
}
