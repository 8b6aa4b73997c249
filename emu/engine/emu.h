/*
 * emu/engine/emu.h: the seam between the levels (emu/engine/game.h, entity.h,
 * observe.h) and an engine that runs routines of a PE32 image with the cdecl
 * ABI. An engine is chosen at run time: an emu_ops table (emu/engine/emu_impl.h)
 * of one kind (EMU_ENGINE_MAP) with capability flags (EMU_CAP_MAP); every emu_*
 * function below dispatches through the table of the engine it is given, and
 * one a table lacks is refused with the reason (FF_E_UNSUPPORTED) or does
 * nothing, as its contract says. The Unicorn engine (emu/engine/unicorn/) is one
 * implementation; nothing above this header names Unicorn.
 *
 * Every engine gives the same guest: the image mapped at its base from a
 * private copy (sections with their protections), the profile's globals that
 * lie outside every section mapped and zeroed, every import slot pointing at
 * a trap, FS pointing at a zeroed TEB, and each call running on a zeroed
 * stack with a zeroed Field_Alloc scratch, returning on a HLT sentinel. The
 * engine owns all guest memory, the callers' areas included (emu_map_area),
 * and hands out host pointers to it.
 *
 * Guest memory layout (fixed; the image and globals must stay clear of it):
 *   0x7D018000  Field_Alloc scratch, profile scratch_size (at most 16 MiB)
 *   0x7F000000  stack reserve, 1 MiB; ESP starts just below 0x7F100000
 *   0x7FF00000  return sentinel page, filled with HLT (0xF4)
 *   0x7FF10000  GDT page;  0x7FF20000 TEB page (FS base)
 *   0xF0000000  import traps, 16 bytes apart, never mapped
 *   0x60000000..0x7CFFFFFF  free for the caller's areas (emu_map_area)
 *
 * Why the bases are not round (EMU_TLB_SETS): the Unicorn engine's software TLB is
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

/* Protections for emu_map_area. */
#define EMU_PROT_READ 1
#define EMU_PROT_WRITE 2
#define EMU_PROT_EXEC 4

/*
 * The kinds of engine, the only list of them: kind, name in reports, cache
 * keys and on the command line (--engine), what it is, and whether an
 * emulator computes its calls (1: arithmetic, the x87's included, is an
 * emulation's; 0: the CPU itself runs them).
 */
#define EMU_ENGINE_MAP(XX)                                                                         \
    XX(UNICORN, "unicorn", "Unicorn, a CPU emulator built on QEMU", 1)                             \
    XX(NATIVE, "native", "the CPU itself: 32-bit code run by this 64-bit process", 0)

typedef enum emu_engine_kind {
#define EMU_ENGINE_ENUM(name, json, what, emulated) EMU_ENGINE_##name,
    EMU_ENGINE_MAP(EMU_ENGINE_ENUM)
#undef EMU_ENGINE_ENUM
        EMU_ENGINE__COUNT
} emu_engine_kind;

/*
 * What an engine can do beyond plain calls: capability, name, what it is
 * (the sentence a refusal gives: "the <kind> engine has no <what>").
 */
#define EMU_CAP_MAP(XX)                                                                            \
    XX(BUDGET, "budget", "exact instruction budget and count per call")                            \
    XX(STUB, "stub", "way to make a routine return at once without changing its code")             \
    XX(WATCH, "write_watch", "write watch naming the instruction that wrote")                      \
    XX(READ_LOG, "read_log", "recording of the calls of chosen routines (read logs)")              \
    XX(COVERAGE, "coverage", "coverage of the blocks that ran")                                    \
    XX(EXACT_FAULT, "exact_fault", "replay of a faulted call to find its exact instruction")

typedef enum emu_cap {
#define EMU_CAP_ENUM(name, json, what) EMU_CAP_##name,
    EMU_CAP_MAP(EMU_CAP_ENUM)
#undef EMU_CAP_ENUM
        EMU_CAP__COUNT
} emu_cap;

/* The bit of capability c in an engine's flags. */
#define EMU_CAP_BIT(c) (1u << (c))

