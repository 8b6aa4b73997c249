/*
 * harness/report/report_view.h: read-only access to a report tree for the
 * renderers (HTML, Markdown, JUnit). Every getter tolerates a missing or
 * ill-typed key and answers with the caller's default, because report.json
 * files are also read back from disk, where anything may have been edited.
 *
 * rv_index gathers, once, what several renderers need: the results in
 * order (for lookups by index) and per file and mode the count of each
 * status with the first failing result. It only counts what the JSON says;
 * it never recomputes a comparison. Nothing here prints.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_VIEW_H
#define FF8_HARNESS_REPORT_REPORT_VIEW_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/core/modes.h"
#include "harness/core/results.h"
#include "harness/core/strbuf.h"
#include "harness/core/verdict.h"

/* The child at key when it is an object (array), else NULL. */
const cJSON *rv_obj(const cJSON *o, const char *key);
const cJSON *rv_arr(const cJSON *o, const char *key);
/* The string at key, or dflt when absent or not a string. */
const char *rv_str(const cJSON *o, const char *key, const char *dflt);
/* 1 when key holds a number. */
int rv_has_num(const cJSON *o, const char *key);
/* The number at key as an integer, clamped to the type; dflt when absent. */
int64_t rv_int(const cJSON *o, const char *key, int64_t dflt);
uint64_t rv_u64(const cJSON *o, const char *key, uint64_t dflt);
double rv_num(const cJSON *o, const char *key, double dflt);
/* 1 for true, 0 for false, dflt otherwise. */
int rv_bool(const cJSON *o, const char *key, int dflt);
/*
 * The offset part of an instruction's place, after its routine's name: "+0x4f" when that
 * routine is a profile routine (in_profile true or absent), " (+0x4f into it)" for "a
 * routine at 0x.. called from ..." (in_profile false). Written into buf (n bytes); returns buf.
 */
const char *rv_offset_text(const cJSON *in, char *buf, size_t n);
/* Number of elements of an array (0 when a is not an array). */
size_t rv_len(const cJSON *a);

/* Index of a status / mode name, -1 when unknown or NULL. */
int rv_status(const char *name);
int rv_mode(const char *name);
/* A status as readers say it ("match", "bad input", "not run"); "?" when out of range. */
const char *rv_status_label(int s);
/* 1 when the string array arr holds s. */
int rv_has_string(const cJSON *arr, const char *s);

/*
 * The run's totals as report.json's "totals" holds them (frame, leaf and
 * entity counts; a missing count reads 0) into *t.
 */
void rv_totals(const cJSON *report, run_totals *t);
/*
 * The run's verdict into *v: the one report.json stores ("verdict"), or,
 * in a report written before reports stored it, the one verdict_decide
 * gives from its totals and run.interrupted. Returns 1 when stored, 0 when
 * derived, -1 when "verdict" is there but not a verdict of VERDICT_MAP
 * (its reason unknown or its result not the reason's): *v is then derived.
 */
int rv_verdict(const cJSON *report, verdict *v);

typedef struct rv_file {
    const char *name;
    const cJSON *entry; /* manifest entry; NULL when the file appears only in results */
    uint64_t n[MODE__COUNT][RES__COUNT];
    const cJSON *first_fail[MODE__COUNT]; /* first mismatch, fault or not decoded in that mode */
    const cJSON *first_bad[MODE__COUNT];  /* first bad_input in that mode */
} rv_file;

typedef struct rv_index {
    size_t nfiles;
    rv_file *files; /* manifest order, then files found only in results */
    size_t nresults;
    const cJSON **results;          /* the "results" array, in order */
    unsigned modes;                 /* run.modes, plus every mode seen in results */
    uint64_t by_status[RES__COUNT]; /* counted over results (for cross-checks) */
    /* name lookup (open addressing over files) */
    size_t nslots;
    int64_t *slots;
} rv_index;

/*
 * Builds the index of a report. Returns 0, or -1 when memory runs out
 * (ix is then empty, rv_index_free is still safe). Pointers into the report
 * stay valid as long as the report does.
 */
int rv_index_build(const cJSON *report, rv_index *ix);
void rv_index_free(rv_index *ix);

/* The file called name, NULL when the report has none. */
const rv_file *rv_find_file(const rv_index *ix, const char *name);

/* The result at index i of the results array, NULL when out of range. */
const cJSON *rv_result(const rv_index *ix, int64_t i);

/*
 * What the report calls its two sides (run.sides): the candidate
 * ("reference" for the reference engine, "candidate" for an outside
 * decoder's traces) and the authority ("original", or "golden" for recorded
 * traces). Reports without sides get "reference" and "original".
 */
typedef struct rv_labels {
    const char *cand, *auth; /* lower case, as in a sentence */
    const char *Cand, *Auth; /* capitalised, for a heading */
} rv_labels;
rv_labels rv_sides(const cJSON *report);

/*
 * The options that applied to the run, as one line of text ("jobs 2, dedup
 * on, leaf calls 100000, seed 1"): dedup only when the original was
 * emulated, leaf calls and seed only with the leaf level.
 */
void rv_options_text(strbuf *b, const cJSON *run);

/*
 * What each engine did (harness/report/report_engines.c), as plain text
 * for the caller to escape: rv_engines_text the sentence index.html and
 * summary.md show ("calls on native 6.1.0 (no hooks); replays with hooks
 * (write watches, read logs) on unicorn (...); coverage not recorded
 * (...)"), rv_engines_brief the summary line's clause ("; engine: native
 * replays on unicorn, coverage not recorded"; nothing when no engine
 * ran). Reports without run.engines say less, never fail.
 */
void rv_engines_text(strbuf *b, const cJSON *report);
void rv_engines_brief(strbuf *b, const cJSON *report);

#endif
