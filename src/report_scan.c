/* report_scan.c - the one streaming pass of `mnw report` over a run's
 * pairs.tsv.gz, split over threads by byte range (report_scan.h says how
 * and why the figures do not depend on the split).
 *
 * Two rounds of threads. Round 1: each thread but the first finds the first
 * gzip member that starts in its range (bytes 1f 8b 08, then the member
 * inflated whole: its CRC-32 and length must hold, so a stray 1f 8b 08 inside
 * compressed data is passed over). Round 2: each thread that found one reads
 * the members from there while they start before the next found one, and
 * must end exactly on it. zlib inflates (streaming: a member of any size). */
#include "src/report_scan.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/regfile.h"
#include "lib/runfile.h"

enum { IN_CAP = 1 << 20, OUT_CAP = 4 << 20, FIND_CAP = 1 << 16, MIN_RANGE = 4 << 20 };

/* s's figures zeroed, its nearest-neighbour arrays for nseq sequences */
static void stats_alloc(mnw_scan *s, uint64_t nseq)
{
    memset(s, 0, sizeof *s);
    s->nseq = nseq;
    s->nn = mnw_xmalloc((size_t)(nseq ? nseq : 1) * sizeof *s->nn);
    s->nn_of = mnw_xmalloc((size_t)(nseq ? nseq : 1) * sizeof *s->nn_of);
    for (uint64_t k = 0; k < nseq; k++) s->nn[k] = MNW_SCAN_NONE, s->nn_of[k] = UINT32_MAX;
    s->id_min = MNW_SCAN_NONE;
}

void mnw_scan_init(mnw_scan *s, uint64_t nseq)
{
    stats_alloc(s, nseq);
    s->name = mnw_xcalloc((size_t)(nseq ? nseq : 1), sizeof *s->name);
}

void mnw_scan_free(mnw_scan *s)
{
    for (uint64_t k = 0; k < s->nseq; k++) free(s->name[k]);
    free(s->name);
    free(s->nn);
    free(s->nn_of);
    memset(s, 0, sizeof *s);
}

int mnw_scan_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* keeps the MNW_SCAN_TOP best pairs of its kind in top[] (closest: larger
 * identity first; distant: smaller first); among equal ones the one offered
 * first stays first */
static void keep_top(mnw_scan_pair *top, int *n, const mnw_scan_pair *p, int closest)
{
    int k = *n;
    if (k == MNW_SCAN_TOP) {
        const mnw_scan_pair *w = &top[k - 1];
        if (closest ? p->id <= w->id : p->id >= w->id) return;
        k--;
    }
    while (k > 0 && (closest ? p->id > top[k - 1].id : p->id < top[k - 1].id)) {
        top[k] = top[k - 1];
        k--;
    }
    top[k] = *p;
    if (*n < MNW_SCAN_TOP) (*n)++;
}

/* the nearer neighbour: the larger identity, then the smaller index */
static void keep_nn(uint32_t *nn, uint32_t *nn_of, uint64_t i, uint32_t id, uint32_t of)
{
    if (nn[i] == MNW_SCAN_NONE || id > nn[i] || (id == nn[i] && of < nn_of[i])) nn[i] = id, nn_of[i] = of;
}

/* one thread's share: its range, its reader, its own figures (the names are
 * shared: each set once, by whichever thread reads it first) */
typedef struct {
    mnw_scan *all;
    const char *path;
    int fd;
    uint64_t from, to;   /* the range whose members this thread reads: [from, to) */
    uint64_t end;        /* the bytes of the file read at most */
    uint64_t start;      /* round 1: the first member found in the range (end: none) */
    uint64_t limit;      /* round 2: where the next thread's first member starts */
    mnw_scan st;         /* hist, nn, tops, ... (st.name is all->name) */
    unsigned char *in;
    uint64_t base;       /* file offset of in[0] */
    size_t len;          /* bytes in in[] */
    char *out;
    z_stream z;
    int zok;
    uint64_t member, line; /* where a line is read: its member's byte, its line in it */
    int rc;
    mnw_err e;
} part;

