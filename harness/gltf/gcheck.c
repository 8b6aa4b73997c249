/*
 * harness/gltf/gcheck.c: correspondence and comparison (gcheck.h).
 */
#include "harness/gltf/gcheck.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ck {
    const gview *v;
    const gpose_model *md;
    gck_result *r;
    unsigned B;
    int *vj;          /* the viewer's joints: node indexes, B entries */
    int *vparent;     /* each viewer joint's parent joint (index into vj), -1 */
    char **gshape, **vshape; /* canonical subtree shapes */
    gm_affine *world; /* nnodes */
    int fitted;
} ck;

void gck_free(gck_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->nclips; i++) free(r->clips[i].err);
    free(r->clips);
    free(r->joint);
    free(r->joint_name);
    free(r->pic_game);
    free(r->pic_viewer);
    free(r->parent);
    memset(r, 0, sizeof *r);
}

__attribute__((format(printf, 2, 3))) static int refuse(gck_result *r, const char *fmt, ...)
{
    r->refused = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
    return 0;
}

/* ---- positions ---- */

/* The game's world position of bone b at keyframe k of clip c. */
static void game_pos(const ck *x, const gpose_clip *c, size_t k, unsigned b, double p[3])
{
    const ref_matrix *m = gpose_at(x->md, c, k, b);
    for (int i = 0; i < 3; i++) p[i] = m->t[i];
}

/* The viewer's joint positions (raw) at frame i of clip gc mapped on animation a; pos: B x 3. */
static void viewer_pos(ck *x, const gck_clip *gc, size_t i, double *pos)
{
    double t = gc->frames > 1 ? (double)i / gc->fps : 0;
    if (gc->frames > 1) t += x->v->anims[gc->anim].times[0];
    gview_pose(x->v, (size_t)gc->anim, t, x->world);
    for (unsigned b = 0; b < x->B; b++) memcpy(pos + 3 * b, x->world[x->r->joint[b]].t, 3 * sizeof(double));
}

static void mapped(const gck_result *r, const double v[3], double out[3])
{
    for (int k = 0; k < 3; k++) out[k] = r->scale * r->sign[k] * v[r->perm[k]];
}

/* ---- joints ---- */

/* The viewer's joints: nodes driven by some animation. */
static int viewer_joints(ck *x)
{
    const gview *v = x->v;
    unsigned n = 0;
    for (size_t i = 0; i < v->nnodes; i++) {
        int driven = 0;
        for (size_t a = 0; a < v->nanims && !driven; a++) driven = gview_animated(v, a, i);
        if (!driven) continue;
        if (n < x->B) x->vj[n] = (int)i;
        n++;
    }
    if (n != x->B)
        return refuse(x->r, "the export animates %u nodes, the game's skeleton has %u bones", n, x->B), -1;
    for (unsigned j = 0; j < x->B; j++) {
        x->vparent[j] = -1;
        for (int p = v->nodes[x->vj[j]].parent; p >= 0 && x->vparent[j] < 0; p = v->nodes[p].parent)
            for (unsigned k = 0; k < x->B; k++)
                if (x->vj[k] == p) x->vparent[j] = (int)k;
    }
    return 0;
}

/* The trailing number of a name, -1 when it has none. */
static long name_index(const char *s)
{
    size_t n = strlen(s);
    while (n && !isdigit((unsigned char)s[n - 1])) n--;
    size_t e = n;
    while (n && isdigit((unsigned char)s[n - 1])) n--;
    if (n == e || e - n > 6) return -1;
    return strtol(s + n, NULL, 10);
}

