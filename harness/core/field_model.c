/*
 * harness/core/field_model.c: model names from FIELD_MODEL_MAP, and field
 * names with their model in front.
 */
#include "harness/core/field_model.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {
#define FIELD_MODEL_NAME(id, name) name,
    FIELD_MODEL_MAP(FIELD_MODEL_NAME)
#undef FIELD_MODEL_NAME
};

const char *field_model_name(field_model m)
{
    return (unsigned)m < FIELD_MODEL__COUNT ? names[m] : "?";
}

int field_model_from_name(const char *name)
{
    for (int i = 0; i < FIELD_MODEL__COUNT; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

char *field_model_prefix(field_model m, const char *kind, char *buf, size_t n)
{
    if (m == FIELD_MODEL_NONE || (unsigned)m >= FIELD_MODEL__COUNT)
        snprintf(buf, n, "%s", kind);
    else
        snprintf(buf, n, "%s.%s", names[m], kind);
    return buf;
}

char *field_model_field_name(field_model m, field_id f, unsigned bone, char *buf, size_t n)
{
    char plain[64];
    return field_model_prefix(m, field_name(f, bone, plain, sizeof plain), buf, n);
}

char *field_model_kind_name(field_model m, field_id f, char *buf, size_t n)
{
    return field_model_prefix(m, field_kind_name(f), buf, n);
}

int field_model_parse(const char *text, field_model *m, field_id *f, unsigned *bone)
{
    for (int i = 1; i < FIELD_MODEL__COUNT; i++) {
        size_t k = strlen(names[i]);
        if (strncmp(text, names[i], k) == 0 && text[k] == '.' &&
            field_parse(text + k + 1, f, bone) == 0) {
            *m = (field_model)i;
            return 0;
        }
    }
    if (field_parse(text, f, bone) < 0) return -1;
    *m = FIELD_MODEL_NONE;
    return 0;
}
