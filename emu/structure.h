/*
 * emu/structure.h: how a routine's control flow is followed from its entry,
 * shared by the structural check (emu/structure.c, identify_routines) and
 * the basic-block recovery (emu/blocks.c), so both read a routine the same
 * way. Internal to emu/: the harness sees only their results.
 *
 * The rules: a routine spans at most STRUCTURE_WINDOW bytes from its entry;
 * conditional jumps are followed both ways, direct jumps inside the routine
 * followed; a direct jump to another routine's entry, before the entry or
 * out of the window is a tail call (an edge, not code of this routine);
 * ret, retf, hlt, int3 and ud2 end a path, and so does an indirect jump.
 * Reads only; nothing here prints or exits.
 */
#ifndef FF8_EMU_STRUCTURE_H
#define FF8_EMU_STRUCTURE_H

#include <capstone/capstone.h>
#include <stdint.h>

#include "emu/pe.h"
#include "emu/profile.h"

#define STRUCTURE_WINDOW 0x10000u /* bytes after the entry a routine may span */

/* What one decoded instruction does to the path through a routine. */
typedef enum structure_flow {
    STRUCTURE_NEXT,          /* falls through to the next instruction */
    STRUCTURE_END,           /* ret, hlt, int3, ud2: the path ends */
    STRUCTURE_CALL,          /* direct call (target set); then the next instruction */
    STRUCTURE_CALL_INDIRECT, /* call through a register or memory; then the next */
    STRUCTURE_JUMP,          /* direct jump inside the routine (target set) */
    STRUCTURE_TAIL,          /* direct jump out of the routine (target set): a tail call */
    STRUCTURE_JUMP_INDIRECT, /* jump through a register or memory: the path ends */
    STRUCTURE_BRANCH         /* conditional jump (target set): both ways */
} structure_flow;

/*
 * Classifies in (decoded with details on) as part of the routine entered at
 * entry, under profile p (for the entries of other routines). *target gets
 * the direct target when there is one, else 0.
 */
structure_flow structure_flow_of(csh cs, const cs_insn *in, const emu_profile *p, uint32_t entry,
                                 uint32_t *target);

/* 1 when a lies inside the laid-out image of pe. */
int structure_in_image(const pe_image *pe, uint32_t a);

/*
 * Decodes the instruction at a from the laid-out image (size_of_image bytes)
 * into in; returns 0, or -1 when a is outside the image or nothing decodes.
 */
int structure_decode(csh cs, const pe_image *pe, const uint8_t *img, uint32_t a, cs_insn *in);

#endif
