/*
 * harness/report/report_quirks_md.c: summary.md's "Quirks" section (the
 * quirk pass, report_quirks.h), rendered from report.json's "quirks" alone:
 * per row of the quirk table, what the engine does, what a plain reading
 * does, how many clips it bites and the first of them.
 */
#include "harness/report/report_md_base.h"
#include "harness/report/report_quirks.h"
#include "harness/report/report_view.h"

void report_quirks_md(strbuf *b, const cJSON *report)
{
    const cJSON *qz = rv_obj(report, "quirks"), *row;
    if (!qz) return;
    sb_printf(b, "## Quirks\n\nThe reference with each row of the quirk table switched, beside the "
                 "exact one, on %lld clip x mode pairs: where they first differ, the clip "
                 "exercises that row (docs/quirks.md).\n\n",
              (long long)rv_int(qz, "clips_studied", 0));
    /* A checked decoder's mismatches the table explains come first: they are causes. */
    cJSON_ArrayForEach(row, rv_arr(qz, "rows"))
    {
        const cJSON *f = rv_obj(row, "explains_first");
        if (rv_int(row, "explains", 0) <= 0 || !f) continue;
        sb_puts(b, "- **Cause**: your decoder ");
        rm_text(b, rv_str(row, "plain", "?"));
        sb_puts(b, "; the engine ");
        rm_text(b, rv_str(row, "engine", "?"));
        sb_puts(b, " (");
        rm_text(b, rv_str(row, "anchor", "?"));
        sb_printf(b, "). %lld mismatching clips; first ", (long long)rv_int(row, "explains", 0));
        rm_text(b, rv_str(f, "file", "?"));
        sb_printf(b, " clip %lld ", (long long)rv_int(f, "clip", -1));
        rm_text(b, rv_str(f, "mode", "?"));
        sb_printf(b, ", tick %lld ", (long long)rv_int(f, "tick", -1));
        rm_code(b, rv_str(f, "field", "?"));
        sb_printf(b, ": engine %lld, yours %lld\n", (long long)rv_int(f, "engine", 0),
                  (long long)rv_int(f, "plain", 0));
    }
    sb_puts(b, "\n| row | kind | the engine | clips | first clip |\n|---|---|---|---:|---|\n");
    cJSON_ArrayForEach(row, rv_arr(qz, "rows"))
    {
        sb_puts(b, "| ");
        rm_code(b, rv_str(row, "name", "?"));
        sb_puts(b, " | ");
        rm_text(b, rv_str(row, "kind", "?"));
        sb_puts(b, " | ");
        rm_text(b, rv_str(row, "engine", ""));
        sb_puts(b, " (");
        rm_text(b, rv_str(row, "anchor", ""));
        sb_puts(b, ") | ");
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "observable")))
            sb_puts(b, "no result shows it | - |\n");
        else {
            const cJSON *first = rv_obj(row, "first");
            sb_printf(b, "%lld | ", (long long)rv_int(row, "clips", 0));
            if (!first) sb_puts(b, "none in this corpus");
            else {
                rm_text(b, rv_str(first, "file", "?"));
                sb_printf(b, " clip %lld ", (long long)rv_int(first, "clip", -1));
                rm_text(b, rv_str(first, "mode", "?"));
                sb_printf(b, ", tick %lld ", (long long)rv_int(first, "tick", -1));
                rm_code(b, rv_str(first, "field", "?"));
                sb_printf(b, ": engine %lld, plain %lld", (long long)rv_int(first, "engine", 0),
                          (long long)rv_int(first, "plain", 0));
            }
            sb_puts(b, " |\n");
        }
    }
    sb_putc(b, '\n');
}
