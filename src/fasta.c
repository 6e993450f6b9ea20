/* fasta.c - see fasta.h and docs/INPUT.md.
 *
 * gzread fills a buffer (see READ_GZ); a state machine parses it byte by
 * byte, so lines may have any length and may span buffers. Sequence bytes go through
 * mnw_code_of[] straight into a buffer of MNW_MAX_SEQ_LEN codes; a record is
 * copied into the set when the next header (or the end) is reached. Ids are
 * checked for duplicates in an open-addressing hash table of set indices.
 */
#include "fasta.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* Bytes asked of gzread: plain files in large reads; compressed ones in small
 * reads, because when zlib finds corrupt data, gzread drops what it inflated
 * in that call, so the line reported is at most one small read early. The
 * small reads cost about 10% of the reading time. zlib inflates straight
 * into our buffer when a read is at least twice its input buffer (GZ_BUF). */
#define READ_PLAIN (1u << 20)
#define READ_GZ (1u << 12)
#define GZ_BUF (1u << 11)
#define DRAIN_MAX ((size_t)256 << 20)      /* see drain() */
#define SHOW_ID 80                         /* id bytes shown in messages */

enum { ST_LINE, ST_PRE, ST_ID, ST_HDR, ST_SEQ, ST_TRAIL };

typedef struct {
    const char *path;
    mnw_seqset *out;
    mnw_err *e;
    size_t base;              /* out->n on entry */
    size_t line, col;         /* position of the next byte, both 1-based */
    int state;
    int in_rec;               /* a header was read; its record is open */
    size_t rec_line;          /* header line of the open record */
    char id[MNW_MAX_ID_LEN + 1];
    size_t id_len;
    uint64_t id_hash;
    uint8_t *seq;             /* MNW_MAX_SEQ_LEN codes */
    size_t seq_len;
    size_t ws_col;            /* first of a run of blanks in a sequence line */
    unsigned char ws_char;
    size_t *lines;            /* header line of record base + i */
    size_t lines_cap;
    size_t *slot;             /* hash table: set index + 1, 0 = empty */
    uint64_t *slot_hash;
    size_t ht_cap, ht_n;
} rd;

