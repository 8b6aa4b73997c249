/*
 * emu/image/profile.h: an executable profile, one JSON data file per build
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
 *                  "args": 2, "callees": ["Field_Alloc", "..."], "test": false,
 *                  "size": "0x30B", "insns": 284, "pattern": "1f2e..."}],
 *    "tables": [{"name": "position_widths", "address": "0xB8B9F0",
 *                "bytes": "03 06 09 10", "read_by": ["ReadPositionType"]}],
 *    "globals": [{"name": "field_alloc_cursor", "address": "0x1D999C4", "size": 4,
 *                 "found_in": "Field_Alloc"}],
 *    "scratch_size": 65536,
 *    "evidence": [{"what": "StartClip's SLOW doubling", "address": "0x509482",
 *                  "bytes": "D0 E1 FE C9 88 48 07"}],
 *    "versions": [{"build": "FF8 1.2 US English (Nvidia)", "language": "English",
 *                  "own": true, "dwords": [["0x401004", "0x3885048D"],
 *                                          ["0x401404", "0x1597C8"]]}],
 *    "x87_control": "0x27F", "pose_convention": "order=...,scale=pre",
 *    "located": {"from_profile": "...", "executable": "...", "patterns": "...",
 *                "tool": "..."}}
 * Optional: "test", "callees", "size", "insns" and "pattern" of a routine;
 * "tables"; "found_in" of a global; "evidence"; "versions"; "located".
 * What the locator (emu/image/locate.h) uses:
 *   - "callees": the routine's direct calls, exactly (named routines of the
 *     profile, or "0x..." for a routine the profile does not name), in call
 *     order: the first is the routine called first (the lowest call site),
 *     the last the one called last (the highest call site);
 *   - "size" and "insns": the routine's size in bytes (entry to the end of
 *     its last instruction) and its instruction count, as a disassembler
 *     states them;
 *   - "pattern": the routine's normalised instructions (emu/image/walk.h), four
 *     hex digits per instruction, in address order, at most
 *     PROFILE_PATTERN_MAX;
 *   - "tables": data whose bytes are known, read by the routines named in
 *     "read_by" (the locator's anchors);
 *   - "found_in": the routine whose code holds the global's address;
 *   - "located": present in a profile the locator wrote: where from.
 *
 * Evidence that never decides whether a build runs (the fingerprints do),
 * reported by `identify` as held or not and used by the locator to rank
 * candidates: "size" and "insns" above; "evidence", bytes at an address
 * that say what the build does there; "versions", builds told apart by
 * dwords of the image (the first entry whose dwords all hold names the
 * build, as FFNx's get_version does), "own" marking the build the profile
 * describes.
 *
 * "x87_control" (optional, default 0x27F: 53-bit precision, round to
 * nearest, every exception masked, as Windows starts a thread) is the x87
 * control word set before every call; the stack and status are emptied.
 *
 * "pose_convention" (optional) pins the pose convention of the build's
 * BuildBoneMatrices once it is known, in ref/pose.h's text form
 * ("order=yxz,trig=x87-nearest,..."); without it the pose level searches.
 *
 * A pose helper of BuildBoneMatrices (docs/pose.md section 2) is a routine row
 * with three more keys, all or none, which say how to call it at a leaf:
 *   "helper": its role, one of PROFILE_HELPER_MAP below (each role once);
 *   "params": one operand kind per argument, in push order reversed (the
 *             first is the first C argument), one of PROFILE_PARAM_MAP:
 *             "angle" an int by value (an s16 angle sign-extended),
 *             "a", "b" pointers to input MATRIX operands, "m" to a MATRIX
 *             read and rewritten, "out" to a MATRIX written, "sv" to an
 *             SVECTOR (s16 x, y, z, pad), "v" to a VECTOR read and "vout"
 *             to a VECTOR written (s32 x, y, z, pad);
 *   "result": how the result comes back: "none", "eax" (32 bits), "ax"
 *             (16 bits, sign-extended), "st0" (on the x87 stack).
 * Each role takes exactly the operand kinds of its row below, in any order
 * (the order is the profile's claim); sin and cos must return a value.
 *   sin, cos        {angle}         result = 4096 sin/cos(angle 2 pi / 4096)
 *   copy5           {a, b, out}     out = a.m * b.m (Copy5 rounding)
 *   mul_into        {a, b}          b.m = a.m * b.m
 *   rot_x/_y/_z     {angle, m}      m.m = R(angle) * m.m
 *   rot_xyz         {sv, m}         m.m = Rx * Ry * Rz of sv (0x56CD50)
 *   rot_bone        {sv, m}         m.m = the bone rotation of sv (0x56CE30)
 *   scale_uniform   {m, v}          m cells times v, >> 12 (0x56BEF0)
 *   scale_columns   {a, v, out}     out = a with column j times v[j], >> 12
 *                                   (0x508C30); or {m, v}, in place (an
 *                                   older reading of the routine)
 *   apply           {a, sv, vout}   vout = (a.m * sv) >> 12
 *   compose         {a, b, out}     out = Compose(a, b) (0x56C2F0)
 *   compose_to      {a, b, out}     the same, the work of Compose (0x56C600)
 */
