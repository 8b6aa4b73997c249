/*
 * tests/regress/test_regress_frames.c: outside decoders that write the
 * frames format (poses, no engine memory), checked in one command against
 * golden traces of the small synthetic corpus in all four modes:
 *
 * - two viewer-style decoders kept as fixtures (tests/regress/decoders/),
 *   each with one planted difference: unbounded integers, or 1.0 for the
 *   scales of frames without scale data. Each must come back as exactly
 *   one group, with no bad input, the modes it lacks said once;
 * - the wrap clip of the corpus (found from the generator's recipe, not
 *   from the report) diverges where the recipe says its root passes 32767;
 * - a malformed frame line is bad input for its own clip only;
 * - the examples' decoders (examples/frames_give_up.py, frames_no_scale.py):
 *   a decoder that gives up on clips (its "error" line) leaves them not
 *   decoded with how far it got, counted from its own file, exit 1, no bad
 *   input; a clip or a whole file missing is not decoded too; a decoder
 *   that drops scales passes on what it supplies and every output says
 *   scales were not compared, on how many clips the game's scales move
 *   (the corpus manifest's scale_clips); --require scale fails those clips;
 * - docs/guide.md's worked example runs exactly as written and prints what
 *   the guide says it prints.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "tests/support/ts.h"

typedef struct scratch {
    char *dir, *corpus;
} scratch;

static scratch s;

static void setup(void)
{
    s.dir = ts_tempdir();
    s.corpus = ts_corpus(s.dir);
    ts_out o;
    ts_cli(s.dir, &o, "record -q --corpus '%s' --out '%s/golden'", s.corpus, s.dir);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
}

static void teardown(void)
{
    free(s.corpus);
    ts_rmtree(s.dir);
}

TestSuite(frames, .init = setup, .fini = teardown);

/* Runs a fixture decoder into <dir>/<out> and checks it; returns report.json (exit in *rc). */
static cJSON *check_decoder(const char *decoder, const char *out, int *rc, char **err)
{
    char rel[128];
    snprintf(rel, sizeof rel, "tests/regress/decoders/%s", decoder);
    char *script = ts_source(rel), *examples = ts_source("examples");
    ts_out o;
    ts_sh(s.dir, &o, "'%s' '%s' '%s' '%s/%s' '%s'/*.dat", ts_python(), script, examples, s.dir,
          out, s.corpus);
    cr_assert_eq(o.status, 0, "%s: %s", decoder, o.err);
    ts_out_free(&o);
    ts_cli(s.dir, &o, "check -q --traces '%s/golden' --against '%s/%s' --out '%s/rep-%s'",
           s.dir, s.dir, out, s.dir, out);
    *rc = o.status;
    if (err) *err = strdup(o.err);
    char sub[64];
    snprintf(sub, sizeof sub, "rep-%s", out);
    char *rep = ts_path(s.dir, sub);
    cJSON *r = ts_report(rep);
    free(rep);
    ts_out_free(&o);
    free(script);
    free(examples);
    return r;
}

static const char *str_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    cr_assert(cJSON_IsString(v), "\"%s\" is not a string", key);
    return v->valuestring;
}

/* One group of the given signature holding every mismatch; the modes note; the sides. */
static void expect_one_group(const cJSON *r, const char *field, const char *shape)
{
    const cJSON *groups = cJSON_GetObjectItem(r, "groups");
    cr_assert_eq(cJSON_GetArraySize(groups), 1, "one group, not %d",
                 cJSON_GetArraySize(groups));
    const cJSON *g = cJSON_GetArrayItem(groups, 0);
    cr_assert_str_eq(str_at(g, "field"), field);
    cr_assert_str_eq(str_at(g, "shape"), shape);
    cr_assert_str_eq(str_at(g, "mode"), "normal");
    cr_assert_gt(ts_num(r, "totals.mismatch"), 0);
    cr_assert_eq(ts_num(g, "count"), ts_num(r, "totals.mismatch"));
    cr_assert_eq(ts_num(r, "totals.bad_input"), 0, "no collateral bad input");
    const cJSON *run = cJSON_GetObjectItem(r, "run");
    const cJSON *notes = cJSON_GetObjectItem(run, "notes");
    cr_assert_eq(cJSON_GetArraySize(notes), 1);
    cr_assert_str_eq(cJSON_GetArrayItem(notes, 0)->valuestring,
                     "no traces for slow, fast, slow+fast: compared normal only");
    const cJSON *sides = cJSON_GetObjectItem(run, "sides");
    const cJSON *cand = cJSON_GetObjectItem(sides, "candidate");
    cr_assert_str_eq(str_at(cand, "label"), "candidate");
    cr_assert_str_eq(str_at(cand, "format"), "frames");
    cr_assert_str_eq(str_at(cJSON_GetObjectItem(sides, "authority"), "label"), "golden");
}

