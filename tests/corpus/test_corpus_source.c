/*
 * tests/corpus/test_corpus_source.c: resolving --corpus paths: a folder of
 * .dat files, a battle.fs with its .fi/.fl in other cases, a folder holding
 * battle.fs, an install root with mixed-case components and several
 * languages, a single file, and the failures (missing .fl, nothing usable,
 * missing path). Loading is lazy: a bad archive entry fails alone.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/le.h"
#include "corpus/archive.h"
#include "corpus/source.h"
#include "tests/corpus/ct.h"

static void assert_prefix(const char *s, const char *prefix, const char *what)
{
    cr_assert(!strncmp(s, prefix, strlen(prefix)), "%s: '%s' does not start with '%s'", what, s,
              prefix);
}

TestSuite(source, .fini = ts_cleanup);

Test(source, folder_of_dat_files_sorted_ignoring_case)
{
    char *dir = ts_tempdir();
    ts_write_in(dir, "b.DAT", "bb", 2);
    ts_write_in(dir, "A.dat", "a", 1);
    ts_write_in(dir, "C0M001.dat", "ccc", 3);
    ts_write_in(dir, "notes.txt", "x", 1);
    ts_write_in(dir, ".dat", "x", 1); /* no name before the extension */
    free(ts_mkdir(dir, "folder.dat"));
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(dir, &c, &err), &err);
    cr_assert_eq(corpus_get_kind(c), CORPUS_FOLDER);
    cr_assert_eq(corpus_count(c), 3);
    static const char *const want[3] = {"A.dat", "b.DAT", "C0M001.dat"};
    static const size_t want_size[3] = {1, 2, 3};
    for (size_t i = 0; i < 3; i++) {
        cr_assert_str_eq(corpus_name(c, i), want[i], "entry %zu", i);
        cr_assert(corpus_is_dat(c, i));
        uint8_t *data;
        size_t size;
        TS_OK(corpus_load(c, i, &data, &size, &err), &err);
        cr_assert_eq(size, want_size[i], "entry %zu size", i);
        free(data);
    }
    cr_assert_null(corpus_name(c, 3));
    size_t idx;
    cr_assert_eq(corpus_find(c, "c0m001.DAT", &idx), 0);
    cr_assert_eq(idx, 2);
    assert_prefix(corpus_describe(c), "folder ", "describe");
    cr_assert_str_eq(corpus_kind_name(corpus_get_kind(c)), "folder");
    corpus_close(c);
    ts_rmtree(dir);
}

/* An archive of three entries (two .dat, one not) with names in mixed case. */
static void write_archive(const char *dir, const char *fi, const char *fl, const char *fs)
{
    arc_input in[3] = {
        {"C:\\ff8\\Data\\eng\\battle\\c0m000.dat", (const uint8_t *)"zero", 4, ARC_LZSS},
        {"C:\\ff8\\Data\\eng\\battle\\a0stg000.x", (const uint8_t *)"stage", 5, ARC_STORED},
        {"C:\\ff8\\Data\\eng\\battle\\D0C000.DAT", (const uint8_t *)"body!", 5, ARC_LZ4},
    };
    arc_image img;
    ff_error err;
    TS_OK(arc_build(in, 3, &img, &err), &err);
    ts_write_in(dir, fi, img.fi, img.fi_size);
    ts_write_in(dir, fl, img.fl, img.fl_size);
    ts_write_in(dir, fs, img.fs, img.fs_size);
    arc_image_free(&img);
}

static void assert_archive_entries(const corpus *c)
{
    cr_assert_eq(corpus_count(c), 3);
    cr_assert_str_eq(corpus_name(c, 0), "c0m000.dat");
    cr_assert_str_eq(corpus_name(c, 1), "a0stg000.x");
    cr_assert_str_eq(corpus_name(c, 2), "D0C000.DAT");
    cr_assert_str_eq(corpus_path(c, 2), "C:\\ff8\\Data\\eng\\battle\\D0C000.DAT");
    cr_assert(corpus_is_dat(c, 0));
    cr_assert(!corpus_is_dat(c, 1), "a stage file is listed but is not a model file");
    cr_assert(corpus_is_dat(c, 2));
    static const char *const want[3] = {"zero", "stage", "body!"};
    for (size_t i = 0; i < 3; i++) {
        uint8_t *data;
        size_t size;
        ff_error err;
        TS_OK(corpus_load(c, i, &data, &size, &err), &err);
        cr_assert_eq(size, strlen(want[i]));
        ts_assert_mem(data, want[i], size, want[i]);
        free(data);
    }
}

