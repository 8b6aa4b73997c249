/*
 * emu/image/blocks.h: the basic blocks of a profile's routines, recovered with
 * Capstone from each routine's entry by the control-flow rules of
 * emu/image/walk.h (within the routine's window; conditional branches both
 * ways; a call is an edge to another routine, and the instruction after it
 * starts a new block; ret and tail calls end a path, and so does reaching
 * another routine's entry by running on). A block is a run of
 * instructions entered only at its first one and left only after its last
 * one; every block knows the instructions that lead to it (a branch taken,
 * a jump, or the fall-through of the block before it).
 *
 * What it is for: coverage of the original's code by a run (which blocks
 * executed: emu/engine/coverage.c) and the return sites of routines for call
 * recording (emu/replay.c). A block map is read-only after it is built and
 * may be shared by every thread. Nothing here prints, exits, or runs code.
 */
#ifndef FF8_EMU_IMAGE_BLOCKS_H
#define FF8_EMU_IMAGE_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "emu/image/pe.h"
#include "emu/image/profile.h"
#include "common/error.h"

#define EMU_BLOCK_MAX_PREDS 4

/* How control reaches a block from an instruction. */
typedef enum emu_edge {
    EMU_EDGE_BRANCH, /* a conditional jump, taken */
    EMU_EDGE_JUMP,   /* an unconditional jump */
    EMU_EDGE_FALL,   /* falling through: after a conditional jump not taken, a call, or
                        into an instruction another branch targets */
    EMU_EDGE_ENTRY   /* the routine's entry (no instruction) */
} emu_edge;

typedef struct emu_pred {
    uint32_t from; /* address of the instruction that leads here (0 for ENTRY) */
    uint8_t edge;  /* emu_edge */
} emu_pred;

typedef struct emu_bblock {
    uint32_t start, end; /* [start, end): its instructions' bytes */
    uint32_t last;       /* address of its last instruction */
    uint16_t insns;
    uint16_t routine;    /* index into the map's routines */
    uint8_t npreds;      /* kept preds (at most EMU_BLOCK_MAX_PREDS) */
    uint8_t ends_ret;    /* its last instruction is a ret */
    emu_pred preds[EMU_BLOCK_MAX_PREDS];
} emu_bblock;

typedef struct emu_broutine {
    char name[64];
    uint32_t entry;
    unsigned first, count; /* its blocks: blocks[first .. first + count), by address */
    int decoded;           /* 0: the entry could not be decoded (count 0) */
    int truncated;         /* a limit was hit: blocks may be missing */
} emu_broutine;

typedef struct emu_blockmap {
    unsigned nroutines;
    emu_broutine *routines;
    unsigned nblocks;
    emu_bblock *blocks;
    /* Every block by start address (indexes into blocks), for lookups. */
    uint32_t *by_addr;
    uint32_t lo, hi; /* lowest block start, one past the highest block end */
} emu_blockmap;

/*
 * Recovers the blocks of every routine of p (the stand-in's test routines
 * too when with_tests) in the laid-out image img of pe. *out is new
 * (emu_blocks_free). A routine whose entry cannot be decoded gets no block
 * and decoded = 0. Fails only when memory runs out or Capstone cannot open.
 */
int emu_blocks_build(const pe_image *pe, const uint8_t *img, const emu_profile *p, int with_tests,
                     emu_blockmap **out, ff_error *err);
void emu_blocks_free(emu_blockmap *m);

/* The routine named name, or -1. */
int emu_blocks_routine(const emu_blockmap *m, const char *name);

/*
 * Calls mark(i) for every block i whose first instruction lies in
 * [addr, addr + size) (what an executed translated block of that range
 * proves executed). Returns how many.
 */
unsigned emu_blocks_in_range(const emu_blockmap *m, uint32_t addr, uint32_t size,
                             void (*mark)(void *arg, unsigned i), void *arg);

/*
 * Disassembly of block i, one instruction a line ("0x5090bf: push edi\n"),
 * into out (cut with "..." when n is short). Returns out.
 */
char *emu_blocks_disasm(const emu_blockmap *m, const pe_image *pe, const uint8_t *img,
                        unsigned i, char *out, size_t n);
/* One instruction at addr ("jne 0x5090ec"), into out. Returns out ("?" when undecodable). */
char *emu_blocks_insn(const pe_image *pe, const uint8_t *img, uint32_t addr, char *out,
                      size_t n);

#endif
