/*
 * emu/engine/emu.h: one Unicorn x86-32 engine running routines of a PE32 image
 * with the cdecl ABI. The image is mapped at its base from a private copy
 * (sections with their protections), the profile's globals that lie outside
 * every section are mapped and zeroed, every import slot points at a trap,
 * FS points at a zeroed TEB through a GDT, and each call runs on a zeroed
 * stack with a zeroed Field_Alloc scratch, returning on a HLT sentinel.
 *
 * Guest memory layout (fixed; the image and globals must stay clear of it):
 *   0x7D018000  Field_Alloc scratch, profile scratch_size (at most 16 MiB)
 *   0x7F000000  stack reserve, 1 MiB; ESP starts just below 0x7F100000
 *   0x7FF00000  return sentinel page, filled with HLT (0xF4)
 *   0x7FF10000  GDT page;  0x7FF20000 TEB page (FS base)
 *   0xF0000000  import traps, 16 bytes apart, never mapped
 *   0x60000000..0x7CFFFFFF  free for the caller's areas (emu_map_area)
 *
 * Why the bases are not round (EMU_TLB_SETS): Unicorn's software TLB is
 * direct-mapped, indexed by the low bits of the page number, and in Unicorn
 * 2.1 a load or store that misses it goes through load_helper/store_helper,
 * which look the address up in the memory map (find_memory_mapping) before
 * anything else. Areas whose hot pages share a TLB set evict each other on
 * every alternation: with the data page, the file, the scratch and the
 * image base all on set 0 (round bases), a Battle_ReadAnimation tick made
 * about 190 such lookups, 20% of a run (measured with perf, bench/README.md).
 * So the first page of each area has a set of its own in a TLB of
 * EMU_TLB_SETS entries (the smallest Unicorn's resizing allows), checked
 * at compile time here and in emu/engine/game_internal.h.
 *
 * An engine is not thread-safe: one per thread. Nothing here prints or
 * exits; a guest fault is an emu_fault value and the engine stays usable.
 */
#ifndef FF8_EMU_ENGINE_EMU_H
#define FF8_EMU_ENGINE_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/fault.h"
#include "emu/image/owner.h"
#include "emu/image/pe.h"
#include "emu/image/profile.h"
#include "common/error.h"

#define EMU_SCRATCH_BASE 0x7D018000u
#define EMU_SCRATCH_MAX 0x01000000u
#define EMU_STACK_LO 0x7F000000u
#define EMU_STACK_SIZE 0x00100000u
#define EMU_STACK_TOP (EMU_STACK_LO + EMU_STACK_SIZE)
#define EMU_SENTINEL 0x7FF00000u
#define EMU_GDT 0x7FF10000u
#define EMU_TEB 0x7FF20000u
#define EMU_TRAP_BASE 0xF0000000u
#define EMU_TRAP_STRIDE 16u
#define EMU_AREA_LO 0x60000000u
#define EMU_AREA_HI 0x7D000000u
#define EMU_MAX_ARGS 16
#define EMU_DEFAULT_BUDGET 20000000ull

/* TLB set of the page holding addr, in the smallest TLB Unicorn uses. */
#define EMU_TLB_SETS 64u
#define EMU_TLB_SET(addr) (((addr) >> 12) % EMU_TLB_SETS)
_Static_assert(EMU_TLB_SET(EMU_SCRATCH_BASE) != EMU_TLB_SET(EMU_STACK_TOP - 1) &&
                   EMU_TLB_SET(EMU_SCRATCH_BASE) != EMU_TLB_SET(EMU_SENTINEL) &&
                   EMU_TLB_SET(EMU_SCRATCH_BASE) != EMU_TLB_SET(EMU_TEB),
               "the scratch shares a TLB set with the stack, the sentinel or the TEB");

/* Protections for emu_map_area (same values as Unicorn's UC_PROT_*). */
#define EMU_PROT_READ 1
#define EMU_PROT_WRITE 2
#define EMU_PROT_EXEC 4

typedef struct emu emu;

typedef struct emu_config {
    const pe_image *pe;         /* parsed image; must outlive the engine */
    const uint8_t *image;       /* pe_build_image output, size_of_image bytes; must outlive */
    const emu_profile *profile; /* globals, scratch size, routine names; copied */
    uint64_t budget;            /* instructions per call; 0: EMU_DEFAULT_BUDGET */
} emu_config;

/*
 * Creates an engine. Fails (FF_E_EMU) when Unicorn or Capstone refuse, or
 * (FF_E_EXE) when the image or a global overlaps the fixed layout above.
 */
