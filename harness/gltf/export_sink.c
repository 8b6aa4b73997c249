/*
 * harness/gltf/export_sink.c: the original's export as a consumer of a run
 * (export.h). Each clip the run hands over becomes its model's keyframes
 * (the bone matrices of every state whose call returned 0); the unit count
 * of each model file tells when every mode has come. That model's scene is
 * then emitted, and each entity whose other model is complete too; the
 * model's matrices are freed once every output that needs them is made.
 * Bookkeeping is under one lock, building and writing outside it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/gltf/export_priv.h"
#include "harness/run/pose_side.h"
#include "harness/run/refside.h"

/* A model item's progress through the run. */
typedef struct ex_model {
    unsigned units_left; /* the run's units (one per mode) still to come */
    unsigned users;      /* outputs still to make from its matrices: its own, its entities' */
    int done;            /* no unit left to come */
    int whole;           /* every unit came complete */
    ff_error why;        /* its file could not be read again (kind OK: it could) */
} ex_model;

struct gexport {
    const gexport_config *cfg;
    ex_plan plan;
    ex_model *model;      /* per item (model items only) */
    int *resolved;        /* per item: an entity made, or known never to be */
    size_t *item_of_file; /* per file of the run: its model item, SIZE_MAX: none */
    size_t nfiles;
    int rank[MODE__COUNT]; /* a mode's place among cfg's modes */
    ref_pose_opts pose;    /* the run's convention: the attach matrices' trig and step */
    pthread_mutex_t lock;
    run_sink sink;
};

static int is_entity(const gexport_item *it)
{
    return it->weapon != SIZE_MAX;
}

/* The model item named like run file name; SIZE_MAX when none. */
static size_t item_named(const gexport *x, const char *name)
{
    for (size_t i = 0; i < x->plan.res.n; i++) {
        const gexport_item *it = &x->plan.res.items[i];
        if (!is_entity(it) && x->plan.models[i].clips && !strcmp(it->name, name)) return i;
    }
    return SIZE_MAX;
}

/* The scene of model item i alone (its arrays borrowed). */
static void model_scene(const gexport *x, size_t i, gpose_scene *s)
{
    gpose_scene_init(s);
    s->nmodels = 1;
    s->model[0] = x->plan.models[i];
    snprintf(s->name, sizeof s->name, "%s", s->model[0].name);
    for (int k = 0; k < 3; k++) s->attach.m[k][k] = 4096;
}

/* An output of model item i is made, or never will be: its matrices go with the last. */
static void release(gexport *x, size_t i)
{
    if (--x->model[i].users) return;
    gpose_model *md = &x->plan.models[i];
    for (size_t c = 0; c < md->nclips; c++) {
        free(md->clips[c].m);
        md->clips[c].m = NULL;
    }
}

/* Entity item e, both models done and whole: composed and emitted. */
static int emit_entity(gexport *x, size_t e, ff_error *err)
{
    gexport_item *it = &x->plan.res.items[e];
    const pairs_attach *pa = &x->plan.attach[e];
    ref_matrix attach;
    pose_attach_matrix(&x->pose, pa->rot, pa->trans, &attach);
    gpose_scene s;
    if (gpose_entity_compose(&x->plan.models[it->body_item], &x->plan.models[it->weapon_item],
                             &attach, &s, &it->err) < 0) {
        it->status = GEXPORT_FAILED;
        *err = it->err;
        return -1; /* memory */
    }
    int rc = ex_emit(x->cfg, it, &s, err);
    gpose_scene_free(&s);
    return rc;
}

/* What an output that cannot be made says: its model's file, or nothing (not run). */
static void not_made(gexport_item *it, const ex_model *m)
{
    if (m->why.kind == FF_E_OK) return;
    it->status = GEXPORT_FAILED;
    it->err = m->why;
}

/*
 * Model item i has no unit left to come: its own output, then each entity
 * of it whose other model is done too. Called without the lock.
 */
static int model_done(gexport *x, size_t i, ff_error *err)
{
    size_t n = x->plan.res.n;
    size_t *mine = malloc((n ? n : 1) * sizeof *mine), nmine = 0;
    if (!mine) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    pthread_mutex_lock(&x->lock);
    x->model[i].done = 1;
    for (size_t e = 0; e < n; e++) {
        const gexport_item *it = &x->plan.res.items[e];
        if (!is_entity(it) || x->resolved[e] || (it->body_item != i && it->weapon_item != i))
            continue;
        size_t other = it->body_item == i ? it->weapon_item : it->body_item;
        if (!x->model[other].done) continue;
        x->resolved[e] = 1; /* the last of its two models to finish makes it */
        mine[nmine++] = e;
    }
    pthread_mutex_unlock(&x->lock);
    int rc = 0;
    gexport_item *own = &x->plan.res.items[i];
    if (!x->model[i].whole) {
        not_made(own, &x->model[i]);
    } else {
        gpose_scene s;
        model_scene(x, i, &s);
        rc = ex_emit(x->cfg, own, &s, err); /* s borrows: not freed */
    }
    for (size_t k = 0; k < nmine && rc == 0; k++) {
        gexport_item *it = &x->plan.res.items[mine[k]];
        const ex_model *b = &x->model[it->body_item], *w = &x->model[it->weapon_item];
        if (b->whole && w->whole)
            rc = emit_entity(x, mine[k], err);
        else
            not_made(it, b->whole ? w : b);
    }
    pthread_mutex_lock(&x->lock);
    release(x, i);
    for (size_t k = 0; k < nmine; k++) {
        const gexport_item *it = &x->plan.res.items[mine[k]];
        release(x, it->body_item);
        release(x, it->weapon_item);
    }
    pthread_mutex_unlock(&x->lock);
    free(mine);
    return rc;
}

