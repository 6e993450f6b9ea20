/* json.h - a small strict JSON (RFC 8259) reader, and helpers that write
 * JSON strings and numbers into a mnw_buf.
 *
 * The reader parses a whole text into a tree of values. It is strict: the
 * grammar of RFC 8259 and nothing more (no comments, no trailing commas, no
 * single quotes, no NaN/Infinity, no leading zeros or '+', no byte-order
 * mark, nothing but whitespace after the value), strings of valid UTF-8 with
 * no raw control characters, \u escapes with surrogate pairs only in pairs,
 * no duplicate keys in an object, numbers that fit a double, and nesting at
 * most MNW_JSON_MAX_DEPTH deep. It refuses \u0000 (strings are C strings).
 * Errors are "NAME:LINE:COL: reason" (NAME: the file, or what the text is).
 * Objects keep their keys in file order; readers look keys up by name, so
 * key order does not matter and unknown keys can be ignored.
 *
 * Numbers are parsed with strtod in the C locale (mnw never calls
 * setlocale); the text of each number is kept, so integers beyond 2^53 read
 * exactly (mnw_json_u64).
 *
 * Ownership: mnw_json_parse returns a tree the caller owns (mnw_json_free
 * frees it and everything in it); the accessors return pointers into it.
 * Thread-safety: no global state; a tree may be read from several threads.
 */
#ifndef MNW_JSON_H
#define MNW_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"
#include "lib/util.h"

#define MNW_JSON_MAX_DEPTH 64

typedef enum {
    MNW_JSON_NULL,
    MNW_JSON_FALSE,
    MNW_JSON_TRUE,
    MNW_JSON_NUMBER,
    MNW_JSON_STRING,
    MNW_JSON_ARRAY,
    MNW_JSON_OBJECT
} mnw_json_type;

typedef struct mnw_json {
    mnw_json_type type;
    int line, col;          /* where the value starts (1-based) */
    double num;             /* NUMBER */
    char *str;              /* STRING: decoded UTF-8; NUMBER: its text as written */
    size_t len;             /* strlen(str) */
    size_t n;               /* ARRAY, OBJECT: element count */
    struct mnw_json *items; /* ARRAY elements, OBJECT values (n) */
    char **keys;            /* OBJECT keys (n), decoded UTF-8 */
} mnw_json;

/* Parses text[0..len) (NUL bytes inside are refused, not an end). name
 * names the text in errors. Returns the root value, or NULL with e set. */
mnw_json *mnw_json_parse(const char *name, const char *text, size_t len, mnw_err *e) MNW_MUST_CHECK;
void mnw_json_free(mnw_json *v);

/* "null", "false", "true", "a number", "a string", "an array", "an object". */
const char *mnw_json_type_name(mnw_json_type t);

/* The value of key in an object, or NULL (not an object, or no such key). */
const mnw_json *mnw_json_get(const mnw_json *obj, const char *key);
/* A number written as a plain non-negative integer (no sign, fraction or
 * exponent) that fits uint64_t: 0 and *out set, else -1. */
int mnw_json_u64(const mnw_json *v, uint64_t *out);
/* A number written as an integer (optional '-') within [lo, hi]: 0 or -1. */
int mnw_json_int(const mnw_json *v, long long lo, long long hi, long long *out);

/* Appends s as a JSON string (quotes added): '"', '\\' and control
 * characters escaped, valid UTF-8 copied, each byte that is not part of
 * valid UTF-8 written as \ufffd, so the output is always valid JSON. */
void mnw_json_put_string(mnw_buf *b, const char *s);
/* Appends a finite double with printf format fmt ("%.3f", "%.17g", ...);
 * -1 (nothing appended) if v is NaN or infinite: JSON has no such number. */
int mnw_json_put_double(mnw_buf *b, const char *fmt, double v);

#endif
