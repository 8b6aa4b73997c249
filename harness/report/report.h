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

#include "harness/core/results.h"
#include "harness/core/strbuf.h"
#include "common/error.h"

#define REPORT_SCHEMA "ff8diff-report/1"

/* What the run was asked to do and with what, for the report's "run". */
typedef struct report_meta {
    const char *command;      /* "run", "check", "record" */
    const char *run_id;
    const char *started;      /* ISO 8601 UTC */
    const char *finished;
    /* executable identity ("none" verdict when no executable) */
    const char *exe_path, *exe_sha256, *profile, *profile_source;
    const char *exe_verdict;  /* "known", "unknown_build", "none" */
    const char *exe_warning;  /* "" when none */
    /* corpus */
    const char *corpus_path, *corpus_kind, *corpus_description;
    const char *synthetic_preset; /* NULL unless generated */
    uint64_t synthetic_seed;
    /* options */
    unsigned modes;
    int frame_level, leaf_level;
    unsigned jobs;
    uint64_t leaf_calls, seed;
    int keep_matrices, dedup;
    const char *explain;      /* "none", "groups" (NULL), "all" */
    int coverage;
    const char *cache_dir;    /* NULL: no cache */
    const char *traces_dir, *against_dir;
    uint64_t emulated_calls;
} report_meta;

/*
 * Builds the report tree (caller frees with cJSON_Delete); file_data[i]
 * (size file_size[i]) are the corpus files' bytes, for stream windows. NULL
 * when memory runs out.
 */
cJSON *report_build(const report_meta *m, const run_results *r);

/*
 * Pieces of the report tree that the trace-set manifest shares, so both
 * files describe a run and a fault in one shape: a string made valid UTF-8
 * (names come from files), a fault (null when f is NULL), and the run's
 * identity ("tool", "executable", "corpus", "modes") added to o.
 */
cJSON *report_json_string(const char *s);
cJSON *report_json_fault(const emu_fault *f);
void report_json_identity(cJSON *o, const report_meta *m);

/* Renderers: from a report tree (as built, or parsed back from report.json). */
int report_render_html(const cJSON *report, strbuf *out);
int report_render_markdown(const cJSON *report, strbuf *out);
int report_render_junit(const cJSON *report, strbuf *out);

/*
 * Writes report.json, index.html, summary.md and junit.xml into
 * <reports_dir>/<run_id>/ through <reports_dir>/.<run_id>.tmp. *dir_out (may
 * be NULL) receives the final folder (caller frees).
 */
int report_write(const cJSON *report, const char *reports_dir, const char *run_id,
                 char **dir_out, ff_error *err);

/* A run id sortable by time: "20261130-004512-1a2b". */
void report_make_run_id(char *buf, size_t n);
/* Current UTC time as ISO 8601 ("2026-11-30T00:45:12Z"). */
void report_now_iso(char *buf, size_t n);

#endif