static void name_of(part *p, uint64_t i, const char *f, size_t len)
{
    char **slot = &p->all->name[i];
    if (__atomic_load_n(slot, __ATOMIC_ACQUIRE)) return;
    char *n = mnw_xmalloc(len + 1), *none = NULL;
    memcpy(n, f, len);
    n[len] = 0;
    if (!__atomic_compare_exchange_n(slot, &none, n, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) free(n);
}

static int bad_line(part *p, const char *why)
{
    return mnw_err_set(&p->e, "%s: the gzip member at byte %llu, its line %llu: %s", p->path,
                       (unsigned long long)p->member, (unsigned long long)p->line, why);
}

/* "0.123456" or "1.000000" (pairs.tsv's %.6f of an identity): millionths,
 * or -1 */
static long parse_id(const char *f, size_t len)
{
    if (len != 8 || f[1] != '.' || (f[0] != '0' && f[0] != '1')) return -1;
    long v = f[0] - '0';
    for (int k = 2; k < 8; k++) {
        if (f[k] < '0' || f[k] > '9') return -1;
        v = v * 10 + (f[k] - '0');
    }
    return v <= (long)MNW_SCAN_ONE ? v : -1;
}

/* a decimal index below `below`, or -1 */
static int64_t parse_index(const char *f, size_t len, uint64_t below)
{
    if (len == 0 || len > 19) return -1;
    uint64_t v = 0;
    for (size_t k = 0; k < len; k++) {
        if (f[k] < '0' || f[k] > '9') return -1;
        v = v * 10 + (uint64_t)(f[k] - '0');
    }
    return v < below ? (int64_t)v : -1;
}

/* One line of pairs.tsv (without its newline). 0, or -1 with p->e set. */
static int one_line(part *p, const char *line, size_t len)
{
    if (p->member == 0 && p->line == 1 && len >= 2 && line[0] == 'i' && line[1] == '\t') return 0; /* the header */
    const char *f[12];
    size_t fl[12];
    int nf = 0;
    const char *q = line, *end = line + len;
    while (nf < 12) {
        const char *t = memchr(q, '\t', (size_t)(end - q));
        f[nf] = q;
        fl[nf] = (size_t)((t ? t : end) - q);
        nf++;
        if (!t) break;
        q = t + 1;
    }
    if (nf < 11) {
        char why[80];
        snprintf(why, sizeof why, "%d columns, not the 11 or 12 of pairs.tsv", nf);
        return bad_line(p, why);
    }
    mnw_scan *s = &p->st;
    int64_t i = parse_index(f[0], fl[0], s->nseq), j = i < 0 ? -1 : parse_index(f[1], fl[1], (uint64_t)i);
    long id = parse_id(f[10], fl[10]);
    if (i < 0 || j < 0 || id < 0) return bad_line(p, "not a pairs.tsv line of this run (i, j < i, identity)");
    name_of(p, (uint64_t)i, f[2], fl[2]);
    name_of(p, (uint64_t)j, f[3], fl[3]);
    uint32_t u = (uint32_t)id;
    int bin = (int)(u / (MNW_SCAN_ONE / MNW_SCAN_BINS));
    s->hist[bin < MNW_SCAN_BINS ? bin : MNW_SCAN_BINS - 1]++;
    for (int t = 0; t < s->nth; t++) s->above[t] += u >= s->th[t];
    s->pairs++;
    if (u < s->id_min || s->id_min == MNW_SCAN_NONE) s->id_min = u;
    if (u > s->id_max) s->id_max = u;
    s->id_sum += u;
    keep_nn(s->nn, s->nn_of, (uint64_t)i, u, (uint32_t)j);
    keep_nn(s->nn, s->nn_of, (uint64_t)j, u, (uint32_t)i);
    mnw_scan_pair pr = {(uint64_t)i, (uint64_t)j, u};
    keep_top(s->closest, &s->nclosest, &pr, 1);
    keep_top(s->distant, &s->ndistant, &pr, 0);
    return 0;
}

/* Inflates the gzip member that starts at byte `at`; with `count`, each of
 * its lines goes to one_line (it must end with a whole line). *next: the
 * byte after it. 0, or -1 with p->e set. */
static int member(part *p, uint64_t at, int count, uint64_t *next)
{
    if (at < p->base || at > p->base + p->len) p->base = at, p->len = 0;
    if (inflateReset(&p->z) != Z_OK) return mnw_err_set(&p->e, "%s: zlib: cannot start a member", p->path);
    p->z.next_in = p->in + (at - p->base);
    p->z.avail_in = (uInt)(p->base + p->len - at);
    p->member = at;
    p->line = 0;
    size_t have = 0; /* bytes of a line carried over in out */
    for (;;) {
        if (p->z.avail_in == 0) {
            uint64_t from = p->base + p->len;
            if (from >= p->end)
                return mnw_err_set(&p->e, "%s: the gzip data ends inside the member at byte %llu, at byte %llu (a damaged "
                                          "or cut file)", p->path, (unsigned long long)at, (unsigned long long)from);
            size_t want = p->end - from < IN_CAP ? (size_t)(p->end - from) : IN_CAP;
            ssize_t r = pread(p->fd, p->in, want, (off_t)from);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0)
                return mnw_err_set(&p->e, "%s: read failed at byte %llu: %s", p->path, (unsigned long long)from,
                                   r < 0 ? strerror(errno) : "the file is shorter than before");
            p->base = from;
            p->len = (size_t)r;
            p->z.next_in = p->in;
            p->z.avail_in = (uInt)r;
        }
        p->z.next_out = (Bytef *)p->out + have;
        p->z.avail_out = (uInt)(OUT_CAP - have);
        int zr = inflate(&p->z, Z_NO_FLUSH);
        if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR)
            return mnw_err_set(&p->e, "%s: not gzip data in the member at byte %llu, near byte %llu (%s)", p->path,
                               (unsigned long long)at,
                               (unsigned long long)(p->base + (uint64_t)(p->z.next_in - p->in)),
                               p->z.msg ? p->z.msg : "damaged");
        size_t n = OUT_CAP - p->z.avail_out, from = 0;
        if (count) {
            for (size_t k = have; k < n; k++) {
                if (p->out[k] != '\n') continue;
                p->line++;
                if (one_line(p, p->out + from, k - from)) return -1;
                from = k + 1;
            }
            if (from == 0 && n == OUT_CAP)
                return mnw_err_set(&p->e, "%s: the gzip member at byte %llu: line %llu is longer than %d bytes",
                                   p->path, (unsigned long long)at, (unsigned long long)p->line + 1, OUT_CAP);
            memmove(p->out, p->out + from, n - from);
            have = n - from;
        }
        if (zr == Z_STREAM_END) {
            if (have) {
                p->line++;
                return bad_line(p, "the member ends inside this line (each work list's member ends with a whole line)");
            }
            *next = p->base + (uint64_t)(p->z.next_in - p->in);
            return 0;
        }
    }
}

