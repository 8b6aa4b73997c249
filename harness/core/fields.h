/*
 * harness/core/fields.h: the one table of compared fields. The comparer walks
 * it, the trace reader/writer and every report writer name fields through
 * it, so a field is added in exactly one place.
 *
 * A field is either a scalar of the tick (ret, AnimCmd bytes, skeleton flag
 * byte, root translation) or a per-bone channel (rotation and scale x/y/z),
 * named "bone[12].rot.x" once the bone index is known.
 */
#ifndef FF8_HARNESS_CORE_FIELDS_H
#define FF8_HARNESS_CORE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

/*
 * id, name (per-bone fields get "bone[i]." in front), per bone, is a bit set.
 * The order is the order of cause within one engine call, and the order in
 * which the comparer looks for the first divergence: the root deltas, the
 * mode bit, every bone (rotation x y z, scale x y z, bone by bone), then
 * what the call leaves in the AnimCmd, then the return value.
 */
#define FIELD_MAP(XX)                                                          \
    XX(ROOT_X, "root.x", 0, 0)                                                 \
    XX(ROOT_Y, "root.y", 0, 0)                                                 \
    XX(ROOT_Z, "root.z", 0, 0)                                                 \
    XX(SKEL_FLAG, "skel.flag", 0, 1)                                           \
    XX(ROT_X, "rot.x", 1, 0)                                                   \
    XX(ROT_Y, "rot.y", 1, 0)                                                   \
    XX(ROT_Z, "rot.z", 1, 0)                                                   \
    XX(SCALE_X, "scale.x", 1, 0)                                               \
    XX(SCALE_Y, "scale.y", 1, 0)                                               \
    XX(SCALE_Z, "scale.z", 1, 0)                                               \
    XX(CMD_FRAME, "cmd.frame", 0, 0)                                           \
    XX(CMD_OFF, "cmd.off", 0, 0)                                               \
    XX(CMD_BIT, "cmd.bit", 0, 0)                                               \
    XX(CMD_FLAGS, "cmd.flags", 0, 1)                                           \
    XX(CMD_TOTAL, "cmd.total", 0, 0)                                           \
    XX(CMD_CLIP, "cmd.clip", 0, 0)                                             \
    XX(RET, "ret", 0, 0)

typedef enum field_id {
#define FIELD_ENUM(id, name, per_bone, bits) FIELD_##id,
    FIELD_MAP(FIELD_ENUM)
#undef FIELD_ENUM
        FIELD__COUNT
} field_id;

/* Per-bone fields are contiguous, rotation then scale, as in a bone's bytes. */
#define FIELD_FIRST_BONE FIELD_ROT_X
#define FIELD_LAST_BONE FIELD_SCALE_Z
#define FIELD_BONE_CHANNELS 6

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

#endif
