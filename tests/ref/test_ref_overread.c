/*
 * tests/ref/test_ref_overread.c: where the stream is read from (docs/engine.md
 * sections 3 and 4): SLOW+FAST reading past a clip's stream into the bytes
 * that follow it in the file, the error when that read passes the end of
 * the file, and the cursor offset kept as an s16 from the clip start.
 * Expected values are worked out in the comments.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ref/encode.h"
#include "ref/engine.h"
#include "tests/ref/tb.h"

/* One 24-bit frame: root (3 x type 0), mode 0, rot x type 0, y and z absent. */
static void frame24(tb_bits *b, int x, int y, int z, int rx)
{
    tb_pos(b, 0, x);
    tb_pos(b, 0, y);
    tb_pos(b, 0, z);
    tb_put(b, 0, 1);
    tb_rot(b, 0, rx);
    tb_rot(b, -1, 0);
    tb_rot(b, -1, 0);
}

/* SLOW+FAST clip of 2 frames (frame byte + 6 bytes), followed by tail. */
static void slow_fast_load(tb_fix *fx, uint8_t *skel, const uint8_t *tail, size_t tail_len)
{
    static tb_bits c;
    size_t len = tb_skel(skel, 1, 0);
    tb_bits_init(&c);
    tb_put(&c, 2, 8);
    frame24(&c, 1, 2, 3, 3);
    frame24(&c, -4, 2, -3, -3);
    cr_assert_eq(c.bits, 56);
    tb_bits *clips[1] = {&c};
    tb_load(fx, skel, len, clips, 1, tail, tail_len);
    fx->a.cmd.flags = REF_CMD_SLOW | REF_CMD_FAST;
}

Test(overread, slow_fast_reads_past_the_clip_into_following_bytes)
{
    /* The bytes after the clip hold a frame: root 2, -2, 3; rot x -4, then filler. */
    tb_bits t;
    tb_bits_init(&t);
    frame24(&t, 2, -2, 3, -4);
    tb_put(&t, 0xFFFF, 16);
    uint8_t skel[TB_SKEL_MAX];
    tb_fix fx;
    slow_fast_load(&fx, skel, t.buf, tb_bytes(&t));
    /* total = 3. tick 0: frame 0 full (1,2,3 / 3), frame 1 halved (-2,1,-1 / -1):
     * root (-1,3,2), rot 2; half-step was 0: cursor saved after 48 bits (byte 7,
     * bit 0), flags 3|4 = 7 */
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(tb_get_root(&fx, 0), -1);
    cr_assert_eq(tb_get_root(&fx, 1), 3);
    cr_assert_eq(tb_get_root(&fx, 2), 2);
    cr_assert_eq(tb_get_rot(&fx, 0, 0), 2);
    tb_check_cmd(&fx.a.cmd, 0, 0x07, 7, 0, 2, 3, "slow+fast tick 0");
    /* tick 1: frame 2 read at clip byte 7, past the clip's stream, in the
     * following section: halved (1,-1,1 / -2): root (0,2,3), rot 0; frame 3 stops;
     * half-step was 1: cursor kept; flags 3 */
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(tb_get_root(&fx, 0), 0);
    cr_assert_eq(tb_get_root(&fx, 1), 2);
    cr_assert_eq(tb_get_root(&fx, 2), 3);
    cr_assert_eq(tb_get_rot(&fx, 0, 0), 0);
    tb_check_cmd(&fx.a.cmd, 0, 0x03, 7, 0, 3, 3, "slow+fast tick 1");
    cr_assert_eq(tb_tick(&fx), 1);
    tb_fix_free(&fx);
}

