/*
 * tests/mutants/test_pose_level.c: the pose level of `run` on the stand-in
 * and its pose mutants (emu/standin/README.md): the unmutated stand-in
 * matches everywhere and the search names its convention; each mutant is
 * caught at the first divergence worked out by hand below; the search run
 * on the order mutant names the mutant's order; a convention given that the
 * stand-in's poses contradict is said to be, one they do not is not.
 *
 * The stand-in's convention (emu/standin/README.md):
 *   order=yxz,trig=x87-nearest,step=nearest-even,root=model,offset=-y,length=own,
 *   scale=stack,width=32
 * The models aimed at the matrix helpers have model scale 4096 (1.0: the
 * root's cells as L's). Matrices are Q12 (4096 = 1.0); the PsyQ axis matrices are
 *   Rx = [[1,0,0],[0,c,-s],[0,s,c]], Ry = [[c,0,s],[0,1,0],[-s,0,c]],
 *   Rz = [[c,-s,0],[s,c,0],[0,0,1]],
 * and a local rotation in order "yxz" is built from the identity by
 * multiplying on the left by Rz, then Rx, then Ry: R = Ry.Rx.Rz (docs/pose.md 3).
 * Each model's clip has two frames, the second all zero deltas (mode bit as
 * the first), so tick 0 holds the same state in every mode (FAST decodes
 * both frames at tick 0): the first divergence is at tick 0, cursor (1, 0),
 * in all four modes.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "corpus/synth.h"
#include "tests/mutants/mt.h"
#include "tests/mutants/mt_corpus.h"

#define STANDIN_POSE TS_STANDIN_POSE

#define ONE {1024, 1024, 1024}


/* The expectations of one model: the same first divergence in every mode. */
static void expect_all_modes(const char *file, const char *field, unsigned bone, int32_t ref,
                             int32_t orig, mt_expect out[4])
{
    for (int m = 0; m < 4; m++)
        out[m] = (mt_expect){file, 0, (mode_id)m, 0, field, bone, ref, orig, 1, 0};
}

static void run_mutant(const mt_model *model, const char *exe, const char *field, unsigned bone,
                       int32_t ref, int32_t orig)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, model);
    run_results r;
    mt_run_pose(dir, "standin.exe", STANDIN_POSE, &r);
    mt_check(&r, NULL, 0); /* the unmutated stand-in agrees on this model */
    run_results_free(&r);
    mt_expect e[4];
    expect_all_modes(model->name, field, bone, ref, orig, e);
    mt_run_pose(dir, exe, STANDIN_POSE, &r);
    mt_check(&r, e, 4);
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * Order zyx instead of yxz. Angles x = 1024, y = 0, z = 1024 (90 degrees:
 * c = 0, s = 4096 exactly). yxz: Ry(0).Rx.Rz = Rx.Rz =
 *   [[1,0,0],[0,0,-1],[0,1,0]] . [[0,-1,0],[1,0,0],[0,0,1]] = [[0,-1,0],[0,0,-1],[1,0,0]];
 * zyx: Rz.Ry(0).Rx = Rz.Rx = [[0,0,1],[1,0,0],[0,1,0]]. Cells compare row by
 * row: m[0][0] is 0 on both, m[0][1] is -4096 against 0.
 */
static const mt_clip clip_order[] = {{2, {{.rot = {{1024, 0, 1024}}}, {.rot = {{0}}}}}};
static const mt_model model_order = {"pose_order.dat", 1, 0, {0}, ONE, 1, clip_order, 0, 4096};

Test(pose_level, mutant_order)
{
    run_mutant(&model_order, "standin_mut_pose_order.exe", "bone[0].m[0][1]", 0, -4096, 0);
}

/*
 * Floor instead of nearest-even in the Copy5 product. Angles x = 512,
 * z = 512 (45 degrees: 4096 sin = 2896.31, so c = s = 2896). Rz.I is Rz
 * exactly; then Rx.Rz, row 1 = [0, 2896, -2896] against Rz's column 0 =
 * [2896, 2896, 0]: 2896 * 2896 / 4096 = 2047.5625, 2048 to nearest, 2047
 * by floor. Row 0 of Rx is [4096, 0, 0] (exact), so m[1][0] is the first
 * cell to differ; Ry(0) leaves it as it is.
 */
