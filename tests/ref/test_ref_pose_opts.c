/*
 * tests/ref/test_ref_pose_opts.c: the pose options of ref/pose.h: the text
 * form (parse, canonical print, every error), one option at a time and the
 * enumerator over the whole space. The names and counts expected here are
 * written out from docs/pose.md section 3, not taken from the code's tables.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "ref/pose.h"

#define WIDTHS_32 "width-t=32,width-cols=32,width-model=32,width-vec=32"
#define DEFAULT_TEXT                                                                               \
    "order=xyz,trig=x87-nearest,step=nearest-even,root=model,offset=+z,length=parent,"            \
    "scale=stack," WIDTHS_32

/* docs/pose.md section 3, in the canonical order (default first). */
#define NKEYS 11
static const struct {
    const char *key;
    unsigned count;
    const char *values[6];
} spec[NKEYS] = {
    {"order", 6, {"xyz", "xzy", "yxz", "yzx", "zxy", "zyx"}},
    {"trig", 4, {"x87-nearest", "x87-trunc", "x87-floor", "psx-table"}},
    {"step", 2, {"nearest-even", "floor"}},
    {"root", 2, {"model", "none"}},
    {"offset", 6, {"+z", "-z", "+y", "-y", "+x", "-x"}},
    {"length", 2, {"parent", "own"}},
    {"scale", 3, {"stack", "pre", "post"}},
    {"width-t", 2, {"32", "64"}},
    {"width-cols", 2, {"32", "64"}},
    {"width-model", 2, {"32", "64"}},
    {"width-vec", 2, {"32", "64"}},
};

static void fmt(const ref_pose_opts *o, char *buf)
{
    ref_pose_opts_format(o, buf, REF_POSE_OPTS_TEXT_MAX);
}

Test(pose_opts, zeroed_value_is_the_default_and_prints_canonically)
{
    ref_pose_opts o;
    memset(&o, 0, sizeof o);
    char buf[REF_POSE_OPTS_TEXT_MAX];
    fmt(&o, buf);
    cr_assert_str_eq(buf, DEFAULT_TEXT);
    ref_pose_opts d;
    memset(&d, 0x5C, sizeof d);
    ref_pose_opts_default(&d);
    cr_assert_eq(memcmp(&d, &o, sizeof o), 0);
    cr_assert(ref_pose_opts_valid(&o));
}

Test(pose_opts, full_text_parses_into_each_field_and_prints_back)
{
    const char *text = "order=zxy,trig=psx-table,step=floor,root=none,offset=-y,length=own,"
                       "scale=post,width-t=64,width-cols=32,width-model=64,width-vec=64";
    ref_pose_opts o;
    ff_error err;
    cr_assert_eq(ref_pose_opts_parse(text, &o, &err), 0, "%s", err.reason);
    cr_assert_eq(o.order, REF_ORDER_ZXY);
    cr_assert_eq(o.trig, REF_TRIG_PSX_TABLE);
    cr_assert_eq(o.step, REF_STEP_FLOOR);
    cr_assert_eq(o.offset, REF_OFFSET_NY);
    cr_assert_eq(o.length, REF_LENGTH_OWN);
    cr_assert_eq(o.root, REF_ROOT_NONE);
    cr_assert_eq(o.scale, REF_SCALE_POST);
    cr_assert_eq(o.width_t, REF_WIDTH_64);
    cr_assert_eq(o.width_cols, REF_WIDTH_32);
    cr_assert_eq(o.width_model, REF_WIDTH_64);
    cr_assert_eq(o.width_vec, REF_WIDTH_64);
    char buf[REF_POSE_OPTS_TEXT_MAX];
    fmt(&o, buf);
    cr_assert_str_eq(buf, text);
}

Test(pose_opts, any_subset_in_any_order_takes_defaults_for_the_rest)
{
    ref_pose_opts o;
    ff_error err;
    char buf[REF_POSE_OPTS_TEXT_MAX];
    cr_assert_eq(ref_pose_opts_parse("scale=post,order=yzx", &o, &err), 0, "%s", err.reason);
    fmt(&o, buf);
    cr_assert_str_eq(buf, "order=yzx,trig=x87-nearest,step=nearest-even,root=model,offset=+z,"
                          "length=parent,scale=post," WIDTHS_32);
    cr_assert_eq(ref_pose_opts_parse("", &o, &err), 0, "%s", err.reason);
    fmt(&o, buf);
    cr_assert_str_eq(buf, DEFAULT_TEXT);
    cr_assert_eq(ref_pose_opts_parse("offset=-x", &o, &err), 0, "%s", err.reason);
    cr_assert_eq(o.offset, REF_OFFSET_NX);
    cr_assert_eq(ref_pose_opts_index(&o), 5u * 2u * 3u * 16u,
                 "offset -x is value 5, times length x scale x the four widths");
}

