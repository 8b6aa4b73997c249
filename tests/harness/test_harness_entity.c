/*
 * tests/harness/test_harness_entity.c: the entity level's core pieces on
 * hand-built traces: field names with their model (written and parsed),
 * the comparison order of one call (weapon, body, then the call's result),
 * calls one side made that the other did not, differing shapes, where the
 * weapon's clip ended (from its AnimCmd rows), the in-hand offset, and
 * entity groups' signatures.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "harness/core/entity.h"
#include "harness/core/field_model.h"
#include "harness/core/group.h"

/*
 * An entity trace of n calls, one bone per model: at call t the body has
 * root.x t, cmd.frame t + 1 of total bn; the weapon root.x 100 + t,
 * cmd.frame min(t + 1, wn) of total wn; ret 1 on the last call only.
 */
static void make(ent_trace *e, size_t n, int armed, unsigned bn, unsigned wn)
{
    ent_trace_init(e);
    field_set frame = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    ent_trace_clear(e, armed, &frame, 1, armed ? 1 : 0);
    for (size_t t = 0; t < n; t++) {
        cr_assert_not_null(trace_push_blank(&e->body, NULL));
        trace_set(&e->body, t, FIELD_ROOT_X, 0, (int32_t)t);
        trace_set(&e->body, t, FIELD_CMD_FRAME, 0, (int32_t)t + 1);
        trace_set(&e->body, t, FIELD_CMD_TOTAL, 0, (int32_t)bn);
        trace_set(&e->body, t, FIELD_RET, 0, t + 1 == n);
        if (!armed) continue;
        cr_assert_not_null(trace_push_blank(&e->weapon, NULL));
        trace_set(&e->weapon, t, FIELD_ROOT_X, 0, 100 + (int32_t)t);
        trace_set(&e->weapon, t, FIELD_CMD_FRAME, 0, t + 1 < wn ? (int32_t)t + 1 : (int32_t)wn);
        trace_set(&e->weapon, t, FIELD_CMD_TOTAL, 0, (int32_t)wn);
    }
}

static void name_of(const cmp_divergence *d, char *buf, size_t n)
{
    field_model_field_name(d->model, d->field, d->bone, buf, n);
}

Test(entity_names, written_with_the_model_and_parsed_back)
{
    char buf[64];
    cr_assert_str_eq(field_model_field_name(FIELD_MODEL_BODY, FIELD_ROOT_X, 0, buf, sizeof buf),
                     "body.root.x");
    cr_assert_str_eq(field_model_field_name(FIELD_MODEL_WEAPON, FIELD_ROT_Z, 1, buf, sizeof buf),
                     "weapon.bone[1].rot.z");
    cr_assert_str_eq(
        field_model_field_name(FIELD_MODEL_WEAPON, FIELD_CMD_FRAME, 0, buf, sizeof buf),
        "weapon.cmd.frame");
    cr_assert_str_eq(field_model_field_name(FIELD_MODEL_NONE, FIELD_ROT_Z, 12, buf, sizeof buf),
                     "bone[12].rot.z", "a lone model keeps the table's name");
    cr_assert_str_eq(field_model_kind_name(FIELD_MODEL_WEAPON, FIELD_SCALE_Y, buf, sizeof buf),
                     "weapon.scale.y");
    field_model m;
    field_id f;
    unsigned bone;
    cr_assert_eq(field_model_parse("weapon.bone[1].rot.z", &m, &f, &bone), 0);
    cr_assert(m == FIELD_MODEL_WEAPON && f == FIELD_ROT_Z && bone == 1);
    cr_assert_eq(field_model_parse("body.ret", &m, &f, &bone), 0);
    cr_assert(m == FIELD_MODEL_BODY && f == FIELD_RET);
    cr_assert_eq(field_model_parse("cmd.off", &m, &f, &bone), 0);
    cr_assert(m == FIELD_MODEL_NONE && f == FIELD_CMD_OFF);
    cr_assert_eq(field_model_parse("hand.root.x", &m, &f, &bone), -1);
    cr_assert_eq(field_model_parse("weapon.", &m, &f, &bone), -1);
    cr_assert_eq(field_model_parse("weapon.bone[1]", &m, &f, &bone), -1);
    cr_assert_eq(field_model_from_name("weapon"), FIELD_MODEL_WEAPON);
    cr_assert_eq(field_model_from_name("hand"), -1);
}

Test(entity_cmp, identical_traces_agree)
{
    ent_trace a, b;
    make(&a, 4, 1, 3, 3);
    make(&b, 4, 1, 3, 3);
    cmp_divergence d;
    cr_assert_eq(ent_cmp(&a, &b, &d), 0);
    cr_assert_eq(d.ref_ticks, 4u);
    ent_trace_free(&a);
    ent_trace_free(&b);
}

