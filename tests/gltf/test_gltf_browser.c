/*
 * tests/gltf/test_gltf_browser.c: an export loaded by three.js (npm three,
 * GLTFLoader) in headless Chromium. The page (three_pose.html) plays one
 * clip to one keyframe and writes every joint's world position into the
 * DOM; each must equal the engine's world position for that tick (the
 * original's bone matrix translation) within the export's own measured
 * position error for that clip plus float precision. The model is one whose
 * joints hang under their parents' un-scaling nodes (the scale path with
 * uneven scales), which three.js composes as the file's other nodes. A screenshot of the
 * page is kept under the build folder (tests/gltf/artifacts/three_pose.png).
 *
 * check-gltf's index.html for an export with one bone moved: laid out by
 * Chromium inside report_view.html, its three skeleton views must hold
 * both skeletons and the marked bone's circle on the game's joint, inside
 * its view, with the export's joint drawn elsewhere in at least one view;
 * the report's screenshot is kept (tests/gltf/artifacts/check_gltf_departure.png).
 *
 * Files are served by python3 -m http.server on 127.0.0.1 only. Chromium
 * is required: when it is missing the test fails, it never skips.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include "corpus/fileio.h"
#include "harness/gltf/export.h"
#include "harness/gltf/glb_write.h"
#include "harness/gltf/gpose.h"
#include "ref/dat.h"
#include "tests/emu/te.h"
#include "tests/gltf/tg.h"
#include "tests/support/ts.h"

#define CHROMIUM_FLAGS                                                                             \
    "--headless --no-sandbox --disable-gpu --disable-background-networking "                      \
    "--disable-component-update --disable-sync --no-first-run --hide-scrollbars "                  \
    "--virtual-time-budget=30000"

/*
 * Starts the file server on 127.0.0.1 for www and waits until it accepts a
 * connection (at most 60 s: a state, not a fixed sleep); returns its port,
 * *pid its process.
 */
static int serve(const char *scratch, const char *www, long *pid)
{
    for (int attempt = 0; attempt < 5; attempt++) {
        int port = 20000 + (int)((getpid() * 7 + attempt * 131) % 20000);
        ts_out o;
        ts_sh(scratch, &o,
              "true; { %s -m http.server %d --bind 127.0.0.1 --directory %s >%s/http.log 2>&1 & "
              "echo $!; %s -c 'import socket, time\n"
              "end = time.monotonic() + 60\n"
              "while True:\n"
              "    try: socket.create_connection((\"127.0.0.1\", %d), 2).close(); break\n"
              "    except OSError:\n"
              "        if time.monotonic() > end: raise\n"
              "        time.sleep(0.05)' 2>/dev/null && echo up; }",
              ts_python(), port, www, scratch, ts_python(), port);
        *pid = strtol(o.out, NULL, 10);
        int up = strstr(o.out, "up") != NULL;
        ts_out_free(&o);
        if (up && *pid > 0) return port;
        if (*pid > 0) kill((pid_t)*pid, 15);
    }
    cr_assert_fail("cannot start python3 -m http.server on 127.0.0.1");
    return -1;
}

/*
 * The first monster of the corpus whose export hangs some joint under its parent's
 * un-scaling node (a scale path with uneven scales), exported from the stand-in's poses:
 * its path, its scene, its .glb and stats.
 */
