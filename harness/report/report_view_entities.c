/*
 * harness/report/report_view_entities.c: the "Entities" section's view
 * (the entity level): entities against files in words, what was compared
 * and how each speed is reached, the totals, the reason many entities
 * without a weapon share said once, the table of entities (names never
 * broken, counts per mode, the speed bits QueueAnimation left under each
 * status), then each entity with a problem: its first failures, the
 * probes that differ and the in-hand offset plots. Also an entity group's
 * example for the groups' view (rs_entity_example).
 *
 * Reads report.json through report_key.h (and report_view_entity.h's
 * index of it); must not recompute, print or exit.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report_md_base.h"
#include "harness/report/report_plot.h"
#include "harness/report/report_sections.h"

#define MAX_LISTED 200 /* entities drawn with their failures; the rest counted */

/* The entity's element of "entities" as a key-recording cursor. */
static rk entity_at(const rs_ctx *c, const cJSON *e)
{
    rk k = rk_first(rk_arr(c->root, "entities"));
    k.j = e;
    return k;
}

/* An entity result as a key-recording cursor. */
static rk result_at(const rs_ctx *c, const cJSON *r)
{
    rk k = rk_first(rk_arr(c->root, "entity_results"));
    k.j = r;
    return k;
}

static void pill(rd_node *in, const char *status, const char *text)
{
    char cls[48];
    snprintf(cls, sizeof cls, "pill %s", status);
    rd_badge(in, cls, NULL, text);
}

/* A probe's cell: both sides' speed bits, "-" or "?" when not known. */
static void queue_cell(rd_node *in, const rv_queue *q)
{
    char text[40];
    snprintf(text, sizeof text, "%s%s%s", q->ref[0] ? q->ref : "-", q->match != 1 ? " vs " : "",
             q->match != 1 ? (q->orig[0] ? q->orig : "?") : "");
    pill(in, q->match == 1 ? "match" : q->match == 0 ? "mismatch" : "not_run", text);
}

static void status_cell(rd_node *in, const uint64_t n[RES__COUNT])
{
    int k = 0;
    for (int s = 0; s < RES__COUNT; s++) {
        if (!n[s]) continue;
        char text[64];
        snprintf(text, sizeof text, "%llu %s", (unsigned long long)n[s], rv_status_label(s));
        if (k++) rd_text(in, RD_PLAIN, " ");
        pill(in, res_status_name((res_status)s), text);
    }
    if (!k) rd_text(in, RD_MUTED, "-");
}

static void entity_note(rd_node *in, rk e, const rv_entity *en, const char *common)
{
    if (rk_bool(e, "pool_mismatch", 0)) {
        pill(in, "mismatch", "pool mismatch");
        rd_textf(in, RD_PLAIN, " body %llu clips, weapon %llu: the %llu both have ran",
                 (unsigned long long)rk_u64(e, "body_clips", 0),
                 (unsigned long long)rk_u64(e, "weapon_clips", 0),
                 (unsigned long long)rk_u64(e, "clips", 0));
    } else if (!en->weapon) {
        const char *why = rk_str(e, "why_text", "");
        if (!common || strcmp(why, common) != 0) rd_text(in, RD_PLAIN, why);
    }
    if (rk_has(e, "shares"))
        rd_textf(in, RD_MUTED, " (same bytes as entity %lld: its emulations)",
                 (long long)rk_int(e, "shares", -1));
}

static void entity_table(rd_node *sec, const rs_ctx *c)
{
    const rv_entities *x = c->ents;
    size_t shared = 0;
    const char *common = rv_entities_common_why(x, &shared);
    if (common) {
        rd_node *p = rd_para(sec, NULL);
        rd_textf(p, RD_PLAIN, "%zu entities have no weapon: %s", shared, common);
    }
    rv_queue q[ENTITY_STATUS__COUNT];
    size_t nq = x->n ? rv_entity_queue(&x->e[0], q, ENTITY_STATUS__COUNT) : 0;
    char names[MODE__COUNT + ENTITY_STATUS__COUNT][48];
    const char *heads[5 + MODE__COUNT + ENTITY_STATUS__COUNT] = {"#", "Body", "Weapon", "Clips",
                                                                 "Note"};
    size_t nc = 5;
    for (int m = 0; m < MODE__COUNT; m++)
        if (x->modes & (1u << m)) heads[nc++] = mode_name((mode_id)m);
    for (size_t k = 0; k < nq; k++) {
        snprintf(names[k], sizeof names[k], "speed %s (0x%02llx)", q[k].status,
                 (unsigned long long)q[k].byte);
        heads[nc++] = names[k];
    }
    rd_node *t = rd_table(sec, "entities-table", nc, heads, 0);
    rd_table_num(t, 0);
    rd_table_num(t, 3);
    for (size_t i = 0; i < x->n; i++) {
        const rv_entity *en = &x->e[i];
        rk e = entity_at(c, en->e);
        rd_node *row = rd_row(t, NULL);
        rd_textf(rd_cell(row), RD_PLAIN, "%zu", i);
        rd_text(rd_cell(row), RD_NAME, en->body);
        if (en->weapon)
            rd_text(rd_cell(row), RD_NAME, en->weapon);
        else
            rd_text(rd_cell(row), RD_MUTED, "no weapon slot");
        rd_textf(rd_cell(row), RD_PLAIN, "%llu", (unsigned long long)rk_u64(e, "clips", 0));
        entity_note(rd_cell(row), e, en, common);
        for (int m = 0; m < MODE__COUNT; m++)
            if (x->modes & (1u << m)) status_cell(rd_cell(row), en->n[m]);
        size_t n = rv_entity_queue(en, q, ENTITY_STATUS__COUNT);
        for (size_t k = 0; k < nq; k++) {
            rd_node *cell = rd_cell(row);
            if (k < n) queue_cell(cell, &q[k]);
        }
    }
}

