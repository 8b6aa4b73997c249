/*
 * harness/core/group.c: mismatches grouped by signature (level, field kind,
 * mode, shape of the difference), each group keeping its earliest example
 * (lowest result index, so the same for any number of jobs) with the
 * diverging channel over the whole clip for plots.
 */
#include "harness/core/group.h"

#include "harness/core/field_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int pow2_exponent(int64_t d)
{
    if (d < 0) d = -d;
    if (d < 8 || (d & (d - 1))) return -1;
    int k = 0;
    while (d > 1) {
        d >>= 1;
        k++;
    }
    return k;
}

void group_shape(field_id f, int32_t ref, int32_t orig, char *out, size_t n)
{
    int64_t d = (int64_t)orig - ref;
    int k;
    if (f == FIELD_RET) {
        if (ref < 0 || orig < 0) snprintf(out, n, "no_call");
        else if (orig == 1 && ref != 1) snprintf(out, n, "ends_early");
        else if (ref == 1 && orig != 1) snprintf(out, n, "ends_late");
        else snprintf(out, n, "other");
    } else if (field_is_bits(f)) {
        snprintf(out, n, "xor_0x%02x", (unsigned)(ref ^ orig) & 0xFF);
    } else if (field_def_of(f)->type == FIELD_S16 && d % 65536 == 0) {
        /* a candidate with wider integers than the engine's 16-bit field */
        snprintf(out, n, "missing_16bit_wrap");
    } else if (orig == 0) {
        snprintf(out, n, "orig_zero");
    } else if (ref == 0) {
        snprintf(out, n, "ref_zero");
    } else if ((f == FIELD_SCALE_X || f == FIELD_SCALE_Y || f == FIELD_SCALE_Z) && ref == 1024) {
        /* 1.0 where the engine's bytes say otherwise: an absent scale taken as neutral */
        snprintf(out, n, "neutral_scale");
    } else if (d == 1 || d == -1) {
        snprintf(out, n, "off_by_one");
    } else if ((k = pow2_exponent(d)) > 0) {
        /* first: a missing sign extension of a w-bit value differs by 2^w */
        snprintf(out, n, "differs_by_2^%d", k);
    } else if ((int64_t)orig == -(int64_t)ref) {
        snprintf(out, n, "negated");
    } else if ((int64_t)orig == 2 * (int64_t)ref) {
        snprintf(out, n, "doubled");
    } else if (2 * (int64_t)orig == ref) {
        snprintf(out, n, "halved");
    } else {
        snprintf(out, n, "other");
    }
}

static int find_or_add(run_results *res, const char *level, const char *field,
                       const char *mode, const char *shape)
{
    for (size_t i = 0; i < res->ngroups; i++) {
        const res_group *g = &res->groups[i];
        if (!strcmp(g->level, level) && !strcmp(g->field, field) && !strcmp(g->mode, mode) &&
            !strcmp(g->shape, shape))
            return (int)i;
    }
    res_group *g = realloc(res->groups, (res->ngroups + 1) * sizeof *g);
    if (!g) return -1;
    res->groups = g;
    g = &res->groups[res->ngroups];
    memset(g, 0, sizeof *g);
    snprintf(g->level, sizeof g->level, "%s", level);
    snprintf(g->field, sizeof g->field, "%s", field);
    snprintf(g->mode, sizeof g->mode, "%s", mode);
    snprintf(g->shape, sizeof g->shape, "%s", shape);
    g->example = -1;
    g->cause = -1;
    return (int)res->ngroups++;
}

static int capture(res_series *s, const trace *ref, const trace *orig, field_id f,
                   unsigned bone)
{
    size_t n = ref->n > orig->n ? ref->n : orig->n;
    if (n > RES_SERIES_MAX) n = RES_SERIES_MAX;
    int32_t *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = i < ref->n ? trace_value(ref, i, f, bone) : 0;
        b[i] = i < orig->n ? trace_value(orig, i, f, bone) : 0;
    }
    free(s->ref);
    free(s->orig);
    s->ref = a;
    s->orig = b;
    s->n = n;
    s->ref_n = ref->n < n ? ref->n : n;
    s->orig_n = orig->n < n ? orig->n : n;
    return 0;
}

