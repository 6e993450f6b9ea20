/* opts.h - the job settings, from the command line and a config file.
 *
 * One setter (mnw_opts_set) takes a long-option name and its value for both
 * sources, so every key means the same thing in both (mnw(1), docs/mnw.1).
 * The command line wins over the config file's top-level keys; per-node
 * settings from [host GLOB] sections and --host win over both.
 * Ownership: strings are owned by the mnw_opts (mnw_opts_free).
 * Thread-safety: filled once in main, read-only afterwards.
 */
#ifndef MNW_OPTS_H
#define MNW_OPTS_H

#include <stdint.h>

#include "lib/identity.h"
#include "lib/output.h"
#include "lib/prune.h"
#include "lib/score.h"
#include "lib/shard.h"
#include "lib/util.h"
#include "src/like.h"

#define MNW_VERSION "0.1.0"


/* Who writes the outputs (--output-via, docs/DISTRIBUTED.md): rank 0 alone
 * (every result travels to it), or every rank through MPI-IO at the
 * offsets rank 0 places its work lists at (rank 0 receives metadata only).
 * AUTO: MPI-IO with more than one rank, rank 0 with one. */
enum { MNW_VIA_AUTO = 0, MNW_VIA_RANK0 = 1, MNW_VIA_MPIIO = 2 };

/* A per-node setting: applies on hosts whose name matches `pattern` (a
 * shell glob), from a config section "[host PATTERN]" or --host. */
typedef struct {
    char *pattern, *key, *value, *where;
} mnw_host_rule;

typedef struct {
    char *input;       /* -i */
    char *outdir;      /* -o */
    char *config;      /* -c */
    int threads;       /* node-local; 0: the topology's default */
    mnw_scoring sc;    /* sc.tie: --tie-rule */
    int like;          /* --like: MNW_LIKE_* (src/like.h); result-changing through what it sets */
    int end_open_opt, end_extend_opt; /* --end-gap-open / --end-gap-extend in half points: -1 none
                                         (sc.end_gaps from them, mnw_opts_units) */
    /* --match, --mismatch, --gap-open, --gap-extend as parsed, in half points
     * (a value may end in .5); mnw_opts_units makes sc's from them */
    int match2, mismatch2, gap_open2, gap_extend2;
    mnw_iddef iddef;
    int countends;     /* -1: as the --iddef name says; 0/1: --countends */
    double cutoff;     /* dist.column: drop pairs with distance > cutoff; <0: keep all */
    int cutoff_scope;  /* --cutoff-scope: MNW_CUTOFF_SCOPE_* (output.h); result-changing */
    mnw_prune_mode prune; /* --prune: the filter before the DP (prune.h); not result-changing */
    int cigar, phylip, force, quiet, gzip_level;
    int counts;        /* --counts: -1 auto, 0 no (runs), 1 yes (figures along the path) */
    int outputs;       /* --outputs: a mask of MNW_OUT_* (outsel.h); --phylip adds phylip: mnw_opts_outputs */
    mnw_userfields userfields; /* --userfields: userout.tsv.gz's fields (userout.h); result-changing */
    uint64_t worklist_size;
    mnw_shard shard;    /* --shard I/N: one of N pair ranges (shard.h); count 0: the whole run */
    int prefetch;       /* node-local: lists queued beyond one per worker */
    int bind;           /* node-local: bind workers to cores (hwloc) */
    int tb_mode;        /* node-local: --traceback-thread */
    char *gpus;         /* node-local: "auto", "none" or "0,2" */
    int tb_device;      /* node-local: GPU trace-back on the device (1) or the host (0) */
    char *gpu_kernel;   /* node-local: "auto" or a kernel name */
    int gpu_batch;      /* node-local: pairs per GPU batch at most */
    int cpu_align;      /* node-local: CPU workers align pairs (1) or only finish GPU results (0) */
    int reorder_window; /* CLD: lists ahead of the watermark; 0 = auto */
    int rank_timeout;   /* MPI: seconds of silence before a rank counts as lost */
    char *resume;       /* --resume DIR: continue the run in DIR */
    double bookmark_every; /* CLD: seconds between bookmarks at most */
    double stop_grace;  /* CLD: seconds to collect work in flight after a stop signal */
    int output_via;     /* MNW_VIA_*: who writes the outputs */
    int help, version;
    uint64_t given;     /* bit per option (optdefs order): set explicitly (command line, config, host rule) */
    mnw_host_rule *rules; /* config sections first, then --host, in order */
    size_t nrules;
    char *host_applied;   /* the rules applied on this host, for the log */
} mnw_opts;

