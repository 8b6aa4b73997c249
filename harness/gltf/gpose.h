/*
 * harness/gltf/gpose.h: the game's poses of one model file or one battle
 * entity (body + weapon), tick by tick, as the bone matrices the engine
 * leaves at bone+0x10 after each decoding call (docs/pose.md section 1). The
 * original's come from a run of the frame and pose levels
 * (harness/gltf/export.h takes them from the run's sink); the reference's
 * are made here, under a pose convention.
 *
 * A keyframe is a call that decoded a frame (StartClip, then every
 * Battle_ReadAnimation before the end call that returns 1). Each clip
 * starts from the skeleton as loaded. A fault or a decoding error ends
 * that clip (its keyframes so far are kept, its note says why); the other
 * clips go on.
 *
 * An entity's scene is its two models in lockstep (docs/pose.md section 5): a
 * keyframe per call whose body result is 0, the weapon's pose beside it
 * as it is after that call (after its own end, its last).
 *
 * What this module must not do: print, exit, or write files (glb_write.h
 * writes). The scene owns every array it holds.
 */
#ifndef FF8_HARNESS_GLTF_GPOSE_H
#define FF8_HARNESS_GLTF_GPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "harness/core/modes.h"
#include "harness/run/refside.h"
#include "ref/dat.h"
#include "ref/pose.h"

/* Keyframes per second of the engine's battle animation clock. */
#define GPOSE_FPS 15
/* Calls after which a clip that never returned 1 is cut: the run's bound. */
#define GPOSE_MAX_TICKS REFSIDE_MAX_TICKS

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
 * The shape of dat's skeleton (name, bones, parents, sizes) into md, with
 * room for nclips clips (zeroed). Returns 0, or -1 with err when memory
 * runs out (md then holds what was allocated: gpose_scene_free frees it).
 */
int gpose_model_init(gpose_model *md, const dat_file *dat, size_t nclips, ff_error *err);

/* A deep copy of src into dst. Returns 0, or -1 with err (dst then empty). */
int gpose_scene_copy(gpose_scene *dst, const gpose_scene *src, ff_error *err);

/*
 * The scene of an armed entity from its two models' own poses, composed as
 * the engine's lockstep runs them (docs/pose.md section 5): for every (clip,
 * mode) both have, the body's keyframes, and beside each the weapon's
 * keyframe of the same call or, past the weapon's end, its last; a weapon
 * clip cut short by a fault or an error cuts the entity's clip there.
 * attach is the weapon's base o attach. Returns 0, or -1 with err (s then
 * empty).
 */
int gpose_entity_compose(const gpose_model *body, const gpose_model *weapon,
                         const ref_matrix *attach, gpose_scene *s, ff_error *err);

/* The reference engine's poses under convention o (QueueAnimation and AdvanceBy1 for an
 * entity; weapon NULL: a model alone). Returns 0, or -1 with err (s then empty). */
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
