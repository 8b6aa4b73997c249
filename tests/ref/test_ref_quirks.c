/*
 * tests/ref/test_ref_quirks.c: the quirk table's switches (ref/quirks.h).
 * Each observable row is switched alone on a clip packed by hand where it
 * bites, and the value it changes is worked out next to the case, for the
 * engine (mask 0) and for the switched reading. Rows that cannot change a
 * result of the reference are switched on every clip and mode and must
 * leave every byte as the engine leaves it (they also drive the whole
 * switched decoder, so it is checked against the engine's fast path there).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/le.h"
#include "ref/engine.h"
#include "ref/quirks.h"
#include "tests/ref/tb.h"

#define NCLIPS 11

/* Root zeros (type 0), the mode bit, one bone's rotations absent: 19 bits. */
static void frame_head(tb_bits *b, int mode)
{
    for (int k = 0; k < 3; k++) tb_pos(b, 0, 0);
    tb_put(b, (uint32_t)mode, 1);
}

/* 24 bits: root zeros, mode 0, rot.x present (type 0, value 0), rot.y, z absent. */
static void frame_24(tb_bits *b)
{
    frame_head(b, 0);
    tb_rot(b, 0, 0);
    tb_rot(b, -1, 0);
    tb_rot(b, -1, 0);
}

static tb_bits clips[NCLIPS];
static tb_bits tail;

/* The clips of the cases below, one bone, rest rot.y 100. */
static void load(tb_fix *fx)
{
    for (int i = 0; i < NCLIPS; i++) tb_bits_init(&clips[i]);
    tb_bits *c = &clips[0]; /* rot-wrap: 17 frames of rot.x +2047 */
    tb_put(c, 17, 8);
    for (int f = 0; f < 17; f++) {
        frame_head(c, 0);
        tb_rot(c, 3, 2047);
        tb_rot(c, -1, 0);
        tb_rot(c, -1, 0);
    }
    c = &clips[1]; /* root-wrap: 2 frames of root.x +30000 */
    tb_put(c, 2, 8);
    for (int f = 0; f < 2; f++) {
        tb_pos(c, 3, 30000);
        tb_pos(c, 0, 0);
        tb_pos(c, 0, 0);
        tb_put(c, 0, 1);
        for (int k = 0; k < 3; k++) tb_rot(c, -1, 0);
    }
    c = &clips[2]; /* scale-wrap: scale.x payload 0x7C00 */
    tb_put(c, 1, 8);
    frame_head(c, 1);
    for (int k = 0; k < 3; k++) tb_rot(c, -1, 0);
    tb_scale_payload(c, 0x7C00);
    tb_scale_absent(c);
    tb_scale_absent(c);
    c = &clips[3]; /* slow-total-wrap: 140 idle frames */
    tb_put(c, 140, 8);
    for (int f = 0; f < 140; f++) tb_idle_frame(c, 1);
    c = &clips[4]; /* slow halving: f1 rot.x -3 */
    tb_put(c, 2, 8);
    tb_idle_frame(c, 1);
    frame_head(c, 0);
    tb_rot(c, 0, -3);
    tb_rot(c, -1, 0);
    tb_rot(c, -1, 0);
    c = &clips[5]; /* start-reset: one idle frame */
    tb_put(c, 1, 8);
    tb_idle_frame(c, 1);
    c = &clips[6]; /* scale-accumulated / dropped: scale.x payload 100 */
    tb_put(c, 1, 8);
    frame_head(c, 1);
    for (int k = 0; k < 3; k++) tb_rot(c, -1, 0);
    tb_scale_payload(c, 100);
    tb_scale_absent(c);
    tb_scale_absent(c);
    c = &clips[7]; /* mode-bit-or: mode 1 then 0 */
    tb_put(c, 2, 8);
    frame_head(c, 1);
    for (int k = 0; k < 3; k++) tb_rot(c, -1, 0);
    for (int k = 0; k < 3; k++) tb_scale_absent(c);
    tb_idle_frame(c, 1);
    c = &clips[8]; /* width-sext: rot.x type 2 (8 bits) value -5 */
    tb_put(c, 1, 8);
    frame_head(c, 0);
    tb_rot(c, 2, -5);
    tb_rot(c, -1, 0);
    tb_rot(c, -1, 0);
    c = &clips[9]; /* fast-once: f1 rot.x +3 */
    tb_put(c, 2, 8);
    tb_idle_frame(c, 1);
    frame_head(c, 0);
    tb_rot(c, 0, 3);
    tb_rot(c, -1, 0);
    tb_rot(c, -1, 0);
    c = &clips[10]; /* slow-fast-overread (last clip): 2 frames of 24 bits, whole bytes */
    tb_put(c, 2, 8);
    frame_24(c);
    frame_24(c);
    tb_bits_init(&tail); /* what SLOW+FAST reads past the clip: root.x +20 */
    tb_pos(&tail, 1, 20);
    tb_pos(&tail, 0, 0);
    tb_pos(&tail, 0, 0);
    tb_put(&tail, 0, 1);
    for (int k = 0; k < 3; k++) tb_rot(&tail, -1, 0);
    uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 1, 0);
    le_put16(tb_rotp(skel, 0, 1), 100);
    tb_clip list[NCLIPS];
    for (int i = 0; i < NCLIPS; i++) list[i] = (tb_clip){clips[i].buf, tb_bytes(&clips[i])};
    tb_model m = {11, skel, len, list, NCLIPS, tail.buf, tb_bytes(&tail)};
    tb_fix_load(fx, &m, "t.dat");
}

