/*
 * tests/harness/test_harness_core.c: difference shapes, text escaping, the
 * modes and levels tables and the lists messages make of them, the entity
 * statuses of the modes table (outcome blobs: test_harness_outcome.c; the
 * field table, traces and the comparer: test_harness_fields.c; the results
 * cache: test_harness_cache.c).
 * Expected values are worked out by hand in the comments.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/cells.h"
#include "harness/core/compare.h"
#include "harness/core/fields.h"
#include "harness/core/group.h"
#include "harness/core/levels.h"
#include "harness/core/modes.h"
#include "harness/core/outcome.h"
#include "harness/core/strbuf.h"
#include "harness/core/trace.h"
#include "harness/traces/trace_json.h"
#include "ref/engine.h"
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

Test(cells, classes)
{
    static const struct {
        field_id f;
        int32_t ref, orig;
        cell_class c;
    } v[] = {
        {FIELD_ROT_X, 65535, -1, CELL_WHOLE_TURNS},      /* a missing 16-bit wrap: 16 turns */
        {FIELD_ROT_Y, 12318, 30, CELL_WHOLE_TURNS},      /* 3 turns */
        {FIELD_ROT_Z, -8194, -2, CELL_WHOLE_TURNS},      /* -2 turns */
        {FIELD_ROT_Z, INT32_MIN, 0, CELL_WHOLE_TURNS},   /* -2^31: no overflow */
        {FIELD_ROT_X, INT32_MAX, INT32_MIN, CELL_POSE},  /* 2^32 - 1: not a multiple */
        {FIELD_ROT_Y, 2048, 0, CELL_POSE},               /* half a turn */
        {FIELD_ROT_Y, 2048, -2048, CELL_WHOLE_TURNS},    /* 180 and -180 degrees: one turn */
        {FIELD_ROT_X, 4097, 0, CELL_POSE},
        {FIELD_SCALE_X, 66560, 1024, CELL_POSE},         /* a wrapped scale is a pose difference */
        {FIELD_SCALE_Y, 4096, 0, CELL_POSE},
        {FIELD_ROOT_X, 60000, -5536, CELL_POSE},         /* so is a wrapped translation */
        {FIELD_ROOT_Y, 4096, 0, CELL_POSE},
        {FIELD_SKEL_FLAG, 1, 0, CELL_POSE},
        {FIELD_M00, 4096, 0, CELL_POSE},
        {FIELD_WORLD_T_X, 65536, 0, CELL_POSE},
        {FIELD_CMD_OFF, 4096, 0, CELL_STATE},
        {FIELD_CMD_FRAME, 3, 2, CELL_STATE},
        {FIELD_RET, 1, 0, CELL_STATE},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        cr_assert_eq(cell_classify(v[i].f, v[i].ref, v[i].orig), v[i].c, "case %zu: %s", i,
                     cell_class_name(cell_classify(v[i].f, v[i].ref, v[i].orig)));
    for (int c = 0; c < CELL__COUNT; c++)
        cr_assert_eq(cell_class_from_name(cell_class_name((cell_class)c)), c);
    cr_assert_str_eq(cell_class_text(CELL_WHOLE_TURNS),
                     "whole turns: no pose effect beyond trig rounding");
}

