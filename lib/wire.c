/* wire.c - see wire.h. */
#include "lib/wire.h"

#include <stdlib.h>
#include <string.h>

#define JOB_MAGIC 0x4a574e4du /* "MNWJ" */
#define JOB_VERSION 10u /* 2: outputs (a mask) where 1 had phylip; 3: four outputs (paf); 4: five (dist-plain);
                          5: output_via; 6: cutoff_scope, prune; 7: gpu_possible;
                          8: gpu_possible gone (the GPU filter runs stage 2 too);
                          9: six outputs (userout) and its fields; 10: the scoring's tie rule */
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

void mnw_wire_head_of(const mnw_result *res, mnw_wire_head *h)
{
    memset(h, 0, sizeof *h);
    h->k0 = res->r.k0;
    h->count = res->r.count;
    h->cells = res->cells;
    memcpy(h->dev_pairs, res->dev_pairs, sizeof h->dev_pairs);
    h->pruned = res->pruned;
    for (int o = 0; o < MNW_NOUT; o++) h->len[o] = res->data[o].len;
}

/* a header's pruned pairs are some of its pairs */
static int head_sane(const mnw_wire_head *h, mnw_err *e)
{
    if (h->pruned > h->count)
        return mnw_err_set(e, "the header for pairs from %llu counts %llu pruned of its %llu pairs",
                           (unsigned long long)h->k0, (unsigned long long)h->pruned, (unsigned long long)h->count);
    return 0;
}

int mnw_wire_unpack_head(const void *p, size_t n, mnw_wire_head *h, mnw_err *e)
{
    if (n != sizeof *h) return mnw_err_set(e, "sizes message of %zu bytes, not %zu", n, sizeof *h);
    memcpy(h, p, sizeof *h);
    return head_sane(h, e);
}

void mnw_wire_pack_result(const mnw_result *res, mnw_buf *out)
{
    mnw_wire_head h;
    mnw_wire_head_of(res, &h);
    mnw_buf_put(out, &h, sizeof h);
    for (int o = 0; o < MNW_NOUT; o++)
        if (res->data[o].len) mnw_buf_put(out, res->data[o].p, res->data[o].len);
}

mnw_result *mnw_wire_unpack_result(const void *p, size_t n, mnw_err *e)
{
    mnw_wire_head h;
    if (n < sizeof h) {
        mnw_err_set(e, "result message too short (%zu bytes)", n);
        return NULL;
    }
    memcpy(&h, p, sizeof h);
    if (head_sane(&h, e)) return NULL;
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
    res->pruned = h.pruned;
    const char *c = (const char *)p + sizeof h;
    for (int o = 0; o < MNW_NOUT; o++) {
        if (h.len[o]) mnw_buf_put(&res->data[o], c, h.len[o]);
        c += h.len[o];
    }
    return res;
}

/* A WRITTEN record: uint64 k0, int32 n[MNW_NOUT], then for each output its
 * n uint32 CRCs and n uint64 lengths. */
void mnw_wire_pack_written(const mnw_wire_written *w, mnw_buf *out)
{
    mnw_buf_put(out, &w->k0, sizeof w->k0);
    for (int o = 0; o < MNW_NOUT; o++) {
        int32_t n = w->n[o];
        mnw_buf_put(out, &n, sizeof n);
    }
    for (int o = 0; o < MNW_NOUT; o++) {
        if (!w->n[o]) continue;
        mnw_buf_put(out, w->crc[o], (size_t)w->n[o] * sizeof *w->crc[o]);
        mnw_buf_put(out, w->len[o], (size_t)w->n[o] * sizeof *w->len[o]);
    }
}

int mnw_wire_next_written(const void *p, size_t n, size_t *pos, mnw_wire_written *w, mnw_err *e)
{
    const char *c = (const char *)p + *pos;
    size_t left = n - *pos;
    if (!left) return 0;
    size_t head = sizeof w->k0 + MNW_NOUT * sizeof(int32_t);
    if (left < head) return mnw_err_set(e, "written message cut short at byte %zu", *pos);
    memcpy(&w->k0, c, sizeof w->k0);
    size_t need = head;
    int32_t cnt[MNW_NOUT];
    memcpy(cnt, c + sizeof w->k0, sizeof cnt);
    for (int o = 0; o < MNW_NOUT; o++) {
        if (cnt[o] < 0 || cnt[o] > (1 << 24))
            return mnw_err_set(e, "written message: %d checksum pieces for one output", (int)cnt[o]);
        need += (size_t)cnt[o] * (sizeof(uint32_t) + sizeof(uint64_t));
    }
    if (left < need) return mnw_err_set(e, "written message for pairs %llu cut short", (unsigned long long)w->k0);
    c += head;
    for (int o = 0; o < MNW_NOUT; o++) {
        w->n[o] = cnt[o];
        if (cnt[o] > w->cap[o]) {
            w->cap[o] = cnt[o];
            w->crc[o] = mnw_xrealloc(w->crc[o], (size_t)cnt[o] * sizeof *w->crc[o]);
            w->len[o] = mnw_xrealloc(w->len[o], (size_t)cnt[o] * sizeof *w->len[o]);
        }
        if (!cnt[o]) continue;
        memcpy(w->crc[o], c, (size_t)cnt[o] * sizeof *w->crc[o]);
        c += (size_t)cnt[o] * sizeof *w->crc[o];
        memcpy(w->len[o], c, (size_t)cnt[o] * sizeof *w->len[o]);
        c += (size_t)cnt[o] * sizeof *w->len[o];
    }
    *pos += need;
    return 1;
}

void mnw_wire_written_free(mnw_wire_written *w)
{
    for (int o = 0; o < MNW_NOUT; o++) free(w->crc[o]), free(w->len[o]);
    memset(w, 0, sizeof *w);
}