/* The small preset's file and clip of kind SYNTH_CLIP_WRAP, from the generator's recipe. */
static void wrap_clip(char *file, size_t n, int *clip)
{
    synth_plan *p;
    ff_error err;
    cr_assert_eq(synth_plan_make(SYNTH_SMALL, 1, &p, &err), 0, "%s", err.reason);
    *clip = -1;
    for (size_t i = 0; i < synth_plan_count(p) && *clip < 0; i++) {
        const synth_file_spec *f = synth_plan_spec(p, i);
        for (unsigned c = 0; f->clip && c < f->nclips && *clip < 0; c++)
            if (f->clip[c].kind == SYNTH_CLIP_WRAP) {
                snprintf(file, n, "%s", synth_plan_name(p, i));
                *clip = (int)c;
            }
    }
    synth_plan_free(p);
    cr_assert_geq(*clip, 0, "the small preset has a wrap clip");
}

Test(frames, unbounded_integers_are_one_wrap_group)
{
    int rc;
    cJSON *r = check_decoder("viewer_wide.py", "wide", &rc, NULL);
    cr_assert_eq(rc, 1, "mismatches exit 1");
    expect_one_group(r, "*", "missing_16bit_wrap");
    /* The wrap clip's root x is 30000 per frame: 60000 after frame 1, -5536 in 16 bits. */
    char file[64];
    int clip;
    wrap_clip(file, sizeof file, &clip);
    const cJSON *res = ts_result(r, file, clip, "normal");
    cr_assert_str_eq(str_at(res, "status"), "mismatch");
    const cJSON *d = cJSON_GetObjectItem(res, "divergence");
    cr_assert_eq(ts_num(d, "tick"), 1);
    cr_assert_str_eq(str_at(d, "field"), "root.x");
    cr_assert_eq(ts_num(d, "ref"), 60000);
    cr_assert_eq(ts_num(d, "orig"), -5536);
    cJSON_Delete(r);
}

Test(frames, a_neutral_scale_is_one_group)
{
    int rc;
    cJSON *r = check_decoder("viewer_neutral.py", "neutral", &rc, NULL);
    cr_assert_eq(rc, 1);
    expect_one_group(r, "scale.*", "neutral_scale");
    cJSON_Delete(r);
}

/* Damages one frame line of one clip: that clip is bad input naming the line, the others read on. */
Test(frames, a_malformed_frame_spoils_its_clip_only)
{
    int rc;
    cJSON *clean = check_decoder("viewer_neutral.py", "neutral", &rc, NULL);
    char *path = ts_path(s.dir, "neutral/c0m001.dat.frames.jsonl");
    size_t n;
    char **lines = ts_lines(path, &n);
    size_t at = 0;
    while (at < n && !strstr(lines[at], "\"anim\":1,\"frame\":1,")) at++;
    cr_assert_lt(at, n, "clip 1 has a frame 1");
    lines[at][strlen(lines[at]) / 2] = '\0';
    ts_put_lines(path, lines, n); /* frees the lines */
    free(path);
    ts_out o;
    ts_cli(s.dir, &o, "check -q --traces '%s/golden' --against '%s/neutral' --out '%s/rep-bad'",
           s.dir, s.dir, s.dir);
    char *rep = ts_path(s.dir, "rep-bad");
    cJSON *r = ts_report(rep);
    const cJSON *bad = ts_result(r, "c0m001.dat", 1, "normal");
    cr_assert_str_eq(str_at(bad, "status"), "bad_input");
    char want[64];
    snprintf(want, sizeof want, "line %zu: not valid JSON", at + 1);
    cr_assert(strstr(str_at(cJSON_GetObjectItem(bad, "error"), "message"), want), "%s",
              str_at(cJSON_GetObjectItem(bad, "error"), "message"));
    cr_assert_eq(ts_num(r, "totals.bad_input"), 1);
    cr_assert_eq(ts_num(bad, "ticks_ref"), 0, "a bad clip counts no ticks");
    /* Every other clip has the status it had before the damage. */
    const cJSON *a, *b;
    size_t k = 0;
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(clean, "results"))
    {
        b = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "results"), (int)k++);
        if (b == bad) continue;
        cr_assert_str_eq(str_at(a, "status"), str_at(b, "status"), "result %zu", k - 1);
    }
    const cJSON *was = ts_result(clean, "c0m001.dat", 1, "normal");
    cr_assert_eq(ts_num(r, "totals.ticks_ref"),
                 ts_num(clean, "totals.ticks_ref") - ts_num(was, "ticks_ref"),
                 "the totals lose that clip's ticks only");
    ts_out_free(&o);
    free(rep);
    cJSON_Delete(r);
    cJSON_Delete(clean);
}

