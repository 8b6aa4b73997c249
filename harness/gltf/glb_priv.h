/*
 * harness/gltf/glb_priv.h: what the pieces of the .glb writer share: the
 * document under construction (glb_write.c: buffer views, accessors, the
 * container), the keyframes and animations (glb_anim.c), the joints and
 * their meshes (glb_mesh.c). Not for use outside harness/gltf/.
 */
#ifndef FF8_HARNESS_GLTF_GLB_PRIV_H
#define FF8_HARNESS_GLTF_GLB_PRIV_H

#include <cjson/cJSON.h>

#include "harness/core/strbuf.h"
#include "harness/gltf/gjson.h"
#include "harness/gltf/glb_write.h"
#include "harness/gltf/gmath.h"

#define GL_FLOAT 5126
#define GL_USHORT 5123
#define GL_ARRAY_BUFFER 34962
#define GL_ELEMENT_ARRAY_BUFFER 34963

/* The file under construction. Allocation failures of the JSON are in j, of the binary in bin. */
typedef struct glb_wr {
    const gpose_scene *s;
    gj j;
    strbuf bin;
    cJSON *views, *accessors;
    int nviews, naccessors;
    int node0[2];    /* node index of bone 0 of each model */
    int weapon_node;
    gm_trs *rest[2]; /* each joint's TRS at the first keyframe (float values) */
    int16_t *place[2]; /* each joint's node parent (glb_layout): its bone's parent, or -1
                        * (placed by its world transform under the model's node) */
    unsigned char *via[2]; /* 1: under its parent's un-scaling node (when place >= 0) */
    unsigned char *unscale[2]; /* 1: the joint's world is un-scaled for some child (glb_layout) */
    double (*rest_h[2])[3];    /* each un-scaling node's scale at rest */
    int *hnode[2];             /* each joint's un-scaling node's index, -1 (glb_add_joints) */
    unsigned nhelpers[2];      /* un-scaling nodes of each model */
    double (*rest_off[2])[3]; /* each joint's rest position in its bone parent's frame */
    unsigned world_joints[2]; /* non-root joints placed by their world transform */
    double (*carry[2])[3]; /* each joint's rest offset in its bone parent's engine frame */
    unsigned char *leaf[2]; /* 1: the joint has no child bone */
    double size;           /* the skeleton's size (glb_layout), the tolerance's unit */
    double tolerance;      /* the placement tolerance in game units (fraction x size) */
    int no_unscale;        /* glb_meta's: no un-scaling node */
    struct glb_clipkeys *keys; /* per clip index of model 0: its keyframes (glb_layout) */
} glb_wr;

/* One keyframe's TRS of one joint, as the file stores it. */
typedef struct glb_key {
    float t[3], q[4], s[3];
    float h[3]; /* the scale of the joint's un-scaling node (1 when it has none) */
} glb_key;

/* A clip's keyframes under the final layout and its errors (glb_anim_stats' three). */
typedef struct glb_clipkeys {
    glb_key *k[2]; /* frames x bones of each model, keyframe-major */
    double dec, pos, place;
} glb_clipkeys;

/* Pads the binary chunk to 4 bytes. */
void glb_align4(strbuf *b);
/* A buffer view of len bytes at off (target 0: none); its index. */
int glb_add_view(glb_wr *w, size_t off, size_t len, int target);
/* An accessor of view (min and max may be NULL); its index. */
int glb_add_accessor(glb_wr *w, int view, size_t off, int ctype, size_t count, const char *type,
                     int ncomp, const float *min, const float *max);

/* One keyframe's work space: every joint's world (engine's, file's), TRS, last quaternion. */
typedef struct glb_frame {
    gm_affine *engine[2]; /* engine world per bone (the weapon's under base o attach) */
    gm_affine *file[2];   /* world composed from the file's TRS */
    gm_trs *trs[2];       /* this keyframe's TRS */
    double *prevq[2];     /* previous keyframe's quaternions (4 per bone) */
    unsigned char *singular[2]; /* 1: the joint's node parent's world is singular here */
    double (*hs[2])[3];   /* each un-scaled joint's un-scaling scale (float values) */
    gm_affine *hw[2];     /* the world of each un-scaled joint's un-scaling node */
} glb_frame;

/* Room for s's joints: 0, or -1 when memory runs out (glb_frame_free frees what was made). */
int glb_frame_alloc(glb_frame *ws, const gpose_scene *s);
void glb_frame_free(glb_frame *ws);
/*
 * ws->trs for keyframe k of clip index ci of every model (first: no
 * previous keyframe); raises *dec and *pos to this keyframe's errors.
 */
void glb_keyframe(const glb_wr *w, glb_frame *ws, size_t ci, size_t k, int first, double *dec,
                  double *pos);
/*
 * 1 when joint b of model i hangs under its parent's un-scaling node: a
 * child node of the parent's whose scale is the inverse of the column
 * lengths of the parent's world as the file composes it, so that its world
 * is the parent's rotation and translation alone (glb_layout.c).
 */
int glb_under_unscale(const glb_wr *w, unsigned i, unsigned b);
/* 1 when joint b of model i has an un-scaling node (a child of its hangs under it). */
int glb_has_unscale(const glb_wr *w, unsigned i, unsigned b);

/* The animation of clip index ci (its keys from glb_layout): data, accessors and JSON into
 * anims. -1: memory. */
int glb_add_anim(glb_wr *w, size_t ci, cJSON *anims, glb_anim_stats *st);

/*
 * The joint layout and the keyframes (glb_layout.c): each joint's node
 * parent into w->place, each clip's TRS into w->keys. A joint hangs under
 * its bone's parent unless, on some keyframe of some clip, the file's
 * composition of it misplaces the joint or a point that hangs on it (a
 * child at its rest offset, a leaf's tip) by more than w->tolerance, or
 * its parent's world as the file composes it is singular: then it hangs
 * under its parent's un-scaling node (w->via), and where that fails too it
 * is placed by its world transform. Every keyframe is decomposed under the
 * layout being decided; a pass that moved a joint is followed by another,
 * until one moves none: its TRS are the file's. tolerance is a fraction of
 * the skeleton's size (0: GLB_JOINT_TOLERANCE). -1: memory.
 */
int glb_layout(glb_wr *w, glb_frame *ws, double tolerance);
/* Frees what glb_layout allocated. */
void glb_layout_free(glb_wr *w);
/*
 * The largest distance, over model i's joints on this keyframe, between
 * where the file's worlds (ws->file) and the engine's (ws->engine) put a
 * joint and the points that hang on it; per joint into err (room for the
 * model's bones).
 */
double glb_placement_error(const glb_wr *w, const glb_frame *ws, unsigned i, double *err);
/* The engine's worlds of model i at keyframe k of clip index ci into ws->engine[i]. */
void glb_engine_worlds(const gpose_scene *s, glb_frame *ws, unsigned i, size_t ci, size_t k);

/* The rest TRS (first keyframe of the first clip that has one) and the skeleton's size. */
int glb_rest_pose(glb_wr *w, glb_frame *ws, double *size);
/* The joint nodes of model i with their meshes, its roots under parent_kids. -1: memory. */
int glb_add_joints(glb_wr *w, cJSON *nodes, cJSON *meshes, cJSON *parent_kids, unsigned i,
                   double size);

#endif
