/*
 * tests/mutants/mt_corpus.c: the mutants' corpora, described frame by
 * frame, and the first divergence each mutant must show on them, worked
 * out by hand (every (clip, mode) not listed must match).
 *
 * Conventions of the derivations (docs/engine.md sections 4 and 5):
 *  - tick 0 is StartClip's call, which decodes frame 0; every later tick
 *    is one Battle_ReadAnimation call. An n-frame clip has total = n, or
 *    2n-1 under SLOW; FAST decodes two frames per call.
 *  - Under SLOW every frame but frame 0 is decoded twice, halved (C
 *    division); the cursor is saved at the end of a call unless SLOW and the
 *    half-step bits are set (they are 0 at tick 0, 1 at tick 1, 0 at tick
 *    2, ...). So SLOW decodes f0 | f1/2 | f1/2 | f2/2 | ..., FAST f0+f1 |
 *    f2+f3 | ..., SLOW+FAST f0+f1/2 | f2/2+f3/2 | f2/2+f3/2 | ..., which
 *    reads one frame past the clip (tick n-2 for odd n, n-1 for even n).
 *  - Fields are compared in FIELD_MAP order: root.x y z, skel.flag, bone 0
 *    rot x y z scale x y z, bone 1 ..., cmd.frame, cmd.off, cmd.bit,
 *    cmd.flags, cmd.total, cmd.clip, ret.
 *  - Cursor = (byte from the clip start, bit); a clip starts at (1, 0),
 *    i.e. stream bit 8. Bits per value (narrowest width): root 5 (-4..3),
 *    8 (-32..31), 11 (-256..255), 18; mode bit 1; rotation 1 when 0, else
 *    6 (-4..3), 9 (-32..31), 11 (-128..127), 15 (12-bit); scale 1 when
 *    1024, else 17. An all-zero frame is 15 + 1 + 3 = 19 bits with one
 *    bone, 22 with two.
 *  - Section 3 of every file is zeroed (mt.c), so the frame SLOW+FAST reads
 *    past the last clip of a file is all zero deltas with mode bit 0.
 *    Earlier clips are one frame long (nothing read past them), diverge
 *    before the tick that reads past them, or belong to a mutant whose bug
 *    does not depend on the bytes read there (e: StartClip only).
 */
#include "tests/mutants/mt_corpus.h"

#include <criterion/criterion.h>
#include <string.h>

#define N MODE_NORMAL
#define S MODE_SLOW
#define F MODE_FAST
#define SF MODE_SLOW_FAST
/* clang-format off */
#define ONE {1024, 1024, 1024}
/* clang-format on */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- mutant a: a 12-bit rotation is not sign-extended (& 0xFFF) ---- */

static const mt_clip clips_a[] = {
    /* clip 0: a positive 12-bit delta on bone 0 (unchanged by the bug),
     * a negative one on bone 1: -300 & 0xFFF = 3796. */
    {3, {{.rot = {{0}}}, {.rot = {{0, 500, 0}, {0, 0, -300}}}, {.rot = {{0}}}}},
    /* clip 1: the most negative 12-bit value: -2048 & 0xFFF = 2048. */
    {1, {{.rot = {{-2048, 0, 0}}}}},
    /* clip 2: 12-bit positives, negatives of 3, 6 and 8 bits, a 16-bit
     * root: the bug does not show. */
    {3,
     {{.rot = {{2047, -128, 3}, {-100, 0, 127}}},
      {.root = {-300, 5, 0}, .rot = {{-4, 1000, 0}, {64, -32, 2000}}},
      {.rot = {{0, 0, -1}, {128, 0, 0}}}}},
};
const mt_model mt_model_a = {"mut_a.dat", 2, 0, {0}, ONE, COUNT(clips_a), clips_a, DAT_MONSTER, 0};

/*
 * clip 0 (f0 zero: 22 bits, tick 1 starts at bit 30 = (3, 6)):
 *   normal: tick 1 decodes f1: bone[1].rot.z -300 vs 3796 (bone 0's 500 equal).
 *   slow: tick 1 decodes f1 halved: -300/2 = -150 vs 3796/2 = 1898.
 *   fast: tick 0 decodes f0 + f1: -300 vs 3796 at (1, 0).
 *   slow+fast: tick 0 decodes f0 + f1/2: -150 vs 1898.
 * clip 1: one frame, every mode decodes f0 in full at tick 0:
 *   bone[0].rot.x -2048 vs 2048.
 * clip 2: matches in every mode.
 */
