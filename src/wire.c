/* wire.c - see wire.h. */
#include "wire.h"

#include <string.h>

#define JOB_MAGIC 0x4a574e4du /* "MNWJ" */
#define JOB_VERSION 4u /* 2: outputs (a mask) where 1 had phylip; 3: four outputs (paf); 4: five (dist-plain) */
#define BOM 0x01020304u

typedef struct {
    uint32_t magic, version, bom, jobset_size;
    uint64_t n, codes_len, idbuf_len, max_len;
} job_head;

void mnw_wire_pack_job(const mnw_jobset *js, const mnw_seqset *s, mnw_buf *out)
{
    job_head h = {JOB_MAGIC, JOB_VERSION, BOM, (uint32_t)sizeof *js, s->n, s->off[s->n], s->idbuf_len, s->max_len};
    mnw_buf_put(out, &h, sizeof h);
    mnw_buf_put(out, js, sizeof *js);
    for (size_t i = 0; i <= s->n; i++) {
        uint64_t v = s->off[i];
        mnw_buf_put(out, &v, sizeof v);
    }
    for (size_t i = 0; i < s->n; i++) {
        uint64_t v = s->idoff[i];
        mnw_buf_put(out, &v, sizeof v);
    }
    mnw_buf_put(out, s->codes, s->off[s->n]);
    mnw_buf_put(out, s->idbuf, s->idbuf_len);
}

int mnw_wire_unpack_job(const void *p, size_t n, mnw_jobset *js, mnw_seqset *s, mnw_err *e)
{
    const char *c = p;
    job_head h;
    if (n < sizeof h) return mnw_err_set(e, "job message too short (%zu bytes)", n);
    memcpy(&h, c, sizeof h);
    if (h.magic != JOB_MAGIC || h.bom != BOM || h.version != JOB_VERSION || h.jobset_size != sizeof *js)
        return mnw_err_set(e, "job message from rank 0 does not match this build of mnw "
                              "(every rank must run the same build of mnw on the same architecture)");
    size_t need = sizeof h + sizeof *js + (h.n + 1) * 8 + h.n * 8 + h.codes_len + h.idbuf_len;
    if (n != need) return mnw_err_set(e, "job message has %zu bytes, expected %zu", n, need);
    c += sizeof h;
    memcpy(js, c, sizeof *js);
    c += sizeof *js;
    s->n = h.n;
    s->off = mnw_xmalloc((h.n + 1) * sizeof *s->off);
    s->idoff = mnw_xmalloc((h.n ? h.n : 1) * sizeof *s->idoff);
    for (size_t i = 0; i <= h.n; i++, c += 8) {
        uint64_t v;
        memcpy(&v, c, 8);
        s->off[i] = v;
    }
    for (size_t i = 0; i < h.n; i++, c += 8) {
        uint64_t v;
        memcpy(&v, c, 8);
        s->idoff[i] = v;
    }
    s->codes = mnw_xmalloc(h.codes_len ? h.codes_len : 1);
    memcpy(s->codes, c, h.codes_len);
    c += h.codes_len;
    s->idbuf = mnw_xmalloc(h.idbuf_len ? h.idbuf_len : 1);
    memcpy(s->idbuf, c, h.idbuf_len);
    s->max_len = h.max_len;
    s->codes_cap = h.codes_len;
    s->off_cap = h.n + 1;
    s->idbuf_len = s->idbuf_cap = h.idbuf_len;
    return 0;
}

typedef struct {
    uint64_t k0, count, cells, len[MNW_NOUT], dev_pairs[MNW_RESULT_DEVS];
} res_head;

void mnw_wire_pack_result(const mnw_result *res, mnw_buf *out)
{
    res_head h = {res->r.k0, res->r.count, res->cells, {0}, {0}};
    memcpy(h.dev_pairs, res->dev_pairs, sizeof h.dev_pairs);
    for (int o = 0; o < MNW_NOUT; o++) h.len[o] = res->data[o].len;
    mnw_buf_put(out, &h, sizeof h);
    for (int o = 0; o < MNW_NOUT; o++)
        if (res->data[o].len) mnw_buf_put(out, res->data[o].p, res->data[o].len);
}

mnw_result *mnw_wire_unpack_result(const void *p, size_t n, mnw_err *e)
{
    res_head h;
    if (n < sizeof h) {
        mnw_err_set(e, "result message too short (%zu bytes)", n);
        return NULL;
    }
    memcpy(&h, p, sizeof h);
    size_t need = sizeof h;
    for (int o = 0; o < MNW_NOUT; o++) need += h.len[o];
    if (need != n) {
        mnw_err_set(e, "result message for pairs from %llu has %zu bytes, its header says %zu",
                    (unsigned long long)h.k0, n, need);
        return NULL;
    }
    mnw_result *res = mnw_result_new((mnw_range){h.k0, h.count});
    res->cells = h.cells;
    memcpy(res->dev_pairs, h.dev_pairs, sizeof h.dev_pairs);
    const char *c = (const char *)p + sizeof h;
    for (int o = 0; o < MNW_NOUT; o++) {
        if (h.len[o]) mnw_buf_put(&res->data[o], c, h.len[o]);
        c += h.len[o];
    }
    return res;
}
