/*
 * harness/gltf/gcheck_match.c: check-gltf's correspondence (gcheck_priv.h):
 * which viewer joint is which bone (trailing numbers in the names, else
 * the hierarchy's shape with siblings told apart by their motion), which
 * animation is which clip (key count and motion signature), and the axis
 * convention with one scale (least squares over the 48 signed axis
 * permutations).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/gcheck_priv.h"

/* ---- joints ---- */

/* The viewer's joints: nodes driven by some animation. */
int gck_viewer_joints(ck *x)
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
        return gck_refuse(x->r, "the export animates %u nodes, the game's skeleton has %u bones", n, x->B);
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

int gck_by_names(ck *x)
{
    for (unsigned b = 0; b < x->B; b++) x->r->joint[b] = -1;
    int *jof = calloc(x->B, sizeof *jof);
    if (!jof) return -1;
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
            gck_mapped(x->r, x->world[x->vj[j]].t, m);
            gck_game_pos(x, pc, i, g, g3);
            for (int k = 0; k < 3; k++) c += (m[k] - g3[k]) * (m[k] - g3[k]);
        }
    }
    x->r->joint[g] = save;
    return c;
}

/* Matches game subtree g with viewer subtree j (same shape); siblings of one shape by cost. -1: memory. */
static int match(ck *x, int g, int j)
{
    if (g >= 0) x->r->joint[g] = x->vj[j];
    unsigned B = x->B;
    char *used = calloc(B, 1);
    if (!used) return -1;
    int rc = 0;
    for (unsigned c = 0; c < B && rc == 0; c++) {
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
        rc = match(x, (int)c, best);
    }
    free(used);
    return rc;
}

int gck_by_hierarchy(ck *x)
{
    int *vp = x->vparent;
    int *gp = malloc(x->B * sizeof *gp);
    if (!gp) return -1;
    for (unsigned b = 0; b < x->B; b++) gp[b] = x->md->parent[b];
    for (unsigned b = 0; b < x->B; b++) {
        free(x->gshape[b]), free(x->vshape[b]);
        x->gshape[b] = x->vshape[b] = NULL;
    }
    int nomem = 0;
    for (unsigned b = 0; b < x->B; b++)
        nomem |= !shape(gp, x->B, b, x->gshape) || !shape(vp, x->B, b, x->vshape);
    free(gp);
    for (unsigned b = 0; b < x->B; b++) x->r->joint[b] = -1;
    if (nomem || match(x, -1, -1) < 0) return -1;
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

/* Motion signature distance of clip gc against its candidate animation (fps set); NAN: memory. */
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
        return NAN; /* memory */
    }
    for (size_t i = 0; i < gc->frames; i += step) {
        gck_viewer_pos(x, gc, i, pos);
        double g0[3];
        gck_game_pos(x, pc, i, 0, g0);
        for (unsigned b = 0; b < x->B; b++, n++) {
            double g[3], a = 0, c = 0;
            gck_game_pos(x, pc, i, b, g);
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

int gck_match_anims(ck *x, double *pos)
{
    gck_result *r = x->r;
    size_t na = x->v->nanims, nc = r->nclips;
    double *cost = malloc(sizeof(double) * (na ? na : 1) * (nc ? nc : 1));
    char *used = calloc(na ? na : 1, 1);
    if (!cost || !used) {
        free(cost);
        free(used);
        return -1;
    }
    for (size_t c = 0; c < nc; c++) {
        for (size_t a = 0; a < na; a++) {
            gck_clip *gc = &r->clips[c];
            double fps = frame_rate(&x->v->anims[a], gc->frames);
            cost[c * na + a] = INFINITY;
            if (fps <= 0) continue;
            gc->anim = (int)a, gc->fps = fps;
            cost[c * na + a] = signature(x, gc, pos);
            gc->anim = -1;
            if (isnan(cost[c * na + a])) {
                free(cost);
                free(used);
                return -1;
            }
        }
    }
    for (;;) {
        size_t bc = 0, ba = 0;
        double best = INFINITY;
        for (size_t c = 0; c < nc; c++)
            for (size_t a = 0; a < na; a++)
                if (r->clips[c].anim < 0 && !used[a] && cost[c * na + a] < best)
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
    return 0;
}

/* ---- axes and scale ---- */

void gck_fit(ck *x, double *pos)
{
    gck_result *r = x->r;
    double C[3][3] = {{0}}, vv = 0, gg = 0;
    size_t n = 0;
    for (size_t ci = 0; ci < r->nclips; ci++) {
        gck_clip *gc = &r->clips[ci];
        if (gc->anim < 0) continue;
        const gpose_clip *pc = gpose_find(x->md, gc->clip, MODE_NORMAL);
        for (size_t i = 0; i < gc->frames; i++) {
            gck_viewer_pos(x, gc, i, pos);
            for (unsigned b = 0; b < x->B; b++, n++) {
                double g[3];
                gck_game_pos(x, pc, i, b, g);
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

