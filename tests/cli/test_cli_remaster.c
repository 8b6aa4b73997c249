/*
 * tests/cli/test_cli_remaster.c: the Remaster's shape through the command
 * line. The small synthetic preset packed by `corpus pack` as a 2013
 * install and as a Remaster install (main.zzz, 4ZL_ entries, x folder and
 * _en names) runs end to end with the same verdicts, clip by clip and
 * entity by entity, under the stand-in and under a mutant; the reports
 * tell the two installs apart (provenance). `corpus diff` finds exactly
 * the clips a test changed, with its exit codes, JSON and HTML.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/dat.h"
#include "tests/support/ts.h"

static char *scratch, *folder;

static void setup(void)
{
    scratch = ts_tempdir();
    folder = ts_path(scratch, "small");
    ts_out o;
    ts_cli(scratch, &o, "corpus synth --out '%s'", folder);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
}

static void teardown(void)
{
    free(folder);
    ts_rmtree(scratch);
}

/* `corpus pack SRC --out scratch/name --layout layout`; returns the path (caller frees). */
static char *pack(const char *src, const char *name, const char *layout)
{
    char *out = ts_path(scratch, name);
    ts_out o;
    ts_cli(scratch, &o, "corpus pack '%s' --out '%s' --layout %s --pad-mib 2", src, out, layout);
    cr_assert_eq(o.status, 0, "pack %s: %s%s", layout, o.out, o.err);
    ts_out_free(&o);
    return out;
}

/* Runs exe over corpus at the frame and entity levels; the parsed report. */
static cJSON *run(const char *exe, const char *corpus, const char *out, int want)
{
    ts_out o;
    ts_cli(scratch, &o, "run -q --no-cache --exe '%s' --profile standin --corpus '%s' --out '%s' "
                        "--levels frame,entity",
           exe, corpus, out);
    cr_assert_eq(o.status, want, "run over %s: %d (%s)", corpus, o.status, o.err);
    ts_out_free(&o);
    return ts_report(out);
}

/* One line per result: what decides the verdict (status and first divergence). */
static char *verdicts(const cJSON *report, const char *list, const char *file_key)
{
    size_t cap = 1 << 20, len = 0;
    char *s = calloc(1, cap);
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(report, list))
    {
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, "divergence");
        if (!cJSON_IsObject(d)) d = NULL;
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(r, "weapon");
        len += (size_t)snprintf(
            s + len, cap - len, "%s+%s %d %s %s %d %s\n",
            cJSON_GetObjectItemCaseSensitive(r, file_key)->valuestring,
            cJSON_IsString(w) ? w->valuestring : "-",
            (int)cJSON_GetObjectItemCaseSensitive(r, "clip")->valuedouble,
            cJSON_GetObjectItemCaseSensitive(r, "mode")->valuestring,
            cJSON_GetObjectItemCaseSensitive(r, "status")->valuestring,
            d ? (int)cJSON_GetObjectItemCaseSensitive(d, "tick")->valuedouble : -1,
            d ? cJSON_GetObjectItemCaseSensitive(d, "field")->valuestring : "-");
        cr_assert_lt(len, cap);
    }
    return s;
}

static const char *provenance(const cJSON *report, const char *key)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(report, "run"), "corpus"),
        "provenance");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

