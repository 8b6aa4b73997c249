/*
 * harness/gltf/gcheck_fit.c: check-gltf's axis convention and scale
 * (gcheck_priv.h): game = scale . P . viewer, P one of the 48 signed axis
 * permutations, by least squares over the matched joints of the clips that
 * agree. Each clip's sums are taken once; each clip's own best fit is a
 * candidate; the candidate under which the most frames' residual stays
 * within GCK_FIT_AGREE of the skeleton's size wins and is refitted on those
 * clips alone. A clip the export gets wildly wrong (a pose its layout
 * cannot carry) is then one departing clip, not a refusal of the file.
 * When no clip agrees with any candidate, every matched clip is fitted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/gcheck_priv.h"

/* The sums of one clip's least squares: sum g.v^T, |v|^2, |g|^2 and the point count. */
typedef struct fit_sums {
    double C[3][3], vv, gg;
    size_t n;
} fit_sums;

/* One axis convention and scale. */
typedef struct fit_axes {
    int perm[3], sign[3];
    double scale;
} fit_axes;

static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

static void sums_of(ck *x, const gck_clip *gc, double *pos, fit_sums *s)
{
    memset(s, 0, sizeof *s);
    const gpose_clip *pc = gpose_find(x->md, gc->clip, MODE_NORMAL);
    for (size_t i = 0; i < gc->frames; i++) {
        gck_viewer_pos(x, gc, i, pos);
        for (unsigned b = 0; b < x->B; b++) {
            if (x->r->joint[b] < 0) continue;
            double g[3];
            gck_game_pos(x, pc, i, b, g);
            for (int k = 0; k < 3; k++) {
                s->gg += g[k] * g[k];
                s->vv += pos[3 * b + k] * pos[3 * b + k];
                for (int l = 0; l < 3; l++)
                    s->C[k][l] += g[k] * pos[3 * b + l];
            }
            s->n++;
        }
    }
}

static void add_sums(fit_sums *to, const fit_sums *s)
{
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++)
            to->C[k][l] += s->C[k][l];
    to->vv += s->vv;
    to->gg += s->gg;
    to->n += s->n;
}

static double dot_of(const fit_sums *s, const fit_axes *f)
{
    double d = 0;
    for (int k = 0; k < 3; k++)
        d += f->sign[k] * s->C[k][f->perm[k]];
    return d;
}

/* The best convention and scale for s (scale 0 when s holds nothing). */
static void best_of(const fit_sums *s, fit_axes *f)
{
    double best = -INFINITY;
    for (int p = 0; p < 6; p++)
        for (int sg = 0; sg < 8; sg++) {
            fit_axes c;
            for (int k = 0; k < 3; k++)
                c.perm[k] = perms[p][k], c.sign[k] = sg >> k & 1 ? -1 : 1;
            double d = dot_of(s, &c);
            if (d <= best) continue;
            best = d;
            *f = c;
        }
    f->scale = s->vv > 0 ? best / s->vv : 0;
}

/* RMS residual of s under f, game units. */
static double rms_of(const fit_sums *s, const fit_axes *f)
{
    if (!s->n) return 0;
    double res = s->gg - 2 * f->scale * dot_of(s, f) + f->scale * f->scale * s->vv;
    return sqrt(fmax(res, 0) / (double)s->n);
}

/* Points (frames x joints) of the clips agreeing with f. */
static size_t agreeing(const fit_sums *s, size_t n, const fit_axes *f, double within)
{
    size_t w = 0;
    for (size_t c = 0; c < n; c++)
        if (s[c].n && f->scale > 0 && rms_of(&s[c], f) <= within) w += s[c].n;
    return w;
}

int gck_fit(ck *x, double *pos)
{
    gck_result *r = x->r;
    size_t nc = r->nclips;
    fit_sums *s = calloc(nc ? nc : 1, sizeof *s);
    if (!s) return -1;
    for (size_t c = 0; c < nc; c++)
        if (r->clips[c].anim >= 0) sums_of(x, &r->clips[c], pos, &s[c]);
    double within = GCK_FIT_AGREE * r->size;
    fit_axes win = {{0, 1, 2}, {1, 1, 1}, 0};
    size_t best = 0;
    for (size_t c = 0; c < nc; c++) {
        if (!s[c].n) continue;
        fit_axes f;
        best_of(&s[c], &f);
        size_t w = agreeing(s, nc, &f, within);
        if (w > best) best = w, win = f;
    }
    fit_sums all;
    memset(&all, 0, sizeof all);
    r->fit_clips = 0;
    for (size_t c = 0; c < nc; c++) {
        gck_clip *gc = &r->clips[c];
        gc->in_fit = s[c].n && (!best || rms_of(&s[c], &win) <= within);
        if (!gc->in_fit) continue;
        add_sums(&all, &s[c]);
        r->fit_clips++;
    }
    fit_axes f;
    best_of(&all, &f);
    r->fit_rms = rms_of(&all, &f);
    r->scale = f.scale;
    for (int k = 0; k < 3; k++)
        r->perm[k] = f.perm[k], r->sign[k] = f.sign[k];
    static const char ax[3] = {'x', 'y', 'z'};
    snprintf(r->axes, sizeof r->axes, "x=%c%c,y=%c%c,z=%c%c", r->sign[0] < 0 ? '-' : '+',
             ax[r->perm[0]], r->sign[1] < 0 ? '-' : '+', ax[r->perm[1]], r->sign[2] < 0 ? '-' : '+',
             ax[r->perm[2]]);
    x->fitted = 1;
    free(s);
    return 0;
}
