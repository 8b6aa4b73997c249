/*
 * harness/report/report_md.c: summary.md's sections still written as
 * Markdown text, from the report tree alone: groups with their first
 * divergence, faults, bad input, not decoded, files with problems, leaf
 * routines (the section table, report_sections.h, places them). Strings from the
 * tree are escaped for Markdown (tables included: `|` and line breaks),
 * and HTML-significant characters become entities, so a file name can
 * neither break a table nor inject markup. Recomputes nothing.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/report/report_md_base.h"
#include "harness/report/report_md_entity.h"
#include "harness/report/report_causes.h"
#include "harness/report/report_view.h"

#define MD_MAX_GROUPS 50
#define MD_MAX_FAULTS 20
#define MD_MAX_ROWS 100

static void group_item(strbuf *b, const cJSON *g, const rv_index *ix, const rv_entities *x,
                       rv_labels l)
{
    const cJSON *ex = rv_obj(g, "example");
    sb_printf(b, "### Group %lld: ", (long long)rv_int(g, "id", -1));
    rm_code(b, rv_str(g, "field", "?"));
    sb_puts(b, ", ");
    rm_text(b, rv_str(g, "level", "?"));
    sb_puts(b, ", ");
    rm_text(b, rv_str(g, "mode", "?"));
    sb_puts(b, ", ");
    rm_text(b, rv_str(g, "shape", "?"));
    sb_printf(b, " (%llu)", (unsigned long long)rv_u64(g, "count", 0));
    if (rv_has_num(g, "cause")) sb_printf(b, ", cause %lld", (long long)rv_int(g, "cause", -1));
    sb_puts(b, "\n\n");
    if (strcmp(rv_str(g, "level", ""), "leaf") == 0) {
        sb_puts(b, "- Routine ");
        rm_text(b, rv_str(ex, "routine", "?"));
        sb_printf(b, ", first mismatching case %llu\n\n",
                  (unsigned long long)rv_u64(ex, "case", 0));
        return;
    }
    if (strcmp(rv_str(g, "level", ""), "entity") == 0) {
        rm_entity_group(b, g, x, l);
        return;
    }
    sb_puts(b, "- First divergence: file ");
    rm_text(b, rv_str(ex, "file", "?"));
    sb_printf(b, ", clip %lld, mode ", (long long)rv_int(ex, "clip", -1));
    rm_text(b, rv_str(ex, "mode", "?"));
    sb_printf(b, ", tick %lld, field ", (long long)rv_int(ex, "tick", -1));
    rm_code(b, rv_str(ex, "field", "?"));
    sb_printf(b, ": %s %lld, %s %lld\n", l.cand, (long long)rv_int(ex, "ref", 0), l.auth,
              (long long)rv_int(ex, "orig", 0));
    rm_stream_lines(b, rv_obj(rv_result(ix, rv_int(ex, "result", -1)), "divergence"));
    const cJSON *w = rv_obj(g, "writer");
    if (w && rv_str(w, "eip", NULL)) {
        sb_puts(b, "- Original writer: ");
        rm_code(b, rv_str(w, "eip", "?"));
        sb_puts(b, " ");
        rm_code(b, rv_str(w, "instruction", "?"));
        sb_puts(b, " in ");
        rm_text(b, rv_str(w, "routine", "?"));
        char off[48];
        sb_printf(b, "%s\n", rv_offset_text(w, off, sizeof off));
    } else if (w && rv_str(w, "note", "")[0]) {
        sb_puts(b, "- Original writer: ");
        rm_text(b, rv_str(w, "note", ""));
        sb_putc(b, '\n');
    }
    sb_putc(b, '\n');
}

void rm_groups_section(strbuf *b, const cJSON *report, const rv_index *ix,
                           const rv_entities *x)
{
    const cJSON *arr = rv_arr(report, "groups"), *g;
    size_t n = rv_len(arr), shown = 0;
    sb_printf(b, "## Mismatch groups (%zu)\n\n", n);
    if (!n) sb_puts(b, "No mismatches.\n\n");
    cJSON_ArrayForEach(g, arr)
    {
        if (shown++ == MD_MAX_GROUPS) {
            sb_printf(b, "%zu more groups are in report.json.\n\n", n - MD_MAX_GROUPS);
            break;
        }
        group_item(b, g, ix, x, rv_sides(report));
    }
}
