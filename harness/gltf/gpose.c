/*
 * harness/gltf/gpose.c: scenes of poses (gpose.h): their models, copies,
 * the lockstep composition of an entity's two models, and the reference
 * engine's poses tick by tick (ref_anim, ref_entity) through one loop over
 * (mode, clip, tick).
 */
#include "harness/gltf/gpose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "harness/run/pose_side.h"
#include "harness/run/refside.h"
#include "ref/engine.h"
#include "common/path.h"

void gpose_scene_init(gpose_scene *s)
{
    memset(s, 0, sizeof *s);
}

void gpose_scene_free(gpose_scene *s)
{
    for (unsigned i = 0; i < 2; i++) {
        gpose_model *md = &s->model[i];
        for (size_t c = 0; c < md->nclips; c++) free(md->clips[c].m);
        free(md->clips);
        free(md->parent);
        free(md->size);
    }
    memset(s, 0, sizeof *s);
}

const gpose_clip *gpose_find(const gpose_model *md, uint32_t clip, mode_id mode)
{
    for (size_t i = 0; i < md->nclips; i++)
        if (md->clips[i].clip == clip && md->clips[i].mode == mode) return &md->clips[i];
    return NULL;
}

int gpose_model_init(gpose_model *md, const dat_file *dat, size_t nclips, ff_error *err)
{
    snprintf(md->name, sizeof md->name, "%s", path_base(dat->name ? dat->name : ""));
    md->bones = dat->bones;
    md->parent = malloc((md->bones ? md->bones : 1) * sizeof *md->parent);
    md->size = malloc((md->bones ? md->bones : 1) * sizeof *md->size);
    md->clips = calloc(nclips ? nclips : 1, sizeof *md->clips);
    if (!md->parent || !md->size || !md->clips)
        return ff_error_set(err, FF_E_NOMEM, dat->name, -1, "out of memory");
    const uint8_t *skel = dat->data + dat->skel_off;
    for (unsigned b = 0; b < md->bones; b++) {
        const uint8_t *bone = skel + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE;
        int p = le_s16(bone + DAT_BONE_PARENT);
        md->parent[b] = (int16_t)(p >= 0 && (unsigned)p < b ? p : -1);
        md->size[b] = le_s16(bone + DAT_BONE_LENGTH);
    }
    return 0;
}

/* Appends the matrices of skel (bones bones) as keyframe c->frames. */
static int push(gpose_clip *c, size_t *cap, const uint8_t *skel, unsigned bones, ff_error *err)
{
    if (c->frames == *cap) {
        size_t n = *cap ? *cap * 2 : 64;
        ref_matrix *m = realloc(c->m, n * (bones ? bones : 1) * sizeof *m);
        if (!m) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for poses");
        c->m = m;
        *cap = n;
    }
    for (unsigned b = 0; b < bones; b++) ref_pose_bone_load(skel, b, &c->m[c->frames * bones + b]);
    c->frames++;
    return 0;
}

/* One side: start a clip, advance it; skeletons of its models after the call. */
typedef struct side {
    void *self;
    /* 0 with *ret, 1 when the clip ended on a fault or error (note filled), -1 fatal (err) */
    int (*start)(void *self, uint8_t flags, uint32_t clip, int *ret, char *note, size_t n,
                 ff_error *err);
    int (*next)(void *self, int *ret, char *note, size_t n, ff_error *err);
    const uint8_t *(*skel)(void *self, unsigned model);
} side;

/* Every (mode, clip) of modes and clips on side sd, into s's nmodels models. */
static int collect(const side *sd, gpose_scene *s, unsigned modes, uint32_t clips, ff_error *err)
{
    for (int mo = 0; mo < MODE__COUNT; mo++) {
        if (!(modes & 1u << mo)) continue;
        for (uint32_t k = 0; k < clips && k <= REFSIDE_MAX_CLIP; k++) {
            size_t cap[2] = {0, 0};
            gpose_clip *c[2];
            for (unsigned i = 0; i < s->nmodels; i++) {
                gpose_model *md = &s->model[i];
                c[i] = &md->clips[md->nclips++];
                c[i]->clip = k;
                c[i]->mode = (mode_id)mo;
            }
            int ret = 0;
            int rc = sd->start(sd->self, mode_flags((mode_id)mo), k, &ret, c[0]->note,
                               sizeof c[0]->note, err);
            for (size_t t = 0; rc == 0 && ret == 0; t++) {
                if (t >= GPOSE_MAX_TICKS) {
                    snprintf(c[0]->note, sizeof c[0]->note, "never returned 1 after %d calls",
                             GPOSE_MAX_TICKS);
                    break;
                }
                for (unsigned i = 0; i < s->nmodels && rc == 0; i++)
                    if (push(c[i], &cap[i], sd->skel(sd->self, i), s->model[i].bones, err) < 0)
                        rc = -1;
                if (rc == 0) rc = sd->next(sd->self, &ret, c[0]->note, sizeof c[0]->note, err);
            }
            if (rc < 0) return -1;
            if (s->nmodels == 2) memcpy(c[1]->note, c[0]->note, sizeof c[1]->note);
        }
    }
    return 0;
}

