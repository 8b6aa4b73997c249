/*
 * emu/engine/native/nat_internal.h: the native engine's private state, shared
 * by nat_mem.c (guest memory: the image, globals, system pages, stack,
 * scratch and areas, each a memfd mapped twice: at its guest address with
 * the guest's protection, and above 4 GiB read-write for the host),
 * nat_cpu.c (the switch into 32-bit code and back, signals, the system-call
 * filter, the CPU-time budget), nat_call.c (a call and its fault record) and
 * nat_ops.c (the emu_ops table, the probe). Not a public header: nothing
 * outside emu/engine/native/ includes it.
 *
 * One native engine per process: its guest memory lies at fixed addresses
 * of the one address space, so a second open in the same process is
 * refused. Worker processes each hold their own.
 */
#ifndef FF8_EMU_ENGINE_NATIVE_NAT_INTERNAL_H
#define FF8_EMU_ENGINE_NATIVE_NAT_INTERNAL_H

#include <capstone/capstone.h>

#include "emu/engine/emu_impl.h"
#include "emu/engine/guest.h"

#define NAT_PAGE 0x1000u
#define NAT_MAX_REGIONS (PROFILE_MAX_GLOBALS + 24)
#define NAT_MAX_PATCHES 8
#define NAT_MAX_RUNS 64

/* Selectors of a 64-bit Linux process (arch/x86/include/asm/segment.h). */
#define NAT_SEL_CODE32 0x23
#define NAT_SEL_CODE64 0x33
#define NAT_SEL_DATA 0x2B
/* The LDT entry holding the TEB segment, and its selector (LDT, RPL 3). */
#define NAT_LDT_TEB 0
#define NAT_SEL_TEB ((NAT_LDT_TEB << 3) | 4 | 3)
/* Where the 64-bit return pad lies inside the sentinel page, and the fixed page
 * above 4 GiB, out of 32-bit code's reach, whose first 8 bytes hold the host's
 * address the pad jumps to (nat_mem.c). */
#define NAT_PAD_OFF 0x800u
#define NAT_PAD_SLOT 0xF400000000ull

/* One piece of guest memory: a memfd seen at its guest address and by the host. */
typedef struct nat_region {
    uint32_t addr, size; /* guest address, bytes (page multiples) */
    int prot;            /* EMU_PROT_* of the guest view */
    int fd;
    uint8_t *host;       /* read-write view, above 4 GiB */
    int kind;            /* NAT_R_* */
} nat_region;

enum { NAT_R_IMAGE, NAT_R_GLOBAL, NAT_R_SYS, NAT_R_STACK, NAT_R_SCRATCH, NAT_R_AREA };

typedef struct nat_patch {
    uint32_t addr, len;
    uint8_t bytes[32];
} nat_patch;


/* How a guest run ended (nat_cpu_run). */
typedef struct nat_exit {
    int faulted;               /* 0: back through the return pad */
    int signo, code, trapno;   /* the signal, si_code, the CPU's trap number */
    unsigned long err;         /* the CPU's error code (page faults: bit 1 write, bit 4 fetch) */
    uint32_t addr;             /* si_addr (memory faults) */
    int syscall_nr;            /* SIGSYS: the system call number */
    unsigned syscall_arch;     /* SIGSYS: AUDIT_ARCH_I386 or AUDIT_ARCH_X86_64 */
    int segment;               /* nonzero: stopped under this code segment, not the guest's */
    int segreg;                /* back through the pad with a segment register changed:
                                  1 DS, 2 ES, 3 SS, 4 GS (segval its selector) */
    unsigned segval;
    unsigned ds, es;           /* the guest's DS and ES where a signal hit */
    int budget;                /* stopped by the CPU-time budget */
    uint32_t regs[EMU__NREGS]; /* at the return pad, or where the signal hit */
    uint64_t rip;              /* where the signal hit, all 64 bits (past 4 GiB: not guest code) */
    uint8_t fx[512] __attribute__((aligned(16))); /* the guest's x87/SSE state at the end */
} nat_exit;

