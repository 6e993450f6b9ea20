/* slurm.c - see slurm.h. */
#include "lib/slurm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* a positive decimal number, nothing else */
static const char *number(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v || strlen(v) > 20 || strspn(v, "0123456789") != strlen(v)) return NULL;
    return v;
}

void mnw_slurm_job(char *job, size_t cap, int *restarts)
{
    const char *arr = number("SLURM_ARRAY_JOB_ID"), *task = number("SLURM_ARRAY_TASK_ID");
    const char *het = number("SLURM_HET_JOB_ID"), *id = number("SLURM_JOB_ID");
    if (arr && task) snprintf(job, cap, "%s_%s", arr, task);
    else snprintf(job, cap, "%s", het ? het : id ? id : "");
    const char *r = number("SLURM_RESTART_COUNT");
    *restarts = r ? atoi(r) : 0;
}

int mnw_slurm_cpus(void)
{
    const char *v = number("SLURM_CPUS_PER_TASK");
    long c = v ? strtol(v, NULL, 10) : 0;
    return c > 0 && c < 1 << 20 ? (int)c : 0;
}

/* the value of " KEY=" in line, up to the next space, into out */
static void field(const char *line, const char *key, char *out, size_t cap)
{
    char pat[40];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(line, pat);
    out[0] = '\0';
    if (!p) return;
    p += strlen(pat);
    size_t k = strcspn(p, " \n");
    if (k >= cap) k = cap - 1;
    memcpy(out, p, k);
    out[k] = '\0';
}

int mnw_slurm_query(const char *job, mnw_slurm_info *info, char *why, size_t n)
{
    memset(info, 0, sizeof *info);
    if (!*job || strlen(job) > 64 || strspn(job, "0123456789_+") != strlen(job))
        return snprintf(why, n, "'%s' is not a Slurm job id", job), -1;
    char cmd[160], line[8192];
    /* -o: one line per job (per component of a hetjob); stderr kept for why */
    snprintf(cmd, sizeof cmd, "scontrol show job -o %s 2>&1", job);
    FILE *f = popen(cmd, "r");
    if (!f) return snprintf(why, n, "cannot run scontrol"), -1;
    int got = fgets(line, sizeof line, f) != NULL;
    char rest[512];
    while (fgets(rest, sizeof rest, f)) /* drain: the other components */
        ;
    int st = pclose(f);
    if (!got) line[0] = '\0';
    line[strcspn(line, "\n")] = '\0';
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) == 127)
        return snprintf(why, n, "scontrol not found"), -1;
    if (WEXITSTATUS(st) != 0 || !strstr(line, "JobState="))
        return snprintf(why, n, "scontrol: %.200s", got && line[0] ? line : "no answer"), -1;
    char tmp[32];
    char padded[8200];
    snprintf(padded, sizeof padded, " %s", line); /* every key after a space */
    field(padded, "JobState", info->state, sizeof info->state);
    field(padded, "Reason", info->reason, sizeof info->reason);
    field(padded, "Restarts", tmp, sizeof tmp);
    info->restarts = atoi(tmp);
    field(padded, "NodeList", info->nodes, sizeof info->nodes);
    return 0;
}

int mnw_slurm_queued(const char *job, mnw_slurm_task *tasks, int cap, char *why, size_t n)
{
    if (!*job || strlen(job) > 31 || strspn(job, "0123456789") != strlen(job))
        return snprintf(why, n, "'%s' is not a Slurm job id", job), -1;
    char cmd[160], line[512];
    /* -r: one line per array task, pending ones too; %i: "ARRAY_TASK" */
    snprintf(cmd, sizeof cmd, "squeue -h -r -j %s -o '%%i %%T %%r' 2>&1", job);
    FILE *f = popen(cmd, "r");
    if (!f) return snprintf(why, n, "cannot run squeue"), -1;
    int got = 0, bad = 0;
    char first[256] = "";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!first[0]) snprintf(first, sizeof first, "%.250s", strncmp(line, "squeue: ", 8) ? line : line + 8);
        char id[48], state[32], reason[64];
        if (sscanf(line, "%47s %31s %63s", id, state, reason) != 3) {
            bad = 1;
            continue;
        }
        if (got < cap) {
            mnw_slurm_task *t = &tasks[got];
            snprintf(t->id, sizeof t->id, "%s", id);
            snprintf(t->state, sizeof t->state, "%s", state);
            snprintf(t->reason, sizeof t->reason, "%s", reason);
            const char *u = strchr(id, '_');
            t->task = u && u[1] >= '0' && u[1] <= '9' ? atol(u + 1) : -1;
        }
        got++;
    }
    int st = pclose(f);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) == 127) return snprintf(why, n, "squeue not found"), -1;
    /* a job the controller has forgotten: squeue exits 1 ("Invalid job id") */
    if (WEXITSTATUS(st) != 0) {
        if (strstr(first, "Invalid job id")) return 0;
        return snprintf(why, n, "squeue: %.200s", first[0] ? first : "no answer"), -1;
    }
    if (bad) return snprintf(why, n, "squeue: unexpected line '%.200s'", first), -1;
    return got;
}
