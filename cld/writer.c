/* writer.c - see writer.h. */
#include "writer.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"

static char *out_path(const char *outdir, int o)
{
    size_t len = strlen(outdir) + strlen(mnw_out_name[o]) + 2;
    char *p = mnw_xmalloc(len);
    snprintf(p, len, "%s/%s", outdir, mnw_out_name[o]);
    return p;
}

int mnw_writer_open(mnw_writer *w, const char *outdir, const mnw_outspec *sp, int gzip_level, mnw_err *e)
{
    memset(w, 0, sizeof *w);
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!sp->enabled[o]) continue;
        w->path[o] = out_path(outdir, o);
        w->enabled[o] = 1;
        w->f[o] = fopen(w->path[o], "wb");
        if (!w->f[o]) return mnw_err_set(e, "%s: cannot create: %s", w->path[o], strerror(errno));
        mnw_buf head, gz;
        mnw_buf_init(&head);
        mnw_buf_init(&gz);
        mnw_output_head(sp, o, &head);
        int rc = 0;
        if (head.len) {
            if (mnw_out_gzip[o]) {
                if (mnw_gzip_member(head.p, head.len, gzip_level, &gz)) rc = mnw_err_set(e, "%s: gzip failed", w->path[o]);
                else rc = mnw_writer_append(w, o, gz.p, gz.len, e);
            } else {
                rc = mnw_writer_append(w, o, head.p, head.len, e);
            }
        }
        mnw_buf_free(&head);
        mnw_buf_free(&gz);
        if (rc) return rc;
    }
    return 0;
}

int mnw_writer_reopen(mnw_writer *w, const char *outdir, const mnw_outspec *sp, const uint64_t bytes[MNW_NOUT],
                      mnw_err *e)
{
    memset(w, 0, sizeof *w);
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!sp->enabled[o]) continue;
        w->path[o] = out_path(outdir, o);
        w->enabled[o] = 1;
        w->f[o] = fopen(w->path[o], "r+b");
        if (!w->f[o]) return mnw_err_set(e, "%s: cannot open: %s", w->path[o], strerror(errno));
        if (ftruncate(fileno(w->f[o]), (off_t)bytes[o]) != 0 || fseeko(w->f[o], (off_t)bytes[o], SEEK_SET) != 0)
            return mnw_err_set(e, "%s: cannot cut to %llu bytes: %s", w->path[o], (unsigned long long)bytes[o],
                               strerror(errno));
        w->bytes[o] = bytes[o];
    }
    return 0;
}

int mnw_writer_append(mnw_writer *w, int o, const char *data, size_t len, mnw_err *e)
{
    if (!w->f[o] || len == 0) return 0;
    if (fwrite(data, 1, len, w->f[o]) != len) return mnw_err_set(e, "%s: write failed: %s", w->path[o], strerror(errno));
    w->bytes[o] += len;
    return 0;
}

int mnw_writer_sync(mnw_writer *w, mnw_err *e)
{
    for (int o = 0; o < MNW_NOUT; o++)
        if (w->f[o] && (fflush(w->f[o]) != 0 || fsync(fileno(w->f[o])) != 0))
            return mnw_err_set(e, "%s: write failed: %s", w->path[o], strerror(errno));
    return 0;
}

int mnw_writer_close(mnw_writer *w, mnw_err *e)
{
    int rc = 0;
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!w->f[o]) continue;
        if (fflush(w->f[o]) != 0 || fsync(fileno(w->f[o])) != 0) {
            if (!rc) rc = mnw_err_set(e, "%s: write failed: %s", w->path[o], strerror(errno));
        }
        if (fclose(w->f[o]) != 0 && !rc) rc = mnw_err_set(e, "%s: close failed: %s", w->path[o], strerror(errno));
        w->f[o] = NULL;
        free(w->path[o]);
        w->path[o] = NULL;
    }
    return rc;
}