/* The lines of the first ``` block after `after` in text (malloc'd, NUL-joined by '\n'). */
static char *block_after(const char *text, const char *after)
{
    const char *p = strstr(text, after);
    cr_assert(p, "the guide has no \"%s\"", after);
    p = strstr(p, "```");
    cr_assert(p);
    p = strchr(p, '\n') + 1;
    const char *end = strstr(p, "```");
    cr_assert(end);
    return strndup(p, (size_t)(end - p));
}

Test(frames, the_guides_worked_example_runs_as_written)
{
    char *guide_path = ts_source("docs/guide.md"), *src = ts_source("");
    char *guide = ts_read(guide_path, NULL);
    char *script = block_after(guide, "<!-- guide-example:begin -->");
    char *printed = block_after(guide, "`check` exits 1 and prints:");
    char *file = ts_path(s.dir, "example.sh");
    ts_write(file, script, strlen(script));
    ts_out o;
    /* From the source folder, with this build's ff8diff as $ff and the suites' python3
     * first in PATH (tests/CMakeLists.txt: a version manager's shim costs half a second of
     * CPU a start). */
    char path[4200] = "", *py = strdup(ts_python()), *slash = strrchr(py, '/');
    if (slash) {
        *slash = '\0';
        snprintf(path, sizeof path, "PATH='%s':\"$PATH\" ", py);
    }
    ts_sh(s.dir, &o, "cd '%s' && %sTMPDIR='%s' ff='%s' bash -e '%s'", src, path, s.dir,
          ts_ff8diff(), file);
    free(py);
    cr_assert_eq(o.status, 1, "the example's check exits 1: %s", o.err);
    char both[65536];
    snprintf(both, sizeof both, "%s%s", o.err, o.out);
    for (char *save, *line = strtok_r(printed, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save))
        cr_assert(strstr(both, line), "the guide says it prints '%s'; it printed:\n%s", line,
                  both);
    ts_out_free(&o);
    free(file);
    free(printed);
    free(script);
    free(guide);
    free(src);
    free(guide_path);
}

/* ---- the examples' decoders ---- */

/* Runs examples/<script> into <dir>/<out>, then check with extra options; report.json. */
static cJSON *check_example(const char *script, const char *out, const char *extra, int *rc,
                            char **stdout_text)
{
    char rel[128];
    snprintf(rel, sizeof rel, "examples/%s", script);
    char *py = ts_source(rel);
    ts_out o;
    ts_sh(s.dir, &o, "'%s' '%s' '%s/%s' '%s'/*.dat", ts_python(), py, s.dir, out, s.corpus);
    cr_assert_eq(o.status, 0, "%s: %s", script, o.err);
    ts_out_free(&o);
    ts_cli(s.dir, &o, "check -q --traces '%s/golden' --against '%s/%s' %s --out '%s/rep-%s'",
           s.dir, s.dir, out, extra, s.dir, out);
    *rc = o.status;
    if (stdout_text) *stdout_text = strdup(o.out);
    char sub[64];
    snprintf(sub, sizeof sub, "rep-%s", out);
    char *rep = ts_path(s.dir, sub);
    cJSON *r = ts_report(rep);
    /* Every report validates against the schema. */
    char *last = ts_run_file(rep, "report.json");
    ts_assert_valid(s.dir, last);
    free(last);
    free(rep);
    free(py);
    ts_out_free(&o);
    return r;
}

/* A decoder's own file read independently: frames and "error" line of (file, anim). */
static size_t frames_in(const char *dir, const char *file, int anim, char *stop, size_t n)
{
    char rel[512];
    snprintf(rel, sizeof rel, "%s.frames.jsonl", file);
    char *path = ts_path(dir, rel);
    size_t nl, frames = 0;
    char **lines = ts_lines(path, &nl);
    stop[0] = '\0';
    for (size_t i = 0; i < nl; i++) {
        cJSON *o = cJSON_Parse(lines[i]);
        cr_assert(o, "%s line %zu is not JSON", path, i + 1);
        if (cJSON_GetObjectItem(o, "anim")->valueint == anim) {
            const cJSON *e = cJSON_GetObjectItem(o, "error");
            if (e) snprintf(stop, n, "%s", e->valuestring);
            else frames++;
        }
        cJSON_Delete(o);
        free(lines[i]);
    }
    free(lines);
    free(path);
    return frames;
}

