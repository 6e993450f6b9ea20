/* resume.c - see resume.h. */
#include "src/resume.h"
#include "lib/regfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cld/verify.h"
#include "lib/log.h"
#include "lib/outsel.h"
#include "lib/statfmt.h"
#include "src/like.h"

/* A result-changing setting: its bookmark key (an option name) and the
 * options that set it. */
typedef struct {
    const char *key;
    const char *opt[3];
} rsetting;

static const rsetting rsettings[] = {
    {"match", {"match"}},
    {"mismatch", {"mismatch"}},
    {"gap-open", {"gap-open"}},   /* --gap marks gap-open and gap-extend */
    {"gap-extend", {"gap-extend"}},
    {"free-end-gaps", {"free-end-gaps"}},
    {"end-gap-open", {"end-gap-open"}},     /* none: no end gaps (and before the options existed) */
    {"end-gap-extend", {"end-gap-extend"}},
    {"tie-rule", {"tie-rule"}}, /* a bookmark without it is mnw's rule (before the option existed) */
    {"ambiguity", {"ambiguity"}}, /* zero before the option existed */
    {"like", {"like"}},         /* informative (the settings it set are recorded); none before the option */
    {"iddef", {"iddef", "countends"}}, /* the name carries countends ("-noends") */
    {"cutoff", {"cutoff"}},
    {"cutoff-scope", {"cutoff-scope"}}, /* a bookmark without it is dist's (before the option existed) */
    {"cigar", {"cigar"}},
    {"outputs", {"outputs", "phylip"}}, /* --phylip adds phylip to the list */
    {"userfields", {"userfields"}},     /* a bookmark without it has the default (before the option existed) */
    {"gzip-level", {"gzip-level"}},
    {"worklist-size", {"worklist-size"}},
    {"shard", {"shard"}}, /* which pairs; a bookmark without it is a whole run's */
};
#define NRS (sizeof rsettings / sizeof *rsettings)

static const char *yes_no(int x) { return x ? "yes" : "no"; }

/* A scoring value as the options take it: v itself, or in half points v / 2
 * (a whole number, or one ending in .5) */
static void score_str(char *v, size_t n, int x, int half)
{
    if (!half || x % 2 == 0) snprintf(v, n, "%d", half ? x / 2 : x);
    else snprintf(v, n, "%s%d.5", x < 0 ? "-" : "", (x < 0 ? -x : x) / 2);
}

/* The canonical value of setting k in o (what mnw_opts_set reads back). */
static void value_of(const mnw_opts *o, size_t k, char *v, size_t n)
{
    const char *key = rsettings[k].key;
    const int half = o->sc.half;
    if (!strcmp(key, "match")) score_str(v, n, o->sc.match, half);
    else if (!strcmp(key, "mismatch")) score_str(v, n, o->sc.mismatch, half);
    else if (!strcmp(key, "gap-open")) score_str(v, n, o->sc.gap_open, half);
    else if (!strcmp(key, "gap-extend")) score_str(v, n, o->sc.gap_extend, half);
    else if (!strcmp(key, "free-end-gaps")) snprintf(v, n, "%s", yes_no(o->sc.free_ends));
    else if (!strcmp(key, "tie-rule")) snprintf(v, n, "%s", mnw_tie_name(o->sc.tie));
    else if (!strcmp(key, "end-gap-open") || !strcmp(key, "end-gap-extend")) {
        if (!o->sc.end_gaps) snprintf(v, n, "none");
        else score_str(v, n, key[8] == 'o' ? o->sc.end_open : o->sc.end_extend, half);
    }
    else if (!strcmp(key, "ambiguity")) snprintf(v, n, "%s", mnw_amb_name(o->sc.amb));
    else if (!strcmp(key, "like")) snprintf(v, n, "%s", mnw_like_name(o->like));
    else if (!strcmp(key, "iddef")) snprintf(v, n, "%s", mnw_iddef_name(&o->iddef));
    else if (!strcmp(key, "cutoff")) {
        if (o->cutoff < 0) snprintf(v, n, "none");
        else snprintf(v, n, "%.17g", o->cutoff);
    } else if (!strcmp(key, "cutoff-scope"))
        snprintf(v, n, "%s", o->cutoff_scope == MNW_CUTOFF_SCOPE_ALL ? "all" : "dist");
    else if (!strcmp(key, "cigar")) snprintf(v, n, "%s", yes_no(o->cigar));
    else if (!strcmp(key, "outputs")) mnw_outsel_format(mnw_opts_outputs(o), v, n);
    else if (!strcmp(key, "userfields")) mnw_userfields_format(&o->userfields, v, n);
    else if (!strcmp(key, "gzip-level")) {
        char b[8];
        snprintf(v, n, "%s", mnw_gzip_level_name(o->gzip_level, b));
    }
    else if (!strcmp(key, "shard")) mnw_shard_format(&o->shard, v, n);
    else snprintf(v, n, "%llu", (unsigned long long)o->worklist_size);
}

