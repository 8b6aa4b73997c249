/*
 * harness/core/cdiff_json.c: a corpus diff (cdiff.h) as the CDIFF_SCHEMA
 * document, from which the text and HTML views are rendered.
 *
 * Must not print or exit.
 */
#include "harness/core/cdiff.h"
#include "harness/core/json_out.h"

static cJSON *clip_json(const cdiff_clip *k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "clip", k->clip);
    cJSON_AddBoolToObject(o, "in_a", k->in_a);
    cJSON_AddBoolToObject(o, "in_b", k->in_b);
    cJSON_AddBoolToObject(o, "skeleton", k->skeleton);
    cJSON_AddBoolToObject(o, "stream", k->stream);
    cJSON *first = cJSON_AddObjectToObject(o, "first_frame");
    for (int m = 0; m < MODE__COUNT; m++) {
        if (k->first[m] >= 0)
            cJSON_AddNumberToObject(first, mode_name((mode_id)m), k->first[m]);
        else
            cJSON_AddNullToObject(first, mode_name((mode_id)m));
    }
    return o;
}

static cJSON *pair_json(const char *a, const char *b)
{
    cJSON *arr = cJSON_CreateArray();
    cJSON_AddItemToArray(arr, json_str_or_null(a));
    cJSON_AddItemToArray(arr, json_str_or_null(b));
    return arr;
}

static cJSON *file_json(const cdiff_file *f)
{
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "name", f->name);
    json_add_str(o, "status", cdiff_status_name(f->status));
    cJSON_AddItemToObject(o, "origin", pair_json(f->origin[0], f->origin[1]));
    if (f->status == CDIFF_BAD) {
        char side[2] = {f->bad_side, 0};
        json_add_str(o, "side", side);
        json_add_str(o, "error", f->error.reason);
        json_add_str(o, "error_file", f->error.file);
        cJSON_AddNumberToObject(o, "error_offset", (double)f->error.offset);
    }
    if (f->status != CDIFF_SAME && f->status != CDIFF_DIFFER) return o;
    cJSON_AddItemToObject(o, "sha256", pair_json(f->sha256[0], f->sha256[1]));
    cJSON *size = cJSON_AddArrayToObject(o, "size");
    cJSON_AddItemToArray(size, cJSON_CreateNumber((double)f->size[0]));
    cJSON_AddItemToArray(size, cJSON_CreateNumber((double)f->size[1]));
    if (f->status == CDIFF_SAME) return o;
    cJSON_AddBoolToObject(o, "layout", f->layout);
    cJSON *sec = cJSON_AddArrayToObject(o, "sections");
    for (unsigned i = 0; i < 32; i++)
        if (f->sections & (1u << i)) cJSON_AddItemToArray(sec, cJSON_CreateNumber(i));
    cJSON *clips = cJSON_AddArrayToObject(o, "clips");
    for (size_t i = 0; i < f->nclips; i++)
        cJSON_AddItemToArray(clips, clip_json(&f->clip[i]));
    return o;
}

cJSON *cdiff_json(const cdiff *d)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    json_add_str(o, "schema", CDIFF_SCHEMA);
    cJSON_AddItemToObject(o, "corpora", pair_json(d->desc[0], d->desc[1]));
    cJSON *t = cJSON_AddObjectToObject(o, "totals");
    for (int s = 0; s < CDIFF__COUNT; s++)
        cJSON_AddNumberToObject(t, cdiff_status_name((cdiff_status)s), (double)d->count[s]);
    cJSON_AddNumberToObject(t, "clips_changed", (double)d->clips_changed);
    cJSON_AddNumberToObject(o, "exit", cdiff_exit_code(d));
    cJSON *files = cJSON_AddArrayToObject(o, "files");
    for (size_t i = 0; i < d->n; i++)
        cJSON_AddItemToArray(files, file_json(&d->f[i]));
    return o;
}
