/*
 * tests/ref/test_ref_engine.c: StartClip and Battle_ReadAnimation in the
 * four modes (docs/engine.md sections 4 and 5), on streams packed by hand with
 * explicit value types so every cursor position can be counted in bits.
 * Each expected value is worked out in the comment next to it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "common/le.h"
#include "ref/engine.h"
#include "tests/ref/tb.h"

Test(engine, start_clip_zeroes_root_and_rotations_keeps_scales_and_flag)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 2, 0xFE);
    static const int16_t r[3] = {100, -200, 300};
    static const int16_t rots[2][3] = {{10, 20, 30}, {40, 50, 60}};
    static const int16_t scales[2][3] = {{1000, 1100, 1200}, {900, 800, 700}};
    for (int k = 0; k < 3; k++) {
        le_put16(tb_root(skel, k), r[k]);
        for (unsigned b = 0; b < 2; b++) {
            le_put16(tb_rotp(skel, b, k), rots[b][k]);
            le_put16(tb_scalep(skel, b, k), scales[b][k]);
        }
    }
    tb_bits c0, c1;
    tb_bits_init(&c0);
    tb_put(&c0, 5, 8);
    tb_put(&c0, 0xFFFFFF, 24);
    tb_bits_init(&c1);
    tb_put(&c1, 4, 8);
    tb_idle_frame(&c1, 2); /* 15 + 1 + 6 = 22 bits */
    tb_bits *clips[2] = {&c0, &c1};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 2, NULL, 0);
    /* Junk in every cmd field: StartClip must set or mask all of it. */
    fx.a.cmd = (ref_animcmd){.clip = 9, .flags = 0xFC, .off = 77, .bit = 5, .frame = 9, .total = 3};
    cr_assert_eq(tb_start(&fx, 1), 0);
    uint8_t want[TB_SKEL_MAX];
    memcpy(want, skel, len);
    for (int k = 0; k < 3; k++) {
        le_put16(tb_root(want, k), 0);
        for (unsigned b = 0; b < 2; b++)
            le_put16(tb_rotp(want, b, k), 0);
    }
    ts_assert_mem(fx.skel, want, len, "skeleton after StartClip");
    /* flags 0xFC & 0xF3 = 0xF0, then half-step 0 -> 1: 0xF4.
     * cursor: byte 1 + 22 / 8 = 3, bit 22 % 8 = 6. */
    tb_check_cmd(&fx.a.cmd, 1, 0xF4, 3, 6, 1, 4, "StartClip");
    tb_fix_free(&fx);
}

