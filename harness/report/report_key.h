/*
 * harness/report/report_key.h: how a view reads report.json. A cursor (rk)
 * is a node of the tree and, when a key log is attached, the node's path
 * ("run.executable", "groups[]"); every key a view asks for is then
 * recorded in the log as a path ("run.executable.path", "groups[].field"),
 * so a test can hold each against the schema and a misspelt key fails
 * there instead of rendering its default in silence. Without a log the
 * getters are rv_*'s (report_view.h): a missing or ill-typed key answers
 * the caller's default. Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_KEY_H
#define FF8_HARNESS_REPORT_REPORT_KEY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* The paths asked for, each once, in the order first asked. */
typedef struct rk_log {
    char **paths;
    size_t n, cap;
    int failed; /* out of memory: the log is incomplete */
} rk_log;

void rk_log_free(rk_log *log);

typedef struct rk {
    const cJSON *j;   /* NULL when the key was missing or of another type */
    const char *path; /* NULL without a log */
    rk_log *log;
} rk;

/* The report's root; log may be NULL (nothing recorded). */
rk rk_root(const cJSON *report, rk_log *log);
/* The object (array) at key; .j NULL when absent or of another type. */
rk rk_obj(rk o, const char *key);
rk rk_arr(rk o, const char *key);
/* An array's elements: for (rk e = rk_first(a); e.j; e = rk_next(e)). */
rk rk_first(rk arr);
rk rk_next(rk e);
size_t rk_len(rk arr);
/* Values at key, or dflt (rk_has: 1 when key holds a number). */
const char *rk_str(rk o, const char *key, const char *dflt);
int64_t rk_int(rk o, const char *key, int64_t dflt);
uint64_t rk_u64(rk o, const char *key, uint64_t dflt);
double rk_num(rk o, const char *key, double dflt);
int rk_bool(rk o, const char *key, int dflt);
int rk_has(rk o, const char *key);
/* Records key under o without reading it (a key a view hands to rv_* helpers). */
void rk_note(rk o, const char *key);

#endif
