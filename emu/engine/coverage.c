/*
 * emu/engine/coverage.c: which blocks of the profile's routines an engine
 * executes (emu_cover_start, emu/engine/emu.h). One UC_HOOK_BLOCK bounded to the
 * block map's address range: Unicorn calls it for each translated block
 * starting there, with the block's size, and every recovered basic block
 * whose first instruction lies in that range has run (a translated block
 * is entered only at its start and, barring a fault, runs to its end).
 * The image's translated code is dropped when the hook comes and goes,
 * since blocks translated before a hook existed may not call it
 * (ENGINE.md section 8). Never prints or exits.
 */
#include <string.h>

#include "emu/image/blocks.h"
#include "emu/engine/emu_internal.h"

static void mark(void *arg, unsigned i)
{
    ((uint8_t *)arg)[i] = 1;
}

/*
 * Called for every translated block run in the map's range: a translated
 * block seen before (same start, same size; a direct-mapped memo) has
 * marked its blocks already, so the common case is one lookup.
 */
static void on_cover_block(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    (void)uc;
    emu *e = user;
    emu_cover_memo *m = &e->cover_memo[((uint32_t)addr >> 1) & (EMU_COVER_MEMO - 1)];
    if (m->addr == (uint32_t)addr && m->size == size) return;
    emu_blocks_in_range(e->cover_map, (uint32_t)addr, size, mark, e->cover_hits);
    m->addr = (uint32_t)addr;
    m->size = size;
}

int emu_cover_start(emu *e, const struct emu_blockmap *m, uint8_t *hits, ff_error *err)
{
    emu_cover_stop(e);
    if (!m->nblocks) return 0;
    e->cover_map = m;
    e->cover_hits = hits;
    memset(e->cover_memo, 0, sizeof e->cover_memo);
    uc_err ue = uc_hook_add(e->uc, &e->cover_hook, UC_HOOK_BLOCK, (void *)on_cover_block, e,
                            (uint64_t)m->lo, (uint64_t)m->hi - 1);
    if (ue != UC_ERR_OK)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "cannot add the coverage hook: %s",
                            uc_strerror(ue));
    e->covering = 1;
    return emu_drop_code(e, err);
}

void emu_cover_stop(emu *e)
{
    if (!e->covering) return;
    uc_hook_del(e->uc, e->cover_hook);
    e->covering = 0;
    e->cover_map = NULL;
    e->cover_hits = NULL;
    emu_drop_code(e, NULL);
}
