/*
 * harness/gltf/export.c: the export's plan (each .dat read once for its
 * kind and clip count, to pair bodies with weapons), what becomes of a
 * finished scene (export.h), and the reference's export: workers take
 * items in order, each loading its files again and making their poses.
 */
#include "harness/gltf/export_priv.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/path.h"
#include "corpus/fileio.h"
#include "corpus/source.h"
#include "ref/dat.h"

void gexport_result_free(gexport_result *r)
{
    if (!r) return;
    free(r->items);
    memset(r, 0, sizeof *r);
}

static void stem(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s", path_base(name));
    size_t l = strlen(buf);
    if (l > 4 && corpus_name_is_dat(buf)) buf[l - 4] = 0;
}

/* Reads and parses entry i: 0, or -1 with err (the file is bad input). */
static int load_entry(corpus *c, size_t i, uint8_t **data, dat_file *d, ff_error *err)
{
    size_t size;
    *data = NULL;
    if (corpus_load(c, i, data, &size, err) < 0) return -1;
    if (dat_parse(*data, size, corpus_name(c, i), d, err) < 0) {
        free(*data);
        *data = NULL;
        return -1;
    }
    return 0;
}

/* A model item's shape and its empty clips, mode-major (ex_plan.models). */
static int shape(gpose_model *md, const dat_file *d, unsigned modes, ff_error *err)
{
    if (gpose_model_init(md, d, (size_t)d->clips * mode_count(modes), err) < 0) return -1;
    for (int m = 0; m < MODE__COUNT; m++) {
        if (!(modes & 1u << m)) continue;
        for (uint32_t k = 0; k < d->clips; k++) {
            gpose_clip *c = &md->clips[md->nclips++];
            c->clip = k;
            c->mode = (mode_id)m;
        }
    }
    return 0;
}

/* Item e for corpus entry i: planned, skipped (no model) or failed (bad input). */
static int plan_model(const gexport_config *cfg, corpus *c, size_t i, gexport_item *e,
                      pairs_file *pf, gpose_model *md, ff_error *err)
{
    snprintf(e->name, sizeof e->name, "%s", corpus_name(c, i));
    e->body = i;
    e->weapon = e->body_item = e->weapon_item = SIZE_MAX;
    uint8_t *data;
    dat_file d;
    if (load_entry(c, i, &data, &d, &e->err) < 0) {
        e->status = GEXPORT_FAILED;
        return e->err.kind == FF_E_NOMEM ? (*err = e->err, -1) : 0;
    }
    pf->parsed = 1;
    pf->kind = d.kind;
    pf->clips = d.clips;
    int rc = 0;
    if (!dat_kind_has_model(d.kind)) {
        e->status = GEXPORT_SKIPPED;
        snprintf(e->err.reason, sizeof e->err.reason, "a %s file holds no model to animate",
                 dat_kind_name(d.kind));
    } else {
        char s[256];
        stem(e->name, s, sizeof s);
        snprintf(e->output, sizeof e->output, "%s.glb", s);
        e->status = GEXPORT_NOT_RUN;
        if (md) rc = shape(md, &d, cfg->modes, err);
    }
    free(data);
    return rc;
}

/* The armed entities of ps as items from it[*k] on. */
static void plan_entities(const pairs_set *ps, const pairs_file *pf, const size_t *item_of,
                          corpus *c, ex_plan *p, size_t *k)
{
    for (size_t q = 0; q < ps->n; q++) {
        const pairs_entity *pe = &ps->e[q];
        if (pe->weapon == PAIRS_NONE || pf[pe->weapon].kind != DAT_WEAPON) continue;
        gexport_item *e = &p->res.items[*k];
        char b[256], w[256];
        stem(corpus_name(c, pe->body), b, sizeof b);
        stem(corpus_name(c, pe->weapon), w, sizeof w);
        snprintf(e->name, sizeof e->name, "%s+%s", corpus_name(c, pe->body),
                 corpus_name(c, pe->weapon));
        snprintf(e->output, sizeof e->output, "%.150s+%.150s.glb", b, w);
        e->body = pe->body;
        e->weapon = pe->weapon;
        e->body_item = item_of[pe->body];
        e->weapon_item = item_of[pe->weapon];
        e->status = GEXPORT_NOT_RUN;
        p->attach[(*k)++] = pe->attach;
    }
}

