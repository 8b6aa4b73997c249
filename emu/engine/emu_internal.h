/*
 * emu/engine/emu_internal.h: the engine's private state, shared by emu/engine/emu.c
 * (set-up, memory) and emu/engine/call.c (calls, hooks, faults). Not a public
 * header: nothing outside emu/ includes it.
 */
#ifndef FF8_EMU_ENGINE_EMU_INTERNAL_H
#define FF8_EMU_ENGINE_EMU_INTERNAL_H

#include <capstone/capstone.h>
#include <unicorn/unicorn.h>

#include "emu/engine/emu.h"

#define EMU_PAGE 0x1000u
#define EMU_MAX_AREAS 16
#define EMU_MAX_PATCHES 8
#define EMU_MAX_RUNS 64

/*
 * A translated block as the block hook last saw it (emu/engine/call.c): its
 * instruction count, and whether coverage has marked its blocks. Direct
 * mapped by address, so the hook's common case is one compare.
 */
#define EMU_MEMO 4096
typedef struct emu_memo {
    uint32_t addr, size; /* size 0: empty */
    uint32_t insns;
} emu_memo;

/* A run of image pages whose data is writable (restored after a fault). */
typedef struct emu_run {
    uint32_t off, len; /* offset from the image base, bytes */
} emu_run;

/* A page holding profile globals outside every section. */
typedef struct emu_gpage {
    uint32_t addr;
    uint8_t *host;
} emu_gpage;

typedef struct emu_area {
    uint32_t addr, size;
    uint8_t *host;
} emu_area;

typedef struct emu_patch_rec {
    uint32_t addr, len;
    uint8_t bytes[32];
} emu_patch_rec;

/* Instruction count of one translated block, cached by address. */
typedef struct emu_block {
    uint32_t addr; /* 0: empty slot */
    uint32_t size;
    uint32_t insns;
} emu_block;

struct emu {
    uc_engine *uc;
    csh cs;
    const pe_image *pe;
    const uint8_t *pristine; /* the image as built from the file, borrowed */
    emu_profile profile;

    uint8_t *image; /* private copy, image_size bytes */
    uint32_t image_base, image_size;
    emu_run wruns[EMU_MAX_RUNS];
    unsigned nwruns;
    emu_gpage gpages[PROFILE_MAX_GLOBALS];
    unsigned ngpages;
    emu_area areas[EMU_MAX_AREAS];
    unsigned nareas;
    emu_patch_rec patches[EMU_MAX_PATCHES];
    unsigned npatches;

    uint8_t *stack;     /* EMU_STACK_SIZE bytes backing [EMU_STACK_LO, EMU_STACK_TOP) */
    uint32_t stack_hot; /* bytes mapped below the top, zeroed before each call */
    uint8_t *scratch;   /* scratch_map bytes backing [EMU_SCRATCH_BASE, ...) */
    uint32_t scratch_map, scratch_hot;
    uint8_t *sys;    /* 3 pages: sentinel, GDT, TEB */
    uint8_t *cursor; /* host address of field_alloc_cursor, or NULL */

    uc_context *ctx0; /* CPU state after set-up, restored after a fault */
    uc_hook hooks[4];
    char lost[160]; /* why the engine can run no more calls; "" while it can */

    /* Per-call state, written by the hooks. */
    uint64_t budget, insns;
    uint32_t block_addr, block_size;
    emu_fault_kind stop_kind; /* BUDGET, DIVIDE, INTERRUPT, INVALID_INSN from hooks */
    uint32_t stop_eip, intno;
    /* BUDGET: the registers at the start of the block where the budget ran out
     * (where the call stops later depends on which blocks are chained) */
    uint32_t stop_regs[EMU__NREGS];
    int have_stop_regs;
    int mem_seen;
    uc_mem_type mem_type;
    uint32_t mem_addr;
    int mem_size;

    /* A routine returning at once while stub_on (emu_stub_return): a code hook, so
     * switching it never changes code nor drops translated blocks. */
    uc_hook stub_hook;
    uint32_t stub_addr; /* 0: none */
    int stub_on;

    /* Write watch and exact-EIP replays (emu/engine/watch.c). */
    uc_hook watch_hook, pc_sync_hook;
    int watching, pc_sync;
    struct {
        uint32_t eip, writes;
        int size;
        uint64_t value;
    } watch;

    /* Coverage of profile code (emu/engine/coverage.c), marked by the block hook. */
    int covering;
    const struct emu_blockmap *cover_map;
    uint8_t *cover_hits;

    /* Call recording (emu/engine/calllog.c). */
    uc_hook *call_hooks;
    unsigned ncall_hooks;
    uint32_t *call_entries; /* owned copy */
    unsigned ncall_entries;
    emu_callrec *call_recs;
    size_t call_cap, call_n, call_total;
    uint32_t call_pending[EMU_CALL_MAX_DEPTH]; /* indexes into call_recs (or ~0: not kept) */
    uint32_t call_pending_esp[EMU_CALL_MAX_DEPTH];
    unsigned call_depth;

    emu_block *blocks;
    uint32_t nblocks_cap, nblocks_used; /* cap is a power of two */
    cs_insn *insn;                      /* Capstone scratch instruction for counting */
    emu_memo memo[EMU_MEMO];            /* in front of blocks; emptied when coverage starts */
};

/*
 * Marks the blocks of the coverage map that the translated block [addr,
 * addr + size) runs, when coverage is on (emu/engine/coverage.c). Called by the
 * block hook the first time it meets that block (a memo miss).
 */
void emu_cover_block(emu *e, uint32_t addr, uint32_t size);
/* Drops the image's translated code, so hooks added since apply (emu/engine/watch.c). */
int emu_drop_code(emu *e, ff_error *err);
/* Installs the hooks and flushes translated code (emu/engine/call.c). */
int emu_install_hooks(emu *e, ff_error *err);
/*
 * After a fault: CPU context, image data, globals, TEB back to pristine
 * (emu/engine/emu.c). Returns 0, or -1 when Unicorn refuses to restore the CPU
 * context: e->lost then says so and every later call is refused with it.
 */
int emu_restore(emu *e);
/* Fills f->disasm from the last block through a few instructions past EIP (emu/engine/fault.c). */
void emu_fault_disasm(emu *e, emu_fault *f);

#endif