Test(source, battle_fs_with_siblings_in_other_cases)
{
    char *dir = ts_tempdir();
    write_archive(dir, "BATTLE.FI", "Battle.Fl", "battle.fs");
    char *fs = ts_path(dir, "battle.fs");
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(fs, &c, &err), &err);
    cr_assert_eq(corpus_get_kind(c), CORPUS_ARCHIVE);
    assert_archive_entries(c);
    assert_prefix(corpus_describe(c), "archive ", "describe");
    cr_assert(strstr(corpus_describe(c), "3 entries, 2 .dat"), "%s", corpus_describe(c));
    corpus_close(c);
    /* The folder holding the archive resolves to it as well. */
    TS_OK(corpus_open(dir, &c, &err), &err);
    cr_assert_eq(corpus_get_kind(c), CORPUS_ARCHIVE);
    assert_archive_entries(c);
    corpus_close(c);
    free(fs);
    ts_rmtree(dir);
}

Test(source, install_root_prefers_lang_en)
{
    char *root = ts_tempdir();
    char *data = ts_mkdir(root, "DATA");
    char *fr = ts_mkdir(data, "lang-fr");
    char *en = ts_mkdir(data, "Lang-EN");
    free(ts_mkdir(data, "lang-it")); /* no archive inside: not a language */
    write_archive(en, "battle.fi", "BATTLE.FL", "Battle.FS");
    ts_write_in(fr, "battle.fs", "", 0);
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(root, &c, &err), &err);
    cr_assert_eq(corpus_get_kind(c), CORPUS_INSTALL);
    assert_archive_entries(c);
    const char *d = corpus_describe(c);
    assert_prefix(d, "install root ", "describe");
    cr_assert(strstr(d, "DATA/Lang-EN/Battle.FS"), "%s", d);
    cr_assert(strstr(d, "languages: Lang-EN, lang-fr; using Lang-EN"), "%s", d);
    corpus_close(c);
    /* The Data folder itself is accepted too. */
    TS_OK(corpus_open(data, &c, &err), &err);
    cr_assert_eq(corpus_get_kind(c), CORPUS_INSTALL);
    assert_archive_entries(c);
    corpus_close(c);
    free(data), free(fr), free(en);
    ts_rmtree(root);
}

Test(source, install_root_without_english_takes_the_first)
{
    char *root = ts_tempdir();
    char *data = ts_mkdir(root, "Data");
    char *fr = ts_mkdir(data, "lang-fr");
    char *de = ts_mkdir(data, "LANG-DE");
    write_archive(de, "battle.fi", "battle.fl", "battle.fs");
    ts_write_in(fr, "battle.fs", "", 0);
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(root, &c, &err), &err);
    cr_assert_eq(corpus_get_kind(c), CORPUS_INSTALL);
    cr_assert(strstr(corpus_describe(c), "using LANG-DE"), "%s", corpus_describe(c));
    assert_archive_entries(c);
    corpus_close(c);
    free(data), free(fr), free(de);
    ts_rmtree(root);
}

Test(source, missing_fl_is_an_error_naming_it)
{
    char *dir = ts_tempdir();
    write_archive(dir, "battle.fi", "battle.fl", "battle.fs");
    char *fl = ts_path(dir, "battle.fl"), *fs = ts_path(dir, "battle.fs");
    cr_assert_eq(remove(fl), 0);
    corpus *c = NULL;
    ff_error err;
    cr_assert_eq(corpus_open(fs, &c, &err), -1);
    ts_assert_error(&err, FF_E_IO, "battle.fl", -1, "missing .fl");
    cr_assert_null(c);
    free(fl), free(fs);
    ts_rmtree(dir);
}

