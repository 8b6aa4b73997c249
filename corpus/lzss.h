/*
 * corpus/lzss.h: the LZSS variant of FF8's .fs archives (docs/engine.md
 * section 6): a flag byte read LSB-first (1 = literal byte, 0 = reference),
 * a reference of 2 bytes b0 b1 naming an absolute position
 * b0 | (b1 & 0xF0) << 4 in a 4096-byte ring and a length (b1 & 0x0F) + 3;
 * the ring starts zero-filled and the first byte goes to 0xFEE.
 *
 * The decoder never reads or writes out of bounds and rejects, with the
 * offending byte's offset, a reference before any output, a truncated
 * reference and output longer or shorter than announced. The encoder is a
 * plain greedy one for tests and the archive writer. Neither prints nor
 * exits; neither keeps state between calls.
 */
#ifndef FF8_CORPUS_LZSS_H
#define FF8_CORPUS_LZSS_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define LZSS_RING 4096
#define LZSS_RING_START 0xFEE
#define LZSS_MIN_MATCH 3
#define LZSS_MAX_MATCH 18

/*
 * Decodes src[0..src_size) into dst, which must receive exactly dst_size
 * bytes. Errors (return -1, err filled, dst contents unspecified):
 *   FF_E_FORMAT    a reference before any byte was output (the ring would
 *                  only hold its zero fill), or output beyond dst_size;
 *   FF_E_TRUNCATED a reference cut by the end of src;
 *   FF_E_FORMAT    src ends after fewer than dst_size bytes were output.
 * Offsets in err are base + the offending position in src, so a caller
 * decoding an archive entry passes the entry's data offset and gets
 * offsets in the archive; name is the file named in errors (may be NULL).
 */
int lzss_decode(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_size,
                const char *name, int64_t base, ff_error *err);

/* Largest encoded size of n input bytes (every byte a literal). */
size_t lzss_bound(size_t n);

/*
 * Encodes src[0..n) greedily into dst (capacity cap, at least lzss_bound(n)
 * is always enough) and stores the encoded length in *out_size. Never emits
 * a reference before the first literal, nor one reaching bytes older than
 * the ring holds. Returns -1 (FF_E_RANGE) when cap is too small, or
 * FF_E_NOMEM when its match tables cannot be allocated.
 */
int lzss_encode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, size_t *out_size,
                ff_error *err);

#endif