void ex_plan_free(ex_plan *p)
{
    for (size_t i = 0; p->models && i < p->res.n; i++) {
        gpose_scene s; /* a model's arrays are freed as a scene's */
        gpose_scene_init(&s);
        s.model[0] = p->models[i];
        gpose_scene_free(&s);
    }
    free(p->models);
    free(p->attach);
    p->models = NULL;
    p->attach = NULL;
}

int ex_plan_make(const gexport_config *cfg, int shapes, ex_plan *p, ff_error *err)
{
    memset(p, 0, sizeof *p);
    corpus *c;
    if (corpus_open_lang(cfg->corpus_path, cfg->corpus_lang, &c, err) < 0) return -1;
    size_t n = corpus_count(c);
    pairs_file *pf = calloc(n ? n : 1, sizeof *pf);
    size_t *item_of = calloc(n ? n : 1, sizeof *item_of);
    p->res.items = calloc(2 * n + 1, sizeof *p->res.items);
    p->attach = calloc(2 * n + 1, sizeof *p->attach);
    p->models = shapes ? calloc(2 * n + 1, sizeof *p->models) : NULL;
    pairs_set ps;
    memset(&ps, 0, sizeof ps);
    pairs_attach_list att;
    memset(&att, 0, sizeof att);
    int rc = 0;
    if (!pf || !item_of || !p->res.items || !p->attach || (shapes && !p->models))
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        pf[i] = (pairs_file){corpus_name(c, i), 0, DAT_NO_MODEL, 0};
        item_of[i] = SIZE_MAX;
        if (!corpus_is_dat(c, i)) continue;
        item_of[i] = k;
        rc = plan_model(cfg, c, i, &p->res.items[k], &pf[i], shapes ? &p->models[k] : NULL, err);
        p->res.n = ++k;
    }
    if (rc == 0 && cfg->entities && corpus_get_kind(c) == CORPUS_FOLDER)
        rc = pairs_attach_load(cfg->corpus_path, &att, err);
    if (rc == 0 && cfg->entities) rc = pairs_build(pf, n, &att, &ps, err);
    if (rc == 0) plan_entities(&ps, pf, item_of, c, p, &k);
    p->res.n = k;
    if (rc < 0) {
        ex_plan_free(p);
        gexport_result_free(&p->res);
    }
    pairs_free(&ps);
    pairs_attach_free(&att);
    free(item_of);
    free(pf);
    corpus_close(c);
    return rc;
}

static void summarize(gexport_item *it, const gpose_scene *s, const glb_stats *st)
{
    it->animations = st->nanims;
    it->keyframes = st->keyframes;
    it->decomposition_error = st->decomposition_error;
    it->position_error = st->position_error;
    it->placement_error = st->placement_error;
    it->tolerance = st->tolerance;
    it->joints = st->joints;
    it->world_joints = st->world_joints;
    it->unscaled_joints = st->unscaled_joints;
    snprintf(it->layout, sizeof it->layout, "%s", st->layout);
    for (size_t c = 0; c < s->model[0].nclips; c++) {
        const gpose_clip *cl = &s->model[0].clips[c];
        if (!cl->note[0]) continue;
        it->clips_cut++;
        if (!it->note[0])
            snprintf(it->note, sizeof it->note, "clip %u (%s): %.200s", cl->clip,
                     mode_name(cl->mode), cl->note);
    }
}