const mt_expect mt_expect_a[MT_EXPECT_A] = {
    {"mut_a.dat", 0, N, 1, "bone[1].rot.z", 1, -300, 3796, 3, 6},
    {"mut_a.dat", 0, S, 1, "bone[1].rot.z", 1, -150, 1898, 3, 6},
    {"mut_a.dat", 0, F, 0, "bone[1].rot.z", 1, -300, 3796, 1, 0},
    {"mut_a.dat", 0, SF, 0, "bone[1].rot.z", 1, -150, 1898, 1, 0},
    {"mut_a.dat", 1, N, 0, "bone[0].rot.x", 0, -2048, 2048, 1, 0},
    {"mut_a.dat", 1, S, 0, "bone[0].rot.x", 0, -2048, 2048, 1, 0},
    {"mut_a.dat", 1, F, 0, "bone[0].rot.x", 0, -2048, 2048, 1, 0},
    {"mut_a.dat", 1, SF, 0, "bone[0].rot.x", 0, -2048, 2048, 1, 0},
};

/* ---- mutant b: SLOW halves with >> 1 instead of / 2 ---- */

static const mt_clip clips_b[] = {
    /* clip 0: -5 in frame 0 (never halved), -3 on a half-step. */
    {2, {{.root = {-5, 0, 0}}, {.root = {0, -3, 0}}}},
    /* clip 1: even roots (halve alike), rotation -1 on a half-step. */
    {2, {{.root = {0}}, {.root = {2, -4, 6}, .rot = {{0, 0, -1}}}}},
    /* clip 2: odd negatives only in frame 0; even negatives and odd
     * positives later: / 2 and >> 1 agree. */
    {3,
     {{.root = {-7, 0, 0}, .rot = {{-9, 0, 0}}},
      {.root = {4, -6, 7}, .rot = {{-8, 9, 0}}},
      {.root = {-2, 0, 1}, .rot = {{0, -100, 5}}}}},
};
const mt_model mt_model_b = {"mut_b.dat", 1, 0, {0}, ONE, COUNT(clips_b), clips_b, DAT_MONSTER, 0};

/*
 * Normal and fast never halve: every clip matches there.
 * clip 0 (f0 = 8 + 5 + 5 + 1 + 3 = 22 bits, tick 1 at bit 30 = (3, 6)):
 *   slow: tick 1, f1 halved: root.y -3/2 = -1 vs -3>>1 = -2.
 *   slow+fast: tick 0 (f0 + f1/2): root.y -1 vs -2 at (1, 0).
 * clip 1 (f0 zero, 19 bits: (3, 3)): roots 2, -4, 6 halve alike;
 *   slow: tick 1 bone[0].rot.z -1/2 = 0 vs -1>>1 = -1; slow+fast: tick 0.
 * clip 2: matches (7>>1 = 3 = 7/2, -6>>1 = -3, 9>>1 = 4, -100>>1 = -50, ...).
 */
static const mt_expect expect_b[] = {
    {"mut_b.dat", 0, S, 1, "root.y", 0, -1, -2, 3, 6},
    {"mut_b.dat", 0, SF, 0, "root.y", 0, -1, -2, 1, 0},
    {"mut_b.dat", 1, S, 1, "bone[0].rot.z", 0, 0, -1, 3, 3},
    {"mut_b.dat", 1, SF, 0, "bone[0].rot.z", 0, 0, -1, 1, 0},
};

/* ---- mutant c: an absent scale reads 0 instead of 1024 ---- */

static const mt_clip clips_c[] = {
    /* clip 0: f1 on the scale path, bone 1's scale.y absent (1024). */
    {2,
     {{.root = {0}},
      {.mode = 1, .rot = {{10, 0, 0}}, .scale = {{2048, 512, 700}, {1500, 1024, 800}}}}},
    /* clip 1: bone 0's scale.x absent in frame 0. */
    {1, {{.mode = 1, .scale = {{1024, 1100, 1200}, {900, 900, 900}}}}},
    /* clip 2: scale path with every scale present (0, -1 and 4096 too),
     * and a frame without it. */
    {3,
     {{.mode = 1, .rot = {{5, 0, 0}}, .scale = {{1025, 1023, 0}, {-1, 4096, 2000}}},
      {.rot = {{0}, {0, -50, 0}}},
      {.mode = 1, .scale = {{300, 400, 500}, {600, 700, 800}}}}},
};
static const mt_model model_c = {"mut_c.dat", 2, 0, {0}, ONE, COUNT(clips_c), clips_c, DAT_MONSTER, 0};

