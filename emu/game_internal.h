/*
 * emu/game_internal.h: what modules of emu/ layered on an emu_game (its
 * observation: emu/game_observe.c) need of it beyond emu/game.h. Not for
 * the harness.
 */
#ifndef FF8_EMU_GAME_INTERNAL_H
#define FF8_EMU_GAME_INTERNAL_H

#include <stdint.h>

#include "emu/emu.h"
#include "emu/game.h"

/* The game's engine. */
emu *emu_game_engine(emu_game *g);
/* Guest address of the loaded file's first byte. */
uint32_t emu_game_file_addr(const emu_game *g);

#endif
