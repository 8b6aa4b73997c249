/*
 * harness/report/report_figure.c: a pose group's skeleton in report.json and
 * as a picture: an inline SVG stick figure in three orthographic views (XY
 * front, XZ top, ZY side) at one scale, the candidate's and the original's
 * bones overlaid, the diverging bone marked and its three axes (its
 * matrix's columns) drawn on both sides, so that a difference of rotation
 * alone, which moves no joint, still shows. Rendered from report.json only.
 * y and z grow downwards in the picture, as y does in the engine's
 * coordinates (PSX: y down).
 */
#include <math.h>
#include <stdio.h>

#include "harness/report/report.h"
#include "harness/report/report_html.h"
#include "harness/report/report_view.h"

static cJSON *rows(const int32_t *v, unsigned n, int width)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned b = 0; a && b < n; b++) {
        double row[9];
        for (int k = 0; k < width; k++) row[k] = v[width * b + k];
        cJSON_AddItemToArray(a, cJSON_CreateDoubleArray(row, width));
    }
    return a;
}

static const char *space_name(field_area a)
{
    return a == FIELD_AREA_WORLD ? "world" : a == FIELD_AREA_PLACED ? "placed" : "bone";
}

cJSON *report_figure_json(const res_figure *f)
{
    if (!f->bones) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "bone", f->bone);
    cJSON_AddNumberToObject(o, "tick", (double)f->tick);
    cJSON_AddStringToObject(o, "space", space_name(f->area));
    cJSON *p = cJSON_AddArrayToObject(o, "parents");
    for (unsigned b = 0; b < f->bones; b++)
        cJSON_AddItemToArray(p, cJSON_CreateNumber(f->parent[b]));
    cJSON_AddItemToObject(o, "ref", rows(f->ref, f->bones, 3));
    cJSON_AddItemToObject(o, "orig", rows(f->orig, f->bones, 3));
    cJSON_AddItemToObject(o, "ref_matrices", rows(f->ref_m, f->bones, 9));
    cJSON_AddItemToObject(o, "orig_matrices", rows(f->orig_m, f->bones, 9));
    return o;
}

#define FW 220 /* one view's width and height */
#define FPAD 14
#define FVIEWS 3
#define AXIS_SHARE 0.15 /* an axis of the marked bone, as a share of the span */

typedef struct view {
    const char *name;
    int axis[2]; /* 0 x, 1 y, 2 z: horizontal, vertical */
} view;

static const view views[FVIEWS] = {{"XY (front)", {0, 1}}, {"XZ (top)", {0, 2}},
                                   {"ZY (side)", {2, 1}}};

typedef struct frame {
    double mid[3], span; /* one scale for every view: the largest extent */
} frame;

