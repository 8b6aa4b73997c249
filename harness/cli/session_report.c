/*
 * harness/cli/session_report.c: the end of a run-like command: its report
 * built and written (report.json and its renderings), then the run's closing
 * lines on the terminal (the summary, the first problems, groups and causes,
 * the pose convention, coverage, the engine, where the report is) and the
 * exit code the report gives. Reads the results; changes nothing in them.
 */
#include "harness/cli/session.h"

#include <stdio.h>
#include <stdlib.h>

#include "harness/report/report_quirks.h"

/* "186 clips", "14 entity clips", "3 clips, 2 leaf calls": what a cause explains. */
static void cause_counts(const res_cause *k, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    const uint64_t v[3] = {k->clips, k->entity_clips, k->leaf_calls};
    static const char *const what[3] = {"clip", "entity clip", "leaf call"};
    for (int i = 0; i < 3 && at < n; i++) {
        if (!v[i] && (i > 0 || k->entity_clips || k->leaf_calls)) continue;
        int w = snprintf(buf + at, n - at, "%s%llu %s%s", at ? ", " : "", (unsigned long long)v[i],
                         what[i], v[i] == 1 ? "" : "s");
        if (w < 0) break;
        at += (size_t)w;
    }
}

/*
 * A convention given that the executable's poses contradict (run.pose.contradicted): one
 * line, before the groups and causes it explains.
 */
static void print_contradicted(const run_results *r)
{
    const pose_contradiction *c = &r->pose.contradicted;
    if (!c->contradicted) return;
    size_t marked = 0;
    for (size_t i = 0; i < r->ncauses; i++) marked += r->causes[i].consequence_of[0] != '\0';
    printf("the executable's poses follow %s, not the given %s, on %llu of %llu states "
           "(the given: %llu)%s\n",
           c->found, c->given, (unsigned long long)c->states_found,
           (unsigned long long)c->states, (unsigned long long)c->states_given,
           marked ? ": the causes marked below are its consequences" : "");
    printf("  to compare under the executable's: --pose-options %s (or auto)\n", c->convention);
}

/* The groups and causes counted, the fields' summary, whole turns, the first five causes. */
static void print_groups_and_causes(const run_results *r, const char *fields)
{
    if (r->ngroups && r->ncauses) /* from replays, or from the quirk table on check --against */
        printf("%zu mismatch group%s, %zu cause%s\n", r->ngroups, r->ngroups == 1 ? "" : "s",
               r->ncauses, r->ncauses == 1 ? "" : "s");
    else if (r->ngroups)
        printf("%zu mismatch group%s\n", r->ngroups, r->ngroups == 1 ? "" : "s");
    fputs(fields, stdout);
    const run_totals *t = &r->totals;
    if (t->cells[CELL_WHOLE_TURNS]) {
        uint64_t wt = t->cells[CELL_WHOLE_TURNS], known = t->turns_equal + t->turns_differ;
        printf("%llu differing values are whole turns: no pose effect beyond trig rounding "
               "(still mismatches; bone matrices: %llu equal, %llu differ, %llu not compared); "
               "%llu pose differences\n",
               (unsigned long long)wt, (unsigned long long)t->turns_equal,
               (unsigned long long)t->turns_differ,
               (unsigned long long)(known <= wt ? wt - known : 0),
               (unsigned long long)t->cells[CELL_POSE]);
    }
    for (size_t c = 0; c < r->ncauses && c < 5; c++) {
        const res_cause *k = &r->causes[c];
        char counts[96];
        cause_counts(k, counts, sizeof counts);
        printf("  cause %zu (%s)%s: %s\n", c, counts,
               k->consequence_of[0] ? " [a consequence of the convention given]" : "",
               k->statement);
    }
}

/* The pose level's convention and, for a search, what decided each of its choices. */
static void print_pose_convention(const pose_conv *p)
{
    if (p->source == POSE_CONV_SEARCH)
        printf("pose convention: %s (searched on %llu states: %s)\n", p->chosen,
               (unsigned long long)p->states,
               p->all_match ? "matches every one" : "the closest, matches not all");
    else if (p->source != POSE_CONV_NONE)
        printf("pose convention: %s (%s)\n", p->chosen,
               p->source == POSE_CONV_GIVEN ? "--pose-options" : "pinned by the profile");
    if (p->source != POSE_CONV_SEARCH) return;
    ref_pose_opts chosen;
    ff_error e;
    if (ref_pose_opts_parse(p->chosen, &chosen, &e) < 0) ref_pose_opts_default(&chosen);
    for (unsigned k = 0; k < REF_POSE_KEY__COUNT; k++) {
        const pose_key_decision *d = &p->keys[k];
        printf("  pose %s=%s: %s, %s\n", ref_pose_key_name((ref_pose_key)k),
               ref_pose_value_name((ref_pose_key)k, ref_pose_opts_get(&chosen, (ref_pose_key)k)),
               pose_basis_name(d->basis), d->note);
    }
}

/* How much of the original's routines ran, or why that was not recorded. */
static void print_coverage(const run_results *r)
{
    if (r->coverage.enabled && r->coverage.not_recorded[0]) {
        printf("coverage: not recorded: %s\n", r->coverage.not_recorded);
    } else if (r->coverage.enabled) {
        unsigned blocks = 0, covered = 0;
        for (unsigned i = 0; i < r->coverage.nroutines; i++) {
            blocks += r->coverage.routines[i].blocks;
            covered += r->coverage.routines[i].covered;
        }
        printf("coverage: %u of %u blocks of the original's routines ran%s\n", covered, blocks,
               r->coverage.complete ? "" : " (partial: some clips came from the cache)");
    }
}

int cli_write_report(const run_meta *m, const run_results *r, const char *reports_dir)
{
    cJSON *report = report_build(m, r);
    if (!report) {
        cli_fail("out of memory building the report: internal or resource error");
        return CLI_EXIT_INTERNAL;
    }
    char *dir = NULL;
    ff_error err;
    int rc = reports_dir ? report_write(report, reports_dir, m->run_id, m->jobs, &dir, &err) : 0;
    int status = report_exit_code(report);
    strbuf line, fields;
    sb_init(&line);
    sb_init(&fields);
    report_render_summary(report, &line);
    report_fields_summary(&fields, report);
    report_quirks_text(&line, report);
    cJSON_Delete(report);
    if (rc < 0) {
        /* The run went through; its report could not be kept (a full disk, no memory). */
        cli_print_error(&err);
        cli_fail("the report could not be written: internal or resource error");
        sb_free(&line);
        sb_free(&fields);
        return CLI_EXIT_INTERNAL;
    }
    if (!reports_dir) {
        sb_free(&line);
        sb_free(&fields);
        return status; /* nothing written: nothing to say where */
    }
    fputs(line.s ? line.s : "", stdout);
    sb_free(&line);
    cli_first_problems(r);
    print_contradicted(r);
    print_groups_and_causes(r, fields.s ? fields.s : "");
    sb_free(&fields);
    print_pose_convention(&r->pose);
    print_coverage(r);
    if (m->engine) {
        char engine[160];
        cli_engine_line(m->engine, engine, sizeof engine);
        printf("%s\n", engine);
    }
    printf("report: %s/index.html\n", dir);
    free(dir);
    return status;
}
