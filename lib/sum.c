/* sum.c - the running checksums of an output (sum.h). */
#include "lib/sum.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

void mnw_sum_init(mnw_sum *s, uint64_t block)
{
    s->bytes = 0;
    s->block = block;
    s->nblocks = 0;
    s->prefix = s->part = 0; /* the CRC-32 of nothing */
}

/* MNW_SUM_MAX_BLOCKS whole blocks: pairs become one block of twice the
 * size; the partial block after them starts where it did */
static void sum_merge(mnw_sum *s)
{
    for (uint32_t i = 0; i < s->nblocks / 2; i++)
        s->blocks[i] = (uint32_t)crc32_combine(s->blocks[2 * i], s->blocks[2 * i + 1], (z_off_t)s->block);
    s->nblocks /= 2;
    s->block *= 2;
}

/* the partial block is whole: it becomes a block */
static void push_block(mnw_sum *s)
{
    s->blocks[s->nblocks++] = s->part;
    s->prefix = (uint32_t)crc32_combine(s->prefix, s->part, (z_off_t)s->block);
    s->part = 0;
    if (s->nblocks == MNW_SUM_MAX_BLOCKS) sum_merge(s);
}

void mnw_sum_add(mnw_sum *s, const void *p, size_t n)
{
    const unsigned char *q = p;
    while (n) {
        uint64_t room = s->block - (s->bytes - (uint64_t)s->nblocks * s->block);
        size_t take = (uint64_t)n < room ? n : (size_t)room;
        s->part = libdeflate_crc32(s->part, q, take); /* zlib's CRC-32, several times faster (DECISIONS) */
        s->bytes += take;
        q += take;
        n -= take;
        if ((uint64_t)take == room) push_block(s);
    }
}

int mnw_sum_split(const void *p, size_t n, uint64_t off, uint64_t base, uint32_t *crc, uint64_t *len, int cap)
{
    const unsigned char *q = p;
    int k = 0;
    while (n) {
        if (k == cap) return -1;
        uint64_t room = base - off % base;
        size_t take = (uint64_t)n < room ? n : (size_t)room;
        crc[k] = libdeflate_crc32(0, q, take);
        len[k++] = take;
        q += take;
        off += take;
        n -= take;
    }
    return k;
}

int mnw_sum_add_piece(mnw_sum *s, uint32_t crc, uint64_t len)
{
    uint64_t room = s->block - (s->bytes - (uint64_t)s->nblocks * s->block);
    if (len > room) return -1;
    if (!len) return 0;
    s->part = (uint32_t)crc32_combine(s->part, crc, (z_off_t)len);
    s->bytes += len;
    if (len == room) push_block(s);
    return 0;
}

uint32_t mnw_sum_crc(const mnw_sum *s)
{
    uint64_t tail = s->bytes - (uint64_t)s->nblocks * s->block;
    return tail ? (uint32_t)crc32_combine(s->prefix, s->part, (z_off_t)tail) : s->prefix;
}

int mnw_sum_set(mnw_sum *s, uint64_t bytes, uint32_t crc, uint64_t block, const uint32_t *blocks, uint32_t n,
                const char **what)
{
    if (!pow2(block) || block < MNW_SUM_MIN_BLOCK || block > ((uint64_t)1 << 62)) {
        *what = "the block size is not a power of 2 from 4096";
        return -1;
    }
    if (n >= MNW_SUM_MAX_BLOCKS || bytes / block != n) {
        *what = "the count of block checksums is not the output's length over the block size";
        return -1;
    }
    mnw_sum_init(s, block);
    s->bytes = bytes;
    s->nblocks = n;
    for (uint32_t i = 0; i < n; i++) {
        s->blocks[i] = blocks[i];
        s->prefix = (uint32_t)crc32_combine(s->prefix, blocks[i], (z_off_t)block);
    }
    uint64_t tail = bytes - (uint64_t)n * block;
    /* CRC(A B) = CRC(A) shifted over |B| bytes, xor CRC(B): so the CRC of the
     * partial block B is crc xor CRC(A) shifted (crc32_combine with CRC(B) 0) */
    if (!tail && crc != s->prefix) {
        *what = "the block checksums do not combine to the output's checksum";
        return -1;
    }
    s->part = tail ? crc ^ (uint32_t)crc32_combine(s->prefix, 0, (z_off_t)tail) : 0;
    return 0;
}

int mnw_sum_fd(int fd, const char *path, uint64_t len, mnw_sum *s, mnw_err *e)
{
    enum { CHUNK = 4 << 20 };
    if (lseek(fd, 0, SEEK_SET) != 0) return mnw_err_set(e, "%s: cannot read: %s", path, strerror(errno));
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(fd, 0, (off_t)len, POSIX_FADV_SEQUENTIAL);
#endif
    unsigned char *buf = mnw_xmalloc(CHUNK);
    uint64_t done = 0;
    int rc = 0;
    while (done < len) {
        size_t want = len - done < CHUNK ? (size_t)(len - done) : CHUNK;
        ssize_t r = read(fd, buf, want);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            rc = mnw_err_set(e, "%s: read failed at byte %llu: %s", path, (unsigned long long)done, strerror(errno));
            break;
        }
        if (r == 0) {
            rc = mnw_err_set(e, "%s: ends at byte %llu, before the %llu bytes to check (cut while it was read?)", path,
                             (unsigned long long)done, (unsigned long long)len);
            break;
        }
        mnw_sum_add(s, buf, (size_t)r);
        done += (uint64_t)r;
    }
    free(buf);
    return rc;
}
