/*
 * tests/emu/test_emu_game.c: the game-level face (emu/engine/game.h) on the
 * stand-in: StartClip + Battle_ReadAnimation on a tiny hand-made clip in
 * normal and SLOW mode (values worked out by hand), the cursor extent, the
 * BuildBoneMatrices patch, leaf calls, faults of the faulty variant with the
 * file restored, and a routine missing from the profile.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "tests/emu/te.h"

static emu_game *open_game(emu_image *img, int keep, uint64_t budget)
{
    emu_game_opts o = {keep, budget, ts_engine()};
    emu_game *g;
    ff_error err;
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    return g;
}

static void load(emu_game *g, const te_file *f)
{
    ff_error err;
    TS_OK(emu_game_load_file(g, f->data, f->size, TE_SKEL_OFF, TE_GEOM_OFF, TE_ANIM_OFF, &err),
          &err);
}

static void expect_cmd(const emu_game *g, uint8_t flags, int off, int bit, int frame, int total,
                       const char *what)
{
    const uint8_t *cmd = emu_game_cmd(g);
    cr_expect_eq(cmd[1], flags, "%s: flags 0x%x", what, cmd[1]);
    cr_expect_eq(le_s16(cmd + 2), off, "%s: off %d", what, le_s16(cmd + 2));
    cr_expect_eq(le_s16(cmd + 4), bit, "%s: bit %d", what, le_s16(cmd + 4));
    cr_expect_eq(cmd[6], frame, "%s: frame %d", what, cmd[6]);
    cr_expect_eq(cmd[7], total, "%s: total %d", what, cmd[7]);
}

static void expect_pose(const emu_game *g, const int *want, const char *what)
{
    const uint8_t *sk = emu_game_skeleton(g);
    for (int k = 0; k < 3; k++) {
        cr_expect_eq(le_s16(sk + 8 + 2 * k), want[k], "%s: root[%d] %d", what, k,
                     le_s16(sk + 8 + 2 * k));
        cr_expect_eq(le_s16(sk + 20 + 2 * k), want[3 + k], "%s: bone0.rot[%d]", what, k);
        cr_expect_eq(le_s16(sk + 68 + 2 * k), want[6 + k], "%s: bone1.rot[%d]", what, k);
        cr_expect_eq(le_s16(sk + 26 + 2 * k), 1024, "%s: bone0.scale[%d]", what, k);
    }
}

static int matrices_zero(const emu_game *g)
{
    const uint8_t *sk = emu_game_skeleton(g);
    for (int b = 0; b < 2; b++)
        for (int k = 0x10; k < 0x30; k++)
            if (sk[16 + 48 * b + k]) return 0;
    return 1;
}

/* Clip 0 frames: F0 = (4,-3,0 | 10,0,-7 | 0,100,2), F1 = (5,-3,2 | -6,3,0 | 7,0,-1). */
static const int pose_f0[9] = {4, -3, 0, 10, 0, -7, 0, 100, 2};
static const int pose_f0f1[9] = {9, -6, 2, 4, 3, -7, 7, 100, 1};
/* SLOW: F1 halved toward zero (2,-1,1 | -3,1,0 | 3,0,0), applied twice. */
static const int pose_slow1[9] = {6, -4, 1, 7, 1, -7, 3, 100, 2};
static const int pose_slow2[9] = {8, -5, 2, 4, 2, -7, 6, 100, 2};

Test(game, normal_mode_by_hand)
{
    emu_image *img = te_standin_image("standin.exe");
    for (int keep = 0; keep < 2; keep++) {
        emu_game *g = open_game(img, keep, 0);
        te_file f;
        te_make_file(&f, 1, NULL);
        load(g, &f);
        uint32_t ret;
        emu_fault fault;
        TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
        cr_assert_eq(ret, 0u);
        /* StartClip zeroed the file's rotations (100,200,300...), then frame 0. */
        expect_cmd(g, 0x04, 8, 0, 1, 2, "tick 0");
        expect_pose(g, pose_f0, "tick 0");
        /* Clip at 136; cursor after frame 0 at 136 + 8, bit 0: 144 + 2. */
        cr_expect_eq(emu_game_cursor_extent(g), 146u);
        cr_expect_eq(matrices_zero(g), !keep, "keep_matrices %d", keep);
        TE_CALL(emu_game_read_animation(g, &ret, &fault), &fault);
        cr_assert_eq(ret, 0u);
        expect_cmd(g, 0x00, 14, 3, 2, 2, "tick 1");
        expect_pose(g, pose_f0f1, "tick 1");
        /* 1 + 107 bits: byte 150 bit 3, one past = 151, + 2. */
        cr_expect_eq(emu_game_cursor_extent(g), 153u);
        TE_CALL(emu_game_read_animation(g, &ret, &fault), &fault);
        cr_assert_eq(ret, 1u, "the clip is over");
        expect_cmd(g, 0x00, 14, 3, 2, 2, "tick 2");
        expect_pose(g, pose_f0f1, "tick 2");
        /* Restart from the file's bytes. */
        emu_game_reset_skeleton(g);
        cr_expect_eq(le_s16(emu_game_skeleton(g) + 20), 100);
        emu_game_close(g);
    }
    emu_image_free(img);
}

