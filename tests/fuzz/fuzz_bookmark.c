/* fuzz_bookmark.c - libFuzzer target: the bookmark reader
 * (cld/bookmark.h, mnw_bookmark_read).
 *
 * Input: one mode byte, then the file's bytes T. With bit 0 of the mode set,
 * this target first gives T a valid CRC: T is cut before its first line
 * that begins with "end " (and ends with a newline), then the line
 * "end <CRC-32 of T>" is appended. Without this, nearly every mutation
 * fails the checksum and the checks behind it would never be reached.
 *
 * Properties checked, beyond "no crash, no leak, no undefined behaviour":
 *  - a refusal names the file and leaves *b initialised (empty);
 *  - an accepted bookmark is consistent: input-hash is 32 lower-case hex
 *    digits, pairs = sequences (sequences - 1) / 2 exactly (computed in 128
 *    bits), watermark <= pairs, settings of one-word keys and one-line
 *    values, outputs of one-word names without '/'; output checksums
 *    (version 2) of the output's length: a power-of-2 block size from 4096,
 *    length / block whole blocks, fewer than MNW_SUM_MAX_BLOCKS, and state
 *    (prefix, part) that gives back the CRC read; version 1 has none;
 *  - it round-trips: mnw_bookmark_write of what was read, read back, gives
 *    the same bookmark field for field, and writing that one gives the same
 *    bytes again.
 *
 * Ownership/thread-safety: one libFuzzer thread; a scratch directory made
 * once (removed at exit), everything else freed per input. */
#include <sys/stat.h>
#include <zlib.h>

#include "cld/bookmark.h"
#include "tests/fuzz/fuzz_util.h"

static char dir[256];

static void rm_dir(void)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, MNW_BOOKMARK_FILE);
    unlink(p);
    rmdir(dir);
}

static int is_empty(const mnw_bookmark *b)
{
    mnw_bookmark z;
    mnw_bookmark_init(&z);
    return !memcmp(b, &z, sizeof z);
}

static void check_consistent(const mnw_bookmark *b)
{
    fz_check(strlen(b->input_hash) == 32 && strspn(b->input_hash, "0123456789abcdef") == 32, "input-hash '%s'",
             b->input_hash);
    unsigned __int128 n = b->sequences, want = n * (n ? n - 1 : 0) / 2;
    fz_check(want == b->pairs, "sequences %llu, pairs %llu: not n (n - 1) / 2",
             (unsigned long long)b->sequences, (unsigned long long)b->pairs);
    fz_check(b->watermark <= b->pairs, "watermark %llu > pairs %llu", (unsigned long long)b->watermark,
             (unsigned long long)b->pairs);
    fz_check(b->nset >= 0 && b->nset <= MNW_BOOKMARK_MAX_SET && b->nout >= 0 && b->nout <= MNW_BOOKMARK_MAX_OUT,
             "%d settings, %d outputs", b->nset, b->nout);
    for (int k = 0; k < b->nset; k++)
        fz_check(*b->set_key[k] && !strpbrk(b->set_key[k], " \t\r\n") && !strpbrk(b->set_val[k], "\r\n"),
                 "setting '%s' = '%s'", b->set_key[k], b->set_val[k]);
    for (int k = 0; k < b->nout; k++) {
        fz_check(*b->out_name[k] && !strpbrk(b->out_name[k], " \t\r\n/"), "output '%s'", b->out_name[k]);
        const mnw_sum *s = b->out_sum[k];
        fz_check((b->version == 1) == !s, "version %d, output %s %s checksums", b->version, b->out_name[k],
                 s ? "with" : "without");
        if (!s) continue;
        fz_check(s->bytes == b->out_bytes[k] && s->block >= MNW_SUM_MIN_BLOCK && !(s->block & (s->block - 1)) &&
                     s->nblocks == s->bytes / s->block && s->nblocks < MNW_SUM_MAX_BLOCKS,
                 "output %s: %llu bytes, blocks of %llu, %u blocks", b->out_name[k], (unsigned long long)s->bytes,
                 (unsigned long long)s->block, s->nblocks);
        uint32_t prefix = 0;
        for (uint32_t i = 0; i < s->nblocks; i++) prefix = (uint32_t)crc32_combine(prefix, s->blocks[i], (z_off_t)s->block);
        fz_check(prefix == s->prefix, "output %s: the prefix is not the blocks combined", b->out_name[k]);
    }
}