/*
 * The field part of a signature. Two shapes name one defect of a decoder's
 * model wherever it shows: no 16-bit wrap (any 16-bit field: "*") and an
 * absent scale taken as 1.0 (any scale channel: "scale.*").
 */
static const char *signature_field(field_id f, const char *shape)
{
    if (strcmp(shape, "missing_16bit_wrap") == 0) return "*";
    if (strcmp(shape, "neutral_scale") == 0) return "scale.*";
    return field_kind_name(f);
}

void group_figure_free(res_figure *fig)
{
    free(fig->parent);
    free(fig->ref);
    free(fig->orig);
    free(fig->ref_m);
    free(fig->orig_m);
    memset(fig, 0, sizeof *fig);
}

_Static_assert(FIELD_T_Z == FIELD_M00 + 11 && FIELD_WORLD_T_Z == FIELD_WORLD_M00 + 11 &&
                   FIELD_PLACED_T_Z == FIELD_PLACED_M00 + 11,
               "a pose area's 12 rows are m[0][0] .. m[2][2], t.x .. t.z in a row");

/* The first field of the 12 (m[0][0] .. t.z, table order) of a pose area. */
static field_id matrix_base(field_area a)
{
    return a == FIELD_AREA_WORLD ? FIELD_WORLD_M00 : a == FIELD_AREA_PLACED ? FIELD_PLACED_M00
                                                                            : FIELD_M00;
}

/*
 * Both sides' matrices at the divergence's tick, in the area of the
 * diverging field (bone, world or placed), when both carry them.
 */
static int capture_figure(res_figure *fig, const trace *ref, const trace *orig, size_t tick,
                          field_id f, unsigned bone, const int16_t *parents)
{
    unsigned n = ref->lay.bones;
    group_figure_free(fig);
    field_area area = field_def_of(f)->area;
    field_id m0 = matrix_base(area);
    if (!parents || !n || n != orig->lay.bones || tick >= ref->n || tick >= orig->n ||
        !trace_has(ref, m0) || !trace_has(orig, m0))
        return 0;
    fig->parent = malloc(n * sizeof *fig->parent);
    fig->ref = malloc(3 * n * sizeof *fig->ref);
    fig->orig = malloc(3 * n * sizeof *fig->orig);
    fig->ref_m = malloc(9 * n * sizeof *fig->ref_m);
    fig->orig_m = malloc(9 * n * sizeof *fig->orig_m);
    if (!fig->parent || !fig->ref || !fig->orig || !fig->ref_m || !fig->orig_m) {
        group_figure_free(fig);
        return -1;
    }
    for (unsigned b = 0; b < n; b++) {
        fig->parent[b] = parents[b];
        for (int k = 0; k < 9; k++) {
            fig->ref_m[9 * b + k] = trace_value(ref, tick, (field_id)(m0 + k), b);
            fig->orig_m[9 * b + k] = trace_value(orig, tick, (field_id)(m0 + k), b);
        }
        for (int k = 0; k < 3; k++) {
            fig->ref[3 * b + k] = trace_value(ref, tick, (field_id)(m0 + 9 + k), b);
            fig->orig[3 * b + k] = trace_value(orig, tick, (field_id)(m0 + 9 + k), b);
        }
    }
    fig->bones = n;
    fig->bone = bone;
    fig->tick = tick;
    fig->area = area;
    return 0;
}

