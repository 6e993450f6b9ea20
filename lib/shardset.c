/* shardset.c - PARENT/mnw.shards, the manifest of a sharded run (shardset.h). */
#include "lib/shardset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/runfile.h"
#include "lib/shard.h"

int mnw_shardset_present(const char *dir)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, MNW_SHARDSET_FILE);
    return mnw_runfile_present(path); /* a FIFO or a loop too: the reader names it */
}

/* a plain number 1..max: 0 and *out, else -1 */
static int number(const char *v, unsigned long max, uint32_t *out)
{
    if (*v < '1' || *v > '9' || strspn(v, "0123456789") != strlen(v) || strlen(v) > 9) return -1;
    unsigned long n = strtoul(v, NULL, 10);
    if (n > max) return -1;
    *out = (uint32_t)n;
    return 0;
}

/* one path component inside PARENT */
static int plain_name(const char *v)
{
    return *v && strlen(v) < MNW_SHARDSET_NAME && !strchr(v, '/') && strcmp(v, ".") && strcmp(v, "..");
}

/* a Slurm job id: digits only */
static int job_id(const char *v) { return *v && strlen(v) < 32 && strspn(v, "0123456789") == strlen(v); }

void mnw_shardset_free(mnw_shardset *s)
{
    free(s->dir);
    free(s->arrays);
    s->dir = NULL;
    s->arrays = NULL;
}

static int by_dir(const void *a, const void *b, void *set)
{
    const mnw_shardset *s = set;
    return strcmp(s->dir[*(const uint32_t *)a], s->dir[*(const uint32_t *)b]);
}

/* two shards with one directory: 0, or -1 with e set */
static int distinct(const mnw_shardset *s, const char *path, mnw_err *e)
{
    uint32_t *ix = malloc(s->count * sizeof *ix);
    if (!ix) return mnw_err_set(e, "%s: out of memory", path);
    for (uint32_t i = 0; i < s->count; i++) ix[i] = i;
    qsort_r(ix, s->count, sizeof *ix, by_dir, (void *)s);
    int rc = 0;
    for (uint32_t k = 1; k < s->count && !rc; k++)
        if (!strcmp(s->dir[ix[k - 1]], s->dir[ix[k]]))
            rc = mnw_err_set(e, "%s: shards %u and %u share the directory '%s'", path,
                             (ix[k - 1] < ix[k] ? ix[k - 1] : ix[k]) + 1, (ix[k - 1] < ix[k] ? ix[k] : ix[k - 1]) + 1,
                             s->dir[ix[k]]);
    free(ix);
    return rc;
}

