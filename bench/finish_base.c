/* finish_base.c - see finish_base.h. A frozen copy of the production path
 * of 2026-11-25 (src/output.c, src/buf.c's mnw_gzip_member); do not
 * improve it: it is the baseline. */
#include "finish_base.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

static void fb_put_double(mnw_buf *b, const char *fmt, double v)
{
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    if (n > 0 && (size_t)n < sizeof tmp) mnw_buf_put(b, tmp, (size_t)n);
}

static void fb_put_padded(mnw_buf *b, const char *name)
{
    size_t len = strlen(name);
    mnw_buf_put(b, name, len);
    for (; len < 10; len++) mnw_buf_putc(b, ' ');
}

static void fb_format(const mnw_outspec *sp, mnw_range r, const mnw_aln *alns, mnw_buf text[MNW_NOUT])
{
    const mnw_seqset *s = sp->seqs;
    uint64_t i, j;
    mnw_pair_ij(r.k0, &i, &j);
    for (uint64_t x = 0; x < r.count; x++) {
        const mnw_aln *a = &alns[x];
        const uint8_t *ca = mnw_seq_codes(s, i), *cb = mnw_seq_codes(s, j);
        size_t na = mnw_seq_len(s, i), nb = mnw_seq_len(s, j);
        double id = mnw_identity(&sp->iddef, a->ops, a->nops, ca, na, cb, nb);
        double dist = 1.0 - id;
        if (sp->enabled[MNW_OUT_PAIRS]) {
            mnw_buf *b = &text[MNW_OUT_PAIRS];
            mnw_alnstats st;
            mnw_aln_stats(a, &st);
            mnw_buf_put_u64(b, i);
            mnw_buf_putc(b, '\t');
            mnw_buf_put_u64(b, j);
            mnw_buf_putc(b, '\t');
            mnw_buf_puts(b, mnw_seq_id(s, i));
            mnw_buf_putc(b, '\t');
            mnw_buf_puts(b, mnw_seq_id(s, j));
            mnw_buf_putc(b, '\t');
            mnw_buf_put_i64(b, a->score);
            mnw_buf_putc(b, '\t');
            mnw_buf_put_u64(b, st.length);
            mnw_buf_putc(b, '\t');
            mnw_buf_put_u64(b, st.matches);
            mnw_buf_putc(b, '\t');
            mnw_buf_put_u64(b, st.mismatches);
            mnw_buf_putc(b, '\t');
            mnw_buf_put_u64(b, st.gap_opens);
            mnw_buf_putc(b, '\t');
            mnw_buf_put_u64(b, st.gaps);
            mnw_buf_putc(b, '\t');
            fb_put_double(b, "%.6f", id);
            if (sp->cigar) {
                mnw_buf_putc(b, '\t');
                for (size_t k = 0; k < a->nops; k++) {
                    mnw_buf_put_u64(b, MNW_RUN_LEN(a->ops[k]));
                    mnw_buf_putc(b, mnw_op_char[MNW_RUN_OP(a->ops[k])]);
                }
            }
            mnw_buf_putc(b, '\n');
        }
        if (sp->enabled[MNW_OUT_DIST] && !(sp->cutoff >= 0.0 && dist > sp->cutoff)) {
            mnw_buf *b = &text[MNW_OUT_DIST];
            mnw_buf_puts(b, mnw_seq_id(s, i));
            mnw_buf_putc(b, ' ');
            mnw_buf_puts(b, mnw_seq_id(s, j));
            mnw_buf_putc(b, ' ');
            fb_put_double(b, "%g", dist);
            mnw_buf_putc(b, '\n');
        }
        if (sp->enabled[MNW_OUT_PHYLIP]) {
            mnw_buf *b = &text[MNW_OUT_PHYLIP];
            if (j == 0) {
                if (i == 1) {
                    mnw_buf_put_u64(b, s->n);
                    mnw_buf_putc(b, '\n');
                    fb_put_padded(b, mnw_seq_id(s, 0));
                    mnw_buf_putc(b, '\n');
                }
                fb_put_padded(b, mnw_seq_id(s, i));
            }
            mnw_buf_putc(b, '\t');
            fb_put_double(b, "%.4g", dist);
            if (j + 1 == i) mnw_buf_putc(b, '\n');
        }
        if (++j == i) {
            i++;
            j = 0;
        }
    }
}

static int fb_gzip(const char *in, size_t len, int level, mnw_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
    out->len = 0;
    mnw_buf_reserve(out, deflateBound(&z, (uLong)len));
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out->p;
    z.avail_out = (uInt)out->cap;
    int rc = deflate(&z, Z_FINISH);
    out->len = z.total_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}

int fb_build(const mnw_job_spec *js, mnw_range r, const mnw_aln *alns, mnw_buf text[MNW_NOUT], mnw_buf out[MNW_NOUT])
{
    for (int o = 0; o < MNW_NOUT; o++) text[o].len = out[o].len = 0;
    fb_format(js->spec, r, alns, text);
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!js->spec->enabled[o] || text[o].len == 0) continue;
        if (mnw_out_gzip[o]) {
            if (fb_gzip(text[o].p, text[o].len, js->gzip_level, &out[o])) return -1;
        } else {
            mnw_buf_put(&out[o], text[o].p, text[o].len);
        }
    }
    return 0;
}