static double at(const cJSON *arr, int k)
{
    const cJSON *v = cJSON_GetArrayItem(arr, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void fit(frame *f, const cJSON *ref, const cJSON *orig)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    const cJSON *sides[2] = {ref, orig}, *j;
    for (int s = 0; s < 2; s++)
        cJSON_ArrayForEach(j, sides[s]) for (int k = 0; k < 3; k++)
        {
            double c = at(j, k);
            if (c < lo[k]) lo[k] = c;
            if (c > hi[k]) hi[k] = c;
        }
    f->span = 1;
    for (int k = 0; k < 3; k++) {
        if (!(lo[k] <= hi[k])) lo[k] = hi[k] = 0;
        f->mid[k] = (lo[k] + hi[k]) / 2;
        if (hi[k] - lo[k] > f->span) f->span = hi[k] - lo[k];
    }
}

/* A point of model space in view v (number vi) of the picture. */
static void project(const frame *f, int vi, const double p[3], double *px, double *py)
{
    double inner = FW - 2 * FPAD;
    const view *v = &views[vi];
    *px = vi * FW + FW / 2.0 + (p[v->axis[0]] - f->mid[v->axis[0]]) / f->span * inner;
    *py = FW / 2.0 + (p[v->axis[1]] - f->mid[v->axis[1]]) / f->span * inner;
}

static void joint(const cJSON *js, int i, double p[3])
{
    const cJSON *j = cJSON_GetArrayItem(js, i);
    for (int k = 0; k < 3; k++) p[k] = at(j, k);
}

static void side(strbuf *b, const frame *f, int vi, const cJSON *js, const cJSON *parents,
                 int bone, const char *cls)
{
    int n = cJSON_GetArraySize(js);
    for (int i = 0; i < n; i++) {
        double p[3], q[3], x, y, px, py;
        joint(js, i, p);
        project(f, vi, p, &x, &y);
        int parent = (int)at(parents, i);
        if (parent >= 0 && parent < n) {
            joint(js, parent, q);
            project(f, vi, q, &px, &py);
            sb_printf(b, "<line class=\"%s%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                      cls, i == bone ? " hit" : "", px, py, x, y);
        }
        sb_printf(b, "<circle class=\"%s%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"/>", cls,
                  i == bone ? " hit" : "", x, y, i == bone ? "4" : "1.5");
    }
}

/* The marked bone's three axes on one side: its matrix's columns from its joint. */
static void axes(strbuf *b, const frame *f, int vi, const cJSON *js, const cJSON *mats, int bone,
                 const char *cls)
{
    const cJSON *m = cJSON_GetArrayItem(mats, bone);
    if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) != 9) return;
    double p[3], x0, y0, x1, y1;
    joint(js, bone, p);
    project(f, vi, p, &x0, &y0);
    for (int c = 0; c < 3; c++) {
        double e[3];
        for (int r = 0; r < 3; r++) e[r] = p[r] + at(m, 3 * r + c) / 4096.0 * f->span * AXIS_SHARE;
        project(f, vi, e, &x1, &y1);
        sb_printf(b,
                  "<line class=\"axis a%d %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                  c, cls, x0, y0, x1, y1);
    }
}

void report_figure_svg(strbuf *b, const cJSON *skeleton, const char *cand, const char *auth)
{
    const cJSON *ref = rv_arr(skeleton, "ref"), *orig = rv_arr(skeleton, "orig");
    const cJSON *parents = rv_arr(skeleton, "parents");
    if (!ref || !orig || !parents) return;
    int bone = (int)rv_int(skeleton, "bone", -1);
    frame f;
    fit(&f, ref, orig);
    sb_printf(b,
              "<svg class=\"figure\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
              "role=\"img\" data-bone=\"%d\"><title>",
              FVIEWS * FW, FW + 16, FVIEWS * FW, FW + 16, bone);
    sb_printf(b, "the skeleton at tick %lld (", (long long)rv_int(skeleton, "tick", -1));
    rh_text(b, rv_str(skeleton, "space", "bone"));
    sb_puts(b, " matrices), ");
    rh_text(b, cand);
    sb_puts(b, " and ");
    rh_text(b, auth);
    sb_printf(b, "; bone %d marked</title>\n", bone);
    for (int vi = 0; vi < FVIEWS; vi++) {
        sb_printf(b, "<g class=\"view\" data-view=\"%c%c\">", "xyz"[views[vi].axis[0]],
                  "xyz"[views[vi].axis[1]]);
        sb_printf(b, "<rect class=\"frame\" x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\"/>", vi * FW,
                  FW, FW);
        side(b, &f, vi, ref, parents, bone, "ref");
        side(b, &f, vi, orig, parents, bone, "orig");
        if (bone >= 0) {
            axes(b, &f, vi, ref, rv_arr(skeleton, "ref_matrices"), bone, "ref");
            axes(b, &f, vi, orig, rv_arr(skeleton, "orig_matrices"), bone, "orig");
        }
        sb_printf(b, "<text class=\"lbl\" x=\"%d\" y=\"%d\">%s</text></g>\n", vi * FW + 4, FW + 12,
                  views[vi].name);
    }
    sb_puts(b, "</svg>\n");
}
