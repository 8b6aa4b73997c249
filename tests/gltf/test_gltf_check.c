/*
 * tests/gltf/test_gltf_check.c: `check-gltf` on viewer-like exports made
 * from ff8diff's own (tests/gltf/reexpress.py): Y and Z swapped with Z
 * mirrored, positions / 204.8, joints renamed and reordered. It must find
 * exactly that mapping with 0 departures, and say how each joint and clip
 * was matched (report.json, terminal, HTML); with one joint of one clip
 * moved from one frame on, exactly that clip, frame and joint; a truncated
 * or hostile file is a clear error and nothing else; an export stretched
 * along one axis is refused, its report naming the best mapping tried,
 * its error per bone and per clip and the overlay at its worst frame.
 *
 * The executable's own convention: stand-in variants built under
 * conventions other than the defaults (root=none; 64-bit sums) export the
 * reference's poses (`export --source reference`) under the convention a
 * search on them finds, name it and its source on the terminal and in the
 * file's asset.extras, and check-gltf then accepts that export, taking the
 * search's result remembered in the results cache (and so does `decode
 * --pose --exe`), its report naming the convention and that source
 * (report.json's pose_convention, summary.md, index.html), or the search
 * it ran itself without the cache; the same export under the defaults is
 * refused.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/gltf/tg.h"
#include "tests/support/ts.h"

/* Exports the small corpus; returns the .glb folder. */
/* How far the refused export is stretched along one axis. */
#define STRETCH "3"

/* check-gltf's report.json at path validates against its schema. */
static void valid_check_report(const char *dir, const char *path)
{
    char *quoted = ts_quote(path);
    ts_assert_schema(dir, "reports/schema/gltf-check.schema.json", quoted);
    free(quoted);
}

static char *export_corpus(const char *dir, const char *corpus)
{
    char *out = ts_path(dir, "glb");
    ts_out o;
    ts_cli(dir, &o, "export --corpus %s --out %s -q", corpus, out);
    cr_assert_eq(o.status, 0, "export: %s", o.err);
    ts_out_free(&o);
    return out;
}

static void reexpress(const char *dir, const char *in, const char *out, const char *extra,
                      char **names)
{
    char *py = ts_source("tests/gltf/reexpress.py");
    ts_out o;
    ts_sh(dir, &o, "%s %s %s %s --axes x,z,-y --scale 204.8 --seed 7 %s", ts_python(), py, in,
           out, extra);
    cr_assert_eq(o.status, 0, "reexpress.py: %s", o.err);
    *names = o.out;
    free(o.err);
    free(py);
}