typedef enum what { ROOT, ROT, SCALE, FLAG, TOTAL } what;

typedef struct qcase {
    ref_quirk q;
    unsigned clip;
    uint8_t mode;
    unsigned tick;
    what w;
    int k;
    int32_t engine, plain;
} qcase;

#define N 0
#define S REF_CMD_SLOW
#define F REF_CMD_FAST
#define SF (REF_CMD_SLOW | REF_CMD_FAST)

static const qcase cases[] = {
    /* 17 * 2047 = 34799; the engine keeps 34799 - 65536 = -30737. */
    {REF_Q_ROT_WRAP, 0, N, 16, ROT, 0, -30737, 34799},
    /* 60000; the engine keeps 60000 - 65536 = -5536. */
    {REF_Q_ROOT_WRAP, 1, N, 1, ROOT, 0, -5536, 60000},
    /* 0x7C00 + 1024 = 32768; the engine stores -32768. */
    {REF_Q_SCALE_WRAP, 2, N, 0, SCALE, 0, -32768, 32768},
    /* 2 * 140 - 1 = 279; the engine's byte holds 279 & 0xFF = 23. */
    {REF_Q_SLOW_TOTAL, 3, S, 0, TOTAL, 0, 23, 279},
    /* SLOW decodes f1 twice: -3 / 2 = -1 each time, -2 in all; plain: -1 then -2, -3. */
    {REF_Q_SLOW_HALF, 4, S, 2, ROT, 0, -2, -3},
    /* tick 1, first half of f1: -3 / 2 = -1; by a shift -3 >> 1 = -2. */
    {REF_Q_HALF_SHIFT, 4, S, 1, ROT, 0, -1, -2},
    /* The file's rest rot.y 100 kept by the plain reading. */
    {REF_Q_START_RESET, 5, N, 0, ROT, 1, 0, 100},
    /* payload 100: 1124; accumulated onto the rest 1024: 2148; dropped: 1024 stays. */
    {REF_Q_SCALE_ACCUM, 6, N, 0, SCALE, 0, 1124, 2148},
    {REF_Q_SCALE_DROP, 6, N, 0, SCALE, 0, 1124, 1024},
    /* f1's mode bit 0 clears the flag; ORed it stays 1. */
    {REF_Q_MODE_OR, 7, N, 1, FLAG, 0, 0, 1},
    /* 8 bits 0xFB = -5; 9 bits (the next presence bit 0 on top) = 251. */
    {REF_Q_WIDTH_SEXT, 8, N, 0, ROT, 0, -5, 251},
    /* FAST decodes f0 + f1 at tick 0 (3); once: f0 only (0). */
    {REF_Q_FAST_ONCE, 9, F, 0, ROT, 0, 3, 0},
    /* SLOW+FAST, tick 1 decodes f2 halved: the tail's 20 / 2 = 10; plain stops: 0. */
    {REF_Q_SLOW_FAST_OVERREAD, 10, SF, 1, ROOT, 0, 10, 0},
};

/* Runs clip to tick under mask and returns the case's value as that reading holds it. */
static int32_t value_at(tb_fix *fx, const qcase *c, uint32_t mask)
{
    int32_t wide[REF_WIDE_SLOTS(1)];
    fx->a.plain = mask;
    fx->a.wide = mask ? wide : NULL;
    ref_anim_reset_skeleton(&fx->a);
    memset(&fx->a.cmd, 0, sizeof fx->a.cmd);
    fx->a.cmd.flags = c->mode;
    int ret = 0;
    ff_error e;
    TS_OK(ref_start_clip(&fx->a, (int16_t)c->clip, &ret, &e), &e);
    for (unsigned t = 1; t <= c->tick; t++) TS_OK(ref_read_animation(&fx->a, &ret, &e), &e);
    int32_t v = 0;
    switch (c->w) {
    case ROOT: v = mask ? wide[REF_WIDE_ROOT(c->k)] : tb_get_root(fx, c->k); break;
    case ROT: v = mask ? wide[REF_WIDE_ROT(0, c->k)] : tb_get_rot(fx, 0, c->k); break;
    case SCALE: v = mask ? wide[REF_WIDE_SCALE(0, c->k)] : tb_get_scale(fx, 0, c->k); break;
    case FLAG: v = fx->skel[DAT_SKEL_FLAGS] & 1; break;
    case TOTAL: v = mask ? fx->a.wtotal : fx->a.cmd.total; break;
    }
    fx->a.plain = 0;
    fx->a.wide = NULL;
    return v;
}

