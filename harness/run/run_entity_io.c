/*
 * harness/run/run_entity_io.c: entity outcomes in blobs, and an entity
 * unit's trace files (candidate, authority, recording). Every problem with
 * a trace file is the clip's error and names the file and line; a file of
 * another pair or mode fails every clip after the problem.
 */
#include "harness/run/run_entity_io.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/path.h"
#include "harness/run/both.h"
#include "harness/traces/traceset.h"

/* ---- outcomes ---- */

void ent_outcome_init(ent_outcome *o)
{
    memset(o, 0, sizeof *o);
    ent_trace_init(&o->t);
}

void ent_outcome_free(ent_outcome *o)
{
    ent_trace_free(&o->t);
    ent_outcome_init(o);
}

/* An orig_outcome that borrows tr (never freed through it). */
static void view(orig_outcome *v, const trace *tr, int faulted, const emu_fault *fault)
{
    memset(v, 0, sizeof *v);
    v->t = *tr;
    v->faulted = faulted;
    if (faulted) v->fault = *fault;
}

void ent_both_compare(const ent_outcome *a, const ent_outcome *b, res_both *out)
{
    orig_outcome x, y;
    view(&x, &a->t.body, a->faulted, &a->fault);
    view(&y, &b->t.body, b->faulted, &b->fault);
    both_compare(&x, &y, out);
    out->div.model = a->t.armed ? FIELD_MODEL_BODY : FIELD_MODEL_NONE;
    if (!a->t.armed) return;
    res_both w;
    view(&x, &a->t.weapon, 0, NULL);
    view(&y, &b->t.weapon, 0, NULL);
    both_compare(&x, &y, &w);
    if (w.state == RES_ENG_AGREE) return;
    out->cells += w.cells;
    if (out->state == RES_ENG_AGREE) {
        out->div = w.div; /* the body agrees: the first difference is the weapon's */
        out->div.model = FIELD_MODEL_WEAPON;
    }
    if (out->state != RES_ENG_DISAGREE) out->state = w.state;
}

void ent_outcome_append(strbuf *raw, uint32_t clip, const ent_outcome *o)
{
    orig_outcome v;
    if (o->t.armed) {
        view(&v, &o->t.weapon, 0, NULL);
        outcome_append(raw, clip, &v);
    }
    view(&v, &o->t.body, o->faulted, &o->fault);
    outcome_append(raw, clip, &v);
}

void ent_outcome_append_packed(strbuf *raw, uint32_t clip, const ent_outcome *o)
{
    orig_outcome v;
    if (o->t.armed) {
        view(&v, &o->t.weapon, 0, NULL);
        outcome_append_cached(raw, clip, &v, NULL);
    }
    view(&v, &o->t.body, o->faulted, &o->fault);
    outcome_append_cached(raw, clip, &v, NULL);
}

/* One record into *tr (its memory reused). 1 when it is clip's, else 0 with err. */
static int next_record(const uint8_t *raw, size_t len, size_t *pos, uint32_t clip, trace *tr,
                       int *faulted, emu_fault *fault, ff_error *err)
{
    orig_outcome v;
    memset(&v, 0, sizeof v);
    v.t = *tr; /* lent to outcome_next, taken back below */
    uint32_t got = 0;
    int rc = outcome_next(raw, len, pos, &got, &v, "entity outcomes", err);
    *tr = v.t;
    if (rc != 1 || got != clip) {
        if (rc >= 0)
            ff_error_set(err, FF_E_FORMAT, "entity outcomes", (int64_t)*pos,
                         "no record of clip %u next", clip);
        return 0;
    }
    if (v.digested) /* the entity level keeps its rows whole */
        return ff_error_set(err, FF_E_FORMAT, "entity outcomes", (int64_t)*pos,
                            "clip %u is kept as a digest, not as rows", clip) == 0;
    *faulted = v.faulted;
    if (v.faulted) *fault = v.fault;
    return 1;
}

int ent_outcome_next(const uint8_t *raw, size_t len, size_t *pos, uint32_t clip, int armed,
                     ent_outcome *o, ff_error *err)
{
    field_set none = {{0, 0}};
    int wf = 0;
    o->t.armed = armed != 0;
    if (armed) {
        if (!next_record(raw, len, pos, clip, &o->t.weapon, &wf, &o->fault, err)) return 0;
    } else {
        trace_clear(&o->t.weapon, &none, 0);
    }
    o->faulted = 0;
    if (!next_record(raw, len, pos, clip, &o->t.body, &o->faulted, &o->fault, err)) return 0;
    return wf ? ff_error_set(err, FF_E_FORMAT, "entity outcomes", (int64_t)*pos,
                             "a weapon record holds a fault") == 0
              : 1;
}

