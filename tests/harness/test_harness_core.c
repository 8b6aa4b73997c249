/*
 * tests/harness/test_harness_core.c: the comparer's first divergence and
 * field order, field names, difference shapes, trace JSON Lines round trips
 * and their errors, outcome blobs, text escaping, the results cache.
 * Expected values are worked out by hand in the comments.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/run/cache.h"
#include "harness/core/compare.h"
#include "harness/core/fields.h"
#include "harness/core/group.h"
#include "harness/core/outcome.h"
#include "harness/core/strbuf.h"
#include "harness/core/trace.h"
#include "harness/traces/trace_json.h"

/* A 2-bone trace of n ticks: root (t, -t, 2t), rot bone b channel c = 100b + 10c + t. */
static void make_trace(trace *t, size_t n)
{
    trace_init(t);
    trace_clear(t, 2);
    for (size_t i = 0; i < n; i++) {
        trace_tick k = {0};
        k.ret = i + 1 == n;
        k.cmd[0] = 3;        /* clip */
        k.cmd[1] = 0x01;     /* slow */
        k.cmd[2] = (uint8_t)(1 + 4 * i); /* off */
        k.cmd[4] = (uint8_t)(i % 8);     /* bit */
        k.cmd[6] = (uint8_t)(i + 1);     /* frame */
        k.cmd[7] = (uint8_t)n;           /* total */
        k.root[0] = (int16_t)i;
        k.root[1] = (int16_t)-(int)i;
        k.root[2] = (int16_t)(2 * i);
        int16_t b6[12];
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 6; c++) b6[b * 6 + c] = (int16_t)(c < 3 ? 100 * b + 10 * c + i : 1024);
        cr_assert_eq(trace_push(t, &k, b6, NULL), 0);
    }
}

Test(compare, identical_traces_match)
{
    trace a, b;
    make_trace(&a, 5);
    make_trace(&b, 5);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b, &d), 0);
    trace_free(&a);
    trace_free(&b);
}

