/*
 * harness/report/report_view_quirks.c: the "Quirks" section's view (the
 * quirk pass, report_quirks.h, docs/quirks.md): first the causes of a
 * checked decoder's mismatches that one row of the quirk table explains
 * (in plain words, with a count and the first example), then per row what
 * the engine does, how many clips it bites and the first of them (tick,
 * field, the engine's value and the plain reading's). Nothing when the
 * pass did not run (report.json "quirks" null).
 *
 * Reads report.json only through report_key.h; must not print or exit.
 */
#include "harness/report/report_sections.h"

/* "c0m001.dat clip 3 slow, tick 4 rot[2].y: engine 1, OTHER 2" into in. */
static void first_place(rd_node *in, rk f, const char *other)
{
    rd_text(in, RD_NAME, rk_str(f, "file", "?"));
    rd_textf(in, RD_PLAIN, " clip %lld %s, tick %lld ", (long long)rk_int(f, "clip", -1),
             rk_str(f, "mode", "?"), (long long)rk_int(f, "tick", -1));
    rd_text(in, RD_CODE, rk_str(f, "field", "?"));
    rd_textf(in, RD_PLAIN, ": engine %lld, %s %lld", (long long)rk_int(f, "engine", 0), other,
             (long long)rk_int(f, "plain", 0));
}

/* The causes a row explains, one paragraph each: your decoder does X; the engine Y. */
static void explained_causes(rd_node *s, rk rows)
{
    for (rk row = rk_first(rows); row.j; row = rk_next(row)) {
        rk f = rk_obj(row, "explains_first");
        long long n = (long long)rk_int(row, "explains", 0);
        if (n <= 0 || !f.j) continue;
        rd_node *p = rd_para(s, "cause");
        rd_text(p, RD_STRONG, "Cause");
        rd_textf(p, RD_PLAIN, ": your decoder %s; the engine %s (%s). %lld mismatching clips; first ",
                 rk_str(row, "plain", "?"), rk_str(row, "engine", "?"), rk_str(row, "anchor", "?"),
                 n);
        first_place(p, f, "yours");
    }
}

void rs_view_quirks(const rs_ctx *c)
{
    static const char *const heads[] = {"row", "kind", "the engine", "clips", "first clip"};
    rk qz = rk_obj(c->root, "quirks");
    if (!qz.j) return;
    rd_node *s = rs_open(c, NULL);
    rd_textf(rd_para(s, NULL), RD_PLAIN,
             "The reference with each row of the quirk table switched, beside the exact one, on "
             "%lld (clip, mode) pairs: where they first differ, the clip exercises that row "
             "(docs/quirks.md).",
             (long long)rk_int(qz, "clips_studied", 0));
    rk rows = rk_arr(qz, "rows");
    explained_causes(s, rows);
    rd_node *t = rd_table(s, "quirks-table", 5, heads, 0);
    rd_table_num(t, 3);
    for (rk row = rk_first(rows); row.j; row = rk_next(row)) {
        rd_node *r = rd_row(t, NULL);
        rd_text(rd_cell(r), RD_CODE, rk_str(row, "name", "?"));
        rd_text(rd_cell(r), RD_PLAIN, rk_str(row, "kind", "?"));
        rd_textf(rd_cell(r), RD_PLAIN, "%s (%s)", rk_str(row, "engine", ""),
                 rk_str(row, "anchor", ""));
        rd_node *clips = rd_cell(r), *first = rd_cell(r);
        if (!rk_bool(row, "observable", 0)) {
            rd_text(clips, RD_MUTED, "no result shows it");
            rd_text(first, RD_MUTED, "-");
            continue;
        }
        rd_textf(clips, RD_PLAIN, "%lld", (long long)rk_int(row, "clips", 0));
        rk f = rk_obj(row, "first");
        if (f.j) first_place(first, f, "plain");
        else rd_text(first, RD_MUTED, "none in this corpus");
    }
}
