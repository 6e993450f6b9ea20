/* test_report_scan.c - the pass of `mnw report` over pairs.tsv.gz
 * (src/report_scan.h), split over threads.
 *
 * Files are written as mnw writes them (a head member, then one gzip member
 * per work list, lib/gzmember.c), with identities that tie on purpose. Each
 * figure (pairs, histogram, threshold counts, sum, min, max, every
 * sequence's nearest neighbour and which one, the ten closest and most
 * distant pairs in order) equals the one computed here by a plain loop, for
 * 1 to 16 threads over ranges of a few hundred bytes; also through stored
 * (level 0) members whose ids hold the bytes of a gzip header, which the
 * threads must pass over. Reading up to a member boundary (a run in
 * progress) counts the members before it. Errors name the file and where:
 * a file shorter than the bookmark says, a cut inside a member, a damaged
 * member (with 1 and 4 threads), a member that ends inside a line, a line
 * that is not one of pairs.tsv, data that is not gzip. Text the page
 * shows (ids, hosts, paths) goes through mnw_svg_escape: valid UTF-8 out of
 * any bytes, one U+FFFD per maximal bad subpart (as Python's and the
 * WHATWG decoder's "replace"), valid sequences of 2 to 4 bytes kept.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/buf.h"
#include "lib/gzmember.h"
#include "lib/svg.h"
#include "src/report_scan.h"
#include "tests/tap.h"

enum { NSEQ = 90, PER_MEMBER = 150 };

typedef struct {
    uint64_t i, j;
    uint32_t id;
} pr;

static pr *pairs;
static uint64_t npairs;
static uint64_t member_at[64], nmembers; /* offsets of the list members (after the head) */
static char path[256];
static char planted[64]; /* a whole gzip member with no tab or newline in it, as an id */
static size_t nplanted;
static int plant_at = -1; /* the pair whose id_i is `planted` */

static uint32_t ident(uint64_t i, uint64_t j)
{
    uint64_t h = (i * 2654435761u + j * 40503u) % 1000;
    if (h < 40) return 1000000 - (uint32_t)(h % 3) * 700;   /* near-identical, tied often */
    if (h < 60) return 400000 + (uint32_t)(h % 2) * 1;       /* far, tied often */
    return 600000 + (uint32_t)(h * 389) % 390000;
}

/* writes path: a head member, then the pairs in members of PER_MEMBER
 * lines; `weird` puts a gzip header's bytes into every id; level 0: stored */
static void write_file(int level, int weird, int cut_line)
{
    FILE *f = fopen(path, "wb");
    mnw_buf txt, gz;
    mnw_buf_init(&txt);
    mnw_buf_init(&gz);
    mnw_buf_puts(&txt, "i\tj\tid_i\tid_j\tscore\tlength\tmatches\tmismatches\tgap_opens\tgaps\tidentity\n");
    if (mnw_gzip_member(txt.p, txt.len, level, &gz)) abort();
    fwrite(gz.p, 1, gz.len, f);
    uint64_t at = gz.len;
    nmembers = 0;
    for (uint64_t k = 0; k < npairs;) {
        txt.len = 0;
        for (int n = 0; n < PER_MEMBER && k < npairs; n++, k++) {
            const pr *p = &pairs[k];
            if ((int64_t)k == plant_at)
            {
                mnw_buf_printf(&txt, "%llu\t%llu\t", (unsigned long long)p->i, (unsigned long long)p->j);
                mnw_buf_put(&txt, planted, nplanted);
                mnw_buf_printf(&txt, "\tseq%llu\t1\t2\t3\t4\t5\t6\t%u.%06u\n", (unsigned long long)p->j,
                               p->id / 1000000, p->id % 1000000);
            }
            else if (weird)
                mnw_buf_printf(&txt, "%llu\t%llu\tx\x1f\x8b\x08%c%llu\ty\x1f\x8b\x08%llu\t1\t2\t3\t4\t5\t6\t%u.%06u\n",
                               (unsigned long long)p->i, (unsigned long long)p->j, 0, (unsigned long long)p->i,
                               (unsigned long long)p->j, p->id / 1000000, p->id % 1000000);
            else
                mnw_buf_printf(&txt, "%llu\t%llu\tseq%llu\tseq%llu\t1\t2\t3\t4\t5\t6\t%u.%06u\n", (unsigned long long)p->i,
                               (unsigned long long)p->j, (unsigned long long)p->i, (unsigned long long)p->j,
                               p->id / 1000000, p->id % 1000000);
        }
        if (cut_line && nmembers == 3) txt.len -= 5; /* this member ends inside a line */
        if (mnw_gzip_member(txt.p, txt.len, level, &gz)) abort();
        member_at[nmembers++] = at;
        fwrite(gz.p, 1, gz.len, f);
        at += gz.len;
    }
    member_at[nmembers] = at;
    fclose(f);
    mnw_buf_free(&txt);
    mnw_buf_free(&gz);
}

