/*
 * harness/traces/trace_fields.c: field table <-> JSON for one trace line.
 *
 * The rows of the field table are gathered by JSON key into groups: a plain
 * value, an object of sub-keys, an array by index, or an array per bone of
 * arrays by index. Writing and reading walk the same groups.
 */
#include "harness/traces/trace_fields.h"

#include <stdio.h>
#include <string.h>

typedef enum group_kind { G_VALUE, G_OBJECT, G_ARRAY, G_BONES } group_kind;

#define TJF_MEMBERS 16

typedef struct group {
    const char *key;
    group_kind kind;
    unsigned n;              /* members */
    field_id f[TJF_MEMBERS]; /* by json index for arrays, table order for objects */
} group;

typedef struct plan {
    unsigned n;
    group g[FIELD__COUNT];
} plan;

/*
 * Made for every line written or read. A group's rows mostly follow one another in
 * the table, so the search starts from the newest group: about one comparison a row.
 */
static void plan_make(plan *p)
{
    p->n = 0;
    for (int i = 0; i < FIELD__COUNT; i++) {
        const field_def *d = field_def_of((field_id)i);
        group *g = NULL;
        for (unsigned k = p->n; k-- > 0 && !g;)
            if (p->g[k].key == d->json_key || strcmp(p->g[k].key, d->json_key) == 0)
                g = &p->g[k];
        if (!g) {
            g = &p->g[p->n++];
            memset(g, 0, sizeof *g);
            g->key = d->json_key;
            g->kind = d->json_sub                      ? G_OBJECT
                      : d->json_index < 0              ? G_VALUE
                      : field_is_per_bone((field_id)i) ? G_BONES
                                                       : G_ARRAY;
        }
        unsigned at = g->kind == G_ARRAY || g->kind == G_BONES ? (unsigned)d->json_index : g->n;
        if (at >= TJF_MEMBERS) continue; /* a table error the fields test catches */
        g->f[at] = (field_id)i;
        if (at + 1 > g->n) g->n = at + 1;
    }
}

/* A field the frames format carries: the skeleton's. */
static int in_frames(field_id f)
{
    field_area a = field_def_of(f)->area;
    return a == FIELD_AREA_SKEL || a == FIELD_AREA_BONE;
}

field_set tjf_frames_fields(void)
{
    field_set s = {{0, 0}};
    for (int f = 0; f < FIELD__COUNT; f++)
        if (in_frames((field_id)f)) field_set_add(&s, (field_id)f);
    return s;
}

static int required(field_id f, tjf_format fmt)
{
    const field_def *d = field_def_of(f);
    unsigned optional = fmt == TJF_FRAMES ? FIELD_FRAMES_OPTIONAL : FIELD_JSON_OPTIONAL;
    return d->level == FIELD_LEVEL_FRAME && !(d->flags & optional) &&
           (fmt != TJF_FRAMES || in_frames(f)) && !(fmt == TJF_WEAPON && f == FIELD_RET);
}

static int group_required(const group *g, tjf_format fmt)
{
    for (unsigned k = 0; k < g->n; k++)
        if (required(g->f[k], fmt)) return 1;
    return 0;
}

/* A key the format reads (the frames format ignores AnimCmd and ret keys). */
static int group_read(const group *g, tjf_format fmt)
{
    return fmt != TJF_FRAMES || in_frames(g->f[0]);
}

/* ---- writing ---- */

static void put_key(strbuf *b, const char *key)
{
    sb_puts(b, ",\"");
    sb_puts(b, key);
    sb_puts(b, "\":");
}

static void put_list(strbuf *b, const trace *t, size_t i, const group *g, unsigned bone)
{
    sb_putc(b, '[');
    int first = 1;
    for (unsigned k = 0; k < g->n; k++) {
        if (!trace_has(t, g->f[k])) continue;
        if (!first) sb_putc(b, ',');
        first = 0;
        sb_int(b, trace_value(t, i, g->f[k], bone));
    }
    sb_putc(b, ']');
}

static int group_carried(const trace *t, const group *g)
{
    for (unsigned k = 0; k < g->n; k++)
        if (trace_has(t, g->f[k])) return 1;
    return 0;
}