/*
 * clip 0 (f0 zero, 2 bones: 22 bits, (3, 6)): every bone-0 field and bone 1's
 *   rotation and scale.x agree; bone[1].scale.y 1024 vs 0. Scales are never
 *   halved: normal and slow at tick 1, fast and slow+fast at tick 0.
 * clip 1: bone[0].scale.x 1024 vs 0 at tick 0 in every mode.
 * clip 2: matches (the frame read past it under SLOW+FAST has mode 0).
 */
static const mt_expect expect_c[] = {
    {"mut_c.dat", 0, N, 1, "bone[1].scale.y", 1, 1024, 0, 3, 6},
    {"mut_c.dat", 0, S, 1, "bone[1].scale.y", 1, 1024, 0, 3, 6},
    {"mut_c.dat", 0, F, 0, "bone[1].scale.y", 1, 1024, 0, 1, 0},
    {"mut_c.dat", 0, SF, 0, "bone[1].scale.y", 1, 1024, 0, 1, 0},
    {"mut_c.dat", 1, N, 0, "bone[0].scale.x", 0, 1024, 0, 1, 0},
    {"mut_c.dat", 1, S, 0, "bone[0].scale.x", 0, 1024, 0, 1, 0},
    {"mut_c.dat", 1, F, 0, "bone[0].scale.x", 0, 1024, 0, 1, 0},
    {"mut_c.dat", 1, SF, 0, "bone[0].scale.x", 0, 1024, 0, 1, 0},
};

/* ---- mutant d: scales accumulate instead of being assigned ---- */

static const mt_clip clips_d[] = {
    /* clip 0: f1 on the scale path with every scale absent (1024). */
    {2, {{.root = {0}}, {.mode = 1, .scale = {ONE}}}},
    /* clip 1: scale 0 (payload -1024) in frame 0. */
    {1, {{.mode = 1, .scale = {{0, 2048, 5}}}}},
    /* clip 2: never on the scale path. */
    {3,
     {{.root = {1, 2, 3}, .rot = {{10, 20, 30}}},
      {.root = {0, -100, 0}, .rot = {{-5, 0, 1000}}},
      {.root = {0, 0, -1}}}},
};
/* Rest scales 100, 200, 300: what the mutant adds to. */
static const mt_model model_d = 
    {"mut_d.dat", 1, 0, {0}, {100, 200, 300}, COUNT(clips_d), clips_d, DAT_MONSTER, 0};

/*
 * clip 0 (f0 zero: 19 bits, (3, 3)): bone[0].scale.x 1024 vs 100 + 1024 =
 *   1124: normal and slow at tick 1, fast and slow+fast at tick 0.
 * clip 1: bone[0].scale.x 0 vs 100 + 0 = 100 at tick 0 in every mode.
 * clip 2: matches (mode 0 throughout, also in the frame read past it).
 */
static const mt_expect expect_d[] = {
    {"mut_d.dat", 0, N, 1, "bone[0].scale.x", 0, 1024, 1124, 3, 3},
    {"mut_d.dat", 0, S, 1, "bone[0].scale.x", 0, 1024, 1124, 3, 3},
    {"mut_d.dat", 0, F, 0, "bone[0].scale.x", 0, 1024, 1124, 1, 0},
    {"mut_d.dat", 0, SF, 0, "bone[0].scale.x", 0, 1024, 1124, 1, 0},
    {"mut_d.dat", 1, N, 0, "bone[0].scale.x", 0, 0, 100, 1, 0},
    {"mut_d.dat", 1, S, 0, "bone[0].scale.x", 0, 0, 100, 1, 0},
    {"mut_d.dat", 1, F, 0, "bone[0].scale.x", 0, 0, 100, 1, 0},
    {"mut_d.dat", 1, SF, 0, "bone[0].scale.x", 0, 0, 100, 1, 0},
};

/* ---- mutant e: StartClip keeps the root translation ---- */

static const mt_clip clips_e[] = {
    {2, {{.root = {1, 2, 3}}, {.root = {4, 6, 0}}}},
    {1, {{.root = {0, 20, -30}}}},
};
/* Same clips; rest root (0, -20, 30) in e0, (0, 0, 0) in e1. */
static const mt_model model_e0 = 
    {"mut_e0.dat", 1, 0, {0, -20, 30}, ONE, COUNT(clips_e), clips_e, DAT_MONSTER, 0};
