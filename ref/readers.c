/*
 * ref/readers.c: the engine's bit reader (0x5092A0) and the three value
 * readers built on it (0x509320 position, 0x509370 rotation, 0x5093F0
 * scale), docs/engine.md sections 2 and 3.
 *
 * The reader loads 3 bytes at the cursor like the original; bytes of that
 * load past the end of the file count as 0 (the emulated side sees a zeroed
 * guard page there), but a read whose value bits lie past the end of the
 * file is an error. Never reads host memory outside the stream, never
 * allocates, prints or exits.
 */
#include "ref/readers_inline.h"

const uint8_t ref_position_widths[4] = {3, 6, 9, 16};
const uint8_t ref_rotation_widths[4] = {3, 6, 8, 12};

int refi_bits_checked(ref_stream *s, ref_cursor *c, int n, int16_t *out, ff_error *err)
{
    if (n < 1 || n > 16)
        return ff_error_set(err, FF_E_USAGE, s->name, c->pos, "bit count %d outside 1..16", n);
    if (c->bit < 0 || c->bit > 7)
        return ff_error_set(err, FF_E_RANGE, s->name, c->pos, "cursor bit offset %d outside 0..7",
                            (int)c->bit);
    if (c->pos < 0)
        return ff_error_set(err, FF_E_RANGE, s->name, -1,
                            "cursor byte %lld is before the start of the file", (long long)c->pos);
    uint64_t pos = (uint64_t)c->pos;
    /* Byte holding the last bit used; pos first so nothing overflows. */
    if (pos >= s->size || pos + (uint64_t)(c->bit + n - 1) / 8 >= s->size)
        return ff_error_set(err, FF_E_TRUNCATED, s->name, c->pos,
                            "reading %d bit%s at byte 0x%llx bit %d passes the end of the file "
                            "(0x%zx bytes)",
                            n, n == 1 ? "" : "s", (unsigned long long)pos, (int)c->bit, s->size);
    uint32_t load = 0;
    for (unsigned k = 0; k < 3; k++)
        if (pos + k < s->size) load |= (uint32_t)s->data[pos + k] << (8 * k);
    uint32_t raw = (load >> c->bit) & ((1u << n) - 1u);
    int32_t value = (int32_t)raw;
    if (raw & (1u << (n - 1))) value -= (int32_t)(1u << n);
    *out = (int16_t)value; /* n <= 16: always in range */
    if (pos + 3 > s->high) s->high = (size_t)(pos + 3);
    int32_t bit = c->bit + n;
    c->pos += bit >> 3;
    c->bit = bit & 7;
    return 0;
}

int ref_bits_read(ref_stream *s, ref_cursor *c, int n, int16_t *out, ff_error *err)
{
    if (n < 1 || n > 16) return refi_bits_checked(s, c, n, out, err);
    return refi_bits(s, c, n, out, err);
}

int ref_read_position(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    return refi_position(s, c, out, err);
}

int ref_read_rotation(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    return refi_rotation(s, c, out, err);
}

int ref_read_scale(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    return refi_scale(s, c, out, err);
}

int ref_read_routine(ref_routine r, ref_stream *s, ref_cursor *c, int n, int16_t *out,
                     ff_error *err)
{
    switch (r) { /* no default: a row added to REF_ROUTINE_MAP without its case is a warning */
    case REF_R_BITREADER:
        return ref_bits_read(s, c, n, out, err);
    case REF_R_POSITION:
        return ref_read_position(s, c, out, err);
    case REF_R_ROTATION:
        return ref_read_rotation(s, c, out, err);
    case REF_R_SCALE:
        return ref_read_scale(s, c, out, err);
    case REF_R__COUNT:
        break;
    }
    return ff_error_set(err, FF_E_INTERNAL, s->name, -1, "no reading routine %d", (int)r);
}
