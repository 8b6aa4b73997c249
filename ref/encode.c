/*
 * ref/encode.c: the bit writer and clip encoder, the inverse of the readers
 * in ref/readers.c. Used to build synthetic clips; values are written
 * LSB-first with the narrowest width of the engine's tables.
 *
 * Must not allocate, print or exit. Every writer call either writes all of
 * its bits or none of them (the writer is rolled back on failure).
 */
#include "ref/encode.h"

#include <string.h>

/* Same tables as the engine's (0xB8B9F0 and 0xB8B9F4), kept private here so
 * the encoder does not depend on the decoder. */
static const uint8_t position_widths[4] = {3, 6, 9, 16};
static const uint8_t rotation_widths[4] = {3, 6, 8, 12};

#define SCALE_ONE 1024

void enc_init(enc_writer *w, uint8_t *buf, size_t cap)
{
    w->buf = buf;
    w->cap = buf ? cap : 0;
    w->bits = 0;
    if (buf && cap) memset(buf, 0, cap);
}

size_t enc_bytes(const enc_writer *w)
{
    return (w->bits + 7) / 8;
}

/* Bits still free in the buffer. */
static size_t room(const enc_writer *w)
{
    size_t total = w->cap * 8;
    return total > w->bits ? total - w->bits : 0;
}

static int full(enc_writer *w, size_t need, ff_error *err)
{
    return ff_error_set(err, FF_E_RANGE, NULL, (int64_t)(w->bits / 8),
                        "bit writer full: %zu more bits needed at bit %zu of a %zu-byte buffer",
                        need, w->bits, w->cap);
}

/* Clears every bit from `bits` on and moves the writer back there. */
static void rollback(enc_writer *w, size_t bits)
{
    size_t end = enc_bytes(w);
    size_t byte = bits / 8;
    if (byte < end) {
        unsigned keep = (unsigned)(bits % 8);
        w->buf[byte] &= (uint8_t)((1u << keep) - 1u);
        if (byte + 1 < end) memset(w->buf + byte + 1, 0, end - byte - 1);
    }
    w->bits = bits;
}

/* Writes n bits without checks (caller checked room and n). */
static void put_bits(enc_writer *w, uint32_t value, int n)
{
    for (int i = 0; i < n; i++) {
        if ((value >> i) & 1u) w->buf[w->bits / 8] |= (uint8_t)(1u << (w->bits % 8));
        w->bits++;
    }
}

int enc_put(enc_writer *w, int32_t value, int n, ff_error *err)
{
    if (n < 1 || n > 16)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "bit count %d outside 1..16", n);
    if (room(w) < (size_t)n) return full(w, (size_t)n, err);
    put_bits(w, (uint32_t)value, n);
    return 0;
}

/* Narrowest of four signed widths holding v, or -1. */
static int narrowest(const uint8_t widths[4], int32_t v)
{
    for (int t = 0; t < 4; t++) {
        int32_t half = (int32_t)1 << (widths[t] - 1);
        if (v >= -half && v < half) return t;
    }
    return -1;
}

int enc_position_type(int32_t v)
{
    return narrowest(position_widths, v);
}

int enc_rotation_type(int32_t v)
{
    return narrowest(rotation_widths, v);
}

int enc_position(enc_writer *w, int16_t v, ff_error *err)
{
    int t = enc_position_type(v);
    int need = 2 + position_widths[t];
    if (room(w) < (size_t)need) return full(w, (size_t)need, err);
    put_bits(w, (uint32_t)t, 2);
    put_bits(w, (uint32_t)(int32_t)v, position_widths[t]);
    return 0;
}

int enc_rotation(enc_writer *w, int16_t v, ff_error *err)
{
    int t = enc_rotation_type(v);
    if (t < 0)
        return ff_error_set(err, FF_E_RANGE, NULL, -1,
                            "rotation delta %d outside -2048..2047 (12-bit widest type)", v);
    if (v == 0) {
        if (room(w) < 1) return full(w, 1, err);
        put_bits(w, 0, 1);
        return 0;
    }
    int need = 1 + 2 + rotation_widths[t];
    if (room(w) < (size_t)need) return full(w, (size_t)need, err);
    put_bits(w, 1, 1);
    put_bits(w, (uint32_t)t, 2);
    put_bits(w, (uint32_t)(int32_t)v, rotation_widths[t]);
    return 0;
}

int enc_scale(enc_writer *w, int16_t v, ff_error *err)
{
    if (v == SCALE_ONE) {
        if (room(w) < 1) return full(w, 1, err);
        put_bits(w, 0, 1);
        return 0;
    }
    if (room(w) < 17) return full(w, 17, err);
    put_bits(w, 1, 1);
    /* The reader adds 1024 with a 16-bit wrap, so store v - 1024 mod 2^16. */
    put_bits(w, ((uint32_t)(int32_t)v - SCALE_ONE) & 0xFFFFu, 16);
    return 0;
}

/* One frame: root x y z, mode bit, then per bone rotations (and scales). */
static int put_frame(enc_writer *w, unsigned bones, const enc_frame *f, unsigned index,
                     ff_error *err)
{
    int mode = f->mode ? 1 : 0;
    if (bones && !f->rot)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "frame %u has no rotation array", index);
    if (bones && mode && !f->scale)
        return ff_error_set(err, FF_E_USAGE, NULL, -1,
                            "frame %u sets the scale bit but has no scale array", index);
    for (int k = 0; k < 3; k++)
        if (enc_position(w, f->root[k], err) < 0) return -1;
    if (enc_put(w, mode, 1, err) < 0) return -1;
    for (unsigned b = 0; b < bones; b++) {
        for (int k = 0; k < 3; k++)
            if (enc_rotation(w, f->rot[3 * b + k], err) < 0) {
                ff_error_prefix(err, "frame %u bone %u axis %d", index, b, k);
                return -1;
            }
        if (!mode) continue;
        for (int k = 0; k < 3; k++)
            if (enc_scale(w, f->scale[3 * b + k], err) < 0) return -1;
    }
    return 0;
}

int enc_clip(enc_writer *w, unsigned bones, unsigned frames, const enc_frame *f, ff_error *err)
{
    if (frames < 1 || frames > 255)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "clip frame count %u outside 1..255",
                            frames);
    if (bones > 255)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "bone count %u above 255", bones);
    if (!f) return ff_error_set(err, FF_E_USAGE, NULL, -1, "no frames given");
    size_t start = w->bits;
    size_t padded = (w->bits + 7) / 8 * 8;
    if (w->cap * 8 < padded) return full(w, padded - w->bits, err);
    w->bits = padded;
    if (enc_put(w, (int32_t)frames, 8, err) < 0) goto fail;
    for (unsigned i = 0; i < frames; i++)
        if (put_frame(w, bones, &f[i], i, err) < 0) goto fail;
    return 0;
fail:
    rollback(w, start);
    return -1;
}
