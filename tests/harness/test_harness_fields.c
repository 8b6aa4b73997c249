/*
 * tests/harness/test_harness_fields.c: the field table and what is derived
 * from it: names, order, memory locations, trace layouts, the comparer's
 * first divergence, and Trace JSON Lines written and read back. Expected
 * values are worked out by hand from docs/engine.md and docs/pose.md offsets.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/compare.h"
#include "harness/core/fields.h"
#include "harness/core/outcome.h"
#include "harness/core/strbuf.h"
#include "harness/core/trace.h"
#include "harness/traces/trace_json.h"
#include "tests/harness/ft.h"

/* ---- the table ---- */

Test(fields, names_and_parse_round_trip)
{
    char buf[48];
    cr_assert_str_eq(field_name(FIELD_ROT_X, 12, buf, sizeof buf), "bone[12].rot.x");
    cr_assert_str_eq(field_name(FIELD_CMD_BIT, 0, buf, sizeof buf), "cmd.bit");
    cr_assert_str_eq(field_name(FIELD_SKEL_FLAG, 3, buf, sizeof buf), "skel.flag");
    cr_assert_str_eq(field_name(FIELD_M12, 7, buf, sizeof buf), "bone[7].m[1][2]");
    cr_assert_str_eq(field_name(FIELD_T_Y, 7, buf, sizeof buf), "bone[7].t.y");
    cr_assert_str_eq(field_name(FIELD_WORLD_M12, 3, buf, sizeof buf), "world[3].m[1][2]");
    cr_assert_str_eq(field_name(FIELD_PLACED_T_Z, 7, buf, sizeof buf), "placed[7].t.z");
    for (int f = 0; f < FIELD__COUNT; f++) {
        field_id got;
        unsigned bone;
        field_name((field_id)f, 7, buf, sizeof buf);
        cr_assert_eq(field_parse(buf, &got, &bone), 0, "%s", buf);
        cr_assert_eq((int)got, f, "%s", buf);
        cr_assert_eq(bone, field_is_per_bone(f) ? 7u : 0u, "%s", buf);
        cr_assert_eq((int)field_from_kind_name(field_kind_name((field_id)f)), f, "kind of %s unique",
                     buf);
    }
    field_id f;
    unsigned bone;
    cr_assert_eq(field_parse("bone[3].root.x", &f, &bone), -1);
    cr_assert_eq(field_parse("rot.x", &f, &bone), -1);
    cr_assert_eq(field_parse("bone[999].rot.x", &f, &bone), -1);
    cr_assert_eq(field_parse("cmd.nothing", &f, &bone), -1);
    cr_assert_eq(field_parse("world[3].rot.x", &f, &bone), -1, "rot is a bone's, not a world's");
    cr_assert_eq(field_parse("m[1][2]", &f, &bone), -1, "a per-bone kind needs its bone");
}

/* Where each field lives, from docs/engine.md section 3 and docs/pose.md section 1. */
Test(fields, locations_are_the_games)
{
    static const struct {
        field_id f;
        unsigned bone;
        field_area area;
        uint32_t off, size;
    } v[] = {
        {FIELD_ROOT_Y, 0, FIELD_AREA_SKEL, 0x0A, 2},
        {FIELD_SKEL_FLAG, 0, FIELD_AREA_SKEL, 0x01, 1},
        {FIELD_ROT_Z, 3, FIELD_AREA_BONE, 16 + 3 * 48 + 0x08, 2},
        {FIELD_SCALE_X, 0, FIELD_AREA_BONE, 16 + 0x0A, 2},
        {FIELD_CMD_CLIP, 0, FIELD_AREA_CMD, 0, 1},
        {FIELD_CMD_FLAGS, 0, FIELD_AREA_CMD, 1, 1},
        {FIELD_CMD_OFF, 0, FIELD_AREA_CMD, 2, 2},
        {FIELD_CMD_BIT, 0, FIELD_AREA_CMD, 4, 2},
        {FIELD_CMD_FRAME, 0, FIELD_AREA_CMD, 6, 1},
        {FIELD_CMD_TOTAL, 0, FIELD_AREA_CMD, 7, 1},
        {FIELD_M00, 1, FIELD_AREA_BONE, 16 + 48 + 0x10, 2},
        {FIELD_M22, 1, FIELD_AREA_BONE, 16 + 48 + 0x20, 2},
        {FIELD_T_Y, 2, FIELD_AREA_BONE, 16 + 96 + 0x28, 4},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        field_area a;
        uint32_t off, size;
        cr_assert_eq(field_locate(v[i].f, v[i].bone, &a, &off, &size), 1, "case %zu", i);
        cr_assert_eq(a, v[i].area, "case %zu", i);
        cr_assert_eq(off, v[i].off, "case %zu", i);
        cr_assert_eq(size, v[i].size, "case %zu", i);
    }
    field_area a;
    uint32_t off, size;
    cr_assert_eq(field_locate(FIELD_RET, 0, &a, &off, &size), 0, "ret has no memory");
    cr_assert_eq(field_locate(FIELD_PLACED_T_X, 2, &a, &off, &size), 1);
    cr_assert(a == FIELD_AREA_PLACED && off == 16 + 96 + 0x24 && size == 4);
}

