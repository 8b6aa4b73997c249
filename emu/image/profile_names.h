/*
 * emu/image/profile_names.h: the name tables behind the profile's enums (routine,
 * helper role, operand kind, result kind), shared by the profile parser and
 * its lookups. Internal to emu/: other folders use the accessors of
 * emu/image/profile.h. Read-only data, no state.
 */
#ifndef FF_EMU_PROFILE_NAMES_H
#define FF_EMU_PROFILE_NAMES_H

#include "emu/image/profile.h"

extern const char *const profile_routine_names[PROFILE_R__COUNT];
extern const char *const profile_helper_names[PROFILE_H__COUNT];
extern const char *const profile_param_names[PROFILE_P__COUNT];
extern const char *const profile_result_names[PROFILE_RES__COUNT];

#endif
