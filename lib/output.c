/* output.c - see output.h. */
#include "lib/output.h"

#include <string.h>

#include "lib/fmtnum.h"
#include "lib/userout.h"

const char *const mnw_out_name[MNW_NOUT] = {"pairs.tsv.gz", "dist.column.gz", "dist.phylip", "alignments.paf.gz",
                                            "dist.column",  "userout.tsv.gz"};
const int mnw_out_gzip[MNW_NOUT] = {1, 1, 0, 1, 0, 1};

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

/* Room a pairs.tsv line needs besides its two ids and its CIGAR: i and j,
 * the score and five counts, the identity, eleven separators. */
#define PAIRS_LINE_ROOM (7 * MNW_FMT_INT_MAX + MNW_FMT_DBL_MAX + 16)
/* Room one CIGAR run needs: a length below 2^30 and its op. */
#define CIGAR_RUN_ROOM 11
/* Room a PAF line needs besides its two names and its CIGAR: eight
 * integers (each length twice, matches, block length, NM, AS), the
 * divergence, and 42 bytes of fixed text (separators, the two starts, the
 * strand, the mapping quality, the tags' names, the newline). */
#define PAF_LINE_ROOM (8 * MNW_FMT_INT_MAX + MNW_FMT_DBL_MAX + 48)

