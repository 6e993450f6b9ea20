/* test_safeio.c - mnw's writes in OUTDIR never go through what is planted
 * at a name (lib/safeio.h; issue 38): a symbolic link to a victim file
 * outside the directory, a FIFO (no hang), a directory, and a hard link to
 * the victim, at the temporary and at the final name of an atomic
 * replacement (lib/afile.h: the bookmark, progress.json, the report page),
 * at a file opened to be cut (a new run's output) or appended to (a
 * resumed output, mnw.log, progress.log), at a temporary created
 * exclusively (mnw.token, a merge's temporaries, progress.log's compaction)
 * and at the outputs mnw_writer_open and mnw_writer_reopen open: each is an
 * error naming the file and its kind, the victim byte-identical. A regular
 * temporary with one link (a killed run's) is replaced; a regular file with
 * one link is opened, cut or appended to as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cld/progress.h"
#include "cld/proglog.h"
#include "cld/writer.h"
#include "lib/afile.h"
#include "lib/log.h"
#include "lib/safeio.h"
#include "tests/tap.h"

static char dir[256], victim[300];
static const char victim_text[] = "the victim: outside the directory\n";
static const char *const kinds[] = {"symlink", "fifo", "dir", "hardlink"};
static const char *const said[] = {"is not a regular file (a symbolic link)", "is not a regular file (a FIFO)",
                                   "is not a regular file (a directory)", "has 2 hard links"};

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int victim_whole(void)
{
    char buf[256] = "";
    FILE *f = fopen(victim, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return !strcmp(buf, victim_text);
}

/* removes what is at path (a file, link, FIFO or empty directory) */
static void clear(const char *path)
{
    if (unlink(path) != 0 && errno == EISDIR) rmdir(path);
    rmdir(path);
}

