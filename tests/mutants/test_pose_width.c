/*
 * tests/mutants/test_pose_width.c: the width of the pose's sums of products
 * (ref/pose.h's width option) on the stand-in (32-bit sums) and
 * standin_width64.exe (64-bit, emu/standin/README.md): the search picks
 * each on a corpus whose sums pass 2^31, says undecided on one whose sums
 * never do, and leaves it to the comparison when its sample holds no state
 * that tells them apart, which then names the clip that decided it.
 *
 * The small preset's sums pass 2^31 (its WRAP clips carry root translations
 * near 32767 whose world translations under the fixed base overflow, and
 * its EXTREMES clips garbage scales whose vectors do): the search's
 * extreme states find them. The other corpora are hand-made two-bone models
 * (tests/mutants/mt.h: model scale 1024, so a root translation is at most
 * 32767 x 4 and no translation sum comes near 2^31; bone 1 the child of
 * bone 0, size 100).
 *
 * Scale vectors (stand-in convention, scale=post): v0 = 4 s0 at the root,
 * v1 = (s1 x v0) >> 10, each column j of a bone's matrix times v[j] >> 12.
 * With s0 = 32752 (a multiple of 16), v0 = 131008 and the root's cell
 * 4096 x 131008 >> 12 = 131008 is stored as -64. s1 x v0 passes 2^31 for
 * s1 = 32767 (4292739136) and s1 = 20000 (2620160000), so v1 differs
 * between the widths by a multiple of 2^22; a cell c times v1 >> 12 then
 * differs by c x 2^10 (mod 2^16), nothing when c is a multiple of 64. Under
 * no rotation bone 1's cell is the root's -64: the widths agree (the state
 * tells nothing). Rotated by z 512 (Rz: c = s = 2896) its cells are -45
 * and 2896: the widths disagree.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/report.h"
#include "tests/mutants/mt.h"

#define STANDIN_POSE TS_STANDIN_POSE_BASE
#define UNDECIDED "undecided: no sampled state tells 32-bit from 64-bit at "



static const pose_key_decision *width_of(const run_results *r, ref_pose_key site)
{
    return &r->pose.keys[site];
}

/* The two width sites that show in sums (ref/pose.h's REF_SHOWS_SUMS rows). */
static const ref_pose_key sites[2] = {REF_POSE_KEY_WIDTH_T, REF_POSE_KEY_WIDTH_VEC};

/* The search on the small preset names the engine's width, by evidence, and nothing differs. */
static void picks(const char *exe, const char *width)
{
    char *dir = mt_small_preset();
    run_results r;
    mt_run_pose(dir, exe, NULL, &r);
    char want[REF_POSE_OPTS_TEXT_MAX];
    snprintf(want, sizeof want, "%s,width-t=%s,width-cols=32,width-model=32,width-vec=%s",
             STANDIN_POSE, width, width);
    cr_assert_str_eq(r.pose.chosen, want, "%s", exe);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(width_of(&r, sites[i])->basis, POSE_BASIS_EVIDENCE, "%s: %s", exe,
                     width_of(&r, sites[i])->note);
    /* the column and model-scale sites change no value: undecided, never "evidence" */
    cr_assert_eq(width_of(&r, REF_POSE_KEY_WIDTH_COLS)->basis, POSE_BASIS_UNDECIDED);
    cr_assert_eq(width_of(&r, REF_POSE_KEY_WIDTH_MODEL)->basis, POSE_BASIS_UNDECIDED);
    cr_assert_gt(r.pose.width_states, 0, "%s: sampled states tell the widths apart", exe);
    cr_assert_gt(r.pose.extreme_states, 0);
    cr_assert(r.pose.all_match, "%s: the choice matches every sampled state", exe);
    mt_check(&r, NULL, 0);
    run_results_free(&r);
    ts_rmtree(dir);
}

Test(pose_width, search_picks_32_bits)
{
    picks("standin.exe", "32");
}

Test(pose_width, search_picks_64_bits)
{
    picks("standin_width64.exe", "64");
}

/*
 * The width given, and wrong: the 64-bit engine compared under 32-bit sums
 * differs, some first divergences by exactly 2^32 >> 12 = 2^20 (a world
 * translation whose sum wrapped on the reference's side only).
 */