static int by_names(ck *x)
{
    for (unsigned b = 0; b < x->B; b++) x->r->joint[b] = -1;
    int *jof = calloc(x->B, sizeof *jof);
    if (!jof) return 0;
    int ok = 1;
    for (unsigned j = 0; j < x->B && ok; j++) {
        long k = name_index(x->v->nodes[x->vj[j]].name);
        ok = k >= 0 && k < (long)x->B && x->r->joint[k] < 0;
        if (ok) x->r->joint[k] = x->vj[j], jof[k] = (int)j;
    }
    for (unsigned b = 0; b < x->B && ok; b++) {
        int p = x->md->parent[b], vp = x->vparent[jof[b]];
        ok = p < 0 ? vp < 0 : vp >= 0 && x->vj[vp] == x->r->joint[p];
    }
    free(jof);
    return ok;
}

/* Canonical shape of subtree b: "(" + sorted children shapes + ")". */
static char *shape(const int *parent, unsigned n, unsigned b, char **memo)
{
    if (memo[b]) return memo[b];
    size_t k = 0, len = 2;
    char **kids = malloc(n * sizeof *kids);
    if (!kids) return NULL;
    for (unsigned c = 0; c < n; c++)
        if (parent[c] == (int)b) {
            if (!(kids[k] = shape(parent, n, c, memo))) { free(kids); return NULL; }
            len += strlen(kids[k++]);
        }
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && strcmp(kids[j - 1], kids[j]) > 0; j--) {
            char *t = kids[j]; kids[j] = kids[j - 1]; kids[j - 1] = t;
        }
    char *s = malloc(len + 1);
    if (s) {
        size_t o = 0;
        s[o++] = '(';
        for (size_t i = 0; i < k; i++) { size_t l = strlen(kids[i]); memcpy(s + o, kids[i], l); o += l; }
        s[o++] = ')';
        s[o] = 0;
    }
    free(kids);
    return memo[b] = s;
}

/* Cost of mapping bone g to viewer joint j: their positions over sampled frames (after a fit). */
static double joint_cost(ck *x, unsigned g, unsigned j)
{
    if (!x->fitted) return 0;
    double c = 0;
    double *pos = malloc(3 * sizeof(double) * (x->B ? x->B : 1));
    if (!pos) return 0;
    int save = x->r->joint[g];
    x->r->joint[g] = x->vj[j];
    for (size_t ci = 0; ci < x->r->nclips; ci++) {
        const gck_clip *gc = &x->r->clips[ci];
        if (gc->anim < 0) continue;
        const gpose_clip *pc = gpose_find(x->md, gc->clip, MODE_NORMAL);
        for (size_t i = 0; i < gc->frames; i += 1 + gc->frames / 8) {
            double t = gc->frames > 1 ? (double)i / gc->fps + x->v->anims[gc->anim].times[0] : 0;
            gview_pose(x->v, (size_t)gc->anim, t, x->world);
            double m[3], g3[3];
            mapped(x->r, x->world[x->vj[j]].t, m);
            game_pos(x, pc, i, g, g3);
            for (int k = 0; k < 3; k++) c += (m[k] - g3[k]) * (m[k] - g3[k]);
        }
    }
    x->r->joint[g] = save;
    free(pos);
    return c;
}

/* Matches game subtree g with viewer subtree j (same shape); siblings of one shape by cost. */
static void match(ck *x, int g, int j)
{
    if (g >= 0) x->r->joint[g] = x->vj[j];
    unsigned B = x->B;
    char *used = calloc(B, 1);
    if (!used) return;
    for (unsigned c = 0; c < B; c++) {
        if (x->md->parent[c] != g) continue;
        int best = -1;
        double bc = INFINITY;
        for (unsigned k = 0; k < B; k++) {
            if (used[k] || x->vparent[k] != j || strcmp(x->gshape[c], x->vshape[k])) continue;
            double cost = joint_cost(x, c, k);
            if (best < 0 || cost < bc) best = (int)k, bc = cost;
        }
        if (best < 0) continue;
        used[best] = 1;
        match(x, (int)c, best);
    }
    free(used);
}