Test(check_gltf, recovers_a_known_mapping_and_a_planted_departure, .timeout = 600)
{
    /* A plain model: its export keeps the skeleton's hierarchy (a scale-path one places
     * joints by their world transforms, and renamed joints of a flat tree cannot be
     * recovered: test_gltf_layout covers those). */
    char *dir = ts_tempdir(), *corpus = tg_plain_monster(dir), *glb = export_corpus(dir, corpus);
    char in[4200], v1[4200], v2[4200], dat[4200], rep[4200];
    snprintf(in, sizeof in, "%s/plain.glb", glb);
    snprintf(dat, sizeof dat, "%s/plain.dat", corpus);
    snprintf(v1, sizeof v1, "%s/viewer.glb", dir);
    char *names;
    reexpress(dir, in, v1, "", &names);
    cJSON *ren = cJSON_Parse(names);
    cr_assert(ren, "renaming: %s", names);
    ts_out o;
    snprintf(rep, sizeof rep, "%s/rep1", dir);
    ts_cli(dir, &o, "check-gltf %s --dat %s --out %s", v1, dat, rep);
    cr_assert_eq(o.status, 0, "check-gltf: %d\n%s\n%s", o.status, o.out, o.err);
    char *jp = ts_path(rep, "report.json");
    cJSON *j = ts_json(jp);
    const cJSON *c = cJSON_GetObjectItem(j, "correspondence");
    /* How each was matched: the joints renamed (by hierarchy), the animations' names kept. */
    const cJSON *tot = cJSON_GetObjectItem(j, "totals");
    int bones = cJSON_GetObjectItem(tot, "bones")->valueint;
    int nclips = cJSON_GetObjectItem(tot, "clips")->valueint;
    cr_assert_eq(cJSON_GetObjectItem(tot, "joints_by_hierarchy")->valueint, bones);
    cr_assert_eq(cJSON_GetObjectItem(tot, "clips_by_name")->valueint, nclips);
    cr_assert_eq(cJSON_GetObjectItem(tot, "clips_in_fit")->valueint, nclips);
    char line[160];
    snprintf(line, sizeof line,
             "matched: joints 0 by name, %d by hierarchy, 0 not at all; clips %d by name, 0 by "
             "motion, 0 not at all\n",
             bones, nclips);
    cr_assert(strstr(o.out, line), "no '%s' on the terminal:\n%s", line, o.out);
    ts_out_free(&o);
    const cJSON *jm = cJSON_GetObjectItem(c, "joint_matches"), *m;
    cr_assert_eq(cJSON_GetArraySize(jm), bones);
    cJSON_ArrayForEach(m, jm)
    {
        cr_assert_str_eq(cJSON_GetObjectItem(m, "by")->valuestring, "hierarchy");
    }
    char *hp = ts_path(rep, "index.html"), *hh = ts_read(hp, NULL);
    cr_assert_eq(ts_count(hh, "<tr id=\"bone-"), (size_t)bones, "one row per joint in the HTML");
    cr_assert(strstr(hh, "<style>*{box-sizing:border-box}"), "the run report's style");
    cr_assert(strstr(hh, "id=\"matched\""), "the HTML says nothing of how they were matched");
    free(hh);
    free(hp);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "verdict")->valuestring, "matches");
    cr_assert_str_eq(cJSON_GetObjectItem(c, "axes")->valuestring, "x=+x,y=-z,z=+y");
    cr_assert_float_eq(cJSON_GetObjectItem(c, "scale")->valuedouble, 204.8, 1e-3);
    cr_assert_float_eq(cJSON_GetObjectItem(c, "frames_per_second")->valuedouble, 15.0, 1e-3);
    const cJSON *joints = cJSON_GetObjectItem(c, "joints");
    for (int b = 0; b < cJSON_GetArraySize(joints); b++) {
        char old[32];
        snprintf(old, sizeof old, "bone_%03d", b);
        cr_assert_str_eq(cJSON_GetArrayItem(joints, b)->valuestring,
                         cJSON_GetObjectItem(ren, old)->valuestring, "bone %d", b);
    }
    const cJSON *clips = cJSON_GetObjectItem(j, "clips"), *cl;
    cJSON_ArrayForEach(cl, clips)
    {
        cr_assert(cJSON_IsString(cJSON_GetObjectItem(cl, "animation")), "clip unmatched");
        cr_assert_str_eq(cJSON_GetObjectItem(cl, "matched_by")->valuestring, "name");
        cr_assert(!cJSON_GetObjectItem(cl, "first_departure"), "a departure without cause");
    }
    valid_check_report(dir, jp);
    cJSON_Delete(j);
    free(jp);

    /* One joint of clip 1 moved from keyframe 3 on. */
    snprintf(v2, sizeof v2, "%s/viewer2.glb", dir);
    char *n2;
    reexpress(dir, in, v2, "--perturb clip_001 bone_005 3 0.5", &n2);
    free(n2);
    snprintf(rep, sizeof rep, "%s/rep2", dir);
    ts_cli(dir, &o, "check-gltf %s --dat %s --out %s", v2, dat, rep);
    cr_assert_eq(o.status, 1, "check-gltf: %d\n%s\n%s", o.status, o.out, o.err);
    cr_assert(strstr(o.out, "clip 1: departs at frame 3, bone 5:"), "%s", o.out);
    cr_assert_eq(ts_count(o.out, "departs at"), 1, "%s", o.out);
    ts_out_free(&o);
    char *html = ts_path(rep, "index.html"), *h = ts_read(html, NULL);
    cr_assert(h && strstr(h, "class=\"skeleton\"") && strstr(h, "class=\"plot\""), "no pictures");
    cr_assert_eq(ts_count(h, "class=\"skeleton\""), 3, "three views");
    free(h);
    free(html);

    /* Truncated and hostile files. */
    size_t len;
    char *bytes = ts_read(v1, &len), *cut = ts_path(dir, "cut.glb"), *junk = ts_path(dir, "junk.glb");
    ts_write(cut, bytes, len / 3);
    ts_write(junk, "glTF\x02\x00\x00\x00\xff\xff\xff\x7f{\"asset\":", 21);
    const char *bad[2] = {cut, junk};
    for (int i = 0; i < 2; i++) {
        ts_cli(dir, &o, "check-gltf %s --dat %s --out %s/rep3", bad[i], dat, dir);
        cr_assert_eq(o.status, 2, "%s: exit %d\n%s", bad[i], o.status, o.err);
        cr_assert(strstr(o.err, "ff8diff:") && strstr(o.err, bad[i]), "no clear error: %s", o.err);
        cr_assert_eq(o.out[0], 0, "output beside the error: %s", o.out);
        ts_out_free(&o);
    }
    free(bytes);
    free(cut);
    free(junk);
    cJSON_Delete(ren);
    free(names);
    free(glb);
    free(corpus);
    ts_rmtree(dir);
}