Test(pose_width, a_wrong_width_given_is_a_mismatch_of_2_to_the_20)
{
    char *dir = mt_small_preset();
    run_results r;
    mt_run_pose(dir, "standin_width64.exe", STANDIN_POSE ",width=32", &r);
    cr_assert_eq(width_of(&r, REF_POSE_KEY_WIDTH_T)->basis, POSE_BASIS_GIVEN);
    cr_assert_gt(r.totals.by_status[RES_MISMATCH], 0);
    unsigned by_2_20 = 0;
    for (size_t i = 0; i < r.nresults; i++) {
        const clip_result *c = &r.results[i];
        if (c->status != RES_MISMATCH) continue;
        int64_t diff = (int64_t)c->div.ref - c->div.orig;
        by_2_20 += diff == (1 << 20) || diff == -(1 << 20);
    }
    cr_assert_gt(by_2_20, 0, "no divergence of 2^20");
    run_results_free(&r);
    ts_rmtree(dir);
}

/* A plain clip: rotations on every axis of both bones, a moving root. */
static const mt_clip clip_plain = {
    4,
    {{.root = {10, -20, 30}, .rot = {{100, 200, 300}, {-300, 150, 50}}},
     {.root = {5, 5, -5}, .rot = {{30, -40, 50}, {60, 70, -80}}},
     {.root = {-7, 3, 1}, .rot = {{-200, 0, 90}, {0, -120, 40}}},
     {.root = {0, 0, 9}, .rot = {{11, 22, 33}, {-44, 55, -66}}}}};

#define SCALES(a, b)                                                                               \
    {                                                                                              \
        {a, 1024, 1024}, { b, 1024, 1024 }                                                         \
    }

/* Moderate scales, both bones turned: no product near 2^31 (and pre from post told apart). */
static const mt_clip clip_moderate = {
    2,
    {{.mode = 1,
      .rot = {{300, -500, 700}, {100, 200, 512}},
      .scale = {{2048, 1500, 700}, {1500, 800, 3000}}},
     {.mode = 1, .rot = {{0}}, .scale = {{2048, 1500, 700}, {1500, 800, 3000}}}}};

/* s1 x v0 past 2^31 without rotation: the widths agree (the cells are multiples of 64). */
static const mt_clip clip_flat_wrap = {8,
                                       {{.mode = 1, .scale = SCALES(32752, 32767)},
                                        {.mode = 1, .scale = SCALES(32752, 32767)},
                                        {.mode = 1, .scale = SCALES(32752, 32767)},
                                        {.mode = 1, .scale = SCALES(32752, 32767)},
                                        {.mode = 1, .scale = SCALES(32752, 32767)},
                                        {.mode = 1, .scale = SCALES(32752, 32767)},
                                        {.mode = 1, .scale = SCALES(32752, 32767)},
                                        {.mode = 1, .scale = SCALES(32752, 32767)}}};

/* A smaller product past 2^31 with bone 1 turned: the widths disagree from call 0 on. */
static const mt_clip clip_turned_wrap = {
    2,
    {{.mode = 1, .rot = {{0}, {0, 0, 512}}, .scale = SCALES(32752, 20000)},
     {.mode = 1, .scale = SCALES(32752, 20000)}}};

Test(pose_width, undecided_when_no_sum_passes_2_to_the_31)
{
    /* Automatic: copies of other objects are no constant initialisers in C. */
    const mt_clip clips[] = {clip_plain, clip_moderate};
    const mt_model narrow = {"narrow.dat", 2, 0, {0}, {1024, 1024, 1024}, 2, clips, 0, 0};
    char *dir = ts_tempdir();
    mt_write_model(dir, &narrow);
    static const char *const exes[] = {"standin.exe", "standin_width64.exe"};
    for (int e = 0; e < 2; e++) {
        run_results r;
        mt_run_pose(dir, exes[e], NULL, &r);
        cr_assert_eq(r.pose.width_states, 0, "%s", exes[e]);
        for (int i = 0; i < 2; i++) {
            const pose_key_decision *d = width_of(&r, sites[i]);
            char want[128];
            snprintf(want, sizeof want, "%s%s", UNDECIDED, ref_pose_key_name(sites[i]));
            cr_assert_eq(d->basis, POSE_BASIS_UNDECIDED, "%s", exes[e]);
            cr_assert_str_eq(d->note, want);
            cr_assert_eq(r.pose.width_clips[sites[i]], 0, "%s: no compared clip tells them apart",
                         exes[e]);
        }
        cr_assert(strstr(r.pose.chosen, TS_WIDTHS("32", "32")), "%s: the default kept", exes[e]);
        mt_check(&r, NULL, 0); /* the same verdicts under either width */
        run_results_free(&r);
    }
    ts_rmtree(dir);
}

