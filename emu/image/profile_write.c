/*
 * emu/image/profile_write.c: an emu_profile back to the JSON of emu/image/profile.h,
 * for profiles the locator writes and for build-time tools. Addresses are
 * written as "0x..." strings, bytes as "83 EC 08", optional parts only when
 * present, so that profile_parse reads back the same profile. No printing,
 * no exit.
 */
#include "emu/image/profile.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROFILE_FORMAT "ff8diff-profile/1"

/* Adds "0x..." under key; returns 0 or -1. */
static int add_hex(cJSON *o, const char *key, uint32_t v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "0x%X", v);
    return cJSON_AddStringToObject(o, key, buf) ? 0 : -1;
}

static int add_bytes(cJSON *o, const char *key, const uint8_t *b, unsigned n)
{
    char buf[PROFILE_FP_MAX_BYTES * 3 + 1];
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && i < PROFILE_FP_MAX_BYTES; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%02X", i ? " " : "", b[i]);
    return cJSON_AddStringToObject(o, key, buf) ? 0 : -1;
}

static int add_names(cJSON *o, const char *key, const char (*names)[64], unsigned n)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    if (!a) return -1;
    for (unsigned i = 0; i < n; i++) {
        cJSON *s = cJSON_CreateString(names[i]);
        if (!s) return -1;
        cJSON_AddItemToArray(a, s);
    }
    return 0;
}

static int add_pattern(cJSON *o, const profile_routine *r)
{
    char *hex = malloc((size_t)r->npattern * 4 + 1);
    if (!hex) return -1;
    for (unsigned i = 0; i < r->npattern; i++)
        snprintf(hex + 4 * (size_t)i, 5, "%04x", r->pattern[i]);
    hex[4 * (size_t)r->npattern] = '\0';
    int rc = cJSON_AddStringToObject(o, "pattern", hex) ? 0 : -1;
    free(hex);
    return rc;
}

static int add_routine(cJSON *arr, const profile_routine *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return -1;
    cJSON_AddItemToArray(arr, o);
    if (!cJSON_AddStringToObject(o, "name", r->name) || add_hex(o, "address", r->address) ||
        !cJSON_AddStringToObject(o, "signature", r->signature) ||
        !cJSON_AddNumberToObject(o, "args", r->args))
        return -1;
    if (r->callees_known && add_names(o, "callees", r->callees, r->ncallees)) return -1;
    if (r->test && !cJSON_AddTrueToObject(o, "test")) return -1;
    if (r->size && add_hex(o, "size", r->size)) return -1;
    if (r->insns && !cJSON_AddNumberToObject(o, "insns", r->insns)) return -1;
    if (r->helper >= 0) {
        cJSON *params;
        if (!cJSON_AddStringToObject(o, "helper",
                                     profile_helper_name((profile_helper_id)r->helper)) ||
            !(params = cJSON_AddArrayToObject(o, "params")) ||
            !cJSON_AddStringToObject(o, "result", profile_result_name(r->result)))
            return -1;
        for (unsigned i = 0; i < r->args; i++) {
            cJSON *s = cJSON_CreateString(profile_param_name(r->params[i]));
            if (!s) return -1;
            cJSON_AddItemToArray(params, s);
        }
    }
    return r->npattern ? add_pattern(o, r) : 0;
}

static int add_table(cJSON *arr, const profile_table *t)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return -1;
    cJSON_AddItemToArray(arr, o);
    if (!cJSON_AddStringToObject(o, "name", t->name) || add_hex(o, "address", t->address) ||
        add_bytes(o, "bytes", t->bytes, t->len))
        return -1;
    return add_names(o, "read_by", t->read_by, t->nreaders);
}

static int add_global(cJSON *arr, const profile_global *g)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return -1;
    cJSON_AddItemToArray(arr, o);
    if (!cJSON_AddStringToObject(o, "name", g->name) || add_hex(o, "address", g->address) ||
        !cJSON_AddNumberToObject(o, "size", g->size))
        return -1;
    return g->found_in[0] && !cJSON_AddStringToObject(o, "found_in", g->found_in) ? -1 : 0;
}

