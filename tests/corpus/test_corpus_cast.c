/*
 * tests/corpus/test_corpus_cast.c: the characters of the synthetic presets.
 * Bodies pair with their character's weapons by name (read here, not by
 * corpus/pairs.c) with equal clip counts and only the planted longer weapon
 * clips; the vanilla preset holds the game's cast with its clip counts
 * (docs/pose.md section 5); SLOW+FAST reads past every character clip on the
 * body and on the weapons, measured with the reference engine; synth_write
 * leaves the entities manifest.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/pairs.h"
#include "corpus/synth.h"
#include "tests/corpus/ct.h"

TestSuite(synth_cast, .fini = ts_cleanup);

/* Weapons (8 sections) of body i's character, by the test's own reading of names. */
static size_t weapons_of(const ct_built *b, size_t i, long *out)
{
    size_t n = 0;
    for (size_t j = 0; j < b->n; j++)
        if (b->dat[j].kind == DAT_WEAPON && b->name[j][0] == 'd' && b->name[j][2] == 'w' &&
            b->name[j][1] == b->name[i][1])
            out[n++] = (long)j;
    return n;
}

/* Clips a frame longer on a weapon: (file, clip) as "d4w023.dat:4". */
static const char *const small_longer[] = {"d4w023.dat:4", "d4w023.dat:5", "d4w024.dat:4",
                                           "d4w024.dat:5"};

static int is_small_longer(const char *key)
{
    for (size_t i = 0; i < sizeof small_longer / sizeof small_longer[0]; i++)
        if (!strcmp(key, small_longer[i])) return 1;
    return 0;
}

Test(synth_cast, body_and_weapon_pairs)
{
    /* The presets shaped like the game's files; cover holds only what decoding needs. */
    for (int preset = 0; preset <= SYNTH_VANILLA; preset++) {
        ct_built *b = ct_build_preset((synth_preset)preset, 5);
        const char *pname = synth_preset_name(preset);
        unsigned pairs = 0, longer = 0;
        for (size_t i = 0; i < b->n; i++) {
            if (b->dat[i].kind != DAT_BODY) continue;
            long w[16];
            size_t nw = weapons_of(b, i, w);
            for (size_t k = 0; k < nw; k++) {
                const dat_file *body = &b->dat[i], *weapon = &b->dat[w[k]];
                pairs++;
                cr_assert_eq(body->clips, weapon->clips, "%s: clip counts", weapon->name);
                for (uint32_t c = 0; c < body->clips; c++) {
                    unsigned fb = dat_clip_frames(body, c), fw = dat_clip_frames(weapon, c);
                    if (fw == fb) continue;
                    cr_assert_eq(fw, fb + 1, "%s clip %u: %u vs %u frames", weapon->name, c, fw,
                                 fb);
                    char key[32];
                    snprintf(key, sizeof key, "%s:%u", weapon->name, c);
                    if (preset == SYNTH_SMALL)
                        cr_assert(is_small_longer(key), "small: %s is longer", key);
                    else
                        cr_assert(weapon->name[1] == '4' && (c == 5 || c == 6) &&
                                      fb == (c == 5 ? 14u : 23u),
                                  "vanilla: %s is longer (%u frames)", key, fb);
                    longer++;
                }
            }
        }
        /* small: d4c009 with 2 weapons, each with 2 longer clips; vanilla: the
         * cast's 38 armed pairs (corpus/README.md), Rinoa's 5 with 2 longer clips. */
        cr_assert_eq(pairs, preset == SYNTH_SMALL ? 2u : 38u, "%s: %u pairs", pname, pairs);
        cr_assert_eq(longer, preset == SYNTH_SMALL ? 4u : 10u, "%s: %u longer clips", pname,
                     longer);
        ct_free_built(b);
    }
}