int mnw_resume_put_settings(const mnw_opts *o, const char *input_path, mnw_bookmark *b, mnw_err *e)
{
    if (mnw_bookmark_set(b, "input", input_path, e)) return -1;
    for (size_t k = 0; k < NRS; k++) {
        char v[512];
        value_of(o, k, v, sizeof v);
        if (mnw_bookmark_set(b, rsettings[k].key, v, e)) return -1;
    }
    return 0;
}

static int given(const mnw_opts *o, size_t k)
{
    for (int x = 0; x < 3 && rsettings[k].opt[x]; x++)
        if (mnw_opts_given(o, rsettings[k].opt[x])) return 1;
    return 0;
}

/* The bookmark's value of setting k (outputs: mnw_bookmark_outputs's, in
 * canonical spelling, in buf). NULL when it has none. */
static const char *bm_value(const mnw_bookmark *b, size_t k, char *buf, size_t cap)
{
    if (!strcmp(rsettings[k].key, "shard")) { /* none before shards existed */
        const char *v = mnw_bookmark_get(b, "shard");
        return v ? v : "none";
    }
    if (!strcmp(rsettings[k].key, "userfields")) { /* the default before the option existed */
        const char *v = mnw_bookmark_get(b, "userfields");
        return v ? v : MNW_USERFIELDS_DEFAULT;
    }
    if (!strncmp(rsettings[k].key, "end-gap-", 8)) { /* none before the options existed */
        const char *v = mnw_bookmark_get(b, rsettings[k].key);
        return v ? v : "none";
    }
    if (!strcmp(rsettings[k].key, "ambiguity")) { /* zero before the option existed */
        const char *v = mnw_bookmark_get(b, "ambiguity");
        return v ? v : "zero";
    }
    if (!strcmp(rsettings[k].key, "tie-rule") || !strcmp(rsettings[k].key, "like")) { /* mnw's before they existed */
        const char *v = mnw_bookmark_get(b, rsettings[k].key);
        return v ? v : "mnw";
    }
    if (!strcmp(rsettings[k].key, "cutoff-scope")) { /* dist before the option existed */
        const char *v = mnw_bookmark_get(b, "cutoff-scope");
        return v ? v : "dist";
    }
    if (strcmp(rsettings[k].key, "outputs")) return mnw_bookmark_get(b, rsettings[k].key);
    int mask;
    mnw_err ignored;
    if (mnw_bookmark_outputs(b, "", &mask, &ignored)) return NULL;
    return mnw_outsel_format(mask, buf, cap);
}

