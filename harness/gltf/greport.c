/*
 * harness/gltf/greport.c: check-gltf's report files (greport.h). The JSON
 * is built first; Markdown, JUnit and HTML are rendered from the result
 * it was built from, with the same figures.
 */
#include "harness/gltf/greport.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "corpus/fileio.h"
#include "harness/core/strbuf.h"
#include "harness/gltf/gjson.h"
#include "harness/report/report.h"
#include "harness/version.h"

static const char *gck_outcome(const gck_result *r)
{
    return r->refused ? "refused" : r->departing ? "departs" : "matches";
}

static void vec(gj *g, cJSON *o, const char *key, const double *v)
{
    cJSON *a = gj_arr(g, o, key);
    for (int i = 0; i < 3; i++) gj_num(g, a, NULL, v[i]);
}

/* A name that comes from a file, as valid UTF-8. */
static void name(gj *g, cJSON *o, const char *key, const char *s)
{
    gj_put(g, o, key, json_string(s ? s : ""));
}

static void clip_json(gj *g, cJSON *cl, const gck_clip *c)
{
    cJSON *o = gj_obj(g, cl, NULL);
    gj_num(g, o, "clip", c->clip);
    gj_num(g, o, "frames", (double)c->frames);
    gj_str(g, o, "matched_by", gck_by_name(c->by));
    if (c->anim < 0) {
        gj_null(g, o, "animation");
        return;
    }
    name(g, o, "animation", c->anim_name);
    gj_bool(g, o, "in_fit", c->in_fit);
    gj_num(g, o, "frames_per_second", c->fps);
    gj_num(g, o, "max_error", c->max_err);
    gj_num(g, o, "max_error_frame", (double)c->max_frame);
    gj_num(g, o, "max_error_bone", c->max_bone);
    if (c->first < 0) return;
    cJSON *f = gj_obj(g, o, "first_departure");
    gj_num(g, f, "frame", (double)c->first);
    gj_num(g, f, "bone", c->first_bone);
    vec(g, f, "game", c->first_game);
    vec(g, f, "viewer", c->first_viewer);
    gj_num(g, f, "error", c->first_err);
}

/* report.json's text (malloc'd), NULL when memory runs out. */
static char *json(const greport_meta *m, const gck_result *r)
{
    gj g = {0};
    cJSON *j = gj_root(&g);
    gj_str(&g, j, "schema", GREPORT_SCHEMA);
    gj_str(&g, j, "tool", "ff8diff " FF8DIFF_VERSION);
    name(&g, j, "export", m->export_path);
    name(&g, j, "dat", m->dat);
    gj_str(&g, j, "executable_sha256", m->exe_sha256);
    name(&g, j, "profile", m->profile);
    gj_str(&g, j, "verdict", gck_outcome(r));
    if (r->refused) name(&g, j, "reason", r->reason);
    cJSON *c = gj_obj(&g, j, "correspondence");
    gj_str(&g, c, "joints_by", r->joints_by);
    cJSON *jm = gj_arr(&g, c, "joints");
    for (unsigned b = 0; b < r->bones && r->joint_name; b++) name(&g, jm, NULL, r->joint_name[b]);
    cJSON *jb = gj_arr(&g, c, "joint_matches");
    for (unsigned b = 0; b < r->bones && r->joint_name; b++) {
        cJSON *o = gj_obj(&g, jb, NULL);
        gj_num(&g, o, "bone", b);
        if (r->joint[b] >= 0) name(&g, o, "joint", r->joint_name[b]);
        else gj_null(&g, o, "joint");
        gj_str(&g, o, "by", gck_by_name(r->joint_by[b]));
    }
    gj_str(&g, c, "axes", r->axes);
    gj_num(&g, c, "scale", r->scale);
    gj_num(&g, c, "fit_rms", r->fit_rms);
    gj_num(&g, c, "fit_clips", (double)r->fit_clips);
    gj_num(&g, c, "frames_per_second", r->fps);
    cJSON *t = gj_obj(&g, j, "totals");
    gj_num(&g, t, "bones", r->bones);
    gj_num(&g, t, "clips", (double)r->nclips);
    gj_num(&g, t, "matched", (double)r->matched);
    gj_num(&g, t, "departing", (double)r->departing);
    gj_num(&g, t, "unmatched_animations", (double)r->unmatched_anims);
    gj_num(&g, t, "joints_by_name", r->joints_count[GCK_BY_NAME]);
    gj_num(&g, t, "joints_by_hierarchy", r->joints_count[GCK_BY_HIERARCHY]);
    gj_num(&g, t, "joints_unmatched", r->joints_count[GCK_BY_NONE]);
    gj_num(&g, t, "clips_by_name", (double)r->clips_count[GCK_BY_NAME]);
    gj_num(&g, t, "clips_by_motion", (double)r->clips_count[GCK_BY_MOTION]);
    gj_num(&g, t, "clips_without_animation", (double)r->clips_count[GCK_BY_NONE]);
    gj_num(&g, t, "clips_in_fit", (double)r->fit_clips);
    gj_num(&g, t, "skeleton_size", r->size);
    gj_num(&g, t, "tolerance", r->tolerance);
    cJSON *cl = gj_arr(&g, j, "clips");
    for (size_t i = 0; i < r->nclips; i++) clip_json(&g, cl, &r->clips[i]);
    char *s = g.failed ? NULL : cJSON_Print(j);
    cJSON_Delete(j);
    return s;
}

