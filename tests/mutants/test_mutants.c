/*
 * tests/mutants/test_mutants.c: the harness run on each mutant of the
 * stand-in engine (one planted bug each, emu/standin/README.md) over a
 * corpus built from explicit deltas, asserting the exact first divergence
 * it must report for every (clip, mode), worked out by hand; the unmutated stand-in gives no
 * mismatch at all; and the leaf level pins mutants a and c to their one routine.
 *
 * The corpora and the derivation of every expected divergence are in
 * mt_corpus.c.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "harness/run/leaf.h"
#include "tests/mutants/mt.h"
#include "tests/mutants/mt_corpus.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void run_mutant(const mt_mutant *m)
{
    char *dir = ts_tempdir();
    unsigned files = mt_write_mutant(dir, m);
    run_results r;
    if (m->entity) mt_run_entity(dir, m->exe, 2, &r);
    else mt_run(dir, m->exe, 2, &r);
    cr_assert_eq(r.nfiles, files, "%s: %zu files", m->exe, r.nfiles);
    mt_check(&r, m->expect, m->nexpect);
    mt_check_ticks(&r);
    if (m->entity) mt_ent_check(&r, m->ent, m->nent);
    run_results_free(&r);
    ts_rmtree(dir);
}

Test(mutants, a_sign_extension)
{
    run_mutant(mt_mutant_named("a"));
}
Test(mutants, b_shift_halving)
{
    run_mutant(mt_mutant_named("b"));
}
Test(mutants, c_absent_scale_zero)
{
    run_mutant(mt_mutant_named("c"));
}
Test(mutants, d_scales_accumulate)
{
    run_mutant(mt_mutant_named("d"));
}
Test(mutants, e_root_kept)
{
    run_mutant(mt_mutant_named("e"));
}
Test(mutants, f_cursor_saved_on_half_step)
{
    run_mutant(mt_mutant_named("f"));
}
Test(mutants, g_fast_one_frame)
{
    run_mutant(mt_mutant_named("g"));
}
Test(mutants, h_mode_bit_ored)
{
    run_mutant(mt_mutant_named("h"));
}
Test(mutants, i_advance_returns_the_weapons_result)
{
    run_mutant(mt_mutant_named("i"));
}
Test(mutants, j_queue_skips_the_weapon)
{
    run_mutant(mt_mutant_named("j"));
}
Test(mutants, k_weapon_takes_the_bodys_frame_count)
{
    run_mutant(mt_mutant_named("k"));
}
Test(mutants, m_haste_read_as_slow)
{
    run_mutant(mt_mutant_named("m"));
}
Test(mutants, l_width_table_misindexed)
{
    run_mutant(mt_mutant_named("l"));
}

/* The unmutated stand-in over every mutant's corpus at once, both levels: no mismatch. */
Test(mutants, standin_matches_every_corpus)
{
    char *dir = ts_tempdir();
    for (size_t i = 0; i < MT_MUTANTS; i++) mt_write_mutant(dir, &mt_mutants[i]);
    run_results r;
    mt_run_entity(dir, "standin.exe", 2, &r);
    /* a..h and l: 11 monsters of 3, 3, 3, 3, 2, 2, 3, 3, 3, 2, 3 clips; i..k share d4c001
     * (3 clips), d4w001 (3) and c0m001 (1). 4 modes each. */
    cr_assert_eq(r.nfiles, 14u);
    cr_assert_eq(r.nresults, 37u * 4, "%zu results", r.nresults);
    /* Entities: the 12 monsters alone, d4c001 with d4w001 (3 clips both have); 3 modes
     * (QueueAnimation reaches no slow+fast). */
    cr_assert_eq(r.nentities, 13u);
    cr_assert_eq(r.nentity_results, (30u + 1 + 3) * 3, "%zu entity results", r.nentity_results);
    cr_assert_null(mt_ent_find(&r, "d4c001.dat", "d4w001.dat", 0, MODE_SLOW_FAST));
    cr_assert_eq(r.entity_modes, (1u << MODE_NORMAL) | (1u << MODE_SLOW) | (1u << MODE_FAST));
    mt_check(&r, NULL, 0);
    mt_check_ticks(&r);
    mt_ent_check(&r, NULL, 0);
    cr_assert_eq(r.ngroups, 0);
    /* Where the weapon ended, on both sides (tick of its own end call; -1: still running). */
    const entity_result *e = mt_ent_find(&r, "d4c001.dat", "d4w001.dat", 1, MODE_NORMAL);
    cr_assert_not_null(e);
    cr_assert_eq(e->r.ref_ticks, 3u, "the body's 2 frames and its end call");
    cr_assert_eq(e->weapon_end_ref, -1, "the 3-frame weapon still runs at the body's end");
    cr_assert_eq(e->weapon_end_orig, -1);
    e = mt_ent_find(&r, "d4c001.dat", "d4w001.dat", 2, MODE_SLOW);
    cr_assert_not_null(e);
    cr_assert_eq(e->r.ref_ticks, 6u, "slow: 2 x 3 calls");
    cr_assert_eq(e->weapon_end_ref, 1, "the 1-frame weapon's end call is tick 1");
    cr_assert_eq(e->weapon_end_orig, 1);
    e = mt_ent_find(&r, "d4c001.dat", "d4w001.dat", 0, MODE_FAST);
    cr_assert_eq(e->weapon_end_ref, 1, "equal lengths end together");
    cr_assert_eq(e->weapon_end_orig, 1);
    cr_assert_null(mt_ent_find(&r, "d4c001.dat", NULL, 0, MODE_FAST), "the body is armed only");
    run_results_free(&r);
    ts_rmtree(dir);
}

