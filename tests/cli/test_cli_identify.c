/*
 * tests/cli/test_cli_identify.c: `ff8diff identify` on the stand-in, on a
 * copy patched outside its fingerprints (unknown build: accepted with a
 * warning), on a copy with one fingerprint broken (refused, naming the
 * bytes), on a file that is not an executable; and --routines. The evidence
 * printed beside the verdict: bytes, version dwords, routine sizes (an
 * unknown build whose sizes differ runs, the differences stated), and the
 * Remaster's files on synthetic PEs the tests build.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
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

static char *standin(void)
{
    return ts_standin("standin.exe");
}

/* File offset of a virtual address, from the section table read here. */
static size_t file_offset(const char *pe, uint32_t va)
{
    uint32_t h = le_u32((const uint8_t *)pe + 0x3C);
    unsigned nsec = (unsigned char)pe[h + 6] | (unsigned char)pe[h + 7] << 8;
    unsigned opt = (unsigned char)pe[h + 20] | (unsigned char)pe[h + 21] << 8;
    uint32_t base = le_u32((const uint8_t *)pe + h + 24 + 28);
    const char *sec = pe + h + 24 + opt;
    for (unsigned i = 0; i < nsec; i++, sec += 40) {
        uint32_t rva = le_u32((const uint8_t *)sec + 12), raw = le_u32((const uint8_t *)sec + 16), ptr = le_u32((const uint8_t *)sec + 20);
        if (va - base >= rva && va - base < rva + raw) return ptr + (va - base - rva);
    }
    cr_assert_fail("VA 0x%x is in no section", va);
    return 0;
}

Test(identify, standin_is_a_known_build, .init = setup, .fini = cleanup)
{
    char *exe = standin();
    ts_out o;
    ts_cli(scratch, &o, "identify '%s'", exe);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "verdict: known (profile standin)"), "%s", o.out);
    cr_assert(strstr(o.out, "fingerprint 0x00B8B9F0 holds"), "%s", o.out);
    /* The game's evidence, apart from its refusal: StartClip's SLOW doubling is not here. */
    cr_assert(strstr(o.out, "evidence 0x00509482 differs: D0 E1 FE C9 88 48 07 expected"), "%s",
              o.out);
    cr_assert(strstr(o.out, "version dwords (FFNx's): [0x401004]"), "%s", o.out);
    /* The stand-in's own sizes, each as its profile says. */
    cr_assert(strstr(o.out, "routine sizes (evidence, profile standin): "), "%s", o.out);
    cr_assert(!strstr(o.out, "DIFFERS"), "%s", o.out);
    cr_assert(strstr(o.out, "  Battle_ReadAnimation: "), "%s", o.out);
    ts_out_free(&o);
    ts_cli(scratch, &o, "identify '%s' --routines", exe);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "0x00508F90 Battle_ReadAnimation"), "%s", o.out);
    cr_assert(strstr(o.out, "0 routines with problems"), "%s", o.out);
    cr_assert(strstr(o.out, "    size: Battle_ReadAnimation: "), "%s", o.out);
    ts_out_free(&o);
    free(exe);
}

Test(identify, patched_copy_runs_with_a_warning, .init = setup, .fini = cleanup)
{
    char *exe = standin();
    size_t size;
    char *pe = ts_read(exe, &size);
    /* The COFF time stamp: changes the hash, no fingerprint. */
    pe[le_u32((const uint8_t *)pe + 0x3C) + 8] ^= 0x5A;
    char *copy = ts_path(scratch, "patched.exe");
    ts_write(copy, pe, size);
    ts_out o;
    ts_cli(scratch, &o, "identify '%s'", copy);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "verdict: unknown_build (profile standin)"), "%s", o.out);
    cr_assert(strstr(o.err, "warning"), "%s", o.err);
    ts_out_free(&o);
    free(copy);
    free(pe);
    free(exe);
}

Test(identify, broken_fingerprint_is_refused, .init = setup, .fini = cleanup)
{
    char *exe = standin();
    size_t size;
    char *pe = ts_read(exe, &size);
    /* The position width table 03 06 09 10 at 0xB8B9F0: 09 becomes 0A. */
    size_t off = file_offset(pe, 0xB8B9F2);
    cr_assert_eq((unsigned char)pe[off], 0x09);
    pe[off] = 0x0A;
    char *copy = ts_path(scratch, "broken.exe");
    ts_write(copy, pe, size);
    ts_out o;
    ts_cli(scratch, &o, "identify '%s'", copy);
    cr_assert_eq(o.status, 2, "%s", o.out);
    cr_assert(strstr(o.out, "fingerprint 0x00B8B9F0 FAILS: expected 03 06 09 10, found 03 06 0A 10"),
              "%s", o.out);
    cr_assert(strstr(o.out, "verdict: refused"), "%s", o.out);
    ts_out_free(&o);
    /* run refuses it too, before doing anything. */
    ts_cli(scratch, &o, "run --exe '%s' -q --no-cache --out '%s/r'", copy, scratch);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "unsupported build"), "%s", o.err);
    ts_out_free(&o);
    free(copy);
    free(pe);
    free(exe);
}