Test(game, slow_mode_by_hand)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img, 0, 0);
    te_file f;
    te_make_file(&f, 1, NULL);
    load(g, &f);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_start_clip(g, 0x01, 0, &ret, &fault), &fault);
    /* total = 2 * 2 - 1; frame 0 at full value, cursor saved, half bit on. */
    expect_cmd(g, 0x05, 8, 0, 1, 3, "tick 0");
    expect_pose(g, pose_f0, "tick 0");
    TE_CALL(emu_game_read_animation(g, &ret, &fault), &fault);
    /* Half step: frame 1 halved, cursor not saved. */
    expect_cmd(g, 0x01, 8, 0, 2, 3, "tick 1");
    expect_pose(g, pose_slow1, "tick 1");
    cr_expect_eq(emu_game_cursor_extent(g), 153u, "the unsaved read still counts");
    TE_CALL(emu_game_read_animation(g, &ret, &fault), &fault);
    /* Frame 1 read again, halved again; now saved. Odd deltas lost 1. */
    expect_cmd(g, 0x05, 14, 3, 3, 3, "tick 2");
    expect_pose(g, pose_slow2, "tick 2");
    TE_CALL(emu_game_read_animation(g, &ret, &fault), &fault);
    cr_assert_eq(ret, 1u);
    emu_game_close(g);
    emu_image_free(img);
}

Test(game, leaf_calls)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img, 0, 0);
    static const uint8_t buf[] = {0xB5, 0x3C, 0xF0, 0x0F};
    int16_t ax;
    int64_t pos;
    int32_t bit;
    emu_fault f;
    TE_CALL(emu_game_leaf(g, EMU_LEAF_BITREADER, buf, sizeof buf, 1, 4, 16, &ax, &pos, &bit, &f),
            &f);
    cr_expect_eq(ax, -253);
    cr_expect_eq(pos, 3);
    cr_expect_eq(bit, 4);
    static const uint8_t scale[] = {0xD1, 0xFF, 0x01};
    TE_CALL(emu_game_leaf(g, EMU_LEAF_SCALE, scale, sizeof scale, 0, 0, 0, &ax, &pos, &bit, &f),
            &f);
    cr_expect_eq(ax, 1000);
    cr_expect_eq(pos, 2);
    cr_expect_eq(bit, 1);
    /* A one-byte buffer: the 3-byte load reads the zeroed guard after it,
     * not what the longer buffer left. */
    static const uint8_t ones[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    TE_CALL(emu_game_leaf(g, EMU_LEAF_BITREADER, ones, 8, 0, 0, 16, &ax, &pos, &bit, &f), &f);
    cr_expect_eq(ax, -1);
    static const uint8_t one[1] = {0x01};
    TE_CALL(emu_game_leaf(g, EMU_LEAF_BITREADER, one, 1, 0, 0, 16, &ax, &pos, &bit, &f), &f);
    cr_expect_eq(ax, 1);
    cr_expect_eq(pos, 2);
    static const uint8_t pos_type1[] = {0xED};
    TE_CALL(emu_game_leaf(g, EMU_LEAF_POSITION, pos_type1, 1, 0, 0, 0, &ax, &pos, &bit, &f), &f);
    cr_expect_eq(ax, -5);
    static const uint8_t rot[] = {0xE5, 0x04};
    TE_CALL(emu_game_leaf(g, EMU_LEAF_ROTATION, rot, 2, 0, 0, 0, &ax, &pos, &bit, &f), &f);
    cr_expect_eq(ax, -100);
    cr_expect_eq(bit, 3);
    cr_expect_eq(
        emu_game_leaf(g, EMU_LEAF_BITREADER, buf, sizeof buf, 5, 0, 8, &ax, &pos, &bit, &f), -1,
        "a position past the buffer is refused");
    cr_expect_eq(f.kind, EMU_FAULT_EMU);
    emu_game_close(g);
    emu_image_free(img);
}

