/*
 * harness/report/report_figure.c: a pose group's skeleton in report.json and
 * as a picture: an inline SVG stick figure per projection (x-y: front, z-y:
 * side), the candidate's and the original's bones overlaid, the diverging
 * bone circled. Rendered from report.json only. y grows downwards in the
 * picture as in the engine's coordinates (PSX: y down).
 */
#include <math.h>
#include <stdio.h>

#include "harness/report/report.h"
#include "harness/report/report_view.h"

static cJSON *joints(const int32_t *v, unsigned n)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned b = 0; a && b < n; b++) {
        const double xyz[3] = {v[3 * b], v[3 * b + 1], v[3 * b + 2]};
        cJSON_AddItemToArray(a, cJSON_CreateDoubleArray(xyz, 3));
    }
    return a;
}

cJSON *report_figure_json(const res_figure *f)
{
    if (!f->bones) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "bone", f->bone);
    cJSON *p = cJSON_AddArrayToObject(o, "parents");
    for (unsigned b = 0; b < f->bones; b++)
        cJSON_AddItemToArray(p, cJSON_CreateNumber(f->parent[b]));
    cJSON_AddItemToObject(o, "ref", joints(f->ref, f->bones));
    cJSON_AddItemToObject(o, "orig", joints(f->orig, f->bones));
    return o;
}

#define FW 220 /* one projection's width and height */
#define FPAD 12

typedef struct view {
    double lo[2], span;
    int axis[2]; /* 0 x, 1 y, 2 z */
    double x0;   /* left of this projection */
} view;

static double coord(const cJSON *joint, int k)
{
    const cJSON *v = cJSON_GetArrayItem(joint, k);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* Bounds of both sides on a projection's two axes: one scale for both. */
static void fit(view *v, const cJSON *ref, const cJSON *orig)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    const cJSON *sides[2] = {ref, orig}, *j;
    for (int s = 0; s < 2; s++)
        cJSON_ArrayForEach(j, sides[s]) for (int k = 0; k < 2; k++)
        {
            double c = coord(j, v->axis[k]);
            if (c < lo[k]) lo[k] = c;
            if (c > hi[k]) hi[k] = c;
        }
    double span = 1;
    for (int k = 0; k < 2; k++) {
        if (!(lo[k] <= hi[k])) lo[k] = hi[k] = 0;
        if (hi[k] - lo[k] > span) span = hi[k] - lo[k];
    }
    for (int k = 0; k < 2; k++)
        v->lo[k] = lo[k] - (span - (hi[k] - lo[k])) / 2;
    v->span = span;
}

static void point(const view *v, const cJSON *joint, double *px, double *py)
{
    double inner = FW - 2 * FPAD;
    *px = v->x0 + FPAD + (coord(joint, v->axis[0]) - v->lo[0]) / v->span * inner;
    *py = FPAD + (coord(joint, v->axis[1]) - v->lo[1]) / v->span * inner;
}

static void side(strbuf *b, const view *v, const cJSON *js, const cJSON *parents, int bone,
                 const char *cls)
{
    int n = cJSON_GetArraySize(js);
    for (int i = 0; i < n; i++) {
        double x, y, px, py;
        point(v, cJSON_GetArrayItem(js, i), &x, &y);
        int parent = (int)coord(parents, i) /* parents is an array of numbers */;
        const cJSON *pj = parent >= 0 && parent < n ? cJSON_GetArrayItem(js, parent) : NULL;
        if (pj) {
            point(v, pj, &px, &py);
            sb_printf(b, "<line class=\"%s%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                      cls, i == bone ? " hit" : "", px, py, x, y);
        }
        sb_printf(b, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"/>", cls, x, y,
                  i == bone ? "4" : "1.5");
    }
    sb_puts(b, "\n");
}

void report_figure_svg(strbuf *b, const cJSON *skeleton, const char *cand, const char *auth)
{
    const cJSON *ref = rv_arr(skeleton, "ref"), *orig = rv_arr(skeleton, "orig");
    const cJSON *parents = rv_arr(skeleton, "parents");
    if (!ref || !orig || !parents) return;
    int bone = (int)rv_int(skeleton, "bone", -1);
    sb_printf(b,
              "<svg class=\"figure\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
              "role=\"img\"><title>",
              2 * FW, FW + 16, 2 * FW, FW + 16);
    sb_printf(b, "the skeleton at the divergence, %s and %s; bone %d marked</title>\n", cand, auth,
              bone);
    static const char *const names[2] = {"x-y (front)", "z-y (side)"};
    for (int p = 0; p < 2; p++) {
        view v = {{0, 0}, 1, {p ? 2 : 0, 1}, p * FW};
        fit(&v, ref, orig);
        sb_printf(b, "<rect class=\"frame\" x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\"/>", p * FW,
                  FW, FW);
        side(b, &v, ref, parents, bone, "ref");
        side(b, &v, orig, parents, bone, "orig");
        sb_printf(b, "<text class=\"lbl\" x=\"%d\" y=\"%d\">%s</text>\n", p * FW + 4, FW + 12,
                  names[p]);
    }
    sb_puts(b, "</svg>\n");
}
