/*
 * harness/gltf/gpose.h: the game's poses of one model file or one battle
 * entity (body + weapon), tick by tick, as the bone matrices the engine
 * leaves at bone+0x10 after each decoding call (POSE.md section 1): from
 * the original routines run under Unicorn (an emu_game opened with
 * keep_matrices, so that Battle_ReadAnimation rebuilds them itself, as the
 * game does), or from the reference engine under a pose convention.
 *
 * A keyframe is a call that decoded a frame (StartClip, then every
 * Battle_ReadAnimation before the end call that returns 1). Each clip
 * starts from the skeleton as loaded. A fault or a decoding error ends
 * that clip (its keyframes so far are kept, its note says why); the other
 * clips go on.
 *
 * What this module must not do: print, exit, or write files (glb_write.h
 * writes). The scene owns every array it holds.
 */
#ifndef FF8_HARNESS_GLTF_GPOSE_H
#define FF8_HARNESS_GLTF_GPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "emu/entity.h"
#include "emu/game.h"
#include "harness/core/modes.h"
#include "ref/dat.h"
#include "ref/pose.h"

/* Keyframes per second of the engine's battle animation clock. */
#define GPOSE_FPS 15
/* Calls after which a clip that never returned 1 is cut (a u8 total is at most 255). */
#define GPOSE_MAX_TICKS 600

/* One clip in one mode: bone matrices per keyframe. */
typedef struct gpose_clip {
    uint32_t clip;
    mode_id mode;
    size_t frames;  /* keyframes */
    ref_matrix *m;  /* frames * bones of the model, keyframe-major */
    char note[256]; /* "" or why the clip ended early (a fault, a decoding error) */
} gpose_clip;

/* One model: its skeleton's shape and its clips. */
typedef struct gpose_model {
    char name[128];  /* the file's name */
    unsigned bones;
    int16_t *parent; /* tree parent: -1 for a root or a parent that is not an earlier bone */
    int16_t *size;   /* bone size (skeleton bytes) */
    size_t nclips;
    gpose_clip *clips; /* in mode order, then clip order */
} gpose_model;

/* What a glTF scene holds: a model alone, or a body and its weapon. */
typedef struct gpose_scene {
    char name[300];
    unsigned nmodels;  /* 1, or 2: model[0] the body, model[1] the weapon */
    gpose_model model[2];
    ref_matrix attach; /* the weapon's base o attach (identity base): where the engine draws it */
} gpose_scene;

/* Where the poses come from. */
typedef enum gpose_source { GPOSE_ORIGINAL, GPOSE_REFERENCE } gpose_source;

/* Zeroes s. */
void gpose_scene_init(gpose_scene *s);
/* Frees what s holds and zeroes it. */
void gpose_scene_free(gpose_scene *s);

/*
 * The original's poses of dat (a model file) in every mode of modes (bit
 * i = mode_id i), on g, an engine opened with keep_matrices = 1 (with the
 * stub in place no matrix would change). Replaces g's loaded file. Fills s (one model).
 * Returns 0 (clips that faulted carry a note), or -1 with err when the
 * file cannot be loaded or memory runs out (s then freed).
 */
int gpose_orig_model(emu_game *g, const dat_file *dat, unsigned modes, gpose_scene *s,
                     ff_error *err);

/*
 * The original's poses of an entity: body and weapon (NULL: none) loaded
 * on e (whose game keeps its matrices), QueueAnimation then AdvanceBy1 up
 * to the body's end call, on the clips both models have; a keyframe per
 * call whose body result is 0, both models' matrices as they are after it.
 * attach (NULL: zero) is the slot's attach fields; o gives the trig and
 * step the attach matrix is built with (POSE.md section 5). Contract
 * otherwise as gpose_orig_model.
 */
int gpose_orig_entity(emu_entity *e, const dat_file *body, const dat_file *weapon,
                      const int16_t attach_rot[3], const int16_t attach_trans[3],
                      const ref_pose_opts *o, unsigned modes, gpose_scene *s, ff_error *err);

/* The same from the reference engine under convention o. */
int gpose_ref_model(const dat_file *dat, const ref_pose_opts *o, unsigned modes, gpose_scene *s,
                    ff_error *err);
int gpose_ref_entity(const dat_file *body, const dat_file *weapon, const int16_t attach_rot[3],
                     const int16_t attach_trans[3], const ref_pose_opts *o, unsigned modes,
                     gpose_scene *s, ff_error *err);

/* Keyframe k's matrix of bone b of a clip of model md. */
static inline const ref_matrix *gpose_at(const gpose_model *md, const gpose_clip *c, size_t k,
                                         unsigned b)
{
    return &c->m[k * md->bones + b];
}

/* The clip of md for (clip, mode); NULL when absent. */
const gpose_clip *gpose_find(const gpose_model *md, uint32_t clip, mode_id mode);

#endif
