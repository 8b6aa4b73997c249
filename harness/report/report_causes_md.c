/*
 * harness/report/report_causes_md.c: summary.md's opening section, the
 * causes (per cause: its statement, routine and instruction, counts, its
 * first example with both read logs side by side around the first
 * differing read, the groups it explains).
 * Rendered from the report tree alone; strings escaped as report_md.c does.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report_causes.h"
#include "harness/report/report_md_base.h"
#include "harness/report/report_view.h"

#define MD_MAX_CAUSES 20

static void window_table(strbuf *b, const cJSON *expl)
{
    const cJSON *w = rv_obj(expl, "window"), *ref = rv_arr(w, "ref"), *orig = rv_arr(w, "orig");
    const cJSON *first = rv_obj(expl, "first_read");
    int64_t at = first ? rv_int(first, "index", -1) : -1;
    size_t n = rv_len(ref) > rv_len(orig) ? rv_len(ref) : rv_len(orig);
    if (!n) return;
    sb_puts(b, "\n| read | reference | original |\n|---:|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        const cJSON *r = cJSON_GetArrayItem(ref, (int)i), *o = cJSON_GetArrayItem(orig, (int)i);
        int64_t idx = rv_int(r ? r : o, "index", -1);
        char rt[160] = "-", ot[160] = "-";
        if (r) report_read_text(r, rt, sizeof rt);
        if (o) report_read_text(o, ot, sizeof ot);
        const char *mark = idx == at ? "**" : "";
        sb_printf(b, "| %s%lld%s | ", mark, (long long)idx, mark);
        rm_code(b, rt);
        sb_puts(b, " | ");
        rm_code(b, ot);
        sb_puts(b, " |\n");
    }
}

static void example(strbuf *b, const cJSON *report, const cJSON *cause)
{
    const cJSON *g = report_group_by_id(report, rv_int(cause, "example_group", -1));
    const cJSON *ex = rv_obj(g, "example"), *expl = rv_obj(g, "explanation");
    if (!g) return;
    if (!strcmp(rv_str(g, "level", ""), "leaf")) {
        sb_puts(b, "- Example: leaf level, ");
        rm_text(b, rv_str(ex, "routine", "?"));
        sb_printf(b, " case %llu\n", (unsigned long long)rv_u64(ex, "case", 0));
        return;
    }
    sb_puts(b, "- First example: ");
    rm_text(b, rv_str(ex, "file", "?"));
    sb_printf(b, ", clip %lld, ", (long long)rv_int(ex, "clip", -1));
    rm_text(b, rv_str(ex, "mode", "?"));
    sb_printf(b, ", tick %lld, ", (long long)rv_int(ex, "tick", -1));
    rm_code(b, rv_str(ex, "field", "?"));
    sb_printf(b, " reference %lld, original %lld (group %lld)", (long long)rv_int(ex, "ref", 0),
              (long long)rv_int(ex, "orig", 0), (long long)rv_int(g, "id", -1));
    if (expl)
        sb_printf(b, "; the call made %llu reads in the reference, %llu in the original",
                  (unsigned long long)rv_u64(expl, "ref_reads", 0),
                  (unsigned long long)rv_u64(expl, "orig_reads", 0));
    sb_putc(b, '\n');
    if (expl) window_table(b, expl);
}

/* How the values differ under the cause, one input class (or field) each. */
static void values(strbuf *b, const cJSON *c)
{
    const cJSON *v;
    int k = 0;
    cJSON_ArrayForEach(v, rv_arr(c, "values"))
    {
        if (!cJSON_IsString(v)) continue;
        sb_puts(b, k++ ? "; " : "- Values (original vs reference): ");
        rm_text(b, v->valuestring);
    }
    uint64_t more = rv_u64(c, "more_values", 0);
    if (k && more) sb_printf(b, "; %llu more", (unsigned long long)more);
    if (k) sb_putc(b, '\n');
}