Test(engine, mode_bit_replaces_only_bit0_and_absent_scale_is_1024)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 1, 0xFE);
    for (int k = 0; k < 3; k++)
        le_put16(tb_scalep(skel, 0, k), (int16_t)(500 + 100 * k));
    tb_bits c;
    tb_bits_init(&c);
    tb_put(&c, 3, 8);
    /* frame 0: mode 1; scales absent (1024), payload 0x64 (1124), payload 0xFC00 (0) */
    for (int k = 0; k < 3; k++)
        tb_pos(&c, 0, 0);
    tb_put(&c, 1, 1);
    for (int k = 0; k < 3; k++)
        tb_rot(&c, -1, 0);
    tb_scale_absent(&c);
    tb_scale_payload(&c, 0x0064);
    tb_scale_payload(&c, 0xFC00);
    /* frame 1: mode 0, nothing else */
    tb_idle_frame(&c, 1);
    /* frame 2: mode 1, scales 0x7C00 (-32768), absent, 0xFFFF (1023) */
    for (int k = 0; k < 3; k++)
        tb_pos(&c, 0, 0);
    tb_put(&c, 1, 1);
    for (int k = 0; k < 3; k++)
        tb_rot(&c, -1, 0);
    tb_scale_payload(&c, 0x7C00);
    tb_scale_absent(&c);
    tb_scale_payload(&c, 0xFFFF);
    tb_bits *clips[1] = {&c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 1, NULL, 0);
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(fx.skel[1], 0xFF, "0xFE with mode 1 gives 0xFF");
    cr_assert_eq(tb_get_scale(&fx, 0, 0), 1024, "absent scale");
    cr_assert_eq(tb_get_scale(&fx, 0, 1), 1124);
    cr_assert_eq(tb_get_scale(&fx, 0, 2), 0);
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(fx.skel[1], 0xFE, "mode 0 clears only bit 0");
    cr_assert_eq(tb_get_scale(&fx, 0, 0), 1024, "scales kept when mode 0");
    cr_assert_eq(tb_get_scale(&fx, 0, 1), 1124);
    cr_assert_eq(tb_get_scale(&fx, 0, 2), 0);
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(fx.skel[1], 0xFF);
    cr_assert_eq(tb_get_scale(&fx, 0, 0), -32768, "0x7C00 + 1024 wraps");
    cr_assert_eq(tb_get_scale(&fx, 0, 1), 1024);
    cr_assert_eq(tb_get_scale(&fx, 0, 2), 1023);
    tb_fix_free(&fx);

    /* flag byte 0x01, mode 0: 0x00; scales untouched. */
    len = tb_skel(skel, 1, 0x01);
    for (int k = 0; k < 3; k++)
        le_put16(tb_scalep(skel, 0, k), (int16_t)(500 + 100 * k));
    tb_bits_init(&c);
    tb_put(&c, 1, 8);
    tb_idle_frame(&c, 1);
    tb_load(&fx, skel, len, clips, 1, NULL, 0);
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(fx.skel[1], 0x00, "0x01 with mode 0 gives 0x00");
    for (int k = 0; k < 3; k++)
        cr_assert_eq(tb_get_scale(&fx, 0, k), 500 + 100 * k, "scale %d", k);
    tb_fix_free(&fx);
}

Test(engine, s16_wrap_of_root_and_rotation)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 1, 0);
    tb_bits c;
    tb_bits_init(&c);
    tb_put(&c, 17, 8);
    for (int f = 0; f < 17; f++) {
        if (f == 0) {
            tb_pos(&c, 3, 32767);
            tb_pos(&c, 3, -32768);
        } else if (f == 1) {
            tb_pos(&c, 0, 1);
            tb_pos(&c, 0, -1);
        } else {
            tb_pos(&c, 0, 0);
            tb_pos(&c, 0, 0);
        }
        tb_pos(&c, 0, 0);
        tb_put(&c, 0, 1);
        tb_rot(&c, 3, -2048);
        tb_rot(&c, 3, 2047);
        tb_rot(&c, -1, 0);
    }
    tb_bits *clips[1] = {&c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 1, NULL, 0);
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(tb_get_root(&fx, 0), 32767);
    cr_assert_eq(tb_get_root(&fx, 1), -32768);
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(tb_get_root(&fx, 0), -32768, "32767 + 1 wraps to -32768");
    cr_assert_eq(tb_get_root(&fx, 1), 32767, "-32768 - 1 wraps to 32767");
    for (int t = 2; t < 17; t++) {
        cr_assert_eq(tb_tick(&fx), 0, "tick %d", t);
        if (t < 15) {
            cr_assert_eq(tb_get_rot(&fx, 0, 0), -2048 * (t + 1), "tick %d", t);
            cr_assert_eq(tb_get_rot(&fx, 0, 1), 2047 * (t + 1), "tick %d", t);
        }
    }
    /* after 17 frames: -2048 * 17 = -34816 -> +65536 = 30720;
     * 2047 * 17 = 34799 -> -65536 = -30737 */
    cr_assert_eq(tb_get_rot(&fx, 0, 0), 30720);
    cr_assert_eq(tb_get_rot(&fx, 0, 1), -30737);
    cr_assert_eq(tb_get_root(&fx, 0), -32768);
    cr_assert_eq(tb_tick(&fx), 1);
    tb_fix_free(&fx);
}