Test(quirks, each_observable_row_bites_where_worked_out)
{
    tb_fix fx;
    load(&fx);
    unsigned seen = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const qcase *c = &cases[i];
        const char *name = ref_quirk_def_of(c->q)->name;
        int32_t e = value_at(&fx, c, 0), p = value_at(&fx, c, REF_QUIRK_BIT(c->q));
        cr_expect_eq(e, c->engine, "%s: engine %d, expected %d", name, e, c->engine);
        cr_expect_eq(p, c->plain, "%s: switched %d, expected %d", name, p, c->plain);
        seen |= REF_QUIRK_BIT(c->q);
    }
    for (unsigned q = 0; q < REF_Q__COUNT; q++)
        cr_expect(!ref_quirk_def_of((ref_quirk)q)->observable || (seen & REF_QUIRK_BIT(q)),
                  "observable row %s has no case", ref_quirk_def_of((ref_quirk)q)->name);
    tb_fix_free(&fx);
}

/* Every tick's skeleton, AnimCmd and result of clip under mask (on b), against mask 0's (on a). */
static void expect_same(tb_fix *a, tb_fix *b, unsigned clip, uint8_t mode, uint32_t mask)
{
    size_t len = ref_skel_size(&a->dat);
    int32_t wide[REF_WIDE_SLOTS(1)];
    b->a.plain = mask;
    b->a.wide = wide;
    tb_fix *side[2] = {a, b};
    for (int s = 0; s < 2; s++) {
        ref_anim_reset_skeleton(&side[s]->a);
        memset(&side[s]->a.cmd, 0, sizeof side[s]->a.cmd);
        side[s]->a.cmd.flags = mode;
    }
    ff_error e;
    int ret[2] = {0, 0};
    for (unsigned t = 0; t < 300 && ret[0] == 0; t++) {
        for (int s = 0; s < 2; s++)
            TS_OK(t == 0 ? ref_start_clip(&side[s]->a, (int16_t)clip, &ret[s], &e)
                         : ref_read_animation(&side[s]->a, &ret[s], &e),
                  &e);
        char what[64];
        snprintf(what, sizeof what, "clip %u mode %u tick %u", clip, mode, t);
        ts_assert_mem(b->skel, a->skel, len, what);
        ts_assert_mem(&b->a.cmd, &a->a.cmd, sizeof a->a.cmd, what);
        cr_assert_eq(ret[0], ret[1], "%s: ret", what);
        cr_assert_eq(wide[REF_WIDE_ROT(0, 1)], tb_get_rot(a, 0, 1), "%s: wide rot.y", what);
    }
    b->a.plain = 0;
    b->a.wide = NULL;
}

Test(quirks, rows_no_result_can_show_leave_every_byte_as_the_engine)
{
    tb_fix a, b;
    load(&a);
    load(&b);
    static const uint8_t modes[4] = {N, S, F, SF};
    uint32_t quiet = 0;
    for (unsigned q = 0; q < REF_Q__COUNT; q++)
        if (!ref_quirk_def_of((ref_quirk)q)->observable) quiet |= REF_QUIRK_BIT(q);
    cr_assert_neq(quiet, 0u);
    for (unsigned c = 0; c < NCLIPS; c++)
        for (int m = 0; m < 4; m++) expect_same(&a, &b, c, modes[m], quiet);
    tb_fix_free(&a);
    tb_fix_free(&b);
}

Test(quirks, every_row_is_named_once_and_documented)
{
    for (unsigned q = 0; q < REF_Q__COUNT; q++) {
        const ref_quirk_def *d = ref_quirk_def_of((ref_quirk)q);
        cr_assert_eq(d->id, (ref_quirk)q);
        cr_expect_eq(ref_quirk_from_name(d->name), (int)q, "%s", d->name);
        cr_expect(d->engine[0] && d->plain[0], "%s: texts", d->name);
        cr_expect(strncmp(d->anchor, "docs/", 5) == 0, "%s: anchor %s", d->name, d->anchor);
    }
    cr_expect_eq(ref_quirk_from_name("no-such-row"), -1);
    cr_expect_null(ref_quirk_def_of(REF_Q__COUNT));
}
