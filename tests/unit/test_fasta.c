/* test_fasta.c - the FASTA reader (lib/fasta.c): every accepted form, every
 * error message (exact text, file and line), plain and gzip input, data
 * after gzip members, pipes and FIFOs (also written in pieces), a stop while
 * a pipe or FIFO waits for data, the real 16S samples, and the speed of the
 * duplicate-id check. Run from the repository root (it reads tests/data and
 * data/). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/fasta.h"
#include "lib/seq.h"
#include "lib/util.h"
#include "tests/tap.h"

#define TDATA "tests/data"
/* the end of a lone CR's message (lib/fasta.c) */
#define LONE_CR " (a CR not at a line end: old Mac line ends? mnw reads LF or CRLF line ends)"
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
    mnw_seqset crb;
    if (read_ok("CRs and blanks before the LF of a header", mk("crb.fa", ">s1 first record \r \r\nACGTAC\r\nGTA\r\r\n"
                                                                        ">s2\tdesc\r\t\r\nGGGG\r\n>s3\r\r\nT\r\n"), &crb) == 0)
        T_OK(same_set(&s, &crb), "CRs and blanks at the end of header and sequence lines are ignored");
    mnw_seqset_free(&crb);
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
    expect_err("lone CR in a sequence line", mk("cr.fa", ">s1\nAC\rGT\r"),
               "2: invalid character '\\x0D' at column 3 in sequence 's1'" LONE_CR);
    /* CR-only line ends (old Mac files): the first header's CR, not "sequence 'a' is empty" (issue 38) */
    expect_err("CR-only line ends (old Mac)", mk("mac.fa", ">a\rACGT\r>b\rACGT\r"),
               "1: invalid character '\\x0D' at column 3 in the header" LONE_CR);
    expect_err("CR-only line ends, a header with a description", mk("mac2.fa", ">a some gene\rACGT\r>b\rACGT\r"),
               "1: invalid character '\\x0D' at column 13 in the header" LONE_CR);
    expect_err("CR-only line ends after an LF header line", mk("mac3.fa", ">a\nACGT\r>b\rACGT\r"),
               "2: invalid character '\\x0D' at column 5 in sequence 'a'" LONE_CR);
    expect_err("CR-only line ends, gzip", mkgz("mac.fa.gz", ">a x\rAC\r", 9),
               "1: invalid character '\\x0D' at column 5 in the header" LONE_CR);
    expect_err("a CR then blanks then text in a header", mk("hcr.fa", ">s1 x\r \t\ry\nAC\n"),
               "1: invalid character '\\x0D' at column 6 in the header" LONE_CR);
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

/* A growing byte string, for files made of pieces. */
typedef struct {
    unsigned char *b;
    size_t n, cap;
} bytes;

static void put(bytes *x, const void *p, size_t n)
{
    if (x->n + n > x->cap) {
        x->cap = 2 * (x->n + n) + 64;
        x->b = realloc(x->b, x->cap);
    }
    memcpy(x->b + x->n, p, n);
    x->n += n;
}

/* The gzip file of `text` (zlib's gzwrite: one member), as bytes. */
static unsigned char *gz_of(const char *name, const char *text, size_t *n)
{
    return slurp(mkgz(name, text, strlen(text)), n);
}

/* v with thousands separators, as the reader writes byte counts. */
static const char *grp(size_t v, char *buf)
{
    char d[32];
    int n = snprintf(d, sizeof d, "%zu", v), k = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) buf[k++] = ',';
        buf[k++] = d[i];
    }
    buf[k] = 0;
    return buf;
}

#define NOT_GZ "of data that is not gzip after the last gzip member, from byte offset"
#define NOT_GZ_HINT "(a gzip file followed by plain text? compress all of it, or none)"

/* Gzip members back to back are one text; anything else after them is an
 * error that names its size and where it starts (docs/INPUT.md). */
