/* test_bookmark.c - OUTDIR/mnw.bookmark (cld/bookmark.h): a write reads
 * back exactly; every truncation, a changed byte, an unknown or missing
 * key, numbers that do not fit together and a missing file are errors that
 * name the file (and line); a stale temporary file from a crash changes
 * nothing; the input fingerprint tells sets apart and repeats for equal
 * ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bookmark.h"
#include "tap.h"

static char dir[256];

static size_t slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void spit(const char *path, const char *buf, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(buf, 1, n, f);
    fclose(f);
}

static void sample(mnw_bookmark *b, uint64_t wm)
{
    mnw_err e;
    mnw_bookmark_init(b);
    strcpy(b->input_hash, "0123456789abcdef0123456789abcdef");
    b->sequences = 200;
    b->pairs = 19900;
    b->watermark = wm;
    mnw_bookmark_set(b, "match", "2", &e);
    mnw_bookmark_set(b, "identity", "mothur onegap countends", &e);
    mnw_bookmark_output(b, "pairs.tsv.gz", 123456789012ull, &e);
    mnw_bookmark_output(b, "dist.column.gz", 42, &e);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s/mnw-bm.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return 1;
    char path[512], tmp[512];
    snprintf(path, sizeof path, "%s/mnw.bookmark", dir);
    snprintf(tmp, sizeof tmp, "%s/.mnw.bookmark.tmp", dir);
    mnw_err e;
    mnw_bookmark b, r;

    sample(&b, 5000);
    T_OK(mnw_bookmark_write(dir, &b, &e) == 0, "write a bookmark");
    T_OK(access(tmp, F_OK) != 0, "no temporary file is left");
    T_OK(mnw_bookmark_read(path, &r, &e) == 0, "read it back");
    int same = !strcmp(r.input_hash, b.input_hash) && r.sequences == 200 && r.pairs == 19900 && r.watermark == 5000 &&
               r.nset == 2 && !strcmp(r.set_key[1], "identity") && !strcmp(r.set_val[1], "mothur onegap countends") &&
               r.nout == 2 && !strcmp(r.out_name[0], "pairs.tsv.gz") && r.out_bytes[0] == 123456789012ull &&
               r.out_bytes[1] == 42;
    T_OK(same, "every field reads back as written, values with spaces too");
    T_OK(mnw_bookmark_get(&r, "match") && !strcmp(mnw_bookmark_get(&r, "match"), "2") &&
             !mnw_bookmark_get(&r, "gap-open"),
         "settings by key");
    mnw_bookmark_free(&r);

    char text[4096], cut[4096];
    size_t n = slurp(path, text, sizeof text);
    T_OK(n > 0 && !strncmp(text, "mnw-bookmark 1\n", 15) && strstr(text, "\nend ") != NULL, "a text file: header, end line");

    /* every truncation is an error, never a shorter valid bookmark */
    int bad_ok = 0;
    for (size_t k = 0; k < n; k++) {
        spit(path, text, k);
        if (mnw_bookmark_read(path, &r, &e) == 0) {
            bad_ok++;
            mnw_bookmark_free(&r);
        }
    }
    T_OK(bad_ok == 0, "each of the %zu truncations is refused (%d read as valid)", n, bad_ok);
    spit(path, text, n / 2);
    mnw_bookmark_read(path, &r, &e);
    T_OK(strstr(e.msg, path) != NULL, "the error names the file: %s", e.msg);

    /* any changed digit of the watermark: the checksum says so */
    memcpy(cut, text, n);
    char *w = strstr(cut, "watermark 5000");
    w[10] = '6';
    spit(path, cut, n);
    T_OK(mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, "damaged") && strstr(e.msg, ":10:"),
         "a changed watermark fails the checksum, at the end line: %s", e.msg);

    /* unknown key; text after the end */
    spit(path, "mnw-bookmark 1\ncolour blue\n", 27);
    T_OK(mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, ":2: unknown key 'colour'"), "unknown key: %s", e.msg);
    memcpy(cut, text, n);
    memcpy(cut + n, "x 1\n", 4);
    spit(path, cut, n + 4);
    T_OK(mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, "after the end"), "text after the end: %s", e.msg);
    spit(path, "not a bookmark\n", 15);
    T_OK(mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, ":1:"), "another file: %s", e.msg);

    /* numbers that do not fit: watermark beyond the pairs */
    mnw_bookmark_free(&b);
    sample(&b, 19901);
    T_OK(mnw_bookmark_write(dir, &b, &e) == 0, "write a bookmark with watermark 19901 of 19900");
    T_OK(mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, "do not fit"), "refused on read: %s", e.msg);
    /* n (n - 1) / 2 beyond 64 bits must not wrap (found by tests/fuzz/fuzz_bookmark) */
    b.sequences = 4294967297ull; /* 2^32 + 1: n (n - 1) wraps to 2^32 */
    b.pairs = 2147483648ull;
    b.watermark = 0;
    T_OK(mnw_bookmark_write(dir, &b, &e) == 0 && mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, "do not fit"),
         "a pairs count that only fits after wrapping is refused: %s", e.msg);
    b.pairs = 9223372039002259456ull; /* the true 2^31 (2^32 + 1) */
    T_OK(mnw_bookmark_write(dir, &b, &e) == 0 && mnw_bookmark_read(path, &r, &e) == 0 && r.pairs == b.pairs,
         "2^32 + 1 sequences: their pairs counted without wrapping");
    mnw_bookmark_free(&r);
    b.sequences = 6074001001ull; /* n (n - 1) / 2 > 2^64 */
    b.pairs = 0;
    T_OK(mnw_bookmark_write(dir, &b, &e) == 0 && mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, "do not fit"),
         "more pairs than 64 bits hold: refused: %s", e.msg);
    mnw_bookmark_free(&b);

    /* a crash between writing the temporary file and the rename */
    sample(&b, 7000);
    T_OK(mnw_bookmark_write(dir, &b, &e) == 0, "write watermark 7000");
    spit(tmp, "mnw-bookmark 1\nwatermark 9", 26);
    T_OK(mnw_bookmark_read(path, &r, &e) == 0 && r.watermark == 7000, "a stale temporary file changes nothing");
    mnw_bookmark_free(&r);
    b.watermark = 8000;
    T_OK(mnw_bookmark_write(dir, &b, &e) == 0 && mnw_bookmark_read(path, &r, &e) == 0 && r.watermark == 8000,
         "the next write replaces both");
    mnw_bookmark_free(&r);
    mnw_bookmark_free(&b);

    /* refusals */
    unlink(path);
    T_OK(mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, path) && strstr(e.msg, "No such file"),
         "a missing bookmark: %s", e.msg);
    sample(&b, 1);
    T_OK(mnw_bookmark_write("/nonexistent-dir-mnw", &b, &e) != 0 && strstr(e.msg, "/nonexistent-dir-mnw"),
         "an impossible directory: %s", e.msg);
    T_OK(mnw_bookmark_set(&b, "two words", "x", &e) != 0 && mnw_bookmark_set(&b, "k", "a\nb", &e) != 0 &&
             mnw_bookmark_output(&b, "../x", 1, &e) != 0,
         "keys of one word, values of one line, plain output names");
    mnw_bookmark_free(&b);

    /* the input fingerprint */
    mnw_seqset s1, s2;
    mnw_seqset_init(&s1);
    mnw_seqset_init(&s2);
    const uint8_t a[] = {0, 1, 2, 3, 0, 1}, c[] = {0, 1, 2, 3, 0, 2};
    mnw_seqset_add(&s1, "x", a, 6);
    mnw_seqset_add(&s1, "y", c, 6);
    mnw_seqset_add(&s2, "x", a, 6);
    mnw_seqset_add(&s2, "y", c, 6);
    char h1[33], h2[33];
    mnw_bookmark_input_hash(&s1, h1);
    mnw_bookmark_input_hash(&s2, h2);
    T_OK(!strcmp(h1, h2) && strlen(h1) == 32, "equal sets, equal fingerprints (%s)", h1);
    mnw_seqset_free(&s2);
    mnw_seqset_init(&s2);
    mnw_seqset_add(&s2, "x", a, 6);
    mnw_seqset_add(&s2, "y", a, 6);
    mnw_bookmark_input_hash(&s2, h2);
    T_OK(strcmp(h1, h2) != 0, "one base changed: another fingerprint");
    mnw_seqset_free(&s2);
    mnw_seqset_init(&s2);
    mnw_seqset_add(&s2, "y", c, 6);
    mnw_seqset_add(&s2, "x", a, 6);
    mnw_bookmark_input_hash(&s2, h2);
    T_OK(strcmp(h1, h2) != 0, "order changed: another fingerprint");
    mnw_seqset_free(&s2);
    mnw_seqset_init(&s2);
    mnw_seqset_add(&s2, "x", a, 5);
    mnw_seqset_add(&s2, "y", c, 6);
    mnw_bookmark_input_hash(&s2, h2);
    T_OK(strcmp(h1, h2) != 0, "a base fewer: another fingerprint");
    mnw_seqset_free(&s1);
    mnw_seqset_free(&s2);

    unlink(path);
    unlink(tmp);
    rmdir(dir);
    return t_exit();
}