/* How joints and clips were matched, in one sentence; the unmatched joints named. */
static void matched_by(strbuf *b, const gck_result *r)
{
    const unsigned *j = r->joints_count;
    const size_t *c = r->clips_count;
    sb_printf(b, "Matched: joints %u by name, %u by hierarchy, %u not at all; clips %zu by name, "
                 "%zu by motion, %zu not at all.",
              j[GCK_BY_NAME], j[GCK_BY_HIERARCHY], j[GCK_BY_NONE], c[GCK_BY_NAME], c[GCK_BY_MOTION],
              c[GCK_BY_NONE]);
    if (!j[GCK_BY_NONE]) return;
    sb_puts(b, " Bones without a joint:");
    for (unsigned k = 0; k < r->bones; k++)
        if (r->joint_by[k] == GCK_BY_NONE) sb_printf(b, " %u", k);
    sb_puts(b, ".");
}

static void md(strbuf *b, const greport_meta *m, const gck_result *r)
{
    sb_printf(b, "# glTF check: %s against %s\n\nVerdict: **%s**", m->export_path, m->dat, gck_outcome(r));
    if (r->refused) sb_printf(b, ": %s", r->reason);
    sb_puts(b, "\n\n");
    if (r->refused) return;
    sb_printf(b, "Correspondence: joints by %s; axes %s; scale %.6g game units per viewer unit, "
                 "fitted on %zu of %zu matched clips; %.4g frames per second. Tolerance %.4g game "
                 "units (skeleton size %.4g).\n\n",
              r->joints_by, r->axes, r->scale, r->fit_clips, r->matched, r->fps, r->tolerance,
              r->size);
    matched_by(b, r);
    sb_puts(b, "\n\n| clip | animation | matched by | frames | largest error | first departing "
               "frame | bone |\n|---:|---|---|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        if (g->anim < 0) {
            sb_printf(b, "| %u | (none) | none | %zu | | | |\n", g->clip, g->frames);
            continue;
        }
        sb_printf(b, "| %u | ", g->clip);
        sb_html(b, g->anim_name);
        sb_printf(b, " | %s%s | %zu | %.4g |", gck_by_name(g->by),
                  g->in_fit ? "" : " (not in the fit)", g->frames, g->max_err);
        if (g->first >= 0) sb_printf(b, " %ld | %u |\n", g->first, g->first_bone);
        else sb_puts(b, " | |\n");
    }
}

static void junit(strbuf *b, const gck_result *r)
{
    sb_printf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"check-gltf\" tests=\"%zu\" "
                 "failures=\"%zu\">\n",
              r->refused ? 1 : r->nclips, r->refused ? 1 : r->departing + (r->nclips - r->matched));
    if (r->refused) {
        sb_puts(b, "  <testcase name=\"correspondence\"><failure message=\"");
        sb_xml(b, r->reason);
        sb_puts(b, "\"/></testcase>\n</testsuite>\n");
        return;
    }
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        sb_printf(b, "  <testcase name=\"clip %u\">", g->clip);
        if (g->anim < 0) sb_puts(b, "<failure message=\"no animation of the export matches this clip\"/>");
        else if (g->first >= 0)
            sb_printf(b, "<failure message=\"frame %ld, bone %u: %.4g game units off\"/>", g->first,
                      g->first_bone, g->first_err);
        sb_puts(b, "</testcase>\n");
    }
    sb_puts(b, "</testsuite>\n");
}

