/*
 * harness/report/report_view_cells.c: the "Differences a viewer never
 * shows" section's view: the whole-turn differences (rotations off by
 * multiples of 4096, harness/core/cells.h) of the mismatching clips, from
 * the totals' and results' "cells" of report.json; nothing when the run
 * has none.
 *
 * Reads report.json only through report_key.h; must not print or exit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/core/cells.h"
#include "harness/report/report_sections.h"

#define MAX_TURNS 200 /* rows kept in the pages; the rest counted */

static void lead(rd_node *sec, rk t, const rv_labels *l)
{
    uint64_t wt = rk_u64(t, "whole_turns", 0);
    uint64_t eq = rk_u64(t, "whole_turns_matrices_equal", 0);
    uint64_t df = rk_u64(t, "whole_turns_matrices_differ", 0);
    rd_textf(rd_para(sec, NULL), RD_PLAIN,
             "%llu differing values are %s (rotations off by multiples of 4096, 16-bit wraps "
             "included). They are listed and counted, and their clips stay mismatches: the "
             "%s's value is not the %s's. Bone matrices at their ticks: %llu equal, %llu "
             "differ, %llu not compared. Other differing values: %llu pose, %llu decoder "
             "state.",
             (unsigned long long)wt, cell_class_text(CELL_WHOLE_TURNS), l->cand, l->auth,
             (unsigned long long)eq, (unsigned long long)df,
             (unsigned long long)(wt - (eq + df <= wt ? eq + df : wt)),
             (unsigned long long)rk_u64(t, "pose", 0), (unsigned long long)rk_u64(t, "state", 0));
}

static void turn_row(rd_node *t, rk r, rk c, uint64_t i)
{
    char id[32];
    snprintf(id, sizeof id, "turn-%llu", (unsigned long long)i);
    rd_node *row = rd_row(t, id);
    rd_text(rd_cell(row), RD_NAME, rk_str(r, "file", "?"));
    rd_textf(rd_cell(row), RD_PLAIN, "%lld", (long long)rk_int(r, "clip", -1));
    rd_text(rd_cell(row), RD_PLAIN, rk_str(r, "mode", "?"));
    rd_textf(rd_cell(row), RD_PLAIN, "%lld", (long long)rk_int(c, "tick", -1));
    rd_text(rd_cell(row), RD_CODE, rk_str(c, "field", "?"));
    rd_textf(rd_cell(row), RD_PLAIN, "%lld", (long long)rk_int(c, "ref", 0));
    rd_textf(rd_cell(row), RD_PLAIN, "%lld", (long long)rk_int(c, "orig", 0));
    /* Whole turns from the two values (in double: an edited file may hold any). */
    rd_textf(rd_cell(row), RD_PLAIN, "%+.0f",
             trunc((rk_num(c, "ref", 0) - rk_num(c, "orig", 0)) / 4096));
    rd_text(rd_cell(row), RD_PLAIN, rk_str(c, "matrices", "not compared"));
}

void rs_view_cells(const rs_ctx *c)
{
    rk totals = rk_obj(rk_obj(c->root, "totals"), "cells");
    if (!rk_u64(totals, "whole_turns", 0)) return;
    rv_labels l = rv_sides(c->report);
    rd_node *sec = rs_open(c, NULL);
    lead(sec, totals, &l);
    const char *heads[] = {"File", "Clip", "Mode", "Tick", "Field", l.Cand, l.Auth, "Turns",
                           "Bone matrices"};
    rd_node *t = rd_table(sec, "whole-turns-table", 9, heads, 0);
    static const size_t nums[] = {1, 3, 5, 6, 7};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) rd_table_num(t, nums[i]);
    uint64_t n = 0;
    rk r = rk_first(rk_arr(c->root, "results"));
    for (size_t i = 0; i < c->ix->nresults; i++) {
        r.j = c->ix->results[i];
        for (rk cell = rk_first(rk_arr(rk_obj(r, "cells"), "listed")); cell.j; cell = rk_next(cell)) {
            if (strcmp(rk_str(cell, "class", ""), "whole_turns") != 0) continue;
            if (n < MAX_TURNS) turn_row(t, r, cell, n);
            n++;
        }
    }
    if (n > MAX_TURNS)
        rd_textf(rd_para(sec, "more"), RD_PLAIN, "%llu more listed in report.json.",
                 (unsigned long long)(n - MAX_TURNS));
}