Test(identify, not_an_executable, .init = setup, .fini = cleanup)
{
    char *junk = ts_path(scratch, "junk.exe");
    ts_write(junk, "MZ this is not a PE file at all", 31);
    ts_out o;
    ts_cli(scratch, &o, "identify '%s'", junk);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.out, "not a usable PE32"), "%s", o.out);
    ts_out_free(&o);
    ts_cli(scratch, &o, "identify '%s/missing.exe'", scratch);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "missing.exe"), "%s", o.err);
    ts_out_free(&o);
    free(junk);
}

/*
 * A copy whose last section (.idata, where the file now ends) claims 0x1000
 * raw bytes of which the file holds 0x200: Windows maps what exists and
 * zero-fills the rest; identify and run say so, and the report keeps it.
 */
Test(identify, a_build_cut_short_maps_with_a_warning, .init = setup, .fini = cleanup)
{
    char *exe = standin();
    size_t size;
    char *pe = ts_read(exe, &size);
    uint32_t h = le_u32((const uint8_t *)pe + 0x3C);
    unsigned nsec = (unsigned char)pe[h + 6] | (unsigned char)pe[h + 7] << 8;
    unsigned opt = (unsigned char)pe[h + 20] | (unsigned char)pe[h + 21] << 8;
    uint8_t *sec = (uint8_t *)pe + h + 24 + opt + 40 * (nsec - 1);
    cr_assert(memcmp(sec, ".idata", 6) == 0, "the last section is %.8s", (char *)sec);
    size = le_u32(sec + 20) + le_u32(sec + 16); /* the COFF symbols after it go */
    le_put32(sec + 8, 0x1000);
    le_put32(sec + 16, 0x1000);
    char *copy = ts_path(scratch, "cut.exe");
    ts_write(copy, pe, size);
    ts_out o;
    ts_cli(scratch, &o, "identify '%s'", copy);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "mapped as Windows maps it, with a warning: raw data of section 9 "
                            "(.idata)"),
              "%s", o.out);
    cr_assert(strstr(o.err, "runs past the end of the file"), "%s", o.err);
    ts_out_free(&o);
    char *reports = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run --exe '%s' --profile standin -q --no-cache --out '%s'", copy,
           reports);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.err, "0xe00 zero-filled"), "%s", o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(reports);
    const cJSON *w = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "executable"), "warning");
    cr_assert(strstr(w->valuestring, "runs past the end of the file"), "%s", w->valuestring);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    cJSON_Delete(r);
    free(reports);
    free(copy);
    free(pe);
    free(exe);
}

/*
 * One routine made shorter (Test_ReadUnmapped a lone `ret`), every fingerprint intact: an
 * unknown build that runs, the routine that differs in size named by identify and in run's
 * report; run's terminal says it in one short warning.
 */
Test(identify, an_unknown_build_with_other_sizes_runs_with_them_stated, .init = setup,
     .fini = cleanup)
{
    char *exe = standin();
    size_t size;
    char *pe = ts_read(exe, &size);
    pe[file_offset(pe, 0x5A0040)] = (char)0xC3;
    char *copy = ts_path(scratch, "shorter.exe");
    ts_write(copy, pe, size);
    ts_out o;
    ts_cli(scratch, &o, "identify '%s'", copy);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "verdict: unknown_build (profile standin)"), "%s", o.out);
    cr_assert_eq(ts_count(o.out, "DIFFERS"), 1u, "%s", o.out);
    cr_assert(strstr(o.out, "Test_ReadUnmapped: the profile says "), "%s", o.out);
    cr_assert(strstr(o.out, "found 1 instruction, 0x1 bytes: DIFFERS"), "%s", o.out);
    cr_assert(strstr(o.err, "1 routine differs in size from profile standin"), "%s", o.err);
    ts_out_free(&o);
    char *reports = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run --exe '%s' -q --no-cache --out '%s'", copy, reports);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    /* The terminal: one short warning; the routine named in the report. */
    cr_assert(strstr(o.err, "unknown build of standin (fingerprints hold; 1 routine differs in "
                            "size)"),
              "%s", o.err);
    /* One warning about the build (an engine's own warning, Unicorn 2.0.1's, may come too). */
    cr_assert_eq(ts_count(o.err, "unknown build"), 1u, "one warning: %s", o.err);
    cr_assert_eq(ts_count(o.err, "this build"), 0u, "no second warning on the build: %s", o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(reports);
    const cJSON *w = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "executable"), "warning");
    cr_assert(cJSON_IsString(w) &&
                  strstr(w->valuestring, "1 routine of this build differs in size from profile "
                                         "'standin': Test_ReadUnmapped"),
              "report.json's run.executable.warning");
    cJSON_Delete(r);
    free(reports);
    free(copy);
    free(pe);
    free(exe);
}