Test(pose_opts, width_is_a_shorthand_for_every_site_and_a_site_overrides_it)
{
    ref_pose_opts o;
    ff_error err;
    cr_assert_eq(ref_pose_opts_parse("width=64", &o, &err), 0, "%s", err.reason);
    cr_assert_eq(o.width_t, REF_WIDTH_64);
    cr_assert_eq(o.width_cols, REF_WIDTH_64);
    cr_assert_eq(o.width_model, REF_WIDTH_64);
    cr_assert_eq(o.width_vec, REF_WIDTH_64);
    /* a site given before or after the shorthand wins for its site */
    const char *texts[] = {"width-vec=32,width=64", "width=64,width-vec=32"};
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(ref_pose_opts_parse(texts[i], &o, &err), 0, "%s", err.reason);
        cr_assert_eq(o.width_t, REF_WIDTH_64, "%s", texts[i]);
        cr_assert_eq(o.width_vec, REF_WIDTH_32, "%s", texts[i]);
    }
    /* an older text (one width, no root key, scale=pre) reads as before */
    cr_assert_eq(ref_pose_opts_parse("order=yxz,offset=-y,length=own,scale=post,width=32", &o,
                                     &err),
                 0, "%s", err.reason);
    cr_assert_eq(o.scale, REF_SCALE_POST);
    cr_assert_eq(o.width_t, REF_WIDTH_32);
    cr_assert_eq(o.root, REF_ROOT_MODEL);
}

Test(pose_opts, text_size_is_enough_for_the_longest_combination)
{
    /* every key at its longest value */
    ref_pose_opts o;
    ref_pose_opts_default(&o);
    size_t need = 0;
    for (unsigned k = 0; k < NKEYS; k++) {
        unsigned best = 0;
        for (unsigned v = 1; v < spec[k].count; v++)
            if (strlen(spec[k].values[v]) > strlen(spec[k].values[best])) best = v;
        ref_pose_opts_set(&o, (ref_pose_key)k, best);
        need += strlen(spec[k].key) + 1 + strlen(spec[k].values[best]) + (k ? 1 : 0);
    }
    cr_assert_gt(REF_POSE_OPTS_TEXT_MAX, need, "%zu bytes needed", need + 1);
    char buf[REF_POSE_OPTS_TEXT_MAX];
    cr_assert_not_null(ref_pose_opts_format(&o, buf, sizeof buf));
    cr_assert_eq(strlen(buf), need);
    /* one byte short: refused whole, never truncated */
    char small[REF_POSE_OPTS_TEXT_MAX];
    memset(small, 'Z', sizeof small);
    cr_assert_null(ref_pose_opts_format(&o, small, need));
    cr_assert_str_eq(small, "");
    cr_assert_not_null(ref_pose_opts_format(&o, small, need + 1));
    cr_assert_str_eq(small, buf);
}

Test(pose_opts, every_key_says_what_it_shows)
{
    static const ref_pose_shows want[NKEYS] = {
        REF_SHOWS_CELLS, REF_SHOWS_CELLS, REF_SHOWS_CELLS, REF_SHOWS_CELLS,
        REF_SHOWS_T,     REF_SHOWS_T,     REF_SHOWS_SCALE, REF_SHOWS_SUMS,
        REF_SHOWS_NONE,  REF_SHOWS_NONE,  REF_SHOWS_SUMS,
    };
    for (unsigned k = 0; k < NKEYS; k++) {
        cr_assert_eq(ref_pose_key_shows((ref_pose_key)k), want[k], "%s", spec[k].key);
        cr_assert_eq(ref_pose_key_is_width((ref_pose_key)k), strncmp(spec[k].key, "width-", 6) == 0,
                     "%s", spec[k].key);
    }
    cr_assert_str_eq(ref_pose_shows_name(REF_SHOWS_SUMS), "sums");
    cr_assert_null(ref_pose_shows_name(REF_SHOWS__COUNT));
}