static void test_gzip_trailing(void)
{
    size_t la, lb, lc, ld;
    unsigned char *a = gz_of("tr-a.gz", ">a x\nACGT\nAC", &la);
    unsigned char *b = gz_of("tr-b.gz", "GT\n>b\nGG\n", &lb);
    unsigned char *c = gz_of("tr-c.gz", ">c\nTTTT\n", &lc);
    unsigned char *d = gz_of("tr-d.gz", ">d\nACGT\n", &ld);
    const char *plain = ">p\nAAAA\n";
    char g1[32], g2[32];
    mnw_seqset s;

    bytes x = {0};
    put(&x, a, la);
    put(&x, b, lb);
    put(&x, c, lc);
    if (read_ok("three gzip members", mkn("three.fa.gz", x.b, x.n), &s) == 0)
        T_OK(s.n == 3 && !strcmp(letters(&s, 0), "ACGTACGT") && !strcmp(letters(&s, 1), "GG") &&
                 !strcmp(letters(&s, 2), "TTTT"),
             "three gzip members read as one text (n=%zu)", s.n);
    mnw_seqset_free(&s);

    /* gzip, then plain text: the example of docs/INPUT.md */
    x.n = 0;
    put(&x, d, ld);
    put(&x, plain, strlen(plain));
    expect_err("gzip member + plain text", mkn("gz-plain.fa.gz", x.b, x.n), " 8 bytes " NOT_GZ " %zu " NOT_GZ_HINT, ld);
    /* three members, then garbage: the offset is the end of the third */
    x.n = 0;
    put(&x, a, la);
    put(&x, b, lb);
    put(&x, c, lc);
    put(&x, "garbage\n", 8);
    expect_err("three members + garbage", mkn("three-garbage.fa.gz", x.b, x.n), " 8 bytes " NOT_GZ " %zu " NOT_GZ_HINT,
               la + lb + lc);
    /* zero padding is refused too, with its own words */
    static const unsigned char zeros[512];
    x.n = 0;
    put(&x, d, ld);
    put(&x, zeros, sizeof zeros);
    expect_err("512 zero bytes of padding", mkn("pad.fa.gz", x.b, x.n),
               " 512 zero bytes after the last gzip member, from byte offset %zu (padding is not accepted: keep the "
               "first %zu bytes of the file)",
               ld, ld);
    x.n = ld;
    put(&x, zeros, 1);
    expect_err("one zero byte", mkn("pad1.fa.gz", x.b, x.n),
               " 1 zero byte after the last gzip member, from byte offset %zu (padding is not accepted: keep the first "
               "%zu bytes of the file)",
               ld, ld);
    /* half a gzip magic is not a member */
    x.n = ld;
    put(&x, "\x1f", 1);
    expect_err("a lone 0x1f after a member", mkn("lone1f.fa.gz", x.b, x.n), " 1 byte " NOT_GZ " %zu " NOT_GZ_HINT, ld);
    /* a whole magic starts a member, which must then be good gzip */
    x.n = ld;
    put(&x, "\x1f\x8b", 2);
    expect_err("a member of only the magic", mkn("magic.fa.gz", x.b, x.n),
               "2: corrupt or truncated gzip data (unexpected end of file)");
    x.n = ld;
    put(&x, "\x1f\x8b\x00\x00\x00\x00\x00\x00\x00\x03", 10);
    expect_err("a member with a bad header", mkn("badhdr.fa.gz", x.b, x.n),
               "2: corrupt or truncated gzip data (unknown compression method)");
    /* over one read buffer of trailing text, after a member of more than
     * 1,000 bytes: counts and offsets with thousands separators */
    size_t len = 0, lr;
    char *txt = slurp(TDATA "/16s-200.fa", &len);
    unsigned char *r200 = gz_of("tr-200.gz", txt ? txt : ">x\nA\n", &lr);
    x.n = 0;
    put(&x, r200, lr);
    for (int i = 0; i < 25; i++) put(&x, txt ? txt : "A", txt ? 100000 : 1);
    const char *big = mkn("big-trail.fa.gz", x.b, x.n);
    expect_err("2,500,000 bytes after a 16s-200 member", big, " %s bytes " NOT_GZ " %s " NOT_GZ_HINT,
               grp(x.n - lr, g1), grp(lr, g2));
    /* the text before the trailing bytes has an error: that error comes first */
    size_t le;
    unsigned char *bad = gz_of("tr-bad.gz", ">s1\nAC!GT\n", &le);
    x.n = 0;
    put(&x, bad, le);
    put(&x, plain, strlen(plain));
    expect_err("an error in the text before trailing bytes", mkn("bad-trail.fa.gz", x.b, x.n),
               "2: invalid character '!' at column 3 in sequence 's1'");
    free(a);
    free(b);
    free(c);
    free(d);
    free(bad);
    free(r200);
    free(txt);
    free(x.b);
}

