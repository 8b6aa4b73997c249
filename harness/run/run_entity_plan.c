/*
 * harness/run/run_entity_plan.c: the entity level before any emulation:
 * entities from the corpus's pairing, their result slots and units, cache
 * keys, and identical entities found so one emulation serves them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "corpus/pairs.h"
#include "harness/run/cache.h"
#include "harness/run/run.h"
#include "harness/run/run_entity.h"

/* The entities of the corpus's files, with a folder corpus's attach values. */
static int pair_files(run_ctx *ctx, pairs_set *s, ff_error *err)
{
    const run_results *res = ctx->res;
    pairs_file *files = calloc(res->nfiles ? res->nfiles : 1, sizeof *files);
    if (!files) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory pairing");
    for (size_t i = 0; i < res->nfiles; i++) {
        const run_file *f = &res->files[i];
        files[i] = (pairs_file){f->name, f->parsed, f->kind, f->clips};
    }
    pairs_attach_list att;
    memset(&att, 0, sizeof att);
    int rc = 0;
    if (corpus_get_kind(ctx->corpus) == CORPUS_FOLDER)
        rc = pairs_attach_load(ctx->cfg->corpus_path, &att, err);
    if (rc == 0) rc = pairs_build(files, res->nfiles, &att, s, err);
    pairs_attach_free(&att);
    free(files);
    return rc;
}

static void entity_of(res_entity *r, const pairs_entity *p)
{
    memset(r, 0, sizeof *r);
    r->body = (uint32_t)p->body;
    r->weapon = p->weapon == PAIRS_NONE ? -1 : (int32_t)p->weapon;
    r->why = (int)p->why;
    r->body_clips = p->body_clips;
    r->weapon_clips = p->weapon_clips;
    r->clips = p->weapon == PAIRS_NONE || p->body_clips < p->weapon_clips ? p->body_clips
                                                                          : p->weapon_clips;
    r->pool_mismatch = p->pool_mismatch;
    memcpy(r->attach_rot, p->attach.rot, sizeof r->attach_rot);
    memcpy(r->attach_trans, p->attach.trans, sizeof r->attach_trans);
    r->shares = -1;
    r->plot_clip = -1;
    memset(r->queue, 0xFF, sizeof r->queue); /* every speed bit -1: not known */
}

/* The modes the entity level runs: those asked that some entity status reaches. */
static unsigned entity_modes(const run_ctx *ctx)
{
    return ctx->cfg->modes & mode_entity_mask();
}

/* Clip c's frame byte in file f, as the plan read it (0 when it has no such clip). */
static unsigned clip_frames(const run_ctx *ctx, uint32_t f, uint32_t c)
{
    const run_fslot *s = &ctx->fslots[f];
    return s->frames && c < s->clips ? s->frames[c] : 0;
}

/* One result per (entity, mode, clip). */
static int layout_results(run_ctx *ctx, ff_error *err)
{
    run_results *res = ctx->res;
    unsigned modes = mode_count(entity_modes(ctx));
    size_t total = 0;
    for (size_t e = 0; e < res->nentities; e++)
        total += (size_t)res->entities[e].clips * modes;
    res->entity_results = calloc(total ? total : 1, sizeof *res->entity_results);
    if (!res->entity_results)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for %zu results", total);
    size_t k = 0;
    for (size_t e = 0; e < res->nentities; e++) {
        const res_entity *en = &res->entities[e];
        for (int m = 0; m < MODE__COUNT; m++) {
            if (!(entity_modes(ctx) & (1u << m))) continue;
            for (uint32_t c = 0; c < en->clips; c++) {
                entity_result *r = &res->entity_results[k++];
                r->entity = (uint32_t)e;
                r->r.file = en->body;
                r->r.clip = (int32_t)c;
                r->r.mode = (mode_id)m;
                r->r.status = RES_NOT_RUN;
                r->r.group = -1;
                r->r.frames = clip_frames(ctx, en->body, c);
                r->weapon_frames = en->weapon < 0 ? 0 : clip_frames(ctx, (uint32_t)en->weapon, c);
                r->weapon_end_ref = r->weapon_end_orig = -1;
            }
        }
    }
    res->nentity_results = total;
    return 0;
}

