/*
 * emu/engine/entity.h: the original engine's battle entity (docs/pose.md section 5,
 * docs/engine.md section 3): a body and at most one weapon model driven by one
 * clock, QueueAnimation (0x509520) and AdvanceBy1 (0x5094F0), called at the
 * profile's addresses on guest memory laid out as the engine lays it out:
 *
 *   entity       +2 u8 (bit 3: no speed from the statuses), +9 u8 status
 *                (0x80 Slow, 0x40 Haste), body header (12 bytes: u32,
 *                Files *, Files *) at +0x60, body AnimCmd at +0x6C, the
 *                sequence pair pointer at +0x74, weapon slot pointer at
 *                +0x78 (NULL: no weapon model)
 *   weapon slot  68 bytes: its own 12-byte header at +0, AnimCmd at +12,
 *                attach rotation s16 X/Y/Z at +20, attach translation s16
 *                X/Y/Z at +28, attach MATRIX at +36 (zero unless the caller
 *                writes it: the game rebuilds it outside the routines run
 *                here)
 *
 * Both model files are whole and contiguous in guest memory, each followed
 * by a zeroed read-only guard page, with Files {skeleton, geometry,
 * animation} pointing at their sections 0, 1 and 2.
 *
 * An emu_entity lives on an emu_game's engine (its own pages, apart from
 * the frame level's file): the game must outlive it, and like the game it
 * belongs to one thread. Nothing here prints or exits; a fault in emulated
 * code is a returned emu_fault, both files are then restored as loaded and
 * the entity stays usable.
 */
#ifndef FF8_EMU_ENGINE_ENTITY_H
#define FF8_EMU_ENGINE_ENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/fault.h"
#include "emu/engine/game.h"
#include "common/error.h"

/* Byte offsets of the engine's structures (docs/pose.md section 5). */
#define EMU_ENTITY_BYTE2 0x02  /* bit 3: the statuses do not set the speed */
#define EMU_ENTITY_STATUS 0x09 /* 0x80 Slow, 0x40 Haste */
#define EMU_ENTITY_BODY_HEADER 0x60
#define EMU_ENTITY_BODY_CMD 0x6C
#define EMU_ENTITY_PAIR_PTR 0x74 /* the sequence pair: bytes 0 and 2 compared */
#define EMU_ENTITY_WEAPON_PTR 0x78
#define EMU_ENTITY_SIZE 0x80
#define EMU_SLOT_HEADER 0
#define EMU_SLOT_CMD 12
#define EMU_SLOT_ATTACH_ROT 20
#define EMU_SLOT_ATTACH_TRANS 28
#define EMU_SLOT_ATTACH_MATRIX 36
#define EMU_SLOT_SIZE 68

typedef struct emu_entity emu_entity;

/* The two models of an entity. */
typedef enum emu_entity_model { EMU_ENTITY_BODY, EMU_ENTITY_WEAPON } emu_entity_model;

/* One model file: its bytes (copied at load) and the offsets of sections 0, 1, 2. */
typedef struct emu_entity_file {
    const uint8_t *data;
    size_t size;
    uint32_t skel_off, geom_off, anim_off;
} emu_entity_file;

/* A weapon slot's attach fields (slot +20 and +28). */
typedef struct emu_attach {
    int16_t rot[3];
    int16_t trans[3];
} emu_attach;

/*
 * A new entity on g's engine: maps its structure page. Fails with FF_E_EXE
 * when the profile lacks QueueAnimation or AdvanceBy1, FF_E_EMU when
 * Unicorn refuses the page, FF_E_NOMEM. g must outlive the entity.
 */
int emu_entity_open(emu_game *g, emu_entity **out, ff_error *err);
/* Unmaps and frees everything the entity holds; e may be NULL. Before g's close. */
void emu_entity_close(emu_entity *e);

/*
 * Places body (and weapon, or NULL for a NULL weapon slot) in guest memory
 * and lays the entity and weapon slot out, attach fields from att (NULL:
 * zero). Replaces the previous pair. Fails (FF_E_RANGE) when a file is
 * larger than its guest area (64 MiB) or its section offsets or skeleton
 * lie past its end, (FF_E_EMU) when Unicorn refuses a mapping; err's file
 * is then "body" or "weapon" and no pair is loaded.
 */
int emu_entity_load(emu_entity *e, const emu_entity_file *body, const emu_entity_file *weapon,
                    const emu_attach *att, ff_error *err);
/* 1 when the loaded pair has a weapon slot. */
int emu_entity_armed(const emu_entity *e);
/* Both skeletons back to their bytes as loaded. */
void emu_entity_reset(emu_entity *e);

/*
 * What QueueAnimation reads to decide the speed: entity +2, the status
 * byte +9 and the sequence pair's first three bytes, placed in the entity
 * page with +0x74 pointing to them (pair NULL: +0x74 holds NULL).
 */
typedef struct emu_entity_speed {
    uint8_t byte2;
    uint8_t status;
    const uint8_t *pair; /* 3 bytes, or NULL */
} emu_entity_speed;

/*
 * Sets both AnimCmds to `flags` (other bytes zero) and the entity's speed
 * fields from sp (NULL: all zero, a NULL pair pointer), then calls
 * QueueAnimation(entity, clip). Returns 0 with *ret = EAX, or -1 with
 * *fault filled (a refusal when nothing is loaded).
 */
int emu_entity_queue(emu_entity *e, const emu_entity_speed *sp, uint8_t flags, int16_t clip,
                     uint32_t *ret, emu_fault *fault);
/* Calls AdvanceBy1(entity) once. */
int emu_entity_advance(emu_entity *e, uint32_t *ret, emu_fault *fault);

/*
 * Host views of the guest state, valid until the next load or close: a
 * model's AnimCmd (8 bytes) and skeleton section (NULL for the weapon of an
 * unarmed pair), and the weapon slot's 68 bytes (NULL when unarmed).
 */
const uint8_t *emu_entity_cmd(const emu_entity *e, emu_entity_model m);
const uint8_t *emu_entity_skeleton(const emu_entity *e, emu_entity_model m);
const uint8_t *emu_entity_slot(const emu_entity *e);
/* A model's skeleton section length in bytes (0 when the model is not loaded). */
size_t emu_entity_skeleton_size(const emu_entity *e, emu_entity_model m);
/* Overwrites a model's skeleton section (emu_entity_skeleton_size bytes). */
void emu_entity_set_skeleton(emu_entity *e, emu_entity_model m, const uint8_t *skel);
/* Writes the weapon slot's attach MATRIX (+36); nothing when unarmed. */
void emu_entity_set_attach(emu_entity *e, const emu_matrix *attach);

/*
 * The pose routines on one model of the entity (its header is the Model
 * they take: the body's at entity +0x60, the weapon's at slot +0), at the
 * profile's addresses, the game's BuildBoneMatrices return patch lifted
 * for the call. BuildBoneMatrices rewrites the model's bone matrices;
 * ComputeBonesWorldMatrices runs under *base (placed in the entity page),
 * every bone's MATRIX after it is copied into world[0 .. bones) and the
 * skeleton is put back as it was before the call. cap smaller than the
 * bone count is refused before any call. Return 0 with *ret = EAX, or -1
 * with *fault (both files then restored as loaded, as after any fault).
 */
int emu_entity_build_matrices(emu_entity *e, emu_entity_model m, uint32_t *ret, emu_fault *fault);
int emu_entity_world_matrices(emu_entity *e, emu_entity_model m, const emu_matrix *base,
                              emu_matrix *world, size_t cap, uint32_t *ret, emu_fault *fault);

#endif
