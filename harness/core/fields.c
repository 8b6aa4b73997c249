/*
 * harness/core/fields.c: everything about a field derived from its FIELD_MAP
 * row: names, order, sets, reading from memory, location.
 */
#include "harness/core/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"

static const field_def defs[] = {
#define FIELD_ROW(id, kind, level, area, off, type, flags, key, sub, idx)                        \
    {kind, FIELD_LEVEL_##level, FIELD_AREA_##area, (uint32_t)(off), FIELD_##type, flags, key, sub, \
     idx},
    FIELD_MAP(FIELD_ROW)
#undef FIELD_ROW
};
_Static_assert(sizeof defs / sizeof defs[0] == FIELD__COUNT, "one row per field");

static const char *const level_names[FIELD_LEVEL__COUNT] = {"frame", "pose"};

const field_def *field_def_of(field_id f)
{
    return (unsigned)f < FIELD__COUNT ? &defs[f] : NULL;
}

const char *field_kind_name(field_id f)
{
    return (unsigned)f < FIELD__COUNT ? defs[f].kind : "?";
}

int field_is_per_bone(field_id f)
{
    return (unsigned)f < FIELD__COUNT && field_area_per_bone(defs[f].area);
}

int field_block_end(field_id f)
{
    if (!field_is_per_bone(f)) return (int)f + 1;
    int end = (int)f;
    while (end < FIELD__COUNT && defs[end].area == defs[f].area) end++;
    return end;
}

/* "bone", "world", "placed": how a per-bone area names its bones. */
static const char *area_prefix(field_area a)
{
    return a == FIELD_AREA_WORLD ? "world" : a == FIELD_AREA_PLACED ? "placed" : "bone";
}

/* The part of a per-bone kind after its bone: "rot.x", "t.z" (of "world.t.z"). */
static const char *kind_rest(const field_def *d)
{
    const char *p = area_prefix(d->area);
    size_t n = strlen(p);
    return strncmp(d->kind, p, n) == 0 && d->kind[n] == '.' ? d->kind + n + 1 : d->kind;
}

int field_is_bits(field_id f)
{
    return (unsigned)f < FIELD__COUNT && (defs[f].flags & FIELD_BITS);
}

const char *field_level_name(field_level l)
{
    return (unsigned)l < FIELD_LEVEL__COUNT ? level_names[l] : "?";
}

int field_from_kind_name(const char *name)
{
    for (int i = 0; i < FIELD__COUNT; i++)
        if (strcmp(defs[i].kind, name) == 0) return i;
    return -1;
}

char *field_name(field_id f, unsigned bone, char *buf, size_t n)
{
    if (field_is_per_bone(f))
        snprintf(buf, n, "%s[%u].%s", area_prefix(defs[f].area), bone, kind_rest(&defs[f]));
    else
        snprintf(buf, n, "%s", field_kind_name(f));
    return buf;
}

int field_parse(const char *text, field_id *f, unsigned *bone)
{
    const char *open = strchr(text, '[');
    if (!open || (open[1] == '[') || strchr(text, '.') < open) {
        /* no bone: a scalar's kind ("cmd.off"); "m[1][2]" alone is no full name */
        int id = field_from_kind_name(text);
        if (id < 0 || field_is_per_bone((field_id)id)) return -1;
        *f = (field_id)id;
        *bone = 0;
        return 0;
    }
    char *end;
    unsigned long v = strtoul(open + 1, &end, 10);
    if (end == open + 1 || end[0] != ']' || end[1] != '.' || v > DAT_MAX_BONES) return -1;
    for (int i = 0; i < FIELD__COUNT; i++) {
        const char *p = area_prefix(defs[i].area);
        if (!field_is_per_bone((field_id)i) || strlen(p) != (size_t)(open - text) ||
            strncmp(text, p, strlen(p)) != 0 || strcmp(kind_rest(&defs[i]), end + 2) != 0)
            continue;
        *f = (field_id)i;
        *bone = (unsigned)v;
        return 0;
    }
    return -1;
}

