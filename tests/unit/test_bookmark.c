/* test_bookmark.c - OUTDIR/mnw.bookmark (cld/bookmark.h): a write reads
 * back exactly, the output checksums (whole and per block) included; every
 * truncation, a changed byte, an unknown or missing key, numbers that do
 * not fit together, a watermark off the work-list boundaries, bad checksum
 * fields, a missing file and a FIFO in its place are errors that name the
 * file (and line), promptly; a version-1 bookmark (lengths only) is still
 * read; a stale temporary file from a crash changes nothing; the input
 * fingerprint tells sets apart and repeats for equal ones. Also the
 * running checksums (mnw_sum: pieces, merges, continuing from a bookmark),
 * the writer's check of its files (deleted, replaced, cut: append mode
 * leaves no hole), its resume from a bookmark, and the check of outputs
 * against the checksums that --resume and mnw verify make (cld/writer.h,
 * src/resume.h, cld/verify.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "cld/bookmark.h"
#include "cld/verify.h"
#include "cld/writer.h"
#include "lib/statfmt.h"
#include "src/resume.h"
#include "tests/tap.h"

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

/* the sums of a 123,456,789,012-byte output (919 blocks of 128 MiB, CRCs
 * made up) and of a 42-byte one (the CRC of "42 bytes...") */
static mnw_sum big_sum, small_sum;
static const char small_data[] = "forty-two bytes of an output, more or less";

static void make_sums(void)
{
    uint32_t crcs[919];
    for (uint32_t i = 0; i < 919; i++) crcs[i] = 0x9e3779b9u * (i + 1);
    const char *why = "";
    if (mnw_sum_set(&big_sum, 123456789012ull, 0xdeadbeefu, (uint64_t)1 << 27, crcs, 919, &why))
        T_OK(0, "sample sums: %s", why);
    mnw_sum_init(&small_sum, MNW_SUM_BLOCK);
    mnw_sum_add(&small_sum, small_data, 42);
}

static void sample(mnw_bookmark *b, uint64_t wm)
{
    mnw_err e;
    mnw_bookmark_init(b);
    strcpy(b->input_hash, "0123456789abcdef0123456789abcdef");
    b->sequences = 200;
    b->pairs = 19900;
    b->watermark = wm;
    T_MUST(mnw_bookmark_set(b, "match", "2", &e), e);
    T_MUST(mnw_bookmark_set(b, "identity", "mothur onegap countends", &e), e);
    T_MUST(mnw_bookmark_output_sum(b, "pairs.tsv.gz", &big_sum, &e), e);
    T_MUST(mnw_bookmark_output_sum(b, "dist.column.gz", &small_sum, &e), e);
}

/* text + "end <crc>\n" into path (a bookmark that passes its checksum) */
static void spit_crc(const char *path, const char *text)
{
    char buf[8192];
    snprintf(buf, sizeof buf, "%send %08lx\n", text, (unsigned long)crc32(0L, (const Bytef *)text, (uInt)strlen(text)));
    spit(path, buf, strlen(buf));
}

static const char head_v1[] = "mnw-bookmark 1\ninput-hash 0123456789abcdef0123456789abcdef\nsequences 200\n"
                              "pairs 19900\nsetting worklist-size 500\nwatermark 1500\n";
static const char head_v2[] = "mnw-bookmark 2\ninput-hash 0123456789abcdef0123456789abcdef\nsequences 200\n"
                              "pairs 19900\nsetting worklist-size 500\nwatermark 1500\n";


static void on_alarm(int sig)
{
    (void)sig;
    static const char m[] = "not ok - reading a FIFO bookmark hung (no answer in 10 s)\n";
    if (write(1, m, sizeof m - 1)) {}
    _exit(1);
}