/* round 1: the first member that starts in [from, to): p->start (p->end if
 * none) */
static void *find_first(void *arg)
{
    part *p = arg;
    unsigned char buf[FIND_CAP];
    uint64_t pos = p->from, next;
    p->start = p->end;
    while (pos < p->to) {
        size_t want = p->end - pos < FIND_CAP ? (size_t)(p->end - pos) : FIND_CAP;
        ssize_t r = pread(p->fd, buf, want, (off_t)pos);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            p->rc = mnw_err_set(&p->e, "%s: read failed at byte %llu: %s", p->path, (unsigned long long)pos,
                                r < 0 ? strerror(errno) : "the file is shorter than before");
            return NULL;
        }
        size_t n = (size_t)r, k = 0;
        for (; k + 3 <= n && pos + k < p->to; k++) {
            if (buf[k] != 0x1f || buf[k + 1] != 0x8b || buf[k + 2] != 0x08) continue;
            if (member(p, pos + k, 0, &next) == 0) {
                p->start = pos + k;
                return NULL;
            }
        }
        if (k + 3 > n && pos + n == p->end) break; /* fewer than 3 bytes left: no header */
        pos += k ? k : 1;
    }
    return NULL;
}

/* round 2: the members from p->start while they start before p->limit */
static void *read_members(void *arg)
{
    part *p = arg;
    uint64_t at = p->start;
    while (at < p->limit) {
        if (member(p, at, 1, &at)) {
            p->rc = -1;
            return NULL;
        }
        p->st.members++;
    }
    if (at != p->limit)
        p->rc = mnw_err_set(&p->e, "%s: damaged: the gzip member that ends at byte %llu runs past the start of the next "
                                   "one found, at byte %llu", p->path, (unsigned long long)at, (unsigned long long)p->limit);
    return NULL;
}

/* round 1 on parts 1..n-1 (part 0 starts at byte 0: no search), round 2
 * on each part with members to read; one thread each, part 0 in this one */
static void run_round(part *parts, int n, int round)
{
    pthread_t *tid = mnw_xmalloc((size_t)n * sizeof *tid);
    int *started = mnw_xcalloc((size_t)n, sizeof *started);
    for (int k = 1; k < n; k++)
        if (round == 1 || parts[k].start < parts[k].limit) {
            void *(*fn)(void *) = round == 1 ? find_first : read_members;
            /* a thread that cannot start (out of memory, ulimit -u): its
             * part is read here, after the others started; same figures */
            started[k] = pthread_create(&tid[k], NULL, fn, &parts[k]) == 0;
            if (!started[k]) fn(&parts[k]);
        }
    if (round == 2 && parts[0].start < parts[0].limit) read_members(&parts[0]);
    for (int k = 1; k < n; k++)
        if (started[k]) CHECK_PT(pthread_join(tid[k], NULL));
    free(started);
    free(tid);
}

