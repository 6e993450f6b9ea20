/* test_gzmember.c - gzip members of whole buffers (lib/gzmember.c,
 * libdeflate): every level 0-12 and fast (its level 1) on empty, one-byte, incompressible and real
 * output text (mnw's own pairs.tsv lines of 200 real 16S genes), read back
 * with zlib (the reader mnw and most tools use) byte for byte; members
 * concatenated read as one file; levels out of range refused; the out buffer
 * replaced, not appended to; eight threads at once at mixed levels (the
 * compressor pool); a compressor that cannot get its memory ends the
 * process with mnw's out-of-memory message (issue 38), in a child under
 * RLIMIT_AS. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/fasta.h"
#include "lib/gzmember.h"
#include "tests/tap.h"

/* all members of in, inflated and concatenated into out; 0 or -1 */
static int inflate_all(const char *in, size_t len, mnw_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) return -1;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    char tmp[1 << 15];
    int rc = Z_STREAM_END;
    out->len = 0;
    while (z.avail_in > 0) {
        z.next_out = (Bytef *)tmp;
        z.avail_out = sizeof tmp;
        rc = inflate(&z, Z_NO_FLUSH);
        mnw_buf_put(out, tmp, sizeof tmp - z.avail_out);
        if (rc == Z_STREAM_END) {
            if (z.avail_in == 0) break;
            if (inflateReset(&z) != Z_OK) rc = Z_DATA_ERROR;
        }
        if (rc != Z_OK && rc != Z_STREAM_END) break;
    }
    inflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}

static int same_after_roundtrip(const char *in, size_t len, int level, size_t *zlen)
{
    mnw_buf z, back;
    mnw_buf_init(&z);
    mnw_buf_init(&back);
    mnw_buf_put(&z, "stale", 5); /* replaced, not appended to */
    int ok = mnw_gzip_member(in, len, level, &z) == 0 && z.len >= 18 && (uint8_t)z.p[0] == 0x1f &&
             (uint8_t)z.p[1] == 0x8b && inflate_all(z.p, z.len, &back) == 0 && back.len == len &&
             (len == 0 || !memcmp(back.p, in, len));
    if (zlen) *zlen = z.len;
    mnw_buf_free(&z);
    mnw_buf_free(&back);
    return ok;
}

typedef struct {
    const mnw_buf *text;
    int id, bad;
} thr;

static void *worker(void *arg)
{
    thr *t = arg;
    for (int k = 0; k < 40; k++) {
        size_t len = t->text->len / 7 + (size_t)(t->id * 977 + k * 131) % (t->text->len / 3);
        int level = (t->id + k) % 14;
        if (!same_after_roundtrip(t->text->p, len, level == 13 ? MNW_GZIP_FAST : level, NULL)) t->bad++;
    }
    return NULL;
}

/* In a child with no compressor yet and its address space limited to what
 * it uses plus 64 KiB: a level-12 member needs a new compressor (about a
 * megabyte), which cannot be had. mnw's rule: the out-of-memory message
 * and exit 1 (mnw_oom), not a "failed" compression. *msg gets the child's
 * stderr; returns its wait status. */
static int member_without_memory(char *msg, size_t n)
{
    int fds[2];
    if (pipe(fds)) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        long pages = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &pages) != 1) _exit(4);
        fclose(f);
        struct rlimit rl = {.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + 65536};
        rl.rlim_max = rl.rlim_cur;
        if (setrlimit(RLIMIT_AS, &rl)) _exit(5);
        static char in[64] = "ACGT";
        mnw_buf out = {0};
        _exit(mnw_gzip_member(in, sizeof in, 12, &out) ? 3 : 0);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(fds[0], msg + got, n - 1 - got)) > 0) got += (size_t)r;
    msg[got] = 0;
    close(fds[0]);
    int st = -1;
    waitpid(pid, &st, 0);
    return st;
}