/* In one call the weapon comes first, then the body, then the call's result. */
Test(entity_cmp, weapon_then_body_then_the_result)
{
    ent_trace a, b;
    make(&a, 4, 1, 3, 3);
    make(&b, 4, 1, 3, 3);
    /* Call 2: the body's root, its ret and the weapon's root all differ. */
    trace_set(&b.body, 2, FIELD_ROOT_X, 0, 50);
    trace_set(&b.body, 2, FIELD_RET, 0, 1);
    trace_set(&b.weapon, 2, FIELD_ROOT_X, 0, 7);
    cmp_divergence d;
    char name[64];
    cr_assert_eq(ent_cmp(&a, &b, &d), 1);
    name_of(&d, name, sizeof name);
    cr_assert_str_eq(name, "weapon.root.x");
    cr_assert_eq(d.tick, 2u);
    cr_assert_eq(d.ref, 102);
    cr_assert_eq(d.orig, 7);
    cr_assert_eq(d.differing, 3, "three values differ from call 2 on");
    trace_set(&b.weapon, 2, FIELD_ROOT_X, 0, 102);
    cr_assert_eq(ent_cmp(&a, &b, &d), 1);
    name_of(&d, name, sizeof name);
    cr_assert_str_eq(name, "body.root.x", "the body's fields before the call's result");
    cr_assert_eq(d.ref, 2);
    cr_assert_eq(d.orig, 50);
    trace_set(&b.body, 2, FIELD_ROOT_X, 0, 2);
    cr_assert_eq(ent_cmp(&a, &b, &d), 1);
    name_of(&d, name, sizeof name);
    cr_assert_str_eq(name, "body.ret");
    cr_assert_eq(d.ref, 0);
    cr_assert_eq(d.orig, 1);
    /* The cursor of the tick: the body's AnimCmd of call 1 (off and bit are 0 here). */
    cr_assert_eq(d.cursor_off, 0);
    ent_trace_free(&a);
    ent_trace_free(&b);
}

/* One side made one more call: its extra call against "no call", on body.ret. */
Test(entity_cmp, a_call_the_other_side_did_not_make)
{
    ent_trace a, b;
    make(&a, 3, 1, 2, 3);
    make(&b, 4, 1, 2, 3);
    /* b's rows 0..2 hold what a's do, except the ret of row 2 (not b's last). */
    trace_set(&b.body, 2, FIELD_RET, 0, 1);
    trace_set(&b.body, 3, FIELD_RET, 0, 1);
    cmp_divergence d;
    char name[64];
    cr_assert_eq(ent_cmp(&a, &b, &d), 1);
    name_of(&d, name, sizeof name);
    cr_assert_str_eq(name, "body.ret");
    cr_assert_eq(d.tick, 3u);
    cr_assert_eq(d.ref, -1, "the reference made no call 3");
    cr_assert_eq(d.orig, 1);
    cr_assert_eq(d.ref_ticks, 3u);
    cr_assert_eq(d.orig_ticks, 4u);
    ent_trace_free(&a);
    ent_trace_free(&b);
}

Test(entity_cmp, shapes_differ_at_tick_0)
{
    ent_trace a, b;
    make(&a, 3, 1, 2, 2);
    make(&b, 3, 0, 2, 2);
    cmp_divergence d;
    char name[64];
    cr_assert_eq(ent_cmp(&a, &b, &d), 1, "one side without its weapon");
    name_of(&d, name, sizeof name);
    cr_assert_str_eq(name, "weapon.root.x");
    cr_assert_eq(d.tick, 0u);
    cr_assert_eq(d.ref, 100);
    cr_assert_eq(d.orig, 0);
    ent_trace_free(&b);
    /* The weapon's bone count differs: its first per-bone field, tick 0. */
    field_set frame = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    ent_trace_init(&b);
    ent_trace_clear(&b, 1, &frame, 1, 2);
    for (int t = 0; t < 3; t++) {
        trace_push_blank(&b.body, NULL);
        trace_push_blank(&b.weapon, NULL);
    }
    cr_assert_eq(ent_cmp(&a, &b, &d), 1);
    cr_assert_eq(d.model, FIELD_MODEL_WEAPON);
    cr_assert_eq(d.field, FIELD_ROT_X);
    cr_assert_eq(d.tick, 0u);
    ent_trace_free(&a);
    ent_trace_free(&b);
}