/* ---- pipes, FIFOs and stops ---- */

static double stop_at;  /* mnw_now() after which stop_timer() says stop; 0: never */
static int stop_calls;
static volatile sig_atomic_t alarms;

static int stop_timer(void)
{
    stop_calls++;
    return stop_at > 0 && mnw_now() >= stop_at;
}

static int stop_on_alarm(void) { return alarms > 0; }
static int stop_now(void) { return 1; }
static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
}

/* SIGALRM interrupts (no SA_RESTART), so a call that would block forever
 * fails with EINTR instead of hanging the test. */
static void alarm_in(double seconds)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = (time_t)seconds;
    it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
    setitimer(ITIMER_REAL, &it, NULL);
}

static void alarm_off(void)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    setitimer(ITIMER_REAL, &it, NULL);
    alarms = 0;
}

static void pause_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A pipe whose writer is a child process: it writes data[0, n) in pieces
 * of the given sizes (the last piece takes the rest), pausing 30 ms before
 * each, then exits. Returns the read end; *pid the child. */
static int pipe_from_child(const void *data, size_t n, const size_t *pieces, int npieces, pid_t *pid)
{
    int fd[2];
    if (pipe(fd) != 0) {
        perror("pipe");
        exit(2);
    }
    fflush(stdout);
    *pid = fork();
    if (*pid == 0) {
        close(fd[0]);
        const char *p = data;
        size_t off = 0;
        for (int i = 0; off < n; i++) {
            size_t k = i < npieces && pieces[i] < n - off ? pieces[i] : n - off;
            pause_ms(30);
            if (write(fd[1], p + off, k) != (ssize_t)k) _exit(1);
            off += k;
        }
        _exit(0);
    }
    close(fd[1]);
    return fd[0];
}

static const char *fd_path(int fd, char *buf)
{
    snprintf(buf, 64, "/proc/self/fd/%d", fd);
    return buf;
}

/* Pipes work, also when the bytes that decide the format (the gzip magic,
 * the UTF-8 BOM) arrive in separate reads; gzip data followed by plain text
 * through a pipe is refused with the same count and offset as from a file. */