static int plant(int kind, const char *path)
{
    clear(path);
    switch (kind) {
    case 0: return symlink(victim, path);
    case 1: return mkfifo(path, 0644);
    case 2: return mkdir(path, 0755);
    default: return link(victim, path);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* err: the message must name dir/name and the kind */
static int names(const mnw_err *e, const char *name, int kind)
{
    char want[600];
    snprintf(want, sizeof want, "%s/%s: %s", dir, name, said[kind]);
    return strstr(e->msg, want) != NULL;
}

static void atomic_replace(void)
{
    char path[400], tmp[400];
    snprintf(path, sizeof path, "%s/f.json", dir);
    snprintf(tmp, sizeof tmp, "%s/.f.json.tmp", dir);
    mnw_err e;
    for (int k = 0; k < 4; k++) {
        T_OK(plant(k, tmp) == 0, "plant a %s at .f.json.tmp", kinds[k]);
        double t0 = now();
        int rc = mnw_afile_replace(dir, "f.json", "new\n", 4, 1, NULL, &e);
        T_OK(rc != 0 && names(&e, ".f.json.tmp", k) && now() - t0 < 2 && victim_whole() && access(path, F_OK) != 0,
             "afile: a %s at the temporary is refused, the victim whole: %s", kinds[k], e.msg);
        clear(tmp);
        T_OK(plant(k, path) == 0, "plant a %s at f.json", kinds[k]);
        rc = mnw_afile_replace(dir, "f.json", "new\n", 4, 0, NULL, &e);
        T_OK(rc != 0 && names(&e, "f.json", k) && victim_whole() && access(tmp, F_OK) != 0,
             "afile: a %s at the name is refused (the temporary removed), the victim whole: %s", kinds[k], e.msg);
        clear(path);
    }
    put(tmp, "a killed run's temporary\n");
    T_OK(mnw_afile_replace(dir, "f.json", "new\n", 4, 1, NULL, &e) == 0 && access(tmp, F_OK) != 0,
         "afile: a killed run's regular temporary is replaced");
    T_OK(mnw_afile_replace(dir, "f.json", "newer\n", 6, 0, NULL, &e) == 0, "afile: the file replaced again");
    struct stat st;
    T_OK(stat(path, &st) == 0 && st.st_size == 6 && st.st_nlink == 1, "afile: the new bytes");
    T_OK(mnw_afile_replace_via(dir, "r.html", "r.html.tmp", "page\n", 5, 0, NULL, &e) == 0,
         "afile: through a temporary named by the caller");
    snprintf(tmp, sizeof tmp, "%s/r.html.tmp", dir);
    T_OK(plant(0, tmp) == 0 && mnw_afile_replace_via(dir, "r.html", "r.html.tmp", "p\n", 2, 0, NULL, &e) != 0 &&
             names(&e, "r.html.tmp", 0) && victim_whole(),
         "afile: a symbolic link at the caller's temporary is refused: %s", e.msg);
    clear(tmp);
}

static void opens(void)
{
    char path[400];
    mnw_err e;
    int dfd = mnw_safe_dir(dir, &e);
    T_OK(dfd >= 0, "open the directory");
    snprintf(path, sizeof path, "%s/out", dir);
    static const int how[] = {MNW_SAFE_CREATE | MNW_SAFE_TRUNC, MNW_SAFE_APPEND, MNW_SAFE_RDWR | MNW_SAFE_CREATE | MNW_SAFE_APPEND};
    static const char *const what[] = {"created and cut", "appended to", "read and appended to"};
    for (int h = 0; h < 3; h++)
        for (int k = 0; k < 4; k++) {
            T_OK(plant(k, path) == 0, "plant a %s at out", kinds[k]);
            double t0 = now();
            int fd = mnw_safe_open(dfd, dir, "out", how[h], NULL, &e);
            T_OK(fd < 0 && names(&e, "out", k) && now() - t0 < 2 && victim_whole(),
                 "open to be %s: a %s is refused, no hang, the victim whole: %s", what[h], kinds[k], e.msg);
            if (fd >= 0) close(fd);
            clear(path);
        }
    put(path, "old bytes\n");
    struct stat st;
    int fd = mnw_safe_open(dfd, dir, "out", MNW_SAFE_CREATE | MNW_SAFE_TRUNC, &st, &e);
    T_OK(fd >= 0 && st.st_size == 0 && fstat(fd, &st) == 0 && st.st_size == 0, "a regular file is cut after the checks");
    if (fd >= 0) close(fd);
    fd = mnw_safe_open(dfd, dir, "out", MNW_SAFE_APPEND, &st, &e);
    T_OK(fd >= 0 && write(fd, "x", 1) == 1 && fstat(fd, &st) == 0 && st.st_size == 1, "and appended to");
    if (fd >= 0) close(fd);
    clear(path);
    fd = mnw_safe_open(dfd, dir, "out", MNW_SAFE_APPEND, &st, &e);
    T_OK(fd < 0 && errno == ENOENT && strstr(e.msg, "out: cannot open"), "a missing file without CREATE: %s", e.msg);
    /* exclusive temporaries: mnw.token, a merge's, progress.log's compaction */
    snprintf(path, sizeof path, "%s/tok", dir);
    for (int k = 0; k < 4; k++) {
        T_OK(plant(k, path) == 0, "plant a %s at tok", kinds[k]);
        fd = mnw_safe_tmp(dfd, dir, "tok", 0644, &e);
        T_OK(fd < 0 && names(&e, "tok", k) && victim_whole(), "temporary: a %s is refused: %s", kinds[k], e.msg);
        if (fd >= 0) close(fd);
        clear(path);
    }
    put(path, "stale\n");
    fd = mnw_safe_tmp(dfd, dir, "tok", 0644, &e);
    T_OK(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 0, "temporary: a killed run's regular one is created anew");
    if (fd >= 0) close(fd);
    clear(path);
    close(dfd);
    /* mnw.log */
    snprintf(path, sizeof path, "%s/mnw.log", dir);
    for (int k = 0; k < 4; k++) {
        T_OK(plant(k, path) == 0, "plant a %s at mnw.log", kinds[k]);
        int rc = mnw_log_open(path, &e);
        T_OK(rc != 0 && names(&e, "mnw.log", k) && victim_whole(), "mnw_log_open: a %s is refused: %s", kinds[k], e.msg);
        if (rc == 0) mnw_log_close();
        clear(path);
    }
    T_OK(mnw_log_open(path, &e) == 0, "mnw_log_open: a new log");
    mnw_log_close();
    clear(path);
}

static void outputs(void)
{
    mnw_outspec sp;
    memset(&sp, 0, sizeof sp);
    sp.enabled[2] = 1; /* dist.phylip: no gzip, no head */
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, mnw_out_name[2]);
    mnw_err e;
    for (int k = 0; k < 4; k++) {
        mnw_writer w;
        T_OK(plant(k, path) == 0, "plant a %s at %s", kinds[k], mnw_out_name[2]);
        int rc = mnw_writer_open(&w, dir, &sp, 1, 0, &e);
        T_OK(rc != 0 && names(&e, mnw_out_name[2], k) && victim_whole(), "mnw_writer_open: a %s is refused: %s",
             kinds[k], e.msg);
        MNW_IGNORE(mnw_writer_close(&w, &e));
        clear(path);
    }
    /* progress.log's appends and its compaction's temporary */
    mnw_proglog l;
    mnw_proglog_init(&l, dir);
    snprintf(path, sizeof path, "%s/%s", dir, MNW_PROGLOG_FILE);
    mnw_progress p;
    mnw_progress_init(&p, 0);
    mnw_progress_set_state(&p, "running", NULL);
    for (int k = 0; k < 4; k++) {
        T_OK(plant(k, path) == 0, "plant a %s at progress.log", kinds[k]);
        double t0 = now();
        int rc = mnw_proglog_add(&l, &p, 1, &e);
        T_OK(rc < 0 && names(&e, MNW_PROGLOG_FILE, k) && now() - t0 < 2 && victim_whole(),
             "progress.log's append: a %s is refused: %s", kinds[k], e.msg);
        clear(path);
    }
    T_OK(mnw_proglog_add(&l, &p, 1, &e) > 0, "progress.log's append to a new file");
    mnw_progress_free(&p);
    put(path, "{\"state\":\"running\",\"resumes\":0}\n{\"state\":\"running\",\"resumes\":0}\n{\"state\":\"done\",\"resumes\":0}\n");
    char tmp[420];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    for (int k = 0; k < 4; k++) {
        T_OK(plant(k, tmp) == 0, "plant a %s at progress.log.tmp", kinds[k]);
        int rc = mnw_proglog_compact(path, &e);
        T_OK(rc != 0 && names(&e, MNW_PROGLOG_FILE ".tmp", k) && victim_whole(),
             "progress.log compaction: a %s at its temporary is refused: %s", kinds[k], e.msg);
        clear(tmp);
    }
    T_OK(mnw_proglog_compact(path, &e) == 0 && access(tmp, F_OK) != 0, "progress.log compaction runs: %s", e.msg);
    clear(path);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/mnw-safeio.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return 1;
    snprintf(victim, sizeof victim, "%s.victim", dir);
    put(victim, victim_text);
    atomic_replace();
    opens();
    outputs();
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, victim);
    if (system(cmd)) return 1;
    return t_exit();
}
