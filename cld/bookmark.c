/* bookmark.c - reading and writing OUTDIR/mnw.bookmark (bookmark.h). */
#include "cld/bookmark.h"
#include "lib/outsel.h"
#include "lib/regfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/afile.h"
#include "lib/buf.h"

/* ---- the bookmark ---- */

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

void mnw_bookmark_init(mnw_bookmark *b) { memset(b, 0, sizeof *b); }

void mnw_bookmark_free(mnw_bookmark *b)
{
    for (int k = 0; k < b->nset; k++) {
        free(b->set_key[k]);
        free(b->set_val[k]);
    }
    for (int k = 0; k < b->nout; k++) {
        free(b->out_name[k]);
        free(b->out_sum[k]);
    }
    mnw_bookmark_init(b);
}

static int one_word(const char *s) { return *s && !strpbrk(s, " \t\r\n"); }

int mnw_bookmark_set(mnw_bookmark *b, const char *key, const char *val, mnw_err *e)
{
    if (!one_word(key) || strpbrk(val, "\r\n"))
        return mnw_err_set(e, "bookmark: bad setting '%s' = '%s'", key, val);
    if (b->nset == MNW_BOOKMARK_MAX_SET) return mnw_err_set(e, "bookmark: more than %d settings", MNW_BOOKMARK_MAX_SET);
    b->set_key[b->nset] = mnw_xstrdup(key);
    b->set_val[b->nset] = mnw_xstrdup(val);
    b->nset++;
    return 0;
}

static int add_output(mnw_bookmark *b, const char *name, uint64_t bytes, const mnw_sum *sum, mnw_err *e)
{
    if (!one_word(name) || strchr(name, '/')) return mnw_err_set(e, "bookmark: bad output name '%s'", name);
    if (b->nout == MNW_BOOKMARK_MAX_OUT) return mnw_err_set(e, "bookmark: more than %d outputs", MNW_BOOKMARK_MAX_OUT);
    if (sum && (sum->bytes != bytes || !pow2(sum->block) || sum->block < MNW_SUM_MIN_BLOCK ||
                sum->nblocks != bytes / sum->block || sum->nblocks >= MNW_SUM_MAX_BLOCKS))
        return mnw_err_set(e, "bookmark: the checksums of %s are not of its %llu bytes", name, (unsigned long long)bytes);
    b->out_name[b->nout] = mnw_xstrdup(name);
    b->out_bytes[b->nout] = bytes;
    if (sum) {
        b->out_sum[b->nout] = mnw_xmalloc(sizeof *sum);
        *b->out_sum[b->nout] = *sum;
    }
    b->nout++;
    return 0;
}

int mnw_bookmark_output(mnw_bookmark *b, const char *name, uint64_t bytes, mnw_err *e)
{
    return add_output(b, name, bytes, NULL, e);
}

int mnw_bookmark_output_sum(mnw_bookmark *b, const char *name, const mnw_sum *sum, mnw_err *e)
{
    return add_output(b, name, sum->bytes, sum, e);
}

static int parse_u64(const char *s, uint64_t *v);

int mnw_bookmark_range(const mnw_bookmark *b, const char *bmpath, uint64_t *k0, uint64_t *k1, mnw_err *e)
{
    const char *v = mnw_bookmark_get(b, "shard-range");
    *k0 = 0;
    *k1 = b->pairs;
    if (!v) return 0;
    char a[32], c[32];
    const char *sp = strchr(v, ' ');
    if (!sp || (size_t)(sp - v) >= sizeof a || strlen(sp + 1) >= sizeof c)
        return mnw_err_set(e, "%s: setting shard-range '%.60s' is not two pair numbers", bmpath, v);
    memcpy(a, v, (size_t)(sp - v));
    a[sp - v] = 0;
    snprintf(c, sizeof c, "%s", sp + 1);
    if (parse_u64(a, k0) || parse_u64(c, k1) || *k0 > *k1 || *k1 > b->pairs)
        return mnw_err_set(e, "%s: setting shard-range '%.60s' is not two pair numbers K0 <= K1 <= %" PRIu64, bmpath,
                           v, b->pairs);
    return 0;
}

