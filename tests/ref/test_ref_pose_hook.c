/*
 * tests/ref/test_ref_pose_hook.c: the posed skeleton inside the reference
 * engine (ref_anim.pose): BuildBoneMatrices after every Battle_ReadAnimation
 * call that decoded a frame, none on the end call, none without options,
 * and the SLOW+FAST over-read whose garbage scales wrap in 32 bits. Streams
 * are packed by hand (tests/ref/tb.h); every matrix is worked out in the
 * comments.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "common/le.h"
#include "ref/engine.h"
#include "ref/pose.h"
#include "tests/ref/tb.h"

static void check_bone(tb_fix *fx, unsigned b, const int16_t m[3][3], int32_t x, int32_t y,
                       int32_t z, const char *what)
{
    ref_matrix got;
    ref_pose_bone_load(fx->skel, b, &got);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            cr_assert_eq(got.m[i][j], m[i][j], "%s: bone %u m[%d][%d] = %d, want %d", what, b, i, j,
                         got.m[i][j], m[i][j]);
    cr_assert(got.t[0] == x && got.t[1] == y && got.t[2] == z,
              "%s: bone %u t (%d, %d, %d), want (%d, %d, %d)", what, b, got.t[0], got.t[1],
              got.t[2], x, y, z);
}

static uint8_t *runtime(tb_fix *fx, unsigned b)
{
    return fx->skel + 16 + 48 * b + 0x10;
}

/*
 * tb_skel(2 bones): parents -1, 0; sizes 100, 101; model scale 0x1234 = 4660; scales 1.0.
 * Frame 0: root x += 3; bone 1 rot z += 1024. Frame 1: bone 1 rot z += 1024.
 */
static void two_frames(tb_fix *fx, uint8_t *skel)
{
    static tb_bits c;
    size_t len = tb_skel(skel, 2, 0);
    tb_bits_init(&c);
    tb_put(&c, 2, 8);
    for (int f = 0; f < 2; f++) {
        tb_pos(&c, 0, f == 0 ? 3 : 0);
        tb_pos(&c, 0, 0);
        tb_pos(&c, 0, 0);
        tb_put(&c, 0, 1);
        for (int k = 0; k < 5; k++)
            tb_rot(&c, -1, 0);
        tb_rot(&c, 3, 1024);
    }
    tb_bits *clips[1] = {&c};
    tb_load(fx, skel, len, clips, 1, NULL, 0);
}

static const int16_t ID[3][3] = {{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}};

Test(pose_hook, matrices_after_each_decoding_call_and_none_on_the_end_call)
{
    uint8_t skel[TB_SKEL_MAX];
    tb_fix fx;
    two_frames(&fx, skel);
    ref_pose_opts o;
    ff_error perr;
    /* the expected matrices are worked out under the older reading (no model scale) */
    cr_assert_eq(ref_pose_opts_parse("root=none,scale=pre", &o, &perr), 0);
    fx.a.pose = &o;
    /* tick 0: root (3,0,0): t0 = 3 x 4660 >> 8 = 13980 >> 8 = 54; bone 0 m = I.
     * bone 1: m = I.Rz(1024) = [[0,-1,0],[1,0,0],[0,0,1]]; t1 = t0 + (0,0,100). */
    static const int16_t rz1024[3][3] = {{0, -4096, 0}, {4096, 0, 0}, {0, 0, 4096}};
    cr_assert_eq(tb_start(&fx, 0), 0);
    check_bone(&fx, 0, ID, 54, 0, 0, "tick 0");
    check_bone(&fx, 1, rz1024, 54, 0, 100, "tick 0");
    /* tick 1: bone 1 rot z 2048: Rz(2048) = [[-1,0,0],[0,-1,0],[0,0,1]] (sin 5e-13 -> 0) */
    static const int16_t rz2048[3][3] = {{-4096, 0, 0}, {0, -4096, 0}, {0, 0, 4096}};
    cr_assert_eq(tb_tick(&fx), 0);
    check_bone(&fx, 0, ID, 54, 0, 0, "tick 1");
    check_bone(&fx, 1, rz2048, 54, 0, 100, "tick 1");
    /* tick 2: the end call returns 1 and rebuilds nothing */
    uint8_t want[TB_SKEL_MAX];
    for (unsigned b = 0; b < 2; b++)
        memset(runtime(&fx, b), 0x77, 32);
    memcpy(want, fx.skel, sizeof want);
    cr_assert_eq(tb_tick(&fx), 1);
    ts_assert_mem(fx.skel, want, 16 + 48 * 2, "skeleton after the end call");
    tb_fix_free(&fx);
}

