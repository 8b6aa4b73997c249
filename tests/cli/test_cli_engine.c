/*
 * tests/cli/test_cli_engine.c: what `ff8diff` says about its engines, as a
 * user meets it. `--version` has a line per engine built in saying whether
 * it runs here, and why not. A run names the engine of its calls in the
 * summary line, report.json (run.tool.engine: kind, version, capabilities;
 * run.engines: who made the calls, the replays and the coverage),
 * index.html, summary.md and junit.xml. On the native engine (no hooks) a
 * run with coverage on (the default) goes through, says coverage was not
 * recorded and why instead of a table of zeros, and mutant c still gets its
 * cause from replays on Unicorn. The native runs are skipped with the
 * reason `--version` gives where ff8diff cannot run native code (under
 * AddressSanitizer, without IA32 emulation). The usage's lists (--engine's
 * kinds, --modes, --levels, --preset) are the rows of their tables.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "emu/engine/emu.h"
#include "harness/core/levels.h"
#include "harness/core/modes.h"
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

/* The report folder's one run (dir/<id>/), as a path (caller frees). */
static char *only_run(const char *out)
{
    ts_out o;
    ts_sh(scratch, &o, "ls -d '%s'/*/", out);
    o.out[strcspn(o.out, "\n")] = '\0';
    char *path = strdup(o.out);
    ts_out_free(&o);
    return path;
}

static char *run_file(const char *out, const char *name)
{
    char *dir = only_run(out), *p = ts_path(dir, name);
    char *text = ts_read(p, NULL);
    cr_assert(text, "no %s in %s", name, dir);
    free(p);
    free(dir);
    return text;
}

/* report.json of the only run in out validates against reports/schema. */
static void assert_valid(const char *out)
{
    char *dir = only_run(out), *json = ts_path(dir, "report.json");
    ts_assert_valid(scratch, json);
    free(json);
    free(dir);
}

static const char *str_at(const cJSON *r, const char *a, const char *b, const char *c)
{
    const cJSON *o = cJSON_GetObjectItem(cJSON_GetObjectItem(r, a), b);
    if (c) o = cJSON_GetObjectItem(o, c);
    return cJSON_IsString(o) ? o->valuestring : NULL;
}

/*
 * The native line of `ff8diff --version`: "engine: native <release>, ...; runs here" or
 * "engine: native <release>: cannot run here: <why>". Returns NULL when native runs, else
 * the reason (caller frees).
 */
static char *native_refused(void)
{
    ts_out o;
    ts_cli(scratch, &o, "--version");
    cr_assert_eq(o.status, 0, "%s", o.err);
    const char *line = strstr(o.out, "engine: native ");
    cr_assert(line, "no native line in: %s", o.out);
    char *l = strndup(line, strcspn(line, "\n"));
    ts_out_free(&o);
    const char *no = strstr(l, ": cannot run here: ");
    cr_assert(no || strstr(l, "; runs here"), "the line says neither: %s", l);
    char *why = no ? strdup(no + strlen(": cannot run here: ")) : NULL;
    cr_assert(!no || why[0], "no reason: %s", l);
    free(l);
    return why;
}

/*
 * The --engine values are the kinds of emu/engine/emu.h's table, auto and
 * both: the usage of every command that takes --engine names each, and a
 * value that is none is refused with all of them listed, in the table's order.
 */