void tjf_write(strbuf *b, const trace *t, size_t i)
{
    plan p;
    plan_make(&p);
    for (unsigned k = 0; k < p.n; k++) {
        const group *g = &p.g[k];
        if (!group_carried(t, g)) continue;
        put_key(b, g->key);
        switch (g->kind) {
        case G_VALUE:
            sb_int(b, trace_value(t, i, g->f[0], 0));
            break;
        case G_ARRAY:
            put_list(b, t, i, g, 0);
            break;
        case G_BONES:
            sb_putc(b, '[');
            for (unsigned bone = 0; bone < t->lay.bones; bone++) {
                if (bone) sb_putc(b, ',');
                put_list(b, t, i, g, bone);
            }
            sb_putc(b, ']');
            break;
        case G_OBJECT: {
            int first = 1;
            sb_putc(b, '{');
            for (unsigned m = 0; m < g->n; m++) {
                if (!trace_has(t, g->f[m])) continue;
                sb_puts(b, first ? "\"" : ",\"");
                first = 0;
                sb_puts(b, field_def_of(g->f[m])->json_sub);
                sb_puts(b, "\":");
                sb_int(b, trace_value(t, i, g->f[m], 0));
            }
            sb_putc(b, '}');
            break;
        }
        }
    }
}

/* ---- reading ---- */

/* An integer that fits 32 bits (range checked before the cast). */
static int int_of(const cJSON *v, int32_t *out)
{
    if (!cJSON_IsNumber(v)) return -1;
    double d = v->valuedouble;
    if (!(d >= (double)INT32_MIN && d <= (double)INT32_MAX) || d != (double)(int64_t)d) return -1;
    *out = (int32_t)d;
    return 0;
}

/* An array of g->n integers (values into out when not NULL); -1 with why. */
static int take_list(const cJSON *a, const group *g, const char *what, int32_t *out, char *why,
                     size_t n)
{
    if (!cJSON_IsArray(a) || (unsigned)cJSON_GetArraySize(a) != g->n) {
        snprintf(why, n, "%s is not an array of %u integers", what, g->n);
        return -1;
    }
    unsigned k = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, a)
    {
        int32_t x;
        if (int_of(v, &x) < 0) {
            snprintf(why, n, "%s[%u] is not a 32-bit integer", what, k);
            return -1;
        }
        if (out) out[k] = x;
        k++;
    }
    return 0;
}

/* Checks one group's shape in o and adds its carried fields to have. */
static int scan_group(const cJSON *o, const group *g, tjf_format fmt, field_set *have, int *bones,
                      char *why, size_t n)
{
    if (!group_read(g, fmt)) return 0;
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, g->key);
    char what[64];
    snprintf(what, sizeof what, "\"%s\"", g->key);
    if (!item) {
        if (g->kind != G_OBJECT && group_required(g, fmt)) {
            snprintf(why, n, "key \"%s\" missing", g->key);
            return -1;
        }
        if (g->kind != G_OBJECT) return 0;
    }
    switch (g->kind) {
    case G_VALUE: {
        int32_t x;
        if (int_of(item, &x) < 0) {
            snprintf(why, n, "key \"%s\" is not a 32-bit integer", g->key);
            return -1;
        }
        break;
    }
    case G_ARRAY:
        if (take_list(item, g, what, NULL, why, n) < 0) return -1;
        break;
    case G_BONES: {
        int size = cJSON_IsArray(item) ? cJSON_GetArraySize(item) : -1;
        if (size < 0 || size > DAT_MAX_BONES) {
            snprintf(why, n, "key \"%s\" is not an array of at most %d bones", g->key,
                     DAT_MAX_BONES);
            return -1;
        }
        if (*bones >= 0 && size != *bones) {
            snprintf(why, n, "\"%s\" has %d bones, another key of the line %d", g->key, size,
                     *bones);
            return -1;
        }
        *bones = size;
        break;
    }
    case G_OBJECT:
        if (item && !cJSON_IsObject(item)) {
            snprintf(why, n, "key \"%s\" is not an object", g->key);
            return -1;
        }
        for (unsigned m = 0; m < g->n; m++) {
            const char *sub = field_def_of(g->f[m])->json_sub;
            const cJSON *v = item ? cJSON_GetObjectItemCaseSensitive(item, sub) : NULL;
            int32_t x;
            if (!v && !required(g->f[m], fmt)) continue;
            if (!v || int_of(v, &x) < 0) {
                snprintf(why, n, "key \"%s.%s\" missing or not a 32-bit integer", g->key, sub);
                return -1;
            }
            field_set_add(have, g->f[m]);
        }
        return 0;
    }
    for (unsigned m = 0; m < g->n; m++)
        field_set_add(have, g->f[m]);
    return 0;
}