static const mt_clip clip_floor[] = {{2, {{.rot = {{512, 0, 512}}}, {.rot = {{0}}}}}};
static const mt_model model_floor = {"pose_floor.dat", 1, 0, {0}, ONE, 1, clip_floor, 0, 4096};

Test(pose_level, mutant_floor)
{
    run_mutant(&model_floor, "standin_mut_pose_floor.exe", "bone[0].m[1][0]", 0, 2048, 2047);
}

/*
 * Scaled cells saturate instead of wrapping. No rotation (identity), both
 * frames on the scale path with scale x = 32767 (a payload of 31743): the
 * root's scale vector is 32767 << 2 = 131068, so m[0][0] = (4096 * 131068)
 * >> 12 = 131068, whose low 16 bits are 0xFFFC = -4; saturated, 32767.
 * (Such scales are what SLOW+FAST reads past a clip's end in real files.)
 */
static const mt_clip clip_sat[] = {{2,
                                    {{.mode = 1, .rot = {{0}}, .scale = {{32767, 1024, 1024}}},
                                     {.mode = 1, .rot = {{0}}, .scale = {{32767, 1024, 1024}}}}}};
static const mt_model model_sat = {"pose_sat.dat", 1, 0, {0}, ONE, 1, clip_sat, 0, 4096};

Test(pose_level, mutant_saturate)
{
    run_mutant(&model_sat, "standin_mut_pose_saturate.exe", "bone[0].m[0][0]", 0, -4, 32767);
}

/*
 * BuildBoneMatrices returns 0 instead of Field_Free(0x58)'s value, 0x58
 * (88): every matrix agrees, and the first divergence is the routine's
 * return, compared at the pose level (build.ret), at tick 0.
 */
static const mt_clip clip_ret[] = {{2, {{.rot = {{100, 200, 300}}}, {.rot = {{0}}}}}};
static const mt_model model_ret = {"pose_ret.dat", 1, 0, {0}, ONE, 1, clip_ret, 0, 0};

Test(pose_level, mutant_return)
{
    run_mutant(&model_ret, "standin_mut_pose_ret.exe", "build.ret", 0, 0x58, 0);
}

/*
 * ComputeBonesWorldMatrices forgets the base translation. A root at
 * translation 0 (t = 0): under the fixed base its world t is base.m . 0 +
 * base.t = (1200, -34000, 250000) (harness/run/pose_side.c), the mutant's
 * 0; the cells and the identity-base world agree. First: placed[0].t.x.
 */
static const mt_clip clip_base[] = {{2, {{.rot = {{100, 200, 300}}}, {.rot = {{0}}}}}};
static const mt_model model_base = {"pose_base.dat", 1, 0, {0}, ONE, 1, clip_base, 0, 0};

Test(pose_level, mutant_base_translation)
{
    run_mutant(&model_base, "standin_mut_pose_base.exe", "placed[0].t.x", 0, 1200, 0);
}


