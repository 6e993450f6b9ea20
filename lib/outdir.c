/* outdir.c - see outdir.h. */
#include "lib/outdir.h"

#include "lib/outlock.h"
#include "lib/safeio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 when dir holds nothing but mnw.lock (a lock file of an earlier run is
 * mnw's own, not the user's). */
static int dir_empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *de;
    int empty = 1;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, MNW_LOCK_FILE)) {
            empty = 0;
            break;
        }
    closedir(d);
    return empty;
}

int mnw_outdir_check(const char *dir, int force, mnw_err *e)
{
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (!S_ISDIR(sb.st_mode)) return mnw_err_set(e, "%s: output directory is not a directory", dir);
        if (access(dir, W_OK | X_OK) != 0)
            return mnw_err_set(e, "%s: output directory is not writable: %s", dir, strerror(errno));
        int em = dir_empty(dir);
        if (em < 0) return mnw_err_set(e, "%s: cannot read output directory: %s", dir, strerror(errno));
        if (!em && !force)
            return mnw_err_set(e, "%s: output directory is not empty (use --force to replace mnw's files there)", dir);
        return 0;
    }
    if (errno != ENOENT && errno != ENOTDIR)
        return mnw_err_set(e, "%s: cannot use as output directory: %s", dir, strerror(errno));
    /* find the first existing ancestor and check it */
    char *p = mnw_xstrdup(dir);
    int rc = 0;
    for (;;) {
        char *slash = strrchr(p, '/');
        while (slash && slash > p && slash[1] == 0) { /* trailing slashes */
            *slash = 0;
            slash = strrchr(p, '/');
        }
        if (!slash) {
            strcpy(p, ".");
        } else if (slash == p) {
            p[1] = 0;
        } else {
            *slash = 0;
        }
        if (stat(p, &sb) == 0) {
            if (!S_ISDIR(sb.st_mode)) rc = mnw_err_set(e, "%s: cannot create output directory: %s is not a directory", dir, p);
            else if (access(p, W_OK | X_OK) != 0)
                rc = mnw_err_set(e, "%s: cannot create output directory: %s is not writable (%s)", dir, p, strerror(errno));
            break;
        }
        if (errno != ENOENT && errno != ENOTDIR) {
            rc = mnw_err_set(e, "%s: cannot create output directory: %s: %s", dir, p, strerror(errno));
            break;
        }
        if (!strcmp(p, ".") || !strcmp(p, "/")) break;
    }
    free(p);
    return rc;
}

int mnw_outdir_check_names(const char *dir, const char *const *names, const int *replaced, int n, mnw_err *e)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) return 0; /* no OUTDIR yet, or not a directory: mnw_outdir_check says */
    int rc = 0;
    for (int k = 0; k < n && !rc; k++) {
        struct stat st;
        if (replaced && replaced[k]) {
            if (fstatat(dfd, names[k], &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
                rc = mnw_safe_check(dir, names[k], &st, e);
        } else {
            rc = mnw_safe_probe(dfd, dir, names[k], e);
        }
    }
    close(dfd);
    return rc;
}

int mnw_outdir_create(const char *dir, mnw_err *e)
{
    char *p = mnw_xstrdup(dir);
    size_t len = strlen(p);
    int rc = 0;
    for (size_t k = 1; k <= len; k++) {
        if (p[k] == '/' || p[k] == 0) {
            char c = p[k];
            p[k] = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                rc = mnw_err_set(e, "%s: cannot create output directory: %s", p, strerror(errno));
                break;
            }
            p[k] = c;
        }
    }
    free(p);
    return rc;
}
