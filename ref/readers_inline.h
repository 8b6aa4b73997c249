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

/*
 * The readers one bitReader call per field, each call recorded in log
 * (ref/readlog.c): what the decoder uses while a read log is attached.
 * depth is the bitReader record's depth (0 when the decoder calls it).
 */
struct ref_read_log;
int refl_bits(struct ref_read_log *log, ref_stream *s, ref_cursor *c, int n, int depth,
              int16_t *out, ff_error *err);
int refl_position(struct ref_read_log *log, ref_stream *s, ref_cursor *c, int16_t *out,
                  ff_error *err);
int refl_rotation(struct ref_read_log *log, ref_stream *s, ref_cursor *c, int16_t *out,
                  ff_error *err);
int refl_scale(struct ref_read_log *log, ref_stream *s, ref_cursor *c, int16_t *out,
               ff_error *err);

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
    int16_t type = 0; /* set by refi_bits; gcc -O3 cannot tell once inlined */
    if (refi_bits(s, c, 2, &type, err) < 0) return -1;
    if (refi_bits(s, c, widths[type & 3], out, err) < 0) {
        *c = start;
        return -1;
    }
    return 0;
}

/*
 * The value readers below first try a fused path: one 4-byte load covers
 * every bit a value can use (at most 1 + 2 + 16 bits after a 7-bit offset),
 * and the fields are cut from it exactly as the successive 3-byte loads of
 * the reader would cut them. It applies when 4 bytes lie inside the file;
 * otherwise the reads go one by one through refi_bits. stream->high is kept
 * as the one-by-one reads would leave it: 3 past the last read's byte.
 */
static inline int refi_fused_ok(const ref_stream *s, const ref_cursor *c, uint32_t *window)
{
    uint64_t pos = (uint64_t)c->pos;
    if (pos >= s->size || s->size - pos < 4 || (uint32_t)c->bit > 7) return 0;
    const uint8_t *p = s->data + pos;
    uint32_t load = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                    (uint32_t)p[3] << 24;
    *window = load >> c->bit;
    return 1;
}

/* Sign-extends the low n bits of raw. */
static inline int16_t refi_sext(uint32_t raw, int n)
{
    uint32_t sign = 1u << (n - 1);
    raw &= (1u << n) - 1u;
    return (int16_t)(int32_t)((raw ^ sign) - sign);
}

/* Advances c by n bits; notes the last read, which began `last` bits in. */
static inline void refi_advance(ref_stream *s, ref_cursor *c, int last, int n)
{
    uint64_t read_at = (uint64_t)c->pos + (uint64_t)((c->bit + last) >> 3);
    if (read_at + 3 > s->high) s->high = (size_t)(read_at + 3);
    int32_t bit = c->bit + n;
    c->pos += bit >> 3;
    c->bit = bit & 7;
}

static inline int refi_position(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    uint32_t v;
    if (!refi_fused_ok(s, c, &v)) return refi_typed(s, c, ref_position_widths, out, err);
    int w = ref_position_widths[v & 3];
    *out = refi_sext(v >> 2, w);
    refi_advance(s, c, 2, 2 + w);
    return 0;
}

static inline int refi_rotation(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    uint32_t v;
    if (refi_fused_ok(s, c, &v)) {
        if (!(v & 1)) {
            *out = 0;
            refi_advance(s, c, 0, 1);
            return 0;
        }
        int w = ref_rotation_widths[(v >> 1) & 3];
        *out = refi_sext(v >> 3, w);
        refi_advance(s, c, 3, 3 + w);
        return 0;
    }
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
    uint32_t v;
    int16_t present = 0, delta = 0; /* as type above */
    ref_cursor start = *c;
    if (refi_fused_ok(s, c, &v)) {
        present = (int16_t)(v & 1);
        delta = refi_sext(v >> 1, 16);
        refi_advance(s, c, present ? 1 : 0, present ? 17 : 1);
    } else {
        if (refi_bits(s, c, 1, &present, err) < 0) return -1;
        if (present && refi_bits(s, c, 16, &delta, err) < 0) {
            *c = start;
            return -1;
        }
    }
    /* Absent: 1.0; present: 16-bit wrap, so 0x7C00 + 0x400 is stored as -32768. */
    *out = present ? (int16_t)(uint16_t)((uint16_t)delta + REFI_SCALE_ONE) : REFI_SCALE_ONE;
    return 0;
}

#endif