void mnw_opts_init(mnw_opts *o);
void mnw_opts_free(mnw_opts *o);
/* Set one option by its long name (without "--"); value NULL for flags.
 * `where` names the source for messages ("command line", "FILE:LINE").
 * Returns 0, or -1 with e set. */
int mnw_opts_set(mnw_opts *o, const char *key, const char *value, const char *where, mnw_err *e) MNW_MUST_CHECK;
/* 1 if the option `key` was set explicitly (--gap counts as gap-open and
 * gap-extend). */
int mnw_opts_given(const mnw_opts *o, const char *key);
/* The outputs the run writes: --outputs, and phylip where --phylip is set. */
int mnw_opts_outputs(const mnw_opts *o);
/* 1 if the option takes a value. -1 if unknown. */
int mnw_opts_takes_value(const char *key);
/* 1 if the option may differ from node to node (threads, prefetch, bind, the
 * GPU settings). */
int mnw_opts_node_local(const char *key);
/* Records a per-node setting; checks that key is node-local. */
int mnw_opts_add_host_rule(mnw_opts *o, const char *pattern, const char *key, const char *value, const char *where,
                           mnw_err *e) MNW_MUST_CHECK;
/* Applies, in order, the rules whose pattern matches host (short or full
 * name). */
int mnw_opts_apply_host_rules(mnw_opts *o, const char *host, const char *fullhost, mnw_err *e) MNW_MUST_CHECK;
/* Parse argv (and the config file named with -c, applied first), then the
 * per-node rules matching this host (they beat the global settings). */
int mnw_opts_parse(mnw_opts *o, int argc, char **argv, mnw_err *e) MNW_MUST_CHECK;
/* Applies a config file's settings (config.h: "key = value" lines, keys
 * the long options, [host GLOB] sections of per-node rules). A key given a
 * second time at the top, or under [host GLOB] sections of one GLOB, is
 * refused: "FILE:LINE: 'KEY' given a second time (first at line L): ...";
 * `host` may repeat, as --host does. */
int mnw_opts_read_config(mnw_opts *o, const char *path, mnw_err *e) MNW_MUST_CHECK;
/* Final checks (required options, ranges); applies --countends to the
 * identity definition (it wins over a "-noends" name). */
int mnw_opts_check(mnw_opts *o, mnw_err *e) MNW_MUST_CHECK;

/* The scoring's values from the parsed ones (match2 ... end_extend_opt):
 * in half points (sc.half = 1) under --like needle or when one of them is
 * not a whole number, else in points. Idempotent: mnw_opts_check and a
 * resume (after the bookmark's settings) call it before reading sc. */
void mnw_opts_units(mnw_opts *o);
void mnw_opts_usage(FILE *f);

/* The first output, of those in the mask `outputs`, that holds pairs beyond
 * the cutoff (so needs every pair aligned), named for mnw.log and
 * messages ("dist.phylip (a full matrix)"); NULL when every one is
 * filtered by the cutoff (none: cutoff < 0, see mnw_prune_plan_make).
 * dist.column.gz and dist.column are filtered whenever there is a cutoff,
 * pairs.tsv.gz, alignments.paf.gz and userout.tsv.gz only with
 * MNW_CUTOFF_SCOPE_ALL,
 * dist.phylip never. */
const char *mnw_opts_unfiltered(int outputs, double cutoff, int cutoff_scope);

/* Refuses --counts yes where an output needs the runs (mnw_outsel_needs_runs;
 * mnw_opts_check calls it
 * for a new run; main again once a resumed run's settings are read). */
/* --userfields without userout among the outputs (not checked when
 * resumed: a bookmark records the list of every run), or the field id with
 * an --iddef that is not vsearch's: 0, or -1 with e set naming both. */
int mnw_opts_check_userout(const mnw_opts *o, int resumed, mnw_err *e) MNW_MUST_CHECK;
int mnw_opts_check_counts(const mnw_opts *o, mnw_err *e) MNW_MUST_CHECK;

#endif
