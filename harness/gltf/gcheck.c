/*
 * harness/gltf/gcheck.c: check-gltf's comparison (gcheck.h): positions on
 * both sides, the steps (correspondence from gcheck_match.c, then every
 * clip compared frame by frame), the first departure, the picture.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/gcheck_priv.h"

void gck_free(gck_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nclips; i++) free(r->clips[i].err);
    free(r->clips);
    free(r->joint);
    free(r->joint_by);
    free(r->joint_name);
    free(r->pic_game);
    free(r->pic_viewer);
    free(r->parent);
    free(r->bone_err);
    memset(r, 0, sizeof *r);
}

const char *gck_by_name(gck_by by)
{
#define GCK_BY_TEXT_(name, text) text,
    static const char *const names[] = {GCK_BY_MAP(GCK_BY_TEXT_)};
#undef GCK_BY_TEXT_
    return (unsigned)by < GCK_BY__COUNT ? names[by] : "?";
}

int gck_refuse(gck_result *r, const char *fmt, ...)
{
    r->refused = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
    return 0;
}

/* ---- positions ---- */

void gck_game_pos(const ck *x, const gpose_clip *c, size_t k, unsigned b, double p[3])
{
    const ref_matrix *m = gpose_at(x->md, c, k, b);
    for (int i = 0; i < 3; i++) p[i] = m->t[i];
}

void gck_viewer_pos(ck *x, const gck_clip *gc, size_t i, double *pos)
{
    gview_pose(x->v, (size_t)gc->anim, gck_frame_time(x, gc, i), x->world);
    for (unsigned b = 0; b < x->B; b++) {
        int j = x->r->joint[b];
        for (int k = 0; k < 3; k++) pos[3 * b + k] = j >= 0 ? x->world[j].t[k] : NAN;
    }
}

double gck_frame_time(const ck *x, const gck_clip *gc, size_t i)
{
    const gview_anim *a = &x->v->anims[gc->anim];
    if (gc->frames < 2 || a->ntimes < 2) return 0;
    /* The frame mapping holds ntimes - 1 = step x (frames - 1): frame i is key i x step. */
    size_t step = (a->ntimes - 1) / (gc->frames - 1), k = i * step;
    return k < a->ntimes ? a->times[k] : (double)i / gc->fps + a->times[0];
}

void gck_mapped(const gck_result *r, const double v[3], double out[3])
{
    for (int k = 0; k < 3; k++) out[k] = r->scale * r->sign[k] * v[r->perm[k]];
}

/* ---- comparison ---- */

/* The skeleton's size: the largest diagonal of the joints' bounding box on one frame. */
static void skeleton_size(ck *x)
{
    double size = 0;
    for (size_t ci = 0; ci < x->md->nclips; ci++) {
        const gpose_clip *c = &x->md->clips[ci];
        if (c->mode != MODE_NORMAL) continue;
        for (size_t k = 0; k < c->frames; k++) {
            double mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
            for (unsigned b = 0; b < x->B; b++) {
                double g[3];
                gck_game_pos(x, c, k, b, g);
                for (int d = 0; d < 3; d++) mn[d] = fmin(mn[d], g[d]), mx[d] = fmax(mx[d], g[d]);
            }
            double s = 0;
            for (int d = 0; d < 3; d++) s += (mx[d] - mn[d]) * (mx[d] - mn[d]);
            size = fmax(size, sqrt(s));
        }
    }
    x->r->size = size > 0 ? size : 1;
}

/* Errors of every frame of gc; the first departing frame's topmost departing joint. */
static int compare_clip(ck *x, gck_clip *gc, double *pos, double *e)
{
    gck_result *r = x->r;
    const gpose_clip *pc = gpose_find(x->md, gc->clip, MODE_NORMAL);
    if (!(gc->err = calloc(gc->frames ? gc->frames : 1, sizeof *gc->err))) return -1;
    for (size_t i = 0; i < gc->frames; i++) {
        gck_viewer_pos(x, gc, i, pos);
        for (unsigned b = 0; b < x->B; b++) {
            e[b] = 0;
            if (r->joint[b] < 0) continue;
            double g[3], m[3], d = 0;
            gck_game_pos(x, pc, i, b, g);
            gck_mapped(r, pos + 3 * b, m);
            for (int k = 0; k < 3; k++) d += (m[k] - g[k]) * (m[k] - g[k]);
            e[b] = sqrt(d);
            if (e[b] > r->bone_err[b]) r->bone_err[b] = e[b];
            if (e[b] > gc->err[i]) gc->err[i] = e[b];
            if (e[b] > gc->max_err) gc->max_err = e[b], gc->max_frame = i, gc->max_bone = b;
        }
        if (gc->first >= 0 || gc->err[i] <= r->tolerance) continue;
        double top = -1;
        for (unsigned b = 0; b < x->B; b++) {
            int p = x->md->parent[b];
            /* The topmost: its nearest matched ancestor does not depart. */
            while (p >= 0 && r->joint[p] < 0) p = x->md->parent[p];
            if (e[b] <= r->tolerance || (p >= 0 && e[p] > r->tolerance)) continue;
            if (e[b] > top) top = e[b], gc->first_bone = b;
        }
        gc->first = (long)i;
        gc->first_err = e[gc->first_bone];
        gck_game_pos(x, pc, i, gc->first_bone, gc->first_game);
        gck_mapped(r, pos + 3 * gc->first_bone, gc->first_viewer);
    }
    return 0;
}

