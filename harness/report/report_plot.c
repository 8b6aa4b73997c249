/*
 * harness/report/report_plot.c: inline SVG plot of reference vs original over
 * ticks, and the stream-bytes table, for index.html. Reads the report tree
 * only; must not compute anything a comparison would.
 */
#include "harness/report/report_plot.h"

#include <string.h>

#include "harness/report/report_view.h"

enum { PW = 760, PH = 250, PL = 70, PR = 110, PT = 14, PB = 34 };

typedef struct axis {
    double lo, hi; /* value range (lo < hi) */
    size_t n;      /* ticks on the x axis (>= 1) */
} axis;

static double px(const axis *a, double i)
{
    double w = PW - PL - PR;
    return a->n > 1 ? PL + i * w / (double)(a->n - 1) : PL + w / 2;
}

static double py(const axis *a, double v)
{
    return PT + (a->hi - v) * (PH - PT - PB) / (a->hi - a->lo);
}

static void range_of(const cJSON *arr, double *lo, double *hi, int *any)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsNumber(e) || e->valuedouble != e->valuedouble) continue;
        if (!*any || e->valuedouble < *lo) *lo = e->valuedouble;
        if (!*any || e->valuedouble > *hi) *hi = e->valuedouble;
        *any = 1;
    }
}

/* The value at index i of arr, 1 when it is a number. */
static int value_at(const cJSON *arr, int64_t i, double *v)
{
    const cJSON *e = i >= 0 && i < (int64_t)rv_len(arr) ? cJSON_GetArrayItem(arr, (int)i) : NULL;
    if (!cJSON_IsNumber(e) || e->valuedouble != e->valuedouble) return 0;
    *v = e->valuedouble;
    return 1;
}