/* The order of cause within one call (fields.h): decode, AnimCmd, matrices, ret. */
Test(fields, rank_follows_the_engines_writes)
{
    const struct {
        field_id f;
        unsigned bone;
    } order[] = {
        {FIELD_ROOT_X, 0},  {FIELD_ROOT_Z, 0},    {FIELD_SKEL_FLAG, 0}, {FIELD_ROT_X, 0},
        {FIELD_SCALE_Z, 0}, {FIELD_ROT_X, 1},     {FIELD_SCALE_Z, 254}, {FIELD_CMD_FRAME, 0},
        {FIELD_CMD_CLIP, 0}, {FIELD_M00, 0},      {FIELD_T_Z, 0},       {FIELD_M00, 1},
        {FIELD_T_Z, 254},   {FIELD_RET, 0},       {FIELD_WORLD_M00, 0}, {FIELD_WORLD_T_Z, 0},
        {FIELD_WORLD_M00, 1}, {FIELD_WORLD_T_Z, 254}, {FIELD_PLACED_M00, 0}, {FIELD_PLACED_T_Z, 254},
    };
    for (size_t i = 1; i < sizeof order / sizeof order[0]; i++)
        cr_assert_lt(field_rank(order[i - 1].f, order[i - 1].bone),
                     field_rank(order[i].f, order[i].bone), "pair %zu", i);
}

/* A frame trace of 2 bones: 11 scalars (root 3, flag, cmd 6, ret) + 2 x 6 channels. */
Test(fields, layout_and_its_inverse)
{
    trace_layout l;
    field_set frame = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    trace_layout_make(&l, &frame, 2);
    cr_assert_eq(l.width, 23);
    cr_assert_eq(l.slot[FIELD_SKEL_FLAG], 3);
    cr_assert_eq(l.slot[FIELD_ROT_X], 4);
    cr_assert_eq(l.stride[FIELD_ROT_X], 6);
    cr_assert_eq(l.slot[FIELD_CMD_FRAME], 16);
    cr_assert_eq(l.slot[FIELD_RET], 22);
    cr_assert_eq(l.slot[FIELD_M00], -1, "the pose level is not carried");
    uint32_t last = 0;
    for (size_t s = 0; s < l.width; s++) {
        field_id f;
        unsigned bone;
        cr_assert_eq(trace_layout_field(&l, s, &f, &bone), 0, "slot %zu", s);
        cr_assert_eq(trace_slot(&l, f, bone), s, "slot %zu", s);
        if (s) cr_assert_gt(field_rank(f, bone), last, "slot %zu in comparison order", s);
        last = field_rank(f, bone);
    }
    field_id f;
    unsigned bone;
    cr_assert_eq(trace_layout_field(&l, l.width, &f, &bone), -1);
}

/* ---- the comparer ---- */

Test(compare, identical_traces_match)
{
    trace a, b;
    ft_make_trace(&a, 5);
    ft_make_trace(&b, 5);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b, &d), 0);
    trace_free(&a);
    trace_free(&b);
}