/* Without a weapon the body alone is compared. */
Test(entity_cmp, no_weapon_slot)
{
    ent_trace a, b;
    make(&a, 3, 0, 2, 0);
    make(&b, 3, 0, 2, 0);
    cmp_divergence d;
    cr_assert_eq(ent_cmp(&a, &b, &d), 0);
    trace_set(&b.body, 1, FIELD_CMD_TOTAL, 0, 9);
    cr_assert_eq(ent_cmp(&a, &b, &d), 1);
    cr_assert_eq(d.model, FIELD_MODEL_BODY);
    cr_assert_eq(d.field, FIELD_CMD_TOTAL);
    cr_assert_eq(d.tick, 1u);
    cr_assert_eq(ent_weapon_end(&a.weapon), -1, "no weapon, no end");
    cr_assert_eq(ent_root_offset(&a, 0, 0), 0);
    ent_trace_free(&a);
    ent_trace_free(&b);
}

/*
 * The weapon's end call: the first call made with its frame already at its
 * total. Totals 3 over 6 calls: frames 1, 2, 3, 3, ... so call 3 is it.
 * Totals 5 over 4 calls: it never ends. Total 0: StartClip's own read
 * returns 1 at once (tick 0).
 */
Test(entity_weapon, where_it_ended)
{
    ent_trace a;
    make(&a, 6, 1, 5, 3);
    cr_assert_eq(ent_weapon_end(&a.weapon), 3);
    ent_trace_free(&a);
    make(&a, 4, 1, 3, 5);
    cr_assert_eq(ent_weapon_end(&a.weapon), -1);
    ent_trace_free(&a);
    make(&a, 2, 1, 1, 0);
    trace_set(&a.weapon, 0, FIELD_CMD_FRAME, 0, 0);
    trace_set(&a.weapon, 1, FIELD_CMD_FRAME, 0, 0);
    cr_assert_eq(ent_weapon_end(&a.weapon), 0);
    /* A trace without cmd.total cannot tell. */
    field_set root = {{0, 0}};
    field_set_add(&root, FIELD_ROOT_X);
    trace_clear(&a.weapon, &root, 1);
    trace_push_blank(&a.weapon, NULL);
    cr_assert_eq(ent_weapon_end(&a.weapon), -1);
    ent_trace_free(&a);
}

/* The in-hand offset: weapon root minus body root, (100 + t) - t. */
Test(entity_weapon, in_hand_offset)
{
    ent_trace a;
    make(&a, 3, 1, 2, 2);
    for (size_t t = 0; t < 3; t++)
        cr_assert_eq(ent_root_offset(&a, t, 0), 100);
    trace_set(&a.weapon, 1, FIELD_ROOT_Y, 0, -40);
    trace_set(&a.body, 1, FIELD_ROOT_Y, 0, 15);
    cr_assert_eq(ent_root_offset(&a, 1, 1), -55);
    cr_assert_eq(ent_root_offset(&a, 3, 0), 0, "past the last call");
    ent_trace_free(&a);
}

/* An entity group's signature names the model: weapon.root.x, body.scale.* ... */
Test(entity_groups, signature_with_the_model)
{
    run_results r;
    memset(&r, 0, sizeof r);
    entity_result er[2];
    memset(er, 0, sizeof er);
    r.entity_results = er;
    r.nentity_results = 2;
    ent_trace a, b;
    make(&a, 3, 1, 2, 2);
    make(&b, 3, 1, 2, 2);
    for (int i = 0; i < 2; i++) {
        er[i].r.mode = MODE_SLOW;
        er[i].r.div.model = i ? FIELD_MODEL_BODY : FIELD_MODEL_WEAPON;
        er[i].r.div.field = i ? FIELD_SCALE_Y : FIELD_ROOT_X;
        er[i].r.div.ref = i ? 1024 : 3;
        er[i].r.div.orig = i ? 2000 : 4;
        cr_assert_eq(group_add_entity(&r, (size_t)i, &a.weapon, &b.weapon), 0);
    }
    cr_assert_eq(r.ngroups, 2u);
    cr_assert_str_eq(r.groups[0].level, "entity");
    cr_assert_str_eq(r.groups[0].field, "weapon.root.x");
    cr_assert_str_eq(r.groups[0].shape, "off_by_one");
    cr_assert_str_eq(r.groups[0].mode, "slow");
    cr_assert_str_eq(r.groups[1].field, "body.scale.*", "an absent scale taken as 1.0");
    cr_assert_eq(er[1].r.group, 1);
    cr_assert_eq(r.groups[0].series.n, 3u);
    for (size_t g = 0; g < r.ngroups; g++) {
        free(r.groups[g].series.ref);
        free(r.groups[g].series.orig);
    }
    free(r.groups);
    ent_trace_free(&a);
    ent_trace_free(&b);
}
