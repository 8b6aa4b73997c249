/*
 * tests/mutants/test_causes.c: one bug, one cause. Each mutant of the
 * stand-in (one planted bug, emu/standin/README.md) run over its own corpus
 * (mt_corpus.c) must give exactly one cause, explaining every mismatch,
 * naming the routine that holds the bug or the instruction that writes the
 * wrong value; what each must say is data below, per mutant name, derived
 * from the planted bug. The unmutated stand-in gives none; the two-bug
 * variant (mutants a and b together) gives two. Then coverage: the cover
 * preset runs every block of the six decoding routines, and a run that
 * skips SLOW leaves StartClip's SLOW block uncovered, with its branch.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "tests/mutants/mt.h"
#include "tests/mutants/mt_corpus.h"

/* What a mutant's one cause must say. */
typedef struct cause_want {
    const char *exe;
    const char *kind;      /* "read" or "combine" */
    const char *routine;   /* the routine the cause names */
    const char *signature; /* the start of its signature */
    const char *also;      /* a further piece of its signature or statement, or NULL */
    int call_insn;         /* 1: the instruction is the original's call of the read */
} cause_want;

/*
 * a  masks a negative 12-bit rotation: ReadRotationType returns a different
 *    value for rotation type 3, every read before and inside it agreeing.
 * b  halves with >> 1: the reads agree, the original's value is 1 lower
 *    (odd negative deltas) wherever Battle_ReadAnimation stores it.
 * c  returns 0 for an absent scale: ReadBoneScale, value, scale absent.
 * d  adds scales: the reads agree, the scale store of Battle_ReadAnimation,
 *    the original's value is the reference's plus the value before.
 * e  keeps the root: the reads agree; the root store, root.y, the value kept.
 * f  saves the cursor on the half-step: the reads agree; the cmd.off store.
 * g  one frame per FAST call: the original omits the second frame's reads,
 *    starting with ReadPositionType.
 * h  ORs the mode bit: the original calls ReadBoneScale where the reference
 *    reads no scale.
 */
static const cause_want wants[] = {
    {"standin_mut_a.exe", "read", "ReadRotationType", "read|ReadRotationType|value",
     "rotation type 3", 1},
    {"standin_mut_b.exe", "combine", "Battle_ReadAnimation", "write|0x",
     "arith|Battle_ReadAnimation|orig_lower_by_1", 0},
    {"standin_mut_c.exe", "read", "ReadBoneScale", "read|ReadBoneScale|value", "scale absent", 1},
    {"standin_mut_d.exe", "combine", "Battle_ReadAnimation", "write|0x", "|scale", 0},
    {"standin_mut_e.exe", "combine", "Battle_ReadAnimation", "write|0x", "|root", 0},
    {"standin_mut_f.exe", "combine", "Battle_ReadAnimation", "write|0x", "|cmd", 0},
    {"standin_mut_g.exe", "read", "Battle_ReadAnimation",
     "read|Battle_ReadAnimation|sequence|original omits ReadPositionType", NULL, 0},
    {"standin_mut_h.exe", "read", "Battle_ReadAnimation", "read|Battle_ReadAnimation+0x",
     "calls ReadBoneScale", 1},
};

static const mt_mutant *mutant(const char *exe)
{
    for (size_t i = 0; i < MT_MUTANTS; i++)
        if (!strcmp(mt_mutants[i].exe, exe)) return &mt_mutants[i];
    cr_assert_fail("no mutant %s", exe);
    return NULL;
}

static const cause_want *want(const char *exe)
{
    for (size_t i = 0; i < sizeof wants / sizeof wants[0]; i++)
        if (!strcmp(wants[i].exe, exe)) return &wants[i];
    cr_assert_fail("no expectation for %s", exe);
    return NULL;
}

static uint64_t mismatches(const run_results *r)
{
    return r->totals.by_status[RES_MISMATCH];
}