int main(void)
{
    /* first, before this process has any compressor to reuse */
    if (getenv("MNW_SAN")) {
        printf("# the out-of-memory child is left out under a sanitizer (its shadow memory needs terabytes)\n");
    } else {
        char msg[2048];
        int st = member_without_memory(msg, sizeof msg);
        T_OK(WIFEXITED(st) && WEXITSTATUS(st) == 1 && strstr(msg, "mnw: out of memory: could not get ") &&
                 strstr(msg, "lib/gzmember.c"),
             "a compressor without memory: exit 1 with the out-of-memory message (status %d: %.200s)",
             WIFEXITED(st) ? WEXITSTATUS(st) : -st, msg);
    }

    /* real output text: lines like pairs.tsv's, from 200 real 16S genes */
    mnw_seqset S;
    mnw_seqset_init(&S);
    mnw_err e;
    if (mnw_fasta_read("tests/data/16s-200.fa", &S, &e)) {
        printf("# %s\n", e.msg);
        return 1;
    }
    mnw_buf text;
    mnw_buf_init(&text);
    for (size_t i = 1; i < S.n && text.len < (2u << 20); i++)
        for (size_t j = 0; j < i; j++) {
            mnw_buf_put_u64(&text, i);
            mnw_buf_putc(&text, '\t');
            mnw_buf_put_u64(&text, j);
            mnw_buf_putc(&text, '\t');
            mnw_buf_puts(&text, mnw_seq_id(&S, i));
            mnw_buf_putc(&text, '\t');
            mnw_buf_puts(&text, mnw_seq_id(&S, j));
            mnw_buf_puts(&text, "\t-1234\t1500\t1400\t80\t10\t20\t0.933333\n");
        }
    char *noise = malloc(1 << 20);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (size_t k = 0; k < (1u << 20); k++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        noise[k] = (char)(x >> 32);
    }
    for (int lk = 0; lk <= 13; lk++) {
        const int level = lk == 13 ? MNW_GZIP_FAST : lk;
        size_t zl = 0;
        T_OK(same_after_roundtrip("", 0, level, NULL), "level %d: an empty buffer is one valid member of nothing",
             level);
        T_OK(same_after_roundtrip("A", 1, level, NULL), "level %d: one byte round-trips", level);
        T_OK(same_after_roundtrip(noise, 1u << 20, level, &zl) && zl <= (1u << 20) + (1u << 12),
             "level %d: 1 MiB of random bytes round-trips, barely larger (%zu bytes)", level, zl);
        T_OK(same_after_roundtrip(text.p, text.len, level, &zl) && (level == 0 || zl < text.len / (level == MNW_GZIP_FAST ? 2 : 4)),
             "level %d: %zu bytes of pairs.tsv lines round-trip through zlib (%zu bytes compressed)", level, text.len,
             zl);
    }
    mnw_buf z;
    size_t zl0 = 0;
    mnw_buf_init(&z);
    T_OK(mnw_gzip_member("abc", 3, -1, &z) == -1 && mnw_gzip_member("abc", 3, 13, &z) == -1 &&
             mnw_gzip_member("abc", 3, MNW_GZIP_FAST + 1, &z) == -1,
         "levels -1, 13 and fast + 1 are refused");

    /* fast (libdeflate's level 1): the same bytes every time and the same as
     * level 1's (a pooled compressor holds nothing over), a header with
     * mtime 0 and OS unknown, and CIGAR-like text (runs of = X I D) less
     * than half of itself */
    mnw_buf z1, z2, cig;
    mnw_buf_init(&z1);
    mnw_buf_init(&z2);
    mnw_buf_init(&cig);
    uint64_t y = 12345;
    while (cig.len < (1u << 20)) {
        y = y * 6364136223846793005ull + 1442695040888963407ull;
        mnw_buf_put_u64(&cig, 1 + (y >> 60));
        mnw_buf_putc(&cig, "=XID"[(y >> 40) % 4 == 0 ? (y >> 20) % 4 : 0]);
        if ((y >> 33) % 300 == 0) mnw_buf_putc(&cig, '\n');
    }
    int same = 1;
    for (int k = 0; k < 3; k++) {
        same &= mnw_gzip_member(text.p, text.len, 3, &z2) == 0; /* another level between */
        same &= mnw_gzip_member(cig.p, cig.len, MNW_GZIP_FAST, k ? &z2 : &z1) == 0;
        if (k) same &= z1.len == z2.len && !memcmp(z1.p, z2.p, z1.len);
    }
    mnw_buf z3;
    mnw_buf_init(&z3);
    T_OK(mnw_gzip_member(cig.p, cig.len, MNW_GZIP_FAST_LEVEL, &z3) == 0 && z3.len == z1.len && !memcmp(z3.p, z1.p, z1.len),
         "fast: the bytes of libdeflate's level %d", MNW_GZIP_FAST_LEVEL);
    mnw_buf_free(&z3);
    T_OK(same && z1.len > 10 && (uint8_t)z1.p[3] == 0 && !memcmp(z1.p + 4, "\0\0\0\0", 4) && (uint8_t)z1.p[9] == 255,
         "fast: the same member three times (%zu bytes), header flags 0, mtime 0, OS 255", z1.len);
    T_OK(same_after_roundtrip(cig.p, cig.len, MNW_GZIP_FAST, &zl0) && zl0 < cig.len / 2,
         "fast: %zu bytes of CIGAR-like text round-trip, %zu compressed", cig.len, zl0);
    mnw_buf_free(&z1);
    mnw_buf_free(&z2);
    mnw_buf_free(&cig);

    /* three members one after another: one gzip file of the three texts */
    mnw_buf file, back, part;
    mnw_buf_init(&file);
    mnw_buf_init(&back);
    mnw_buf_init(&part);
    const size_t cut[4] = {0, text.len / 3, text.len / 2, text.len};
    for (int k = 0; k < 3; k++) {
        mnw_gzip_member(text.p + cut[k], cut[k + 1] - cut[k], k == 1 ? MNW_GZIP_FAST : 1 + 4 * k, &part);
        mnw_buf_put(&file, part.p, part.len);
    }
    T_OK(inflate_all(file.p, file.len, &back) == 0 && back.len == text.len && !memcmp(back.p, text.p, text.len),
         "three members at levels 1, fast, 9 concatenated read back as the whole text");

    pthread_t th[8];
    thr t[8];
    for (int k = 0; k < 8; k++) {
        t[k] = (thr){&text, k, 0};
        pthread_create(&th[k], NULL, worker, &t[k]);
    }
    int bad = 0;
    for (int k = 0; k < 8; k++) {
        pthread_join(th[k], NULL);
        bad += t[k].bad;
    }
    T_OK(bad == 0, "8 threads x 40 members at mixed levels, at once: all round-trip (%d bad)", bad);

    mnw_buf_free(&z);
    mnw_buf_free(&file);
    mnw_buf_free(&back);
    mnw_buf_free(&part);
    mnw_buf_free(&text);
    free(noise);
    mnw_seqset_free(&S);
    return t_exit();
}
