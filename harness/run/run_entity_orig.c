/*
 * harness/run/run_entity_orig.c: the original's side of an entity unit on
 * the worker's own engine (emu/engine/entity.h): the entity loaded (body,
 * weapon, attach), QueueAnimation then AdvanceBy1 to the body's end call,
 * the pose level's matrices after every call, the speed probe; and an
 * engine process's part (remote.h): every clip of a unit sent back as raw
 * records. Compares nothing, groups nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/entity.h"
#include "harness/run/pose_side.h"
#include "harness/run/refside.h"
#include "harness/run/remote.h"
#include "harness/run/run_entity_worker.h"

/* One model of the loaded entity as a pose target. */
typedef struct ent_model {
    emu_entity *ent;
    emu_entity_model m;
} ent_model;

static emu_entity_file file_of(const dat_file *d)
{
    return (emu_entity_file){d->data, d->size, d->skel_off, d->section[DAT_SECTION_GEOMETRY],
                             d->anim_off};
}

static int load_entity(ent_worker *ew, ent_side *sd, uint32_t e, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    const res_entity *en = &ctx->res->entities[e];
    if (!sd->ent && emu_entity_open(sd->g, &sd->ent, err) < 0) return -1;
    if (sd->loaded == (int64_t)e) {
        emu_entity_reset(sd->ent);
        return 0;
    }
    sd->loaded = -1;
    emu_entity_file b = file_of(ew->bd), w = {0};
    if (ew->wd) w = file_of(ew->wd);
    emu_attach att;
    memcpy(att.rot, en->attach_rot, sizeof att.rot);
    memcpy(att.trans, en->attach_trans, sizeof att.trans);
    if (emu_entity_load(sd->ent, &b, en->weapon >= 0 ? &w : NULL, &att, err) < 0) {
        /* err's file names the model; the run's names the file. */
        uint32_t f = strcmp(err->file, "weapon") == 0 ? (uint32_t)en->weapon : en->body;
        const char *name = ctx->res->files[f].name;
        snprintf(err->file, sizeof err->file, "%s", name);
        return -1;
    }
    if (ctx->pose && ew->wd) {
        /* The slot's attach MATRIX, as the game rebuilds it from +20 and +28. */
        ref_matrix a;
        emu_matrix am;
        pose_attach_matrix(ctx->pose, en->attach_rot, en->attach_trans, &a);
        pose_matrix_to_emu(&a, &am);
        emu_entity_set_attach(sd->ent, &am);
    }
    sd->loaded = e;
    return 0;
}

static const uint8_t *model_skel(void *self, size_t *len)
{
    const ent_model *em = self;
    *len = emu_entity_skeleton_size(em->ent, em->m);
    return emu_entity_skeleton(em->ent, em->m);
}
static void model_set_skel(void *self, const uint8_t *skel)
{
    const ent_model *em = self;
    emu_entity_set_skeleton(em->ent, em->m, skel);
}
static int model_build(void *self, uint32_t *ret, emu_fault *fault)
{
    const ent_model *em = self;
    return emu_entity_build_matrices(em->ent, em->m, ret, fault);
}
static int model_world(void *self, const emu_matrix *base, emu_matrix *world, size_t cap,
                       uint32_t *ret, emu_fault *fault)
{
    const ent_model *em = self;
    return emu_entity_world_matrices(em->ent, em->m, base, world, cap, ret, fault);
}

/* Room for model k's world and placed states. */
static int world_room(ent_side *sd, int k, size_t len, ff_error *err)
{
    if (2 * len <= sd->world_cap[k]) return 0;
    uint8_t *p = realloc(sd->world[k], 2 * len);
    if (!p) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for world matrices");
    sd->world[k] = p;
    sd->world_cap[k] = 2 * len;
    return 0;
}

/*
 * The pose level after a call: each model's BuildBoneMatrices and world
 * matrices under its bases (the weapon's composed with its attach matrix),
 * as the reference side does after every call. Returns 0, 1 when the
 * original faulted (o->fault), -1 with err (memory).
 */
static int pose_models(ent_worker *ew, ent_side *sd, uint64_t *calls, ff_error *err)
{
    static const emu_entity_model model[2] = {EMU_ENTITY_WEAPON, EMU_ENTITY_BODY};
    for (int k = 0; k < 2; k++) {
        ent_model em = {sd->ent, model[k]};
        pose_target t = {&em, model_skel, model_set_skel, model_build, model_world};
        size_t len = emu_entity_skeleton_size(sd->ent, model[k]);
        if (!len) continue;
        if (world_room(sd, k, len, err) < 0) return -1;
        int emulated = 0;
        ff_error pe;
        ff_error_clear(&pe);
        int rc = pose_orig_run(sd->memo, &t, ew->base[k], sd->world[k], sd->world[k] + len,
                               &emulated, &sd->ao.fault, &pe);
        if (pe.kind != FF_E_OK) {
            *err = pe; /* memory, not the original's doing */
            return -1;
        }
        *calls += emulated ? 3 : 0;
        if (rc < 0) return 1;
    }
    return 0;
}

