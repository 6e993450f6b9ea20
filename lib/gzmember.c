/* gzmember.c - see gzmember.h. */
#include "lib/gzmember.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"

/* An encoder's state, one per level in use by each thread at a time:
 * allocating a libdeflate compressor (about 1 MB) costs far more than a
 * work list's member, so they are kept. They stay reachable from `pool`
 * until the process ends. */
typedef struct pooled {
    struct libdeflate_compressor *c;
    int level;
    struct pooled *next;
} pooled;
static pooled *pool;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;

/* libdeflate's allocations (a compressor: up to about 1 MB) go through
 * mnw's rule for memory: one that fails ends the process with the
 * out-of-memory message (mnw_oom), as mnw_xmalloc does, rather than
 * coming back as a compression that "failed" (issue 38: under ulimit -v) */
static void *gz_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p) mnw_oom(n, __FILE__, __LINE__);
    return p;
}
static pthread_once_t gz_once = PTHREAD_ONCE_INIT;
static void gz_init(void) { libdeflate_set_memory_allocator(gz_malloc, free); }

static pooled *take(int level)
{
    CHECK_PT(pthread_once(&gz_once, gz_init));
    pooled *p = NULL;
    if (pthread_mutex_lock(&pool_mu) == 0) {
        for (pooled **q = &pool; *q; q = &(*q)->next)
            if ((*q)->level == level) {
                p = *q;
                *q = p->next;
                break;
            }
        pthread_mutex_unlock(&pool_mu);
    }
    if (p) return p;
    p = mnw_xcalloc(1, sizeof *p);
    p->level = level;
    p->c = libdeflate_alloc_compressor(level); /* NULL only for a bad level: memory goes through gz_malloc */
    if (!p->c) {
        free(p);
        return NULL;
    }
    return p;
}

static void give(pooled *p)
{
    if (pthread_mutex_lock(&pool_mu) == 0) {
        p->next = pool;
        pool = p;
        pthread_mutex_unlock(&pool_mu);
    } else {
        libdeflate_free_compressor(p->c);
        free(p);
    }
}

int mnw_gzip_member(const char *in, size_t len, int level, mnw_buf *out)
{
    if (level == MNW_GZIP_FAST) level = MNW_GZIP_FAST_LEVEL;
    if (level < 0 || level > 12) return -1;
    pooled *p = take(level);
    if (!p) return -1;
    out->len = 0;
    size_t bound = libdeflate_gzip_compress_bound(p->c, len);
    mnw_buf_reserve(out, bound);
    size_t n = libdeflate_gzip_compress(p->c, in, len, out->p, out->cap);
    give(p);
    if (n == 0) return -1;
    out->len = n;
    return 0;
}

const char *mnw_gzip_level_name(int level, char buf[8])
{
    if (level == MNW_GZIP_FAST) return "fast";
    if (level == MNW_GZIP_AUTO) return "auto";
    snprintf(buf, 8, "%d", level);
    return buf;
}
