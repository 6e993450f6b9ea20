/* output.c - see output.h. */
#include "output.h"

#include <string.h>

const char *const mnw_out_name[MNW_NOUT] = {"pairs.tsv.gz", "dist.column.gz", "dist.phylip"};
const int mnw_out_gzip[MNW_NOUT] = {1, 1, 0};

void mnw_output_head(const mnw_outspec *sp, int out, mnw_buf *text)
{
    if (out == MNW_OUT_PAIRS) {
        mnw_buf_puts(text, "i\tj\tid_i\tid_j\tscore\tlength\tmatches\tmismatches\tgap_opens\tgaps\tidentity");
        mnw_buf_puts(text, sp->cigar ? "\tcigar\n" : "\n");
    }
}

/* mothur's PHYLIP names: right-padded with spaces to 10 characters; longer
 * names are written whole */
static void put_padded(mnw_buf *b, const char *name)
{
    size_t len = strlen(name);
    mnw_buf_put(b, name, len);
    for (; len < 10; len++) mnw_buf_putc(b, ' ');
}

static void put_cigar(mnw_buf *b, const mnw_aln *a)
{
    for (size_t k = 0; k < a->nops; k++) {
        mnw_buf_put_u64(b, MNW_RUN_LEN(a->ops[k]));
        mnw_buf_putc(b, mnw_op_char[MNW_RUN_OP(a->ops[k])]);
    }
}

void mnw_output_format(const mnw_outspec *sp, mnw_range r, const mnw_aln *alns, mnw_buf text[MNW_NOUT])
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
            mnw_buf_put_double(b, "%.6f", id);
            if (sp->cigar) {
                mnw_buf_putc(b, '\t');
                put_cigar(b, a);
            }
            mnw_buf_putc(b, '\n');
        }
        if (sp->enabled[MNW_OUT_DIST] && !(sp->cutoff >= 0.0 && dist > sp->cutoff)) {
            mnw_buf *b = &text[MNW_OUT_DIST];
            mnw_buf_puts(b, mnw_seq_id(s, i));
            mnw_buf_putc(b, ' ');
            mnw_buf_puts(b, mnw_seq_id(s, j));
            mnw_buf_putc(b, ' ');
            mnw_buf_put_double(b, "%g", dist);
            mnw_buf_putc(b, '\n');
        }
        if (sp->enabled[MNW_OUT_PHYLIP]) {
            mnw_buf *b = &text[MNW_OUT_PHYLIP];
            if (j == 0) {
                if (i == 1) {
                    mnw_buf_put_u64(b, s->n);
                    mnw_buf_putc(b, '\n');
                    put_padded(b, mnw_seq_id(s, 0));
                    mnw_buf_putc(b, '\n');
                }
                put_padded(b, mnw_seq_id(s, i));
            }
            mnw_buf_putc(b, '\t');
            mnw_buf_put_double(b, "%.4g", dist);
            if (j + 1 == i) mnw_buf_putc(b, '\n');
        }
        if (++j == i) {
            i++;
            j = 0;
        }
    }
}
