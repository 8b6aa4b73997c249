/*
 * harness/report/report_view_summary.c: the Summary section's view: the
 * result line, the count of each status, then files, clips and (clip,
 * mode) pairs, ticks, where the authority's side came from, the leaf and
 * entity levels, groups and x87 precision, every number as report.json's
 * "totals" holds it.
 *
 * Reads report.json only through report_key.h; must not recompute what
 * the run decided, print or exit.
 */
#include <stdio.h>

#include "harness/report/report_sections.h"

static void result_line(rd_node *sec, const rs_ctx *c, rk t)
{
    verdict v;
    rv_verdict(c->report, &v);
    run_totals totals;
    rv_totals(c->report, &totals);
    rd_node *p = rd_para(sec, NULL);
    rd_textf(p, RD_STRONG, "Result: %s", verdict_label(v));
    rd_textf(p, RD_PLAIN,
             ": %llu mismatches, %llu faults, %llu not decoded, %llu bad inputs, %llu leaf "
             "mismatches or faults",
             (unsigned long long)rk_u64(t, "mismatch", c->ix->by_status[RES_MISMATCH]),
             (unsigned long long)rk_u64(t, "fault", c->ix->by_status[RES_FAULT]),
             (unsigned long long)rk_u64(t, "not_decoded", c->ix->by_status[RES_NOT_DECODED]),
             (unsigned long long)rk_u64(t, "bad_input", c->ix->by_status[RES_BAD_INPUT]),
             (unsigned long long)(rk_u64(t, "leaf_mismatches", 0) + rk_u64(t, "leaf_faults", 0)));
    if (rv_entity_level(c->report))
        rd_textf(p, RD_PLAIN, ", %llu entity mismatches, faults or bad inputs",
                 (unsigned long long)verdict_entity_failures(&totals));
    rd_text(p, RD_PLAIN, ".");
}

static void status_table(rd_node *sec, const rs_ctx *c, rk t)
{
    const char *heads[RES__COUNT];
    for (int s = 0; s < RES__COUNT; s++) heads[s] = res_status_label((res_status)s);
    rd_node *tab = rd_table(sec, "status-counts", RES__COUNT, heads, 0);
    rd_node *row = rd_row(tab, NULL);
    for (int s = 0; s < RES__COUNT; s++) {
        rd_table_num(tab, (size_t)s);
        rd_textf(rd_cell(row), RD_PLAIN, "%llu",
                 (unsigned long long)rk_u64(t, res_status_name((res_status)s),
                                            c->ix->by_status[s]));
    }
}

static void entity_row(rd_node *kv, const rs_ctx *c, rk t)
{
    rk e = rk_obj(t, "entity");
    if (!rv_entity_level(c->report) || !e.j) return;
    rd_node *v = rd_kv_row(kv, "Entity level", NULL);
    rd_textf(v, RD_PLAIN,
             "%llu entities (%llu with a weapon, %llu pool mismatches), %llu comparisons:",
             (unsigned long long)rk_u64(e, "entities", 0), (unsigned long long)rk_u64(e, "armed", 0),
             (unsigned long long)rk_u64(e, "pool_mismatches", 0),
             (unsigned long long)rk_u64(e, "comparisons", 0));
    for (int s = 0; s < RES__COUNT; s++)
        rd_textf(v, RD_PLAIN, "%s %llu %s", s ? "," : "",
                 (unsigned long long)rk_u64(e, res_status_name((res_status)s), 0),
                 rv_status_label(s));
    rd_text(v, RD_PLAIN, "; modes run: ");
    int k = 0;
    for (rk m = rk_first(rk_arr(e, "modes")); m.j; m = rk_next(m))
        rd_textf(v, RD_PLAIN, "%s%s", k++ ? ", " : "", cJSON_IsString(m.j) ? m.j->valuestring : "?");
    if (!k) rd_text(v, RD_PLAIN, "none");
    for (rk m = rk_first(rk_arr(e, "modes_frame_only")); m.j; m = rk_next(m)) {
        rd_text(v, RD_PLAIN, "; ");
        rd_textf(v, RD_MUTED, "%s not at this level: %s", rk_str(m, "mode", "?"),
                 rk_str(m, "why", ""));
    }
    rd_textf(v, RD_PLAIN, "; %llu speed probes differ",
             (unsigned long long)rk_u64(e, "queue_mismatches", 0));
}

void rs_view_summary(const rs_ctx *c)
{
    rk t = rk_obj(c->root, "totals"), src = rk_obj(t, "sources");
    rd_node *sec = rs_open(c, NULL);
    result_line(sec, c, t);
    status_table(sec, c, t);
    rd_node *kv = rd_kv(rd_box(sec, NULL), NULL);
    rd_textf(rd_kv_row(kv, "Files", NULL), RD_PLAIN, "%llu (%llu bad)",
             (unsigned long long)rk_u64(t, "files", 0), (unsigned long long)rk_u64(t, "bad_files", 0));
    rd_textf(rd_kv_row(kv, "Clips", NULL), RD_PLAIN, "%llu, compared in %llu (clip, mode) pairs",
             (unsigned long long)rk_u64(t, "clips", 0),
             (unsigned long long)rk_u64(t, "comparisons", 0));
    rv_labels l = rv_sides(c->report);
    rd_textf(rd_kv_row(kv, "Ticks", NULL), RD_PLAIN, "%llu %s, %llu %s",
             (unsigned long long)rk_u64(t, "ticks_ref", 0), l.cand,
             (unsigned long long)rk_u64(t, "ticks_orig", 0), l.auth);
    char key[64];
    snprintf(key, sizeof key, "%s's side from", l.Auth);
    rd_node *from = rd_kv_row(kv, key, NULL);
    for (int s = 1; s < RES_SRC__COUNT; s++)
        rd_textf(from, RD_PLAIN, "%s%s %llu", s > 1 ? ", " : "", res_source_name((res_source)s),
                 (unsigned long long)rk_u64(src, res_source_name((res_source)s), 0));
    rd_textf(from, RD_PLAIN, "; cache entries rejected (emulated again): %llu",
             (unsigned long long)rk_u64(t, "cache_rejected", 0));
    rd_textf(rd_kv_row(kv, "Leaf level", NULL), RD_PLAIN, "%llu calls, %llu mismatches, %llu faults",
             (unsigned long long)rk_u64(t, "leaf_calls", 0),
             (unsigned long long)rk_u64(t, "leaf_mismatches", 0),
             (unsigned long long)rk_u64(t, "leaf_faults", 0));
    entity_row(kv, c, t);
    rd_textf(rd_kv_row(kv, "Groups", NULL), RD_PLAIN, "%llu",
             (unsigned long long)rk_u64(t, "groups", rk_len(rk_arr(c->root, "groups"))));
    if (rk_u64(t, "x87_precision", 0))
        rd_textf(rd_kv_row(kv, "x87 precision (emulated)", "x87-precision"), RD_PLAIN,
                 "%llu of the mismatches are pose values off by one whose exact value lies within "
                 "2^-20 of a rounding boundary: Unicorn's fsin may round them apart from real "
                 "hardware (group shape x87_precision)",
                 (unsigned long long)rk_u64(t, "x87_precision", 0));
}
