/*
 * ref/dat.h: battle .dat model files (docs/engine.md section 6): the section
 * table, the kind of model it holds, and the skeleton and animation
 * sections, all validated against the file's size.
 *
 * dat_parse only reads: it never copies or owns the file's bytes, and it
 * never trusts a size or offset from the file before checking it (in an
 * order that cannot overflow). It never prints or exits.
 */
#ifndef FF8_REF_DAT_H
#define FF8_REF_DAT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* kind, JSON name, section count, holds a skeleton + animation section */
#define DAT_KIND_MAP(XX)                                                       \
    XX(MONSTER, "monster", 11, 1)                                              \
    XX(BODY, "body", 7, 1)                                                     \
    XX(EDEA, "edea", 10, 1)                                                    \
    XX(WEAPON, "weapon", 8, 1)                                                 \
    XX(WEAPON_REDUCED, "reduced_weapon", 5, 0)                                 \
    XX(NO_MODEL, "no_model", 2, 0)

typedef enum dat_kind {
#define DAT_KIND_ENUM(name, json, sections, model) DAT_##name,
    DAT_KIND_MAP(DAT_KIND_ENUM)
#undef DAT_KIND_ENUM
        DAT__KIND_COUNT
} dat_kind;

#define DAT_MAX_SECTIONS 16
#define DAT_SECTION_SKELETON 0
#define DAT_SECTION_GEOMETRY 1
#define DAT_SECTION_ANIMATION 2
#define DAT_MAX_BONES 255

/* Skeleton (H1) layout, docs/engine.md section 3. */
#define DAT_SKEL_HEADER 16
#define DAT_SKEL_BONE_COUNT 0x00
#define DAT_SKEL_FLAGS 0x01
#define DAT_SKEL_MODEL_SCALE 0x02
#define DAT_SKEL_ROOT 0x08 /* s16 x, y, z */
#define DAT_BONE_SIZE 48
#define DAT_BONE_PARENT 0x00
#define DAT_BONE_LENGTH 0x02
#define DAT_BONE_ROT 0x04   /* s16 x, y, z */
#define DAT_BONE_SCALE 0x0A /* s16 x, y, z */

typedef struct dat_file {
    const char *name;    /* borrowed, used in errors */
    const uint8_t *data; /* borrowed: the whole file */
    size_t size;
    dat_kind kind;
    uint32_t nsections;
    uint32_t section[DAT_MAX_SECTIONS + 1]; /* section[nsections] == size */
    /* Valid when dat_kind_has_model(kind): */
    uint32_t skel_off, skel_size; /* section 0 */
    unsigned bones;               /* skeleton byte 0 */
    uint32_t anim_off, anim_size; /* section 2 */
    uint32_t clips;               /* animation section u32 count */
} dat_file;

/*
 * Validates data[0..size) as a battle .dat and fills out. On failure returns
 * -1 with err naming the file, the offset of the offending field and why;
 * out is then unspecified. name is kept (borrowed) in out->name.
 */
int dat_parse(const uint8_t *data, size_t size, const char *name, dat_file *out, ff_error *err);

/* "monster", ... ; "?" when out of range. */
const char *dat_kind_name(dat_kind kind);
/* Section count of a kind; 0 when out of range. */
unsigned dat_kind_sections(dat_kind kind);
/* 1 when files of this kind hold a skeleton and an animation section. */
int dat_kind_has_model(dat_kind kind);
/* Looks a kind up by its JSON name; -1 when unknown. */
int dat_kind_from_name(const char *name);

/*
 * Absolute file offset of clip's first byte (its frame count). Returns -1
 * with an error when the file has no model or clip >= clips. The offsets
 * were validated by dat_parse.
 */
int dat_clip_offset(const dat_file *f, uint32_t clip, uint32_t *off, ff_error *err);
/*
 * One past the last byte of the clip whose first byte is at absolute offset
 * start: the next clip's start (the nearest offset above it), else the
 * animation section's end. The file must have a model.
 */
uint64_t dat_clip_end(const dat_file *f, uint32_t start);
/* Frame count byte of a clip; 0 when the clip does not exist. */
unsigned dat_clip_frames(const dat_file *f, uint32_t clip);

#endif