static const mt_model model_e1 = 
    {"mut_e1.dat", 1, 0, {0, 0, 0}, ONE, COUNT(clips_e), clips_e, DAT_MONSTER, 0};

/*
 * mut_e0, tick 0 (root.x: rest 0, so equal; root.y comes next):
 * clip 0: normal, slow (f0): root.y 2 vs -20 + 2 = -18; fast (f0 + f1):
 *   8 vs -12; slow+fast (f0 + f1/2): 2 + 3 = 5 vs -15.
 * clip 1: root.y 20 vs 0 in every mode.
 * mut_e1 (rest root 0): matches everywhere.
 */
static const mt_expect expect_e[] = {
    {"mut_e0.dat", 0, N, 0, "root.y", 0, 2, -18, 1, 0},
    {"mut_e0.dat", 0, S, 0, "root.y", 0, 2, -18, 1, 0},
    {"mut_e0.dat", 0, F, 0, "root.y", 0, 8, -12, 1, 0},
    {"mut_e0.dat", 0, SF, 0, "root.y", 0, 5, -15, 1, 0},
    {"mut_e0.dat", 1, N, 0, "root.y", 0, 20, 0, 1, 0},
    {"mut_e0.dat", 1, S, 0, "root.y", 0, 20, 0, 1, 0},
    {"mut_e0.dat", 1, F, 0, "root.y", 0, 20, 0, 1, 0},
    {"mut_e0.dat", 1, SF, 0, "root.y", 0, 20, 0, 1, 0},
};

/* ---- mutant f: the cursor is saved on the SLOW half-step too ---- */

static const mt_clip clips_f[] = {
    /* clip 0: f1 has a 9-bit root (25 bits), the others are zero (19). */
    {4, {{.root = {0}}, {.root = {100, 0, 0}}, {.root = {0}}, {.root = {0}}}},
    /* clip 1: one frame, no half-step ever. */
    {1, {{.root = {3, -3, 0}, .rot = {{7, 0, -7}}}}},
    /* clip 2: two zero frames, the last clip of the file. */
    {2, {{.root = {0}}, {.root = {0}}}},
};
static const mt_model model_f = {"mut_f.dat", 1, 0, {0}, ONE, COUNT(clips_f), clips_f, DAT_MONSTER, 0};

/*
 * Normal and fast never skip a save: every clip matches there. Values of a
 * tick agree (both sides read from the same cursor); the cursor it leaves
 * does not, so the first field is cmd.off (cmd.frame agrees).
 * clip 0: cursor after f0 27 = (3, 3), f1 52 = (6, 4), f2 71, f3 90 = (11, 2).
 *   slow: tick 1 (f1/2, half-step): cmd.off 3 (tick 0's) vs 6.
 *   slow+fast: tick 0 saves after f0 + f1 (6, 4); tick 1 (f2 + f3, half-
 *   step): cmd.off 6 vs 11.
 * clip 1: matches (one frame).
 * clip 2: after f0 (3, 3), f1 46 = (5, 6), the zero frame read past the
 *   clip 65 = (8, 1). slow: tick 1 cmd.off 3 vs 5; slow+fast: tick 1 reads
 *   past the clip: 5 vs 8.
 */
static const mt_expect expect_f[] = {
    {"mut_f.dat", 0, S, 1, "cmd.off", 0, 3, 6, 3, 3},
    {"mut_f.dat", 0, SF, 1, "cmd.off", 0, 6, 11, 6, 4},
    {"mut_f.dat", 2, S, 1, "cmd.off", 0, 3, 5, 3, 3},
    {"mut_f.dat", 2, SF, 1, "cmd.off", 0, 5, 8, 5, 6},
};

/* ---- mutant g: FAST decodes one frame per call ---- */

static const mt_clip clips_g[] = {
    {3, {{.root = {1, 0, 0}}, {.root = {6, 0, 0}}, {.root = {-2, 0, 0}}}},
    /* clip 1: f1 changes nothing but the frame counter. */
    {2, {{.root = {2, 0, 0}}, {.root = {0}}}},
    /* clip 2: one frame: FAST stops after it anyway. */
    {1, {{.root = {5, 5, 5}, .rot = {{1, 2, 3}}}}},
};
const mt_model mt_model_g = {"mut_g.dat", 1, 0, {0}, ONE, COUNT(clips_g), clips_g, DAT_MONSTER, 0};