/* The picture: at the first departing frame, or (worst, or none departs) at the worst frame. */
static int picture(ck *x, double *pos, int worst)
{
    gck_result *r = x->r;
    long pick = -1;
    for (size_t ci = 0; ci < r->nclips && worst; ci++)
        if (r->clips[ci].anim >= 0 && (pick < 0 || r->clips[ci].max_err > r->clips[pick].max_err))
            pick = (long)ci, r->pic_frame = r->clips[ci].max_frame,
            r->pic_bone = r->clips[ci].max_bone;
    for (size_t ci = 0; ci < r->nclips && pick < 0; ci++)
        if (r->clips[ci].first >= 0) pick = (long)ci, r->pic_frame = (size_t)r->clips[ci].first,
                                     r->pic_bone = r->clips[ci].first_bone;
    for (size_t ci = 0; ci < r->nclips && pick < 0; ci++)
        if (r->clips[ci].anim >= 0) pick = (long)ci, r->pic_frame = r->clips[ci].max_frame,
                                    r->pic_bone = r->clips[ci].max_bone;
    r->pic_clip = pick;
    if (pick < 0) return 0;
    r->pic_game = malloc(3 * sizeof(double) * x->B);
    r->pic_viewer = malloc(3 * sizeof(double) * x->B);
    if (!r->pic_game || !r->pic_viewer) return -1;
    gck_clip *gc = &r->clips[pick];
    const gpose_clip *pc = gpose_find(x->md, gc->clip, MODE_NORMAL);
    gck_viewer_pos(x, gc, r->pic_frame, pos);
    for (unsigned b = 0; b < x->B; b++) {
        gck_game_pos(x, pc, r->pic_frame, b, r->pic_game + 3 * b);
        gck_mapped(r, pos + 3 * b, r->pic_viewer + 3 * b);
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/*
 * The joints: every bone by name, else every bone by the hierarchy, else
 * the bones the names map when they are at least half. 1 mapped, 0 not,
 * -1 memory.
 */
static int joints(ck *x)
{
    gck_result *r = x->r;
    int named = gck_by_names(x);
    if (named < 0) return -1;
    if ((unsigned)named == x->B) {
        snprintf(r->joints_by, sizeof r->joints_by, "names");
        return 1;
    }
    int by = gck_by_hierarchy(x);
    if (by != 0) {
        if (by == 1) snprintf(r->joints_by, sizeof r->joints_by, "hierarchy");
        return by;
    }
    if (named == 0 || 2 * (unsigned)named < x->B) return 0;
    if (gck_by_names(x) < 0) return -1;
    snprintf(r->joints_by, sizeof r->joints_by, "names");
    return 1;
}

static int steps(ck *x, double tol_rel, double *pos, double *e)
{
    gck_result *r = x->r;
    if (gck_viewer_joints(x) < 0) return -1;
    if (r->refused) return 0;
    int by = joints(x);
    if (by < 0) return -1;
    if (by == 0)
        return gck_refuse(r, "no joint hierarchy of the export (%u animated nodes) matches the "
                             "game's skeleton (%u bones), nor do the joint names map half of its "
                             "bones", x->nv, x->B);
    while (x->rb < x->B && r->joint[x->rb] < 0) x->rb++;
    skeleton_size(x);
    if (gck_match_anims(x, pos) < 0) return -1;
    if (!r->matched)
        return gck_refuse(r, "no animation of the export (%u) matches a clip of the game (%u) by "
                             "name, key count or motion",
                          (unsigned)x->v->nanims, (unsigned)r->nclips);
    if (gck_fit(x, pos) < 0) return -1;
    /* With the axes known, siblings of one shape are told apart by their motion. */
    if (strcmp(r->joints_by, "hierarchy") == 0) {
        if ((by = gck_by_hierarchy(x)) < 0) return -1;
        if (by == 0)
            return gck_refuse(r, "no joint hierarchy of the export matches the game's skeleton (%u bones)", x->B);
        if (gck_fit(x, pos) < 0) return -1;
    }
    int poor = !(r->scale > 0) || r->fit_rms > 0.1 * r->size;
    if (poor)
        gck_refuse(r, "no axis convention and scale fits: the best leaves %u%% of the skeleton's size "
                      "(%u game units) as error", (unsigned)fmin(100 * r->fit_rms / r->size, 9999),
                   (unsigned)r->size);
    if (poor && !(r->scale > 0)) return 0;
    /* A poor fit is still the best mapping tried: compared below, so the refusal shows it. */
    r->best_tried = poor;
    r->tolerance = (tol_rel > 0 ? tol_rel : GCK_TOLERANCE) * r->size;
    if (!(r->joint_name = calloc(x->B, sizeof *r->joint_name))) return -1;
    for (unsigned b = 0; b < x->B; b++) {
        r->joints_count[r->joint_by[b]]++;
        if (r->joint[b] >= 0)
            snprintf(r->joint_name[b], sizeof r->joint_name[b], "%s",
                     x->v->nodes[r->joint[b]].name);
    }
    double *fps = malloc(sizeof(double) * (r->matched ? r->matched : 1));
    if (!fps) return -1;
    size_t nf = 0;
    for (size_t ci = 0; ci < r->nclips; ci++) {
        gck_clip *gc = &r->clips[ci];
        if (gc->anim < 0) continue;
        if (compare_clip(x, gc, pos, e) < 0) {
            free(fps);
            return -1;
        }
        r->departing += gc->first >= 0;
        if (gc->frames > 1) fps[nf++] = gc->fps;
    }
    if (nf) {
        qsort(fps, nf, sizeof *fps, cmp_double);
        r->fps = fps[nf / 2];
    }
    free(fps);
    return picture(x, pos, poor);
}

int gck_run(const gview *v, const gpose_scene *game, double tol_rel, gck_result *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    out->pic_clip = -1;
    const gpose_model *md = &game->model[0];
    ck x = {v, md, out, md->bones, 0, 0, NULL, NULL, NULL, NULL, NULL, 0};
    unsigned B = md->bones ? md->bones : 1;
    out->bones = md->bones;
    size_t nclips = 0;
    for (size_t i = 0; i < md->nclips; i++) nclips += md->clips[i].mode == MODE_NORMAL && md->clips[i].frames;
    out->clips = calloc(nclips ? nclips : 1, sizeof *out->clips);
    out->joint = calloc(B, sizeof *out->joint);
    out->joint_by = calloc(B, sizeof *out->joint_by);
    out->parent = malloc(B * sizeof *out->parent);
    out->bone_err = calloc(B, sizeof *out->bone_err);
    size_t nn = v->nnodes ? v->nnodes : 1;
    x.vj = calloc(nn > B ? nn : B, sizeof *x.vj);
    x.vparent = calloc(nn > B ? nn : B, sizeof *x.vparent);
    x.gshape = calloc(B, sizeof *x.gshape);
    x.vshape = calloc(B, sizeof *x.vshape);
    x.world = malloc((v->nnodes ? v->nnodes : 1) * sizeof *x.world);
    double *pos = malloc(3 * sizeof(double) * B), *e = malloc(sizeof(double) * B);
    int rc = 0;
    if (!out->clips || !out->joint || !out->joint_by || !out->parent || !out->bone_err || !x.vj ||
        !x.vparent ||
        !x.gshape ||
        !x.vshape || !x.world || !pos || !e)
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (rc == 0) {
        memcpy(out->parent, md->parent, md->bones * sizeof *out->parent);
        for (size_t i = 0; i < md->nclips; i++) {
            const gpose_clip *c = &md->clips[i];
            if (c->mode != MODE_NORMAL || !c->frames) continue;
            gck_clip *gc = &out->clips[out->nclips++];
            gc->clip = c->clip, gc->frames = c->frames, gc->anim = -1, gc->first = -1;
        }
        if (md->bones == 0) gck_refuse(out, "the game's model has no bones");
        else if (steps(&x, tol_rel, pos, e) < 0)
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    for (unsigned b = 0; b < B && x.gshape && x.vshape; b++) free(x.gshape[b]), free(x.vshape[b]);
    free(x.gshape);
    free(x.vshape);
    free(x.vj);
    free(x.vparent);
    free(x.world);
    free(pos);
    free(e);
    if (rc < 0) gck_free(out);
    return rc;
}