/* "; weapon's end call: reference 6, original none (still running)". */
static void weapon_end(rd_node *in, rk r, rv_labels l)
{
    rk we = rk_obj(r, "weapon_end");
    if (!rk_str(r, "weapon", NULL) || !we.j) return;
    rd_text(in, RD_PLAIN, "; weapon's end call:");
    const char *side[2] = {"ref", "orig"}, *label[2] = {l.cand, l.auth};
    for (int k = 0; k < 2; k++) {
        if (rk_has(we, side[k]))
            rd_textf(in, RD_PLAIN, "%s %s %lld", k ? "," : "", label[k],
                     (long long)rk_int(we, side[k], -1));
        else
            rd_textf(in, RD_PLAIN, "%s %s none (still running)", k ? "," : "", label[k]);
    }
}

/* One failing (or bad) entity result as a list item. */
static void result_item(rd_node *list, rk r, rv_labels l)
{
    rd_node *it = rd_item(list);
    int s = rv_status(rk_str(r, "status", NULL));
    pill(it, s >= 0 ? res_status_name((res_status)s) : "?", rv_status_label(s));
    rd_textf(it, RD_PLAIN, " clip %lld %s (body %lld frames", (long long)rk_int(r, "clip", -1),
             rk_str(r, "mode", "?"), (long long)rk_int(r, "frames", 0));
    if (rk_has(r, "weapon_frames"))
        rd_textf(it, RD_PLAIN, ", weapon %lld", (long long)rk_int(r, "weapon_frames", 0));
    rd_text(it, RD_PLAIN, "): ");
    rk d = rk_obj(r, "divergence");
    if (d.j) {
        rd_textf(it, RD_PLAIN, "tick %lld ", (long long)rk_int(d, "tick", -1));
        rd_text(it, RD_CODE, rk_str(d, "field", "?"));
        rd_textf(it, RD_PLAIN, " %s %lld, %s %lld", l.cand, (long long)rk_int(d, "ref", 0), l.auth,
                 (long long)rk_int(d, "orig", 0));
    } else if (s == RES_FAULT) {
        rk f = rk_obj(r, "fault");
        rd_textf(it, RD_PLAIN, "%s at EIP ", rk_str(f, "message", rk_str(f, "kind", "fault")));
        rd_text(it, RD_CODE, rk_str(f, "eip", "?"));
    } else {
        rd_text(it, RD_PLAIN, rk_str(rk_obj(r, "error"), "message", ""));
    }
    weapon_end(it, r, l);
}

/* The in-hand offset of one pair, x y z, as three plots (index.html only). */
static void offset_plots(rd_node *box, rk e, rv_labels l)
{
    rk p = rk_obj(e, "plot");
    if (!p.j) return;
    rd_textf(rd_para(box, "muted"), RD_PLAIN,
             "In-hand offset, weapon root minus body root, over the calls of clip %lld %s (%lld "
             "calls %s, %lld %s).",
             (long long)rk_int(p, "clip", -1), rk_str(p, "mode", "?"),
             (long long)rk_int(p, "ticks_ref", 0), l.cand, (long long)rk_int(p, "ticks_orig", 0),
             l.auth);
    static const char *const axes[3] = {"x", "y", "z"};
    strbuf h;
    sb_init(&h);
    sb_puts(&h, "<div class=\"gbody offsets\">\n");
    for (int k = 0; k < 3; k++) {
        rk_note(p, axes[k]);
        sb_printf(&h, "<div class=\"gplot offset\"><div class=\"muted\">%s</div>\n", axes[k]);
        report_plot_svg(&h, rv_obj(p.j, axes[k]), -1, l.cand, l.auth);
        sb_puts(&h, "</div>\n");
    }
    sb_puts(&h, "</div>\n");
    rd_figure(box, h.s ? h.s : "", NULL);
    sb_free(&h);
}

