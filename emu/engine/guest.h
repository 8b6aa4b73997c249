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

/* An 80-bit x87 register (10 bytes, little-endian) as the nearest double. */
double emu_guest_x87_double(const uint8_t *raw);

#endif
