/*
 * harness/report/report_view_coverage.c: the Coverage section's view:
 * which basic blocks of the original's routines ran (report.json's
 * "coverage"), or that they were not recorded and why (never a table of
 * zeros), then the blocks never run in routines that ran, each with the
 * edge that leads to it and its disassembly. Nothing without "coverage"
 * (--no-coverage).
 *
 * Reads report.json only through report_key.h; must not print or exit.
 */
#include "harness/report/report_sections.h"

#define MAX_UNCOVERED 100 /* blocks shown with their disassembly */

static void uncovered_block(rd_node *sec, rk r, rk u)
{
    rk via = rk_obj(u, "reached_from");
    rd_node *box = rd_box(sec, NULL), *p = rd_para(box, NULL);
    rd_text(p, RD_STRONG, rk_str(r, "name", "?"));
    rd_text(p, RD_PLAIN, " block ");
    rd_text(p, RD_CODE, rk_str(u, "start", "?"));
    rd_textf(p, RD_PLAIN, " (%lld instructions), reached by %s", (long long)rk_int(u, "instructions", 0),
             rk_str(via, "edge", "?"));
    if (rk_str(via, "eip", NULL)) {
        rd_text(p, RD_PLAIN, " from ");
        rd_text(p, RD_CODE, rk_str(via, "eip", "?"));
        rd_text(p, RD_PLAIN, " ");
        rd_text(p, RD_CODE, rk_str(via, "instruction", "?"));
        rd_text(p, RD_PLAIN, rk_bool(via, "covered", 0) ? " (which ran)" : " (which did not run)");
    }
    rd_node *code = rd_code_block(box);
    for (rk line = rk_first(rk_arr(u, "disassembly")); line.j; line = rk_next(line))
        if (cJSON_IsString(line.j)) rd_code_line(code, line.j->valuestring, 0);
}

void rs_view_coverage(const rs_ctx *c)
{
    static const char *const heads[] = {"Routine", "Entry", "Blocks run", "Note"};
    rk cov = rk_obj(c->root, "coverage");
    if (!cov.j) return;
    rd_node *sec = rs_open(c, NULL);
    if (!rk_bool(cov, "recorded", 1)) {
        /* The run's engine has no coverage hooks: why, never a table of zeros. */
        rd_textf(rd_para(rd_box(sec, "coverage-not-recorded"), NULL), RD_PLAIN, "Not recorded: %s.",
                 rk_str(cov, "not_recorded", "the run's engine has no coverage hooks"));
        return;
    }
    if (!rk_bool(cov, "complete", 0))
        rd_textf(rd_para(sec, "more"), RD_PLAIN,
                 "Partial: %llu compared clips were not emulated in this run (cache or traces), "
                 "or the run was interrupted; their blocks are not counted.",
                 (unsigned long long)rk_u64(cov, "not_emulated", 0));
    rd_node *t = rd_table(sec, "coverage-table", 4, heads, 0);
    rd_table_num(t, 2);
    rk routines = rk_arr(cov, "routines");
    for (rk r = rk_first(routines); r.j; r = rk_next(r)) {
        rd_node *row = rd_row(t, NULL);
        rd_text(rd_cell(row), RD_PLAIN, rk_str(r, "name", "?"));
        rd_text(rd_cell(row), RD_CODE, rk_str(r, "entry", "?"));
        rd_textf(rd_cell(row), RD_PLAIN, "%llu / %llu", (unsigned long long)rk_u64(r, "covered", 0),
                 (unsigned long long)rk_u64(r, "blocks", 0));
        rd_text(rd_cell(row), RD_PLAIN, rk_str(r, "note", ""));
    }
    rd_text(rd_heading(sec, NULL), RD_PLAIN, "Blocks never run, in routines that ran");
    size_t listed = 0;
    for (rk r = rk_first(routines); r.j; r = rk_next(r)) {
        if (!rk_u64(r, "covered", 0)) continue;
        for (rk u = rk_first(rk_arr(r, "uncovered")); u.j; u = rk_next(u))
            if (listed++ < MAX_UNCOVERED) uncovered_block(sec, r, u);
    }
    if (!listed)
        rd_text(rd_para(sec, "muted"), RD_PLAIN, "None.");
    else if (listed > MAX_UNCOVERED)
        rd_textf(rd_para(sec, "more"), RD_PLAIN, "%zu more are in report.json.",
                 listed - MAX_UNCOVERED);
}