Test(compare, first_divergence_follows_the_field_order)
{
    trace a, b;
    ft_make_trace(&a, 5);
    ft_make_trace(&b, 5);
    /* Tick 2: change cmd.off (after the bones) and bone 1 scale.y. */
    trace_set(&b, 2, FIELD_CMD_OFF, 0, 77);
    trace_set(&b, 2, FIELD_SCALE_Y, 1, 999);
    /* Tick 3: root.x. Tick 2 comes first; inside it, bones before cmd. */
    trace_set(&b, 3, FIELD_ROOT_X, 0, -5);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b, &d), 1);
    cr_assert_eq(d.tick, 2);
    cr_assert_eq(d.field, FIELD_SCALE_Y);
    cr_assert_eq(d.bone, 1);
    cr_assert_eq(d.ref, 1024);
    cr_assert_eq(d.orig, 999);
    /* The cursor tick 2 began from: tick 1's AnimCmd, off 1 + 4 = 5, bit 1. */
    cr_assert_eq(d.cursor_off, 5);
    cr_assert_eq(d.cursor_bit, 1);
    /* Differing values: tick 2 scale.y + cmd.off, tick 3 root.x = 3. */
    cr_assert_eq(d.differing, 3);
    trace_free(&a);
    trace_free(&b);
}

Test(compare, tick_zero_cursor_is_startclips)
{
    trace a, b;
    ft_make_trace(&a, 3);
    ft_make_trace(&b, 3);
    trace_set(&b, 0, FIELD_ROOT_Z, 0, 9);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b, &d), 1);
    cr_assert_eq(d.tick, 0);
    cr_assert_eq(d.field, FIELD_ROOT_Z);
    cr_assert_eq(d.cursor_off, 1);
    cr_assert_eq(d.cursor_bit, 0);
    trace_free(&a);
    trace_free(&b);
}

Test(compare, a_longer_side_differs_at_the_extra_call)
{
    trace a, b;
    ft_make_trace(&a, 4);
    ft_make_trace(&b, 4);
    /* The original goes on: its tick 3 did not return 1 and a tick 4 exists. */
    trace_set(&b, 3, FIELD_RET, 0, 0);
    int32_t *row = trace_push_blank(&b, NULL);
    cr_assert_not_null(row);
    memcpy(row, trace_row(&b, 3), b.lay.width * sizeof *row);
    trace_set(&b, 4, FIELD_RET, 0, 1);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b, &d), 1);
    cr_assert_eq(d.tick, 3);
    cr_assert_eq(d.field, FIELD_RET);
    cr_assert_eq(d.ref, 1);
    cr_assert_eq(d.orig, 0);
    cr_assert_eq(d.ref_ticks, 4);
    cr_assert_eq(d.orig_ticks, 5);
    trace_free(&a);
    trace_free(&b);
}

/* A candidate that carries no scales is compared on everything else. */
Test(compare, only_the_fields_both_carry)
{
    trace a, b;
    ft_make_trace(&a, 3);
    field_set some = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    field_set_del(&some, FIELD_SCALE_X);
    field_set_del(&some, FIELD_SCALE_Y);
    field_set_del(&some, FIELD_SCALE_Z);
    trace_init(&b);
    trace_clear(&b, &some, 2);
    for (size_t i = 0; i < a.n; i++) {
        cr_assert_not_null(trace_push_blank(&b, NULL));
        for (int f = 0; f < FIELD__COUNT; f++)
            for (unsigned bone = 0; bone < 2; bone++)
                trace_set(&b, i, (field_id)f, bone, trace_value(&a, i, (field_id)f, bone));
    }
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&b, &a, &d), 0, "scales are not compared");
    field_set both = cmp_fields(&a, &b);
    cr_assert(!field_set_has(&both, FIELD_SCALE_Y));
    cr_assert(field_set_has(&both, FIELD_ROT_Y));
    trace_set(&a, 1, FIELD_SCALE_Y, 1, 5);
    cr_assert_eq(cmp_traces(&b, &a, &d), 0, "a scale difference is not seen");
    trace_set(&a, 2, FIELD_ROT_Z, 0, 5);
    cr_assert_eq(cmp_traces(&b, &a, &d), 1);
    cr_assert_eq(d.tick, 2);
    cr_assert_eq(d.field, FIELD_ROT_Z);
    cr_assert_eq(d.differing, 1);
    trace_free(&a);
    trace_free(&b);
}

/* ---- Trace JSON Lines ---- */

static void write_clip(strbuf *s, const trace *t)
{
    tj_clip c = {.anim = 3, .mode = MODE_SLOW};
    snprintf(c.file, sizeof c.file, "c0m001.dat");
    snprintf(c.model, sizeof c.model, "monster");
    tj_write_trace(s, &c, t);
}

static void read_one(const strbuf *s, trace *t)
{
    ff_error err;
    tj_reader *r = tj_open_mem(s->s, s->len, "mem", &err);
    cr_assert_not_null(r);
    tj_clip got;
    cr_assert_eq(tj_next_clip(r, &got, t, &err), 1, "%s", err.reason);
    cr_assert_str_eq(got.file, "c0m001.dat");
    cr_assert_eq(got.anim, 3);
    cr_assert_eq(got.mode, MODE_SLOW);
    cr_assert_eq(tj_next_clip(r, &got, t + 1, &err), 0);
    tj_close(r);
}