/* the figures by a plain loop over pairs[0..n) */
static void expect(mnw_scan *x, uint64_t n)
{
    mnw_scan_init(x, NSEQ);
    x->nth = 2;
    x->th[0] = 970000, x->th[1] = 990000;
    for (uint64_t k = 0; k < n; k++) {
        const pr *p = &pairs[k];
        x->pairs++;
        x->hist[p->id / 1000 < MNW_SCAN_BINS ? p->id / 1000 : MNW_SCAN_BINS - 1]++;
        for (int t = 0; t < 2; t++) x->above[t] += p->id >= x->th[t];
        x->id_sum += p->id;
        if (x->id_min == MNW_SCAN_NONE || p->id < x->id_min) x->id_min = p->id;
        if (p->id > x->id_max) x->id_max = p->id;
        uint64_t ends[2][2] = {{p->i, p->j}, {p->j, p->i}};
        for (int e = 0; e < 2; e++) {
            uint64_t a = ends[e][0], b = ends[e][1];
            if (x->nn[a] == MNW_SCAN_NONE || p->id > x->nn[a] || (p->id == x->nn[a] && b < x->nn_of[a]))
                x->nn[a] = p->id, x->nn_of[a] = (uint32_t)b;
        }
    }
    /* the tops: a selection by the rule, the earlier pair first on ties */
    for (int kind = 0; kind < 2; kind++) {
        mnw_scan_pair *top = kind ? x->distant : x->closest;
        int *cnt = kind ? &x->ndistant : &x->nclosest;
        char *taken = calloc(n ? n : 1, 1);
        for (*cnt = 0; *cnt < MNW_SCAN_TOP && (uint64_t)*cnt < n; (*cnt)++) {
            uint64_t best = UINT64_MAX;
            for (uint64_t k = 0; k < n; k++) {
                if (taken[k]) continue;
                if (best == UINT64_MAX || (kind ? pairs[k].id < pairs[best].id : pairs[k].id > pairs[best].id)) best = k;
            }
            taken[best] = 1;
            top[*cnt] = (mnw_scan_pair){pairs[best].i, pairs[best].j, pairs[best].id};
        }
        free(taken);
    }
}

static int same(const mnw_scan *a, const mnw_scan *b, char *why, size_t cap)
{
#define D(cond, ...)                           \
    if (cond) {                                \
        snprintf(why, cap, __VA_ARGS__);       \
        return 0;                              \
    }
    D(a->pairs != b->pairs, "pairs %llu, want %llu", (unsigned long long)a->pairs, (unsigned long long)b->pairs);
    D(memcmp(a->hist, b->hist, sizeof a->hist), "histogram");
    D(a->above[0] != b->above[0] || a->above[1] != b->above[1], "threshold counts");
    D(a->id_sum != b->id_sum || a->id_min != b->id_min || a->id_max != b->id_max, "sum/min/max");
    for (uint64_t i = 0; i < a->nseq; i++)
        D(a->nn[i] != b->nn[i] || a->nn_of[i] != b->nn_of[i], "nearest neighbour of %llu: %u (%u), want %u (%u)",
          (unsigned long long)i, a->nn[i], a->nn_of[i], b->nn[i], b->nn_of[i]);
    D(a->nclosest != b->nclosest || a->ndistant != b->ndistant, "top list lengths");
    for (int k = 0; k < a->nclosest; k++)
        D(a->closest[k].i != b->closest[k].i || a->closest[k].j != b->closest[k].j || a->closest[k].id != b->closest[k].id,
          "closest #%d: (%llu,%llu), want (%llu,%llu)", k, (unsigned long long)a->closest[k].i,
          (unsigned long long)a->closest[k].j, (unsigned long long)b->closest[k].i, (unsigned long long)b->closest[k].j);
    for (int k = 0; k < a->ndistant; k++)
        D(a->distant[k].i != b->distant[k].i || a->distant[k].j != b->distant[k].j || a->distant[k].id != b->distant[k].id,
          "distant #%d", k);
#undef D
    return 1;
}

