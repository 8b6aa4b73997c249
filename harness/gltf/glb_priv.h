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
    double (*rest_off[2])[3]; /* each joint's rest position in its bone parent's frame */
    unsigned world_joints[2]; /* non-root joints placed by their world transform */
} glb_wr;

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
/* The animation of clip index ci: its data, accessors and JSON into anims. -1: memory. */
int glb_add_anim(glb_wr *w, glb_frame *ws, size_t ci, cJSON *anims, glb_anim_stats *st);

/*
 * The joint layout (glb_layout.c): each joint's node parent into w->place.
 * A joint hangs under its bone's parent unless, on some keyframe of some
 * clip, its matrix relative to the parent's is not R.S (gm_shear above
 * GLB_SHEAR_MAX: a scale under a rotation, the scale path's stack) while
 * its world matrix on that keyframe is nearer R.S, or the parent's matrix is singular or
 * its condition number passes GLB_COND_MAX (float values composed under
 * it would misplace the joint): then it is placed by its world transform.
 * Uses ws's engine worlds as scratch. -1: memory.
 */
#define GLB_SHEAR_MAX 1e-3
#define GLB_COND_MAX 1e3
int glb_layout(glb_wr *w, glb_frame *ws);
/* The engine's worlds of model i at keyframe k of clip index ci into ws->engine[i]. */
void glb_engine_worlds(const gpose_scene *s, glb_frame *ws, unsigned i, size_t ci, size_t k);

/* The rest TRS (first keyframe of the first clip that has one) and the skeleton's size. */
int glb_rest_pose(glb_wr *w, glb_frame *ws, double *size);
/* The joint nodes of model i with their meshes, its roots under parent_kids. -1: memory. */
int glb_add_joints(glb_wr *w, cJSON *nodes, cJSON *meshes, cJSON *parent_kids, unsigned i,
                   double size);

#endif
