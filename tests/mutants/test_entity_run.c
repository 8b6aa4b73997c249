/*
 * tests/mutants/test_entity_run.c: what a run guarantees at the entity
 * level, on the lockstep mutants' corpus (mt_corpus.c: body d4c001, weapon
 * d4w001, monster c0m001) and mutant i, whose mismatches are worked out
 * there: the same results for any number of jobs, identical entities
 * emulated once, the cache (keyed by both files and the attach values),
 * cancellation, faults of the original, a clip the reference cannot read
 * as that clip's bad input, a pool mismatch, and the speed bits
 * QueueAnimation leaves under each entity status (the probe), with mutant
 * m's status bug found as one cause and mutant n's older reading (the
 * caller's flags kept) told by the probe alone. --engine both's runs:
 * test_both_run.c.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/verdict.h"
#include "harness/run/cache.h"
#include "tests/mutants/mt.h"
#include "tests/mutants/mt_corpus.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void copy_file(const char *dir, const char *from, const char *to)
{
    char *a = ts_path(dir, from), *b = ts_path(dir, to);
    size_t size;
    char *data = ts_read(a, &size);
    ts_write(b, data, size);
    free(data);
    free(a);
    free(b);
}

static void run_cfg(run_config *cfg, run_results *r)
{
    mt_execute(cfg, r);
    cr_assert(!r->interrupted);
}

Test(entity_run, same_results_for_1_and_2_jobs)
{
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    emu_image *img = mt_image("standin_mut_i.exe");
    run_results r[2];
    for (int j = 0; j < 2; j++) {
        run_config cfg;
        mt_config_entity(&cfg, dir, img, (unsigned)j + 1);
        run_cfg(&cfg, &r[j]);
        mt_ent_check(&r[j], mt_ent_expect_i, MT_ENT_EXPECT_I);
    }
    mt_same_entities(&r[0], &r[1], "1 vs 2 jobs");
    /*
     * The armed entity's plot shows its first mismatch in result order: clip
     * 1 normal (body 2 frames, weapon 3). Its offset is the weapon's root,
     * 10 per frame, minus the body's, 1 per frame: 9, 18 at calls 0 and 1,
     * then 30 - 2 = 28 at call 2 (the weapon's last frame, the body's end
     * call); the mutant makes one more call (the weapon's end: 28 again).
     */
    const res_entity *en = &r[1].entities[1];
    cr_assert_eq(en->weapon >= 0, 1);
    cr_assert_eq(en->plot_clip, 1);
    cr_assert_eq(en->plot_mode, MODE_NORMAL);
    cr_assert_eq(en->offset[0].n, 4u);
    cr_assert_eq(en->offset[0].ref_n, 3u);
    cr_assert_eq(en->offset[0].orig_n, 4u);
    static const int32_t want[4] = {9, 18, 28, 28};
    for (int t = 0; t < 4; t++) {
        if (t < 3) cr_assert_eq(en->offset[0].ref[t], want[t], "tick %d", t);
        cr_assert_eq(en->offset[0].orig[t], want[t], "tick %d", t);
        cr_assert_eq(en->offset[1].orig[t], 0);
    }
    cr_assert_eq(r[1].entities[0].plot_clip, -1, "the monster has no weapon to plot");
    for (int j = 0; j < 2; j++)
        run_results_free(&r[j]);
    emu_image_free(img);
    ts_rmtree(dir);
}

/*
 * Copies of both files make four identical armed entities: d4c001 and
 * d4c002 each with d4w001 and d4w002. In every mode the first (entity 1,
 * after the monster) emulates and the other three take its outcomes; each
 * shows mutant i's mismatches, as without deduplication.
 */
