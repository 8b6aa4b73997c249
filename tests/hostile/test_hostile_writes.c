/*
 * tests/hostile/test_hostile_writes.c: what ff8diff writes, against a hostile
 * file system and archive: a link planted at the destination of `corpus
 * extract` (never followed), files already in --out (kept unless --force),
 * two archive entries with one base name (both extracted, recorded, checked
 * and reported under distinct names, with a warning), an FL name holding a
 * control byte (refused, never echoed raw), an --out that names a file
 * (refused before any work), and report folders left by killed runs
 * (removed by the next run in that --out, a live one kept).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus/archive.h"
#include "tests/hostile/hs.h"

static char *scratch;

static void setup(void)
{
    scratch = ts_tempdir();
}

static void cleanup(void)
{
    ts_rmtree(scratch);
}

/* Writes battle.fi/fl/fs for n entries into dir (created). */
static void write_archive(const char *dir, const arc_input *in, size_t n)
{
    arc_image img;
    ff_error err;
    cr_assert_eq(arc_build(in, n, &img, &err), 0, "arc_build: %s", err.reason);
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s'", dir);
    ts_out_free(&o);
    hs_write(dir, "battle.fi", img.fi, img.fi_size);
    hs_write(dir, "battle.fl", img.fl, img.fl_size);
    hs_write(dir, "battle.fs", img.fs, img.fs_size);
    arc_image_free(&img);
}

static char *slurp(const char *dir, const char *name, size_t *size)
{
    char *p = ts_path(dir, name);
    char *s = ts_read(p, size);
    free(p);
    return s;
}

Test(writes, extract_never_writes_through_a_planted_link, .init = setup, .fini = cleanup)
{
    static const char text[] = "entry bytes";
    arc_input in[1] = {{"c:\\ff8\\c0m001.dat", (const uint8_t *)text, sizeof text - 1, ARC_LZ4}};
    char *arcdir = ts_path(scratch, "arc"), *out = ts_path(scratch, "out");
    char *victim = ts_path(scratch, "victim"), *dst = ts_path(out, "c0m001.dat");
    write_archive(arcdir, in, 1);
    ts_write(victim, "precious", 8);
    ts_out o;
    ts_sh(scratch, &o, "mkdir '%s' && ln -s '%s' '%s'", out, victim, dst);
    cr_assert_eq(o.status, 0);
    ts_out_free(&o);
    /* The link counts as an existing file: refused, nothing written. */
    ts_cli(scratch, &o, "corpus extract '%s' --out '%s'", arcdir, out);
    cr_assert_eq(o.status, 2, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "c0m001.dat exists") && strstr(o.err, "--force"), "%s", o.err);
    ts_out_free(&o);
    size_t n;
    char *got = ts_read(victim, &n);
    cr_assert_str_eq(got, "precious");
    free(got);
    /* With --force the link is replaced by the file, and the victim is untouched. */
    ts_cli(scratch, &o, "corpus extract '%s' --out '%s' --force", arcdir, out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    got = ts_read(victim, &n);
    cr_assert_str_eq(got, "precious", "extract wrote through the planted link");
    free(got);
    struct stat st;
    cr_assert_eq(lstat(dst, &st), 0);
    cr_assert(S_ISREG(st.st_mode), "the link was replaced by the extracted file");
    got = slurp(out, "c0m001.dat", &n);
    cr_assert_str_eq(got, text);
    free(got);
    free(arcdir);
    free(out);
    free(victim);
    free(dst);
}

Test(writes, extract_keeps_existing_files_unless_forced, .init = setup, .fini = cleanup)
{
    arc_input in[2] = {{"c:\\x\\c0m000.dat", (const uint8_t *)"zero", 4, ARC_STORED},
                       {"c:\\x\\c0m001.dat", (const uint8_t *)"one!", 4, ARC_LZSS}};
    char *arcdir = ts_path(scratch, "arc"), *out = ts_path(scratch, "out");
    write_archive(arcdir, in, 2);
    ts_out o;
    ts_sh(scratch, &o, "mkdir '%s'", out);
    cr_assert_eq(o.status, 0);
    ts_out_free(&o);
    hs_write(out, "c0m001.dat", "mine", 4);
    ts_cli(scratch, &o, "corpus extract '%s' --out '%s'", arcdir, out);
    cr_assert_eq(o.status, 2, "an existing file is refused: %s%s", o.out, o.err);
    cr_assert(strstr(o.err, "1 file in") && strstr(o.err, "nothing extracted"), "%s", o.err);
    ts_out_free(&o);
    size_t n;
    char *got = slurp(out, "c0m001.dat", &n);
    cr_assert_str_eq(got, "mine", "the user's file was replaced without --force");
    free(got);
    char *zero = ts_path(out, "c0m000.dat");
    cr_assert_neq(access(zero, F_OK), 0, "nothing is extracted when a file would be replaced");
    ts_cli(scratch, &o, "corpus extract '%s' --out '%s' --force", arcdir, out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "2 of 2 entries extracted"), "%s", o.out);
    ts_out_free(&o);
    got = slurp(out, "c0m001.dat", &n);
    cr_assert_str_eq(got, "one!");
    free(got);
    free(zero);
    free(arcdir);
    free(out);
}

