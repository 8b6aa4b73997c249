/*
 * harness/gltf/greport.c: check-gltf's report files (greport.h). The JSON
 * is built first; index.html and summary.md are one document of the
 * report's layer (harness/report/report_doc.h) built from the same
 * result, emitted twice, index.html in the run report's style; JUnit is
 * written on its own. A refusal with a mapping tried shows that mapping,
 * its error per bone and per clip, and the overlay at its worst frame.
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
#include "harness/report/report_doc.h"
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
    if (m->pose && m->pose_source) {
        cJSON *pc = gj_obj(&g, j, "pose_convention");
        gj_str(&g, pc, "convention", m->pose);
        gj_str(&g, pc, "source", m->pose_source);
        if (m->pose_source_text) gj_str(&g, pc, "source_text", m->pose_source_text);
    }
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

/* The correspondence (or the best mapping tried) as a key-value table. */
static void mapping_kv(rd_node *sec, const gck_result *r)
{
    rd_node *kv = rd_kv(sec, "correspondence");
    rd_text(rd_kv_row(kv, "Joints by", NULL), RD_PLAIN, r->joints_by[0] ? r->joints_by : "-");
    rd_text(rd_kv_row(kv, "Axes (game from export)", NULL), RD_CODE, r->axes[0] ? r->axes : "-");
    rd_textf(rd_kv_row(kv, "Scale", NULL), RD_PLAIN,
             "%.6g game units per viewer unit, fitted on %zu of %zu matched clips", r->scale,
             r->fit_clips, r->matched);
    rd_textf(rd_kv_row(kv, "Fit residual (RMS)", NULL), RD_PLAIN,
             "%.4g game units (%.2f%% of the skeleton's size %.4g)", r->fit_rms,
             r->size > 0 ? 100 * r->fit_rms / r->size : 0, r->size);
    rd_textf(rd_kv_row(kv, "Frame rate", NULL), RD_PLAIN, "%.4g frames per second", r->fps);
    rd_textf(rd_kv_row(kv, "Tolerance", NULL), RD_PLAIN, "%.4g game units", r->tolerance);
    strbuf t;
    sb_init(&t);
    matched_by(&t, r);
    rd_text(rd_kv_row(kv, "Matched", "matched"), RD_PLAIN, t.s ? t.s : "");
    sb_free(&t);
}

/* Each bone's joint, how it was matched and its largest error over the compared clips. */
static void joints_table(rd_node *sec, const gck_result *r)
{
    static const char *const heads[] = {"bone", "joint of the export", "matched by",
                                        "largest error (game units)"};
    rd_node *t = rd_table(sec, "joints", 4, heads, 0);
    rd_table_num(t, 0);
    rd_table_num(t, 3);
    for (unsigned k = 0; k < r->bones; k++) {
        char id[32];
        snprintf(id, sizeof id, "bone-%u", k);
        rd_node *row = rd_row(t, id);
        rd_textf(rd_cell(row), RD_PLAIN, "%u", k);
        if (r->joint[k] >= 0 && r->joint_name)
            rd_text(rd_cell(row), RD_NAME, r->joint_name[k]);
        else
            rd_text(rd_cell(row), RD_MUTED, "none");
        rd_text(rd_cell(row), RD_PLAIN, gck_by_name(r->joint_by[k]));
        if (r->joint[k] >= 0 && r->bone_err)
            rd_textf(rd_cell(row), r->bone_err[k] > r->tolerance ? RD_STRONG : RD_PLAIN, "%.4g",
                     r->bone_err[k]);
        else
            rd_text(rd_cell(row), RD_MUTED, "-");
    }
}