#ifndef FF8_EMU_IMAGE_PROFILE_H
#define FF8_EMU_IMAGE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "ref/pose.h"
#include "ref/readlog.h"

#define PROFILE_MAX_HASHES 8
#define PROFILE_MAX_FINGERPRINTS 16
#define PROFILE_MAX_ROUTINES 48
#define PROFILE_MAX_CALLEES 16
#define PROFILE_MAX_GLOBALS 16
#define PROFILE_FP_MAX_BYTES 32
#define PROFILE_MAX_ARGS 16
#define PROFILE_MAX_TABLES 8
#define PROFILE_MAX_READERS 4
#define PROFILE_PATTERN_MAX 1024
#define PROFILE_MAX_EVIDENCE 8
#define PROFILE_MAX_VERSIONS 24
#define PROFILE_VERSION_DWORDS 4

/*
 * The routines the harness calls, by the names of docs/engine.md section 2;
 * the reading routines are ref/readlog.h's rows (PROFILE_R_BITREADER,
 * PROFILE_R_POSITION, ...: profile_reader_id).
 */
#define PROFILE_ROUTINE_MAP(XX)                                                \
    XX(FIELD_ALLOC, "Field_Alloc")                                             \
    XX(FIELD_FREE, "Field_Free")                                               \
    REF_ROUTINE_MAP(XX)                                                        \
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

/* Roles of the pose helpers (docs/pose.md section 2), by their profile names. */
#define PROFILE_HELPER_MAP(XX)                                                 \
    XX(SIN, "sin")                                                             \
    XX(COS, "cos")                                                             \
    XX(COPY5, "copy5")                                                         \
    XX(MUL_INTO, "mul_into")                                                   \
    XX(ROT_X, "rot_x")                                                         \
    XX(ROT_Y, "rot_y")                                                         \
    XX(ROT_Z, "rot_z")                                                         \
    XX(ROT_XYZ, "rot_xyz")                                                     \
    XX(ROT_BONE, "rot_bone")                                                   \
    XX(SCALE_UNIFORM, "scale_uniform")                                         \
    XX(SCALE_COLUMNS, "scale_columns")                                         \
    XX(APPLY, "apply")                                                         \
    XX(COMPOSE, "compose")                                                     \
    XX(COMPOSE_TO, "compose_to")

typedef enum profile_helper_id {
#define PROFILE_HELPER_ENUM(id, name) PROFILE_H_##id,
    PROFILE_HELPER_MAP(PROFILE_HELPER_ENUM)
#undef PROFILE_HELPER_ENUM
        PROFILE_H__COUNT
} profile_helper_id;

/* Operand kinds of a pose helper's arguments. */
#define PROFILE_PARAM_MAP(XX)                                                  \
    XX(ANGLE, "angle")                                                         \
    XX(A, "a")                                                                 \
    XX(B, "b")                                                                 \
    XX(M, "m")                                                                 \
    XX(OUT, "out")                                                             \
    XX(SV, "sv")                                                               \
    XX(V, "v")                                                                 \
    XX(VOUT, "vout")

typedef enum profile_param {
#define PROFILE_PARAM_ENUM(id, name) PROFILE_P_##id,
    PROFILE_PARAM_MAP(PROFILE_PARAM_ENUM)
#undef PROFILE_PARAM_ENUM
        PROFILE_P__COUNT
} profile_param;

/* How a pose helper's result comes back. */
#define PROFILE_RESULT_MAP(XX)                                                 \
    XX(NONE, "none")                                                           \
    XX(EAX, "eax")                                                             \
    XX(AX, "ax")                                                               \
    XX(ST0, "st0")

typedef enum profile_result {
#define PROFILE_RESULT_ENUM(id, name) PROFILE_RES_##id,
    PROFILE_RESULT_MAP(PROFILE_RESULT_ENUM)
#undef PROFILE_RESULT_ENUM
        PROFILE_RES__COUNT
} profile_result;