Test(pose_opts, every_value_of_every_key_parses_and_prints_back)
{
    for (unsigned k = 0; k < NKEYS; k++) {
        cr_assert_str_eq(ref_pose_key_name((ref_pose_key)k), spec[k].key);
        cr_assert_eq(ref_pose_value_count((ref_pose_key)k), spec[k].count, "%s", spec[k].key);
        for (unsigned v = 0; v < spec[k].count; v++) {
            char text[64], want[REF_POSE_OPTS_TEXT_MAX], buf[REF_POSE_OPTS_TEXT_MAX];
            snprintf(text, sizeof text, "%s=%s", spec[k].key, spec[k].values[v]);
            ref_pose_opts o;
            ff_error err;
            cr_assert_eq(ref_pose_opts_parse(text, &o, &err), 0, "%s: %s", text, err.reason);
            cr_assert_eq(ref_pose_opts_get(&o, (ref_pose_key)k), v, "%s", text);
            cr_assert_str_eq(ref_pose_value_name((ref_pose_key)k, v), spec[k].values[v]);
            /* the canonical text: every key, defaults except this one */
            size_t at = 0;
            for (unsigned j = 0; j < NKEYS; j++)
                at += (size_t)snprintf(want + at, sizeof want - at, "%s%s=%s", j ? "," : "",
                                       spec[j].key, spec[j].values[j == k ? v : 0]);
            fmt(&o, buf);
            cr_assert_str_eq(buf, want, "%s", text);
        }
        cr_assert_null(ref_pose_value_name((ref_pose_key)k, spec[k].count));
    }
    cr_assert_null(ref_pose_key_name(REF_POSE_KEY__COUNT));
    cr_assert_eq(ref_pose_value_count(REF_POSE_KEY__COUNT), 0);
}

/* A bad text: -1, FF_E_USAGE, out unchanged, the reason holding every part of want. */
static void refused(const char *text, const char *want1, const char *want2)
{
    ref_pose_opts o, before;
    ff_error err;
    ff_error_clear(&err);
    ref_pose_opts_at(REF_POSE_OPTS_COUNT - 1, &o);
    before = o;
    cr_assert_eq(ref_pose_opts_parse(text, &o, &err), -1, "\"%s\" accepted", text);
    cr_assert_eq(memcmp(&o, &before, sizeof o), 0, "\"%s\": out changed", text);
    cr_assert_eq(err.kind, FF_E_USAGE, "\"%s\"", text);
    cr_assert(strstr(err.reason, want1), "\"%s\": reason \"%s\" lacks \"%s\"", text, err.reason,
              want1);
    if (want2)
        cr_assert(strstr(err.reason, want2), "\"%s\": reason \"%s\" lacks \"%s\"", text, err.reason,
                  want2);
}

Test(pose_opts, every_error_names_the_bad_item)
{
    refused("order=xyw", "unknown value \"xyw\" for order", "xyz, xzy, yxz, yzx, zxy or zyx");
    refused("trig=x87-round", "unknown value \"x87-round\" for trig",
            "x87-nearest, x87-trunc, x87-floor or psx-table");
    refused("order=", "unknown value \"\" for order", NULL);
    refused("colour=red", "unknown key \"colour\"",
            "order, trig, step, root, offset, length, scale, width-t, width-cols, width-model or "
            "width-vec, or width for every width-* key");
    refused("root=half", "unknown value \"half\" for root", "model or none");
    refused("scale=mid", "unknown value \"mid\" for scale", "stack, pre or post");
    refused("width=64,width=32", "key \"width\" given twice", NULL);
    refused("ORDER=xyz", "unknown key \"ORDER\"", NULL);
    refused(" order=xyz", "unknown key \" order\"", NULL);
    refused("=xyz", "unknown key \"\"", NULL);
    refused("order", "item \"order\" is not key=value", NULL);
    refused("order=xyz,,trig=psx-table", "empty item", NULL);
    refused("order=xyz,", "empty item", NULL);
    refused(",order=xyz", "empty item", NULL);
    refused("order=xyz,step=floor,order=zyx", "key \"order\" given twice", NULL);
    refused("offset=z", "unknown value \"z\" for offset", "+z, -z, +y, -y, +x or -x");
    refused("width=16", "unknown value \"16\" for width", "32 or 64");
    ref_pose_opts o;
    ff_error err;
    cr_assert_eq(ref_pose_opts_parse(NULL, &o, &err), -1);
}