/* Error per frame of one clip: a polyline and the tolerance line. */
static void plot(strbuf *b, const gck_result *r, const gck_clip *g)
{
    double top = fmax(g->max_err, r->tolerance * 2);
    const double W = 480, H = 120;
    sb_printf(b, "<svg class=\"plot\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\">"
                 "<rect width=\"%g\" height=\"%g\" fill=\"#fafafa\" stroke=\"#999\"/>",
              W, H, W, H, W, H);
    double ty = H - r->tolerance / top * (H - 10);
    sb_printf(b, "<line class=\"tolerance\" x1=\"0\" x2=\"%g\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"#e65100\" "
                 "stroke-dasharray=\"4 3\"/><polyline fill=\"none\" stroke=\"#1565c0\" points=\"",
              W, ty, ty);
    for (size_t i = 0; i < g->frames; i++)
        sb_printf(b, "%.2f,%.2f ", g->frames > 1 ? i * W / (double)(g->frames - 1) : 0,
                  H - g->err[i] / top * (H - 10));
    sb_puts(b, "\"/></svg>");
}

/* Both skeletons in three orthographic views: front (x, y), side (z, y), top (x, z). */
static void skeletons(strbuf *b, const gck_result *r)
{
    static const int view[3][2] = {{0, 1}, {2, 1}, {0, 2}};
    static const char *title[3] = {"front (x, y)", "side (z, y)", "top (x, z)"};
    const double S = 260;
    for (int v = 0; v < 3; v++) {
        int a = view[v][0], c = view[v][1];
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (unsigned k = 0; k < r->bones; k++)
            for (int s = 0; s < 2; s++) {
                const double *p = (s ? r->pic_viewer : r->pic_game) + 3 * k;
                lo[0] = fmin(lo[0], p[a]), hi[0] = fmax(hi[0], p[a]);
                lo[1] = fmin(lo[1], p[c]), hi[1] = fmax(hi[1], p[c]);
            }
        double span = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), 1e-9), k = (S - 20) / span;
        sb_printf(b, "<figure><svg class=\"skeleton\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\">"
                     "<rect width=\"%g\" height=\"%g\" fill=\"#fff\" stroke=\"#999\"/>",
                  S, S, S, S, S, S);
        for (int s = 0; s < 2; s++) {
            const double *P = s ? r->pic_viewer : r->pic_game;
            sb_printf(b, "<g class=\"%s\" stroke=\"%s\" stroke-width=\"%s\"%s>", s ? "viewer" : "game",
                      s ? "#c62828" : "#1565c0", s ? "1.5" : "3", s ? " stroke-dasharray=\"5 3\"" : "");
            for (unsigned j = 0; j < r->bones; j++) {
                int p = r->parent[j];
                if (p < 0 || isnan(P[3 * p + a]) || isnan(P[3 * j + a])) continue;
                sb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>",
                          10 + (P[3 * p + a] - lo[0]) * k, S - 10 - (P[3 * p + c] - lo[1]) * k,
                          10 + (P[3 * j + a] - lo[0]) * k, S - 10 - (P[3 * j + c] - lo[1]) * k);
            }
            sb_puts(b, "</g>");
        }
        const double *g = r->pic_game + 3 * r->pic_bone;
        sb_printf(b, "<circle class=\"departing\" cx=\"%.2f\" cy=\"%.2f\" r=\"6\" fill=\"none\" "
                     "stroke=\"#e65100\" stroke-width=\"2\"/></svg><figcaption>%s</figcaption></figure>",
                  10 + (g[a] - lo[0]) * k, S - 10 - (g[c] - lo[1]) * k, title[v]);
    }
}

/* Each bone's joint and how it was matched. */
static void joints_table(strbuf *b, const gck_result *r)
{
    sb_puts(b, "<h2>Joints</h2><table id=\"joints\"><tr><th>bone</th><th>joint of the export</th>"
               "<th>matched by</th></tr>\n");
    for (unsigned k = 0; k < r->bones; k++) {
        sb_printf(b, "<tr class=\"joint\"><td>%u</td><td>", k);
        if (r->joint[k] >= 0) sb_html(b, r->joint_name[k]);
        sb_printf(b, "</td><td>%s</td></tr>\n", gck_by_name(r->joint_by[k]));
    }
    sb_puts(b, "</table>\n");
}