/* The scene's models and attach matrix for an entity. */
static int entity_init(gpose_scene *s, const dat_file *body, const dat_file *weapon,
                       const int16_t rot[3], const int16_t trans[3], const ref_pose_opts *o,
                       uint32_t *clips, ff_error *err)
{
    static const int16_t zero[3] = {0, 0, 0};
    gpose_scene_init(s);
    s->nmodels = weapon ? 2 : 1;
    *clips = body->clips;
    if (weapon && weapon->clips < *clips) *clips = weapon->clips;
    pose_attach_matrix(o, rot ? rot : zero, trans ? trans : zero, &s->attach);
    if (gpose_model_init(&s->model[0], body, (size_t)*clips * MODE__COUNT, err) < 0) return -1;
    if (weapon && gpose_model_init(&s->model[1], weapon, (size_t)*clips * MODE__COUNT, err) < 0)
        return -1;
    snprintf(s->name, sizeof s->name, "%.140s%s%.140s", s->model[0].name, weapon ? "+" : "",
             weapon ? s->model[1].name : "");
    return 0;
}

/* ---- the reference ---- */

typedef struct ref_side {
    ref_anim a[2];
    uint8_t *skel[2];
    ref_entity ent;
} ref_side;

static int ref_note(const ff_error *e, char *note, size_t n)
{
    snprintf(note, n, "the reference stopped: %s", e->reason);
    return 1;
}

static int r_start(void *self, uint8_t flags, uint32_t clip, int *ret, char *note, size_t n,
                   ff_error *err)
{
    (void)err;
    ref_side *r = self;
    ff_error e;
    ff_error_clear(&e);
    for (int i = 0; i < 2; i++) {
        if (!r->skel[i]) continue;
        ref_anim_reset_skeleton(&r->a[i]);
        memset(&r->a[i].cmd, 0, sizeof r->a[i].cmd);
        r->a[i].cmd.flags = flags;
    }
    if (ref_queue_animation(&r->ent, (int16_t)clip, ret, &e) < 0) return ref_note(&e, note, n);
    return 0;
}
static int r_next(void *self, int *ret, char *note, size_t n, ff_error *err)
{
    (void)err;
    ref_side *r = self;
    ff_error e;
    ff_error_clear(&e);
    if (ref_advance_by1(&r->ent, ret, &e) < 0) return ref_note(&e, note, n);
    return 0;
}
static const uint8_t *r_skel(void *self, unsigned model)
{
    ref_side *r = self;
    return r->skel[model];
}

static int ref_run(const dat_file *body, const dat_file *weapon, const ref_pose_opts *o,
                   unsigned modes, uint32_t clips, gpose_scene *s, ff_error *err)
{
    ref_side r;
    memset(&r, 0, sizeof r);
    const dat_file *d[2] = {body, weapon};
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0 && d[i]; i++) {
        size_t len = ref_skel_size(d[i]);
        if (!(r.skel[i] = malloc(len ? len : 1)))
            rc = ff_error_set(err, FF_E_NOMEM, d[i]->name, -1, "out of memory");
        else if (ref_anim_init(&r.a[i], d[i], r.skel[i], len, err) < 0)
            rc = -1;
        else
            r.a[i].pose = o;
    }
    r.ent.body = &r.a[0];
    r.ent.weapon = weapon ? &r.a[1] : NULL;
    side sd = {&r, r_start, r_next, r_skel};
    if (rc == 0) rc = collect(&sd, s, modes, clips, err);
    free(r.skel[0]);
    free(r.skel[1]);
    return rc;
}

int gpose_ref_model(const dat_file *dat, const ref_pose_opts *o, unsigned modes, gpose_scene *s,
                    ff_error *err)
{
    return gpose_ref_entity(dat, NULL, NULL, NULL, o, modes, s, err);
}

int gpose_ref_entity(const dat_file *body, const dat_file *weapon, const int16_t attach_rot[3],
                     const int16_t attach_trans[3], const ref_pose_opts *o, unsigned modes,
                     gpose_scene *s, ff_error *err)
{
    uint32_t clips;
    if (entity_init(s, body, weapon, attach_rot, attach_trans, o, &clips, err) < 0 ||
        ref_run(body, weapon, o, modes, clips, s, err) < 0) {
        gpose_scene_free(s);
        return -1;
    }
    return 0;
}

/* ---- copies and compositions ---- */

