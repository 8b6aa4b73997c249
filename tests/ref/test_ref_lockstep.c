/*
 * tests/ref/test_ref_lockstep.c: QueueAnimation / AdvanceBy1 on a body and
 * an optional weapon (docs/engine.md sections 2, 3 and 6): the weapon is started
 * and advanced first, each model runs by its own frame count, and the
 * result is the body's; the speed QueueAnimation decides from the entity's
 * +2, status byte and sequence pair (docs/pose.md section 5), as vectors.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "common/le.h"
#include "ref/engine.h"
#include "tests/ref/tb.h"

/* Clip of n frames, each moving root x by step (type 1, 6 bits), 1 bone idle. */
static void clip_steps(tb_bits *c, unsigned n, int step)
{
    tb_bits_init(c);
    tb_put(c, n, 8);
    for (unsigned f = 0; f < n; f++) {
        tb_pos(c, 1, step);
        tb_pos(c, 0, 0);
        tb_pos(c, 0, 0);
        tb_put(c, 0, 1);
        for (int k = 0; k < 3; k++)
            tb_rot(c, -1, 0);
    }
}

/* Model with clips {n0 frames, n1 frames}, steps of `step`. */
static void load(tb_fix *fx, unsigned nsections, unsigned nclips, const unsigned *frames, int step,
                 const char *name)
{
    static uint8_t skel[TB_SKEL_MAX];
    size_t len = tb_skel(skel, 1, 0);
    static tb_bits c[2];
    tb_clip clips[2];
    for (unsigned i = 0; i < nclips; i++) {
        clip_steps(&c[i], frames[i], step);
        clips[i] = (tb_clip){c[i].buf, tb_bytes(&c[i])};
    }
    tb_model m = {nsections, skel, len, clips, nclips, NULL, 0};
    tb_fix_load(fx, &m, name);
}

static int16_t root_x(tb_fix *fx)
{
    return le_s16(tb_root(fx->skel, 0));
}

typedef struct step_vec {
    int ret;
    int body_x, body_frame;
    int weapon_x, weapon_frame;
} step_vec;

static void run(ref_entity *e, tb_fix *body, tb_fix *weapon, int clip, const step_vec *v, size_t n,
                const char *what)
{
    ff_error err;
    for (size_t i = 0; i < n; i++) {
        int ret = -7;
        if (i == 0)
            TS_OK(ref_queue_animation(e, (int16_t)clip, &ret, &err), &err);
        else
            TS_OK(ref_advance_by1(e, &ret, &err), &err);
        cr_assert_eq(ret, v[i].ret, "%s step %zu: ret %d", what, i, ret);
        cr_assert_eq(root_x(body), v[i].body_x, "%s step %zu: body root x %d", what, i,
                     root_x(body));
        cr_assert_eq(body->a.cmd.frame, v[i].body_frame, "%s step %zu: body frame", what, i);
        if (!weapon) continue;
        cr_assert_eq(root_x(weapon), v[i].weapon_x, "%s step %zu: weapon root x %d", what, i,
                     root_x(weapon));
        cr_assert_eq(weapon->a.cmd.frame, v[i].weapon_frame, "%s step %zu: weapon frame", what, i);
    }
}

Test(lockstep, body_and_weapon_of_different_lengths)
{
    tb_fix body, weapon;
    static const unsigned bf[2] = {3, 4}, wf[2] = {4, 2};
    load(&body, 7, 2, bf, 1, "d0c000.dat");
    load(&weapon, 8, 2, wf, 10, "d0w000.dat");
    ref_entity e = {&body.a, &weapon.a, NULL};
    /* clip 0: body 3 frames (+1 each), weapon 4 frames (+10 each); the weapon
     * goes on after the body ended, ret follows the body */
    static const step_vec v0[] = {
        {0, 1, 1, 10, 1}, {0, 2, 2, 20, 2}, {0, 3, 3, 30, 3}, {1, 3, 3, 40, 4}, {1, 3, 3, 40, 4},
    };
    run(&e, &body, &weapon, 0, v0, sizeof v0 / sizeof v0[0], "clip 0");
    /* clip 1: body 4 frames, weapon 2: ret stays 0 until the body ends */
    static const step_vec v1[] = {
        {0, 1, 1, 10, 1}, {0, 2, 2, 20, 2}, {0, 3, 3, 20, 2}, {0, 4, 4, 20, 2}, {1, 4, 4, 20, 2},
    };
    run(&e, &body, &weapon, 1, v1, sizeof v1 / sizeof v1[0], "clip 1");
    tb_fix_free(&body);
    tb_fix_free(&weapon);
}