Test(entity_run, identical_entities_emulated_once)
{
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    copy_file(dir, "d4c001.dat", "d4c002.dat");
    copy_file(dir, "d4w001.dat", "d4w002.dat");
    emu_image *img = mt_image("standin_mut_i.exe");
    static const char *const pairs[4][2] = {{"d4c001.dat", "d4w001.dat"},
                                            {"d4c001.dat", "d4w002.dat"},
                                            {"d4c002.dat", "d4w001.dat"},
                                            {"d4c002.dat", "d4w002.dat"}};
    mt_ent_expect e[4 * MT_ENT_EXPECT_I];
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < MT_ENT_EXPECT_I; i++) {
            e[p * MT_ENT_EXPECT_I + i] = mt_ent_expect_i[i];
            e[p * MT_ENT_EXPECT_I + i].body = pairs[p][0];
            e[p * MT_ENT_EXPECT_I + i].weapon = pairs[p][1];
        }
    run_results r[2];
    run_progress prog[2];
    for (int d = 0; d < 2; d++) {
        run_config cfg;
        memset(&prog[d], 0, sizeof prog[d]);
        mt_config_entity(&cfg, dir, img, 2);
        cfg.frame_level = 0;
        cfg.dedup = d;
        cfg.progress = &prog[d];
        run_cfg(&cfg, &r[d]);
        mt_ent_check(&r[d], e, COUNT(e));
    }
    mt_same_entities(&r[0], &r[1], "dedup off vs on");
    cr_assert_eq(r[1].nentities, 5u);
    for (size_t i = 0; i < r[1].nentity_results; i++) {
        const entity_result *er = &r[1].entity_results[i];
        res_source want = er->entity >= 2 ? RES_SRC_SHARED : RES_SRC_EMULATED;
        cr_assert_eq(er->r.source, want, "entity %u clip %d %s: %s", er->entity, er->r.clip,
                     mt_mode(er->r.mode), res_source_name(er->r.source));
        cr_assert_eq(r[0].entity_results[i].r.source, RES_SRC_EMULATED);
    }
    for (uint32_t k = 2; k < 5; k++)
        cr_assert_eq(r[1].entities[k].shares, 1, "entity %u", k);
    cr_assert_eq(r[1].entities[1].shares, -1);
    cr_assert_eq(r[0].entities[3].shares, -1, "no sharing without dedup");
    /* The armed calls (probes included) are made once instead of four times; the monster's
     * the same. */
    uint64_t off = atomic_load(&prog[0].emulated_calls), on = atomic_load(&prog[1].emulated_calls);
    /* 2-frame clip: 3 + 4 + 2 calls (normal, slow, fast), then the 4 statuses' probes */
    uint64_t monster = 3 + 4 + 2 + 4;
    cr_assert_eq(off - monster, 4 * (on - monster), "calls: %llu without, %llu with dedup",
                 (unsigned long long)off, (unsigned long long)on);
    for (int d = 0; d < 2; d++)
        run_results_free(&r[d]);
    emu_image_free(img);
    ts_rmtree(dir);
}

static cache *open_cache(const char *root)
{
    char *dir = ts_path(root, "results");
    cache *c;
    ff_error err;
    TS_OK(cache_open(dir, 0, &c, &err), &err);
    free(dir);
    return c;
}

static unsigned count_source(const run_results *r, res_source s)
{
    unsigned n = 0;
    for (size_t i = 0; i < r->nentity_results; i++)
        n += r->entity_results[i].r.source == s;
    return n;
}

/*
 * The second run takes every entity clip from the cache, with the same
 * results. Attach values given to the pair afterwards (entities.json) make
 * another key: the pair is emulated again, the monster still cached.
 */
Test(entity_run, cache_keyed_by_both_files_and_the_attach_values)
{
    char *dir = ts_tempdir(), *root = ts_tempdir();
    mt_write_entity_corpus(dir);
    emu_image *img = mt_image("standin_mut_i.exe");
    cache *c = open_cache(root);
    run_results r[3];
    for (int k = 0; k < 3; k++) {
        if (k == 2) {
            char *p = ts_path(dir, "entities.json");
            static const char json[] =
                "{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":"
                "\"d4c001.dat\",\"weapon\":\"d4w001.dat\",\"rotation\":[1,2,3]}]}";
            ts_write(p, json, sizeof json - 1);
            free(p);
        }
        run_config cfg;
        mt_config_entity(&cfg, dir, img, 2);
        cfg.frame_level = 0;
        cfg.cache = c;
        cfg.cache_id = "test-exe/standin";
        run_cfg(&cfg, &r[k]);
        mt_ent_check(&r[k], mt_ent_expect_i, MT_ENT_EXPECT_I);
    }
    /* 3 modes (no slow+fast at the entity level) x (1 monster clip + 3 armed clips) */
    cr_assert_eq(count_source(&r[0], RES_SRC_EMULATED), 12u);
    cr_assert_eq(count_source(&r[1], RES_SRC_CACHE), 12u);
    mt_same_entities(&r[0], &r[1], "emulated vs cached");
    cr_assert_eq(count_source(&r[2], RES_SRC_CACHE), 3u, "the monster's clips");
    cr_assert_eq(count_source(&r[2], RES_SRC_EMULATED), 9u, "the pair's, with new attach values");
    cr_assert_eq(r[2].entities[1].attach_rot[2], 3);
    mt_same_entities(&r[0], &r[2], "attach values do not change what the routines compute");
    for (int k = 0; k < 3; k++)
        run_results_free(&r[k]);
    cache_close(c);
    emu_image_free(img);
    ts_rmtree(dir);
    ts_rmtree(root);
}

