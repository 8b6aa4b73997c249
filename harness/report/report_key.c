/*
 * harness/report/report_key.c: report.json read through cursors that
 * record each key asked for (report_key.h). Must not print or exit.
 */
#include "harness/report/report_key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/report_view.h"

void rk_log_free(rk_log *log)
{
    if (!log) return;
    for (size_t i = 0; i < log->n; i++) free(log->paths[i]);
    free(log->paths);
    *log = (rk_log){0};
}

/* The path parent.key (or key at the root), stored once in the log; NULL without a log. */
static const char *record(rk_log *log, const char *parent, const char *key)
{
    if (!log) return NULL;
    char buf[512];
    int n = parent && *parent ? snprintf(buf, sizeof buf, "%s%s%s", parent, key[0] == '[' ? "" : ".", key)
                              : snprintf(buf, sizeof buf, "%s", key);
    if (n < 0 || (size_t)n >= sizeof buf) {
        log->failed = 1;
        return NULL;
    }
    for (size_t i = 0; i < log->n; i++)
        if (strcmp(log->paths[i], buf) == 0) return log->paths[i];
    if (log->n == log->cap) {
        size_t cap = log->cap ? 2 * log->cap : 64;
        char **p = realloc(log->paths, cap * sizeof *p);
        if (!p) {
            log->failed = 1;
            return NULL;
        }
        log->paths = p, log->cap = cap;
    }
    char *s = strdup(buf);
    if (!s) {
        log->failed = 1;
        return NULL;
    }
    log->paths[log->n++] = s;
    return s;
}

rk rk_root(const cJSON *report, rk_log *log)
{
    return (rk){.j = report, .path = log ? "" : NULL, .log = log};
}

rk rk_obj(rk o, const char *key)
{
    return (rk){.j = rv_obj(o.j, key), .path = record(o.log, o.path, key), .log = o.log};
}

rk rk_arr(rk o, const char *key)
{
    return (rk){.j = rv_arr(o.j, key), .path = record(o.log, o.path, key), .log = o.log};
}

rk rk_first(rk arr)
{
    const cJSON *e = cJSON_IsArray(arr.j) ? arr.j->child : NULL;
    return (rk){.j = e, .path = e ? record(arr.log, arr.path, "[]") : NULL, .log = arr.log};
}

rk rk_next(rk e)
{
    return (rk){.j = e.j ? e.j->next : NULL, .path = e.path, .log = e.log};
}

size_t rk_len(rk arr)
{
    return rv_len(arr.j);
}

const char *rk_str(rk o, const char *key, const char *dflt)
{
    record(o.log, o.path, key);
    return rv_str(o.j, key, dflt);
}

int64_t rk_int(rk o, const char *key, int64_t dflt)
{
    record(o.log, o.path, key);
    return rv_int(o.j, key, dflt);
}

uint64_t rk_u64(rk o, const char *key, uint64_t dflt)
{
    record(o.log, o.path, key);
    return rv_u64(o.j, key, dflt);
}

double rk_num(rk o, const char *key, double dflt)
{
    record(o.log, o.path, key);
    return rv_num(o.j, key, dflt);
}

int rk_bool(rk o, const char *key, int dflt)
{
    record(o.log, o.path, key);
    return rv_bool(o.j, key, dflt);
}

int rk_has(rk o, const char *key)
{
    record(o.log, o.path, key);
    return rv_has_num(o.j, key);
}

void rk_note(rk o, const char *key)
{
    record(o.log, o.path, key);
}
