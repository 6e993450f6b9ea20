/* fuzz_fasta.c - libFuzzer target: the FASTA reader (lib/fasta.h,
 * docs/INPUT.md), plain and gzip input.
 *
 * Input: one mode byte, then the file's bytes T.
 *   bit 0: the set already holds two records (ids "a" and "dup") before T is
 *          read, so ids of T must also differ from those;
 *   bit 1: T is also read gzip-compressed (by this target, level (mode >> 2)
 *          % 10) and both reads must agree: same outcome, same records, same
 *          message after the path;
 * T itself may be gzip data (the seeds hold real .fa.gz files, truncated and
 * corrupt ones).
 *
 * Properties checked, beyond "no crash, no leak, no undefined behaviour":
 *  - every set, accepted or not, is well formed (offsets, codes < 15,
 *    max_len, ids NUL-terminated);
 *  - an accepted input adds n >= 1 records, each of 1 to MNW_MAX_SEQ_LEN
 *    bases, ids unique and free of blanks and control bytes;
 *  - for plain T, an independent restatement of docs/INPUT.md (the grammar
 *    below, in fasta_oracle) accepts exactly what the reader accepts and
 *    gives the same ids and the same bases, letter by letter (the lengths
 *    sum to the letters of T's sequence lines);
 *  - a refusal names the path and a line of T ("PATH:LINE: reason"), or,
 *    for gzip T followed by bytes that are not gzip ("PATH: N bytes ...
 *    after the last gzip member, from byte offset OFF"), their count and
 *    offset, which add up to T's size.
 *
 * Ownership/thread-safety: one libFuzzer thread; everything is freed per
 * input. */
#include <zlib.h>

#include "lib/fasta.h"
#include "tests/fuzz/fuzz_util.h"

#define PRELOAD ">a\nACGT\n>dup extra words\nAC\n"

