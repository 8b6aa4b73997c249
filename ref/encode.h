/*
 * ref/encode.h: the writer side of the bit stream, used to build synthetic
 * clips. It produces exactly what the decoder of ref/engine.h reads:
 * per frame root deltas (ReadPositionType x3), the mode bit, then per bone
 * rotation deltas (ReadRotationType x3) and, when the mode bit is set,
 * absolute scales (ReadBoneScale x3). Each value takes the narrowest width
 * of the engine's tables that holds it.
 *
 * The caller owns the output buffer; nothing here allocates, prints or exits.
 */
#ifndef FF8_REF_ENCODE_H
#define FF8_REF_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

typedef struct enc_writer {
    uint8_t *buf; /* caller-owned, zeroed by enc_init */
    size_t cap;   /* bytes */
    size_t bits;  /* bits written so far */
} enc_writer;

void enc_init(enc_writer *w, uint8_t *buf, size_t cap);
/* Bytes used so far (bits rounded up). */
size_t enc_bytes(const enc_writer *w);
/* Appends the low n (1..16) bits of value LSB-first; -1 when full. */
int enc_put(enc_writer *w, int32_t value, int n, ff_error *err);

/*
 * Narrowest table index (0..3) whose width holds v as a signed value, or -1
 * when none does (position: 3/6/9/16 bits, rotation: 3/6/8/12 bits).
 */
int enc_position_type(int32_t v);
int enc_rotation_type(int32_t v);

/* Value writers, the inverse of ref_read_position/rotation/scale. */
int enc_position(enc_writer *w, int16_t v, ff_error *err);
int enc_rotation(enc_writer *w, int16_t v, ff_error *err); /* v in -2048..2047 */
int enc_scale(enc_writer *w, int16_t v, ff_error *err);    /* 1024 -> 1 bit */

/* One frame of a clip; rot and scale hold bones * 3 values each. */
typedef struct enc_frame {
    int16_t root[3];      /* root translation deltas */
    int mode;             /* the per-bone-scale bit */
    const int16_t *rot;   /* rotation deltas, x y z per bone */
    const int16_t *scale; /* absolute scales, read only when mode is set */
} enc_frame;

/*
 * Writes a whole clip: the frame-count byte, then every frame. Starts at a
 * byte boundary (pads the writer first). frames must be 1..255.
 */
int enc_clip(enc_writer *w, unsigned bones, unsigned frames, const enc_frame *f, ff_error *err);

#endif
