/*
 * harness/gltf/glb_write.h: a gpose_scene as one binary glTF 2.0 file
 * (.glb): a node per bone (named "bone_007", or "body_bone_007" /
 * "weapon_bone_007" in a body + weapon scene) in the skeleton's hierarchy
 * under one scene root, the weapon's under a "weapon" node, its roots'
 * transforms composed with base o attach (the engine's matrices as it
 * draws the weapon); one animation per clip and mode ("clip_003",
 * "clip_003_slow", ...) with a keyframe per tick at GPOSE_FPS and a
 * translation, rotation and scale channel per joint (LINEAR); and on every
 * joint a small mesh of its own: a bone shape toward each child, or a
 * diamond for a leaf. No geometry of the game.
 *
 * A joint's node hangs under its bone parent's, with its transform relative
 * to the parent's as a TRS (gmath.h), wherever a viewer composing the
 * file's TRS puts the joint and what hangs on it (its children at their
 * rest offsets, a leaf's tip) within a position tolerance of the engine on
 * every keyframe; where a scale under a rotation (the scale path's stack)
 * keeps it from that, under its parent's un-scaling node (a node of the
 * parent's whose animated scale cancels the parent's: GLB_UNSCALE_SUFFIX),
 * and where that fails too (a singular parent) under the model's node with
 * its world TRS (glb_priv.h's glb_layout). The tolerance is a fraction of the skeleton's
 * size (glb_meta.joint_tolerance, default GLB_JOINT_TOLERANCE). The file's
 * asset.extras say which layout ("joint_layout": hierarchy, world or mixed;
 * "joints_placed_by_world"; "joint_tolerance"), each node's extras how it
 * is placed. A transform relative to a parent is taken against the
 * parent's world as the file composes it, so that every joint's position
 * is the engine's within float precision whatever the approximations above
 * it. How far each clip's decomposition is off is measured three times:
 * the largest cell difference of a local 3x3 part against R.S, the largest
 * distance between a joint's world position composed from the file's float
 * TRS values and the engine's, and the largest such distance over the
 * joints and the points that hang on them (the tolerance's measure); all
 * go into the animation's "extras" and into the stats.
 *
 * Everything derived from the matrices is a pure function of them: two
 * scenes whose matrices are equal give byte-identical animation data, and
 * a clip's animation data depends only on its own matrices and on the
 * layout (which joints hang under an un-scaling node, which the file
 * places by their world transform).
 * What this module must not do: print, exit, write files.
 */
#ifndef FF8_HARNESS_GLTF_GLB_WRITE_H
#define FF8_HARNESS_GLTF_GLB_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "harness/gltf/gpose.h"

/* What the file says about where it came from (strings may be NULL). */
typedef struct glb_meta {
    const char *source;  /* "original" or "reference" */
    const char *exe;     /* executable SHA-256 */
    const char *profile; /* profile name */
    const char *pose;    /* the reference's convention (text form), or NULL */
    const char *pose_source; /* where that convention came from, in words, or NULL */
    double joint_tolerance;  /* the layout's tolerance, a fraction of the skeleton's size
                              * (0: GLB_JOINT_TOLERANCE) */
    int no_unscale; /* 1: no un-scaling node: a joint no TRS holds under its parent itself
                     * is placed by its world transform */
} glb_meta;

/*
 * The default placement tolerance: a thousandth of the skeleton's size (the
 * diagonal of the box holding the model's origin and its joints at rest),
 * check-gltf's default tolerance too.
 */
#define GLB_JOINT_TOLERANCE 1e-3

/*
 * The suffix of an un-scaling node's name (after its joint's: bone_007_unscale):
 * a node under a joint, no joint itself, whose scale (animated) is the inverse
 * of the column lengths of the joint's world, so that the joints under it
 * compose from the joint's rotation and translation alone. check-gltf leaves
 * such nodes out of the viewer's joints.
 */
#define GLB_UNSCALE_SUFFIX "_unscale"

/* One animation of the file. */
typedef struct glb_anim_stats {
    uint32_t clip;
    mode_id mode;
    size_t frames;
    double decomposition_error; /* largest |local 3x3 - R.S| cell */
    double position_error;      /* largest world-position distance, in the game's units */
    double placement_error;     /* the same over joints and the points hanging on them */
    size_t data_offset, data_len; /* the animation's bytes in the binary chunk's data */
} glb_anim_stats;

typedef struct glb_stats {
    size_t nanims;
    glb_anim_stats *anims; /* in the file's animation order */
    double decomposition_error, position_error, placement_error; /* largest of all */
    double skeleton_size, tolerance; /* the tolerance's unit and the tolerance, game units */
    size_t keyframes;
    unsigned joints, world_joints; /* joints, and those placed by their world transform */
    unsigned unscaled_joints; /* joints under their parent's un-scaling node */
    char layout[16];   /* "hierarchy", "world" or "mixed" (asset.extras.joint_layout) */
    size_t bin_offset; /* where the binary chunk's data starts in the file */
} glb_stats;

/*
 * The .glb of s into *out (malloc'd, *len bytes). Clips without keyframes
 * get no animation. st (may be NULL) receives the stats (glb_stats_free).
 * Returns 0, or -1 with err (FF_E_NOMEM; FF_E_RANGE when the file would
 * pass 4 GiB).
 */
int glb_build(const gpose_scene *s, const glb_meta *meta, uint8_t **out, size_t *len,
              glb_stats *st, ff_error *err);
void glb_stats_free(glb_stats *st);

/* The name of bone b of model i of s ("bone_007", "body_bone_007", ...), into buf. */
void glb_joint_name(const gpose_scene *s, unsigned i, unsigned b, char *buf, size_t n);
/* The name of a clip's animation ("clip_003", "clip_003_slow"), into buf. */
void glb_anim_name(uint32_t clip, mode_id mode, char *buf, size_t n);

#endif
