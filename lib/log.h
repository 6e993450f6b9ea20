/* log.h - log lines prefixed "time [rank/host/thread] LEVEL", to stderr and,
 * once mnw_log_open succeeded, to OUTDIR/mnw.log.
 *
 * Thread-safety: every function may be called from any thread (one mutex);
 * mnw_log_set_thread names the calling thread (thread-local).
 */
#ifndef MNW_LOG_H
#define MNW_LOG_H

#include "lib/util.h"

enum { MNW_LOG_ERROR = 0, MNW_LOG_WARN = 1, MNW_LOG_INFO = 2, MNW_LOG_DEBUG = 3 };

/* stderr level: messages at or below it go to stderr (the file gets INFO
 * and below always). */
void mnw_log_init(int rank, int stderr_level);
void mnw_log_set_thread(const char *name);
/* Change the stderr level (-1: nothing to stderr, the log file only). */
void mnw_log_set_stderr_level(int level);
/* Appends to path from here on: a regular file with one link, created when
 * missing; a symbolic link, FIFO, directory or hard link there is refused
 * (lib/safeio.h). 0, or -1 with e set naming path. */
int mnw_log_open(const char *path, mnw_err *e) MNW_MUST_CHECK;
void mnw_log_close(void);
void mnw_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Progress line on a terminal: rewritten in place with \r; no-op when
 * stderr is not a terminal or the level is below INFO. */
void mnw_log_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mnw_log_progress_end(void);
int mnw_log_tty(void);

#define LOG_ERR(...) mnw_log(MNW_LOG_ERROR, __VA_ARGS__)
#define LOG_WARN(...) mnw_log(MNW_LOG_WARN, __VA_ARGS__)
#define LOG_INFO(...) mnw_log(MNW_LOG_INFO, __VA_ARGS__)
#define LOG_DEBUG(...) mnw_log(MNW_LOG_DEBUG, __VA_ARGS__)

#endif