/*
 * Normal and slow do not use FAST: every clip matches there.
 * clip 0: fast tick 0: f0 + f1 root.x 7 vs f0 only 1; slow+fast: 1 + 6/2 = 4 vs 1.
 * clip 1: values agree (f1 is zero), cmd.frame 2 vs 1 at tick 0 in fast
 *   and slow+fast.
 * clip 2: matches.
 */
static const mt_expect expect_g[] = {
    {"mut_g.dat", 0, F, 0, "root.x", 0, 7, 1, 1, 0},
    {"mut_g.dat", 0, SF, 0, "root.x", 0, 4, 1, 1, 0},
    {"mut_g.dat", 1, F, 0, "cmd.frame", 0, 2, 1, 1, 0},
    {"mut_g.dat", 1, SF, 0, "cmd.frame", 0, 2, 1, 1, 0},
};

/* ---- mutant h: the mode bit is ORed into the skeleton flags ---- */

static const mt_clip clips_h0[] = {
    /* clip 0: scale path, then not. */
    {2, {{.mode = 1, .scale = {ONE}}, {.root = {3, 0, 0}}}},
    /* clip 1: never on the scale path. */
    {1, {{.root = {1, 1, 1}}}},
    /* clip 2: scale path in both frames; the last clip of the file. */
    {2,
     {{.mode = 1, .scale = {{2000, 1024, 1024}}},
      {.mode = 1, .rot = {{1, 0, 0}}, .scale = {{1024, 3000, 1024}}}}},
};
static const mt_clip clips_h1[] = {
    {1, {{.root = {0}}}},
    {1, {{.mode = 1, .scale = {ONE}}}},
};
static const mt_model model_h0 = 
    {"mut_h0.dat", 1, 0x00, {0}, ONE, COUNT(clips_h0), clips_h0, DAT_MONSTER, 0};
/* Flag byte 0x81: bit 0 set at rest, bit 7 kept by every frame. */
static const mt_model model_h1 = 
    {"mut_h1.dat", 1, 0x81, {0}, ONE, COUNT(clips_h1), clips_h1, DAT_MONSTER, 0};

/*
 * mut_h0 clip 0 (f0 = 15 + 1 + 3 + 3 = 22 bits: (3, 6)): the roots come
 *   before the mode bit and agree; skel.flag 0 vs 1 where f1 is decoded:
 *   tick 1 in normal and slow, tick 0 in fast and slow+fast.
 * mut_h0 clip 1: matches (flag 0, mode 0).
 * mut_h0 clip 2 (f0 = 15 + 1 + 3 + 19 = 38 bits, f1 = 15 + 1 + 8 + 19 = 43:
 *   f1 ends at bit 89 = (11, 1)): matches in normal, slow and fast; under
 *   slow+fast tick 1 reads the zero frame past the clip: mode 0 gives flag
 *   0 vs 1.
 * mut_h1 clip 0: (0x81 & ~1) | 0 = 0x80 vs 0x81 | 0 = 0x81 at tick 0 in
 *   every mode. clip 1: mode 1 gives 0x81 on both sides.
 */
static const mt_expect expect_h[] = {
    {"mut_h0.dat", 0, N, 1, "skel.flag", 0, 0, 1, 3, 6},
    {"mut_h0.dat", 0, S, 1, "skel.flag", 0, 0, 1, 3, 6},
    {"mut_h0.dat", 0, F, 0, "skel.flag", 0, 0, 1, 1, 0},
    {"mut_h0.dat", 0, SF, 0, "skel.flag", 0, 0, 1, 1, 0},
    {"mut_h0.dat", 2, SF, 1, "skel.flag", 0, 0, 1, 11, 1},
    {"mut_h1.dat", 0, N, 0, "skel.flag", 0, 0x80, 0x81, 1, 0},
    {"mut_h1.dat", 0, S, 0, "skel.flag", 0, 0x80, 0x81, 1, 0},
    {"mut_h1.dat", 0, F, 0, "skel.flag", 0, 0x80, 0x81, 1, 0},
    {"mut_h1.dat", 0, SF, 0, "skel.flag", 0, 0x80, 0x81, 1, 0},
};

/* ---- mutant l: the rotation width table indexed with the sign-extended type ---- */

