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

#include "corpus/fileio.h"
#include "harness/core/strbuf.h"
#include "harness/version.h"

static const char *verdict(const gck_result *r)
{
    return r->refused ? "refused" : r->departing ? "departs" : "matches";
}

static cJSON *vec(const double *v)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < 3; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static char *json(const greport_meta *m, const gck_result *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", GREPORT_SCHEMA);
    cJSON_AddStringToObject(j, "tool", "ff8diff " FF8DIFF_VERSION);
    cJSON_AddStringToObject(j, "export", m->export_path ? m->export_path : "");
    cJSON_AddStringToObject(j, "dat", m->dat ? m->dat : "");
    cJSON_AddStringToObject(j, "executable_sha256", m->exe_sha256 ? m->exe_sha256 : "");
    cJSON_AddStringToObject(j, "profile", m->profile ? m->profile : "");
    cJSON_AddStringToObject(j, "verdict", verdict(r));
    if (r->refused) cJSON_AddStringToObject(j, "reason", r->reason);
    cJSON *c = cJSON_AddObjectToObject(j, "correspondence");
    cJSON_AddStringToObject(c, "joints_by", r->joints_by);
    cJSON *jm = cJSON_AddArrayToObject(c, "joints");
    for (unsigned b = 0; b < r->bones && r->joint_name; b++)
        cJSON_AddItemToArray(jm, cJSON_CreateString(r->joint_name[b]));
    cJSON_AddStringToObject(c, "axes", r->axes);
    cJSON_AddNumberToObject(c, "scale", r->scale);
    cJSON_AddNumberToObject(c, "fit_rms", r->fit_rms);
    cJSON_AddNumberToObject(c, "frames_per_second", r->fps);
    cJSON *t = cJSON_AddObjectToObject(j, "totals");
    cJSON_AddNumberToObject(t, "bones", r->bones);
    cJSON_AddNumberToObject(t, "clips", (double)r->nclips);
    cJSON_AddNumberToObject(t, "matched", (double)r->matched);
    cJSON_AddNumberToObject(t, "departing", (double)r->departing);
    cJSON_AddNumberToObject(t, "unmatched_animations", (double)r->unmatched_anims);
    cJSON_AddNumberToObject(t, "skeleton_size", r->size);
    cJSON_AddNumberToObject(t, "tolerance", r->tolerance);
    cJSON *cl = cJSON_AddArrayToObject(j, "clips");
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "clip", g->clip);
        cJSON_AddNumberToObject(o, "frames", (double)g->frames);
        if (g->anim < 0) {
            cJSON_AddNullToObject(o, "animation");
        } else {
            cJSON_AddStringToObject(o, "animation", g->anim_name);
            cJSON_AddNumberToObject(o, "frames_per_second", g->fps);
            cJSON_AddNumberToObject(o, "max_error", g->max_err);
            cJSON_AddNumberToObject(o, "max_error_frame", (double)g->max_frame);
            cJSON_AddNumberToObject(o, "max_error_bone", g->max_bone);
            if (g->first >= 0) {
                cJSON *f = cJSON_AddObjectToObject(o, "first_departure");
                cJSON_AddNumberToObject(f, "frame", (double)g->first);
                cJSON_AddNumberToObject(f, "bone", g->first_bone);
                cJSON_AddItemToObject(f, "game", vec(g->first_game));
                cJSON_AddItemToObject(f, "viewer", vec(g->first_viewer));
                cJSON_AddNumberToObject(f, "error", g->first_err);
            }
        }
        cJSON_AddItemToArray(cl, o);
    }
    char *s = cJSON_Print(j);
    cJSON_Delete(j);
    return s;
}

static void md(strbuf *b, const greport_meta *m, const gck_result *r)
{
    sb_printf(b, "# glTF check: %s against %s\n\nVerdict: **%s**", m->export_path, m->dat, verdict(r));
    if (r->refused) sb_printf(b, ": %s", r->reason);
    sb_puts(b, "\n\n");
    if (r->refused) return;
    sb_printf(b, "Correspondence: joints by %s; axes %s; scale %.6g game units per viewer unit; "
                 "%.4g frames per second. Tolerance %.4g game units (skeleton size %.4g).\n\n",
              r->joints_by, r->axes, r->scale, r->fps, r->tolerance, r->size);
    sb_puts(b, "| clip | animation | frames | largest error | first departing frame | bone |\n"
               "|---:|---|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        if (g->anim < 0) {
            sb_printf(b, "| %u | (none) | %zu | | | |\n", g->clip, g->frames);
            continue;
        }
        sb_printf(b, "| %u | ", g->clip);
        sb_html(b, g->anim_name);
        sb_printf(b, " | %zu | %.4g |", g->frames, g->max_err);
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
                if (p < 0) continue;
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

static void html(strbuf *b, const greport_meta *m, const gck_result *r)
{
    sb_puts(b, "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>glTF check</title><style>"
               "body{font:14px sans-serif;margin:16px}table{border-collapse:collapse}td,th{border:1px "
               "solid #ccc;padding:2px 6px}figure{display:inline-block;margin:4px}</style></head><body>\n"
               "<h1>glTF check</h1><p id=\"summary\">");
    sb_html(b, m->export_path);
    sb_puts(b, " against ");
    sb_html(b, m->dat);
    sb_printf(b, ": <b class=\"verdict\">%s</b>", verdict(r));
    if (r->refused) {
        sb_puts(b, ": ");
        sb_html(b, r->reason);
        sb_puts(b, "</p></body></html>\n");
        return;
    }
    sb_printf(b, "</p><p id=\"correspondence\">Joints by %s; axes %s; scale %.6g game units per viewer "
                 "unit; %.4g frames per second; tolerance %.4g game units (skeleton size %.4g). %zu of "
                 "%zu clips matched, %zu depart.</p>\n",
              r->joints_by, r->axes, r->scale, r->fps, r->tolerance, r->size, r->matched, r->nclips,
              r->departing);
    if (r->pic_clip >= 0) {
        const gck_clip *g = &r->clips[r->pic_clip];
        sb_printf(b, "<h2>Clip %u, frame %zu: the export (red, dashed) over the game (blue), bone %u "
                     "circled</h2><div id=\"pose\">",
                  g->clip, r->pic_frame, r->pic_bone);
        skeletons(b, r);
        sb_puts(b, "</div>\n");
    }
    sb_puts(b, "<h2>Clips</h2><table id=\"clips\"><tr><th>clip</th><th>animation</th><th>frames</th>"
               "<th>largest error</th><th>first departing frame (bone, error)</th><th>error per "
               "frame</th></tr>\n");
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        sb_printf(b, "<tr class=\"clip\"><td>%u</td><td>", g->clip);
        if (g->anim < 0) {
            sb_printf(b, "none</td><td>%zu</td><td></td><td></td><td></td></tr>\n", g->frames);
            continue;
        }
        sb_html(b, g->anim_name);
        sb_printf(b, "</td><td>%zu</td><td>%.4g</td><td>", g->frames, g->max_err);
        if (g->first >= 0) sb_printf(b, "%ld (bone %u, %.4g)", g->first, g->first_bone, g->first_err);
        sb_puts(b, "</td><td>");
        plot(b, r, g);
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table></body></html>\n");
}

static int put(const char *dir, const char *name, const char *text, size_t len, ff_error *err)
{
    char *p = fio_join(dir, name);
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