Test(game, faulty_variant_faults_and_the_file_is_restored)
{
    emu_image *img = te_standin_image("standin_faulty.exe");
    emu_game *g = open_game(img, 0, 100000);
    te_file f;
    static const uint8_t frames[3] = {2, 2, 2};
    te_make_file(&f, 3, frames);
    load(g, &f);
    uint32_t ret;
    emu_fault fault;
    cr_assert_eq(emu_game_start_clip(g, 0, 1, &ret, &fault), -1);
    cr_assert_eq(fault.kind, EMU_FAULT_BUDGET, "clip 1: %s", emu_fault_name(fault.kind));
    /* StartClip had zeroed the rotations before the loop: restored. */
    cr_expect_eq(le_s16(emu_game_skeleton(g) + 20), 100);
    cr_assert_eq(emu_game_start_clip(g, 0, 2, &ret, &fault), -1);
    cr_assert_eq(fault.kind, EMU_FAULT_READ_UNMAPPED, "clip 2: %s", emu_fault_name(fault.kind));
    cr_assert_eq(fault.addr, 0xDEAD0000u);
    cr_assert_eq(fault.routine, 0x509440u, "StartClip was the routine called");
    /*
     * EIP is the faulting instruction itself, not the start of its block
     * (the call is replayed with exact EIPs): the line marked '>' is the read
     * of 0xDEAD0000, at the address the fault gives.
     */
    const char *mark = strchr(fault.disasm, '>');
    cr_assert(mark, "no marked line:\n%s", fault.disasm);
    char want[32];
    snprintf(want, sizeof want, ">0x%x:", fault.eip);
    cr_assert(strncmp(mark, want, strlen(want)) == 0, "EIP 0x%x is not the marked line:\n%s",
              fault.eip, fault.disasm);
    char line[128];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(mark, "\n"), mark);
    cr_assert(strstr(line, "0xdead0000"), "the marked instruction does not read 0xDEAD0000:\n%s",
              fault.disasm);
    cr_expect_eq(le_s16(emu_game_skeleton(g) + 20), 100);
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
    expect_cmd(g, 0x04, 8, 0, 1, 2, "clip 0 after the faults");
    expect_pose(g, pose_f0, "clip 0 after the faults");
    emu_game_close(g);
    emu_image_free(img);
}

/* Register value by name ("ecx"), from a fault's registers; -1 when unknown. */
static int64_t reg_value(const emu_fault *f, const char *name, size_t len)
{
    static const char *const names[] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
    for (int i = 0; i < 8; i++)
        if (len == 3 && strncmp(name, names[i], 3) == 0) return f->regs[i];
    return -1;
}

/*
 * The effective address of the memory operand of a Capstone line
 * ("movzx ecx, byte ptr [edi + ecx]"), from the fault's registers: terms
 * reg, reg*N and 0x... joined by + or -. -1 when the line has no operand.
 */
static int64_t operand_address(const emu_fault *f, const char *line)
{
    const char *p = strchr(line, '[');
    if (!p) return -1;
    int64_t ea = 0;
    int sign = 1;
    for (p++; *p && *p != ']';) {
        if (*p == ' ') {
            p++;
            continue;
        }
        if (*p == '+' || *p == '-') {
            sign = *p++ == '-' ? -1 : 1;
            continue;
        }
        size_t n = strcspn(p, " ]*");
        int64_t v = p[0] == '0' ? (int64_t)strtoll(p, NULL, 0) : reg_value(f, p, n);
        if (v < 0) return -1;
        p += n;
        if (*p == '*') {
            p++;
            v *= strtol(p, NULL, 10);
            p += strcspn(p, " ]");
        }
        ea += sign * v;
    }
    return ea & 0xFFFFFFFF;
}

