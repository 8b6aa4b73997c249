/*
 * harness/report/report_quirks_html.c: index.html's "Quirks" section (the
 * quirk pass, report_quirks.h), rendered from report.json's "quirks" alone,
 * every string escaped.
 */
#include "harness/report/report_html.h"
#include "harness/report/report_quirks.h"
#include "harness/report/report_view.h"

void report_quirks_html(strbuf *b, const cJSON *report)
{
    const cJSON *qz = rv_obj(report, "quirks"), *row;
    if (!qz) return;
    sb_printf(b, "<section id=\"quirks\"><h2>Quirks</h2>\n<p>The reference with each row of the "
                 "quirk table switched, beside the exact one, on %lld clip &times; mode pairs: "
                 "where they first differ, the clip exercises that row (docs/quirks.md).</p>\n",
              (long long)rv_int(qz, "clips_studied", 0));
    cJSON_ArrayForEach(row, rv_arr(qz, "rows"))
    {
        const cJSON *f = rv_obj(row, "explains_first");
        if (rv_int(row, "explains", 0) <= 0 || !f) continue;
        sb_puts(b, "<p class=\"cause\"><strong>Cause</strong>: your decoder ");
        rh_text(b, rv_str(row, "plain", "?"));
        sb_puts(b, "; the engine ");
        rh_text(b, rv_str(row, "engine", "?"));
        sb_puts(b, " (");
        rh_text(b, rv_str(row, "anchor", "?"));
        sb_printf(b, "). %lld mismatching clips; first ", (long long)rv_int(row, "explains", 0));
        rh_text(b, rv_str(f, "file", "?"));
        sb_printf(b, " clip %lld ", (long long)rv_int(f, "clip", -1));
        rh_text(b, rv_str(f, "mode", "?"));
        sb_printf(b, ", tick %lld <code>", (long long)rv_int(f, "tick", -1));
        rh_text(b, rv_str(f, "field", "?"));
        sb_printf(b, "</code>: engine %lld, yours %lld</p>\n", (long long)rv_int(f, "engine", 0),
                  (long long)rv_int(f, "plain", 0));
    }
    sb_puts(b, "<table><tr><th>row</th><th>kind</th><th>the engine</th><th>a plain reading"
               "</th><th>clips</th><th>first clip</th></tr>\n");
    cJSON_ArrayForEach(row, rv_arr(qz, "rows"))
    {
        sb_puts(b, "<tr><td><code>");
        rh_text(b, rv_str(row, "name", "?"));
        sb_puts(b, "</code></td><td>");
        rh_text(b, rv_str(row, "kind", "?"));
        sb_puts(b, "</td><td>");
        rh_text(b, rv_str(row, "engine", ""));
        sb_puts(b, " (");
        rh_text(b, rv_str(row, "anchor", ""));
        sb_puts(b, ")</td><td>");
        rh_text(b, rv_str(row, "plain", ""));
        sb_puts(b, "</td><td>");
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "observable"))) {
            sb_puts(b, "-</td><td>no result shows it</td></tr>\n");
            continue;
        }
        const cJSON *first = rv_obj(row, "first");
        sb_printf(b, "%lld</td><td>", (long long)rv_int(row, "clips", 0));
        if (!first) sb_puts(b, "none in this corpus");
        else {
            rh_text(b, rv_str(first, "file", "?"));
            sb_printf(b, " clip %lld ", (long long)rv_int(first, "clip", -1));
            rh_text(b, rv_str(first, "mode", "?"));
            sb_printf(b, ", tick %lld <code>", (long long)rv_int(first, "tick", -1));
            rh_text(b, rv_str(first, "field", "?"));
            sb_printf(b, "</code>: engine %lld, plain %lld", (long long)rv_int(first, "engine", 0),
                      (long long)rv_int(first, "plain", 0));
        }
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table></section>\n");
}