/* scans path's first `bytes` bytes with `threads` threads over ranges of
 * `range` bytes: 0 or -1 (e set); the figures in *s */
static int scan(mnw_scan *s, uint64_t bytes, int threads, uint64_t range, mnw_err *e)
{
    mnw_scan_init(s, NSEQ);
    s->nth = 2;
    s->th[0] = 970000, s->th[1] = 990000;
    s->min_range = range;
    return mnw_scan_pairs(s, path, bytes, threads, e);
}

static void check_all(const char *what, uint64_t bytes, uint64_t n)
{
    mnw_scan want;
    expect(&want, n);
    static const int ts[] = {1, 2, 3, 5, 8, 16};
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
        mnw_scan s;
        mnw_err e = {{0}};
        char why[200] = "";
        int rc = scan(&s, bytes, ts[k], 200, &e);
        T_OK(rc == 0 && same(&s, &want, why, sizeof why) && (ts[k] == 1 || s.threads > 1),
             "%s, %d thread(s) asked, %d used: every figure as the plain loop's %s%s", what, ts[k], s.threads, why, e.msg);
        mnw_scan_free(&s);
    }
    mnw_scan_free(&want);
}

static void check_error(const char *what, uint64_t bytes, int threads, const char *needle)
{
    mnw_scan s;
    mnw_err e = {{0}};
    int rc = scan(&s, bytes, threads, 200, &e);
    T_OK(rc != 0 && strstr(e.msg, path) && strstr(e.msg, needle), "%s (%d threads): an error naming the file: %s",
         what, threads, e.msg);
    mnw_scan_free(&s);
}