/* asset.extras of the .glb at path (the caller deletes it). */
static cJSON *asset_extras(const char *path)
{
    size_t len;
    uint8_t *g = (uint8_t *)ts_read(path, &len);
    uint32_t jl;
    cr_assert(len > 20, "%s: too short", path);
    memcpy(&jl, g + 12, 4);
    cr_assert(20 + (size_t)jl <= len);
    cJSON *doc = cJSON_ParseWithLength((const char *)g + 20, jl);
    free(g);
    cr_assert(doc, "%s: JSON", path);
    cJSON *ex = cJSON_DetachItemFromObject(cJSON_GetObjectItem(doc, "asset"), "extras");
    cJSON_Delete(doc);
    cr_assert(ex, "%s: no asset.extras", path);
    return ex;
}

/*
 * check-gltf's report in rep names the convention (holding key) and its source (report.json's
 * pose_convention, valid against the schema; summary.md and index.html in words).
 */
static void report_names_convention(const char *dir, const char *rep, const char *source,
                                    const char *words, const char *key)
{
    char *jp = ts_path(rep, "report.json");
    cJSON *j = ts_json(jp);
    const cJSON *pc = cJSON_GetObjectItem(j, "pose_convention");
    cr_assert(pc, "%s: report.json names no convention", rep);
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(pc, "source")), source);
    cr_assert(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(pc, "convention")), key), "%s", rep);
    cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(pc, "source_text")), words);
    cJSON_Delete(j);
    valid_check_report(dir, jp);
    const char *pages[] = {"summary.md", "index.html"};
    for (int i = 0; i < 2; i++) {
        char *pp = ts_path(rep, pages[i]), *t = ts_read(pp, NULL);
        /* The words past their last apostrophe (which HTML escapes). */
        const char *tail = strrchr(words, '\'') ? strrchr(words, '\'') + 1 : words;
        cr_assert(t && strstr(t, "Convention from") && strstr(t, tail) && strstr(t, key),
                  "%s: the convention or its source not shown", pp);
        free(t);
        free(pp);
    }
    free(jp);
}