/* The stand-in over the small preset: the search finds its convention, then nothing differs. */
Test(pose_level, standin_searched_and_matched)
{
    char *dir = mt_small_preset();
    run_results r;
    mt_run_pose(dir, "standin.exe", NULL, &r);
    cr_assert_eq(r.pose.source, POSE_CONV_SEARCH);
    cr_assert_str_eq(r.pose.chosen, STANDIN_POSE);
    cr_assert(r.pose.all_match, "the choice matches every sampled state");
    cr_assert_gt(r.pose.scale_states, 0, "the small preset has scale-path states");
    mt_check(&r, NULL, 0);
    cr_assert_eq(r.totals.bad_files, 0);
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * The search's scores are split over the run's threads: on 1 job and on 3
 * every candidate scores the same, and the choice, what decided each key
 * and the first miss are the same (mutant order: candidates differ).
 */
Test(pose_level, search_the_same_on_1_and_3_jobs)
{
    char *dir = mt_small_preset();
    emu_image *img = mt_image("standin_mut_pose_order.exe");
    run_results r[2];
    for (int j = 0; j < 2; j++) {
        run_config cfg;
        mt_config(&cfg, dir, img, j ? 3 : 1);
        cfg.pose_level = 1;
        cfg.pose_search = 1;
        mt_execute(&cfg, &r[j]);
    }
    const pose_conv *a = &r[0].pose, *b = &r[1].pose;
    cr_assert_gt(a->ncand, 10u);
    cr_assert_eq(a->ncand, b->ncand);
    for (unsigned i = 0; i < a->ncand; i++)
        cr_assert(
            memcmp(&a->cand[i], &b->cand[i], sizeof a->cand[i]) == 0,
            "candidate %u (%s): %llu/%llu values vs %llu/%llu", i, a->cand[i].opts,
            (unsigned long long)a->cand[i].values, (unsigned long long)a->cand[i].values_total,
            (unsigned long long)b->cand[i].values, (unsigned long long)b->cand[i].values_total);
    cr_assert_str_eq(a->chosen, b->chosen);
    cr_assert(memcmp(a->keys, b->keys, sizeof a->keys) == 0, "what decided the keys differs");
    cr_assert(memcmp(a->telling, b->telling, sizeof a->telling) == 0);
    cr_assert_eq(a->all_match, b->all_match);
    cr_assert_str_eq(a->first_field, b->first_field);
    cr_assert_eq(a->first_ref, b->first_ref);
    for (int j = 0; j < 2; j++)
        run_results_free(&r[j]);
    emu_image_free(img);
    ts_rmtree(dir);
}

/*
 * The cover preset: 12 sampled states, 10 on the scale path, the 2 plain ones
 * too small to tell offset and length apart (every translation candidate ties
 * on them). The staged search alone kept the default offset and length and
 * then matched 7 of 12 states; the joint stage on every state must find the
 * stand-in's convention, which matches all of them.
 */
Test(pose_level, search_undecided_by_plain_states_is_decided_on_all)
{
    char *dir = ts_tempdir();
    synth_summary sum;
    ff_error err;
    memset(&sum, 0, sizeof sum);
    TS_OK(synth_write(dir, SYNTH_COVER, 1, &sum, &err), &err);
    run_results r;
    mt_run_pose(dir, "standin.exe", NULL, &r);
    cr_assert_eq(r.pose.source, POSE_CONV_SEARCH);
    cr_assert_str_eq(r.pose.chosen, STANDIN_POSE);
    cr_assert(r.pose.all_match, "the choice matches every sampled state");
    cr_assert_gt(r.pose.scale_states, r.pose.states / 2, "most sampled states take the scale path");
    mt_check(&r, NULL, 0);
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * One bug, one cause at the pose level: the saturating scale path over the
 * cover preset differs in several cells (m[2][2] by 2^15 in one clip,
 * m[0][1] saturated at 32767 in another), all written by the same store of
 * Bone_ScaleColumns while every read of the call agrees: one cause, not one
 * per cell.
 */
Test(pose_level, saturate_is_one_cause_across_cells)
{
    char *dir = ts_tempdir();
    synth_summary sum;
    ff_error err;
    memset(&sum, 0, sizeof sum);
    TS_OK(synth_write(dir, SYNTH_COVER, 1, &sum, &err), &err);
    run_results r;
    mt_run_pose(dir, "standin_mut_pose_saturate.exe", STANDIN_POSE, &r);
    cr_assert_gt(r.totals.by_status[RES_MISMATCH], 1);
    cr_assert_gt(r.ngroups, 1, "the cells differ in several groups");
    cr_assert_eq(r.ncauses, 1, "%zu causes (first: %s)", r.ncauses,
                 r.ncauses ? r.causes[0].statement : "-");
    cr_assert_str_eq(r.causes[0].kind, "combine");
    cr_assert_str_eq(r.causes[0].routine, "Bone_ScaleColumns");
    cr_assert_eq(r.causes[0].ngroups, r.ngroups);
    run_results_free(&r);
    ts_rmtree(dir);
}

/* The search names the order mutant's order (zyx), the rest as the stand-in's. */
Test(pose_level, search_names_the_mutants_order)
{
    char *dir = mt_small_preset();
    run_results r;
    mt_run_pose(dir, "standin_mut_pose_order.exe", NULL, &r);
    cr_assert_str_eq(r.pose.chosen, "order=zyx,trig=x87-nearest,step=nearest-even," TS_STANDIN_TAIL
                                        TS_WIDTHS("32", "32"));
    mt_check(&r, NULL, 0); /* compared under its own order, it agrees */
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * Given order=zyx, the stand-in's poses (order=yxz) contradict it: the run keeps the
 * convention given and its verdicts, and records the one option that differs, with the
 * sampled states each side matches; every cause follows from it (all are of pose values).
 */
Test(pose_level, a_given_order_the_executable_contradicts)
{
    char *dir = mt_small_preset();
    run_results r;
    mt_run_pose(dir, "standin.exe",
                "order=zyx,trig=x87-nearest,step=nearest-even," TS_STANDIN_TAIL TS_WIDTHS("32", "32"),
                &r);
    const pose_contradiction *c = &r.pose.contradicted;
    cr_assert_gt(r.totals.by_status[RES_MISMATCH], 0);
    cr_assert_eq(r.pose.source, POSE_CONV_GIVEN);
    cr_assert(!strncmp(r.pose.chosen, "order=zyx,", 10), "%s", r.pose.chosen);
    cr_assert(c->contradicted);
    cr_assert_str_eq(c->given, "order=zyx");
    cr_assert_str_eq(c->found, "order=yxz");
    cr_assert_str_eq(c->convention, STANDIN_POSE);
    cr_assert_gt(c->states, 0);
    cr_assert_eq(c->states_found, c->states, "%llu of %llu", (unsigned long long)c->states_found,
                 (unsigned long long)c->states);
    cr_assert_lt(c->states_given, c->states);
    cr_assert_gt(r.ncauses, 0);
    for (size_t i = 0; i < r.ncauses; i++)
        cr_assert_str_eq(r.causes[i].consequence_of, "pose_options", "cause %zu: %s", i,
                         r.causes[i].statement);
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * A defect no convention explains (the base mutant's placed translation) under the
 * stand-in's own convention: the search finds nothing better, nothing is said, no cause
 * is marked.
 */
Test(pose_level, a_given_convention_no_search_betters_stands)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &model_base);
    run_results r;
    mt_run_pose(dir, "standin_mut_pose_base.exe", STANDIN_POSE, &r);
    cr_assert_gt(r.totals.by_status[RES_MISMATCH], 0);
    cr_assert(!r.pose.contradicted.contradicted, "found %s for %s", r.pose.contradicted.found,
              r.pose.contradicted.given);
    for (size_t i = 0; i < r.ncauses; i++)
        cr_assert_str_eq(r.causes[i].consequence_of, "", "cause %zu", i);
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * The x87 emulation limit (docs/pose.md section 4), shown apart. Rotation x =
 * -2048 (-180 degrees): 4096 sin(-pi) is -5e-13 in double. Under trig
 * x87-floor (the reference's option here) it floors to -1, and the value
 * lies within 2^-20 of the integer 0, the kind of value an x87 and
 * Unicorn's double fsin may round apart; the stand-in (x87-nearest) says 0.
 * Rx = [[1,0,0],[0,c,-s],[0,s,c]] with c = -4096: m[1][2] = -s is 1 against
 * 0, the first cell to differ (Ry(0) and Rz(0) are the identity).
 */
static const mt_clip clip_x87[] = {{2, {{.rot = {{-2048, 0, 0}}}, {.rot = {{0}}}}}};
static const mt_model model_x87 = {"pose_x87.dat", 1, 0, {0}, ONE, 1, clip_x87, 0, 4096};

Test(pose_level, x87_limit_is_a_class_apart)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &model_x87);
    run_results r;
    mt_run_pose(dir, "standin.exe",
             "order=yxz,trig=x87-floor,step=nearest-even," TS_STANDIN_TAIL, &r);
    mt_expect e[4];
    expect_all_modes(model_x87.name, "bone[0].m[1][2]", 0, 1, 0, e);
    mt_check(&r, e, 4);
    cr_assert_eq(r.ngroups, 4);
    /* Only an emulator's value can be blamed on the emulation: on the CPU itself (the
     * suite under FF8DIFF_ENGINE=native) the same cells are plain mismatches. */
    int cpu = strcmp(r.engines.calls, "native") == 0;
    cr_assert_eq(r.totals.x87_limit, cpu ? 0 : 4, "every mode's mismatch is within the limit");
    for (size_t i = 0; i < r.ngroups; i++)
        if (cpu)
            cr_assert_str_neq(r.groups[i].shape, "x87_precision", "group %zu", i);
        else
            cr_assert_str_eq(r.groups[i].shape, "x87_precision", "group %zu", i);
    run_results_free(&r);
    ts_rmtree(dir);
}

/* Runs the leaf and pose levels of exe over the order model (a corpus is needed for the run). */
static void run_pose_leaf(const char *exe, run_results *r)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &model_order);
    emu_image *img = mt_image(exe);
    run_config cfg;
    mt_config(&cfg, dir, img, 2);
    cfg.pose_level = 1;
    cfg.leaf_level = 1;
    cfg.leaf_calls = 64;
    ff_error err;
    TS_OK(ref_pose_opts_parse(STANDIN_POSE, &cfg.pose_opts, &err), &err);
    mt_execute(&cfg, r);
    emu_image_free(img);
    ts_rmtree(dir);
}

static const pose_leaf_result *helper(const run_results *r, const char *role)
{
    for (size_t i = 0; i < r->npose_leaf; i++)
        if (!strcmp(r->pose_leaf[i].role, role)) return &r->pose_leaf[i];
    cr_assert_fail("no pose leaf result for %s", role);
    return NULL;
}

/*
 * The helpers alone: every s16 angle for sin and cos, matching x87-nearest
 * (the stand-in's) everywhere and x87-trunc not: 4096 sin(2 * 2pi/4096) =
 * 12.566 rounds to 13 and truncates to 12. The floor mutant's Copy5 differs.
 */
Test(pose_level, helpers_alone)
{
    run_results r;
    run_pose_leaf("standin.exe", &r);
    cr_assert_eq(r.npose_leaf, POSE_LEAF_HELPERS);
    for (size_t i = 0; i < r.npose_leaf; i++) {
        const pose_leaf_result *h = &r.pose_leaf[i];
        cr_assert(h->ran, "%s ran", h->role);
        cr_assert_eq(h->mismatches, 0, "%s: %s", h->role, h->first);
        cr_assert_eq(h->faults, 0, "%s: %s", h->role, h->first_fault);
    }
    const pose_leaf_result *sin = helper(&r, "sin");
    cr_assert_eq(sin->calls, 65536);
    cr_assert_eq(sin->trig_matched[REF_TRIG_X87_NEAREST], 65536);
    cr_assert_lt(sin->trig_matched[REF_TRIG_X87_TRUNC], 65536);
    run_results_free(&r);
    run_pose_leaf("standin_mut_pose_floor.exe", &r);
    cr_assert_gt(helper(&r, "copy5")->mismatches, 0, "the floor mutant's Copy5 is caught alone");
    cr_assert_eq(helper(&r, "sin")->mismatches, 0);
    run_results_free(&r);
}

/* ---- the pose level on entities (docs/pose.md section 5) ---- */

/*
 * The lockstep corpus (mt_corpus.c: body d4c001, weapon d4w001, monster
 * c0m001; one bone each, model scale 1024 so t = root * 4) with the weapon
 * slot's attach translation (7, -3, 5) and rotation 0: the attach matrix is
 * the identity rotation with t = (7, -3, 5). The weapon's world matrices
 * are under base o attach: under the identity base its world t is
 * bone.t + (7, -3, 5). The base mutant forgets the base's translation, so
 * the weapon's world[0].t.x is off by exactly 7 at tick 0 in every mode
 * the entity level runs (normal, slow, fast);
 * nothing the weapon carries diverges before it (it is compared first).
 * In normal mode tick 0 is frame 0: root x 10, bone t.x 40, world 47 vs 40.
 * The monster (no attach) first differs on body.placed[0].t.x, by the fixed
 * base's t.x, 1200 (its identity-base world is untouched by the mutant).
 */
static const char attach_json[] =
    "{\"format\": \"ff8diff-entities\", \"version\": 1, \"attach\": [\n"
    " {\"body\": \"d4c001.dat\", \"weapon\": \"d4w001.dat\", \"rotation\": [0, 0, 0],\n"
    "  \"translation\": [7, -3, 5]}]}\n";

static void run_entity_pose(const char *dir, const char *exe, run_results *r)
{
    emu_image *img = mt_image(exe);
    run_config cfg;
    mt_config_entity(&cfg, dir, img, 2);
    cfg.pose_level = 1;
    ff_error err;
    TS_OK(ref_pose_opts_parse(STANDIN_POSE, &cfg.pose_opts, &err), &err);
    mt_execute(&cfg, r);
    emu_image_free(img);
}

static const entity_result *first_mismatch(const run_results *r, const char *body, mode_id m)
{
    for (size_t i = 0; i < r->nentity_results; i++) {
        const entity_result *er = &r->entity_results[i];
        if (er->r.mode == m && er->r.clip == 0 && !strcmp(r->files[er->r.file].name, body))
            return er;
    }
    cr_assert_fail("no clip 0 result of %s", body);
    return NULL;
}

Test(pose_level, entity_weapon_world_is_under_base_and_attach)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &mt_model_body);
    mt_write_model(dir, &mt_model_weapon);
    mt_write_model(dir, &mt_model_monster);
    char *manifest = ts_path(dir, "entities.json");
    ts_write(manifest, attach_json, strlen(attach_json));
    free(manifest);

    run_results r;
    run_entity_pose(dir, "standin.exe", &r);
    cr_assert_eq(r.totals.entity_by_status[RES_MISMATCH], 0, "the stand-in agrees");
    cr_assert_eq(r.totals.entity_by_status[RES_MATCH], r.nentity_results);
    cr_assert_eq(r.entities[1].attach_trans[0], 7, "the manifest's attach values were used");
    run_results_free(&r);

    run_entity_pose(dir, "standin_mut_pose_base.exe", &r);
    char name[64];
    for (int m = 0; m < MODE__COUNT; m++) {
        if (!((r.entity_modes >> m) & 1u)) continue; /* slow+fast: a frame-level mode */
        const entity_result *w = first_mismatch(&r, "d4c001.dat", (mode_id)m);
        cr_assert_eq(w->r.status, RES_MISMATCH, "%s", mt_mode((mode_id)m));
        cr_assert_eq(w->r.div.tick, 0u);
        cr_assert_eq(w->r.div.model, FIELD_MODEL_WEAPON);
        cr_assert_str_eq(field_name(w->r.div.field, w->r.div.bone, name, sizeof name),
                         "world[0].t.x");
        cr_assert_eq(w->r.div.ref - w->r.div.orig, 7, "%s", mt_mode((mode_id)m));
        if (m == MODE_NORMAL) cr_assert(w->r.div.ref == 47 && w->r.div.orig == 40);
        const entity_result *b = first_mismatch(&r, "c0m001.dat", (mode_id)m);
        cr_assert_eq(b->r.status, RES_MISMATCH);
        cr_assert_eq(b->r.div.model, FIELD_MODEL_BODY);
        cr_assert_str_eq(field_name(b->r.div.field, b->r.div.bone, name, sizeof name),
                         "placed[0].t.x");
        cr_assert_eq(b->r.div.ref - b->r.div.orig, 1200);
    }
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * The search names each stand-in build's own convention on the small preset
 * (both paths, garbage scales): root, scale and the width sites that show
 * (width-t, width-vec); width-cols and width-model keep the default, no
 * state telling them apart. Then every comparison matches.
 */
