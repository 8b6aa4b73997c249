/*
 * tests/harness/rt.h: helpers shared by the report suites: a run's results
 * built by hand (every status, a fault with disassembly, bad input, frame
 * and leaf groups, a file with a hostile name), scratch folders, whole-file
 * writes and reads, and external checkers run through the shell
 * (tests/harness/report_check.py, Chromium).
 *
 * Test code only.
 */
#ifndef FF8_TESTS_HARNESS_RT_H
#define FF8_TESTS_HARNESS_RT_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "harness/report/report.h"
#include "harness/core/results.h"
#include "tests/support/ts.h"

/* The file name every renderer must escape. */
#define RT_HOSTILE "<script>alert(1)</script>&\"'.dat"
/* The name with a table separator, for Markdown. */
#define RT_PIPE "broken|name.dat"

/*
 * The hand-built run (see rt.c for the table of what it holds):
 * 4 files (c0m001.dat, RT_HOSTILE, RT_PIPE bad, c0m099.dat without clips),
 * modes normal and slow, 12 results: 5 match, 2 mismatch, 1 fault,
 * 3 bad_input, 1 not_run; groups: 2 frame, 1 leaf; 4 leaf routines;
 * causes 0 (read, group 0) and 1 (combine, group 1); partial coverage of
 * bitReader and StartClip (one block of StartClip never run).
 */
void rt_results(run_results *r);
void rt_meta(run_meta *m);
/* A run where everything matched: 2 files, 3 clips in modes normal and slow (6 matches). */
void rt_results_passing(run_results *r);
/* report_build of the two above, asserting success (cJSON_Delete it). */
cJSON *rt_report(void);
/* What renderer fn makes of report j, malloc'd; the test fails (naming what) when it fails. */
char *rt_render(int (*fn)(const cJSON *, strbuf *), const cJSON *j, const char *what);


/* Path of report_check.py (run by ts_python()). */
char *rt_checker(void);
/*
 * Runs a shell command, returns its exit status and (when out is not NULL)
 * its stdout, malloc'd.
 */
int rt_run(const char *cmd, char **out);
/* Runs report_check.py with args; parses its JSON output (NULL if none). */
cJSON *rt_check(const char *args, int *status);
/* Writes j as report.json into dir and validates it against the schema; returns the
 * checker's exit status, its verdict in *verdict. */
int rt_validate(const char *dir, const cJSON *j, cJSON **verdict);

#endif
