/*
 * corpus/pairs_attach.c: the entities manifest (PAIRS_ATTACH_FILE), the
 * optional JSON that gives body + weapon pairs non-zero weapon-slot attach
 * values: parsed strictly (every value checked, unknown keys refused),
 * written back in the same form, read from a folder when present.
 *
 * Must not print or exit. Reads one file (pairs_attach_load), writes none.
 */
#include "corpus/pairs.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/file.h"
#include "common/json_read.h"
#include "common/path.h"

static const char *const vec_keys[2] = {"rotation", "translation"};

void pairs_attach_free(pairs_attach_list *l)
{
    if (!l) return;
    free(l->e);
    memset(l, 0, sizeof *l);
}

/* A file name the manifest may hold: non-empty, short, no path separator. */
static const char *name_problem(const char *s)
{
    if (!*s) return "is empty";
    if (strlen(s) > PAIRS_NAME_MAX) return "is too long";
    if (strchr(s, '/') || strchr(s, '\\')) return "is a path, not a file name";
    return NULL;
}

/* Index of an earlier entry naming the same pair (ignoring case), or -1. */
static long same_pair(const pairs_attach_entry *e, size_t k)
{
    for (size_t j = 0; j < k; j++)
        if (!strcasecmp(e[j].body, e[k].body) && !strcasecmp(e[j].weapon, e[k].weapon))
            return (long)j;
    return -1;
}

static int read_name(const cJSON *v, const char *key, size_t k, char *dst, const char *src,
                     ff_error *err)
{
    if (!cJSON_IsString(v) || !v->valuestring)
        return ff_error_set(err, FF_E_FORMAT, src, -1, "attach entry %zu: \"%s\" is not a string",
                            k, key);
    const char *why = name_problem(v->valuestring);
    if (why)
        return ff_error_set(err, FF_E_FORMAT, src, -1, "attach entry %zu: \"%s\" %s", k, key, why);
    memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
    return 0;
}

static int read_vec(const cJSON *v, const char *key, size_t k, int16_t out[3], const char *src,
                    ff_error *err)
{
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3)
        return ff_error_set(err, FF_E_FORMAT, src, -1,
                            "attach entry %zu: \"%s\" is not an array of 3 integers", k, key);
    for (int i = 0; i < 3; i++) {
        const cJSON *x = cJSON_GetArrayItem(v, i);
        double d = cJSON_IsNumber(x) ? x->valuedouble : 0.5;
        /* Range first: only then is the conversion to int defined. */
        if (!(d >= -32768 && d <= 32767) || d != (double)(int)d)
            return ff_error_set(err, FF_E_FORMAT, src, -1,
                                "attach entry %zu: \"%s\"[%d] is not an integer in -32768..32767",
                                k, key, i);
        out[i] = (int16_t)(int)d;
    }
    return 0;
}

/* One entry object: body and weapon required, the two vectors optional. */
static int read_entry(const cJSON *o, size_t k, pairs_attach_entry *e, const char *src,
                      ff_error *err)
{
    if (!cJSON_IsObject(o))
        return ff_error_set(err, FF_E_FORMAT, src, -1, "attach entry %zu is not an object", k);
    unsigned seen = 0; /* bits: body, weapon, rotation, translation */
    for (const cJSON *c = o->child; c; c = c->next) {
        int rc, bit;
        if (!strcmp(c->string, "body"))
            bit = 0, rc = read_name(c, "body", k, e->body, src, err);
        else if (!strcmp(c->string, "weapon"))
            bit = 1, rc = read_name(c, "weapon", k, e->weapon, src, err);
        else if (!strcmp(c->string, vec_keys[0]))
            bit = 2, rc = read_vec(c, vec_keys[0], k, e->attach.rot, src, err);
        else if (!strcmp(c->string, vec_keys[1]))
            bit = 3, rc = read_vec(c, vec_keys[1], k, e->attach.trans, src, err);
        else
            return ff_error_set(err, FF_E_FORMAT, src, -1, "attach entry %zu: unknown key \"%s\"",
                                k, c->string);
        if (rc < 0) return -1;
        if (seen & 1u << bit)
            return ff_error_set(err, FF_E_FORMAT, src, -1, "attach entry %zu: \"%s\" given twice",
                                k, c->string);
        seen |= 1u << bit;
    }
    if ((seen & 3u) != 3u)
        return ff_error_set(err, FF_E_FORMAT, src, -1, "attach entry %zu: \"%s\" is missing", k,
                            seen & 1u ? "weapon" : "body");
    return 0;
}

/* The top object: format, version and attach, nothing else. */
static int check_top(const cJSON *root, const cJSON **attach, const char *src, ff_error *err)
{
    if (!cJSON_IsObject(root)) return ff_error_set(err, FF_E_FORMAT, src, -1, "not a JSON object");
    const cJSON *fmt = NULL, *ver = NULL;
    *attach = NULL;
    for (const cJSON *c = root->child; c; c = c->next) {
        const cJSON **slot = !strcmp(c->string, "format")    ? &fmt
                             : !strcmp(c->string, "version") ? &ver
                             : !strcmp(c->string, "attach")  ? attach
                                                             : NULL;
        if (!slot) return ff_error_set(err, FF_E_FORMAT, src, -1, "unknown key \"%s\"", c->string);
        if (*slot) return ff_error_set(err, FF_E_FORMAT, src, -1, "\"%s\" given twice", c->string);
        *slot = c;
    }
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, PAIRS_ATTACH_FORMAT) != 0)
        return ff_error_set(err, FF_E_FORMAT, src, -1, "\"format\" is not \"%s\"",
                            PAIRS_ATTACH_FORMAT);
    if (!cJSON_IsNumber(ver) || ver->valuedouble != PAIRS_ATTACH_VERSION)
        return ff_error_set(err, FF_E_FORMAT, src, -1, "\"version\" is not %d (unsupported)",
                            PAIRS_ATTACH_VERSION);
    if (!cJSON_IsArray(*attach))
        return ff_error_set(err, FF_E_FORMAT, src, -1, "\"attach\" is not an array");
    return 0;
}

