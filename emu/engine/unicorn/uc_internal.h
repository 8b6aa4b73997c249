/*
 * emu/engine/unicorn/uc_internal.h: the Unicorn engine's private state, shared
 * by emu/engine/unicorn/uc_engine.c (set-up, memory), uc_call.c (calls, hooks,
 * faults), uc_watch.c, uc_coverage.c, uc_calllog.c, uc_fault.c and uc_ops.c (its
 * emu_ops table). Not a public header: nothing outside emu/engine/unicorn/
 * includes it.
 */
#ifndef FF8_EMU_ENGINE_EMU_INTERNAL_H
#define FF8_EMU_ENGINE_EMU_INTERNAL_H

#include <capstone/capstone.h>
#include <unicorn/unicorn.h>

#include "emu/engine/emu_impl.h"
#include "emu/engine/guest.h"

#define EMU_PAGE 0x1000u
#define EMU_MAX_AREAS 16
#define EMU_MAX_PATCHES 8
#define EMU_MAX_RUNS 64

/*
 * A translated block as the block hook last saw it (emu/engine/unicorn/uc_call.c): its
 * instruction count, and whether coverage has marked its blocks. Direct
 * mapped by address, so the hook's common case is one compare.
 */
#define EMU_MEMO 4096
typedef struct emu_memo {
    uint32_t addr, size; /* size 0: empty */
    uint32_t insns;
} emu_memo;


/* A page holding profile globals outside every section. */
typedef struct emu_gpage {
    uint32_t addr;
    uint8_t *host;
} emu_gpage;

