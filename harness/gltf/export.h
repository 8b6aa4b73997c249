/*
 * harness/gltf/export.h: `export` as a library: every model file of a
 * corpus as a .glb of the game's poses (gpose.h, glb_write.h), and every
 * armed entity (a body with a weapon, corpus/pairs.h) as one more .glb
 * holding both skeletons in lockstep.
 *
 * The original's poses are not driven here: an export of the original is
 * a consumer of a run of the frame and pose levels (harness/run/run.h's
 * sink), so that it gets what that run has (identical clips emulated once,
 * the pose memo, the results cache, the workers). Each clip's states become
 * keyframes of its model; when every mode of a model file has come, its
 * .glb is written on the worker's thread, and so is each entity's whose two
 * models are complete (gpose_entity_compose). The reference's poses
 * (gexport_reference) need no run: they are made here by `jobs` threads.
 * Results land at fixed indexes, the same for any number of jobs.
 *
 * What this module must not do: print or exit. It writes only the .glb
 * files, into the output folder, each through a new temporary file renamed
 * into place.
 */
#ifndef FF8_HARNESS_GLTF_EXPORT_H
#define FF8_HARNESS_GLTF_EXPORT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "emu/engine/game.h"
#include "harness/gltf/glb_write.h"
#include "harness/gltf/gpose.h"
#include "harness/run/run.h"
#include "ref/pose.h"

/* What happened to one output. */
typedef enum gexport_status { GEXPORT_DONE, GEXPORT_SKIPPED, GEXPORT_FAILED, GEXPORT_NOT_RUN } gexport_status;

typedef struct gexport_item {
    char name[300];   /* the model file, or "BODY+WEAPON" */
    char output[320]; /* the .glb's file name in out_dir ("" when none) */
    size_t body, weapon; /* corpus entry indexes; weapon SIZE_MAX: a model alone */
    size_t body_item, weapon_item; /* an entity's two models' items (SIZE_MAX: a model alone) */
    gexport_status status;
    ff_error err;     /* GEXPORT_FAILED: why; GEXPORT_SKIPPED: the reason (kind OK) */
    size_t animations, keyframes, clips_cut;
    double decomposition_error, position_error;
    double placement_error, tolerance; /* glb_stats': the layout's measure and its bound */
    unsigned joints, world_joints; /* joints; those placed by their world transform */
    unsigned unscaled_joints;      /* joints under their parent's un-scaling node */
    char layout[16];  /* the joint layout (glb_stats.layout), "" when none was written */
    char note[256];   /* the first clip note ("" when none) */
} gexport_item;

typedef struct gexport_result {
    size_t n;
    gexport_item *items; /* model files in corpus order, then the armed entities */
    int interrupted;
} gexport_result;

/*
 * What is done with a finished scene. NULL: its .glb is written into
 * out_dir. Otherwise called instead (on a worker's thread, one call at a
 * time per item), s valid during the call only. Returns 0, or -1 with err
 * to stop the export.
 */
typedef int (*gexport_scene_fn)(void *arg, gexport_item *it, const gpose_scene *s, ff_error *err);

typedef struct gexport_config {
    const char *corpus_path;
    const char *out_dir;      /* must exist and be writable (unless scene is set) */
    gpose_source source;
    ref_pose_opts pose;       /* the reference's convention; an export of the original
                               * takes the run's (attach matrices' trig and step) */
    unsigned modes;           /* bit i = mode_id i */
    int entities;             /* also the armed entities (1), or model files alone (0) */
    unsigned jobs;            /* gexport_reference: 0 one per online core */
    glb_meta meta;
    volatile sig_atomic_t *cancel; /* gexport_reference: set to stop early (may be NULL) */
    gexport_scene_fn scene;
    void *scene_arg;
    const char *corpus_lang;  /* the language of an install or main.zzz (NULL: default) */
} gexport_config;

void gexport_result_free(gexport_result *r);

/*
 * The reference engine's export. Returns 0 when it ran (items may have
 * failed: bad input files are items, never a stop), or -1 with err when it
 * could not start (corpus unreadable, memory) or an output cannot be
 * written. *out is new (gexport_result_free), also after a failure.
 */
int gexport_reference(const gexport_config *cfg, gexport_result *out, ff_error *err);

/* ---- the original's export, as a run's sink (export_sink.c) ---- */

typedef struct gexport gexport;

/*
 * Plans the export of cfg's corpus (reads each file once for its kind and
 * clip count, pairs bodies with weapons): *out is new, to hand to a run
 * through gexport_sink. cfg must outlive it. Returns 0, or -1 with err when
 * the corpus cannot be read or memory runs out.
 */
int gexport_open(const gexport_config *cfg, gexport **out, ff_error *err);
/* The sink to set as run_config.sink (frame and pose levels, cfg's modes). Valid until close. */
const run_sink *gexport_sink(gexport *x);
/*
 * After the run: the items into *out (new; gexport_result_free). Items the
 * run never completed (interrupted, a unit cut short) stay GEXPORT_NOT_RUN,
 * or GEXPORT_FAILED with the reason their file could not be read again.
 * Frees x.
 */
void gexport_close(gexport *x, int interrupted, gexport_result *out);

/*
 * The original's poses of the one model file dat_path, through a run of the
 * frame and pose levels on image in modes on the engine of engine (NULL:
 * the default; no cache, one job): into *out
 * (new). pose is the reference's convention for that run (its comparison
 * is not looked at). Returns 0, or -1 with err (the file is bad input, the
 * engine cannot start, memory); a clip cut by a fault carries its note.
 */
int gexport_model_poses(const emu_image *image, const emu_ops *engine, const char *dat_path,
                        unsigned modes, const ref_pose_opts *pose, uint64_t budget,
                        gpose_scene *out, ff_error *err);

#endif