/* The well-formedness of any set (also after a failed read). */
static void check_set(const mnw_seqset *s)
{
    size_t total = 0, maxl = 0;
    fz_check(s->n == 0 || s->off[0] == 0, "off[0] = %zu", s->n ? s->off[0] : 0);
    for (size_t i = 0; i < s->n; i++) {
        fz_check(s->off[i + 1] >= s->off[i], "offsets go backwards at %zu", i);
        size_t len = mnw_seq_len(s, i);
        total += len;
        if (len > maxl) maxl = len;
        const uint8_t *c = mnw_seq_codes(s, i);
        for (size_t k = 0; k < len; k++) fz_check(c[k] < MNW_NCODES, "code %u in sequence %zu", c[k], i);
        fz_check(s->idoff[i] < s->idbuf_len && memchr(s->idbuf + s->idoff[i], 0, s->idbuf_len - s->idoff[i]),
                 "id %zu is not a string inside idbuf", i);
    }
    fz_check(s->n == 0 || s->off[s->n] == total, "off[n] %zu, lengths sum to %zu", s->n ? s->off[s->n] : 0, total);
    fz_check(s->max_len == maxl, "max_len %zu, longest %zu", s->max_len, maxl);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* An accepted read: records base.. n-1 obey the input rules. */
static void check_accepted(const mnw_seqset *s, size_t base)
{
    fz_check(s->n > base, "accepted, but no record added");
    const char **ids = malloc(s->n * sizeof *ids);
    for (size_t i = 0; i < s->n; i++) {
        ids[i] = mnw_seq_id(s, i);
        if (i < base) continue;
        size_t len = mnw_seq_len(s, i), L = strlen(ids[i]);
        fz_check(len >= 1 && len <= MNW_MAX_SEQ_LEN, "record %zu has %zu bases", i, len);
        fz_check(L >= 1 && L <= MNW_MAX_ID_LEN, "id %zu has %zu bytes", i, L);
        for (size_t k = 0; k < L; k++) {
            unsigned char c = (unsigned char)ids[i][k];
            fz_check(c > 0x20 && c != 0x7f, "id %zu holds byte 0x%02x", i, c);
        }
    }
    qsort(ids, s->n, sizeof *ids, cmp_str);
    for (size_t i = 1; i < s->n; i++) fz_check(strcmp(ids[i - 1], ids[i]) != 0, "duplicate id '%s' accepted", ids[i]);
    free(ids);
}

/* docs/INPUT.md restated: code of a sequence letter, or -1. */
static int letter_code(unsigned char c)
{
    static const char L[] = "ACGTRYSWKMBDHVN";
    if (c >= 'a' && c <= 'z') c = (unsigned char)(c - 'a' + 'A');
    if (c == 'U') return 3;
    const char *p = c ? strchr(L, c) : NULL;
    return p ? (int)(p - L) : -1;
}

static int blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\r'; }

typedef struct {
    size_t n;          /* records */
    char **id;
    uint8_t **codes;
    size_t *len;
} oracle;

static void oracle_free(oracle *o)
{
    for (size_t i = 0; i < o->n; i++) {
        free(o->id[i]);
        free(o->codes[i]);
    }
    free(o->id);
    free(o->codes);
    free(o->len);
}

static int oracle_has(const oracle *o, const char *id, size_t L, int preload)
{
    if (preload && ((L == 1 && !memcmp(id, "a", 1)) || (L == 3 && !memcmp(id, "dup", 3)))) return 1;
    for (size_t i = 0; i < o->n; i++)
        if (strlen(o->id[i]) == L && !memcmp(o->id[i], id, L)) return 1;
    return 0;
}

/* The grammar of a plain FASTA file (docs/INPUT.md), line by line: an
 * optional UTF-8 BOM; lines before the first header are blank; a header is
 * '>' then an id of 1..MNW_MAX_ID_LEN bytes, none of them a control byte,
 * ending at a blank or the line end (the rest of the line is ignored, but
 * after a CR in it only blanks may follow: no CR-only line ends); a
 * sequence line is letters then blanks; each record has 1..MNW_MAX_SEQ_LEN
 * bases; ids are unique; at least one record. Returns 1 if T is valid (o
 * filled), 0 if not. */
static int fasta_oracle(const uint8_t *t, size_t n, int preload, oracle *o)
{
    memset(o, 0, sizeof *o);
    size_t cap = 0, i = 0;
    int in_rec = 0;
    if (n >= 3 && t[0] == 0xEF && t[1] == 0xBB && t[2] == 0xBF) i = 3;
    while (i < n) {
        const uint8_t *nl = memchr(t + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - t) : n; /* the line is t[i, e) */
        if (t[i] == '>') {
            if (in_rec && o->len[o->n - 1] == 0) return 0;
            size_t j = i + 1;
            for (; j < e && !blank(t[j]); j++)
                if (t[j] < 0x20 || t[j] == 0x7f) return 0;
            size_t L = j - i - 1;
            if (L == 0 || L > MNW_MAX_ID_LEN || oracle_has(o, (const char *)t + i + 1, L, preload)) return 0;
            const uint8_t *cr = memchr(t + j, '\r', e - j); /* after a CR only blanks (issue 38) */
            for (size_t k = cr ? (size_t)(cr - t) : e; k < e; k++)
                if (!blank(t[k])) return 0;
            if (o->n == cap) {
                cap = cap ? 2 * cap : 16;
                o->id = realloc(o->id, cap * sizeof *o->id);
                o->codes = realloc(o->codes, cap * sizeof *o->codes);
                o->len = realloc(o->len, cap * sizeof *o->len);
            }
            o->id[o->n] = strndup((const char *)t + i + 1, L);
            o->codes[o->n] = malloc(MNW_MAX_SEQ_LEN);
            o->len[o->n] = 0;
            o->n++;
            in_rec = 1;
        } else if (in_rec) {
            size_t j = i;
            for (; j < e && letter_code(t[j]) >= 0; j++) {
                if (o->len[o->n - 1] == MNW_MAX_SEQ_LEN) return 0;
                o->codes[o->n - 1][o->len[o->n - 1]++] = (uint8_t)letter_code(t[j]);
            }
            for (; j < e; j++)
                if (!blank(t[j])) return 0;
        } else {
            for (size_t j = i; j < e; j++)
                if (!blank(t[j])) return 0;
        }
        i = e + 1;
    }
    if (in_rec && o->len[o->n - 1] == 0) return 0;
    return o->n >= 1;
}

/* gzip(t) at `level` into a malloc'ed buffer. */
static uint8_t *gzip_of(const uint8_t *t, size_t n, int level, size_t *out_n)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    fz_check(deflateInit2(&z, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
    size_t cap = deflateBound(&z, (uLong)n) + 64;
    uint8_t *out = malloc(cap);
    z.next_in = (Bytef *)t;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    fz_check(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
    *out_n = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

#define TRAIL_AT " after the last gzip member, from byte offset "

/* The number at s, written with thousands separators ("1,234"). */
static uint64_t grouped_num(const char *s)
{
    uint64_t v = 0;
    for (; (*s >= '0' && *s <= '9') || (*s == ',' && s[1] >= '0' && s[1] <= '9'); s++)
        if (*s != ',') v = v * 10 + (uint64_t)(*s - '0');
    return v;
}

/* Reads bytes d[0, n) as a file into s (preloaded or not). Returns the
 * reader's result; e->msg without the path on failure goes to msg. */
static int read_bytes(const uint8_t *d, size_t n, int preload, mnw_seqset *s, mnw_err *e, const char **msg,
                      size_t lines)
{
    mnw_seqset_init(s);
    if (preload) {
        fz_file p;
        fz_file_open(&p, PRELOAD, strlen(PRELOAD));
        fz_check(mnw_fasta_read(p.path, s, e) == 0 && s->n == 2, "the preload is refused: %s", e->msg);
        fz_file_close(&p);
    }
    size_t base = s->n;
    fz_file f;
    fz_file_open(&f, d, n);
    e->msg[0] = 0;
    int rc = mnw_fasta_read(f.path, s, e);
    check_set(s);
    if (rc == 0) {
        check_accepted(s, base);
    } else {
        fz_check(rc == -1, "rc %d", rc);
        fz_check(fz_names_path(e->msg, f.path), "message does not name the file: %s", e->msg);
        const char *tail = e->msg + strlen(f.path);
        const char *at = strstr(tail, TRAIL_AT);
        if (at && n >= 2 && d[0] == 0x1f && d[1] == 0x8b) {
            /* bytes after gzip data, "PATH: N bytes ... from byte offset
             * OFF": they lie inside the file and reach its end */
            uint64_t cnt = grouped_num(tail + 2), off = grouped_num(at + strlen(TRAIL_AT));
            fz_check(cnt >= 1 && off >= 18 && off + cnt == n, "%zu bytes, but the message says %llu after %llu: %s", n,
                     (unsigned long long)cnt, (unsigned long long)off, e->msg);
        } else {
            char *end;
            unsigned long line = strtoul(tail + 1, &end, 10);
            fz_check(*end == ':' && line >= 1 && line <= lines + 1,
                     "message without a line of the file (%zu lines): %s", lines, e->msg);
        }
        *msg = tail;
    }
    fz_file_close(&f);
    return rc;
}

static int same_records(const mnw_seqset *a, const mnw_seqset *b)
{
    if (a->n != b->n) return 0;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(mnw_seq_id(a, i), mnw_seq_id(b, i)) || mnw_seq_len(a, i) != mnw_seq_len(b, i) ||
            memcmp(mnw_seq_codes(a, i), mnw_seq_codes(b, i), mnw_seq_len(a, i)))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    int preload = data[0] & 1, also_gz = data[0] & 2, level = (data[0] >> 2) % 10;
    const uint8_t *t = data + 1;
    size_t n = size - 1, lines = 0;
    for (size_t i = 0; i < n; i++) lines += t[i] == '\n';
    int is_gz = n >= 2 && t[0] == 0x1f && t[1] == 0x8b;
    mnw_seqset s;
    mnw_err e;
    const char *msg = NULL;
    int rc = read_bytes(t, n, preload, &s, &e, &msg, is_gz ? SIZE_MAX - 1 : lines);
    size_t base = preload ? 2 : 0;

    if (!is_gz) {
        oracle o;
        int valid = fasta_oracle(t, n, preload, &o);
        fz_check(valid == (rc == 0), "the reader %s a file the grammar %s (%s)", rc == 0 ? "accepts" : "refuses",
                 valid ? "accepts" : "refuses", rc == 0 ? "" : e.msg);
        if (valid) {
            fz_check(s.n - base == o.n, "%zu records read, %zu in the file", s.n - base, o.n);
            for (size_t i = 0; i < o.n; i++) {
                fz_check(!strcmp(mnw_seq_id(&s, base + i), o.id[i]), "record %zu: id '%s', file says '%s'", i,
                         mnw_seq_id(&s, base + i), o.id[i]);
                fz_check(mnw_seq_len(&s, base + i) == o.len[i] &&
                             !memcmp(mnw_seq_codes(&s, base + i), o.codes[i], o.len[i]),
                         "record %zu: bases differ from the file's letters", i);
            }
        }
        oracle_free(&o);

        if (also_gz) {
            size_t zn;
            uint8_t *z = gzip_of(t, n, level, &zn);
            mnw_seqset s2;
            mnw_err e2;
            const char *msg2 = NULL;
            int rc2 = read_bytes(z, zn, preload, &s2, &e2, &msg2, lines);
            fz_check(rc == rc2, "plain %s, gzip %s", rc ? e.msg : "accepted", rc2 ? e2.msg : "accepted");
            if (rc == 0)
                fz_check(same_records(&s, &s2), "plain and gzip give different records");
            else
                fz_check(!strcmp(msg, msg2), "plain says '%s', gzip '%s'", msg, msg2);
            mnw_seqset_free(&s2);
            free(z);
        }
    }
    mnw_seqset_free(&s);
    return 0;
}
