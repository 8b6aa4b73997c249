/*
 * harness/core/fields.h: the one table of compared fields. Every field is
 * declared once, in FIELD_MAP, with where it lives in the game's memory
 * (area, offset, type), how it is named and how it is written in Trace JSON
 * Lines. Reading a field from guest memory or from the reference's bytes,
 * storing it in a trace, comparing, ordering, the emulated writer's address,
 * trace JSON keys and report names are all derived from that row: adding a
 * field is adding a row.
 *
 * Must not hold state, allocate or know about runs, files or reports.
 */
#ifndef FF8_HARNESS_CORE_FIELDS_H
#define FF8_HARNESS_CORE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "ref/dat.h"
#include "ref/engine.h"

/* Where a field's bytes are, after one engine call. */
typedef enum field_area {
    FIELD_AREA_RET,    /* the call's return value (EAX); no memory */
    FIELD_AREA_BUILD_RET, /* BuildBoneMatrices' return value (pose level); no memory */
    FIELD_AREA_CMD,    /* the 8-byte AnimCmd */
    FIELD_AREA_SKEL,   /* the 16-byte skeleton header */
    FIELD_AREA_BONE,   /* one 48-byte bone (per-bone field) */
    FIELD_AREA_WORLD,  /* one bone after ComputeBonesWorldMatrices, identity base */
    FIELD_AREA_PLACED, /* one bone after ComputeBonesWorldMatrices, the fixed base */
} field_area;

/* Per-bone areas: a field there is named "<prefix>[i].<rest>". */
static inline int field_area_per_bone(field_area a)
{
    return a == FIELD_AREA_BONE || a == FIELD_AREA_WORLD || a == FIELD_AREA_PLACED;
}

/* Size and signedness in memory; every value fits an int32_t. */
typedef enum field_type { FIELD_U8, FIELD_S16, FIELD_S32 } field_type;

/* Which comparison level carries a field (a trace carries whole levels). */
typedef enum field_level { FIELD_LEVEL_FRAME, FIELD_LEVEL_POSE, FIELD_LEVEL__COUNT } field_level;

/* Flags: differences shown as XOR (a byte of flag bits); optional in Trace
 * JSON Lines although its level is the frame level (added after v1 began). */
#define FIELD_BITS 1
#define FIELD_JSON_OPTIONAL 2
/* Optional per frame in the frames format (trace_fields.h), whose frames
 * carry the skeleton's fields (areas SKEL and BONE) only. */
#define FIELD_FRAMES_OPTIONAL 4

/* A bone's PsyQ MATRIX (docs/pose.md section 1): s16 m[3][3], a pad, s32 t[3]. */
#define FIELD_BONE_M(r, c) (0x10 + 2 * (3 * (r) + (c)))
#define FIELD_BONE_T(k) (0x24 + 4 * (k))

/*
 * XX(id, kind, level, area, offset, type, flags, json key, json sub, json index)
 *
 * kind: the field's name without its bone ("root.x", "rot.x", "world.t.z");
 * a per-bone field is named "bone[12].rot.x" (area BONE), "world[12].t.z"
 * (WORLD: the kind's own first word is the prefix). JSON: key alone is a value;
 * key + sub is a member of an object ("cmd": {"frame": ...}); key + index
 * is an element of an array ("root": [x, y, z]), per bone an element of
 * that bone's array ("rot": [[x, y, z], ...]).
 *
 * The row order is the comparison order within one engine call, the order
 * the engine writes in, so that the first divergence is a cause and not a
 * symptom: the root deltas, the mode bit, every bone's rotation and scale
 * (bone by bone), what the call leaves in the AnimCmd, the bone matrices
 * BuildBoneMatrices writes last and its return value (Field_Free(0x58)'s,
 * docs/engine.md), the call's return value; then what the harness
 * asks after the call: ComputeBonesWorldMatrices under the identity base
 * (world) and under a fixed base with rotation, scale and translation
 * (placed). Consecutive per-bone rows form one block compared bone by bone.
 */