Test(remaster, same_verdicts_as_the_same_files_in_a_2013_install, .init = setup,
     .fini = teardown, .timeout = 300)
{
    char *old = pack(folder, "old", "2013"), *rem = pack(folder, "rem", "remaster");
    static const struct {
        const char *exe;
        int exit;
    } engines[] = {{"standin.exe", 0}, {"standin_mut_ab.exe", 1}};
    for (size_t k = 0; k < sizeof engines / sizeof engines[0]; k++) {
        char *exe = ts_standin(engines[k].exe), out[2][4200];
        snprintf(out[0], sizeof out[0], "%s/out-old-%zu", scratch, k);
        snprintf(out[1], sizeof out[1], "%s/out-rem-%zu", scratch, k);
        cJSON *a = run(exe, old, out[0], engines[k].exit);
        cJSON *b = run(exe, rem, out[1], engines[k].exit);
        cr_assert_gt(ts_num(a, "totals.comparisons"), 0);
        cr_assert_eq(ts_num(a, "totals.comparisons"), ts_num(b, "totals.comparisons"));
        cr_assert_eq(ts_num(a, "totals.mismatch"), ts_num(b, "totals.mismatch"), "%s", exe);
        cr_assert_eq(ts_num(a, "totals.entity.comparisons"), ts_num(b, "totals.entity.comparisons"));
        cr_assert_gt(ts_num(b, "totals.entity.armed"), 0, "the _en names still pair");
        char *va = verdicts(a, "results", "file"), *vb = verdicts(b, "results", "file");
        cr_assert_str_eq(va, vb, "%s: frame results differ", engines[k].exe);
        free(va);
        free(vb);
        va = verdicts(a, "entity_results", "body");
        vb = verdicts(b, "entity_results", "body");
        cr_assert_str_eq(va, vb, "%s: entity results differ", engines[k].exe);
        /* The reports say where the files came from. */
        cr_assert_str_eq(provenance(a, "release"), "2013");
        cr_assert_str_eq(provenance(b, "release"), "remaster");
        cr_assert_str_eq(provenance(b, "zzz_entry"), "data\\lang-en\\battle.fs");
        cr_assert_null(provenance(a, "zzz_entry"));
        const cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(b, "manifest"), 0);
        const char *origin = cJSON_GetObjectItemCaseSensitive(m, "origin")->valuestring;
        cr_assert(strstr(origin, "main.zzz") && strstr(origin, "\\x\\battle\\"), "%s", origin);
        free(va);
        free(vb);
        cJSON_Delete(a);
        cJSON_Delete(b);
        free(exe);
    }
    free(old);
    free(rem);
}

/* Flips one byte in the middle of clip `clip`'s bytes of file name in dir. */
static void change_clip(const char *dir, const char *name, uint32_t clip)
{
    char *path = ts_path(dir, name);
    size_t size;
    uint8_t *data = (uint8_t *)ts_read(path, &size);
    dat_file d;
    ff_error err;
    TS_OK(dat_parse(data, size, name, &d, &err), &err);
    uint32_t off, next = d.anim_off + d.anim_size;
    TS_OK(dat_clip_offset(&d, clip, &off, &err), &err);
    if (clip + 1 < d.clips) TS_OK(dat_clip_offset(&d, clip + 1, &next, &err), &err);
    data[off + (next - off) / 2] ^= 0x5A;
    ts_write(path, data, size);
    free(data);
    free(path);
}