typedef struct emu emu;
typedef struct emu_ops emu_ops; /* an engine's table: emu/engine/emu_impl.h */

/* The table of a kind of engine built into this program, or NULL. */
const emu_ops *emu_engine_ops(emu_engine_kind kind);
/* The default engine (Unicorn). */
const emu_ops *emu_engine_default(void);
/* "unicorn"; "?" out of range. */
const char *emu_engine_kind_name(emu_engine_kind kind);
/* The kind named name ("unicorn", as emu_engine_kind_name gives it); EMU_ENGINE__COUNT: none. */
emu_engine_kind emu_engine_kind_named(const char *name);
/*
 * 1 when an emulator computes the calls of ops (NULL: the default engine),
 * so that its arithmetic (the x87's) is an emulation's; 0 when the CPU
 * itself runs them.
 */
int emu_engine_emulated(const emu_ops *ops);
/*
 * The first kind built in whose calls the CPU itself runs (not emulated),
 * or NULL: the engine `--engine auto` and `both` look for.
 */
const emu_ops *emu_engine_on_cpu(void);
/* The kind of a table; NULL: the default engine's. */
emu_engine_kind emu_engine_kind_of(const emu_ops *ops);
/* Its capability flags (EMU_CAP_BIT); NULL: the default engine's. */
unsigned emu_engine_caps(const emu_ops *ops);
/*
 * 1 when a process can hold only one engine of ops (NULL: the default) at a
 * time (the native engine: its guest memory lies at fixed addresses of the
 * process), so that workers need processes of their own; 0 otherwise.
 */
int emu_engine_one_per_process(const emu_ops *ops);
/* "write_watch" ...; "?" out of range. */
const char *emu_cap_name(emu_cap cap);
/* "write watch naming the instruction that wrote" ...; "?" out of range. */
const char *emu_cap_what(emu_cap cap);

/* One fact only some kinds of engine have (a version detail, a probe's figure). */
typedef struct emu_engine_fact {
    char name[24]; /* "store_path", "store_ns" */
    char text[24]; /* the value as text when is_number is 0 */
    double number; /* the value when is_number is 1 */
    int is_number;
} emu_engine_fact;

#define EMU_ENGINE_FACTS 8

/* Which engine runs, and what its probe found. */
typedef struct emu_engine_info {
    emu_engine_kind kind;
    char version[32];  /* the engine's own version ("2.1.1"), "" when it has none */
    unsigned caps;     /* EMU_CAP_BIT flags */
    uint64_t reserve;  /* address space one engine reserves beyond its guest memory, bytes */
    char summary[64];  /* one phrase for summary lines: "fast stores" ("" when none) */
    char warning[512]; /* "" or sentences: why this engine will run slowly, and what to do */
    char limits[384];  /* "" or a sentence: what a run on this engine does not see */
    emu_engine_fact facts[EMU_ENGINE_FACTS]; /* reported under the kind's name */
    unsigned nfacts;
} emu_engine_info;

/*
 * Fills *out for the engine of ops (NULL: the default): kind, version,
 * capabilities and, unless probe is 0, what its probe measures. Returns 0,
 * or -1 with err when the probe could not run (*out then holds the rest).
 */
int emu_engine_info_get(const emu_ops *ops, emu_engine_info *out, int probe, ff_error *err);

/*
 * Checks before opening `engines` engines of ops (NULL: the default) that
 * the process has room for them (an engine that reserves address space and
 * would end the process without it): 0, or -1 with FF_E_NOMEM naming the
 * limit.
 */
int emu_engine_room(const emu_ops *ops, unsigned engines, ff_error *err);

typedef struct emu_config {
    const pe_image *pe;         /* parsed image; must outlive the engine */
    const uint8_t *image;       /* pe_build_image output, size_of_image bytes; must outlive */
    const emu_profile *profile; /* globals, scratch size, routine names; copied */
    uint64_t budget;            /* instructions per call; 0: EMU_DEFAULT_BUDGET */
    const emu_ops *engine;      /* the engine to open; NULL: the default */
} emu_config;

/*
 * Creates an engine of cfg->engine. Fails (FF_E_EMU) when the engine's
 * machinery refuses, or (FF_E_EXE) when the image or a global overlaps the
 * fixed layout above.
 */
