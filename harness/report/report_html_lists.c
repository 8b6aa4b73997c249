/*
 * harness/report/report_html_lists.c: the list sections of index.html: per-file
 * table (counts per mode), non-matching results (capped; not decoded with
 * how far the decoder got and its "error" line), faults with
 * registers and disassembly, bad input with its error, leaf routines.
 * Reads the report tree only; every string from it is escaped.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/report/report_html.h"

static void td_text(strbuf *b, const char *cls, const char *s)
{
    if (cls)
        sb_printf(b, "<td class=\"%s\">", cls);
    else
        sb_puts(b, "<td>");
    rh_text_or(b, s, "-");
    sb_puts(b, "</td>");
}

static void td_num(strbuf *b, const cJSON *o, const char *key)
{
    if (rv_has_num(o, key))
        sb_printf(b, "<td class=\"num\">%.15g</td>", rv_num(o, key, 0));
    else
        sb_puts(b, "<td class=\"num muted\">-</td>");
}

void rh_files(strbuf *b, const cJSON *report, const rv_index *ix)
{
    (void)report;
    sb_printf(b, "<section id=\"files\"><h2>Files (%zu)</h2>\n<p>", ix->nfiles);
    for (int s = 0; s < RES__COUNT; s++)
        sb_printf(b, "<span class=\"pill %s\">%s</span>", res_status_name((res_status)s),
                  rv_status_label(s));
    sb_puts(b, " <span class=\"muted\">clip counts per mode</span></p>\n");
    sb_puts(b,
            "<table class=\"grid\" id=\"files-table\">\n<tr><th class=\"num\">#</th><th>File</th>"
            "<th>Kind</th><th class=\"num\">Bones</th><th class=\"num\">Clips</th>"
            "<th class=\"num\">Size</th>");
    for (int m = 0; m < MODE__COUNT; m++)
        if (ix->modes & (1u << m)) sb_printf(b, "<th>%s</th>", mode_name((mode_id)m));
    sb_puts(b, "</tr>\n");
    for (size_t i = 0; i < ix->nfiles; i++) {
        const rv_file *f = &ix->files[i];
        int bad = f->entry && strcmp(rv_str(f->entry, "status", "ok"), "ok") != 0;
        sb_printf(b, "<tr class=\"file%s\"><td class=\"num\">%zu</td>", bad ? " bad" : "", i);
        td_text(b, "name", f->name);
        if (bad)
            sb_puts(b, "<td><span class=\"pill bad_input\">bad input</span></td>");
        else
            td_text(b, NULL, rv_str(f->entry, "kind", NULL));
        td_num(b, f->entry, "bones");
        td_num(b, f->entry, "clips");
        td_num(b, f->entry, "size");
        for (int m = 0; m < MODE__COUNT; m++)
            if (ix->modes & (1u << m)) rh_status_cell(b, f->n[m]);
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table>\n</section>\n");
}

static void result_detail(strbuf *b, const cJSON *r, int s)
{
    if (s == RES_MISMATCH) {
        const cJSON *d = rv_obj(r, "divergence");
        sb_printf(b, "tick %lld <code>", (long long)rv_int(d, "tick", -1));
        rh_text(b, rv_str(d, "field", "?"));
        sb_puts(b, "</code> ");
        rh_value(b, d, "ref", rv_str(d, "field_kind", NULL), "ref-v");
        sb_puts(b, " vs ");
        rh_value(b, d, "orig", rv_str(d, "field_kind", NULL), "orig-v");
        uint64_t wt = rv_u64(rv_obj(rv_obj(r, "cells"), "counts"), "whole_turns", 0);
        if (wt)
            sb_printf(b, "; <a href=\"#whole-turns\">%llu whole-turn value%s</a>",
                      (unsigned long long)wt, wt == 1 ? "" : "s");
    } else if (s == RES_FAULT) {
        const cJSON *f = rv_obj(r, "fault");
        rh_text(b, rv_str(f, "message", rv_str(f, "kind", "fault")));
        sb_puts(b, " at EIP <code>");
        rh_text(b, rv_str(f, "eip", "?"));
        sb_puts(b, "</code>");
    } else if (s == RES_BAD_INPUT) {
        rh_text(b, rv_str(rv_obj(r, "error"), "message", "bad input"));
    }
    /* Why the decoder stopped (its "error" line), and how far it got. */
    if (s == RES_NOT_DECODED || rv_str(r, "decoder_error", NULL)) {
        strbuf t;
        sb_init(&t);
        report_not_decoded_text(&t, r);
        if (s != RES_NOT_DECODED) sb_puts(b, "; ");
        rh_text(b, t.s ? t.s : "");
        sb_free(&t);
    }
}

