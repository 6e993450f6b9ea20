/* statfmt.c - figures and facts of this machine for mnw status (statfmt.h). */
#include "lib/statfmt.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 30

/* 312487500 -> "312,487,500" */
const char *mnw_statfmt_count(uint64_t v, char out[32])
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%" PRIu64, v), o = 0;
    for (int k = 0; k < n; k++) {
        if (k && (n - k) % 3 == 0) out[o++] = ',';
        out[o++] = digits[k];
    }
    out[o] = '\0';
    return out;
}

const char *mnw_statfmt_rate(double r, char out[32])
{
    if (!(r >= 0) || r > 1e18) snprintf(out, 32, "?");
    else if (r < 100) snprintf(out, 32, "%.1f", r);
    else mnw_statfmt_count((uint64_t)llround(r), out);
    return out;
}

const char *mnw_statfmt_dur(double s, char out[32])
{
    if (!(s >= 0) || s > 1e11) {
        snprintf(out, 32, "unknown");
        return out;
    }
    uint64_t t = (uint64_t)llround(s);
    if (t < 60) snprintf(out, 32, "%" PRIu64 "s", t);
    else if (t < 3600) snprintf(out, 32, "%" PRIu64 "m %02" PRIu64 "s", t / 60, t % 60);
    else if (t < 86400) snprintf(out, 32, "%" PRIu64 "h %02" PRIu64 "m", t / 3600, t % 3600 / 60);
    else snprintf(out, 32, "%" PRIu64 "d %02" PRIu64 "h", t / 86400, t % 86400 / 3600);
    return out;
}

const char *mnw_statfmt_local(double t, char out[64])
{
    if (!(t > -1e15 && t < 1e15)) {
        snprintf(out, 64, "?");
        return out;
    }
    time_t s = (time_t)floor(t);
    struct tm tm;
    if (!localtime_r(&s, &tm) || !strftime(out, 64, "%Y-%m-%d %H:%M:%S %Z", &tm)) snprintf(out, 64, "?");
    return out;
}

double mnw_statfmt_percent(uint64_t done, uint64_t total) { return total ? 100.0 * (double)done / (double)total : 100.0; }

/* "42.0% [############..................]"; never 100.0% before the end */
void mnw_statfmt_done(uint64_t done, uint64_t total)
{
    double pc = mnw_statfmt_percent(done, total);
    if (done < total && pc > 99.9) pc = 99.9;
    int fill = (int)(pc / 100.0 * BAR_WIDTH);
    char bar[BAR_WIDTH + 1];
    for (int k = 0; k < BAR_WIDTH; k++) bar[k] = k < fill ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    printf("%.1f%% [%s]", pc, bar);
}

const char *mnw_statfmt_pruned(uint64_t pruned, uint64_t done, char out[80])
{
    char a[32];
    double pc = done ? 100.0 * (double)pruned / (double)done : 0.0;
    if (pruned < done && pc > 99.9) pc = 99.9; /* never 100% while some pair was aligned */
    snprintf(out, 80, "%s (%.1f%% of the pairs done)", mnw_statfmt_count(pruned, a), pc);
    return out;
}

/* the OUTDIR argument as one shell word */
void mnw_statfmt_word(const char *s, char *out, size_t cap)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+-@%") == strlen(s)) {
        snprintf(out, cap, "%s", s);
        return;
    }
    size_t o = 0;
    if (o + 1 < cap) out[o++] = '\'';
    for (; *s && o + 5 < cap; s++) {
        if (*s == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *s;
        }
    }
    if (o + 1 < cap) out[o++] = '\'';
    out[o] = '\0';
}

/* equal, or equal up to the first dot (short and full names) */
int mnw_statfmt_same_host(const char *a, const char *b)
{
    if (!strcmp(a, b)) return 1;
    size_t la = strcspn(a, "."), lb = strcspn(b, ".");
    return la == lb && la > 0 && !strncmp(a, b, la);
}

/* is pid an mnw process on this machine? name: its command name for MNW_PID_OTHER */
int mnw_statfmt_pid(long pid, char name[64])
{
    name[0] = '\0';
    if (pid <= 0) return MNW_PID_UNKNOWN;
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return MNW_PID_GONE;
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/comm", pid);
    FILE *f = fopen(path, "r");
    if (!f) return errno == ENOENT && access("/proc/self/comm", R_OK) == 0 ? MNW_PID_GONE : MNW_PID_UNKNOWN;
    if (!fgets(name, 64, f)) name[0] = '\0';
    fclose(f);
    name[strcspn(name, "\n")] = '\0';
    return strncmp(name, "mnw", 3) == 0 ? MNW_PID_MNW : MNW_PID_OTHER;
}

int mnw_statfmt_active(const char *state)
{
    return !strcmp(state, "starting") || !strcmp(state, "running") || !strcmp(state, "stopping");
}