/*
 * The unmutated stand-in over the 'small' preset's entities: no mismatch.
 * Entities (corpus/README.md): the monsters c0m000..c0m003 (7, 4, 7, 7
 * clips), d1c003 alone (2), d4c009 with d4w023 and with d4w024 (6 each),
 * d7c016 alone (2): 41 clips per mode, in normal, slow and fast.
 */
Test(mutants, standin_matches_small_preset_entities)
{
    char *dir = ts_tempdir();
    synth_summary sum;
    ff_error err;
    memset(&sum, 0, sizeof sum);
    TS_OK(synth_write(dir, SYNTH_SMALL, 1, &sum, &err), &err);
    run_results r;
    mt_run_entity(dir, "standin.exe", 2, &r);
    cr_assert_eq(r.nentities, 8u);
    cr_assert_eq(r.totals.entities_armed, 2u);
    cr_assert_eq(r.totals.pool_mismatches, 0u);
    cr_assert_eq(r.nentity_results, 41u * 3, "%zu entity results", r.nentity_results);
    mt_check(&r, NULL, 0);
    mt_ent_check(&r, NULL, 0);
    /* Clip 4: 15 frames on the body, 16 on the weapons: the weapon still runs at the end. */
    const entity_result *e = mt_ent_find(&r, "d4c009.dat", "d4w024.dat", 4, MODE_NORMAL);
    cr_assert_not_null(e);
    cr_assert_eq(e->r.ref_ticks, 16u);
    cr_assert_eq(e->weapon_frames, 16u);
    cr_assert_eq(e->weapon_end_ref, -1);
    cr_assert_eq(e->weapon_end_orig, -1);
    /* Clip 0: 6 frames on both: the weapon's end call is the body's, tick 6. */
    e = mt_ent_find(&r, "d4c009.dat", "d4w023.dat", 0, MODE_NORMAL);
    cr_assert_eq(e->weapon_end_ref, 6);
    cr_assert_eq(e->weapon_end_orig, 6);
    /* Every armed entity has its in-hand offset plot; the others none. */
    for (size_t i = 0; i < r.nentities; i++)
        cr_assert_eq(r.entities[i].plot_clip >= 0, r.entities[i].weapon >= 0, "entity %zu", i);
    run_results_free(&r);
    ts_rmtree(dir);
}

/* The unmutated stand-in over the 'small' synthetic preset: no mismatch. */
Test(mutants, standin_matches_small_preset)
{
    char *dir = ts_tempdir();
    synth_summary sum;
    ff_error err;
    memset(&sum, 0, sizeof sum);
    TS_OK(synth_write(dir, SYNTH_SMALL, 1, &sum, &err), &err);
    run_results r;
    mt_run(dir, "standin.exe", 2, &r);
    cr_assert_eq(r.nfiles, sum.files);
    cr_assert_eq(r.nresults, (size_t)sum.clips * 4, "%zu results for %u clips", r.nresults,
                 sum.clips);
    mt_check(&r, NULL, 0);
    mt_check_ticks(&r);
    cr_assert_eq(r.totals.bad_files, 0);
    run_results_free(&r);
    ts_rmtree(dir);
}

/* ---- leaf level ---- */

#define LEAF_BITREADER_CALLS 4096