/* b's range, or every pair where its shard-range is not sound (read
 * checks it: a bookmark being built may not have it yet) */
static void range_or_all(const mnw_bookmark *b, uint64_t *k0, uint64_t *k1)
{
    mnw_err ignored;
    if (mnw_bookmark_range(b, "", k0, k1, &ignored)) *k0 = 0, *k1 = b->pairs;
}

void mnw_bookmark_progress(const mnw_bookmark *b, uint64_t *done, uint64_t *total, char *shard, size_t cap)
{
    uint64_t k0, k1;
    range_or_all(b, &k0, &k1);
    *done = b->watermark - k0;
    *total = k1 - k0;
    const char *sh = mnw_bookmark_get(b, "shard");
    snprintf(shard, cap, "%s", sh && strcmp(sh, "none") ? sh : "");
}

int mnw_bookmark_outputs(const mnw_bookmark *b, const char *bmpath, int *mask, mnw_err *e)
{
    const char *v = mnw_bookmark_get(b, "outputs");
    if (v) return mnw_outsel_parse(v, bmpath, mask, e);
    const char *ph = mnw_bookmark_get(b, "phylip"); /* before --outputs */
    if (!ph) return mnw_err_set(e, "%s: setting outputs missing", bmpath);
    *mask = MNW_OUTSEL_DEFAULT | (!strcmp(ph, "yes") ? 1 << MNW_OUT_PHYLIP : 0);
    return 0;
}

const char *mnw_bookmark_get(const mnw_bookmark *b, const char *key)
{
    for (int k = 0; k < b->nset; k++)
        if (!strcmp(b->set_key[k], key)) return b->set_val[k];
    return NULL;
}

/* two independent 64-bit hashes (FNV-1a and a multiply-xorshift) */
typedef struct {
    uint64_t a, b;
} h128;

static void h_bytes(h128 *h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ p[i]) * 0x100000001b3ull;
        h->b = (h->b + p[i] + 1) * 0x9e3779b97f4a7c15ull;
        h->b ^= h->b >> 29;
    }
}

void mnw_bookmark_input_hash(const mnw_seqset *s, char out[33])
{
    h128 h = {0xcbf29ce484222325ull, 0x6a09e667f3bcc908ull};
    for (size_t i = 0; i < s->n; i++) {
        const char *id = mnw_seq_id(s, i);
        h_bytes(&h, (const uint8_t *)id, strlen(id) + 1);
        uint64_t len = mnw_seq_len(s, i);
        h_bytes(&h, (const uint8_t *)&len, sizeof len);
        h_bytes(&h, mnw_seq_codes(s, i), (size_t)len);
    }
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, h.a, h.b);
}

static void kv(mnw_buf *t, const char *k, const char *v)
{
    mnw_buf_puts(t, k);
    mnw_buf_putc(t, ' ');
    mnw_buf_puts(t, v);
    mnw_buf_putc(t, '\n');
}

static void kn(mnw_buf *t, const char *k, uint64_t v)
{
    mnw_buf_puts(t, k);
    mnw_buf_putc(t, ' ');
    mnw_buf_put_u64(t, v);
    mnw_buf_putc(t, '\n');
}

static void hex8(mnw_buf *t, uint32_t v)
{
    char h[16];
    snprintf(h, sizeof h, "%08lx", (unsigned long)v);
    mnw_buf_puts(t, h);
}

