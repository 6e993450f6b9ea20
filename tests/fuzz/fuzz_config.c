/* fuzz_config.c - libFuzzer target: the config file reader (src/config.c,
 * mnw_opts_read_config of src/opts.h).
 *
 * Input: the file's bytes.
 *
 * Properties checked, beyond "no crash, no leak, no undefined behaviour":
 *  - reading is a function of the file: two reads into fresh settings give
 *    the same outcome, message and settings;
 *  - a refusal names the file and one of its lines ("PATH:LINE: ..."); "line
 *    too long" only for a line over 4094 bytes, "a NUL byte" only for a file
 *    that holds one;
 *  - accepted settings are within the documented ranges, and every
 *    per-host rule has a pattern, a node-local key and a value;
 *  - config file = command line (README, docs/CLI.md): for a file without
 *    NUL bytes, "[host]" sections, "config" keys or overlong lines, each
 *    line read by the documented rule (a UTF-8 BOM at the start is skipped,
 *    '#' starts a comment, blanks around key and value are dropped,
 *    "key = value" or a lone flag; a key but host given once) becomes the
 *    argument "--key=value" or "--key", and mnw_opts_parse of those
 *    arguments accepts exactly when the file is accepted, with the same
 *    settings (the rules of --host applied to this host, as
 *    mnw_opts_parse does).
 *
 * Ownership/thread-safety: one libFuzzer thread; everything is freed per
 * input. */
#include <ctype.h>
#include <math.h>

#include "lib/gzmember.h"
#include "lib/output.h"
#include "src/opts.h"
#include "tests/fuzz/fuzz_util.h"