static void run_leaf(const char *exe, run_results *r)
{
    emu_image *img = mt_image(exe);
    run_config cfg;
    mt_config(&cfg, NULL, img, 2);
    cfg.frame_level = 0;
    cfg.leaf_level = 1;
    cfg.leaf_calls = LEAF_BITREADER_CALLS;
    mt_execute(&cfg, r);
    emu_image_free(img);
    cr_assert_eq(r->nleaf, 4u);
    static const char *const names[4] = {"bitReader", "ReadPositionType", "ReadRotationType",
                                         "ReadBoneScale"};
    /* bitReader: as asked; value readers: 8 bit offsets x 2^(type bits) prefixes x 32 payloads. */
    static const uint64_t calls[4] = {LEAF_BITREADER_CALLS, 8 * 4 * 32, 8 * 8 * 32, 8 * 2 * 32};
    for (int i = 0; i < 4; i++) {
        cr_assert_str_eq(r->leaf[i].routine, names[i]);
        cr_assert_eq(r->leaf[i].calls, calls[i], "%s: %llu calls", names[i],
                     (unsigned long long)r->leaf[i].calls);
        cr_assert_eq(r->leaf[i].faults, 0, "%s: %llu faults", names[i],
                     (unsigned long long)r->leaf[i].faults);
    }
}

/* Bits [at, at + n) of an 8-byte buffer, LSB first, as an unsigned value. */
static uint32_t bits_of(const uint8_t buf[8], unsigned at, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint32_t)((buf[(at + i) / 8] >> ((at + i) % 8)) & 1) << i;
    return v;
}

/* Is case i of routine r one where the mutant must differ? (decoded here from the buffer) */
static int rotation_negative_12bit(const leaf_case *c)
{
    unsigned at = (unsigned)c->bit;
    return bits_of(c->buf, at, 1) == 1 && bits_of(c->buf, at + 1, 2) == 3 &&
           (bits_of(c->buf, at + 3, 12) & 0x800) != 0;
}

static int scale_absent(const leaf_case *c)
{
    return bits_of(c->buf, (unsigned)c->bit, 1) == 0;
}

static uint64_t count_cases(emu_leaf r, uint64_t n, uint64_t seed, int (*pred)(const leaf_case *))
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
        leaf_case c;
        leaf_case_make(r, seed, i, &c);
        k += pred(&c) != 0;
    }
    return k;
}

/*
 * The leaf level's routines are ref/readlog.h's, row for row: one name each
 * (the read log's), as many cases as their type bits give, each case one the
 * reference answers.
 */
Test(mutants, leaf_routines_are_the_read_logs)
{
    static const unsigned type_bits[] = {
#define TYPE_BITS(id, name) REF_TYPE_BITS_##id,
        REF_ROUTINE_MAP(TYPE_BITS)
#undef TYPE_BITS
    };
    cr_assert_eq(LEAF_ROUTINES, REF_R__COUNT);
    cr_assert_eq(sizeof type_bits / sizeof type_bits[0], (size_t)LEAF_ROUTINES);
    for (int r = 0; r < LEAF_ROUTINES; r++) {
        const char *name = leaf_routine_name((emu_leaf)r);
        cr_assert_str_eq(name, ref_routine_name((ref_routine)r), "routine %d", r);
        cr_assert_str_neq(name, "?", "routine %d", r);
        for (int q = 0; q < r; q++)
            cr_assert_str_neq(name, leaf_routine_name((emu_leaf)q), "routines %d and %d", q, r);
        uint64_t cases = leaf_case_count((emu_leaf)r, 1000);
        cr_assert_eq(cases, r == EMU_LEAF_BITREADER ? 1000u : 8u * (1u << type_bits[r]) * 32u,
                     "%s: %llu cases", name, (unsigned long long)cases);
        leaf_case c;
        ff_error err;
        leaf_case_make((emu_leaf)r, 1, cases - 1, &c);
        TS_OK(leaf_case_ref((emu_leaf)r, &c, &err), &err);
    }
    cr_assert_str_eq(leaf_routine_name((emu_leaf)LEAF_ROUTINES), "?");
}

Test(mutants, leaf_standin_clean)
{
    run_results r;
    run_leaf("standin.exe", &r);
    cr_assert_eq(r.nleaf, (size_t)LEAF_ROUTINES);
    for (int i = 0; i < LEAF_ROUTINES; i++)
        cr_assert_eq(r.leaf[i].mismatches, 0, "%s: %llu mismatches", r.leaf[i].routine,
                     (unsigned long long)r.leaf[i].mismatches);
    cr_assert_eq(r.ngroups, 0);
    run_results_free(&r);
}