Test(strbuf, escaping)
{
    strbuf b;
    sb_init(&b);
    sb_json_str(&b, "a\"b\\c\n\x01\xff\xc3\xa9\xc2\x9b");
    /* quote, backslash, newline, control as \u0001, invalid byte and C1 as \xNN, é kept */
    cr_assert_str_eq(b.s, "\"a\\\"b\\\\c\\n\\u0001\\\\xff\xc3\xa9\\\\xc2\\\\x9b\"");
    sb_reset(&b);
    sb_html(&b, "<script>&\"'");
    cr_assert_str_eq(b.s, "&lt;script&gt;&amp;&quot;&#39;");
    /* Text from input, shown: ESC, C1 CSI (U+009B), bytes FF FE, DEL as \xNN everywhere;
     * HTML keeps newline and tab, the terminal shows them too; é stays. */
    static const char input[] = "a\x1b[31m\xc2\x9b" "2J\xff\xfe\x7f\n\t\xc3\xa9";
    sb_reset(&b);
    sb_html(&b, input);
    cr_assert_str_eq(b.s, "a\\x1b[31m\\xc2\\x9b2J\\xff\\xfe\\x7f\n\t\xc3\xa9");
    sb_reset(&b);
    sb_xml(&b, input);
    cr_assert_str_eq(b.s, "a\\x1b[31m\\xc2\\x9b2J\\xff\\xfe\\x7f\n\t\xc3\xa9");
    sb_reset(&b);
    sb_safe(&b, input);
    cr_assert_str_eq(b.s, "a\\x1b[31m\\xc2\\x9b2J\\xff\\xfe\\x7f\\x0a\\x09\xc3\xa9");
    sb_reset(&b);
    sb_utf8(&b, input);
    cr_assert_str_eq(b.s, "a\x1b[31m\\xc2\\x9b2J\\xff\\xfe\\x7f\n\t\xc3\xa9",
                     "C0 is left to the JSON writer");
    sb_reset(&b);
    sb_int(&b, INT64_MIN);
    cr_assert_str_eq(b.s, "-9223372036854775808");
    /* Overlong "/" (C0 AF) and a surrogate (ED A0 80) are not UTF-8. */
    cr_assert_eq(utf8_seq_len((const unsigned char *)"\xc0\xaf"), 0);
    cr_assert_eq(utf8_seq_len((const unsigned char *)"\xed\xa0\x80"), 0);
    cr_assert_eq(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80"), 4);
    sb_free(&b);
}

/* An owner's memory for a strbuf over it: a fixed array handed out 16 bytes at a time. */
typedef struct owned {
    char mem[64];
    size_t given;
    int calls;
} owned;

static int owned_room(strbuf *b, size_t need)
{
    owned *o = b->room_arg;
    o->calls++;
    size_t want = o->given ? o->given : 16;
    while (want < need)
        want += 16;
    if (want > sizeof o->mem) return -1;
    o->given = want;
    b->s = o->mem;
    b->cap = want;
    return 0;
}

/* A buffer over its owner's memory writes there, asks the owner for room only when it
 * needs more, fails (sticky) when the owner has none, and sb_free leaves the memory alone. */
Test(strbuf, over_an_owners_memory)
{
    owned o = {.given = 0};
    strbuf b;
    sb_init_over(&b, owned_room, &o);
    sb_add(&b, "0123456789", 10);
    cr_assert_eq(o.calls, 1);
    cr_assert_eq(b.s, o.mem);
    sb_add(&b, "abcdefghij", 10);
    cr_assert_eq(o.calls, 2);
    cr_assert_eq(o.given, 32);
    cr_assert_str_eq(o.mem, "0123456789abcdefghij");
    sb_add(&b, "klm", 3);
    cr_assert_eq(o.calls, 2, "room was there");
    cr_assert_not(strbuf_failed(&b));
    char big[64];
    memset(big, 'x', sizeof big);
    sb_add(&b, big, sizeof big);
    cr_assert(strbuf_failed(&b));
    cr_assert_eq(b.len, 23, "a failed append adds nothing");
    sb_free(&b); /* o.mem is not the heap's: freeing it would crash under ASan */
    cr_assert_null(b.s);
}

/*
 * The entity statuses: normal 0x00, Slow 0x80, Haste 0x40, Slow+Haste 0xC0;
 * each turns, through the reference's QueueAnimation with a valid pair,
 * into the flags of the mode its row names (Slow+Haste into slow). The
 * entity level can run normal, slow and fast; slow+fast no status reaches.
 */
Test(modes, entity_statuses)
{
    static const uint8_t bytes[ENTITY_STATUS__COUNT] = {0x00, 0x80, 0x40, 0xC0};
    static const mode_id want[ENTITY_STATUS__COUNT] = {MODE_NORMAL, MODE_SLOW, MODE_FAST,
                                                        MODE_SLOW};
    static const uint8_t pair[3] = {3, 0, 3};
    ff_error err;
    for (int s = 0; s < ENTITY_STATUS__COUNT; s++) {
        cr_assert_eq(entity_status_byte((entity_status_id)s), bytes[s], "status %d", s);
        cr_assert_eq(entity_status_mode((entity_status_id)s), want[s], "status %d", s);
        ref_entity_speed sp = {0, bytes[s], pair};
        uint8_t f = 0xFF;
        cr_assert_eq(ref_queue_flags(&sp, 0, &f, &err), 0);
        cr_assert_eq(f, mode_flags(want[s]), "status %s: 0x%02x",
                     entity_status_name((entity_status_id)s), f);
    }
    cr_assert_str_eq(entity_status_name(ENTITY_STATUS_SLOW_HASTE), "slow+haste");
    cr_assert_eq(entity_status_of_mode(MODE_NORMAL), ENTITY_STATUS_NORMAL);
    cr_assert_eq(entity_status_of_mode(MODE_SLOW), ENTITY_STATUS_SLOW, "the first row reaching it");
    cr_assert_eq(entity_status_of_mode(MODE_FAST), ENTITY_STATUS_HASTE);
    cr_assert_eq(entity_status_of_mode(MODE_SLOW_FAST), -1);
    cr_assert_eq(mode_entity_mask(), (1u << MODE_NORMAL) | (1u << MODE_SLOW) | (1u << MODE_FAST));
    cr_assert_null(mode_entity_why_not(MODE_FAST));
    cr_assert_not_null(mode_entity_why_not(MODE_SLOW_FAST));
}

/* A tick pushed from the game's bytes holds, for every carried field and bone, what
 * field_read reads there: under every level's field set, random subsets of them (a
 * MATRIX's twelve with some left out), and bone counts from 1 to 40. */
Test(trace, a_pushed_state_holds_field_read_for_every_field_and_bone)
{
    enum { BONES_MAX = 40, LEN = 16 + 48 * BONES_MAX };
    uint64_t x = 0xA4093822299F31D0ull;
    static uint8_t skel[LEN], world[LEN], placed[LEN], cmd[8];
    trace t;
    trace_init(&t);
    for (int trial = 0; trial < 300; trial++) {
        uint8_t *bufs[3] = {skel, world, placed};
        for (int k = 0; k < 3; k++)
            for (size_t i = 0; i < LEN; i++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                bufs[k][i] = (uint8_t)(x >> 32);
            }
        for (int i = 0; i < 8; i++) cmd[i] = (uint8_t)(x >> (8 * i));
        field_set have = field_set_of_levels(trial % 3 == 0 ? 1u << FIELD_LEVEL_FRAME
                                                            : 1u << FIELD_LEVEL_FRAME |
                                                                  1u << FIELD_LEVEL_POSE);
        if (trial % 3 == 2)
            for (int f = 0; f < FIELD__COUNT; f++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                if (x % 4 == 0) field_set_del(&have, (field_id)f);
            }
        unsigned bones = 1 + (unsigned)(x >> 40) % BONES_MAX;
        field_state s = {.ret = (int)(x & 1), .build_ret = 7, .cmd = cmd, .skel = skel,
                         .world = world, .placed = placed};
        trace_clear(&t, &have, bones);
        cr_assert_eq(trace_push_state(&t, &s, NULL), 0);
        for (int f = 0; f < FIELD__COUNT; f++) {
            if (!field_set_has(&have, (field_id)f)) continue;
            unsigned n = field_is_per_bone((field_id)f) ? bones : 1;
            for (unsigned b = 0; b < n; b++)
                cr_assert_eq(trace_value(&t, 0, (field_id)f, b), field_read((field_id)f, b, &s),
                             "trial %d field %d bone %u", trial, f, b);
        }
    }
    trace_free(&t);
}

/* A copy holds every tick's slots and, for a trace some of whose ticks carry fewer
 * fields (an outside decoder's frame without scales), those ticks' own sets; rows
 * appended after keep the layout's whole set. */
Test(trace, a_copy_keeps_each_ticks_values_and_fields)
{
    trace a, b;
    ft_make_trace(&a, 5);
    trace_init(&b);
    field_set less = a.lay.have;
    field_set_del(&less, FIELD_SCALE_X);
    cr_assert_eq(trace_tick_limit(&a, 3, &less, NULL), 0);
    cr_assert_eq(trace_copy(&b, &a, NULL), 0);
    cr_assert_eq(b.n, 5);
    cr_assert_eq(b.lay.width, a.lay.width);
    for (size_t i = 0; i < 5; i++) {
        cr_assert_eq(memcmp(trace_row(&b, i), trace_row(&a, i), a.lay.width * sizeof(int32_t)), 0,
                     "tick %zu", i);
        field_set fa = trace_tick_fields(&a, i), fb = trace_tick_fields(&b, i);
        cr_assert(field_set_eq(&fa, &fb), "tick %zu", i);
    }
    field_set t3 = trace_tick_fields(&b, 3);
    cr_assert_not(field_set_has(&t3, FIELD_SCALE_X));
    /* Two rows more, from the first two ticks: their values, the layout's fields. */
    cr_assert_eq(trace_push_rows(&b, a.v, 2, NULL), 0);
    cr_assert_eq(b.n, 7);
    for (size_t i = 0; i < 2; i++) {
        cr_assert_eq(memcmp(trace_row(&b, 5 + i), trace_row(&a, i), a.lay.width * sizeof(int32_t)),
                     0, "tick %zu", 5 + i);
        field_set f = trace_tick_fields(&b, 5 + i);
        cr_assert(field_set_eq(&f, &b.lay.have), "tick %zu", 5 + i);
    }
    cr_assert_eq(trace_push_rows(&b, NULL, 0, NULL), 0);
    cr_assert_eq(b.n, 7);
    trace_free(&a);
    trace_free(&b);
}

/* The mode list a message gives names every mode of the table, then "all", and parses back. */
Test(modes, the_list_words_are_the_table)
{
    char words[128], want[128] = "";
    for (int m = 0; m < MODE__COUNT; m++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s, ", mode_name((mode_id)m));
    strcat(want, MODE_ALL_WORD);
    cr_assert_str_eq(mode_list_words(words, sizeof words), want);
    cr_assert_str_eq(words, "normal, slow, fast, slow+fast, all"); /* the words messages print */
    for (char *save, *w = strtok_r(words, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        unsigned mask = 0;
        char bad[32];
        cr_assert_eq(mode_parse_list(w, &mask, bad, sizeof bad), 0, "%s", w);
        cr_assert_eq(mask, strcmp(w, MODE_ALL_WORD) ? 1u << mode_from_name(w) : MODE_ALL, "%s", w);
    }
    char tiny[8];
    cr_assert_str_eq(mode_list_words(tiny, sizeof tiny), "normal,");
}

/* The levels: names round-trip, the --levels list parses by them, the message lists them all. */
Test(levels, the_table_parses_and_lists)
{
    char want[128] = "";
    for (int l = 0; l < RUN_LEVEL__COUNT; l++) {
        const char *name = run_level_name((run_level)l);
        cr_assert_eq(run_level_from_name(name), l, "%s", name);
        unsigned mask = 0;
        cr_assert_eq(run_level_parse_list(name, &mask), 0, "%s", name);
        cr_assert_eq(mask, 1u << l, "%s", name);
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", l ? ", " : "", name);
    }
    char words[128];
    cr_assert_str_eq(run_level_list_words(RUN_LEVELS_ALL, words, sizeof words), want);
    cr_assert_str_eq(words, "frame, pose, entity, leaf"); /* the words messages print */
    unsigned some = 1u << RUN_LEVEL_POSE | 1u << RUN_LEVEL_LEAF;
    cr_assert_str_eq(run_level_list_words(some, words, sizeof words), "pose, leaf");
    cr_assert_str_eq(run_level_list_words(0, words, sizeof words), "");
    cr_assert_str_eq(run_level_name(RUN_LEVEL__COUNT), "?");
    unsigned mask = 7;
    cr_assert_eq(run_level_parse_list(",leaf,,frame,", &mask), 0);
    cr_assert_eq(mask, 1u << RUN_LEVEL_LEAF | 1u << RUN_LEVEL_FRAME);
    mask = 7;
    cr_assert_eq(run_level_parse_list("frame,bogus", &mask), -1);
    cr_assert_eq(run_level_parse_list(",", &mask), -1);
    cr_assert_eq(run_level_parse_list("", &mask), -1);
    cr_assert_eq(run_level_parse_list("frameframeframeframe", &mask), -1);
    cr_assert_eq(mask, 7u);
}