static uint64_t hash_id(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static void ht_put(rd *r, size_t idx, uint64_t h)
{
    if (2 * (r->ht_n + 1) > r->ht_cap) {
        size_t ncap = r->ht_cap ? 2 * r->ht_cap : 1024;
        size_t *ns = mnw_xcalloc(ncap, sizeof *ns);
        uint64_t *nh = mnw_xmalloc(ncap * sizeof *nh);
        for (size_t i = 0; i < r->ht_cap; i++) {
            if (!r->slot[i]) continue;
            size_t j = r->slot_hash[i] & (ncap - 1);
            while (ns[j]) j = (j + 1) & (ncap - 1);
            ns[j] = r->slot[i];
            nh[j] = r->slot_hash[i];
        }
        free(r->slot);
        free(r->slot_hash);
        r->slot = ns;
        r->slot_hash = nh;
        r->ht_cap = ncap;
    }
    size_t j = h & (r->ht_cap - 1);
    while (r->slot[j]) j = (j + 1) & (r->ht_cap - 1);
    r->slot[j] = idx + 1;
    r->slot_hash[j] = h;
    r->ht_n++;
}

/* Set index + 1 of the record with id r->id, or 0. */
static size_t ht_get(const rd *r)
{
    if (!r->ht_cap) return 0;
    size_t j = r->id_hash & (r->ht_cap - 1);
    for (; r->slot[j]; j = (j + 1) & (r->ht_cap - 1)) {
        if (r->slot_hash[j] == r->id_hash &&
            memcmp(mnw_seq_id(r->out, r->slot[j] - 1), r->id, r->id_len + 1) == 0)
            return r->slot[j];
    }
    return 0;
}

/* "PATH:LINE: reason". Always returns -1. */
__attribute__((format(printf, 3, 4))) static int fail(rd *r, size_t line, const char *fmt, ...)
{
    char reason[MNW_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return mnw_err_set(r->e, "%s:%zu: %s", r->path, line, reason);
}

/* The current id for messages, cut to SHOW_ID bytes. */
static const char *show_id(rd *r, char *buf)
{
    if (r->id_len <= SHOW_ID) return r->id;
    memcpy(buf, r->id, SHOW_ID);
    memcpy(buf + SHOW_ID, "...", 4);
    return buf;
}

/* A byte for messages: itself if printable ASCII, else \xHH. */
static const char *show_byte(unsigned char c, char *buf)
{
    if (c >= 0x20 && c < 0x7f) {
        buf[0] = (char)c;
        buf[1] = 0;
    } else {
        snprintf(buf, 5, "\\x%02X", c);
    }
    return buf;
}

static int bad_char(rd *r, unsigned char c, size_t col)
{
    char cb[8], ib[SHOW_ID + 4];
    return fail(r, r->line, "invalid character '%s' at column %zu in sequence '%s'%s",
                show_byte(c, cb), col, show_id(r, ib),
                c == '-' || c == '.' ? " (mnw takes unaligned sequences)" : "");
}

/* A header's id is complete: check it, open its record. */
static int end_id(rd *r)
{
    char ib[SHOW_ID + 4];
    if (r->id_len == 0) return fail(r, r->line, "header has no id after '>'");
    r->id[r->id_len] = 0;
    r->id_hash = hash_id(r->id, r->id_len);
    size_t hit = ht_get(r);
    if (hit) {
        size_t idx = hit - 1;
        if (idx < r->base)
            return fail(r, r->line, "duplicate id '%s' (also in an earlier input)", show_id(r, ib));
        return fail(r, r->line, "duplicate id '%s' (first seen at line %zu)", show_id(r, ib),
                    r->lines[idx - r->base]);
    }
    r->in_rec = 1;
    r->seq_len = 0;
    return 0;
}

/* Close the open record (if any): it goes into the set. */
static int end_record(rd *r)
{
    char ib[SHOW_ID + 4];
    if (!r->in_rec) return 0;
    if (r->seq_len == 0) return fail(r, r->rec_line, "sequence '%s' is empty", show_id(r, ib));
    mnw_seqset_add(r->out, r->id, r->seq, r->seq_len);
    size_t k = r->out->n - 1 - r->base;
    if (k >= r->lines_cap) {
        r->lines_cap = r->lines_cap ? 2 * r->lines_cap : 1024;
        r->lines = mnw_xrealloc(r->lines, r->lines_cap * sizeof *r->lines);
    }
    r->lines[k] = r->rec_line;
    ht_put(r, r->out->n - 1, r->id_hash);
    r->in_rec = 0;
    return 0;
}

static inline int is_blank(unsigned char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The rest of a line that may hold only blanks: consumes blanks up to and
 * including the line end (then the next state is ST_LINE). Returns 0 when
 * the line ended or the buffer ran out, 1 at a non-blank byte (*pp on it). */
static int rest_blank(rd *r, const unsigned char **pp, const unsigned char *end, size_t *col)
{
    const unsigned char *p = *pp;
    for (; p < end; p++, (*col)++) {
        if (*p == '\n') {
            p++;
            r->line++;
            r->state = ST_LINE;
            break;
        }
        if (!is_blank(*p)) {
            *pp = p;
            return 1;
        }
    }
    *pp = p;
    return 0;
}

/* Parses buf[p, end); the state carries over to the next call. */
static int parse(rd *r, const unsigned char *p, const unsigned char *end)
{
    size_t col = r->col;
    while (p < end) {
        switch (r->state) {
        case ST_LINE: /* at column 1 */
            col = 1;
            if (*p == '>') {
                if (end_record(r)) return -1;
                r->rec_line = r->line;
                r->id_len = 0;
                r->state = ST_ID;
                p++;
                col = 2;
            } else {
                r->state = r->in_rec ? ST_SEQ : ST_PRE;
            }
            break;

        case ST_PRE: /* a line before the first header: must be blank */
            if (rest_blank(r, &p, end, &col)) return fail(r, r->line, "text before the first '>' header");
            break;

        case ST_ID:
            for (; p < end; p++, col++) {
                unsigned char c = *p;
                if (is_blank(c) || c == '\n') break;
                if (c < 0x20 || c == 0x7f) {
                    char cb[8];
                    return fail(r, r->line, "invalid character '%s' at column %zu in the header",
                                show_byte(c, cb), col);
                }
                if (r->id_len == MNW_MAX_ID_LEN)
                    return fail(r, r->line, "id longer than %d characters", MNW_MAX_ID_LEN);
                r->id[r->id_len++] = (char)c;
            }
            if (p == end) break;
            if (end_id(r)) return -1;
            if (*p == '\n') {
                p++;
                r->line++;
                r->state = ST_LINE;
            } else {
                r->state = ST_HDR;
            }
            break;

        case ST_HDR: { /* the rest of a header line is ignored */
            const unsigned char *q = memchr(p, '\n', (size_t)(end - p));
            if (!q) {
                p = end;
            } else {
                p = q + 1;
                r->line++;
                r->state = ST_LINE;
            }
            break;
        }

        case ST_SEQ: {
            uint8_t *s = r->seq + r->seq_len;
            size_t room = MNW_MAX_SEQ_LEN - r->seq_len;
            const unsigned char *lim = (size_t)(end - p) > room ? p + room : end;
            const unsigned char *q = p;
            uint8_t code;
            while (q < lim && (code = mnw_code_of[*q]) != MNW_CODE_INVALID) {
                *s++ = code;
                q++;
            }
            col += (size_t)(q - p);
            p = q;
            r->seq_len = (size_t)(s - r->seq);
            if (p == end) break;
            if (mnw_code_of[*p] != MNW_CODE_INVALID) { /* stopped at lim: no room */
                char ib[SHOW_ID + 4];
                return fail(r, r->rec_line, "sequence '%s' has more than %d bases (the limit)",
                            show_id(r, ib), MNW_MAX_SEQ_LEN);
            }
            if (*p == '\n') {
                p++;
                r->line++;
                r->state = ST_LINE;
            } else if (is_blank(*p)) {
                r->ws_col = col;
                r->ws_char = *p;
                p++;
                col++;
                r->state = ST_TRAIL;
            } else {
                return bad_char(r, *p, col);
            }
            break;
        }

        case ST_TRAIL: /* blanks in a sequence line: only more blanks may follow */
            if (rest_blank(r, &p, end, &col)) return bad_char(r, r->ws_char, r->ws_col);
            break;
        }
    }
    r->col = col;
    return 0;
}

/* The end of the input: close the last header and record. */
static int finish(rd *r)
{
    if (r->state == ST_ID && end_id(r)) return -1;
    if (end_record(r)) return -1;
    if (r->out->n == r->base) return fail(r, 1, "empty file, no FASTA records");
    return 0;
}

/* zlib's message for its pending error, without the name it was opened as
 * ("<fd:N>: "). */
static const char *gz_msg(gzFile gz, int *err)
{
    const char *m = gzerror(gz, err);
    if (m && m[0] == '<') {
        const char *q = strstr(m, ">: ");
        if (q) m = q + 3;
    }
    return m && *m ? m : "unknown error";
}

/* An error reported by zlib (gzread returned -1, or an error was pending at
 * the end), at the line being read, or the last line if it was complete. */
static int gz_fail(rd *r, gzFile gz)
{
    int err = Z_OK;
    const char *m = gz_msg(gz, &err);
    if (r->state == ST_LINE && r->line > 1) r->line--;
    if (err == Z_ERRNO) return fail(r, r->line, "read error: %s", m);
    if (err == Z_MEM_ERROR) return fail(r, r->line, "out of memory in zlib");
    return fail(r, r->line, "corrupt or truncated gzip data (%s)", m);
}

/* After a parse error in compressed input: corrupt gzip data decodes to
 * garbage before zlib notices (often only at the CRC check at the end), so
 * read on (up to DRAIN_MAX bytes) and, if zlib finds an error, report that
 * instead, at the line of the parse error: where the garbage likely begins. */
static void drain(rd *r, gzFile gz, unsigned char *buf)
{
    size_t total = 0;
    for (;;) {
        int n = gzread(gz, buf, READ_PLAIN);
        if (n <= 0) break;
        total += (size_t)n;
        if (total > DRAIN_MAX) return;
    }
    int err = Z_OK;
    const char *m = gz_msg(gz, &err);
    if (err == Z_OK) return;
    if (err == Z_ERRNO)
        fail(r, r->line, "read error: %s", m);
    else
        fail(r, r->line, "corrupt or truncated gzip data (%s; first bad text at this line)", m);
}

int mnw_fasta_read(const char *path, mnw_seqset *out, mnw_err *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return mnw_err_set(e, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return mnw_err_set(e, "%s: cannot open: %s", path, strerror(EISDIR));
    }
    gzFile gz = gzdopen(fd, "rb");
    if (!gz) {
        close(fd);
        return mnw_err_set(e, "%s: cannot open: out of memory in zlib", path);
    }
    gzbuffer(gz, GZ_BUF);

    rd r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.out = out;
    r.e = e;
    r.base = out->n;
    r.line = 1;
    r.col = 1;
    r.state = ST_LINE;
    r.seq = mnw_xmalloc(MNW_MAX_SEQ_LEN);
    for (size_t i = 0; i < out->n; i++) {
        const char *id = mnw_seq_id(out, i);
        ht_put(&r, i, hash_id(id, strlen(id)));
    }
    unsigned char *buf = mnw_xmalloc(READ_PLAIN);

    int rc = 0, first = 1;
    for (;;) {
        /* gzdirect is known after the first read (it looks at the magic). */
        int n = gzread(gz, buf, first || !gzdirect(gz) ? READ_GZ : READ_PLAIN);
        if (n < 0) {
            rc = gz_fail(&r, gz);
            break;
        }
        if (n == 0) {
            /* A truncated gzip stream ends like a good one; zlib only leaves
             * an error ("unexpected end of file") to be asked for. */
            int err = Z_OK;
            gzerror(gz, &err);
            rc = err != Z_OK ? gz_fail(&r, gz) : finish(&r);
            break;
        }
        const unsigned char *p = buf;
        if (first && n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) p += 3; /* BOM */
        first = 0;
        if (parse(&r, p, buf + n)) {
            rc = -1;
            if (!gzdirect(gz)) drain(&r, gz, buf);
            break;
        }
    }
    int crc = gzclose_r(gz);
    if (rc == 0 && crc != Z_OK) {
        if (crc == Z_ERRNO)
            rc = fail(&r, r.line, "read error: %s", strerror(errno));
        else
            rc = fail(&r, r.line, "corrupt or truncated gzip data (zlib error %d)", crc);
    }
    free(buf);
    free(r.seq);
    free(r.lines);
    free(r.slot);
    free(r.slot_hash);
    return rc;
}
