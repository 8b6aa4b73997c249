/*
 * harness/run/run_entity_probe.c: QueueAnimation's speed probes at the
 * entity level (run_entity.h). The entity reaches each mode through its
 * status byte (harness/core/modes.h, ENTITY_STATUS_MAP) with the sequence
 * pair refside_entity_pair; the probe calls QueueAnimation once more per
 * status with no flags preset, so the speed bits it leaves are the
 * routine's own: what tells an engine that sets the speed from the status
 * from one that keeps its caller's flags. Writes only the unit's rows of
 * its entity's res_queue; never prints.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/run/refside_entity.h"
#include "harness/run/remote.h"
#include "harness/run/run.h"
#include "harness/run/run_entity.h"

entity_status_id run_entity_unit_status(const run_unit *u)
{
    int s = entity_status_of_mode(u->mode);
    return s < 0 ? ENTITY_STATUS_NORMAL : (entity_status_id)s;
}

emu_entity_speed run_entity_emu_speed(entity_status_id s)
{
    ref_entity_speed r = refside_entity_speed(s);
    return (emu_entity_speed){r.byte2, r.status, r.pair};
}

/* 1 when status s is one the unit probes (its mode's). */
static int unit_has(const run_unit *u, int s)
{
    return entity_status_mode((entity_status_id)s) == u->mode;
}

void run_entity_probe_ref(run_ctx *ctx, const run_unit *u)
{
    res_entity *en = &ctx->res->entities[u->entity];
    for (int s = 0; s < ENTITY_STATUS__COUNT; s++) {
        if (!unit_has(u, s)) continue;
        ref_entity_speed rs = refside_entity_speed((entity_status_id)s);
        uint8_t f = 0;
        ff_error e;
        if (ref_queue_flags(&rs, 0, &f, &e) < 0) continue; /* a valid pair: never */
        en->queue[s].ref[0] = (int8_t)(f & 3);
        en->queue[s].ref[1] = en->weapon >= 0 ? (int8_t)(f & 3) : -1;
    }
}

int run_entity_probe_orig(run_ctx *ctx, const run_unit *u, emu_entity *ent)
{
    res_entity *en = &ctx->res->entities[u->entity];
    int armed = en->weapon >= 0;
    for (int s = 0; s < ENTITY_STATUS__COUNT; s++) {
        if (!unit_has(u, s)) continue;
        emu_entity_speed sp = run_entity_emu_speed((entity_status_id)s);
        uint32_t ret;
        emu_fault fault;
        memset(&fault, 0, sizeof fault);
        if (emu_entity_queue(ent, &sp, 0, 0, &ret, &fault) != 0) return -1;
        if (ctx->cfg->progress) atomic_fetch_add(&ctx->cfg->progress->emulated_calls, 1);
        en->queue[s].orig[0] = (int8_t)(emu_entity_cmd(ent, EMU_ENTITY_BODY)[1] & 3);
        en->queue[s].orig[1] = armed ? (int8_t)(emu_entity_cmd(ent, EMU_ENTITY_WEAPON)[1] & 3) : -1;
    }
    return 0;
}

void run_entity_probe_bytes(const run_ctx *ctx, const run_unit *u, uint8_t b[ENT_PROBE_BYTES])
{
    const res_entity *en = &ctx->res->entities[u->entity];
    for (int s = 0; s < ENTITY_STATUS__COUNT; s++)
        for (int m = 0; m < 2; m++)
            b[2 * s + m] = unit_has(u, s) ? (uint8_t)en->queue[s].orig[m] : 0xFF;
}

void run_entity_probe_take(run_ctx *ctx, const run_unit *u, const uint8_t b[ENT_PROBE_BYTES])
{
    res_entity *en = &ctx->res->entities[u->entity];
    for (int s = 0; s < ENTITY_STATUS__COUNT; s++)
        for (int m = 0; m < 2 && unit_has(u, s); m++)
            en->queue[s].orig[m] = (int8_t)b[2 * s + m];
}

void run_entity_probe_cache(run_ctx *ctx, const run_unit *u, int put)
{
    cache_key k;
    uint8_t b[ENT_PROBE_BYTES], *data = NULL;
    size_t len = 0;
    ff_error e;
    if (run_entity_queue_key(ctx, u, &k) < 0) return;
    if (put) {
        run_entity_probe_bytes(ctx, u, b);
        /* A cache that cannot be written only costs the probe next run. */
        if (cache_put(ctx->cfg->cache, &k, b, sizeof b, &e) < 0) run_cache_unwritten(ctx, &e);
        return;
    }
    int got = cache_get(ctx->cfg->cache, &k, &data, &len, &e);
    if (got < 0) run_cache_rejected(ctx, &e);
    if (got == 1 && len == sizeof b) run_entity_probe_take(ctx, u, data);
    free(data);
}
