/*
 * harness/core/causes_entity.c: the entity level's groups in the causes
 * (harness/core/causes.h). An entity group whose diverging model shows a
 * mismatch of its own at the frame level (the same file, clip and mode)
 * takes that mismatch's cause: the model's decoding is wrong whatever drives
 * it. Otherwise, when the example's entity left QueueAnimation with other
 * speed bits than the reference under the status its mode ran under (the
 * probe of run_entity.c: the body's bits), the speed is the cause: such
 * groups merge by the status and the speed bits, whatever field shows it
 * first. Otherwise the
 * two models are decoded right and the lockstep combines them wrongly:
 * such groups merge by routine (QueueAnimation for call 0, AdvanceBy1
 * after) and the field with its model. One "lockstep" cause per signature.
 * Needs only the run's results; never prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/causes.h"
#include "harness/core/field_model.h"
#include "harness/core/fields.h"

/* The file of the model an entity result diverged in. */
static uint32_t model_file(const run_results *res, const entity_result *er)
{
    const res_entity *en = &res->entities[er->entity];
    return er->r.div.model == FIELD_MODEL_WEAPON && en->weapon >= 0 ? (uint32_t)en->weapon
                                                                    : en->body;
}

/* The cause of the frame-level mismatch of (file, clip, mode), or -1. */
static int frame_cause(const run_results *res, uint32_t file, int32_t clip, mode_id mode)
{
    for (size_t i = 0; i < res->nresults; i++) {
        const clip_result *r = &res->results[i];
        if (r->file == file && r->clip == clip && r->mode == mode && r->status == RES_MISMATCH)
            return r->cause;
    }
    return -1;
}

static void lockstep_signature(const entity_result *er, char *out, size_t n)
{
    snprintf(out, n, "lockstep|%s|%s.%s", er->r.div.tick == 0 ? "QueueAnimation" : "AdvanceBy1",
             field_model_name(er->r.div.model), field_kind_name(er->r.div.field));
}

/*
 * The speed signature of er's entity under the status its mode ran under,
 * with its statement: 1 when the probe shows other speed bits on the
 * original's body than on the reference's, else 0. The body's only: a
 * weapon whose bits alone differ was not given the body's (a lockstep
 * fault, which its fields show).
 */
static int speed_signature(const run_results *res, const entity_result *er, char *sig, size_t n,
                           char *statement, size_t sn)
{
    int s = entity_status_of_mode(er->r.mode);
    if (s < 0) return 0;
    const res_queue *q = &res->entities[er->entity].queue[s];
    if (q->ref[0] < 0 || q->orig[0] < 0 || q->ref[0] == q->orig[0]) return 0;
    const char *name = entity_status_name((entity_status_id)s);
    snprintf(sig, n, "lockstep|QueueAnimation|speed|%s|%d vs %d", name, q->ref[0], q->orig[0]);
    snprintf(statement, sn,
             "QueueAnimation leaves the body's speed bits %d where the reference gives %d, the "
             "entity's status being %s (0x%02x) with a valid sequence pair: every entity clip in "
             "mode %s runs at another speed",
             q->orig[0], q->ref[0], name, entity_status_byte((entity_status_id)s),
             mode_name(er->r.mode));
    return 1;
}