Test(engine_cli, engine_values_are_the_kinds_of_the_table, .init = setup, .fini = cleanup)
{
    char want[256] = "";
    for (unsigned k = 0; k < EMU_ENGINE__COUNT; k++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", k ? ", " : "",
                 emu_engine_kind_name((emu_engine_kind)k));
    snprintf(want + strlen(want), sizeof want - strlen(want), ", auto or both");
    static const char *const commands[] = {"run", "record", "export"};
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        ts_out o;
        ts_cli(scratch, &o, "%s --help", commands[c]);
        cr_assert_eq(o.status, 0, "%s --help: %s", commands[c], o.err);
        const char *help = strstr(o.out, "  --engine E ");
        cr_assert(help, "%s --help has no --engine: %s", commands[c], o.out);
        /* The option's paragraph: up to the next option. */
        const char *next = strstr(help + 1, "\n  -");
        char *para = next ? strndup(help, (size_t)(next - help)) : strdup(help);
        for (unsigned k = 0; k < EMU_ENGINE__COUNT; k++)
            cr_assert(strstr(para, emu_engine_kind_name((emu_engine_kind)k)),
                      "%s --help does not name %s: %s", commands[c],
                      emu_engine_kind_name((emu_engine_kind)k), para);
        cr_assert(strstr(para, "auto (") && strstr(para, "both ("), "%s", para);
        free(para);
        ts_out_free(&o);
        ts_cli(scratch, &o, "%s --engine qemu", commands[c]);
        cr_assert_eq(o.status, 2, "%s --engine qemu: %s%s", commands[c], o.out, o.err);
        char line[320];
        snprintf(line, sizeof line, "--engine takes %s, not 'qemu'", want);
        cr_assert(strstr(o.err, line), "%s: no \"%s\" in: %s", commands[c], line, o.err);
        ts_out_free(&o);
    }
}

Test(engine_cli, version_says_whether_each_engine_runs_here, .init = setup, .fini = cleanup)
{
    ts_out o;
    ts_cli(scratch, &o, "--version");
    cr_assert_eq(o.status, 0, "%s", o.err);
    /* Unicorn runs wherever ff8diff does. */
    cr_assert(strstr(o.out, "engine: unicorn ") && strstr(o.out, "; runs here\n"), "%s", o.out);
    ts_out_free(&o);
    /* The native line agrees with the library's probe in a process of the same build. */
    emu_engine_info info;
    ff_error err;
    ff_error_clear(&err);
    int runs = emu_engine_info_get(emu_engine_ops(EMU_ENGINE_NATIVE), &info, 1, &err) == 0;
    char *why = native_refused();
    cr_assert_eq(why == NULL, runs, "--version says %s, the probe %s", why ? why : "runs here",
                 runs ? "runs here" : err.reason);
    free(why);
}

/*
 * The native engine keeps the low 4 GiB for the guest, so the host's own mappings must lie
 * above: ff8diff and the programs that open engines are position-independent (an
 * executable without PIE sits at 0x400000, where the guest's image goes, and its code
 * would be in the guest's reach).
 */
Test(engine_cli, the_host_leaves_the_low_4_gib_to_the_guest, .init = setup, .fini = cleanup)
{
    size_t n = 0;
    unsigned char *elf = (unsigned char *)ts_read(ts_ff8diff(), &n);
    cr_assert(elf && n > 18 && memcmp(elf, "\177ELF", 4) == 0, "%s is no ELF file", ts_ff8diff());
    cr_assert_eq(elf[16] | elf[17] << 8, 3, "ff8diff is no position-independent executable "
                 "(ELF type %d)", elf[16] | elf[17] << 8);
    free(elf);
    cr_assert_gt((uintptr_t)&setup, UINT32_MAX, "this suite's code lies below 4 GiB");
#ifndef FF_TEST_SANITIZED /* AddressSanitizer's shadow memory lies below 4 GiB */
    char *why = native_refused();
    cr_assert(!why || !strstr(why, "below 4 GiB"), "--version: %s", why);
    free(why);
#endif
}