/* ---- the run's sink ---- */

static int on_begin(void *arg, const run_results *res, const ref_pose_opts *pose, ff_error *err)
{
    gexport *x = arg;
    if (pose) x->pose = *pose;
    x->nfiles = res->nfiles;
    x->item_of_file = malloc((res->nfiles ? res->nfiles : 1) * sizeof *x->item_of_file);
    if (!x->item_of_file) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    unsigned units = mode_count(x->cfg->modes);
    for (size_t f = 0; f < res->nfiles; f++) {
        const run_file *rf = &res->files[f];
        size_t i = item_named(x, rf->name);
        x->item_of_file[f] = i;
        /* The run makes a unit per mode of each model file it parsed (and none of others). */
        if (i != SIZE_MAX && rf->parsed && dat_kind_has_model(rf->kind))
            x->model[i].units_left = units;
    }
    for (size_t i = 0; i < x->plan.res.n; i++) {
        const gexport_item *it = &x->plan.res.items[i];
        if (it->status != GEXPORT_NOT_RUN) continue;
        if (is_entity(it)) {
            x->model[it->body_item].users++;
            x->model[it->weapon_item].users++;
        } else {
            x->model[i].users++;
            x->model[i].whole = 1;
        }
    }
    /* A model file the run will not go through (it changed since the plan read it). */
    for (size_t i = 0; i < x->plan.res.n; i++) {
        gexport_item *it = &x->plan.res.items[i];
        if (is_entity(it) || it->status != GEXPORT_NOT_RUN || x->model[i].units_left) continue;
        ff_error_set(&x->model[i].why, FF_E_FORMAT, it->name, -1,
                     "the run found no model in this file");
        x->model[i].whole = 0;
        if (model_done(x, i, err) < 0) return -1;
    }
    return 0;
}

/* Why clip c (trace t, n keyframes of bones bones) has fewer keyframes than calls, into note. */
static void clip_note(const run_sink_clip *c, const trace *t, size_t n, unsigned bones, char *note,
                      size_t len)
{
    if (!c->orig)
        snprintf(note, len, "no original side: %.200s", c->error ? c->error->reason : "?");
    else if (c->orig->faulted)
        snprintf(note, len, "the original faulted (%s) at 0x%08X: %.180s",
                 emu_fault_name(c->orig->fault.kind), (unsigned)c->orig->fault.eip,
                 c->orig->fault.detail);
    else if (!trace_has(t, FIELD_M00))
        snprintf(note, len, "the original's side carries no bone matrices (recorded without "
                            "the pose level)");
    else if (t->lay.bones != bones)
        snprintf(note, len, "the original's side has %u bones, the file %u", t->lay.bones, bones);
    else if (n == t->n)
        snprintf(note, len, "never returned 1 after %zu calls", t->n);
}

static int on_clip(void *arg, const run_sink_clip *c, ff_error *err)
{
    gexport *x = arg;
    size_t i = c->file < x->nfiles ? x->item_of_file[c->file] : SIZE_MAX;
    if (i == SIZE_MAX || x->plan.res.items[i].status != GEXPORT_NOT_RUN) return 0;
    gpose_model *md = &x->plan.models[i];
    size_t per_mode = md->nclips / mode_count(x->cfg->modes);
    if (c->clip >= per_mode) return 0;
    gpose_clip *g = &md->clips[(size_t)x->rank[c->mode] * per_mode + c->clip];
    const trace *t = c->orig ? &c->orig->t : NULL;
    size_t n = 0;
    if (t && trace_has(t, FIELD_M00) && t->lay.bones == md->bones)
        while (n < t->n && trace_value(t, n, FIELD_RET, 0) == 0) n++;
    clip_note(c, t, n, md->bones, g->note, sizeof g->note);
    if (!n) return 0;
    g->m = malloc(n * md->bones * sizeof *g->m);
    if (!g->m) return ff_error_set(err, FF_E_NOMEM, md->name, -1, "out of memory for poses");
    for (size_t k = 0; k < n; k++)
        for (unsigned b = 0; b < md->bones; b++) {
            ref_matrix *m = &g->m[k * md->bones + b];
            for (int r = 0; r < 9; r++)
                m->m[r / 3][r % 3] = (int16_t)trace_value(t, k, (field_id)(FIELD_M00 + r), b);
            for (int a = 0; a < 3; a++) m->t[a] = trace_value(t, k, (field_id)(FIELD_T_X + a), b);
        }
    g->frames = n;
    return 0;
}