Test(engine, slow_halves_delta_frames_toward_zero)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 1, 0);
    tb_bits c;
    tb_bits_init(&c);
    tb_put(&c, 2, 8);
    /* frame 0 (30 bits): root 10 (type 1, 8 bits), 0, 0; mode 0; rot x 6 (type 1, 9 bits) */
    tb_pos(&c, 1, 10);
    tb_pos(&c, 0, 0);
    tb_pos(&c, 0, 0);
    tb_put(&c, 0, 1);
    tb_rot(&c, 1, 6);
    tb_rot(&c, -1, 0);
    tb_rot(&c, -1, 0);
    cr_assert_eq(c.bits, 8 + 30);
    /* frame 1 (29 bits): root -3, 1, -1; mode 0; rot x 3, y -3 (type 0, 6 bits each) */
    tb_pos(&c, 0, -3);
    tb_pos(&c, 0, 1);
    tb_pos(&c, 0, -1);
    tb_put(&c, 0, 1);
    tb_rot(&c, 0, 3);
    tb_rot(&c, 0, -3);
    tb_rot(&c, -1, 0);
    cr_assert_eq(c.bits, 8 + 59);
    tb_bits *clips[1] = {&c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 1, NULL, 0);
    fx.a.cmd.flags = REF_CMD_SLOW;
    /* tick 0: frame 0 at full value; total = 2 * 2 - 1 = 3; cursor saved
     * after frame 0: byte 1 + 30 / 8 = 4, bit 6; half-step 0 -> 1: flags 5 */
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(tb_get_root(&fx, 0), 10);
    cr_assert_eq(tb_get_rot(&fx, 0, 0), 6);
    tb_check_cmd(&fx.a.cmd, 0, 0x05, 4, 6, 1, 3, "slow tick 0");
    /* tick 1: frame 1 halved: -3/2 = -1, 1/2 = 0, -1/2 = 0, 3/2 = 1, -3/2 = -1;
     * half-step was 1: cursor not saved; flags back to 1 */
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(tb_get_root(&fx, 0), 9);
    cr_assert_eq(tb_get_root(&fx, 1), 0);
    cr_assert_eq(tb_get_root(&fx, 2), 0);
    cr_assert_eq(tb_get_rot(&fx, 0, 0), 7);
    cr_assert_eq(tb_get_rot(&fx, 0, 1), -1);
    tb_check_cmd(&fx.a.cmd, 0, 0x01, 4, 6, 2, 3, "slow tick 1");
    /* tick 2: frame 1 again from the same cursor, halved again: -3 gave -2 in total;
     * cursor saved after frame 1: 59 bits -> byte 1 + 7 = 8, bit 3 */
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(tb_get_root(&fx, 0), 8);
    cr_assert_eq(tb_get_root(&fx, 1), 0);
    cr_assert_eq(tb_get_root(&fx, 2), 0);
    cr_assert_eq(tb_get_rot(&fx, 0, 0), 8);
    cr_assert_eq(tb_get_rot(&fx, 0, 1), -2);
    tb_check_cmd(&fx.a.cmd, 0, 0x05, 8, 3, 3, 3, "slow tick 2");
    /* tick 3: frame 3 >= total 3: returns 1, nothing changes */
    uint8_t before[TB_SKEL_MAX];
    memcpy(before, fx.skel, len);
    ref_animcmd cmd = fx.a.cmd;
    cr_assert_eq(tb_tick(&fx), 1);
    ts_assert_mem(fx.skel, before, len, "skeleton after the end (slow)");
    ts_assert_mem(&fx.a.cmd, &cmd, sizeof cmd, "cmd after the end (slow)");
    tb_fix_free(&fx);
}

