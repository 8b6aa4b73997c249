/*
 * harness/report/report_cells.c: the differing values of mismatching clips,
 * classed by their effect on the pose (harness/core/cells.h): each result's
 * "cells" and the totals' "cells" in report.json, and the section of
 * index.html and summary.md that lists the whole-turn differences, the
 * ones a viewer never shows. The sections render from report.json only.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/core/field_model.h"
#include "harness/report/report.h"
#include "harness/report/report_cells.h"
#include "harness/report/report_html.h"
#include "harness/report/report_md_base.h"
#include "harness/report/report_view.h"

static cJSON *cell_json(const cell_value *c)
{
    char name[64];
    field_id f = (field_id)c->field;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "tick", c->tick);
    cJSON_AddStringToObject(o, "field", field_name(f, c->bone, name, sizeof name));
    cJSON_AddStringToObject(o, "field_kind", field_kind_name(f));
    if (field_is_per_bone(f))
        cJSON_AddNumberToObject(o, "bone", c->bone);
    else
        cJSON_AddNullToObject(o, "bone");
    cJSON_AddNumberToObject(o, "ref", c->ref);
    cJSON_AddNumberToObject(o, "orig", c->orig);
    cJSON_AddStringToObject(o, "class", cell_class_name((cell_class)c->cls));
    if (c->mat == CELL_MAT_UNKNOWN)
        cJSON_AddNullToObject(o, "matrices");
    else
        cJSON_AddStringToObject(o, "matrices", c->mat == CELL_MAT_EQUAL ? "equal" : "differ");
    return o;
}

cJSON *report_cells_json(const cell_list *c)
{
    if (!c) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON *n = cJSON_AddObjectToObject(o, "counts");
    uint64_t total = 0;
    for (int k = 0; k < CELL__COUNT; k++) {
        cJSON_AddNumberToObject(n, cell_class_name((cell_class)k), (double)c->count[k]);
        total += c->count[k];
    }
    cJSON *m = cJSON_AddObjectToObject(o, "whole_turns_matrices");
    const char *from = cell_mat_from_name((cell_mat_from)c->mat_from);
    if (from)
        cJSON_AddStringToObject(m, "from", from);
    else
        cJSON_AddNullToObject(m, "from");
    cJSON_AddNumberToObject(m, "equal", (double)c->turns_equal);
    cJSON_AddNumberToObject(m, "differ", (double)c->turns_differ);
    cJSON *l = cJSON_AddArrayToObject(o, "listed");
    for (uint32_t i = 0; i < c->n; i++)
        cJSON_AddItemToArray(l, cell_json(&c->cell[i]));
    cJSON_AddNumberToObject(o, "unlisted", (double)(total - c->n));
    return o;
}

cJSON *report_cells_totals_json(const run_totals *t)
{
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; k < CELL__COUNT; k++)
        cJSON_AddNumberToObject(o, cell_class_name((cell_class)k), (double)t->cells[k]);
    cJSON_AddNumberToObject(o, "whole_turns_matrices_equal", (double)t->turns_equal);
    cJSON_AddNumberToObject(o, "whole_turns_matrices_differ", (double)t->turns_differ);
    return o;
}

/* ---- rendered from report.json ---- */

/* Whole turns of a listed cell, from its two values (in double: an edited file may hold any). */
static double turns(const cJSON *c)
{
    return trunc((rv_num(c, "ref", 0) - rv_num(c, "orig", 0)) / 4096);
}

static const char *matrices_text(const cJSON *c)
{
    return rv_str(c, "matrices", "not compared");
}

/* Whole-turn values in the run (the sections are left out without any). */
static uint64_t whole_turns(const cJSON *report)
{
    return rv_u64(rv_obj(rv_obj(report, "totals"), "cells"), "whole_turns", 0);
}

/* The sentence both renderers open with, through their escaping text(). */
static void lead(strbuf *b, const cJSON *report, const rv_labels *l,
                 void (*text)(strbuf *, const char *))
{
    const cJSON *t = rv_obj(rv_obj(report, "totals"), "cells");
    uint64_t wt = whole_turns(report);
    uint64_t eq = rv_u64(t, "whole_turns_matrices_equal", 0);
    uint64_t df = rv_u64(t, "whole_turns_matrices_differ", 0);
    char s[1024];
    snprintf(s, sizeof s,
             "%llu differing values are %s (rotations off by multiples of 4096, 16-bit wraps "
             "included). They are listed and counted, and their clips stay mismatches: the "
             "%s's value is not the %s's. Bone matrices at their ticks: %llu equal, %llu "
             "differ, %llu not compared. Other differing values: %llu pose, %llu decoder "
             "state.",
             (unsigned long long)wt, cell_class_text(CELL_WHOLE_TURNS), l->cand, l->auth,
             (unsigned long long)eq, (unsigned long long)df,
             (unsigned long long)(wt - (eq + df <= wt ? eq + df : wt)),
             (unsigned long long)rv_u64(t, "pose", 0), (unsigned long long)rv_u64(t, "state", 0));
    text(b, s);
}