/* ---- names ---- */

char *ent_files_pair_name(const run_results *r, const res_entity *en, char *buf, size_t n)
{
    tj_pair_name(buf, n, r->files[en->body].name,
                 en->weapon >= 0 ? r->files[en->weapon].name : NULL);
    return buf;
}

static const char *weapon_name(const run_ctx *ctx, const res_entity *en)
{
    return en->weapon >= 0 ? ctx->res->files[en->weapon].name : NULL;
}

/* ---- reading ---- */

static void reader_fail(ent_reader *rd, const ff_error *e)
{
    rd->failed = 1;
    rd->err = *e;
}

/* The entry's files must be these very bytes. Returns 0, or -1 with e. */
static int same_files(const run_ctx *ctx, const res_entity *en, const tset_entity *te,
                      const char *dir, ff_error *e)
{
    const run_file *b = &ctx->res->files[en->body];
    const run_file *w = en->weapon >= 0 ? &ctx->res->files[en->weapon] : NULL;
    if (strcmp(te->body_sha256, b->sha256) != 0 || (w && strcmp(te->weapon_sha256, w->sha256)))
        return ff_error_set(e, FF_E_FORMAT, b->name, -1,
                            "entity traces in %s recorded from different files (SHA-256)", dir);
    return 0;
}

/* The pair's file in a folder no manifest lists: .jsonl or .jsonl.lz4, not both. */
static void open_unlisted(ent_reader *rd, const char *dir, const char *body, const char *weapon,
                          mode_id m, ff_error *e)
{
    char file[1200], found[1200] = "", path[sizeof rd->path];
    for (int lz4 = 0; lz4 < 2; lz4++) {
        struct stat st;
        tj_entity_file_name(file, sizeof file, body, weapon, m, lz4);
        if (path_join(path, sizeof path, dir, file, e) < 0) return;
        if (lstat(path, &st) != 0) continue;
        if (found[0]) {
            ff_error_set(e, FF_E_FORMAT, dir, -1,
                         "two trace files for one entity in %s mode: %s and %s (remove one)",
                         mode_name(m), found, file);
            return;
        }
        snprintf(found, sizeof found, "%s", file);
        snprintf(rd->path, sizeof rd->path, "%s", path);
    }
    if (found[0]) {
        rd->r = tj_open(rd->path, e);
        return;
    }
    char pair[2 * TJ_NAME_MAX + 2];
    tj_pair_name(pair, sizeof pair, body, weapon);
    ff_error_set(e, FF_E_IO, dir, -1, "no trace file for entity %s in %s mode", pair,
                 mode_name(m));
}

/* Opens the pair's trace file in dir: the manifest's name, else the usual names. */
static void reader_open(ent_reader *rd, const run_ctx *ctx, const res_entity *en, mode_id m,
                        const char *dir, const tset *set, const tset_entity **entry)
{
    memset(rd, 0, sizeof *rd);
    trace_init(&rd->t);
    const char *body = ctx->res->files[en->body].name, *weapon = weapon_name(ctx, en);
    char pair[2 * TJ_NAME_MAX + 2];
    tj_pair_name(pair, sizeof pair, body, weapon);
    const tset_entity *te = set ? tset_find_entity(set, body, weapon) : NULL;
    *entry = te;
    ff_error e;
    if (set && !te) {
        ff_error_set(&e, FF_E_FORMAT, body, -1, "no traces recorded for entity %s (not in %s/%s)",
                     pair, dir, TSET_MANIFEST);
    } else if (te && !te->f.trace[m]) {
        ff_error_set(&e, FF_E_FORMAT, body, -1, "no %s-mode traces of entity %s in %s",
                     mode_name(m), pair, dir);
    } else if (te && same_files(ctx, en, te, dir, &e) == 0) {
        if (path_join(rd->path, sizeof rd->path, dir, te->f.trace[m], &e) == 0)
            rd->r = tj_open(rd->path, &e);
    } else if (!te) {
        open_unlisted(rd, dir, body, weapon, m, &e);
    }
    if (!rd->r) reader_fail(rd, &e);
}

static void reader_close(ent_reader *rd)
{
    tj_close(rd->r);
    trace_free(&rd->t);
}