static int add_evidence(cJSON *root, const emu_profile *p)
{
    cJSON *a = p->nevidence ? cJSON_AddArrayToObject(root, "evidence") : NULL;
    if (p->nevidence && !a) return -1;
    for (unsigned i = 0; i < p->nevidence; i++) {
        const profile_evidence *e = &p->evidence[i];
        cJSON *o = cJSON_CreateObject();
        if (!o) return -1;
        cJSON_AddItemToArray(a, o);
        if (!cJSON_AddStringToObject(o, "what", e->what) || add_hex(o, "address", e->address) ||
            add_bytes(o, "bytes", e->bytes, e->len))
            return -1;
    }
    a = p->nversions ? cJSON_AddArrayToObject(root, "versions") : NULL;
    if (p->nversions && !a) return -1;
    for (unsigned i = 0; i < p->nversions; i++) {
        const profile_version *v = &p->versions[i];
        cJSON *o = cJSON_CreateObject(), *d;
        if (!o) return -1;
        cJSON_AddItemToArray(a, o);
        if (!cJSON_AddStringToObject(o, "build", v->build) ||
            !cJSON_AddStringToObject(o, "language", v->language) ||
            (v->own && !cJSON_AddTrueToObject(o, "own")) ||
            !(d = cJSON_AddArrayToObject(o, "dwords")))
            return -1;
        for (unsigned k = 0; k < v->ndwords; k++) {
            char at[16], val[16];
            snprintf(at, sizeof at, "0x%X", v->address[k]);
            snprintf(val, sizeof val, "0x%X", v->value[k]);
            const char *pair[2] = {at, val};
            cJSON *pa = cJSON_CreateStringArray(pair, 2);
            if (!pa) return -1;
            cJSON_AddItemToArray(d, pa);
        }
    }
    return 0;
}

static int add_located(cJSON *root, const profile_located *l)
{
    cJSON *o = cJSON_AddObjectToObject(root, "located");
    if (!o || !cJSON_AddStringToObject(o, "from_profile", l->from_profile) ||
        !cJSON_AddStringToObject(o, "executable", l->executable) ||
        !cJSON_AddStringToObject(o, "patterns", l->patterns) ||
        !cJSON_AddStringToObject(o, "tool", l->tool))
        return -1;
    return 0;
}

static int build(cJSON *root, const emu_profile *p)
{
    if (!cJSON_AddStringToObject(root, "format", PROFILE_FORMAT) ||
        !cJSON_AddStringToObject(root, "name", p->name) ||
        !cJSON_AddStringToObject(root, "description", p->description) ||
        add_hex(root, "image_base", p->image_base))
        return -1;
    if (p->located && add_located(root, &p->located_from)) return -1;
    cJSON *a = cJSON_AddArrayToObject(root, "sha256");
    if (!a) return -1;
    for (unsigned i = 0; i < p->nhashes; i++) {
        cJSON *s = cJSON_CreateString(p->sha256[i]);
        if (!s) return -1;
        cJSON_AddItemToArray(a, s);
    }
    if (!(a = cJSON_AddArrayToObject(root, "fingerprints"))) return -1;
    for (unsigned i = 0; i < p->nfingerprints; i++) {
        cJSON *o = cJSON_CreateObject();
        if (!o) return -1;
        cJSON_AddItemToArray(a, o);
        if (add_hex(o, "address", p->fingerprints[i].address) ||
            add_bytes(o, "bytes", p->fingerprints[i].bytes, p->fingerprints[i].len))
            return -1;
    }
    if (!(a = cJSON_AddArrayToObject(root, "routines"))) return -1;
    for (unsigned i = 0; i < p->nroutines; i++)
        if (add_routine(a, &p->routines[i])) return -1;
    if (p->ntables) {
        if (!(a = cJSON_AddArrayToObject(root, "tables"))) return -1;
        for (unsigned i = 0; i < p->ntables; i++)
            if (add_table(a, &p->tables[i])) return -1;
    }
    if (add_evidence(root, p)) return -1;
    if (!(a = cJSON_AddArrayToObject(root, "globals"))) return -1;
    for (unsigned i = 0; i < p->nglobals; i++)
        if (add_global(a, &p->globals[i])) return -1;
    if (add_hex(root, "scratch_size", p->scratch_size) ||
        add_hex(root, "x87_control", p->x87_control))
        return -1;
    return p->pose_convention[0] &&
                   !cJSON_AddStringToObject(root, "pose_convention", p->pose_convention)
               ? -1
               : 0;
}

char *profile_to_json(const emu_profile *p)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    char *text = build(root, p) == 0 ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text) return NULL;
    /* A trailing newline, as text files have. */
    size_t n = strlen(text);
    char *out = malloc(n + 2);
    if (out) {
        memcpy(out, text, n);
        out[n] = '\n';
        out[n + 1] = '\0';
    }
    cJSON_free(text);
    return out;
}