static int same_str(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

/* Settings equal, rules compared without their "where" (the source differs). */
static int same_opts(const mnw_opts *a, const mnw_opts *b)
{
    if (!same_str(a->input, b->input) || !same_str(a->outdir, b->outdir) || !same_str(a->config, b->config) ||
        !same_str(a->gpus, b->gpus) || !same_str(a->gpu_kernel, b->gpu_kernel))
        return 0;
    if (a->threads != b->threads || a->sc.match != b->sc.match || a->sc.mismatch != b->sc.mismatch ||
        a->sc.gap_open != b->sc.gap_open || a->sc.gap_extend != b->sc.gap_extend ||
        a->sc.free_ends != b->sc.free_ends || a->iddef.kind != b->iddef.kind ||
        a->iddef.countends != b->iddef.countends || a->countends != b->countends ||
        memcmp(&a->cutoff, &b->cutoff, sizeof a->cutoff) || a->cigar != b->cigar || a->phylip != b->phylip || a->outputs != b->outputs ||
        a->force != b->force || a->quiet != b->quiet || a->gzip_level != b->gzip_level ||
        a->worklist_size != b->worklist_size || a->prefetch != b->prefetch || a->bind != b->bind ||
        a->tb_mode != b->tb_mode || a->tb_device != b->tb_device || a->gpu_batch != b->gpu_batch ||
        a->cpu_align != b->cpu_align || a->reorder_window != b->reorder_window ||
        a->rank_timeout != b->rank_timeout || a->help != b->help || a->version != b->version ||
        a->nrules != b->nrules)
        return 0;
    for (size_t k = 0; k < a->nrules; k++)
        if (strcmp(a->rules[k].pattern, b->rules[k].pattern) || strcmp(a->rules[k].key, b->rules[k].key) ||
            strcmp(a->rules[k].value, b->rules[k].value))
            return 0;
    return 1;
}

static void check_ranges(const mnw_opts *o)
{
    fz_check(o->threads >= 0 && o->threads <= 4096, "threads %d", o->threads);
    fz_check(o->sc.match >= 1 && o->sc.match <= 1000 && o->sc.mismatch >= -1000 && o->sc.mismatch <= 0 &&
                 o->sc.gap_open >= 0 && o->sc.gap_open <= 1000 && o->sc.gap_extend >= 0 && o->sc.gap_extend <= 1000,
             "scores %d %d %d %d", o->sc.match, o->sc.mismatch, o->sc.gap_open, o->sc.gap_extend);
    fz_check(o->cutoff == -1.0 || (o->cutoff >= 0.0 && o->cutoff <= 1.0), "cutoff %g", o->cutoff);
    fz_check((o->gzip_level >= 1 && o->gzip_level <= 9) || o->gzip_level == MNW_GZIP_AUTO || o->gzip_level == MNW_GZIP_FAST,
             "gzip-level %d", o->gzip_level);
    fz_check(o->outputs > 0 && o->outputs < (1 << MNW_NOUT), "outputs mask %d", o->outputs);
    fz_check(o->worklist_size >= 1 && o->worklist_size <= 1000000, "worklist-size %llu",
             (unsigned long long)o->worklist_size);
    fz_check(o->prefetch >= 0 && o->prefetch <= 1000 && o->reorder_window >= 0 && o->reorder_window <= 10000000 &&
                 o->rank_timeout >= 1 && o->rank_timeout <= 86400 && o->gpu_batch >= 1 && o->gpu_batch <= (1 << 24),
             "prefetch %d, reorder-window %d, rank-timeout %d, gpu-batch %d", o->prefetch, o->reorder_window,
             o->rank_timeout, o->gpu_batch);
    fz_check(o->countends >= -1 && o->countends <= 1 && (o->bind | 1) == 1 && (o->cigar | 1) == 1 &&
                 (o->phylip | 1) == 1 && (o->force | 1) == 1 && (o->quiet | 1) == 1 && (o->tb_mode | 1) == 1 &&
                 (o->tb_device | 1) == 1 && (o->cpu_align | 1) == 1 && (o->sc.free_ends | 1) == 1,
             "a yes/no setting is neither");
    fz_check(o->gpus && (!strcmp(o->gpus, "auto") || !strcmp(o->gpus, "none") ||
                         (*o->gpus && strspn(o->gpus, "0123456789,") == strlen(o->gpus))),
             "gpus '%s'", o->gpus ? o->gpus : "(null)");
    for (size_t k = 0; k < o->nrules; k++)
        fz_check(*o->rules[k].pattern && mnw_opts_node_local(o->rules[k].key) == 1 && *o->rules[k].value,
                 "host rule %zu: '%s' %s=%s", k, o->rules[k].pattern, o->rules[k].key, o->rules[k].value);
}

/* Reads the file at path into fresh settings; 0 or -1. */
static int read_cfg(const char *path, mnw_opts *o, mnw_err *e, size_t lines)
{
    mnw_opts_init(o);
    e->msg[0] = 0;
    int rc = mnw_opts_read_config(o, path, e);
    if (rc) {
        fz_check(rc == -1, "rc %d", rc);
        fz_check(fz_names_path(e->msg, path), "the message does not name the file: %s", e->msg);
        if (strncmp(e->msg + strlen(path), ": read error", 12)) {
            char *end;
            unsigned long line = strtoul(e->msg + strlen(path) + 1, &end, 10);
            fz_check(*end == ':' && line >= 1 && line <= lines + 1, "no line of the file (%zu lines) in: %s", lines,
                     e->msg);
        }
    } else {
        check_ranges(o);
    }
    return rc;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1])) *--end = 0;
    return s;
}

/* The file's lines as command-line arguments (see the header); returns
 * argc, or -1 when the file is outside what the command line can say, -2
 * when a line is a value key without a value, or a key (but host) given a
 * second time (the file must be refused). */