Test(compare, first_divergence_follows_the_field_order)
{
    trace a, b;
    make_trace(&a, 5);
    make_trace(&b, 5);
    /* Tick 2: change cmd.off (after the bones) and bone 1 scale.y (index 1*6+4). */
    b.ticks[2].cmd[2] = 77;
    ((int16_t *)trace_bone6(&b, 2))[1 * 6 + 4] = 999;
    /* Tick 3: root.x. Tick 2 comes first; inside it, bones before cmd. */
    b.ticks[3].root[0] = -5;
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
    make_trace(&a, 3);
    make_trace(&b, 3);
    b.ticks[0].root[2] = 9;
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
    make_trace(&a, 4);
    make_trace(&b, 4);
    /* The original goes on: its tick 3 did not return 1 and a tick 4 exists. */
    b.ticks[3].ret = 0;
    trace_tick k = b.ticks[3];
    k.ret = 1;
    cr_assert_eq(trace_push(&b, &k, trace_bone6(&b, 3), NULL), 0);
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

Test(fields, names_and_parse_round_trip)
{
    char buf[48];
    cr_assert_str_eq(field_name(FIELD_ROT_X, 12, buf, sizeof buf), "bone[12].rot.x");
    cr_assert_str_eq(field_name(FIELD_CMD_BIT, 0, buf, sizeof buf), "cmd.bit");
    cr_assert_str_eq(field_name(FIELD_SKEL_FLAG, 3, buf, sizeof buf), "skel.flag");
    for (int f = 0; f < FIELD__COUNT; f++) {
        field_id got;
        unsigned bone;
        field_name((field_id)f, 7, buf, sizeof buf);
        cr_assert_eq(field_parse(buf, &got, &bone), 0, "%s", buf);
        cr_assert_eq(got, (field_id)f, "%s", buf);
        cr_assert_eq(bone, field_is_per_bone(f) ? 7u : 0u, "%s", buf);
    }
    field_id f;
    unsigned bone;
    cr_assert_eq(field_parse("bone[3].root.x", &f, &bone), -1);
    cr_assert_eq(field_parse("rot.x", &f, &bone), -1);
    cr_assert_eq(field_parse("bone[999].rot.x", &f, &bone), -1);
    cr_assert_eq(field_parse("cmd.nothing", &f, &bone), -1);
}

Test(group, shapes)
{
    static const struct {
        field_id f;
        int32_t ref, orig;
        const char *shape;
    } v[] = {
        {FIELD_ROT_X, -2048, 2048, "differs_by_2^12"}, /* missing 12-bit sign extension */
        {FIELD_ROT_Y, -1, -2, "off_by_one"},           /* -3/2 vs -3>>1 */
        {FIELD_SCALE_X, 1024, 0, "orig_zero"},
        {FIELD_ROOT_X, 0, 17, "ref_zero"},
        {FIELD_ROOT_Y, 40, -40, "negated"},
        {FIELD_ROOT_Z, 300, 600, "doubled"},
        {FIELD_ROOT_Z, 300, 150, "halved"},
        {FIELD_ROOT_Z, 300, 311, "other"},
        {FIELD_ROOT_Z, 300, 308, "differs_by_2^3"},
        {FIELD_SKEL_FLAG, 0x00, 0x01, "xor_0x01"},
        {FIELD_CMD_FLAGS, 0x05, 0x01, "xor_0x04"},
        {FIELD_RET, 0, 1, "ends_early"},
        {FIELD_RET, 1, 0, "ends_late"},
        {FIELD_RET, 1, -1, "no_call"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char shape[48];
        group_shape(v[i].f, v[i].ref, v[i].orig, shape, sizeof shape);
        cr_assert_str_eq(shape, v[i].shape, "case %zu", i);
    }
}

Test(trace_json, write_then_read_back)
{
    trace a, b;
    make_trace(&a, 3);
    trace_init(&b);
    tj_clip c = {.anim = 3, .mode = MODE_SLOW};
    snprintf(c.file, sizeof c.file, "c0m001.dat");
    snprintf(c.model, sizeof c.model, "monster");
    strbuf s;
    sb_init(&s);
    tj_write_trace(&s, &c, &a);
    /* The first line, byte for byte as DESIGN.md orders the keys. */
    const char *first = "{\"v\":1,\"file\":\"c0m001.dat\",\"model\":\"monster\",\"anim\":3,"
                        "\"mode\":\"slow\",\"tick\":0,\"ret\":0,\"cmd\":{\"frame\":1,\"total\":3,"
                        "\"flags\":1,\"off\":1,\"bit\":0},\"skel_flag\":0,\"root\":[0,0,0],"
                        "\"rot\":[[0,10,20],[100,110,120]],\"scale\":[[1024,1024,1024],"
                        "[1024,1024,1024]]}\n";
    cr_assert_eq(strncmp(s.s, first, strlen(first)), 0, "%.*s", (int)strlen(first), s.s);
    ff_error err;
    tj_reader *r = tj_open_mem(s.s, s.len, "mem", &err);
    cr_assert_not_null(r);
    tj_clip got;
    cr_assert_eq(tj_next_clip(r, &got, &b, &err), 1, "%s", err.reason);
    cr_assert_str_eq(got.file, "c0m001.dat");
    cr_assert_eq(got.anim, 3);
    cr_assert_eq(got.mode, MODE_SLOW);
    cmp_divergence d;
    cr_assert_eq(cmp_traces(&a, &b, &d), 0);
    cr_assert_eq(tj_next_clip(r, &got, &b, &err), 0);
    tj_close(r);
    sb_free(&s);
    trace_free(&a);
    trace_free(&b);
}

/* Reads text and expects an error naming line `line` with `what` in it. */
static void expect_error(const char *text, unsigned long line, const char *what)
{
    ff_error err;
    trace t;
    trace_init(&t);
    tj_reader *r = tj_open_mem(text, strlen(text), "bad.jsonl", &err);
    cr_assert_not_null(r);
    tj_clip c;
    int rc;
    while ((rc = tj_next_clip(r, &c, &t, &err)) == 1) {
    }
    cr_assert_eq(rc, -1, "no error for: %s", text);
    char head[32];
    snprintf(head, sizeof head, "line %lu: ", line);
    cr_assert_eq(strncmp(err.reason, head, strlen(head)), 0, "expected '%s...': %s", head,
                 err.reason);
    cr_assert_eq(err.offset, -1, "a line number is not a byte offset");
    cr_assert(strstr(err.reason, what), "'%s' lacks '%s'", err.reason, what);
    tj_close(r);
    trace_free(&t);
}

#define GOOD(tick)                                                                       \
    "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"normal\","    \
    "\"tick\":" #tick ",\"ret\":0,\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,\"off\":3,"   \
    "\"bit\":1},\"skel_flag\":0,\"root\":[0,0,0],\"rot\":[[1,2,3]],\"scale\":[[1024,1024,1024]]}\n"

Test(trace_json, malformed_lines_name_their_line)
{
    expect_error(GOOD(0) "{\"v\":1,\"file\":\n", 2, "not valid JSON");
    expect_error(GOOD(0) GOOD(1)
                 "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"normal\","
                 "\"tick\":2,\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,\"off\":3,\"bit\":1},"
                 "\"skel_flag\":0,\"root\":[0,0,0],\"rot\":[[1,2,3]],\"scale\":[[1,1,1]]}\n",
                 3, "\"ret\"");
    expect_error(GOOD(0)
                 "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"normal\","
                 "\"tick\":1,\"ret\":0,\"cmd\":{\"frame\":1,\"total\":2,\"flags\":0,\"off\":3,"
                 "\"bit\":1},\"skel_flag\":0,\"root\":[0,0,0],\"rot\":[[1,2,3],[4,5,6]],"
                 "\"scale\":[[1,1,1],[1,1,1]]}\n",
                 2, "has 2 bones, expected 1");
    expect_error(GOOD(0) GOOD(2), 2, "tick 2 out of order (expected 1)");
    expect_error(GOOD(1), 1, "first tick must be 0");
    expect_error(GOOD(0) "[1,2]\n", 2, "not a JSON object");
    expect_error(GOOD(0)
                 "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"turbo\","
                 "\"tick\":1}\n",
                 2, "unknown \"mode\"");
}

Test(outcome, blob_round_trip_with_a_fault)
{
    orig_outcome a, b;
    outcome_init(&a);
    outcome_init(&b);
    make_trace(&a.t, 4);
    a.extent = 1234;
    strbuf raw;
    sb_init(&raw);
    outcome_append(&raw, 0, &a);
    a.faulted = 1;
    a.fault.kind = EMU_FAULT_BUDGET;
    a.fault.eip = 0x508FA0;
    snprintf(a.fault.disasm, sizeof a.fault.disasm, ">0x508fa0: jmp 0x508fa0\n");
    outcome_append(&raw, 1, &a);
    uint8_t *packed, *back;
    size_t plen, blen;
    ff_error err;
    cr_assert_eq(outcome_pack(&raw, &packed, &plen, &err), 0);
    cr_assert_eq(outcome_unpack(packed, plen, "blob", &back, &blen, &err), 0, "%s", err.reason);
    cr_assert_eq(blen, raw.len);
    size_t pos = 0;
    uint32_t clip;
    cmp_divergence d;
    cr_assert_eq(outcome_next(back, blen, &pos, &clip, &b, "blob", &err), 1);
    cr_assert_eq(clip, 0);
    cr_assert_eq(b.faulted, 0);
    cr_assert_eq(b.extent, 1234);
    cr_assert_eq(cmp_traces(&a.t, &b.t, &d), 0);
    cr_assert_eq(outcome_next(back, blen, &pos, &clip, &b, "blob", &err), 1);
    cr_assert_eq(clip, 1);
    cr_assert_eq(b.faulted, 1);
    cr_assert_eq(b.fault.kind, EMU_FAULT_BUDGET);
    cr_assert_eq(b.fault.eip, 0x508FA0);
    cr_assert_eq(outcome_next(back, blen, &pos, &clip, &b, "blob", &err), 0);
    /* A damaged blob is an error, not a crash: cut the last record short. */
    pos = 0;
    cr_assert_eq(outcome_next(back, blen - 10, &pos, &clip, &b, "blob", &err), 1);
    cr_assert_eq(outcome_next(back, blen - 10, &pos, &clip, &b, "blob", &err), -1);
    packed[plen / 2] ^= 0xFF;
    uint8_t *junk = NULL;
    size_t jlen;
    cr_assert_eq(outcome_unpack(packed, plen / 2, "blob", &junk, &jlen, &err), -1);
    free(packed);
    free(back);
    sb_free(&raw);
    outcome_free(&a);
    outcome_free(&b);
}

Test(strbuf, escaping)
{
    strbuf b;
    sb_init(&b);
    sb_json_str(&b, "a\"b\\c\n\x01\xff\xc3\xa9");
    /* quote, backslash, newline, control as \u0001, invalid byte as U+FFFD, é kept */
    cr_assert_str_eq(b.s, "\"a\\\"b\\\\c\\n\\u0001\\ufffd\xc3\xa9\"");
    sb_reset(&b);
    sb_html(&b, "<script>&\"'");
    cr_assert_str_eq(b.s, "&lt;script&gt;&amp;&quot;&#39;");
    sb_reset(&b);
    sb_int(&b, INT64_MIN);
    cr_assert_str_eq(b.s, "-9223372036854775808");
    /* Overlong "/" (C0 AF) and a surrogate (ED A0 80) are not UTF-8. */
    cr_assert_eq(utf8_seq_len((const unsigned char *)"\xc0\xaf"), 0);
    cr_assert_eq(utf8_seq_len((const unsigned char *)"\xed\xa0\x80"), 0);
    cr_assert_eq(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80"), 4);
    sb_free(&b);
}

Test(cache, put_get_and_size_limit)
{
    char dir[] = "/tmp/ff8diff-cache-test-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    cache *c;
    ff_error err;
    /* A limit of 2500 bytes holds two 1000-byte entries, not three. */
    cr_assert_eq(cache_open(dir, 2500, &c, &err), 0, "%s", err.reason);
    char k1[65], k2[65], k3[65];
    cr_assert_eq(cache_key(k1, "exe/profile", "aa", MODE_NORMAL, "frame", NULL), 0);
    cr_assert_eq(cache_key(k2, "exe/profile", "aa", MODE_SLOW, "frame", NULL), 0);
    cr_assert_eq(cache_key(k3, "exe/profile", "bb", MODE_NORMAL, "frame", NULL), 0);
    cr_assert_str_neq(k1, k2);
    cr_assert_str_neq(k1, k3);
    uint8_t blob[1000];
    for (int i = 0; i < 1000; i++) blob[i] = (uint8_t)i;
    cr_assert_eq(cache_put(c, k1, blob, sizeof blob, &err), 0);
    cr_assert_eq(cache_has(c, k1), 1);
    cr_assert_eq(cache_has(c, k2), 0);
    uint8_t *got;
    size_t len;
    cr_assert_eq(cache_get(c, k1, &got, &len, &err), 1);
    cr_assert_eq(len, sizeof blob);
    cr_assert_eq(memcmp(got, blob, len), 0);
    free(got);
    sleep(1); /* entries are aged by their write time, in seconds */
    cr_assert_eq(cache_put(c, k2, blob, sizeof blob, &err), 0);
    sleep(1);
    cr_assert_eq(cache_put(c, k3, blob, sizeof blob, &err), 0);
    cache_stats st;
    cache_stat(c, &st);
    cr_assert_eq(st.entries, 2);
    cr_assert_eq(st.bytes, 2000);
    cr_assert_eq(cache_has(c, k1), 0, "the oldest entry goes first");
    cache_close(c);
    /* A new handle sees what is on disk. */
    cr_assert_eq(cache_open(dir, 0, &c, &err), 0);
    cache_stat(c, &st);
    cr_assert_eq(st.entries, 2);
    uint64_t removed;
    cr_assert_eq(cache_clear(c, &removed, &err), 0);
    cr_assert_eq(removed, 2);
    cache_stat(c, &st);
    cr_assert_eq(st.entries, 0);
    cache_close(c);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
