/*
 * harness/report/report_view_fields.c: the "What was compared" section's
 * view: per field class (a key of the trace format) the clips and ticks
 * or frames compared, what a candidate left out and whether the
 * authority's values move there, and the classes never compared; the
 * sentences are report_fields.c's, the terminal's too.
 *
 * Must not print or exit.
 */
#include "harness/report/report.h"
#include "harness/report/report_sections.h"

static void item(const char *line, void *list)
{
    rd_text(rd_item(list), RD_PLAIN, line);
}

void rs_view_fields(const rs_ctx *c)
{
    /* The keys report_fields.c reads for the sentences. */
    static const char *const keys[] = {"class", "clips", "ticks", "not_supplied_clips",
                                       "not_supplied_ticks", "moving_clips", "required"};
    rk e = rk_first(rk_arr(rk_obj(c->root, "totals"), "fields"));
    for (size_t i = 0; e.j && i < sizeof keys / sizeof keys[0]; i++) rk_note(e, keys[i]);
    rd_node *sec = rs_open(c, NULL);
    rd_textf(rd_para(sec, "muted"), RD_PLAIN,
             "Per field class (a key of the trace format); counts over the clips compared, in %s.",
             report_fields_unit(c->report));
    report_fields_each(c->report, item, rd_list(sec));
}