/* One call's rows; 1 when the original faulted in its pose routines. */
static int push_call(ent_worker *ew, ent_side *sd, uint32_t ret, uint64_t *calls, ff_error *err)
{
    ent_trace *t = &sd->ao.t;
    int pose = ew->ctx->pose != NULL, rc = pose ? pose_models(ew, sd, calls, err) : 0;
    if (rc) return rc;
    size_t wl = emu_entity_skeleton_size(sd->ent, EMU_ENTITY_WEAPON);
    size_t bl = emu_entity_skeleton_size(sd->ent, EMU_ENTITY_BODY);
    if (t->armed) {
        field_state w = {.cmd = emu_entity_cmd(sd->ent, EMU_ENTITY_WEAPON),
                         .skel = emu_entity_skeleton(sd->ent, EMU_ENTITY_WEAPON),
                         .world = pose ? sd->world[0] : NULL,
                         .placed = pose ? sd->world[0] + wl : NULL};
        if (trace_push_state(&t->weapon, &w, err) < 0) return -1;
    }
    field_state b = {.ret = (int32_t)ret,
                     .cmd = emu_entity_cmd(sd->ent, EMU_ENTITY_BODY),
                     .skel = emu_entity_skeleton(sd->ent, EMU_ENTITY_BODY),
                     .world = pose ? sd->world[1] : NULL,
                     .placed = pose ? sd->world[1] + bl : NULL};
    return trace_push_state(&t->body, &b, err);
}

int ent_orig_clip(ent_worker *ew, ent_side *sd, const run_unit *u, uint32_t clip, ff_error *err)
{
    run_ctx *ctx = ew->ctx;
    const res_entity *en = &ctx->res->entities[u->entity];
    const dat_file *bd = ew->bd;
    if (!sd->g) return ff_error_set(err, FF_E_USAGE, bd->name, -1, "no executable to emulate");
    if (load_entity(ew, sd, u->entity, err) < 0) return -1;
    ent_outcome *o = &sd->ao;
    o->faulted = 0;
    ent_trace_clear(&o->t, en->weapon >= 0, &ctx->fields, bd->bones, ew->wd ? ew->wd->bones : 0);
    uint32_t ret = 0;
    emu_entity_speed sp = run_entity_emu_speed(run_entity_unit_status(u));
    int rc = emu_entity_queue(sd->ent, &sp, mode_flags(u->mode), (int16_t)clip, &ret, &o->fault);
    uint64_t calls = 1;
    while (rc == 0) {
        int pushed = push_call(ew, sd, ret, &calls, err);
        if (pushed < 0) return -1;
        if (pushed > 0) {
            rc = -1; /* the original faulted in its pose routines */
            break;
        }
        if (ret == 1 || o->t.body.n >= REFSIDE_MAX_TICKS) break;
        rc = emu_entity_advance(sd->ent, &ret, &o->fault);
        calls++;
    }
    if (rc < 0) {
        o->faulted = 1;
        sd->loaded = -1; /* reloaded next time, as after a frame-level fault */
    }
    if (ctx->cfg->progress) atomic_fetch_add(&ctx->cfg->progress->emulated_calls, calls);
    return 0;
}

int ent_orig_probe(ent_worker *ew, const run_unit *u, uint8_t b[ENT_PROBE_BYTES])
{
    ent_side *sd = &ew->side[0];
    ff_error e;
    if (!sd->g || load_entity(ew, sd, u->entity, &e) < 0) return -1;
    int rc = 0;
    if (run_entity_probe_orig(ew->ctx, u, sd->ent) < 0) {
        sd->loaded = -1; /* reloaded next time */
        rc = 1;
    }
    run_entity_probe_bytes(ew->ctx, u, b);
    return rc;
}

int run_entity_authority(ent_worker *ew, const run_unit *u, remote_sink *out, uint32_t *nclips,
                         ff_error *err)
{
    const res_entity *en = &ew->ctx->res->entities[u->entity];
    ff_error held;
    *nclips = 0;
    sb_reset(&out->raw);
    if (remote_sink_room(out, en->clips ? en->clips : 1, err) < 0) return -1;
    int hold = ent_unit_hold(ew, u, &held);
    if (hold < 0 && held.kind == FF_E_NOMEM) {
        *err = held;
        return -1;
    }
    for (uint32_t c = 0; c < en->clips; c++) {
        ff_error *aerr = &out->errors[c];
        ff_error_clear(aerr);
        int got = hold < 0 ? (*aerr = held, -1) : ent_orig_clip(ew, &ew->side[0], u, c, aerr);
        if (got < 0 && aerr->kind == FF_E_NOMEM) {
            *err = *aerr;
            ent_unit_release(ew, u);
            return -1;
        }
        out->ok[c] = got == 0;
        out->src[c] = RES_SRC_EMULATED;
        if (got == 0) ent_outcome_append(&out->raw, c, &ew->side[0].ao);
        *nclips = c + 1;
    }
    out->probed = !out->skip_probe && hold == 0 && ent_orig_probe(ew, u, out->probe) >= 0;
    if (hold == 0) ent_unit_release(ew, u);
    if (out->raw.failed)
        return ff_error_set(
            err, FF_E_NOMEM, NULL, -1,
            "out of memory: the engine process's answer area cannot hold the records");
    return 0;
}
