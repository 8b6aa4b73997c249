/*
 * harness/report/report_summary.c: the terminal's one-line summary and the
 * command's exit code, rendered from a report tree like the other outputs:
 * the verdict report.json stores, then its counts, then the field classes
 * a candidate left out where the clips carry them, then the engine that
 * ran the calls with what another did (harness/report/report_engines.c).
 * Decides nothing, prints nothing.
 */
#include <signal.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/report/report_view.h"

/*
 * "; not compared: scale (11 clips carry it)": the field classes the
 * candidate left out where the authority's clips carry data of them, so
 * that a PASS on what a decoder never gave does not read as a full one.
 */
static void left_out(strbuf *out, const cJSON *report)
{
    const cJSON *e;
    int n = 0;
    cJSON_ArrayForEach(e, rv_arr(rv_obj(report, "totals"), "fields"))
    {
        uint64_t moving = rv_u64(e, "moving_clips", 0);
        if (!moving) continue;
        sb_printf(out, "%s%s (%llu clip%s carr%s it)", n++ ? ", " : "; not compared: ",
                  rv_str(e, "class", "?"), (unsigned long long)moving, moving == 1 ? "" : "s",
                  moving == 1 ? "ies" : "y");
    }
}

int report_render_summary(const cJSON *report, strbuf *out)
{
    const cJSON *run = rv_obj(report, "run");
    verdict v;
    rv_verdict(report, &v);
    run_totals t;
    rv_totals(report, &t);
    sb_printf(out, "%s%s: %llu comparisons: %llu match, %llu mismatch, %llu fault",
              verdict_label(v), rv_bool(run, "interrupted", 0) ? " (interrupted)" : "",
              (unsigned long long)t.comparisons, (unsigned long long)t.by_status[RES_MATCH],
              (unsigned long long)t.by_status[RES_MISMATCH],
              (unsigned long long)t.by_status[RES_FAULT]);
    /* Said when there are some: only an outside decoder's traces leave clips not decoded. */
    if (t.by_status[RES_NOT_DECODED])
        sb_printf(out, ", %llu not decoded", (unsigned long long)t.by_status[RES_NOT_DECODED]);
    sb_printf(out, ", %llu bad input", (unsigned long long)t.by_status[RES_BAD_INPUT]);
    left_out(out, report);
    if (t.leaf_calls)
        sb_printf(out, "; leaf: %llu calls, %llu mismatch, %llu fault",
                  (unsigned long long)t.leaf_calls, (unsigned long long)t.leaf_mismatches,
                  (unsigned long long)t.leaf_faults);
    if (t.leaf_engine_calls)
        sb_printf(out, ", on both engines %llu: %llu disagree",
                  (unsigned long long)t.leaf_engine_calls,
                  (unsigned long long)t.leaf_engine_disagree);
    if (t.engines[RES_ENG_AGREE] + t.engines[RES_ENG_X87] + t.engines[RES_ENG_DISAGREE]) {
        const cJSON *g = rv_obj(rv_obj(report, "run"), "engines");
        sb_printf(out, "; engines %s and %s on %llu comparisons: %llu agree, %llu disagree, "
                       "%llu x87 (emulation vs hardware)",
                  rv_str(g, "calls", "?"), rv_str(g, "second", "?"),
                  (unsigned long long)(t.engines[RES_ENG_AGREE] + t.engines[RES_ENG_X87] +
                                       t.engines[RES_ENG_DISAGREE]),
                  (unsigned long long)t.engines[RES_ENG_AGREE],
                  (unsigned long long)t.engines[RES_ENG_DISAGREE],
                  (unsigned long long)t.engines[RES_ENG_X87]);
    }
    if (t.entities)
        sb_printf(out,
                  "; entity: %llu entities, %llu comparisons, %llu match, %llu mismatch, %llu "
                  "fault, %llu bad input",
                  (unsigned long long)t.entities, (unsigned long long)t.entity_comparisons,
                  (unsigned long long)t.entity_by_status[RES_MATCH],
                  (unsigned long long)t.entity_by_status[RES_MISMATCH],
                  (unsigned long long)t.entity_by_status[RES_FAULT],
                  (unsigned long long)t.entity_by_status[RES_BAD_INPUT]);
    uint64_t ent_both = t.entity_engines[RES_ENG_AGREE] + t.entity_engines[RES_ENG_X87] +
                        t.entity_engines[RES_ENG_DISAGREE];
    if (ent_both)
        sb_printf(out, ", on both engines %llu: %llu agree, %llu disagree, %llu x87",
                  (unsigned long long)ent_both, (unsigned long long)t.entity_engines[RES_ENG_AGREE],
                  (unsigned long long)t.entity_engines[RES_ENG_DISAGREE],
                  (unsigned long long)t.entity_engines[RES_ENG_X87]);
    if (t.queue_mismatches)
        sb_printf(out, ", %llu speed probes differing (QueueAnimation's speed from the status)",
                  (unsigned long long)t.queue_mismatches);
    rv_engines_brief(out, report);
    sb_printf(out, " (%.1f s)\n", rv_num(run, "seconds", 0));
    return strbuf_failed(out) ? -1 : 0;
}

int report_exit_code(const cJSON *report)
{
    const cJSON *run = rv_obj(report, "run");
    int sig = 0;
    if (rv_bool(run, "interrupted", 0))
        sig = strcmp(rv_str(run, "interrupted_by", ""), "SIGTERM") == 0 ? SIGTERM : SIGINT;
    verdict v;
    rv_verdict(report, &v);
    return verdict_exit_code(v, sig);
}
