/*
 * harness/core/verdict.h: the run's verdict, decided once from its totals.
 * PASS, FAIL or INCOMPLETE, with the reason that decided it, as rows: the
 * names report.json stores and the label every output shows. report.json
 * stores what verdict_decide returns; index.html, summary.md, junit.xml,
 * the terminal summary and the exit code render that stored value and never
 * decide again (a report without one has it derived by this same function).
 * Must not print, read files or know about report formats.
 */
#ifndef FF8_HARNESS_CORE_VERDICT_H
#define FF8_HARNESS_CORE_VERDICT_H

#include <stdint.h>

#include "harness/core/results.h"

/*
 * id, result (report.json "verdict.result"), reason name ("verdict.reason"),
 * the command's exit code (README), what it means
 */
#define VERDICT_MAP(XX)                                                                            \
    XX(PASS, PASS, "all_match", 0, "everything compared matches")                                 \
    XX(DIFFERENCES, FAIL, "differences", 1,                                                      \
       "mismatches, faults of the original or clips the candidate did not decode")                \
    XX(BAD_INPUT, FAIL, "bad_input", 2, "bad inputs, with no mismatch or fault")                  \
    XX(INTERRUPTED, INCOMPLETE, "interrupted", 130, "interrupted before every comparison ran")    \
    XX(NOT_RUN, INCOMPLETE, "not_run", 3, "comparisons not run, with nothing failed")

/* The three results, in the order outputs show them. */
#define VERDICT_RESULT_MAP(XX)                                                                     \
    XX(PASS, "pass", "PASS")                                                                       \
    XX(FAIL, "fail", "FAIL")                                                                       \
    XX(INCOMPLETE, "incomplete", "INCOMPLETE")

typedef enum verdict_result {
#define VERDICT_RESULT_ENUM(id, name, label) VERDICT_##id,
    VERDICT_RESULT_MAP(VERDICT_RESULT_ENUM)
#undef VERDICT_RESULT_ENUM
        VERDICT__RESULTS
} verdict_result;

/* A verdict: its result and the reason that decided it. */
typedef enum verdict {
#define VERDICT_ENUM(id, result, name, code, meaning) VERDICT_BY_##id,
    VERDICT_MAP(VERDICT_ENUM)
#undef VERDICT_ENUM
        VERDICT__COUNT
} verdict;

/*
 * The one decision: FAIL when anything failed at any level (mismatches,
 * faults or clips not decoded of the frame, leaf or entity level, the
 * statuses RES_STATUS_MAP counts as DIFF: DIFFERENCES; else bad inputs:
 * BAD_INPUT), else INCOMPLETE when the run was interrupted (INTERRUPTED) or
 * left comparisons not run (NOT_RUN), else PASS. A run interrupted after a
 * failure is a FAIL: what it compared already fails.
 */
verdict verdict_decide(const run_totals *t, int interrupted);

verdict_result verdict_result_of(verdict v);
/* "pass", "fail", "incomplete" (report.json); "?" out of range. */
const char *verdict_result_name(verdict_result r);
/* "PASS", "FAIL", "INCOMPLETE" (every rendering); "?" out of range. */
const char *verdict_label(verdict v);
/* The reason's report.json name ("differences"); "?" out of range. */
const char *verdict_reason_name(verdict v);
/* The reason in words ("mismatches or faults of the original"). */
const char *verdict_meaning(verdict v);
/* The verdict whose reason name is name; -1 when none. */
int verdict_from_reason(const char *name);
/* The result named name ("fail"); -1 when none. */
int verdict_result_from_name(const char *name);

/*
 * The exit code of a run with verdict v: 128 + interrupt_signal when a
 * signal stopped it (130 SIGINT, 143 SIGTERM, whatever it found before),
 * else the verdict's (0 PASS, 1 FAIL by differences, 2 FAIL by bad inputs
 * only, 3 INCOMPLETE with comparisons left not run and no signal: the run
 * did not do its work).
 */
int verdict_exit_code(verdict v, int interrupt_signal);

/* Entity mismatches, faults, clips not decoded, bad inputs, speed probes that differ and
 * clips the two engines disagree on (the entity level's share of a FAIL). */
uint64_t verdict_entity_failures(const run_totals *t);

#endif
