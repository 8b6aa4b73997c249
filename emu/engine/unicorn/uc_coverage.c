/*
 * emu/engine/unicorn/uc_coverage.c: which blocks of the profile's routines an engine
 * executes (emu_cover_start, emu/engine/emu.h). There is no hook of its own: the
 * engine's one block hook (emu/engine/unicorn/uc_call.c, the instruction budget) calls
 * emu_cover_block the first time it meets a translated block (a miss in
 * its memo), and every recovered basic block whose first instruction lies
 * in that translated block has run (a translated block is entered only at
 * its start and, barring a fault, runs to its end). So coverage costs one
 * range test per new block and nothing per block run. Unicorn calls a
 * hook for each block it runs, however many hooks there are, and each
 * further hook costs about a fifth of a plain run (measured on 2.1.1,
 * bench/README.md). Never prints or exits.
 */
#include <string.h>

#include "emu/image/blocks.h"
#include "emu/engine/unicorn/uc_internal.h"

static void mark(void *arg, unsigned i)
{
    ((uint8_t *)arg)[i] = 1;
}

void emu_uc_cover_block(emu_uc *e, uint32_t addr, uint32_t size)
{
    const struct emu_blockmap *m = e->cover_map;
    if (!e->covering || addr + size <= m->lo || addr >= m->hi) return;
    emu_blocks_in_range(m, addr, size, mark, e->cover_hits);
}

int emu_uc_cover_start(emu_uc *e, const struct emu_blockmap *m, uint8_t *hits, ff_error *err)
{
    (void)err;
    emu_uc_cover_stop(e);
    if (!m->nblocks) return 0;
    e->cover_map = m;
    e->cover_hits = hits;
    /* Blocks met before are marked again when next met. */
    memset(e->memo, 0, sizeof e->memo);
    e->covering = 1;
    return 0;
}

void emu_uc_cover_stop(emu_uc *e)
{
    if (!e->covering) return;
    e->covering = 0;
    e->cover_map = NULL;
    e->cover_hits = NULL;
}
