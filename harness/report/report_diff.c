/*
 * harness/report/report_diff.c: reading two report.json trees, pairing their
 * records and putting each pair in its category. Rendering is in
 * report_diff_out.c.
 */
#include "harness/report/report_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "common/json_read.h"
#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_view.h"

static const struct {
    const char *name, *heading;
    int regress;
} kinds[RDIFF__COUNT] = {
#define RDIFF_KIND_ROW(id, name, heading, regress) {name, heading, regress},
    RDIFF_KIND_MAP(RDIFF_KIND_ROW)
#undef RDIFF_KIND_ROW
};

const char *rdiff_kind_name(rdiff_kind k)
{
    return k < RDIFF__COUNT ? kinds[k].name : "?";
}

const char *rdiff_kind_heading(rdiff_kind k)
{
    return k < RDIFF__COUNT ? kinds[k].heading : "?";
}

int rdiff_kind_regresses(rdiff_kind k)
{
    return k < RDIFF__COUNT && kinds[k].regress;
}

/* ---- one report's records ---- */

typedef struct rec {
    const char *file; /* frame: file name; leaf: routine */
    int32_t clip;
    const char *mode;
    rdiff_side side;
} rec;

typedef struct side_in {
    const char *label; /* for errors */
    size_t nframe, nleaf;
    rec *frame, *leaf;
} side_in;

/* "not an ff8diff-report/1 report: what". */
static int schema_err(ff_error *err, const side_in *s, const char *what)
{
    return ff_error_set(err, FF_E_FORMAT, s->label, -1, "not an %s report: %s", REPORT_SCHEMA,
                        what);
}

static int status_of(const char *name)
{
    for (int s = 0; s < RES__COUNT; s++)
        if (strcmp(res_status_name((res_status)s), name) == 0) return s;
    return -1;
}

static int num(const cJSON *o, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || v->valuedouble != (double)(int64_t)v->valuedouble ||
        v->valuedouble < (double)lo || v->valuedouble > (double)hi)
        return -1;
    *out = (int64_t)v->valuedouble;
    return 0;
}

static int read_div(const cJSON *div, rdiff_side *s)
{
    int64_t tick;
    const cJSON *field = cJSON_GetObjectItemCaseSensitive(div, "field");
    field_id f;
    unsigned bone;
    if (num(div, "tick", 0, INT32_MAX, &tick) < 0 || !cJSON_IsString(field) ||
        field_parse(field->valuestring, &f, &bone) < 0 ||
        num(div, "ref", INT32_MIN, INT32_MAX, &s->ref) < 0 ||
        num(div, "orig", INT32_MIN, INT32_MAX, &s->orig) < 0)
        return -1;
    s->has_div = 1;
    s->tick = (uint64_t)tick;
    snprintf(s->field, sizeof s->field, "%s", field->valuestring);
    return 0;
}

static int read_result(const cJSON *o, rec *r)
{
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(o, "file");
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(o, "mode");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(o, "status");
    const cJSON *div = cJSON_GetObjectItemCaseSensitive(o, "divergence");
    int64_t clip;
    int st = cJSON_IsString(status) ? status_of(status->valuestring) : -1;
    if (!cJSON_IsObject(o) || !cJSON_IsString(file) || !cJSON_IsString(mode) ||
        mode_from_name(mode->valuestring) < 0 || num(o, "clip", -1, 255, &clip) < 0 || st < 0)
        return -1;
    memset(r, 0, sizeof *r);
    r->file = file->valuestring;
    r->clip = (int32_t)clip;
    r->mode = mode->valuestring;
    r->side.present = 1;
    r->side.status = (res_status)st;
    r->side.first_case = -1;
    if (st == RES_MISMATCH) return cJSON_IsObject(div) ? read_div(div, &r->side) : -1;
    return div && !cJSON_IsNull(div) ? -1 : 0;
}

static int read_leaf(const cJSON *o, rec *r)
{
    const cJSON *routine = cJSON_GetObjectItemCaseSensitive(o, "routine");
    const cJSON *first = cJSON_GetObjectItemCaseSensitive(o, "first_mismatch");
    int64_t calls, mism, faults, c = -1;
    if (!cJSON_IsObject(o) || !cJSON_IsString(routine) ||
        num(o, "calls", 0, INT64_MAX / 2, &calls) < 0 ||
        num(o, "mismatches", 0, INT64_MAX / 2, &mism) < 0 ||
        num(o, "faults", 0, INT64_MAX / 2, &faults) < 0 ||
        (cJSON_IsObject(first) && num(first, "case", 0, INT64_MAX / 2, &c) < 0) ||
        (!cJSON_IsObject(first) && !cJSON_IsNull(first)))
        return -1;
    memset(r, 0, sizeof *r);
    r->file = routine->valuestring;
    r->clip = -1;
    r->mode = "-";
    rdiff_side *s = &r->side;
    s->present = 1;
    s->calls = (uint64_t)calls;
    s->mismatches = (uint64_t)mism;
    s->faults = (uint64_t)faults;
    s->first_case = c;
    s->status = calls == 0 ? RES_NOT_RUN : mism ? RES_MISMATCH : faults ? RES_FAULT : RES_MATCH;
    return 0;
}

