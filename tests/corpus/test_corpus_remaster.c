/*
 * tests/corpus/test_corpus_remaster.c: Remaster-shaped corpora written by
 * corpus_pack from the small synthetic preset: main.zzz found from the
 * install root, as a .zzz file and through a battle.fs path inside it;
 * entries read in place (4ZL_) equal to the folder's files, names matched
 * without the _<lang> suffix, provenance, --lang among several languages,
 * and a bad table or battle entry reported with the zzz, entry and offset.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "corpus/pack.h"
#include "corpus/source.h"
#include "corpus/zzz.h"
#include "tests/corpus/ct.h"

static char *scratch, *folder;

static void setup(void)
{
    scratch = ts_tempdir();
    folder = ts_path(scratch, "small");
    ff_error err;
    TS_OK(synth_write(folder, SYNTH_SMALL, 1, NULL, &err), &err);
}

static void teardown(void)
{
    free(folder);
    ts_rmtree(scratch);
}

/* Packs the folder as layout into scratch/name; returns the path (caller frees). */
static char *pack(const char *name, pack_layout layout, uint64_t pad)
{
    corpus *c;
    ff_error err;
    char *out = ts_path(scratch, name);
    TS_OK(corpus_open(folder, &c, &err), &err);
    TS_OK(corpus_pack(c, out, layout, "en", pad, &err), &err);
    corpus_close(c);
    return out;
}

/* Every .dat of the folder has an entry of the same name and bytes in c. */
static void assert_same_files(const corpus *c)
{
    corpus *f;
    ff_error err;
    TS_OK(corpus_open(folder, &f, &err), &err);
    cr_assert_eq(corpus_count(c), corpus_count(f));
    for (size_t i = 0; i < corpus_count(f); i++) {
        size_t k;
        cr_assert_eq(corpus_find(c, corpus_name(f, i), &k), 0, "%s missing", corpus_name(f, i));
        cr_assert_str_eq(corpus_name(c, k), corpus_name(f, i));
        cr_assert(!corpus_renamed(c, k), "%s: a suffix taken off is no rename", corpus_name(c, k));
        uint8_t *a, *b;
        size_t na, nb;
        TS_OK(corpus_load(c, k, &a, &na, &err), &err);
        TS_OK(corpus_load(f, i, &b, &nb, &err), &err);
        cr_assert_eq(na, nb, "%s: size", corpus_name(f, i));
        ts_assert_mem(a, b, na, corpus_name(f, i));
        free(a);
        free(b);
    }
    corpus_close(f);
}

Test(remaster, install_root_zzz_file_and_inner_path_read_in_place, .init = setup, .fini = teardown)
{
    char *root = pack("rem", PACK_REMASTER, 1u << 20);
    char *zzz = ts_path(root, "main.zzz");
    char inner[4200];
    snprintf(inner, sizeof inner, "%s/data/LANG-EN/battle.fl", zzz);
    const char *paths[3] = {root, zzz, inner};
    static const corpus_kind kinds[3] = {CORPUS_INSTALL, CORPUS_ARCHIVE, CORPUS_ARCHIVE};
    for (int k = 0; k < 3; k++) {
        corpus *c;
        ff_error err;
        TS_OK(corpus_open(paths[k], &c, &err), &err);
        cr_assert_eq(corpus_get_kind(c), kinds[k], "%s", paths[k]);
        cr_assert_eq(corpus_problem_count(c), 0);
        assert_same_files(c);
        corpus_origin o = corpus_get_origin(c);
        cr_assert_str_eq(o.release, "remaster");
        cr_assert_str_eq(o.archive, zzz);
        cr_assert_str_eq(o.zzz_entry, "data\\lang-en\\battle.fs");
        cr_assert_gt(o.zzz_offset, 1u << 20, "after the padding");
        cr_assert_str_eq(o.lang, "lang-en");
        size_t i;
        cr_assert_eq(corpus_find(c, "d4c009.dat", &i), 0);
        cr_assert_str_eq(corpus_path(c, i), "c:\\ff8\\data\\x\\battle\\d4c009_en.dat");
        uint64_t size;
        const char *comp;
        TS_OK(corpus_entry_info(c, i, &size, &comp, &err), &err);
        cr_assert_str_eq(comp, "lz4 4ZL_");
        char prov[2048];
        cr_assert_eq(corpus_provenance(c, i, prov, sizeof prov), 0);
        cr_assert(strstr(prov, "remaster") && strstr(prov, "data\\lang-en\\battle.fs") &&
                      strstr(prov, "d4c009_en.dat"),
                  "%s", prov);
        corpus_close(c);
    }
    free(zzz);
    free(root);
}

Test(remaster, a_2013_install_of_the_same_files_reads_the_same, .init = setup, .fini = teardown)
{
    char *root = pack("old", PACK_2013, 0);
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(root, &c, &err), &err);
    assert_same_files(c);
    corpus_origin o = corpus_get_origin(c);
    cr_assert_str_eq(o.release, "2013");
    cr_assert_null(o.zzz_entry);
    cr_assert_str_eq(o.lang, "lang-en");
    corpus_close(c);
    free(root);
}