#define PROFILE_X87_CONTROL_DEFAULT 0x027Fu

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
    /* Pose helpers only ("helper" present): role, operand kinds, result. */
    int helper;                       /* profile_helper_id, -1: not a pose helper */
    uint8_t params[PROFILE_MAX_ARGS]; /* profile_param, args of them */
    uint8_t result;                   /* profile_result */
    uint32_t size;     /* "size" in bytes, 0: not given */
    unsigned insns;    /* "insns", 0: not given */
    unsigned npattern; /* 0: no "pattern" */
    uint16_t pattern[PROFILE_PATTERN_MAX];
} profile_routine;

typedef struct profile_global {
    char name[64];
    uint32_t address;
    uint32_t size;
    char found_in[64]; /* "" or the routine whose code refers to it */
} profile_global;

typedef struct profile_table {
    char name[64];
    uint32_t address;
    uint8_t bytes[PROFILE_FP_MAX_BYTES];
    unsigned len;
    unsigned nreaders;
    char read_by[PROFILE_MAX_READERS][64];
} profile_table;

/* Bytes that say what the build does at an address ("evidence"). */
typedef struct profile_evidence {
    char what[96];
    uint32_t address;
    uint8_t bytes[PROFILE_FP_MAX_BYTES];
    unsigned len;
} profile_evidence;

/* A build told by dwords of its image ("versions"). */
typedef struct profile_version {
    char build[96];    /* "FF8 1.2 US English (Nvidia)" */
    char language[32]; /* "English" */
    int own;           /* the build this profile describes */
    unsigned ndwords;
    uint32_t address[PROFILE_VERSION_DWORDS];
    uint32_t value[PROFILE_VERSION_DWORDS];
} profile_version;

/* Where a located profile comes from ("located" in the file). */
typedef struct profile_located {
    char from_profile[64]; /* the profile whose routines were looked for */
    char executable[256];  /* the file they were found in (its name) */
    char patterns[160];    /* where the patterns came from */
    char tool[64];         /* "ff8diff 0.1.0" */
} profile_located;

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
    unsigned ntables;
    profile_table tables[PROFILE_MAX_TABLES];
    unsigned nevidence;
    profile_evidence evidence[PROFILE_MAX_EVIDENCE];
    unsigned nversions;
    profile_version versions[PROFILE_MAX_VERSIONS];
    uint32_t scratch_size;
    int located; /* 1: written by the locator; see located_from */
    profile_located located_from;
    /* Index into routines[] of each engine routine, -1 when absent. */
    int engine[PROFILE_R__COUNT];
    /* Index into globals[] of "field_alloc_cursor", -1 when absent. */
    int field_alloc_cursor;
    /* Index into routines[] of each pose helper role, -1 when absent. */
    int helpers[PROFILE_H__COUNT];
    uint16_t x87_control; /* x87 control word before each call */
    char pose_convention[REF_POSE_OPTS_TEXT_MAX]; /* "" or a valid ref_pose_opts text form */
} emu_profile;

/* Parses JSON text; source names it in errors. */
int profile_parse(const char *json, size_t len, const char *source, emu_profile *out,
                  ff_error *err);
/* Reads and parses a profile file: a regular file of at most 1 MiB (common/file.h). */
int profile_load_file(const char *path, emu_profile *out, ff_error *err);
/* Name of an engine routine ("Battle_ReadAnimation"). */
const char *profile_routine_name(profile_routine_id id);
/* The row of reading routine r (ref/readlog.h); PROFILE_R__COUNT out of range. */
profile_routine_id profile_reader_id(ref_routine r);
/* The routine named name, or NULL. */
const profile_routine *profile_find_routine(const emu_profile *p, const char *name);
/*
 * 1 when address is the entry of one of the routines of profile (an
 * emu_profile *): emu/image/walk.h's tail-call rule for routines named by a
 * profile.
 */
int profile_is_entry(void *profile, uint32_t address);
/* Profile names of a helper role ("copy5"), an operand kind ("out") and a
 * result kind ("st0"); "?" out of range. */
const char *profile_helper_name(profile_helper_id id);
const char *profile_param_name(profile_param kind);
const char *profile_result_name(profile_result kind);
/* The routine holding a helper role, or NULL when the profile has none. */
const profile_routine *profile_helper(const emu_profile *p, profile_helper_id id);

/*
 * The profile as JSON text in the format above (malloc'd, NUL-terminated;
 * the caller frees it), which profile_parse reads back to the same
 * profile (source aside). NULL when memory runs out.
 */
char *profile_to_json(const emu_profile *p);

#endif
