/*
 * corpus/lz4f.h: the LZ4 entries of FF8's FS files, in both framings an FI
 * compression 2 entry is found in (docs/engine.md section 6):
 *   plain  {u32 block size, raw LZ4 block}                     (2013 tools)
 *   4ZL_   {u32 len = 8 + block size, "4ZL_", u32 uncompressed size,
 *           raw LZ4 block of len - 8 bytes}                    (2019 Remaster)
 * The 4ZL_ header's uncompressed size is checked against the FI record's
 * and against ARC_ENTRY_MAX before anything is allocated.
 *
 * Decoding only: nothing here reads files, prints or exits.
 */
#ifndef FF8_CORPUS_LZ4F_H
#define FF8_CORPUS_LZ4F_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* framing, name: how an FS entry's bytes are laid out. */
#define ARC_FRAMING_MAP(XX)                                                                        \
    XX(NONE, "none") /* a stored entry: its bytes */                                               \
    XX(SIZE, "size") /* u32 compressed size + data */                                              \
    XX(ZL4, "4ZL_")  /* u32 len, "4ZL_", u32 uncompressed size, LZ4 block */

typedef enum arc_framing {
#define ARC_FRAMING_ENUM(name, text) ARC_FRAMING_##name,
    ARC_FRAMING_MAP(ARC_FRAMING_ENUM)
#undef ARC_FRAMING_ENUM
        ARC_FRAMING__COUNT
} arc_framing;

/* "none", "size", "4ZL_"; "?" when out of range. */
const char *arc_framing_name(arc_framing f);

/* Bytes of the 4ZL_ header after the u32 length word: the tag and the size. */
#define LZ4F_HEAD 8

/* 1 when the 4 bytes at p are the "4ZL_" tag. */
int lz4f_is_tagged(const uint8_t *p);

/*
 * Checks a 4ZL_ header: len is the entry's first word (bytes after it),
 * head the 8 bytes after it, fi_size the FI record's uncompressed size,
 * left the bytes of the FS after the length word. On success *block_size is
 * len - 8 (the LZ4 block that follows the header). Errors, at `at` (the
 * length word) in `name`, each naming entry `what`:
 *   FF_E_TRUNCATED  len below the 8-byte header;
 *   FF_E_RANGE      len past the end of the FS; an uncompressed size above
 *                   ARC_ENTRY_MAX (refused before allocating);
 *   FF_E_FORMAT     an uncompressed size other than the FI record's.
 */
int lz4f_check_head(uint32_t len, const uint8_t head[LZ4F_HEAD], uint32_t fi_size, uint64_t left,
                    const char *name, int64_t at, const char *what, uint32_t *block_size,
                    ff_error *err);

/*
 * Decodes one raw LZ4 block src[0..n) into dst, which holds size + 1 bytes
 * (the spare byte tells "longer than announced" from a clean decode).
 * Errors (FF_E_FORMAT, at `at` + where liblz4 stopped in `name`): corrupt
 * or truncated data, output longer or shorter than size.
 */
int lz4f_block(const uint8_t *src, size_t n, uint8_t *dst, uint32_t size, const char *name,
               int64_t at, const char *what, ff_error *err);

/*
 * A whole compression-2 entry held in memory (its first byte the length
 * word), either framing: for tests and fuzzing, with the checks of
 * arc_read. *out (caller frees) gets exactly fi_size bytes; *framing says
 * which framing it had.
 */
int lz4f_decode_entry(const uint8_t *entry, size_t n, uint32_t fi_size, const char *name,
                      uint8_t **out, arc_framing *framing, ff_error *err);

#endif
