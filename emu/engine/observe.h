/*
 * emu/engine/observe.h: watching the original at work, for explanations and
 * coverage: the basic blocks of an image's routines (emu/image/blocks.h), which
 * of them a game's calls execute, and the read log of one replayed call
 * (every call of bitReader and the three value readers, in the shape of
 * ref/readlog.h, so it aligns with the reference's log).
 *
 * Hooks exist only while they are needed (coverage: from start to stop;
 * read logs: from the first read log to emu_game_read_log_end, recording
 * only during each replayed call). Nothing here prints or exits.
 */
#ifndef FF8_EMU_ENGINE_OBSERVE_H
#define FF8_EMU_ENGINE_OBSERVE_H

#include <stddef.h>
#include <stdint.h>

#include "emu/image/blocks.h"
#include "emu/engine/fault.h"
#include "emu/engine/game.h"
#include "ref/readlog.h"
#include "common/error.h"

/* The blocks of every routine of img's profile but the stand-in's test routines. */
int emu_image_blocks(const emu_image *img, emu_blockmap **out, ff_error *err);

/*
 * Records into hits (m->nblocks bytes, caller-owned, outliving the game or
 * the next emu_game_cover) which blocks of m the game's following calls
 * execute. m must come from the game's image. hits == NULL stops.
 */
int emu_game_cover(emu_game *g, const emu_blockmap *m, uint8_t *hits, ff_error *err);

/*
 * Replays clip on the loaded file (skeleton as loaded, AnimCmd flags =
 * flags, StartClip then Battle_ReadAnimation) up to call number tick (0 is
 * StartClip) and records that call's reads into out (cleared first): the
 * routines bitReader, ReadPositionType, ReadRotationType, ReadBoneScale
 * found in m by name, hooked at their entries and at their blocks' rets.
 * Cursor bytes are counted from clip_start (the clip's first byte in the
 * file); a cursor is 8 bytes at the first argument ({u32 ptr, s32 bit}).
 * Returns 0; -1 with *fault when a call faults (out then holds the reads up
 * to the fault), or with err when a routine is missing from m or the clip
 * ends before tick. The hooks stay in place (recording nothing) so that a
 * series of read logs shares translated code: end the series with
 * emu_game_read_log_end.
 */
int emu_game_read_log(emu_game *g, const emu_blockmap *m, uint8_t flags, int16_t clip,
                      size_t tick, int64_t clip_start, ref_read_log *out, emu_fault *fault,
                      ff_error *err);
/* Removes the read-log hooks (nothing when none); the game's calls run unhooked again. */
void emu_game_read_log_end(emu_game *g);

#endif