static void cause_item(strbuf *b, const cJSON *report, const cJSON *c)
{
    const cJSON *in = rv_obj(c, "instruction"), *n = rv_obj(c, "counts"), *g;
    sb_printf(b, "### Cause %lld: ", (long long)rv_int(c, "id", -1));
    rm_text(b, rv_str(c, "statement", "?"));
    sb_puts(b, "\n\n- Routine: ");
    rm_code(b, rv_str(c, "routine", "?"));
    if (in) {
        sb_puts(b, "; instruction ");
        rm_code(b, rv_str(in, "eip", "?"));
        sb_puts(b, " ");
        rm_code(b, rv_str(in, "text", "?"));
        sb_puts(b, " in ");
        rm_text(b, rv_str(in, "routine", "?"));
        char off[48];
        sb_puts(b, rv_offset_text(in, off, sizeof off));
    }
    /* what it explains: clips unless only entity clips or leaf calls */
    const uint64_t v[3] = {rv_u64(n, "clips", 0), rv_u64(n, "entity_clips", 0),
                           rv_u64(n, "leaf_calls", 0)};
    static const char *const what[3] = {"clip", "entity clip", "leaf call"};
    sb_puts(b, "\n- Explains ");
    for (int i = 0, k = 0; i < 3; i++) {
        if (!v[i] && (i > 0 || v[1] || v[2])) continue;
        sb_printf(b, "%s%llu %s%s", k++ ? " and " : "", (unsigned long long)v[i], what[i],
                  v[i] == 1 ? "" : "s");
    }
    sb_printf(b, " in %zu mode%s (", rv_len(rv_arr(n, "modes")),
              rv_len(rv_arr(n, "modes")) == 1 ? "" : "s");
    const cJSON *m;
    int k = 0;
    cJSON_ArrayForEach(m, rv_arr(n, "modes"))
    {
        if (!cJSON_IsString(m)) continue;
        if (k++) sb_puts(b, ", ");
        rm_text(b, m->valuestring);
    }
    sb_printf(b, ") of %llu file%s\n- Signature: ", (unsigned long long)rv_u64(n, "files", 0),
              rv_u64(n, "files", 0) == 1 ? "" : "s");
    rm_code(b, rv_str(c, "signature", "?"));
    sb_putc(b, '\n');
    values(b, c);
    example(b, report, c);
    sb_puts(b, "\nGroups it explains:");
    k = 0;
    cJSON_ArrayForEach(g, rv_arr(c, "groups"))
    {
        const cJSON *grp = report_group_by_id(report, (int64_t)g->valuedouble);
        sb_printf(b, "%s %lld (", k++ ? "," : "", (long long)g->valuedouble);
        rm_code(b, rv_str(grp, "field", "?"));
        sb_puts(b, " ");
        rm_text(b, rv_str(grp, "mode", "?"));
        sb_puts(b, " ");
        rm_text(b, rv_str(grp, "shape", "?"));
        sb_printf(b, ", %llu)", (unsigned long long)rv_u64(grp, "count", 0));
    }
    sb_puts(b, "\n\n");
}

void md_causes(strbuf *b, const cJSON *report)
{
    const cJSON *arr = rv_arr(report, "causes"), *c;
    size_t n = rv_len(arr), shown = 0;
    if (!arr) return;
    sb_printf(b, "## Causes (%zu)\n\n", n);
    if (!n) {
        sb_puts(b, rv_len(rv_arr(report, "groups"))
                       ? "Mismatches were not explained (no replay of the original).\n\n"
                       : "No mismatch.\n\n");
        return;
    }
    cJSON_ArrayForEach(c, arr)
    {
        if (shown++ == MD_MAX_CAUSES) {
            sb_printf(b, "%zu more causes are in report.json.\n\n", n - MD_MAX_CAUSES);
            break;
        }
        cause_item(b, report, c);
    }
}