uint32_t field_rank(field_id f, unsigned bone)
{
    uint32_t rank = 0;
    for (int i = 0; i < FIELD__COUNT;) {
        if (!field_is_per_bone((field_id)i)) {
            if (i == (int)f) return rank;
            rank++;
            i++;
            continue;
        }
        int end = field_block_end((field_id)i);
        if ((int)f >= i && (int)f < end)
            return rank + bone * (uint32_t)(end - i) + (uint32_t)((int)f - i);
        rank += (uint32_t)(DAT_MAX_BONES + 1) * (uint32_t)(end - i);
        i = end;
    }
    return rank;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
    return fnv(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

uint64_t field_table_hash(void)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (int i = 0; i < FIELD__COUNT; i++) {
        const field_def *d = &defs[i];
        uint32_t v[6] = {d->level, d->area, d->offset, d->type, d->flags, (uint32_t)d->json_index};
        h = fnv_str(h, d->kind);
        h = fnv(h, v, sizeof v);
        h = fnv_str(fnv_str(h, d->json_key), d->json_sub);
    }
    return h;
}

field_set field_set_of_levels(unsigned mask)
{
    field_set s = {{0, 0}};
    for (int i = 0; i < FIELD__COUNT; i++)
        if (mask >> defs[i].level & 1) field_set_add(&s, (field_id)i);
    return s;
}

void field_classes_make(field_classes *c)
{
    memset(c, 0, sizeof *c);
    for (int f = 0; f < FIELD__COUNT; f++) {
        int k = 0;
        while (k < c->n && strcmp(defs[c->first[k]].json_key, defs[f].json_key) != 0) k++;
        if (k == c->n && c->n < FIELD_CLASS_MAX) c->first[c->n++] = (field_id)f;
        c->of[f] = (int8_t)(k < c->n ? k : -1);
        if (k < c->n) field_set_add(&c->fields[k], (field_id)f);
    }
}

const char *field_class_name(const field_classes *c, int k)
{
    return k >= 0 && k < c->n ? defs[c->first[k]].json_key : "?";
}

int field_class_find(const field_classes *c, const char *name)
{
    for (int k = 0; name && k < c->n; k++)
        if (strcmp(defs[c->first[k]].json_key, name) == 0) return k;
    return -1;
}

static int32_t load(const uint8_t *p, field_type t)
{
    switch (t) {
    case FIELD_U8: return p[0];
    case FIELD_S16: return le_s16(p);
    case FIELD_S32: return le_s32(p);
    }
    return 0;
}

static uint32_t type_size(field_type t)
{
    return t == FIELD_U8 ? 1 : t == FIELD_S16 ? 2 : 4;
}

int32_t field_read(field_id f, unsigned bone, const field_state *s)
{
    const field_def *d = &defs[f];
    switch (d->area) {
    case FIELD_AREA_RET: return s->ret;
    case FIELD_AREA_BUILD_RET: return s->build_ret;
    case FIELD_AREA_CMD: return load(s->cmd + d->offset, d->type);
    case FIELD_AREA_SKEL: return load(s->skel + d->offset, d->type);
    case FIELD_AREA_BONE:
    case FIELD_AREA_WORLD:
    case FIELD_AREA_PLACED: {
        const uint8_t *base = d->area == FIELD_AREA_BONE    ? s->skel
                              : d->area == FIELD_AREA_WORLD ? s->world
                                                            : s->placed;
        if (!base) return 0;
        return load(base + DAT_SKEL_HEADER + (size_t)bone * DAT_BONE_SIZE + d->offset, d->type);
    }
    }
    return 0;
}

void field_read_bones(field_id f, const field_state *s, unsigned bones, int32_t *out,
                      size_t stride)
{
    const field_def *d = &defs[f];
    const uint8_t *base = d->area == FIELD_AREA_BONE    ? s->skel
                          : d->area == FIELD_AREA_WORLD ? s->world
                          : d->area == FIELD_AREA_PLACED ? s->placed
                                                         : NULL;
    if (!base) {
        for (unsigned b = 0; b < bones; b++) out[b * stride] = field_read(f, b, s);
        return;
    }
    const uint8_t *p = base + DAT_SKEL_HEADER + d->offset;
    switch (d->type) {
    case FIELD_U8:
        for (unsigned b = 0; b < bones; b++, p += DAT_BONE_SIZE) out[b * stride] = p[0];
        break;
    case FIELD_S16:
        for (unsigned b = 0; b < bones; b++, p += DAT_BONE_SIZE) out[b * stride] = le_s16(p);
        break;
    case FIELD_S32:
        for (unsigned b = 0; b < bones; b++, p += DAT_BONE_SIZE) out[b * stride] = le_s32(p);
        break;
    }
}

int field_write(field_id f, unsigned bone, uint8_t *skel, int32_t v)
{
    const field_def *d = field_def_of(f);
    if (!d || (d->area != FIELD_AREA_SKEL && d->area != FIELD_AREA_BONE)) return 0;
    uint8_t *p = skel + d->offset;
    if (d->area == FIELD_AREA_BONE) p += DAT_SKEL_HEADER + (size_t)bone * DAT_BONE_SIZE;
    switch (d->type) {
    case FIELD_U8: *p = (uint8_t)v; break;
    case FIELD_S16: le_put16(p, (uint16_t)v); break;
    case FIELD_S32: le_put32(p, (uint32_t)v); break;
    }
    return 1;
}

int field_locate(field_id f, unsigned bone, field_area *area, uint32_t *off, uint32_t *size)
{
    const field_def *d = field_def_of(f);
    if (!d || d->area == FIELD_AREA_RET || d->area == FIELD_AREA_BUILD_RET) return 0;
    *area = d->area;
    *off = d->offset;
    if (field_area_per_bone(d->area)) *off += DAT_SKEL_HEADER + bone * DAT_BONE_SIZE;
    *size = type_size(d->type);
    return 1;
}