static const mt_clip clips_l[] = {
    /* clip 0: -100 on bone 0's x: rotation type 2, 8 bits. */
    {1, {{.rot = {{-100, 0, 0}}}}},
    /* clip 1: -1000 on bone 0's x: rotation type 3, 12 bits. */
    {1, {{.rot = {{-1000, 0, 0}}}}},
    /* clip 2: rotation types 0 and 1 only, roots of every position width:
     * the bug does not show (the position table is read right). */
    {2,
     {{.rot = {{3, -20, 0}, {31, -32, 0}}},
      {.root = {-300, 100, -4}, .rot = {{-4, 0, 1}}}}},
};
static const mt_model model_l = {"mut_l.dat", 2, 0, {0}, ONE, COUNT(clips_l), clips_l, DAT_MONSTER, 0};

/*
 * The type bits come back from bitReader sign-extended: type 2 as -2, type
 * 3 as -1, so the widths are the two bytes before the rotation table, the
 * position table's last two: 9 (for 8) and 16 (for 12). Bones are read
 * after the roots (all zero: type 0) and the mode bit, so bone[0].rot.x is
 * the first field that can differ; one-frame clips decode frame 0 in full
 * at tick 0 in every mode, from (1, 0).
 * clip 0: -100 in 8 bits is 0x9C; 9 bits take the next bit too, rot.y's
 *   presence bit (0): 0x09C = 156 vs -100.
 * clip 1: -1000 in 12 bits is 0xC18; 16 bits take the next four, the
 *   presence bits of rot.y, rot.z and bone 1's x and y (all 0):
 *   0x0C18 = 3096 vs -1000.
 * clip 2: matches in every mode (slow+fast reads the zero frame past it).
 * One instruction (the read of the width) wrong for two inputs: the two
 * clips differ by 2^8 and 2^12, two groups per mode, one cause.
 */
static const mt_expect expect_l[] = {
    {"mut_l.dat", 0, N, 0, "bone[0].rot.x", 0, -100, 156, 1, 0},
    {"mut_l.dat", 0, S, 0, "bone[0].rot.x", 0, -100, 156, 1, 0},
    {"mut_l.dat", 0, F, 0, "bone[0].rot.x", 0, -100, 156, 1, 0},
    {"mut_l.dat", 0, SF, 0, "bone[0].rot.x", 0, -100, 156, 1, 0},
    {"mut_l.dat", 1, N, 0, "bone[0].rot.x", 0, -1000, 3096, 1, 0},
    {"mut_l.dat", 1, S, 0, "bone[0].rot.x", 0, -1000, 3096, 1, 0},
    {"mut_l.dat", 1, F, 0, "bone[0].rot.x", 0, -1000, 3096, 1, 0},
    {"mut_l.dat", 1, SF, 0, "bone[0].rot.x", 0, -1000, 3096, 1, 0},
};

/* ---- mutants i, j, k: the lockstep of QueueAnimation and AdvanceBy1 ---- */

/*
 * One entity corpus for the three: body d4c001 and weapon d4w001 (character
 * 4: one armed entity), and monster c0m001 (an entity without a weapon
 * slot). One bone each, rest root and rotations 0. Body frames: root
 * (1, 0, 0), nothing else: 15 + 1 + 3 = 19 bits, so the body's cursor is
 * (3, 3) after one frame and (5, 6) after two. Weapon frames: root
 * (10, 0, 0): 8 + 5 + 5 + 1 + 3 = 22 bits. Clip 0: 2 frames on both;
 * clip 1: the weapon is longer (body 2, weapon 3); clip 2: the weapon is
 * shorter (body 3, weapon 1).
 *
 * Calls of an n-frame clip in mode m (ticks, the end call included):
 * normal n + 1, slow 2n, fast ceil(n / 2) + 1. The body's end call is the
 * last of its count, the entity's completion. The entity level runs no
 * slow+fast (QueueAnimation cannot produce it): normal, slow and fast only,
 * reached through the entity's status byte (0, 0x80 Slow, 0x40 Haste).
 */
#define B1 {.root = {1, 0, 0}}
#define W1 {.root = {10, 0, 0}}
static const mt_clip clips_body[] = {{2, {B1, B1}}, {2, {B1, B1}}, {3, {B1, B1, B1}}};
static const mt_clip clips_weapon[] = {{2, {W1, W1}}, {3, {W1, W1, W1}}, {1, {W1}}};
static const mt_clip clips_monster[] = {{2, {B1, B1}}};
const mt_model mt_model_body = {
    "d4c001.dat", 1, 0, {0}, ONE, COUNT(clips_body), clips_body, DAT_BODY, 0};
