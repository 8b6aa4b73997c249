/*
 * tests/cli/test_cli_corpus.c: `ff8diff corpus synth|list|extract|stats`.
 * Expected figures come from the files read here (headers and frame bytes
 * parsed by the test itself), not from the corpus library.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "corpus/archive.h"
#include "tests/support/ts.h"

static char *scratch;

static void setup(void)
{
    scratch = ts_tempdir();
}

static void cleanup(void)
{
    ts_rmtree(scratch);
}

/* Frames of a model file: the sum of its clips' frame bytes, read here. */
static unsigned long frames_of(const char *path)
{
    size_t size;
    unsigned char *d = (unsigned char *)ts_read(path, &size);
    unsigned long frames = 0;
    uint32_t n = le_u32(d);
    if (n == 11 || n == 7 || n == 10 || n == 8) {
        uint32_t anim = le_u32(d + 4 + 4 * 2), clips = le_u32(d + anim);
        for (uint32_t c = 0; c < clips; c++) frames += d[anim + le_u32(d + anim + 4 + 4 * c)];
    }
    free(d);
    return frames;
}

Test(corpus_cli, synth_then_stats_agree_with_the_files, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *dir = ts_path(scratch, "small");
    ts_cli(scratch, &o, "corpus synth --out '%s' --preset small --seed 3", dir);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    size_t n;
    char **names = ts_dat_names(dir, &n);
    unsigned long clips = 0, frames = 0;
    unsigned max_bones = 0;
    for (size_t i = 0; i < n; i++) {
        char *p = ts_path(dir, names[i]);
        unsigned bones = 0;
        clips += ts_dat_clips(p, &bones);
        if (bones > max_bones) max_bones = bones;
        frames += frames_of(p);
        free(p);
        free(names[i]);
    }
    free(names);
    ts_cli(scratch, &o, "corpus stats '%s'", dir);
    cr_assert_eq(o.status, 0, "%s", o.err);
    char want[128];
    snprintf(want, sizeof want, "files:                 %zu (0 bad)", n);
    cr_assert(strstr(o.out, want), "%s\nlacks: %s", o.out, want);
    snprintf(want, sizeof want, "animations:            %lu\n", clips);
    cr_assert(strstr(o.out, want), "%s\nlacks: %s", o.out, want);
    snprintf(want, sizeof want, "frames:                %lu\n", frames);
    cr_assert(strstr(o.out, want), "%s\nlacks: %s", o.out, want);
    snprintf(want, sizeof want, "max bones:             %u\n", max_bones);
    cr_assert(strstr(o.out, want), "%s\nlacks: %s", o.out, want);
    ts_out_free(&o);
    /* The same seed twice: identical bytes. */
    char *again = ts_path(scratch, "again");
    ts_cli(scratch, &o, "corpus synth --out '%s' --preset small --seed 3", again);
    ts_out_free(&o);
    ts_sh(scratch, &o, "diff -r '%s' '%s'", dir, again);
    cr_assert_eq(o.status, 0, "same seed, different files: %s", o.out);
    ts_out_free(&o);
    free(again);
    free(dir);
}

Test(corpus_cli, archive_list_and_extract_byte_for_byte, .init = setup, .fini = cleanup)
{
    /* Three entries, one per compression; the texts are what extraction must give back. */
    static const char a[] = "stored entry bytes", b[] = "LZSS LZSS LZSS LZSS LZSS compresses",
                      c[] = "LZ4 LZ4 LZ4 LZ4 LZ4 LZ4 LZ4 LZ4 LZ4 LZ4 compresses too";
    arc_input in[3] = {
        {"c:\\ff8\\data\\eng\\battle\\c0m001.dat", (const uint8_t *)a, sizeof a - 1, ARC_STORED},
        {"c:\\ff8\\data\\eng\\battle\\C0M002.DAT", (const uint8_t *)b, sizeof b - 1, ARC_LZSS},
        {"c:\\ff8\\data\\eng\\battle\\b0wave.dat", (const uint8_t *)c, sizeof c - 1, ARC_LZ4},
    };
    arc_image img;
    ff_error err;
    cr_assert_eq(arc_build(in, 3, &img, &err), 0, "%s", err.reason);
    char *fi = ts_path(scratch, "BATTLE.FI"), *fl = ts_path(scratch, "battle.fl"),
         *fs = ts_path(scratch, "battle.fs");
    cr_assert_eq(arc_write_image(&img, fi, fl, fs, &err), 0, "%s", err.reason);
    arc_image_free(&img);
    ts_out o;
    ts_cli(scratch, &o, "corpus list '%s'", fs);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(strstr(o.out, "c0m001.dat") && strstr(o.out, "C0M002.DAT") &&
                  strstr(o.out, "b0wave.dat"),
              "%s", o.out);
    char want[64];
    snprintf(want, sizeof want, "%10zu bytes", sizeof c - 1);
    cr_assert(strstr(o.out, want), "%s", o.out);
    ts_out_free(&o);
    char *out = ts_path(scratch, "out");
    ts_cli(scratch, &o, "corpus extract '%s' --out '%s'", fs, out);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(strstr(o.out, "3 of 3 entries extracted"), "%s", o.out);
    ts_out_free(&o);
    const char *names[3] = {"c0m001.dat", "C0M002.DAT", "b0wave.dat"}, *texts[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        char *p = ts_path(out, names[i]);
        size_t size;
        char *got = ts_read(p, &size);
        cr_assert(got, "%s missing", names[i]);
        cr_assert_eq(size, strlen(texts[i]), "%s", names[i]);
        ts_assert_mem(got, texts[i], size, names[i]);
        free(got);
        free(p);
    }
    free(out);
    free(fi);
    free(fl);
    free(fs);
}