static void test_pipes(void)
{
    const char *text = ">s1 first\nACGTAC\nGTA\n>s2\nGGGG\n";
    mnw_seqset want, s;
    if (read_ok("the reference file", mk("pipe-ref.fa", text), &want)) return;
    char path[64];
    mnw_err e;
    pid_t pid;
    int st;

    size_t one[] = {1, 1, 1, 5};
    int fd = pipe_from_child(text, strlen(text), one, 4, &pid);
    mnw_seqset_init(&s);
    int rc = mnw_fasta_read(fd_path(fd, path), &s, &e);
    T_OK(rc == 0 && same_set(&want, &s), "plain text through a pipe, in pieces of 1, 1, 1, 5 bytes (%s)",
         rc ? e.msg : "ok");
    mnw_seqset_free(&s);
    close(fd);
    waitpid(pid, &st, 0);

    /* a header, its lone CR and the next byte in separate reads */
    const char *mac = ">a x\rAC\r>b\rAC\r";
    size_t macp[] = {4, 1, 1};
    fd = pipe_from_child(mac, strlen(mac), macp, 3, &pid);
    mnw_seqset_init(&s);
    rc = mnw_fasta_read(fd_path(fd, path), &s, &e);
    char macw[256];
    snprintf(macw, sizeof macw, "%s:1: invalid character '\\x0D' at column 5 in the header" LONE_CR, path);
    T_OK(rc == -1 && !strcmp(e.msg, macw), "CR-only line ends through a pipe, the CR in a read of its own: \"%s\"",
         rc ? e.msg : "ok");
    mnw_seqset_free(&s);
    close(fd);
    waitpid(pid, &st, 0);

    bytes x = {0};
    put(&x, "\xEF\xBB\xBF", 3);
    put(&x, text, strlen(text));
    fd = pipe_from_child(x.b, x.n, one, 4, &pid);
    mnw_seqset_init(&s);
    rc = mnw_fasta_read_until(fd_path(fd, path), &s, stop_timer, &e);
    T_OK(rc == 0 && same_set(&want, &s), "a UTF-8 BOM arriving one byte a read is skipped (%s)", rc ? e.msg : "ok");
    mnw_seqset_free(&s);
    close(fd);
    waitpid(pid, &st, 0);
    expect_err("only the first two bytes of a BOM", mk("halfbom.fa", "\xEF\xBB"), "1: text before the first '>' header");

    size_t lz;
    unsigned char *z = gz_of("pipe.gz", text, &lz);
    fd = pipe_from_child(z, lz, one, 4, &pid);
    mnw_seqset_init(&s);
    rc = mnw_fasta_read(fd_path(fd, path), &s, &e);
    T_OK(rc == 0 && same_set(&want, &s), "gzip through a pipe, its magic in two reads (%s)", rc ? e.msg : "ok");
    mnw_seqset_free(&s);
    close(fd);
    waitpid(pid, &st, 0);

    x.n = 0;
    put(&x, z, lz);
    put(&x, text, strlen(text));
    size_t halves[] = {lz / 2, lz / 2 + 3, 7};
    fd = pipe_from_child(x.b, x.n, halves, 3, &pid);
    mnw_seqset_init(&s);
    rc = mnw_fasta_read(fd_path(fd, path), &s, &e);
    char w[512];
    snprintf(w, sizeof w, "%s: %zu bytes " NOT_GZ " %zu " NOT_GZ_HINT, path, strlen(text), lz);
    T_OK(rc == -1 && !strcmp(e.msg, w), "gzip + plain text through a pipe: \"%s\"", rc ? e.msg : "read ok");
    mnw_seqset_free(&s);
    close(fd);
    waitpid(pid, &st, 0);

    /* endless text after the gzip data (a writer that never ends): counted
     * up to 256 MiB, then refused without waiting for the end */
    int pfd[2];
    if (pipe(pfd) != 0) return;
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        if (write(pfd[1], z, lz) != (ssize_t)lz) _exit(1);
        static char line[1 << 16];
        memset(line, 'A', sizeof line);
        for (;;)
            if (write(pfd[1], line, sizeof line) < 0) _exit(0);
    }
    close(pfd[1]);
    mnw_seqset_init(&s);
    alarm_in(20.0); /* a reader that waits for the end fails with EINTR */
    rc = mnw_fasta_read(fd_path(pfd[0], path), &s, &e);
    alarm_off();
    snprintf(w, sizeof w, "%s: more than 268,435,456 bytes " NOT_GZ " %zu " NOT_GZ_HINT, path, lz);
    T_OK(rc == -1 && !strcmp(e.msg, w), "endless text after gzip data through a pipe: \"%s\"", rc ? e.msg : "read ok");
    mnw_seqset_free(&s);
    close(pfd[0]);
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    signal(SIGALRM, SIG_DFL);
    free(z);
    free(x.b);
    mnw_seqset_free(&want);
}

/* Reads path until stop_timer() says stop, `after` seconds from now: -2
 * with "PATH: reading stopped at line LINE" within a second, and `n`
 * records read. */
static void expect_stop(const char *what, const char *path, double after, size_t line, size_t n)
{
    mnw_seqset s;
    mnw_err e;
    mnw_seqset_init(&s);
    strcpy(e.msg, "(not set)");
    alarm_in(3.0); /* a read or open that blocks for good fails with EINTR */
    double t0 = mnw_now();
    stop_at = t0 + after;
    int rc = mnw_fasta_read_until(path, &s, stop_timer, &e);
    double dt = mnw_now() - t0;
    alarm_off();
    stop_at = 0;
    char w[512];
    snprintf(w, sizeof w, "%s: reading stopped at line %zu", path, line);
    T_OK(rc == -2 && !strcmp(e.msg, w) && dt >= after && dt < after + 0.7 && s.n == n,
         "%s: rc %d after %.2f s (stop asked at %.2f s), %zu records: \"%s\"", what, rc, dt, after, s.n, e.msg);
    mnw_seqset_free(&s);
}

