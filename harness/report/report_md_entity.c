/*
 * harness/report/report_md_entity.c: the entity level in summary.md: its
 * totals and modes, the entities with a problem, a pool mismatch or a speed
 * probe that differs (counts per mode, first failure, where the weapon
 * ended, the speed bits QueueAnimation left), and an entity group's example.
 * Strings from the tree go through report_md.c's escapes. Recomputes nothing.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report_md_base.h"
#include "harness/report/report_md_entity.h"

#define RM_MAX_ROWS 100

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

static void failure_item(strbuf *b, const cJSON *r, rv_labels l)
{
    int s = rv_status(rv_str(r, "status", NULL));
    sb_printf(b, "  - %s, clip %lld ", rv_status_label(s),
              (long long)rv_int(r, "clip", -1));
    rm_text(b, rv_str(r, "mode", "?"));
    const cJSON *d = rv_obj(r, "divergence");
    if (d) {
        sb_printf(b, ": tick %lld, ", (long long)rv_int(d, "tick", -1));
        rm_code(b, rv_str(d, "field", "?"));
        sb_printf(b, " %s %lld, %s %lld", l.cand, (long long)rv_int(d, "ref", 0), l.auth,
                  (long long)rv_int(d, "orig", 0));
    } else if (s == RES_FAULT) {
        sb_puts(b, ": ");
        rm_text(b, rv_str(rv_obj(r, "fault"), "message", "fault"));
        sb_puts(b, " at EIP ");
        rm_code(b, rv_str(rv_obj(r, "fault"), "eip", "?"));
    } else {
        sb_puts(b, ": ");
        rm_text(b, rv_str(rv_obj(r, "error"), "message", ""));
    }
    weapon_end(b, r, l);
    sb_putc(b, '\n');
}

static int has_problem(const rv_entity *en)
{
    rv_queue q[ENTITY_STATUS__COUNT];
    size_t n = rv_entity_queue(en, q, ENTITY_STATUS__COUNT);
    for (size_t k = 0; k < n; k++)
        if (q[k].match == 0) return 1;
    for (int m = 0; m < MODE__COUNT; m++)
        if (en->first_fail[m] || en->first_bad[m]) return 1;
    return rv_bool(en->e, "pool_mismatch", 0);
}

/* The probes of en whose speed bits differ, one item each. */
static void queue_items(strbuf *b, const rv_entity *en, rv_labels l)
{
    rv_queue q[ENTITY_STATUS__COUNT];
    size_t n = rv_entity_queue(en, q, ENTITY_STATUS__COUNT);
    for (size_t k = 0; k < n; k++) {
        if (q[k].match != 0) continue;
        sb_puts(b, "  - speed after QueueAnimation under status ");
        rm_text(b, q[k].status);
        sb_printf(b, " (0x%02llx), body/weapon: %s ", (unsigned long long)q[k].byte, l.cand);
        rm_text(b, q[k].ref);
        sb_printf(b, ", %s ", l.auth);
        rm_text(b, q[k].orig);
        sb_putc(b, '\n');
    }
}

/* The modes the entity level ran, those it cannot, and the probes that differ. */
static void modes_line(strbuf *b, const cJSON *t)
{
    const cJSON *m;
    int k = 0;
    sb_puts(b, "Modes run:");
    cJSON_ArrayForEach(m, rv_arr(t, "modes"))
    {
        sb_puts(b, k++ ? ", " : " ");
        rm_text(b, cJSON_IsString(m) ? m->valuestring : "?");
    }
    if (!k) sb_puts(b, " none");
    sb_puts(b, ", each reached through the entity's status byte (0x80 Slow, 0x40 Haste) with a "
               "valid sequence pair, the AnimCmd flags also preset");
    cJSON_ArrayForEach(m, rv_arr(t, "modes_frame_only"))
    {
        sb_puts(b, "; ");
        rm_text(b, rv_str(m, "mode", "?"));
        sb_puts(b, " not at this level: ");
        rm_text(b, rv_str(m, "why", ""));
    }
    sb_printf(b,
              ". Speed bits after QueueAnimation with no flags preset, per entity and status: "
              "%llu differ.\n\n",
              (unsigned long long)rv_u64(t, "queue_mismatches", 0));
}