static int by_hierarchy(ck *x)
{
    int *vp = x->vparent;
    int *gp = malloc(x->B * sizeof *gp);
    if (!gp) return 0;
    for (unsigned b = 0; b < x->B; b++) gp[b] = x->md->parent[b];
    for (unsigned b = 0; b < x->B; b++) {
        free(x->gshape[b]), free(x->vshape[b]);
        x->gshape[b] = x->vshape[b] = NULL;
    }
    for (unsigned b = 0; b < x->B; b++) {
        shape(gp, x->B, b, x->gshape);
        shape(vp, x->B, b, x->vshape);
    }
    free(gp);
    for (unsigned b = 0; b < x->B; b++) x->r->joint[b] = -1;
    match(x, -1, -1);
    for (unsigned b = 0; b < x->B; b++)
        if (x->r->joint[b] < 0) return 0;
    return 1;
}

/* ---- animations <-> clips ---- */

/* Frame mapping of animation a for F frames: fps, or 0 when the keys cannot be F frames. */
static double frame_rate(const gview_anim *a, size_t F)
{
    if (a->ntimes == 0) return 0;
    double D = a->times[a->ntimes - 1] - a->times[0];
    if (F == 1) return a->ntimes == 1 ? GPOSE_FPS : 0;
    if (a->ntimes < F || (a->ntimes - 1) % (F - 1) != 0 || D <= 0) return 0;
    return (double)(F - 1) / D;
}

/* Motion signature distance of clip gc against its candidate animation (fps set). */
static double signature(ck *x, gck_clip *gc, double *pos)
{
    const gpose_clip *pc = gpose_find(x->md, gc->clip, MODE_NORMAL);
    size_t step = 1 + gc->frames / 48, n = 0;
    double mg = 0, mv = 0;
    double *dg = malloc(sizeof(double) * (gc->frames / step + 1) * x->B);
    double *dv = malloc(sizeof(double) * (gc->frames / step + 1) * x->B);
    if (!dg || !dv) {
        free(dg);
        free(dv);
        return INFINITY;
    }
    for (size_t i = 0; i < gc->frames; i += step) {
        viewer_pos(x, gc, i, pos);
        double g0[3];
        game_pos(x, pc, i, 0, g0);
        for (unsigned b = 0; b < x->B; b++, n++) {
            double g[3], a = 0, c = 0;
            game_pos(x, pc, i, b, g);
            for (int k = 0; k < 3; k++) {
                a += (g[k] - g0[k]) * (g[k] - g0[k]);
                c += (pos[3 * b + k] - pos[k]) * (pos[3 * b + k] - pos[k]);
            }
            dg[n] = sqrt(a), dv[n] = sqrt(c);
            mg += dg[n], mv += dv[n];
        }
    }
    double cost = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (mg > 0 ? dg[i] / mg : 0) - (mv > 0 ? dv[i] / mv : 0);
        cost += d * d;
    }
    free(dg);
    free(dv);
    return n ? sqrt(cost) : INFINITY;
}

static void match_anims(ck *x, double *pos)
{
    gck_result *r = x->r;
    size_t na = x->v->nanims, nc = r->nclips;
    double *cost = malloc(sizeof(double) * (na ? na : 1) * (nc ? nc : 1));
    if (!cost) return;
    for (size_t c = 0; c < nc; c++) {
        for (size_t a = 0; a < na; a++) {
            gck_clip *gc = &r->clips[c];
            double fps = frame_rate(&x->v->anims[a], gc->frames);
            cost[c * na + a] = INFINITY;
            if (fps <= 0) continue;
            gc->anim = (int)a, gc->fps = fps;
            cost[c * na + a] = signature(x, gc, pos);
            gc->anim = -1;
        }
    }
    char *used = calloc(na ? na : 1, 1);
    for (;;) {
        size_t bc = 0, ba = 0;
        double best = INFINITY;
        for (size_t c = 0; c < nc; c++)
            for (size_t a = 0; a < na; a++)
                if (r->clips[c].anim < 0 && used && !used[a] && cost[c * na + a] < best)
                    best = cost[c * na + a], bc = c, ba = a;
        if (!(best < 0.05)) break;
        gck_clip *gc = &r->clips[bc];
        gc->anim = (int)ba;
        gc->fps = frame_rate(&x->v->anims[ba], gc->frames);
        gc->match_cost = best;
        snprintf(gc->anim_name, sizeof gc->anim_name, "%s", x->v->anims[ba].name);
        used[ba] = 1;
        r->matched++;
    }
    r->unmatched_anims = na - r->matched;
    free(used);
    free(cost);
}

