/*
 * emu/image/profile_names.c: the names of the profile's enums, and lookups of a
 * parsed profile's routines by name, by entry address and by helper role
 * (see emu/image/profile.h). No parsing here (emu/image/profile.c), no printing.
 */
#include "emu/image/profile_names.h"

#include <string.h>

const char *const profile_routine_names[] = {
#define PROFILE_ROUTINE_NAME(id, name) name,
    PROFILE_ROUTINE_MAP(PROFILE_ROUTINE_NAME)
#undef PROFILE_ROUTINE_NAME
};

const char *const profile_helper_names[] = {
#define PROFILE_HELPER_NAME(id, name) name,
    PROFILE_HELPER_MAP(PROFILE_HELPER_NAME)
#undef PROFILE_HELPER_NAME
};

const char *const profile_param_names[] = {
#define PROFILE_PARAM_NAME(id, name) name,
    PROFILE_PARAM_MAP(PROFILE_PARAM_NAME)
#undef PROFILE_PARAM_NAME
};

const char *const profile_result_names[] = {
#define PROFILE_RESULT_NAME(id, name) name,
    PROFILE_RESULT_MAP(PROFILE_RESULT_NAME)
#undef PROFILE_RESULT_NAME
};

const char *profile_routine_name(profile_routine_id id)
{
    if ((unsigned)id >= PROFILE_R__COUNT) return "?";
    return profile_routine_names[id];
}

profile_routine_id profile_reader_id(ref_routine r)
{
    static const profile_routine_id ids[REF_R__COUNT] = {
#define PROFILE_READER_ID(id, name) PROFILE_R_##id,
        REF_ROUTINE_MAP(PROFILE_READER_ID)
#undef PROFILE_READER_ID
    };
    return (unsigned)r < REF_R__COUNT ? ids[r] : PROFILE_R__COUNT;
}

const profile_routine *profile_find_routine(const emu_profile *p, const char *name)
{
    for (unsigned i = 0; i < p->nroutines; i++)
        if (strcmp(p->routines[i].name, name) == 0) return &p->routines[i];
    return NULL;
}

int profile_is_entry(void *profile, uint32_t address)
{
    const emu_profile *p = profile;
    for (unsigned i = 0; i < p->nroutines; i++)
        if (p->routines[i].address == address) return 1;
    return 0;
}

const char *profile_helper_name(profile_helper_id id)
{
    return (unsigned)id < PROFILE_H__COUNT ? profile_helper_names[id] : "?";
}

const char *profile_param_name(profile_param kind)
{
    return (unsigned)kind < PROFILE_P__COUNT ? profile_param_names[kind] : "?";
}

const char *profile_result_name(profile_result kind)
{
    return (unsigned)kind < PROFILE_RES__COUNT ? profile_result_names[kind] : "?";
}

const profile_routine *profile_helper(const emu_profile *p, profile_helper_id id)
{
    if ((unsigned)id >= PROFILE_H__COUNT || p->helpers[id] < 0) return NULL;
    return &p->routines[p->helpers[id]];
}
