/*
 * tests/corpus/test_corpus_manifest.c: SHA-256 against published vectors
 * (FIPS 180-2 examples), bad files as entries, one model file described
 * from its recipe, and the totals of the small preset worked out by hand
 * from its plan (corpus/synth_plan.c).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "corpus/manifest.h"
#include "corpus/synth.h"
#include "tests/corpus/ct.h"

TestSuite(manifest, .fini = ts_cleanup);

/* A file of one million 'a' and a file holding "abc": both bad .dat files,
 * both listed with their size and hash. */
Test(manifest, bad_files_are_entries_with_a_hash)
{
    char *dir = ts_tempdir();
    size_t n = 1000000;
    char *a = malloc(n);
    memset(a, 'a', n);
    ts_write_in(dir, "million.dat", a, n);
    ts_write_in(dir, "abc.dat", "abc", 3);
    free(a);
    corpus *c;
    manifest *m;
    ff_error err;
    TS_OK(corpus_open(dir, &c, &err), &err);
    TS_OK(manifest_build(c, &m, &err), &err);
    cr_assert_eq(m->n, 2);
    cr_assert_str_eq(m->e[0].name, "abc.dat");
    cr_assert_str_eq(m->e[0].sha256,
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    cr_assert_eq(m->e[0].size, 3);
    cr_assert(m->e[0].bad && !m->e[0].parsed);
    ts_assert_error(&m->e[0].error, FF_E_TRUNCATED, "abc.dat", 0, "3-byte file");
    cr_assert_str_eq(m->e[1].name, "million.dat");
    cr_assert_str_eq(m->e[1].sha256,
                     "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    cr_assert_eq(m->e[1].size, 1000000);
    /* 'aaaa' = 0x61616161 sections: no kind has that many. */
    ts_assert_error(&m->e[1].error, FF_E_UNSUPPORTED, "million.dat", 0, "a file of 'a'");
    cr_assert_eq(m->totals.files, 2);
    cr_assert_eq(m->totals.bad, 2);
    cr_assert_eq(m->totals.clips, 0);
    manifest_free(m);
    corpus_close(c);
    ts_rmtree(dir);
}

Test(manifest, one_model_file_from_its_recipe)
{
    /* 4 clips: 3 frames with scales, 200 frames without, the wrap clip
     * (20 frames, mode 0 throughout), the extremes clip (10, mode 1 on odd
     * frames): 233 frames, 2 scale clips, 1 clip above 128 frames. */
    synth_clip_spec clips[4] = {{3, 1, SYNTH_CLIP_RANDOM},
                                {200, 0, SYNTH_CLIP_RANDOM},
                                {0, 0, SYNTH_CLIP_WRAP},
                                {0, 0, SYNTH_CLIP_EXTREMES}};
    synth_file_spec spec = {.kind = DAT_BODY, .seed = 99, .bones = 12, .nclips = 4, .clip = clips};
    uint8_t *data;
    size_t size;
    ff_error err;
    TS_OK(synth_build_file(&spec, &data, &size, &err), &err);
    manifest_entry e;
    TS_OK(manifest_analyze("d2c000.dat", data, size, &e, &err), &err);
    char msg[1024];
    cr_assert(!e.bad, "%s", ff_error_format(&e.error, msg, sizeof msg));
    cr_assert(e.parsed);
    cr_assert_eq(e.kind, DAT_BODY);
    cr_assert_eq(e.size, size);
    cr_assert_eq(e.bones, 12);
    cr_assert_eq(e.clips, 4);
    cr_assert_eq(e.frames, 233);
    cr_assert_eq(e.scale_clips, 2);
    cr_assert(e.scale_path);
    cr_assert_eq(e.long_clips, 1);
    cr_assert_eq(strlen(e.sha256), 64);
    manifest_totals t;
    memset(&t, 0, sizeof t);
    manifest_totals_add(&t, &e);
    cr_assert_eq(t.by_kind[DAT_BODY], 1);
    cr_assert_eq(t.scale_files, 1);
    manifest_entry_clear(&e);
    free(data);
}

Test(manifest, decoding_errors_mark_the_entry_bad)
{
    synth_clip_spec clip = {30, 0, SYNTH_CLIP_RANDOM};
    synth_file_spec spec = {
        .kind = DAT_MONSTER, .seed = 5, .bones = 20, .nclips = 1, .clip = &clip};
    uint8_t *data;
    size_t size;
    ff_error err;
    TS_OK(synth_build_file(&spec, &data, &size, &err), &err);
    dat_file d;
    TS_OK(dat_parse(data, size, "x", &d, &err), &err);
    /* Claim 255 frames: decoding runs into the file's end. */
    uint32_t off;
    TS_OK(dat_clip_offset(&d, 0, &off, &err), &err);
    data[off] = 255;
    manifest_entry e;
    TS_OK(manifest_analyze("c0m050.dat", data, size, &e, &err), &err);
    cr_assert(e.bad && e.parsed, "bad %d parsed %d", e.bad, e.parsed);
    cr_assert_eq(e.kind, DAT_MONSTER);
    cr_assert_neq(e.error.kind, FF_E_OK);
    cr_assert(strstr(e.error.reason, "clip 0"), "%s", e.error.reason);
    manifest_entry_clear(&e);
    free(data);
}

Test(manifest, small_preset_totals_by_hand)
{
    char *dir = ts_tempdir();
    ff_error err;
    TS_OK(synth_write(dir, SYNTH_SMALL, 2024, NULL, &err), &err);
    ts_write_in(dir, "notes.txt", "not listed", 10);
    corpus *c;
    manifest *m;
    TS_OK(corpus_open(dir, &c, &err), &err);
    TS_OK(manifest_build(c, &m, &err), &err);
    const manifest_totals *t = &m->totals;
    /* c0m000 (1 bone): 1+129+140+10+20+12+7 = 319 frames, 7 clips;
     * c0m001 (71 bones): 3+5+10+1 = 19 frames, 4 clips;
     * c0m002 and its copy c0m003 (24 bones): 9+14+4+20+20+11+6 = 84, 7 clips;
     * d1c003: 5+2 = 7, 2 clips (d1w008 is a reduced weapon, no model);
     * d4c009: 6+9+12+4+15+8 = 54, 6 clips; its weapons d4w023 and d4w024:
     * 56 each (clips 4 and 5 one frame longer);
     * d7c016 (Edea): 4+3 = 7, 2 clips.
     * Scale clips: extremes + one random in c0m000 and c0m001, two random
     * in c0m002 and c0m003, clip 2 of d4c009, d4w023 and d4w024. */
    cr_assert_eq(t->files, 11);
    cr_assert_eq(t->bad, 0);
    cr_assert_eq(t->by_kind[DAT_MONSTER], 4);
    cr_assert_eq(t->by_kind[DAT_BODY], 2);
    cr_assert_eq(t->by_kind[DAT_EDEA], 1);
    cr_assert_eq(t->by_kind[DAT_WEAPON], 2);
    cr_assert_eq(t->by_kind[DAT_WEAPON_REDUCED], 1);
    cr_assert_eq(t->by_kind[DAT_NO_MODEL], 1);
    cr_assert_eq(t->clips, 7 + 4 + 7 + 7 + 2 + 3 * 6 + 2);
    cr_assert_eq(t->frames, 319 + 19 + 84 + 84 + 7 + 54 + 2 * 56 + 7);
    cr_assert_eq(t->scale_files, 7);
    cr_assert_eq(t->scale_clips, 11);
    cr_assert_eq(t->max_bones, 71);
    cr_assert_eq(t->long_clips, 2);
    static const char *const names[11] = {"c0m000.dat", "c0m001.dat", "c0m002.dat", "c0m003.dat",
                                          "c0m127.dat", "d1c003.dat", "d1w008.dat", "d4c009.dat",
                                          "d4w023.dat", "d4w024.dat", "d7c016.dat"};
    cr_assert_eq(m->n, 11);
    for (size_t i = 0; i < 11; i++) {
        cr_assert_str_eq(m->e[i].name, names[i]);
        uint8_t *data;
        size_t size;
        TS_OK(corpus_load(c, i, &data, &size, &err), &err);
        char hex[MANIFEST_SHA256_HEX];
        TS_OK(sha256_hex(data, size, hex, &err), &err);
        cr_assert_str_eq(m->e[i].sha256, hex, "%s", names[i]);
        cr_assert_eq(m->e[i].size, size);
        free(data);
    }
    cr_assert_str_neq(m->e[2].sha256, m->e[3].sha256, "a copy differs in its geometry");
    manifest_free(m);
    corpus_close(c);
    ts_rmtree(dir);
}