Test(game, memory_fault_names_the_faulting_instruction)
{
    /*
     * Clip 1's offset points 256 MiB past the animation section: StartClip
     * reads its frame count there, many instructions into its first block.
     * Unicorn alone would say EIP = the block's start; the replay with exact
     * EIPs must name the load itself, whose operand address, computed here
     * from the fault's registers, is the address that faulted.
     */
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img, 0, 100000);
    te_file f;
    static const uint8_t frames[2] = {2, 2};
    te_make_file(&f, 2, frames);
    uint8_t *slot = f.data + TE_ANIM_OFF + 4 + 4;
    slot[0] = 0, slot[1] = 0, slot[2] = 0, slot[3] = 0x10;
    load(g, &f);
    uint32_t ret;
    emu_fault fault;
    cr_assert_eq(emu_game_start_clip(g, 0, 1, &ret, &fault), -1);
    cr_assert_eq(fault.kind, EMU_FAULT_READ_UNMAPPED, "%s", emu_fault_name(fault.kind));
    const char *mark = strchr(fault.disasm, '>');
    cr_assert(mark, "no marked line:\n%s", fault.disasm);
    char line[128];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(mark, "\n"), mark);
    int64_t ea = operand_address(&fault, line);
    cr_assert_eq(ea, (int64_t)fault.addr, "EIP 0x%x: '%s' does not read 0x%x:\n%s", fault.eip, line,
                 fault.addr, fault.disasm);
    /* And the engine goes on: clip 0 plays. */
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
    emu_game_close(g);
    emu_image_free(img);
}

Test(game, missing_routine_and_bad_files)
{
    emu_profile p;
    te_standin_profile(&p);
    p.engine[PROFILE_R_BITREADER] = -1; /* as if the profile had no bitReader */
    emu_image *img;
    ff_error err;
    TS_OK(emu_image_load(te_standin_path("standin.exe"), &p, &img, NULL, 0, &err), &err);
    emu_game *g = open_game(img, 0, 0);
    static const uint8_t buf[4] = {0};
    int16_t ax;
    int64_t pos;
    int32_t bit;
    emu_fault f;
    cr_assert_eq(emu_game_leaf(g, EMU_LEAF_BITREADER, buf, 4, 0, 0, 3, &ax, &pos, &bit, &f), -1);
    cr_assert_eq(f.kind, EMU_FAULT_EMU);
    cr_assert(strstr(f.detail, "has no routine bitReader") != NULL, "%s", f.detail);
    uint32_t ret;
    cr_assert_eq(emu_game_read_animation(g, &ret, &f), -1, "no file loaded");
    cr_assert(strstr(f.detail, "no file") != NULL, "%s", f.detail);
    te_file tf;
    te_make_file(&tf, 1, NULL);
    cr_assert_eq(emu_game_load_file(g, tf.data, 0x4000001, 0, 112, 128, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    tf.data[0] = 200; /* 200 bones cannot fit */
    cr_assert_eq(emu_game_load_file(g, tf.data, tf.size, 0, 112, 128, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert(strstr(err.reason, "200 bones") != NULL, "%s", err.reason);
    emu_game_close(g);
    emu_image_free(img);
}

/*
 * A load replaces the file even when the new one is refused: the old pages
 * are unmapped and released first, nothing stays loaded, and the same area
 * takes the next file (it would overlap pages left mapped).
 */
Test(game, a_refused_file_leaves_no_file_loaded)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img, 0, 0);
    te_file tf;
    te_make_file(&tf, 1, NULL);
    load(g, &tf);
    uint32_t ret;
    emu_fault f;
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &f), &f);
    ff_error err;
    /* One byte more than the 64 MiB guest area. */
    cr_assert_eq(emu_game_load_file(g, tf.data, 0x4000001, TE_SKEL_OFF, TE_GEOM_OFF, TE_ANIM_OFF,
                                    &err),
                 -1);
    cr_assert_eq(err.kind, FF_E_RANGE, "%s", err.reason);
    cr_assert_null(emu_game_skeleton(g));
    cr_assert_eq(emu_game_start_clip(g, 0, 0, &ret, &f), -1, "the refused load left a file");
    cr_assert(strstr(f.detail, "no file loaded") != NULL, "%s", f.detail);
    for (int i = 0; i < 3; i++) {
        load(g, &tf);
        TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &f), &f);
    }
    emu_game_close(g);
    emu_image_free(img);
}