#define FIELD_MAP_CORE(XX)                                                                     \
    XX(ROOT_X, "root.x", FRAME, SKEL, DAT_SKEL_ROOT + 0, S16, 0, "root", NULL, 0)            \
    XX(ROOT_Y, "root.y", FRAME, SKEL, DAT_SKEL_ROOT + 2, S16, 0, "root", NULL, 1)            \
    XX(ROOT_Z, "root.z", FRAME, SKEL, DAT_SKEL_ROOT + 4, S16, 0, "root", NULL, 2)            \
    XX(SKEL_FLAG, "skel.flag", FRAME, SKEL, DAT_SKEL_FLAGS, U8,                              \
       FIELD_BITS | FIELD_FRAMES_OPTIONAL, "skel_flag", NULL, -1)                              \
    XX(ROT_X, "rot.x", FRAME, BONE, DAT_BONE_ROT + 0, S16, 0, "rot", NULL, 0)                \
    XX(ROT_Y, "rot.y", FRAME, BONE, DAT_BONE_ROT + 2, S16, 0, "rot", NULL, 1)                \
    XX(ROT_Z, "rot.z", FRAME, BONE, DAT_BONE_ROT + 4, S16, 0, "rot", NULL, 2)                \
    XX(SCALE_X, "scale.x", FRAME, BONE, DAT_BONE_SCALE + 0, S16, FIELD_FRAMES_OPTIONAL,  \
       "scale", NULL, 0)                                                                     \
    XX(SCALE_Y, "scale.y", FRAME, BONE, DAT_BONE_SCALE + 2, S16, FIELD_FRAMES_OPTIONAL,  \
       "scale", NULL, 1)                                                                     \
    XX(SCALE_Z, "scale.z", FRAME, BONE, DAT_BONE_SCALE + 4, S16, FIELD_FRAMES_OPTIONAL,  \
       "scale", NULL, 2)                                                                     \
    XX(CMD_FRAME, "cmd.frame", FRAME, CMD, offsetof(ref_animcmd, frame), U8, 0, "cmd",       \
       "frame", -1)                                                                            \
    XX(CMD_OFF, "cmd.off", FRAME, CMD, offsetof(ref_animcmd, off), S16, 0, "cmd", "off", -1) \
    XX(CMD_BIT, "cmd.bit", FRAME, CMD, offsetof(ref_animcmd, bit), S16, 0, "cmd", "bit", -1) \
    XX(CMD_FLAGS, "cmd.flags", FRAME, CMD, offsetof(ref_animcmd, flags), U8, FIELD_BITS,     \
       "cmd", "flags", -1)                                                                     \
    XX(CMD_TOTAL, "cmd.total", FRAME, CMD, offsetof(ref_animcmd, total), U8, 0, "cmd",       \
       "total", -1)                                                                            \
    XX(CMD_CLIP, "cmd.clip", FRAME, CMD, offsetof(ref_animcmd, clip), U8, FIELD_JSON_OPTIONAL, \
       "cmd", "clip", -1)                                                                      \
    XX(M00, "m[0][0]", POSE, BONE, FIELD_BONE_M(0, 0), S16, 0, "mat", NULL, 0)               \
    XX(M01, "m[0][1]", POSE, BONE, FIELD_BONE_M(0, 1), S16, 0, "mat", NULL, 1)               \
    XX(M02, "m[0][2]", POSE, BONE, FIELD_BONE_M(0, 2), S16, 0, "mat", NULL, 2)               \
    XX(M10, "m[1][0]", POSE, BONE, FIELD_BONE_M(1, 0), S16, 0, "mat", NULL, 3)               \
    XX(M11, "m[1][1]", POSE, BONE, FIELD_BONE_M(1, 1), S16, 0, "mat", NULL, 4)               \
    XX(M12, "m[1][2]", POSE, BONE, FIELD_BONE_M(1, 2), S16, 0, "mat", NULL, 5)               \
    XX(M20, "m[2][0]", POSE, BONE, FIELD_BONE_M(2, 0), S16, 0, "mat", NULL, 6)               \
    XX(M21, "m[2][1]", POSE, BONE, FIELD_BONE_M(2, 1), S16, 0, "mat", NULL, 7)               \
    XX(M22, "m[2][2]", POSE, BONE, FIELD_BONE_M(2, 2), S16, 0, "mat", NULL, 8)               \
    XX(T_X, "t.x", POSE, BONE, FIELD_BONE_T(0), S32, 0, "mat", NULL, 9)                      \
    XX(T_Y, "t.y", POSE, BONE, FIELD_BONE_T(1), S32, 0, "mat", NULL, 10)                     \
    XX(T_Z, "t.z", POSE, BONE, FIELD_BONE_T(2), S32, 0, "mat", NULL, 11)                     \
    XX(BUILD_RET, "build.ret", POSE, BUILD_RET, 0, S32, 0, "build_ret", NULL, -1)

/*
 * A build may add rows before the return value by defining
 * FIELD_MAP_EXTRA_HEADER as a header that defines FIELD_MAP_EXTRA(XX): the
 * test of "one row is one field" does exactly that.
 */
#ifdef FIELD_MAP_EXTRA_HEADER
#include FIELD_MAP_EXTRA_HEADER
#endif
#ifndef FIELD_MAP_EXTRA
#define FIELD_MAP_EXTRA(XX)
#endif