int emu_open(const emu_config *cfg, emu **out, ff_error *err);
/* Releases everything; e may be NULL. Host pointers into it die with it. */
void emu_close(emu *e);

/*
 * Calls the cdecl routine at addr with nargs 32-bit arguments (pushed
 * right to left, written straight into guest memory). Returns 0 with *eax
 * set, or -1 with *fault filled (kind, EIP, address, registers, import,
 * disassembly); *eax then holds EAX as it was. fault may not be NULL.
 * After a fault the engine restores its CPU state and the image's writable
 * data, so the next call starts clean; should Unicorn refuse that restore,
 * the fault's detail says so and every later call is refused (an EMU
 * fault with the reason): the engine is then lost, close it.
 */
int emu_call(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
             emu_fault *fault);

/*
 * The value on top of the x87 stack after the last call (a result returned
 * in ST(0)): 0 with *value (the nearest double) and raw (the 80-bit
 * register, 10 bytes little-endian; may be NULL), or -1 when the x87 stack
 * is empty (nothing came back there). Reads registers only.
 */
int emu_x87_st0(emu *e, double *value, uint8_t *raw);

/* Instructions the last call executed (from the block hook; HLT excluded). */
uint64_t emu_last_insns(const emu *e);
/* Changes the per-call budget (0: default). */
void emu_set_budget(emu *e, uint64_t budget);

/*
 * Maps size bytes (page multiple) of caller-owned host memory at addr
 * (page-aligned, inside [EMU_AREA_LO, EMU_AREA_HI)) with prot. The host
 * buffer must stay valid and page-aligned until emu_unmap_area or close.
 */
int emu_map_area(emu *e, uint32_t addr, uint8_t *host, uint32_t size, int prot, ff_error *err);
/* Unmaps an area mapped by emu_map_area at exactly addr. */
int emu_unmap_area(emu *e, uint32_t addr, ff_error *err);

/*
 * Host pointer to guest [addr, addr + len) when the range lies inside one
 * host-backed region the engine knows (image, globals, scratch, stack,
 * caller areas), else NULL. Valid until close (or the area's unmapping).
 */
uint8_t *emu_host(emu *e, uint32_t addr, uint32_t len);

/*
 * Makes the routine at addr return at once (a plain `ret`: EAX untouched,
 * the caller pops the arguments) while the stub is on, which it is from
 * here. Done with a code hook on that address, not by changing code:
 * switching it (emu_stub_set) drops no translated block, so a pose tick
 * that runs the routine between two decoding calls costs no retranslation
 * (Unicorn 2.0.1 never gives back the code buffer of dropped blocks). One
 * stub per engine; FF_E_USAGE for a second, FF_E_EMU when Unicorn refuses
 * the hook.
 */
int emu_stub_return(emu *e, uint32_t addr, ff_error *err);
/* Turns the stub on (1) or off (0); nothing without a stub. */
void emu_stub_set(emu *e, int on);

/*
 * Overwrites len bytes of the engine's private image copy at addr (e.g. a
 * routine's first byte with 0xC3) and drops translated code there. The
 * patch survives the post-fault restore. At most 8 patches of 32 bytes.
 */
int emu_patch(emu *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err);
/*
 * Undoes the patch made at exactly addr: the image's own bytes come back
 * and translated code there is dropped. Fails (FF_E_USAGE) when no patch
 * starts at addr; the other patches stay.
 */
int emu_unpatch(emu *e, uint32_t addr, ff_error *err);

/* The last write seen by a watch (emu_watch_writes). */
typedef struct emu_writer {
    uint32_t writes;    /* writes to the range since armed or reset; 0: none */
    uint32_t eip;       /* the instruction of the last one */
    int size;           /* its width in bytes */
    uint64_t value;     /* the value it wrote */
    /* The routine holding eip by its extent (emu/image/owner.h): a profile routine, or "a routine
     * at 0x.. called from <profile routine>" (routine_in_profile 0); "" when none holds it.
     * routine_offset is eip minus that routine's entry. */
    char routine[EMU_OWNER_NAME];
    int routine_in_profile;
    uint32_t routine_offset;
    char insn[96];      /* its disassembly, "mov word ptr [ecx + 4], ax" */
} emu_writer;

/*
 * Watches guest [addr, addr + len) for writes during the following calls
 * (one watch at a time; arming replaces the previous one). Costs a
 * retranslation of the image's code when armed and when cleared: meant for
 * a few diagnostic calls, not for runs. Returns 0, or -1 with err.
 */