/* Asserts that out holds line (a whole line). */
static void has_line(const char *out, const char *line)
{
    char want[256];
    snprintf(want, sizeof want, "\n%s\n", line);
    cr_assert(strstr(out, want), "%s\nlacks the line: %s", out, line);
}

/* `corpus stats` reads every file and shows the entities; `list` reads only the index. */
Test(corpus_cli, stats_shows_the_entities, .init = setup, .fini = cleanup)
{
    /* The small preset (corpus/README.md): 4 monsters, d1c003 with a reduced
     * weapon (2 clips), d4c009 with 2 weapons (6), d7c016 (2); attach values
     * on d4c009 + d4w024. */
    static const char *const lines[] = {
        "entities:              8 (4 monsters, 2 with a weapon, 0 pool mismatches)",
        ("  d1c003.dat    -             2        no weapon: its character's weapon files are "
         "reduced (5 sections)"),
        "  d4c009.dat    d4w023.dat    6/6",
        "  d4c009.dat    d4w024.dat    6/6      attach rot 300 -2048 4000 trans -7 120 2500",
        "  d7c016.dat    -             2        no weapon: a 10-section body takes no weapon model",
    };
    ts_out o;
    char *dir = ts_path(scratch, "small");
    ts_cli(scratch, &o, "corpus synth --out '%s' --preset small --seed 2", dir);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "corpus stats '%s'", dir);
    cr_assert_eq(o.status, 0, "%s", o.err);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        has_line(o.out, lines[i]);
    cr_assert(!strstr(o.out, "c0m000.dat    -"), "monsters are only counted: %s", o.out);
    ts_out_free(&o);
    /* A body and a weapon of different clip counts, a weapon with no body. */
    char *odd = ts_path(scratch, "odd");
    ts_sh(scratch, &o,
          "mkdir '%s' && cp '%s/d1c003.dat' '%s/d2c006.dat' && cp '%s/d4w023.dat' "
          "'%s/D2W013.DAT' && cp '%s/d4w024.dat' '%s/d9w034.dat' && cp '%s/c0m000.dat' '%s'",
          odd, dir, odd, dir, odd, dir, odd, dir, odd);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "corpus stats '%s'", odd);
    cr_assert_eq(o.status, 0, "%s", o.err);
    has_line(o.out, "entities:              2 (1 monsters, 1 with a weapon, 1 pool mismatches)");
    has_line(o.out, "  d2c006.dat    D2W013.DAT    2/6      POOL MISMATCH");
    has_line(o.out, "  unpaired weapon d9w034.dat: no body file of its character");
    ts_out_free(&o);
    /* A bad entities manifest is an error; the pairs are still shown. */
    char *json = ts_path(odd, "entities.json");
    static const char bad[] = "{\"format\": \"ff8diff-entities\", \"version\": 1, \"attach\": "
                              "[{\"body\": \"d2c006.dat\", \"weapon\": \"d2w013.dat\", "
                              "\"rotation\": [0, 0, 40000]}]}";
    ts_write(json, bad, sizeof bad - 1);
    ts_cli(scratch, &o, "corpus stats '%s'", odd);
    cr_assert_eq(o.status, 2, "%s", o.out);
    cr_assert(strstr(o.err, "entities.json") && strstr(o.err, "\"rotation\"[2]"), "%s", o.err);
    has_line(o.out, "  d2c006.dat    D2W013.DAT    2/6      POOL MISMATCH");
    ts_out_free(&o);
    free(json);
    free(odd);
    free(dir);
}

Test(corpus_cli, archive_pairs_by_base_name, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *dir = ts_path(scratch, "small");
    ts_cli(scratch, &o, "corpus synth --out '%s' --preset small --seed 2", dir);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    static const char *const names[2] = {"d4c009.dat", "d4w023.dat"};
    char *data[2];
    size_t size[2];
    for (int i = 0; i < 2; i++) {
        char *p = ts_path(dir, names[i]);
        data[i] = ts_read(p, &size[i]);
        free(p);
    }
    arc_input in[2] = {
        {"c:\\ff8\\data\\eng\\battle\\D4C009.DAT", (const uint8_t *)data[0], size[0], ARC_LZSS},
        {"c:\\ff8\\data\\eng\\battle\\d4w023.dat", (const uint8_t *)data[1], size[1], ARC_LZ4},
    };
    arc_image img;
    ff_error err;
    cr_assert_eq(arc_build(in, 2, &img, &err), 0, "%s", err.reason);
    char *fi = ts_path(scratch, "battle.fi"), *fl = ts_path(scratch, "battle.fl"),
         *fs = ts_path(scratch, "battle.fs");
    cr_assert_eq(arc_write_image(&img, fi, fl, fs, &err), 0, "%s", err.reason);
    arc_image_free(&img);
    ts_cli(scratch, &o, "corpus stats '%s'", fs);
    cr_assert_eq(o.status, 0, "%s", o.err);
    has_line(o.out, "entities:              1 (0 monsters, 1 with a weapon, 0 pool mismatches)");
    has_line(o.out, "  D4C009.DAT    d4w023.dat    6/6");
    ts_out_free(&o);
    for (int i = 0; i < 2; i++)
        free(data[i]);
    free(fi);
    free(fl);
    free(fs);
    free(dir);
}

Test(corpus_cli, usage_errors, .init = setup, .fini = cleanup)
{
    ts_out o;
    ts_cli(scratch, &o, "corpus synth --preset medium --out '%s/x'", scratch);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "unknown preset 'medium'"), "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "corpus stats '%s/nowhere'", scratch);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "nowhere"), "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "corpus frobnicate");
    cr_assert_eq(o.status, 2);
    ts_out_free(&o);
}
