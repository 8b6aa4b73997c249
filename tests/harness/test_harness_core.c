/*
 * tests/harness/test_harness_core.c: difference shapes, outcome blobs, text
 * escaping, the results cache (the field table, traces and the comparer:
 * test_harness_fields.c).
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
#include "tests/harness/ft.h"

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
        {FIELD_ROT_Y, 32770, -32766, "missing_16bit_wrap"}, /* -32766 + 65536 */
        {FIELD_SCALE_X, 32768, -32768, "missing_16bit_wrap"}, /* payload 0x7C00 + 1024 */
        {FIELD_ROOT_X, -40000, 25536, "missing_16bit_wrap"},
        {FIELD_SCALE_Z, 1024, 0, "orig_zero"},
        {FIELD_SCALE_Y, 1024, 1536, "neutral_scale"},
        {FIELD_ROT_Y, 1024, 1500, "other"},
        {FIELD_ROT_X, 1024, 0, "orig_zero"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char shape[48];
        group_shape(v[i].f, v[i].ref, v[i].orig, shape, sizeof shape);
        cr_assert_str_eq(shape, v[i].shape, "case %zu", i);
    }
}

Test(outcome, blob_round_trip_with_a_fault)
{
    orig_outcome a, b;
    outcome_init(&a);
    outcome_init(&b);
    ft_make_trace(&a.t, 4);
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
