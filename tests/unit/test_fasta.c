/* test_fasta.c - the FASTA reader (src/fasta.c): every accepted form, every
 * error message (exact text, file and line), plain and gzip input, the real
 * 16S samples, and the speed of the duplicate-id check. Run from the
 * repository root (it reads tests/data and data/). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "fasta.h"
#include "seq.h"
#include "tap.h"
#include "util.h"

#define TDATA "tests/data"
#define BAD "tests/data/bad"

static char tmpdir[64];
static char *made[512];
static int nmade;

/* A path in the scratch directory, removed at the end. */
static const char *tpath(const char *name)
{
    size_t n = strlen(tmpdir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", tmpdir, name);
    made[nmade++] = p;
    return p;
}

static const char *mkn(const char *name, const void *data, size_t len)
{
    const char *p = tpath(name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", p);
        exit(2);
    }
    return p;
}

static const char *mk(const char *name, const char *text) { return mkn(name, text, strlen(text)); }

/* gzip-compressed with zlib's gzwrite. */
static const char *mkgz(const char *name, const void *data, size_t len)
{
    const char *p = tpath(name);
    gzFile g = gzopen(p, "wb");
    if (!g || (len && gzwrite(g, data, (unsigned)len) != (int)len) || gzclose(g) != Z_OK) {
        fprintf(stderr, "cannot write %s\n", p);
        exit(2);
    }
    return p;
}

static void *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t k;
    while ((k = fread(b + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) b = realloc(b, cap *= 2);
    }
    fclose(f);
    *len = n;
    return b;
}

/* Sequence i as letters (static buffer). */
static const char *letters(const mnw_seqset *s, size_t i)
{
    static char b[MNW_MAX_SEQ_LEN + 1];
    size_t n = mnw_seq_len(s, i);
    const uint8_t *c = mnw_seq_codes(s, i);
    for (size_t k = 0; k < n; k++) b[k] = c[k] < MNW_NCODES ? mnw_letter_of[c[k]] : '?';
    b[n] = 0;
    return b;
}

static int same_set(const mnw_seqset *a, const mnw_seqset *b)
{
    if (a->n != b->n || a->max_len != b->max_len) return 0;
    for (size_t i = 0; i < a->n; i++) {
        if (strcmp(mnw_seq_id(a, i), mnw_seq_id(b, i)) != 0) return 0;
        if (mnw_seq_len(a, i) != mnw_seq_len(b, i)) return 0;
        if (memcmp(mnw_seq_codes(a, i), mnw_seq_codes(b, i), mnw_seq_len(a, i)) != 0) return 0;
    }
    return 1;
}

/* Reads path, which must succeed; returns the set (caller frees). */
static int read_ok(const char *what, const char *path, mnw_seqset *s)
{
    mnw_err e;
    e.msg[0] = 0;
    mnw_seqset_init(s);
    int rc = mnw_fasta_read(path, s, &e);
    T_OK(rc == 0, "%s: reads (%s)", what, rc ? e.msg : "ok");
    return rc;
}

/* Reading path fails with exactly "PATH:" + tail. */
static void expect_err(const char *what, const char *path, const char *tail_fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void expect_err(const char *what, const char *path, const char *tail_fmt, ...)
{
    char tail[MNW_ERR_MAX], want[2 * MNW_ERR_MAX];
    va_list ap;
    va_start(ap, tail_fmt);
    vsnprintf(tail, sizeof tail, tail_fmt, ap);
    va_end(ap);
    snprintf(want, sizeof want, "%s:%s", path, tail);
    mnw_seqset s;
    mnw_err e;
    mnw_seqset_init(&s);
    strcpy(e.msg, "(not set)");
    int rc = mnw_fasta_read(path, &s, &e);
    int good = rc == -1 && strcmp(e.msg, want) == 0;
    T_OK(good, "%s: \"%s\"", what, e.msg);
    if (!good) printf("#   want \"%s\" (rc %d)\n", want, rc);
    mnw_seqset_free(&s);
}

static void test_accepted_forms(void)
{
    mnw_seqset s;
    const char *lf = ">s1 first record\nACGTAC\nGTA\n>s2\tdesc\nGGGG\n>s3\nT\n";
    if (read_ok("multi-line LF", mk("lf.fa", lf), &s) == 0) {
        T_OK(s.n == 3, "three records (n=%zu)", s.n);
        T_OK(s.n == 3 && strcmp(mnw_seq_id(&s, 0), "s1") == 0 && strcmp(mnw_seq_id(&s, 1), "s2") == 0 &&
                 strcmp(mnw_seq_id(&s, 2), "s3") == 0,
             "ids are the first word (space and tab end it)");
        T_OK(s.n == 3 && strcmp(letters(&s, 0), "ACGTACGTA") == 0 && strcmp(letters(&s, 1), "GGGG") == 0 &&
                 strcmp(letters(&s, 2), "T") == 0,
             "multi-line sequences are joined");
        T_OK(s.max_len == 9 && s.off[s.n] == 14, "max_len 9, 14 bases in all");
    }
    mnw_seqset crlf, nonl, blank, bom;
    if (read_ok("CRLF", mk("crlf.fa", ">s1 first record\r\nACGTAC\r\nGTA\r\n>s2\tdesc\r\nGGGG\r\n>s3\r\nT\r\n"),
                &crlf) == 0)
        T_OK(same_set(&s, &crlf), "CRLF gives the same set as LF");
    if (read_ok("no final newline", mk("nonl.fa", ">s1 first record\nACGTAC\nGTA\n>s2\tdesc\nGGGG\n>s3\nT"),
                &nonl) == 0)
        T_OK(same_set(&s, &nonl), "last line without newline gives the same set");
    if (read_ok("blank lines",
                mk("blank.fa", "\n\r\n  \n>s1 first record\n\nACGTAC\n \t\r\nGTA\n\n\n>s2\tdesc\r\n\r\nGGGG\n"
                               ">s3\nT  \n\n\t\n"),
                &blank) == 0)
        T_OK(same_set(&s, &blank), "blank and whitespace-only lines anywhere, trailing blanks, are ignored");
    if (read_ok("UTF-8 BOM", mk("bom.fa", "\xEF\xBB\xBF>s1 first record\nACGTAC\nGTA\n>s2\tdesc\nGGGG\n>s3\nT\n"),
                &bom) == 0)
        T_OK(same_set(&s, &bom), "a leading UTF-8 byte-order mark is skipped");
    mnw_seqset_free(&s);
    mnw_seqset_free(&crlf);
    mnw_seqset_free(&nonl);
    mnw_seqset_free(&blank);
    mnw_seqset_free(&bom);

    /* Codes: upper and lower case, U as T, every IUPAC code. */
    if (read_ok("code table", mk("codes.fa", ">up\nACGTURYSWKMBDHVN\n>low\nacgturyswkmbdhvn\n"), &s) == 0) {
        static const uint8_t want[] = {0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
        T_OK(s.n == 2 && mnw_seq_len(&s, 0) == 16 && memcmp(mnw_seq_codes(&s, 0), want, 16) == 0,
             "upper case: A C G T, U as T, R Y S W K M B D H V N -> codes 0..14");
        T_OK(s.n == 2 && mnw_seq_len(&s, 1) == 16 && memcmp(mnw_seq_codes(&s, 1), want, 16) == 0,
             "lower case gives the same codes");
    }
    mnw_seqset_free(&s);

    /* Ids: the header's first word, with any printable bytes; a header at the
     * very end without newline; CR ends an id. */
    if (read_ok("ids", mk("ids.fa", ">gb|EF540503| Stenotrophomonas sp.\r\nAC\n>a;b=c\r\nG\n>x\xC3\xA9y\tz\nT\n"),
                &s) == 0) {
        T_OK(s.n == 3 && strcmp(mnw_seq_id(&s, 0), "gb|EF540503|") == 0, "id with '|' (%s)",
             s.n ? mnw_seq_id(&s, 0) : "-");
        T_OK(s.n == 3 && strcmp(mnw_seq_id(&s, 1), "a;b=c") == 0, "CR ends an id");
        T_OK(s.n == 3 && strcmp(mnw_seq_id(&s, 2), "x\xC3\xA9y") == 0, "UTF-8 bytes kept in an id");
    }
    mnw_seqset_free(&s);
}

/* Several gzip members back to back (as bgzip writes them) are one stream. */
static void test_gzip_members(void)
{
    const char *a = mkgz("m1.fa.gz", ">a x\nACGT\nAC", 12);
    const char *b = mkgz("m2.fa.gz", "GT\n>b\nGG\n", 9);
    size_t la = 0, lb = 0;
    char *da = slurp(a, &la), *db = slurp(b, &lb);
    char *cat = malloc(la + lb);
    memcpy(cat, da, la);
    memcpy(cat + la, db, lb);
    mnw_seqset s;
    if (read_ok("two gzip members", mkn("members.fa.gz", cat, la + lb), &s) == 0)
        T_OK(s.n == 2 && strcmp(letters(&s, 0), "ACGTACGT") == 0 && strcmp(letters(&s, 1), "GG") == 0,
             "two gzip members read as one text (a record spans them)");
    mnw_seqset_free(&s);
    free(da);
    free(db);
    free(cat);
}

/* Lines of any length: a 10,000-base single line, a header of 200,000 bytes. */
static void test_long_lines(void)
{
    size_t n = MNW_MAX_SEQ_LEN;
    size_t big = 300000;
    char *t = malloc(big);
    size_t k = 0;
    k += (size_t)sprintf(t + k, ">long ");
    for (size_t i = 0; i < 200000; i++) t[k++] = 'd'; /* a long description */
    t[k++] = '\n';
    for (size_t i = 0; i < n; i++) t[k++] = "ACGT"[(i * 7 + i / 3) % 4];
    t[k++] = '\n';
    k += (size_t)sprintf(t + k, ">short\nAC\n");
    mnw_seqset s, g;
    if (read_ok("10,000-base single line", mkn("long.fa", t, k), &s) == 0) {
        T_OK(s.n == 2 && mnw_seq_len(&s, 0) == n && s.max_len == n, "10,000 bases on one line read whole");
        int okc = s.n == 2;
        for (size_t i = 0; okc && i < n; i++) okc = mnw_seq_codes(&s, 0)[i] == (i * 7 + i / 3) % 4;
        T_OK(okc, "every base of the long line right");
        T_OK(s.n == 2 && strcmp(mnw_seq_id(&s, 1), "short") == 0 && mnw_seq_len(&s, 1) == 2,
             "the record after it");
    }
    if (read_ok("the same gzip-compressed", mkgz("long.fa.gz", t, k), &g) == 0)
        T_OK(same_set(&s, &g), "gzip gives the same set (lines cross read buffers)");
    mnw_seqset_free(&s);
    mnw_seqset_free(&g);

    /* One base too many: on one line, over many lines, and gzip-compressed
     * (line 3 is the header); the limit is exact. */
    k = (size_t)sprintf(t, ">a\nACGT\n>b x\n");
    for (size_t i = 0; i <= n; i++) t[k++] = 'A';
    t[k++] = '\n';
    expect_err("10,001 bases on one line", mkn("toolong1.fa", t, k),
               "3: sequence 'b' has more than 10000 bases (the limit)");
    expect_err("10,001 bases gzip-compressed", mkgz("toolong1.fa.gz", t, k),
               "3: sequence 'b' has more than 10000 bases (the limit)");
    k = (size_t)sprintf(t, ">a\nACGT\n>b x\n");
    for (size_t i = 0; i < n; i++) {
        t[k++] = 'C';
        if (i % 60 == 59) t[k++] = '\n';
    }
    t[k++] = '\n';
    k += (size_t)sprintf(t + k, "\n\nG\n>c\nA\n");
    expect_err("10,001 bases over many lines", mkn("toolong2.fa", t, k),
               "3: sequence 'b' has more than 10000 bases (the limit)");
    k -= strlen("\n\nG\n>c\nA\n");
    k += (size_t)sprintf(t + k, "\n\n>c\nA\n");
    if (read_ok("exactly 10,000 bases over many lines", mkn("limit.fa", t, k), &s) == 0)
        T_OK(s.n == 3 && mnw_seq_len(&s, 1) == n, "exactly 10,000 bases accepted");
    mnw_seqset_free(&s);
    free(t);
}

static void test_errors(void)
{
    expect_err("missing file", tpath("no-such.fa"), " cannot open: %s", strerror(ENOENT));
    expect_err("a directory", tmpdir, " cannot open: %s", strerror(EISDIR));
    if (access("/proc/self/mem", R_OK) == 0)
        expect_err("read error (EIO)", "/proc/self/mem", "1: read error: %s", strerror(EIO));

    expect_err("empty file (0 bytes)", mk("empty.fa", ""), "1: empty file, no FASTA records");
    expect_err("blank lines only", mk("blanks.fa", "\n\r\n \t\n\n"), "1: empty file, no FASTA records");
    expect_err("empty gzip file", mkgz("empty.fa.gz", "", 0), "1: empty file, no FASTA records");

    expect_err("text before the first header", mk("pre.fa", "\n\n# comment\n>s1\nACGT\n"),
               "3: text before the first '>' header");
    expect_err("sequence before the first header", mk("pre2.fa", "ACGT\n>s1\nACGT\n"),
               "1: text before the first '>' header");
    expect_err("binary file", mkn("bin.fa", "\x1f\x00\x01\x02", 4), "1: text before the first '>' header");

    expect_err("header '> x'", mk("noid1.fa", ">s1\nAC\n> x\nAC\n"), "3: header has no id after '>'");
    expect_err("header '>' alone", mk("noid2.fa", ">s1\nAC\n\n>\nAC\n"), "4: header has no id after '>'");
    expect_err("header '>' CRLF", mk("noid3.fa", ">\r\nAC\r\n"), "1: header has no id after '>'");
    expect_err("header '>' at the end", mk("noid4.fa", ">s1\nAC\n>"), "3: header has no id after '>'");
    expect_err("header '>\\tx'", mk("noid5.fa", ">\tx\nAC\n"), "1: header has no id after '>'");

    expect_err("empty sequence in the middle", mk("es1.fa", ">s1\nAC\n>s2 x\n\n>s3\nAC\n"),
               "3: sequence 's2' is empty");
    expect_err("empty last sequence", mk("es2.fa", ">s1\nAC\n>s2\n"), "3: sequence 's2' is empty");
    expect_err("empty last sequence, no newline", mk("es3.fa", ">s1\nAC\n>s2"), "3: sequence 's2' is empty");
    expect_err("empty sequence with blank lines", mk("es4.fa", ">s1\n\n  \n\n>s2\nAC\n"),
               "1: sequence 's1' is empty");

    expect_err("invalid letter", mk("bad1.fa", ">s1\nACGT\n>s2\nACGT\nACXGT\n"),
               "5: invalid character 'X' at column 3 in sequence 's2'");
    expect_err("invalid letter, CRLF", mk("bad1c.fa", ">s1\r\nACGT\r\n>s2\r\nACGT\r\nACXGT\r\n"),
               "5: invalid character 'X' at column 3 in sequence 's2'");
    expect_err("digit", mk("bad2.fa", ">s1\n1 ACGT\n"), "2: invalid character '1' at column 1 in sequence 's1'");
    expect_err("gap '-'", mk("gap1.fa", ">s1\nAC-GT\n"),
               "2: invalid character '-' at column 3 in sequence 's1' (mnw takes unaligned sequences)");
    expect_err("gap '.'", mk("gap2.fa", ">s1\nAC\n..GT\n"),
               "3: invalid character '.' at column 1 in sequence 's1' (mnw takes unaligned sequences)");
    expect_err("space inside a line", mk("sp.fa", ">s1\nAC GT\n"),
               "2: invalid character ' ' at column 3 in sequence 's1'");
    expect_err("leading space", mk("sp2.fa", ">s1\n  ACGT\n"),
               "2: invalid character ' ' at column 1 in sequence 's1'");
    expect_err("tab inside a line", mk("tab.fa", ">s1\nACGT\t\tA\n"),
               "2: invalid character '\\x09' at column 5 in sequence 's1'");
    expect_err("lone CR (old Mac line ends)", mk("cr.fa", ">s1\nAC\rGT\r"),
               "2: invalid character '\\x0D' at column 3 in sequence 's1'");
    expect_err("NUL byte", mkn("nul.fa", ">s1\nACG\0T\n", 10),
               "2: invalid character '\\x00' at column 4 in sequence 's1'");
    expect_err("non-ASCII byte", mk("utf.fa", ">s1\nAC\nAC\xC3\xA9\n"),
               "3: invalid character '\\xC3' at column 3 in sequence 's1'");
    expect_err("'>' inside a line", mk("gt.fa", ">s1\nAC>s2\n"),
               "2: invalid character '>' at column 3 in sequence 's1'");
    expect_err("'*' stop", mk("star.fa", ">s1\nACGT*\n"),
               "2: invalid character '*' at column 5 in sequence 's1'");
    expect_err("invalid character in gzip", mkgz("bad.fa.gz", ">s1\nACGT\n>s2\nAC!GT\n", 19),
               "4: invalid character '!' at column 3 in sequence 's2'");
    expect_err("control byte in an id", mk("idctl.fa", ">s\x01x\nAC\n"),
               "1: invalid character '\\x01' at column 3 in the header");
    char *longid = malloc(MNW_MAX_ID_LEN + 20);
    longid[0] = '>';
    memset(longid + 1, 'i', MNW_MAX_ID_LEN + 1);
    strcpy(longid + MNW_MAX_ID_LEN + 2, "\nAC\n");
    expect_err("id too long", mk("longid.fa", longid), "1: id longer than 1000 characters");
    /* An id of exactly the limit is kept; messages show its first 80 bytes. */
    longid[MNW_MAX_ID_LEN + 1] = 0;
    strcat(longid, "\nAC\n>x\nAC\n");
    mnw_seqset s;
    if (read_ok("id of exactly 1000 characters", mk("longid2.fa", longid), &s) == 0)
        T_OK(s.n == 2 && strlen(mnw_seq_id(&s, 0)) == MNW_MAX_ID_LEN, "1000-character id kept whole");
    mnw_seqset_free(&s);
    longid[MNW_MAX_ID_LEN + 1] = 0;
    strcat(longid, "\nA-\n");
    char ids[100];
    memset(ids, 'i', 80);
    strcpy(ids + 80, "...");
    expect_err("long id shortened in messages", mk("longid3.fa", longid),
               "2: invalid character '-' at column 2 in sequence '%s' (mnw takes unaligned sequences)", ids);
    free(longid);

    expect_err("duplicate id", mk("dup.fa", ">s1 a\nAC\n>s2\nAC\n\n>s1 b\nAC\n"),
               "6: duplicate id 's1' (first seen at line 1)");
    expect_err("duplicate id, CRLF", mk("dupc.fa", ">s1\r\nAC\r\n>s2\r\nAC\r\n>s2\r\nAC\r\n"),
               "5: duplicate id 's2' (first seen at line 3)");
    {
        mnw_seqset s;
        mnw_err e;
        if (read_ok("first input", mk("in1.fa", ">a\nAC\n>b\nAC\n"), &s) == 0) {
            const char *p2 = mk("in2.fa", ">c\nAC\n>b\nAC\n");
            int rc = mnw_fasta_read(p2, &s, &e);
            char w[512];
            snprintf(w, sizeof w, "%s:3: duplicate id 'b' (also in an earlier input)", p2);
            T_OK(rc == -1 && strcmp(e.msg, w) == 0, "duplicate across two inputs: \"%s\"", rc ? e.msg : "ok");
            const char *p3 = mk("in3.fa", ">d\nAC\n>e\nACG\n");
            rc = mnw_fasta_read(p3, &s, &e);
            T_OK(rc == 0 && s.n == 5 && strcmp(mnw_seq_id(&s, 4), "e") == 0 && mnw_seq_len(&s, 4) == 3,
                 "a second input appends to the set (n=%zu)", s.n);
        }
        mnw_seqset_free(&s);
    }
}

/* Real gzip damage: a truncated stream (zlib reports it only when asked) and
 * corrupted bytes in the middle. */
static void test_gzip_damage(void)
{
    size_t len = 0;
    char *plain = slurp(TDATA "/16s-200.fa", &len);
    if (!plain) {
        T_OK(0, "read %s", TDATA "/16s-200.fa");
        return;
    }
    const char *gzp = mkgz("200.fa.gz", plain, len);
    size_t glen = 0;
    unsigned char *gz = slurp(gzp, &glen);
    T_OK(glen > 20000 && glen < len, "16s-200 compressed to %zu bytes", glen);

    /* Cut anywhere (in the header, the data, the trailer): the line depends
     * on how much inflated, so check the form. */
    {
        mnw_seqset s;
        mnw_err e;
        size_t cuts[] = {2000, 10, 18, glen / 2, glen - 8, glen - 1};
        for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
            char name[64];
            snprintf(name, sizeof name, "cut%zu.fa.gz", cuts[i]);
            const char *p = mkn(name, gz, cuts[i]);
            mnw_seqset_init(&s);
            int rc = mnw_fasta_read(p, &s, &e);
            char w[512];
            snprintf(w, sizeof w, "%s:", p);
            const char *tail = strncmp(e.msg, w, strlen(w)) == 0 ? e.msg + strlen(w) : "";
            unsigned long line = strtoul(tail, NULL, 10);
            T_OK(rc == -1 && line >= 1 && strstr(tail, ": corrupt or truncated gzip data (unexpected end of file)") &&
                     !strchr(e.msg, '\n'),
                 "gzip cut at %zu of %zu bytes: \"%s\"", cuts[i], glen, rc ? e.msg : "read ok");
            mnw_seqset_free(&s);
        }
    }
    /* Corrupted bytes in the middle: zlib finds bad data, or a bad CRC. */
    for (size_t at = glen / 4; at < glen; at += glen / 4) {
        unsigned char *c = malloc(glen);
        memcpy(c, gz, glen);
        for (size_t i = 0; i < 8 && at + i < glen - 8; i++) c[at + i] ^= 0xA5;
        char name[64];
        snprintf(name, sizeof name, "corrupt%zu.fa.gz", at);
        const char *p = mkn(name, c, glen);
        mnw_seqset s;
        mnw_err e;
        mnw_seqset_init(&s);
        int rc = mnw_fasta_read(p, &s, &e);
        T_OK(rc == -1 && strstr(e.msg, ": corrupt or truncated gzip data (") && !strchr(e.msg, '\n'),
             "gzip corrupted at byte %zu: \"%s\"", at, rc ? e.msg : "read ok");
        mnw_seqset_free(&s);
        free(c);
    }
    /* Corrupted CRC only: every byte of text is right, the check fails. */
    {
        unsigned char *c = malloc(glen);
        memcpy(c, gz, glen);
        c[glen - 8] ^= 1;
        const char *p = mkn("badcrc.fa.gz", c, glen);
        size_t nlines = 0;
        for (size_t i = 0; i < len; i++) nlines += plain[i] == '\n';
        /* zlib drops what it inflated in the read that found the error, so
         * the line is up to one 4 KiB read (about 50 lines) early. */
        mnw_seqset s;
        mnw_err e;
        mnw_seqset_init(&s);
        int rc = mnw_fasta_read(p, &s, &e);
        char w[512];
        snprintf(w, sizeof w, "%s:", p);
        const char *tail = strncmp(e.msg, w, strlen(w)) == 0 ? e.msg + strlen(w) : "";
        unsigned long line = strtoul(tail, NULL, 10);
        T_OK(rc == -1 && line + 60 > nlines && line <= nlines &&
                 strstr(tail, ": corrupt or truncated gzip data (incorrect data check)"),
             "bad CRC, found at the end (line %lu of %zu): \"%s\"", line, nlines, rc ? e.msg : "read ok");
        mnw_seqset_free(&s);
        free(c);
    }
    free(gz);
    free(plain);
}

/* The real samples: 16s-200.fa plain and gzip-compressed; data/16s-500.fa.gz. */
static void test_real_data(void)
{
    mnw_seqset a, b, k;
    size_t len = 0;
    char *plain = slurp(TDATA "/16s-200.fa", &len);
    size_t nrec = 0;
    for (size_t i = 0; plain && i < len; i++) {
        if (plain[i] == '>' && (i == 0 || plain[i - 1] == '\n')) nrec++;
    }
    T_OK(nrec == 200, "16s-200.fa has 200 headers (%zu)", nrec);
    if (read_ok("16s-200.fa", TDATA "/16s-200.fa", &a) == 0) {
        T_OK(a.n == 200, "200 records (n=%zu)", a.n);
        T_OK(a.n && strcmp(mnw_seq_id(&a, 0), "gb|EF540503|") == 0 && mnw_seq_len(&a, 0) == 1467,
             "first id gb|EF540503| of 1467 bases (%s, %zu)", a.n ? mnw_seq_id(&a, 0) : "-",
             a.n ? mnw_seq_len(&a, 0) : 0);
        /* The first sequence against the text of the file. */
        const char *p = strchr(plain, '\n') + 1;
        char *want = malloc(2000);
        size_t w = 0;
        for (; *p && *p != '>'; p++)
            if (*p != '\n') want[w++] = *p;
        want[w] = 0;
        T_OK(strcmp(letters(&a, 0), want) == 0, "first sequence matches the file text");
        free(want);
        size_t tot = 0;
        for (size_t i = 0; i < a.n; i++) tot += mnw_seq_len(&a, i);
        T_OK(tot == a.off[a.n] && a.max_len >= 1200 && a.max_len <= 1700, "lengths 1,200-1,700 (max %zu)",
             a.max_len);
    }
    if (read_ok("16s-200 gzip-compressed", mkgz("16s-200.fa.gz", plain, len), &b) == 0)
        T_OK(same_set(&a, &b), "plain and gzip 16s-200 give identical sets");
    if (read_ok("16s-500.fa.gz", "data/16s-500.fa.gz", &k) == 0) {
        T_OK(k.n == 500, "16s-500: 500 records (n=%zu)", k.n);
        int prefix = k.n >= a.n && a.n == 200;
        for (size_t i = 0; prefix && i < a.n; i++)
            prefix = strcmp(mnw_seq_id(&a, i), mnw_seq_id(&k, i)) == 0 && mnw_seq_len(&a, i) == mnw_seq_len(&k, i) &&
                     memcmp(mnw_seq_codes(&a, i), mnw_seq_codes(&k, i), mnw_seq_len(&a, i)) == 0;
        T_OK(prefix, "16s-500 starts with the 200 records of 16s-200");
    }
    /* 16s-200 with CRLF line ends and lower case: the same set. */
    {
        char *t = malloc(2 * len + 1);
        size_t n = 0;
        int hdr = 0;
        for (size_t i = 0; i < len; i++) {
            char c = plain[i];
            if (c == '>') hdr = 1;
            if (c == '\n') {
                t[n++] = '\r';
                hdr = 0;
            }
            t[n++] = (!hdr && c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
        }
        mnw_seqset c;
        if (read_ok("16s-200 CRLF lower case", mkgz("16s-200-crlf.fa.gz", t, n), &c) == 0)
            T_OK(same_set(&a, &c), "CRLF lower-case gzip 16s-200 gives the same set");
        mnw_seqset_free(&c);
        free(t);
    }
    mnw_seqset_free(&a);
    mnw_seqset_free(&b);
    mnw_seqset_free(&k);
    free(plain);
}

/* 150,000 ids: the duplicate check is a hash table, not a scan. */
static void test_many_ids(void)
{
    size_t n = 150000;
    size_t cap = n * 32 + 64;
    char *t = mnw_xmalloc(cap);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += (size_t)snprintf(t + k, cap - k, ">read_%zu x\nACGTN\n", i * 7919 % 1000003);
    const char *p = mkgz("many.fa.gz", t, k);
    mnw_seqset s;
    double t0 = mnw_now();
    int rc = read_ok("150,000 records", p, &s);
    double dt = mnw_now() - t0;
    T_OK(rc == 0 && s.n == n, "150,000 records read in %.3f s", dt);
    T_OK(dt < 10.0, "150,000 ids checked for duplicates quickly (%.3f s; under 0.5 s without valgrind)", dt);
    mnw_seqset_free(&s);
    /* A duplicate of an early id at the very end. */
    k += (size_t)sprintf(t + k, ">read_%zu\nAC\n", (size_t)5 * 7919 % 1000003);
    expect_err("duplicate after 150,000 ids", mkn("many-dup.fa", t, k), "%zu: duplicate id 'read_%zu' (first seen at line 11)",
               2 * n + 1, (size_t)5 * 7919 % 1000003);
    free(t);
}

/* The files in tests/data/bad (also used by the command-line tests). */
static void test_bad_files(void)
{
    expect_err("bad/empty.fa", BAD "/empty.fa", "1: empty file, no FASTA records");
    expect_err("bad/text_before_header.fa", BAD "/text_before_header.fa", "2: text before the first '>' header");
    expect_err("bad/no_id.fa", BAD "/no_id.fa", "3: header has no id after '>'");
    expect_err("bad/empty_seq.fa", BAD "/empty_seq.fa", "3: sequence 's2' is empty");
    expect_err("bad/invalid_char.fa", BAD "/invalid_char.fa",
               "6: invalid character 'J' at column 5 in sequence 's2'");
    expect_err("bad/aligned.fa", BAD "/aligned.fa",
               "2: invalid character '-' at column 4 in sequence 's1' (mnw takes unaligned sequences)");
    expect_err("bad/duplicate_id.fa", BAD "/duplicate_id.fa", "5: duplicate id 's1' (first seen at line 1)");
    expect_err("bad/too_long.fa.gz", BAD "/too_long.fa.gz",
               "3: sequence 's2' has more than 10000 bases (the limit)");
    expect_err("bad/truncated.fa.gz", BAD "/truncated.fa.gz",
               "60: corrupt or truncated gzip data (unexpected end of file)");
    expect_err("bad/corrupt.fa.gz", BAD "/corrupt.fa.gz",
               "104: corrupt or truncated gzip data (invalid distance too far back)");
    mnw_seqset s;
    if (read_ok("bad/one_seq.fa (valid, one record)", BAD "/one_seq.fa", &s) == 0)
        T_OK(s.n == 1 && strcmp(mnw_seq_id(&s, 0), "s1") == 0 && mnw_seq_len(&s, 0) == 12,
             "one_seq.fa: one record s1 of 12 bases");
    mnw_seqset_free(&s);
}

int main(void)
{
    strcpy(tmpdir, "/tmp/mnw-test-fasta.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 2;
    }
    test_accepted_forms();
    test_gzip_members();
    test_long_lines();
    test_errors();
    test_gzip_damage();
    test_real_data();
    test_many_ids();
    test_bad_files();
    for (int i = 0; i < nmade; i++) {
        unlink(made[i]);
        free(made[i]);
    }
    rmdir(tmpdir);
    return t_exit();
}