int tjf_scan(const cJSON *o, tjf_format fmt, field_set *have, unsigned *bones, char *why, size_t n)
{
    plan p;
    plan_make(&p);
    memset(have, 0, sizeof *have);
    int nb = -1;
    for (unsigned k = 0; k < p.n; k++)
        if (scan_group(o, &p.g[k], fmt, have, &nb, why, n) < 0) return -1;
    *bones = nb < 0 ? 0 : (unsigned)nb;
    return 0;
}

/* Names the first key whose carriage differs between the line and the clip. */
static void explain_change(const plan *p, const field_set *line, const field_set *clip, char *why,
                           size_t n)
{
    for (unsigned k = 0; k < p->n; k++)
        for (unsigned m = 0; m < p->g[k].n; m++) {
            field_id f = p->g[k].f[m];
            if (field_set_has(line, f) == field_set_has(clip, f)) continue;
            snprintf(why, n, "field %s %s, unlike the clip's first line", field_kind_name(f),
                     field_set_has(line, f) ? "is present" : "is missing");
            return;
        }
}

static int read_group(const cJSON *o, const group *g, const field_set *have, trace *t, size_t i,
                      char *why, size_t n)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(o, g->key);
    int any = 0;
    for (unsigned k = 0; k < g->n; k++)
        any |= field_set_has(have, g->f[k]);
    if (!any) return 0;
    char what[64];
    int32_t v[TJF_MEMBERS] = {0};
    snprintf(what, sizeof what, "\"%s\"", g->key);
    /* The scan has checked every shape and value: a failure here is a table error. */
    switch (g->kind) {
    case G_VALUE:
        if (int_of(item, &v[0]) < 0) break;
        trace_set(t, i, g->f[0], 0, v[0]);
        return 0;
    case G_ARRAY:
        if (take_list(item, g, what, v, why, n) < 0) return -1;
        for (unsigned k = 0; k < g->n; k++)
            trace_set(t, i, g->f[k], 0, v[k]);
        return 0;
    case G_OBJECT:
        for (unsigned m = 0; m < g->n; m++) {
            if (!field_set_has(have, g->f[m])) continue;
            const char *sub = field_def_of(g->f[m])->json_sub;
            if (int_of(cJSON_GetObjectItemCaseSensitive(item, sub), &v[0]) < 0) break;
            trace_set(t, i, g->f[m], 0, v[0]);
        }
        return 0;
    case G_BONES: {
        unsigned bone = 0;
        const cJSON *b;
        cJSON_ArrayForEach(b, item)
        {
            snprintf(what, sizeof what, "\"%s\"[%u]", g->key, bone);
            if (take_list(b, g, what, v, why, n) < 0) return -1;
            for (unsigned k = 0; k < g->n; k++)
                trace_set(t, i, g->f[k], bone, v[k]);
            bone++;
        }
        return 0;
    }
    }
    snprintf(why, n, "key \"%s\" is not a 32-bit integer", g->key);
    return -1;
}

int tjf_read(const cJSON *o, tjf_format fmt, trace *t, char *why, size_t n, ff_error *err)
{
    field_set have;
    unsigned bones;
    if (tjf_scan(o, fmt, &have, &bones, why, n) < 0) return -1;
    plan p;
    plan_make(&p);
    if (fmt != TJF_FRAMES && !field_set_eq(&have, &t->lay.have)) {
        explain_change(&p, &have, &t->lay.have, why, n);
        return -1;
    }
    if (bones != t->lay.bones) {
        const char *key = "rot";
        for (unsigned k = 0; k < p.n; k++)
            if (p.g[k].kind == G_BONES && group_carried(t, &p.g[k])) {
                key = p.g[k].key;
                break;
            }
        snprintf(why, n, "\"%s\" has %u bones, expected %u", key, bones, t->lay.bones);
        return -1;
    }
    if (!trace_push_blank(t, err) ||
        (fmt == TJF_FRAMES && trace_tick_limit(t, t->n - 1, &have, err) < 0)) {
        snprintf(why, n, "%s", err->reason);
        return -1;
    }
    for (unsigned k = 0; k < p.n; k++)
        if (group_read(&p.g[k], fmt) && read_group(o, &p.g[k], &have, t, t->n - 1, why, n) < 0) {
            t->n--;
            return -1;
        }
    return 0;
}