Test(trace_json, write_then_read_back)
{
    trace a, b[2];
    ft_make_trace(&a, 3);
    trace_init(&b[0]);
    trace_init(&b[1]);
    strbuf s;
    sb_init(&s);
    write_clip(&s, &a);
    /* The first line: keys in the table's order, cmd.clip included. */
    const char *first = "{\"v\":1,\"file\":\"c0m001.dat\",\"model\":\"monster\",\"anim\":3,"
                        "\"mode\":\"slow\",\"tick\":0,\"root\":[0,0,0],\"skel_flag\":0,"
                        "\"rot\":[[0,10,20],[100,110,120]],\"scale\":[[1024,1024,1024],"
                        "[1024,1024,1024]],\"cmd\":{\"frame\":1,\"off\":1,\"bit\":0,"
                        "\"flags\":1,\"total\":3,\"clip\":3},\"ret\":0}\n";
    cr_assert_eq(strncmp(s.s, first, strlen(first)), 0, "%.*s", (int)strlen(first), s.s);
    read_one(&s, b);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b[0], &d), 0);
    cr_assert(field_set_eq(&a.lay.have, &b[0].lay.have));
    sb_free(&s);
    trace_free(&a);
    trace_free(&b[0]);
    trace_free(&b[1]);
}

/* The pose level's matrices: "mat", per bone the 9 cells then the 3 translations. */
Test(trace_json, matrices_round_trip)
{
    trace a, b[2];
    trace_init(&a);
    trace_init(&b[0]);
    trace_init(&b[1]);
    field_set both = field_set_of_levels(1u << FIELD_LEVEL_FRAME | 1u << FIELD_LEVEL_POSE);
    trace_clear(&a, &both, 1);
    cr_assert_not_null(trace_push_blank(&a, NULL));
    trace_set(&a, 0, FIELD_M00, 0, 4096);
    trace_set(&a, 0, FIELD_M12, 0, -7);
    trace_set(&a, 0, FIELD_T_Z, 0, -100000);
    trace_set(&a, 0, FIELD_RET, 0, 1);
    strbuf s;
    sb_init(&s);
    write_clip(&s, &a);
    cr_assert(strstr(s.s, ",\"mat\":[[4096,0,0,0,0,-7,0,0,0,0,0,-100000]],\"build_ret\":0,\"ret\":1,"
                          "\"world\":"),
              "%s", s.s);
    read_one(&s, b);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b[0], &d), 0);
    cr_assert(trace_has(&b[0], FIELD_T_Z));
    sb_free(&s);
    trace_free(&a);
    trace_free(&b[0]);
    trace_free(&b[1]);
}

/*
 * Reads text and expects an error naming line `line` with `what` in it: the
 * first spoilt clip's, or the reader's when broken lines follow every clip.
 */
static void expect_error(const char *text, unsigned long line, const char *what)
{
    ff_error err;
    trace t;
    trace_init(&t);
    tj_reader *r = tj_open_mem(text, strlen(text), "bad.jsonl", &err);
    cr_assert_not_null(r);
    tj_clip c;
    int rc;
    while ((rc = tj_next_clip(r, &c, &t, &err)) == 1 && !c.bad) {
    }
    if (rc == 1) err = c.error;
    cr_assert_neq(rc, 0, "no error for: %s", text);
    char head[32];
    snprintf(head, sizeof head, "line %lu: ", line);
    cr_assert_eq(strncmp(err.reason, head, strlen(head)), 0, "expected '%s...': %s", head,
                 err.reason);
    cr_assert_eq(err.offset, -1, "a line number is not a byte offset");
    cr_assert(strstr(err.reason, what), "'%s' lacks '%s'", err.reason, what);
    tj_close(r);
    trace_free(&t);
}

#define HEAD(tick)                                                                       \
    "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"normal\","    \
    "\"tick\":" #tick
#define GOOD(tick)                                                                       \
    HEAD(tick) ",\"ret\":0,\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,\"off\":3,"         \
               "\"bit\":1},\"skel_flag\":0,\"root\":[0,0,0],\"rot\":[[1,2,3]],"              \
               "\"scale\":[[1024,1024,1024]]}\n"