Test(entity_run, cancel_before_start)
{
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    emu_image *img = mt_image("standin.exe");
    volatile sig_atomic_t cancel = 1;
    run_progress prog;
    memset(&prog, 0, sizeof prog);
    run_config cfg;
    mt_config_entity(&cfg, dir, img, 2);
    cfg.cancel = &cancel;
    cfg.progress = &prog;
    run_results r;
    mt_execute(&cfg, &r);
    cr_assert_eq(r.interrupted, 1);
    cr_assert_eq(r.nentity_results, 12u);
    for (size_t i = 0; i < r.nentity_results; i++)
        cr_assert(r.entity_results[i].r.status == RES_NOT_RUN &&
                      r.entity_results[i].r.source == RES_SRC_NONE,
                  "entity result %zu", i);
    cr_assert_eq(r.totals.entity_by_status[RES_NOT_RUN], 12u);
    cr_assert_eq(atomic_load(&prog.clips_total), 7u * 4 + 12u, "frame and entity clips");
    cr_assert_eq(atomic_load(&prog.clips_done), 0u);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/*
 * The faulty stand-in's Battle_ReadAnimation loops on clip 1 and reads
 * 0xDEAD0000 on clip 2, here first inside QueueAnimation's StartClip of
 * the weapon: both are faults of the original at call 0, with the routine
 * called and its disassembly; clip 0 and the monster's clip still match.
 */
Test(entity_run, faults_of_the_original)
{
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    emu_image *img = mt_image("standin_faulty.exe");
    run_config cfg;
    mt_config_entity(&cfg, dir, img, 2);
    cfg.frame_level = 0;
    cfg.game.budget = 200000;
    run_results r;
    run_cfg(&cfg, &r);
    for (size_t i = 0; i < r.nentity_results; i++) {
        const entity_result *er = &r.entity_results[i];
        const clip_result *c = &er->r;
        if (er->entity == 0 || c->clip == 0) {
            cr_assert_eq(c->status, RES_MATCH, "entity %u clip %d %s: %s", er->entity, c->clip,
                         mt_mode(c->mode), res_status_name(c->status));
            continue;
        }
        cr_assert_eq(c->status, RES_FAULT, "clip %d %s: %s", c->clip, mt_mode(c->mode),
                     res_status_name(c->status));
        cr_assert_not_null(c->fault);
        cr_assert_eq(c->fault->kind, c->clip == 1 ? EMU_FAULT_BUDGET : EMU_FAULT_READ_UNMAPPED,
                     "clip %d: %s", c->clip, emu_fault_name(c->fault->kind));
        cr_assert_eq(c->fault->routine, 0x509520u, "QueueAnimation was the routine called");
        cr_assert_eq(c->orig_ticks, 0u, "the first call faulted");
        cr_assert_eq(c->ref_ticks, mt_ticks(c->frames, c->mode));
        if (c->clip == 2) {
            cr_assert_eq(c->fault->addr, 0xDEAD0000u);
            cr_assert(strchr(c->fault->disasm, '>') != NULL, "no marked line:\n%s",
                      c->fault->disasm);
        }
    }
    cr_assert_eq(r.totals.entity_by_status[RES_FAULT], 6u, "clips 1 and 2 in 3 modes");
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/*
 * The body's clip 2 claims 255 frames: the reference reads past the end of
 * the file, so that clip is bad input in every mode (naming the body's
 * file); clips 0 and 1 and the monster are still compared.
 */
Test(entity_run, a_clip_the_reference_cannot_read_is_bad_input)
{
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    size_t size;
    uint8_t *data = mt_encode(&mt_model_body, &size);
    data[mt_clip_offset(data, 2)] = 255;
    char *p = ts_path(dir, "d4c001.dat");
    ts_write(p, (const char *)data, size);
    free(p);
    free(data);
    emu_image *img = mt_image("standin.exe");
    run_config cfg;
    mt_config_entity(&cfg, dir, img, 2);
    cfg.frame_level = 0;
    run_results r;
    run_cfg(&cfg, &r);
    for (size_t i = 0; i < r.nentity_results; i++) {
        const entity_result *er = &r.entity_results[i];
        const clip_result *c = &er->r;
        if (er->entity == 1 && c->clip == 2) {
            cr_assert_eq(c->status, RES_BAD_INPUT, "%s: %s", mt_mode(c->mode),
                         res_status_name(c->status));
            cr_assert_not_null(c->error);
            cr_assert_str_eq(c->error->file, "d4c001.dat");
            cr_assert(strstr(c->error->reason, "body") != NULL, "%s", c->error->reason);
        } else {
            cr_assert_eq(c->status, RES_MATCH, "entity %u clip %d %s: %s", er->entity, c->clip,
                         mt_mode(c->mode), res_status_name(c->status));
        }
    }
    cr_assert_eq(r.totals.entity_by_status[RES_BAD_INPUT], 3u);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/* A weapon with fewer clips than its body: one pool mismatch, the clips both have run. */
Test(entity_run, pool_mismatch)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &mt_model_body);
    mt_model w = mt_model_weapon;
    w.nclips = 2;
    mt_write_model(dir, &w);
    emu_image *img = mt_image("standin.exe");
    run_config cfg;
    mt_config_entity(&cfg, dir, img, 2);
    run_results r;
    run_cfg(&cfg, &r);
    cr_assert_eq(r.nentities, 1u);
    const res_entity *en = &r.entities[0];
    cr_assert(en->pool_mismatch);
    cr_assert_eq(en->body_clips, 3u);
    cr_assert_eq(en->weapon_clips, 2u);
    cr_assert_eq(en->clips, 2u);
    cr_assert_eq(r.totals.pool_mismatches, 1u);
    cr_assert_eq(r.nentity_results, 2u * 3);
    mt_ent_check(&r, NULL, 0);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/* Entity e's probe of status s: the speed bits on both sides ([0] body, [1] weapon). */
static void expect_queue(const run_results *r, size_t e, entity_status_id s, int rb, int rw, int ob,
                         int ow, const char *what)
{
    const res_queue *q = &r->entities[e].queue[s];
    cr_assert(q->ref[0] == rb && q->ref[1] == rw && q->orig[0] == ob && q->orig[1] == ow,
              "%s: entity %zu status %s: ref %d/%d orig %d/%d, expected ref %d/%d orig %d/%d",
              what, e, entity_status_name(s), q->ref[0], q->ref[1], q->orig[0], q->orig[1], rb, rw,
              ob, ow);
}

/*
 * The probe on the stand-in (the notes' routine) and on mutant m (Haste
 * read as Slow). Entity 0 is the monster (no weapon: -1), entity 1 the
 * armed pair, whose weapon takes the body's bits. Normal 0, Slow 1, Haste
 * 2, Slow+Haste 1 (Slow wins); mutant m leaves 1 under Haste on both
 * models, so both entities' Haste probes differ (2 queue mismatches) and
 * its fast-mode mismatches make one cause, the speed. A second run from
 * the cache keeps the probe without emulating.
 */
Test(entity_run, queue_probe_per_status)
{
    char *dir = ts_tempdir(), *root = ts_tempdir();
    mt_write_entity_corpus(dir);
    static const struct {
        const char *exe;
        int haste; /* the original's Haste bits */
    } exes[2] = {{"standin.exe", 2}, {"standin_mut_m.exe", 1}};
    for (int x = 0; x < 2; x++) {
        emu_image *img = mt_image(exes[x].exe);
        cache *c = open_cache(root);
        run_results r[2];
        for (int k = 0; k < 2; k++) {
            run_config cfg;
            mt_config_entity(&cfg, dir, img, 2);
            cfg.frame_level = 0;
            cfg.cache = c;
            cfg.cache_id = exes[x].exe;
            run_cfg(&cfg, &r[k]);
            const char *what = k ? "cached" : "emulated";
            cr_assert_eq(count_source(&r[k], k ? RES_SRC_CACHE : RES_SRC_EMULATED), 12u, "%s",
                         what);
            for (size_t e = 0; e < 2; e++) {
                int w = e ? 0 : -1, h = exes[x].haste;
                expect_queue(&r[k], e, ENTITY_STATUS_NORMAL, 0, w, 0, w, what);
                expect_queue(&r[k], e, ENTITY_STATUS_SLOW, 1, e ? 1 : -1, 1, e ? 1 : -1, what);
                expect_queue(&r[k], e, ENTITY_STATUS_HASTE, 2, e ? 2 : -1, h, e ? h : -1, what);
                expect_queue(&r[k], e, ENTITY_STATUS_SLOW_HASTE, 1, e ? 1 : -1, 1, e ? 1 : -1,
                             what);
            }
            cr_assert_eq(r[k].totals.queue_mismatches, x ? 2u : 0u, "%s %s", exes[x].exe, what);
            cr_assert_eq(r[k].ncauses, x ? 1u : 0u, "%s %s: %zu causes", exes[x].exe, what,
                         r[k].ncauses);
        }
        for (int k = 0; k < 2; k++)
            run_results_free(&r[k]);
        cache_close(c);
        emu_image_free(img);
    }
    ts_rmtree(dir);
    ts_rmtree(root);
}

/* Modes asked that no status reaches are not run at the entity level. */
Test(entity_run, slow_fast_stays_a_frame_level_mode)
{
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    emu_image *img = mt_image("standin.exe");
    run_config cfg;
    mt_config_entity(&cfg, dir, img, 1);
    cfg.modes = (1u << MODE_SLOW_FAST) | (1u << MODE_FAST);
    run_results r;
    run_cfg(&cfg, &r);
    cr_assert_eq(r.entity_modes, 1u << MODE_FAST);
    cr_assert_eq(r.nentity_results, 4u, "fast only: 1 monster clip + 3 armed clips");
    for (size_t i = 0; i < r.nentity_results; i++)
        cr_assert_eq(r.entity_results[i].r.mode, MODE_FAST);
    cr_assert_eq(r.nresults, 7u * 2, "the frame level runs both");
    /* Only the Haste probe ran. */
    cr_assert_eq(r.entities[1].queue[ENTITY_STATUS_HASTE].orig[0], 2);
    cr_assert_eq(r.entities[1].queue[ENTITY_STATUS_SLOW].ref[0], -1);
    cr_assert_eq(r.nwarnings, 0u, "a mode ran: nothing to warn about");
    run_results_free(&r);
    /* slow+fast alone: no entity result, and the run says why. */
    cfg.modes = 1u << MODE_SLOW_FAST;
    run_cfg(&cfg, &r);
    cr_assert_eq(r.entity_modes, 0u);
    cr_assert_eq(r.nentity_results, 0u);
    cr_assert_eq(r.nwarnings, 1u);
    cr_assert(strstr(r.warnings[0], "does not run slow+fast: QueueAnimation sets SLOW or FAST") !=
                  NULL,
              "%s", r.warnings[0]);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/*
 * Mutant n keeps its caller's flags (the older reading of QueueAnimation).
 * The entity level presets the mode's flags too, so every clip runs at the
 * intended speed and matches; only the probe (no flags preset) tells the
 * readings apart: 0 on both models where the reference sets 1 (Slow,
 * Slow+Haste) or 2 (Haste), 3 probes per entity, 6 in all, and the run
 * fails with no cause (no clip mismatches).
 */
Test(entity_run, older_reading_is_told_by_the_probe)
{
    char *dir = ts_tempdir();
    mt_write_entity_corpus(dir);
    emu_image *img = mt_image("standin_mut_n.exe");
    run_config cfg;
    mt_config_entity(&cfg, dir, img, 2);
    cfg.frame_level = 0;
    run_results r;
    run_cfg(&cfg, &r);
    mt_ent_check(&r, NULL, 0);
    for (size_t e = 0; e < 2; e++) {
        int w = e ? 0 : -1;
        expect_queue(&r, e, ENTITY_STATUS_NORMAL, 0, w, 0, w, "older reading");
        expect_queue(&r, e, ENTITY_STATUS_SLOW, 1, e ? 1 : -1, 0, w, "older reading");
        expect_queue(&r, e, ENTITY_STATUS_HASTE, 2, e ? 2 : -1, 0, w, "older reading");
        expect_queue(&r, e, ENTITY_STATUS_SLOW_HASTE, 1, e ? 1 : -1, 0, w, "older reading");
    }
    cr_assert_eq(r.totals.queue_mismatches, 6u);
    cr_assert_eq(r.ncauses, 0u);
    cr_assert_eq(verdict_decide(&r.totals, 0), VERDICT_BY_DIFFERENCES);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}
