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
#include "harness/report/report_cells.h"
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
    sb_printf(b, "## Groups (%zu)\n\n", n);
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

static void fault_item(strbuf *b, const cJSON *f, const char *who, const char *where)
{
    const cJSON *imp = rv_obj(f, "import"), *e;
    sb_puts(b, "**");
    rm_text(b, who);
    sb_puts(b, "** ");
    rm_text(b, where);
    sb_puts(b, ": ");
    rm_text(b, rv_str(f, "message", "?"));
    sb_puts(b, " (");
    rm_text(b, rv_str(f, "kind", "?"));
    sb_puts(b, ") at EIP ");
    rm_code(b, rv_str(f, "eip", "?"));
    sb_puts(b, ", address ");
    rm_code(b, rv_str(f, "address", "?"));
    if (imp) {
        sb_puts(b, ", import ");
        rm_code(b, rv_str(imp, "dll", "?"));
        sb_puts(b, " ");
        rm_code(b, rv_str(imp, "name", "?"));
    }
    sb_puts(b, "\n\n~~~\n");
    cJSON_ArrayForEach(e, rv_arr(f, "disassembly"))
    {
        if (cJSON_IsString(e)) rm_pre_line(b, e->valuestring);
    }
    sb_puts(b, "~~~\n\n");
}

void rm_faults_section(strbuf *b, const cJSON *report, const rv_index *ix)
{
    size_t n = 0;
    const cJSON *l;
    sb_puts(b, "## Faults\n\n");
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i], *f = rv_obj(r, "fault");
        if (!f || n++ >= MD_MAX_FAULTS) continue;
        char where[96];
        snprintf(where, sizeof where, "clip %lld, %.60s", (long long)rv_int(r, "clip", -1),
                 rv_str(r, "mode", "?"));
        fault_item(b, f, rv_str(r, "file", "?"), where);
    }
    cJSON_ArrayForEach(l, rv_arr(report, "leaf"))
    {
        const cJSON *f = rv_obj(l, "fault");
        if (f && n++ < MD_MAX_FAULTS) fault_item(b, f, rv_str(l, "routine", "?"), "leaf level");
    }
    if (!n)
        sb_puts(b, "None.\n\n");
    else if (n > MD_MAX_FAULTS)
        sb_printf(b, "%zu more faults are in report.json.\n\n", n - MD_MAX_FAULTS);
}

void rm_bad_section(strbuf *b, const rv_index *ix)
{
    size_t n = 0;
    sb_puts(b, "## Bad input\n\n");
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i], *err = rv_obj(r, "error");
        if (rv_status(rv_str(r, "status", NULL)) != RES_BAD_INPUT) continue;
        if (n++ >= MD_MAX_ROWS) continue;
        if (n == 1) sb_puts(b, "| File | Clip | Mode | Kind | Error |\n|---|---:|---|---|---|\n");
        sb_puts(b, "| ");
        rm_text(b, rv_str(r, "file", "?"));
        int64_t clip = rv_int(r, "clip", -1);
        if (clip >= 0)
            sb_printf(b, " | %lld | ", (long long)clip);
        else
            sb_puts(b, " | file | ");
        rm_text(b, rv_str(r, "mode", "?"));
        sb_puts(b, " | ");
        rm_text(b, rv_str(err, "kind", "?"));
        sb_puts(b, " | ");
        rm_text(b, rv_str(err, "message", "?"));
        sb_puts(b, " |\n");
    }
    if (!n)
        sb_puts(b, "None.\n");
    else if (n > MD_MAX_ROWS)
        sb_printf(b, "\n%zu more are in report.json.\n", n - MD_MAX_ROWS);
    sb_putc(b, '\n');
}