static int cmp_rec(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (c) return c;
    if (x->clip != y->clip) return x->clip < y->clip ? -1 : 1;
    return strcmp(x->mode, y->mode);
}

static int read_array(const cJSON *arr, side_in *s, int leaf, ff_error *err)
{
    size_t n = (size_t)cJSON_GetArraySize(arr), i = 0;
    rec *v = calloc(n ? n : 1, sizeof *v);
    if (!v) return ff_error_set(err, FF_E_NOMEM, s->label, -1, "out of memory");
    if (leaf)
        s->leaf = v;
    else
        s->frame = v;
    const cJSON *o;
    cJSON_ArrayForEach(o, arr)
    {
        if ((leaf ? read_leaf(o, &v[i]) : read_result(o, &v[i])) < 0) {
            char what[96];
            snprintf(what, sizeof what, "%s[%zu] is incomplete or of the wrong type",
                     leaf ? "leaf" : "results", i);
            return schema_err(err, s, what);
        }
        i++;
    }
    qsort(v, n, sizeof *v, cmp_rec);
    for (size_t k = 1; k < n; k++)
        if (cmp_rec(&v[k - 1], &v[k]) == 0)
            return schema_err(err, s,
                              leaf ? "a routine appears twice in \"leaf\""
                                   : "a (file, clip, mode) appears twice in \"results\"");
    if (leaf)
        s->nleaf = n;
    else
        s->nframe = n;
    return 0;
}

static int read_side(const cJSON *root, side_in *s, rdiff_run *run, ff_error *err)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, "run");
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    const cJSON *leaf = cJSON_GetObjectItemCaseSensitive(root, "leaf");
    if (!cJSON_IsObject(root)) return schema_err(err, s, "not a JSON object");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, REPORT_SCHEMA) != 0)
        return schema_err(err, s, "\"schema\" missing or another version");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(r, "id");
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(r, "command");
    if (!cJSON_IsObject(r) || !cJSON_IsString(id) || !cJSON_IsString(cmd))
        return schema_err(err, s, "\"run\" lacks its id or command");
    if (!cJSON_IsArray(results) || !cJSON_IsArray(leaf))
        return schema_err(err, s, "\"results\" or \"leaf\" is not an array");
    snprintf(run->id, sizeof run->id, "%s", id->valuestring);
    snprintf(run->command, sizeof run->command, "%s", cmd->valuestring);
    int stored = rv_verdict(root, &run->verdict);
    if (stored < 0)
        return schema_err(err, s, "\"verdict\" is not a result and its reason (verdict.h)");
    run->verdict_stored = stored;
    if (read_array(results, s, 0, err) < 0) return -1;
    return read_array(leaf, s, 1, err);
}

/* ---- pairing ---- */

/* Position of a first divergence in comparison order. */
static uint64_t rank(const rdiff_side *s)
{
    field_id f;
    unsigned bone = 0;
    /* A field this build does not know ranks after every known one of its tick. */
    uint64_t within = field_parse(s->field, &f, &bone) == 0 ? field_rank(f, bone) : UINT32_MAX;
    return (uint64_t)s->tick << 32 | within;
}

static int broken(res_status s)
{
    res_share k = res_status_share(s);
    return (int)s >= 0 && (k == RES_SHARE_DIFF || k == RES_SHARE_BAD);
}

static rdiff_kind both_broken(const rdiff_side *o, const rdiff_side *n, int leaf)
{
    if (o->status != RES_MISMATCH || n->status != RES_MISMATCH) return RDIFF_STILL_BROKEN;
    if (leaf) {
        if (o->first_case == n->first_case) return RDIFF_STILL_BROKEN;
        return n->first_case < o->first_case ? RDIFF_MOVED_EARLIER : RDIFF_MOVED;
    }
    if (o->tick == n->tick && strcmp(o->field, n->field) == 0 && o->ref == n->ref &&
        o->orig == n->orig)
        return RDIFF_STILL_BROKEN;
    return rank(n) < rank(o) ? RDIFF_MOVED_EARLIER : RDIFF_MOVED;
}

