/*
 * harness/report/report_view.c: defensive getters over a report tree and the
 * per-file, per-mode tally the renderers share. Counts what the JSON holds;
 * never recomputes a comparison, never prints.
 */
#include "harness/report/report_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const cJSON *rv_obj(const cJSON *o, const char *key)
{
    const cJSON *c = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return cJSON_IsObject(c) ? c : NULL;
}

const cJSON *rv_arr(const cJSON *o, const char *key)
{
    const cJSON *c = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return cJSON_IsArray(c) ? c : NULL;
}

const char *rv_str(const cJSON *o, const char *key, const char *dflt)
{
    const cJSON *c = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return cJSON_IsString(c) && c->valuestring ? c->valuestring : dflt;
}

int rv_has_num(const cJSON *o, const char *key)
{
    const cJSON *c = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return cJSON_IsNumber(c);
}

double rv_num(const cJSON *o, const char *key, double dflt)
{
    const cJSON *c = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    if (!cJSON_IsNumber(c) || c->valuedouble != c->valuedouble) return dflt;
    return c->valuedouble;
}

int64_t rv_int(const cJSON *o, const char *key, int64_t dflt)
{
    if (!rv_has_num(o, key)) return dflt;
    double d = rv_num(o, key, (double)dflt);
    if (d >= 9223372036854775808.0) return INT64_MAX;
    if (d <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)d;
}

uint64_t rv_u64(const cJSON *o, const char *key, uint64_t dflt)
{
    if (!rv_has_num(o, key)) return dflt;
    double d = rv_num(o, key, 0);
    if (d <= 0) return 0;
    if (d >= 18446744073709551616.0) return UINT64_MAX;
    return (uint64_t)d;
}

int rv_bool(const cJSON *o, const char *key, int dflt)
{
    const cJSON *c = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    if (cJSON_IsTrue(c)) return 1;
    if (cJSON_IsFalse(c)) return 0;
    return dflt;
}

const char *rv_offset_text(const cJSON *in, char *buf, size_t n)
{
    unsigned long long off = (unsigned long long)rv_u64(in, "routine_offset", 0);
    if (rv_bool(in, "in_profile", 1)) snprintf(buf, n, "+0x%llx", off);
    else snprintf(buf, n, " (+0x%llx into it)", off);
    return buf;
}

size_t rv_len(const cJSON *a)
{
    return cJSON_IsArray(a) ? (size_t)cJSON_GetArraySize(a) : 0;
}

void rv_totals(const cJSON *report, run_totals *t)
{
    const cJSON *o = rv_obj(report, "totals"), *e = rv_obj(o, "entity");
    memset(t, 0, sizeof *t);
    t->files = rv_u64(o, "files", 0);
    t->bad_files = rv_u64(o, "bad_files", 0);
    t->clips = rv_u64(o, "clips", 0);
    t->comparisons = rv_u64(o, "comparisons", 0);
    for (int s = 0; s < RES__COUNT; s++) {
        t->by_status[s] = rv_u64(o, res_status_name((res_status)s), 0);
        t->entity_by_status[s] = rv_u64(e, res_status_name((res_status)s), 0);
    }
    t->leaf_calls = rv_u64(o, "leaf_calls", 0);
    t->leaf_mismatches = rv_u64(o, "leaf_mismatches", 0);
    t->leaf_faults = rv_u64(o, "leaf_faults", 0);
    t->leaf_engine_calls = rv_u64(rv_obj(o, "leaf_engines"), "calls", 0);
    t->leaf_engine_disagree = rv_u64(rv_obj(o, "leaf_engines"), "disagree", 0);
    t->entities = rv_u64(e, "entities", 0);
    t->entities_armed = rv_u64(e, "armed", 0);
    t->pool_mismatches = rv_u64(e, "pool_mismatches", 0);
    t->entity_comparisons = rv_u64(e, "comparisons", 0);
    t->queue_mismatches = rv_u64(e, "queue_mismatches", 0);
    const cJSON *g = rv_obj(o, "engines");
    for (int k = 0; k < RES_ENG__COUNT; k++) t->engines[k] = rv_u64(g, res_eng_name((res_eng)k), 0);
    const cJSON *eg = rv_obj(e, "engines");
    for (int k = 0; k < RES_ENG__COUNT; k++)
        t->entity_engines[k] = rv_u64(eg, res_eng_name((res_eng)k), 0);
}