void ent_files_open(ent_files *f, run_ctx *ctx, const run_unit *u)
{
    const run_config *cfg = ctx->cfg;
    const res_entity *en = &ctx->res->entities[u->entity];
    memset(f, 0, sizeof *f);
    trace_init(&f->cand.t);
    trace_init(&f->auth.t);
    f->mode = u->mode;
    if (cfg->against_dir)
        reader_open(&f->cand, ctx, en, u->mode, cfg->against_dir, cfg->against_set, &f->cand_entry);
    if (cfg->traces_dir)
        reader_open(&f->auth, ctx, en, u->mode, cfg->traces_dir, cfg->traces_set, &f->auth_entry);
}

void ent_files_close(ent_files *f)
{
    reader_close(&f->cand);
    reader_close(&f->auth);
}

static int reader_break(ent_reader *rd, ff_error *err, const char *why)
{
    ff_error e;
    ff_error_set(&e, FF_E_FORMAT, rd->path, -1, "line %lu: %s", rd->clip.line, why);
    reader_fail(rd, &e);
    *err = e;
    return -1;
}

/* What the lines of one model of one clip must say. */
typedef struct want {
    uint32_t clip;
    mode_id mode;
    const char *model, *file, *body, *weapon;
    unsigned bones;
} want;

/* The next clip of rd that is not before w->clip; 0, or -1 with err. */
static int reader_seek(ent_reader *rd, const want *w, ff_error *err)
{
    char why[3 * TJ_NAME_MAX + 100];
    for (;;) {
        if (rd->failed) {
            *err = rd->err;
            return -1;
        }
        if (!rd->have) {
            ff_error e;
            int rc = tj_next_clip(rd->r, &rd->clip, &rd->t, &e);
            if (rc < 0) {
                reader_fail(rd, &e);
                continue;
            }
            rd->have = rc;
        }
        if (!rd->have)
            return ff_error_set(err, FF_E_FORMAT, rd->path, -1,
                                "no %s lines for anim %u: the file ends before them", w->model,
                                w->clip);
        const tj_clip *c = &rd->clip;
        if (c->mode != w->mode) {
            snprintf(why, sizeof why, "mode \"%s\" in a %s-mode trace file", mode_name(c->mode),
                     mode_name(w->mode));
            return reader_break(rd, err, why);
        }
        if (!c->entity || strcmp(c->ent_body, w->body) != 0 ||
            strcmp(c->ent_weapon, w->weapon ? w->weapon : "") != 0) {
            snprintf(why, sizeof why, "not a line of entity %s%s%s", w->body, w->weapon ? "+" : "",
                     w->weapon ? w->weapon : "");
            return reader_break(rd, err, why);
        }
        if (c->anim >= w->clip) return 0;
        /* An anim already passed (given again, or out of order): its clip was answered. */
        tf_lines_late(&rd->lines, c->anim, c->line);
        rd->have = 0;
    }
}

/* The lines of one model of one clip into out. Returns 0, or -1 with err. */
static int reader_take(ent_reader *rd, const want *w, trace *out, ff_error *err)
{
    if (reader_seek(rd, w, err) < 0) return -1;
    const tj_clip *c = &rd->clip;
    if (c->anim != w->clip)
        return ff_error_set(err, FF_E_FORMAT, rd->path, -1,
                            "line %lu: no %s lines for anim %u (anim %u comes next)", c->line,
                            w->model, w->clip, c->anim);
    if (strcmp(c->model, w->model) != 0)
        return ff_error_set(err, FF_E_FORMAT, rd->path, -1,
                            "line %lu: anim %u: \"%s\" lines where the %s's are expected", c->line,
                            w->clip, c->model, w->model);
    rd->have = 0;
    tf_lines_given(&rd->lines, w->clip, c->line);
    if (strcmp(c->file, w->file) != 0)
        return ff_error_set(err, FF_E_FORMAT, rd->path, -1,
                            "line %lu: anim %u: the %s's lines name file \"%s\", not %s", c->line,
                            w->clip, w->model, c->file, w->file);
    if (c->bad) {
        *err = c->error;
        return -1;
    }
    if (rd->t.lay.bones != w->bones)
        return ff_error_set(err, FF_E_FORMAT, rd->path, -1,
                            "line %lu: anim %u: the %s has %u bones, its model %u", c->line,
                            w->clip, w->model, rd->t.lay.bones, w->bones);
    return trace_copy(out, &rd->t, err);
}

