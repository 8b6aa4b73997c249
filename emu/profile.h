/*
 * emu/profile.h: an executable profile, one JSON data file per build
 * (emu/profiles/<name>.json): known SHA-256 values, fingerprints, routine
 * addresses and signatures with their expected direct callees, globals and
 * the Field_Alloc scratch size. Adding a build is adding a profile.
 *
 * Profiles are plain data; parsing validates every field and reports the
 * file and the key that is wrong. Nothing here prints or exits.
 *
 * Format ("ff8diff-profile/1"), numbers as "0x..." strings or integers:
 *   {"format": "ff8diff-profile/1", "name": "ff8_en_steam2013",
 *    "description": "...", "image_base": "0x400000",
 *    "sha256": ["064d..."],
 *    "fingerprints": [{"address": "0x508F90", "bytes": "83 EC 08 53 8B 5C 24 14"}],
 *    "routines": [{"name": "Battle_ReadAnimation", "address": "0x508F90",
 *                  "signature": "int Battle_ReadAnimation(Model *m, AnimCmd *cmd)",
 *                  "args": 2, "callees": ["Field_Alloc", "..."], "test": false}],
 *    "globals": [{"name": "field_alloc_cursor", "address": "0x1D999C4", "size": 4}],
 *    "scratch_size": 65536}
 */
#ifndef FF8_EMU_PROFILE_H
#define FF8_EMU_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define PROFILE_MAX_HASHES 8
#define PROFILE_MAX_FINGERPRINTS 16
#define PROFILE_MAX_ROUTINES 32
#define PROFILE_MAX_CALLEES 16
#define PROFILE_MAX_GLOBALS 16
#define PROFILE_FP_MAX_BYTES 32

/* The routines the harness calls, by the names of ENGINE.md section 2. */
#define PROFILE_ROUTINE_MAP(XX)                                                \
    XX(FIELD_ALLOC, "Field_Alloc")                                             \
    XX(FIELD_FREE, "Field_Free")                                               \
    XX(BITREADER, "bitReader")                                                 \
    XX(READ_POSITION, "ReadPositionType")                                      \
    XX(READ_ROTATION, "ReadRotationType")                                      \
    XX(READ_SCALE, "ReadBoneScale")                                            \
    XX(READ_ANIMATION, "Battle_ReadAnimation")                                 \
    XX(START_CLIP, "StartClip")                                                \
    XX(BUILD_MATRICES, "BuildBoneMatrices")                                    \
    XX(QUEUE_ANIMATION, "QueueAnimation")                                      \
    XX(ADVANCE_BY1, "AdvanceBy1")                                              \
    XX(WORLD_MATRICES, "ComputeBonesWorldMatrices")

typedef enum profile_routine_id {
#define PROFILE_ROUTINE_ENUM(id, name) PROFILE_R_##id,
    PROFILE_ROUTINE_MAP(PROFILE_ROUTINE_ENUM)
#undef PROFILE_ROUTINE_ENUM
        PROFILE_R__COUNT
} profile_routine_id;

typedef struct profile_fingerprint {
    uint32_t address;
    uint8_t bytes[PROFILE_FP_MAX_BYTES];
    unsigned len;
} profile_fingerprint;

typedef struct profile_routine {
    char name[64];
    uint32_t address;
    char signature[160];
    unsigned args;
    int test; /* a stand-in test routine, not an engine routine */
    int callees_known; /* 0: "callees" absent, the structural check skips them */
    unsigned ncallees;
    char callees[PROFILE_MAX_CALLEES][64];
} profile_routine;

typedef struct profile_global {
    char name[64];
    uint32_t address;
    uint32_t size;
} profile_global;

typedef struct emu_profile {
    char name[64];
    char description[256];
    char source[512]; /* path or "(built-in)" */
    uint32_t image_base;
    unsigned nhashes;
    char sha256[PROFILE_MAX_HASHES][65]; /* lowercase hex */
    unsigned nfingerprints;
    profile_fingerprint fingerprints[PROFILE_MAX_FINGERPRINTS];
    unsigned nroutines;
    profile_routine routines[PROFILE_MAX_ROUTINES];
    unsigned nglobals;
    profile_global globals[PROFILE_MAX_GLOBALS];
    uint32_t scratch_size;
    /* Index into routines[] of each engine routine, -1 when absent. */
    int engine[PROFILE_R__COUNT];
    /* Index into globals[] of "field_alloc_cursor", -1 when absent. */
    int field_alloc_cursor;
} emu_profile;

/* Parses JSON text; source names it in errors. */
int profile_parse(const char *json, size_t len, const char *source, emu_profile *out,
                  ff_error *err);
int profile_load_file(const char *path, emu_profile *out, ff_error *err);
/* The profiles built into ff8diff ("ff8_en_steam2013", "standin"). */
unsigned profile_builtin_count(void);
int profile_builtin(unsigned i, emu_profile *out, ff_error *err);
int profile_builtin_by_name(const char *name, emu_profile *out, ff_error *err);
/* Name of an engine routine ("Battle_ReadAnimation"). */
const char *profile_routine_name(profile_routine_id id);
/* The routine named name, or NULL. */
const profile_routine *profile_find_routine(const emu_profile *p, const char *name);

#endif