void rh_nonmatching(strbuf *b, const rv_index *ix)
{
    size_t listed = 0, more = 0;
    uint64_t not_run = 0;
    sb_puts(b, "<section id=\"nonmatching\"><h2>Non-matching results</h2>\n");
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i];
        int s = rv_status(rv_str(r, "status", NULL));
        if (s == RES_NOT_RUN) not_run++;
        /* A match is listed only when its decoder still wrote why it stopped. */
        int stopped = s == RES_MATCH && rv_str(r, "decoder_error", NULL);
        if (s < 0 || s == RES_NOT_RUN || (s == RES_MATCH && !stopped)) continue;
        if (listed == RH_MAX_LISTED) {
            more++;
            continue;
        }
        if (!listed++)
            sb_puts(b, "<table class=\"grid\" id=\"nonmatching-table\">\n<tr><th>File</th>"
                       "<th class=\"num\">Clip</th><th>Mode</th><th>Status</th><th>Source</th>"
                       "<th>Detail</th><th>Group</th></tr>\n");
        sb_puts(b, "<tr>");
        td_text(b, "name", rv_str(r, "file", NULL));
        int64_t clip = rv_int(r, "clip", -1);
        if (clip >= 0)
            sb_printf(b, "<td class=\"num\">%lld</td>", (long long)clip);
        else
            sb_puts(b, "<td class=\"num muted\">file</td>");
        td_text(b, NULL, rv_str(r, "mode", NULL));
        sb_printf(b, "<td><span class=\"pill %s\">%s</span></td>", res_status_name((res_status)s),
                  rv_status_label(s));
        td_text(b, NULL, rv_str(r, "source", NULL));
        sb_puts(b, "<td>");
        result_detail(b, r, s);
        sb_puts(b, "</td><td>");
        if (rv_has_num(r, "group"))
            sb_printf(b, "<a href=\"#group-%lld\">#%lld</a>", (long long)rv_int(r, "group", 0),
                      (long long)rv_int(r, "group", 0));
        sb_puts(b, "</td></tr>\n");
    }
    if (listed)
        sb_puts(b, "</table>\n");
    else
        sb_puts(b, "<p class=\"muted\">Every compared clip matched.</p>\n");
    if (more)
        sb_printf(b, "<p class=\"more\">%zu more non-matching results are in report.json.</p>\n",
                  more);
    if (not_run)
        sb_printf(b, "<p class=\"more\">%llu %s not run and %s not listed.</p>\n",
                  (unsigned long long)not_run, not_run == 1 ? "comparison was" : "comparisons were",
                  not_run == 1 ? "is" : "are");
    sb_puts(b, "</section>\n");
}

static void disassembly(strbuf *b, const cJSON *arr)
{
    const cJSON *e;
    sb_puts(b, "<pre class=\"disasm\">");
    if (!rv_len(arr)) sb_puts(b, "(no disassembly)");
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsString(e)) continue;
        int eip = e->valuestring[0] == '>';
        if (eip) sb_puts(b, "<span class=\"eip\">");
        rh_text(b, e->valuestring);
        if (eip) sb_puts(b, "</span>");
        sb_putc(b, '\n');
    }
    sb_puts(b, "</pre>\n");
}