static int same(const mnw_bookmark *a, const mnw_bookmark *b)
{
    if (strcmp(a->input_hash, b->input_hash) || a->sequences != b->sequences || a->pairs != b->pairs ||
        a->watermark != b->watermark || a->nset != b->nset || a->nout != b->nout)
        return 0;
    for (int k = 0; k < a->nset; k++)
        if (strcmp(a->set_key[k], b->set_key[k]) || strcmp(a->set_val[k], b->set_val[k])) return 0;
    for (int k = 0; k < a->nout; k++) {
        if (strcmp(a->out_name[k], b->out_name[k]) || a->out_bytes[k] != b->out_bytes[k]) return 0;
        const mnw_sum *x = a->out_sum[k], *y = b->out_sum[k];
        if (!x != !y) return 0;
        if (x && (mnw_sum_crc(x) != mnw_sum_crc(y) || x->block != y->block || x->nblocks != y->nblocks ||
                  x->prefix != y->prefix || x->part != y->part ||
                  memcmp(x->blocks, y->blocks, x->nblocks * sizeof *x->blocks)))
            return 0;
    }
    return 1;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    fz_check(f != NULL, "cannot open %s", path);
    char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap) buf = realloc(buf, cap = cap ? 2 * cap : 4096);
        size_t r = fread(buf + *n, 1, cap - *n, f);
        if (r == 0) break;
        *n += r;
    }
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/mnw-fuzz-bm.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        fz_check(mkdtemp(dir) != NULL, "mkdtemp %s", dir);
        atexit(rm_dir);
    }
    const uint8_t *t = data + 1;
    size_t n = size - 1;
    uint8_t *fixed = NULL;
    if (data[0] & 1) { /* give T a valid end line */
        size_t cut = 0;
        while (cut < n && !(n - cut >= 4 && !memcmp(t + cut, "end ", 4))) {
            const uint8_t *nl = memchr(t + cut, '\n', n - cut);
            cut = nl ? (size_t)(nl - t) + 1 : n;
        }
        fixed = malloc(cut + 16);
        memcpy(fixed, t, cut);
        if (cut && fixed[cut - 1] != '\n') fixed[cut++] = '\n';
        char end[16];
        snprintf(end, sizeof end, "end %08lx\n", (unsigned long)crc32(0L, fixed, (uInt)cut));
        memcpy(fixed + cut, end, 13);
        t = fixed;
        n = cut + 13;
    }
    fz_file f;
    fz_file_open(&f, t, n);
    mnw_bookmark b;
    mnw_err e;
    int rc = mnw_bookmark_read(f.path, &b, &e);
    if (rc != 0) {
        fz_check(rc == -1, "rc %d", rc);
        fz_check(fz_names_path(e.msg, f.path), "the message does not name the file: %s", e.msg);
        fz_check(is_empty(&b), "a refused bookmark is left filled");
    } else {
        check_consistent(&b);
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, MNW_BOOKMARK_FILE);
        fz_check(mnw_bookmark_write(dir, &b, &e) == 0, "cannot write back what was read: %s", e.msg);
        size_t n1, n2;
        char *t1 = slurp(path, &n1);
        mnw_bookmark r;
        fz_check(mnw_bookmark_read(path, &r, &e) == 0, "what was written is refused: %s", e.msg);
        fz_check(same(&b, &r), "the bookmark written reads back different");
        fz_check(mnw_bookmark_write(dir, &r, &e) == 0, "second write: %s", e.msg);
        char *t2 = slurp(path, &n2);
        fz_check(n1 == n2 && !memcmp(t1, t2, n1), "writing it again gives other bytes");
        free(t1);
        free(t2);
        mnw_bookmark_free(&r);
    }
    mnw_bookmark_free(&b);
    fz_file_close(&f);
    free(fixed);
    return 0;
}
