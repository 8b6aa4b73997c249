/*
 * emu/engine/guest.h: the guest every engine gives (emu/engine/emu.h's layout),
 * computed once for all engines: which image page the guest may read, write
 * or execute, whether an address collides with the fixed layout, the checks
 * of a configuration before an engine opens, the import traps, the restore of
 * the image's writable pages after a fault, and an x87 register as a double.
 * For engines only (emu/engine/unicorn/, emu/engine/native/); it maps nothing
 * itself and never prints or exits.
 */
#ifndef FF8_EMU_ENGINE_GUEST_H
#define FF8_EMU_ENGINE_GUEST_H

#include <stdint.h>

#include "emu/engine/emu.h"

#define EMU_GUEST_PAGE 0x1000u

/* A run of image pages whose data is writable (restored after a fault). */
typedef struct emu_wrun {
    uint32_t off, len; /* offset from the image base, bytes */
} emu_wrun;

/* 1 when [a, a + alen) and [b, b + blen) overlap. */
int emu_guest_overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen);
/* 1 when [addr, addr + len) hits a fixed region of the layout (areas, stack, system pages, traps). */
int emu_guest_hits_layout(uint64_t addr, uint64_t len);
/* v rounded up to a page. */
uint32_t emu_guest_page_ceil(uint32_t v);

/*
 * The guest's protection (EMU_PROT_* bits, 0: unmapped) of the image page at
 * offset off: the union of the sections on it (code never writable, the
 * headers readable) and read-write where a profile global lies.
 */
int emu_guest_page_prot(const pe_image *pe, const emu_profile *p, uint32_t off);

/* 0 when cfg can open an engine (image and profile agree, nothing hits the layout), else -1. */
int emu_guest_check(const emu_config *cfg, ff_error *err);

/* The import whose trap is addr, or NULL. */
const pe_import *emu_guest_trap_import(const pe_image *pe, uint32_t addr);
/* The trap address of import i. */
static inline uint32_t emu_guest_trap(unsigned i)
{
    return EMU_TRAP_BASE + EMU_TRAP_STRIDE * i;
}

/*
 * The image's writable runs back to the file's bytes (zero past
 * size_of_image): image is the engine's copy, pristine the built image.
 */
void emu_guest_restore_runs(uint8_t *image, const uint8_t *pristine, uint32_t size_of_image,
                            const emu_wrun *runs, unsigned nruns);

/*
 * A call's start, the same on every engine: the stack_hot bytes below the
 * stack's top and the scratch_hot first bytes of the scratch zeroed, the
 * Field_Alloc cursor (may be NULL) back at the scratch's base, the return
 * sentinel and the cdecl arguments written on the stack (stack: host view of
 * [EMU_STACK_LO, EMU_STACK_TOP)). Returns the ESP the call starts with; a
 * normal return leaves it plus 4.
 */
uint32_t emu_guest_call_frame(uint8_t *stack, uint32_t stack_hot, uint8_t *scratch,
                              uint32_t scratch_hot, uint8_t *cursor, const uint32_t *args,
                              unsigned nargs);

/*
 * The detail of a return that broke the ABI: f->kind EMU_FAULT_STACK (ESP in
 * f->regs, esp_expected) or EMU_FAULT_SCRATCH (f->addr the cursor's value).
 * Other kinds: nothing.
 */
void emu_guest_return_detail(emu_fault *f, uint32_t esp_expected);
/*
 * 1 when Capstone's mnemonic and operands (Intel syntax) name a far transfer
 * (far jump, call or return, iret) or a load of a segment register: what
 * leaves the guest's flat segments (a SEGMENT fault when it faults).
 */
int emu_guest_segment_insn(const char *mnemonic, const char *op_str);
/*
 * The detail sentences both engines give: an interrupt (number, the instruction that
 * raised it when known, at f->eip) and a privileged instruction user code may not run
 * (#GP at f->eip, insn its text).
 */
void emu_guest_interrupt_detail(emu_fault *f, unsigned intno, const char *insn);
void emu_guest_privileged_detail(emu_fault *f, const char *insn);
/*
 * A call that stopped inside the return sentinel's page (a jump into it: the
 * engines' own code lies there, the native engine's holding a host address):
 * f made the same fault on every engine (EMU, at the page's base, registers
 * but ESP cleared, nothing of the page shown). Returns 1 when it was one.
 */
int emu_guest_return_page(emu_fault *f);

/*
 * The pages holding profile globals outside the image (page addresses,
 * each once, in profile order) into pages[0..max): their count, or -1 when
 * they do not fit.
 */
int emu_guest_global_pages(const emu_profile *p, uint32_t image_base, uint32_t image_size,
                           uint32_t *pages, unsigned max);

/* An 80-bit x87 register (10 bytes, little-endian) as the nearest double. */
double emu_guest_x87_double(const uint8_t *raw);

#endif