/* The vanilla cast (docs/pose.md section 5; numbers and weapon counts from corpus/README.md). */
static const struct {
    const char *who;
    const char *bodies[2];
    dat_kind body_kind;
    unsigned first_weapon, nweapons;
    dat_kind weapon_kind;
    unsigned clips;
} cast[] = {
    {"Squall", {"d0c000.dat", "d0c001.dat"}, DAT_BODY, 0, 7, DAT_WEAPON, 42},
    {"Zell", {"d1c003.dat", "d1c004.dat"}, DAT_BODY, 8, 4, DAT_WEAPON_REDUCED, 38},
    {"Irvine", {"d2c006.dat"}, DAT_BODY, 13, 4, DAT_WEAPON, 32},
    {"Quistis", {"d3c007.dat"}, DAT_BODY, 18, 4, DAT_WEAPON, 38},
    {"Rinoa", {"d4c009.dat"}, DAT_BODY, 23, 5, DAT_WEAPON, 31},
    {"Selphie", {"d5c011.dat", "d5c012.dat"}, DAT_BODY, 28, 4, DAT_WEAPON, 33},
    {"Seifer", {"d6c014.dat"}, DAT_BODY, 32, 1, DAT_WEAPON, 36},
    {"Edea", {"d7c016.dat"}, DAT_EDEA, 0, 0, DAT_WEAPON, 30},
    {"Laguna", {"d8c017.dat"}, DAT_BODY, 33, 1, DAT_WEAPON, 31},
    {"Kiros", {"d9c018.dat"}, DAT_BODY, 34, 1, DAT_WEAPON_REDUCED, 34},
    {"Ward", {"dac019.dat"}, DAT_BODY, 35, 1, DAT_WEAPON, 31},
};

Test(synth_cast, vanilla_has_the_game_cast)
{
    ct_built *b = ct_build_preset(SYNTH_VANILLA, 1);
    unsigned files = 0;
    for (size_t k = 0; k < sizeof cast / sizeof cast[0]; k++) {
        for (int i = 0; i < 2 && cast[k].bodies[i]; i++) {
            long j = ct_find(b, cast[k].bodies[i]);
            cr_assert(j >= 0, "%s: %s missing", cast[k].who, cast[k].bodies[i]);
            const dat_file *d = &b->dat[j];
            cr_assert_eq(d->kind, cast[k].body_kind, "%s", d->name);
            cr_assert_eq(d->clips, cast[k].clips, "%s: %u clips", d->name, d->clips);
            cr_assert(d->bones >= 24 && d->bones <= 40, "%s: %u bones", d->name, d->bones);
            files++;
        }
        for (unsigned w = 0; w < cast[k].nweapons; w++) {
            char name[16];
            snprintf(name, sizeof name, "%.2sw%03u.dat", cast[k].bodies[0],
                     cast[k].first_weapon + w);
            long j = ct_find(b, name);
            cr_assert(j >= 0, "%s: %s missing", cast[k].who, name);
            const dat_file *d = &b->dat[j];
            cr_assert_eq(d->kind, cast[k].weapon_kind, "%s", name);
            if (d->kind == DAT_WEAPON) {
                cr_assert_eq(d->clips, cast[k].clips, "%s: %u clips", name, d->clips);
                cr_assert(d->bones >= 2 && d->bones <= 5, "%s: %u bones", name, d->bones);
            }
            files++;
        }
    }
    /* 14 bodies (Edea's included), 27 weapons, 5 reduced weapons. */
    cr_assert_eq(files, 46);
    unsigned chars = 0;
    for (size_t i = 0; i < b->n; i++)
        chars += b->name[i][0] == 'd';
    cr_assert_eq(chars, files, "character files beyond the cast");
    /* Rinoa's planted clips: 14 and 23 frames on the body, 15 and 24 on each weapon. */
    const dat_file *rinoa = ct_must_find(b, "d4c009.dat"), *w23 = ct_must_find(b, "d4w023.dat");
    cr_assert_eq(dat_clip_frames(rinoa, 5), 14);
    cr_assert_eq(dat_clip_frames(rinoa, 6), 23);
    cr_assert_eq(dat_clip_frames(w23, 5), 15);
    cr_assert_eq(dat_clip_frames(w23, 6), 24);
    ct_free_built(b);
}