Test(source, nothing_usable)
{
    char *dir = ts_tempdir();
    ts_write_in(dir, "readme.txt", "x", 1);
    corpus *c = NULL;
    ff_error err;
    cr_assert_eq(corpus_open(dir, &c, &err), -1);
    ts_assert_error(&err, FF_E_USAGE, NULL, -1, "folder without .dat");
    char *missing = ts_path(dir, "nope");
    cr_assert_eq(corpus_open(missing, &c, &err), -1);
    ts_assert_error(&err, FF_E_IO, "nope", -1, "missing path");
    char *txt = ts_path(dir, "readme.txt");
    cr_assert_eq(corpus_open(txt, &c, &err), -1);
    ts_assert_error(&err, FF_E_USAGE, "readme.txt", -1, "a text file");
    cr_assert_null(c);
    free(missing), free(txt);
    ts_rmtree(dir);
}

Test(source, single_dat_file)
{
    char *dir = ts_tempdir();
    ts_write_in(dir, "c0m005.dat", "12345", 5);
    char *p = ts_path(dir, "c0m005.dat");
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(p, &c, &err), &err);
    cr_assert_eq(corpus_get_kind(c), CORPUS_FILE);
    cr_assert_eq(corpus_count(c), 1);
    cr_assert_str_eq(corpus_name(c, 0), "c0m005.dat");
    cr_assert_str_eq(corpus_path(c, 0), p);
    uint8_t *data;
    size_t size;
    TS_OK(corpus_load(c, 0, &data, &size, &err), &err);
    cr_assert_eq(size, 5);
    free(data);
    corpus_close(c);
    free(p);
    ts_rmtree(dir);
}

Test(source, bad_entry_fails_alone)
{
    char *dir = ts_tempdir();
    write_archive(dir, "battle.fi", "battle.fl", "battle.fs");
    /* Point entry 1 past the end of the data file. */
    char *fi = ts_path(dir, "battle.fi");
    FILE *f = fopen(fi, "r+b");
    cr_assert(f);
    uint8_t off[4];
    le_put32(off, 0x7FFFFFF0u);
    cr_assert_eq(fseek(f, 12 + 4, SEEK_SET), 0);
    cr_assert_eq(fwrite(off, 1, 4, f), 4);
    fclose(f);
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(dir, &c, &err), &err);
    uint8_t *data = NULL;
    size_t size;
    cr_assert_eq(corpus_load(c, 1, &data, &size, &err), -1);
    ts_assert_error(&err, FF_E_RANGE, "battle.fi", 16, "entry past FS");
    TS_OK(corpus_load(c, 0, &data, &size, &err), &err);
    free(data);
    TS_OK(corpus_load(c, 2, &data, &size, &err), &err);
    free(data);
    corpus_close(c);
    free(fi);
    ts_rmtree(dir);
}

/*
 * Four entries with one base name (ignoring case), one of them already named
 * as the first generated name would be: each keeps its own bytes under its
 * own name; the renamed ones are flagged.
 */
Test(source, duplicate_base_names_get_distinct_names)
{
    arc_input in[4] = {
        {"c:\\a\\c0m001.dat", (const uint8_t *)"first", 5, ARC_STORED},
        {"c:\\b\\C0M001.DAT", (const uint8_t *)"second", 6, ARC_LZSS},
        {"c:\\c\\c0m001~2.dat", (const uint8_t *)"third", 5, ARC_STORED},
        {"c:\\d\\c0m001.dat", (const uint8_t *)"fourth", 6, ARC_LZ4},
    };
    /* Taken first: c0m001.dat and c0m001~2.dat; then ~3 for entry 1, ~4 for entry 3. */
    static const char *const want[4] = {"c0m001.dat", "C0M001~3.DAT", "c0m001~2.dat",
                                        "c0m001~4.dat"};
    static const int renamed[4] = {0, 1, 0, 1};
    char *dir = ts_tempdir();
    arc_image img;
    ff_error err;
    TS_OK(arc_build(in, 4, &img, &err), &err);
    ts_write_in(dir, "battle.fi", img.fi, img.fi_size);
    ts_write_in(dir, "battle.fl", img.fl, img.fl_size);
    ts_write_in(dir, "battle.fs", img.fs, img.fs_size);
    arc_image_free(&img);
    corpus *c;
    TS_OK(corpus_open(dir, &c, &err), &err);
    cr_assert_eq(corpus_count(c), 4);
    cr_assert_eq(corpus_renamed_count(c), 2);
    for (size_t i = 0; i < 4; i++) {
        cr_assert_str_eq(corpus_name(c, i), want[i], "entry %zu", i);
        cr_assert_eq(corpus_renamed(c, i), renamed[i], "entry %zu", i);
        cr_assert_str_eq(corpus_path(c, i), in[i].path, "entry %zu keeps its FL path", i);
        cr_assert(corpus_is_dat(c, i), "entry %zu is still a model file", i);
        uint8_t *data;
        size_t size;
        TS_OK(corpus_load(c, i, &data, &size, &err), &err);
        cr_assert_eq(size, in[i].size);
        ts_assert_mem(data, in[i].data, size, want[i]);
        free(data);
        size_t at = 99;
        cr_assert_eq(corpus_find(c, want[i], &at), 0);
        cr_assert_eq(at, i, "%s is found under its own name", want[i]);
    }
    size_t at = 99;
    cr_assert_eq(corpus_find(c, "c:\\d\\c0m001.dat", &at), 0);
    cr_assert_eq(at, 3);
    corpus_close(c);
    ts_rmtree(dir);
}

