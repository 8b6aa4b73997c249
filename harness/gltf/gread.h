/*
 * harness/gltf/gread.h: a viewer's export (.glb, .gltf, or any format
 * Assimp reads) as a node tree with animations, and the world transform
 * of every node at any time of an animation (keys interpolated as glTF's
 * LINEAR: lerp for translation and scale, shortest-arc slerp for rotation).
 *
 * The file is read by Assimp (libassimp), never parsed here; a file
 * Assimp refuses is an FF_E_FORMAT error carrying Assimp's reason. What
 * this module must not do: print, exit, write.
 */
#ifndef FF8_HARNESS_GLTF_GREAD_H
#define FF8_HARNESS_GLTF_GREAD_H

#include <stddef.h>

#include "common/error.h"
#include "harness/gltf/gmath.h"

/* Largest file read (bytes). */
#define GVIEW_MAX_FILE (512u << 20)

typedef struct gview_node {
    char name[128];
    int parent;    /* index of the parent node, -1 for the root */
    gm_affine rest; /* the node's local transform when no channel drives it */
    gm_trs rest_trs; /* the same decomposed: the parts a channel leaves alone */
} gview_node;

/* One node's keys in one animation: time (seconds) then the values. */
typedef struct gview_chan {
    int node;
    size_t npos, nrot, nscl;
    double *pos; /* npos x (t, x, y, z) */
    double *rot; /* nrot x (t, x, y, z, w) */
    double *scl; /* nscl x (t, x, y, z) */
} gview_chan;

typedef struct gview_anim {
    char name[128];
    size_t nch;
    gview_chan *ch;
    size_t ntimes;
    double *times; /* every distinct key time, sorted, in seconds */
} gview_anim;

typedef struct gview {
    size_t nnodes;
    gview_node *nodes; /* parents before children */
    size_t nanims;
    gview_anim *anims;
} gview;

/*
 * Reads path. Refuses (FF_E_IO) what is not a regular file or is larger
 * than GVIEW_MAX_FILE, (FF_E_FORMAT) what Assimp cannot read or a file
 * with no node tree. *out is new (gview_free); zeroed on failure.
 */
int gview_load(const char *path, gview *out, ff_error *err);
void gview_free(gview *v);

/* 1 when node n is driven by a channel of animation a. */
int gview_animated(const gview *v, size_t a, size_t n);

/*
 * The world transform of every node (v->nnodes entries in world) at time t
 * (seconds) of animation a; a node without a channel keeps its rest
 * transform, a channel with no key of a kind keeps the rest's part.
 */
void gview_pose(const gview *v, size_t a, double t, gm_affine *world);

#endif