static char *export_unscaled(const emu_image *img, const ref_pose_opts *po, const char *corpus,
                             gpose_scene *s, uint8_t **glb, size_t *len, glb_stats *st)
{
    size_t n;
    char **names = ts_dat_names(corpus, &n), *found = NULL;
    ff_error err;
    for (size_t i = 0; i < n; i++) {
        char *p = ts_path(corpus, names[i]);
        size_t size;
        uint8_t *b = (uint8_t *)ts_read(p, &size);
        dat_file d;
        if (!found && dat_parse(b, size, p, &d, &err) == 0 && d.kind == DAT_MONSTER && d.bones > 3) {
            TS_OK(gexport_model_poses(img, ts_engine(), p, 1u << MODE_NORMAL, po, 0, s, &err), &err);
            glb_meta meta = {"original", NULL, NULL, NULL, NULL, 0, 0};
            TS_OK(glb_build(s, &meta, glb, len, st, &err), &err);
            if (st->unscaled_joints > 0 && st->world_joints == 0) {
                found = p;
                p = NULL;
            } else {
                free(*glb);
                glb_stats_free(st);
                gpose_scene_free(s);
            }
        }
        free(b);
        free(p);
        free(names[i]);
    }
    free(names);
    cr_assert(found, "no monster of the small corpus hangs joints under un-scaling nodes");
    return found;
}

Test(browser, three_js_poses_match_the_engine, .timeout = 600)
{
    char *dir = ts_tempdir(), *corpus = ts_corpus(dir), *www = ts_path(dir, "www");
    ff_error err;
    TS_OK(fio_mkdirs(www, &err), &err);
    emu_image *img = te_standin_image("standin.exe");
    ref_pose_opts po;
    ref_pose_opts_default(&po);
    gpose_scene s;
    uint8_t *glb;
    size_t len;
    glb_stats st;
    char *model = export_unscaled(img, &po, corpus, &s, &glb, &len, &st);
    /* The longest clip that is a clean TRS, at its middle keyframe. */
    size_t a = st.nanims;
    for (size_t i = 0; i < st.nanims; i++)
        if (st.anims[i].decomposition_error < 1e-3 &&
            (a == st.nanims || st.anims[i].frames > st.anims[a].frames))
            a = i;
    cr_assert_lt(a, st.nanims, "no clean clip in %s", s.name);
    size_t key = st.anims[a].frames / 2;
    const gpose_clip *clip = gpose_find(&s.model[0], st.anims[a].clip, MODE_NORMAL);
    char *glbp = ts_path(www, "model.glb"), *html = ts_source("tests/gltf/three_pose.html");
    ts_write(glbp, (const char *)glb, len);
    char *mods = getenv("FF8DIFF_NODE_MODULES");
    cr_assert(mods, "FF8DIFF_NODE_MODULES is not set (run through ctest)");
    ts_out o;
    ts_sh(dir, &o, "cp %s %s/index.html && ln -s %s %s/node_modules && test -f %s/three/package.json",
          html, www, mods, www, mods);
    cr_assert_eq(o.status, 0, "three.js is not installed in %s (scripts/setup.sh): %s", mods, o.err);
    ts_out_free(&o);
    long pid;
    int port = serve(dir, www, &pid);
    char anim[64], url[256];
    glb_anim_name(st.anims[a].clip, MODE_NORMAL, anim, sizeof anim);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/index.html?clip=%s&key=%zu", port, anim, key);
    const char *bin = getenv("FF8DIFF_BINARY_DIR");
    /* One Chromium start for the DOM and the screenshot (each start costs seconds). */
    ts_sh(dir, &o,
          "true; { mkdir -p %s/tests/gltf/artifacts && rm -f %s/tests/gltf/artifacts/three_pose.png"
          " && timeout 120 chromium " CHROMIUM_FLAGS " --user-data-dir=%s/p1 --window-size=700,900"
          " --dump-dom --screenshot=%s/tests/gltf/artifacts/three_pose.png '%s' 2>%s/dom.log; }",
          bin, bin, dir, bin, url, dir);
    kill((pid_t)pid, 15);
    cr_assert_eq(o.status, 0, "chromium: exit %d\n%.2000s", o.status, o.err);
    char *p = strstr(o.out, "<pre id=\"out\">"), *q = p ? strstr(p, "</pre>") : NULL;
    cr_assert(p && q, "no #out in the DOM:\n%.2000s", o.out);
    *q = 0;
    cJSON *j = cJSON_Parse(p + strlen("<pre id=\"out\">"));
    cr_assert(j, "#out is not JSON: %.500s", p);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(j, "ok")), "the page failed: %.500s", p);
    const cJSON *joints = cJSON_GetObjectItem(j, "joints");
    cr_assert_eq((unsigned)cJSON_GetArraySize(joints), s.model[0].bones);
    /* Float precision: the page samples at key / 15 s, a hair before the key's float time, so
     * three.js interpolates and rounds each channel to float32 again: an ulp or so of the
     * largest coordinate per node on the chain. */
    double mag = 0;
    for (unsigned b = 0; b < s.model[0].bones; b++)
        for (int k = 0; k < 3; k++) mag = fmax(mag, fabs((double)gpose_at(&s.model[0], clip, key, b)->t[k]));
    double tol = st.anims[a].position_error + 1e-3 + 8 * FLT_EPSILON * mag, worst = 0;
    for (unsigned b = 0; b < s.model[0].bones; b++) {
        char name[32];
        glb_joint_name(&s, 0, b, name, sizeof name);
        const cJSON *v = cJSON_GetObjectItem(joints, name);
        cr_assert(cJSON_GetArraySize(v) == 3, "%s missing", name);
        const ref_matrix *m = gpose_at(&s.model[0], clip, key, b);
        double e = 0;
        for (int k = 0; k < 3; k++) {
            double x = cJSON_GetArrayItem(v, k)->valuedouble - m->t[k];
            e += x * x;
        }
        e = sqrt(e);
        if (e > worst) worst = e;
        cr_assert_leq(e, tol, "%s, %s keyframe %zu: three.js is %g units from the engine (tol %g)",
                      name, anim, key, e, tol);
    }
    cr_log_info("three.js r%s: %u joints of %s, %s keyframe %zu, largest distance %g units",
                cJSON_GetObjectItem(j, "revision")->valuestring, s.model[0].bones, s.name, anim,
                key, worst);
    char *shot = ts_path(bin, "tests/gltf/artifacts/three_pose.png");
    size_t shot_len = 0;
    char *png = ts_read(shot, &shot_len);
    cr_assert(png && shot_len > 1000 && memcmp(png, "\x89PNG", 4) == 0, "no screenshot at %s", shot);
    free(png);
    free(shot);
    cJSON_Delete(j);
    ts_out_free(&o);
    free(glbp);
    free(html);
    free(glb);
    glb_stats_free(&st);
    gpose_scene_free(&s);
    emu_image_free(img);
    free(model);
    free(www);
    free(corpus);
    ts_rmtree(dir);
}