/* Each clip: its animation, how matched, its largest error and first departure, its plot. */
static void clips_table(rd_node *sec, const gck_result *r)
{
    static const char *const heads[] = {"clip",        "animation",
                                        "matched by",  "frames",
                                        "largest error (frame, bone)",
                                        "first departing frame (bone, error)"};
    rd_node *t = rd_table(sec, "clips", 6, heads, 0);
    rd_table_num(t, 0);
    rd_table_num(t, 3);
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        char id[32];
        snprintf(id, sizeof id, "clip-%u", g->clip);
        rd_node *row = rd_row(t, id);
        rd_textf(rd_cell(row), RD_PLAIN, "%u", g->clip);
        if (g->anim < 0) {
            rd_text(rd_cell(row), RD_MUTED, "none");
            rd_text(rd_cell(row), RD_PLAIN, "none");
            rd_textf(rd_cell(row), RD_PLAIN, "%zu", g->frames);
            rd_text(rd_cell(row), RD_MUTED, "-");
            rd_text(rd_cell(row), RD_MUTED, "-");
            continue;
        }
        rd_text(rd_cell(row), RD_NAME, g->anim_name);
        rd_textf(rd_cell(row), RD_PLAIN, "%s%s", gck_by_name(g->by),
                 g->in_fit ? "" : " (not in the fit)");
        rd_textf(rd_cell(row), RD_PLAIN, "%zu", g->frames);
        rd_textf(rd_cell(row), RD_PLAIN, "%.4g (frame %zu, bone %u)", g->max_err, g->max_frame,
                 g->max_bone);
        if (g->first >= 0)
            rd_textf(rd_cell(row), RD_PLAIN, "%ld (bone %u, %.4g)", g->first, g->first_bone,
                     g->first_err);
        else
            rd_text(rd_cell(row), RD_MUTED, "none");
    }
}

/* The error per frame of every matched clip (index.html only). */
static void plots(rd_node *sec, const gck_result *r)
{
    strbuf h;
    sb_init(&h);
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        if (g->anim < 0 || !g->err) continue;
        sb_printf(&h, "<figure><figcaption>clip %u: largest joint error per frame, the "
                      "tolerance dashed</figcaption>", g->clip);
        plot(&h, r, g);
        sb_puts(&h, "</figure>\n");
    }
    if (h.len) rd_figure(sec, h.s, NULL);
    sb_free(&h);
}

/* Both skeletons at the picture's frame: three views in index.html, a line in summary.md. */
static void overlay(rd_node *sec, const gck_result *r)
{
    if (r->pic_clip < 0 || !r->pic_game) return;
    const gck_clip *g = &r->clips[r->pic_clip];
    rd_textf(rd_para(sec, NULL), RD_PLAIN,
             "Clip %u, frame %zu (%s): the export (red, dashed) over the game (blue), bone %u "
             "circled.", g->clip, r->pic_frame,
             r->best_tried || g->first < 0 ? "its worst frame" : "its first departing frame",
             r->pic_bone);
    strbuf h, m;
    sb_init(&h);
    sb_init(&m);
    sb_puts(&h, "<div id=\"pose\">");
    skeletons(&h, r);
    sb_puts(&h, "</div>\n");
    sb_printf(&m, "The overlay of both skeletons at clip %u frame %zu is drawn in index.html.\n\n",
              g->clip, r->pic_frame);
    rd_figure(sec, h.s ? h.s : "", m.s);
    sb_free(&h);
    sb_free(&m);
}

/* The game's side: the executable, its profile, the pose convention and where it came from. */
static void game_kv(rd_doc *d, const greport_meta *m)
{
    rd_node *s = rd_section(d, "game", "The game's poses");
    rd_node *kv = rd_kv(s, "game");
    if (m->exe_sha256) rd_text(rd_kv_row(kv, "Executable (SHA-256)", NULL), RD_CODE, m->exe_sha256);
    if (m->profile) rd_text(rd_kv_row(kv, "Profile", NULL), RD_NAME, m->profile);
    if (m->pose) rd_text(rd_kv_row(kv, "Pose convention", "pose-convention"), RD_CODE, m->pose);
    if (m->pose_source)
        rd_text(rd_kv_row(kv, "Convention from", "pose-source"), RD_PLAIN,
                m->pose_source_text ? m->pose_source_text : m->pose_source);
}