/* Calls row(b, result, cell) on each listed whole-turn cell, up to cap; returns how many exist. */
static uint64_t each_turn(strbuf *b, const rv_index *ix, size_t cap,
                          void (*row)(strbuf *, const cJSON *, const cJSON *))
{
    uint64_t n = 0;
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *cl = rv_obj(ix->results[i], "cells"), *c;
        cJSON_ArrayForEach(c, rv_arr(cl, "listed"))
        {
            if (strcmp(rv_str(c, "class", ""), "whole_turns") != 0) continue;
            if (n++ < cap) row(b, ix->results[i], c);
        }
    }
    return n;
}

static void html_row(strbuf *b, const cJSON *r, const cJSON *c)
{
    sb_puts(b, "<tr class=\"turn\"><td class=\"name\">");
    rh_text(b, rv_str(r, "file", "?"));
    sb_printf(b, "</td><td class=\"num\">%lld</td><td>", (long long)rv_int(r, "clip", -1));
    rh_text(b, rv_str(r, "mode", "?"));
    sb_printf(b, "</td><td class=\"num\">%lld</td><td><code>", (long long)rv_int(c, "tick", -1));
    rh_text(b, rv_str(c, "field", "?"));
    sb_printf(b, "</code></td><td class=\"num\">%lld</td><td class=\"num\">%lld</td>",
              (long long)rv_int(c, "ref", 0), (long long)rv_int(c, "orig", 0));
    sb_printf(b, "<td class=\"num\">%+.0f</td><td>", turns(c));
    rh_text(b, matrices_text(c));
    sb_puts(b, "</td></tr>\n");
}

void report_cells_html(strbuf *b, const cJSON *report, const rv_index *ix)
{
    if (!whole_turns(report)) return;
    rv_labels l = rv_sides(report);
    sb_puts(b, "<section id=\"whole-turns\"><h2>Differences a viewer never shows</h2>\n<p>");
    lead(b, report, &l, rh_text);
    sb_puts(b, "</p>\n<table class=\"grid\" id=\"whole-turns-table\">\n<tr><th>File</th>"
               "<th class=\"num\">Clip</th><th>Mode</th><th class=\"num\">Tick</th><th>Field</th>"
               "<th class=\"num\">");
    rh_text(b, l.Cand);
    sb_puts(b, "</th><th class=\"num\">");
    rh_text(b, l.Auth);
    sb_puts(b, "</th><th class=\"num\">Turns</th><th>Bone matrices</th></tr>\n");
    uint64_t n = each_turn(b, ix, RH_MAX_LISTED, html_row);
    sb_puts(b, "</table>\n");
    if (n > RH_MAX_LISTED)
        sb_printf(b, "<p class=\"more\">%llu more listed in report.json.</p>\n",
                  (unsigned long long)(n - RH_MAX_LISTED));
    sb_puts(b, "</section>\n");
}

static void md_row(strbuf *b, const cJSON *r, const cJSON *c)
{
    sb_puts(b, "| ");
    rm_text(b, rv_str(r, "file", "?"));
    sb_printf(b, " | %lld | ", (long long)rv_int(r, "clip", -1));
    rm_text(b, rv_str(r, "mode", "?"));
    sb_printf(b, " | %lld | ", (long long)rv_int(c, "tick", -1));
    rm_code(b, rv_str(c, "field", "?"));
    sb_printf(b, " | %lld | %lld | %+.0f | ", (long long)rv_int(c, "ref", 0),
              (long long)rv_int(c, "orig", 0), turns(c));
    rm_text(b, matrices_text(c));
    sb_puts(b, " |\n");
}

/* Rows of the Markdown table: fewer than the page's, summary.md is read whole. */
#define RM_MAX_TURNS 50

void report_cells_md(strbuf *b, const cJSON *report, const rv_index *ix)
{
    if (!whole_turns(report)) return;
    rv_labels l = rv_sides(report);
    sb_puts(b, "## Differences a viewer never shows\n\n");
    lead(b, report, &l, rm_text);
    sb_puts(b, "\n\n| File | Clip | Mode | Tick | Field | ");
    rm_text(b, l.Cand);
    sb_puts(b, " | ");
    rm_text(b, l.Auth);
    sb_puts(b, " | Turns | Bone matrices |\n|---|---:|---|---:|---|---:|---:|---:|---|\n");
    uint64_t n = each_turn(b, ix, RM_MAX_TURNS, md_row);
    if (n > RM_MAX_TURNS)
        sb_printf(b, "\n%llu more in report.json.\n", (unsigned long long)(n - RM_MAX_TURNS));
    sb_puts(b, "\n");
}
