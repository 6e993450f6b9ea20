/* json.c - see json.h. */
#include "lib/json.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

typedef struct {
    const char *name;
    const unsigned char *p, *end;
    const unsigned char *line_start;
    int line;
    mnw_err *e;
    int failed;
} parser;

static int col_of(const parser *ps, const unsigned char *at) { return (int)(at - ps->line_start) + 1; }

static int fail_at(parser *ps, const unsigned char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(parser *ps, const unsigned char *at, const char *fmt, ...)
{
    if (ps->failed) return -1;
    ps->failed = 1;
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return mnw_err_set(ps->e, "%s:%d:%d: %s", ps->name, ps->line, col_of(ps, at), why);
}

/* what is at p, for messages: "end of text" or the character */
static const char *what_at(const parser *ps, const unsigned char *p, char buf[16])
{
    if (p >= ps->end) return "the end of the text (cut short?)";
    if (*p >= 0x20 && *p < 0x7f) snprintf(buf, 16, "'%c'", *p);
    else snprintf(buf, 16, "byte 0x%02x", *p);
    return buf;
}

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end) {
        unsigned char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->p++;
            ps->line_start = ps->p;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            ps->p++;
        } else {
            break;
        }
    }
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if it is not one
 * (overlong forms, surrogates and code points beyond U+10FFFF refused). */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned char c = p[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else {
        return 0;
    }
    if ((size_t)(end - p) < n) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t k = 2; k < n; k++)
        if (p[k] < 0x80 || p[k] > 0xbf) return 0;
    return n;
}

static void put_utf8(mnw_buf *b, unsigned long cp)
{
    if (cp < 0x80) {
        mnw_buf_putc(b, (char)cp);
    } else if (cp < 0x800) {
        mnw_buf_putc(b, (char)(0xc0 | (cp >> 6)));
        mnw_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        mnw_buf_putc(b, (char)(0xe0 | (cp >> 12)));
        mnw_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        mnw_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    } else {
        mnw_buf_putc(b, (char)(0xf0 | (cp >> 18)));
        mnw_buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
        mnw_buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        mnw_buf_putc(b, (char)(0x80 | (cp & 0x3f)));
    }
}

static int hex4(parser *ps, const unsigned char *at, unsigned long *out)
{
    if (ps->end - at < 4) return fail_at(ps, at, "\\u needs 4 hex digits (cut short?)");
    unsigned long v = 0;
    for (int k = 0; k < 4; k++) {
        unsigned char c = at[k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return fail_at(ps, at + k, "\\u needs 4 hex digits");
        v = v * 16 + (unsigned long)d;
    }
    *out = v;
    return 0;
}

/* A string at ps->p (the opening quote); the decoded text into a new
 * NUL-terminated allocation. */
static int parse_string(parser *ps, char **out, size_t *out_len)
{
    const unsigned char *start = ps->p;
    ps->p++;
    mnw_buf b;
    mnw_buf_init(&b);
    for (;;) {
        if (ps->p >= ps->end) {
            fail_at(ps, start, "string not closed (cut short?)");
            goto bad;
        }
        unsigned char c = *ps->p;
        if (c == '"') {
            ps->p++;
            break;
        }
        if (c < 0x20) {
            fail_at(ps, ps->p, "raw control character 0x%02x in a string (must be escaped)", c);
            goto bad;
        }
        if (c == '\\') {
            const unsigned char *esc = ps->p;
            if (ps->end - ps->p < 2) {
                fail_at(ps, esc, "escape cut short");
                goto bad;
            }
            unsigned char x = ps->p[1];
            ps->p += 2;
            switch (x) {
            case '"': mnw_buf_putc(&b, '"'); break;
            case '\\': mnw_buf_putc(&b, '\\'); break;
            case '/': mnw_buf_putc(&b, '/'); break;
            case 'b': mnw_buf_putc(&b, '\b'); break;
            case 'f': mnw_buf_putc(&b, '\f'); break;
            case 'n': mnw_buf_putc(&b, '\n'); break;
            case 'r': mnw_buf_putc(&b, '\r'); break;
            case 't': mnw_buf_putc(&b, '\t'); break;
            case 'u': {
                unsigned long cp = 0;
                if (hex4(ps, ps->p, &cp)) goto bad;
                ps->p += 4;
                if (cp >= 0xdc00 && cp <= 0xdfff) {
                    fail_at(ps, esc, "\\u%04lx: a low surrogate without a high one before it", cp);
                    goto bad;
                }
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    unsigned long lo = 0;
                    if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u') {
                        fail_at(ps, esc, "\\u%04lx: a high surrogate without \\uDC00-\\uDFFF after it", cp);
                        goto bad;
                    }
                    if (hex4(ps, ps->p + 2, &lo)) goto bad;
                    if (lo < 0xdc00 || lo > 0xdfff) {
                        fail_at(ps, esc, "\\u%04lx: a high surrogate without \\uDC00-\\uDFFF after it", cp);
                        goto bad;
                    }
                    ps->p += 6;
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
                if (cp == 0) {
                    fail_at(ps, esc, "\\u0000 is not supported (strings are C strings)");
                    goto bad;
                }
                put_utf8(&b, cp);
                break;
            }
            default:
                fail_at(ps, esc, "unknown escape '\\%c'", x >= 0x20 && x < 0x7f ? x : '?');
                goto bad;
            }
            continue;
        }
        size_t n = utf8_len(ps->p, ps->end);
        if (n == 0) {
            fail_at(ps, ps->p, "byte 0x%02x is not valid UTF-8", c);
            goto bad;
        }
        mnw_buf_put(&b, ps->p, n);
        ps->p += n;
    }
    *out_len = b.len;
    mnw_buf_putc(&b, '\0');
    *out = b.p;
    return 0;
bad:
    mnw_buf_free(&b);
    return -1;
}