int mnw_resume_apply(mnw_opts *o, const mnw_bookmark *b, const char *bmpath, mnw_err *e)
{
    const char *in = mnw_bookmark_get(b, "input");
    if (!in) return mnw_err_set(e, "%s: no input recorded (setting input)", bmpath);
    int outputs;
    if (mnw_bookmark_outputs(b, bmpath, &outputs, e)) return -1; /* a damaged list is named as such */
    char ob[64];
    for (size_t k = 0; k < NRS; k++) {
        const char *bv = bm_value(b, k, ob, sizeof ob);
        if (!bv) return mnw_err_set(e, "%s: setting %s missing", bmpath, rsettings[k].key);
        char v[512];
        value_of(o, k, v, sizeof v);
        if (given(o, k) && strcmp(v, bv))
            return mnw_err_set(e, "%s: the run was made with %s %s, and this command asks for %s %s; a resumed run "
                                  "keeps its settings (leave the option out, or start a new run in another directory)",
                               bmpath, rsettings[k].key, bv, rsettings[k].key, v);
    }
    char where[4200];
    snprintf(where, sizeof where, "%s", bmpath);
    for (size_t k = 0; k < NRS; k++)
        if (mnw_opts_set(o, rsettings[k].key, bm_value(b, k, ob, sizeof ob), where, e)) return -1;
    mnw_opts_units(o); /* the scoring from the bookmark's values */
    o->countends = -1; /* the iddef name carries it */
    o->phylip = 0;     /* the outputs list carries it */
    if (!mnw_opts_given(o, "input")) {
        free(o->input);
        o->input = mnw_xstrdup(in);
    }
    return 0;
}

int mnw_resume_check_outputs(const char *outdir, const mnw_bookmark *b, const mnw_outspec *sp,
                             uint64_t bytes[MNW_NOUT], mnw_err *e)
{
    uint64_t k0 = 0, k1 = 0;
    mnw_err ignored; /* a damaged range is named by the caller */
    const int complete = !mnw_bookmark_range(b, "", &k0, &k1, &ignored) && b->watermark == k1;
    for (int o = 0; o < MNW_NOUT; o++) {
        bytes[o] = 0;
        if (!sp->enabled[o]) continue;
        int k = 0;
        while (k < b->nout && strcmp(b->out_name[k], mnw_out_name[o])) k++;
        if (k == b->nout)
            return mnw_err_set(e, "%s/%s: %s lists no length for this output", outdir, mnw_out_name[o],
                               MNW_BOOKMARK_FILE);
        char path[4200], n1[32];
        snprintf(path, sizeof path, "%s/%s", outdir, mnw_out_name[o]);
        const uint64_t len = b->out_bytes[k];
        /* never blocks: a FIFO or a device in its place is refused */
        struct stat sb;
        int fd = mnw_open_regular(path, O_RDONLY, 0, &sb, e);
        if (fd == -1)
            return mnw_err_set(e, "%s: %s; the bookmark says it holds %llu bytes: cannot resume (start again with --force)",
                               path, strerror(errno), (unsigned long long)len);
        if (fd == -2)
            return mnw_err_set(e, "%s: is not a regular file (%s): cannot resume", path, mnw_file_kind(sb.st_mode));
        if ((uint64_t)sb.st_size < len) {
            close(fd);
            return mnw_err_set(e, "%s: %llu bytes, shorter than the %llu the bookmark says were written: the file was "
                                  "cut or replaced after the bookmark; cannot resume (start again with --force)",
                               path, (unsigned long long)sb.st_size, (unsigned long long)len);
        }
        if (!b->out_sum[k]) {
            close(fd);
            LOG_WARN("%s: the bookmark (of an mnw from before output checksums) holds no checksum of it: only its "
                     "length (%s bytes) is checked",
                     path, mnw_statfmt_count(len, n1));
        } else {
            mnw_verify_diff d;
            int rc = mnw_verify_fd(fd, path, b->out_sum[k], &d, e);
            close(fd);
            if (rc) return -1;
            if (!d.same) {
                char what[160];
                mnw_verify_describe(&d, what, sizeof what);
                return mnw_err_set(e, "%s: %s (the checksums in %s): the file was changed after it was written; cannot "
                                      "resume (mnw verify %s checks every output; start again with --force)",
                                   path, what, MNW_BOOKMARK_FILE, outdir);
            }
        }
        if (complete && (uint64_t)sb.st_size > len) /* nothing of mnw's comes after a complete run's bytes */
            return mnw_err_set(e, "%s: %llu bytes after byte %llu, where the complete run ended: mnw did not write "
                                  "them (something appended to the file); mnw --resume leaves a complete run as it "
                                  "is: cut them with: truncate -s %llu %s",
                               path, (unsigned long long)((uint64_t)sb.st_size - len), (unsigned long long)len,
                               (unsigned long long)len, path);
        bytes[o] = len;
    }
    return 0;
}
