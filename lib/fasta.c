/* fasta.c - see fasta.h and docs/INPUT.md.
 *
 * The I/O layer reads the file descriptor itself: read(2) into a buffer, on
 * a pipe, FIFO or device after poll(2) with a 100 ms timeout, so that a stop
 * asked for while a writer is slow or silent is seen (the stopped()
 * callback is asked before every read and after every poll timeout). The
 * first two bytes decide the format: 1f 8b is gzip, inflated member by
 * member (after each member's end what follows must be another member or
 * nothing); anything else is plain text, passed through as read. A state
 * machine parses the text byte by byte, so lines may have any length and may
 * span buffers. Sequence bytes go through mnw_code_of[] straight into a
 * buffer of MNW_MAX_SEQ_LEN codes; a record is copied into the set when the
 * next header (or the end) is reached. Ids are checked for duplicates in an
 * open-addressing hash table of set indices.
 */
#include "lib/fasta.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* READ_BUF: bytes asked of read(2), plain or compressed. GZ_OUT: text
 * inflated per step. When zlib finds damage, the text of the step that found
 * it is dropped (it may end in garbage), so the line reported is at most one
 * step early: a small step keeps it close (and the same as the zlib gzread
 * the reader used before, which inflated 4 KiB per call). */
#define READ_BUF (1u << 20)
#define GZ_OUT (1u << 12)
#define POLL_MS 100                        /* poll timeout between stop checks */
#define DRAIN_MAX ((size_t)256 << 20)      /* see drain() */
#define COUNT_MAX ((uint64_t)256 << 20)    /* see trailing() */
#define SHOW_ID 80                         /* id bytes shown in messages */

static const unsigned char BOM[3] = {0xEF, 0xBB, 0xBF};

enum { ST_LINE, ST_PRE, ST_ID, ST_HDR, ST_HCR, ST_SEQ, ST_TRAIL };

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
    size_t bom;               /* text bytes matched against the UTF-8 BOM, 0..2; 3: decided */
    size_t ws_col;            /* first of a run of blanks in a sequence line; a CR's in a header */
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

/* After a lone CR's message: what it most likely is. */
#define LONE_CR_HINT " (a CR not at a line end: old Mac line ends? mnw reads LF or CRLF line ends)"