static long file_size(void)
{
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* mnw_svg_escape(in) == want (the text the page gets) */
static void check_escape(const char *what, const char *in, const char *want)
{
    mnw_buf b;
    mnw_buf_init(&b);
    mnw_svg_escape(&b, in);
    mnw_buf_putc(&b, '\0');
    T_OK(!strcmp(b.p, want), "escape: %s", what);
    mnw_buf_free(&b);
}

static void escapes(void)
{
#define R "\xef\xbf\xbd" /* U+FFFD */
    check_escape("ASCII and the five XML characters", "a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&#39;");
    check_escape("control characters but tab and newline dropped, DEL too", "a\x01\tb\x7f\n", "a\tb\n");
    check_escape("valid 2, 3 and 4 byte forms kept (é € 😀, U+10FFFF)", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf",
                 "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf");
    check_escape("0x80 alone (a lone continuation byte)", "a\x80" "b", "a" R "b");
    check_escape("0xff and 0xfe", "\xff\xfex", R R "x");
    check_escape("overlong '/' (c0 af) and overlong NUL (c0 80)", "\xc0\xaf\xc0\x80", R R R R);
    check_escape("overlong 3-byte (e0 80 af)", "\xe0\x80\xaf", R R R);
    check_escape("a surrogate (ed a0 80)", "\xed\xa0\x80", R R R);
    check_escape("past U+10FFFF (f4 90 80 80)", "\xf4\x90\x80\x80", R R R R);
    check_escape("a 3-byte sequence cut before a letter: one U+FFFD", "\xe2\x82x", R "x");
    check_escape("a 3-byte sequence cut at the end", "ab\xe2\x82", "ab" R);
    check_escape("a 4-byte sequence cut after 3 bytes, then <", "\xf0\x9f\x98<", R "&lt;");
    check_escape("two continuation bytes in a row", "\x80\xbf", R R);
#undef R
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/test_report_scan.%d.tsv.gz", (int)getpid());
    for (uint64_t i = 1; i < NSEQ; i++)
        for (uint64_t j = 0; j < i; j++) npairs++;
    pairs = malloc(npairs * sizeof *pairs);
    uint64_t k = 0;
    for (uint64_t i = 1; i < NSEQ; i++)
        for (uint64_t j = 0; j < i; j++) pairs[k++] = (pr){i, j, ident(i, j)};

    write_file(5, 0, 0);
    check_all("level 5 members", (uint64_t)file_size(), npairs);
    mnw_scan s;
    mnw_err e = {{0}};
    T_OK(scan(&s, (uint64_t)file_size(), 16, 0, &e) == 0 && s.threads == 1,
         "a file under 4 MiB is read by one thread (default range): %d", s.threads);
    mnw_scan_free(&s);
    T_OK(scan(&s, (uint64_t)file_size(), 1000, 200, &e) == 0 && s.members == nmembers + 1,
         "every member read once: %llu of %llu", (unsigned long long)s.members, (unsigned long long)nmembers + 1);
    mnw_scan_free(&s);
    check_all("a run in progress: up to the 7th member's end", member_at[7], 7 * PER_MEMBER);
    T_OK(scan(&s, 0, 4, 200, &e) == 0 && s.pairs == 0, "nothing written yet: no pair, no error");
    mnw_scan_free(&s);

    check_error("cut inside a member", member_at[7] + 20, 1, "ends inside the member at byte");
    check_error("cut inside a member", member_at[7] + 20, 4, "ends inside the member at byte");
    check_error("a file shorter than the bookmark says", (uint64_t)file_size() + 1, 4, "before the bookmark's");
    /* one byte of member 5's compressed data changed */
    FILE *f = fopen(path, "r+b");
    uint64_t mid = (member_at[5] + member_at[6]) / 2;
    fseek(f, (long)mid, SEEK_SET);
    int c = fgetc(f);
    fseek(f, (long)mid, SEEK_SET);
    fputc(c ^ 0x55, f);
    fclose(f);
    check_error("a damaged member", (uint64_t)file_size(), 1, "member at byte");
    check_error("a damaged member", (uint64_t)file_size(), 4, "member at byte");

    write_file(0, 1, 0);
    check_all("stored members whose ids hold gzip header bytes", (uint64_t)file_size(), npairs);

    /* a crafted id that is itself a whole gzip member (stored, so its bytes
     * stand in the file as they are): a thread whose range holds it takes it
     * for a member start; the chain check turns that into an error, never a
     * wrong figure */
    mnw_buf gz;
    mnw_buf_init(&gz);
    for (int v = 0; v < 1000 && !nplanted; v++) {
        char text[16];
        snprintf(text, sizeof text, "id%d", v);
        if (mnw_gzip_member(text, strlen(text), 0, &gz)) abort();
        int clean = gz.len < sizeof planted;
        for (size_t b = 0; b < gz.len && clean; b++) clean = gz.p[b] != '\t' && gz.p[b] != '\n';
        if (clean) memcpy(planted, gz.p, nplanted = gz.len);
    }
    mnw_buf_free(&gz);
    T_OK(nplanted > 0, "a gzip member with no tab or newline byte found to plant");
    plant_at = 2000;
    write_file(0, 0, 0);
    check_error("a whole gzip member planted inside a line", (uint64_t)file_size(), 1000, "runs past the start");
    mnw_scan s1;
    T_OK(scan(&s1, (uint64_t)file_size(), 1, 200, &e) == 0 && s1.pairs == npairs,
         "the same file read by one thread: no member planted in a line is looked for (%s)", e.msg);
    mnw_scan_free(&s1);
    plant_at = -1;

    write_file(5, 0, 1);
    check_error("a member that ends inside a line", (uint64_t)file_size(), 4, "ends inside this line");

    pairs[400].j = pairs[400].i; /* j < i broken */
    write_file(5, 0, 0);
    check_error("a line with j = i", (uint64_t)file_size(), 1, "its line");
    pairs[400].j = 0;
    pairs[401].id = 1000001;
    write_file(5, 0, 0);
    check_error("an identity above 1", (uint64_t)file_size(), 3, "not a pairs.tsv line");

    f = fopen(path, "wb");
    fputs("i\tj\nplain text, not gzip\n", f);
    fclose(f);
    check_error("not gzip", (uint64_t)file_size(), 1, "not gzip data");
    unlink(path);
    free(pairs);
    escapes();
    return t_exit();
}
