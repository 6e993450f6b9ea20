/* log.c - see log.h. */
#include "lib/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/safeio.h"
#include "lib/util.h"

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;
static int log_rank, log_level = MNW_LOG_INFO, log_isatty, progress_shown;
static char log_host[64] = "?";
static _Thread_local char log_thread[24] = "main";

void mnw_log_init(int rank, int stderr_level)
{
    log_rank = rank;
    log_level = stderr_level;
    mnw_hostname(log_host, sizeof log_host, 1);
    log_isatty = isatty(2);
}

void mnw_log_set_stderr_level(int level)
{
    CHECK_PT(pthread_mutex_lock(&log_mu));
    log_level = level;
    CHECK_PT(pthread_mutex_unlock(&log_mu));
}

void mnw_log_set_thread(const char *name) { snprintf(log_thread, sizeof log_thread, "%s", name); }

int mnw_log_tty(void) { return log_isatty && log_level >= MNW_LOG_INFO; }

int mnw_log_open(const char *path, mnw_err *e)
{
    /* appended to, as a regular file of mnw's own only (lib/safeio.h) */
    int fd = mnw_safe_open_path(path, MNW_SAFE_CREATE | MNW_SAFE_APPEND | MNW_SAFE_0666, NULL, e);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "a");
    if (!f) {
        int er = errno;
        close(fd);
        return mnw_err_set(e, "%s: cannot open: %s", path, strerror(er));
    }
    CHECK_PT(pthread_mutex_lock(&log_mu));
    log_file = f;
    CHECK_PT(pthread_mutex_unlock(&log_mu));
    return 0;
}

void mnw_log_close(void)
{
    CHECK_PT(pthread_mutex_lock(&log_mu));
    if (log_file) fclose(log_file);
    log_file = NULL;
    CHECK_PT(pthread_mutex_unlock(&log_mu));
}

static const char *lvl_name[] = {"ERROR", "WARN", "INFO", "DEBUG"};

void mnw_log(int level, const char *fmt, ...)
{
    char msg[2048]; /* a longer message is fitted: long paths shortened in the middle, its end whole */
    va_list ap;
    va_start(ap, fmt);
    mnw_vfmt_fit(msg, sizeof msg, fmt, ap);
    va_end(ap);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    char ts[32];
    strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", &tm);
    CHECK_PT(pthread_mutex_lock(&log_mu));
    if (level <= log_level) {
        if (progress_shown) fputs("\r\033[K", stderr);
        fprintf(stderr, "%s [%d/%s/%s] %s %s\n", ts, log_rank, log_host, log_thread, lvl_name[level], msg);
        progress_shown = 0;
    }
    if (log_file && level <= MNW_LOG_INFO) {
        fprintf(log_file, "%s [%d/%s/%s] %s %s\n", ts, log_rank, log_host, log_thread, lvl_name[level], msg);
        fflush(log_file);
    }
    CHECK_PT(pthread_mutex_unlock(&log_mu));
}

void mnw_log_progress(const char *fmt, ...)
{
    if (!mnw_log_tty()) return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    CHECK_PT(pthread_mutex_lock(&log_mu));
    fprintf(stderr, "\r\033[K%s", msg);
    fflush(stderr);
    progress_shown = 1;
    CHECK_PT(pthread_mutex_unlock(&log_mu));
}

void mnw_log_progress_end(void)
{
    CHECK_PT(pthread_mutex_lock(&log_mu));
    if (progress_shown) fputs("\n", stderr);
    progress_shown = 0;
    CHECK_PT(pthread_mutex_unlock(&log_mu));
}