/* Two valid monsters under one base name, in two archive folders, plus a third file. */
static char *duplicate_archive(uint8_t **a, size_t *na, uint8_t **b, size_t *nb)
{
    static const uint8_t fa[2] = {3, 5}, fb[3] = {4, 2, 6};
    *a = hs_monster(5, 2, fa, 11, na);
    *b = hs_monster(7, 3, fb, 23, nb);
    size_t nc;
    static const uint8_t fc[1] = {2};
    uint8_t *c = hs_monster(3, 1, fc, 31, &nc);
    arc_input in[3] = {{"c:\\ff8\\a\\c0m001.dat", *a, *na, ARC_LZSS},
                       {"c:\\ff8\\b\\C0M001.DAT", *b, *nb, ARC_LZ4},
                       {"c:\\ff8\\a\\c0m002.dat", c, nc, ARC_STORED}};
    char *arcdir = ts_path(scratch, "dup");
    write_archive(arcdir, in, 3);
    free(c);
    return arcdir;
}

Test(writes, entries_sharing_a_base_name_are_all_kept, .init = setup, .fini = cleanup,
     .timeout = 240)
{
    uint8_t *a, *b;
    size_t na, nb;
    char *arcdir = duplicate_archive(&a, &na, &b, &nb);
    char *out = ts_path(scratch, "out");
    ts_out o;
    ts_cli(scratch, &o, "corpus extract '%s' --out '%s'", arcdir, out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "3 of 3 entries extracted"), "%s", o.out);
    cr_assert(strstr(o.err, "warning") && strstr(o.err, "C0M001~2.DAT"),
              "the renamed entry is named in a warning: %s", o.err);
    ts_out_free(&o);
    size_t n;
    char *got = slurp(out, "c0m001.dat", &n);
    cr_assert(got && n == na, "the first entry keeps its name");
    ts_assert_mem(got, a, n, "c0m001.dat");
    free(got);
    got = slurp(out, "C0M001~2.DAT", &n);
    cr_assert(got && n == nb, "the second entry is extracted under its own name");
    ts_assert_mem(got, b, n, "C0M001~2.DAT");
    free(got);

    /* record writes traces for both; check compares both and finds them all matching. */
    char *golden = ts_path(scratch, "golden"), *reports = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "record -q --corpus '%s' --modes normal,slow --out '%s'", arcdir, golden);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    char *t1 = ts_path(golden, "c0m001.dat.slow.jsonl");
    char *t2 = ts_path(golden, "C0M001~2.DAT.slow.jsonl");
    cr_assert_eq(access(t1, R_OK), 0, "%s missing", t1);
    cr_assert_eq(access(t2, R_OK), 0, "%s missing", t2);
    ts_cli(scratch, &o, "check -q --traces '%s' --out '%s'", golden, reports);
    cr_assert_eq(o.status, 0, "check refuses the recorded folder: %s%s", o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(reports);
    /* 2 + 3 + 1 clips, in two modes, all compared and matching. */
    cr_assert_eq(ts_num(r, "totals.match"), 12);
    cr_assert_eq(ts_num(r, "totals.comparisons"), 12);
    cr_assert(ts_result(r, "C0M001~2.DAT", 2, "slow"), "the renamed file is in the report");
    cr_assert(ts_result(r, "c0m001.dat", 1, "normal"));
    const cJSON *w = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "warnings");
    cr_assert(cJSON_GetArraySize(w) == 1 &&
                  strstr(cJSON_GetArrayItem(w, 0)->valuestring, "C0M001~2.DAT"),
              "the report warns about the renamed entry");
    cJSON_Delete(r);
    free(t1);
    free(t2);
    free(golden);
    free(reports);
    free(a);
    free(b);
    free(out);
    free(arcdir);
}

Test(writes, control_bytes_in_names_never_reach_the_terminal, .init = setup, .fini = cleanup)
{
    arc_input in[1] = {{"c:\\x\\c0m\x1b[2J001.dat", (const uint8_t *)"zero", 4, ARC_STORED}};
    char *arcdir = ts_path(scratch, "arc");
    write_archive(arcdir, in, 1);
    ts_out o;
    ts_cli(scratch, &o, "corpus list '%s'", arcdir);
    cr_assert_eq(o.status, 2, "the malformed file list is refused: %s%s", o.out, o.err);
    cr_assert(strstr(o.err, "control byte 0x1b"), "%s", o.err);
    cr_assert(!strchr(o.err, '\x1b') && !strchr(o.out, '\x1b'), "a raw ESC reached the terminal");
    ts_out_free(&o);
    free(arcdir);
}
