/*
 * harness/report/report_view_pose_leaf.c: the "Pose helpers (leaf level)"
 * section's view: per helper the routine called (and the signature
 * assumed) or why it was not, its calls, mismatches and faults, its first
 * mismatch, and the trig options that match every angle (report.json's
 * "pose_leaf"); nothing without the pose helpers' leaf level.
 *
 * Reads report.json only through report_key.h; must not print or exit.
 */
#include "harness/report/report_sections.h"

/* "x87-nearest, x87-trunc" of the trig options that match every angle, "none", or "-". */
static void every_angle(rd_node *in, rk trig)
{
    if (!trig.j) {
        rd_text(in, RD_MUTED, "-");
        return;
    }
    int n = 0;
    for (rk e = rk_first(trig); e.j; e = rk_next(e)) {
        if (!rk_bool(e, "every_angle", 0)) continue;
        rd_textf(in, RD_PLAIN, "%s%s", n++ ? ", " : "", rk_str(e, "option", "?"));
    }
    if (!n) rd_text(in, RD_PLAIN, "none");
}

void rs_view_pose_leaf(const rs_ctx *c)
{
    static const char *const heads[] = {"helper", "routine (signature assumed)", "calls",
                                        "mismatches", "faults", "first mismatch",
                                        "trig options matching every angle"};
    rk arr = rk_arr(c->root, "pose_leaf");
    if (!rk_len(arr)) return;
    rd_node *t = rd_table(rs_open(c, NULL), "pose-leaf-table", 7, heads, 0);
    for (size_t i = 2; i < 5; i++) rd_table_num(t, i);
    for (rk h = rk_first(arr); h.j; h = rk_next(h)) {
        rd_node *row = rd_row(t, NULL);
        rd_text(rd_cell(row), RD_PLAIN, rk_str(h, "role", "?"));
        rd_node *r = rd_cell(row);
        if (rk_bool(h, "ran", 0)) {
            rd_textf(r, RD_PLAIN, "%s ", rk_str(h, "routine", "?"));
            rd_text(r, RD_CODE, rk_str(h, "signature", ""));
        } else {
            rd_text(r, RD_PLAIN, rk_str(h, "note", "not run"));
        }
        rd_textf(rd_cell(row), RD_PLAIN, "%llu", (unsigned long long)rk_u64(h, "calls", 0));
        rd_textf(rd_cell(row), RD_PLAIN, "%llu", (unsigned long long)rk_u64(h, "mismatches", 0));
        rd_textf(rd_cell(row), RD_PLAIN, "%llu", (unsigned long long)rk_u64(h, "faults", 0));
        rd_text(rd_cell(row), RD_PLAIN, rk_str(h, "first_mismatch", "-"));
        every_angle(rd_cell(row), rk_arr(h, "trig"));
    }
}
