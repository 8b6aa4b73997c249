/*
 * emu/image/scan.h: the whole code of a mapped PE32 indexed for the locator
 * (emu/image/locate.h), from nothing but its bytes.
 *
 * One linear sweep with Capstone over every executable section records:
 *   - call edges: each `call rel32` whose target lies in code, and each
 *     `jmp rel32` to a call target (a tail call);
 *   - routine entries: every call target ("strong"), and every instruction
 *     that follows a ret, a jmp or int3/nop padding ("weak": routines no one
 *     calls directly start there, but so do some blocks inside routines);
 *   - where instructions start, to find the instruction holding a given
 *     address literal.
 * On top of that: the routine containing an address (the nearest entry at
 * or before it whose own control flow reaches it, then, for a weak entry,
 * the earlier entry whose flow reaches that one), the callers of a routine,
 * the places a byte string occurs, and the instructions that refer to an
 * address range. Routine walks (emu/image/walk.h) are cached.
 *
 * Nothing here knows a routine name or an address of any build. Reads
 * only; never prints, never exits.
 */
#ifndef FF8_EMU_IMAGE_SCAN_H
#define FF8_EMU_IMAGE_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "emu/image/pe.h"
#include "emu/image/walk.h"

typedef struct scan scan;

typedef struct scan_stats {
    uint64_t code_bytes; /* bytes swept */
    uint64_t insns;      /* instructions decoded by the sweep */
    size_t edges;        /* call and tail-call edges */
    size_t strong, weak; /* entries */
    size_t walks;        /* routines walked so far */
} scan_stats;

/*
 * Sweeps the image (pe and layout must outlive the scan). Fails only when
 * memory runs out or Capstone cannot start; an image without code gives an
 * empty index.
 */
int scan_open(const pe_image *pe, const uint8_t *layout, scan **out, ff_error *err);
void scan_close(scan *s);
void scan_get_stats(const scan *s, scan_stats *st);

/* 2: a call target, 1: a weak entry, 0: neither. */
int scan_entry_kind(const scan *s, uint32_t addr);
/* Every entry, ascending (valid until scan_close). */
size_t scan_entries(const scan *s, const uint32_t **list);

/*
 * The walk of the routine at entry (cached; valid until scan_close), NULL
 * with err when memory runs out. A jmp to a call target is a tail call.
 */
const walk_routine *scan_walk(scan *s, uint32_t entry, ff_error *err);

/*
 * Entry of the routine whose code holds addr into *entry: returns 1, 0 when
 * no entry's flow reaches addr, -1 (err) when memory runs out.
 */
int scan_containing(scan *s, uint32_t addr, uint32_t *entry, ff_error *err);

/*
 * The routines holding a call (or tail call) to target, unique, ascending,
 * into out (cap entries). Returns how many there are (may exceed cap), or
 * -1 with err.
 */
long scan_callers(scan *s, uint32_t target, uint32_t *out, size_t cap, ff_error *err);

/*
 * Where bytes[0..n) occur in the mapped sections (in their file bytes: the
 * rest is zeros, searched only for a string of zeros), ascending; returns
 * how many (may exceed cap).
 */
size_t scan_find_bytes(const scan *s, const uint8_t *bytes, size_t n, uint32_t *out, size_t cap);

/*
 * Instructions of the code that refer to an address in [lo, hi): a memory
 * operand's displacement or an immediate, found through the little-endian
 * literal in the code. Returns how many (may exceed cap).
 */
size_t scan_refs_to(scan *s, uint32_t lo, uint32_t hi, uint32_t *out, size_t cap);

/* Sorts v[0..n) and removes duplicates; returns the new count. */
size_t scan_unique(uint32_t *v, size_t n);

#endif