static int to_argv(const uint8_t *d, size_t n, char ***argv_out)
{
    if (memchr(d, 0, n)) return -1;
    char **argv = malloc((n + 2) * sizeof *argv);
    int argc = 0;
    argv[argc++] = strdup("mnw");
    int rc = 0;
    size_t i0 = n >= 3 && !memcmp(d, "\xEF\xBB\xBF", 3) ? 3 : 0; /* a UTF-8 BOM is skipped */
    for (size_t i = i0; i < n && rc == 0;) {
        const uint8_t *nl = memchr(d + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - d) : n;
        if (e - i >= 4000) {
            rc = -1;
            break;
        }
        char *line = strndup((const char *)d + i, e - i);
        i = e + 1;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *s = trim(line);
        if (!*s) {
            free(line);
            continue;
        }
        if (*s == '[') {
            rc = -1;
        } else {
            char *eq = strchr(s, '=');
            if (eq) *eq = 0;
            char *key = trim(s);
            int twice = 0; /* a key given a second time (but host) is refused (issue 38) */
            for (int a = 1; a < argc && strcmp(key, "host"); a++) {
                size_t kl = strlen(key);
                if (!strncmp(argv[a] + 2, key, kl) && (argv[a][2 + kl] == '=' || !argv[a][2 + kl])) twice = 1;
            }
            if (!strcmp(key, "config")) rc = -1;
            else if (twice) rc = -2;
            else if (!eq && mnw_opts_takes_value(key) == 1) rc = -2;
            else {
                size_t L = strlen(key) + (eq ? strlen(eq + 1) : 0) + 8;
                char *arg = malloc(L);
                if (eq)
                    snprintf(arg, L, "--%s=%s", key, trim(eq + 1));
                else
                    snprintf(arg, L, "--%s", key);
                argv[argc++] = arg;
            }
        }
        free(line);
    }
    argv[argc] = NULL;
    *argv_out = argv;
    if (rc) {
        for (int a = 0; a < argc; a++) free(argv[a]);
        free(argv);
        *argv_out = NULL;
        return rc;
    }
    return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t lines = 0;
    for (size_t i = 0; i < size; i++) lines += data[i] == '\n';
    fz_file f;
    fz_file_open(&f, data, size);
    mnw_opts a, b;
    mnw_err ea, eb;
    int ra = read_cfg(f.path, &a, &ea, lines), rb = read_cfg(f.path, &b, &eb, lines);
    fz_check(ra == rb && !strcmp(ea.msg, eb.msg), "two reads differ: '%s' / '%s'", ra ? ea.msg : "ok",
             rb ? eb.msg : "ok");
    if (ra == 0) fz_check(same_opts(&a, &b), "two reads give different settings");
    mnw_opts_free(&b);
    if (ra) { /* a long line is a long line, a NUL byte a NUL byte */
        size_t longest = 0, run = 0;
        for (size_t i = 0; i < size; i++) {
            run = data[i] == '\n' ? 0 : run + 1;
            if (run > longest) longest = run;
        }
        char *why = ea.msg + strlen(f.path) + 1;
        strtoul(why, &why, 10);
        if (!strcmp(why, ": line too long")) fz_check(longest > 4094, "'%s', longest line %zu bytes", ea.msg, longest);
        if (!strncmp(why, ": a NUL byte at column ", 23))
            fz_check(memchr(data, 0, size) != NULL, "'%s', no NUL", ea.msg);
    }

    char **argv = NULL;
    int argc = to_argv(data, size, &argv);
    if (argc == -2) fz_check(ra != 0, "a value key without a value is accepted");
    if (argc > 0) {
        mnw_opts c;
        mnw_err ec;
        mnw_opts_init(&c);
        int rc = mnw_opts_parse(&c, argc, argv, &ec);
        if (ra == 0) {
            /* the file's --host rules apply to this host, as on the command line */
            char full[256] = "?", shorth[256];
            if (gethostname(full, sizeof full) != 0) snprintf(full, sizeof full, "?");
            full[sizeof full - 1] = 0;
            snprintf(shorth, sizeof shorth, "%s", full);
            char *dot = strchr(shorth, '.');
            if (dot) *dot = 0;
            mnw_err eh;
            int rh = mnw_opts_apply_host_rules(&a, shorth, full, &eh);
            fz_check(rc == rh, "the file is accepted (host rules: %s), its command line %s", rh ? eh.msg : "ok",
                     rc ? ec.msg : "too");
            if (rc == 0) fz_check(same_opts(&a, &c), "the file and its command line give different settings");
        } else {
            fz_check(rc != 0, "the file is refused (%s), its command line accepted", ea.msg);
        }
        mnw_opts_free(&c);
        for (int k = 0; k < argc; k++) free(argv[k]);
        free(argv);
    }
    mnw_opts_free(&a);
    fz_file_close(&f);
    return 0;
}