/* the version-1 form, bad checksum fields, the work-list boundary, a FIFO */
static void test_format(const char *path)
{
    mnw_bookmark r;
    mnw_err e;
    char t[8192];

    snprintf(t, sizeof t, "%soutput pairs.tsv.gz 1234\noutput dist.column.gz 42\n", head_v1);
    spit_crc(path, t);
    T_OK(mnw_bookmark_read(path, &r, &e) == 0 && r.version == 1 && r.nout == 2 && r.out_bytes[0] == 1234 &&
             !r.out_sum[0] && !r.out_sum[1],
         "a version-1 bookmark (output FILE BYTES) is read: lengths, no checksums");
    char p2[600];
    snprintf(p2, sizeof p2, "%s.dir", path);
    mkdir(p2, 0755);
    T_OK(mnw_bookmark_write(p2, &r, &e) == 0, "written back as it was read");
    mnw_bookmark_free(&r);
    snprintf(p2 + strlen(p2), sizeof p2 - strlen(p2), "/%s", MNW_BOOKMARK_FILE);
    char back[8192];
    size_t nb = slurp(p2, back, sizeof back - 1);
    back[nb] = '\0';
    T_OK(strstr(back, "mnw-bookmark 1\n") == back && strstr(back, "\noutput pairs.tsv.gz 1234\n"),
         "a bookmark without checksums is written as version 1");
    unlink(p2);
    p2[strlen(p2) - strlen(MNW_BOOKMARK_FILE) - 1] = '\0';
    rmdir(p2);

    struct {
        const char *head, *lines, *want, *what;
    } bad[] = {
        {head_v2, "output pairs.tsv.gz 1234\n", ":7: expected \"output FILE BYTES CRC-32", "version 2 without the CRC"},
        {head_v1, "output pairs.tsv.gz 1234 0badc0de\n", ":7: expected \"output FILE BYTES\"", "version 1 with a CRC"},
        {head_v2, "output pairs.tsv.gz 1234 0BADC0DE\nblocks pairs.tsv.gz 4096\n", ":7: expected", "upper-case hex"},
        {head_v2, "output pairs.tsv.gz 1234 badc0de\nblocks pairs.tsv.gz 4096\n", ":7: expected", "7 hex digits"},
        {head_v2, "output pairs.tsv.gz 1234 0badc0de0\nblocks pairs.tsv.gz 4096\n", ":7: expected", "9 hex digits"},
        {head_v2, "output pairs.tsv.gz 1234 0badc0de x\nblocks pairs.tsv.gz 4096\n", ":7: expected", "a fourth field"},
        {head_v2, "output pairs.tsv.gz 1234 0badc0de\n", ":8: expected \"blocks pairs.tsv.gz", "no blocks line"},
        {head_v2, "output pairs.tsv.gz 1234 0badc0de\nblocks dist.column.gz 4096\n", ":8: expected \"blocks pairs.tsv.gz",
         "a blocks line of another file"},
        {head_v2, "blocks pairs.tsv.gz 4096\n", ":7: a blocks line must follow", "a blocks line alone"},
        {head_v2, "output pairs.tsv.gz 8192 0badc0de\nblocks pairs.tsv.gz 4096 00000001\n", "count of block checksums",
         "one block CRC where 8192 bytes make two"},
        {head_v2, "output pairs.tsv.gz 8192 0badc0de\nblocks pairs.tsv.gz 4096 00000001 00000002\n",
         "do not combine to the output's checksum", "block CRCs that do not combine to the whole CRC"},
        {head_v2, "output pairs.tsv.gz 100 0badc0de\nblocks pairs.tsv.gz 4000\n", "not a power of 2",
         "a block size that is not a power of 2"},
        {head_v2, "output pairs.tsv.gz 100 0badc0de\nblocks pairs.tsv.gz 2048\n", "not a power of 2 from 4096",
         "a block below 4096 bytes"},
        {head_v2, "output pairs.tsv.gz 5000 0badc0de\nblocks pairs.tsv.gz 4096 0000000g\n", "not 8 hex digits",
         "a block CRC that is not hex"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        snprintf(t, sizeof t, "%s%s", bad[k].head, bad[k].lines);
        spit_crc(path, t);
        int rc = mnw_bookmark_read(path, &r, &e);
        T_OK(rc != 0 && strstr(e.msg, path) && strstr(e.msg, bad[k].want), "refused: %s: %s", bad[k].what,
             rc ? e.msg : "(accepted)");
        if (!rc) mnw_bookmark_free(&r);
    }

    /* the watermark only moves by whole work lists */
    static const char *wm_bad[][3] = {
        {"1234", "500", "watermark 1234 is not at a work-list boundary (worklist-size 500): this bookmark was not "
                        "written by mnw"},
        {"1500", "0", "worklist-size '0' is not a positive number"},
        {"1500", "x", "worklist-size 'x' is not a positive number"},
    };
    for (size_t k = 0; k < 3; k++) {
        snprintf(t, sizeof t,
                 "mnw-bookmark 2\ninput-hash 0123456789abcdef0123456789abcdef\nsequences 200\npairs 19900\n"
                 "setting worklist-size %s\nwatermark %s\n",
                 wm_bad[k][1], wm_bad[k][0]);
        spit_crc(path, t);
        int rc = mnw_bookmark_read(path, &r, &e);
        T_OK(rc != 0 && strstr(e.msg, path) && strstr(e.msg, wm_bad[k][2]), "watermark %s, worklist-size %s: %s",
             wm_bad[k][0], wm_bad[k][1], rc ? e.msg : "(accepted)");
        if (!rc) mnw_bookmark_free(&r);
    }
    static const char *wm_ok[] = {"0", "19500", "19900"};
    for (size_t k = 0; k < 3; k++) {
        snprintf(t, sizeof t,
                 "mnw-bookmark 2\ninput-hash 0123456789abcdef0123456789abcdef\nsequences 200\npairs 19900\n"
                 "setting worklist-size 500\nwatermark %s\n",
                 wm_ok[k]);
        spit_crc(path, t);
        int rc = mnw_bookmark_read(path, &r, &e);
        T_OK(rc == 0, "watermark %s of 19900 with work lists of 500 is accepted (0, a boundary, all pairs)%s%s",
             wm_ok[k], rc ? ": " : "", rc ? e.msg : "");
        if (!rc) mnw_bookmark_free(&r);
    }

    /* a shard's range (shard.h): the watermark within it, the range sound */
    static const char *sr[][3] = {
        {"6500 13000", "6500", NULL},
        {"6500 13000", "13000", NULL},
        {"6500 13000", "9000", NULL},
        {"13000 19900", "19900", NULL},
        {"6500 13000", "6000", "watermark 6000 is outside the shard's pairs 6500 .. 13000"},
        {"6500 13000", "13500", "watermark 13500 is outside the shard's pairs 6500 .. 13000"},
        {"13000 6500", "6500", "setting shard-range '13000 6500' is not two pair numbers K0 <= K1 <= 19900"},
        {"6500 20000", "6500", "is not two pair numbers K0 <= K1 <= 19900"},
        {"6500", "6500", "setting shard-range '6500' is not two pair numbers"},
        {"6500 x", "6500", "is not two pair numbers"},
    };
    for (size_t k = 0; k < sizeof sr / sizeof *sr; k++) {
        snprintf(t, sizeof t,
                 "mnw-bookmark 2\ninput-hash 0123456789abcdef0123456789abcdef\nsequences 200\npairs 19900\n"
                 "setting worklist-size 500\nsetting shard 2/3\nsetting shard-range %s\nwatermark %s\n",
                 sr[k][0], sr[k][1]);
        spit_crc(path, t);
        int rc = mnw_bookmark_read(path, &r, &e);
        if (!sr[k][2]) {
            uint64_t done = 1, total = 0, k0, k1;
            char sh[24];
            sscanf(sr[k][0], "%" SCNu64 " %" SCNu64, &k0, &k1);
            if (!rc) mnw_bookmark_progress(&r, &done, &total, sh, sizeof sh);
            T_OK(rc == 0 && done == strtoull(sr[k][1], NULL, 10) - k0 && total == k1 - k0 && !strcmp(sh, "2/3"),
                 "shard-range %s, watermark %s: accepted, %llu of the shard's %llu pairs done%s%s", sr[k][0], sr[k][1],
                 (unsigned long long)done, (unsigned long long)total, rc ? ": " : "", rc ? e.msg : "");
        } else {
            T_OK(rc != 0 && strstr(e.msg, path) && strstr(e.msg, sr[k][2]), "shard-range %s, watermark %s: %s",
                 sr[k][0], sr[k][1], rc ? e.msg : "(accepted)");
        }
        if (!rc) mnw_bookmark_free(&r);
    }

    /* not a regular file: an error at once, never a hang */
    unlink(path);
    T_OK(mkfifo(path, 0644) == 0, "a FIFO in place of the bookmark");
    signal(SIGALRM, on_alarm);
    alarm(10);
    double t0 = mnw_now();
    int rc = mnw_bookmark_read(path, &r, &e);
    double dt = mnw_now() - t0;
    alarm(0);
    T_OK(rc != 0 && strstr(e.msg, path) && strstr(e.msg, "is not a regular file (a FIFO)") && dt < 2,
         "a FIFO bookmark: refused in %.3f s: %s", dt, e.msg);
    unlink(path);
    mkdir(path, 0755);
    rc = mnw_bookmark_read(path, &r, &e);
    T_OK(rc != 0 && strstr(e.msg, "is not a regular file (a directory)"), "a directory in its place: %s", e.msg);
    rmdir(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    T_OK(fd >= 0 && ftruncate(fd, MNW_BOOKMARK_MAX_BYTES + 1) == 0, "a bookmark of 1 MiB + 1 byte");
    if (fd >= 0) close(fd);
    rc = mnw_bookmark_read(path, &r, &e);
    T_OK(rc != 0 && strstr(e.msg, path) && strstr(e.msg, "not a bookmark"), "too large: %s", e.msg);
    spit(path, "mnw-bookmark 2\ninput-hash 0\0\n", 29);
    rc = mnw_bookmark_read(path, &r, &e);
    T_OK(rc != 0 && strstr(e.msg, ":2: a NUL byte"), "a NUL byte in a line: %s", e.msg);
    unlink(path);
}

/* mnw_sum: pieces, merges, continuing from a bookmark's values */
static void test_sums(void)
{
    enum { N = 6 << 20 };
    unsigned char *d = malloc(N);
    uint32_t x = 12345;
    for (size_t i = 0; i < N; i++) d[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 16);
    mnw_sum s;
    mnw_sum_init(&s, 4096);
    size_t at = 0, step = 1;
    while (at < N) { /* pieces of every size, across block edges */
        size_t take = N - at < step ? N - at : step;
        mnw_sum_add(&s, d + at, take);
        at += take;
        step = step * 3 + 1;
        if (step > 700000) step = 1;
    }
    T_OK(mnw_sum_crc(&s) == (uint32_t)crc32(0L, d, N), "the sum of 6 MiB in pieces is zlib's CRC-32 of all of it");
    /* 6 MiB from 4 KiB blocks: 1536 blocks merged once at 1024: 768 of 8 KiB */
    int blocks_ok = s.block == 8192 && s.nblocks == 768;
    for (uint32_t i = 0; i < s.nblocks && blocks_ok; i++)
        blocks_ok = s.blocks[i] == (uint32_t)crc32(0L, d + (size_t)i * s.block, (uInt)s.block);
    T_OK(blocks_ok, "blocks merged when 1024 were whole: %u blocks of %llu bytes, each the CRC-32 of its bytes", s.nblocks,
         (unsigned long long)s.block);
    /* stop anywhere, take the bookmark's values, continue: the same sums */
    int cont_ok = 1;
    const size_t cuts[] = {0, 1, 4095, 4096, 4097, 4096 * 1023 + 17, 4096 * 1024, 5000000};
    for (size_t c = 0; c < sizeof cuts / sizeof *cuts; c++) {
        mnw_sum a, b;
        mnw_sum_init(&a, 4096);
        mnw_sum_add(&a, d, cuts[c]);
        const char *why = "";
        if (mnw_sum_set(&b, a.bytes, mnw_sum_crc(&a), a.block, a.blocks, a.nblocks, &why)) {
            cont_ok = 0;
            T_OK(0, "mnw_sum_set refused the values of a real sum: %s", why);
            continue;
        }
        cont_ok &= b.prefix == a.prefix && b.part == a.part;
        mnw_sum_add(&b, d + cuts[c], N - cuts[c]);
        cont_ok &= mnw_sum_crc(&b) == mnw_sum_crc(&s) && b.block == s.block && b.nblocks == s.nblocks &&
                   !memcmp(b.blocks, s.blocks, s.nblocks * sizeof(uint32_t));
    }
    T_OK(cont_ok, "continued from a bookmark's values at 8 places (block edges too): the same sums as in one go");

    /* kept without the bytes (issue 22): each piece of every size cut at
     * the 4 KiB edges of the file (mnw_sum_split), added by CRC and length
     * (mnw_sum_add_piece): the same sums, through the merge at 1024 blocks */
    mnw_sum p;
    mnw_sum_init(&p, 4096);
    uint32_t crc[64];
    uint64_t len[64];
    int piece_ok = 1, npieces = 0;
    at = 0, step = 1;
    while (at < N && piece_ok) {
        size_t take = N - at < step ? N - at : step;
        int k = mnw_sum_split(d + at, take, at, 4096, crc, len, 64);
        if (k < 0 || (size_t)k > take / 4096 + 2) piece_ok = 0;
        for (int i = 0; i < k && piece_ok; i++) piece_ok = mnw_sum_add_piece(&p, crc[i], len[i]) == 0;
        npieces += k;
        at += take;
        step = step * 3 + 1;
        if (step > 200000) step = 1;
    }
    piece_ok &= p.bytes == s.bytes && p.block == s.block && p.nblocks == s.nblocks && p.prefix == s.prefix &&
                p.part == s.part && !memcmp(p.blocks, s.blocks, s.nblocks * sizeof(uint32_t));
    T_OK(piece_ok, "6 MiB as %d pieces known by CRC and length only: every field of the sum as from the bytes",
         npieces);
    /* a piece across a block edge, or out of order, is refused and changes nothing */
    mnw_sum q;
    mnw_sum_init(&q, 4096);
    mnw_sum_add(&q, d, 4000);
    mnw_sum before = q;
    T_OK(mnw_sum_add_piece(&q, (uint32_t)crc32(0L, d + 4000, 200), 200) == -1 && !memcmp(&q, &before, sizeof q),
         "a piece of 200 bytes at 4000 (across the 4 KiB edge) is refused, the sum unchanged");
    T_OK(mnw_sum_split(d, 3 * 4096, 100, 4096, crc, len, 3) == -1 && mnw_sum_split(d, 3 * 4096, 100, 4096, crc, len, 4) == 4 &&
             len[0] == 3996 && len[3] == 100 && mnw_sum_split(d, 0, 0, 4096, crc, len, 4) == 0,
         "split: 12 KiB at offset 100 is 4 pieces (3996 .. 100 bytes), refused with room for 3; nothing is none");
    free(d);
}

static off_t fsize(const char *p)
{
    struct stat st;
    return stat(p, &st) ? -1 : st.st_size;
}

/* the writer: its files checked at each checkpoint; its resume */
static void test_writer(const char *top)
{
    char od[600], pairs[700], dist[700], other[700];
    snprintf(od, sizeof od, "%s/out", top);
    mkdir(od, 0755);
    snprintf(pairs, sizeof pairs, "%s/pairs.tsv.gz", od);
    snprintf(dist, sizeof dist, "%s/dist.column.gz", od);
    snprintf(other, sizeof other, "%s/other", od);
    mnw_outspec sp;
    memset(&sp, 0, sizeof sp);
    sp.enabled[MNW_OUT_PAIRS] = sp.enabled[MNW_OUT_DIST] = 1;
    mnw_writer w;
    mnw_err e;
    setenv("MNW_TEST_SUM_BLOCK", "4096", 1);
    T_OK(mnw_writer_open(&w, od, &sp, 6, 1, &e) == 0, "writer opens");
    unsetenv("MNW_TEST_SUM_BLOCK");
    char chunk[1000];
    for (int k = 0; k < 1000; k++) chunk[k] = (char)('a' + k % 26);
    for (int k = 0; k < 50; k++) T_MUST(mnw_writer_append(&w, MNW_OUT_DIST, chunk, sizeof chunk, &e), e);
    T_OK(mnw_writer_sync(&w, &e) == 0 && mnw_writer_check(&w, &e) == 0, "after a sync, the files check");
    T_OK(w.sum[MNW_OUT_DIST].block == 4096 && w.sum[MNW_OUT_DIST].bytes == w.bytes[MNW_OUT_DIST],
         "MNW_TEST_SUM_BLOCK sets the first block size; the sums count every byte written");

    /* cut by someone else: the size says so, and later writes land at the
     * new end (append mode), not after a hole of NUL bytes */
    T_OK(truncate(dist, 0) == 0, "someone cuts %s", dist);
    T_OK(mnw_writer_check(&w, &e) != 0 && strstr(e.msg, dist) &&
             strstr(e.msg, "is 0 bytes, but this run wrote 50000: it was cut or written to by something else"),
         "a file cut to 0 bytes: %s", e.msg);
    T_MUST(mnw_writer_append(&w, MNW_OUT_DIST, chunk, 10, &e), e);
    T_MUST(mnw_writer_sync(&w, &e), e);
    T_OK(fsize(dist) == 10, "the next write after the cut lands at the new end: %lld bytes, no hole",
         (long long)fsize(dist));
    T_OK(mnw_writer_check(&w, &e) != 0 && strstr(e.msg, "is 10 bytes, but this run wrote 50010"), "still refused: %s",
         e.msg);

    /* deleted; replaced by another file */
    unlink(pairs);
    T_OK(mnw_writer_check(&w, &e) != 0 && strstr(e.msg, pairs) && strstr(e.msg, "was deleted during the run"),
         "a deleted file: %s", e.msg);
    spit(other, "x", 1); /* while the deleted file is open: another inode */
    T_OK(mnw_writer_close(&w, &e) == 0, "writer closes");
    T_OK(rename(other, pairs) == 0, "someone puts another file in its place");
    T_OK(mnw_writer_check(&w, &e) != 0 && strstr(e.msg, pairs) && strstr(e.msg, "was replaced by another file"),
         "after close too: a file replaced by another one: %s", e.msg);

    /* a run, its bookmark, more bytes after it, then the resume: the sums
     * continue from the bookmark's, over merges */
    unlink(pairs);
    unlink(dist);
    setenv("MNW_TEST_SUM_BLOCK", "4096", 1);
    T_OK(mnw_writer_open(&w, od, &sp, 6, 1, &e) == 0, "a new run's writer");
    unsetenv("MNW_TEST_SUM_BLOCK");
    enum { TOTAL = 10000 }; /* 10 MB: blocks of 4 KiB merge at 4 MiB and at 8 MiB */
    for (int k = 0; k < TOTAL / 2; k++) T_MUST(mnw_writer_append(&w, MNW_OUT_PAIRS, chunk, sizeof chunk - (size_t)(k % 7), &e), e);
    T_MUST(mnw_writer_append(&w, MNW_OUT_DIST, chunk, 100, &e), e);
    T_MUST(mnw_writer_sync(&w, &e), e);
    mnw_bookmark b;
    mnw_bookmark_init(&b);
    strcpy(b.input_hash, "0123456789abcdef0123456789abcdef");
    b.sequences = 200;
    b.pairs = 19900;
    b.watermark = 100;
    uint64_t at_bm[MNW_NOUT] = {0};
    for (int o = 0; o < MNW_NOUT; o++)
        if (w.enabled[o]) {
            T_MUST(mnw_bookmark_output_sum(&b, mnw_out_name[o], &w.sum[o], &e), e);
            at_bm[o] = w.bytes[o];
        }
    T_OK(mnw_bookmark_write(od, &b, &e) == 0, "its bookmark (%llu bytes of pairs)", (unsigned long long)at_bm[0]);
    for (int k = 0; k < 200; k++) T_MUST(mnw_writer_append(&w, MNW_OUT_PAIRS, chunk, 999, &e), e); /* lost work */
    T_MUST(mnw_writer_close(&w, &e), e);
    char bmpath[700];
    snprintf(bmpath, sizeof bmpath, "%s/%s", od, MNW_BOOKMARK_FILE);
    mnw_bookmark_free(&b);
    T_OK(mnw_bookmark_read(bmpath, &b, &e) == 0, "the bookmark reads back");
    uint64_t bytes[MNW_NOUT];
    T_OK(mnw_resume_check_outputs(od, &b, &sp, bytes, &e) == 0 && bytes[0] == at_bm[0] && bytes[1] == at_bm[1],
         "--resume's check: the outputs hold what the bookmark says");
    T_OK(mnw_writer_reopen(&w, od, &sp, bytes, &e) == 0 && fsize(pairs) == (off_t)at_bm[0],
         "the resumed writer cuts the bytes after the bookmark");
    for (int k = TOTAL / 2; k < TOTAL; k++) T_MUST(mnw_writer_append(&w, MNW_OUT_PAIRS, chunk, sizeof chunk - (size_t)(k % 7), &e), e);
    T_MUST(mnw_writer_close(&w, &e), e);
    size_t fl = (size_t)fsize(pairs);
    char *all = malloc(fl);
    slurp(pairs, all, fl);
    mnw_sum ref;
    mnw_sum_init(&ref, 4096);
    mnw_sum_add(&ref, all, fl);
    T_OK(mnw_sum_crc(&w.sum[0]) == (uint32_t)crc32(0L, (const Bytef *)all, (uInt)fl) && w.sum[0].block == ref.block &&
             w.sum[0].nblocks == ref.nblocks && !memcmp(w.sum[0].blocks, ref.blocks, ref.nblocks * sizeof(uint32_t)) &&
             b.out_sum[0]->block == 8192 && ref.block == 16384,
         "after the resume the sums are those of the whole file (%zu bytes, %u blocks of %llu; the bookmark's were of "
         "%llu: merged before and after the resume)",
         fl, ref.nblocks, (unsigned long long)ref.block, (unsigned long long)b.out_sum[0]->block);
    T_OK(mnw_writer_check(&w, &e) == 0, "and the closed files check");

    /* a changed byte: --resume's check and mnw_verify_fd name its block */
    int fd = open(pairs, O_WRONLY);
    T_OK(fd >= 0 && pwrite(fd, "ZZZZ", 4, 1000000) == 4, "4 bytes overwritten at byte 1,000,000");
    close(fd);
    T_OK(mnw_resume_check_outputs(od, &b, &sp, bytes, &e) != 0 && strstr(e.msg, pairs) &&
             strstr(e.msg, "bytes 999,424 to 1,007,615 differ from what the run wrote"),
         "--resume refuses, naming the file and the block (blocks of 8 KiB in this bookmark): %s", e.msg);
    fd = open(pairs, O_RDONLY);
    mnw_verify_diff dd;
    T_OK(mnw_verify_fd(fd, pairs, b.out_sum[0], &dd, &e) == 0 && !dd.same && dd.from == 999424 && dd.to == 1007615,
         "mnw_verify_fd: the same block");
    close(fd);
    fd = open(pairs, O_WRONLY);
    T_OK(pwrite(fd, all + 1000000, 4, 1000000) == 4, "the bytes put back");
    close(fd);
    /* a change in the last, partial block of the bookmark's bytes */
    uint64_t last = at_bm[0] - 3;
    fd = open(pairs, O_WRONLY);
    T_OK(pwrite(fd, "Q", 1, (off_t)last) == 1, "one byte changed 3 bytes before the bookmark's length");
    close(fd);
    char want[128], a1[32], a2[32];
    snprintf(want, sizeof want, "bytes %s to %s differ",
             mnw_statfmt_count(at_bm[0] / b.out_sum[0]->block * b.out_sum[0]->block, a1),
             mnw_statfmt_count(at_bm[0] - 1, a2));
    T_OK(mnw_resume_check_outputs(od, &b, &sp, bytes, &e) != 0 && strstr(e.msg, want),
         "in the partial block after the whole ones: %s", e.msg);
    fd = open(pairs, O_WRONLY);
    T_OK(pwrite(fd, all + last, 1, (off_t)last) == 1, "put back");
    close(fd);
    /* a change after the bookmark's bytes is work that resume cuts: fine */
    fd = open(pairs, O_WRONLY);
    T_OK(pwrite(fd, "Q", 1, (off_t)fl - 1) == 1 && mnw_resume_check_outputs(od, &b, &sp, bytes, &e) == 0,
         "a byte changed beyond the bookmark's length: not refused (resume cuts it)");
    close(fd);
    /* a FIFO in place of an output: refused at once */
    unlink(dist);
    mkfifo(dist, 0644);
    alarm(10);
    T_OK(mnw_resume_check_outputs(od, &b, &sp, bytes, &e) != 0 && strstr(e.msg, dist) &&
             strstr(e.msg, "is not a regular file (a FIFO)"),
         "a FIFO in place of an output: %s", e.msg);
    T_OK(mnw_writer_reopen(&w, od, &sp, at_bm, &e) != 0 && strstr(e.msg, "is not a regular file (a FIFO)"),
         "the writer refuses it too: %s", e.msg);
    T_MUST(mnw_writer_close(&w, NULL), e);
    alarm(0);
    unlink(dist);
    mnw_bookmark_free(&b);
    free(all);

    /* a version-1 bookmark: lengths only; the writer computes the sums from
     * the file (one read) and goes on */
    spit(dist, chunk, 300);
    fl = (size_t)fsize(pairs);
    char t[1024];
    snprintf(t, sizeof t,
             "mnw-bookmark 1\ninput-hash 0123456789abcdef0123456789abcdef\nsequences 200\npairs 19900\n"
             "watermark 100\noutput pairs.tsv.gz %zu\noutput dist.column.gz 200\n",
             fl - 5);
    spit_crc(bmpath, t);
    T_OK(mnw_bookmark_read(bmpath, &b, &e) == 0 && mnw_resume_check_outputs(od, &b, &sp, bytes, &e) == 0 &&
             bytes[0] == fl - 5 && bytes[1] == 200,
         "a version-1 bookmark: --resume checks the lengths");
    all = malloc(fl);
    slurp(pairs, all, fl);
    T_OK(mnw_writer_reopen(&w, od, &sp, bytes, &e) == 0 && mnw_sum_crc(&w.sum[1]) == crc32(0L, (const Bytef *)chunk, 200) &&
             mnw_sum_crc(&w.sum[0]) == crc32(0L, (const Bytef *)all, (uInt)(fl - 5)) && fsize(pairs) == (off_t)(fl - 5),
         "the resumed writer's sums are those of the bytes kept (read once), the rest cut");
    free(all);
    T_MUST(mnw_writer_close(&w, NULL), e);
    mnw_bookmark_free(&b);
    unlink(bmpath);
    unlink(pairs);
    unlink(dist);
    rmdir(od);
}

/* the pruned count (issue 39): version 3 holds it, version 2 is written
 * when it is 0, the CRC covers it, every malformed or misplaced pruned line
 * is refused, and a bookmark of an mnw before it reads as 0 pruned */
static void test_pruned(const char *top)
{
    char d[600], path[700];
    snprintf(d, sizeof d, "%s/pruned", top);
    T_OK(mkdir(d, 0755) == 0, "mkdir %s", d);
    snprintf(path, sizeof path, "%s/%s", d, MNW_BOOKMARK_FILE);
    mnw_bookmark b, r;
    mnw_err e;
    sample(&b, 5000);
    b.pruned = 4321;
    T_OK(mnw_bookmark_write(d, &b, &e) == 0, "a bookmark with 4321 pruned pairs is written: %s", e.msg);
    static char text[16384];
    size_t n = slurp(path, text, sizeof text - 1);
    text[n] = '\0';
    T_OK(!strncmp(text, "mnw-bookmark 3\n", 15) && strstr(text, "\nwatermark 5000\npruned 4321\noutput "),
         "version 3, its pruned line right after the watermark");
    T_OK(mnw_bookmark_read(path, &r, &e) == 0 && r.version == 3 && r.pruned == 4321 && r.watermark == 5000 &&
             r.nout == 2 && r.out_sum[0],
         "it reads back: version 3, pruned 4321, the rest as before: %s", e.msg);
    mnw_bookmark_free(&r);
    /* the CRC covers the line: one digit changed is a damaged bookmark */
    char *at = strstr(text, "pruned 4321");
    at[7] = '5';
    spit(path, text, n);
    T_OK(mnw_bookmark_read(path, &r, &e) == -1 && strstr(e.msg, "the bookmark is damaged"),
         "pruned 5321 in place of 4321: the end line's CRC refuses it: %s", e.msg);
    at[7] = '4';

    b.pruned = 0;
    T_OK(mnw_bookmark_write(d, &b, &e) == 0, "the same with 0 pruned");
    n = slurp(path, text, sizeof text - 1);
    text[n] = '\0';
    T_OK(!strncmp(text, "mnw-bookmark 2\n", 15) && !strstr(text, "pruned"),
         "0 pruned: version 2 without the line (what an mnw of version 2 reads)");
    T_OK(mnw_bookmark_read(path, &r, &e) == 0 && r.version == 2 && r.pruned == 0, "and it reads back as 0 pruned");
    mnw_bookmark_free(&r);

    b.pruned = 5001;
    T_OK(mnw_bookmark_write(d, &b, &e) == -1 && strstr(e.msg, "5001 pairs pruned of the 5000 written"),
         "more pruned than written: not written (%s)", e.msg);
    mnw_bookmark_free(&b);
    /* a shard's: pruned of its own pairs (shard-range 1000 ..) */
    sample(&b, 3000);
    T_MUST(mnw_bookmark_set(&b, "shard-range", "1000 9000", &e), e);
    b.pruned = 2000;
    T_OK(mnw_bookmark_write(d, &b, &e) == 0 && mnw_bookmark_read(path, &r, &e) == 0 && r.pruned == 2000,
         "a shard: all 2000 of its pairs written pruned: written, read back");
    mnw_bookmark_free(&r);
    b.pruned = 2001;
    T_OK(mnw_bookmark_write(d, &b, &e) == -1, "a shard: 2001 pruned of its 2000 written: refused");
    mnw_bookmark_free(&b);
    /* no sums (a version 1 bookmark) and pruned pairs: refused */
    mnw_bookmark_init(&b);
    strcpy(b.input_hash, "0123456789abcdef0123456789abcdef");
    b.sequences = 200, b.pairs = 19900, b.watermark = 1500, b.pruned = 3;
    T_MUST(mnw_bookmark_output(&b, "pairs.tsv.gz", 1234, &e), e);
    T_OK(mnw_bookmark_write(d, &b, &e) == -1 && strstr(e.msg, "no output checksums"),
         "pruned pairs in a bookmark without checksums: refused (%s)", e.msg);
    mnw_bookmark_free(&b);

    static const char head_v3[] = "mnw-bookmark 3\ninput-hash 0123456789abcdef0123456789abcdef\nsequences 200\n"
                                  "pairs 19900\nsetting worklist-size 500\nwatermark 1500\n";
    static const char outl[] = "output dist.column.gz 0 00000000\nblocks dist.column.gz 1048576\n";
    char t[4096];
    snprintf(t, sizeof t, "%spruned 1500\n%s", head_v3, outl);
    spit_crc(path, t);
    T_OK(mnw_bookmark_read(path, &r, &e) == 0 && r.pruned == 1500 && r.version == 3,
         "a hand-made version 3 bookmark, every pair written pruned: read (%s)", e.msg);
    mnw_bookmark_free(&r);
    struct {
        const char *head, *lines, *want, *what;
    } bad[] = {
        {head_v3, "", "missing pruned (a version 3 bookmark has it)", "version 3 without its pruned line"},
        {head_v2, "pruned 5\n", ":7: a pruned line in a bookmark of version 2", "a pruned line in version 2"},
        {head_v1, "pruned 5\n", ":7: a pruned line in a bookmark of version 1", "a pruned line in version 1"},
        {head_v3, "pruned 1501\n", "pruned 1501 is more than the 1500 pairs written", "more pruned than written"},
        {head_v3, "pruned -1\n", ":7: pruned is not a number", "a negative count"},
        {head_v3, "pruned 12x\n", ":7: pruned is not a number", "a count with a letter"},
        {head_v3, "pruned 99999999999999999999999\n", ":7: pruned is not a number", "a count past 2^64"},
        {head_v3, "pruned 5\npruned 5\n", ":8: a second pruned line", "two pruned lines"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(t, sizeof t, "%s%s%s", bad[k].head, bad[k].lines, bad[k].head == head_v1 ? "" : outl);
        spit_crc(path, t);
        int rc = mnw_bookmark_read(path, &r, &e);
        T_OK(rc == -1 && strstr(e.msg, bad[k].want) && strstr(e.msg, path), "%s: refused naming the file: %s",
             bad[k].what, rc ? e.msg : "(read)");
    }
    snprintf(t, sizeof t, "mnw-bookmark 4\ninput-hash 0123456789abcdef0123456789abcdef\n");
    spit_crc(path, t);
    T_OK(mnw_bookmark_read(path, &r, &e) == -1 && strstr(e.msg, ":1: not an mnw bookmark of version 1, 2 or 3"),
         "version 4: refused as unknown (%s)", e.msg);
    unlink(path);
    rmdir(d);
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

    make_sums();
    sample(&b, 5000);
    T_OK(mnw_bookmark_write(dir, &b, &e) == 0, "write a bookmark");
    T_OK(access(tmp, F_OK) != 0, "no temporary file is left");
    T_OK(mnw_bookmark_read(path, &r, &e) == 0, "read it back");
    int same = !strcmp(r.input_hash, b.input_hash) && r.sequences == 200 && r.pairs == 19900 && r.watermark == 5000 &&
               r.nset == 2 && !strcmp(r.set_key[1], "identity") && !strcmp(r.set_val[1], "mothur onegap countends") &&
               r.nout == 2 && !strcmp(r.out_name[0], "pairs.tsv.gz") && r.out_bytes[0] == 123456789012ull &&
               r.out_bytes[1] == 42 && r.version == 2;
    T_OK(same, "every field reads back as written, values with spaces too");
    same = r.out_sum[0] && r.out_sum[1] && mnw_sum_crc(r.out_sum[0]) == 0xdeadbeefu &&
           r.out_sum[0]->block == ((uint64_t)1 << 27) && r.out_sum[0]->nblocks == 919 &&
           !memcmp(r.out_sum[0]->blocks, big_sum.blocks, 919 * sizeof(uint32_t)) &&
           r.out_sum[0]->part == big_sum.part && r.out_sum[0]->prefix == big_sum.prefix &&
           mnw_sum_crc(r.out_sum[1]) == (uint32_t)crc32(0L, (const Bytef *)small_data, 42) &&
           r.out_sum[1]->nblocks == 0 && r.out_sum[1]->bytes == 42;
    T_OK(same, "the output checksums read back: whole CRC, block size, 919 block CRCs (a line of 8 KB)");
    T_OK(mnw_bookmark_get(&r, "match") && !strcmp(mnw_bookmark_get(&r, "match"), "2") &&
             !mnw_bookmark_get(&r, "gap-open"),
         "settings by key");
    mnw_bookmark_free(&r);

    static char text[16384], cut[16384];
    size_t n = slurp(path, text, sizeof text);
    T_OK(n > 0 && !strncmp(text, "mnw-bookmark 2\n", 15) && strstr(text, "\nend ") != NULL, "a text file: header, end line");
    {
        char want[96];
        snprintf(want, sizeof want, "\noutput dist.column.gz 42 %08lx\nblocks dist.column.gz 1048576\n",
                 (unsigned long)crc32(0L, (const Bytef *)small_data, 42));
        T_OK(memmem(text, n, want, strlen(want)) && memmem(text, n, "\noutput pairs.tsv.gz 123456789012 deadbeef\n"
                                                                    "blocks pairs.tsv.gz 134217728 9e3779b9 3c6ef372 ",
                                                              84),
             "output lines: file, bytes, CRC-32 as 8 hex digits; then the block CRCs");
    }

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
    T_OK(mnw_bookmark_read(path, &r, &e) != 0, "half a bookmark is refused");
    T_OK(strstr(e.msg, path) != NULL, "the error names the file: %s", e.msg);

    /* any changed digit of the watermark: the checksum says so */
    memcpy(cut, text, n);
    char *w = strstr(cut, "watermark 5000");
    w[10] = '6';
    spit(path, cut, n);
    T_OK(mnw_bookmark_read(path, &r, &e) != 0 && strstr(e.msg, "damaged") && strstr(e.msg, ":12:"),
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
             mnw_bookmark_output(&b, "../x", 1, &e) != 0 && mnw_bookmark_output_sum(&b, "../x", &small_sum, &e) != 0,
         "keys of one word, values of one line, plain output names");
    mnw_sum odd = small_sum;
    odd.nblocks = 1;
    T_OK(mnw_bookmark_output_sum(&b, "x", &odd, &e) != 0 && strstr(e.msg, "not of its 42 bytes"),
         "checksums that cannot be of the output's length: refused: %s", e.msg);
    mnw_bookmark_free(&b);

    test_format(path);
    test_sums();
    test_writer(dir);
    test_pruned(dir);

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