int emu_open(const emu_config *cfg, emu **out, ff_error *err);
/* Releases everything, its areas included; e may be NULL. Host pointers into it die with it. */
void emu_close(emu *e);
/* The table the engine was opened with, its kind and its capability flags. */
const emu_ops *emu_ops_of(const emu *e);
emu_engine_kind emu_kind(const emu *e);
unsigned emu_caps(const emu *e);
/*
 * 0 when the engine has capability cap, else -1 with err (FF_E_UNSUPPORTED:
 * "the <kind> engine has no <what>"), for levels that refuse a hook cleanly.
 */
int emu_require(const emu *e, emu_cap cap, ff_error *err);

/*
 * Calls the cdecl routine at addr with nargs 32-bit arguments (pushed
 * right to left, written straight into guest memory). Returns 0 with *eax
 * set, or -1 with *fault filled (kind, EIP, address, registers, import,
 * disassembly); *eax then holds EAX as it was. fault may not be NULL.
 * After a fault the engine restores its CPU state and the image's writable
 * data, so the next call starts clean; should the engine fail that restore,
 * the fault's detail says so and every later call is refused (an EMU
 * fault with the reason): the engine is then lost, close it. A memory
 * fault's EIP may be where its block began (see emu_call_rewind).
 */
int emu_call(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
             emu_fault *fault);

/* Puts a call's inputs (the callers' areas) back as they were before it. */
typedef struct emu_rewind {
    void (*fn)(void *arg);
    void *arg;
} emu_rewind;

/*
 * emu_call, and when the call ends on a read or write fault and the engine
 * has EXACT_FAULT: rw->fn(rw->arg) puts the inputs back, the call is
 * replayed once with exact EIPs, and its fault replaces the first when it
 * is the same (kind and address), now naming the faulting instruction.
 * Without EXACT_FAULT (or rw NULL) this is emu_call. Either way the callers'
 * areas are then as the last run left them.
 */
int emu_call_rewind(emu *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
                    emu_fault *fault, const emu_rewind *rw);

/*
 * The value on top of the x87 stack after the last call (a result returned
 * in ST(0)): 0 with *value (the nearest double) and raw (the 80-bit
 * register, 10 bytes little-endian; may be NULL), or -1 when the x87 stack
 * is empty (nothing came back there). Reads registers only.
 */
int emu_x87_st0(emu *e, double *value, uint8_t *raw);

/* Instructions the last call executed (HLT excluded); 0 without BUDGET. */
uint64_t emu_last_insns(const emu *e);
/* Changes the per-call budget (0: default); nothing without BUDGET. */
void emu_set_budget(emu *e, uint64_t budget);

/*
 * Maps an area the engine owns at addr (page-aligned, inside [EMU_AREA_LO,
 * EMU_AREA_HI)): size bytes (a page multiple) with prot, then guard bytes
 * (a page multiple, may be 0) the guest may only read, all zero. *host
 * gets the host view of all size + guard bytes, which the caller may read
 * and write between calls whatever the guest's protection; it stays valid
 * until emu_unmap_area or close.
 */
int emu_map_area(emu *e, uint32_t addr, uint32_t size, int prot, uint32_t guard, uint8_t **host,
                 ff_error *err);
/*
 * Unmaps the area mapped at exactly addr (guard included) and frees it.
 * When the engine refuses, the area stays mapped (its host view valid)
 * until close, and -1 comes back with err.
 */
int emu_unmap_area(emu *e, uint32_t addr, ff_error *err);

/*
 * Host pointer to guest [addr, addr + len) when the range lies inside one
 * region the engine backs (image, globals, scratch, stack, areas), else
 * NULL. Valid until close (or the area's unmapping).
 */
uint8_t *emu_host(emu *e, uint32_t addr, uint32_t len);