Test(pose_opts, enumerator_covers_the_space_exactly_once)
{
    /* 6 orders x 4 trig x 2 steps x 2 roots x 6 offsets x 2 lengths x 3 scale paths x 2^4 */
    cr_assert_eq(REF_POSE_OPTS_COUNT, 55296u);
    static unsigned char seen[6][4][2][2][6][2][3][2][2][2][2];
    memset(seen, 0, sizeof seen);
    for (unsigned i = 0; i < REF_POSE_OPTS_COUNT; i++) {
        ref_pose_opts o;
        cr_assert_eq(ref_pose_opts_at(i, &o), 0, "index %u", i);
        cr_assert(ref_pose_opts_valid(&o), "index %u", i);
        cr_assert_eq(ref_pose_opts_index(&o), i, "index %u", i);
        seen[o.order][o.trig][o.step][o.root][o.offset][o.length][o.scale][o.width_t][o.width_cols]
            [o.width_model][o.width_vec]++;
        /* the text form round-trips for every combination */
        char buf[REF_POSE_OPTS_TEXT_MAX];
        ref_pose_opts back;
        ff_error err;
        fmt(&o, buf);
        cr_assert_eq(ref_pose_opts_parse(buf, &back, &err), 0, "%s: %s", buf, err.reason);
        cr_assert_eq(memcmp(&back, &o, sizeof o), 0, "%s", buf);
    }
    for (unsigned i = 0; i < sizeof seen; i++)
        cr_assert_eq(((unsigned char *)seen)[i], 1, "combination %u seen %u times", i,
                     ((unsigned char *)seen)[i]);
    ref_pose_opts o, def;
    ref_pose_opts_default(&def);
    cr_assert_eq(ref_pose_opts_at(0, &o), 0);
    cr_assert_eq(memcmp(&o, &def, sizeof o), 0, "index 0 is the default");
    /* the last key varies fastest: index 1 is width-vec=64, index 16 scale=pre */
    cr_assert_eq(ref_pose_opts_at(1, &o), 0);
    cr_assert_eq(o.width_vec, REF_WIDTH_64);
    cr_assert_eq(o.scale, REF_SCALE_STACK);
    cr_assert_eq(ref_pose_opts_at(16, &o), 0);
    cr_assert_eq(o.scale, REF_SCALE_PRE);
    cr_assert_eq(o.width_vec, REF_WIDTH_32);
    cr_assert_eq(o.order, REF_ORDER_XYZ);
    memset(&o, 0x33, sizeof o);
    ref_pose_opts keep = o;
    cr_assert_eq(ref_pose_opts_at(REF_POSE_OPTS_COUNT, &o), -1);
    cr_assert_eq(memcmp(&o, &keep, sizeof o), 0, "out of range leaves o unchanged");
}

Test(pose_opts, set_varies_one_option_and_keeps_the_others)
{
    ref_pose_opts base;
    ff_error err;
    cr_assert_eq(ref_pose_opts_parse("order=yxz,trig=x87-floor,offset=-x,scale=post", &base, &err),
                 0);
    for (unsigned k = 0; k < NKEYS; k++)
        for (unsigned v = 0; v < spec[k].count; v++) {
            ref_pose_opts o = base;
            cr_assert_eq(ref_pose_opts_set(&o, (ref_pose_key)k, v), 0);
            for (unsigned j = 0; j < NKEYS; j++)
                cr_assert_eq(ref_pose_opts_get(&o, (ref_pose_key)j),
                             j == k ? v : ref_pose_opts_get(&base, (ref_pose_key)j),
                             "set %s=%s changed key %s", spec[k].key, spec[k].values[v],
                             spec[j].key);
        }
    ref_pose_opts o = base;
    cr_assert_eq(ref_pose_opts_set(&o, REF_POSE_KEY_TRIG, 4), -1);
    cr_assert_eq(ref_pose_opts_set(&o, REF_POSE_KEY__COUNT, 0), -1);
    cr_assert_eq(memcmp(&o, &base, sizeof o), 0, "a refused set leaves o unchanged");
}

Test(pose_opts, invalid_fields_are_reported_not_trusted)
{
    ref_pose_opts o;
    ref_pose_opts_default(&o);
    o.order = (ref_pose_order)6;
    cr_assert_not(ref_pose_opts_valid(&o));
    cr_assert_eq(ref_pose_opts_index(&o), REF_POSE_OPTS_COUNT);
    char buf[REF_POSE_OPTS_TEXT_MAX];
    fmt(&o, buf);
    cr_assert_str_eq(buf, "order=?,trig=x87-nearest,step=nearest-even,root=model,offset=+z,"
                          "length=parent,scale=stack," WIDTHS_32);
    ref_pose_opts_default(&o);
    o.scale = (ref_pose_scale)3;
    cr_assert_not(ref_pose_opts_valid(&o));
    ref_pose_opts_default(&o);
    o.root = (ref_pose_root)2;
    cr_assert_not(ref_pose_opts_valid(&o));
    ref_pose_opts_default(&o);
    o.width_vec = (ref_pose_width)2;
    cr_assert_not(ref_pose_opts_valid(&o));
    cr_assert_not(ref_pose_opts_valid(NULL));
    /* a short buffer: refused, "" (never a truncated text read back as other options) */
    char small[8];
    memset(small, 'Z', sizeof small);
    ref_pose_opts_default(&o);
    cr_assert_null(ref_pose_opts_format(&o, small, sizeof small));
    cr_assert_str_eq(small, "");
}