static rd_doc *document(const greport_meta *m, const gck_result *r)
{
    rd_doc *d = rd_new();
    if (!d) return NULL;
    rd_node *title = rd_title(d);
    rd_text(title, RD_PLAIN, "glTF check ");
    rd_badge(title, r->refused ? "verdict fail" : r->departing ? "verdict fail" : "verdict pass",
             "verdict", gck_outcome(r));
    rd_node *sub = rd_subtitle(d);
    rd_text(sub, RD_NAME, m->export_path);
    rd_text(sub, RD_PLAIN, " against ");
    rd_text(sub, RD_NAME, m->dat);
    if (r->refused) {
        rd_node *b = rd_banner(d, RD_STOP, "reason");
        rd_textf(b, RD_PLAIN, "Refused: %s", r->reason);
        if (!r->best_tried) {
            game_kv(d, m);
            return d;
        }
        rd_node *s = rd_section(d, "best", "The best mapping tried");
        rd_text(rd_para(s, "muted"), RD_PLAIN,
                "Its joints, clips, axes and scale, compared anyway: every error below is this "
                "mapping's, against the tolerance a fitting mapping would have had.");
        mapping_kv(s, r);
        overlay(s, r);
        joints_table(rd_section(d, "joints-section", "Error per bone"), r);
        rd_node *c = rd_section(d, "clips-section", "Error per clip");
        clips_table(c, r);
        plots(c, r);
        game_kv(d, m);
        return d;
    }
    rd_node *s = rd_section(d, "summary", "Correspondence");
    rd_textf(rd_para(s, NULL), RD_PLAIN, "%zu of %zu clips matched, %zu depart.", r->matched,
             r->nclips, r->departing);
    mapping_kv(s, r);
    if (r->pic_clip >= 0) overlay(rd_section(d, "picture", "Overlay"), r);
    joints_table(rd_section(d, "joints-section", "Joints"), r);
    rd_node *c = rd_section(d, "clips-section", "Clips");
    clips_table(c, r);
    plots(c, r);
    game_kv(d, m);
    return d;
}

/* index.html (the run report's style) and summary.md from one document. */
static int pages(const greport_meta *m, const gck_result *r, strbuf *html, strbuf *md)
{
    rd_doc *d = document(m, r);
    if (!d || rd_failed(d)) {
        rd_free(d);
        return -1;
    }
    sb_puts(html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
                  "<title>glTF check</title>\n<style>");
    sb_puts(html, report_html_css());
    sb_puts(html, "figure{display:inline-block;margin:4px}</style>\n</head>\n<body>\n");
    rd_emit_html(html, d);
    sb_puts(html, "<footer>Written by ff8diff " FF8DIFF_VERSION " check-gltf, with report.json "
                  "(schema " GREPORT_SCHEMA ").</footer>\n</main>\n</body>\n</html>\n");
    rd_emit_md(md, d);
    rd_free(d);
    return 0;
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
    junit(&b[1], r);
    int rc = 0;
    if (!j || pages(m, r, &b[2], &b[0]) < 0 || strbuf_failed(&b[0]) || strbuf_failed(&b[1]) || strbuf_failed(&b[2]))
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the report");
    if (rc == 0) rc = put(dir, "report.json", j, strlen(j), err);
    if (rc == 0) rc = put(dir, "summary.md", b[0].s, b[0].len, err);
    if (rc == 0) rc = put(dir, "junit.xml", b[1].s, b[1].len, err);
    if (rc == 0) rc = put(dir, "index.html", b[2].s, b[2].len, err);
    free(j);
    for (int i = 0; i < 3; i++) sb_free(&b[i]);
    return rc;
}
