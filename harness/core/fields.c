/*
 * harness/core/fields.c: names of the compared fields, from FIELD_MAP only.
 */
#include "harness/core/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int per_bone;
    int bits;
} fields[] = {
#define FIELD_ROW(id, name, per_bone, bits) {name, per_bone, bits},
    FIELD_MAP(FIELD_ROW)
#undef FIELD_ROW
};

const char *field_kind_name(field_id f)
{
    if ((unsigned)f >= FIELD__COUNT) return "?";
    return fields[f].name;
}

int field_is_per_bone(field_id f)
{
    return (unsigned)f < FIELD__COUNT && fields[f].per_bone;
}

int field_is_bits(field_id f)
{
    return (unsigned)f < FIELD__COUNT && fields[f].bits;
}

int field_from_kind_name(const char *name)
{
    for (int i = 0; i < FIELD__COUNT; i++)
        if (strcmp(fields[i].name, name) == 0) return i;
    return -1;
}

char *field_name(field_id f, unsigned bone, char *buf, size_t n)
{
    if (field_is_per_bone(f))
        snprintf(buf, n, "bone[%u].%s", bone, field_kind_name(f));
    else
        snprintf(buf, n, "%s", field_kind_name(f));
    return buf;
}

int field_parse(const char *text, field_id *f, unsigned *bone)
{
    unsigned b = 0;
    const char *kind = text;
    if (strncmp(text, "bone[", 5) == 0) {
        char *end;
        unsigned long v = strtoul(text + 5, &end, 10);
        if (end == text + 5 || end[0] != ']' || end[1] != '.' || v > 255) return -1;
        b = (unsigned)v;
        kind = end + 2;
    }
    int id = field_from_kind_name(kind);
    if (id < 0 || field_is_per_bone((field_id)id) != (kind != text)) return -1;
    *f = (field_id)id;
    *bone = b;
    return 0;
}