int ex_emit(const gexport_config *cfg, gexport_item *it, const gpose_scene *s, ff_error *err)
{
    ff_error_clear(&it->err);
    if (cfg->scene) {
        if (cfg->scene(cfg->scene_arg, it, s, err) < 0) return -1;
        it->status = GEXPORT_DONE;
        return 0;
    }
    glb_stats st;
    uint8_t *glb = NULL;
    size_t len = 0;
    if (glb_build(s, &cfg->meta, &glb, &len, &st, &it->err) < 0) {
        it->status = GEXPORT_FAILED;
        return it->err.kind == FF_E_NOMEM ? (*err = it->err, -1) : 0;
    }
    summarize(it, s, &st);
    glb_stats_free(&st);
    char *path = path_join_new(cfg->out_dir, it->output);
    int rc = path ? fio_write_atomic(path, glb, len, &it->err)
                  : ff_error_set(&it->err, FF_E_NOMEM, NULL, -1, "out of memory");
    free(path);
    free(glb);
    it->status = rc == 0 ? GEXPORT_DONE : GEXPORT_FAILED;
    /* The output cannot be written: the whole export stops. */
    if (rc < 0 && (it->err.kind == FF_E_IO || it->err.kind == FF_E_NOMEM)) {
        *err = it->err;
        return -1;
    }
    return 0;
}

/* ---- the reference's export ---- */

typedef struct ref_ctx {
    const gexport_config *cfg;
    corpus *c;
    ex_plan plan;
    atomic_size_t next;
    atomic_int failed;
    ff_error fail;
} ref_ctx;

static int ref_scene(ref_ctx *x, size_t idx, gpose_scene *s, ff_error *err)
{
    const gexport_config *cfg = x->cfg;
    gexport_item *it = &x->plan.res.items[idx];
    uint8_t *bdata = NULL, *wdata = NULL;
    dat_file bd, wd;
    int armed = it->weapon != SIZE_MAX, rc = load_entry(x->c, it->body, &bdata, &bd, err);
    if (rc == 0 && armed) rc = load_entry(x->c, it->weapon, &wdata, &wd, err);
    const pairs_attach *pa = &x->plan.attach[idx];
    if (rc == 0)
        rc = armed ? gpose_ref_entity(&bd, &wd, pa->rot, pa->trans, &cfg->pose, cfg->modes, s, err)
                   : gpose_ref_model(&bd, &cfg->pose, cfg->modes, s, err);
    free(bdata);
    free(wdata);
    return rc;
}

static void *ref_work(void *arg)
{
    ref_ctx *x = arg;
    for (;;) {
        if (atomic_load(&x->failed) || (x->cfg->cancel && *x->cfg->cancel)) return NULL;
        size_t i = atomic_fetch_add(&x->next, 1);
        if (i >= x->plan.res.n) return NULL;
        gexport_item *it = &x->plan.res.items[i];
        if (it->status != GEXPORT_NOT_RUN) continue;
        gpose_scene s;
        ff_error err;
        if (ref_scene(x, i, &s, &it->err) < 0) {
            it->status = GEXPORT_FAILED;
            continue;
        }
        int rc = ex_emit(x->cfg, it, &s, &err);
        gpose_scene_free(&s);
        if (rc < 0 && !atomic_exchange(&x->failed, 1)) x->fail = err;
    }
}

int gexport_reference(const gexport_config *cfg, gexport_result *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    ref_ctx x;
    memset(&x, 0, sizeof x);
    x.cfg = cfg;
    if (corpus_open_lang(cfg->corpus_path, cfg->corpus_lang, &x.c, err) < 0) return -1;
    int rc = ex_plan_make(cfg, 0, &x.plan, err);
    unsigned jobs = cfg->jobs;
    if (!jobs) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n > 0 ? (unsigned)n : 1;
    }
    if (jobs > x.plan.res.n) jobs = x.plan.res.n ? (unsigned)x.plan.res.n : 1;
    pthread_t *th = rc == 0 ? calloc(jobs, sizeof *th) : NULL;
    if (rc == 0 && !th) rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (rc == 0) {
        unsigned started = 1;
        for (; started < jobs; started++)
            if (pthread_create(&th[started], NULL, ref_work, &x) != 0) break;
        ref_work(&x);
        for (unsigned i = 1; i < started; i++) pthread_join(th[i], NULL);
        if (atomic_load(&x.failed)) {
            *err = x.fail;
            rc = -1;
        }
        x.plan.res.interrupted = cfg->cancel && *cfg->cancel;
    }
    free(th);
    ex_plan_free(&x.plan);
    *out = x.plan.res;
    corpus_close(x.c);
    return rc;
}