Test(trace_json, malformed_lines_name_their_line)
{
    expect_error(GOOD(0) "{\"v\":1,\"file\":\n", 2, "not valid JSON");
    expect_error(GOOD(0) GOOD(1) HEAD(2) ",\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,"
                                         "\"off\":3,\"bit\":1},\"skel_flag\":0,\"root\":[0,0,0],"
                                         "\"rot\":[[1,2,3]],\"scale\":[[1,1,1]]}\n",
                 3, "\"ret\"");
    expect_error(GOOD(0) HEAD(1) ",\"ret\":0,\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,"
                                 "\"off\":3,\"bit\":1},\"skel_flag\":0,\"root\":[0,0,0],"
                                 "\"rot\":[[1,2,3],[4,5,6]],\"scale\":[[1,1,1],[1,1,1]]}\n",
                 2, "has 2 bones, expected 1");
    expect_error(GOOD(0) GOOD(2), 2, "tick 2 out of order (expected 1)");
    expect_error(GOOD(1), 1, "first tick must be 0");
    expect_error(GOOD(0) "[1,2]\n", 2, "not a JSON object");
    expect_error(GOOD(0) "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":0,"
                         "\"mode\":\"turbo\",\"tick\":1}\n",
                 2, "unknown \"mode\"");
    /* A value that is no integer, and one past 32 bits. */
    expect_error(HEAD(0) ",\"ret\":0,\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,\"off\":3,"
                         "\"bit\":1},\"skel_flag\":0,\"root\":[0,0.5,0],\"rot\":[[1,2,3]],"
                         "\"scale\":[[1024,1024,1024]]}\n",
                 1, "\"root\"[1] is not a 32-bit integer");
    expect_error(HEAD(0) ",\"ret\":0,\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,\"off\":3,"
                         "\"bit\":1},\"skel_flag\":0,\"root\":[0,0,0],\"rot\":[[1,2,3]],"
                         "\"scale\":[[1024,4294967296,1024]]}\n",
                 1, "\"scale\"[0][1] is not a 32-bit integer");
    /* cmd.clip given on the first line only. */
    expect_error(HEAD(0) ",\"ret\":0,\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,\"off\":3,"
                         "\"bit\":1,\"clip\":0},\"skel_flag\":0,\"root\":[0,0,0],"
                         "\"rot\":[[1,2,3]],\"scale\":[[1024,1024,1024]]}\n" GOOD(1),
                 2, "field cmd.clip is missing, unlike the clip's first line");
}

/* Past the engine's 16 bits is a value to compare, not malformed input. */
Test(trace_json, wide_values_are_values)
{
    const char *text = HEAD(0) ",\"ret\":1,\"cmd\":{\"frame\":1,\"total\":1,\"flags\":0,"
                               "\"off\":3,\"bit\":1},\"skel_flag\":0,\"root\":[0,0,0],"
                               "\"rot\":[[1,40000,3]],\"scale\":[[32768,1024,1024]]}\n";
    ff_error err;
    trace t;
    trace_init(&t);
    tj_reader *r = tj_open_mem(text, strlen(text), "wide.jsonl", &err);
    tj_clip c;
    cr_assert_eq(tj_next_clip(r, &c, &t, &err), 1, "%s", err.reason);
    cr_assert_eq(trace_value(&t, 0, FIELD_ROT_Y, 0), 40000);
    cr_assert_eq(trace_value(&t, 0, FIELD_SCALE_X, 0), 32768);
    cr_assert(!trace_has(&t, FIELD_CMD_CLIP), "no cmd.clip given: not carried, not guessed");
    tj_close(r);
    trace_free(&t);
}

/* Cached outcomes index fields by id: a build with another table must not read them. */
Test(fields, cached_outcomes_of_another_field_table_are_refused)
{
    orig_outcome o;
    outcome_init(&o);
    ft_make_trace(&o.t, 2);
    strbuf raw;
    sb_init(&raw);
    outcome_append(&raw, 0, &o);
    raw.s[12] ^= 1; /* the table hash follows the magic and the format */
    uint8_t *packed, *back = NULL;
    size_t plen, blen;
    ff_error err;
    cr_assert_eq(outcome_pack(&raw, &packed, &plen, &err), 0);
    cr_assert_eq(outcome_unpack(packed, plen, "blob", SIZE_MAX, &back, &blen, &err), -1);
    cr_assert(strstr(err.reason, "another field table"), "%s", err.reason);
    cr_assert_null(back);
    free(packed);
    sb_free(&raw);
    outcome_free(&o);
}