Test(check_gltf, accepts_an_export_under_the_executables_own_convention, .timeout = 600)
{
    char *dir = ts_tempdir(), *corpus = tg_plain_monster(dir), *cache = ts_path(dir, "cache");
    static const struct {
        const char *exe, *key; /* a variant, and the non-default choice its search must find */
    } variants[] = {{"standin_root_none.exe", "root=none"}, {"standin_width64.exe", "width-t=64"}};
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        char *exe = ts_standin(variants[i].exe), out[4200], glb[4300], dat[4200], rep[4200];
        snprintf(out, sizeof out, "%s/ref%zu", dir, i);
        snprintf(glb, sizeof glb, "%s/plain.glb", out);
        snprintf(dat, sizeof dat, "%s/plain.dat", corpus);
        snprintf(rep, sizeof rep, "%s/rep%zu", dir, i);
        ts_out o;
        ts_cli(dir, &o, "export --exe %s --source reference --corpus %s --out %s --cache-dir %s",
               exe, corpus, out, cache);
        cr_assert_eq(o.status, 0, "%s: export: %d\n%s", exe, o.status, o.err);
        cr_assert(strstr(o.err, "(searched on the original)") && strstr(o.err, variants[i].key),
                  "%s: the convention or its source not named:\n%s", exe, o.err);
        ts_out_free(&o);
        cJSON *ex = asset_extras(glb);
        const cJSON *pc = cJSON_GetObjectItem(ex, "pose_convention"),
                    *ps = cJSON_GetObjectItem(ex, "pose_convention_source");
        cr_assert(cJSON_IsString(pc) && strstr(pc->valuestring, variants[i].key), "%s", exe);
        cr_assert(cJSON_IsString(ps) && !strcmp(ps->valuestring, "searched on the original"),
                  "%s: the file does not say where its convention came from", exe);
        cJSON_Delete(ex);
        /* check-gltf takes what the search found, remembered in the results cache. */
        ts_cli(dir, &o, "check-gltf %s --dat %s --exe %s --cache-dir %s --out %s", glb, dat, exe,
               cache, rep);
        cr_assert_eq(o.status, 0, "%s: check-gltf refuses its own export: %d\n%s\n%s", exe,
                     o.status, o.out, o.err);
        cr_assert(strstr(o.err, "remembered in the results cache") && strstr(o.err, variants[i].key),
                  "%s: check-gltf's convention not named:\n%s", exe, o.err);
        ts_out_free(&o);
        report_names_convention(dir, rep, "cache",
                                "the search's result for this executable, remembered in the "
                                "results cache",
                                variants[i].key);
        ts_cli(dir, &o, "decode %s --anim 0 --pose --exe %s --cache-dir %s", dat, exe, cache);
        cr_assert_eq(o.status, 0, "%s: decode: %s", exe, o.err);
        cr_assert(strstr(o.err, "remembered in the results cache") && strstr(o.err, variants[i].key),
                  "%s: decode's convention not named:\n%s", exe, o.err);
        ts_out_free(&o);
        /* Without the cache, check-gltf searches itself and finds the same. */
        ts_cli(dir, &o, "check-gltf %s --dat %s --exe %s --no-cache --out %s", glb, dat, exe, rep);
        cr_assert_eq(o.status, 0, "%s: check-gltf --no-cache: %d\n%s", exe, o.status, o.err);
        cr_assert(strstr(o.err, "(searched on the original)") && strstr(o.err, variants[i].key),
                  "%s: %s", exe, o.err);
        ts_out_free(&o);
        report_names_convention(dir, rep, "search", "searched on the original", variants[i].key);
        free(exe);
    }
    /* The same variant's export under the defaults: check-gltf does not accept it. */
    char *exe = ts_standin("standin_root_none.exe"), glb[4300], dat[4200];
    snprintf(glb, sizeof glb, "%s/defaults/plain.glb", dir);
    snprintf(dat, sizeof dat, "%s/plain.dat", corpus);
    ts_out o;
    ts_cli(dir, &o, "export --exe %s --source reference --corpus %s --out %s/defaults "
                    "--pose-options order=xyz", exe, corpus, dir);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(strstr(o.err, "(given with --pose-options)"), "%s", o.err);
    ts_out_free(&o);
    ts_cli(dir, &o, "check-gltf %s --dat %s --exe %s --cache-dir %s --out %s/repd", glb, dat, exe,
           cache, dir);
    cr_assert_neq(o.status, 0, "an export under the defaults accepted:\n%s", o.out);
    ts_out_free(&o);
    free(exe);
    free(cache);
    free(corpus);
    ts_rmtree(dir);
}

