/*
 * harness/run/writers.c: the original instruction behind each group's first
 * divergence. After the run, the group's example clip is replayed on a
 * fresh engine up to the diverging call with a write watch on the field's
 * guest bytes (emu_game_find_writer); the last instruction that wrote
 * there in that call is named with its routine and disassembly. A field the
 * call did not write says so: that is an answer too (e.g. StartClip not
 * clearing the root). A pose field is watched during the call that writes
 * it after the decoding call: BuildBoneMatrices for a bone matrix,
 * ComputeBonesWorldMatrices under the run's base for a world matrix. Costs
 * one clip replay per group, never per result, on an engine of the run's
 * kind when it has write watches, else of a kind that has
 * (harness/run/engines.c; the report names it).
 */
#include <stdio.h>
#include <string.h>

#include "harness/run/pose_side.h"
#include "harness/run/context.h"

/* Replays the group's example clip on g with the field's writes watched. */
static void replay(emu_game *g, res_group *grp, const clip_result *r, const dat_file *d)
{
    field_area where;
    uint32_t off, size;
    if (!field_locate(r->div.field, r->div.bone, &where, &off, &size)) {
        snprintf(grp->writer_note, sizeof grp->writer_note,
                 "the return value (EAX) is not a memory field");
        return;
    }
    ff_error err;
    emu_fault fault;
    ff_error_clear(&err);
    int pose = field_def_of(r->div.field)->level == FIELD_LEVEL_POSE;
    emu_matrix base;
    pose_base_emu(where == FIELD_AREA_PLACED, &base);
    const char *call = !pose ? "call" : where == FIELD_AREA_BONE ? "BuildBoneMatrices after call"
                                                                 : "the world call after call";
    int rc = emu_game_load_file(g, d->data, d->size, d->skel_off,
                                d->section[DAT_SECTION_GEOMETRY], d->anim_off, &err);
    if (rc == 0 && pose)
        rc = emu_game_find_pose_writer(g, mode_flags(r->mode), (int16_t)r->clip, r->div.tick,
                                       where == FIELD_AREA_BONE ? NULL : &base, off, size,
                                       &grp->writer, &fault, &err);
    else if (rc == 0)
        rc = emu_game_find_writer(g, mode_flags(r->mode), (int16_t)r->clip, r->div.tick,
                                  where == FIELD_AREA_CMD ? EMU_GAME_CMD : EMU_GAME_SKELETON, off,
                                  size, &grp->writer, &fault, &err);
    if (rc < 0) {
        snprintf(grp->writer_note, sizeof grp->writer_note, "replay failed: %.120s", err.reason);
        return;
    }
    grp->have_writer = 1;
    if (!grp->writer.writes)
        snprintf(grp->writer_note, sizeof grp->writer_note,
                 "the original did not write this field during %s %zu", call, r->div.tick);
}

static void one_group(run_ctx *ctx, emu_game *g, res_group *grp)
{
    const clip_result *r = &ctx->res->results[grp->example];
    const dat_file *d;
    ff_error err;
    if (run_file_get(ctx, r->file, &d, &err) < 0) {
        snprintf(grp->writer_note, sizeof grp->writer_note, "replay failed: %.120s", err.reason);
        return;
    }
    replay(g, grp, r, d);
    run_file_put(ctx, r->file);
}

void run_find_writers(run_ctx *ctx)
{
    const run_config *cfg = ctx->cfg;
    run_results *res = ctx->res;
    if (!cfg->image || !res->ngroups || run_cancelled(ctx)) return;
    emu_game *g = NULL;
    emu_game_opts opts;
    ff_error err;
    int opened = 0;
    for (size_t i = 0; i < res->ngroups; i++) {
        res_group *grp = &res->groups[i];
        if (strcmp(grp->level, "frame") != 0 || grp->example < 0) continue;
        if (!opened) {
            opened = 1;
            ff_error_clear(&err);
            if (run_replay_opts(ctx, EMU_CAP_BIT(EMU_CAP_WATCH), "write watches", &opts, &err) <
                    0 ||
                emu_game_open(cfg->image, &opts, &g, &err) < 0)
                g = NULL;
        }
        if (!g) {
            snprintf(grp->writer_note, sizeof grp->writer_note, "no engine for the replay: %.100s",
                     err.reason);
            continue;
        }
        one_group(ctx, g, grp);
    }
    emu_game_close(g);
}
