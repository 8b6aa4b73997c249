/*
 * harness/report/report_html.c: index.html's style sheet (one self-contained
 * page: inline CSS, no script, no external resource) and its mismatch
 * groups with their first divergence and a plot, from the report tree
 * alone (the page itself: report_sections.c).
 *
 * Every string taken from the tree goes through sb_html; a missing or
 * ill-typed key is shown as absent, never a crash. Must not recompute
 * anything the run decided.
 */
#include <string.h>

#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_causes.h"
#include "harness/report/report_html.h"
#include "harness/report/report_html_entity.h"
#include "harness/report/report_plot.h"
#include "harness/report/report_view.h"

static const char css[] =
    "*{box-sizing:border-box}"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d2330;"
    "background:#f4f6f9;margin:0;padding:0 0 40px}"
    "main{max-width:1240px;margin:0 auto;padding:0 20px}"
    "header.top{background:#1f2a3c;color:#fff;padding:18px 0 14px;margin-bottom:18px}"
    "header.top h1{margin:0;font-size:22px;font-weight:600}"
    "header.top .sub{color:#b8c4d8;margin-top:4px}"
    "h2{font-size:18px;margin:28px 0 10px;padding-bottom:4px;border-bottom:2px solid #d5dbe5}"
    "h3{font-size:15px;margin:0 0 8px}"
    "code,pre,.mono,.stream td{font-family:ui-monospace,'DejaVu Sans "
    "Mono',Menlo,Consolas,monospace;"
    "font-size:12.5px}"
    "section{margin-bottom:10px}"
    ".card-box{background:#fff;border:1px solid #d9dee7;border-radius:8px;padding:14px 16px;"
    "margin:10px 0}"
    "table{border-collapse:collapse}"
    "table.kv th{text-align:left;color:#55607a;font-weight:500;padding:3px 14px 3px 0;"
    "vertical-align:top;white-space:nowrap}"
    "table.kv td{padding:3px 0;word-break:break-all}"
    "table.grid{width:100%;background:#fff;border:1px solid #d9dee7}"
    "table.grid th{background:#e9edf3;text-align:left;padding:6px 8px;font-weight:600;"
    "border-bottom:1px solid #d0d6e0;white-space:nowrap}"
    "table.grid td{padding:5px 8px;border-bottom:1px solid #edf0f4;vertical-align:top}"
    "table.grid tr:nth-child(even) td{background:#fafbfd}"
    "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
    ".name{white-space:nowrap}"
    ".tbl{overflow-x:auto;max-width:100%}"
    "details.fold summary{cursor:pointer;color:#55607a;margin:6px 0}"
    ".banner{border-radius:8px;padding:10px 14px;margin:10px 0;font-weight:600}"
    ".banner.warn{background:#fff4d6;border:1px solid #e8b93c;color:#6b4a00}"
    ".banner.stop{background:#fde2e1;border:1px solid #d9534f;color:#7a1512}"
    ".banner.note{background:#e3efff;border:1px solid #6b9be0;color:#183f78}"
    ".verdict{display:inline-block;border-radius:6px;padding:2px 10px;margin-left:10px;"
    "font-size:14px;vertical-align:middle}"
    ".verdict.pass{background:#2e9d5b}.verdict.fail{background:#d2433f}"
    ".verdict.incomplete{background:#c78a12}"
    ".cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 12px}"
    ".card{background:#fff;border:1px solid #d9dee7;border-left:5px solid "
    "#8a94a6;border-radius:8px;"
    "padding:8px 14px;min-width:130px}"
    ".card .v{font-size:22px;font-weight:650;font-variant-numeric:tabular-nums}"
    ".card .k{color:#55607a;font-size:12px;text-transform:uppercase;letter-spacing:.04em}"
    ".card.match{border-left-color:#2e9d5b}.card.mismatch{border-left-color:#d2433f}"
    ".card.fault{border-left-color:#8e44ad}.card.bad_input{border-left-color:#e08a1e}"
    ".card.not_run{border-left-color:#8a94a6}.card.not_decoded{border-left-color:#c0392b}"
    ".pill{display:inline-block;border-radius:10px;padding:0 7px;margin:1px 2px;font-size:12px;"
    "font-weight:600;white-space:nowrap}"
    ".pill.match{background:#dcf3e5;color:#1d6b3d}.pill.mismatch{background:#fbdedd;color:#8f1d1a}"
    ".pill.fault{background:#eddcf5;color:#5d2277}.pill.bad_input{background:#fde8cc;color:#7a4500}"
    ".pill.not_run{background:#e6e9ee;color:#4a5364}"
    ".pill.not_decoded{background:#f6d5c8;color:#7b2410}"
    ".tag{display:inline-block;background:#e9edf3;border-radius:4px;padding:0 6px;margin-left:4px;"
    "font-size:12px;font-weight:500;color:#3b4559}"
    ".group{background:#fff;border:1px solid #d9dee7;border-left:5px solid "
    "#d2433f;border-radius:8px;"
    "padding:12px 16px;margin:12px 0}"
    ".group .count{float:right;color:#8f1d1a;font-weight:600}"
    ".gbody{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}"
    ".gtext{flex:1 1 380px;min-width:320px}.gplot{flex:0 1 auto}"
    ".stream-box{overflow-x:auto;margin-top:6px}"
    ".cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(480px,1fr));gap:0 14px}"
    ".cols .card-box{margin:4px 0}"
    ".ref-v{color:#1f5fbf;font-weight:600}.orig-v{color:#c2410c;font-weight:600}"
    "table.stream{margin-top:8px;border:1px solid #d9dee7}"
    "table.stream th{font-weight:500;color:#55607a;text-align:left;padding:2px 8px;"
    "background:#f3f5f8;white-space:nowrap}"
    "table.stream td{padding:2px 6px;text-align:center;border-left:1px solid #edf0f4}"
    "table.stream td.cur{background:#ffe9a8;font-weight:700}"
    ".curbit{background:#d2433f;color:#fff;border-radius:2px;padding:0 1px}"
    ".valbit{background:#f7dd72;border-radius:2px}"
    "svg.plot{background:#fff;border:1px solid "
    "#e2e6ee;border-radius:6px;max-width:100%;height:auto}"
    "svg.plot .bg{fill:#fbfcfe}"
    "svg.plot .axis{stroke:#8a94a6;stroke-width:1}"
    "svg.plot .guide{stroke:#dfe3ea;stroke-width:1;stroke-dasharray:2 3}"
    "svg.plot polyline{fill:none;stroke-width:2;stroke-linejoin:round}"
    "svg.plot .ref{stroke:#1f5fbf;fill:#1f5fbf}svg.plot polyline.ref{fill:none}"
    "svg.plot .orig{stroke:#ea580c;fill:#ea580c;stroke-dasharray:5 3}"
    "svg.plot polyline.orig{fill:none}svg.plot circle.orig{stroke-dasharray:none}"
    "svg.plot line.ref,svg.plot line.orig{stroke-width:3}"
    "svg.figure{background:#fff;border:1px solid #dfe3ea;border-radius:6px;margin-top:8px}"
    "svg.figure .frame{fill:#fbfcfe;stroke:#dfe3ea}"
    "svg.figure line{stroke-width:1.5}svg.figure .ref{stroke:#1f5fbf;fill:#1f5fbf}"
    "svg.figure .orig{stroke:#ea580c;fill:none;stroke-dasharray:4 2}"
    "svg.figure line.hit{stroke-width:4}svg.figure circle.hit{stroke-width:2}"
    "svg.figure line.axis{stroke-width:2}svg.figure line.axis.a0{stroke:#dc2626}"
    "svg.figure line.axis.a1{stroke:#16a34a}svg.figure line.axis.a2{stroke:#7c3aed}"
    "svg.figure .lbl{font-size:11px;fill:#5b6578}"
    "svg.plot .div{stroke:#d2433f;stroke-dasharray:3 3;fill:#d2433f}"
    "svg.plot .lbl{font:11px system-ui,sans-serif;fill:#3b4559;stroke:none}"
    "pre{background:#1f2a3c;color:#e4e9f2;padding:10px 12px;border-radius:6px;overflow-x:auto;"
    "margin:6px 0}"
    "pre .eip{background:#d2433f;color:#fff}"
    ".cause{background:#fff;border:1px solid #d9dee7;border-left:5px solid #1f5fbf;"
    "border-radius:8px;padding:12px 16px;margin:12px 0}"
    ".cause .count{float:right;color:#183f78;font-weight:600}"
    "p.statement{font-size:15px;font-weight:600;margin:4px 0 8px}"
    "table.reads td{padding:2px 8px;white-space:pre}"
    "table.grid.reads tr.first-diff td{background:#fde2e1;font-weight:700}"
    ".fault-box{border-left:5px solid #8e44ad}"
    ".muted{color:#7a8499}"
    "p.more{color:#55607a;font-style:italic}"
    "footer{color:#7a8499;margin-top:30px;font-size:12px}";

