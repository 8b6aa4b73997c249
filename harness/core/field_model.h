/*
 * harness/core/field_model.h: the model part of a field's name. At the
 * entity level one engine call changes two models, so a field is named
 * with the model it belongs to in front of the field table's own name:
 * "body.root.x", "weapon.bone[1].rot.z", "weapon.cmd.frame". The table
 * (fields.h) stays the one list of fields; this is a naming layer over it,
 * never a second list. FIELD_MODEL_NONE names a lone model (the frame
 * level) with the table's name unchanged.
 *
 * The models come in comparison order within one call: the weapon, which
 * QueueAnimation and AdvanceBy1 drive first, then the body.
 * Must not hold state, allocate or know about runs, files or reports.
 */
#ifndef FF8_HARNESS_CORE_FIELD_MODEL_H
#define FF8_HARNESS_CORE_FIELD_MODEL_H

#include <stddef.h>

#include "harness/core/fields.h"

/* model, name (the prefix and the "model" of a Trace JSON Lines line) */
#define FIELD_MODEL_MAP(XX)                                                                        \
    XX(NONE, "")                                                                                   \
    XX(WEAPON, "weapon")                                                                           \
    XX(BODY, "body")

typedef enum field_model {
#define FIELD_MODEL_ENUM(id, name) FIELD_MODEL_##id,
    FIELD_MODEL_MAP(FIELD_MODEL_ENUM)
#undef FIELD_MODEL_ENUM
        FIELD_MODEL__COUNT
} field_model;

/* "weapon", "body"; "" for FIELD_MODEL_NONE; "?" out of range. */
const char *field_model_name(field_model m);
/* Looks a model up by name ("" is FIELD_MODEL_NONE); -1 when unknown. */
int field_model_from_name(const char *name);

/* Full name into buf: "weapon.bone[1].rot.z", or field_name's alone for NONE. Returns buf. */
char *field_model_field_name(field_model m, field_id f, unsigned bone, char *buf, size_t n);
/* The kind with its model: "weapon.rot.x" (for signatures). Returns buf. */
char *field_model_kind_name(field_model m, field_id f, char *buf, size_t n);
/* The same for any kind text (a signature's "scale.*"). Returns buf. */
char *field_model_prefix(field_model m, const char *kind, char *buf, size_t n);

/*
 * Parses a full name with or without a model ("body.cmd.off", "root.y").
 * Returns 0, or -1 when the text names no field.
 */
int field_model_parse(const char *text, field_model *m, field_id *f, unsigned *bone);

#endif