static void fault_box(strbuf *b, const cJSON *f, const char *file, const char *where)
{
    static const char *const regs[] = {"eax", "ecx", "edx", "ebx", "esp",
                                       "ebp", "esi", "edi", "eip", "eflags"};
    sb_puts(b, "<div class=\"card-box fault-box fault\"><h3>");
    rh_text(b, file);
    sb_puts(b, " <span class=\"muted\">");
    rh_text(b, where);
    sb_puts(b, "</span><span class=\"tag\">");
    rh_text(b, rv_str(f, "kind", "?"));
    sb_puts(b, "</span></h3>\n<table class=\"kv\">\n");
    rh_kv(b, "Fault", rv_str(f, "message", NULL));
    rh_kv(b, "Routine", rv_str(f, "routine", NULL));
    rh_kv(b, "EIP", rv_str(f, "eip", NULL));
    rh_kv(b, "Address", rv_str(f, "address", NULL));
    const cJSON *imp = rv_obj(f, "import");
    if (imp) {
        sb_puts(b, "<tr><th>Import</th><td>");
        rh_text(b, rv_str(imp, "dll", "?"));
        sb_puts(b, "!");
        rh_text(b, rv_str(imp, "name", "?"));
        sb_puts(b, ", called from ");
        rh_text(b, rv_str(imp, "caller", "?"));
        sb_puts(b, "</td></tr>\n");
    }
    rh_kv(b, "Detail", rv_str(f, "detail", NULL));
    const cJSON *rg = rv_obj(f, "registers");
    sb_puts(b, "<tr><th>Registers</th><td class=\"mono\">");
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
        sb_printf(b, "%s%s=", i ? " " : "", regs[i]);
        rh_text(b, rv_str(rg, regs[i], "?"));
    }
    sb_puts(b, "</td></tr>\n</table>\n");
    disassembly(b, rv_arr(f, "disassembly"));
    sb_puts(b, "</div>\n");
}

void rh_faults(strbuf *b, const cJSON *report, const rv_index *ix)
{
    size_t shown = 0, more = 0;
    char where[96];
    sb_puts(b, "<section id=\"faults\"><h2>Faults</h2>\n");
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i], *f = rv_obj(r, "fault");
        if (!f) continue;
        if (shown == RH_MAX_FAULTS) {
            more++;
            continue;
        }
        snprintf(where, sizeof where, "clip %lld, %.60s", (long long)rv_int(r, "clip", -1),
                 rv_str(r, "mode", "?"));
        fault_box(b, f, rv_str(r, "file", "?"), where);
        shown++;
    }
    const cJSON *l;
    cJSON_ArrayForEach(l, rv_arr(report, "leaf"))
    {
        const cJSON *f = rv_obj(l, "fault");
        if (!f) continue;
        if (shown == RH_MAX_FAULTS) {
            more++;
            continue;
        }
        fault_box(b, f, rv_str(l, "routine", "?"), "leaf level");
        shown++;
    }
    if (!shown) sb_puts(b, "<p class=\"muted\">No fault.</p>\n");
    if (more) sb_printf(b, "<p class=\"more\">%zu more faults are in report.json.</p>\n", more);
    sb_puts(b, "</section>\n");
}

/* One row of the bad-input table; the table opens with its first row. */
static void bad_row(strbuf *b, size_t *listed, const char *file, const char *where,
                    const cJSON *err)
{
    if (!(*listed)++)
        sb_puts(b, "<table class=\"grid\" id=\"bad-table\">\n<tr><th>File</th><th>Where</th>"
                   "<th>Kind</th><th>Error</th></tr>\n");
    sb_puts(b, "<tr>");
    td_text(b, "name", file);
    td_text(b, NULL, where);
    td_text(b, NULL, rv_str(err, "kind", NULL));
    td_text(b, "name", rv_str(err, "message", rv_str(err, "reason", NULL)));
    sb_puts(b, "</tr>\n");
}