Test(engine_cli, native_run_says_coverage_was_not_recorded, .init = setup, .fini = cleanup)
{
    char *why = native_refused();
    if (why) cr_skip_test("the native engine cannot run here: %s", why);
    ts_out o;
    char *out = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run --engine native --jobs 1 --no-cache --modes normal,fast --out '%s'",
           out);
    cr_assert_eq(o.status, 0, "coverage on (the default) must not fail a native run: %s%s",
                 o.out, o.err);
    const char *reason =
        "the native engine has no coverage hooks; run with --engine unicorn to record it";
    char want[256];
    snprintf(want, sizeof want, "coverage: not recorded: %s\n", reason);
    cr_assert(strstr(o.out, want), "%s", o.out);
    cr_assert(strstr(o.out, " bad input; engine: native, coverage not recorded ("),
              "the summary line: %s", o.out);
    ts_out_free(&o);
    assert_valid(out);
    cJSON *r = ts_report(out);
    const cJSON *en = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "tool"), "engine");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(en, "kind")), "native");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(en, "capabilities")), 0, "no hooks");
    emu_engine_info info;
    cr_assert_eq(emu_engine_info_get(emu_engine_ops(EMU_ENGINE_NATIVE), &info, 0, NULL), 0);
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(en, "version")), info.version);
    /* What the native engine does not see, as the engine says it, in report.json. */
    cr_assert(info.limits[0], "the native engine says what it does not see");
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(en, "limits")), info.limits);
    cr_assert(strstr(info.limits, "64-bit code") && strstr(info.limits, "--engine both"), "%s",
              info.limits);
    cr_assert_str_eq(str_at(r, "run", "engines", "calls"), "native");
    cr_assert(cJSON_IsNull(cJSON_GetObjectItem(
                  cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "engines"), "coverage")),
              "no engine recorded coverage");
    const cJSON *cov = cJSON_GetObjectItem(r, "coverage");
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(cov, "recorded")));
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cov, "not_recorded")), reason);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cov, "routines")), 0, "no zeros");
    cJSON_Delete(r);
    char *html = run_file(out, "index.html");
    cr_assert(strstr(html, "<span id=\"engine\">engine native "), "the header names native");
    cr_assert(strstr(html, "<td id=\"engines\">calls on native "), "the run's engines row");
    cr_assert(strstr(html, "id=\"coverage-not-recorded\">\n<p>Not recorded: the native engine has no "
                           "coverage hooks"),
              "the coverage section says why");
    cr_assert(!strstr(html, "id=\"coverage-table\""), "a table of zeros in index.html");
    cr_assert(strstr(html, "; not seen on native: code of the executable that jumps far to 64-bit "
                           "code"),
              "index.html's engines row says what native does not see");
    char *md = run_file(out, "summary.md");
    cr_assert(strstr(md, "| Engines | calls on native "), "summary.md's engines row");
    cr_assert(strstr(md, "; not seen on native: code of the executable that jumps far to 64-bit "
                         "code"),
              "summary.md's engines row says what native does not see");
    snprintf(want, sizeof want, "Not recorded: %s.", reason);
    cr_assert(strstr(md, want), "summary.md's coverage section");
    cr_assert(strstr(md, "coverage not recorded |"), "summary.md's options");
    free(md);
    free(html);
    free(out);
    free(why);
}

Test(engine_cli, native_run_explains_on_unicorn, .init = setup, .fini = cleanup)
{
    char *why = native_refused();
    if (why) cr_skip_test("the native engine cannot run here: %s", why);
    ts_out o;
    char *out = ts_path(scratch, "reports"), *mut = ts_standin("standin_mut_c.exe");
    ts_cli(scratch, &o,
           "run --engine native --jobs 1 --no-cache --exe '%s' --profile standin --out '%s'", mut,
           out);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "cause 0 (") && strstr(o.out, "ReadBoneScale returns 0 where the "
                                                             "reference returns 1024"),
              "the cause from replays on Unicorn: %s", o.out);
    cr_assert(strstr(o.out, "; engine: native, replays on unicorn, coverage not recorded ("),
              "the summary line: %s", o.out);
    ts_out_free(&o);
    assert_valid(out);
    cJSON *r = ts_report(out);
    cr_assert_str_eq(str_at(r, "run", "engines", "calls"), "native");
    cr_assert_str_eq(str_at(r, "run", "engines", "replays"), "unicorn");
    const char *rw = str_at(r, "run", "engines", "replays_why");
    cr_assert(rw && strstr(rw, "explanations replayed on unicorn: the native engine has no "
                               "recording of the calls of chosen routines (read logs)"),
              "%s", rw ? rw : "(none)");
    const cJSON *causes = cJSON_GetObjectItem(r, "causes");
    cr_assert_eq(cJSON_GetArraySize(causes), 1);
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(causes, 0),
                                                              "kind")),
                     "read");
    cJSON_Delete(r);
    char *html = run_file(out, "index.html"), *md = run_file(out, "summary.md");
    char *xml = run_file(out, "junit.xml");
    cr_assert(strstr(html, "explanations replayed on unicorn: the native engine has no"), "html");
    cr_assert(strstr(md, "explanations replayed on unicorn: the native engine has no"), "md");
    cr_assert(strstr(xml, "<property name=\"engines\" value=\"calls on native "), "junit.xml");
    free(xml);
    free(md);
    free(html);
    free(mut);
    free(out);
    free(why);
}