static void text_of(const mnw_bookmark *b, int version, mnw_buf *t)
{
    kv(t, "mnw-bookmark", version == 1 ? "1" : version == 2 ? "2" : "3");
    kv(t, "input-hash", b->input_hash);
    kn(t, "sequences", b->sequences);
    kn(t, "pairs", b->pairs);
    for (int k = 0; k < b->nset; k++) {
        mnw_buf_puts(t, "setting ");
        kv(t, b->set_key[k], b->set_val[k]);
    }
    kn(t, "watermark", b->watermark);
    if (version == 3) kn(t, "pruned", b->pruned);
    for (int k = 0; k < b->nout; k++) {
        mnw_buf_puts(t, "output ");
        mnw_buf_puts(t, b->out_name[k]);
        mnw_buf_putc(t, ' ');
        mnw_buf_put_u64(t, b->out_bytes[k]);
        const mnw_sum *s = b->out_sum[k];
        if (!s) {
            mnw_buf_putc(t, '\n');
            continue;
        }
        mnw_buf_putc(t, ' ');
        hex8(t, mnw_sum_crc(s));
        mnw_buf_puts(t, "\nblocks ");
        mnw_buf_puts(t, b->out_name[k]);
        mnw_buf_putc(t, ' ');
        mnw_buf_put_u64(t, s->block);
        for (uint32_t i = 0; i < s->nblocks; i++) {
            mnw_buf_putc(t, ' ');
            hex8(t, s->blocks[i]);
        }
        mnw_buf_putc(t, '\n');
    }
    char end[16];
    snprintf(end, sizeof end, "%08lx", (unsigned long)crc32(0L, (const Bytef *)t->p, (uInt)t->len));
    kv(t, "end", end);
}

/* Fault tests only (tests/sh/t_resume.sh, t_prune*.sh): MNW_TEST_BOOKMARK_PAUSE=S
 * holds every write for S seconds between the whole temporary file and
 * the rename, so a kill -9 can land exactly there; a bookmark made in its
 * thread (durable.h) then holds the CLD for as long (cld.c). */
static void test_pause(void)
{
    const char *p = getenv("MNW_TEST_BOOKMARK_PAUSE");
    double s = p ? atof(p) : 0;
    if (s > 0) {
        struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

int mnw_bookmark_write(const char *dir, const mnw_bookmark *b, mnw_err *e)
{
    int with = 0;
    for (int k = 0; k < b->nout; k++) with += b->out_sum[k] != NULL;
    if (with && with < b->nout)
        return mnw_err_set(e, "%s/%s: some outputs have checksums and some not", dir, MNW_BOOKMARK_FILE);
    uint64_t k0, k1;
    range_or_all(b, &k0, &k1);
    if (b->pruned && (b->watermark < k0 || b->pruned > b->watermark - k0))
        return mnw_err_set(e, "%s/%s: %llu pairs pruned of the %llu written", dir, MNW_BOOKMARK_FILE,
                           (unsigned long long)b->pruned,
                           (unsigned long long)(b->watermark > k0 ? b->watermark - k0 : 0));
    if (b->pruned && b->nout && !with)
        return mnw_err_set(e, "%s/%s: pruned pairs, but no output checksums (version 3 has them)", dir,
                           MNW_BOOKMARK_FILE);
    mnw_buf t;
    mnw_buf_init(&t);
    text_of(b, b->pruned ? 3 : b->nout && !with ? 1 : 2, &t);
    int rc = mnw_afile_replace(dir, MNW_BOOKMARK_FILE, t.p, t.len, 1, test_pause, e);
    mnw_buf_free(&t);
    return rc;
}

/* n (n - 1) / 2 in *p; -1 when it does not fit in 64 bits (a bookmark's
 * numbers are untrusted: n > 2^32 would wrap) */
static int npairs_fit(uint64_t n, uint64_t *p)
{
    uint64_t a = n, b = n ? n - 1 : 0;
    if (a % 2 == 0) a /= 2;
    else b /= 2;
    return __builtin_mul_overflow(a, b, p) ? -1 : 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
    if (*s < '0' || *s > '9') return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *v = x;
    return 0;
}


static int parse_hex8(const char *s, size_t n, uint32_t *v)
{
    if (n != 8 || strspn(s, "0123456789abcdef") < 8) return -1;
    *v = (uint32_t)strtoul(s, NULL, 16); /* stops at the 9th character */
    return 0;
}

/* The whole file into *t (NUL-terminated), refusing what is not a regular
 * file before reading a byte (a FIFO would block) and what is too large. */
static int slurp(const char *path, char **t, size_t *n, mnw_err *e)
{
    struct stat st;
    int fd = mnw_open_regular(path, O_RDONLY, 0, &st, e);
    if (fd == -1) return mnw_err_set(e, "%s: %s", path, strerror(errno));
    if (fd == -2) return mnw_err_set(e, "%s: is not a regular file (%s): not a bookmark", path, mnw_file_kind(st.st_mode));
    if (st.st_size > MNW_BOOKMARK_MAX_BYTES) {
        close(fd);
        return mnw_err_set(e, "%s: %lld bytes, more than a bookmark can hold (%d): not a bookmark", path,
                           (long long)st.st_size, MNW_BOOKMARK_MAX_BYTES);
    }
    char *buf = mnw_xmalloc(MNW_BOOKMARK_MAX_BYTES + 2);
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd, buf + got, MNW_BOOKMARK_MAX_BYTES + 1 - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int er = errno;
            close(fd);
            free(buf);
            return mnw_err_set(e, "%s: %s", path, strerror(er));
        }
        if (r == 0 || (got += (size_t)r) > MNW_BOOKMARK_MAX_BYTES) break;
    }
    close(fd);
    if (got > MNW_BOOKMARK_MAX_BYTES) {
        free(buf);
        return mnw_err_set(e, "%s: more than %d bytes: not a bookmark", path, MNW_BOOKMARK_MAX_BYTES);
    }
    buf[got] = '\0';
    *t = buf;
    *n = got;
    return 0;
}