const mt_model mt_model_weapon = {
    "d4w001.dat", 1, 0, {0}, ONE, COUNT(clips_weapon), clips_weapon, DAT_WEAPON, 0};
const mt_model mt_model_monster = {
    "c0m001.dat", 1, 0, {0}, ONE, COUNT(clips_monster), clips_monster, DAT_MONSTER, 0};
#define BODY "d4c001.dat"
#define WEAPON "d4w001.dat"

/*
 * Mutant i: AdvanceBy1 returns the weapon's result (a slot without a
 * weapon, the body's). Both sides do the same to both models at every
 * call; only the result differs, where the weapon's own end call is not
 * the body's.
 * clip 0: equal lengths, equal results: matches.
 * clip 1 (weapon longer): at the body's end call (tick 2, 3, 1 in normal,
 *   slow, fast) the reference says 1, the mutant the weapon's 0 (it still
 *   decodes). The body's cursor there is the one saved after its two
 *   frames: (5, 6) in every mode (slow: tick 2 saves).
 * clip 2 (weapon shorter): the weapon ends after tick 0 in every mode, so
 *   at tick 1 the mutant returns 1 (and stops) where the body goes on: ref
 *   0, orig 1. The body's cursor after tick 0: one frame (3, 3) in normal
 *   and slow, two frames (5, 6) in fast.
 * c0m001: no weapon: matches.
 */
const mt_ent_expect mt_ent_expect_i[MT_ENT_EXPECT_I] = {
    {BODY, WEAPON, 1, N, 2, "body.ret", 1, 0, 5, 6},
    {BODY, WEAPON, 1, S, 3, "body.ret", 1, 0, 5, 6},
    {BODY, WEAPON, 1, F, 1, "body.ret", 1, 0, 5, 6},
    {BODY, WEAPON, 2, N, 1, "body.ret", 0, 1, 3, 3},
    {BODY, WEAPON, 2, S, 1, "body.ret", 0, 1, 3, 3},
    {BODY, WEAPON, 2, F, 1, "body.ret", 0, 1, 5, 6},
};

/*
 * Mutant j: QueueAnimation never starts the weapon: its AnimCmd stays as
 * the harness set it (flags only, total 0: every later call returns 1 at
 * once) and its skeleton as loaded. The weapon comes first, root.x first:
 * at tick 0 the reference has decoded frame 0 (10), fast frames 0 and 1
 * (20, when the clip has two); the mutant has the file's rest root 0.
 * Every clip, every mode.
 */
static const mt_ent_expect ent_j[] = {
    {BODY, WEAPON, 0, N, 0, "weapon.root.x", 10, 0, 1, 0},
    {BODY, WEAPON, 0, S, 0, "weapon.root.x", 10, 0, 1, 0},
    {BODY, WEAPON, 0, F, 0, "weapon.root.x", 20, 0, 1, 0},
    {BODY, WEAPON, 1, N, 0, "weapon.root.x", 10, 0, 1, 0},
    {BODY, WEAPON, 1, S, 0, "weapon.root.x", 10, 0, 1, 0},
    {BODY, WEAPON, 1, F, 0, "weapon.root.x", 20, 0, 1, 0},
    {BODY, WEAPON, 2, N, 0, "weapon.root.x", 10, 0, 1, 0},
    {BODY, WEAPON, 2, S, 0, "weapon.root.x", 10, 0, 1, 0},
    {BODY, WEAPON, 2, F, 0, "weapon.root.x", 10, 0, 1, 0},
};

/*
 * Mutant k: after both StartClips the weapon's total is set to the body's.
 * The weapon's first call already ran with its own total, so at tick 0
 * everything agrees but weapon.cmd.total (after the skeleton, frame, off,
 * bit and flags): n, or 2n - 1 under slow, its own against the body's.
 * clip 0: equal lengths: matches.
 * clip 1: 3 vs 2 (normal, fast), 5 vs 3 (slow).
 * clip 2: 1 vs 3 (normal, fast), 1 vs 5 (slow).
 */
static const mt_ent_expect ent_k[] = {
    {BODY, WEAPON, 1, N, 0, "weapon.cmd.total", 3, 2, 1, 0},
    {BODY, WEAPON, 1, S, 0, "weapon.cmd.total", 5, 3, 1, 0},
    {BODY, WEAPON, 1, F, 0, "weapon.cmd.total", 3, 2, 1, 0},
    {BODY, WEAPON, 2, N, 0, "weapon.cmd.total", 1, 3, 1, 0},
    {BODY, WEAPON, 2, S, 0, "weapon.cmd.total", 1, 5, 1, 0},
    {BODY, WEAPON, 2, F, 0, "weapon.cmd.total", 1, 3, 1, 0},
};