typedef struct emu_nat {
    emu base; /* first: the dispatcher's view */
    csh cs;
    cs_insn *insn;
    const pe_image *pe;
    const uint8_t *pristine;
    emu_profile profile;
    uint32_t image_base, image_size;
    uint64_t budget;   /* instructions asked for; the timer's period comes from it */
    uint64_t budget_ns;

    nat_region regions[NAT_MAX_REGIONS];
    unsigned nregions;
    emu_wrun wruns[NAT_MAX_RUNS];
    unsigned nwruns;
    nat_patch patches[NAT_MAX_PATCHES];
    unsigned npatches;

    uint8_t *image;   /* host view of the image */
    uint8_t *stack;   /* host view of [EMU_STACK_LO, EMU_STACK_TOP) */
    uint8_t *scratch; /* host view of the scratch */
    uint32_t scratch_map;
    uint8_t *sys;     /* host view of the 3 system pages: sentinel, spare, TEB */
    void *slot;       /* the return pad's slot page (NAT_PAD_SLOT), or NULL */
    uint8_t *cursor;  /* host view of field_alloc_cursor, or NULL */
    uint32_t stack_hot, scratch_hot;

    nat_exit last; /* how the last call ended */
    char lost[160];
} emu_nat;

static inline emu_nat *emu_nat_of(emu *e)
{
    return (emu_nat *)e;
}
static inline const emu_nat *emu_nat_of_c(const emu *e)
{
    return (const emu_nat *)e;
}

/* ---- nat_mem.c ---- */
int nat_mem_open(emu_nat *e, const emu_config *cfg, ff_error *err);
void nat_mem_close(emu_nat *e);
int nat_restore(emu_nat *e);
uint8_t *nat_host(emu_nat *e, uint32_t addr, uint32_t len);
/* 1 when guest [addr, addr + len) is readable by the guest. */
int nat_readable(emu_nat *e, uint32_t addr, uint32_t len);
/* Maps the stack or scratch for the guest down or up to addr (the fault handler): 0, or -1. */
int nat_grow(emu_nat *e, uint32_t addr);
int nat_map_area(emu_nat *e, uint32_t addr, uint32_t size, int prot, uint32_t guard,
                 uint8_t **host, ff_error *err);
int nat_unmap_area(emu_nat *e, uint32_t addr, ff_error *err);
int nat_patch_code(emu_nat *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err);
int nat_unpatch(emu_nat *e, uint32_t addr, ff_error *err);

/* ---- nat_cpu.c: the switch, the process-wide part ---- */


/*
 * Takes this process's native state for e's thread: checks the address
 * space (every host mapping above 4 GiB, after the guest's were made), the
 * TEB segment (modify_ldt), signal handlers on an alternate stack, the
 * i386 system-call filter and the CPU-time timer of period budget_ns.
 * Returns 0, or -1 with err naming what refused.
 */
int nat_cpu_open(emu_nat *e, uint64_t budget_ns, ff_error *err);
void nat_cpu_close(emu_nat *e);
/* Runs the guest from entry with ESP esp under x87 control word fcw; fills *x. */
void nat_cpu_run(uint32_t entry, uint32_t esp, uint16_t fcw, nat_exit *x);
/* 1 when addr is where the kernel's fast system-call entry returns 32-bit code to in
 * this process: the low half of an address in its vDSO (nat_call.c). */
int nat_kernel_landing(uint32_t addr);
/*
 * Why this process cannot run native code ("" when it can), without
 * changing anything: x86-64 Linux, a 32-bit code segment, the host's
 * mappings. deep: also a probe call in a child process.
 */
int nat_cpu_probe(char *why, size_t n, int deep);
/* Host mappings below 4 GiB other than the engine's regions: 0, or -1 with the first in why. */
int nat_check_maps(const emu_nat *e, char *why, size_t n);

/* ---- nat_call.c ---- */
int nat_call(emu_nat *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
             emu_fault *fault);
int nat_x87_st0(emu_nat *e, double *value, uint8_t *raw);

#endif
