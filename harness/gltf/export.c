/*
 * harness/gltf/export.c: the export over a corpus (export.h). A plan pass
 * reads each .dat once for its kind and clip count (to pair bodies with
 * weapons), then workers take items in order, each loading its files
 * again, collecting the poses and writing the .glb.
 */
#include "harness/gltf/export.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus/fileio.h"
#include "corpus/pairs.h"
#include "corpus/source.h"
#include "ref/dat.h"

typedef struct ex_ctx {
    const gexport_config *cfg;
    corpus *c;
    gexport_result *res;
    pairs_attach *attach; /* per item (pairs only) */
    atomic_size_t next;
    atomic_int failed;
    ff_error fail;
} ex_ctx;

void gexport_result_free(gexport_result *r)
{
    if (!r) return;
    free(r->items);
    memset(r, 0, sizeof *r);
}

static void stem(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s", pairs_base_name(name));
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

/* The items: model files alone, then armed entities. */
static int plan(ex_ctx *x, ff_error *err)
{
    corpus *c = x->c;
    size_t n = corpus_count(c);
    pairs_file *pf = calloc(n ? n : 1, sizeof *pf);
    gexport_item *it = calloc(2 * n + 1, sizeof *it);
    x->attach = calloc(2 * n + 1, sizeof *x->attach);
    pairs_set ps;
    memset(&ps, 0, sizeof ps);
    pairs_attach_list att;
    memset(&att, 0, sizeof att);
    int rc = 0;
    if (!pf || !it || !x->attach) rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        pf[i] = (pairs_file){corpus_name(c, i), 0, DAT_NO_MODEL, 0};
        if (!corpus_is_dat(c, i)) continue;
        gexport_item *e = &it[k++];
        snprintf(e->name, sizeof e->name, "%s", corpus_name(c, i));
        e->body = i;
        e->weapon = SIZE_MAX;
        uint8_t *data;
        dat_file d;
        if (load_entry(c, i, &data, &d, &e->err) < 0) {
            e->status = GEXPORT_FAILED;
            continue;
        }
        pf[i].parsed = 1;
        pf[i].kind = d.kind;
        pf[i].clips = d.clips;
        free(data);
        if (!dat_kind_has_model(d.kind)) {
            e->status = GEXPORT_SKIPPED;
            snprintf(e->err.reason, sizeof e->err.reason, "a %s file holds no model to animate",
                     dat_kind_name(d.kind));
            continue;
        }
        char s[256];
        stem(e->name, s, sizeof s);
        snprintf(e->output, sizeof e->output, "%s.glb", s);
        e->status = GEXPORT_NOT_RUN;
    }
    if (rc == 0 && corpus_get_kind(c) == CORPUS_FOLDER)
        rc = pairs_attach_load(x->cfg->corpus_path, &att, err);
    if (rc == 0) rc = pairs_build(pf, n, &att, &ps, err);
    for (size_t p = 0; rc == 0 && p < ps.n; p++) {
        const pairs_entity *pe = &ps.e[p];
        if (pe->weapon == PAIRS_NONE || pf[pe->weapon].kind != DAT_WEAPON) continue;
        gexport_item *e = &it[k];
        char b[256], w[256];
        stem(corpus_name(c, pe->body), b, sizeof b);
        stem(corpus_name(c, pe->weapon), w, sizeof w);
        snprintf(e->name, sizeof e->name, "%s+%s", corpus_name(c, pe->body),
                 corpus_name(c, pe->weapon));
        snprintf(e->output, sizeof e->output, "%.150s+%.150s.glb", b, w);
        e->body = pe->body;
        e->weapon = pe->weapon;
        e->status = GEXPORT_NOT_RUN;
        x->attach[k++] = pe->attach;
    }
    x->res->items = it;
    x->res->n = k;
    if (rc < 0 || !it) {
        free(it);
        x->res->items = NULL;
        x->res->n = 0;
    }
    pairs_free(&ps);
    pairs_attach_free(&att);
    free(pf);
    return rc;
}

/* One worker's engine, opened at its first item. */
typedef struct ex_worker {
    ex_ctx *x;
    emu_game *g;
    emu_entity *e;
} ex_worker;

static int collect(ex_worker *w, size_t idx, gpose_scene *s, ff_error *err)
{
    const gexport_config *cfg = w->x->cfg;
    gexport_item *it = &w->x->res->items[idx];
    uint8_t *bdata = NULL, *wdata = NULL;
    dat_file bd, wd;
    int armed = it->weapon != SIZE_MAX, rc = load_entry(w->x->c, it->body, &bdata, &bd, err);
    if (rc == 0 && armed) rc = load_entry(w->x->c, it->weapon, &wdata, &wd, err);
    const pairs_attach *pa = &w->x->attach[idx];
    if (rc == 0 && cfg->source == GPOSE_REFERENCE) {
        rc = armed ? gpose_ref_entity(&bd, &wd, pa->rot, pa->trans, &cfg->pose, cfg->modes, s, err)
                   : gpose_ref_model(&bd, &cfg->pose, cfg->modes, s, err);
    } else if (rc == 0) {
        emu_game_opts o = {1, cfg->budget};
        if (!w->g && emu_game_open(cfg->image, &o, &w->g, err) < 0) rc = -1;
        if (rc == 0 && armed && !w->e && emu_entity_open(w->g, &w->e, err) < 0) rc = -1;
        if (rc == 0)
            rc = armed ? gpose_orig_entity(w->e, &bd, &wd, pa->rot, pa->trans, &cfg->pose,
                                           cfg->modes, s, err)
                       : gpose_orig_model(w->g, &bd, cfg->modes, s, err);
    }
    free(bdata);
    free(wdata);
    return rc;
}