Test(check_gltf, a_refusal_shows_the_best_mapping_tried, .timeout = 600)
{
    char *dir = ts_tempdir(), *corpus = tg_plain_monster(dir), *glb = export_corpus(dir, corpus);
    char in[4200], v1[4200], dat[4200], rep[4200];
    snprintf(in, sizeof in, "%s/plain.glb", glb);
    snprintf(dat, sizeof dat, "%s/plain.dat", corpus);
    snprintf(v1, sizeof v1, "%s/stretched.glb", dir);
    char *names;
    reexpress(dir, in, v1, "--stretch " STRETCH, &names);
    free(names);
    snprintf(rep, sizeof rep, "%s/rep", dir);
    ts_out o;
    ts_cli(dir, &o, "check-gltf %s --dat %s --out %s", v1, dat, rep);
    cr_assert_eq(o.status, 2, "a stretched export: exit %d\n%s\n%s", o.status, o.out, o.err);
    cr_assert(strstr(o.err, "no mapping fits") && strstr(o.err, rep), "%s", o.err);
    ts_out_free(&o);
    char *jp = ts_path(rep, "report.json");
    cJSON *j = ts_json(jp);
    cr_assert_str_eq(cJSON_GetObjectItem(j, "verdict")->valuestring, "refused");
    cr_assert(strstr(cJSON_GetObjectItem(j, "reason")->valuestring, "no axis convention and scale fits"),
              "%s", cJSON_GetObjectItem(j, "reason")->valuestring);
    const cJSON *c = cJSON_GetObjectItem(j, "correspondence");
    const char *axes = cJSON_GetObjectItem(c, "axes")->valuestring;
    int bones = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "totals"), "bones")->valueint;
    char *hp = ts_path(rep, "index.html"), *h = ts_read(hp, NULL);
    char *mp = ts_path(rep, "summary.md"), *m = ts_read(mp, NULL);
    cr_assert(h && m);
    /* The best mapping named (its axes, in both pages), its errors per bone and per clip. */
    cr_assert(strstr(h, "id=\"best\"") && strstr(h, "The best mapping tried"), "%s", h);
    cr_assert(strstr(h, axes) && strstr(m, axes), "axes %s not named", axes);
    cr_assert_eq(ts_count(h, "<tr id=\"bone-"), (size_t)bones, "an error per bone");
    cr_assert(strstr(m, "## Error per bone") && strstr(m, "## Error per clip"), "%s", m);
    const cJSON *cl;
    cJSON_ArrayForEach(cl, cJSON_GetObjectItem(j, "clips"))
    {
        char id[64];
        snprintf(id, sizeof id, "<tr id=\"clip-%d\">", cJSON_GetObjectItem(cl, "clip")->valueint);
        cr_assert(strstr(h, id), "no row %s", id);
        const cJSON *e = cJSON_GetObjectItem(cl, "max_error");
        cr_assert(e && e->valuedouble > 0, "clip without an error");
    }
    /* The overlay at its worst frame: three views, the worst bone circled. */
    cr_assert_eq(ts_count(h, "class=\"skeleton\""), 3, "the overlay's three views");
    cr_assert(strstr(h, "its worst frame"), "%s", h);
    cr_assert(strstr(h, "class=\"banner stop\""), "the refusal as a banner");
    free(h);
    free(m);
    free(hp);
    free(mp);
    cJSON_Delete(j);
    free(jp);
    free(glb);
    free(corpus);
    ts_rmtree(dir);
}
