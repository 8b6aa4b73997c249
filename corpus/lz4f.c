/*
 * corpus/lz4f.c: LZ4 blocks and the 4ZL_ framing (lz4f.h) through liblz4.
 *
 * Must not trust a size from the data before checking it, allocate before
 * the sizes are known to be sane, print or exit.
 */
#include "corpus/lz4f.h"

#include <lz4.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "corpus/archive.h"

/* LZ4 stays below 255 output bytes per input byte. */
#define LZ4_MAX_RATIO 255

const char *arc_framing_name(arc_framing f)
{
    static const char *const names[] = {
#define ARC_FRAMING_NAME(name, text) text,
        ARC_FRAMING_MAP(ARC_FRAMING_NAME)
#undef ARC_FRAMING_NAME
    };
    return (unsigned)f < ARC_FRAMING__COUNT ? names[f] : "?";
}

int lz4f_is_tagged(const uint8_t *p)
{
    return !memcmp(p, "4ZL_", 4);
}

int lz4f_check_head(uint32_t len, const uint8_t head[LZ4F_HEAD], uint32_t fi_size, uint64_t left,
                    const char *name, int64_t at, const char *what, uint32_t *block_size,
                    ff_error *err)
{
    if (len < LZ4F_HEAD)
        return ff_error_set(err, FF_E_TRUNCATED, name, at,
                            "entry %s: 4ZL_ length %u is shorter than its 8-byte header", what,
                            len);
    if (len > left)
        return ff_error_set(err, FF_E_RANGE, name, at,
                            "entry %s: 4ZL_ length %u runs past the end (%llu bytes left)", what,
                            len, (unsigned long long)left);
    uint32_t usize = le_u32(head + 4);
    if (usize > ARC_ENTRY_MAX)
        return ff_error_set(err, FF_E_RANGE, name, at + 8,
                            "entry %s: 4ZL_ uncompressed size %u above the limit of %u MiB for "
                            "one entry",
                            what, usize, ARC_ENTRY_MAX >> 20);
    if (usize != fi_size)
        return ff_error_set(err, FF_E_FORMAT, name, at + 8,
                            "entry %s: 4ZL_ header says %u uncompressed bytes, the index %u", what,
                            usize, fi_size);
    uint32_t block = len - LZ4F_HEAD;
    if ((uint64_t)fi_size > (uint64_t)block * LZ4_MAX_RATIO + 16)
        return ff_error_set(err, FF_E_FORMAT, name, at,
                            "entry %s: a %u-byte LZ4 block cannot hold the announced %u bytes",
                            what, block, fi_size);
    *block_size = block;
    return 0;
}

int lz4f_block(const uint8_t *src, size_t n, uint8_t *dst, uint32_t size, const char *name,
               int64_t at, const char *what, ff_error *err)
{
    if (n > (size_t)INT32_MAX || size >= (uint32_t)INT32_MAX)
        return ff_error_set(err, FF_E_RANGE, name, at, "entry %s: LZ4 sizes above 2 GiB", what);
    int got = LZ4_decompress_safe((const char *)src, (char *)dst, (int)n, (int)size + 1);
    if (got < 0)
        return ff_error_set(err, FF_E_FORMAT, name, at + (int64_t)(-got - 1),
                            "entry %s: LZ4 data corrupt, truncated or longer than the announced "
                            "%u bytes",
                            what, size);
    if ((uint32_t)got != size)
        return ff_error_set(err, FF_E_FORMAT, name, at,
                            "entry %s: LZ4 data decodes to %d bytes, the index says %u", what, got,
                            size);
    return 0;
}

int lz4f_decode_entry(const uint8_t *entry, size_t n, uint32_t fi_size, const char *name,
                      uint8_t **out, arc_framing *framing, ff_error *err)
{
    if (n < 4)
        return ff_error_set(err, FF_E_TRUNCATED, name, 0, "entry: no room for the length word");
    if (fi_size > ARC_ENTRY_MAX)
        return ff_error_set(err, FF_E_RANGE, name, 0, "entry: %u bytes above the entry limit",
                            fi_size);
    uint32_t len = le_u32(entry);
    uint64_t left = n - 4;
    uint32_t block = len;
    size_t start = 4;
    arc_framing fr = ARC_FRAMING_SIZE;
    if (left >= LZ4F_HEAD && lz4f_is_tagged(entry + 4)) {
        if (lz4f_check_head(len, entry + 4, fi_size, left, name, 0, "0", &block, err) < 0)
            return -1;
        start = 4 + LZ4F_HEAD;
        fr = ARC_FRAMING_ZL4;
    } else if (len > left) {
        return ff_error_set(err, FF_E_RANGE, name, 0, "entry: size %u runs past the end", len);
    } else if ((uint64_t)fi_size > (uint64_t)len * LZ4_MAX_RATIO + 16) {
        return ff_error_set(err, FF_E_FORMAT, name, 0, "entry: %u bytes cannot hold %u", len,
                            fi_size);
    }
    uint8_t *dst = malloc((size_t)fi_size + 1);
    if (!dst) return ff_error_set(err, FF_E_NOMEM, name, -1, "no memory for an entry");
    if (lz4f_block(entry + start, block, dst, fi_size, name, (int64_t)start, "0", err) < 0) {
        free(dst);
        return -1;
    }
    *out = dst;
    *framing = fr;
    return 0;
}