/* The default engine does everything itself, and every output says so. */
Test(engine_cli, unicorn_run_names_its_engine_everywhere, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *out = ts_path(scratch, "reports"), *mut = ts_standin("standin_mut_c.exe");
    /* --engine unicorn said outright: FF8DIFF_ENGINE may put the suite on another. */
    ts_cli(scratch, &o, "run -q --no-cache --engine unicorn --exe '%s' --profile standin --out '%s'",
           mut, out);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, " bad input; engine: unicorn ("), "the summary line: %s", o.out);
    ts_out_free(&o);
    assert_valid(out);
    cJSON *r = ts_report(out);
    cr_assert_str_eq(str_at(r, "run", "engines", "calls"), "unicorn");
    cr_assert_str_eq(str_at(r, "run", "engines", "replays"), "unicorn");
    cr_assert_str_eq(str_at(r, "run", "engines", "replays_why"), "");
    cr_assert_str_eq(str_at(r, "run", "engines", "coverage"), "unicorn");
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "coverage"), "recorded")));
    cJSON_Delete(r);
    emu_engine_info info;
    cr_assert_eq(emu_engine_info_get(NULL, &info, 0, NULL), 0);
    char want[256];
    snprintf(want, sizeof want,
             "<td id=\"engines\">calls on unicorn %s (hooks: budget, stub, write_watch, read_log, "
             "coverage, exact_fault); replays with hooks (write watches, read logs) on unicorn; "
             "coverage recorded on unicorn</td>",
             info.version);
    char *html = run_file(out, "index.html");
    cr_assert(strstr(html, want), "index.html lacks %s", want);
    cr_assert(strstr(html, "id=\"coverage-table\""), "the coverage table");
    free(html);
    free(mut);
    free(out);
}

/* The lines of the usage that list modes, levels and presets name every row of their
 * tables (harness/core/modes.h, levels.h, corpus/synth.h); check's levels leave out leaf. */
static char *usage_line(const char *help, const char *opt)
{
    const char *at = strstr(help, opt);
    cr_assert(at, "no %s in: %s", opt, help);
    const char *end = strchr(at, '\n');
    return strndup(at, end ? (size_t)(end - at) : strlen(at));
}

Test(engine_cli, usage_lists_come_from_the_tables, .init = setup, .fini = cleanup)
{
    static const char *const commands[] = {"run", "record", "export", "check"};
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        ts_out o;
        ts_cli(scratch, &o, "%s --help", commands[c]);
        cr_assert_eq(o.status, 0, "%s --help: %s", commands[c], o.err);
        int is_check = strcmp(commands[c], "check") == 0;
        if (!is_check) {
            char *modes = usage_line(o.out, "  --modes LIST"), *presets = usage_line(o.out, "  --preset NAME");
            for (int m = 0; m < MODE__COUNT; m++)
                cr_assert(strstr(modes, mode_name((mode_id)m)), "%s: %s", commands[c], modes);
            for (int p = 0; p < SYNTH__PRESET_COUNT; p++)
                cr_assert(strstr(presets, synth_preset_name((synth_preset)p)), "%s: %s",
                          commands[c], presets);
            free(modes);
            free(presets);
        }
        if (is_check || strcmp(commands[c], "run") == 0) {
            char *levels = usage_line(o.out, "  --levels LIST");
            for (int l = 0; l < RUN_LEVEL__COUNT; l++) {
                int named = strstr(levels, run_level_name((run_level)l)) != NULL;
                cr_assert_eq(named, !(is_check && l == RUN_LEVEL_LEAF), "%s: %s", commands[c],
                             levels);
            }
            free(levels);
        }
        ts_out_free(&o);
    }
}