/* An area the engine owns (emu_map_area): size bytes, then guard read-only bytes. */
typedef struct emu_area {
    uint32_t addr, size, guard;
    uint8_t *host; /* fresh anonymous pages: bytes of them (size + guard as mapped) */
    size_t bytes;
    int stuck;     /* Unicorn refused to unmap it: mapped until close */
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

typedef struct emu_uc {
    emu base; /* first: the dispatcher's view */
    uc_engine *uc;
    csh cs;
    const pe_image *pe;
    const uint8_t *pristine; /* the image as built from the file, borrowed */
    emu_profile profile;

    uint8_t *image; /* private copy, image_size bytes */
    uint32_t image_base, image_size;
    emu_wrun wruns[EMU_MAX_RUNS];
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
    uc_hook hooks[6];
    char lost[160]; /* why the engine can run no more calls; "" while it can */

    /* Per-call state, written by the hooks. */
    uint64_t budget, insns;
    uint32_t block_addr, block_size;
    emu_fault_kind stop_kind; /* BUDGET, DIVIDE, INTERRUPT, INVALID_INSN, SYSCALL from hooks */
    uint32_t stop_eip, intno;
    const char *sys_insn; /* SYSCALL: "int 0x80", "sysenter" or "syscall" */
    uint32_t sys_eax;     /* SYSCALL: EAX there (the i386 system call number) */
    uint32_t sys_reg_eip; /* SYSCALL: the registers' EIP (past `int 0x80`, else stop_eip) */
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

    /* Write watch and exact-EIP replays (emu/engine/unicorn/uc_watch.c). */
    uc_hook watch_hook, pc_sync_hook;
    int watching, pc_sync;
    struct {
        uint32_t eip, writes;
        int size;
        uint64_t value;
    } watch;

    /* Coverage of profile code (emu/engine/unicorn/uc_coverage.c), marked by the block hook. */
    int covering;
    const struct emu_blockmap *cover_map;
    uint8_t *cover_hits;

    /* Call recording (emu/engine/unicorn/uc_calllog.c). */
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
    int hlt;                            /* the call stopped at a HLT of its own */
    cs_insn *insn;                      /* Capstone scratch instruction for counting */
    emu_memo memo[EMU_MEMO];            /* in front of blocks; emptied when coverage starts */
} emu_uc;

/* The Unicorn engine behind a dispatcher handle. */
static inline emu_uc *emu_uc_of(emu *e)
{
    return (emu_uc *)e;
}
static inline const emu_uc *emu_uc_of_c(const emu *e)
{
    return (const emu_uc *)e;
}

/*
 * Marks the blocks of the coverage map that the translated block [addr,
 * addr + size) runs, when coverage is on (emu/engine/unicorn/uc_coverage.c). Called by the
 * block hook the first time it meets that block (a memo miss).
 */
void emu_uc_cover_block(emu_uc *e, uint32_t addr, uint32_t size);
/* Drops the image's translated code, so hooks added since apply (emu/engine/unicorn/uc_watch.c). */
int emu_uc_drop_code(emu_uc *e, ff_error *err);
/* Installs the hooks and flushes translated code (emu/engine/unicorn/uc_call.c). */
int emu_uc_install_hooks(emu_uc *e, ff_error *err);
/*
 * After a fault: CPU context, image data, globals, TEB back to pristine
 * (emu/engine/unicorn/uc_engine.c). Returns 0, or -1 when Unicorn refuses to restore the CPU
 * context: e->lost then says so and every later call is refused with it.
 */
int emu_uc_restore(emu_uc *e);
/* Fills f->disasm from the last block through a few instructions past EIP
 * (emu/engine/unicorn/uc_fault.c). */
void emu_uc_fault_disasm(emu_uc *e, emu_fault *f);

/* The engine's operations (emu/engine/emu.h gives their contracts), called by uc_ops.c. */
int emu_uc_open(const emu_config *cfg, emu_uc **out, ff_error *err);
void emu_uc_close(emu_uc *e);
int emu_uc_call(emu_uc *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
                emu_fault *fault);
/* emu_uc_call, then the exact-fault replay of emu_call_rewind when rw is not NULL. */
int emu_uc_call_rewind(emu_uc *e, uint32_t addr, const uint32_t *args, unsigned nargs,
                       uint32_t *eax, emu_fault *fault, const emu_rewind *rw);
int emu_uc_x87_st0(emu_uc *e, double *value, uint8_t *raw);
uint64_t emu_uc_last_insns(const emu_uc *e);
void emu_uc_set_budget(emu_uc *e, uint64_t budget);
int emu_uc_map_area(emu_uc *e, uint32_t addr, uint32_t size, int prot, uint32_t guard,
                    uint8_t **host, ff_error *err);
int emu_uc_unmap_area(emu_uc *e, uint32_t addr, ff_error *err);
uint8_t *emu_uc_host(emu_uc *e, uint32_t addr, uint32_t len);
/* The guest's selectors (uc_engine.c's GDT): flat code, flat data, the TEB's. */
#define EMU_UC_SEL_CODE (1 << 3)
#define EMU_UC_SEL_DATA (2 << 3)
#define EMU_UC_SEL_FS (3 << 3)
/* The flat data selector of a 64-bit Linux process's 32-bit code, also flat data here. */
#define EMU_UC_SEL_LINUX_DATA 0x2B
/* Loads every segment register with the guest's selector. Returns 0, or -1. */
int emu_uc_segments(emu_uc *e);
int emu_uc_stub_return(emu_uc *e, uint32_t addr, ff_error *err);
void emu_uc_stub_set(emu_uc *e, int on);
int emu_uc_patch(emu_uc *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err);
int emu_uc_unpatch(emu_uc *e, uint32_t addr, ff_error *err);
int emu_uc_watch_writes(emu_uc *e, uint32_t addr, uint32_t len, ff_error *err);
void emu_uc_watch_reset(emu_uc *e);
void emu_uc_watch_result(emu_uc *e, emu_writer *w);
int emu_uc_unwatch(emu_uc *e, ff_error *err);
/*
 * Switches Unicorn's exact-EIP bookkeeping for memory accesses on or off
 * (uc_watch.c). A memory fault's EIP is otherwise the start of its
 * translated block. Costs a retranslation each way; never left on for runs.
 * Returns 0, or -1 with err (a hook Unicorn refuses to remove stays on:
 * slower, same results).
 */
int emu_uc_pc_sync(emu_uc *e, int on, ff_error *err);
int emu_uc_cover_start(emu_uc *e, const struct emu_blockmap *m, uint8_t *hits, ff_error *err);
void emu_uc_cover_stop(emu_uc *e);
int emu_uc_calls_start(emu_uc *e, const uint32_t *entries, unsigned n, const uint32_t *rets,
                       unsigned nrets, ff_error *err);
int emu_uc_calls_armed(const emu_uc *e);
void emu_uc_calls_record(emu_uc *e, emu_callrec *recs, size_t cap);
size_t emu_uc_calls_taken(const emu_uc *e, size_t *total);
void emu_uc_calls_stop(emu_uc *e);
uint32_t emu_uc_stack_hot(const emu_uc *e);
uint32_t emu_uc_scratch_hot(const emu_uc *e);

#endif