static int has_problem(const rv_entity *en)
{
    rv_queue q[ENTITY_STATUS__COUNT];
    size_t n = rv_entity_queue(en, q, ENTITY_STATUS__COUNT);
    for (size_t k = 0; k < n; k++)
        if (q[k].match == 0) return 1;
    for (int m = 0; m < MODE__COUNT; m++)
        if (en->first_fail[m] || en->first_bad[m]) return 1;
    return rv_bool(en->e, "pool_mismatch", 0) || rv_obj(en->e, "plot");
}

/* One entity with a problem: its failures, its probes that differ, its offset plots. */
static void entity_box(rd_node *sec, const rs_ctx *c, size_t i, rv_labels l)
{
    const rv_entity *en = &c->ents->e[i];
    char id[32];
    snprintf(id, sizeof id, "entity-%zu", i);
    rd_node *box = rd_card(sec, id, "entity");
    rd_text(rd_heading(box, NULL), RD_NAME, en->pair);
    rd_node *list = rd_list(box);
    rk e = entity_at(c, en->e);
    if (rk_bool(e, "pool_mismatch", 0))
        rd_textf(rd_item(list), RD_PLAIN,
                 "pool mismatch: body %llu clips, weapon %llu; the %llu both have ran",
                 (unsigned long long)rk_u64(e, "body_clips", 0),
                 (unsigned long long)rk_u64(e, "weapon_clips", 0),
                 (unsigned long long)rk_u64(e, "clips", 0));
    rv_queue q[ENTITY_STATUS__COUNT];
    size_t n = rv_entity_queue(en, q, ENTITY_STATUS__COUNT);
    for (size_t k = 0; k < n; k++) {
        if (q[k].match != 0) continue;
        rd_textf(rd_item(list), RD_PLAIN,
                 "speed after QueueAnimation under status %s (0x%02llx), body/weapon: %s %s, %s %s",
                 q[k].status, (unsigned long long)q[k].byte, l.cand, q[k].ref, l.auth, q[k].orig);
    }
    for (int m = 0; m < MODE__COUNT; m++) {
        if (en->first_fail[m]) result_item(list, result_at(c, en->first_fail[m]), l);
        if (en->first_bad[m]) result_item(list, result_at(c, en->first_bad[m]), l);
    }
    offset_plots(box, e, l);
}

/* The totals and the modes run, as one paragraph each. */
static void totals(rd_node *sec, rk t)
{
    rd_node *p = rd_para(sec, NULL);
    rd_textf(p, RD_PLAIN,
             "%llu with a weapon, %llu pool mismatches; %llu comparisons (QueueAnimation, then "
             "AdvanceBy1 to the body's end call; after every call the weapon's skeleton and "
             "AnimCmd compared first, then the body's, then the call's result):",
             (unsigned long long)rk_u64(t, "armed", 0),
             (unsigned long long)rk_u64(t, "pool_mismatches", 0),
             (unsigned long long)rk_u64(t, "comparisons", 0));
    for (int s = 0; s < RES__COUNT; s++)
        rd_textf(p, RD_PLAIN, "%s %llu %s", s ? "," : "",
                 (unsigned long long)rk_u64(t, res_status_name((res_status)s), 0),
                 rv_status_label(s));
    rd_text(p, RD_PLAIN, ". Which model the engine advances first cannot be seen between calls "
                         "(the two share no state) and is not checked.");
    rd_node *m = rd_para(sec, "muted");
    rd_text(m, RD_PLAIN, "Modes run:");
    int k = 0;
    for (rk e = rk_first(rk_arr(t, "modes")); e.j; e = rk_next(e))
        rd_textf(m, RD_PLAIN, "%s%s", k++ ? ", " : " ", cJSON_IsString(e.j) ? e.j->valuestring : "?");
    if (!k) rd_text(m, RD_PLAIN, " none");
    rd_text(m, RD_PLAIN,
            ", each reached as the game reaches it: the entity's status byte (+9: 0x80 Slow, 0x40 "
            "Haste) with a valid sequence pair (+0x74) and +2 bit 3 clear, the AnimCmd flags also "
            "preset to the mode's, so that an engine which keeps its caller's flags runs at the "
            "same speed");
    for (rk e = rk_first(rk_arr(t, "modes_frame_only")); e.j; e = rk_next(e))
        rd_textf(m, RD_PLAIN, "; %s not at this level: %s", rk_str(e, "mode", "?"),
                 rk_str(e, "why", ""));
    rd_textf(m, RD_PLAIN,
             ". The speed columns tell the two readings apart: the speed bits (1 SLOW, 2 FAST; "
             "body/weapon) each AnimCmd held after QueueAnimation called under that status with "
             "no flags preset, both sides when they differ (%llu differ; a difference counts in "
             "the verdict; - or ?: not known in this run).",
             (unsigned long long)rk_u64(t, "queue_mismatches", 0));
}

