/*
 * tests/harness/test_harness_field_use.c: what a comparison looked at.
 *
 * - The field classes come from the field table's JSON keys, in row order,
 *   and name every row once;
 * - field_use_clip counts per class the ticks compared and the ticks the
 *   candidate left out where the authority carries the class, and says
 *   whether the authority's values there moved from the skeleton's bytes
 *   (a hand-written 2-bone skeleton, values worked out by hand);
 * - the frames format's "error" line: after a clip's frames, alone, a
 *   frame after it, in the wrong format, not a string.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/le.h"
#include "harness/core/field_use.h"
#include "harness/traces/trace_fields.h"
#include "harness/traces/trace_json.h"
#include "tests/harness/ft.h"

Test(field_classes, are_the_json_keys_in_row_order)
{
    field_classes fc;
    field_classes_make(&fc);
    static const char *const want[] = {"root", "skel_flag", "rot",   "scale", "cmd",
                                       "mat",  "build_ret", "ret",   "world", "placed"};
    cr_assert_eq(fc.n, (int)(sizeof want / sizeof want[0]), "%d classes", fc.n);
    for (int k = 0; k < fc.n; k++) {
        cr_assert_str_eq(field_class_name(&fc, k), want[k], "class %d", k);
        cr_assert_eq(field_class_find(&fc, want[k]), k);
    }
    cr_assert_eq(field_class_find(&fc, "scales"), -1);
    cr_assert_str_eq(field_class_name(&fc, fc.n), "?");
    /* Every row in exactly one class, the one of its key. */
    for (int f = 0; f < FIELD__COUNT; f++) {
        int k = fc.of[f], in = 0;
        cr_assert(k >= 0, "row %s has no class", field_kind_name((field_id)f));
        cr_assert_str_eq(field_def_of((field_id)f)->json_key, field_class_name(&fc, k));
        for (int j = 0; j < fc.n; j++) in += field_set_has(&fc.fields[j], (field_id)f);
        cr_assert_eq(in, 1, "row %s in %d classes", field_kind_name((field_id)f), in);
    }
    cr_assert(field_set_has(&fc.fields[3], FIELD_SCALE_Y) && !field_set_has(&fc.fields[3], FIELD_ROT_Y));
}

/* A 2-bone skeleton as ft_make_trace's clip starts from it: scales 1024, rotations 0. */
static void skeleton(uint8_t *skel)
{
    memset(skel, 0, DAT_SKEL_HEADER + 2 * DAT_BONE_SIZE);
    for (unsigned b = 0; b < 2; b++)
        for (unsigned c = 0; c < 3; c++)
            le_put16(skel + DAT_SKEL_HEADER + b * DAT_BONE_SIZE + DAT_BONE_SCALE + 2 * c, 1024);
}

Test(field_use, counts_compared_and_left_out_per_class)
{
    field_classes fc;
    field_classes_make(&fc);
    int root = field_class_find(&fc, "root"), rot = field_class_find(&fc, "rot"),
        scale = field_class_find(&fc, "scale"), cmd = field_class_find(&fc, "cmd");
    trace auth, cand;
    ft_make_trace(&auth, 4);
    ft_make_trace(&cand, 3); /* stops a tick short */
    /* The candidate leaves scales out at ticks 1 and 2 (a frames-format decoder would). */
    field_set noscale = cand.lay.have;
    field_set_del(&noscale, FIELD_SCALE_X);
    field_set_del(&noscale, FIELD_SCALE_Y);
    field_set_del(&noscale, FIELD_SCALE_Z);
    ff_error err;
    cr_assert_eq(trace_tick_limit(&cand, 1, &noscale, &err), 0);
    cr_assert_eq(trace_tick_limit(&cand, 2, &noscale, &err), 0);
    uint8_t skel[DAT_SKEL_HEADER + 2 * DAT_BONE_SIZE];
    skeleton(skel);
    field_set all = field_set_of_levels(3);
    res_fields u;
    field_use_clip(&fc, &cand, &auth, &all, skel, &u);
    /* Three ticks both have: root and rot on all, scale on tick 0 only. */
    cr_assert_eq(u.ticks[root], 3);
    cr_assert_eq(u.ticks[rot], 3);
    cr_assert_eq(u.ticks[cmd], 3);
    cr_assert_eq(u.ticks[scale], 1);
    cr_assert_eq(u.unsupplied[scale], 2);
    cr_assert_eq(u.unsupplied[root] + u.unsupplied[rot], 0);
    /* ft_make_trace's scales stay 1024, the skeleton's: the clip carries no scale data. */
    cr_assert_eq(u.moving >> scale & 1, 0, "scales that stay the skeleton's do not move");
    cr_assert_eq(field_use_unsupplied(&fc, &u), 1u << scale);
    /* One scale changed at a tick left out: now the clip carries scale data. */
    trace_set(&auth, 2, FIELD_SCALE_Y, 1, 2048);
    field_use_clip(&fc, &cand, &auth, &all, skel, &u);
    cr_assert_eq(u.moving >> scale & 1, 1);
    /* A class the candidate's format cannot carry is not "left out". */
    field_set only_rot = fc.fields[rot];
    field_use_clip(&fc, &cand, &auth, &only_rot, skel, &u);
    cr_assert_eq(u.unsupplied[scale], 0);
    /* No skeleton bytes: a class left out counts as moving. */
    trace_set(&auth, 2, FIELD_SCALE_Y, 1, 1024);
    field_use_clip(&fc, &cand, &auth, &all, NULL, &u);
    cr_assert_eq(u.moving >> scale & 1, 1);
    trace_free(&auth);
    trace_free(&cand);
}

