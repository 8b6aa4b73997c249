/*
 * harness/report/report_diff.h: what changed between two runs, from their
 * report.json ("ff8diff-report/1") alone. Frame results are matched by
 * (file, clip, mode), leaf results by routine, and every pair falls in one
 * category of RDIFF_KIND_MAP. A regression is a clip newly broken or a
 * first divergence that moved earlier (tick, then field in comparison
 * order): `ff8diff compare-reports` exits 1 on it.
 *
 * Both inputs are checked against the parts of the schema read here; a
 * report that does not hold is an error naming the input and the record.
 * Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_DIFF_H
#define FF8_HARNESS_REPORT_REPORT_DIFF_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/core/results.h"
#include "harness/core/strbuf.h"
#include "harness/core/verdict.h"
#include "common/error.h"

#define RDIFF_SCHEMA "ff8diff-report-diff/1"

/* id, JSON name, heading, counts as a regression */
#define RDIFF_KIND_MAP(XX)                                                                         \
    XX(NEWLY_BROKEN, "newly_broken", "newly broken", 1)                                            \
    XX(MOVED_EARLIER, "moved_earlier", "first divergence moved earlier", 1)                        \
    XX(FIXED, "fixed", "fixed", 0)                                                                 \
    XX(MOVED, "moved", "first divergence moved later or changed", 0)                               \
    XX(STILL_BROKEN, "still_broken", "still broken", 0)                                            \
    XX(ADDED, "added", "only in the new run", 0)                                                   \
    XX(REMOVED, "removed", "only in the old run", 0)                                               \
    XX(NOT_COMPARED, "not_compared", "not run in one of the runs", 0)                              \
    XX(UNCHANGED, "unchanged", "unchanged match", 0)

typedef enum rdiff_kind {
#define RDIFF_KIND_ENUM(id, name, heading, regress) RDIFF_##id,
    RDIFF_KIND_MAP(RDIFF_KIND_ENUM)
#undef RDIFF_KIND_ENUM
        RDIFF__COUNT
} rdiff_kind;

const char *rdiff_kind_name(rdiff_kind k);
const char *rdiff_kind_heading(rdiff_kind k);
int rdiff_kind_regresses(rdiff_kind k);

/* One record as one report has it. */
typedef struct rdiff_side {
    int present;
    res_status status;
    /* frame level, status mismatch: the first divergence */
    int has_div;
    uint64_t tick;
    char field[48];
    int64_t ref, orig;
    /* leaf level */
    uint64_t calls, mismatches, faults;
    int64_t first_case; /* -1: none */
} rdiff_side;

typedef struct rdiff_entry {
    rdiff_kind kind;
    int leaf; /* 0: frame (file, clip, mode); 1: leaf (routine in file) */
    char *file;
    int32_t clip;
    char mode[16];
    rdiff_side old, new;
} rdiff_entry;

typedef struct rdiff_run {
    char path[1024];
    char id[64];
    char command[16];
    verdict verdict;    /* as the report stores it (rv_verdict) */
    int verdict_stored; /* 0: a report older than the stored verdict, derived from its totals */
} rdiff_run;

typedef struct rdiff {
    rdiff_run old, new;
    uint64_t count[RDIFF__COUNT];
    size_t n;
    rdiff_entry *e; /* every pair but the unchanged ones, by category then key */
} rdiff;

/*
 * Compares two parsed reports into *out (rdiff_free it, also after a
 * failure). Returns -1 with err (file "old"/"new" or the path set in
 * out->old/new.path) when either does not follow the schema.
 */
int rdiff_compare(const cJSON *old_report, const cJSON *new_report, rdiff *out, ff_error *err);
/* Reads both files and compares them. */
int rdiff_files(const char *old_path, const char *new_path, rdiff *out, ff_error *err);
void rdiff_free(rdiff *d);
/* 1 when any pair is in a regressing category. */
int rdiff_regressed(const rdiff *d);

/* Human-readable summary; limit = lines per category (0: all). */
void rdiff_text(const rdiff *d, size_t limit, strbuf *out);
/* The RDIFF_SCHEMA document (caller deletes); NULL when out of memory. */
cJSON *rdiff_json(const rdiff *d);

#endif