void rm_entities(strbuf *b, const cJSON *report, const rv_entities *x)
{
    if (!rv_entity_level(report)) return;
    const cJSON *t = rv_obj(rv_obj(report, "totals"), "entity");
    rv_labels l = rv_sides(report);
    sb_printf(b, "## Entities (%zu)\n\n", x->n);
    strbuf story;
    sb_init(&story);
    rv_entities_story(&story, report, x);
    rm_text(b, story.s ? story.s : "");
    sb_free(&story);
    sb_puts(b, "\n\n");
    sb_printf(b,
              "%llu with a weapon, %llu pool mismatches; %llu comparisons (QueueAnimation, then "
              "AdvanceBy1 to the body's end call; the weapon compared first, then the body, then "
              "the call's result):",
              (unsigned long long)rv_u64(t, "armed", 0),
              (unsigned long long)rv_u64(t, "pool_mismatches", 0),
              (unsigned long long)rv_u64(t, "comparisons", 0));
    for (int s = 0; s < RES__COUNT; s++)
        sb_printf(b, "%s %llu %s", s ? "," : "",
                  (unsigned long long)rv_u64(t, res_status_name((res_status)s), 0),
                  rv_status_label(s));
    sb_puts(b, ". Which model the engine advances first cannot be seen between calls (the two "
               "share no state) and is not checked.\n\n");
    modes_line(b, t);
    size_t n = 0;
    for (size_t i = 0; i < x->n; i++) {
        const rv_entity *en = &x->e[i];
        if (!has_problem(en)) continue;
        if (n++ >= RM_MAX_ROWS) continue;
        sb_puts(b, "- ");
        rm_text(b, en->pair);
        if (rv_bool(en->e, "pool_mismatch", 0))
            sb_printf(b, " (pool mismatch: body %llu clips, weapon %llu; the %llu both have ran)",
                      (unsigned long long)rv_u64(en->e, "body_clips", 0),
                      (unsigned long long)rv_u64(en->e, "weapon_clips", 0),
                      (unsigned long long)rv_u64(en->e, "clips", 0));
        sb_putc(b, '\n');
        queue_items(b, en, l);
        for (int m = 0; m < MODE__COUNT; m++) {
            if (en->first_fail[m]) failure_item(b, en->first_fail[m], l);
            if (en->first_bad[m]) failure_item(b, en->first_bad[m], l);
        }
    }
    if (!n)
        sb_puts(b, "No entity with a problem.\n");
    else if (n > RM_MAX_ROWS)
        sb_printf(b, "\n%zu more are in report.json.\n", n - RM_MAX_ROWS);
    sb_putc(b, '\n');
}

void rm_entity_group(strbuf *b, const cJSON *g, const rv_entities *x, rv_labels l)
{
    const cJSON *ex = rv_obj(g, "example");
    sb_puts(b, "- First divergence: entity ");
    rm_text(b, rv_str(ex, "file", "?"));
    if (rv_str(ex, "weapon", NULL)) {
        sb_puts(b, "+");
        rm_text(b, rv_str(ex, "weapon", ""));
    }
    sb_printf(b, ", clip %lld, mode ", (long long)rv_int(ex, "clip", -1));
    rm_text(b, rv_str(ex, "mode", "?"));
    sb_printf(b, ", call %lld, field ", (long long)rv_int(ex, "tick", -1));
    rm_code(b, rv_str(ex, "field", "?"));
    sb_printf(b, ": %s %lld, %s %lld\n", l.cand, (long long)rv_int(ex, "ref", 0), l.auth,
              (long long)rv_int(ex, "orig", 0));
    rm_stream_lines(b, rv_obj(rv_entity_result(x, rv_int(ex, "result", -1)), "divergence"));
    sb_putc(b, '\n');
}