static inline char *put_bytes(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

/* The CIGAR straight from the alignment's runs: each run's length and op. */
static inline char *put_cigar(char *p, const mnw_aln *a)
{
    const uint32_t *ops = a->ops; /* locals: the stores through p may alias *a */
    const size_t nops = a->nops;
    for (size_t k = 0; k < nops; k++) {
        uint32_t n = MNW_RUN_LEN(ops[k]);
        p += mnw_fmt_u64(p, n);
        *p++ = mnw_op_char[MNW_RUN_OP(ops[k])];
    }
    return p;
}

/* Every number is written by fmtnum (no printf: byte for byte the same
 * text, docs/DECISIONS.md), straight into buffers reserved once a line. */
void mnw_output_format(const mnw_outspec *sp, mnw_range r, const mnw_aln *alns, mnw_buf text[MNW_NOUT])
{
    const mnw_seqset *s = sp->seqs;
    if (r.count == 0) return;
    uint64_t i, j;
    mnw_pair_ij(r.k0, &i, &j);
    const char *id_i = mnw_seq_id(s, i);
    size_t li = strlen(id_i);
    for (uint64_t x = 0; x < r.count; x++) {
        const mnw_aln *a = &alns[x];
        if (a->pruned) goto next; /* proven beyond the cutoff: no line anywhere */
        const uint8_t *ca = mnw_seq_codes(s, i), *cb = mnw_seq_codes(s, j);
        size_t na = mnw_seq_len(s, i), nb = mnw_seq_len(s, j);
        const char *id_j = mnw_seq_id(s, j);
        size_t lj = strlen(id_j);
        mnw_alnstats st;
        mnw_iddist idd;
        if (a->has_fig) { /* counts mode: no runs (and no CIGAR, PAF or userout: mnw_outsel_needs_runs) */
            idd = mnw_iddist_fig(&sp->iddef, &a->fig, na, nb);
            mnw_pathfig_stats(&a->fig, &st);
        } else {
            idd = mnw_iddist_stats(&sp->iddef, a->ops, a->nops, ca, na, cb, nb, &st);
        }
        const double id = idd.id, dist = idd.dist;
        const int within = !(sp->cutoff >= 0.0 && dist > sp->cutoff); /* the cutoff's one test */
        const int all_within = within || sp->cutoff_scope != MNW_CUTOFF_SCOPE_ALL; /* pairs.tsv, PAF */
        if (sp->enabled[MNW_OUT_PAIRS] && all_within) {
            mnw_buf *b = &text[MNW_OUT_PAIRS];
            mnw_buf_reserve(b, li + lj + PAIRS_LINE_ROOM + (sp->cigar ? a->nops * CIGAR_RUN_ROOM : 0));
            char *p = b->p + b->len;
            p += mnw_fmt_u64(p, i);
            *p++ = '\t';
            p += mnw_fmt_u64(p, j);
            *p++ = '\t';
            p = put_bytes(p, id_i, li);
            *p++ = '\t';
            p = put_bytes(p, id_j, lj);
            *p++ = '\t';
            p += mnw_fmt_score(p, a->score, sp->half);
            *p++ = '\t';
            p += mnw_fmt_u64(p, st.length);
            *p++ = '\t';
            p += mnw_fmt_u64(p, st.matches);
            *p++ = '\t';
            p += mnw_fmt_u64(p, st.mismatches);
            *p++ = '\t';
            p += mnw_fmt_u64(p, st.gap_opens);
            *p++ = '\t';
            p += mnw_fmt_u64(p, st.gaps);
            *p++ = '\t';
            p += mnw_fmt_f(p, id, 6);
            if (sp->cigar) {
                *p++ = '\t';
                p = put_cigar(p, a);
            }
            *p++ = '\n';
            b->len = (size_t)(p - b->p);
        }
        if ((sp->enabled[MNW_OUT_DIST] || sp->enabled[MNW_OUT_DISTPLAIN]) && within) {
            /* one line for dist.column.gz and dist.column: written into the
             * first, copied into the second when both are asked for */
            const int o = sp->enabled[MNW_OUT_DIST] ? MNW_OUT_DIST : MNW_OUT_DISTPLAIN;
            mnw_buf *b = &text[o];
            mnw_buf_reserve(b, li + lj + MNW_FMT_DBL_MAX + 3);
            char *const start = b->p + b->len;
            char *p = start;
            p = put_bytes(p, id_i, li);
            *p++ = ' ';
            p = put_bytes(p, id_j, lj);
            *p++ = ' ';
            p += mnw_fmt_g(p, dist, 6);
            *p++ = '\n';
            b->len = (size_t)(p - b->p);
            if (o == MNW_OUT_DIST && sp->enabled[MNW_OUT_DISTPLAIN])
                mnw_buf_put(&text[MNW_OUT_DISTPLAIN], start, (size_t)(p - start));
        }
        if (sp->enabled[MNW_OUT_PAF] && all_within) {
            /* query = sequence i, target = sequence j (so I and D mean what
             * they mean in pairs.tsv and in SAM), the whole of both */
            mnw_buf *b = &text[MNW_OUT_PAF];
            mnw_buf_reserve(b, li + lj + PAF_LINE_ROOM + a->nops * CIGAR_RUN_ROOM);
            char *p = b->p + b->len;
            p = put_bytes(p, id_i, li);
            *p++ = '\t';
            p += mnw_fmt_u64(p, na);
            p = put_bytes(p, "\t0\t", 3);
            p += mnw_fmt_u64(p, na);
            p = put_bytes(p, "\t+\t", 3);
            p = put_bytes(p, id_j, lj);
            *p++ = '\t';
            p += mnw_fmt_u64(p, nb);
            p = put_bytes(p, "\t0\t", 3);
            p += mnw_fmt_u64(p, nb);
            *p++ = '\t';
            p += mnw_fmt_u64(p, st.matches);
            *p++ = '\t';
            p += mnw_fmt_u64(p, st.length);
            p = put_bytes(p, "\t255\tNM:i:", 10);
            p += mnw_fmt_u64(p, (uint64_t)st.mismatches + st.gaps);
            p = put_bytes(p, "\tAS:i:", 6);
            p += mnw_fmt_i64(p, a->score);
            p = put_bytes(p, "\tde:f:", 6);
            p += mnw_fmt_f(p, dist, 6);
            p = put_bytes(p, "\tcg:Z:", 6);
            p = put_cigar(p, a);
            *p++ = '\n';
            b->len = (size_t)(p - b->p);
        }
        if (sp->enabled[MNW_OUT_USEROUT] && all_within)
            mnw_userout_line(&text[MNW_OUT_USEROUT], &sp->userfields, (int)sp->iddef.kind - (int)MNW_ID_VSEARCH0, a,
                             id_i, li, ca, na, id_j, lj, cb, nb);
        if (sp->enabled[MNW_OUT_PHYLIP]) {
            mnw_buf *b = &text[MNW_OUT_PHYLIP];
            if (j == 0) {
                if (i == 1) {
                    mnw_buf_put_u64(b, s->n);
                    mnw_buf_putc(b, '\n');
                    put_padded(b, mnw_seq_id(s, 0));
                    mnw_buf_putc(b, '\n');
                }
                put_padded(b, id_i);
            }
            mnw_buf_reserve(b, MNW_FMT_DBL_MAX + 2);
            char *p = b->p + b->len;
            *p++ = '\t';
            p += mnw_fmt_g(p, dist, 4);
            if (j + 1 == i) *p++ = '\n';
            b->len = (size_t)(p - b->p);
        }
    next:
        if (++j == i) {
            i++;
            j = 0;
            if (x + 1 < r.count) {
                id_i = mnw_seq_id(s, i);
                li = strlen(id_i);
            }
        }
    }
}
