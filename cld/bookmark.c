/* bookmark.c - reading and writing OUTDIR/mnw.bookmark (bookmark.h). */
#include "bookmark.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "afile.h"
#include "buf.h"

void mnw_bookmark_init(mnw_bookmark *b) { memset(b, 0, sizeof *b); }

void mnw_bookmark_free(mnw_bookmark *b)
{
    for (int k = 0; k < b->nset; k++) {
        free(b->set_key[k]);
        free(b->set_val[k]);
    }
    for (int k = 0; k < b->nout; k++) free(b->out_name[k]);
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

int mnw_bookmark_output(mnw_bookmark *b, const char *name, uint64_t bytes, mnw_err *e)
{
    if (!one_word(name) || strchr(name, '/')) return mnw_err_set(e, "bookmark: bad output name '%s'", name);
    if (b->nout == MNW_BOOKMARK_MAX_OUT) return mnw_err_set(e, "bookmark: more than %d outputs", MNW_BOOKMARK_MAX_OUT);
    b->out_name[b->nout] = mnw_xstrdup(name);
    b->out_bytes[b->nout] = bytes;
    b->nout++;
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

static void text_of(const mnw_bookmark *b, mnw_buf *t)
{
    kv(t, "mnw-bookmark", "1");
    kv(t, "input-hash", b->input_hash);
    kn(t, "sequences", b->sequences);
    kn(t, "pairs", b->pairs);
    for (int k = 0; k < b->nset; k++) {
        mnw_buf_puts(t, "setting ");
        kv(t, b->set_key[k], b->set_val[k]);
    }
    kn(t, "watermark", b->watermark);
    for (int k = 0; k < b->nout; k++) {
        mnw_buf_puts(t, "output ");
        kn(t, b->out_name[k], b->out_bytes[k]);
    }
    char end[16];
    snprintf(end, sizeof end, "%08lx", (unsigned long)crc32(0L, (const Bytef *)t->p, (uInt)t->len));
    kv(t, "end", end);
}

/* Fault tests only (tests/sh/t_resume.sh): MNW_TEST_BOOKMARK_PAUSE=S
 * holds every write for S seconds between the whole temporary file and
 * the rename, so a kill -9 can land exactly there. */
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
    mnw_buf t;
    mnw_buf_init(&t);
    text_of(b, &t);
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

int mnw_bookmark_read(const char *path, mnw_bookmark *b, mnw_err *e)
{
    mnw_bookmark_init(b);
    FILE *f = fopen(path, "rb");
    if (!f) return mnw_err_set(e, "%s: %s", path, strerror(errno));
    char line[8192];
    int ln = 0, have_hash = 0, have_seq = 0, have_pairs = 0, have_wm = 0, have_end = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    while (fgets(line, sizeof line, f)) {
        ln++;
        size_t len = strlen(line);
        if (have_end) {
            mnw_err_set(e, "%s:%d: text after the end line", path, ln);
            goto bad;
        }
        if (len == 0 || line[len - 1] != '\n') {
            mnw_err_set(e, "%s:%d: line cut short or too long (a truncated bookmark?)", path, ln);
            goto bad;
        }
        if (!have_end && strncmp(line, "end ", 4)) crc = crc32(crc, (const Bytef *)line, (uInt)len);
        line[len - 1] = '\0';
        char *sp = strchr(line, ' ');
        if (!sp) {
            mnw_err_set(e, "%s:%d: expected \"key value\", got '%.60s'", path, ln, line);
            goto bad;
        }
        *sp = '\0';
        const char *key = line, *val = sp + 1;
        if (ln == 1) {
            if (strcmp(key, "mnw-bookmark") || strcmp(val, "1")) {
                mnw_err_set(e, "%s:1: not an mnw bookmark of version 1", path);
                goto bad;
            }
        } else if (!strcmp(key, "end")) {
            char want[16];
            snprintf(want, sizeof want, "%08lx", (unsigned long)crc);
            if (strcmp(val, want)) {
                mnw_err_set(e, "%s:%d: checksum %s, but the lines above give %s: the bookmark is damaged", path, ln,
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
                mnw_err_set(e, "%s:%d: %s '%s' is not a number", path, ln, key, val);
                goto bad;
            }
            if (key[0] == 's') b->sequences = v, have_seq = 1;
            else if (key[0] == 'p') b->pairs = v, have_pairs = 1;
            else b->watermark = v, have_wm = 1;
        } else if (!strcmp(key, "setting")) {
            char *s2 = strchr(val, ' ');
            if (!s2) {
                mnw_err_set(e, "%s:%d: expected \"setting KEY VALUE\"", path, ln);
                goto bad;
            }
            *s2 = '\0';
            if (mnw_bookmark_set(b, val, s2 + 1, e)) goto bad_line;
        } else if (!strcmp(key, "output")) {
            char *s2 = strchr(val, ' ');
            uint64_t v;
            if (!s2 || (*s2 = '\0', parse_u64(s2 + 1, &v))) {
                mnw_err_set(e, "%s:%d: expected \"output FILE BYTES\"", path, ln);
                goto bad;
            }
            if (mnw_bookmark_output(b, val, v, e)) goto bad_line;
        } else {
            mnw_err_set(e, "%s:%d: unknown key '%.60s'", path, ln, key);
            goto bad;
        }
    }
    if (ferror(f)) {
        mnw_err_set(e, "%s: %s", path, strerror(errno));
        goto bad;
    }
    fclose(f);
    f = NULL;
    if (!have_end) {
        mnw_err_set(e, "%s:%d: no end line (a truncated bookmark?)", path, ln + 1);
        goto bad;
    }
    if (!have_hash || !have_seq || !have_pairs || !have_wm) {
        mnw_err_set(e, "%s: missing %s", path,
                    !have_hash ? "input-hash" : !have_seq ? "sequences" : !have_pairs ? "pairs" : "watermark");
        goto bad;
    }
    uint64_t npairs;
    if (npairs_fit(b->sequences, &npairs) || b->pairs != npairs || b->watermark > b->pairs) {
        mnw_err_set(e, "%s: sequences %" PRIu64 ", pairs %" PRIu64 " and watermark %" PRIu64 " do not fit together",
                    path, b->sequences, b->pairs, b->watermark);
        goto bad;
    }
    return 0;
bad_line: {
    char msg[256];
    snprintf(msg, sizeof msg, "%.200s", e ? e->msg : "");
    mnw_err_set(e, "%s:%d: %s", path, ln, msg);
}
bad:
    if (f) fclose(f);
    mnw_bookmark_free(b);
    return -1;
}
