/*
 * harness/report/report_view_groups.c: the "Mismatch groups" section's
 * view: mismatches grouped by signature, largest first (up to 100), each
 * with the first divergence of its first example: at the frame level the
 * file, clip, tick and field, both values, the cursor, the original's
 * writer, then the plot and skeleton (figures in index.html) and the
 * stream window (a table in index.html, its bytes and bits in
 * summary.md); at the leaf level the routine and its first case; at the
 * entity level the pair's example (report_view_entities.c).
 *
 * Reads report.json through report_key.h; must not recompute, print or exit.
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_md_base.h"
#include "harness/report/report_plot.h"
#include "harness/report/report_sections.h"

#define MAX_GROUPS 100 /* groups drawn with their example */

/* A value at key, with its hex when the field is a flag byte; "?" when absent. */
static void value(rd_node *in, rk o, const char *key, const char *kind)
{
    if (!rk_has(o, key)) {
        rd_text(in, RD_STRONG, "?");
        return;
    }
    int64_t v = rk_int(o, key, 0);
    int f = kind ? field_from_kind_name(kind) : -1;
    if (f >= 0 && field_is_bits((field_id)f))
        rd_textf(in, RD_STRONG, "%lld (0x%02llx)", (long long)v, (unsigned long long)v & 0xFF);
    else
        rd_textf(in, RD_STRONG, "%lld", (long long)v);
}

/* The original instruction that wrote the diverging field (harness/run/writers.c). */
static void writer_row(rd_node *kv, rk w)
{
    if (!w.j) return;
    rd_node *v = rd_kv_row(kv, "Original writer", NULL);
    const char *eip = rk_str(w, "eip", NULL), *note = rk_str(w, "note", "");
    if (eip) {
        char code[256], off[48];
        snprintf(code, sizeof code, "%s: %s", eip, rk_str(w, "instruction", "?"));
        rd_text(v, RD_CODE, code);
        rk_note(w, "in_profile");
        rd_textf(v, RD_PLAIN, " in %s%s (last of %llu writes in that call, value 0x%llx)",
                 rk_str(w, "routine", "?"), rv_offset_text(w.j, off, sizeof off),
                 (unsigned long long)rk_u64(w, "writes", 0), (unsigned long long)rk_u64(w, "value", 0));
    }
    if (note[0]) rd_textf(v, RD_PLAIN, "%s%s", eip ? "; " : "", note);
}

/* The plot, the skeleton and the stream window: markup for the page, the stream's lines for Markdown. */
static void frame_figures(rd_node *box, const rs_ctx *c, rk g, rk ex, rk d, rv_labels l)
{
    strbuf h, m;
    sb_init(&h);
    sb_init(&m);
    rk_note(g, "series");
    rk_note(g, "skeleton");
    rk_note(d, "stream");
    report_plot_svg(&h, rv_obj(g.j, "series"), rk_int(ex, "tick", -1), l.cand, l.auth);
    if (rv_obj(g.j, "skeleton")) report_figure_svg(&h, rv_obj(g.j, "skeleton"), l.cand, l.auth);
    if (d.j) {
        sb_puts(&h, "<div class=\"stream-box\">");
        report_stream_table(&h, rv_obj(d.j, "stream"), rk_int(rk_obj(d, "cursor"), "bit", -1));
        sb_puts(&h, "</div>\n");
        rm_stream_lines(&m, d.j);
        if (m.len) sb_putc(&m, '\n');
    }
    rd_figure(box, h.s ? h.s : "", m.s ? m.s : NULL);
    sb_free(&h);
    sb_free(&m);
    (void)c;
}

static void frame_example(rd_node *box, const rs_ctx *c, rk g, rv_labels l)
{
    rk ex = rk_obj(g, "example");
    rk r = rk_first(rk_arr(c->root, "results"));
    r.j = rv_result(c->ix, rk_int(ex, "result", -1));
    rk d = rk_obj(r, "divergence"), cur = rk_obj(d, "cursor");
    const char *kind = rk_str(d, "field_kind", rk_str(g, "field", NULL));
    rd_node *kv = rd_kv(box, NULL);
    rd_text(rd_kv_row(kv, "File", NULL), RD_NAME, rk_str(ex, "file", "none"));
    rd_textf(rd_kv_row(kv, "Clip / mode", NULL), RD_PLAIN, "clip %lld, %s",
             (long long)rk_int(ex, "clip", -1), rk_str(ex, "mode", "?"));
    rd_node *first = rd_kv_row(kv, "First divergence", NULL);
    rd_textf(first, RD_PLAIN, "tick %lld, ", (long long)rk_int(ex, "tick", -1));
    rd_text(first, RD_CODE, rk_str(ex, "field", "?"));
    char key[64];
    snprintf(key, sizeof key, "%s vs %s", l.Cand, l.auth);
    rd_node *vs = rd_kv_row(kv, key, NULL);
    value(vs, ex, "ref", kind);
    rd_text(vs, RD_PLAIN, " vs ");
    value(vs, ex, "orig", kind);
    if (cur.j)
        rd_textf(rd_kv_row(kv, "Cursor at tick start", NULL), RD_PLAIN,
                 "byte %lld, bit %lld (file offset 0x%llx)", (long long)rk_int(cur, "byte", -1),
                 (long long)rk_int(cur, "bit", -1), (unsigned long long)rk_u64(cur, "file_offset", 0));
    if (d.j && rk_has(d, "differing_fields"))
        rd_textf(rd_kv_row(kv, "Differing field values", NULL), RD_PLAIN, "%llu",
                 (unsigned long long)rk_u64(d, "differing_fields", 0));
    if (r.j)
        rd_textf(rd_kv_row(kv, "Ticks", NULL), RD_PLAIN, "%llu %s, %llu %s",
                 (unsigned long long)rk_u64(r, "ticks_ref", 0), l.cand,
                 (unsigned long long)rk_u64(r, "ticks_orig", 0), l.auth);
    writer_row(kv, rk_obj(g, "writer"));
    frame_figures(box, c, g, ex, d, l);
}