/* A zzz holding the battle archive for en and fr (the fr one a single stored entry). */
static char *two_languages(void)
{
    arc_input one = {"c:\\ff8\\data\\x\\battle\\c0m000_fr.dat", (const uint8_t *)"fr!", 3,
                     ARC_STORED};
    arc_image fr, en;
    ff_error err;
    TS_OK(arc_build(&one, 1, &fr, &err), &err);
    one = (arc_input){"c:\\ff8\\data\\x\\battle\\c0m000.dat", (const uint8_t *)"en", 2, ARC_LZ4};
    TS_OK(arc_build(&one, 1, &en, &err), &err);
    zzz_input in[6] = {{"data\\lang-fr\\battle.fi", fr.fi, (uint32_t)fr.fi_size},
                       {"data\\lang-fr\\battle.fl", fr.fl, (uint32_t)fr.fl_size},
                       {"data\\lang-fr\\battle.fs", fr.fs, (uint32_t)fr.fs_size},
                       {"data\\lang-en\\battle.fi", en.fi, (uint32_t)en.fi_size},
                       {"data\\lang-en\\battle.fl", en.fl, (uint32_t)en.fl_size},
                       {"data\\lang-en\\battle.fs", en.fs, (uint32_t)en.fs_size}};
    char *path = ts_path(scratch, "two.zzz");
    TS_OK(zzz_write(path, in, 6, &err), &err);
    arc_image_free(&fr);
    arc_image_free(&en);
    return path;
}

Test(remaster, lang_picks_the_battle_archive, .init = setup, .fini = teardown)
{
    char *path = two_languages();
    static const struct {
        const char *lang, *want, *bytes;
    } v[] = {{NULL, "lang-en", "en"}, {"fr", "lang-fr", "fr!"}, {"lang-EN", "lang-en", "en"}};
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        corpus *c;
        ff_error err;
        TS_OK(corpus_open_lang(path, v[k].lang, &c, &err), &err);
        cr_assert_str_eq(corpus_get_origin(c).lang, v[k].want);
        cr_assert_str_eq(corpus_name(c, 0), "c0m000.dat", "the _fr suffix is taken off");
        uint8_t *data;
        size_t n;
        TS_OK(corpus_load(c, 0, &data, &n, &err), &err);
        cr_assert_eq(n, strlen(v[k].bytes));
        ts_assert_mem(data, v[k].bytes, n, v[k].want);
        free(data);
        corpus_close(c);
    }
    corpus *c;
    ff_error err;
    cr_assert_eq(corpus_open_lang(path, "de", &c, &err), -1);
    ts_assert_error(&err, FF_E_USAGE, "two.zzz", -1, "absent language");
    cr_assert(strstr(err.reason, "lang-fr, lang-en"), "%s", err.reason);
    free(path);
}

Test(remaster, bad_tables_and_entries_name_zzz_entry_and_offset, .init = setup, .fini = teardown)
{
    char *root = pack("rem", PACK_REMASTER, 0);
    char *zzz = ts_path(root, "main.zzz");
    size_t size;
    uint8_t *z = (uint8_t *)ts_read(zzz, &size);
    /* Records: pad, battle.fi, battle.fl, battle.fs; the FS record's size past the end. */
    size_t at = 4;
    for (int k = 0; k < 3; k++)
        at += 4 + le_u32(z + at) + 12;
    size_t size_field = at + 4 + le_u32(z + at) + 8;
    le_put32(z + size_field, 0xFFFFFFF0u);
    ts_write(zzz, z, size);
    corpus *c;
    ff_error err;
    cr_assert_eq(corpus_open(root, &c, &err), -1, "the battle archive's FS is refused");
    ts_assert_error(&err, FF_E_RANGE, "main.zzz", (int64_t)size_field - 8, "FS past the end");
    cr_assert(strstr(err.reason, "entry 3 (data\\lang-en\\battle.fs)"), "%s", err.reason);
    /* A table that goes bad after the battle entries: opens, with the problem. */
    free(z);
    free(zzz);
    free(root);
    root = pack("rem2", PACK_REMASTER, 0);
    zzz = ts_path(root, "main.zzz");
    z = (uint8_t *)ts_read(zzz, &size);
    le_put32(z, 5); /* one record more than the table holds */
    ts_write(zzz, z, size);
    TS_OK(corpus_open(root, &c, &err), &err);
    cr_assert_eq(corpus_problem_count(c), 1);
    const ff_error *p = corpus_problem(c, 0);
    cr_assert(strstr(p->file, "main.zzz"), "%s", p->file);
    cr_assert(strstr(p->reason, "count 5 is larger than the table"), "%s", p->reason);
    char where[64];
    snprintf(where, sizeof where, "data begins at %zu, after 4 entries", size_field + 4);
    cr_assert(strstr(p->reason, where), "%s lacks %s", p->reason, where);
    assert_same_files(c);
    corpus_close(c);
    free(z);
    free(zzz);
    free(root);
}