static rdiff_kind classify(const rdiff_side *o, const rdiff_side *n, int leaf)
{
    if (!o->present) return RDIFF_ADDED;
    if (!n->present) return RDIFF_REMOVED;
    if (o->status == RES_NOT_RUN || n->status == RES_NOT_RUN) return RDIFF_NOT_COMPARED;
    if (o->status == RES_MATCH && n->status == RES_MATCH) return RDIFF_UNCHANGED;
    if (broken(o->status) && n->status == RES_MATCH) return RDIFF_FIXED;
    if (o->status == RES_MATCH) return RDIFF_NEWLY_BROKEN;
    return both_broken(o, n, leaf);
}

static int add_entry(rdiff *d, const rec *o, const rec *n, int leaf, ff_error *err)
{
    static const rdiff_side absent = {.first_case = -1};
    const rdiff_side *os = o ? &o->side : &absent, *ns = n ? &n->side : &absent;
    rdiff_kind k = classify(os, ns, leaf);
    d->count[k]++;
    if (k == RDIFF_UNCHANGED) return 0;
    rdiff_entry *e = &d->e[d->n];
    const rec *any = o ? o : n;
    memset(e, 0, sizeof *e);
    if (!(e->file = strdup(any->file)))
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    d->n++;
    e->kind = k;
    e->leaf = leaf;
    e->clip = any->clip;
    snprintf(e->mode, sizeof e->mode, "%s", any->mode);
    e->old = *os;
    e->new = *ns;
    return 0;
}

static int pair(rdiff *d, const rec *a, size_t na, const rec *b, size_t nb, int leaf, ff_error *err)
{
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : cmp_rec(&a[i], &b[j]);
        const rec *o = c <= 0 ? &a[i++] : NULL;
        const rec *n = c >= 0 ? &b[j++] : NULL;
        if (add_entry(d, o, n, leaf, err) < 0) return -1;
    }
    return 0;
}

static int cmp_entry(const void *a, const void *b)
{
    const rdiff_entry *x = a, *y = b;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    if (x->leaf != y->leaf) return x->leaf - y->leaf;
    int c = strcmp(x->file, y->file);
    if (c) return c;
    if (x->clip != y->clip) return x->clip < y->clip ? -1 : 1;
    return strcmp(x->mode, y->mode);
}

static void side_free(side_in *s)
{
    free(s->frame);
    free(s->leaf);
}

int rdiff_compare(const cJSON *old_report, const cJSON *new_report, rdiff *out, ff_error *err)
{
    rdiff_run keep_old = out->old, keep_new = out->new;
    memset(out, 0, sizeof *out);
    out->old = keep_old;
    out->new = keep_new;
    side_in a = {out->old.path[0] ? out->old.path : "old", 0, 0, NULL, NULL};
    side_in b = {out->new.path[0] ? out->new.path : "new", 0, 0, NULL, NULL};
    int rc = read_side(old_report, &a, &out->old, err);
    if (rc == 0) rc = read_side(new_report, &b, &out->new, err);
    size_t cap = a.nframe + b.nframe + a.nleaf + b.nleaf;
    if (rc == 0 && !(out->e = calloc(cap ? cap : 1, sizeof *out->e)))
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (rc == 0) rc = pair(out, a.frame, a.nframe, b.frame, b.nframe, 0, err);
    if (rc == 0) rc = pair(out, a.leaf, a.nleaf, b.leaf, b.nleaf, 1, err);
    if (rc == 0) qsort(out->e, out->n, sizeof *out->e, cmp_entry);
    side_free(&a);
    side_free(&b);
    return rc;
}

static cJSON *load(const char *path, ff_error *err)
{
    uint8_t *data;
    size_t size;
    if (file_read_all(path, &data, &size, err) < 0) return NULL;
    /* A report of every clip of a large corpus: some million values. */
    static const json_read_limits lim = {1u << 24, 64};
    cJSON *root = NULL;
    json_read_doc((const char *)data, size, &lim, path, &root, err);
    free(data);
    return root;
}

int rdiff_files(const char *old_path, const char *new_path, rdiff *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->old.path, sizeof out->old.path, "%s", old_path);
    snprintf(out->new.path, sizeof out->new.path, "%s", new_path);
    cJSON *a = load(old_path, err);
    cJSON *b = a ? load(new_path, err) : NULL;
    int rc = a && b ? rdiff_compare(a, b, out, err) : -1;
    cJSON_Delete(a);
    cJSON_Delete(b);
    return rc;
}

void rdiff_free(rdiff *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->n; i++)
        free(d->e[i].file);
    free(d->e);
    d->e = NULL;
    d->n = 0;
}

int rdiff_regressed(const rdiff *d)
{
    for (int k = 0; k < RDIFF__COUNT; k++)
        if (kinds[k].regress && d->count[k]) return 1;
    return 0;
}