/* A new lockstep cause standing for entity group g (its example er). -1: memory. */
static int new_cause(run_results *res, size_t g, const entity_result *er, const char *sig,
                     const char *statement)
{
    res_cause *c = realloc(res->causes, (res->ncauses + 1) * sizeof *c);
    if (!c) return -1;
    res->causes = c;
    c = &res->causes[res->ncauses];
    memset(c, 0, sizeof *c);
    snprintf(c->kind, sizeof c->kind, "lockstep");
    snprintf(c->signature, sizeof c->signature, "%s", sig);
    snprintf(c->routine, sizeof c->routine, "%s",
             statement || er->r.div.tick == 0 ? "QueueAnimation" : "AdvanceBy1");
    c->example = (int64_t)g;
    res->ncauses++;
    if (statement) {
        snprintf(c->statement, sizeof c->statement, "%s", statement);
        return 0;
    }
    const res_entity *en = &res->entities[er->entity];
    char name[64];
    field_name(er->r.div.field, er->r.div.bone, name, sizeof name);
    snprintf(c->statement, sizeof c->statement,
             "%s.%s differs first at call %zu of %s%s%s clip %d (%s): reference %d, original %d, "
             "while that model's own decoding agrees at the frame level (or was not compared): "
             "%s drives the two models differently",
             field_model_name(er->r.div.model), name, er->r.div.tick, res->files[en->body].name,
             en->weapon >= 0 ? "+" : "", en->weapon >= 0 ? res->files[en->weapon].name : "",
             er->r.clip, mode_name(er->r.mode), er->r.div.ref, er->r.div.orig, c->routine);
    return 0;
}

/* Adds group g to cause c's groups and counts its entity results. -1: memory. */
static int attach(run_results *res, size_t g, int c)
{
    res_cause *k = &res->causes[c];
    int *gs = realloc(k->groups, (k->ngroups + 1) * sizeof *gs);
    if (!gs) return -1;
    k->groups = gs;
    k->groups[k->ngroups++] = (int)g;
    res->groups[g].cause = c;
    for (size_t i = 0; i < res->nentity_results; i++) {
        entity_result *er = &res->entity_results[i];
        if (er->r.status != RES_MISMATCH || er->r.group != (int)g) continue;
        er->r.cause = c;
        k->entity_clips++;
        k->modes |= 1u << er->r.mode;
    }
    return 0;
}

/* Each cause's files again: those of its frame results and its entity results' models. */
static int count_files(run_results *res)
{
    uint8_t *seen = malloc(res->nfiles ? res->nfiles : 1);
    if (!seen) return -1;
    for (size_t c = 0; c < res->ncauses; c++) {
        memset(seen, 0, res->nfiles ? res->nfiles : 1);
        uint64_t files = 0;
        for (size_t i = 0; i < res->nresults; i++) {
            const clip_result *r = &res->results[i];
            if (r->cause == (int)c && r->file < res->nfiles && !seen[r->file]++) files++;
        }
        for (size_t i = 0; i < res->nentity_results; i++) {
            const entity_result *er = &res->entity_results[i];
            uint32_t f = model_file(res, er);
            if (er->r.cause == (int)c && f < res->nfiles && !seen[f]++) files++;
        }
        res->causes[c].files = files;
    }
    free(seen);
    return 0;
}

int causes_add_entity(run_results *res)
{
    for (size_t i = 0; i < res->nentity_results; i++) res->entity_results[i].r.cause = -1;
    size_t first_new = res->ncauses;
    for (size_t g = 0; g < res->ngroups; g++) {
        res_group *grp = &res->groups[g];
        if (strcmp(grp->level, "entity") != 0 || grp->example < 0 ||
            (size_t)grp->example >= res->nentity_results)
            continue;
        const entity_result *er = &res->entity_results[grp->example];
        int c = frame_cause(res, model_file(res, er), er->r.clip, er->r.mode);
        char sig[sizeof res->causes->signature], st[sizeof res->causes->statement];
        if (c < 0) {
            int speed = speed_signature(res, er, sig, sizeof sig, st, sizeof st);
            if (!speed) lockstep_signature(er, sig, sizeof sig);
            for (size_t k = first_new; k < res->ncauses && c < 0; k++)
                if (!strcmp(res->causes[k].signature, sig)) c = (int)k;
            if (c < 0) {
                if (new_cause(res, g, er, sig, speed ? st : NULL) < 0) return -1;
                c = (int)res->ncauses - 1;
            }
        }
        if (attach(res, g, c) < 0) return -1;
    }
    return count_files(res);
}