/*
 * Makes the routine at addr return at once (a plain `ret`: EAX untouched,
 * the caller pops the arguments) while the stub is on, which it is from
 * here, without changing its code, so switching it (emu_stub_set) drops no
 * translated code. One stub per engine; FF_E_USAGE for a second,
 * FF_E_UNSUPPORTED without STUB (a caller may patch a `ret` in instead),
 * FF_E_EMU when the engine refuses.
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
    uint32_t writes; /* writes to the range since armed or reset; 0: none */
    uint32_t eip;    /* the instruction of the last one */
    int size;        /* its width in bytes */
    uint64_t value;  /* the value it wrote */
    /* The routine holding eip by its extent (emu/image/owner.h): a profile routine, or "a routine
     * at 0x.. called from <profile routine>" (routine_in_profile 0); "" when none holds it.
     * routine_offset is eip minus that routine's entry. */
    char routine[EMU_OWNER_NAME];
    int routine_in_profile;
    uint32_t routine_offset;
    char insn[96]; /* its disassembly, "mov word ptr [ecx + 4], ax" */
} emu_writer;

/*
 * Watches guest [addr, addr + len) for writes during the following calls
 * (one watch at a time; arming replaces the previous one). Meant for a few
 * diagnostic calls, not for runs (it may slow the engine while armed).
 * Returns 0, or -1 with err (FF_E_UNSUPPORTED without WATCH).
 */
int emu_watch_writes(emu *e, uint32_t addr, uint32_t len, ff_error *err);
/* Forgets the writes seen so far (the watch stays armed). */
void emu_watch_reset(emu *e);
/* The last write seen since armed or reset (all zero without WATCH). */
void emu_watch_result(emu *e, emu_writer *w);
/*
 * Disarms the watch (nothing armed: nothing to do). Returns 0, or -1 with
 * err when the engine refuses: the watch then stays armed (its results
 * too), and arming another watch fails the same way rather than mix two
 * ranges.
 */
int emu_unwatch(emu *e, ff_error *err);

struct emu_blockmap;

/*
 * Coverage: while started, every block the engine executes inside [m->lo,
 * m->hi) sets hits[i] = 1 for each block i of m (emu/image/blocks.h) whose
 * first instruction it runs. hits has m->nblocks bytes and, like m, stays
 * the caller's and must outlive the start. Fails (FF_E_UNSUPPORTED) without
 * COVERAGE, (FF_E_EMU) when the engine refuses.
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
 * Call recording (READ_LOG). emu_calls_start watches the n entry addresses
 * and the nrets return sites (the ret instructions of those routines, from
 * emu/image/blocks.h); the addresses are copied. While a recording is on
 * (emu_calls_record with storage), a call entering a watched routine is
 * recorded (arguments, 8 bytes at the first argument) and a return site
 * completes the pending calls whose entry ESP it returns from (a
 * tail-called routine's ret completes its caller too); records go to recs
 * in the order the calls began. The watch stays until emu_calls_stop, so a
 * series of replays sets it up once. Fails (FF_E_UNSUPPORTED) without
 * READ_LOG, (FF_E_EMU) when the engine refuses, FF_E_NOMEM when memory
 * runs out.
 */
int emu_calls_start(emu *e, const uint32_t *entries, unsigned n, const uint32_t *rets,
                    unsigned nrets, ff_error *err);
/* 1 while a watch of emu_calls_start is in place. */
int emu_calls_armed(const emu *e);
/*
 * Starts recording into recs (cap records, the caller's until the next
 * emu_calls_record or emu_calls_stop), forgetting what was recorded; recs
 * NULL stops recording. Call it between calls.
 */
void emu_calls_record(emu *e, emu_callrec *recs, size_t cap);
/* Records kept by the current recording; *total (may be NULL) gets the calls seen. */
size_t emu_calls_taken(const emu *e, size_t *total);
/* Ends the watch (nothing when none). */
void emu_calls_stop(emu *e);

/* Guest address of the Field_Alloc scratch base (EMU_SCRATCH_BASE). */
uint32_t emu_scratch_base(const emu *e);

/*
 * Stack and scratch bytes currently zeroed before every call (they grow
 * when a call reaches deeper). For benchmarks and tests; 0 when the engine
 * does not say.
 */
uint32_t emu_stack_hot(const emu *e);
uint32_t emu_scratch_hot(const emu *e);

#endif