/* One past the furthest byte clip c reaches in mode flags (ref_stream.high). */
static size_t reach(const dat_file *d, uint32_t c, uint8_t flags)
{
    uint8_t skel[16 + 48 * 255];
    ref_anim a;
    ff_error err;
    TS_OK(ref_anim_init(&a, d, skel, sizeof skel, &err), &err);
    a.cmd.flags = flags;
    int ret = 0;
    TS_OK(ref_start_clip(&a, (int16_t)c, &ret, &err), &err);
    for (int t = 0; ret == 0; t++) {
        cr_assert(t < 1024, "%s clip %u never ends", d->name, c);
        TS_OK(ref_read_animation(&a, &ret, &err), &err);
    }
    return a.stream.high;
}

/*
 * 1 when SLOW+FAST reads clip c past what normal mode reads. docs/engine.md
 * section 4: the counter runs to 2n - 1 at two frames a call, the cursor
 * kept every other call, so a call that is not kept decodes the two frames
 * after the kept cursor: for n >= 2 the last such call reaches stream frame
 * n, one past the clip (the second-to-last call for odd n, the last for even
 * n); a 1-frame clip stops after frame 0.
 */
static int over_reads(const dat_file *d, uint32_t c)
{
    return reach(d, c, REF_CMD_SLOW | REF_CMD_FAST) > reach(d, c, 0);
}

/* Every clip of every character model of a preset; returns the models seen. */
static unsigned check_character_over_reads(const ct_built *b)
{
    unsigned models = 0;
    for (size_t i = 0; i < b->n; i++) {
        const dat_file *d = &b->dat[i];
        if (d->name[0] != 'd' || !dat_kind_has_model(d->kind)) continue;
        for (uint32_t c = 0; c < d->clips; c++) {
            unsigned n = dat_clip_frames(d, c);
            cr_assert_eq(over_reads(d, c), n >= 2, "%s clip %u (%u frames)", d->name, c, n);
        }
        models++;
    }
    return models;
}

Test(synth_cast, slow_fast_over_reads_on_body_and_weapon)
{
    ct_built *b = ct_build_preset(SYNTH_SMALL, 6);
    /* d1c003, d4c009, d4w023, d4w024, d7c016 */
    cr_assert_eq(check_character_over_reads(b), 5);
    /* A 1-frame clip (c0m000 clip 0) does not: the rule above can fail. */
    cr_assert(!over_reads(ct_must_find(b, "c0m000.dat"), 0));
    cr_assert(over_reads(ct_must_find(b, "c0m000.dat"), 6));
    ct_free_built(b);
    b = ct_build_preset(SYNTH_VANILLA, 6);
    cr_assert_eq(check_character_over_reads(b), 41, "14 bodies + 27 weapons");
    ct_free_built(b);
}

Test(synth_cast, write_gives_the_entities_manifest)
{
    char *dir = ts_tempdir();
    ff_error err;
    TS_OK(synth_write(dir, SYNTH_SMALL, 4, NULL, &err), &err);
    pairs_attach_list l;
    TS_OK(pairs_attach_load(dir, &l, &err), &err);
    /* corpus/README.md: one of the small preset's two pairs. */
    static const pairs_attach_entry want[1] = {
        {"d4c009.dat", "d4w024.dat", {{300, -2048, 4000}, {-7, 120, 2500}}}};
    cr_assert_eq(l.n, 1);
    ts_assert_mem(l.e, want, sizeof want, "attach entries");
    pairs_attach_free(&l);
    /* Writing vanilla over it leaves an empty manifest, not the stale one. */
    TS_OK(synth_write(dir, SYNTH_VANILLA, 4, NULL, &err), &err);
    TS_OK(pairs_attach_load(dir, &l, &err), &err);
    cr_assert_eq(l.n, 0);
    cr_assert(l.source[0], "the file was there");
    pairs_attach_free(&l);
    ts_rmtree(dir);
}