Test(frames, a_decoder_that_gives_up_leaves_clips_not_decoded)
{
    int rc;
    char *out;
    cJSON *r = check_example("frames_give_up.py", "giveup", "", &rc, &out);
    cr_assert_eq(rc, 1, "clips not decoded exit 1 (not 2: the traces are readable)");
    cr_assert_str_eq(str_at(cJSON_GetObjectItem(r, "verdict"), "reason"), "differences");
    cr_assert_eq(ts_num(r, "totals.bad_input"), 0, "not bad input");
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    char *dir = ts_path(s.dir, "giveup");
    const cJSON *res;
    unsigned stopped = 0, at_zero = 0, midway = 0;
    cJSON_ArrayForEach(res, cJSON_GetObjectItem(r, "results"))
    {
        const char *file = str_at(res, "file");
        int clip = (int)ts_num(res, "clip");
        char stop[512];
        size_t frames = frames_in(dir, file, clip, stop, sizeof stop);
        const cJSON *nd = cJSON_GetObjectItem(res, "not_decoded");
        if (!stop[0]) {
            cr_assert_str_eq(str_at(res, "status"), "match", "%s anim %d", file, clip);
            cr_assert(cJSON_IsNull(cJSON_GetObjectItem(res, "decoder_error")));
            continue;
        }
        stopped++;
        cr_assert_str_eq(str_at(res, "status"), "not_decoded", "%s anim %d", file, clip);
        cr_assert_eq(ts_num(nd, "supplied"), frames, "%s anim %d: frames in its file", file, clip);
        cr_assert_eq(ts_num(nd, "expected"), ts_num(res, "frames"),
                     "%s anim %d: expected the clip's frame count", file, clip);
        cr_assert_lt(ts_num(nd, "supplied"), ts_num(nd, "expected"));
        cr_assert_str_eq(str_at(nd, "unit"), "frames");
        cr_assert_str_eq(str_at(res, "decoder_error"), stop, "%s anim %d", file, clip);
        at_zero += frames == 0;
        midway += frames > 0;
    }
    cr_assert(at_zero > 0 && midway > 0, "the corpus has clips given up at once (%u) and midway (%u)",
              at_zero, midway);
    cr_assert_eq(ts_num(r, "totals.not_decoded"), stopped);
    char want[64];
    snprintf(want, sizeof want, ", %u not decoded, 0 bad input", stopped);
    cr_assert(strstr(out, want), "the summary line: %s", out);
    free(out);
    free(dir);
    cJSON_Delete(r);
}

Test(frames, a_clip_or_file_missing_is_not_decoded)
{
    int rc;
    cJSON *clean = check_example("frames_no_scale.py", "gaps", "", &rc, NULL);
    cr_assert_eq(rc, 0);
    /* Drop clip 1's lines of c0m001.dat and the whole of c0m002.dat's file. */
    char *path = ts_path(s.dir, "gaps/c0m001.dat.frames.jsonl");
    size_t n, kept = 0;
    char **lines = ts_lines(path, &n);
    for (size_t i = 0; i < n; i++) {
        if (strstr(lines[i], "\"anim\":1,")) free(lines[i]);
        else lines[kept++] = lines[i];
    }
    cr_assert_lt(kept, n, "c0m001.dat has a clip 1");
    ts_put_lines(path, lines, kept);
    free(path);
    path = ts_path(s.dir, "gaps/c0m002.dat.frames.jsonl");
    cr_assert_eq(remove(path), 0);
    free(path);
    ts_out o;
    ts_cli(s.dir, &o, "check -q --traces '%s/golden' --against '%s/gaps' --out '%s/rep-gaps2'",
           s.dir, s.dir, s.dir);
    cr_assert_eq(o.status, 1, "exit %d: %s", o.status, o.err);
    ts_out_free(&o);
    char *rep = ts_path(s.dir, "rep-gaps2");
    cJSON *r = ts_report(rep);
    free(rep);
    cr_assert_eq(ts_num(r, "totals.bad_input"), 0, "missing is not unreadable");
    const cJSON *gone = ts_result(r, "c0m001.dat", 1, "normal");
    cr_assert_str_eq(str_at(gone, "status"), "not_decoded");
    cr_assert_eq(ts_num(cJSON_GetObjectItem(gone, "not_decoded"), "supplied"), 0);
    cr_assert(strstr(str_at(cJSON_GetObjectItem(gone, "error"), "message"), "no trace for anim 1"),
              "%s", str_at(cJSON_GetObjectItem(gone, "error"), "message"));
    unsigned file_gone = 0, total = 0;
    const cJSON *res;
    cJSON_ArrayForEach(res, cJSON_GetObjectItem(r, "results"))
    {
        total++;
        if (strcmp(str_at(res, "file"), "c0m002.dat") != 0) continue;
        file_gone++;
        cr_assert_str_eq(str_at(res, "status"), "not_decoded");
        cr_assert(strstr(str_at(cJSON_GetObjectItem(res, "error"), "message"), "no trace file"));
    }
    cr_assert_gt(file_gone, 0);
    cr_assert_eq(ts_num(r, "totals.not_decoded"), file_gone + 1);
    cr_assert_eq(ts_num(r, "totals.match"), total - file_gone - 1, "the others still match");
    cJSON_Delete(r);
    cJSON_Delete(clean);
}