void rs_view_entities(const rs_ctx *c)
{
    if (!rv_entity_level(c->report)) return;
    rk_note(rk_obj(c->root, "run"), "levels");
    const rv_entities *x = c->ents;
    rv_labels l = rv_sides(c->report);
    rd_node *sec = rs_openf(c, "Entities (%zu)", x->n);
    strbuf story;
    sb_init(&story);
    rv_entities_story(&story, c->report, x);
    rd_text(rd_para(sec, NULL), RD_PLAIN, story.s ? story.s : "");
    sb_free(&story);
    totals(sec, rk_obj(rk_obj(c->root, "totals"), "entity"));
    entity_table(sec, c);
    size_t n = 0;
    for (size_t i = 0; i < x->n; i++) {
        if (!has_problem(&x->e[i])) continue;
        if (n++ < MAX_LISTED) entity_box(sec, c, i, l);
    }
    if (!n)
        rd_text(rd_para(sec, "muted"), RD_PLAIN, "No entity with a problem.");
    else if (n > MAX_LISTED)
        rd_textf(rd_para(sec, "more"), RD_PLAIN, "%zu more entities with a problem are in "
                 "report.json.", n - MAX_LISTED);
}

void rs_entity_example(rd_node *box, const rs_ctx *c, rk g, rv_labels l)
{
    rk ex = rk_obj(g, "example");
    rk r = result_at(c, rv_entity_result(c->ents, rk_int(ex, "result", -1)));
    rk d = rk_obj(r, "divergence"), cur = rk_obj(d, "cursor");
    rd_node *kv = rd_kv(box, NULL);
    rd_text(rd_kv_row(kv, "Body", NULL), RD_NAME, rk_str(ex, "file", "?"));
    const char *weapon = rk_str(ex, "weapon", NULL);
    if (weapon)
        rd_text(rd_kv_row(kv, "Weapon", NULL), RD_NAME, weapon);
    else
        rd_text(rd_kv_row(kv, "Weapon", NULL), RD_MUTED, "no weapon slot");
    rd_textf(rd_kv_row(kv, "Clip / mode", NULL), RD_PLAIN, "clip %lld, %s",
             (long long)rk_int(ex, "clip", -1), rk_str(ex, "mode", "?"));
    rd_node *first = rd_kv_row(kv, "First divergence", NULL);
    rd_textf(first, RD_PLAIN, "call %lld, ", (long long)rk_int(ex, "tick", -1));
    rd_text(first, RD_CODE, rk_str(ex, "field", "?"));
    char key[64];
    snprintf(key, sizeof key, "%s vs %s", l.Cand, l.auth);
    rd_textf(rd_kv_row(kv, key, NULL), RD_STRONG, "%lld vs %lld", (long long)rk_int(ex, "ref", 0),
             (long long)rk_int(ex, "orig", 0));
    if (cur.j)
        rd_textf(rd_kv_row(kv, "Cursor at call start", NULL), RD_PLAIN,
                 "%s: byte %lld, bit %lld (file offset 0x%llx)", rk_str(ex, "model", "?"),
                 (long long)rk_int(cur, "byte", -1), (long long)rk_int(cur, "bit", -1),
                 (unsigned long long)rk_u64(cur, "file_offset", 0));
    if (r.j) {
        rd_node *v = rd_kv_row(kv, "Calls", NULL);
        rd_textf(v, RD_PLAIN, "%llu %s, %llu %s", (unsigned long long)rk_u64(r, "ticks_ref", 0),
                 l.cand, (unsigned long long)rk_u64(r, "ticks_orig", 0), l.auth);
        weapon_end(v, r, l);
    }
    strbuf h, m;
    sb_init(&h);
    sb_init(&m);
    rk_note(g, "series");
    report_plot_svg(&h, rv_obj(g.j, "series"), rk_int(ex, "tick", -1), l.cand, l.auth);
    if (d.j) {
        rk_note(d, "stream");
        sb_puts(&h, "<div class=\"stream-box\">");
        report_stream_table(&h, rv_obj(d.j, "stream"), rk_int(cur, "bit", -1));
        sb_puts(&h, "</div>\n");
        rm_stream_lines(&m, d.j);
        if (m.len) sb_putc(&m, '\n');
    }
    rd_figure(box, h.s ? h.s : "", m.s ? m.s : NULL);
    sb_free(&h);
    sb_free(&m);
}