void rh_bad_inputs(strbuf *b, const cJSON *report, const rv_index *ix)
{
    size_t listed = 0, more = 0;
    const cJSON *e;
    sb_puts(b, "<section id=\"bad-input\"><h2>Bad input</h2>\n");
    cJSON_ArrayForEach(e, rv_arr(report, "manifest"))
    {
        const cJSON *err = rv_obj(e, "error");
        if (!err) continue;
        if (listed == RH_MAX_LISTED) {
            more++;
            continue;
        }
        bad_row(b, &listed, rv_str(e, "name", NULL), "whole file (manifest)", err);
    }
    const char *prev_file = NULL;
    int64_t prev_clip = -2;
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i], *err = rv_obj(r, "error");
        if (rv_status(rv_str(r, "status", NULL)) != RES_BAD_INPUT) continue;
        const char *file = rv_str(r, "file", "");
        int64_t clip = rv_int(r, "clip", -1);
        const rv_file *f = rv_find_file(ix, file);
        /* a whole-file error is already listed from the manifest, once */
        if (clip < 0 && f && rv_obj(f->entry, "error")) continue;
        if (prev_file && clip == prev_clip && strcmp(prev_file, file) == 0) continue;
        prev_file = file;
        prev_clip = clip;
        if (listed == RH_MAX_LISTED) {
            more++;
            continue;
        }
        char where[64];
        if (clip < 0)
            snprintf(where, sizeof where, "whole file");
        else
            snprintf(where, sizeof where, "clip %lld", (long long)clip);
        bad_row(b, &listed, file, where, err);
    }
    if (listed)
        sb_puts(b, "</table>\n");
    else
        sb_puts(b, "<p class=\"muted\">No bad input.</p>\n");
    if (more) sb_printf(b, "<p class=\"more\">%zu more bad inputs are in report.json.</p>\n", more);
    sb_puts(b, "</section>\n");
}

static void side(strbuf *b, const cJSON *s, const char *cls)
{
    sb_printf(b, "<span class=\"%s\">ax %lld</span>, cursor after: byte %lld bit %lld", cls,
              (long long)rv_int(s, "ax", 0), (long long)rv_int(s, "byte", 0),
              (long long)rv_int(s, "bit", 0));
}

void rh_leaf_case(strbuf *b, const cJSON *m)
{
    sb_puts(b, "<tr><th>Bytes at cursor</th><td><code>");
    rh_text(b, rv_str(m, "bytes", "?"));
    sb_printf(b, "</code>, bit %lld, n %lld</td></tr>\n", (long long)rv_int(m, "bit", 0),
              (long long)rv_int(m, "n", 0));
    sb_puts(b, "<tr><th>Reference</th><td>");
    side(b, rv_obj(m, "ref"), "ref-v");
    sb_puts(b, "</td></tr>\n<tr><th>Original</th><td>");
    side(b, rv_obj(m, "orig"), "orig-v");
    sb_puts(b, "</td></tr>\n");
}

void rh_leaf(strbuf *b, const cJSON *report)
{
    const cJSON *arr = rv_arr(report, "leaf"), *l;
    sb_puts(b, "<section id=\"leaf\"><h2>Leaf routines</h2>\n");
    if (!rv_len(arr)) {
        sb_puts(b, "<p class=\"muted\">The leaf level was not run.</p>\n</section>\n");
        return;
    }
    sb_puts(b, "<table class=\"grid\" id=\"leaf-table\">\n<tr><th>Routine</th>"
               "<th class=\"num\">Calls</th><th class=\"num\">Mismatches</th>"
               "<th class=\"num\">Faults</th><th>Group</th><th>First mismatch</th></tr>\n");
    cJSON_ArrayForEach(l, arr)
    {
        sb_puts(b, "<tr>");
        td_text(b, "mono", rv_str(l, "routine", NULL));
        td_num(b, l, "calls");
        td_num(b, l, "mismatches");
        td_num(b, l, "faults");
        sb_puts(b, "<td>");
        if (rv_has_num(l, "group"))
            sb_printf(b, "<a href=\"#group-%lld\">#%lld</a>", (long long)rv_int(l, "group", 0),
                      (long long)rv_int(l, "group", 0));
        sb_puts(b, "</td><td>");
        const cJSON *m = rv_obj(l, "first_mismatch");
        if (m) {
            sb_printf(b, "case %llu: <code>", (unsigned long long)rv_u64(m, "case", 0));
            rh_text(b, rv_str(m, "bytes", "?"));
            sb_printf(b, "</code> bit %lld n %lld: ", (long long)rv_int(m, "bit", 0),
                      (long long)rv_int(m, "n", 0));
            side(b, rv_obj(m, "ref"), "ref-v");
            sb_puts(b, " vs ");
            side(b, rv_obj(m, "orig"), "orig-v");
        } else {
            sb_puts(b, "<span class=\"muted\">none</span>");
        }
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table>\n</section>\n");
}
