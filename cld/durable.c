/* durable.c - see durable.h. */
#include "cld/durable.h"

static void *durable_main(void *arg)
{
    mnw_durable *d = arg;
    int rc = mnw_writer_fsync(d->w, d->fd, &d->err);
    if (!rc) rc = mnw_writer_check_len(d->w, d->bytes, 1, &d->err);
    if (!rc) rc = mnw_bookmark_write(d->dir, d->b, &d->err);
    d->rc = rc;
    d->took_s = mnw_now() - d->t0;
    __atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

int mnw_durable_start(mnw_durable *d, const mnw_writer *w, const uint64_t bytes[MNW_NOUT], const char *dir,
                      const mnw_bookmark *b, mnw_err *e)
{
    if (d->running) return mnw_err_set(e, "a bookmark is being written already (internal)");
    d->w = w;
    d->dir = dir;
    d->b = b;
    for (int o = 0; o < MNW_NOUT; o++) {
        d->fd[o] = mnw_writer_fd(w, o);
        d->bytes[o] = bytes[o];
    }
    d->rc = 0;
    d->done = 0;
    d->t0 = mnw_now();
    int rc = pthread_create(&d->th, NULL, durable_main, d);
    if (rc) return mnw_err_thread(e, "bookmark thread", rc);
    d->running = 1;
    return 0;
}

int mnw_durable_poll(mnw_durable *d, int wait, int *finished, mnw_err *e)
{
    *finished = 0;
    if (!d->running) return 0;
    if (!wait && !__atomic_load_n(&d->done, __ATOMIC_ACQUIRE)) return 1;
    double t0 = mnw_now();
    CHECK_PT(pthread_join(d->th, NULL));
    d->running = 0;
    if (wait) d->waited_s += mnw_now() - t0;
    if (d->rc) {
        *e = d->err;
        return -1;
    }
    d->n++;
    d->total_s += d->took_s;
    if (d->took_s > d->longest_s) d->longest_s = d->took_s;
    *finished = 1;
    return 0;
}