/* A leaf call's side: "ax 5, cursor after: byte 2 bit 3". */
static void leaf_side(rd_node *in, rk s)
{
    rd_textf(in, RD_STRONG, "ax %lld", (long long)rk_int(s, "ax", 0));
    rd_textf(in, RD_PLAIN, ", cursor after: byte %lld bit %lld", (long long)rk_int(s, "byte", 0),
             (long long)rk_int(s, "bit", 0));
}

static void leaf_example(rd_node *box, const rs_ctx *c, rk g)
{
    rk ex = rk_obj(g, "example"), hit = {0};
    const char *routine = rk_str(ex, "routine", NULL);
    for (rk l = rk_first(rk_arr(c->root, "leaf")); l.j; l = rk_next(l))
        if (routine && strcmp(rk_str(l, "routine", ""), routine) == 0) hit = l;
    rd_node *kv = rd_kv(box, NULL);
    rd_text(rd_kv_row(kv, "Routine", NULL), RD_CODE, routine ? routine : "none");
    if (rk_has(ex, "case"))
        rd_textf(rd_kv_row(kv, "First case", NULL), RD_PLAIN, "%llu",
                 (unsigned long long)rk_u64(ex, "case", 0));
    rk m = hit.j ? rk_obj(hit, "first_mismatch") : hit;
    if (!m.j) return;
    rd_node *b = rd_kv_row(kv, "Bytes at cursor", NULL);
    rd_text(b, RD_CODE, rk_str(m, "bytes", "?"));
    rd_textf(b, RD_PLAIN, ", bit %lld, n %lld", (long long)rk_int(m, "bit", 0),
             (long long)rk_int(m, "n", 0));
    leaf_side(rd_kv_row(kv, "Reference", NULL), rk_obj(m, "ref"));
    leaf_side(rd_kv_row(kv, "Original", NULL), rk_obj(m, "orig"));
}

static void group_heading(rd_node *box, rk g, int64_t id)
{
    rd_node *h = rd_heading(box, NULL);
    rd_textf(h, RD_PLAIN, "#%lld ", (long long)id);
    rd_text(h, RD_CODE, rk_str(g, "field", "?"));
    static const char *const tags[] = {"level", "mode", "shape"};
    for (size_t i = 0; i < 3; i++) {
        rd_text(h, RD_PLAIN, " ");
        rd_text(h, RD_TAG, rk_str(g, tags[i], "?"));
    }
    if (rk_has(g, "cause")) {
        char href[32], text[32];
        snprintf(href, sizeof href, "#cause-%lld", (long long)rk_int(g, "cause", -1));
        snprintf(text, sizeof text, "cause %lld", (long long)rk_int(g, "cause", -1));
        rd_text(h, RD_PLAIN, " ");
        rd_link(h, href, text);
    }
    int leaf = strcmp(rk_str(g, "level", ""), "leaf") == 0;
    uint64_t count = rk_u64(g, "count", 0);
    rd_text(h, RD_PLAIN, ": ");
    rd_textf(h, RD_STRONG, "%llu %s", (unsigned long long)count,
             leaf ? (count == 1 ? "mismatching call" : "mismatching calls")
                  : (count == 1 ? "clip" : "clips"));
}

void rs_view_groups(const rs_ctx *c)
{
    rk arr = rk_arr(c->root, "groups");
    size_t n = rk_len(arr), shown = 0;
    rv_labels l = rv_sides(c->report);
    rd_node *sec = rs_openf(c, "Mismatch groups (%zu)", n);
    rd_text(rd_para(sec, "muted"), RD_PLAIN,
            n ? "Mismatches grouped by signature (level, field, mode, shape of the difference), "
                "largest first; each with the first divergence of its first example."
              : "No mismatches: nothing to group.");
    for (rk g = rk_first(arr); g.j && shown < MAX_GROUPS; g = rk_next(g), shown++) {
        int64_t id = rk_int(g, "id", (int64_t)shown);
        char gid[32];
        snprintf(gid, sizeof gid, "group-%lld", (long long)id);
        rd_node *box = rd_card(sec, gid, "group");
        group_heading(box, g, id);
        const char *level = rk_str(g, "level", "");
        if (strcmp(level, "leaf") == 0)
            leaf_example(box, c, g);
        else if (strcmp(level, "entity") == 0)
            rs_entity_example(box, c, g, l);
        else
            frame_example(box, c, g, l);
    }
    if (n > shown)
        rd_textf(rd_para(sec, "more"), RD_PLAIN, "%zu more groups are in report.json.", n - shown);
}
