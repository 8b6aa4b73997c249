/*
 * emu/engine/game_observe.c: coverage and read logs on an emu_game (emu/engine/observe.h),
 * built on the engine's coverage and call recording (EMU_CAP_COVERAGE,
 * EMU_CAP_READ_LOG of emu/engine/emu.h; refused with the reason by an engine
 * without them). The routines come from the block map by their profile
 * names, never from constants. Never prints or exits.
 */
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/engine/game_internal.h"
#include "emu/engine/image.h"
#include "emu/engine/observe.h"

int emu_image_blocks(const emu_image *img, emu_blockmap **out, ff_error *err)
{
    return emu_blocks_build(emu_image_pe(img), emu_image_layout(img), emu_image_profile(img), 0,
                            out, err);
}

int emu_game_cover(emu_game *g, const emu_blockmap *m, uint8_t *hits, ff_error *err)
{
    if (!hits) {
        emu_cover_stop(emu_game_engine(g));
        return 0;
    }
    return emu_cover_start(emu_game_engine(g), m, hits, err);
}

/* Entries and ret sites of the logged routines; *rets is new. */
static int sites(const emu_blockmap *m, uint32_t entries[REF_R__COUNT], uint32_t **rets,
                 unsigned *nrets, ff_error *err)
{
    *rets = NULL;
    *nrets = 0;
    int idx[REF_R__COUNT];
    unsigned total = 0;
    for (int r = 0; r < REF_R__COUNT; r++) {
        idx[r] = emu_blocks_routine(m, ref_routine_name((ref_routine)r));
        if (idx[r] < 0 || !m->routines[idx[r]].count)
            return ff_error_set(err, FF_E_EXE, NULL, -1,
                                "the profile has no decodable routine %s to watch",
                                ref_routine_name((ref_routine)r));
        entries[r] = m->routines[idx[r]].entry;
        total += m->routines[idx[r]].count;
    }
    *rets = malloc(total * sizeof **rets);
    if (!*rets) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    for (int r = 0; r < REF_R__COUNT; r++) {
        const emu_broutine *br = &m->routines[idx[r]];
        for (unsigned k = 0; k < br->count; k++)
            if (m->blocks[br->first + k].ends_ret) (*rets)[(*nrets)++] = m->blocks[br->first + k].last;
    }
    return 0;
}

/* The recorded calls as reads: cursor pointers become clip-relative bytes. */
static void to_reads(const emu_callrec *c, size_t n, size_t total, int64_t base,
                     ref_read_log *out)
{
    for (size_t i = 0; i < n && out->n < out->cap; i++) {
        ref_read *x = &out->reads[out->n++];
        memset(x, 0, sizeof *x);
        x->routine = (uint8_t)c[i].routine;
        x->depth = (uint8_t)(c[i].depth > 255 ? 255 : c[i].depth);
        x->n = c[i].routine == REF_R_BITREADER ? (int16_t)(uint16_t)c[i].args[1] : 0;
        x->value = c[i].returned ? (int16_t)(uint16_t)(c[i].eax & 0xFFFF) : 0;
        x->pos = (int64_t)le_u32(c[i].in) - base;
        x->bit = (int32_t)le_u32(c[i].in + 4);
        x->pos_after = (int64_t)le_u32(c[i].out) - base;
        x->bit_after = (int32_t)le_u32(c[i].out + 4);
        x->site = c[i].ret_addr;
    }
    out->total = total;
}

/* Hooks on the logged routines, put in place once for a series of read logs. */
static int arm(emu *e, const emu_blockmap *m, ff_error *err)
{
    if (emu_calls_armed(e)) return 0;
    if (emu_require(e, EMU_CAP_READ_LOG, err) < 0) return -1;
    uint32_t entries[REF_R__COUNT], *rets;
    unsigned nrets;
    if (sites(m, entries, &rets, &nrets, err) < 0) return -1;
    int rc = emu_calls_start(e, entries, REF_R__COUNT, rets, nrets, err);
    free(rets);
    return rc;
}

int emu_game_read_log(emu_game *g, const emu_blockmap *m, uint8_t flags, int16_t clip,
                      size_t tick, int64_t clip_start, ref_read_log *out, emu_fault *fault,
                      ff_error *err)
{
    ref_read_log_clear(out);
    out->base = clip_start;
    emu *e = emu_game_engine(g);
    if (arm(e, m, err) < 0) return -1;
    emu_callrec *recs = malloc((out->cap ? out->cap : 1) * sizeof *recs);
    if (!recs) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    int64_t base = (int64_t)emu_game_file_addr(g) + clip_start;
    emu_game_reset_skeleton(g);
    uint32_t ret = 0;
    int rc = 0;
    for (size_t t = 0; t <= tick && rc == 0; t++) {
        if (t == tick) emu_calls_record(e, recs, out->cap);
        rc = t == 0 ? emu_game_start_clip(g, flags, clip, &ret, fault)
                    : emu_game_read_animation(g, &ret, fault);
        if (rc == 0 && t < tick && ret == 1) {
            ff_error_set(err, FF_E_RANGE, NULL, -1,
                         "clip %d returned 1 at call %zu, before call %zu", clip, t, tick);
            rc = -2; /* err is set; not a fault */
        }
    }
    size_t total = 0, n = emu_calls_taken(e, &total);
    to_reads(recs, n, total, base, out);
    emu_calls_record(e, NULL, 0);
    free(recs);
    if (rc == -1) ff_error_set(err, FF_E_FAULT, NULL, -1, "the original faulted while replaying");
    return rc < 0 ? -1 : 0;
}

void emu_game_read_log_end(emu_game *g)
{
    emu_calls_stop(emu_game_engine(g));
}