static int parse_number(parser *ps, mnw_json *v)
{
    const unsigned char *s = ps->p, *q = s;
    if (q < ps->end && *q == '-') q++;
    if (q >= ps->end || *q < '0' || *q > '9') return fail_at(ps, q, "a number needs a digit here");
    if (*q == '0') {
        q++;
        if (q < ps->end && *q >= '0' && *q <= '9') return fail_at(ps, s, "a number with a leading zero");
    } else {
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
    }
    if (q < ps->end && *q == '.') {
        q++;
        if (q >= ps->end || *q < '0' || *q > '9') return fail_at(ps, q, "a digit must follow the decimal point");
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < ps->end && (*q == '+' || *q == '-')) q++;
        if (q >= ps->end || *q < '0' || *q > '9') return fail_at(ps, q, "a digit must follow the exponent");
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
    }
    size_t n = (size_t)(q - s);
    v->str = mnw_xmalloc(n + 1);
    memcpy(v->str, s, n);
    v->str[n] = '\0';
    v->len = n;
    errno = 0;
    v->num = strtod(v->str, NULL);
    if (isinf(v->num)) return fail_at(ps, s, "number %.40s%s is too large for a double", v->str, n > 40 ? "..." : "");
    v->type = MNW_JSON_NUMBER;
    ps->p = q;
    return 0;
}

static int parse_value(parser *ps, mnw_json *v, int depth);

static int key_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* no key twice in an object: sort pointers to the keys, compare neighbours */
static int check_keys(parser *ps, mnw_json *v)
{
    if (v->n < 2) return 0;
    char **idx = mnw_xmalloc(v->n * sizeof *idx);
    for (size_t k = 0; k < v->n; k++) idx[k] = v->keys[k];
    qsort(idx, v->n, sizeof *idx, key_cmp);
    const char *dup = NULL;
    for (size_t k = 1; k < v->n && !dup; k++)
        if (!strcmp(idx[k - 1], idx[k])) dup = idx[k];
    free(idx);
    if (!dup) return 0;
    size_t second = 0; /* the second occurrence, for its line */
    for (size_t k = 0, seen = 0; k < v->n; k++)
        if (!strcmp(v->keys[k], dup) && seen++ == 1) second = k;
    ps->failed = 1;
    return mnw_err_set(ps->e, "%s:%d:%d: key \"%.60s\" appears twice in one object", ps->name, v->items[second].line,
                       v->items[second].col, dup);
}

static int parse_container(parser *ps, mnw_json *v, int depth)
{
    const unsigned char *open = ps->p;
    int obj = *open == '{';
    char close = obj ? '}' : ']';
    if (depth >= MNW_JSON_MAX_DEPTH)
        return fail_at(ps, open, "nested more than %d deep", MNW_JSON_MAX_DEPTH);
    v->type = obj ? MNW_JSON_OBJECT : MNW_JSON_ARRAY;
    ps->p++;
    size_t cap = 0;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return 0;
    }
    for (;;) {
        skip_ws(ps);
        if (v->n == cap) {
            cap = cap ? 2 * cap : 4;
            v->items = mnw_xrealloc(v->items, cap * sizeof *v->items);
            if (obj) v->keys = mnw_xrealloc(v->keys, cap * sizeof *v->keys);
        }
        mnw_json *item = &v->items[v->n];
        memset(item, 0, sizeof *item);
        if (obj) {
            char buf[16];
            if (ps->p >= ps->end || *ps->p != '"')
                return fail_at(ps, ps->p, "expected a key (a string), found %s", what_at(ps, ps->p, buf));
            size_t klen;
            if (parse_string(ps, &v->keys[v->n], &klen)) return -1;
            v->n++; /* the key is owned from here; the value is zeroed */
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':')
                return fail_at(ps, ps->p, "expected ':' after the key, found %s", what_at(ps, ps->p, buf));
            ps->p++;
            skip_ws(ps);
            if (parse_value(ps, item, depth + 1)) return -1;
        } else {
            v->n++;
            if (parse_value(ps, item, depth + 1)) return -1;
        }
        skip_ws(ps);
        char buf[16];
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == (unsigned char)close) {
            ps->p++;
            break;
        }
        return fail_at(ps, ps->p, "expected ',' or '%c' (the %s opened at %d:%d), found %s", close,
                       obj ? "object" : "array", v->line, v->col, what_at(ps, ps->p, buf));
    }
    return obj ? check_keys(ps, v) : 0;
}

