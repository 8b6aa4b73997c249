/*
 * harness/gltf/export.h: `export` as a library: every model file of a
 * corpus as a .glb of the game's poses (gpose.h, glb_write.h), and every
 * armed entity (a body with a weapon, corpus/pairs.h) as one more .glb
 * holding both skeletons in lockstep. Work is shared by `jobs` threads, one
 * Unicorn engine each; results land at fixed indexes (the same for any
 * number of jobs).
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
#include "emu/game.h"
#include "harness/gltf/glb_write.h"
#include "harness/gltf/gpose.h"
#include "ref/pose.h"

typedef struct gexport_config {
    const char *corpus_path;
    const char *out_dir;      /* must exist and be writable */
    const emu_image *image;   /* the original; needed for GPOSE_ORIGINAL */
    gpose_source source;
    ref_pose_opts pose;       /* the reference's convention; also the attach matrix's trig and step */
    unsigned modes;           /* bit i = mode_id i */
    unsigned jobs;            /* 0: one per online core */
    uint64_t budget;          /* instructions per emulated call; 0: default */
    glb_meta meta;
    volatile sig_atomic_t *cancel; /* set by the caller to stop early (may be NULL) */
} gexport_config;

/* What happened to one output. */
typedef enum gexport_status { GEXPORT_DONE, GEXPORT_SKIPPED, GEXPORT_FAILED, GEXPORT_NOT_RUN } gexport_status;

typedef struct gexport_item {
    char name[300];   /* the model file, or "BODY+WEAPON" */
    char output[320]; /* the .glb's file name in out_dir ("" when none) */
    size_t body, weapon; /* corpus entry indexes; weapon SIZE_MAX: a model alone */
    gexport_status status;
    ff_error err;     /* GEXPORT_FAILED: why; GEXPORT_SKIPPED: the reason (kind OK) */
    size_t animations, keyframes, clips_cut;
    double decomposition_error, position_error;
    char note[256];   /* the first clip note ("" when none) */
} gexport_item;

typedef struct gexport_result {
    size_t n;
    gexport_item *items; /* model files in corpus order, then the armed entities */
    int interrupted;
} gexport_result;

/*
 * Runs the export. Returns 0 when it ran (items may have failed: bad input
 * files are items, never a stop), or -1 with err when it could not start
 * (corpus unreadable, engine cannot start, memory). *out is new
 * (gexport_result_free), also after a failure.
 */
int gexport_run(const gexport_config *cfg, gexport_result *out, ff_error *err);
void gexport_result_free(gexport_result *r);

#endif