static void summarize(gexport_item *it, const gpose_scene *s, const glb_stats *st)
{
    it->animations = st->nanims;
    it->keyframes = st->keyframes;
    it->decomposition_error = st->decomposition_error;
    it->position_error = st->position_error;
    for (size_t c = 0; c < s->model[0].nclips; c++) {
        const char *note = s->model[0].clips[c].note;
        if (!note[0]) continue;
        it->clips_cut++;
        if (!it->note[0]) snprintf(it->note, sizeof it->note, "clip %u (%s): %.200s", s->model[0].clips[c].clip, mode_name(s->model[0].clips[c].mode), note);
    }
}

static void do_item(ex_worker *w, size_t idx)
{
    gexport_item *it = &w->x->res->items[idx];
    const gexport_config *cfg = w->x->cfg;
    gpose_scene s;
    glb_stats st;
    uint8_t *glb = NULL;
    size_t len = 0;
    ff_error_clear(&it->err);
    if (collect(w, idx, &s, &it->err) < 0) {
        it->status = GEXPORT_FAILED;
        return;
    }
    if (glb_build(&s, &cfg->meta, &glb, &len, &st, &it->err) < 0) {
        gpose_scene_free(&s);
        it->status = GEXPORT_FAILED;
        return;
    }
    summarize(it, &s, &st);
    glb_stats_free(&st);
    gpose_scene_free(&s);
    char *path = fio_join(cfg->out_dir, it->output);
    int rc = path ? fio_write_atomic(path, glb, len, &it->err)
                  : ff_error_set(&it->err, FF_E_NOMEM, NULL, -1, "out of memory");
    free(path);
    free(glb);
    it->status = rc == 0 ? GEXPORT_DONE : GEXPORT_FAILED;
    if (rc < 0 && (it->err.kind == FF_E_IO || it->err.kind == FF_E_NOMEM) &&
        !atomic_exchange(&w->x->failed, 1))
        w->x->fail = it->err; /* the output cannot be written: the whole export stops */
}

static void *work(void *arg)
{
    ex_worker *w = arg;
    ex_ctx *x = w->x;
    for (;;) {
        if (atomic_load(&x->failed) || (x->cfg->cancel && *x->cfg->cancel)) return NULL;
        size_t i = atomic_fetch_add(&x->next, 1);
        if (i >= x->res->n) return NULL;
        if (x->res->items[i].status == GEXPORT_NOT_RUN) do_item(w, i);
    }
}

int gexport_run(const gexport_config *cfg, gexport_result *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    if (cfg->source == GPOSE_ORIGINAL && !cfg->image)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "an export of the original needs an executable");
    ex_ctx x;
    memset(&x, 0, sizeof x);
    x.cfg = cfg;
    x.res = out;
    if (corpus_open(cfg->corpus_path, &x.c, err) < 0) return -1;
    int rc = plan(&x, err);
    unsigned jobs = cfg->jobs;
    if (!jobs) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n > 0 ? (unsigned)n : 1;
    }
    if (jobs > out->n) jobs = out->n ? (unsigned)out->n : 1;
    if (rc == 0 && cfg->source == GPOSE_ORIGINAL) rc = emu_game_room(jobs, err);
    ex_worker *w = rc == 0 ? calloc(jobs, sizeof *w) : NULL;
    pthread_t *th = rc == 0 ? calloc(jobs, sizeof *th) : NULL;
    if (rc == 0 && (!w || !th)) rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    unsigned started = 1;
    if (rc == 0) {
        for (unsigned i = 0; i < jobs; i++) w[i].x = &x;
        for (; started < jobs; started++)
            if (pthread_create(&th[started], NULL, work, &w[started]) != 0) break;
        work(&w[0]);
        for (unsigned i = 1; i < started; i++) pthread_join(th[i], NULL);
        for (unsigned i = 0; i < jobs; i++) {
            emu_entity_close(w[i].e);
            if (w[i].g) emu_game_close(w[i].g);
        }
        if (atomic_load(&x.failed)) {
            *err = x.fail;
            rc = -1;
        }
        out->interrupted = cfg->cancel && *cfg->cancel;
    }
    free(w);
    free(th);
    free(x.attach);
    corpus_close(x.c);
    return rc;
}