/* Both models' lines of clip into out (the weapon's first). */
static int read_pair(ent_reader *rd, const run_ctx *ctx, const res_entity *en, mode_id m,
                     uint32_t clip, ent_trace *out, ff_error *err)
{
    const char *body = ctx->res->files[en->body].name, *weapon = weapon_name(ctx, en);
    field_set none = {{0, 0}};
    out->armed = weapon != NULL;
    if (weapon) {
        want w = {clip, m, "weapon", weapon, body, weapon, ctx->res->files[en->weapon].bones};
        if (reader_take(rd, &w, &out->weapon, err) < 0) return -1;
    } else {
        trace_clear(&out->weapon, &none, 0);
    }
    want b = {clip, m, "body", body, body, weapon, ctx->res->files[en->body].bones};
    if (reader_take(rd, &b, &out->body, err) < 0) return -1;
    if (weapon && out->weapon.n != out->body.n)
        return ff_error_set(err, FF_E_FORMAT, rd->path, -1,
                            "anim %u: %zu weapon lines and %zu body lines (one each per call)",
                            clip, out->weapon.n, out->body.n);
    return 0;
}

int ent_files_candidate(ent_files *f, run_ctx *ctx, const res_entity *en, uint32_t clip,
                        ent_trace *out, ff_error *err)
{
    if (f->cand_entry && tset_fault_of(&f->cand_entry->f, f->mode, clip))
        return ff_error_set(err, FF_E_FAULT, ctx->cfg->against_dir, -1,
                            "the traces compared record a fault of their engine on anim %u", clip);
    return read_pair(&f->cand, ctx, en, f->mode, clip, out, err);
}

int ent_files_authority(ent_files *f, run_ctx *ctx, const res_entity *en, uint32_t clip,
                        ent_outcome *o, ff_error *err)
{
    const tset_fault *ft = f->auth_entry ? tset_fault_of(&f->auth_entry->f, f->mode, clip) : NULL;
    o->faulted = 0;
    if (ft && ft->ticks == 0 && !f->auth.failed) {
        const run_file *w = en->weapon >= 0 ? &ctx->res->files[en->weapon] : NULL;
        ent_trace_clear(&o->t, w != NULL, &ctx->fields, ctx->res->files[en->body].bones,
                        w ? ctx->res->files[en->weapon].bones : 0);
    } else if (read_pair(&f->auth, ctx, en, f->mode, clip, &o->t, err) < 0) {
        return -1;
    }
    if (!ft) return 0;
    if (o->t.body.n != ft->ticks)
        return ff_error_set(err, FF_E_FORMAT, f->auth.path, -1,
                            "anim %u has %zu calls, the manifest records %u before its fault", clip,
                            o->t.body.n, ft->ticks);
    o->faulted = 1;
    o->fault = ft->fault;
    return 0;
}

/* ---- every line accounted for ---- */

static void reader_rest(ent_reader *rd, uint32_t nclips)
{
    while (rd->r && !rd->failed) {
        if (!rd->have) {
            ff_error e;
            int rc = tj_next_clip(rd->r, &rd->clip, &rd->t, &e);
            if (rc < 0) {
                reader_fail(rd, &e);
                rd->lines.rest_failed = 1;
            }
            if (rc <= 0) return;
        }
        rd->have = 0;
        tf_lines_rest(&rd->lines, rd->clip.anim, rd->clip.line, nclips);
    }
}

void ent_files_rest(ent_files *f, uint32_t nclips)
{
    reader_rest(&f->cand, nclips);
    reader_rest(&f->auth, nclips);
}

static int reader_problem(const ent_reader *rd, uint32_t clip, uint32_t nclips, ff_error *e)
{
    return rd->r && tf_lines_problem(&rd->lines, rd->path, &rd->err, "entity", clip, nclips, e);
}

int ent_files_problem(const ent_files *f, uint32_t clip, uint32_t nclips, ff_error *e)
{
    return reader_problem(&f->cand, clip, nclips, e) || reader_problem(&f->auth, clip, nclips, e);
}

/* ---- writing ---- */

void ent_files_write(strbuf *b, run_ctx *ctx, const run_unit *u, uint32_t clip, const ent_trace *t)
{
    const res_entity *en = &ctx->res->entities[u->entity];
    tj_write_entity(b, ctx->res->files[en->body].name, weapon_name(ctx, en), clip, u->mode,
                    t->armed ? &t->weapon : NULL, &t->body);
}

int ent_files_record(run_ctx *ctx, const run_unit *u, const strbuf *b, ff_error *err)
{
    const run_config *cfg = ctx->cfg;
    const res_entity *en = &ctx->res->entities[u->entity];
    char file[1200], path[5400];
    tj_entity_file_name(file, sizeof file, ctx->res->files[en->body].name, weapon_name(ctx, en),
                        u->mode, cfg->record_lz4);
    if (path_join(path, sizeof path, cfg->record_dir, file, err) < 0) return -1;
    return tj_write_file(path, b, cfg->record_lz4, err);
}
