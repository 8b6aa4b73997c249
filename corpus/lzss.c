/*
 * corpus/lzss.c: decoder and greedy encoder for the LZSS variant of FF8's
 * .fs archives (see corpus/lzss.h for the format).
 *
 * Must not read or write outside the buffers it is given, print or exit.
 */
#include "corpus/lzss.h"

#include <stdlib.h>
#include <string.h>

#define RING_MASK (LZSS_RING - 1)
/* Farthest distance the encoder uses: a whole ring minus one longest match,
 * as the classic encoder does, so no decoder ordering can bite. */
#define MAX_DISTANCE (LZSS_RING - LZSS_MAX_MATCH)
#define HASH_BITS 13
#define HASH_SIZE (1u << HASH_BITS)
#define CHAIN_LIMIT 256
#define NO_POS SIZE_MAX

int lzss_decode(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size,
                const char *name, int64_t base, ff_error *err)
{
    uint8_t ring[LZSS_RING];
    memset(ring, 0, sizeof ring);
    unsigned r = LZSS_RING_START;
    size_t pos = 0, out = 0;

    while (pos < src_size) {
        unsigned flags = src[pos++];
        for (int bit = 0; bit < 8 && pos < src_size; bit++) {
            if (flags & (1u << bit)) {
                if (out >= dst_size)
                    return ff_error_set(err, FF_E_FORMAT, name, base + (int64_t)pos,
                                        "LZSS data goes on past the announced %zu bytes", dst_size);
                uint8_t b = src[pos++];
                dst[out++] = b;
                ring[r] = b;
                r = (r + 1) & RING_MASK;
                continue;
            }
            if (src_size - pos < 2)
                return ff_error_set(err, FF_E_TRUNCATED, name, base + (int64_t)pos,
                                    "LZSS reference cut by the end of the data");
            unsigned b0 = src[pos], b1 = src[pos + 1];
            unsigned off = b0 | ((b1 & 0xF0u) << 4);
            size_t len = (b1 & 0x0Fu) + LZSS_MIN_MATCH;
            if (out == 0)
                return ff_error_set(err, FF_E_FORMAT, name, base + (int64_t)pos,
                                    "LZSS reference (ring 0x%03x, %zu bytes) before any "
                                    "output byte",
                                    off, len);
            if (len > dst_size - out)
                return ff_error_set(err, FF_E_FORMAT, name, base + (int64_t)pos,
                                    "LZSS reference of %zu bytes goes past the announced %zu "
                                    "bytes (%zu written)",
                                    len, dst_size, out);
            pos += 2;
            for (size_t k = 0; k < len; k++) {
                uint8_t b = ring[(off + k) & RING_MASK];
                dst[out++] = b;
                ring[r] = b;
                r = (r + 1) & RING_MASK;
            }
        }
    }
    if (out != dst_size)
        return ff_error_set(err, FF_E_FORMAT, name, base + (int64_t)src_size,
                            "LZSS data ends after %zu bytes, %zu announced", out, dst_size);
    return 0;
}

size_t lzss_bound(size_t n)
{
    return n + (n + 7) / 8;
}

static unsigned hash3(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    return (unsigned)((v * 2654435761u) >> (32 - HASH_BITS));
}

/* Longest match for position p among earlier positions chained from head. */
static size_t longest(const uint8_t *src, size_t n, size_t p, const size_t *head,
                      const size_t *prev, size_t *match_pos)
{
    size_t best = 0;
    if (p == 0 || n - p < LZSS_MIN_MATCH) return 0;
    size_t max = n - p < LZSS_MAX_MATCH ? n - p : LZSS_MAX_MATCH;
    size_t q = head[hash3(src + p)];
    for (int chain = 0; q != NO_POS && chain < CHAIN_LIMIT; chain++, q = prev[q]) {
        if (p - q > MAX_DISTANCE) break;
        size_t len = 0;
        while (len < max && src[q + len] == src[p + len])
            len++;
        if (len > best) {
            best = len;
            *match_pos = q;
            if (len == max) break;
        }
    }
    return best >= LZSS_MIN_MATCH ? best : 0;
}

static void insert(const uint8_t *src, size_t n, size_t p, size_t *head, size_t *prev)
{
    if (n - p < LZSS_MIN_MATCH) return;
    unsigned h = hash3(src + p);
    prev[p] = head[h];
    head[h] = p;
}

int lzss_encode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out_size,
                ff_error *err)
{
    size_t *head = malloc(HASH_SIZE * sizeof *head);
    size_t *prev = malloc((n ? n : 1) * sizeof *prev);
    if (!head || !prev) {
        free(head);
        free(prev);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for LZSS match tables");
    }
    for (size_t i = 0; i < HASH_SIZE; i++)
        head[i] = NO_POS;

    size_t o = 0, flag_at = 0, p = 0;
    int bit = 8;
    while (p < n) {
        if (bit == 8) {
            if (o >= cap) goto full;
            flag_at = o++;
            dst[flag_at] = 0;
            bit = 0;
        }
        size_t q = 0;
        size_t len = longest(src, n, p, head, prev, &q);
        if (len) {
            if (cap - o < 2) goto full;
            unsigned ring_pos = (unsigned)((LZSS_RING_START + q) & RING_MASK);
            dst[o++] = (uint8_t)(ring_pos & 0xFF);
            dst[o++] = (uint8_t)(((ring_pos >> 4) & 0xF0) | (len - LZSS_MIN_MATCH));
        } else {
            if (o >= cap) goto full;
            dst[flag_at] |= (uint8_t)(1u << bit);
            dst[o++] = src[p];
            len = 1;
        }
        for (size_t k = 0; k < len; k++)
            insert(src, n, p + k, head, prev);
        p += len;
        bit++;
    }
    free(head);
    free(prev);
    *out_size = o;
    return 0;
full:
    free(head);
    free(prev);
    return ff_error_set(err, FF_E_RANGE, NULL, (int64_t)o,
                        "LZSS output buffer of %zu bytes is too small", cap);
}