/* Reads text's clips: their frame counts, stops and bad flags, up to 4. */
typedef struct read_clip {
    unsigned anim;
    size_t frames;
    int stopped, bad;
    char stop[TJ_STOP_MAX], error[FF_ERR_REASON_MAX];
} read_clip;

static int read_frames(const char *text, read_clip *out, int max, ff_error *err)
{
    tj_reader *r = tj_open_mem(text, strlen(text), "a.dat.frames.jsonl", err);
    cr_assert_not_null(r);
    trace t;
    trace_init(&t);
    tj_clip c;
    int n = 0, rc;
    while (n < max && (rc = tj_next_clip(r, &c, &t, err)) == 1) {
        out[n].anim = c.anim;
        out[n].frames = t.n;
        out[n].stopped = c.stopped;
        out[n].bad = c.bad;
        snprintf(out[n].stop, sizeof out[n].stop, "%s", c.stop);
        snprintf(out[n].error, sizeof out[n].error, "%s", c.bad ? c.error.reason : "");
        n++;
    }
    trace_free(&t);
    tj_close(r);
    return n;
}

#define FRAME(a, k) "{\"file\":\"a.dat\",\"anim\":" #a ",\"frame\":" #k ",\"root\":[0,0,0],\"rot\":[[1,2,3]]}\n"
#define STOP(a, why) "{\"file\":\"a.dat\",\"anim\":" #a ",\"error\":\"" why "\"}\n"

Test(frames_error_line, ends_its_clip_with_the_reason)
{
    /* Clip 0 whole, clip 1 stops after 2 frames, clip 2 at its first, clip 3 whole. */
    const char *text = FRAME(0, 0) FRAME(0, 1) FRAME(1, 0) FRAME(1, 1)
        STOP(1, "scale type 5 unknown") STOP(2, "no 16-bit deltas") FRAME(3, 0);
    read_clip c[5];
    ff_error err;
    cr_assert_eq(read_frames(text, c, 5, &err), 4, "%s", err.reason);
    static const struct {
        unsigned anim;
        size_t frames;
        const char *stop;
    } want[] = {{0, 2, NULL}, {1, 2, "scale type 5 unknown"}, {2, 0, "no 16-bit deltas"},
                {3, 1, NULL}};
    for (int i = 0; i < 4; i++) {
        cr_assert(!c[i].bad, "clip %d: %s", i, c[i].error);
        cr_assert_eq(c[i].anim, want[i].anim, "clip %d", i);
        cr_assert_eq(c[i].frames, want[i].frames, "clip %d: %zu frames", i, c[i].frames);
        cr_assert_eq(c[i].stopped, want[i].stop != NULL, "clip %d", i);
        if (want[i].stop) cr_assert_str_eq(c[i].stop, want[i].stop, "clip %d", i);
    }
}

Test(frames_error_line, a_file_may_begin_with_one)
{
    const char *text = STOP(0, "gave up") FRAME(1, 0);
    read_clip c[3];
    ff_error err;
    cr_assert_eq(read_frames(text, c, 3, &err), 2, "%s", err.reason);
    cr_assert(c[0].stopped && !c[0].bad && c[0].frames == 0);
    cr_assert(!c[1].bad && c[1].frames == 1, "%s", c[1].error);
}

Test(frames_error_line, malformed_uses_spoil_their_clip)
{
    static const struct {
        const char *text, *why;
    } cases[] = {
        {FRAME(0, 0) STOP(0, "stop") FRAME(0, 1), "after its \"error\" line"},
        {FRAME(0, 0) "{\"file\":\"a.dat\",\"anim\":0,\"error\":7}\n", "not a string"},
        {"{\"file\":\"a.dat\",\"anim\":0,\"frame\":0,\"error\":\"x\",\"root\":[0,0,0],"
         "\"rot\":[[1,2,3]]}\n" FRAME(0, 1),
         "a frame carries no"},
        {"{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"normal\","
         "\"tick\":0,\"ret\":1,\"cmd\":{\"frame\":1,\"total\":1,\"flags\":0,\"off\":1,\"bit\":0},"
         "\"skel_flag\":0,\"root\":[0,0,0],\"rot\":[[1,2,3]],\"scale\":[[1024,1024,1024]]}\n"
         "{\"v\":1,\"file\":\"a.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"normal\","
         "\"error\":\"x\"}\n",
         "belongs to the frames format"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        read_clip c[2];
        ff_error err;
        cr_assert_eq(read_frames(cases[i].text, c, 2, &err), 1, "case %zu: %s", i, err.reason);
        cr_assert(c[0].bad, "case %zu read as good", i);
        cr_assert(strstr(c[0].error, cases[i].why), "case %zu: %s", i, c[0].error);
    }
}