/* Clips the candidate did not decode, with how far it got and what its decoder said. */
void rm_not_decoded_section(strbuf *b, const rv_index *ix)
{
    size_t n = 0;
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i];
        int s = rv_status(rv_str(r, "status", NULL));
        if (s != RES_NOT_DECODED && !(s == RES_MATCH && rv_str(r, "decoder_error", NULL)))
            continue;
        if (n++ >= MD_MAX_ROWS) continue;
        if (n == 1)
            sb_puts(b, "## Not decoded\n\n| File | Clip | Mode | Status | How far |\n"
                       "|---|---:|---|---|---|\n");
        sb_puts(b, "| ");
        rm_text(b, rv_str(r, "file", "?"));
        sb_printf(b, " | %lld | ", (long long)rv_int(r, "clip", -1));
        rm_text(b, rv_str(r, "mode", "?"));
        sb_printf(b, " | %s | ", rv_status_label(s));
        strbuf t;
        sb_init(&t);
        report_not_decoded_text(&t, r);
        rm_text(b, t.s ? t.s : "");
        sb_free(&t);
        sb_puts(b, " |\n");
    }
    if (n > MD_MAX_ROWS) sb_printf(b, "\n%zu more are in report.json.\n", n - MD_MAX_ROWS);
    if (n) sb_putc(b, '\n');
}

void rm_files_section(strbuf *b, const rv_index *ix)
{
    size_t n = 0;
    sb_puts(b, "## Files with problems\n\n");
    for (size_t i = 0; i < ix->nfiles; i++) {
        const rv_file *f = &ix->files[i];
        for (int m = 0; m < MODE__COUNT; m++) {
            if (!res_status_sum(f->n[m], RES_SHARE_DIFF) && !res_status_sum(f->n[m], RES_SHARE_BAD))
                continue;
            if (n++ >= MD_MAX_ROWS) continue;
            if (n == 1) {
                sb_puts(b, "| File | Mode |");
                for (int s = 0; s < RES__COUNT; s++)
                    sb_printf(b, " %s |", rv_status_label(s));
                sb_puts(b, "\n|---|---|");
                for (int s = 0; s < RES__COUNT; s++) sb_puts(b, "---:|");
                sb_putc(b, '\n');
            }
            sb_puts(b, "| ");
            rm_text(b, f->name);
            sb_printf(b, " | %s |", mode_name((mode_id)m));
            for (int s = 0; s < RES__COUNT; s++)
                sb_printf(b, " %llu |", (unsigned long long)f->n[m][s]);
            sb_putc(b, '\n');
        }
    }
    if (!n)
        sb_puts(b, "None.\n");
    else if (n > MD_MAX_ROWS)
        sb_printf(b, "\n%zu more rows are in report.json.\n", n - MD_MAX_ROWS);
    sb_putc(b, '\n');
}

void rm_leaf_section(strbuf *b, const cJSON *report)
{
    const cJSON *arr = rv_arr(report, "leaf"), *l;
    if (!rv_len(arr)) return;
    sb_puts(b, "## Leaf routines\n\n| Routine | Calls | Mismatches | Faults | First mismatch |\n"
               "|---|---:|---:|---:|---|\n");
    cJSON_ArrayForEach(l, arr)
    {
        const cJSON *m = rv_obj(l, "first_mismatch");
        sb_puts(b, "| ");
        rm_text(b, rv_str(l, "routine", "?"));
        sb_printf(b, " | %llu | %llu | %llu | ", (unsigned long long)rv_u64(l, "calls", 0),
                  (unsigned long long)rv_u64(l, "mismatches", 0),
                  (unsigned long long)rv_u64(l, "faults", 0));
        if (m) {
            const cJSON *r = rv_obj(m, "ref"), *o = rv_obj(m, "orig");
            sb_printf(b, "case %llu, bytes ", (unsigned long long)rv_u64(m, "case", 0));
            rm_code(b, rv_str(m, "bytes", "?"));
            sb_printf(b, " bit %lld n %lld: ax %lld vs %lld, cursor %lld.%lld vs %lld.%lld",
                      (long long)rv_int(m, "bit", 0), (long long)rv_int(m, "n", 0),
                      (long long)rv_int(r, "ax", 0), (long long)rv_int(o, "ax", 0),
                      (long long)rv_int(r, "byte", 0), (long long)rv_int(r, "bit", 0),
                      (long long)rv_int(o, "byte", 0), (long long)rv_int(o, "bit", 0));
        } else {
            sb_puts(b, "none");
        }
        sb_puts(b, " |\n");
    }
    sb_putc(b, '\n');
}