Test(remaster, corpus_diff_finds_exactly_the_changed_clips, .init = setup, .fini = teardown,
     .timeout = 120)
{
    char *old = pack(folder, "old", "2013"), *rem = pack(folder, "rem", "remaster");
    ts_out o;
    ts_cli(scratch, &o, "corpus diff '%s' '%s'", old, rem);
    cr_assert_eq(o.status, 0, "the same files in both shapes: %s%s", o.out, o.err);
    cr_assert(strstr(o.out, "files: 11 identical, 0 differ"), "%s", o.out);
    ts_out_free(&o);

    char *changed = ts_path(scratch, "changed");
    ts_copy_dir(folder, changed);
    change_clip(changed, "c0m002.dat", 3);
    change_clip(changed, "d4w023.dat", 1);
    char *rem2 = pack(changed, "rem2", "remaster");
    char *html = ts_path(scratch, "diff.html");
    ts_cli(scratch, &o, "corpus diff '%s' '%s' --json --html '%s'", old, rem2, html);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    cJSON *doc = cJSON_Parse(o.out);
    cr_assert(doc, "not JSON: %s", o.out);
    cr_assert_eq(ts_num(doc, "totals.same"), 9);
    cr_assert_eq(ts_num(doc, "totals.differ"), 2);
    cr_assert_eq(ts_num(doc, "totals.clips_changed"), 2);
    static const struct {
        const char *file;
        int clip;
    } want[] = {{"c0m002.dat", 3}, {"d4w023.dat", 1}};
    size_t seen = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(doc, "files"))
    {
        const char *status = cJSON_GetObjectItemCaseSensitive(f, "status")->valuestring;
        if (!strcmp(status, "same")) continue;
        cr_assert_str_eq(status, "differ");
        const char *name = cJSON_GetObjectItemCaseSensitive(f, "name")->valuestring;
        cr_assert_lt(seen, 2);
        cr_assert_str_eq(name, want[seen].file);
        const cJSON *sec = cJSON_GetObjectItemCaseSensitive(f, "sections");
        cr_assert_eq(cJSON_GetArraySize(sec), 1, "%s: one section", name);
        cr_assert_eq(cJSON_GetArrayItem(sec, 0)->valuedouble, 2, "%s: the animation section", name);
        const cJSON *clips = cJSON_GetObjectItemCaseSensitive(f, "clips");
        cr_assert_eq(cJSON_GetArraySize(clips), 1, "%s: exactly one clip", name);
        const cJSON *k = cJSON_GetArrayItem(clips, 0);
        cr_assert_eq(ts_num(k, "clip"), want[seen].clip);
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(k, "stream")));
        cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(k, "skeleton")));
        const cJSON *first = cJSON_GetObjectItemCaseSensitive(k, "first_frame"), *m;
        int any = 0;
        cJSON_ArrayForEach(m, first) any |= cJSON_IsNumber(m);
        cr_assert(any, "%s clip %d: no mode decodes another pose", name, want[seen].clip);
        const cJSON *origin = cJSON_GetObjectItemCaseSensitive(f, "origin");
        cr_assert(strstr(cJSON_GetArrayItem(origin, 0)->valuestring, "2013"));
        cr_assert(strstr(cJSON_GetArrayItem(origin, 1)->valuestring, "remaster"));
        seen++;
    }
    cr_assert_eq(seen, 2);
    cJSON_Delete(doc);
    ts_out_free(&o);
    size_t n;
    char *page = ts_read(html, &n);
    cr_assert(strstr(page, "<section id=\"corpus-diff\">") && strstr(page, "c0m002.dat") &&
              strstr(page, "clip 3"));
    free(page);

    /* The text view, a file only on one side, and usage errors. */
    char *gone = ts_path(changed, "c0m003.dat");
    remove(gone);
    ts_cli(scratch, &o, "corpus diff '%s' '%s'", folder, changed);
    cr_assert_eq(o.status, 1);
    cr_assert(strstr(o.out, "c0m003.dat: only in A"), "%s", o.out);
    cr_assert(strstr(o.out, "c0m002.dat: sections 2; 1 clips changed"), "%s", o.out);
    cr_assert(strstr(o.out, "  clip 3: stream changed; first differing frame: "), "%s", o.out);
    ts_out_free(&o);
    ts_cli(scratch, &o, "corpus diff '%s'", folder);
    cr_assert_eq(o.status, 2);
    ts_out_free(&o);
    ts_cli(scratch, &o, "corpus diff '%s' '%s/nothing'", folder, scratch);
    cr_assert_eq(o.status, 2);
    ts_out_free(&o);
    free(gone);
    free(html);
    free(rem2);
    free(changed);
    free(old);
    free(rem);
}

/* A skeleton byte changed: every clip of the file, skeleton changed, from frame 0 in every mode. */
Test(remaster, corpus_diff_skeleton_change_marks_every_clip, .init = setup, .fini = teardown,
     .timeout = 120)
{
    char *changed = ts_path(scratch, "changed"), *path = ts_path(changed, "c0m002.dat");
    ts_copy_dir(folder, changed);
    size_t size;
    uint8_t *data = (uint8_t *)ts_read(path, &size);
    dat_file d;
    ff_error err;
    TS_OK(dat_parse(data, size, "c0m002.dat", &d, &err), &err);
    data[d.skel_off + DAT_SKEL_HEADER + 48 + 2] ^= 0x11; /* bone 1, inside its record */
    ts_write(path, data, size);
    ts_out o;
    ts_cli(scratch, &o, "corpus diff '%s' '%s' --json", folder, changed);
    cr_assert_eq(o.status, 1, "%s", o.err);
    cJSON *doc = cJSON_Parse(o.out);
    cr_assert(doc);
    cr_assert_eq(ts_num(doc, "totals.differ"), 1);
    cr_assert_eq(ts_num(doc, "totals.clips_changed"), d.clips);
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(doc, "files"))
    {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(f, "status")->valuestring, "differ")) continue;
        const cJSON *k, *m;
        cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(f, "clips"))
        {
            cr_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(k, "skeleton")));
            cr_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(k, "stream")));
            cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(k, "first_frame"))
                cr_assert(cJSON_IsNumber(m) && m->valuedouble == 0, "clip %d %s",
                          (int)ts_num(k, "clip"), m->string);
        }
    }
    cJSON_Delete(doc);
    ts_out_free(&o);
    free(data);
    free(path);
    free(changed);
}
