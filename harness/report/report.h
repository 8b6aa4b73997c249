/*
 * harness/report/report.h: the run report. report.json ("ff8diff-report/1", its
 * schema in reports/schema/report.schema.json) is built from the run's
 * results; index.html, summary.md and junit.xml are rendered from that JSON
 * alone, never recomputed. A report folder is written under a temporary
 * name and renamed into place, so a reader never sees half a report.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_H
#define FF8_HARNESS_REPORT_REPORT_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "harness/core/json_out.h"
#include "harness/core/results.h"
#include "harness/core/run_meta.h"
#include "harness/core/strbuf.h"
#include "harness/core/verdict.h"
#include "common/error.h"

#define REPORT_SCHEMA "ff8diff-report/1"

/*
 * Builds the report tree from m and r alone (stream windows, faults and
 * their disassembly are already in r); caller frees with cJSON_Delete. The
 * results array is built on up to m->jobs threads (up to 8, one per 2,048
 * results at least); the tree is the same for any count.
 * NULL when the root cannot be allocated; an allocation failing deeper
 * leaves its key out, undetected so far.
 */
cJSON *report_build(const run_meta *m, const run_results *r);

/*
 * report.json's "verdict": {"result": "fail", "reason": "differences"}, from
 * the one decision (verdict_decide). NULL when out of memory.
 */
cJSON *report_json_verdict(verdict v);



/*
 * A pose group's skeleton at its divergence for report.json's group
 * "skeleton": {"bone", "parents", "ref": [[x,y,z],...], "orig"}; null when
 * the group has none.
 */
cJSON *report_figure_json(const res_figure *f);
/*
 * Its picture: an inline SVG stick figure, joints at the bones' world
 * translations projected on the x-y and z-y planes, both sides overlaid
 * (labelled cand and auth), the diverging bone marked. Nothing when the
 * group has no skeleton.
 */
void report_figure_svg(strbuf *b, const cJSON *skeleton, const char *cand, const char *auth);

/*
 * The differing values of a mismatching clip by their effect on the pose
 * (harness/core/cells.h): a result's "cells" (null when c is NULL: not
 * collected) and the totals' "cells".
 */
cJSON *report_cells_json(const cell_list *c);
cJSON *report_cells_totals_json(const run_totals *t);

/* The pose level's convention for report.json's run.pose (null without the pose level). */
cJSON *report_pose_json(const pose_conv *p);

/* The pose helpers' leaf level: report.json's "pose_leaf" (its section: report_view_pose_leaf.c). */
cJSON *report_pose_leaf_json(const run_results *r);

/*
 * What a run compared per field class (harness/core/fields.h
 * field_classes), report_fields.c: totals "fields" (one entry per class),
 * run.options "require" (the classes required), and a result's
 * "not_decoded", "decoder_error" and "not_supplied" added to o.
 */
cJSON *report_fields_totals_json(const run_results *r);
cJSON *report_fields_require_json(const run_results *r);
void report_fields_result_json(cJSON *o, const run_results *res, const clip_result *r);
/* "frames" when the candidate wrote the frames format, else "ticks". */
const char *report_fields_unit(const cJSON *report);
/*
 * The per-class sentences ("scale: compared on 0 clips, 0 frames; not
 * supplied on 110 clips ..."): the terminal's lines (nothing unless an
 * outside decoder was checked or a class was left out), and the lines of
 * the "What was compared" section (report_view_fields.c).
 */
void report_fields_summary(strbuf *b, const cJSON *report);
/* Calls put(sentence, arg) for each of those sentences, in order. */
void report_fields_each(const cJSON *report, void (*put)(const char *, void *), void *arg);
/* A not-decoded result (or one whose decoder said why it stopped) in words. */
void report_not_decoded_text(strbuf *b, const cJSON *result);
/* The run report's style sheet (other pages of the tool look the same). */
const char *report_html_css(void);

/* Renderers: from a report tree (as built, or parsed back from report.json). */
int report_render_html(const cJSON *report, strbuf *out);
int report_render_markdown(const cJSON *report, strbuf *out);
int report_render_junit(const cJSON *report, strbuf *out);
/*
 * index.html and summary.md from one document built once (the files are
 * those of the two calls above): what report_write renders.
 */
int report_render_pages(const cJSON *report, strbuf *html, strbuf *md);
/*
 * The terminal's one-line summary: the stored verdict ("PASS", "FAIL
 * (interrupted)"), then the frame counts ("not decoded" when some were
 * not), the field classes a candidate left out where the clips carry them
 * ("; not compared: scale (11 clips carry it)"), the leaf and entity
 * counts and the seconds.
 */
int report_render_summary(const cJSON *report, strbuf *out);
/*
 * The command's exit code for a report: verdict_exit_code of its stored
 * verdict and the signal of run.interrupted_by.
 */
int report_exit_code(const cJSON *report);

/*
 * Writes report.json, index.html, summary.md and junit.xml into
 * <reports_dir>/<run_id>/ through a new <reports_dir>/.<run_id>.tmp (a name
 * already there, a link included, is an error: nothing is written through
 * it). *dir_out (may be NULL) receives the final folder (caller frees). On
 * failure (a full disk: FF_E_IO) the temporary folder is removed. With
 * threads above 1, report.json is printed on a second thread while the
 * others render (the files are the same either way).
 */
int report_write(const cJSON *report, const char *reports_dir, const char *run_id, unsigned threads,
                 char **dir_out, ff_error *err);

/*
 * Before a run: creates reports_dir when missing and checks that it is a
 * folder a file can be written to (FF_E_IO otherwise, before any work), then
 * removes the .<run-id>.tmp folders that runs killed while writing left
 * there, unless some run is writing a report in it right now. *cleaned (may
 * be NULL) gets how many were removed.
 */
int report_dir_prepare(const char *reports_dir, unsigned *cleaned, ff_error *err);


#endif