static int literal(parser *ps, const char *word, mnw_json *v, mnw_json_type t)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n)) {
        char buf[16];
        return fail_at(ps, ps->p, "expected a value, found %s", what_at(ps, ps->p, buf));
    }
    ps->p += n;
    v->type = t;
    return 0;
}

static int parse_value(parser *ps, mnw_json *v, int depth)
{
    v->line = ps->line;
    v->col = col_of(ps, ps->p);
    char buf[16];
    if (ps->p >= ps->end) return fail_at(ps, ps->p, "expected a value, found %s", what_at(ps, ps->p, buf));
    switch (*ps->p) {
    case '{':
    case '[': return parse_container(ps, v, depth);
    case '"':
        v->type = MNW_JSON_STRING;
        return parse_string(ps, &v->str, &v->len);
    case 't': return literal(ps, "true", v, MNW_JSON_TRUE);
    case 'f': return literal(ps, "false", v, MNW_JSON_FALSE);
    case 'n': return literal(ps, "null", v, MNW_JSON_NULL);
    default:
        if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) return parse_number(ps, v);
        return fail_at(ps, ps->p, "expected a value, found %s", what_at(ps, ps->p, buf));
    }
}

static void free_inside(mnw_json *v)
{
    free(v->str);
    for (size_t k = 0; k < v->n; k++) {
        free_inside(&v->items[k]);
        if (v->keys) free(v->keys[k]);
    }
    free(v->items);
    free(v->keys);
}

void mnw_json_free(mnw_json *v)
{
    if (!v) return;
    free_inside(v);
    free(v);
}

mnw_json *mnw_json_parse(const char *name, const char *text, size_t len, mnw_err *e)
{
    parser ps = {name, (const unsigned char *)text, (const unsigned char *)text + len, (const unsigned char *)text, 1, e,
                 0};
    mnw_json *v = mnw_xcalloc(1, sizeof *v);
    skip_ws(&ps);
    if (parse_value(&ps, v, 0) == 0) {
        skip_ws(&ps);
        if (ps.p == ps.end) return v;
        char buf[16];
        fail_at(&ps, ps.p, "text after the value: %s", what_at(&ps, ps.p, buf));
    }
    mnw_json_free(v);
    return NULL;
}

const char *mnw_json_type_name(mnw_json_type t)
{
    switch (t) {
    case MNW_JSON_NULL: return "null";
    case MNW_JSON_FALSE: return "false";
    case MNW_JSON_TRUE: return "true";
    case MNW_JSON_NUMBER: return "a number";
    case MNW_JSON_STRING: return "a string";
    case MNW_JSON_ARRAY: return "an array";
    case MNW_JSON_OBJECT: return "an object";
    }
    return "?";
}

const mnw_json *mnw_json_get(const mnw_json *obj, const char *key)
{
    if (!obj || obj->type != MNW_JSON_OBJECT) return NULL;
    for (size_t k = 0; k < obj->n; k++)
        if (!strcmp(obj->keys[k], key)) return &obj->items[k];
    return NULL;
}

int mnw_json_u64(const mnw_json *v, uint64_t *out)
{
    if (!v || v->type != MNW_JSON_NUMBER || v->str[0] < '0' || v->str[0] > '9' || strpbrk(v->str, ".eE")) return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(v->str, &end, 10);
    if (errno || *end) return -1;
    *out = x;
    return 0;
}

int mnw_json_int(const mnw_json *v, long long lo, long long hi, long long *out)
{
    if (!v || v->type != MNW_JSON_NUMBER || strpbrk(v->str, ".eE")) return -1;
    errno = 0;
    char *end;
    long long x = strtoll(v->str, &end, 10);
    if (errno || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

void mnw_json_put_string(mnw_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
    mnw_buf_putc(b, '"');
    while (p < end) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            mnw_buf_putc(b, '\\');
            mnw_buf_putc(b, (char)c);
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            const char *short_esc = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
            if (short_esc) {
                mnw_buf_puts(b, short_esc);
            } else {
                char tmp[8];
                snprintf(tmp, sizeof tmp, "\\u%04x", c);
                mnw_buf_puts(b, tmp);
            }
            p++;
        } else {
            size_t n = utf8_len(p, end);
            if (n == 0) {
                mnw_buf_puts(b, "\\ufffd");
                p++;
            } else {
                mnw_buf_put(b, p, n);
                p += n;
            }
        }
    }
    mnw_buf_putc(b, '"');
}

int mnw_json_put_double(mnw_buf *b, const char *fmt, double v)
{
    if (!isfinite(v)) return -1;
    int n = snprintf(NULL, 0, fmt, v);
    if (n < 0) return -1;
    mnw_buf_reserve(b, (size_t)n + 1);
    snprintf(b->p + b->len, (size_t)n + 1, fmt, v);
    b->len += (size_t)n;
    return 0;
}
