/*
 * tests/ref/test_ref_lockstep.c: QueueAnimation / AdvanceBy1 on a body and
 * an optional weapon (ENGINE.md sections 2, 3 and 6): the weapon is started
 * and advanced first, each model runs by its own frame count, and the
 * result is the body's.
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
    ref_entity e = {&body.a, &weapon.a};
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
    ref_entity e = {&body.a, NULL};
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
    ref_entity e = {&body.a, &weapon.a};
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
