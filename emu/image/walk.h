/*
 * emu/image/walk.h: one routine of a mapped PE32 read with Capstone by following
 * its own control flow from its entry: conditional jumps both ways,
 * unconditional jumps inside it; a path stops at ret, hlt, int3, ud2 and
 * at indirect jumps. A direct jmp to another routine's entry (as the
 * caller's is_entry says), before the entry or out of the window after it
 * is a tail call. The walk gives the routine's instructions (with their
 * normalised tokens), its direct call targets and its absolute references;
 * the identify --routines check (emu/profiles/structure.c) and the locator
 * (emu/image/scan.c, emu/image/locate.c) are built on it.
 *
 * A token is an instruction with its operands reduced to their kinds: the
 * mnemonic, then per operand r (register), i (immediate) or m (memory) and
 * its size in bytes ("mov r4,m4"), hashed to 16 bits. Addresses, call
 * targets, displacements (stack offsets among them) and register choices
 * do not reach it, so the same code linked elsewhere gives the same
 * tokens, and a routine's pattern is its tokens in address order.
 *
 * Reads only; never prints, never exits.
 */
#ifndef FF8_EMU_IMAGE_WALK_H
#define FF8_EMU_IMAGE_WALK_H

#include <capstone/capstone.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "emu/image/pe.h"

#define WALK_WINDOW 0x10000u /* bytes after the entry a routine may span */
#define WALK_MAX_INSNS 20000 /* instructions decoded per routine */
#define WALK_MAX_CALLS 64
#define WALK_MAX_REFS 64

typedef struct walk_insn {
    uint32_t address;
    uint8_t size;
    uint16_t token;
} walk_insn;

typedef struct walk_target {
    uint32_t address;
    int tail; /* reached by a jmp (tail call) rather than a call */
    /* The lowest and highest addresses of the instructions calling it: a routine's calls in
     * call order are its targets by first_site; the one called last holds the highest
     * last_site. */
    uint32_t first_site, last_site;
} walk_target;

typedef struct walk_ref {
    uint32_t address;
    int bare; /* a memory operand with no base or index register: [address] */
    int imm;  /* an immediate operand holding an address of the image */
} walk_ref;

typedef struct walk_routine {
    uint32_t entry;
    int decoded; /* 0: nothing decodes at the entry (see error) */
    char error[160];
    int truncated;    /* a limit was hit: lists may be incomplete */
    size_t ninsns;    /* instructions on the routine's own paths */
    walk_insn *insns; /* sorted by address; owned, walk_routine_free releases it */
    unsigned ncalls;  /* direct call and tail-call targets, unique, in order found */
    walk_target calls[WALK_MAX_CALLS];
    unsigned nindirect; /* calls and jumps through a register or memory */
    unsigned nrefs; /* [address] anywhere, [reg + address] and address immediates in the image */
    walk_ref refs[WALK_MAX_REFS];
} walk_routine;

/* Says whether addr is the entry of a routine other than the one walked. */
typedef int (*walk_entry_fn)(void *arg, uint32_t addr);

/* What one decoded instruction does to a path through its routine (the rules above). */
typedef enum walk_flow {
    WALK_NEXT,          /* falls through to the next instruction */
    WALK_END,           /* ret, retf, hlt, int3, ud2: the path ends */
    WALK_CALL,          /* direct call (target set); then the next instruction */
    WALK_CALL_INDIRECT, /* call through a register or memory; then the next */
    WALK_JUMP,          /* direct jump inside the routine (target set) */
    WALK_TAIL,          /* direct jump out of the routine (target set): a tail call */
    WALK_JUMP_INDIRECT, /* jump through a register or memory: the path ends */
    WALK_BRANCH         /* conditional jump (target set): both ways */
} walk_flow;

/*
 * Classifies in (decoded by Capstone with details on) as an instruction of
 * the routine entered at entry; is_entry (may be NULL) names other
 * routines' entries for the tail-call rule. *target gets the direct target
 * when there is one, else 0. The one place the rules are written: the walk
 * and the block recovery (emu/image/blocks.c) both follow it.
 */
walk_flow walk_flow_of(csh cs, const cs_insn *in, uint32_t entry, walk_entry_fn is_entry, void *arg,
                       uint32_t *target);
/* 1 when a lies inside the laid-out image of pe. */
int walk_in_image(const pe_image *pe, uint32_t a);
/*
 * Decodes the instruction at a of the laid-out image (size_of_image bytes)
 * into in; 0, or -1 when a is outside the image or nothing decodes there.
 */
int walk_decode(csh cs, const pe_image *pe, const uint8_t *img, uint32_t a, cs_insn *in);

typedef struct walker walker;

/*
 * A walker over an image laid out by pe_build_image (pe and layout must
 * outlive it). Fails (FF_E_EMU, FF_E_NOMEM) when Capstone cannot start.
 */
int walk_open(const pe_image *pe, const uint8_t *layout, walker **out, ff_error *err);
void walk_close(walker *w);

/*
 * Walks the routine at entry into *out (zeroed first; release it with
 * walk_routine_free). is_entry (may be NULL) names other routines' entries
 * for the tail-call rule. An entry outside every section or where nothing
 * decodes is recorded in out (decoded 0, error), not an error. Returns -1
 * only when memory runs out.
 */
int walk_routine_at(walker *w, uint32_t entry, walk_entry_fn is_entry, void *arg, walk_routine *out,
                    ff_error *err);
void walk_routine_free(walk_routine *r);

/*
 * The routine's size in bytes: from its entry to the end of its last
 * instruction (0 when nothing decoded), as disassemblers state a
 * function's size.
 */
uint32_t walk_extent(const walk_routine *r);

/* 1 when one of the routine's instructions starts at or spans addr. */
int walk_covers(const walk_routine *r, uint32_t addr);

/* 1 when addr lies in an executable section (code, or execute permission). */
int walk_in_code(const pe_image *pe, uint32_t addr);

/*
 * Similarity of two patterns in percent: 100 when equal, otherwise
 * 2 * (longest common subsequence) / (na + nb), rounded down (so never 100
 * unless equal); 0 when either is empty.
 */
unsigned walk_pattern_similarity(const uint16_t *a, size_t na, const uint16_t *b, size_t nb);

#endif
