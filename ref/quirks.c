/*
 * ref/quirks.c: the quirk table's rows (ref/quirks.h) and their lookups.
 * Nothing here decodes, allocates or prints.
 */
#include "ref/quirks.h"

#include <string.h>

static const ref_quirk_def defs[REF_Q__COUNT] = {
#define REF_QUIRK_DEF(id, nm, kd, obs, eng, pl, anc)                                           \
    {REF_Q_##id, nm, REF_QUIRK_KIND_##kd, obs, eng, pl, anc},
    REF_QUIRK_MAP(REF_QUIRK_DEF)
#undef REF_QUIRK_DEF
};

const ref_quirk_def *ref_quirk_def_of(ref_quirk q)
{
    return (unsigned)q < REF_Q__COUNT ? &defs[q] : NULL;
}

int ref_quirk_from_name(const char *name)
{
    if (!name) return -1;
    for (unsigned i = 0; i < REF_Q__COUNT; i++)
        if (strcmp(defs[i].name, name) == 0) return (int)i;
    return -1;
}