int run_entity_plan(run_ctx *ctx, size_t *nunits, ff_error *err)
{
    run_results *res = ctx->res;
    *nunits = 0;
    pairs_set s;
    if (pair_files(ctx, &s, err) < 0) return -1;
    ctx->ent = calloc(1, sizeof *ctx->ent);
    res->entities = calloc(s.n ? s.n : 1, sizeof *res->entities);
    if (!ctx->ent || !res->entities) {
        pairs_free(&s);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning entities");
    }
    for (size_t i = 0; i < s.n; i++)
        entity_of(&res->entities[i], &s.e[i]);
    res->nentities = s.n;
    pairs_free(&s);
    ctx->ent->plot_rank = malloc((res->nentities ? res->nentities : 1) * sizeof(uint64_t));
    if (!ctx->ent->plot_rank)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning entities");
    for (size_t i = 0; i < res->nentities; i++)
        ctx->ent->plot_rank[i] = UINT64_MAX;
    res->entity_modes = entity_modes(ctx);
    for (int m = 0; m < MODE__COUNT && !res->entity_modes; m++)
        if ((ctx->cfg->modes >> m) & 1u &&
            run_warn(res, "the entity level does not run %s: %s", mode_name((mode_id)m),
                     mode_entity_why_not((mode_id)m)) < 0)
            return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning entities");
    if (layout_results(ctx, err) < 0) return -1;
    unsigned modes = mode_count(entity_modes(ctx));
    for (size_t e = 0; e < res->nentities; e++)
        *nunits += res->entities[e].clips ? modes : 0;
    return 0;
}

/* Frames x bones of a model's clips: the unit's work until the plan knows more. */
static uint64_t model_cost(const run_ctx *ctx, uint32_t f, uint32_t clips)
{
    uint64_t frames = 0;
    for (uint32_t c = 0; c < clips; c++)
        frames += clip_frames(ctx, f, c) + 1u;
    return frames * (ctx->res->files[f].bones + 4);
}

void run_entity_units(run_ctx *ctx, run_unit *units)
{
    const run_results *res = ctx->res;
    size_t u = 0, k = 0;
    for (size_t e = 0; e < res->nentities; e++) {
        const res_entity *en = &res->entities[e];
        for (int m = 0; m < MODE__COUNT; m++) {
            if (!(entity_modes(ctx) & (1u << m)) || !en->clips) continue;
            run_unit *un = &units[u++];
            un->kind = UNIT_ENTITY;
            un->entity = (uint32_t)e;
            un->mode = (mode_id)m;
            un->first = k;
            un->eslot = -1;
            uint64_t cost = model_cost(ctx, en->body, en->clips);
            if (en->weapon >= 0) cost += model_cost(ctx, (uint32_t)en->weapon, en->clips);
            un->cost = cost * ((m & 1) ? 2 : 1) + 1;
            k += en->clips;
        }
    }
}

/* What makes two entities the same for the original: both files' bytes and the attach values. */
static int identity_hex(const run_ctx *ctx, const res_entity *en, char out[SHA256_HEX],
                        ff_error *err)
{
    const run_results *res = ctx->res;
    const char *weapon = en->weapon >= 0 ? res->files[en->weapon].sha256 : "";
    int16_t att[6];
    memcpy(att, en->attach_rot, sizeof en->attach_rot);
    memcpy(att + 3, en->attach_trans, sizeof en->attach_trans);
    sha256_part parts[] = {{"ff8diff-entity", 15},
                           {res->files[en->body].sha256, strlen(res->files[en->body].sha256) + 1},
                           {weapon, strlen(weapon) + 1},
                           {att, sizeof att}};
    uint8_t d[SHA256_BYTES];
    if (sha256_parts(parts, 4, d, err) < 0) return -1;
    sha256_to_hex(d, out);
    return 0;
}

const char *run_entity_level_tag(const run_ctx *ctx)
{
    /* "+status": the entity's speed fields are set (harness/core/modes.h), outcomes of a
     * harness that only preset the flags are not these */
    if (!ctx->pose) return ctx->cfg->game.keep_matrices ? "entity+status+matrices" : "entity+status";
    /* The weapon's bases are built under the convention's trig and step. */
    char opts[REF_POSE_OPTS_TEXT_MAX];
    ref_pose_opts_format(ctx->pose, opts, sizeof opts);
    snprintf(ctx->ent->level_tag, sizeof ctx->ent->level_tag, "entity+status+pose-base1+attach-zyx/%s",
             opts);
    return ctx->ent->level_tag;
}

int run_entity_queue_key(const run_ctx *ctx, const run_unit *u, cache_key *k)
{
    const run_config *cfg = ctx->cfg;
    char id[SHA256_HEX];
    ff_error e;
    if (!cfg->cache || identity_hex(ctx, &ctx->res->entities[u->entity], id, &e) < 0) return -1;
    cache_key_in in = {cfg->cache_id, id, u->mode, "entity-queue", cfg->game.budget,
                       run_engine_key(cfg)};
    return cache_key_make(k, &in, &e);
}

