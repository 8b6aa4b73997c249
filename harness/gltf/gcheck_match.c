/*
 * harness/gltf/gcheck_match.c: check-gltf's correspondence (gcheck_priv.h):
 * which viewer joint is which bone (trailing numbers in the names, else
 * the hierarchy's shape with siblings told apart by their motion) and
 * which animation is which clip (the number in its name, else key count
 * and motion signature). The axes and scale are gcheck_fit.c's.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/gcheck_priv.h"
#include "harness/gltf/glb_write.h"

/* ---- joints ---- */

/* 1 when node name s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/*
 * The viewer's joints: nodes driven by some animation, but for the
 * un-scaling nodes of ff8diff's own exports (named after their joint with
 * _unscale: a node between a joint and its children that cancels the
 * joint's scale, no joint of its own; its children's joint above is its
 * parent's).
 */
int gck_viewer_joints(ck *x)
{
    const gview *v = x->v;
    unsigned n = 0;
    for (size_t i = 0; i < v->nnodes; i++) {
        if (ends_with(v->nodes[i].name, GLB_UNSCALE_SUFFIX)) continue;
        int driven = 0;
        for (size_t a = 0; a < v->nanims && !driven; a++) driven = gview_animated(v, a, i);
        if (driven) x->vj[n++] = (int)i;
    }
    x->nv = n;
    if (n == 0) return gck_refuse(x->r, "the export animates no node");
    for (unsigned j = 0; j < n; j++) {
        x->vparent[j] = -1;
        for (int p = v->nodes[x->vj[j]].parent; p >= 0 && x->vparent[j] < 0; p = v->nodes[p].parent)
            for (unsigned k = 0; k < n; k++)
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

/*
 * 1 when bone b's place in the viewer's tree (joint j) does not contradict
 * the game's: the joint above j is mapped to no bone, or is none (j placed
 * by its world transform), or is the joint of one of b's ancestors. bof:
 * the bone of each viewer joint, -1.
 */
static int tree_agrees(const ck *x, const int *bof, unsigned b, int j)
{
    int vp = x->vparent[j], pb = vp < 0 ? -1 : bof[vp];
    if (pb < 0) return 1;
    for (int a = x->md->parent[b]; a >= 0; a = x->md->parent[a])
        if (a == pb) return 1;
    return 0;
}

int gck_by_names(ck *x)
{
    gck_result *r = x->r;
    int *jof = malloc(x->B * sizeof *jof), *bof = malloc((x->nv ? x->nv : 1) * sizeof *bof);
    char *dup = calloc(x->B, 1);
    if (!jof || !bof || !dup) {
        free(jof);
        free(bof);
        free(dup);
        return -1;
    }
    for (unsigned b = 0; b < x->B; b++) r->joint[b] = jof[b] = -1;
    for (unsigned j = 0; j < x->nv; j++) {
        bof[j] = -1;
        long k = name_index(x->v->nodes[x->vj[j]].name);
        if (k < 0 || k >= (long)x->B) continue;
        if (r->joint[k] >= 0) dup[k] = 1;
        r->joint[k] = x->vj[j], jof[k] = (int)j;
    }
    for (unsigned b = 0; b < x->B; b++) {
        if (dup[b]) r->joint[b] = -1;
        if (r->joint[b] >= 0) bof[jof[b]] = (int)b;
    }
    /* Parents before children: a bone the tree contradicts is left out. */
    int n = 0;
    for (unsigned b = 0; b < x->B; b++) {
        if (r->joint[b] >= 0 && !tree_agrees(x, bof, b, jof[b])) {
            bof[jof[b]] = -1;
            r->joint[b] = -1;
        }
        r->joint_by[b] = r->joint[b] >= 0 ? GCK_BY_NAME : GCK_BY_NONE;
        n += r->joint[b] >= 0;
    }
    free(jof);
    free(bof);
    free(dup);
    return n;
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
        if (gc->anim < 0 || !gc->in_fit) continue;
        const gpose_clip *pc = gpose_find(x->md, gc->clip, MODE_NORMAL);
        for (size_t i = 0; i < gc->frames; i += 1 + gc->frames / 8) {
            gview_pose(x->v, (size_t)gc->anim, gck_frame_time(x, gc, i), x->world);
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
    if (x->nv != x->B) return 0;
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
    for (unsigned b = 0; b < x->B; b++) {
        if (x->r->joint[b] < 0) return 0;
        x->r->joint_by[b] = GCK_BY_HIERARCHY;
    }
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
        const double *v0 = pos + 3 * x->rb;
        gck_game_pos(x, pc, i, x->rb, g0);
        for (unsigned b = 0; b < x->B; b++) {
            if (x->r->joint[b] < 0) continue;
            double g[3], a = 0, c = 0;
            gck_game_pos(x, pc, i, b, g);
            for (int k = 0; k < 3; k++) {
                a += (g[k] - g0[k]) * (g[k] - g0[k]);
                c += (pos[3 * b + k] - v0[k]) * (pos[3 * b + k] - v0[k]);
            }
            dg[n] = sqrt(a), dv[n] = sqrt(c);
            mg += dg[n], mv += dv[n];
            n++;
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

/* Clip c matched to animation a (cost its motion's distance), by how. */
static void take(ck *x, size_t c, size_t a, double cost, gck_by by, char *used)
{
    gck_clip *gc = &x->r->clips[c];
    gc->anim = (int)a;
    gc->by = by;
    gc->fps = frame_rate(&x->v->anims[a], gc->frames);
    gc->match_cost = cost;
    snprintf(gc->anim_name, sizeof gc->anim_name, "%s", x->v->anims[a].name);
    used[a] = 1;
    x->r->matched++;
}

/*
 * By name: each clip's animation whose name ends in its number (before any
 * suffix) and whose keys fit its frames, one key per frame first, then the
 * nearest motion. Taken when at least half of those so named also agree
 * in motion (cost below 0.05): numbers that are the clips', not a count.
 */
static void by_name(ck *x, const double *cost, char *used)
{
    gck_result *r = x->r;
    size_t na = x->v->nanims, nc = r->nclips, named = 0, agree = 0;
    long *pick = malloc(sizeof *pick * (nc ? nc : 1));
    if (!pick) return; /* by motion alone */
    for (size_t c = 0; c < nc; c++) {
        pick[c] = -1;
        for (size_t a = 0; a < na; a++) {
            const gview_anim *an = &x->v->anims[a];
            if (name_index(an->name) != (long)r->clips[c].clip || !isfinite(cost[c * na + a]))
                continue;
            long p = pick[c];
            int exact = an->ntimes == r->clips[c].frames;
            int pexact = p >= 0 && x->v->anims[p].ntimes == r->clips[c].frames;
            if (p < 0 || exact > pexact || (exact == pexact && cost[c * na + a] < cost[c * na + p]))
                pick[c] = (long)a;
        }
        named += pick[c] >= 0;
        agree += pick[c] >= 0 && cost[c * na + pick[c]] < 0.05;
    }
    for (size_t c = 0; c < nc && agree > 0 && 2 * agree >= named; c++)
        if (pick[c] >= 0 && !used[pick[c]])
            take(x, c, (size_t)pick[c], cost[c * na + pick[c]], GCK_BY_NAME, used);
    free(pick);
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
    /* Key counts first: the signature (which poses the animation) only where they fit. */
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
    by_name(x, cost, used);
    for (;;) {
        size_t bc = 0, ba = 0;
        double best = INFINITY;
        for (size_t c = 0; c < nc; c++)
            for (size_t a = 0; a < na; a++)
                if (r->clips[c].anim < 0 && !used[a] && cost[c * na + a] < best)
                    best = cost[c * na + a], bc = c, ba = a;
        if (!(best < 0.05)) break;
        take(x, bc, ba, best, GCK_BY_MOTION, used);
    }
    r->unmatched_anims = na - r->matched;
    for (size_t c = 0; c < nc; c++) r->clips_count[r->clips[c].by]++;
    free(used);
    free(cost);
    return 0;
}