/*
 * The sample misses the telling clip: clips 0 and 1 fill the file's share of
 * scale-path states (2 + 6 of 8), clip 1 holds its largest scale product in
 * every mode, and none of them tells anything; clip 2 tells from call 0 on.
 * The comparison decides the width there (file 0, clip 2, normal mode: the
 * first in corpus order), with the engine's value equal to that width's,
 * and compares the rest under it: no mismatch on either engine.
 */
Test(pose_width, the_comparison_decides_where_the_sample_cannot)
{
    const mt_clip clips[] = {clip_moderate, clip_flat_wrap, clip_turned_wrap, clip_plain};
    const mt_model hidden = {"hidden.dat", 2, 0, {0}, {1024, 1024, 1024}, 4, clips, 0, 0};
    char *dir = ts_tempdir();
    mt_write_model(dir, &hidden);
    static const char *const exes[] = {"standin.exe", "standin_width64.exe"};
    for (int e = 0; e < 2; e++) {
        run_results r;
        mt_run_pose(dir, exes[e], NULL, &r);
        const ref_pose_key vec = REF_POSE_KEY_WIDTH_VEC;
        const pose_key_decision *d = width_of(&r, vec);
        cr_assert_eq(r.pose.width_states, 0, "%s: the sample holds no telling state", exes[e]);
        cr_assert_eq(d->basis, POSE_BASIS_COMPARISON, "%s: %s", exes[e], d->note);
        cr_assert(strstr(r.pose.chosen, e ? ",width-vec=64" : ",width-vec=32"), "%s: %s",
                  exes[e], r.pose.chosen);
        /* the translations' site: no clip tells it here, it stays undecided */
        cr_assert_eq(width_of(&r, REF_POSE_KEY_WIDTH_T)->basis, POSE_BASIS_UNDECIDED, "%s: %s",
                     exes[e], width_of(&r, REF_POSE_KEY_WIDTH_T)->note);
        cr_assert_eq(r.pose.width_clips[REF_POSE_KEY_WIDTH_T], 0);
        const pose_width_at *at = &r.pose.width_at[vec];
        cr_assert_str_eq(at->file, "hidden.dat");
        cr_assert_eq(at->clip, 2);
        cr_assert_eq(at->mode, MODE_NORMAL);
        cr_assert_eq(at->tick, 0);
        cr_assert(strncmp(at->field, "bone[1].m", 9) == 0, "%s", at->field);
        cr_assert_neq(at->ref32, at->ref64);
        cr_assert_eq(at->orig, e ? at->ref64 : at->ref32, "%s", exes[e]);
        cr_assert_gt(r.pose.width_clips[vec], 0);
        cr_assert_eq(r.pose.width_contradicted[vec], 0);
        cr_assert_eq(r.pose.width_neither[vec], 0);
        /* report.json says it: the width's decision and where */
        cJSON *j = report_pose_json(&r.pose);
        const cJSON *dec = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "decisions"), (int)vec);
        cr_assert_str_eq(cJSON_GetObjectItem(dec, "key")->valuestring, "width-vec");
        cr_assert_str_eq(cJSON_GetObjectItem(dec, "shows")->valuestring, "sums");
        cr_assert_str_eq(cJSON_GetObjectItem(dec, "value")->valuestring, e ? "64" : "32");
        cr_assert_str_eq(cJSON_GetObjectItem(dec, "basis")->valuestring, "comparison");
        const cJSON *widths = cJSON_GetObjectItem(j, "widths");
        cr_assert_eq(cJSON_GetArraySize(widths), 2, "the two open sites");
        const cJSON *site = cJSON_GetArrayItem(widths, 1);
        cr_assert_str_eq(cJSON_GetObjectItem(site, "key")->valuestring, "width-vec");
        const cJSON *where = cJSON_GetObjectItem(site, "decided_at");
        cr_assert_str_eq(cJSON_GetObjectItem(where, "file")->valuestring, "hidden.dat");
        cr_assert_eq(cJSON_GetObjectItem(where, "clip")->valueint, 2);
        cJSON_Delete(j);
        mt_check(&r, NULL, 0);
        run_results_free(&r);
    }
    ts_rmtree(dir);
}