void run_entity_mark_cached(run_ctx *ctx)
{
    const run_config *cfg = ctx->cfg;
    if (!ctx->ent || !cfg->cache || cfg->traces_dir) return;
    for (size_t u = 0; u < ctx->nunits; u++) {
        run_unit *un = &ctx->units[u];
        if (un->kind != UNIT_ENTITY) continue;
        char id[SHA256_HEX];
        ff_error e;
        /* A unit without a key is emulated and not stored, as if the cache did not hold it. */
        un->keyed = identity_hex(ctx, &ctx->res->entities[un->entity], id, &e) == 0;
        if (un->keyed) {
            /* The entity's identity (both files and the attach values) stands for the file. */
            cache_key_in in = {cfg->cache_id, id, un->mode, run_entity_level_tag(ctx),
                               cfg->game.budget, run_engine_key(cfg)};
            un->keyed = cache_key_make(&un->key, &in, &e) == 0;
        }
        un->cached = un->keyed && cache_has(cfg->cache, &un->key);
    }
}

typedef struct keyed {
    char id[SHA256_HEX + 8]; /* identity and mode */
    size_t unit;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    if (c) return c;
    return x->unit < y->unit ? -1 : x->unit > y->unit;
}

int run_entity_dedup(run_ctx *ctx, ff_error *err)
{
    run_results *res = ctx->res;
    if (!ctx->ent) return 0;
    keyed *k = malloc((ctx->nunits ? ctx->nunits : 1) * sizeof *k);
    if (!k) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning");
    size_t n = 0;
    for (size_t u = 0; u < ctx->nunits; u++) {
        run_unit *un = &ctx->units[u];
        if (un->kind != UNIT_ENTITY || un->cached) continue;
        char id[SHA256_HEX];
        ff_error e;
        if (identity_hex(ctx, &res->entities[un->entity], id, &e) < 0) continue;
        /* The mode is part of what must be the same. */
        snprintf(k[n].id, sizeof k[n].id, "%s/%d", id, (int)un->mode);
        k[n++].unit = u;
    }
    qsort(k, n, sizeof *k, cmp_keyed);
    size_t nslots = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcmp(k[j].id, k[i].id) == 0)
            j++;
        nslots += j - i > 1;
        i = j;
    }
    ctx->ent->slots = calloc(nslots ? nslots : 1, sizeof *ctx->ent->slots);
    if (!ctx->ent->slots) {
        free(k);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory planning");
    }
    size_t s = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && strcmp(k[j].id, k[i].id) == 0)
            j++;
        for (size_t q = i; j - i > 1 && q < j; q++) {
            run_unit *un = &ctx->units[k[q].unit];
            un->eslot = (int32_t)s;
            un->eleader = q == i; /* the lowest unit, which its chain runs first */
            if (q > i) res->entities[un->entity].shares = (int32_t)ctx->units[k[i].unit].entity;
        }
        s += j - i > 1;
        i = j;
    }
    ctx->ent->nslots = nslots;
    free(k);
    return 0;
}

void run_entity_totals(run_ctx *ctx)
{
    run_results *res = ctx->res;
    run_totals *t = &res->totals;
    t->entities = res->nentities;
    for (size_t e = 0; e < res->nentities; e++) {
        res_entity *en = &res->entities[e];
        t->entities_armed += en->weapon >= 0;
        t->pool_mismatches += en->pool_mismatch != 0;
        /* An entity sharing another's outcomes (same bytes) shares its probe too. */
        const res_entity *from = en->shares >= 0 ? &res->entities[en->shares] : en;
        for (int s = 0; s < ENTITY_STATUS__COUNT; s++) {
            res_queue *q = &en->queue[s];
            int known = 0, differ = 0;
            for (int k = 0; k < 2; k++) {
                if (q->orig[k] < 0) q->orig[k] = from->queue[s].orig[k];
                if (q->ref[k] < 0 || q->orig[k] < 0) continue;
                known = 1;
                differ |= q->ref[k] != q->orig[k];
            }
            t->queue_mismatches += known && differ;
        }
    }
    for (size_t i = 0; i < res->nentity_results; i++) {
        const clip_result *r = &res->entity_results[i].r;
        t->entity_comparisons++;
        t->entity_by_status[r->status]++;
        t->entity_by_source[r->source]++;
        t->entity_engines[r->eng.state]++;
    }
}

void run_entity_plan_free(run_ctx *ctx)
{
    if (!ctx->ent) return;
    for (size_t i = 0; i < ctx->ent->nslots; i++)
        free(ctx->ent->slots[i].packed);
    free(ctx->ent->slots);
    free(ctx->ent->plot_rank);
    free(ctx->ent);
    ctx->ent = NULL;
}

void run_entity_results_free(run_results *r)
{
    for (size_t i = 0; i < r->nentity_results; i++) {
        free(r->entity_results[i].r.fault);
        free(r->entity_results[i].r.error);
    }
    for (size_t i = 0; i < r->nentities; i++)
        for (int k = 0; k < 3; k++) {
            free(r->entities[i].offset[k].ref);
            free(r->entities[i].offset[k].orig);
        }
    free(r->entity_results);
    free(r->entities);
    r->entity_results = NULL;
    r->entities = NULL;
    r->nentity_results = r->nentities = 0;
}
