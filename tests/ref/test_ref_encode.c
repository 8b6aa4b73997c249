/*
 * tests/ref/test_ref_encode.c: the bit writer and clip encoder. Hand-worked
 * bytes for each writer, narrowest-width boundaries, and a seeded round trip
 * property: random clips encoded, then decoded by the reference in normal
 * and FAST modes, must give at every tick the sums of the test's own deltas
 * (wrapped to 16 bits) and its own last scales, and the exact bit length the
 * test predicts from the width tables.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "common/rng.h"
#include "ref/encode.h"
#include "ref/engine.h"
#include "tests/ref/tb.h"

Test(encode, put_is_lsb_first)
{
    uint8_t buf[4];
    enc_writer w;
    enc_init(&w, buf, sizeof buf);
    /* 5 (101) at bit 0, 1 at bit 3, 0xAB at bit 4: byte 0 = 0x05 | 0x08 | 0xB0 = 0xBD,
     * byte 1 = 0x0A */
    TS_OK(enc_put(&w, 5, 3, NULL), NULL);
    TS_OK(enc_put(&w, 1, 1, NULL), NULL);
    TS_OK(enc_put(&w, 0xAB, 8, NULL), NULL);
    cr_assert_eq(w.bits, 12);
    cr_assert_eq(enc_bytes(&w), 2);
    static const uint8_t want[4] = {0xBD, 0x0A, 0, 0};
    ts_assert_mem(buf, want, 4, "enc_put bytes");
    /* only the low n bits are written: -1 in 4 bits is 1111 at bits 12..15 */
    TS_OK(enc_put(&w, -1, 4, NULL), NULL);
    cr_assert_eq(buf[1], 0xFA);
    cr_assert_eq(buf[2], 0);
}