/* totals.fields' entry of a class. */
static const cJSON *class_totals(const cJSON *r, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(cJSON_GetObjectItem(r, "totals"), "fields"))
    {
        if (strcmp(str_at(e, "class"), name) == 0) return e;
    }
    cr_assert_fail("no class %s in totals.fields", name);
    return NULL;
}

Test(frames, a_decoder_without_scales_passes_and_says_so)
{
    int rc;
    char *out;
    cJSON *r = check_example("frames_no_scale.py", "noscale", "", &rc, &out);
    cr_assert_eq(rc, 0, "everything it supplies matches");
    unsigned clips = (unsigned)ts_num(r, "totals.comparisons"), frames = 0, scale_clips = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(r, "results")) frames += (unsigned)ts_num(e, "frames");
    /* The clips with scale data, as the corpus reader counts them in each file's header. */
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(r, "manifest"))
        scale_clips += (unsigned)ts_num(e, "scale_clips");
    cr_assert_gt(scale_clips, 0, "the small corpus has clips with scale data");
    const cJSON *scale = class_totals(r, "scale"), *rot = class_totals(r, "rot");
    cr_assert_eq(ts_num(scale, "clips"), 0);
    cr_assert_eq(ts_num(scale, "ticks"), 0);
    cr_assert_eq(ts_num(scale, "not_supplied_clips"), clips);
    cr_assert_eq(ts_num(scale, "not_supplied_ticks"), frames);
    cr_assert_eq(ts_num(scale, "moving_clips"), scale_clips);
    cr_assert_eq(ts_num(rot, "clips"), clips);
    cr_assert_eq(ts_num(rot, "ticks"), frames);
    cr_assert_eq(ts_num(rot, "not_supplied_clips"), 0);
    char want[256];
    snprintf(want, sizeof want,
             "  scale: compared on 0 clips, 0 frames; not supplied on %u clips (%u frames) where "
             "the golden side has it; %u of them carry scale data: the golden poses differ there "
             "and were not checked\n",
             clips, frames, scale_clips);
    cr_assert(strstr(out, want), "the terminal says %s; it printed:\n%s", want, out);
    cr_assert(strstr(out, "never compared: cmd, mat, build_ret, ret, world, placed"), "%s", out);
    /* The PASS line itself says what it did not look at. */
    snprintf(want, sizeof want, "PASS: %u comparisons: %u match, 0 mismatch, 0 fault, 0 bad input; "
             "not compared: scale (%u clips carry it)", clips, clips, scale_clips);
    cr_assert(strstr(out, want), "the summary line: %s", out);
    free(out);
    /* --require scale: the same frames fail, every clip not decoded, scale named. */
    cJSON *q = check_example("frames_no_scale.py", "noscale-req", "--require scale", &rc, &out);
    cr_assert_eq(rc, 1);
    cr_assert_eq(ts_num(q, "totals.not_decoded"), clips);
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(q, "results"))
    {
        const cJSON *nd = cJSON_GetObjectItem(e, "not_decoded");
        cr_assert_eq(ts_num(nd, "supplied"), ts_num(nd, "expected"), "every frame given");
        cr_assert_str_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(nd, "missing"), 0)->valuestring,
                         "scale");
    }
    cr_assert(strstr(out, "were not checked (required)"), "%s", out);
    free(out);
    ts_out o;
    ts_cli(s.dir, &o, "check -q --traces '%s/golden' --against '%s/noscale' --require scales",
           s.dir, s.dir);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "no field class \"scales\""), "%s", o.err);
    ts_out_free(&o);
    cJSON_Delete(q);
    cJSON_Delete(r);
}