/* mnw_fasta_read_until: a stop is seen between reads of a file, and while a
 * pipe or FIFO waits for a writer that stays open (poll timeouts, EINTR). */
static void test_stop(void)
{
    const char *text = ">a\nACGT\n>b\nAC";
    char path[64];
    mnw_seqset s;
    mnw_err e;

    /* a regular file: stopped() is asked before the first read */
    const char *f = mk("stop.fa", text);
    mnw_seqset_init(&s);
    int rc = mnw_fasta_read_until(f, &s, stop_now, &e);
    char w[512];
    snprintf(w, sizeof w, "%s: reading stopped at line 1", f);
    T_OK(rc == -2 && !strcmp(e.msg, w) && s.n == 0, "a file, stop before the first read: \"%s\"", e.msg);
    mnw_seqset_free(&s);
    stop_calls = 0;
    mnw_seqset_init(&s);
    rc = mnw_fasta_read_until(f, &s, stop_timer, &e);
    T_OK(rc == 0 && s.n == 2 && stop_calls >= 2, "a file, no stop: read whole, stopped() asked %d times", stop_calls);
    mnw_seqset_free(&s);

    /* a pipe with data and a writer that stays open (this process) */
    int fd[2];
    if (pipe(fd) != 0) return;
    if (write(fd[1], text, strlen(text)) != (ssize_t)strlen(text)) return;
    expect_stop("a pipe whose writer stays open", fd_path(fd[0], path), 0.3, 4, 1);
    close(fd[0]);
    close(fd[1]);

    /* the same with gzip data cut in the middle of its member */
    size_t lz;
    unsigned char *z = gz_of("stop.gz", ">a\nACGT\n>b\nACGTACGT\n>c\nGG\n", &lz);
    if (pipe(fd) != 0) return;
    if (write(fd[1], z, lz - 10) != (ssize_t)(lz - 10)) return;
    expect_stop("gzip through a pipe whose writer stays open", fd_path(fd[0], path), 0.3, 1, 0);
    close(fd[0]);
    close(fd[1]);
    free(z);

    /* a FIFO that no writer ever opens: opening it does not wait */
    const char *fifo = tpath("stop.fifo");
    if (mkfifo(fifo, 0600) != 0) {
        T_OK(0, "mkfifo %s: %s", fifo, strerror(errno));
        return;
    }
    expect_stop("a FIFO without a writer", fifo, 0.3, 1, 0);
    /* a FIFO with a writer that wrote and stays open */
    int wfd = open(fifo, O_RDWR);
    if (wfd < 0 || write(wfd, text, strlen(text)) != (ssize_t)strlen(text)) return;
    expect_stop("a FIFO whose writer stays open", fifo, 0.3, 4, 1);
    close(wfd);

    /* a signal without SA_RESTART interrupts the wait (EINTR): not a read
     * error; the stop it asked for is seen at once */
    if (pipe(fd) != 0) return;
    mnw_seqset_init(&s);
    alarm_in(0.35);
    double t0 = mnw_now();
    rc = mnw_fasta_read_until(fd_path(fd[0], path), &s, stop_on_alarm, &e);
    double dt = mnw_now() - t0;
    alarm_off();
    snprintf(w, sizeof w, "%s: reading stopped at line 1", path);
    T_OK(rc == -2 && !strcmp(e.msg, w) && dt < 1.0, "a signal during the wait: rc %d after %.2f s: \"%s\"", rc, dt,
         e.msg);
    mnw_seqset_free(&s);
    close(fd[0]);
    close(fd[1]);
    signal(SIGALRM, SIG_DFL);
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
    expect_err("bad/gzip_then_text.fa.gz", BAD "/gzip_then_text.fa.gz", " 13 bytes " NOT_GZ " 44 " NOT_GZ_HINT);
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
    test_gzip_trailing();
    test_pipes();
    test_stop();
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