Test(encode, put_refuses_when_full_or_bad_width)
{
    uint8_t buf[1];
    enc_writer w;
    enc_init(&w, buf, 1);
    ff_error err;
    TS_OK(enc_put(&w, 0xFF, 8, &err), &err);
    cr_assert_eq(enc_put(&w, 1, 1, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert_eq(w.bits, 8);
    enc_init(&w, buf, 1);
    cr_assert_eq(buf[0], 0, "enc_init zeroes");
    cr_assert_eq(enc_put(&w, 1, 0, &err), -1);
    cr_assert_eq(enc_put(&w, 1, 17, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    cr_assert_eq(w.bits, 0);
    /* a 9-bit position value (11 bits) does not fit 8 free bits: nothing written */
    cr_assert_eq(enc_position(&w, 100, &err), -1);
    cr_assert_eq(w.bits, 0);
    cr_assert_eq(buf[0], 0);
}

typedef struct type_vec {
    int32_t v;
    int type;
} type_vec;

Test(encode, narrowest_position_type_at_each_boundary)
{
    /* widths 3, 6, 9, 16 hold -4..3, -32..31, -256..255, -32768..32767 */
    static const type_vec vec[] = {
        {0, 0},    {3, 0},     {4, 1},      {-4, 0},     {-5, 1},      {31, 1},
        {32, 2},   {-32, 1},   {-33, 2},    {255, 2},    {256, 3},     {-256, 2},
        {-257, 3}, {32767, 3}, {-32768, 3}, {32768, -1}, {-32769, -1},
    };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
        cr_assert_eq(enc_position_type(vec[i].v), vec[i].type, "vector %zu: %d", i, vec[i].v);
}

Test(encode, narrowest_rotation_type_at_each_boundary)
{
    /* widths 3, 6, 8, 12 hold -4..3, -32..31, -128..127, -2048..2047 */
    static const type_vec vec[] = {
        {0, 0},    {3, 0},    {4, 1},     {-4, 0},    {-5, 1},     {31, 1},
        {32, 2},   {-32, 1},  {-33, 2},   {127, 2},   {128, 3},    {-128, 2},
        {-129, 3}, {2047, 3}, {-2048, 3}, {2048, -1}, {-2049, -1},
    };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
        cr_assert_eq(enc_rotation_type(vec[i].v), vec[i].type, "vector %zu: %d", i, vec[i].v);
}

typedef struct bytes_vec {
    int which; /* 0 position, 1 rotation, 2 scale */
    int16_t v;
    size_t bits;
    uint8_t bytes[3];
} bytes_vec;

Test(encode, value_writers_by_hand)
{
    static const bytes_vec vec[] = {
        /* position -32768: type 11, then 0x8000: 3 | 0x8000 << 2 = 0x20003 */
        {0, -32768, 18, {0x03, 0x00, 0x02}},
        /* position -4: type 00, 100: 0x10 */
        {0, -4, 5, {0x10, 0, 0}},
        /* position 4: type 01, 000100: 1 | 4 << 2 = 0x11 */
        {0, 4, 8, {0x11, 0, 0}},
        /* rotation 0: one absent bit */
        {1, 0, 1, {0, 0, 0}},
        /* rotation -2048: 1, 11, 0x800: 1 | 3 << 1 | 0x800 << 3 = 0x4007 */
        {1, -2048, 15, {0x07, 0x40, 0}},
        /* rotation 3: 1, 00, 011: 1 | 3 << 3 = 0x19 */
        {1, 3, 6, {0x19, 0, 0}},
        /* scale 1024: one 0 bit */
        {2, 1024, 1, {0, 0, 0}},
        /* scale -32768: 1, 0x7C00: 1 | 0x7C00 << 1 = 0xF801 */
        {2, -32768, 17, {0x01, 0xF8, 0x00}},
        /* scale 0: 1, 0xFC00: 0x1F801 */
        {2, 0, 17, {0x01, 0xF8, 0x01}},
    };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        uint8_t buf[3];
        enc_writer w;
        enc_init(&w, buf, 3);
        ff_error err;
        int rc = vec[i].which == 0   ? enc_position(&w, vec[i].v, &err)
                 : vec[i].which == 1 ? enc_rotation(&w, vec[i].v, &err)
                                     : enc_scale(&w, vec[i].v, &err);
        cr_assert_eq(rc, 0, "vector %zu", i);
        cr_assert_eq(w.bits, vec[i].bits, "vector %zu: %zu bits", i, w.bits);
        char what[32];
        snprintf(what, sizeof what, "vector %zu", i);
        ts_assert_mem(buf, vec[i].bytes, 3, what);
    }
}

Test(encode, rotation_out_of_range_is_refused)
{
    uint8_t buf[4];
    enc_writer w;
    enc_init(&w, buf, 4);
    ff_error err;
    static const int16_t bad[] = {2048, -2049, 32767, -32768};
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(enc_rotation(&w, bad[i], &err), -1, "value %d", bad[i]);
        cr_assert_eq(err.kind, FF_E_RANGE);
        cr_assert_eq(w.bits, 0);
    }
}

Test(encode, clip_pads_then_writes_frame_byte_and_rolls_back)
{
    uint8_t buf[16];
    enc_writer w;
    enc_init(&w, buf, sizeof buf);
    TS_OK(enc_put(&w, 1, 3, NULL), NULL);
    int16_t rot[3] = {0, 0, 0};
    enc_frame f[2] = {{{1, 0, 0}, 0, rot, NULL}, {{0, 0, 0}, 0, rot, NULL}};
    ff_error err;
    TS_OK(enc_clip(&w, 1, 2, f, &err), &err);
    /* byte 0 = 0x01 (3 bits + padding), byte 1 = frame count 2, then frames of
     * 5 + 5 + 5 + 1 + 3 = 19 bits: frame 0 root x 1 is 00 001 -> bit 2 of byte 2 */
    cr_assert_eq(buf[0], 0x01);
    cr_assert_eq(buf[1], 2);
    cr_assert_eq(buf[2], 0x04);
    cr_assert_eq(w.bits, 16 + 38);
    /* a frame with a rotation out of range: nothing of that clip stays */
    size_t before = w.bits;
    uint8_t snap[16];
    memcpy(snap, buf, sizeof buf);
    int16_t badrot[3] = {5, 3000, 0};
    enc_frame g[2] = {{{3, 3, 3}, 0, rot, NULL}, {{0, 0, 0}, 0, badrot, NULL}};
    cr_assert_eq(enc_clip(&w, 1, 2, g, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert(strstr(err.reason, "frame 1 bone 0 axis 1"), "reason: %s", err.reason);
    cr_assert_eq(w.bits, before);
    ts_assert_mem(buf, snap, sizeof buf, "buffer after a refused clip");
    /* frame counts outside 1..255, missing arrays */
    cr_assert_eq(enc_clip(&w, 1, 0, f, &err), -1);
    cr_assert_eq(enc_clip(&w, 1, 256, f, &err), -1);
    enc_frame h[1] = {{{0, 0, 0}, 1, rot, NULL}};
    cr_assert_eq(enc_clip(&w, 1, 1, h, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    cr_assert_eq(w.bits, before);
}

/* ---- round trip property ---- */

static uint64_t next(uint64_t *s)
{
    rng r = {*s};
    uint64_t z = rng_next(&r);
    *s = r.s;
    return z;
}

static int32_t between(uint64_t *s, int32_t lo, int32_t hi)
{
    return lo + (int32_t)(next(s) % (uint64_t)(hi - lo + 1));
}

/* A delta from a random width class, extremes included. */
static int16_t delta(uint64_t *s, int rotation)
{
    static const int16_t pos_edges[] = {0,   3,   -4,   4,   -5,   31,    -32,   32,
                                        -33, 255, -256, 256, -257, 32767, -32768};
    static const int16_t rot_edges[] = {0,   3,   -4,   4,   -5,   31,   -32,  32,
                                        -33, 127, -128, 128, -129, 2047, -2048};
    int32_t top = rotation ? 2047 : 32767;
    switch (next(s) % 6) {
    case 0:
        return 0;
    case 1:
        return (int16_t)between(s, -4, 3);
    case 2:
        return (int16_t)between(s, -32, 31);
    case 3:
        return (int16_t)between(s, rotation ? -128 : -256, rotation ? 127 : 255);
    case 4:
        return (int16_t)between(s, -top - 1, top);
    default:
        return rotation ? rot_edges[next(s) % 15] : pos_edges[next(s) % 15];
    }
}

static int16_t scale_value(uint64_t *s)
{
    static const int16_t edges[] = {1024, -32768, 32767, 0, 1023, 1025, -31744};
    switch (next(s) % 3) {
    case 0:
        return 1024;
    case 1:
        return edges[next(s) % 7];
    default:
        return (int16_t)between(s, -32768, 32767);
    }
}

/* Bits the narrowest encoding takes, from the width tables of docs/engine.md. */
static size_t pos_bits(int v)
{
    return 2 + (v >= -4 && v <= 3 ? 3 : v >= -32 && v <= 31 ? 6 : v >= -256 && v <= 255 ? 9 : 16);
}

static size_t rot_bits(int v)
{
    if (v == 0) return 1;
    return 3 + (v >= -4 && v <= 3 ? 3 : v >= -32 && v <= 31 ? 6 : v >= -128 && v <= 127 ? 8 : 12);
}

static int16_t wrap16(int64_t v)
{
    int64_t m = ((v % 65536) + 65536) % 65536;
    return (int16_t)(m >= 32768 ? m - 65536 : m);
}

typedef struct clip_data {
    unsigned bones, frames;
    enc_frame *f;
    int16_t *rot;   /* frames * bones * 3 */
    int16_t *scale; /* frames * bones * 3 */
} clip_data;

/* Keeps streams under the s16 cursor offset's reach (docs/engine.md section 3:
 * AnimCmd +2 is an s16), as every real clip is. */
#define STREAM_BUDGET_BITS (8u * 32000u)

/* Random frames (at most `frames`, fewer when the budget is reached).
 * Returns the clip's bit length (frame byte included) that the narrowest
 * widths give. */
static size_t make_clip(clip_data *c, uint64_t *s, unsigned bones, unsigned frames)
{
    c->bones = bones;
    c->f = calloc(frames, sizeof *c->f);
    c->rot = calloc((size_t)frames * bones * 3, sizeof *c->rot);
    c->scale = calloc((size_t)frames * bones * 3, sizeof *c->scale);
    unsigned p_mode = (unsigned)(next(s) % 3); /* never, sometimes, always */
    size_t bits = 8;
    unsigned i;
    for (i = 0; i < frames; i++) {
        enc_frame *f = &c->f[i];
        f->rot = c->rot + (size_t)i * bones * 3;
        f->scale = c->scale + (size_t)i * bones * 3;
        f->mode = p_mode == 2 || (p_mode == 1 && next(s) % 2);
        size_t fb = 1;
        for (int k = 0; k < 3; k++) {
            f->root[k] = delta(s, 0);
            fb += pos_bits(f->root[k]);
        }
        for (unsigned j = 0; j < bones * 3; j++) {
            int16_t r = delta(s, 1), sc = scale_value(s);
            c->rot[(size_t)i * bones * 3 + j] = r;
            c->scale[(size_t)i * bones * 3 + j] = sc;
            fb += rot_bits(r);
            if (f->mode) fb += sc == 1024 ? 1 : 17;
        }
        if (i > 0 && bits + fb > STREAM_BUDGET_BITS) break;
        bits += fb;
    }
    c->frames = i;
    return bits;
}

static void free_clip(clip_data *c)
{
    free(c->f);
    free(c->rot);
    free(c->scale);
}

typedef struct expect {
    int64_t root[3];
    int64_t *rot;   /* bones * 3 running sums */
    int16_t *scale; /* bones * 3 */
    unsigned flag;
    unsigned applied; /* frames applied */
} expect;

static void expect_apply(expect *e, const clip_data *c)
{
    const enc_frame *f = &c->f[e->applied++];
    for (int k = 0; k < 3; k++)
        e->root[k] += f->root[k];
    e->flag = (e->flag & 0xFEu) | (f->mode ? 1u : 0u);
    for (unsigned j = 0; j < c->bones * 3; j++) {
        e->rot[j] += f->rot[j];
        if (f->mode) e->scale[j] = f->scale[j];
    }
}

static void expect_check(const expect *e, const tb_fix *fx, const clip_data *c, int ccase,
                         unsigned t)
{
    const uint8_t *sk = fx->skel;
    cr_assert_eq(fx->a.cmd.frame, e->applied, "case %d tick %u: frame", ccase, t);
    cr_assert_eq(sk[1], e->flag, "case %d tick %u: flag byte 0x%02x", ccase, t, sk[1]);
    for (int k = 0; k < 3; k++)
        cr_assert_eq(le_s16(sk + 8 + 2 * k), wrap16(e->root[k]), "case %d tick %u: root %d",
                     ccase, t, k);
    for (unsigned j = 0; j < c->bones * 3; j++) {
        const uint8_t *bone = sk + 16 + 48 * (j / 3);
        cr_assert_eq(le_s16(bone + 4 + 2 * (j % 3)), wrap16(e->rot[j]),
                     "case %d tick %u: bone %u rot %u", ccase, t, j / 3, j % 3);
        cr_assert_eq(le_s16(bone + 0xA + 2 * (j % 3)), e->scale[j],
                     "case %d tick %u: bone %u scale %u", ccase, t, j / 3, j % 3);
    }
}

static void round_trip(int ccase, unsigned bones, unsigned frames, int fast)
{
    uint64_t s = 0xF8D1FF00ull + (uint64_t)ccase;
    clip_data c;
    size_t want_bits = make_clip(&c, &s, bones, frames);
    frames = c.frames;
    size_t cap = want_bits / 8 + 16;
    uint8_t *buf = malloc(cap);
    enc_writer w;
    enc_init(&w, buf, cap);
    ff_error err;
    TS_OK(enc_clip(&w, bones, frames, c.f, &err), &err);
    cr_assert_eq(w.bits, want_bits, "case %d: %zu bits, narrowest gives %zu", ccase, w.bits,
                 want_bits);
    /* the skeleton starts from arbitrary values; clip 1 is the random one */
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, bones, (uint8_t)next(&s));
    expect e = {{0, 0, 0},
                calloc(bones * 3, sizeof(int64_t)),
                calloc(bones * 3, sizeof(int16_t)),
                skel[1],
                0};
    for (unsigned j = 0; j < bones * 3; j++) {
        uint8_t *bone = skel + 16 + 48 * (j / 3);
        le_put16(bone + 4 + 2 * (j % 3), (int16_t)next(&s)); /* zeroed by StartClip */
        e.scale[j] = (int16_t)next(&s);
        le_put16(bone + 0xA + 2 * (j % 3), e.scale[j]);
    }
    for (int k = 0; k < 3; k++)
        le_put16(skel + 8 + 2 * k, (int16_t)next(&s));
    static const uint8_t dummy[4] = {1, 0, 0, 0};
    tb_clip clips[2] = {{dummy, 4}, {buf, enc_bytes(&w)}};
    tb_model m = {11, skel, len, clips, 2, NULL, 0};
    tb_fix *fx = malloc(sizeof *fx);
    tb_fix_load(fx, &m, "roundtrip.dat");
    fx->a.cmd.flags = fast ? REF_CMD_FAST : 0;
    int ret = -7;
    TS_OK(ref_start_clip(&fx->a, 1, &ret, &err), &err);
    unsigned t = 0;
    while (ret == 0) {
        for (int p = 0; p < (fast ? 2 : 1) && e.applied < frames; p++)
            expect_apply(&e, &c);
        expect_check(&e, fx, &c, ccase, t);
        TS_OK(ref_read_animation(&fx->a, &ret, &err), &err);
        t++;
    }
    cr_assert_eq(e.applied, frames, "case %d: every frame decoded", ccase);
    cr_assert_eq(t, fast ? (frames + 1) / 2 : frames, "case %d: ticks", ccase);
    /* the cursor ends where the writer ended */
    cr_assert_eq(fx->a.cmd.off, (int16_t)(w.bits / 8), "case %d: cursor byte", ccase);
    cr_assert_eq(fx->a.cmd.bit, (int16_t)(w.bits % 8), "case %d: cursor bit", ccase);
    tb_fix_free(fx);
    free(fx);
    free(e.rot);
    free(e.scale);
    free(buf);
    free_clip(&c);
}

Test(encode, round_trip_extremes)
{
    round_trip(-1, 1, 1, 0);
    round_trip(-2, 80, 200, 0);
    round_trip(-3, 80, 200, 1);
    round_trip(-4, 1, 200, 1);
    round_trip(-5, 80, 1, 1);
}

Test(encode, round_trip_random_normal_and_fast)
{
    for (int i = 0; i < 60; i++) {
        uint64_t s = (uint64_t)i * 7919u;
        unsigned bones = 1 + (unsigned)(next(&s) % 80);
        unsigned frames = 1 + (unsigned)(next(&s) % 200);
        round_trip(i, bones, frames, i % 2);
    }
}