Test(overread, slow_fast_over_read_past_end_of_file_is_an_error)
{
    uint8_t skel[TB_SKEL_MAX];
    tb_fix fx;
    slow_fast_load(&fx, skel, NULL, 0);
    size_t clip = fx.dat.anim_off + 8; /* count + one offset */
    cr_assert_eq(clip + 7, fx.size, "the clip ends the file");
    cr_assert_eq(tb_start(&fx, 0), 0);
    int ret = -7;
    ff_error err;
    ff_error_clear(&err);
    cr_assert_eq(ref_read_animation(&fx.a, &ret, &err), -1);
    cr_assert_eq(err.kind, FF_E_TRUNCATED);
    cr_assert_str_eq(err.file, "t.dat");
    cr_assert_eq(err.offset, (int64_t)fx.size);
    cr_assert(strstr(err.reason, "clip 0, tick 1, value at clip byte 7 bit 0"), "reason: %s",
              err.reason);
    cr_assert(strstr(err.reason, "stream bit offset 48"), "reason: %s", err.reason);
    tb_fix_free(&fx);

    /* Only 2 bytes follow: the root (15 bits) and mode bit fit, the rotation
     * presence bit (clip byte 9, bit 0) does not. */
    tb_bits t;
    tb_bits_init(&t);
    frame24(&t, 2, -2, 3, -4);
    slow_fast_load(&fx, skel, t.buf, 2);
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(ref_read_animation(&fx.a, &ret, &err), -1);
    cr_assert_eq(err.kind, FF_E_TRUNCATED);
    cr_assert_eq(err.offset, (int64_t)fx.size);
    cr_assert(strstr(err.reason, "clip 0, tick 1, value at clip byte 9 bit 0"), "reason: %s",
              err.reason);
    cr_assert(strstr(err.reason, "reading 1 bit at byte"), "reason: %s", err.reason);
    char msg[700];
    ff_error_format(&err, msg, sizeof msg);
    cr_assert(strstr(msg, "t.dat: "), "formatted: %s", msg);
    tb_fix_free(&fx);
}

Test(overread, cursor_offset_is_stored_as_s16)
{
    /* 255 bones, every frame: root 0 (3 x 5 bits), mode 1, per bone rotations
     * -2048 (3 x 15 bits) and scales -32768 (3 x 17 bits):
     * 16 + 255 * 96 = 24496 bits = 3062 bytes a frame. After 11 frames the
     * cursor is at clip byte 1 + 11 * 3062 = 33683, stored as s16: -31853. */
    enum { FRAMES = 12, BONES = 255 };
    static int16_t rotv[BONES * 3], scalev[BONES * 3];
    for (int j = 0; j < BONES * 3; j++) {
        rotv[j] = -2048;
        scalev[j] = -32768;
    }
    enc_frame f[FRAMES];
    for (int i = 0; i < FRAMES; i++)
        f[i] = (enc_frame){{0, 0, 0}, 1, rotv, scalev};
    size_t cap = 1 + FRAMES * 3062;
    uint8_t *stream = malloc(cap);
    enc_writer w;
    enc_init(&w, stream, cap);
    ff_error err;
    TS_OK(enc_clip(&w, BONES, FRAMES, f, &err), &err);
    cr_assert_eq(w.bits, 8 + FRAMES * 24496);
    /* Clip 0: a frame byte then 32000 zero bytes, right before clip 1. Zeros
     * decode as a frame of zero deltas with mode 0. */
    size_t zlen = 32001;
    uint8_t *zeros = calloc(1, zlen);
    zeros[0] = 1;
    static uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, BONES, 0);
    tb_clip clips[2] = {{zeros, zlen}, {stream, enc_bytes(&w)}};
    tb_model m = {11, skel, len, clips, 2, NULL, 0};
    tb_fix *fx = malloc(sizeof *fx);
    tb_fix_load(fx, &m, "big.dat");
    cr_assert_eq(tb_start(fx, 1), 0);
    for (int t = 1; t < 11; t++)
        cr_assert_eq(tb_tick(fx), 0, "tick %d", t);
    cr_assert_eq(fx->a.cmd.off, -31853, "off %d", fx->a.cmd.off);
    cr_assert_eq(fx->a.cmd.bit, 0);
    cr_assert_eq(fx->skel[1], 0x01);
    /* rotations after 11 frames of -2048: -22528 */
    cr_assert_eq(tb_get_rot(fx, 254, 2), -22528);
    /* Tick 11 reads at clip start - 31853, inside clip 0's zeros (a wider
     * offset would read frame 11 of the stream, with mode 1): mode 0, nothing
     * moves, and the cursor goes on by 16 + 255 * 3 = 781 bits (97 bytes, 5). */
    cr_assert_eq(tb_tick(fx), 0);
    cr_assert_eq(fx->skel[1], 0x00, "frame 11 came from the zeros before the clip");
    cr_assert_eq(tb_get_rot(fx, 254, 2), -22528);
    cr_assert_eq(fx->a.cmd.off, -31853 + 97);
    cr_assert_eq(fx->a.cmd.bit, 5);
    cr_assert_eq(fx->a.cmd.frame, 12);
    tb_fix_free(fx);
    free(fx);
    free(zeros);
    free(stream);
}