Test(lockstep, body_without_weapon)
{
    tb_fix body;
    static const unsigned bf[2] = {3, 4};
    load(&body, 7, 2, bf, 1, "d0c000.dat");
    ref_entity e = {&body.a, NULL, NULL};
    static const step_vec v[] = {
        {0, 1, 1, 0, 0}, {0, 2, 2, 0, 0}, {0, 3, 3, 0, 0}, {1, 3, 3, 0, 0}};
    run(&e, &body, NULL, 0, v, sizeof v / sizeof v[0], "no weapon");
    tb_fix_free(&body);
}

Test(lockstep, weapon_goes_first)
{
    tb_fix body, weapon;
    static const unsigned bf[2] = {3, 4}, wf[1] = {4};
    load(&body, 7, 2, bf, 1, "d0c000.dat");
    load(&weapon, 8, 1, wf, 10, "d0w000.dat");
    ref_entity e = {&body.a, &weapon.a, NULL};
    ref_animcmd before = body.a.cmd;
    int ret = -7;
    ff_error err;
    /* The weapon has no clip 1: refused before the body is touched. */
    cr_assert_eq(ref_queue_animation(&e, 1, &ret, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert_str_eq(err.file, "d0w000.dat");
    cr_assert(strncmp(err.reason, "weapon: ", 8) == 0, "reason: %s", err.reason);
    ts_assert_mem(&body.a.cmd, &before, sizeof before, "body cmd after the weapon failed");
    /* Modes are per model: a SLOW weapon runs 2 * 4 - 1 = 7 frames. */
    weapon.a.cmd.flags = REF_CMD_SLOW;
    TS_OK(ref_queue_animation(&e, 0, &ret, &err), &err);
    cr_assert_eq(weapon.a.cmd.total, 7);
    cr_assert_eq(body.a.cmd.total, 3);
    tb_fix_free(&body);
    tb_fix_free(&weapon);
}

/*
 * ref_queue_flags: (+2, status, pair, flags held) -> flags left. SLOW and
 * FAST cleared, the other bits kept; then SLOW for status 0x80, FAST for
 * 0x40, SLOW for both, only with pair[0] == pair[2] and +2 bit 3 clear.
 */
typedef struct speed_vec {
    uint8_t byte2, status;
    const uint8_t *pair;
    uint8_t in, out;
} speed_vec;

static const uint8_t same[3] = {4, 9, 4}, differ[3] = {4, 4, 5}, zero[3] = {0, 0, 0};
static const speed_vec speed_vecs[] = {
    {0x00, 0x00, same, 0x00, 0x00},   {0x00, 0x00, same, 0x03, 0x00},
    {0x00, 0x00, same, 0xFF, 0xFC},   {0x00, 0x00, NULL, 0x02, 0x00},
    {0x00, 0x80, same, 0x00, 0x01},   {0x00, 0x40, same, 0x00, 0x02},
    {0x00, 0xC0, same, 0x00, 0x01},   {0x00, 0x40, same, 0x01, 0x02},
    {0x00, 0x80, same, 0x0E, 0x0D},   {0x00, 0x80, differ, 0x01, 0x00},
    {0x00, 0x40, zero, 0x00, 0x02},   {0x08, 0x80, same, 0x01, 0x00},
    {0x08, 0x40, same, 0x02, 0x00},   {0xF7, 0xC0, same, 0x00, 0x01},
    {0x00, 0x3F, NULL, 0x01, 0x00},   {0x00, 0x41, same, 0x00, 0x02},
};

Test(lockstep, speed_flags_as_vectors)
{
    ff_error err;
    for (size_t i = 0; i < sizeof speed_vecs / sizeof speed_vecs[0]; i++) {
        const speed_vec *v = &speed_vecs[i];
        ref_entity_speed sp = {v->byte2, v->status, v->pair};
        uint8_t out = 0xAA;
        TS_OK(ref_queue_flags(&sp, v->in, &out, &err), &err);
        cr_assert_eq(out, v->out, "vector %zu: 0x%02x, expected 0x%02x", i, out, v->out);
    }
}

/* A status makes the routine read the pair: through NULL it is an error, out untouched. */
Test(lockstep, speed_pair_read_through_null)
{
    ref_entity_speed sp = {0, 0x80, NULL};
    uint8_t out = 0x5A;
    ff_error err;
    cr_assert_eq(ref_queue_flags(&sp, 0, &out, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert(strstr(err.reason, "+0x74") != NULL, "%s", err.reason);
    cr_assert_eq(out, 0x5A);
}

/*
 * QueueAnimation with the entity's speed: the body's flags from the status,
 * the weapon's speed bits copied from the body's whatever it held. Haste
 * on a 4-frame weapon preset SLOW: FAST on both (the weapon decodes 2
 * frames at call 0, total 4, not 7). Without speed the caller's flags stay.
 */
Test(lockstep, speed_on_both_models)
{
    tb_fix body, weapon;
    static const unsigned bf[1] = {3}, wf[1] = {4};
    load(&body, 7, 1, bf, 1, "d0c000.dat");
    load(&weapon, 8, 1, wf, 10, "d0w000.dat");
    ref_entity_speed sp = {0, 0x40, same};
    ref_entity e = {&body.a, &weapon.a, &sp};
    int ret = -7;
    ff_error err;
    weapon.a.cmd.flags = REF_CMD_SLOW;
    body.a.cmd.flags = REF_CMD_SLOW;
    TS_OK(ref_queue_animation(&e, 0, &ret, &err), &err);
    cr_assert_eq(body.a.cmd.flags & 3, REF_CMD_FAST);
    cr_assert_eq(weapon.a.cmd.flags & 3, REF_CMD_FAST);
    cr_assert_eq(weapon.a.cmd.total, 4);
    cr_assert_eq(weapon.a.cmd.frame, 2);
    cr_assert_eq(root_x(&weapon), 20);
    cr_assert_eq(body.a.cmd.frame, 2);
    /* Status 0: both back to normal speed whatever was preset. */
    sp.status = 0;
    ref_anim_reset_skeleton(&body.a);
    ref_anim_reset_skeleton(&weapon.a);
    weapon.a.cmd.flags = REF_CMD_FAST;
    body.a.cmd.flags = REF_CMD_SLOW | REF_CMD_FAST;
    TS_OK(ref_queue_animation(&e, 0, &ret, &err), &err);
    cr_assert_eq(body.a.cmd.flags & 3, 0);
    cr_assert_eq(weapon.a.cmd.flags & 3, 0);
    cr_assert_eq(weapon.a.cmd.frame, 1);
    /* No speed: the flags as preset (SLOW on the weapon alone: 2 * 4 - 1). */
    e.speed = NULL;
    weapon.a.cmd.flags = REF_CMD_SLOW;
    body.a.cmd.flags = 0;
    TS_OK(ref_queue_animation(&e, 0, &ret, &err), &err);
    cr_assert_eq(weapon.a.cmd.total, 7);
    cr_assert_eq(body.a.cmd.total, 3);
    tb_fix_free(&body);
    tb_fix_free(&weapon);
}

/* A failing status read names the body and leaves no clip started. */
Test(lockstep, speed_fault_is_the_bodys)
{
    tb_fix body;
    static const unsigned bf[1] = {3};
    load(&body, 7, 1, bf, 1, "d0c000.dat");
    ref_entity_speed sp = {0, 0x40, NULL};
    ref_entity e = {&body.a, NULL, &sp};
    int ret = -7;
    ff_error err;
    cr_assert_eq(ref_queue_animation(&e, 0, &ret, &err), -1);
    cr_assert(strncmp(err.reason, "body: ", 6) == 0, "reason: %s", err.reason);
    cr_assert_eq(body.a.cmd.total, 0, "no StartClip");
    tb_fix_free(&body);
}