/* Asserts cause c is what w says. */
static void check_cause(const res_cause *c, const cause_want *w)
{
    cr_assert_str_eq(c->kind, w->kind, "%s: kind %s (%s)", w->exe, c->kind, c->statement);
    cr_assert_str_eq(c->routine, w->routine, "%s: routine %s (%s)", w->exe, c->routine,
                     c->statement);
    cr_assert(!strncmp(c->signature, w->signature, strlen(w->signature)),
              "%s: signature %s, expected %s...", w->exe, c->signature, w->signature);
    if (w->also)
        cr_assert(strstr(c->signature, w->also) || strstr(c->statement, w->also),
                  "%s: '%s' in neither %s nor %s", w->exe, w->also, c->signature, c->statement);
    if (!strcmp(w->kind, "combine") || w->call_insn) {
        cr_assert(c->have_insn, "%s: no instruction named", w->exe);
        cr_assert_str_eq(c->insn_routine, "Battle_ReadAnimation", "%s: instruction in %s",
                         w->exe, c->insn_routine);
        cr_assert(!w->call_insn || !strncmp(c->insn, "call", 4), "%s: instruction %s", w->exe,
                  c->insn);
        cr_assert(w->call_insn || strncmp(c->insn, "call", 4), "%s: a store, not %s", w->exe,
                  c->insn);
    }
}

static void run_one(const char *exe)
{
    const mt_mutant *m = mutant(exe);
    const cause_want *w = want(exe);
    char *dir = ts_tempdir();
    mt_write_mutant(dir, m);
    run_results r;
    mt_run(dir, exe, 2, &r);
    cr_assert_eq(mismatches(&r), m->nexpect, "%s: %llu mismatches", exe,
                 (unsigned long long)mismatches(&r));
    cr_assert_eq(r.ncauses, 1, "%s: %zu causes (first: %s)", exe, r.ncauses,
                 r.ncauses ? r.causes[0].statement : "-");
    const res_cause *c = &r.causes[0];
    check_cause(c, w);
    /* It explains every mismatch, every group, in every mode where one showed. */
    cr_assert_eq(c->clips, m->nexpect, "%s: explains %llu clips", exe,
                 (unsigned long long)c->clips);
    cr_assert_eq(c->ngroups, r.ngroups, "%s: %zu of %zu groups", exe, c->ngroups, r.ngroups);
    unsigned modes = 0;
    for (size_t i = 0; i < m->nexpect; i++) modes |= 1u << m->expect[i].mode;
    cr_assert_eq(c->modes, modes, "%s: modes 0x%x, expected 0x%x", exe, c->modes, modes);
    for (size_t i = 0; i < r.nresults; i++)
        cr_assert_eq(r.results[i].cause, r.results[i].status == RES_MISMATCH ? 0 : -1,
                     "%s: result %zu", exe, i);
    run_results_free(&r);
    ts_rmtree(dir);
}

Test(causes, a_sign_extension)
{
    run_one("standin_mut_a.exe");
}
Test(causes, b_shift_halving)
{
    run_one("standin_mut_b.exe");
}
Test(causes, c_absent_scale_zero)
{
    run_one("standin_mut_c.exe");
}
Test(causes, d_scales_accumulate)
{
    run_one("standin_mut_d.exe");
}
Test(causes, e_root_kept)
{
    run_one("standin_mut_e.exe");
}
Test(causes, f_cursor_saved_on_half_step)
{
    run_one("standin_mut_f.exe");
}
Test(causes, g_fast_one_frame)
{
    run_one("standin_mut_g.exe");
}
Test(causes, h_mode_bit_ored)
{
    run_one("standin_mut_h.exe");
}

/*
 * l  indexes the rotation width table with the sign-extended type: one
 *    instruction (ReadRotationType's bitReader call for the value) asks for 9
 *    bits where the reference reads 8 (type 2) and for 16 where it reads 12
 *    (type 3). Two groups per mode (the values differ by 2^8 and 2^12), two
 *    input classes, one cause keyed by that call, both differences listed.
 */