/* The original instruction that wrote the diverging field (harness/run/writers.c). */
static void writer_row(strbuf *b, const cJSON *w)
{
    if (!w) return;
    sb_puts(b, "<tr><th>Original writer</th><td class=\"writer\">");
    const char *eip = rv_str(w, "eip", NULL);
    if (eip) {
        sb_puts(b, "<code>");
        rh_text(b, eip);
        sb_puts(b, ": ");
        rh_text(b, rv_str(w, "instruction", "?"));
        sb_puts(b, "</code> in ");
        rh_text(b, rv_str(w, "routine", "?"));
        char off[48];
        sb_puts(b, rv_offset_text(w, off, sizeof off));
        sb_printf(b, " (last of %llu writes in that call, value 0x%llx)",
                  (unsigned long long)rv_u64(w, "writes", 0),
                  (unsigned long long)rv_u64(w, "value", 0));
    }
    const char *note = rv_str(w, "note", "");
    if (note[0]) {
        if (eip) sb_puts(b, "; ");
        rh_text(b, note);
    }
    sb_puts(b, "</td></tr>\n");
}

static void frame_example(strbuf *b, const cJSON *g, const rv_index *ix, rv_labels l)
{
    const cJSON *ex = rv_obj(g, "example");
    const cJSON *r = rv_result(ix, rv_int(ex, "result", -1));
    const cJSON *d = rv_obj(r, "divergence"), *cur = rv_obj(d, "cursor");
    const char *kind = rv_str(d, "field_kind", rv_str(g, "field", NULL));
    sb_puts(b, "<div class=\"gbody\"><div class=\"gtext\"><table class=\"kv\">\n");
    rh_kv(b, "File", rv_str(ex, "file", NULL));
    sb_printf(b, "<tr><th>Clip / mode</th><td>clip %lld, ", (long long)rv_int(ex, "clip", -1));
    rh_text(b, rv_str(ex, "mode", "?"));
    sb_puts(b, "</td></tr>\n");
    sb_printf(b, "<tr><th>First divergence</th><td>tick %lld, <code>",
              (long long)rv_int(ex, "tick", -1));
    rh_text(b, rv_str(ex, "field", "?"));
    sb_printf(b, "</code></td></tr>\n<tr><th>%s vs %s</th><td>", l.Cand, l.auth);
    rh_value(b, ex, "ref", kind, "ref-v");
    sb_puts(b, " vs ");
    rh_value(b, ex, "orig", kind, "orig-v");
    sb_puts(b, "</td></tr>\n");
    if (cur)
        sb_printf(b,
                  "<tr><th>Cursor at tick start</th><td>byte %lld, bit %lld "
                  "(file offset 0x%llx)</td></tr>\n",
                  (long long)rv_int(cur, "byte", -1), (long long)rv_int(cur, "bit", -1),
                  (unsigned long long)rv_u64(cur, "file_offset", 0));
    if (d) rh_kv_num(b, "Differing field values", d, "differing_fields");
    if (r)
        sb_printf(b, "<tr><th>Ticks</th><td>%llu %s, %llu %s</td></tr>\n",
                  (unsigned long long)rv_u64(r, "ticks_ref", 0), l.cand,
                  (unsigned long long)rv_u64(r, "ticks_orig", 0), l.auth);
    writer_row(b, rv_obj(g, "writer"));
    sb_puts(b, "</table>\n</div><div class=\"gplot\">\n");
    report_plot_svg(b, rv_obj(g, "series"), rv_int(ex, "tick", -1), l.cand, l.auth);
    const cJSON *skeleton = rv_obj(g, "skeleton");
    if (skeleton) report_figure_svg(b, skeleton, l.cand, l.auth);
    sb_puts(b, "</div></div>\n");
    if (d) {
        sb_puts(b, "<div class=\"stream-box\">");
        report_stream_table(b, rv_obj(d, "stream"), rv_int(cur, "bit", -1));
        sb_puts(b, "</div>\n");
    }
}