/* ---- axes and scale ---- */

static void fit(ck *x, double *pos)
{
    gck_result *r = x->r;
    double C[3][3] = {{0}}, vv = 0, gg = 0;
    size_t n = 0;
    for (size_t ci = 0; ci < r->nclips; ci++) {
        gck_clip *gc = &r->clips[ci];
        if (gc->anim < 0) continue;
        const gpose_clip *pc = gpose_find(x->md, gc->clip, MODE_NORMAL);
        for (size_t i = 0; i < gc->frames; i++) {
            viewer_pos(x, gc, i, pos);
            for (unsigned b = 0; b < x->B; b++, n++) {
                double g[3];
                game_pos(x, pc, i, b, g);
                for (int k = 0; k < 3; k++) {
                    gg += g[k] * g[k];
                    vv += pos[3 * b + k] * pos[3 * b + k];
                    for (int l = 0; l < 3; l++) C[k][l] += g[k] * pos[3 * b + l];
                }
            }
        }
    }
    static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    double best = -INFINITY;
    for (int p = 0; p < 6; p++)
        for (int sg = 0; sg < 8; sg++) {
            double dot = 0;
            for (int k = 0; k < 3; k++) dot += (sg >> k & 1 ? -1 : 1) * C[k][perms[p][k]];
            if (dot <= best) continue;
            best = dot;
            for (int k = 0; k < 3; k++) r->perm[k] = perms[p][k], r->sign[k] = sg >> k & 1 ? -1 : 1;
        }
    r->scale = vv > 0 ? best / vv : 0;
    double res = vv > 0 ? gg - best * best / vv : gg;
    r->fit_rms = n ? sqrt(fmax(res, 0) / (double)n) : 0;
    static const char ax[3] = {'x', 'y', 'z'};
    snprintf(r->axes, sizeof r->axes, "x=%c%c,y=%c%c,z=%c%c", r->sign[0] < 0 ? '-' : '+',
             ax[r->perm[0]], r->sign[1] < 0 ? '-' : '+', ax[r->perm[1]], r->sign[2] < 0 ? '-' : '+',
             ax[r->perm[2]]);
    x->fitted = 1;
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
                game_pos(x, c, k, b, g);
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
        viewer_pos(x, gc, i, pos);
        for (unsigned b = 0; b < x->B; b++) {
            double g[3], m[3], d = 0;
            game_pos(x, pc, i, b, g);
            mapped(r, pos + 3 * b, m);
            for (int k = 0; k < 3; k++) d += (m[k] - g[k]) * (m[k] - g[k]);
            e[b] = sqrt(d);
            if (e[b] > gc->err[i]) gc->err[i] = e[b];
            if (e[b] > gc->max_err) gc->max_err = e[b], gc->max_frame = i, gc->max_bone = b;
        }
        if (gc->first >= 0 || gc->err[i] <= r->tolerance) continue;
        double top = -1;
        for (unsigned b = 0; b < x->B; b++) {
            int p = x->md->parent[b];
            if (e[b] <= r->tolerance || (p >= 0 && e[p] > r->tolerance)) continue;
            if (e[b] > top) top = e[b], gc->first_bone = b;
        }
        gc->first = (long)i;
        gc->first_err = e[gc->first_bone];
        game_pos(x, pc, i, gc->first_bone, gc->first_game);
        mapped(r, pos + 3 * gc->first_bone, gc->first_viewer);
    }
    return 0;
}