Test(causes, l_one_instruction_two_inputs)
{
    const mt_mutant *m = mutant("standin_mut_l.exe");
    char *dir = ts_tempdir();
    mt_write_mutant(dir, m);
    run_results r;
    mt_run(dir, m->exe, 2, &r);
    cr_assert_eq(mismatches(&r), m->nexpect);
    cr_assert_eq(r.ngroups, 8, "%zu groups", r.ngroups);
    cr_assert_eq(r.ncauses, 1, "%zu causes (first: %s; second: %s)", r.ncauses,
                 r.ncauses ? r.causes[0].signature : "-",
                 r.ncauses > 1 ? r.causes[1].signature : "-");
    const res_cause *c = &r.causes[0];
    cr_assert_str_eq(c->kind, "read");
    cr_assert_str_eq(c->routine, "ReadRotationType", "%s", c->statement);
    cr_assert(c->have_insn, "no instruction named");
    cr_assert_str_eq(c->insn_routine, "ReadRotationType", "instruction in %s", c->insn_routine);
    cr_assert(!strncmp(c->insn, "call", 4), "instruction %s", c->insn);
    char key[64];
    snprintf(key, sizeof key, "read|ReadRotationType+0x%x|width", c->insn_offset);
    cr_assert_str_eq(c->signature, key);
    cr_assert_eq(c->clips, m->nexpect);
    cr_assert_eq(c->ngroups, r.ngroups);
    /* Both inputs' differences, each once: original vs reference. */
    cr_assert_eq(c->nvalues, 2, "%u values: %s | %s", c->nvalues, c->values[0], c->values[1]);
    int t2 = 0, t3 = 0;
    for (unsigned i = 0; i < c->nvalues; i++) {
        t2 += !strcmp(c->values[i], "rotation type 2: 9 vs 8 bits");
        t3 += !strcmp(c->values[i], "rotation type 3: 16 vs 12 bits");
    }
    cr_assert(t2 == 1 && t3 == 1, "values %s | %s", c->values[0], c->values[1]);
    run_results_free(&r);
    ts_rmtree(dir);
}