int emu_watch_writes(emu *e, uint32_t addr, uint32_t len, ff_error *err);
/* Forgets the writes seen so far (the watch stays armed). */
void emu_watch_reset(emu *e);
/* The last write seen since armed or reset. */
void emu_watch_result(emu *e, emu_writer *w);
/*
 * Disarms the watch (nothing armed: nothing to do). Returns 0, or -1 with
 * err when Unicorn refuses: the watch then stays armed (its results too),
 * and arming another watch fails the same way rather than mix two ranges.
 */
int emu_unwatch(emu *e, ff_error *err);

/*
 * Switches Unicorn's exact-EIP bookkeeping for memory accesses on or off
 * (emu/engine/watch.c). A memory fault's EIP is otherwise the start of its
 * translated block: a caller that can restore a call's inputs replays a
 * faulting call with it on to learn the faulting instruction. Costs a
 * retranslation each way; never leave it on for runs. Returns 0, or -1
 * with err (a hook Unicorn refuses to remove stays on: slower, same results).
 */
int emu_pc_sync(emu *e, int on, ff_error *err);

struct emu_blockmap;

/*
 * Coverage (emu/engine/coverage.c): while started, every translated block the
 * engine executes inside [m->lo, m->hi) sets hits[i] = 1 for each block i
 * of m (emu/image/blocks.h) whose first instruction it holds. hits has
 * m->nblocks bytes and, like m, stays the caller's and must outlive the
 * start. One UC_HOOK_BLOCK bounded to that range; the image's translated
 * code is dropped on start and stop so it applies at once. Fails (FF_E_EMU)
 * when Unicorn refuses the hook.
 */
int emu_cover_start(emu *e, const struct emu_blockmap *m, uint8_t *hits, ff_error *err);
void emu_cover_stop(emu *e);

/* Deepest nesting of recorded calls (emu_calls_start). */
#define EMU_CALL_MAX_DEPTH 16

/* One recorded call of a watched routine. */
typedef struct emu_callrec {
    uint16_t routine;  /* index into the entries given to emu_calls_start */
    uint16_t depth;    /* watched calls that were running when it began */
    uint32_t esp;      /* ESP at entry: the return address's slot */
    uint32_t ret_addr; /* [esp] */
    uint32_t args[2];  /* [esp + 4], [esp + 8] */
    uint8_t in[8];     /* 8 bytes at args[0] at entry (zero when unmapped) */
    uint8_t out[8];    /* ... and when it returned */
    uint32_t eax;      /* EAX at its ret */
    uint8_t returned;  /* 0: its ret was never seen (a fault, or an unknown return site) */
} emu_callrec;

/*
 * Call recording (emu/engine/calllog.c). emu_calls_start puts a code hook on each
 * of the n entry addresses and on each of the nrets return sites (the ret
 * instructions of those routines, from emu/image/blocks.h); the addresses are
 * copied. While a recording is on (emu_calls_record with storage), a call
 * entering a watched routine is recorded (arguments, 8 bytes at the first
 * argument) and a return site completes the pending calls whose entry ESP
 * it returns from (a tail-called routine's ret completes its caller too);
 * records go to recs in the order the calls began. The hooks stay until
 * emu_calls_stop, so a series of replays translates its code once: the
 * image's translated code is dropped on start and on stop only. Fails
 * (FF_E_EMU) when Unicorn refuses a hook, FF_E_NOMEM when memory runs out.
 */
int emu_calls_start(emu *e, const uint32_t *entries, unsigned n, const uint32_t *rets,
                    unsigned nrets, ff_error *err);
/* 1 while hooks of emu_calls_start are in place. */
int emu_calls_armed(const emu *e);
/*
 * Starts recording into recs (cap records, the caller's until the next
 * emu_calls_record or emu_calls_stop), forgetting what was recorded; recs
 * NULL stops recording. Call it between calls, never from a hook.
 */
void emu_calls_record(emu *e, emu_callrec *recs, size_t cap);
/* Records kept by the current recording; *total (may be NULL) gets the calls seen. */
size_t emu_calls_taken(const emu *e, size_t *total);
/* Removes the hooks (nothing when none). */
void emu_calls_stop(emu *e);

/* Guest address of the Field_Alloc scratch base (EMU_SCRATCH_BASE). */
uint32_t emu_scratch_base(const emu *e);

/*
 * Stack and scratch bytes currently zeroed before every call (they grow
 * when a call reaches deeper; see emu/engine/call.c). For benchmarks and tests.
 */
uint32_t emu_stack_hot(const emu *e);
uint32_t emu_scratch_hot(const emu *e);

#endif