/* The world matrices, after the call: docs/pose.md section 1's MATRIX, composed. */
#define FIELD_MAP_WORLD(XX)                                                                    \
    FIELD_WORLD_ROWS(XX, WORLD, "world")                                                       \
    FIELD_WORLD_ROWS(XX, PLACED, "placed")
#define FIELD_WORLD_ROWS(XX, AREA, NAME)                                                       \
    XX(AREA##_M00, NAME ".m[0][0]", POSE, AREA, FIELD_BONE_M(0, 0), S16, 0, NAME, NULL, 0)    \
    XX(AREA##_M01, NAME ".m[0][1]", POSE, AREA, FIELD_BONE_M(0, 1), S16, 0, NAME, NULL, 1)    \
    XX(AREA##_M02, NAME ".m[0][2]", POSE, AREA, FIELD_BONE_M(0, 2), S16, 0, NAME, NULL, 2)    \
    XX(AREA##_M10, NAME ".m[1][0]", POSE, AREA, FIELD_BONE_M(1, 0), S16, 0, NAME, NULL, 3)    \
    XX(AREA##_M11, NAME ".m[1][1]", POSE, AREA, FIELD_BONE_M(1, 1), S16, 0, NAME, NULL, 4)    \
    XX(AREA##_M12, NAME ".m[1][2]", POSE, AREA, FIELD_BONE_M(1, 2), S16, 0, NAME, NULL, 5)    \
    XX(AREA##_M20, NAME ".m[2][0]", POSE, AREA, FIELD_BONE_M(2, 0), S16, 0, NAME, NULL, 6)    \
    XX(AREA##_M21, NAME ".m[2][1]", POSE, AREA, FIELD_BONE_M(2, 1), S16, 0, NAME, NULL, 7)    \
    XX(AREA##_M22, NAME ".m[2][2]", POSE, AREA, FIELD_BONE_M(2, 2), S16, 0, NAME, NULL, 8)    \
    XX(AREA##_T_X, NAME ".t.x", POSE, AREA, FIELD_BONE_T(0), S32, 0, NAME, NULL, 9)           \
    XX(AREA##_T_Y, NAME ".t.y", POSE, AREA, FIELD_BONE_T(1), S32, 0, NAME, NULL, 10)          \
    XX(AREA##_T_Z, NAME ".t.z", POSE, AREA, FIELD_BONE_T(2), S32, 0, NAME, NULL, 11)

#define FIELD_MAP(XX)                                                                          \
    FIELD_MAP_CORE(XX)                                                                         \
    FIELD_MAP_EXTRA(XX)                                                                        \
    XX(RET, "ret", FRAME, RET, 0, S32, 0, "ret", NULL, -1)                                     \
    FIELD_MAP_WORLD(XX)

typedef enum field_id {
#define FIELD_ENUM(id, kind, level, area, off, type, flags, key, sub, idx) FIELD_##id,
    FIELD_MAP(FIELD_ENUM)
#undef FIELD_ENUM
        FIELD__COUNT
} field_id;

/* ---- a field's declaration ---- */

typedef struct field_def {
    const char *kind;
    field_level level;
    field_area area;
    uint32_t offset; /* within the area (within one bone for BONE) */
    field_type type;
    unsigned flags;
    const char *json_key, *json_sub;
    int json_index;
} field_def;

/* The row of f; NULL when f is out of range. */
const field_def *field_def_of(field_id f);
/* One past the last row of f's block: per-bone rows of one area in a row; f + 1 for a scalar. */
int field_block_end(field_id f);
/* "rot.x" (without the bone part); "?" when out of range. */
const char *field_kind_name(field_id f);
int field_is_per_bone(field_id f);
/* 1 when the field is a set of flag bits (differences shown as XOR). */
int field_is_bits(field_id f);
/* Looks a kind name up ("rot.x", "cmd.off"); -1 when unknown. */
int field_from_kind_name(const char *name);
/* Full name into buf: "root.y", "bone[12].rot.x". Returns buf. */
char *field_name(field_id f, unsigned bone, char *buf, size_t n);
/*
 * Parses a full name back into (field, bone). Returns 0, or -1 when the
 * text names no field.
 */
int field_parse(const char *text, field_id *f, unsigned *bone);
/* Level names for options and reports ("frame", "pose"); "?" out of range. */
const char *field_level_name(field_level l);
/*
 * Rank of (f, bone) in the comparison order of one call, for any bone count
 * up to DAT_MAX_BONES: a lower rank is compared first.
 */
uint32_t field_rank(field_id f, unsigned bone);

/*
 * A hash of every row (kinds, levels, areas, offsets, types, JSON keys), so
 * that stored data indexed by field id (the cache's outcome records) is
 * never read by a build whose table differs.
 */
uint64_t field_table_hash(void);

/* ---- sets of fields ---- */

typedef struct field_set {
    uint64_t w[2];
} field_set;
_Static_assert(FIELD__COUNT <= 128, "field_set holds 128 fields");

static inline int field_set_has(const field_set *s, field_id f)
{
    return (unsigned)f < FIELD__COUNT && (s->w[f >> 6] >> (f & 63) & 1);
}
static inline void field_set_add(field_set *s, field_id f)
{
    if ((unsigned)f < FIELD__COUNT) s->w[f >> 6] |= 1ull << (f & 63);
}
static inline void field_set_del(field_set *s, field_id f)
{
    if ((unsigned)f < FIELD__COUNT) s->w[f >> 6] &= ~(1ull << (f & 63));
}
static inline int field_set_eq(const field_set *a, const field_set *b)
{
    return a->w[0] == b->w[0] && a->w[1] == b->w[1];
}
static inline field_set field_set_and(const field_set *a, const field_set *b)
{
    field_set s = {{a->w[0] & b->w[0], a->w[1] & b->w[1]}};
    return s;
}
/* Every field of the levels in mask (bit l = field_level l). */
field_set field_set_of_levels(unsigned mask);

/* ---- field classes: the rows that share a JSON key ---- */

/*
 * A field class is every row written under one JSON key of Trace JSON
 * Lines and the frames format: "root", "skel_flag", "rot", "scale", "cmd",
 * "mat", "ret", "world", "placed", in the order of their first row. It is
 * what a decoder supplies or leaves out as a whole, so what a check
 * compared is counted and required per class. Derived from the rows: a new
 * key is a new class.
 */
#define FIELD_CLASS_MAX 16

typedef struct field_classes {
    int n;                             /* classes (at most FIELD_CLASS_MAX) */
    field_id first[FIELD_CLASS_MAX];   /* class k's first row; its JSON key names it */
    field_set fields[FIELD_CLASS_MAX]; /* the rows of class k */
    int8_t of[FIELD__COUNT];           /* the class of each row; -1 past FIELD_CLASS_MAX */
} field_classes;

/* Fills *c from the table. */
void field_classes_make(field_classes *c);
/* Class k's name (its JSON key); "?" out of range. */
const char *field_class_name(const field_classes *c, int k);
/* The class named name ("scale"); -1 when none. */
int field_class_find(const field_classes *c, const char *name);

/* ---- reading fields from the game's memory ---- */

/*
 * The memory one engine call leaves: its return value, the AnimCmd bytes
 * and the skeleton bytes (16-byte header + 48-byte bones), in the game's
 * layout, as guest memory holds them or as the reference engine keeps them.
 */
typedef struct field_state {
    int32_t ret;
    /* what the last BuildBoneMatrices of the model returned (pose level;
     * 0 before the first) */
    int32_t build_ret;
    const uint8_t *cmd;  /* 8 bytes */
    const uint8_t *skel; /* DAT_SKEL_HEADER + 48 * bones bytes */
    /* the skeleton bytes after ComputeBonesWorldMatrices under the identity
     * base and under the fixed base (pose level only; NULL otherwise) */
    const uint8_t *world, *placed;
} field_state;

/* The value of (f, bone) in s. The caller guarantees bone < the skeleton's bones. */
int32_t field_read(field_id f, unsigned bone, const field_state *s);
/*
 * The values of a per-bone field f for bones 0..bones-1 of s, into out[0],
 * out[stride], ...: field_read of each bone, with the field's place and type
 * looked up once (a trace takes every tick this way).
 */
void field_read_bones(field_id f, const field_state *s, unsigned bones, int32_t *out,
                      size_t stride);

/*
 * Stores v into a skeleton's bytes (16-byte header + 48-byte bones) at
 * (f, bone) of area SKEL or BONE, as the engine's field holds it: the low
 * bytes of its width (a value past 16 bits wraps). Returns 1, or 0 (nothing
 * written) for a field of another area. The caller guarantees bone <
 * the skeleton's bones.
 */
int field_write(field_id f, unsigned bone, uint8_t *skel, int32_t v);

/*
 * Where (f, bone) lives in memory: area and byte offset within the AnimCmd
 * (area CMD) or within the skeleton bytes (header and bones: areas SKEL,
 * BONE, and WORLD and PLACED, the skeleton after a world call), and its
 * size. Returns 0 for the return values, which have no memory.
 */
int field_locate(field_id f, unsigned bone, field_area *area, uint32_t *off, uint32_t *size);

#endif