static int read_list(const cJSON *root, pairs_attach_list *out, ff_error *err)
{
    const char *src = out->source;
    const cJSON *attach;
    if (check_top(root, &attach, src, err) < 0) return -1;
    size_t n = (size_t)cJSON_GetArraySize(attach);
    out->e = calloc(n ? n : 1, sizeof *out->e);
    if (!out->e) return ff_error_set(err, FF_E_NOMEM, src, -1, "no memory for %zu entries", n);
    size_t k = 0;
    for (const cJSON *o = attach->child; o; o = o->next, k++) {
        if (read_entry(o, k, &out->e[k], src, err) < 0) return -1;
        long j = same_pair(out->e, k);
        if (j >= 0)
            return ff_error_set(err, FF_E_FORMAT, src, -1,
                                "attach entries %ld and %zu both name %s + %s", j, k,
                                out->e[k].body, out->e[k].weapon);
        out->n = k + 1;
    }
    return 0;
}

int pairs_attach_parse(const char *text, size_t len, const char *source, pairs_attach_list *out,
                       ff_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->source, sizeof out->source, "%s", source ? source : PAIRS_ATTACH_FILE);
    static const json_read_limits lim = {1u << 20, 16};
    cJSON *root = NULL;
    if (!text || json_read_doc(text, len, &lim, out->source, &root, err) < 0) {
        if (!text) ff_error_set(err, FF_E_FORMAT, out->source, -1, "not valid JSON");
        pairs_attach_free(out);
        return -1;
    }
    int rc = read_list(root, out, err);
    cJSON_Delete(root);
    if (rc < 0) pairs_attach_free(out);
    return rc;
}

int pairs_attach_load(const char *dir, pairs_attach_list *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    char *path = path_join_new(dir, PAIRS_ATTACH_FILE);
    if (!path) return ff_error_set(err, FF_E_NOMEM, dir, -1, "no memory for a path");
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        snprintf(out->source, sizeof out->source, "%s", path);
        free(path);
        return 0;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    int rc = file_read_all(path, &data, &size, err);
    if (rc == 0) rc = pairs_attach_parse((const char *)data, size, path, out, err);
    free(data);
    free(path);
    return rc;
}

/* Adds key: [x, y, z] to o; 0 when out of memory (nothing leaks). */
static int add_vec(cJSON *o, const char *key, const int16_t v[3])
{
    int x[3] = {v[0], v[1], v[2]};
    cJSON *a = cJSON_CreateIntArray(x, 3);
    if (a && cJSON_AddItemToObject(o, key, a)) return 1;
    cJSON_Delete(a);
    return 0;
}

static cJSON *entry_json(const pairs_attach_entry *e)
{
    cJSON *o = cJSON_CreateObject();
    if (o && cJSON_AddStringToObject(o, "body", e->body) &&
        cJSON_AddStringToObject(o, "weapon", e->weapon) && add_vec(o, vec_keys[0], e->attach.rot) &&
        add_vec(o, vec_keys[1], e->attach.trans))
        return o;
    cJSON_Delete(o);
    return NULL;
}

static int check_list(const pairs_attach_list *l, ff_error *err)
{
    for (size_t k = 0; k < l->n; k++) {
        const pairs_attach_entry *e = &l->e[k];
        const char *why = name_problem(e->body) ? name_problem(e->body) : name_problem(e->weapon);
        if (why)
            return ff_error_set(err, FF_E_USAGE, NULL, -1, "attach entry %zu: a name %s", k, why);
        if (same_pair(l->e, k) >= 0)
            return ff_error_set(err, FF_E_USAGE, NULL, -1, "attach entry %zu: %s + %s twice", k,
                                e->body, e->weapon);
    }
    return 0;
}

/* Appends str to the growing buffer *b (length *n); 0 when out of memory. */
static int append(char **b, size_t *n, const char *str)
{
    size_t k = strlen(str);
    char *p = realloc(*b, *n + k + 1);
    if (!p) return 0;
    memcpy(p + *n, str, k + 1);
    *b = p;
    *n += k;
    return 1;
}

int pairs_attach_format(const pairs_attach_list *l, char **text, size_t *len, ff_error *err)
{
    if (check_list(l, err) < 0) return -1;
    /* One entry a line, each printed by cJSON (which escapes the names). */
    char *b = NULL, head[128];
    size_t n = 0;
    snprintf(head, sizeof head, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"attach\": [",
             PAIRS_ATTACH_FORMAT, PAIRS_ATTACH_VERSION);
    int ok = append(&b, &n, head);
    for (size_t k = 0; ok && k < l->n; k++) {
        cJSON *e = entry_json(&l->e[k]);
        char *line = e ? cJSON_PrintUnformatted(e) : NULL;
        ok = line && append(&b, &n, k ? ",\n    " : "\n    ") && append(&b, &n, line);
        cJSON_free(line);
        cJSON_Delete(e);
    }
    ok = ok && append(&b, &n, l->n ? "\n  ]\n}\n" : "]\n}\n");
    if (!ok) {
        free(b);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for the entities manifest");
    }
    *text = b;
    *len = n;
    return 0;
}
