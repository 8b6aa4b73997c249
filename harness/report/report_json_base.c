/*
 * harness/report/report_json_base.c: the pieces report.json is built with
 * (an error, a divergence with its stream window, an array of ints),
 * declared in report_json_base.h. They build from a run's results only and
 * call no section builder.
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/field_model.h"
#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_json_base.h"

cJSON *report_json_error(const ff_error *e)
{
    if (!e) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char msg[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    json_add_str(o, "kind", ff_errkind_name(e->kind));
    json_add_str(o, "file", e->file);
    if (e->offset >= 0)
        cJSON_AddNumberToObject(o, "offset", (double)e->offset);
    else
        cJSON_AddNullToObject(o, "offset");
    json_add_str(o, "reason", e->reason);
    json_add_str(o, "message", ff_error_format(e, msg, sizeof msg));
    return o;
}

static cJSON *stream_json(const clip_result *r)
{
    cJSON *o = cJSON_CreateObject();
    char hex[RES_STREAM_BYTES * 3 + 1] = "", bits[RES_STREAM_BYTES * 9 + 1] = "";
    size_t h = 0, b = 0;
    for (unsigned i = 0; i < r->stream_len; i++) {
        h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", r->stream[i]);
        if (i) bits[b++] = ' ';
        for (int k = 0; k < 8; k++)
            bits[b++] = (char)('0' + ((r->stream[i] >> k) & 1));
    }
    bits[b] = '\0';
    cJSON_AddNumberToObject(o, "offset", (double)r->stream_off);
    json_add_str(o, "hex", hex);
    json_add_str(o, "bits_lsb_first", bits);
    /* The window is centred on the value's read: the tick's cursor may lie outside it. */
    if (r->cursor_file_off >= r->stream_off && r->cursor_file_off - r->stream_off < r->stream_len)
        cJSON_AddNumberToObject(o, "cursor_index", (double)(r->cursor_file_off - r->stream_off));
    else
        cJSON_AddNullToObject(o, "cursor_index");
    if (r->have_value && r->value_file_off >= r->stream_off) {
        cJSON *v = cJSON_AddObjectToObject(o, "value");
        json_add_str(v, "routine", ref_routine_name((ref_routine)r->value_routine));
        cJSON_AddNumberToObject(v, "index", (double)(r->value_file_off - r->stream_off));
        cJSON_AddNumberToObject(v, "bit", r->value_bit);
        cJSON_AddNumberToObject(v, "bits", r->value_bits);
    } else {
        cJSON_AddNullToObject(o, "value");
    }
    return o;
}

cJSON *report_json_divergence(const clip_result *r)
{
    if (r->status != RES_MISMATCH) return cJSON_CreateNull();
    const cmp_divergence *d = &r->div;
    char name[64];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "tick", (double)d->tick);
    json_add_str(o, "field", field_model_field_name(d->model, d->field, d->bone, name, sizeof name));
    json_add_str(o, "field_kind", field_kind_name(d->field));
    if (field_is_per_bone(d->field))
        cJSON_AddNumberToObject(o, "bone", d->bone);
    else
        cJSON_AddNullToObject(o, "bone");
    cJSON_AddNumberToObject(o, "ref", d->ref);
    cJSON_AddNumberToObject(o, "orig", d->orig);
    cJSON *c = cJSON_AddObjectToObject(o, "cursor");
    cJSON_AddNumberToObject(c, "byte", d->cursor_off);
    cJSON_AddNumberToObject(c, "bit", d->cursor_bit);
    cJSON_AddNumberToObject(c, "file_offset", (double)r->cursor_file_off);
    cJSON_AddItemToObject(o, "stream", stream_json(r));
    cJSON_AddNumberToObject(o, "differing_fields", (double)d->differing);
    return o;
}

cJSON *report_json_ints(const int32_t *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

cJSON *report_json_both(const res_both *e)
{
    cJSON *o = cJSON_CreateObject();
    char hex[16];
    json_add_str(o, "state", res_eng_name(e->state));
    cJSON_AddNumberToObject(o, "cells", (double)e->cells);
    cJSON_AddItemToObject(
        o, "fault_first",
        json_str_or_null(e->fault_first != EMU_FAULT_NONE ? emu_fault_name(e->fault_first) : NULL));
    cJSON_AddItemToObject(o, "fault_second",
                          json_str_or_null(e->fault_second != EMU_FAULT_NONE
                                               ? emu_fault_name(e->fault_second)
                                               : NULL));
    if (e->fault_first != EMU_FAULT_NONE || e->fault_second != EMU_FAULT_NONE) {
        snprintf(hex, sizeof hex, "0x%x", e->eip_first);
        json_add_str(o, "eip_first", hex);
        snprintf(hex, sizeof hex, "0x%x", e->eip_second);
        json_add_str(o, "eip_second", hex);
    }
    if (e->state == RES_ENG_X87 || (e->state == RES_ENG_DISAGREE && e->cells)) {
        char name[64];
        cJSON *d = cJSON_AddObjectToObject(o, "first_difference");
        cJSON_AddNumberToObject(d, "tick", (double)e->div.tick);
        if (e->div.model != FIELD_MODEL_NONE)
            json_add_str(d, "model", field_model_name(e->div.model));
        json_add_str(d, "field", field_name(e->div.field, e->div.bone, name, sizeof name));
        cJSON_AddNumberToObject(d, "first", e->div.ref);
        cJSON_AddNumberToObject(d, "second", e->div.orig);
    }
    return o;
}