static int on_unit_done(void *arg, uint32_t file, mode_id mode, int complete, const ff_error *why,
                        ff_error *err)
{
    (void)mode;
    gexport *x = arg;
    size_t i = file < x->nfiles ? x->item_of_file[file] : SIZE_MAX;
    if (i == SIZE_MAX) return 0;
    pthread_mutex_lock(&x->lock);
    ex_model *m = &x->model[i];
    if (!complete) m->whole = 0;
    if (why && m->why.kind == FF_E_OK) m->why = *why;
    int last = m->units_left && --m->units_left == 0;
    pthread_mutex_unlock(&x->lock);
    return last ? model_done(x, i, err) : 0;
}

/* ---- open, close ---- */

int gexport_open(const gexport_config *cfg, gexport **out, ff_error *err)
{
    *out = NULL;
    gexport *x = calloc(1, sizeof *x);
    if (!x) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    x->cfg = cfg;
    x->pose = cfg->pose;
    for (int m = 0, r = 0; m < MODE__COUNT; m++) x->rank[m] = cfg->modes & 1u << m ? r++ : -1;
    if (ex_plan_make(cfg, 1, &x->plan, err) < 0) {
        free(x);
        return -1;
    }
    size_t n = x->plan.res.n ? x->plan.res.n : 1;
    x->model = calloc(n, sizeof *x->model);
    x->resolved = calloc(n, sizeof *x->resolved);
    if (!x->model || !x->resolved || !mode_count(cfg->modes)) {
        ff_error_set(err, x->model && x->resolved ? FF_E_USAGE : FF_E_NOMEM, NULL, -1,
                     x->model && x->resolved ? "no mode to export" : "out of memory");
        gexport_result r;
        gexport_close(x, 0, &r);
        gexport_result_free(&r);
        return -1;
    }
    pthread_mutex_init(&x->lock, NULL);
    x->sink = (run_sink){x, on_begin, on_clip, on_unit_done};
    *out = x;
    return 0;
}

const run_sink *gexport_sink(gexport *x)
{
    return &x->sink;
}

void gexport_close(gexport *x, int interrupted, gexport_result *out)
{
    memset(out, 0, sizeof *out);
    if (!x) return;
    ex_plan_free(&x->plan);
    *out = x->plan.res;
    out->interrupted = interrupted;
    if (x->sink.arg) pthread_mutex_destroy(&x->lock);
    free(x->model);
    free(x->resolved);
    free(x->item_of_file);
    free(x);
}

/* ---- one model's poses ---- */

static int keep_scene(void *arg, gexport_item *it, const gpose_scene *s, ff_error *err)
{
    (void)it;
    return gpose_scene_copy(arg, s, err);
}

int gexport_model_poses(const emu_image *image, const emu_ops *engine, const char *dat_path,
                        unsigned modes, const ref_pose_opts *pose, uint64_t budget,
                        gpose_scene *out, ff_error *err)
{
    gpose_scene_init(out);
    gexport_config ec = {dat_path, NULL, GPOSE_ORIGINAL, *pose, modes, 0, 1,
                         {"original", NULL, NULL, NULL, NULL, 0, 0}, NULL, keep_scene, out, NULL};
    gexport *x;
    if (gexport_open(&ec, &x, err) < 0) return -1;
    run_config rc;
    run_config_init(&rc);
    rc.corpus_path = dat_path;
    rc.image = image;
    rc.game.budget = budget;
    rc.game.engine = engine;
    rc.modes = modes;
    rc.pose_level = 1;
    rc.pose_opts = *pose;
    rc.jobs = 1;
    rc.explain = RUN_EXPLAIN_NONE;
    rc.coverage = 0;
    rc.sink = gexport_sink(x);
    run_results res;
    int ok = run_execute(&rc, &res, err);
    run_results_free(&res);
    gexport_result r;
    gexport_close(x, 0, &r);
    const gexport_item *it = r.n ? &r.items[0] : NULL;
    if (ok == 0 && (!it || it->status != GEXPORT_DONE)) {
        if (it && it->err.kind != FF_E_OK) *err = it->err;
        else
            ff_error_set(err, FF_E_FORMAT, dat_path, -1, "%s",
                         it && it->err.reason[0] ? it->err.reason : "no model to pose");
        ok = -1;
    }
    gexport_result_free(&r);
    if (ok < 0) gpose_scene_free(out);
    return ok;
}