Test(pose_hook, no_options_no_rebuild)
{
    uint8_t skel[TB_SKEL_MAX], loaded[TB_SKEL_MAX];
    tb_fix fx;
    two_frames(&fx, skel);
    cr_assert_null(fx.a.pose, "ref_anim_init leaves the pose off");
    cr_assert_null(fx.a.pose_near);
    memcpy(loaded, fx.skel, sizeof loaded);
    for (int t = 0; t < 3; t++) {
        int ret = t == 0 ? tb_start(&fx, 0) : tb_tick(&fx);
        cr_assert_eq(ret, t == 2);
        for (unsigned b = 0; b < 2; b++)
            ts_assert_mem(runtime(&fx, b), loaded + 16 + 48 * b + 0x10, 32,
                          "runtime area without pose options");
    }
    tb_fix_free(&fx);
}

Test(pose_hook, near_masks_per_rebuild_and_invalid_options_refused)
{
    uint8_t skel[TB_SKEL_MAX];
    tb_fix fx;
    two_frames(&fx, skel);
    ref_pose_opts o;
    ff_error err;
    cr_assert_eq(ref_pose_opts_parse("trig=x87-floor,root=none,scale=pre", &o, &err), 0);
    uint16_t near[2] = {0xFFFF, 0xFFFF};
    fx.a.pose = &o;
    fx.a.pose_near = near;
    /* tick 0: Rz(1024) on bone 1: cos(1024) = 2.5e-13 floors to 0, flagged: cells
     * (0,0), (1,1); sin is exactly 4096. tick 1: Rz(2048): sin 5e-13, flagged: (0,1),
     * (1,0); cos exactly -4096. The translation uses bone 0 only: no flag. */
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(near[0], 0);
    cr_assert_eq(near[1], REF_POSE_NEAR_CELL(0, 0) | REF_POSE_NEAR_CELL(1, 1), "0x%x", near[1]);
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(near[1], REF_POSE_NEAR_CELL(0, 1) | REF_POSE_NEAR_CELL(1, 0), "0x%x", near[1]);
    tb_fix_free(&fx);

    two_frames(&fx, skel);
    o.step = (ref_pose_step)2;
    fx.a.pose = &o;
    int ret = -7;
    ff_error_clear(&err);
    cr_assert_eq(ref_start_clip(&fx.a, 0, &ret, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    cr_assert(strstr(err.reason, "invalid pose options"), "%s", err.reason);
    tb_fix_free(&fx);
}

/* A 60-bit frame in the bytes after the clip: mode 1, every bone's scales
 * (32767, 1.0, 1.0): payload 0x7BFF + 1024 = 0x7FFF. */
static void garbage_frame(tb_bits *t)
{
    for (int k = 0; k < 3; k++)
        tb_pos(t, 0, 0);
    tb_put(t, 1, 1);
    for (int b = 0; b < 2; b++) {
        for (int k = 0; k < 3; k++)
            tb_rot(t, -1, 0);
        tb_scale_payload(t, 0x7BFF);
        tb_scale_absent(t);
        tb_scale_absent(t);
    }
    tb_put(t, 0, 20); /* room for the 3-byte loads */
}

/*
 * SLOW+FAST, 2 frames (total 3). Frame 0 (36 bits): root 0, mode 0, bone 1 rot z
 * += 512 (type 3). Frame 1 (28 bits: two 8-bit roots keep the clip at 64 bits):
 * nothing. tick 0 decodes both (frame 1 halved), saves the cursor at clip byte 9;
 * tick 1 decodes the next frame out of the bytes after the clip: mode 1, scales
 * (32767, 1024, 1024) on both bones.
 */
Test(pose_hook, slow_fast_over_read_garbage_scales_wrap)
{
    static tb_bits c, t;
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 2, 0);
    tb_bits_init(&c);
    tb_put(&c, 2, 8);
    for (int k = 0; k < 3; k++)
        tb_pos(&c, 0, 0);
    tb_put(&c, 0, 1);
    for (int k = 0; k < 5; k++)
        tb_rot(&c, -1, 0);
    tb_rot(&c, 3, 512);
    tb_pos(&c, 1, 0);
    tb_pos(&c, 1, 0);
    tb_pos(&c, 0, 0);
    tb_put(&c, 0, 1);
    for (int k = 0; k < 6; k++)
        tb_rot(&c, -1, 0);
    cr_assert_eq(c.bits, 8 + 64);
    tb_bits_init(&t);
    garbage_frame(&t);
    tb_bits *clips[1] = {&c};
    tb_fix fx;
    tb_load(&fx, skel, len, clips, 1, t.buf, tb_bytes(&t));
    fx.a.cmd.flags = REF_CMD_SLOW | REF_CMD_FAST;
    ref_pose_opts o;
    ff_error perr;
    /* the expected matrices are worked out under the older reading (no model scale) */
    cr_assert_eq(ref_pose_opts_parse("root=none,scale=pre", &o, &perr), 0);
    fx.a.pose = &o;

    /* tick 0: flag 0. bone 0 I, t 0 (root zeroed); bone 1 Rz(512), t (0,0,100). */
    static const int16_t rz512[3][3] = {{2896, -2896, 0}, {2896, 2896, 0}, {0, 0, 4096}};
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(fx.a.cmd.off, 9);
    cr_assert_eq(fx.skel[1] & 1, 0);
    check_bone(&fx, 0, ID, 0, 0, 0, "tick 0");
    check_bone(&fx, 1, rz512, 0, 0, 100, "tick 0");

    /* tick 1: the over-read. v0.x = 32767 << 2 = 131068: m0 = diag(131068 -> s16 -4,
     * 4096, 4096). v1.x = 32767 x 131068 wraps to -262140, >> 10 = -256; column 0 of
     * Rz(512) x -256 >> 12 = -181; m0.local row0 = -4/4096 x (-181, -2896, 0) = (0, 3, 0).
     * t1 = m0.(0,0,100) >> 12 = (0,0,100). */
    cr_assert_eq(tb_tick(&fx), 0);
    cr_assert_eq(fx.skel[1] & 1, 1);
    for (unsigned b = 0; b < 2; b++) {
        cr_assert_eq(tb_get_scale(&fx, b, 0), 32767);
        cr_assert_eq(tb_get_scale(&fx, b, 1), 1024);
    }
    static const int16_t m0[3][3] = {{-4, 0, 0}, {0, 4096, 0}, {0, 0, 4096}};
    static const int16_t m1[3][3] = {{0, 3, 0}, {-181, 2896, 0}, {0, 0, 4096}};
    check_bone(&fx, 0, m0, 0, 0, 0, "tick 1");
    check_bone(&fx, 1, m1, 0, 0, 100, "tick 1");
    cr_assert_eq(tb_tick(&fx), 1);
    tb_fix_free(&fx);
}

/*
 * 81 bones on the scale path (one frame, mode bit 1, no rotation, scales
 * absent): BuildBoneMatrices' two 80-slot stack arrays would be overrun.
 * Under scale=stack the engine's decoding call fails with a reason naming
 * it; under scale=pre (no arrays) the same clip poses.
 */
Test(pose_hook, a_skeleton_past_80_bones_on_the_stack_path_is_refused)
{
    enum { N = REF_POSE_STACK_SLOTS + 1 };
    static uint8_t skel[TB_SKEL_MAX];
    static tb_bits c;
    static const char *const texts[2] = {"scale=stack", "scale=pre"};
    for (int t = 0; t < 2; t++) {
        tb_fix fx;
        size_t len = tb_skel(skel, N, 0);
        tb_bits_init(&c);
        tb_put(&c, 1, 8);
        for (int k = 0; k < 3; k++)
            tb_pos(&c, 0, 0);
        tb_put(&c, 1, 1); /* mode bit: the scale path */
        for (int b = 0; b < N; b++) {
            for (int k = 0; k < 3; k++)
                tb_rot(&c, -1, 0);
            for (int k = 0; k < 3; k++)
                tb_scale_absent(&c);
        }
        tb_bits *clips[1] = {&c};
        tb_load(&fx, skel, len, clips, 1, NULL, 0);
        ref_pose_opts o;
        ff_error err;
        cr_assert_eq(ref_pose_opts_parse(texts[t], &o, &err), 0);
        fx.a.pose = &o;
        int ret = -7;
        ff_error_clear(&err);
        int rc = ref_start_clip(&fx.a, 0, &ret, &err);
        if (t == 0) {
            cr_assert_eq(rc, -1, "stack: the overrun is refused");
            cr_assert_eq(err.kind, FF_E_UNSUPPORTED);
            cr_assert(strstr(err.reason, "81 bones") && strstr(err.reason, "80-slot"), "%s",
                      err.reason);
        } else {
            cr_assert_eq(rc, 0, "pre: %s", err.reason);
        }
        tb_fix_free(&fx);
    }
}