int group_add_frame(run_results *res, size_t idx, const trace *ref, const trace *orig,
                    const int16_t *parents)
{
    clip_result *r = &res->results[idx];
    char shape[48];
    group_shape(r->div.field, r->div.ref, r->div.orig, shape, sizeof shape);
    /* The x87 emulation limit is a class of its own, never merged with real mismatches. */
    if (r->x87_limit) snprintf(shape, sizeof shape, "x87_precision");
    int gi = find_or_add(res, "frame", signature_field(r->div.field, shape), mode_name(r->mode),
                         shape);
    if (gi < 0) return -1;
    res_group *g = &res->groups[gi];
    g->count++;
    r->group = gi;
    if (g->example < 0 || (int64_t)idx < g->example) {
        g->example = (int64_t)idx;
        if (capture(&g->series, ref, orig, r->div.field, r->div.bone) < 0) return -1;
        int pose = field_def_of(r->div.field)->level == FIELD_LEVEL_POSE;
        if (capture_figure(&g->figure, ref, orig, r->div.tick, r->div.field, r->div.bone,
                           pose ? parents : NULL) < 0)
            return -1;
    }
    return 0;
}

int group_add_entity(run_results *res, size_t idx, const trace *ref, const trace *orig)
{
    clip_result *r = &res->entity_results[idx].r;
    char shape[48], field[32];
    group_shape(r->div.field, r->div.ref, r->div.orig, shape, sizeof shape);
    field_model_prefix(r->div.model, signature_field(r->div.field, shape), field, sizeof field);
    int gi = find_or_add(res, "entity", field, mode_name(r->mode), shape);
    if (gi < 0) return -1;
    res_group *g = &res->groups[gi];
    g->count++;
    r->group = gi;
    if (g->example < 0 || (int64_t)idx < g->example) {
        g->example = (int64_t)idx;
        if (capture(&g->series, ref, orig, r->div.field, r->div.bone) < 0) return -1;
    }
    return 0;
}

int group_add_leaf(run_results *res, unsigned leaf)
{
    leaf_result *l = &res->leaf[leaf];
    if (!l->mismatches) return 0;
    const leaf_case *c = &l->first;
    char shape[48];
    if (c->ref_ax != c->orig_ax) group_shape(FIELD_ROOT_X, c->ref_ax, c->orig_ax, shape, sizeof shape);
    else snprintf(shape, sizeof shape, "cursor");
    int gi = find_or_add(res, "leaf", l->routine, "-", shape);
    if (gi < 0) return -1;
    res->groups[gi].count += l->mismatches;
    res->groups[gi].example = leaf;
    l->group = gi;
    return 0;
}

static int cmp_group(const void *a, const void *b)
{
    const res_group *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    int c;
    if ((c = strcmp(x->level, y->level))) return c;
    if ((c = strcmp(x->field, y->field))) return c;
    if ((c = strcmp(x->mode, y->mode))) return c;
    return strcmp(x->shape, y->shape);
}

void group_sort(run_results *res)
{
    size_t n = res->ngroups;
    if (n < 2) return;
    /* Sort a copy that remembers the old index, then renumber the results. */
    int *old_to_new = malloc(n * sizeof *old_to_new);
    res_group *sorted = malloc(n * sizeof *sorted);
    if (!old_to_new || !sorted) {
        free(old_to_new);
        free(sorted);
        return; /* unsorted groups are still correct, only less readable */
    }
    memcpy(sorted, res->groups, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_group);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (cmp_group(&sorted[i], &res->groups[j]) == 0) {
                old_to_new[j] = (int)i;
                break;
            }
    for (size_t i = 0; i < res->nresults; i++)
        if (res->results[i].group >= 0) res->results[i].group = old_to_new[res->results[i].group];
    for (size_t i = 0; i < res->nleaf; i++)
        if (res->leaf[i].group >= 0) res->leaf[i].group = old_to_new[res->leaf[i].group];
    for (size_t i = 0; i < res->nentity_results; i++)
        if (res->entity_results[i].r.group >= 0)
            res->entity_results[i].r.group = old_to_new[res->entity_results[i].r.group];
    memcpy(res->groups, sorted, n * sizeof *sorted);
    free(old_to_new);
    free(sorted);
}
