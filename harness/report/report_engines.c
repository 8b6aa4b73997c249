/*
 * harness/report/report_engines.c: what each engine did in a run, in words,
 * rendered from report.json's run.tool.engine (the engine of the calls: its
 * kind, version and capabilities) and run.engines (the calls, --engine
 * both's second engine and the engines' agreement, the replays with hooks
 * and why there, coverage, what the engine of the calls does not see when it
 * says and no second engine ran): one sentence for index.html and
 * summary.md, and the short clause of the terminal's summary line. Plain
 * text: the caller escapes it. Decides nothing.
 */
#include <string.h>

#include "harness/report/report_view.h"

/* k, with tool.engine's version and hooks when it is k: "native 6.1.0 (no hooks)". */
static void engine_named(strbuf *b, const cJSON *run, const char *k)
{
    const cJSON *en = rv_obj(rv_obj(run, "tool"), "engine"), *c;
    sb_puts(b, k);
    if (!en || strcmp(rv_str(en, "kind", ""), k) != 0) return;
    const char *v = rv_str(en, "version", "");
    if (v[0]) sb_printf(b, " %s", v);
    int n = 0;
    cJSON_ArrayForEach(c, rv_arr(en, "capabilities"))
    {
        if (cJSON_IsString(c)) sb_printf(b, "%s%s", n++ ? ", " : " (hooks: ", c->valuestring);
    }
    sb_puts(b, n ? ")" : " (no hooks)");
}

void rv_engines_text(strbuf *b, const cJSON *report)
{
    const cJSON *run = rv_obj(report, "run"), *e = rv_obj(run, "engines");
    const cJSON *cov = rv_obj(report, "coverage");
    const char *calls = rv_str(e, "calls", NULL), *replays = rv_str(e, "replays", NULL);
    const char *why = rv_str(e, "replays_why", ""), *covered = rv_str(e, "coverage", NULL);
    if (!calls) {
        sb_puts(b, "none: the original was not run");
        return;
    }
    sb_puts(b, "calls on ");
    engine_named(b, run, calls);
    const char *second = rv_str(e, "second", NULL);
    if (second) {
        /* --engine both: the second engine's word, said where every format says the first's. */
        run_totals t;
        rv_totals(report, &t);
        sb_printf(b,
                  ", and every call again on %s (--engine both): %llu comparisons on both, "
                  "%llu agree, %llu disagree, %llu x87 (emulation against hardware); the "
                  "results cache and dedup off, so that each clip runs on both",
                  second,
                  (unsigned long long)(t.engines[RES_ENG_AGREE] + t.engines[RES_ENG_DISAGREE] +
                                       t.engines[RES_ENG_X87]),
                  (unsigned long long)t.engines[RES_ENG_AGREE],
                  (unsigned long long)t.engines[RES_ENG_DISAGREE],
                  (unsigned long long)t.engines[RES_ENG_X87]);
    }
    if (replays && why[0]) {
        sb_printf(b, "; %s", why);
    } else if (replays) {
        sb_printf(b, "; replays with hooks (write watches, read logs) on %s", replays);
    } else {
        sb_puts(b, "; no replays with hooks made");
    }
    const cJSON *en = rv_obj(rv_obj(run, "tool"), "engine");
    const char *limits = rv_str(en, "limits", NULL);
    if (limits && !second && strcmp(rv_str(en, "kind", ""), calls) == 0)
        sb_printf(b, "; not seen on %s: %s", calls, limits);
    if (covered)
        sb_printf(b, "; coverage recorded on %s", covered);
    else if (cov && !rv_bool(cov, "recorded", 1))
        sb_printf(b, "; coverage not recorded (%s)", rv_str(cov, "not_recorded", "?"));
    else
        sb_puts(b, "; coverage off");
}

void rv_engines_brief(strbuf *b, const cJSON *report)
{
    const cJSON *e = rv_obj(rv_obj(report, "run"), "engines");
    const cJSON *cov = rv_obj(report, "coverage");
    const char *calls = rv_str(e, "calls", NULL), *replays = rv_str(e, "replays", NULL);
    if (!calls) return;
    sb_printf(b, "; engine: %s", calls);
    if (replays && strcmp(replays, calls) != 0) sb_printf(b, ", replays on %s", replays);
    if (cov && !rv_bool(cov, "recorded", 1)) sb_puts(b, ", coverage not recorded");
}