Test(pose_level, search_names_each_builds_root_scale_and_widths)
{
    static const struct {
        const char *exe, *chosen;
    } builds[] = {
        {"standin_root_none.exe", "order=yxz,trig=x87-nearest,step=nearest-even,root=none,"
                                  "offset=-y,length=own,scale=stack" TS_WIDTHS("32", "32")},
        {"standin_scale_pre.exe", "order=yxz,trig=x87-nearest,step=nearest-even,root=model,"
                                  "offset=-y,length=own,scale=pre" TS_WIDTHS("32", "32")},
        {"standin_scale_post.exe", "order=yxz,trig=x87-nearest,step=nearest-even,root=model,"
                                   "offset=-y,length=own,scale=post" TS_WIDTHS("32", "32")},
        {"standin_width64.exe", TS_STANDIN_POSE_BASE TS_WIDTHS("64", "64")},
        {"standin_width_mixed.exe", TS_STANDIN_POSE_BASE TS_WIDTHS("64", "32")},
        {"standin_x87_root_none.exe", "order=yxz,trig=x87-nearest,step=nearest-even,root=none,"
                                      "offset=-y,length=own,scale=stack" TS_WIDTHS("32", "32")},
    };
    char *dir = mt_small_preset();
    for (size_t b = 0; b < sizeof builds / sizeof builds[0]; b++) {
        run_results r;
        mt_run_pose(dir, builds[b].exe, NULL, &r);
        cr_assert_eq(r.pose.source, POSE_CONV_SEARCH);
        cr_assert_str_eq(r.pose.chosen, builds[b].chosen, "%s", builds[b].exe);
        cr_assert(r.pose.all_match, "%s: the choice matches every sampled state", builds[b].exe);
        mt_check(&r, NULL, 0);
        run_results_free(&r);
    }
    ts_rmtree(dir);
}
