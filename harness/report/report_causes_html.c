/*
 * harness/report/report_causes_html.c: index.html's causes (the page opens
 * with them: per cause its statement, routine and instruction, counts, the
 * first example's read logs side by side with the first differing read
 * marked, and links to the groups it explains). From the report tree
 * alone; every string escaped.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report_causes.h"
#include "harness/report/report_html.h"

#define RH_MAX_CAUSES 50

static void window_table(strbuf *b, const cJSON *expl)
{
    const cJSON *w = rv_obj(expl, "window"), *ref = rv_arr(w, "ref"), *orig = rv_arr(w, "orig");
    const cJSON *first = rv_obj(expl, "first_read");
    int64_t at = first ? rv_int(first, "index", -1) : -1;
    size_t n = rv_len(ref) > rv_len(orig) ? rv_len(ref) : rv_len(orig);
    if (!n) return;
    sb_puts(b, "<table class=\"grid reads\"><tr><th class=\"num\">read</th><th>reference</th>"
               "<th>original</th></tr>\n");
    for (size_t i = 0; i < n; i++) {
        const cJSON *r = cJSON_GetArrayItem(ref, (int)i), *o = cJSON_GetArrayItem(orig, (int)i);
        int64_t idx = rv_int(r ? r : o, "index", -1);
        char rt[160] = "-", ot[160] = "-";
        if (r) report_read_text(r, rt, sizeof rt);
        if (o) report_read_text(o, ot, sizeof ot);
        sb_printf(b, "<tr%s><td class=\"num\">%lld</td><td class=\"mono ref-v\">",
                  idx == at ? " class=\"first-diff\"" : "", (long long)idx);
        rh_text(b, rt);
        sb_puts(b, "</td><td class=\"mono orig-v\">");
        rh_text(b, ot);
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table>\n");
}

static void example(strbuf *b, const cJSON *report, const cJSON *cause)
{
    const cJSON *g = report_group_by_id(report, rv_int(cause, "example_group", -1));
    const cJSON *ex = rv_obj(g, "example"), *expl = rv_obj(g, "explanation");
    if (!g) return;
    sb_puts(b, "<tr><th>First example</th><td>");
    if (!strcmp(rv_str(g, "level", ""), "leaf")) {
        sb_puts(b, "leaf level, ");
        rh_text(b, rv_str(ex, "routine", "?"));
        sb_printf(b, " case %llu</td></tr>\n", (unsigned long long)rv_u64(ex, "case", 0));
        return;
    }
    rh_text(b, rv_str(ex, "file", "?"));
    sb_printf(b, ", clip %lld, ", (long long)rv_int(ex, "clip", -1));
    rh_text(b, rv_str(ex, "mode", "?"));
    sb_printf(b, ", tick %lld, <code>", (long long)rv_int(ex, "tick", -1));
    rh_text(b, rv_str(ex, "field", "?"));
    sb_printf(b, "</code> <span class=\"ref-v\">%lld</span> vs <span class=\"orig-v\">%lld</span>"
                 " (<a href=\"#group-%lld\">group %lld</a>)",
              (long long)rv_int(ex, "ref", 0), (long long)rv_int(ex, "orig", 0),
              (long long)rv_int(g, "id", -1), (long long)rv_int(g, "id", -1));
    if (expl)
        sb_printf(b, "; %llu reads in the reference, %llu in the original",
                  (unsigned long long)rv_u64(expl, "ref_reads", 0),
                  (unsigned long long)rv_u64(expl, "orig_reads", 0));
    sb_puts(b, "</td></tr>\n");
    if (expl) {
        sb_puts(b, "<tr><th>Reads of that call</th><td>");
        window_table(b, expl);
        sb_puts(b, "</td></tr>\n");
    }
}

static void cause_box(strbuf *b, const cJSON *report, const cJSON *c)
{
    const cJSON *in = rv_obj(c, "instruction"), *n = rv_obj(c, "counts"), *g;
    int64_t id = rv_int(c, "id", -1);
    sb_printf(b, "<div class=\"cause\" id=\"cause-%lld\"><h3>Cause %lld<span class=\"tag\">",
              (long long)id, (long long)id);
    rh_text(b, rv_str(c, "kind", "?"));
    uint64_t clips = rv_u64(n, "clips", 0) + rv_u64(n, "entity_clips", 0);
    sb_printf(b, "</span><span class=\"count\">%llu clip%s</span></h3>\n<p class=\"statement\">",
              (unsigned long long)clips, clips == 1 ? "" : "s");
    rh_text(b, rv_str(c, "statement", "?"));
    sb_puts(b, "</p>\n<table class=\"kv\">\n<tr><th>Routine</th><td><code>");
    rh_text(b, rv_str(c, "routine", "?"));
    sb_puts(b, "</code></td></tr>\n");
    if (in) {
        sb_puts(b, "<tr><th>Instruction</th><td><code>");
        rh_text(b, rv_str(in, "eip", "?"));
        sb_puts(b, ": ");
        rh_text(b, rv_str(in, "text", "?"));
        sb_puts(b, "</code> in ");
        rh_text(b, rv_str(in, "routine", "?"));
        char off[48];
        sb_printf(b, "%s</td></tr>\n", rv_offset_text(in, off, sizeof off));
    }
    sb_printf(b,
              "<tr><th>Counts</th><td>%llu clips, %llu entity clips, %llu leaf calls, %llu files, "
              "modes ",
              (unsigned long long)rv_u64(n, "clips", 0),
              (unsigned long long)rv_u64(n, "entity_clips", 0),
              (unsigned long long)rv_u64(n, "leaf_calls", 0),
              (unsigned long long)rv_u64(n, "files", 0));
    rh_list(b, rv_arr(n, "modes"));
    sb_puts(b, "</td></tr>\n<tr><th>Signature</th><td><code>");
    rh_text(b, rv_str(c, "signature", "?"));
    sb_puts(b, "</code></td></tr>\n");
    if (rv_len(rv_arr(c, "values"))) {
        sb_puts(b, "<tr><th>Values<br>(original vs reference)</th><td>");
        const cJSON *v;
        int k = 0;
        cJSON_ArrayForEach(v, rv_arr(c, "values"))
        {
            if (!cJSON_IsString(v)) continue;
            if (k++) sb_puts(b, "<br>");
            rh_text(b, v->valuestring);
        }
        uint64_t more = rv_u64(c, "more_values", 0);
        if (more) sb_printf(b, "; %llu more", (unsigned long long)more);
        sb_puts(b, "</td></tr>\n");
    }
    example(b, report, c);
    sb_puts(b, "<tr><th>Groups</th><td>");
    int k = 0;
    cJSON_ArrayForEach(g, rv_arr(c, "groups"))
    {
        const cJSON *grp = report_group_by_id(report, (int64_t)g->valuedouble);
        sb_printf(b, "%s<a href=\"#group-%lld\">#%lld</a> <code>", k++ ? ", " : "",
                  (long long)g->valuedouble, (long long)g->valuedouble);
        rh_text(b, rv_str(grp, "field", "?"));
        sb_puts(b, "</code> ");
        rh_text(b, rv_str(grp, "mode", "?"));
        sb_puts(b, " ");
        rh_text(b, rv_str(grp, "shape", "?"));
        sb_printf(b, " (%llu)", (unsigned long long)rv_u64(grp, "count", 0));
    }
    sb_puts(b, "</td></tr>\n</table></div>\n");
}

void rh_causes(strbuf *b, const cJSON *report)
{
    const cJSON *arr = rv_arr(report, "causes"), *c;
    size_t n = rv_len(arr), shown = 0;
    if (!arr) return;
    sb_printf(b, "<section id=\"causes\"><h2>Causes (%zu)</h2>\n", n);
    if (!n)
        sb_puts(b, rv_len(rv_arr(report, "groups"))
                       ? "<p class=\"muted\">Mismatches were not explained (no replay of the "
                         "original).</p>\n"
                       : "<p class=\"muted\">No mismatch.</p>\n");
    else
        sb_puts(b, "<p class=\"muted\">Mismatches merged by their first differing read (or, when "
                   "every read agrees, by the original's writing instruction), across modes and "
                   "files.</p>\n");
    cJSON_ArrayForEach(c, arr)
    {
        if (shown++ == RH_MAX_CAUSES) break;
        cause_box(b, report, c);
    }
    if (n > RH_MAX_CAUSES)
        sb_printf(b, "<p class=\"more\">%zu more causes are in report.json.</p>\n",
                  n - RH_MAX_CAUSES);
    sb_puts(b, "</section>\n");
}
