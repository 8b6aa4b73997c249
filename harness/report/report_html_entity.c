/*
 * harness/report/report_html_entity.c: the entity level in index.html: the
 * entities (pairs) against the files, with their counts per mode, the speed bits QueueAnimation left
 * under each status, pool mismatches, the first failing clip per mode, the in-hand offset plot
 * (weapon root minus body root, reference and original overlaid), and the
 * example of an entity group. Reads the report tree only; every string
 * from it is escaped.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report_html.h"
#include "harness/report/report_html_entity.h"
#include "harness/report/report_plot.h"

/* A probe's cell: both sides' speed bits, classed by whether they match. */
static void queue_cell(strbuf *b, const rv_queue *q)
{
    const char *cls = q->match == 1 ? "match" : q->match == 0 ? "mismatch" : "not_run";
    sb_printf(b, "<td class=\"speed\"><span class=\"pill %s\">", cls);
    rh_text(b, q->ref[0] ? q->ref : "-");
    if (q->match != 1) {
        sb_puts(b, " vs ");
        rh_text(b, q->orig[0] ? q->orig : "?");
    }
    sb_puts(b, "</span></td>");
}

static void pair_table(strbuf *b, const rv_entities *x)
{
    size_t shared = 0;
    const char *common = rv_entities_common_why(x, &shared);
    if (common) {
        sb_printf(b, "<p id=\"entities-common-why\">%zu entities have no weapon: ", shared);
        rh_text(b, common);
        sb_puts(b, "</p>\n");
    }
    sb_puts(b, "<div class=\"tbl\"><table class=\"grid\" id=\"entities-table\">\n<tr><th class=\"num\">#</th>"
               "<th>Body</th><th>Weapon</th><th class=\"num\">Clips</th><th>Note</th>");
    for (int m = 0; m < MODE__COUNT; m++)
        if (x->modes & (1u << m)) sb_printf(b, "<th>%s</th>", mode_name((mode_id)m));
    rv_queue q[ENTITY_STATUS__COUNT];
    size_t nq = x->n ? rv_entity_queue(&x->e[0], q, ENTITY_STATUS__COUNT) : 0;
    for (size_t k = 0; k < nq; k++) {
        sb_puts(b, "<th>speed ");
        rh_text(b, q[k].status);
        sb_printf(b, " (0x%02llx)</th>", (unsigned long long)q[k].byte);
    }
    sb_puts(b, "</tr>\n");
    for (size_t i = 0; i < x->n; i++) {
        const rv_entity *en = &x->e[i];
        sb_printf(b, "<tr class=\"entity\"><td class=\"num\">%zu</td><td class=\"name\">", i);
        rh_text(b, en->body);
        sb_puts(b, "</td><td class=\"name\">");
        if (en->weapon)
            rh_text(b, en->weapon);
        else
            sb_puts(b, "<span class=\"muted\">no weapon slot</span>");
        sb_printf(b, "</td><td class=\"num\">%llu</td><td>",
                  (unsigned long long)rv_u64(en->e, "clips", 0));
        if (rv_bool(en->e, "pool_mismatch", 0))
            sb_printf(b,
                      "<span class=\"pill mismatch pool\">pool mismatch</span> body %llu clips, "
                      "weapon %llu: the %llu both have ran",
                      (unsigned long long)rv_u64(en->e, "body_clips", 0),
                      (unsigned long long)rv_u64(en->e, "weapon_clips", 0),
                      (unsigned long long)rv_u64(en->e, "clips", 0));
        else if (!en->weapon && !(common && !strcmp(rv_str(en->e, "why_text", ""), common)))
            rh_text(b, rv_str(en->e, "why_text", ""));
        if (rv_has_num(en->e, "shares"))
            sb_printf(b,
                      " <span class=\"muted\">(same bytes as entity %lld: its emulations)</span>",
                      (long long)rv_int(en->e, "shares", -1));
        sb_puts(b, "</td>");
        for (int m = 0; m < MODE__COUNT; m++)
            if (x->modes & (1u << m)) rh_status_cell(b, en->n[m]);
        size_t n = rv_entity_queue(en, q, ENTITY_STATUS__COUNT);
        for (size_t k = 0; k < nq; k++)
            if (k < n)
                queue_cell(b, &q[k]);
            else
                sb_puts(b, "<td></td>");
        sb_puts(b, "</tr>\n");
    }
    sb_puts(b, "</table></div>\n");
}

