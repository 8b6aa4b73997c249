/*
 * harness/core/verdict.c: verdict_decide and the names of VERDICT_MAP and
 * VERDICT_RESULT_MAP.
 */
#include "harness/core/verdict.h"

#include <string.h>

static const struct {
    verdict_result result;
    const char *reason;
    int exit_code;
    const char *meaning;
} rows[VERDICT__COUNT] = {
#define VERDICT_ROW(id, result, name, code, meaning) {VERDICT_##result, name, code, meaning},
    VERDICT_MAP(VERDICT_ROW)
#undef VERDICT_ROW
};

static const struct {
    const char *name, *label;
} results[VERDICT__RESULTS] = {
#define VERDICT_RESULT_ROW(id, name, label) {name, label},
    VERDICT_RESULT_MAP(VERDICT_RESULT_ROW)
#undef VERDICT_RESULT_ROW
};

uint64_t verdict_entity_failures(const run_totals *t)
{
    return res_status_sum(t->entity_by_status, RES_SHARE_DIFF) +
           res_status_sum(t->entity_by_status, RES_SHARE_BAD) + t->queue_mismatches +
           t->entity_engines[RES_ENG_DISAGREE];
}

verdict verdict_decide(const run_totals *t, int interrupted)
{
    uint64_t differences = res_status_sum(t->by_status, RES_SHARE_DIFF) + t->leaf_mismatches +
                           t->leaf_faults + res_status_sum(t->entity_by_status, RES_SHARE_DIFF) +
                           t->queue_mismatches + t->engines[RES_ENG_DISAGREE] +
                           t->entity_engines[RES_ENG_DISAGREE] + t->leaf_engine_disagree;
    uint64_t bad = res_status_sum(t->by_status, RES_SHARE_BAD) +
                   res_status_sum(t->entity_by_status, RES_SHARE_BAD);
    if (differences) return VERDICT_BY_DIFFERENCES;
    if (bad) return VERDICT_BY_BAD_INPUT;
    if (interrupted) return VERDICT_BY_INTERRUPTED;
    if (res_status_sum(t->by_status, RES_SHARE_NOT_RUN) ||
        res_status_sum(t->entity_by_status, RES_SHARE_NOT_RUN))
        return VERDICT_BY_NOT_RUN;
    return VERDICT_BY_PASS;
}

int verdict_exit_code(verdict v, int interrupt_signal)
{
    if (interrupt_signal) return 128 + interrupt_signal;
    return (unsigned)v < VERDICT__COUNT ? rows[v].exit_code : rows[VERDICT_BY_NOT_RUN].exit_code;
}

verdict_result verdict_result_of(verdict v)
{
    return (unsigned)v < VERDICT__COUNT ? rows[v].result : VERDICT_INCOMPLETE;
}

const char *verdict_result_name(verdict_result r)
{
    return (unsigned)r < VERDICT__RESULTS ? results[r].name : "?";
}

const char *verdict_label(verdict v)
{
    return (unsigned)v < VERDICT__COUNT ? results[rows[v].result].label : "?";
}

const char *verdict_reason_name(verdict v)
{
    return (unsigned)v < VERDICT__COUNT ? rows[v].reason : "?";
}

const char *verdict_meaning(verdict v)
{
    return (unsigned)v < VERDICT__COUNT ? rows[v].meaning : "?";
}

int verdict_from_reason(const char *name)
{
    for (int v = 0; name && v < VERDICT__COUNT; v++)
        if (strcmp(rows[v].reason, name) == 0) return v;
    return -1;
}

int verdict_result_from_name(const char *name)
{
    for (int r = 0; name && r < VERDICT__RESULTS; r++)
        if (strcmp(results[r].name, name) == 0) return r;
    return -1;
}