/*
 * Mutant m: QueueAnimation reads Haste as Slow: under status 0x40 it sets
 * SLOW on the body (and so the weapon) where the reference sets FAST; the
 * other statuses agree, so only the fast mode parts. At tick 0 the
 * reference has decoded two frames (FAST), the mutant one at full value
 * (SLOW, frame 0): the weapon comes first, root.x first.
 * clips 0 and 1 (weapon 2 and 3 frames): weapon.root.x 20 vs 10.
 * clip 2 (weapon 1 frame): both decode that frame (10) and stop, frame 1,
 *   total 1 (2 * 1 - 1 under SLOW), the same cursor (saved: the half-step
 *   bits were 0); the flags part: FAST plus the half-step toggle 0x06, SLOW
 *   plus it 0x05.
 * c0m001 (no weapon), clip 0: body.root.x 2 vs 1.
 * Every one at call 0, the cursor where it began (1, 0).
 */
static const mt_ent_expect ent_m[] = {
    {BODY, WEAPON, 0, F, 0, "weapon.root.x", 20, 10, 1, 0},
    {BODY, WEAPON, 1, F, 0, "weapon.root.x", 20, 10, 1, 0},
    {BODY, WEAPON, 2, F, 0, "weapon.cmd.flags", 6, 5, 1, 0},
    {"c0m001.dat", NULL, 0, F, 0, "body.root.x", 2, 1, 1, 0},
};

/* ---- the table of mutants ---- */

/* A row from the mutant's letter alone: the name and the executable cannot disagree. */
#define MUTANT(letter, model0, model1, expect, nexpect)                                            \
    {letter, "standin_mut_" letter ".exe", {model0, model1, NULL}, expect, nexpect, 0, NULL, 0}
/* A lockstep mutant: the entity corpus, no frame-level mismatch, entity expectations. */
#define ENTITY_MUTANT(letter, ent)                                                                 \
    {letter,                                                                                       \
     "standin_mut_" letter ".exe",                                                                 \
     {&mt_model_body, &mt_model_weapon, &mt_model_monster},                                        \
     NULL,                                                                                         \
     0,                                                                                            \
     1,                                                                                            \
     ent,                                                                                          \
     COUNT(ent)}

const mt_mutant mt_mutants[MT_MUTANTS] = {
    MUTANT("a", &mt_model_a, NULL, mt_expect_a, MT_EXPECT_A),
    MUTANT("b", &mt_model_b, NULL, expect_b, COUNT(expect_b)),
    MUTANT("c", &model_c, NULL, expect_c, COUNT(expect_c)),
    MUTANT("d", &model_d, NULL, expect_d, COUNT(expect_d)),
    MUTANT("e", &model_e0, &model_e1, expect_e, COUNT(expect_e)),
    MUTANT("f", &model_f, NULL, expect_f, COUNT(expect_f)),
    MUTANT("g", &mt_model_g, NULL, expect_g, COUNT(expect_g)),
    MUTANT("h", &model_h0, &model_h1, expect_h, COUNT(expect_h)),
    ENTITY_MUTANT("i", mt_ent_expect_i),
    ENTITY_MUTANT("j", ent_j),
    ENTITY_MUTANT("k", ent_k),
    ENTITY_MUTANT("m", ent_m),
    MUTANT("l", &model_l, NULL, expect_l, COUNT(expect_l)),
};

const mt_mutant *mt_mutant_named(const char *name)
{
    const mt_mutant *found = NULL;
    for (size_t i = 0; i < MT_MUTANTS; i++) {
        if (strcmp(mt_mutants[i].name, name) != 0) continue;
        cr_assert_null(found, "two mutants named \"%s\"", name);
        found = &mt_mutants[i];
    }
    cr_assert_not_null(found, "no mutant named \"%s\"", name);
    return found;
}

unsigned mt_write_mutant(const char *dir, const mt_mutant *m)
{
    unsigned n = 0;
    for (; n < 3 && m->models[n]; n++) mt_write_model(dir, m->models[n]);
    return n;
}

void mt_write_entity_corpus(const char *dir)
{
    mt_write_model(dir, &mt_model_body);
    mt_write_model(dir, &mt_model_weapon);
    mt_write_model(dir, &mt_model_monster);
}