int rv_verdict(const cJSON *report, verdict *v)
{
    run_totals t;
    rv_totals(report, &t);
    *v = verdict_decide(&t, rv_bool(rv_obj(report, "run"), "interrupted", 0));
    const cJSON *stored = cJSON_IsObject(report)
                              ? cJSON_GetObjectItemCaseSensitive(report, "verdict")
                              : NULL;
    if (!stored) return 0;
    int k = verdict_from_reason(rv_str(stored, "reason", NULL));
    int r = verdict_result_from_name(rv_str(stored, "result", NULL));
    if (k < 0 || r < 0 || verdict_result_of((verdict)k) != (verdict_result)r) return -1;
    *v = (verdict)k;
    return 1;
}

int rv_status(const char *name)
{
    if (!name) return -1;
    for (int s = 0; s < RES__COUNT; s++)
        if (strcmp(res_status_name((res_status)s), name) == 0) return s;
    return -1;
}

const char *rv_status_label(int s)
{
    return res_status_label((res_status)s);
}

int rv_mode(const char *name)
{
    return name ? mode_from_name(name) : -1;
}

int rv_has_string(const cJSON *arr, const char *s)
{
    const cJSON *e;
    if (!cJSON_IsArray(arr)) return 0;
    cJSON_ArrayForEach(e, arr)
    {
        if (cJSON_IsString(e) && e->valuestring && strcmp(e->valuestring, s) == 0) return 1;
    }
    return 0;
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return h;
}

/* Index of the file called name; adds it when absent. -1: out of memory. */
static int64_t file_slot(rv_index *ix, const char *name, const cJSON *entry)
{
    size_t mask = ix->nslots - 1, i = (size_t)hash_name(name) & mask;
    while (ix->slots[i] >= 0) {
        if (strcmp(ix->files[ix->slots[i]].name, name) == 0) return ix->slots[i];
        i = (i + 1) & mask;
    }
    if (ix->nfiles + 1 > ix->nslots / 2) {
        /* grow the table (keeps it at most half full) and the file array */
        size_t nslots = ix->nslots * 2;
        int64_t *slots = malloc(nslots * sizeof *slots);
        if (!slots) return -1;
        for (size_t k = 0; k < nslots; k++)
            slots[k] = -1;
        for (size_t f = 0; f < ix->nfiles; f++) {
            size_t k = (size_t)hash_name(ix->files[f].name) & (nslots - 1);
            while (slots[k] >= 0)
                k = (k + 1) & (nslots - 1);
            slots[k] = (int64_t)f;
        }
        free(ix->slots);
        ix->slots = slots;
        ix->nslots = nslots;
        return file_slot(ix, name, entry);
    }
    rv_file *files = realloc(ix->files, (ix->nfiles + 1) * sizeof *files);
    if (!files) return -1;
    ix->files = files;
    rv_file *f = &files[ix->nfiles];
    memset(f, 0, sizeof *f);
    f->name = name;
    f->entry = entry;
    ix->slots[i] = (int64_t)ix->nfiles;
    return (int64_t)ix->nfiles++;
}

static void tally(rv_index *ix, rv_file *f, const cJSON *r)
{
    int m = rv_mode(rv_str(r, "mode", NULL));
    int s = rv_status(rv_str(r, "status", NULL));
    if (s < 0) return;
    ix->by_status[s]++;
    if (m < 0) return;
    ix->modes |= 1u << m;
    f->n[m][s]++;
    if (res_status_share((res_status)s) == RES_SHARE_DIFF && !f->first_fail[m]) f->first_fail[m] = r;
    if (s == RES_BAD_INPUT && !f->first_bad[m]) f->first_bad[m] = r;
}

