/*
 * emu/engine/game_internal.h: the state of an emu_game (emu/engine/game.h) shared by
 * emu/engine/game.c (files, frame-level calls, leaves), emu/engine/game_pose.c (bone and
 * world matrices, pose helpers) and the modules layered on a game (its
 * observation: emu/engine/game_observe.c). Not a public header: nothing outside
 * emu/ includes it.
 *
 * Guest areas (inside emu.h's caller window; the bases are spread over
 * the TLB's sets, see EMU_TLB_SETS in emu.h):
 *   0x60000000  data page: Model (12 bytes) at +0x00, Files at +0x10,
 *               AnimCmd at +0x20, the leaf Cursor at +0x40, the world
 *               base MATRIX at +0x100, pose helper operands from +0x200
 *   0x61030000  leaf buffer: the bytes end at 0x61130000, where a zeroed
 *               guard page starts; read-only for the guest
 *   0x62028000  the .dat file, whole and contiguous, the rest of its last
 *               page zero, then one zeroed read-only guard page
 */
#ifndef FF8_EMU_ENGINE_GAME_INTERNAL_H
#define FF8_EMU_ENGINE_GAME_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/emu.h"
#include "emu/engine/game.h"

#define GAME_PAGE 0x1000u
#define GAME_DATA 0x60000000u
#define GAME_MODEL (GAME_DATA + 0x00u)
#define GAME_FILES (GAME_DATA + 0x10u)
#define GAME_CMD (GAME_DATA + 0x20u)
#define GAME_CURSOR (GAME_DATA + 0x40u)
#define GAME_BASE (GAME_DATA + 0x100u)
#define GAME_POSE_A (GAME_DATA + 0x200u)
#define GAME_POSE_B (GAME_DATA + 0x220u)
#define GAME_POSE_M (GAME_DATA + 0x240u)
#define GAME_POSE_OUT (GAME_DATA + 0x260u)
#define GAME_POSE_SV (GAME_DATA + 0x280u)
#define GAME_POSE_V (GAME_DATA + 0x290u)
#define GAME_POSE_VOUT (GAME_DATA + 0x2A0u)
#define GAME_LEAF 0x61030000u
#define GAME_LEAF_MAX 0x00100000u
#define GAME_LEAF_END (GAME_LEAF + GAME_LEAF_MAX)
#define GAME_FILE 0x62028000u
#define GAME_FILE_MAX 0x04000000u /* 64 MiB */

/* The hot first pages of the data page, leaf buffer, file, scratch and stack: one TLB set each. */
#define GAME_SETS_APART(a, b) (EMU_TLB_SET(a) != EMU_TLB_SET(b))
_Static_assert(GAME_SETS_APART(GAME_DATA, GAME_LEAF) && GAME_SETS_APART(GAME_DATA, GAME_FILE) &&
                   GAME_SETS_APART(GAME_DATA, EMU_SCRATCH_BASE) &&
                   GAME_SETS_APART(GAME_DATA, EMU_STACK_TOP - 1) &&
                   GAME_SETS_APART(GAME_LEAF, GAME_FILE) &&
                   GAME_SETS_APART(GAME_LEAF, EMU_SCRATCH_BASE) &&
                   GAME_SETS_APART(GAME_LEAF, EMU_STACK_TOP - 1) &&
                   GAME_SETS_APART(GAME_FILE, EMU_SCRATCH_BASE) &&
                   GAME_SETS_APART(GAME_FILE, EMU_STACK_TOP - 1),
               "two of the game's areas share a TLB set");

struct emu_game {
    const emu_image *img;
    emu *e;
    uint8_t *data;     /* the data page (the engine's) */
    uint8_t *leaf;     /* GAME_LEAF_MAX + guard page (the engine's) */
    uint32_t leaf_lo;  /* lowest leaf byte a previous call placed */
    uint8_t *file;     /* file pages + guard page (the engine's), NULL when no file */
    uint8_t *pristine; /* the file as loaded */
    size_t size;
    uint32_t file_map; /* bytes of file pages (page multiple) */
    uint32_t skel_off, skel_len;
    uint64_t extent;
    uint8_t pre_cmd[8]; /* the last call's inputs, for a replay after a fault */
    uint8_t *pre_skel;  /* skel_len bytes */
    uint32_t stub;      /* BuildBoneMatrices' address when stubbed to a return, else 0 */
    int stub_by_patch;  /* 1: by a `ret` patched in (the engine has no STUB) */
    int stub_patched;   /* stub_by_patch: the patch is in place now */
};

/* Address of an engine routine, or 0 with *fault explaining its absence. */
uint32_t emu_game_routine_addr(const emu_game *g, profile_routine_id id, emu_fault *fault);
/* 1 with *fault filled when no file is loaded, else 0. */
int emu_game_no_file(const emu_game *g, emu_fault *fault);
/*
 * Calls addr with the file's structures as they are: 0 with *ret = EAX,
 * or -1 with *fault (a data fault refined by a replay) and the file back
 * as loaded (the skeleton included). Either way pre_skel then holds the
 * skeleton as it was before the call. The Cursor extent is not touched.
 */
int emu_game_call_at(emu_game *g, uint32_t addr, const uint32_t *args, unsigned n, uint32_t *ret,
                     emu_fault *fault);
/* Guest address of the loaded file's first byte. */
uint32_t emu_game_file_addr(const emu_game *g);

#endif
