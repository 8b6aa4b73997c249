/*
 * emu/profiles/profile_builtin.h: the profiles built into ff8diff
 * ("ff8_en_steam2013", "standin"), embedded at build time and parsed on
 * demand (profile_builtin.c). Must not look anything up on disk.
 */
#ifndef FF8_EMU_PROFILES_PROFILE_BUILTIN_H
#define FF8_EMU_PROFILES_PROFILE_BUILTIN_H

#include "common/error.h"
#include "emu/image/profile.h"

/* How many profiles are built in. */
unsigned profile_builtin_count(void);
/* Built-in profile i parsed into *out. Returns 0, or -1 with err (i out of range included). */
int profile_builtin(unsigned i, emu_profile *out, ff_error *err);
/* The built-in profile named name into *out. Returns 0, or -1 with err when none has it. */
int profile_builtin_by_name(const char *name, emu_profile *out, ff_error *err);

#endif