static void leaf_example(strbuf *b, const cJSON *g, const cJSON *report)
{
    const cJSON *ex = rv_obj(g, "example"), *l, *hit = NULL;
    const char *routine = rv_str(ex, "routine", NULL);
    cJSON_ArrayForEach(l, rv_arr(report, "leaf"))
    {
        if (routine && strcmp(rv_str(l, "routine", ""), routine) == 0) hit = l;
    }
    sb_puts(b, "<table class=\"kv\">\n");
    rh_kv(b, "Routine", routine);
    rh_kv_num(b, "First case", ex, "case");
    const cJSON *m = rv_obj(hit, "first_mismatch");
    if (m) rh_leaf_case(b, m);
    sb_puts(b, "</table>\n");
}

void rh_groups(strbuf *b, const cJSON *report, const rv_index *ix, const rv_entities *ents)
{
    const cJSON *arr = rv_arr(report, "groups"), *g;
    size_t n = rv_len(arr), shown = 0;
    sb_printf(b, "<section id=\"groups\"><h2>Mismatch groups (%zu)</h2>\n", n);
    if (!n)
        sb_puts(b, "<p class=\"muted\">No mismatches: nothing to group.</p>\n");
    else
        sb_puts(b, "<p class=\"muted\">Mismatches grouped by signature (level, field, mode, shape "
                   "of the difference), largest first; each with the first divergence of its "
                   "first example.</p>\n");
    cJSON_ArrayForEach(g, arr)
    {
        if (shown == RH_MAX_GROUPS) break;
        int64_t id = rv_int(g, "id", (int64_t)shown);
        sb_printf(b, "<div class=\"group\" id=\"group-%lld\"><h3>#%lld <code>", (long long)id,
                  (long long)id);
        rh_text(b, rv_str(g, "field", "?"));
        sb_puts(b, "</code><span class=\"tag\">");
        rh_text(b, rv_str(g, "level", "?"));
        sb_puts(b, "</span><span class=\"tag\">");
        rh_text(b, rv_str(g, "mode", "?"));
        sb_puts(b, "</span><span class=\"tag\">");
        rh_text(b, rv_str(g, "shape", "?"));
        int leaf = strcmp(rv_str(g, "level", ""), "leaf") == 0;
        uint64_t count = rv_u64(g, "count", 0);
        if (rv_has_num(g, "cause"))
            sb_printf(b, "</span><span class=\"tag\"><a href=\"#cause-%lld\">cause %lld</a>",
                      (long long)rv_int(g, "cause", -1), (long long)rv_int(g, "cause", -1));
        sb_printf(b, "</span><span class=\"count\">%llu %s</span></h3>\n",
                  (unsigned long long)count,
                  leaf ? (count == 1 ? "mismatching call" : "mismatching calls")
                       : (count == 1 ? "clip" : "clips"));
        if (leaf)
            leaf_example(b, g, report);
        else if (strcmp(rv_str(g, "level", ""), "entity") == 0)
            rh_entity_example(b, g, ents, rv_sides(report));
        else
            frame_example(b, g, ix, rv_sides(report));
        sb_puts(b, "</div>\n");
        shown++;
    }
    if (n > shown)
        sb_printf(b, "<p class=\"more\">%zu more groups are in report.json.</p>\n", n - shown);
    sb_puts(b, "</section>\n");
}

const char *report_html_css(void)
{
    return css;
}