Test(mutants, leaf_a_rotation_only)
{
    run_results r;
    run_leaf("standin_mut_a.exe", &r);
    cr_assert_eq(r.leaf[EMU_LEAF_BITREADER].mismatches, 0);
    cr_assert_eq(r.leaf[EMU_LEAF_POSITION].mismatches, 0);
    cr_assert_eq(r.leaf[EMU_LEAF_SCALE].mismatches, 0);
    /* Every case with presence 1, type 3 and the 12-bit sign bit set, and only those. */
    uint64_t want = count_cases(EMU_LEAF_ROTATION, 8 * 8 * 32, 1, rotation_negative_12bit);
    const leaf_result *l = &r.leaf[EMU_LEAF_ROTATION];
    cr_assert(want > 0);
    cr_assert_eq(l->mismatches, want, "ReadRotationType: %llu mismatches, expected %llu",
                 (unsigned long long)l->mismatches, (unsigned long long)want);
    cr_assert(l->have_first);
    /*
     * Case index = (bit offset * 8 + prefix) * 32 + payload. Prefixes 0..6
     * (cases 0..223) are absent or 3/6/8-bit types; prefix 7 (present, type
     * 3) at bit offset 0 starts at 224 with payload 0 (value 0, no
     * difference), then 225 with the all-ones payload: buffer FF.., 12 bits
     * of ones: ref -1, orig 0xFFF = 4095; 15 bits read from bit 0: byte 1,
     * bit 7 on both sides.
     */
    cr_assert_eq(l->first.index, 225, "first mismatch at case %llu",
                 (unsigned long long)l->first.index);
    leaf_case c;
    leaf_case_make(EMU_LEAF_ROTATION, 1, 225, &c);
    cr_assert_eq(c.bit, 0);
    cr_assert_arr_eq(c.buf, l->first.buf, 8);
    cr_assert_eq(bits_of(c.buf, 0, 1), 1, "presence bit");
    cr_assert_eq(bits_of(c.buf, 1, 2), 3, "type 3: 12 bits");
    uint32_t raw = bits_of(c.buf, 3, 12);
    cr_assert_eq(raw, 0xFFF);
    int32_t ref = (raw & 0x800) ? (int32_t)raw - 4096 : (int32_t)raw;
    cr_assert_eq(l->first.ref_ax, ref, "ref AX %d, expected %d", l->first.ref_ax, ref);
    cr_assert_eq(l->first.ref_ax, -1);
    cr_assert_eq(l->first.orig_ax, (int32_t)raw, "orig AX %d, expected %u", l->first.orig_ax, raw);
    cr_assert_eq(l->first.ref_pos, 1);
    cr_assert_eq(l->first.ref_bit, 7);
    cr_assert_eq(l->first.orig_pos, 1);
    cr_assert_eq(l->first.orig_bit, 7);
    /* The reference side of the case agrees with what the run recorded. */
    ff_error err;
    TS_OK(leaf_case_ref(EMU_LEAF_ROTATION, &c, &err), &err);
    cr_assert_eq(c.ref_ax, -1);
    run_results_free(&r);
}

Test(mutants, leaf_c_scale_only)
{
    run_results r;
    run_leaf("standin_mut_c.exe", &r);
    cr_assert_eq(r.leaf[EMU_LEAF_BITREADER].mismatches, 0);
    cr_assert_eq(r.leaf[EMU_LEAF_POSITION].mismatches, 0);
    cr_assert_eq(r.leaf[EMU_LEAF_ROTATION].mismatches, 0);
    /* Every case whose presence bit is 0: prefix 0 of 2, so half of 512. */
    const leaf_result *l = &r.leaf[EMU_LEAF_SCALE];
    cr_assert_eq(count_cases(EMU_LEAF_SCALE, 512, 1, scale_absent), 256);
    cr_assert_eq(l->mismatches, 256, "ReadBoneScale: %llu mismatches",
                 (unsigned long long)l->mismatches);
    /* Case 0: bit offset 0, prefix 0 (absent): ref 1024, orig 0, cursor at bit 1. */
    cr_assert(l->have_first);
    cr_assert_eq(l->first.index, 0);
    leaf_case c;
    leaf_case_make(EMU_LEAF_SCALE, 1, 0, &c);
    cr_assert_arr_eq(c.buf, l->first.buf, 8);
    cr_assert_eq(bits_of(c.buf, (unsigned)c.bit, 1), 0);
    cr_assert_eq(l->first.ref_ax, 1024);
    cr_assert_eq(l->first.orig_ax, 0);
    cr_assert_eq(l->first.ref_pos, 0);
    cr_assert_eq(l->first.ref_bit, 1);
    cr_assert_eq(l->first.orig_pos, 0);
    cr_assert_eq(l->first.orig_bit, 1);
    run_results_free(&r);
}