/* A malformed line spoils its own clip only: the clips after it read on. */
Test(trace_json, a_bad_line_spoils_only_its_clip)
{
#define CLIP_LINE(anim, tick, ret)                                                         \
    "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":" #anim ",\"mode\":\"normal\"," \
    "\"tick\":" #tick ",\"ret\":" #ret ",\"cmd\":{\"frame\":1,\"total\":1,\"flags\":0,"        \
    "\"off\":3,\"bit\":1},\"skel_flag\":0,\"root\":[0,0,0],\"rot\":[[1,2,3]],"                \
    "\"scale\":[[1024,1024,1024]]}\n"
    const char *text = CLIP_LINE(0, 0, 0) CLIP_LINE(0, 1, 1) /* clip 0: fine */
        CLIP_LINE(1, 0, 0) "{\"v\":1,\"file\":\n" CLIP_LINE(1, 2, 1) /* clip 1: line 4 */
        CLIP_LINE(2, 0, 0) CLIP_LINE(2, 1, 1);                       /* clip 2: fine */
    ff_error err;
    trace t;
    trace_init(&t);
    tj_reader *r = tj_open_mem(text, strlen(text), "mixed.jsonl", &err);
    tj_clip c;
    cr_assert_eq(tj_next_clip(r, &c, &t, &err), 1);
    cr_assert(c.anim == 0 && !c.bad && t.n == 2);
    cr_assert_eq(tj_next_clip(r, &c, &t, &err), 1);
    cr_assert(c.anim == 1 && c.bad);
    cr_assert(strstr(c.error.reason, "line 4: not valid JSON"), "%s", c.error.reason);
    cr_assert_eq(tj_next_clip(r, &c, &t, &err), 1);
    cr_assert(c.anim == 2 && !c.bad && t.n == 2, "clip 2 reads on: anim %u bad %d", c.anim,
              c.bad);
    cr_assert_eq(tj_next_clip(r, &c, &t, &err), 0);
    tj_close(r);
    trace_free(&t);
#undef CLIP_LINE
}

/* The frames format: poses by frame, scale given on some frames only. */
Test(trace_json, frames_carry_what_they_supply)
{
    const char *text =
        "{\"file\":\"a.dat\",\"anim\":4,\"frame\":0,\"root\":[1,2,3],\"rot\":[[1,2,3],[4,5,6]]}\n"
        "{\"file\":\"a.dat\",\"anim\":4,\"frame\":1,\"root\":[1,2,4],\"rot\":[[1,2,3],[4,5,7]],"
        "\"scale\":[[1024,1024,1024],[2048,1024,1024]],\"skel_flag\":1}\n";
    ff_error err;
    trace t;
    trace_init(&t);
    tj_reader *r = tj_open_mem(text, strlen(text), "a.dat.frames.jsonl", &err);
    tj_clip c;
    cr_assert_eq(tj_next_clip(r, &c, &t, &err), 1, "%s", err.reason);
    cr_assert_eq(tj_reader_format(r), TJ_FORMAT_FRAMES);
    cr_assert(!c.bad, "%s", c.error.reason);
    cr_assert(c.anim == 4 && c.mode == MODE_NORMAL && t.n == 2 && t.lay.bones == 2);
    field_set f0 = trace_tick_fields(&t, 0), f1 = trace_tick_fields(&t, 1);
    cr_assert(field_set_has(&f0, FIELD_ROT_Z) && !field_set_has(&f0, FIELD_SCALE_X));
    cr_assert(!field_set_has(&f0, FIELD_SKEL_FLAG) && !field_set_has(&f0, FIELD_RET));
    cr_assert(field_set_has(&f1, FIELD_SCALE_X) && field_set_has(&f1, FIELD_SKEL_FLAG));
    cr_assert_eq(trace_value(&t, 1, FIELD_SCALE_X, 1), 2048);
    cr_assert_eq(trace_value(&t, 1, FIELD_ROT_Z, 1), 7);
    /* Compared with an engine trace: frame 0 on root and rot only. */
    trace e;
    ft_make_trace(&e, 3);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&t, &e, &d), 1);
    cr_assert_eq(d.tick, 0);
    cr_assert_eq(d.field, FIELD_ROOT_X, "frame 0's scale is not compared, its root is");
    tj_close(r);
    trace_free(&t);
    trace_free(&e);
}
