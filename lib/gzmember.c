/* gzmember.c - see gzmember.h. */
#include "lib/gzmember.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"

/* An encoder's state, one per level in use by each thread at a time:
 * allocating a libdeflate compressor (about 1 MB) or igzip's level buffer
 * costs far more than a work list's member, so they are kept. They stay
 * reachable from `pool` until the process ends. */
typedef struct pooled {
    struct libdeflate_compressor *c; /* levels 0-12 */
    unsigned char *isal_buf;         /* MNW_GZIP_FAST: igzip's level buffer */
    int level;
    struct pooled *next;
} pooled;
static pooled *pool;
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;

#if MNW_GZIP_FAST_ISAL == 3
#define ISAL_LVL_BUF ISAL_DEF_LVL3_DEFAULT
#elif MNW_GZIP_FAST_ISAL == 2
#define ISAL_LVL_BUF ISAL_DEF_LVL2_DEFAULT
#elif MNW_GZIP_FAST_ISAL == 1
#define ISAL_LVL_BUF ISAL_DEF_LVL1_DEFAULT
#else
#error "MNW_GZIP_FAST_ISAL: igzip has levels 1-3 with a level buffer"
#endif

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
    if (level == MNW_GZIP_FAST) {
        p->isal_buf = mnw_xmalloc(ISAL_LVL_BUF);
        return p;
    }
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
        if (p->c) libdeflate_free_compressor(p->c);
        free(p->isal_buf);
        free(p);
    }
}

/* igzip's whole-buffer deflate into a gzip member (its header: mtime 0,
 * OS "unknown", as libdeflate's). The room: stored blocks over the whole
 * input (5 bytes a block of at most 64 KB, header and trailer) are far
 * below it; igzip writes stored blocks where coding would not fit. */
static int isal_member(pooled *p, const char *in, size_t len, mnw_buf *out)
{
    size_t bound = len + len / 8 + 1024;
    mnw_buf_reserve(out, bound);
    struct isal_zstream s;
    isal_deflate_stateless_init(&s);
    s.level = MNW_GZIP_FAST_ISAL;
    s.level_buf = p->isal_buf;
    s.level_buf_size = ISAL_LVL_BUF;
    s.gzip_flag = IGZIP_GZIP;
    s.next_in = (uint8_t *)(uintptr_t)in;
    s.avail_in = (uint32_t)len;
    s.next_out = (uint8_t *)out->p;
    s.avail_out = (uint32_t)(out->cap < UINT32_MAX ? out->cap : UINT32_MAX);
    s.end_of_stream = 1;
    s.flush = NO_FLUSH;
    if (len > UINT32_MAX || isal_deflate_stateless(&s) != COMP_OK || s.avail_in != 0) return -1;
    out->len = s.total_out;
    return 0;
}

int mnw_gzip_member(const char *in, size_t len, int level, mnw_buf *out)
{
    if ((level < 0 || level > 12) && level != MNW_GZIP_FAST) return -1;
    pooled *p = take(level);
    if (!p) return -1;
    out->len = 0;
    if (level == MNW_GZIP_FAST) {
        int rc = isal_member(p, in, len, out);
        give(p);
        return rc;
    }
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
