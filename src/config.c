/* config.c - reading config files (config.h). */
#include "src/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1])) *--end = 0;
    return s;
}

/* Longest line accepted, without its line end. */
#define LINE_MAX_BYTES 4094

enum { LN_EOF, LN_OK, LN_LONG, LN_NUL };

/* Reads one line (without its '\n') into line[0, LINE_MAX_BYTES], NUL-ended.
 * LN_OK, LN_EOF (no bytes left, or a read error), LN_LONG (more than LINE_MAX_BYTES bytes
 * before the line end), LN_NUL (a NUL byte at 1-based column *col). */
static int read_line(FILE *f, char *line, size_t *col)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n == LINE_MAX_BYTES) return LN_LONG;
        if (c == 0) {
            *col = n + 1;
            return LN_NUL;
        }
        line[n++] = (char)c;
    }
    line[n] = 0;
    if (c == EOF && (n == 0 || ferror(f))) return LN_EOF; /* a read error: reported by the caller */
    return LN_OK;
}

int mnw_config_parse(const char *path, mnw_config_fn fn, void *ctx, mnw_err *e)
{
    FILE *f = fopen(path, "r");
    if (!f) return mnw_err_set(e, "%s: cannot open: %s", path, strerror(errno));
    char line[LINE_MAX_BYTES + 1];
    int ln = 0, rc = 0;
    char section[512] = ""; /* host glob of the current section, "" outside */
    const size_t where_n = strlen(path) + 16;
    char *where = mnw_xmalloc(where_n); /* "FILE:LINE", whole however long FILE is */
    for (;;) {
        size_t col = 0;
        int got = read_line(f, line, &col);
        if (got == LN_EOF) break;
        ln++;
        snprintf(where, where_n, "%s:%d", path, ln);
        if (got == LN_LONG) {
            rc = mnw_err_set(e, "%s: line too long", where);
            break;
        }
        if (got == LN_NUL) {
            rc = mnw_err_set(e, "%s: a NUL byte at column %zu (is this a binary file?)", where, col);
            break;
        }
        char *text = line;
        if (ln == 1 && !strncmp(text, "\xEF\xBB\xBF", 3)) text += 3; /* UTF-8 BOM */
        char *hash = strchr(text, '#');
        if (hash) *hash = 0;
        char *s = trim(text);
        if (!*s) continue;
        if (*s == '[') {
            size_t L = strlen(s);
            char *inner = s + 1;
            if (s[L - 1] != ']' || strncmp(inner, "host", 4) != 0 || !isspace((unsigned char)inner[4])) {
                rc = mnw_err_set(e, "%s: a section is written [host GLOB], not '%s'", where, s);
                break;
            }
            s[L - 1] = 0;
            char *pat = trim(inner + 5);
            if (!*pat) {
                rc = mnw_err_set(e, "%s: [host GLOB] needs a host name pattern", where);
                break;
            }
            if (strlen(pat) >= sizeof section) {
                rc = mnw_err_set(e, "%s: [host GLOB]: a host name pattern of %zu bytes (at most %zu)", where,
                                 strlen(pat), sizeof section - 1);
                break;
            }
            snprintf(section, sizeof section, "%s", pat);
            continue;
        }
        char *eq = strchr(s, '=');
        char *val = NULL;
        if (eq) {
            *eq = 0;
            val = trim(eq + 1);
        }
        char *key = trim(s);
        if (fn(ctx, section[0] ? section : NULL, key, val, where, e)) {
            rc = -1;
            break;
        }
    }
    if (!rc && ferror(f)) rc = mnw_err_set(e, "%s: read error", path);
    free(where);
    fclose(f);
    return rc;
}