int rv_index_build(const cJSON *report, rv_index *ix)
{
    memset(ix, 0, sizeof *ix);
    const cJSON *man = rv_arr(report, "manifest"), *res = rv_arr(report, "results"), *e;
    const cJSON *run = rv_obj(report, "run");
    cJSON_ArrayForEach(e, rv_arr(run, "modes"))
    {
        int m = cJSON_IsString(e) ? rv_mode(e->valuestring) : -1;
        if (m >= 0) ix->modes |= 1u << m;
    }
    ix->nslots = 64;
    ix->slots = malloc(ix->nslots * sizeof *ix->slots);
    ix->results = malloc((rv_len(res) ? rv_len(res) : 1) * sizeof *ix->results);
    if (!ix->slots || !ix->results) goto fail;
    for (size_t k = 0; k < ix->nslots; k++)
        ix->slots[k] = -1;
    cJSON_ArrayForEach(e, man)
    {
        const char *name = rv_str(e, "name", NULL);
        if (name && file_slot(ix, name, e) < 0) goto fail;
    }
    int64_t last = -1;
    cJSON_ArrayForEach(e, res)
    {
        ix->results[ix->nresults++] = e;
        const char *name = rv_str(e, "file", NULL);
        if (!name) continue;
        /* results come grouped by file: try the previous one first */
        if (last < 0 || strcmp(ix->files[last].name, name) != 0) last = file_slot(ix, name, NULL);
        if (last < 0) goto fail;
        tally(ix, &ix->files[last], e);
    }
    return 0;
fail:
    rv_index_free(ix);
    return -1;
}

void rv_index_free(rv_index *ix)
{
    free(ix->files);
    free(ix->results);
    free(ix->slots);
    memset(ix, 0, sizeof *ix);
}

const rv_file *rv_find_file(const rv_index *ix, const char *name)
{
    if (!name || !ix->nslots) return NULL;
    size_t mask = ix->nslots - 1, i = (size_t)hash_name(name) & mask;
    for (; ix->slots[i] >= 0; i = (i + 1) & mask)
        if (strcmp(ix->files[ix->slots[i]].name, name) == 0) return &ix->files[ix->slots[i]];
    return NULL;
}

const cJSON *rv_result(const rv_index *ix, int64_t i)
{
    return i >= 0 && (uint64_t)i < ix->nresults ? ix->results[i] : NULL;
}

static const char *capital(const char *label)
{
    static const char *const pairs[][2] = {
        {"reference", "Reference"}, {"candidate", "Candidate"},
        {"original", "Original"},   {"golden", "Golden"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (strcmp(pairs[i][0], label) == 0) return pairs[i][1];
    return label;
}

rv_labels rv_sides(const cJSON *report)
{
    const cJSON *sides = rv_obj(rv_obj(report, "run"), "sides");
    rv_labels l;
    l.cand = rv_str(rv_obj(sides, "candidate"), "label", "reference");
    l.auth = rv_str(rv_obj(sides, "authority"), "label", "original");
    l.Cand = capital(l.cand);
    l.Auth = capital(l.auth);
    return l;
}

void rv_options_text(strbuf *b, const cJSON *run)
{
    const cJSON *opt = rv_obj(run, "options");
    sb_printf(b, "jobs %llu", (unsigned long long)rv_u64(run, "jobs", 0));
    if (rv_u64(run, "emulated_calls", 0) > 0 || !rv_str(opt, "traces", NULL)) {
        sb_printf(b, ", dedup %s", rv_bool(opt, "dedup", 0) ? "on" : "off");
        /* Replays and coverage need the original's code: only then do they apply. */
        /* Asked for on an engine without coverage hooks: not recorded (run.engines). */
        const cJSON *en = rv_obj(run, "engines");
        int unrec = en && rv_str(en, "calls", NULL) && !rv_str(en, "coverage", NULL);
        sb_printf(b, ", explain %s (replays with read logs), coverage %s",
                  rv_str(opt, "explain", "?"),
                  !rv_bool(opt, "coverage", 0) ? "off" : unrec ? "not recorded" : "recorded");
    }
    if (rv_has_string(rv_arr(run, "levels"), "leaf"))
        sb_printf(b, ", leaf calls %llu, seed %llu",
                  (unsigned long long)rv_u64(opt, "leaf_calls", 0),
                  (unsigned long long)rv_u64(opt, "seed", 0));
}