/* "weapon ended at call 6" / "weapon still running at the body's end". */
static void weapon_end(strbuf *b, const cJSON *r, rv_labels l)
{
    const cJSON *we = rv_obj(r, "weapon_end");
    if (!rv_str(r, "weapon", NULL) || !we) return;
    sb_puts(b, "; weapon's end call:");
    const char *side[2] = {"ref", "orig"}, *label[2] = {l.cand, l.auth};
    for (int k = 0; k < 2; k++) {
        sb_printf(b, "%s %s ", k ? "," : "", label[k]);
        if (rv_has_num(we, side[k]))
            sb_printf(b, "%lld", (long long)rv_int(we, side[k], -1));
        else
            sb_puts(b, "none (still running)");
    }
}

/* One failing (or bad) entity result on one line. */
static void result_line(strbuf *b, const cJSON *r, rv_labels l)
{
    int s = rv_status(rv_str(r, "status", NULL));
    sb_printf(b, "<li><span class=\"pill %s\">%s</span> clip %lld ",
              s >= 0 ? res_status_name((res_status)s) : "?", rv_status_label(s),
              (long long)rv_int(r, "clip", -1));
    rh_text(b, rv_str(r, "mode", "?"));
    sb_printf(b, " (body %lld frames", (long long)rv_int(r, "frames", 0));
    if (rv_has_num(r, "weapon_frames"))
        sb_printf(b, ", weapon %lld", (long long)rv_int(r, "weapon_frames", 0));
    sb_puts(b, "): ");
    const cJSON *d = rv_obj(r, "divergence");
    if (d) {
        sb_printf(b, "tick %lld <code>", (long long)rv_int(d, "tick", -1));
        rh_text(b, rv_str(d, "field", "?"));
        sb_puts(b, "</code> ");
        rh_value(b, d, "ref", rv_str(d, "field_kind", NULL), "ref-v");
        sb_puts(b, " vs ");
        rh_value(b, d, "orig", rv_str(d, "field_kind", NULL), "orig-v");
    } else if (s == RES_FAULT) {
        const cJSON *f = rv_obj(r, "fault");
        rh_text(b, rv_str(f, "message", rv_str(f, "kind", "fault")));
        sb_puts(b, " at EIP <code>");
        rh_text(b, rv_str(f, "eip", "?"));
        sb_puts(b, "</code>");
    } else {
        rh_text(b, rv_str(rv_obj(r, "error"), "message", ""));
    }
    weapon_end(b, r, l);
    sb_puts(b, "</li>\n");
}

/* The in-hand offset of one pair, x y z, as three plots. */
static void offset_plots(strbuf *b, const rv_entity *en, rv_labels l)
{
    const cJSON *p = rv_obj(en->e, "plot");
    if (!p) return;
    static const char *const axes[3] = {"x", "y", "z"};
    sb_printf(b,
              "<p class=\"muted\">In-hand offset, weapon root minus body root, over the calls "
              "of clip %lld ",
              (long long)rv_int(p, "clip", -1));
    rh_text(b, rv_str(p, "mode", "?"));
    sb_printf(b, " (%lld calls %s, %lld %s):</p>\n<div class=\"gbody offsets\">\n",
              (long long)rv_int(p, "ticks_ref", 0), l.cand, (long long)rv_int(p, "ticks_orig", 0),
              l.auth);
    for (int k = 0; k < 3; k++) {
        sb_printf(b, "<div class=\"gplot offset\"><div class=\"muted\">%s</div>\n", axes[k]);
        report_plot_svg(b, rv_obj(p, axes[k]), -1, l.cand, l.auth);
        sb_puts(b, "</div>\n");
    }
    sb_puts(b, "</div>\n");
}