static void polyline(strbuf *b, const axis *a, const cJSON *arr, const char *cls)
{
    const cJSON *e;
    size_t i = 0, pts = 0;
    double lx = 0, ly = 0;
    sb_printf(b, "<polyline class=\"%s\" points=\"", cls);
    cJSON_ArrayForEach(e, arr)
    {
        if (cJSON_IsNumber(e) && e->valuedouble == e->valuedouble) {
            lx = px(a, (double)i);
            ly = py(a, e->valuedouble);
            sb_printf(b, "%s%.1f,%.1f", pts ? " " : "", lx, ly);
            pts++;
        }
        i++;
    }
    sb_puts(b, "\"/>\n");
    if (pts == 1)
        sb_printf(b, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n", cls, lx, ly);
}

static void label(strbuf *b, double x, double y, const char *anchor, const char *cls, double v)
{
    sb_printf(b, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%.15g</text>\n", cls,
              x, y, anchor, v);
}

static void axes(strbuf *b, const axis *a, double vlo, double vhi)
{
    double x0 = PL, x1 = PW - PR, y0 = PT, y1 = PH - PB;
    sb_printf(b, "<rect class=\"bg\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", PL, PT,
              PW - PL - PR, PH - PT - PB);
    sb_printf(b, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, y1,
              x1, y1);
    sb_printf(b, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0, y0,
              x0, y1);
    /* guides and value labels at the data's own min and max (the range is padded) */
    sb_printf(b, "<line class=\"guide\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
              py(a, vhi), x1, py(a, vhi));
    if (vlo != vhi)
        sb_printf(b, "<line class=\"guide\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                  x0, py(a, vlo), x1, py(a, vlo));
    label(b, x0 - 6, py(a, vhi) + 4, "end", "lbl ymax", vhi);
    if (vlo != vhi) label(b, x0 - 6, py(a, vlo) + 4, "end", "lbl ymin", vlo);
    label(b, px(a, 0), y1 + 16, "middle", "lbl xmin", 0);
    if (a->n > 1) label(b, x1, y1 + 16, "middle", "lbl xmax", (double)(a->n - 1));
    sb_printf(b, "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">tick</text>\n",
              (x0 + x1) / 2, y1 + 28.0);
}

static void legend(strbuf *b, const char *cand, const char *auth)
{
    double x = PW - PR + 14, y = PT + 14;
    sb_printf(b, "<line class=\"ref\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x, y - 4,
              x + 18, y - 4);
    sb_printf(b, "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\">", x + 24, y);
    sb_html(b, cand);
    sb_puts(b, "</text>\n");
    sb_printf(b, "<line class=\"orig\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x,
              y + 16, x + 18, y + 16);
    sb_printf(b, "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\">", x + 24, y + 20);
    sb_html(b, auth);
    sb_puts(b, "</text>\n");
}

static void marker(strbuf *b, const axis *a, const cJSON *ref, const cJSON *orig, int64_t tick)
{
    if (tick < 0) return;
    if ((uint64_t)tick >= a->n) {
        sb_printf(b,
                  "<text class=\"lbl div\" x=\"%d\" y=\"%d\" text-anchor=\"end\">divergence at "
                  "tick %lld (outside the plotted ticks)</text>\n",
                  PW - PR, PT + 12, (long long)tick);
        return;
    }
    double x = px(a, (double)tick), v;
    sb_printf(b, "<line class=\"div\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", x, PT, x,
              PH - PB);
    sb_printf(
        b, "<text class=\"lbl div\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">tick %lld</text>\n",
        x + (x > PW / 2 ? -4.0 : 4.0), PT + 12, x > PW / 2 ? "end" : "start", (long long)tick);
    if (value_at(ref, tick, &v))
        sb_printf(b, "<circle class=\"ref\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>\n", x, py(a, v));
    if (value_at(orig, tick, &v))
        sb_printf(b, "<circle class=\"orig\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>\n", x, py(a, v));
}

void report_plot_svg(strbuf *b, const cJSON *series, int64_t tick, const char *cand,
                     const char *auth)
{
    const cJSON *ref = rv_arr(series, "ref"), *orig = rv_arr(series, "orig");
    double lo = 0, hi = 0;
    int any = 0;
    range_of(ref, &lo, &hi, &any);
    range_of(orig, &lo, &hi, &any);
    axis a;
    a.n = rv_len(ref) > rv_len(orig) ? rv_len(ref) : rv_len(orig);
    if (a.n == 0) a.n = 1;
    /* pad so the lines never sit on the frame; a flat series gets +-1 */
    double pad = hi > lo ? (hi - lo) * 0.06 : 1;
    a.lo = lo - pad;
    a.hi = hi + pad;
    sb_printf(
        b, "<svg class=\"plot\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n",
        PW, PH, PW, PH);
    sb_puts(b, "<title>");
    sb_html(b, rv_str(series, "field", "value"));
    sb_printf(b, ": %s vs %s over ticks</title>\n", cand, auth);
    axes(b, &a, lo, hi);
    if (!any)
        sb_printf(b,
                  "<text class=\"lbl\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no values "
                  "recorded</text>\n",
                  (PL + PW - PR) / 2, PH / 2);
    polyline(b, &a, ref, "ref");
    polyline(b, &a, orig, "orig");
    marker(b, &a, ref, orig, tick);
    legend(b, cand, auth);
    sb_puts(b, "</svg>\n");
}

/* Splits s at spaces into at most max tokens of at most 15 characters. */
static size_t tokens(const char *s, char tok[][16], size_t max)
{
    size_t n = 0;
    while (s && *s && n < max) {
        while (*s == ' ')
            s++;
        if (!*s) break;
        size_t len = strcspn(s, " ");
        size_t keep = len < 15 ? len : 15;
        memcpy(tok[n], s, keep);
        tok[n][keep] = '\0';
        n++;
        s += len;
    }
    return n;
}

#define STREAM_MAX_COLS 64

void report_stream_table(strbuf *b, const cJSON *stream, int64_t cursor_bit)
{
    char hex[STREAM_MAX_COLS][16], bits[STREAM_MAX_COLS][16];
    size_t nh = tokens(rv_str(stream, "hex", ""), hex, STREAM_MAX_COLS);
    size_t nb = tokens(rv_str(stream, "bits_lsb_first", ""), bits, STREAM_MAX_COLS);
    size_t n = nh > nb ? nh : nb;
    uint64_t base = rv_u64(stream, "offset", 0);
    int64_t cur = rv_int(stream, "cursor_index", -1);
    /* The value's read, as bit numbers of the window (LSB first within each byte). */
    const cJSON *val = rv_obj(stream, "value");
    int64_t v0 = val ? rv_int(val, "index", 0) * 8 + rv_int(val, "bit", 0) : -1;
    int64_t v1 = val ? v0 + rv_int(val, "bits", 0) : -1;
    if (n == 0) {
        sb_puts(b, "<p class=\"muted\">No stream bytes recorded.</p>\n");
        return;
    }
    sb_puts(b, "<table class=\"stream\">\n<tr><th>file offset</th>");
    for (size_t i = 0; i < n; i++)
        sb_printf(b, "<td%s>0x%llx</td>", (int64_t)i == cur ? " class=\"cur\"" : "",
                  (unsigned long long)(base + i));
    sb_puts(b, "</tr>\n<tr><th>hex</th>");
    for (size_t i = 0; i < n; i++) {
        sb_printf(b, "<td%s>", (int64_t)i == cur ? " class=\"cur\"" : "");
        sb_html(b, i < nh ? hex[i] : "");
        sb_puts(b, "</td>");
    }
    sb_puts(b, "</tr>\n<tr><th>bits, LSB first</th>");
    for (size_t i = 0; i < n; i++) {
        const char *t = i < nb ? bits[i] : "";
        sb_printf(b, "<td class=\"bits%s\">", (int64_t)i == cur ? " cur" : "");
        for (size_t k = 0; t[k]; k++) {
            char one[2] = {t[k], '\0'};
            int mark = (int64_t)i == cur && (int64_t)k == cursor_bit;
            int64_t at = (int64_t)(i * 8 + k);
            int in_value = at >= v0 && at < v1;
            if (in_value) sb_puts(b, "<span class=\"valbit\">");
            if (mark) sb_puts(b, "<span class=\"curbit\">");
            sb_html(b, one);
            if (mark) sb_puts(b, "</span>");
            if (in_value) sb_puts(b, "</span>");
        }
        sb_puts(b, "</td>");
    }
    sb_puts(b, "</tr>\n</table>\n");
    if (val) {
        sb_printf(b, "<p class=\"muted\">Marked: the %lld bits ", (long long)(v1 - v0));
        sb_html(b, rv_str(val, "routine", "?"));
        sb_printf(b, " read for the diverging value, from file offset 0x%llx bit %lld",
                  (unsigned long long)(base + (uint64_t)rv_int(val, "index", 0)),
                  (long long)rv_int(val, "bit", 0));
        sb_puts(b, cur >= 0 ? "; in red, the cursor at the tick's start.</p>\n"
                            : "; the cursor at the tick's start lies outside this window.</p>\n");
    }
}