/* A listing learns sizes and refusals from the index alone, without decompressing. */
Test(source, entry_info_reads_no_data)
{
    char *dir = ts_tempdir();
    write_archive(dir, "battle.fi", "battle.fl", "battle.fs");
    /* Entry 0 (LZSS): data destroyed; entry 2 (LZ4): 2 GiB - 2 bytes announced. */
    char *fi = ts_path(dir, "battle.fi"), *fs = ts_path(dir, "battle.fs");
    FILE *f = fopen(fi, "r+b");
    cr_assert(f);
    uint8_t size_field[4];
    le_put32(size_field, 0x7FFFFFFEu);
    cr_assert_eq(fseek(f, 24, SEEK_SET), 0);
    cr_assert_eq(fwrite(size_field, 1, 4, f), 4);
    fclose(f);
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(dir, &c, &err), &err);
    f = fopen(fs, "r+b");
    cr_assert(f);
    cr_assert_eq(fwrite("\xff\xff\xff\xff\xff\xff\xff\xff", 1, 8, f), 8);
    fclose(f);
    uint64_t size = 0;
    const char *comp = NULL;
    TS_OK(corpus_entry_info(c, 0, &size, &comp, &err), &err);
    cr_assert_eq(size, 4);
    cr_assert_str_eq(comp, "lzss");
    uint8_t *data = NULL;
    size_t got;
    cr_assert_eq(corpus_load(c, 0, &data, &got, &err), -1, "the data is damaged when loaded");
    cr_assert_eq(corpus_entry_info(c, 2, &size, &comp, &err), -1);
    ts_assert_error(&err, FF_E_RANGE, "battle.fi", 24, "2 GiB entry");
    cr_assert_eq(size, 0x7FFFFFFEu);
    cr_assert_str_eq(comp, "lz4");
    cr_assert_eq(corpus_load(c, 2, &data, &got, &err), -1);
    ts_assert_error(&err, FF_E_RANGE, "battle.fi", 24, "2 GiB entry loaded");
    corpus_close(c);
    free(fi);
    free(fs);
    ts_rmtree(dir);
}

/* A folder's .dat that is a FIFO or a link to a device is refused, without blocking. */
Test(source, folder_entry_that_is_no_regular_file, .timeout = 20)
{
    char *dir = ts_tempdir();
    ts_write_in(dir, "c0m000.dat", "real", 4);
    char *pipe = ts_path(dir, "c0m001.dat");
    cr_assert_eq(mkfifo(pipe, 0600), 0);
    corpus *c;
    ff_error err;
    TS_OK(corpus_open(dir, &c, &err), &err);
    cr_assert_eq(corpus_count(c), 1, "a FIFO is not listed as a model file");
    corpus_close(c);
    char *one = ts_path(dir, "c0m001.dat");
    cr_assert_eq(corpus_open(one, &c, &err), -1, "a FIFO named on its own is refused");
    free(one);
    free(pipe);
    ts_rmtree(dir);
}
