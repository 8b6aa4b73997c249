/*
 * tests/harness/test_harness_dummy_field.c: built with one more row in the
 * field table (dummy_field.h) and nothing else changed: the new field is
 * read from the game's bytes, compared in its place (after the AnimCmd,
 * before the return value), named, a field class of its own, written to
 * Trace JSON Lines, read back and carried through the cache's outcome
 * records.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/le.h"
#include "harness/core/compare.h"
#include "harness/core/outcome.h"
#include "harness/traces/trace_json.h"

/* One bone; the header's +4 word holds v, everything else is fixed. */
static void make(trace *t, int16_t v)
{
    uint8_t skel[16 + 48] = {1}, cmd[8] = {0, 0, 1, 0, 0, 0, 1, 1};
    le_put16(skel + 4, (uint16_t)v);
    trace_init(t);
    field_set frame = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    trace_clear(t, &frame, 1);
    field_state s = {.ret = 1, .cmd = cmd, .skel = skel};
    cr_assert_eq(trace_push_state(t, &s, NULL), 0);
}

Test(dummy_field, is_read_compared_written_and_read_back)
{
    trace a, b, c;
    make(&a, 1234);
    make(&b, -77);
    cr_assert_eq(trace_value(&a, 0, FIELD_DUMMY, 0), 1234, "read from header +4");
    char name[32];
    cr_assert_str_eq(field_name(FIELD_DUMMY, 0, name, sizeof name), "skel.unk4");
    cr_assert_gt(field_rank(FIELD_DUMMY, 0), field_rank(FIELD_CMD_CLIP, 0));
    cr_assert_lt(field_rank(FIELD_DUMMY, 0), field_rank(FIELD_RET, 0));
    /* A new JSON key is a new field class (what checks count and --require names). */
    field_classes fc;
    field_classes_make(&fc);
    int k = field_class_find(&fc, "unk4");
    cr_assert(k >= 0 && fc.first[k] == FIELD_DUMMY && fc.of[FIELD_DUMMY] == k, "class of the row");
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b, &d), 1);
    cr_assert_eq(d.field, FIELD_DUMMY);
    cr_assert_eq(d.ref, 1234);
    cr_assert_eq(d.orig, -77);

    strbuf s;
    sb_init(&s);
    tj_clip id = {.anim = 0, .mode = MODE_NORMAL};
    snprintf(id.file, sizeof id.file, "x.dat");
    snprintf(id.model, sizeof id.model, "monster");
    tj_write_trace(&s, &id, &b);
    cr_assert(strstr(s.s, ",\"unk4\":-77,") != NULL, "%s", s.s);
    ff_error err;
    tj_reader *r = tj_open_mem(s.s, s.len, "mem", &err);
    trace_init(&c);
    cr_assert_eq(tj_next_clip(r, &id, &c, &err), 1, "%s", err.reason);
    cr_assert_eq(trace_value(&c, 0, FIELD_DUMMY, 0), -77);
    cr_assert_eq(cmp_traces(&b, &c, &d), 0);
    tj_close(r);

    orig_outcome o, back;
    outcome_init(&o);
    outcome_init(&back);
    cr_assert_eq(trace_copy(&o.t, &a, NULL), 0);
    strbuf raw;
    sb_init(&raw);
    outcome_append(&raw, 0, &o);
    size_t pos = 0;
    uint32_t clip;
    cr_assert_eq(outcome_next((const uint8_t *)raw.s, raw.len, &pos, &clip, &back, "raw", &err), 1);
    cr_assert_eq(trace_value(&back.t, 0, FIELD_DUMMY, 0), 1234);
    outcome_free(&o);
    outcome_free(&back);
    sb_free(&raw);
    sb_free(&s);
    trace_free(&a);
    trace_free(&b);
    trace_free(&c);
}