static void html(strbuf *b, const greport_meta *m, const gck_result *r)
{
    sb_puts(b, "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>glTF check</title><style>"
               "body{font:14px sans-serif;margin:16px}table{border-collapse:collapse}td,th{border:1px "
               "solid #ccc;padding:2px 6px}figure{display:inline-block;margin:4px}</style></head><body>\n"
               "<h1>glTF check</h1><p id=\"summary\">");
    sb_html(b, m->export_path);
    sb_puts(b, " against ");
    sb_html(b, m->dat);
    sb_printf(b, ": <b class=\"verdict\">%s</b>", gck_outcome(r));
    if (r->refused) {
        sb_puts(b, ": ");
        sb_html(b, r->reason);
        sb_puts(b, "</p></body></html>\n");
        return;
    }
    sb_printf(b, "</p><p id=\"correspondence\">Joints by %s; axes %s; scale %.6g game units per viewer "
                 "unit, fitted on %zu of the matched clips; %.4g frames per second; tolerance %.4g "
                 "game units (skeleton size %.4g). %zu of %zu clips matched, %zu depart.</p>\n"
                 "<p id=\"matched\">",
              r->joints_by, r->axes, r->scale, r->fit_clips, r->fps, r->tolerance, r->size,
              r->matched, r->nclips, r->departing);
    matched_by(b, r);
    sb_puts(b, "</p>\n");
    if (r->pic_clip >= 0) {
        const gck_clip *g = &r->clips[r->pic_clip];
        sb_printf(b, "<h2>Clip %u, frame %zu: the export (red, dashed) over the game (blue), bone %u "
                     "circled</h2><div id=\"pose\">",
                  g->clip, r->pic_frame, r->pic_bone);
        skeletons(b, r);
        sb_puts(b, "</div>\n");
    }
    joints_table(b, r);
    sb_puts(b, "<h2>Clips</h2><table id=\"clips\"><tr><th>clip</th><th>animation</th><th>matched "
               "by</th><th>frames</th>"
               "<th>largest error</th><th>first departing frame (bone, error)</th><th>error per "
               "frame</th></tr>\n");
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        sb_printf(b, "<tr class=\"clip\"><td>%u</td><td>", g->clip);
        if (g->anim < 0) {
            sb_printf(b, "none</td><td>none</td><td>%zu</td><td></td><td></td><td></td></tr>\n",
                      g->frames);
            continue;
        }
        sb_html(b, g->anim_name);
        sb_printf(b, "</td><td>%s%s</td><td>%zu</td><td>%.4g</td><td>", gck_by_name(g->by),
                  g->in_fit ? "" : " (not in the fit)", g->frames, g->max_err);
        if (g->first >= 0) sb_printf(b, "%ld (bone %u, %.4g)", g->first, g->first_bone, g->first_err);
        sb_puts(b, "</td><td>");
        plot(b, r, g);
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table></body></html>\n");
}

static int put(const char *dir, const char *name, const char *text, size_t len, ff_error *err)
{
    char *p = path_join_new(dir, name);
    int rc = p ? fio_write_atomic(p, (const uint8_t *)text, len, err)
               : ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    free(p);
    return rc;
}

int greport_write(const char *dir, const greport_meta *m, const gck_result *r, ff_error *err)
{
    char *j = json(m, r);
    strbuf b[3];
    for (int i = 0; i < 3; i++) sb_init(&b[i]);
    md(&b[0], m, r);
    junit(&b[1], r);
    html(&b[2], m, r);
    int rc = 0;
    if (!j || strbuf_failed(&b[0]) || strbuf_failed(&b[1]) || strbuf_failed(&b[2]))
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the report");
    if (rc == 0) rc = put(dir, "report.json", j, strlen(j), err);
    if (rc == 0) rc = put(dir, "summary.md", b[0].s, b[0].len, err);
    if (rc == 0) rc = put(dir, "junit.xml", b[1].s, b[1].len, err);
    if (rc == 0) rc = put(dir, "index.html", b[2].s, b[2].len, err);
    free(j);
    for (int i = 0; i < 3; i++) sb_free(&b[i]);
    return rc;
}