/* Chromium's DOM after report_view.html laid out the report: the #out JSON. The
 * screenshot, of that page (the report in its frame), in the same start. */
static cJSON *laid_out(const char *dir, const char *url, const char *shot)
{
    ts_out o;
    ts_sh(dir, &o,
          "true; { timeout 120 chromium " CHROMIUM_FLAGS " --user-data-dir=%s/q1 --dump-dom "
          "--window-size=1020,1500 --screenshot=%s '%s' 2>%s/dom2.log; }",
          dir, shot, url, dir);
    cr_assert_eq(o.status, 0, "chromium: exit %d\n%.2000s", o.status, o.err);
    char *p = strstr(o.out, "<pre id=\"out\">"), *q = p ? strstr(p, "</pre>") : NULL;
    cr_assert(p && q, "no #out in the DOM:\n%.2000s", o.out);
    *q = 0;
    cJSON *j = cJSON_Parse(p + strlen("<pre id=\"out\">"));
    cr_assert(j && cJSON_IsTrue(cJSON_GetObjectItem(j, "ok")), "the page failed: %.800s", p);
    ts_out_free(&o);
    return j;
}

Test(browser, check_gltf_report_marks_the_departing_bone, .timeout = 600)
{
    /* A plain model: its export keeps the hierarchy the renamed joints are recovered by. */
    char *dir = ts_tempdir(), *corpus = tg_plain_monster(dir), *www = ts_path(dir, "www");
    char *dat = ts_path(corpus, "plain.dat"), *glb = ts_path(dir, "glb");
    char *py = ts_source("tests/gltf/reexpress.py"), *page = ts_source("tests/gltf/report_view.html");
    ts_out o;
    /* The game's poses of one file, then a viewer's export with bone 5 of clip 1 moved from
     * frame 3 on (axes swapped, scaled, renamed: check-gltf finds the mapping first). */
    ts_cli(dir, &o, "export --corpus %s --out %s -q", dat, glb);
    cr_assert_eq(o.status, 0, "export: %s", o.err);
    ts_out_free(&o);
    ts_sh(dir, &o, "mkdir -p %s && %s %s %s/plain.glb %s/viewer.glb --axes x,z,-y "
                   "--scale 204.8 --seed 7 --perturb clip_001 bone_005 3 0.5 && cp %s %s/index.html",
          www, ts_python(), py, glb, dir, page, www);
    cr_assert_eq(o.status, 0, "reexpress.py: %s", o.err);
    ts_out_free(&o);
    ts_cli(dir, &o, "check-gltf %s/viewer.glb --dat %s --out %s/report", dir, dat, www);
    cr_assert_eq(o.status, 1, "check-gltf: %d\n%s\n%s", o.status, o.out, o.err);
    cr_assert(strstr(o.out, "clip 1: departs at frame 3, bone 5:"), "%s", o.out);
    ts_out_free(&o);
    long pid;
    int port = serve(dir, www, &pid);
    const char *bin = getenv("FF8DIFF_BINARY_DIR");
    cr_assert(bin, "FF8DIFF_BINARY_DIR is not set (run through ctest)");
    char url[256], *art = ts_path(bin, "tests/gltf/artifacts");
    char *shot = ts_path(art, "check_gltf_departure.png");
    ts_sh(dir, &o, "mkdir -p %s", art);
    ts_out_free(&o);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/index.html", port);
    unlink(shot);
    cJSON *j = laid_out(dir, url, shot);
    kill((pid_t)pid, 15);
    cr_assert(strstr(cJSON_GetObjectItem(j, "verdict")->valuestring, "departs"), "verdict");
    const char *h = cJSON_GetObjectItem(j, "heading")->valuestring;
    cr_assert(strstr(h, "Clip 1, frame 3") && strstr(h, "bone 5 circled"), "heading: %s", h);
    const cJSON *views = cJSON_GetObjectItem(j, "views"), *v;
    cr_assert_eq(cJSON_GetArraySize(views), 3, "three views");
    int apart = 0;
    cJSON_ArrayForEach(v, views)
    {
        cr_assert_gt(ts_num(v, "width"), 100, "a view is not laid out");
        cr_assert_gt(ts_num(v, "height"), 100, "a view is not laid out");
        cr_assert_gt(ts_num(v, "game"), 0, "no game skeleton drawn");
        cr_assert_eq(ts_num(v, "viewer"), ts_num(v, "game"), "the export's skeleton differs in shape");
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(v, "circle")), "no marked bone");
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(v, "inside")), "the mark is outside its view");
        cr_assert_geq(ts_num(v, "on_game_joint"), 0, "the mark is on no joint of the game's skeleton");
        apart += cJSON_IsTrue(cJSON_GetObjectItem(v, "export_apart"));
    }
    cr_assert_gt(apart, 0, "no view shows the export's marked joint away from the game's");
    size_t shot_len = 0;
    char *png = ts_read(shot, &shot_len);
    cr_assert(png && shot_len > 1000 && memcmp(png, "\x89PNG", 4) == 0, "no screenshot at %s", shot);
    cr_log_info("check-gltf report laid out: 3 views, mark on the game's joint, screenshot %s", shot);
    free(png);
    cJSON_Delete(j);
    free(shot);
    free(art);
    free(page);
    free(py);
    free(glb);
    free(dat);
    free(www);
    free(corpus);
    ts_rmtree(dir);
}