/* dst's arrays as copies of src's (dst zeroed first). */
static int model_copy(gpose_model *dst, const gpose_model *src, ff_error *err)
{
    *dst = *src;
    size_t nb = src->bones ? src->bones : 1;
    dst->parent = malloc(nb * sizeof *dst->parent);
    dst->size = malloc(nb * sizeof *dst->size);
    dst->clips = calloc(src->nclips ? src->nclips : 1, sizeof *dst->clips);
    if (!dst->parent || !dst->size || !dst->clips) {
        free(dst->parent);
        free(dst->size);
        free(dst->clips);
        memset(dst, 0, sizeof *dst);
        return ff_error_set(err, FF_E_NOMEM, src->name, -1, "out of memory");
    }
    memcpy(dst->parent, src->parent, src->bones * sizeof *dst->parent);
    memcpy(dst->size, src->size, src->bones * sizeof *dst->size);
    for (size_t c = 0; c < src->nclips; c++) {
        const gpose_clip *sc = &src->clips[c];
        gpose_clip *dc = &dst->clips[c];
        *dc = *sc;
        dc->m = NULL;
        if (!sc->frames) continue;
        size_t n = sc->frames * (src->bones ? src->bones : 1);
        if (!(dc->m = malloc(n * sizeof *dc->m)))
            return ff_error_set(err, FF_E_NOMEM, src->name, -1, "out of memory");
        memcpy(dc->m, sc->m, n * sizeof *dc->m);
    }
    return 0;
}

int gpose_scene_copy(gpose_scene *dst, const gpose_scene *src, ff_error *err)
{
    gpose_scene_init(dst);
    memcpy(dst->name, src->name, sizeof dst->name);
    dst->attach = src->attach;
    for (unsigned i = 0; i < src->nmodels; i++) {
        dst->nmodels = i + 1;
        if (model_copy(&dst->model[i], &src->model[i], err) < 0) {
            gpose_scene_free(dst);
            return -1;
        }
    }
    return 0;
}

/*
 * One entity clip from the body's clip b and the weapon's clip w: the
 * body's keyframes, the weapon's keyframe min(k, its last) beside each.
 * A weapon clip that ended early on a fault or error ends the entity's.
 */
static int lockstep_clip(const gpose_model *bm, const gpose_clip *b, const gpose_model *wm,
                         const gpose_clip *w, gpose_clip *eb, gpose_clip *ew, ff_error *err)
{
    size_t n = b->frames;
    if (w->note[0] && w->frames < n) n = w->frames;
    if (!w->frames) n = 0;
    snprintf(eb->note, sizeof eb->note, "%s", b->note);
    if (!eb->note[0] && w->note[0]) snprintf(eb->note, sizeof eb->note, "weapon: %.240s", w->note);
    if (!w->frames && !eb->note[0])
        snprintf(eb->note, sizeof eb->note, "the weapon's clip has no keyframe");
    memcpy(ew->note, eb->note, sizeof ew->note);
    eb->frames = ew->frames = n;
    if (!n) return 0;
    eb->m = malloc(n * (bm->bones ? bm->bones : 1) * sizeof *eb->m);
    ew->m = malloc(n * (wm->bones ? wm->bones : 1) * sizeof *ew->m);
    if (!eb->m || !ew->m) return ff_error_set(err, FF_E_NOMEM, bm->name, -1, "out of memory");
    memcpy(eb->m, b->m, n * bm->bones * sizeof *eb->m);
    for (size_t k = 0; k < n; k++) {
        size_t kw = k < w->frames ? k : w->frames - 1;
        memcpy(&ew->m[k * wm->bones], &w->m[kw * wm->bones], wm->bones * sizeof *ew->m);
    }
    return 0;
}

int gpose_entity_compose(const gpose_model *body, const gpose_model *weapon,
                         const ref_matrix *attach, gpose_scene *s, ff_error *err)
{
    gpose_scene_init(s);
    s->nmodels = 2;
    s->attach = *attach;
    snprintf(s->name, sizeof s->name, "%.140s+%.140s", body->name, weapon->name);
    gpose_model *eb = &s->model[0], *ew = &s->model[1];
    int rc = model_copy(eb, body, err);
    if (rc == 0) rc = model_copy(ew, weapon, err);
    if (rc < 0) goto fail;
    /* Only the shapes are kept: the clips are rebuilt, those both models have. */
    for (unsigned i = 0; i < 2; i++) {
        gpose_model *md = &s->model[i];
        for (size_t c = 0; c < md->nclips; c++) free(md->clips[c].m);
        memset(md->clips, 0, md->nclips * sizeof *md->clips);
        md->nclips = 0;
    }
    for (size_t c = 0; c < body->nclips; c++) {
        const gpose_clip *b = &body->clips[c], *w = gpose_find(weapon, b->clip, b->mode);
        if (!w) continue;
        gpose_clip *cb = &eb->clips[eb->nclips++], *cw = &ew->clips[ew->nclips++];
        cb->clip = cw->clip = b->clip;
        cb->mode = cw->mode = b->mode;
        if (lockstep_clip(body, b, weapon, w, cb, cw, err) < 0) goto fail;
    }
    return 0;
fail:
    gpose_scene_free(s);
    return -1;
}