int mnw_bookmark_read(const char *path, mnw_bookmark *b, mnw_err *e)
{
    mnw_bookmark_init(b);
    char *text = NULL;
    size_t n = 0;
    if (slurp(path, &text, &n, e)) return -1;
    int ln = 0, have_hash = 0, have_seq = 0, have_pairs = 0, have_wm = 0, have_end = 0, have_pruned = 0;
    int want_blocks = -1; /* a version 2 output line waits for its blocks line */
    uint32_t want_crc = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    size_t at = 0;
    while (at < n) {
        ln++;
        char *line = text + at;
        char *nl = memchr(line, '\n', n - at);
        if (have_end) {
            mnw_err_set(e, "%s:%d: text after the end line", path, ln);
            goto bad;
        }
        if (!nl) {
            mnw_err_set(e, "%s:%d: line cut short (a truncated bookmark?)", path, ln);
            goto bad;
        }
        size_t len = (size_t)(nl - line) + 1;
        at += len;
        if (memchr(line, '\0', len - 1)) {
            mnw_err_set(e, "%s:%d: a NUL byte in the line: not a bookmark", path, ln);
            goto bad;
        }
        if (strncmp(line, "end ", 4)) crc = crc32(crc, (const Bytef *)line, (uInt)len);
        *nl = '\0';
        char *sp = strchr(line, ' ');
        if (!sp) {
            mnw_err_set(e, "%s:%d: expected \"key value\", got '%.60s'", path, ln, line);
            goto bad;
        }
        *sp = '\0';
        const char *key = line;
        char *val = sp + 1;
        if (want_blocks >= 0 && strcmp(key, "blocks")) {
            mnw_err_set(e, "%s:%d: expected \"blocks %s SIZE CRC...\" after the output line", path, ln,
                        b->out_name[want_blocks]);
            goto bad;
        }
        if (ln == 1) {
            if (strcmp(key, "mnw-bookmark") || (strcmp(val, "1") && strcmp(val, "2") && strcmp(val, "3"))) {
                mnw_err_set(e, "%s:1: not an mnw bookmark of version 1, 2 or 3", path);
                goto bad;
            }
            b->version = val[0] - '0';
        } else if (!strcmp(key, "end")) {
            char want[16];
            snprintf(want, sizeof want, "%08lx", (unsigned long)crc);
            if (strcmp(val, want)) {
                mnw_err_set(e, "%s:%d: checksum %.20s, but the lines above give %s: the bookmark is damaged", path, ln,
                            val, want);
                goto bad;
            }
            have_end = 1;
        } else if (!strcmp(key, "input-hash")) {
            if (strlen(val) != 32 || strspn(val, "0123456789abcdef") != 32) {
                mnw_err_set(e, "%s:%d: input-hash is not 32 hex digits", path, ln);
                goto bad;
            }
            memcpy(b->input_hash, val, 33);
            have_hash = 1;
        } else if (!strcmp(key, "sequences") || !strcmp(key, "pairs") || !strcmp(key, "watermark")) {
            uint64_t v;
            if (parse_u64(val, &v)) {
                mnw_err_set(e, "%s:%d: %s '%.60s' is not a number", path, ln, key, val);
                goto bad;
            }
            if (key[0] == 's') b->sequences = v, have_seq = 1;
            else if (key[0] == 'p') b->pairs = v, have_pairs = 1;
            else b->watermark = v, have_wm = 1;
        } else if (!strcmp(key, "pruned")) {
            if (b->version != 3) {
                mnw_err_set(e, "%s:%d: a pruned line in a bookmark of version %d (only version 3 has it)", path, ln,
                            b->version);
                goto bad;
            }
            if (have_pruned || parse_u64(val, &b->pruned)) {
                mnw_err_set(e, "%s:%d: %s", path, ln, have_pruned ? "a second pruned line" : "pruned is not a number");
                goto bad;
            }
            have_pruned = 1;
        } else if (!strcmp(key, "setting")) {
            char *s2 = strchr(val, ' ');
            if (!s2) {
                mnw_err_set(e, "%s:%d: expected \"setting KEY VALUE\"", path, ln);
                goto bad;
            }
            *s2 = '\0';
            if (mnw_bookmark_set(b, val, s2 + 1, e)) goto bad_line;
        } else if (!strcmp(key, "output")) {
            /* version 1: FILE BYTES; versions 2 and 3: FILE BYTES CRC */
            char *s2 = strchr(val, ' '), *s3 = s2 ? strchr(s2 + 1, ' ') : NULL;
            uint64_t v;
            if (s2) *s2 = '\0';
            if (s3) *s3 = '\0';
            if (!s2 || (b->version == 1) != !s3 || parse_u64(s2 + 1, &v) ||
                (s3 && parse_hex8(s3 + 1, strlen(s3 + 1), &want_crc))) {
                mnw_err_set(e, "%s:%d: expected \"output FILE BYTES%s\"", path, ln,
                            b->version == 1 ? "" : " CRC-32 (8 hex digits)");
                goto bad;
            }
            if (mnw_bookmark_output(b, val, v, e)) goto bad_line;
            if (b->version >= 2) want_blocks = b->nout - 1;
        } else if (!strcmp(key, "blocks")) {
            if (want_blocks < 0) {
                mnw_err_set(e, "%s:%d: a blocks line must follow its output line", path, ln);
                goto bad;
            }
            const int k = want_blocks;
            char *s2 = strchr(val, ' ');
            if (s2) *s2 = '\0';
            if (strcmp(val, b->out_name[k])) {
                mnw_err_set(e, "%s:%d: expected \"blocks %s SIZE CRC...\" after the output line", path, ln,
                            b->out_name[k]);
                goto bad;
            }
            char *p = s2 ? s2 + 1 : NULL, *q = p ? strchr(p, ' ') : NULL;
            uint64_t block;
            if (q) *q = '\0';
            if (!p || parse_u64(p, &block)) {
                mnw_err_set(e, "%s:%d: expected \"blocks %s SIZE CRC...\"", path, ln, b->out_name[k]);
                goto bad;
            }
            uint32_t crcs[MNW_SUM_MAX_BLOCKS];
            uint32_t nb = 0;
            for (p = q ? q + 1 : NULL; p; p = q ? q + 1 : NULL) {
                q = strchr(p, ' ');
                size_t wl = q ? (size_t)(q - p) : strlen(p);
                if (nb == MNW_SUM_MAX_BLOCKS || parse_hex8(p, wl, &crcs[nb])) {
                    mnw_err_set(e, "%s:%d: block checksum %u of %s: %s", path, ln, nb + 1, b->out_name[k],
                                nb == MNW_SUM_MAX_BLOCKS ? "too many blocks" : "not 8 hex digits");
                    goto bad;
                }
                nb++;
            }
            mnw_sum *s = mnw_xmalloc(sizeof *s);
            const char *why;
            if (mnw_sum_set(s, b->out_bytes[k], want_crc, block, crcs, nb, &why)) {
                free(s);
                mnw_err_set(e, "%s:%d: the checksums of %s (%llu bytes, blocks of %llu): %s", path, ln,
                            b->out_name[k], (unsigned long long)b->out_bytes[k], (unsigned long long)block, why);
                goto bad;
            }
            b->out_sum[k] = s;
            want_blocks = -1;
        } else {
            mnw_err_set(e, "%s:%d: unknown key '%.60s'", path, ln, key);
            goto bad;
        }
    }
    free(text);
    text = NULL;
    if (!have_end) {
        mnw_err_set(e, "%s:%d: no end line (a truncated bookmark?)", path, ln + 1);
        goto bad;
    }
    if (!have_hash || !have_seq || !have_pairs || !have_wm || (b->version == 3 && !have_pruned)) {
        mnw_err_set(e, "%s: missing %s", path,
                    !have_hash    ? "input-hash"
                    : !have_seq   ? "sequences"
                    : !have_pairs ? "pairs"
                    : !have_wm    ? "watermark"
                                  : "pruned (a version 3 bookmark has it)");
        goto bad;
    }
    uint64_t npairs;
    if (npairs_fit(b->sequences, &npairs) || b->pairs != npairs || b->watermark > b->pairs) {
        mnw_err_set(e, "%s: sequences %" PRIu64 ", pairs %" PRIu64 " and watermark %" PRIu64 " do not fit together",
                    path, b->sequences, b->pairs, b->watermark);
        goto bad;
    }
    uint64_t k0, k1;
    if (mnw_bookmark_range(b, path, &k0, &k1, e)) goto bad;
    if (b->watermark < k0 || b->watermark > k1) {
        mnw_err_set(e, "%s: watermark %" PRIu64 " is outside the shard's pairs %" PRIu64 " .. %" PRIu64
                       " (setting shard-range)",
                    path, b->watermark, k0, k1);
        goto bad;
    }
    if (b->pruned > b->watermark - k0) {
        mnw_err_set(e, "%s: pruned %" PRIu64 " is more than the %" PRIu64 " pairs written", path, b->pruned,
                    b->watermark - k0);
        goto bad;
    }
    /* the CLD only moves the watermark by whole work lists (the last may be
     * shorter): anything else was not written by mnw */
    const char *ws = mnw_bookmark_get(b, "worklist-size");
    if (ws) {
        uint64_t wl;
        if (parse_u64(ws, &wl) || wl == 0) {
            mnw_err_set(e, "%s: setting worklist-size '%.40s' is not a positive number: this bookmark was not written "
                           "by mnw",
                        path, ws);
            goto bad;
        }
        if (b->watermark != 0 && b->watermark != b->pairs && b->watermark % wl) {
            mnw_err_set(e, "%s: watermark %" PRIu64 " is not at a work-list boundary (worklist-size %" PRIu64
                           "): this bookmark was not written by mnw",
                        path, b->watermark, wl);
            goto bad;
        }
    }
    return 0;
bad_line: {
    char msg[256];
    snprintf(msg, sizeof msg, "%.200s", e ? e->msg : "");
    mnw_err_set(e, "%s:%d: %s", path, ln, msg);
}
bad:
    free(text);
    mnw_bookmark_free(b);
    return -1;
}
