/* slurm.h - what mnw reads from Slurm (docs/slurm.md): the job this process
 * runs in, from the environment Slurm gives a job (SLURM_JOB_ID and
 * friends), the CPUs it allocated per task, and, for `mnw status`, a job's
 * live state as `scontrol show job` tells it. mnw never needs Slurm: with
 * none of these variables set, and no scontrol on PATH, everything here
 * says "not under Slurm" / "unknown".
 *
 * Ownership: results go into caller buffers; nothing is kept.
 * Thread-safety: mnw_slurm_job and mnw_slurm_cpus read the environment
 * (getenv: call them before threads start, or while nothing calls setenv);
 * mnw_slurm_query and mnw_slurm_queued run a child process (popen) and are
 * main-thread-only.
 */
#ifndef MNW_SLURM_H
#define MNW_SLURM_H

#include <stddef.h>

/* The job as a person names it to squeue, scontrol and scancel: "ARRAY_TASK"
 * for an array task (SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID), the
 * heterogeneous job's leader (SLURM_HET_JOB_ID) for a hetjob component,
 * else SLURM_JOB_ID. "" when not under Slurm (or a variable is not a plain
 * number). *restarts: SLURM_RESTART_COUNT (how many times Slurm requeued the
 * job), 0 if unset. */
void mnw_slurm_job(char *job, size_t cap, int *restarts);

/* SLURM_CPUS_PER_TASK (> 0), or 0 when unset or not a number: the CPUs
 * Slurm allocated to each task, whether or not a cgroup confines the
 * process to them. */
int mnw_slurm_cpus(void);

typedef struct {
    char state[32];   /* JobState: "RUNNING", "PENDING", "COMPLETED", ... */
    char reason[64];  /* Reason ("None" when none) */
    int restarts;     /* Restarts: times requeued */
    char nodes[256];  /* NodeList ("(null)" while pending) */
} mnw_slurm_info;

/* The live state of job (a string from mnw_slurm_job) from `scontrol show
 * job -o JOB` (the first component of a hetjob). 0 with *info filled, or -1
 * with why set: scontrol not found, the controller not reachable, or the
 * job no longer known (MinJobAge passed). The job string is checked to be
 * digits, '_' and '+' only before any command runs. */
int mnw_slurm_query(const char *job, mnw_slurm_info *info, char *why, size_t n);

typedef struct {
    char id[48];     /* "ARRAY_TASK", or the job id */
    long task;       /* the array task, -1 for a job that is not one */
    char state[32];  /* "PENDING", "RUNNING", "REQUEUED", ... */
    char reason[64]; /* "Dependency", "Resources", "None", ... */
} mnw_slurm_task;

/* The tasks of job (an array job's id, or any job id: digits only) still in
 * Slurm's queue (pending, running, requeued, completing), one per array
 * task, from `squeue -h -r -j JOB`. Fills tasks[0 .. min(count, cap)) and
 * returns the count (0: none queued, or the job is no longer known), or -1
 * with why set (squeue not found, the controller not reachable). */
int mnw_slurm_queued(const char *job, mnw_slurm_task *tasks, int cap, char *why, size_t n);

#endif