/* Every mismatching clip explained on its own: still one cause, each clip in it. */
Test(causes, explain_all_agrees_with_the_groups)
{
    const mt_mutant *m = mutant("standin_mut_a.exe");
    char *dir = ts_tempdir();
    mt_write_mutant(dir, m);
    emu_image *img = mt_image(m->exe);
    run_config cfg;
    mt_config(&cfg, dir, img, 2);
    cfg.explain = RUN_EXPLAIN_ALL;
    run_results r;
    mt_execute(&cfg, &r);
    cr_assert(r.explained_all);
    cr_assert_eq(r.ncauses, 1);
    check_cause(&r.causes[0], want(m->exe));
    for (size_t i = 0; i < r.nresults; i++) {
        const clip_result *x = &r.results[i];
        if (x->status != RES_MISMATCH) continue;
        cr_assert(x->expl && x->expl->state == RES_EXPL_READ, "result %zu not explained", i);
        cr_assert_eq(x->expl->tick, x->div.tick);
        cr_assert_eq(x->cause, 0);
        /* The reader's own value differs: the original's is the reference's 12 bits. */
        const readcmp_first *f = &x->expl->first;
        cr_assert(f->diff == READCMP_VALUE && f->have_ref && f->have_orig, "result %zu", i);
        cr_assert_str_eq(f->routine, "ReadRotationType");
        cr_assert(f->ref.value < 0 && f->orig.value == (f->ref.value & 0xFFF),
                  "result %zu: %d vs %d", i, f->ref.value, f->orig.value);
    }
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/* No bug, no cause: the stand-in over every mutant's corpus. */
Test(causes, standin_has_none)
{
    char *dir = ts_tempdir();
    for (size_t i = 0; i < MT_MUTANTS; i++)
        mt_write_mutant(dir, &mt_mutants[i]);
    run_results r;
    mt_run(dir, "standin.exe", 2, &r);
    cr_assert_eq(mismatches(&r), 0);
    cr_assert_eq(r.ncauses, 0);
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * Mutants a and b together over both corpora: a's corpus shows a's bug (and
 * b's where its clip 2 halves -1 under SLOW), b's corpus b's: two causes,
 * the rotation reader's and the halving store's.
 */
Test(causes, two_bugs_two_causes)
{
    char *dir = ts_tempdir();
    mt_write_mutant(dir, mutant("standin_mut_a.exe"));
    mt_write_mutant(dir, mutant("standin_mut_b.exe"));
    run_results r;
    mt_run(dir, "standin_mut_ab.exe", 2, &r);
    cr_assert_eq(r.ncauses, 2, "%zu causes", r.ncauses);
    const res_cause *a = NULL, *b = NULL;
    for (size_t i = 0; i < r.ncauses; i++) {
        if (!strcmp(r.causes[i].kind, "read"))
            a = &r.causes[i];
        else
            b = &r.causes[i];
    }
    cr_assert(a && b, "one read cause and one combine cause");
    check_cause(a, want("standin_mut_a.exe"));
    check_cause(b, want("standin_mut_b.exe"));
    /* a explains exactly mutant a's mismatches (its table); b the rest. */
    cr_assert_eq(a->clips, MT_EXPECT_A, "a: %llu clips", (unsigned long long)a->clips);
    cr_assert_eq(a->clips + b->clips, mismatches(&r));
    cr_assert_gt(b->clips, 0);
    run_results_free(&r);
    ts_rmtree(dir);
}

/* ---- coverage ---- */

static const char *const decoding[6] = {
    "Battle_ReadAnimation", "StartClip",        "bitReader",
    "ReadPositionType",     "ReadRotationType", "ReadBoneScale"};

static const res_cov_routine *cov_of(const run_results *r, const char *name)
{
    for (unsigned i = 0; i < r->coverage.nroutines; i++)
        if (!strcmp(r->coverage.routines[i].name, name)) return &r->coverage.routines[i];
    cr_assert_fail("no coverage of %s", name);
    return NULL;
}

static void run_cover(unsigned modes, run_results *r)
{
    char *dir = ts_tempdir();
    synth_summary sum;
    ff_error err;
    TS_OK(synth_write(dir, SYNTH_COVER, 1, &sum, &err), &err);
    emu_image *img = mt_image("standin.exe");
    run_config cfg;
    mt_config(&cfg, dir, img, 2);
    cfg.game.engine = ts_unicorn(); /* coverage is Unicorn's hook (EMU_CAP_COVERAGE) */
    cfg.modes = modes;
    mt_execute(&cfg, r);
    emu_image_free(img);
    ts_rmtree(dir);
    cr_assert(r->coverage.enabled && r->coverage.complete);
}

Test(coverage, cover_preset_runs_every_decoding_block)
{
    run_results r;
    run_cover(MODE_ALL, &r);
    cr_assert_eq(mismatches(&r), 0);
    for (int i = 0; i < 6; i++) {
        const res_cov_routine *c = cov_of(&r, decoding[i]);
        cr_assert(c->blocks > 0, "%s: no block", decoding[i]);
        cr_assert_eq(c->covered, c->blocks, "%s: %u of %u blocks (first missed at 0x%x)",
                     decoding[i], c->covered, c->blocks, c->nuncovered ? c->uncovered[0].start : 0);
        cr_assert_eq(c->nuncovered, 0);
    }
    /* BuildBoneMatrices was replaced by a return: none of its blocks counts. */
    const res_cov_routine *bm = cov_of(&r, "BuildBoneMatrices");
    cr_assert_eq(bm->covered, 0);
    cr_assert_eq(bm->nuncovered, bm->blocks);
    run_results_free(&r);
}

/* Without SLOW, StartClip never doubles a frame count: a block it never ran, reached by a
 * branch of a block it ran, with its text. And Battle_ReadAnimation's half-step paths. */
Test(coverage, a_run_without_slow_misses_blocks)
{
    run_results r;
    run_cover(1u << MODE_NORMAL | 1u << MODE_FAST, &r);
    const res_cov_routine *sc = cov_of(&r, "StartClip");
    cr_assert(sc->covered > 0 && sc->covered < sc->blocks, "StartClip %u of %u", sc->covered,
              sc->blocks);
    cr_assert_eq(sc->nuncovered, sc->blocks - sc->covered);
    const res_cov_block *u = &sc->uncovered[0];
    cr_assert(u->start >= sc->entry && u->disasm && u->disasm[0], "block text");
    cr_assert(u->from_covered && u->from >= sc->entry && u->from < u->start,
              "reached from 0x%x (%s)", u->from, u->branch);
    cr_assert(u->branch[0] == 'j', "a branch: %s", u->branch);
    const res_cov_routine *ra = cov_of(&r, "Battle_ReadAnimation");
    cr_assert(ra->covered < ra->blocks);
    for (int i = 2; i < 6; i++) {
        const res_cov_routine *c = cov_of(&r, decoding[i]);
        cr_assert_eq(c->covered, c->blocks, "%s", decoding[i]);
    }
    run_results_free(&r);
}

/* ---- the entity level (harness/core/causes_entity.c) ---- */

/* Writes the lockstep corpus (mt_corpus.c: body d4c001, weapon d4w001, monster c0m001). */
static char *entity_corpus(void)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &mt_model_body);
    mt_write_model(dir, &mt_model_weapon);
    mt_write_model(dir, &mt_model_monster);
    return dir;
}

/*
 * A lockstep mutant decodes each model right (the frame level agrees), so
 * its entity mismatches make one "lockstep" cause named after the routine
 * that parts the models: i returns the weapon's result from AdvanceBy1 (the
 * body's end call, after call 0), j never starts the weapon and k gives it
 * the body's frame count in QueueAnimation (call 0).
 */
static void lockstep_one(const char *exe, const char *routine, const char *field)
{
    char *dir = entity_corpus();
    run_results r;
    mt_run_entity(dir, exe, 2, &r);
    cr_assert_eq(r.totals.by_status[RES_MISMATCH], 0, "%s: the frame level agrees", exe);
    cr_assert_gt(r.totals.entity_by_status[RES_MISMATCH], 0);
    cr_assert_eq(r.ncauses, 1, "%s: %zu causes (first: %s)", exe, r.ncauses,
                 r.ncauses ? r.causes[0].statement : "-");
    const res_cause *c = &r.causes[0];
    cr_assert_str_eq(c->kind, "lockstep", "%s", exe);
    cr_assert_str_eq(c->routine, routine, "%s: %s", exe, c->statement);
    cr_assert(strstr(c->signature, field), "%s: signature %s, field %s", exe, c->signature, field);
    cr_assert_eq(c->clips, 0);
    cr_assert_eq(c->entity_clips, r.totals.entity_by_status[RES_MISMATCH], "%s: all of them", exe);
    cr_assert_eq(c->ngroups, r.ngroups, "%s: every group", exe);
    for (size_t i = 0; i < r.nentity_results; i++)
        cr_assert_eq(r.entity_results[i].r.cause,
                     r.entity_results[i].r.status == RES_MISMATCH ? 0 : -1, "%s: result %zu", exe,
                     i);
    run_results_free(&r);
    ts_rmtree(dir);
}

Test(causes, i_lockstep_result)
{
    lockstep_one("standin_mut_i.exe", "AdvanceBy1", "|body.ret");
}

Test(causes, j_weapon_not_started)
{
    lockstep_one("standin_mut_j.exe", "QueueAnimation", "|weapon.");
}

Test(causes, k_weapon_takes_body_count)
{
    lockstep_one("standin_mut_k.exe", "QueueAnimation", "|weapon.cmd.total");
}

/*
 * Mutant m reads Haste as Slow: its fast-mode clips part at several fields
 * (weapon.root.x, weapon.cmd.flags, body.root.x), all one cause, the speed
 * the probe shows under Haste: 2 in the reference, 1 in the original.
 */
Test(causes, m_haste_read_as_slow)
{
    lockstep_one("standin_mut_m.exe", "QueueAnimation", "|speed|haste|2 vs 1");
}

/*
 * A decoding bug shows at both levels: the entity groups join the frame
 * level's cause (the diverging model mismatches there too, same file, clip
 * and mode), so mutant a still gives one cause, explaining both.
 */
Test(causes, a_entity_groups_join_the_frame_cause)
{
    char *dir = ts_tempdir();
    mt_write_mutant(dir, mutant("standin_mut_a.exe"));
    mt_write_model(dir, &mt_model_body);
    mt_write_model(dir, &mt_model_weapon);
    run_results r;
    mt_run_entity(dir, "standin_mut_a.exe", 2, &r);
    cr_assert_eq(r.ncauses, 1, "%zu causes (first: %s)", r.ncauses,
                 r.ncauses ? r.causes[0].statement : "-");
    check_cause(&r.causes[0], want("standin_mut_a.exe"));
    cr_assert_gt(r.causes[0].entity_clips, 0, "the entity level shows it too");
    cr_assert_eq(r.causes[0].entity_clips, r.totals.entity_by_status[RES_MISMATCH]);
    cr_assert_eq(r.causes[0].ngroups, r.ngroups);
    run_results_free(&r);
    ts_rmtree(dir);
}