void rh_entities(strbuf *b, const cJSON *report, const rv_entities *x)
{
    if (!rv_entity_level(report)) return;
    rv_labels l = rv_sides(report);
    sb_printf(b, "<section id=\"entities\"><h2>Entities (%zu)</h2>\n<p id=\"entities-story\">", x->n);
    strbuf t;
    sb_init(&t);
    rv_entities_story(&t, report, x);
    rh_text(b, t.s ? t.s : "");
    sb_free(&t);
    sb_puts(b, "</p>\n");
    sb_puts(b, "<p class=\"muted\">Each body with each of its weapons (monsters and bodies "
               "without a weapon model alone), driven by QueueAnimation then AdvanceBy1 until "
               "the body's end call; after every call both models' skeletons and AnimCmds are "
               "compared, the weapon first, then the body, then the call's result. Which model "
               "the engine advances first cannot be seen between calls (the two share no state) "
               "and is not checked.</p>\n");
    sb_printf(b,
              "<p class=\"muted\">Each speed is reached as the game reaches it: the entity's "
              "status byte (+9: 0x80 Slow, 0x40 Haste) with a valid sequence pair (+0x74) and "
              "+2 bit 3 clear, the AnimCmd flags also preset to the mode's, so that an engine "
              "which keeps its caller's flags runs at the same speed. The <em>speed</em> "
              "columns tell the two readings apart: the speed bits (1 SLOW, 2 FAST; body/weapon) "
              "each AnimCmd held after QueueAnimation called under that status with no flags "
              "preset, %s then %s when they differ (a difference counts in the verdict; - or "
              "?: not known in this run).</p>\n",
              l.cand, l.auth);
    pair_table(b, x);
    size_t shown = 0;
    for (size_t i = 0; i < x->n && shown < RH_MAX_LISTED; i++) {
        const rv_entity *en = &x->e[i];
        int any = rv_obj(en->e, "plot") != NULL;
        for (int m = 0; m < MODE__COUNT; m++)
            any |= en->first_fail[m] || en->first_bad[m];
        if (!any) continue;
        shown++;
        sb_printf(b, "<div class=\"card-box entity\" id=\"entity-%zu\"><h3>", i);
        rh_text(b, en->pair);
        sb_puts(b, "</h3>\n<ul>\n");
        for (int m = 0; m < MODE__COUNT; m++) {
            if (en->first_fail[m]) result_line(b, en->first_fail[m], l);
            if (en->first_bad[m]) result_line(b, en->first_bad[m], l);
        }
        sb_puts(b, "</ul>\n");
        offset_plots(b, en, l);
        sb_puts(b, "</div>\n");
    }
    sb_puts(b, "</section>\n");
}

void rh_entity_example(strbuf *b, const cJSON *g, const rv_entities *x, rv_labels l)
{
    const cJSON *ex = rv_obj(g, "example");
    const cJSON *r = rv_entity_result(x, rv_int(ex, "result", -1));
    const cJSON *d = rv_obj(r, "divergence"), *cur = rv_obj(d, "cursor");
    const char *kind = rv_str(d, "field_kind", NULL);
    sb_puts(b, "<div class=\"gbody\"><div class=\"gtext\"><table class=\"kv\">\n");
    rh_kv(b, "Body", rv_str(ex, "file", NULL));
    rh_kv(b, "Weapon", rv_str(ex, "weapon", "(no weapon slot)"));
    sb_printf(b, "<tr><th>Clip / mode</th><td>clip %lld, ", (long long)rv_int(ex, "clip", -1));
    rh_text(b, rv_str(ex, "mode", "?"));
    sb_printf(b, "</td></tr>\n<tr><th>First divergence</th><td>call %lld, <code>",
              (long long)rv_int(ex, "tick", -1));
    rh_text(b, rv_str(ex, "field", "?"));
    sb_printf(b, "</code></td></tr>\n<tr><th>%s vs %s</th><td>", l.Cand, l.auth);
    rh_value(b, ex, "ref", kind, "ref-v");
    sb_puts(b, " vs ");
    rh_value(b, ex, "orig", kind, "orig-v");
    sb_puts(b, "</td></tr>\n");
    if (cur) {
        sb_puts(b, "<tr><th>Cursor at call start</th><td>");
        rh_text(b, rv_str(ex, "model", "?"));
        sb_printf(b, ": byte %lld, bit %lld (file offset 0x%llx)</td></tr>\n",
                  (long long)rv_int(cur, "byte", -1), (long long)rv_int(cur, "bit", -1),
                  (unsigned long long)rv_u64(cur, "file_offset", 0));
    }
    if (r) {
        sb_printf(b, "<tr><th>Calls</th><td>%llu %s, %llu %s",
                  (unsigned long long)rv_u64(r, "ticks_ref", 0), l.cand,
                  (unsigned long long)rv_u64(r, "ticks_orig", 0), l.auth);
        weapon_end(b, r, l);
        sb_puts(b, "</td></tr>\n");
    }
    sb_puts(b, "</table>\n</div><div class=\"gplot\">\n");
    report_plot_svg(b, rv_obj(g, "series"), rv_int(ex, "tick", -1), l.cand, l.auth);
    sb_puts(b, "</div></div>\n");
    if (d) {
        sb_puts(b, "<div class=\"stream-box\">");
        report_stream_table(b, rv_obj(d, "stream"), rv_int(cur, "bit", -1));
        sb_puts(b, "</div>\n");
    }
}
