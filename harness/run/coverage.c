/*
 * harness/run/coverage.c: the run's coverage of the original's routines,
 * from the blocks the workers' engines executed (emu/engine/observe.h) merged
 * into one set: per routine, blocks covered of total, and each block never
 * run with its disassembly and the instruction that leads to it (a covered
 * one when there is one: the branch the corpus never took). Blocks of a
 * routine replaced by a return (BuildBoneMatrices at the frame level) do
 * not count as run: the patched first byte ran, not the routine's code; at
 * the pose level the same routine is called on its own after each decoding
 * call, and those calls are what its coverage counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/image.h"
#include "harness/run/context.h"

void run_coverage_free(res_coverage *c)
{
    for (unsigned i = 0; i < c->nroutines; i++) {
        for (unsigned k = 0; k < c->routines[i].nuncovered; k++)
            free(c->routines[i].uncovered[k].disasm);
        free(c->routines[i].uncovered);
    }
    free(c->routines);
    memset(c, 0, sizeof *c);
}

static const char *edge_name(emu_edge e)
{
    switch (e) {
    case EMU_EDGE_BRANCH: return "branch";
    case EMU_EDGE_JUMP: return "jump";
    case EMU_EDGE_FALL: return "fall";
    default: return "entry";
    }
}

/* The block of routine r holding address a, or -1. */
static long block_at(const emu_blockmap *m, const emu_broutine *r, uint32_t a)
{
    for (unsigned k = 0; k < r->count; k++) {
        const emu_bblock *b = &m->blocks[r->first + k];
        if (a >= b->start && a < b->end) return (long)(r->first + k);
    }
    return -1;
}

/* An uncovered block: its text and the way in, a covered one first. */
static int describe_block(const run_ctx *ctx, const emu_broutine *r, unsigned i, res_cov_block *o)
{
    const emu_blockmap *m = ctx->blocks;
    const emu_bblock *b = &m->blocks[i];
    const emu_image *img = ctx->cfg->image;
    o->start = b->start;
    o->end = b->end;
    o->insns = b->insns;
    size_t cap = 64 + 80 * (size_t)b->insns;
    if (!(o->disasm = malloc(cap))) return -1;
    emu_blocks_disasm(m, emu_image_pe(img), emu_image_layout(img), i, o->disasm, cap);
    const emu_pred *pick = b->npreds ? &b->preds[0] : NULL;
    for (unsigned q = 0; q < b->npreds; q++) {
        long from = block_at(m, r, b->preds[q].from);
        if (b->preds[q].edge != EMU_EDGE_ENTRY && from >= 0 && ctx->cover_hits[from]) {
            pick = &b->preds[q];
            o->from_covered = 1;
            break;
        }
    }
    snprintf(o->edge, sizeof o->edge, "%s", pick ? edge_name((emu_edge)pick->edge) : "entry");
    if (pick && pick->edge != EMU_EDGE_ENTRY) {
        o->from = pick->from;
        emu_blocks_insn(emu_image_pe(img), emu_image_layout(img), pick->from, o->branch,
                        sizeof o->branch);
    }
    return 0;
}

static int routine_coverage(const run_ctx *ctx, const emu_broutine *r, res_cov_routine *o,
                            int replaced)
{
    snprintf(o->name, sizeof o->name, "%s", r->name);
    o->entry = r->entry;
    o->blocks = r->count;
    for (unsigned k = 0; k < r->count && !replaced; k++) o->covered += ctx->cover_hits[r->first + k];
    if (replaced) snprintf(o->note, sizeof o->note, "replaced by a plain return in this run");
    else if (!r->decoded) snprintf(o->note, sizeof o->note, "its entry could not be decoded");
    else if (!o->covered) snprintf(o->note, sizeof o->note, "never called in this run");
    else if (r->truncated) snprintf(o->note, sizeof o->note, "recovery hit a limit");
    o->uncovered = calloc(r->count - o->covered + 1, sizeof *o->uncovered);
    if (!o->uncovered) return -1;
    for (unsigned k = 0; k < r->count; k++) {
        if (!replaced && ctx->cover_hits[r->first + k]) continue;
        if (describe_block(ctx, r, r->first + k, &o->uncovered[o->nuncovered++]) < 0) return -1;
    }
    return 0;
}

int run_coverage_build(run_ctx *ctx, ff_error *err)
{
    run_results *res = ctx->res;
    res_coverage *c = &res->coverage;
    const emu_blockmap *m = ctx->blocks;
    run_coverage_free(c);
    c->enabled = 1;
    for (size_t i = 0; i < res->nresults; i++)
        c->not_emulated += res->results[i].source == RES_SRC_CACHE ||
                           res->results[i].source == RES_SRC_TRACES;
    c->complete = c->not_emulated == 0 && !res->interrupted;
    c->routines = calloc(m->nroutines ? m->nroutines : 1, sizeof *c->routines);
    if (!c->routines) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    const char *bm = profile_routine_name(PROFILE_R_BUILD_MATRICES);
    for (unsigned i = 0; i < m->nroutines; i++) {
        /* At the pose level the routine runs, called after every decoding call, though
         * ReadAnimation's own call to it is still the plain return: its blocks count. */
        int replaced = !ctx->cfg->game.keep_matrices && !ctx->cfg->pose_level &&
                       !strcmp(m->routines[i].name, bm);
        c->nroutines++;
        if (routine_coverage(ctx, &m->routines[i], &c->routines[i], replaced) < 0)
            return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    return 0;
}
