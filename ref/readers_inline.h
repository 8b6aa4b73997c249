/*
 * ref/readers_inline.h: the bit reader and the value readers as inline
 * functions, for the decoding hot path (ref/engine.c) and the public
 * wrappers (ref/readers.c). Internal to ref/: not part of its API.
 *
 * The fast path covers a cursor whose 3-byte load lies inside the file
 * (every read but the last few bytes of a file); anything else goes to
 * refi_bits_checked, which does every check and names errors.
 */
#ifndef FF8_REF_READERS_INLINE_H
#define FF8_REF_READERS_INLINE_H

#include "ref/engine.h"

#define REFI_SCALE_ONE 0x400

int refi_bits_checked(ref_stream *s, ref_cursor *c, int n, int16_t *out, ff_error *err);

/* n in 1..16 and c->bit in 0..7 are the caller's promise (true inside ref/). */
static inline int refi_bits(ref_stream *s, ref_cursor *c, int n, int16_t *out, ff_error *err)
{
    uint64_t pos = (uint64_t)c->pos; /* a negative position becomes huge: checked path */
    if (pos >= s->size || s->size - pos < 3 || (uint32_t)c->bit > 7)
        return refi_bits_checked(s, c, n, out, err);
    const uint8_t *p = s->data + pos;
    uint32_t load = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    uint32_t raw = (load >> c->bit) & ((1u << n) - 1u);
    uint32_t sign = 1u << (n - 1);
    *out = (int16_t)(int32_t)((raw ^ sign) - sign); /* sign-extend from n bits */
    if (pos + 3 > s->high) s->high = (size_t)(pos + 3);
    int32_t bit = c->bit + n;
    c->pos += bit >> 3;
    c->bit = bit & 7;
    return 0;
}

/* A 2-bit type (sign-extended by the reader, hence & 3), then the value. */
static inline int refi_typed(ref_stream *s, ref_cursor *c, const uint8_t widths[4],
                             int16_t *out, ff_error *err)
{
    ref_cursor start = *c;
    int16_t type;
    if (refi_bits(s, c, 2, &type, err) < 0) return -1;
    if (refi_bits(s, c, widths[type & 3], out, err) < 0) {
        *c = start;
        return -1;
    }
    return 0;
}

static inline int refi_position(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    return refi_typed(s, c, ref_position_widths, out, err);
}

static inline int refi_rotation(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    ref_cursor start = *c;
    int16_t present;
    if (refi_bits(s, c, 1, &present, err) < 0) return -1;
    if (present == 0) {
        *out = 0;
        return 0;
    }
    if (refi_typed(s, c, ref_rotation_widths, out, err) < 0) {
        *c = start;
        return -1;
    }
    return 0;
}

static inline int refi_scale(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    ref_cursor start = *c;
    int16_t present, delta;
    if (refi_bits(s, c, 1, &present, err) < 0) return -1;
    if (present == 0) {
        *out = REFI_SCALE_ONE;
        return 0;
    }
    if (refi_bits(s, c, 16, &delta, err) < 0) {
        *c = start;
        return -1;
    }
    /* 16-bit wrap: 0x7C00 + 0x400 is stored as -32768. */
    *out = (int16_t)(uint16_t)((uint16_t)delta + REFI_SCALE_ONE);
    return 0;
}

#endif