/* Evidence from a profile file: bytes held or not, the build the version dwords name. */
Test(identify, evidence_and_version_dwords_from_a_profile, .init = setup, .fini = cleanup)
{
    const char *bin = getenv("FF8DIFF_BINARY_DIR");
    char *src = ts_path(bin, "emu/profiles/standin.json");
    cJSON *p = ts_json(src);
    cJSON *ev = cJSON_Parse("[{\"what\": \"Field_Alloc's first bytes\", \"address\": \"0x5082B0\","
                            " \"bytes\": \"8B 44 24 04\"},"
                            " {\"what\": \"not these\", \"address\": \"0x5082B0\","
                            " \"bytes\": \"90 90\"}]");
    cJSON *vs = cJSON_Parse("[{\"build\": \"an older stand-in\", \"language\": \"Test\","
                            " \"dwords\": [[\"0x5082B0\", \"0x1\"]]},"
                            " {\"build\": \"the stand-in\", \"language\": \"Test\", \"own\": true,"
                            " \"dwords\": [[\"0x5082B0\", \"0x0424448B\"]]}]");
    cr_assert(ev && vs);
    cJSON_AddItemToObject(p, "evidence", ev);
    cJSON_AddItemToObject(p, "versions", vs);
    char *text = cJSON_Print(p);
    char *prof = ts_path(scratch, "evidence.json");
    ts_write(prof, text, strlen(text));
    char *exe = standin();
    ts_out o;
    ts_cli(scratch, &o, "identify '%s' --profile '%s'", exe, prof);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "verdict: known (profile standin)"), "%s", o.out);
    cr_assert(strstr(o.out, "evidence 0x005082B0 holds: 8B 44 24 04 (Field_Alloc's first bytes)"),
              "%s", o.out);
    cr_assert(strstr(o.out, "evidence 0x005082B0 differs: 90 90 expected, found 8B 44 (not these)"),
              "%s", o.out);
    cr_assert(strstr(o.out, "version dwords (FFNx's): [0x5082B0] = 0x0424448B: the stand-in, Test "
                            "(the profile's own build)"),
              "%s", o.out);
    ts_out_free(&o);
    free(exe);
    free(prof);
    free(text);
    cJSON_Delete(p);
    free(src);
}

/*
 * The Remaster's files (synthetic PEs with their names and traits, no game code): identify
 * says what each is and how its data is used instead; run refuses it saying the same.
 */
Test(identify, remaster_files_say_what_they_are, .init = setup, .fini = cleanup)
{
    static const struct {
        const char *name;
        int dll;
        const char *verdict;
    } cases[] = {{"FFVIII_EFIGS.dll", 1, "verdict: refused: remaster_code"},
                 {"FFVIII_JP.dll", 1, "verdict: refused: remaster_code"},
                 {"FFVIII.exe", 0, "verdict: refused: remaster_host"},
                 {"other.dll", 1, "verdict: refused: no profile accepts this executable"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t pe[TS_MINI_PE_SIZE];
        ts_mini_pe(pe, cases[i].dll);
        char *file = ts_path(scratch, cases[i].name);
        ts_write(file, pe, sizeof pe);
        ts_out o;
        ts_cli(scratch, &o, "identify '%s'", file);
        cr_assert_eq(o.status, 2, "%s: %s%s", cases[i].name, o.out, o.err);
        cr_assert(strstr(o.out, cases[i].verdict), "%s: %s", cases[i].name, o.out);
        int remaster = strstr(cases[i].verdict, "remaster") != NULL;
        cr_assert_eq(strstr(o.out, "statically translated to C") != NULL, remaster, "%s",
                     o.out);
        if (remaster) {
            cr_assert(strstr(o.out, "--corpus"), "%s", o.out);
            ts_out_free(&o);
            ts_cli(scratch, &o, "run --exe '%s' -q --no-cache --out '%s/r'", file, scratch);
            cr_assert_eq(o.status, 2, "%s", o.err);
            cr_assert(strstr(o.err, "statically translated to C"), "%s", o.err);
        }
        ts_out_free(&o);
        free(file);
    }
}