/* Clip of n frames, frame 0 moving root x by 2, the others idle. */
static void slow_total_case(unsigned n, uint8_t flags, int want_total, int want_frame_after)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 1, 0);
    tb_bits c;
    tb_bits_init(&c);
    tb_put(&c, n & 0xFF, 8);
    for (unsigned f = 0; f < n; f++) {
        tb_pos(&c, 0, f == 0 ? 2 : 0);
        tb_pos(&c, 0, 0);
        tb_pos(&c, 0, 0);
        tb_put(&c, 0, 1);
        for (int k = 0; k < 3; k++)
            tb_rot(&c, -1, 0);
    }
    tb_bits *clips[1] = {&c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 1, NULL, 0);
    fx.a.cmd.flags = flags;
    cr_assert_eq(tb_start(&fx, 0), 0, "n=%u", n);
    cr_assert_eq(fx.a.cmd.total, want_total, "n=%u flags %u: total %d", n, flags, fx.a.cmd.total);
    cr_assert_eq(fx.a.cmd.frame, want_frame_after, "n=%u", n);
    cr_assert_eq(tb_get_root(&fx, 0), 2, "n=%u: frame 0 decoded", n);
    if (want_frame_after >= want_total) cr_assert_eq(tb_tick(&fx), 1, "n=%u: ended", n);
    tb_fix_free(&fx);
}

Test(engine, slow_total_is_2n_minus_1_wrapping)
{
    slow_total_case(129, REF_CMD_SLOW, 1, 1);   /* 257 & 0xFF = 1: one tick */
    slow_total_case(128, REF_CMD_SLOW, 255, 1); /* 255 */
    slow_total_case(1, REF_CMD_SLOW, 1, 1);     /* 1 */
    slow_total_case(129, 0, 129, 1);            /* normal mode: the frame byte */
}

Test(engine, fast_two_frames_per_call_stops_at_odd_end)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 1, 0);
    tb_bits c;
    tb_bits_init(&c);
    tb_put(&c, 3, 8);
    /* 3 frames of 19 bits: root x 1, 2, 3 (type 0), rest idle */
    for (int f = 0; f < 3; f++) {
        tb_pos(&c, 0, f + 1);
        tb_pos(&c, 0, 0);
        tb_pos(&c, 0, 0);
        tb_put(&c, 0, 1);
        for (int k = 0; k < 3; k++)
            tb_rot(&c, -1, 0);
    }
    cr_assert_eq(c.bits, 8 + 57);
    tb_bits *clips[1] = {&c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 1, NULL, 0);
    fx.a.cmd.flags = REF_CMD_FAST;
    /* tick 0: frames 0 and 1: root x 1 + 2 = 3; cursor at 38 bits: byte 5 bit 6; flags 2|4 */
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(tb_get_root(&fx, 0), 3);
    tb_check_cmd(&fx.a.cmd, 0, 0x06, 5, 6, 2, 3, "fast tick 0");
    /* tick 1: frame 2 only (frame 3 >= 3 stops): root x 6; 57 bits: byte 8 bit 1 */
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(tb_get_root(&fx, 0), 6);
    tb_check_cmd(&fx.a.cmd, 0, 0x02, 8, 1, 3, 3, "fast tick 1");
    uint8_t before[TB_SKEL_MAX];
    memcpy(before, fx.skel, len);
    ref_animcmd cmd = fx.a.cmd;
    cr_assert_eq(tb_tick(&fx), 1);
    ts_assert_mem(fx.skel, before, len, "skeleton after the end (fast)");
    ts_assert_mem(&fx.a.cmd, &cmd, sizeof cmd, "cmd after the end (fast)");
    tb_fix_free(&fx);
}

