/*
 * emu/game.h: the original engine's animation routines, run under Unicorn
 * on guest memory laid out as the game lays it out. This is the only face
 * of emu/ the harness uses.
 *
 * An emu_image is a validated PE32 plus its profile: read-only after load,
 * shared by every worker thread. An emu_game is one Unicorn engine with the
 * image mapped, a stack, the Field_Alloc scratch and the game structures
 * (Model, Files, AnimCmd, Cursor) placed in guest memory: one per thread,
 * never shared. Nothing here prints or exits; a fault in emulated code is a
 * returned emu_fault and the engine stays usable for the next call.
 */
#ifndef FF8_EMU_GAME_H
#define FF8_EMU_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "emu/emu.h"
#include "emu/fault.h"
#include "emu/profile.h"
#include "common/error.h"

typedef struct emu_image emu_image;
typedef struct emu_game emu_game;

/*
 * Loads the executable at path and checks it against profile (hash, then
 * fingerprints). On success *out is a new image; *warning (when not NULL)
 * receives "" or a sentence for an unknown build whose fingerprints hold.
 * A build the profile refuses fails with FF_E_EXE and the reason.
 */
int emu_image_load(const char *path, const emu_profile *profile, emu_image **out,
                   char *warning, size_t warning_size, ff_error *err);
void emu_image_free(emu_image *img);
/* SHA-256 of the executable, lowercase hex (65 bytes with NUL). */
const char *emu_image_sha256(const emu_image *img);
const emu_profile *emu_image_profile(const emu_image *img);

typedef struct emu_game_opts {
    int keep_matrices; /* 0: BuildBoneMatrices is replaced by a plain return */
    uint64_t budget;   /* instructions per call before a BUDGET fault; 0: default */
} emu_game_opts;

/* A new engine for this thread. img must outlive it. */
int emu_game_open(const emu_image *img, const emu_game_opts *opts, emu_game **out,
                  ff_error *err);
void emu_game_close(emu_game *g);

/*
 * Places a whole .dat file contiguously in guest memory followed by a
 * zeroed guard page, with Files {skeleton, geometry, animation} pointing at
 * sections 0, 1 and 2 and a Model header pointing at Files. Replaces the
 * previous file. Fails (FF_E_RANGE) when the file is larger than the guest
 * area, (FF_E_EMU) when Unicorn refuses to map it or to unmap the previous
 * one; after any failure no file is loaded.
 */
int emu_game_load_file(emu_game *g, const uint8_t *data, size_t size, uint32_t skel_off,
                       uint32_t geom_off, uint32_t anim_off, ff_error *err);
/* Restores the skeleton section's bytes as loaded from the file. */
void emu_game_reset_skeleton(emu_game *g);

/*
 * Sets AnimCmd flags to `flags` (other bytes zero), calls StartClip(m, cmd,
 * clip). Returns 0 with *ret = EAX, or -1 with *fault filled.
 */
int emu_game_start_clip(emu_game *g, uint8_t flags, int16_t clip, uint32_t *ret,
                        emu_fault *fault);
/* Calls Battle_ReadAnimation(m, cmd) once. */
int emu_game_read_animation(emu_game *g, uint32_t *ret, emu_fault *fault);

/* Host views of the guest state, valid until the next load_file or close. */
const uint8_t *emu_game_cmd(const emu_game *g);      /* 8 bytes */
const uint8_t *emu_game_skeleton(const emu_game *g); /* the skeleton section */

/*
 * One past the furthest file byte the last call's Cursor (in the Field_Alloc
 * scratch) reached, plus the 2 bytes a 3-byte load may touch; relative to
 * the start of the file.
 */
uint64_t emu_game_cursor_extent(const emu_game *g);

/* Instructions the last call executed (counted by the engine's block hook). */
uint64_t emu_game_last_insns(const emu_game *g);

/* Where a field lives in guest memory, for emu_game_find_writer. */
typedef enum emu_game_area { EMU_GAME_CMD, EMU_GAME_SKELETON } emu_game_area;

/*
 * Replays clip (StartClip with flags, then Battle_ReadAnimation) on the
 * loaded file from its skeleton as loaded, up to call number tick (0 is
 * StartClip), with a write watch on size bytes at offset of the AnimCmd or
 * of the skeleton section armed for that call only, and fills *w with the
 * last instruction that wrote there (w->writes == 0: that call did not
 * write there). Returns 0; -1 with *fault when a call faults, or with err
 * when the range is outside its area or the clip ends before tick.
 */
int emu_game_find_writer(emu_game *g, uint8_t flags, int16_t clip, size_t tick,
                         emu_game_area area, uint32_t offset, uint32_t size, emu_writer *w,
                         emu_fault *fault, ff_error *err);

/*
 * For other modules of emu/ that lay their own structures on a game's
 * engine (emu/entity.c), not for the harness: the engine and the image.
 */
emu *emu_game_engine(emu_game *g);
const emu_image *emu_game_image(const emu_game *g);

/* Leaf routines, on a buffer of len bytes placed in guest memory. */
typedef enum emu_leaf {
    EMU_LEAF_BITREADER,
    EMU_LEAF_POSITION,
    EMU_LEAF_ROTATION,
    EMU_LEAF_SCALE
} emu_leaf;

/*
 * Calls one leaf routine with a Cursor at (buf + pos, bit); for the
 * bitReader n is its second argument. Returns 0 with *ax = low 16 bits of
 * EAX and the Cursor after the call (pos relative to buf), or -1 on fault.
 */
int emu_game_leaf(emu_game *g, emu_leaf leaf, const uint8_t *buf, size_t len, int64_t pos,
                  int32_t bit, int16_t n, int16_t *ax, int64_t *pos_after, int32_t *bit_after,
                  emu_fault *fault);

#endif