/* the line's checks; 0, or -1 with e set */
static int take(mnw_shardset *s, const char *path, int ln, const char *key, char *val, int *have_version,
                mnw_err *e)
{
    if (!*have_version) {
        if (strcmp(key, "mnw-shards"))
            return mnw_err_set(e, "%s:%d: not an mnw shards manifest (the first line is not 'mnw-shards 1')", path,
                               ln);
        if (strcmp(val, "1"))
            return mnw_err_set(e, "%s:%d: version %s: written by a newer mnw-submit (this mnw reads version 1)",
                               path, ln, val);
        *have_version = 1;
        return 0;
    }
    if (!strcmp(key, "input")) {
        if (val[0] != '/' || strlen(val) >= sizeof s->input)
            return mnw_err_set(e, "%s:%d: input '%s' is not an absolute path", path, ln, val);
        snprintf(s->input, sizeof s->input, "%s", val);
    } else if (!strcmp(key, "shards")) {
        if (s->count) return mnw_err_set(e, "%s:%d: a second 'shards' line", path, ln);
        if (number(val, MNW_SHARD_MAX, &s->count))
            return mnw_err_set(e, "%s:%d: shards '%s' is not a number of shards (1 to %u)", path, ln, val,
                               MNW_SHARD_MAX);
        s->dir = calloc(s->count, sizeof *s->dir);
        if (!s->dir) return mnw_err_set(e, "%s:%d: out of memory for %u shards", path, ln, s->count);
    } else if (!strcmp(key, "shard")) {
        char *name = strchr(val, ' ');
        uint32_t i;
        if (!s->count) return mnw_err_set(e, "%s:%d: a shard before the 'shards N' line", path, ln);
        if (!name) return mnw_err_set(e, "%s:%d: 'shard I NAME' needs both", path, ln);
        *name++ = '\0';
        if (number(val, s->count, &i))
            return mnw_err_set(e, "%s:%d: shard '%s' is not a shard of 1..%u", path, ln, val, s->count);
        if (!plain_name(name))
            return mnw_err_set(e, "%s:%d: shard %u's directory '%s' is not a name inside the parent", path, ln, i,
                               name);
        if (s->dir[i - 1][0]) return mnw_err_set(e, "%s:%d: shard %u named twice", path, ln, i);
        snprintf(s->dir[i - 1], MNW_SHARDSET_NAME, "%s", name);
    } else if (!strcmp(key, "merged")) {
        if (!plain_name(val))
            return mnw_err_set(e, "%s:%d: merged '%s' is not a name inside the parent", path, ln, val);
        snprintf(s->merged, sizeof s->merged, "%s", val);
    } else if (!strcmp(key, "remove-shards")) {
        if (strcmp(val, "yes") && strcmp(val, "no"))
            return mnw_err_set(e, "%s:%d: remove-shards '%s': yes or no", path, ln, val);
        s->remove_shards = !strcmp(val, "yes");
    } else if (!strcmp(key, "mnw-options")) {
        /* the tasks' mnw options, shell words: for mnw-submit --resume */
    } else if (!strcmp(key, "job")) {
        char *id = strchr(val, ' ');
        if (id) *id++ = '\0';
        char *list = id ? strchr(id, ' ') : NULL;
        if (list) *list++ = '\0';
        if (!id || !job_id(id) || (strcmp(val, "shards") && strcmp(val, "merge")))
            return mnw_err_set(e, "%s:%d: not 'job shards ID LIST' or 'job merge ID'", path, ln);
        if (!strcmp(val, "shards")) {
            if (!list || !*list || strlen(list) >= sizeof s->array_list || strspn(list, "0123456789,-%") != strlen(list))
                return mnw_err_set(e, "%s:%d: job shards %s: no task list", path, ln, id);
            void *more = realloc(s->arrays, (size_t)(s->narrays + 1) * sizeof *s->arrays);
            if (!more) return mnw_err_set(e, "%s:%d: out of memory", path, ln);
            s->arrays = more;
            snprintf(s->arrays[s->narrays++], sizeof *s->arrays, "%s", id);
            snprintf(s->array_job, sizeof s->array_job, "%s", id);
            snprintf(s->array_list, sizeof s->array_list, "%s", list);
        } else {
            if (list) return mnw_err_set(e, "%s:%d: job merge %s: nothing may follow the id", path, ln, id);
            snprintf(s->merge_job, sizeof s->merge_job, "%s", id);
        }
        s->njobs++;
    } else {
        return mnw_err_set(e, "%s:%d: unknown key '%s' (written by a newer mnw-submit?)", path, ln, key);
    }
    return 0;
}

int mnw_shardset_read(const char *dir, mnw_shardset *s, mnw_err *e)
{
    memset(s, 0, sizeof *s);
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, MNW_SHARDSET_FILE);
    FILE *f = mnw_runfile_fopen(path, e); /* never a FIFO, never a loop */
    if (!f) return -1;
    char line[8192];
    int ln = 0, rc = 0, have_version = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        ln++;
        size_t l = strlen(line);
        if (l && line[l - 1] == '\n') line[--l] = '\0';
        else if (!feof(f)) rc = mnw_err_set(e, "%s:%d: line longer than %zu bytes", path, ln, sizeof line - 2);
        if (rc || line[0] == '#' || !line[0]) continue;
        char *val = strchr(line, ' ');
        if (!val || (!val[1] && strcmp(line, "mnw-options "))) { /* only mnw-options may be empty */
            rc = mnw_err_set(e, "%s:%d: '%.60s' is not 'KEY VALUE'", path, ln, line);
            break;
        }
        *val++ = '\0';
        rc = take(s, path, ln, line, val, &have_version, e);
    }
    if (!rc && ferror(f)) rc = mnw_err_set(e, "%s: read error", path);
    fclose(f);
    if (!rc && !have_version) rc = mnw_err_set(e, "%s: empty: not an mnw shards manifest", path);
    if (!rc && !s->input[0]) rc = mnw_err_set(e, "%s: no 'input' line", path);
    if (!rc && !s->count) rc = mnw_err_set(e, "%s: no 'shards N' line", path);
    if (!rc && !s->merged[0]) rc = mnw_err_set(e, "%s: no 'merged' line", path);
    for (uint32_t i = 0; !rc && i < s->count; i++)
        if (!s->dir[i][0]) rc = mnw_err_set(e, "%s: shard %u of %u has no 'shard' line", path, i + 1, s->count);
    for (uint32_t i = 0; !rc && i < s->count; i++)
        if (!strcmp(s->dir[i], s->merged))
            rc = mnw_err_set(e, "%s: shard %u and the merged run share the directory '%s'", path, i + 1, s->merged);
    if (!rc) rc = distinct(s, path, e);
    if (rc) mnw_shardset_free(s);
    return rc;
}