Test(engine, call_at_end_returns_1_and_changes_nothing)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 2, 0x80);
    tb_bits c;
    tb_bits_init(&c);
    tb_put(&c, 1, 8);
    tb_pos(&c, 2, 200);
    tb_pos(&c, 0, 1);
    tb_pos(&c, 0, -1);
    tb_put(&c, 1, 1);
    for (int b = 0; b < 2; b++) {
        tb_rot(&c, 2, -100);
        tb_rot(&c, -1, 0);
        tb_rot(&c, 0, 2);
        for (int k = 0; k < 3; k++)
            tb_scale_payload(&c, (uint16_t)(b * 3 + k));
    }
    tb_bits *clips[1] = {&c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 1, NULL, 0);
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(fx.a.cmd.frame, 1);
    cr_assert_eq(fx.a.cmd.total, 1);
    cr_assert_eq(tb_get_root(&fx, 0), 200);
    cr_assert_eq(tb_get_scale(&fx, 1, 2), 1024 + 5);
    cr_assert_eq(fx.skel[1], 0x81);
    uint8_t before[TB_SKEL_MAX];
    memcpy(before, fx.skel, len);
    ref_animcmd cmd = fx.a.cmd;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(tb_tick(&fx), 1, "call %d", i);
        ts_assert_mem(fx.skel, before, len, "skeleton at the end");
        ts_assert_mem(&fx.a.cmd, &cmd, sizeof cmd, "cmd at the end");
    }
    /* frame past total (unsigned compare): 200 >= 5 */
    fx.a.cmd.frame = 200;
    fx.a.cmd.total = 5;
    cmd = fx.a.cmd;
    cr_assert_eq(tb_tick(&fx), 1);
    ts_assert_mem(&fx.a.cmd, &cmd, sizeof cmd, "cmd with frame > total");
    tb_fix_free(&fx);
}

Test(engine, start_clip_refuses_missing_clips)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 1, 0);
    tb_bits c;
    tb_bits_init(&c);
    tb_put(&c, 1, 8);
    tb_idle_frame(&c, 1);
    tb_bits *clips[2] = {&c, &c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 2, NULL, 0);
    static const int16_t bad[] = {2, -1, 255, 256, 32767};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ref_animcmd before = fx.a.cmd;
        int ret = -7;
        ff_error err;
        cr_assert_eq(ref_start_clip(&fx.a, bad[i], &ret, &err), -1, "clip %d", bad[i]);
        cr_assert_eq(err.kind, FF_E_RANGE, "clip %d", bad[i]);
        ts_assert_mem(&fx.a.cmd, &before, sizeof before, "cmd after a refused clip");
    }
    cr_assert_eq(tb_start(&fx, 1), 0);
    tb_fix_free(&fx);
}

Test(engine, anim_init_checks)
{
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 3, 0x42);
    tb_bits c;
    tb_bits_init(&c);
    tb_put(&c, 1, 8);
    tb_idle_frame(&c, 3);
    tb_bits *clips[1] = {&c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 1, NULL, 0);
    cr_assert_eq(ref_skel_size(&fx.dat), 16 + 3 * 48);
    ts_assert_mem(fx.skel, skel, len, "skeleton as loaded");
    cr_assert_eq(fx.a.bones, 3);
    ref_anim a2;
    uint8_t small[16 + 3 * 48 - 1];
    ff_error err;
    cr_assert_eq(ref_anim_init(&a2, &fx.dat, small, sizeof small, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    /* reset copies the file's bytes back */
    cr_assert_eq(tb_start(&fx, 0), 0);
    fx.skel[20] ^= 0xFF;
    ref_anim_reset_skeleton(&fx.a);
    ts_assert_mem(fx.skel, skel, len, "skeleton after reset");
    /* a fresh cmd (total 0) ends at once */
    ref_anim a3;
    uint8_t buf[TB_SKEL_MAX];
    TS_OK(ref_anim_init(&a3, &fx.dat, buf, sizeof buf, &err), &err);
    int ret = -7;
    TS_OK(ref_read_animation(&a3, &ret, &err), &err);
    cr_assert_eq(ret, 1);
    tb_fix_free(&fx);
}