static int bad_char(rd *r, unsigned char c, size_t col)
{
    char cb[8], ib[SHOW_ID + 4];
    return fail(r, r->line, "invalid character '%s' at column %zu in sequence '%s'%s",
                show_byte(c, cb), col, show_id(r, ib),
                c == '-' || c == '.' ? " (mnw takes unaligned sequences)" : c == '\r' ? LONE_CR_HINT : "");
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

/* Sequence letters p[0, lim) to codes in s, up to the first byte that is
 * not a letter; returns where it stopped. The hot loop of the reader, in a
 * function of its own aligned to 64 bytes, so that the loop lies inside one
 * 64-byte line of code whatever the code around it: where it straddled two,
 * reading a plain 16S file took 15% longer (gcc 12 -O3, AMD EPYC). */
__attribute__((noinline, aligned(64))) static const unsigned char *to_codes(const unsigned char *p,
                                                                            const unsigned char *lim, uint8_t *s)
{
    uint8_t code;
    while (p < lim && (code = mnw_code_of[*p]) != MNW_CODE_INVALID) {
        *s++ = code;
        p++;
    }
    return p;
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

        case ST_HDR: { /* the rest of a header line is ignored, but for a CR */
            const unsigned char *q = memchr(p, '\n', (size_t)(end - p));
            const unsigned char *lim = q ? q : end;
            const unsigned char *cr = memchr(p, '\r', (size_t)(lim - p));
            if (cr) { /* blanks only may follow it on this line (CRLF) */
                col += (size_t)(cr - p);
                r->ws_col = col;
                p = cr + 1;
                col++;
                r->state = ST_HCR;
            } else if (!q) {
                col += (size_t)(end - p);
                p = end;
            } else {
                p = q + 1;
                r->line++;
                r->state = ST_LINE;
            }
            break;
        }

        case ST_HCR: /* after a CR in a header: only blanks up to the line end */
            if (rest_blank(r, &p, end, &col))
                return fail(r, r->line, "invalid character '\\x0D' at column %zu in the header" LONE_CR_HINT,
                            r->ws_col);
            break;

        case ST_SEQ: {
            size_t room = MNW_MAX_SEQ_LEN - r->seq_len;
            const unsigned char *lim = (size_t)(end - p) > room ? p + room : end;
            const unsigned char *q = to_codes(p, lim, r->seq + r->seq_len);
            r->seq_len += (size_t)(q - p);
            col += (size_t)(q - p);
            p = q;
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

/* Text in order: a UTF-8 BOM at the very start is skipped, also when its
 * bytes arrive in separate reads (held until the BOM is decided). */
static int feed(rd *r, const unsigned char *p, size_t n)
{
    while (r->bom < 3 && n) {
        if (*p != BOM[r->bom]) { /* no BOM: the bytes held so far are text */
            size_t held = r->bom;
            r->bom = 3;
            if (held && parse(r, BOM, BOM + held)) return -1;
            break;
        }
        r->bom++;
        p++;
        n--;
    }
    return n ? parse(r, p, p + n) : 0;
}

/* The end of the input: close the last header and record. */
static int finish(rd *r)
{
    if (r->bom > 0 && r->bom < 3) { /* a file of the first bytes of a BOM */
        size_t held = r->bom;
        r->bom = 3;
        if (parse(r, BOM, BOM + held)) return -1;
    }
    if (r->state == ST_ID && end_id(r)) return -1;
    if (end_record(r)) return -1;
    if (r->out->n == r->base) return fail(r, 1, "empty file, no FASTA records");
    return 0;
}

/* ---- input: the file descriptor ---- */

enum { IN_EOF = 0, IN_OK = 1, IN_ERR = -1, IN_STOP = -2 };

typedef struct {
    int fd;
    int poll_first;            /* not a regular file: poll(2) before read(2) */
    int (*stopped)(void);      /* may be NULL */
    unsigned char *buf;        /* READ_BUF bytes */
    const unsigned char *p;    /* unconsumed input p[0, avail) inside buf */
    size_t avail;
    uint64_t nread;            /* bytes read from the file so far */
    int64_t size;              /* a regular file's size when opened, else -1 */
    int eof;
    int err;                   /* errno of a failed read */
} src;

/* Reads more bytes behind the unconsumed ones (moved to the buffer's start;
 * callers ask only with fewer than 2 bytes unconsumed, so there is room).
 * IN_OK, IN_EOF, IN_ERR (s->err) or IN_STOP. */
static int src_more(src *s)
{
    if (s->avail && s->p != s->buf) memmove(s->buf, s->p, s->avail);
    s->p = s->buf;
    if (s->eof) return IN_EOF;
    for (;;) {
        if (s->stopped && s->stopped()) return IN_STOP;
        if (s->poll_first) {
            struct pollfd pf = {.fd = s->fd, .events = POLLIN};
            int k = poll(&pf, 1, s->stopped ? POLL_MS : -1);
            if (k == 0) continue;
            if (k < 0) {
                if (errno == EINTR) continue;
                s->err = errno;
                return IN_ERR;
            }
        }
        ssize_t n = read(s->fd, s->buf + s->avail, READ_BUF - s->avail);
        if (n > 0) {
            s->avail += (size_t)n;
            s->nread += (uint64_t)n;
            return IN_OK;
        }
        if (n == 0) {
            s->eof = 1;
            return IN_EOF;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) { /* O_NONBLOCK: wait in poll */
            s->poll_first = 1;
            continue;
        }
        s->err = errno;
        return IN_ERR;
    }
}

enum { LK_END = 0, LK_GZ = 1, LK_OTHER = 2 };

/* What the unconsumed input starts with: LK_END (nothing left), LK_GZ (the
 * gzip magic 1f 8b), LK_OTHER; or IN_ERR, IN_STOP. */
static int src_look(src *s)
{
    while (s->avail < 2) {
        int k = src_more(s);
        if (k == IN_EOF) break;
        if (k < 0) return k;
    }
    if (s->avail == 0) return LK_END;
    return s->avail >= 2 && s->p[0] == 0x1f && s->p[1] == 0x8b ? LK_GZ : LK_OTHER;
}

/* "PATH: reading stopped at line N". Returns -2. */
static int stop_fail(rd *r)
{
    mnw_err_set(r->e, "%s: reading stopped at line %zu", r->path, r->line);
    return -2;
}

/* An error where the input ends or breaks: at the line being read there, or
 * the last line if it was complete. Returns -1. */
__attribute__((format(printf, 2, 3))) static int end_fail(rd *r, const char *fmt, ...)
{
    char reason[MNW_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    if (r->state == ST_LINE && r->line > 1) r->line--;
    return fail(r, r->line, "%s", reason);
}

/* In an input error: IN_ERR or IN_STOP as the message says. */
static int src_fail(rd *r, const src *s, int k)
{
    return k == IN_STOP ? stop_fail(r) : end_fail(r, "read error: %s", strerror(s->err));
}

/* v with thousands separators ("1,234,567"); buf of 32 bytes. */
static const char *grouped(uint64_t v, char *buf)
{
    char d[24];
    int n = snprintf(d, sizeof d, "%" PRIu64, v), k = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) buf[k++] = ',';
        buf[k++] = d[i];
    }
    buf[k] = 0;
    return buf;
}

/* ---- plain text ---- */

static int read_plain(rd *r, src *s)
{
    for (;;) {
        if (s->avail) {
            if (feed(r, s->p, s->avail)) return -1;
            s->avail = 0;
        }
        int k = src_more(s);
        if (k == IN_EOF) return finish(r);
        if (k < 0) return src_fail(r, s, k);
    }
}

/* ---- gzip ---- */

enum { CH_FULL, CH_END, CH_TRUNC, CH_ZERR, CH_IN };

/* Inflates up to `cap` bytes of text into out (*got of them): CH_FULL (out
 * is full), CH_END (the member ended), CH_TRUNC (the input ended inside the
 * member), CH_ZERR (zlib found damage: *zret), CH_IN (a read failed or was
 * stopped: *in holds IN_ERR or IN_STOP). */
static int gz_step(src *s, z_stream *z, unsigned char *out, size_t cap, size_t *got, int *zret, int *in)
{
    z->next_out = out;
    z->avail_out = (uInt)cap;
    int ch;
    for (;;) {
        if (s->avail == 0) {
            int k = src_more(s);
            if (k == IN_EOF) {
                ch = CH_TRUNC;
                break;
            }
            if (k < 0) {
                *in = k;
                ch = CH_IN;
                break;
            }
        }
        z->next_in = (Bytef *)s->p;
        z->avail_in = (uInt)s->avail;
        int ret = inflate(z, Z_NO_FLUSH);
        s->p = z->next_in;
        s->avail = z->avail_in;
        if (ret == Z_STREAM_END) {
            ch = CH_END;
            break;
        }
        if ((ret != Z_OK && ret != Z_BUF_ERROR) || (ret == Z_BUF_ERROR && s->avail)) {
            *zret = ret;
            ch = CH_ZERR;
            break;
        }
        if (z->avail_out == 0) {
            ch = CH_FULL;
            break;
        }
    }
    *got = cap - z->avail_out;
    return ch;
}

/* zlib's reason for a CH_ZERR. */
static const char *gz_reason(const z_stream *z, int zret)
{
    if (zret == Z_MEM_ERROR) return "out of memory in zlib";
    if (z->msg && *z->msg) return z->msg;
    return zret == Z_NEED_DICT ? "a preset dictionary, which gzip does not use" : "compressed data error";
}

/* After a parse error in compressed input: corrupt gzip data decodes to
 * garbage before zlib notices (often only at the CRC check at the end of the
 * member), so inflate on from where the step `ch` (a gz_step result without
 * damage) left off (up to DRAIN_MAX bytes of text, through the
 * following members) and, if zlib finds damage, report that instead, at the
 * line of the parse error: where the garbage likely begins. The end of the
 * gzip data (also data that is not gzip after it) or a stop keeps the parse
 * error. */
static void drain(rd *r, src *s, z_stream *z, unsigned char *out, int ch)
{
    size_t total = 0;
    for (;;) {
        if (ch == CH_END) { /* on with the next member, if one follows */
            if (src_look(s) != LK_GZ || inflateReset(z) != Z_OK) return;
        } else if (ch == CH_TRUNC) {
            fail(r, r->line, "corrupt or truncated gzip data (unexpected end of file; first bad text at this line)");
            return;
        } else if (total > DRAIN_MAX) {
            return;
        }
        size_t got;
        int zret = Z_OK, in = 0;
        ch = gz_step(s, z, out, GZ_OUT, &got, &zret, &in);
        total += got;
        if (ch == CH_ZERR) {
            if (zret != Z_MEM_ERROR)
                fail(r, r->line, "corrupt or truncated gzip data (%s; first bad text at this line)",
                     gz_reason(z, zret));
            return;
        }
        if (ch == CH_IN) {
            if (in == IN_ERR) fail(r, r->line, "read error: %s", strerror(s->err));
            return;
        }
    }
}

/* Bytes after the gzip member that ended at file offset `at` that are not
 * another member: counted to the end of the file (a regular file's size says
 * how many once one of them is not 0; elsewhere reading stops after
 * COUNT_MAX bytes: "more than"), then reported. */
static int trailing(rd *r, src *s, uint64_t at)
{
    uint64_t n = 0;
    int zero = 1, more = 0;
    for (;;) {
        for (size_t i = 0; zero && i < s->avail; i++) zero = s->p[i] == 0;
        n += s->avail;
        s->avail = 0;
        if (!zero && s->size >= 0 && (uint64_t)s->size >= at + n) {
            n = (uint64_t)s->size - at;
            break;
        }
        if (n > COUNT_MAX) {
            if (s->size >= 0 && (uint64_t)s->size >= at + n)
                n = (uint64_t)s->size - at;
            else
                more = 1, n = COUNT_MAX; /* "more than COUNT_MAX" */
            zero = 0; /* not all of them seen */
            break;
        }
        int k = src_more(s);
        if (k == IN_EOF) break;
        if (k < 0) return src_fail(r, s, k);
    }
    char nb[32], ab[32];
    grouped(n, nb);
    grouped(at, ab);
    if (zero)
        return mnw_err_set(r->e,
                           "%s: %s zero byte%s after the last gzip member, from byte offset %s (padding is not "
                           "accepted: keep the first %s bytes of the file)",
                           r->path, nb, n == 1 ? "" : "s", ab, ab);
    return mnw_err_set(r->e,
                       "%s: %s%s byte%s of data that is not gzip after the last gzip member, from byte offset %s (a "
                       "gzip file followed by plain text? compress all of it, or none)",
                       r->path, more ? "more than " : "", nb, n == 1 ? "" : "s", ab);
}

static int read_gz(rd *r, src *s)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    int ret = inflateInit2(&z, 16 + MAX_WBITS);
    if (ret != Z_OK) return fail(r, 1, "%s", ret == Z_MEM_ERROR ? "out of memory in zlib" : "zlib cannot inflate");
    unsigned char *out = mnw_xmalloc(GZ_OUT);
    int rc;
    for (;;) {
        size_t got;
        int zret = Z_OK, in = 0;
        int ch = gz_step(s, &z, out, GZ_OUT, &got, &zret, &in);
        if (ch == CH_ZERR) { /* the text of this step may end in garbage: dropped */
            if (zret == Z_MEM_ERROR)
                rc = end_fail(r, "out of memory in zlib");
            else
                rc = end_fail(r, "corrupt or truncated gzip data (%s)", gz_reason(&z, zret));
            break;
        }
        if (ch == CH_IN) {
            rc = src_fail(r, s, in);
            break;
        }
        if (feed(r, out, got)) {
            rc = -1;
            drain(r, s, &z, out, ch);
            break;
        }
        if (ch == CH_TRUNC) {
            rc = end_fail(r, "corrupt or truncated gzip data (unexpected end of file)");
            break;
        }
        if (ch == CH_END) {
            uint64_t at = s->nread - s->avail; /* where the member ended */
            int k = src_look(s);
            if (k == LK_END) {
                rc = finish(r);
                break;
            }
            if (k < 0) {
                rc = src_fail(r, s, k);
                break;
            }
            if (k == LK_OTHER) {
                rc = trailing(r, s, at);
                break;
            }
            if (inflateReset(&z) != Z_OK) {
                rc = fail(r, r->line, "zlib cannot inflate the next gzip member");
                break;
            }
        }
    }
    free(out);
    inflateEnd(&z);
    return rc;
}

int mnw_fasta_read_until(const char *path, mnw_seqset *out, int (*stopped)(void), mnw_err *e)
{
    /* O_NONBLOCK: opening a FIFO does not wait for its writer (poll does,
     * with stop checks); regular files ignore it. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return mnw_err_set(e, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    int regular = 0;
    int64_t size = -1;
    if (fstat(fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            close(fd);
            return mnw_err_set(e, "%s: cannot open: %s", path, strerror(EISDIR));
        }
        regular = S_ISREG(st.st_mode);
        if (regular) size = (int64_t)st.st_size;
    }

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
    src s;
    memset(&s, 0, sizeof s);
    s.fd = fd;
    s.poll_first = !regular;
    s.size = size;
    s.stopped = stopped;
    s.buf = mnw_xmalloc(READ_BUF);
    s.p = s.buf;

    int rc, k = src_look(&s);
    if (k == LK_GZ)
        rc = read_gz(&r, &s);
    else if (k < 0)
        rc = src_fail(&r, &s, k);
    else
        rc = read_plain(&r, &s);
    close(fd);
    free(s.buf);
    free(r.seq);
    free(r.lines);
    free(r.slot);
    free(r.slot_hash);
    return rc;
}

int mnw_fasta_read(const char *path, mnw_seqset *out, mnw_err *e)
{
    return mnw_fasta_read_until(path, out, NULL, e);
}