static int picture(ck *x, double *pos)
{
    gck_result *r = x->r;
    long pick = -1;
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
    viewer_pos(x, gc, r->pic_frame, pos);
    for (unsigned b = 0; b < x->B; b++) {
        game_pos(x, pc, r->pic_frame, b, r->pic_game + 3 * b);
        mapped(r, pos + 3 * b, r->pic_viewer + 3 * b);
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int steps(ck *x, double tol_rel, double *pos, double *e)
{
    gck_result *r = x->r;
    if (viewer_joints(x) < 0) return 0;
    if (by_names(x)) snprintf(r->joints_by, sizeof r->joints_by, "names");
    else if (by_hierarchy(x)) snprintf(r->joints_by, sizeof r->joints_by, "hierarchy");
    else return refuse(r, "no joint hierarchy of the export matches the game's skeleton (%u bones)", x->B);
    match_anims(x, pos);
    if (!r->matched)
        return refuse(r, "no animation of the export (%u) matches a clip of the game (%u) by key count and motion",
                      (unsigned)x->v->nanims, (unsigned)r->nclips);
    fit(x, pos);
    if (strcmp(r->joints_by, "hierarchy") == 0 && by_hierarchy(x)) fit(x, pos);
    skeleton_size(x);
    if (!(r->scale > 0) || r->fit_rms > 0.1 * r->size)
        return refuse(r, "no axis convention and scale fits: the best leaves %u%% of the skeleton's size "
                         "(%u game units) as error", (unsigned)fmin(100 * r->fit_rms / r->size, 9999),
                      (unsigned)r->size);
    r->tolerance = (tol_rel > 0 ? tol_rel : GCK_TOLERANCE) * r->size;
    if (!(r->joint_name = calloc(x->B, sizeof *r->joint_name))) return -1;
    for (unsigned b = 0; b < x->B; b++)
        snprintf(r->joint_name[b], sizeof r->joint_name[b], "%s", x->v->nodes[r->joint[b]].name);
    double *fps = malloc(sizeof(double) * (r->matched ? r->matched : 1));
    size_t nf = 0;
    for (size_t ci = 0; ci < r->nclips; ci++) {
        gck_clip *gc = &r->clips[ci];
        if (gc->anim < 0) continue;
        if (compare_clip(x, gc, pos, e) < 0) {
            free(fps);
            return -1;
        }
        r->departing += gc->first >= 0;
        if (fps && gc->frames > 1) fps[nf++] = gc->fps;
    }
    if (fps && nf) {
        qsort(fps, nf, sizeof *fps, cmp_double);
        r->fps = fps[nf / 2];
    }
    free(fps);
    return picture(x, pos);
}

int gck_run(const gview *v, const gpose_scene *game, double tol_rel, gck_result *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    out->pic_clip = -1;
    const gpose_model *md = &game->model[0];
    ck x = {v, md, out, md->bones, NULL, NULL, NULL, NULL, NULL, 0};
    unsigned B = md->bones ? md->bones : 1;
    out->bones = md->bones;
    size_t nclips = 0;
    for (size_t i = 0; i < md->nclips; i++) nclips += md->clips[i].mode == MODE_NORMAL && md->clips[i].frames;
    out->clips = calloc(nclips ? nclips : 1, sizeof *out->clips);
    out->joint = calloc(B, sizeof *out->joint);
    out->parent = malloc(B * sizeof *out->parent);
    x.vj = calloc(B, sizeof *x.vj);
    x.vparent = calloc(B, sizeof *x.vparent);
    x.gshape = calloc(B, sizeof *x.gshape);
    x.vshape = calloc(B, sizeof *x.vshape);
    x.world = malloc((v->nnodes ? v->nnodes : 1) * sizeof *x.world);
    double *pos = malloc(3 * sizeof(double) * B), *e = malloc(sizeof(double) * B);
    int rc = 0;
    if (!out->clips || !out->joint || !out->parent || !x.vj || !x.vparent || !x.gshape ||
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
        if (md->bones == 0) refuse(out, "the game's model has no bones");
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