/* adds part p's figures to s: parts in file order, so that ties keep it */
static void merge(mnw_scan *s, const mnw_scan *p)
{
    s->pairs += p->pairs;
    s->members += p->members;
    for (int t = 0; t < s->nth; t++) s->above[t] += p->above[t];
    for (int k = 0; k < MNW_SCAN_BINS; k++) s->hist[k] += p->hist[k];
    if (p->pairs) {
        if (s->id_min == MNW_SCAN_NONE || p->id_min < s->id_min) s->id_min = p->id_min;
        if (p->id_max > s->id_max) s->id_max = p->id_max;
    }
    s->id_sum += p->id_sum;
    for (uint64_t i = 0; i < s->nseq; i++)
        if (p->nn[i] != MNW_SCAN_NONE) keep_nn(s->nn, s->nn_of, i, p->nn[i], p->nn_of[i]);
    for (int k = 0; k < p->nclosest; k++) keep_top(s->closest, &s->nclosest, &p->closest[k], 1);
    for (int k = 0; k < p->ndistant; k++) keep_top(s->distant, &s->ndistant, &p->distant[k], 0);
}

int mnw_scan_pairs(mnw_scan *s, const char *path, uint64_t bytes, int threads, mnw_err *e)
{
    struct stat st;
    int fd = mnw_open_regular(path, O_RDONLY, 0, &st, e);
    if (fd == -1) return mnw_runfile_why(path, errno, e); /* a loop, a dangling link named as such */
    if (fd < 0) return -1;
    if ((uint64_t)st.st_size < bytes) {
        close(fd);
        return mnw_err_set(e, "%s: ends at byte %llu, before the bookmark's %llu (a cut file)", path,
                           (unsigned long long)st.st_size, (unsigned long long)bytes);
    }
    s->threads = 0;
    if (bytes == 0) {
        close(fd);
        return 0;
    }
    (void)posix_fadvise(fd, 0, (off_t)bytes, POSIX_FADV_SEQUENTIAL);
    uint64_t most = 1 + bytes / (s->min_range ? s->min_range : MIN_RANGE);
    int n = threads < 1 ? 1 : (uint64_t)threads > most ? (int)most : threads;
    part *parts = mnw_xcalloc((size_t)n, sizeof *parts);
    int rc = 0;
    for (int k = 0; k < n; k++) {
        part *p = &parts[k];
        p->all = s;
        p->path = path;
        p->fd = fd;
        p->end = bytes;
        p->from = bytes * (uint64_t)k / (uint64_t)n;
        p->to = bytes * (uint64_t)(k + 1) / (uint64_t)n;
        p->start = k == 0 ? 0 : bytes;
        p->in = mnw_xmalloc(IN_CAP);
        p->out = mnw_xmalloc(OUT_CAP);
        p->zok = inflateInit2(&p->z, 16 + MAX_WBITS) == Z_OK;
        stats_alloc(&p->st, s->nseq);
        p->st.name = s->name;
        p->st.nth = s->nth;
        memcpy(p->st.th, s->th, sizeof s->th);
        if (!p->zok && !rc) rc = mnw_err_set(e, "%s: zlib: cannot start", path);
    }
    if (!rc) {
        run_round(parts, n, 1);
        for (int k = 0; k < n && !rc; k++)
            if (parts[k].rc) {
                *e = parts[k].e;
                rc = -1;
            }
    }
    if (!rc) {
        /* each part reads up to the next part's first member (a part that
         * found none in its range reads nothing) */
        uint64_t next = bytes;
        for (int k = n - 1; k >= 0; k--) {
            parts[k].limit = parts[k].start < bytes ? next : parts[k].start;
            if (parts[k].start < bytes) next = parts[k].start;
        }
        run_round(parts, n, 2);
        for (int k = 0; k < n && !rc; k++)
            if (parts[k].rc) {
                *e = parts[k].e;
                rc = -1;
            }
    }
    for (int k = 0; k < n; k++) {
        if (!rc) merge(s, &parts[k].st);
        if (parts[k].zok) inflateEnd(&parts[k].z);
        free(parts[k].in);
        free(parts[k].out);
        free(parts[k].st.nn);
        free(parts[k].st.nn_of);
    }
    free(parts);
    close(fd);
    s->threads = n;
    return rc;
}
