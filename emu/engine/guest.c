/*
 * emu/engine/guest.c: the guest every engine gives, computed once (see
 * guest.h). Nothing here maps, prints or exits.
 */
#include "emu/engine/guest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/le.h"

int emu_guest_overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    return a < b + blen && b < a + alen;
}

int emu_guest_hits_layout(uint64_t addr, uint64_t len)
{
    return emu_guest_overlaps(addr, len, EMU_AREA_LO, 0x80000000ull - EMU_AREA_LO) ||
           emu_guest_overlaps(addr, len, EMU_TRAP_BASE, (uint64_t)EMU_TRAP_STRIDE * PE_MAX_IMPORTS);
}

uint32_t emu_guest_page_ceil(uint32_t v)
{
    return (v + EMU_GUEST_PAGE - 1) & ~(EMU_GUEST_PAGE - 1);
}

int emu_guest_page_prot(const pe_image *pe, const emu_profile *p, uint32_t off)
{
    int prot = 0;
    if (off < pe->size_of_headers) prot |= EMU_PROT_READ;
    for (unsigned i = 0; i < pe->nsections; i++) {
        const pe_section *s = &pe->sections[i];
        if (!s->vsize || !emu_guest_overlaps(off, EMU_GUEST_PAGE, s->rva, s->vsize)) continue;
        int exec = (s->characteristics & (PE_SCN_MEM_EXECUTE | PE_SCN_CNT_CODE)) != 0;
        prot |= EMU_PROT_READ;
        if (exec) prot |= EMU_PROT_EXEC;
        /* Code is never writable, whatever the flags say. */
        if ((s->characteristics & PE_SCN_MEM_WRITE) && !exec) prot |= EMU_PROT_WRITE;
    }
    for (unsigned g = 0; g < p->nglobals; g++) {
        const profile_global *gl = &p->globals[g];
        if (emu_guest_overlaps(pe->image_base + (uint64_t)off, EMU_GUEST_PAGE, gl->address,
                               gl->size))
            prot |= EMU_PROT_READ | EMU_PROT_WRITE;
    }
    return prot;
}

int emu_guest_check(const emu_config *cfg, ff_error *err)
{
    const pe_image *pe = cfg->pe;
    if (!pe || !cfg->image || !cfg->profile)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "emu_open needs an image and a profile");
    if (pe->image_base != cfg->profile->image_base)
        return ff_error_set(err, FF_E_EXE, NULL, -1,
                            "image base 0x%x differs from the profile's 0x%x", pe->image_base,
                            cfg->profile->image_base);
    if (emu_guest_hits_layout(pe->image_base, emu_guest_page_ceil(pe->size_of_image)) ||
        pe->image_base < 0x10000)
        return ff_error_set(err, FF_E_EXE, NULL, -1,
                            "image 0x%x..0x%x collides with the engine's memory layout",
                            pe->image_base, pe->image_base + pe->size_of_image);
    if (cfg->profile->scratch_size > EMU_SCRATCH_MAX)
        return ff_error_set(err, FF_E_EXE, NULL, -1, "scratch_size above 16 MiB");
    for (unsigned g = 0; g < cfg->profile->nglobals; g++) {
        const profile_global *gl = &cfg->profile->globals[g];
        if (emu_guest_hits_layout(gl->address, gl->size))
            return ff_error_set(err, FF_E_EXE, NULL, -1,
                                "global %s at 0x%x collides with the engine's memory layout",
                                gl->name, gl->address);
    }
    return 0;
}

const pe_import *emu_guest_trap_import(const pe_image *pe, uint32_t addr)
{
    if (addr < EMU_TRAP_BASE || (addr - EMU_TRAP_BASE) % EMU_TRAP_STRIDE) return NULL;
    uint32_t i = (addr - EMU_TRAP_BASE) / EMU_TRAP_STRIDE;
    return i < pe->nimports ? &pe->imports[i] : NULL;
}

void emu_guest_restore_runs(uint8_t *image, const uint8_t *pristine, uint32_t size_of_image,
                            const emu_wrun *runs, unsigned nruns)
{
    for (unsigned i = 0; i < nruns; i++) {
        const emu_wrun *r = &runs[i];
        uint32_t end = r->off + r->len;
        uint32_t copy_end = end < size_of_image ? end : size_of_image;
        if (r->off < copy_end) memcpy(image + r->off, pristine + r->off, copy_end - r->off);
        uint32_t zero_from = r->off > copy_end ? r->off : copy_end;
        if (end > zero_from) memset(image + zero_from, 0, end - zero_from);
    }
}

double emu_guest_x87_double(const uint8_t *raw)
{
    uint64_t mant = le_u32(raw) | (uint64_t)le_u32(raw + 4) << 32;
    int sign = raw[9] >> 7, exp = (raw[9] & 0x7F) << 8 | raw[8];
    double v;
    if (exp == 0x7FFF)
        v = (mant << 1) ? NAN : INFINITY;
    else
        v = ldexp((double)mant, (exp ? exp : 1) - 16383 - 63);
    return sign ? -v : v;
}

uint32_t emu_guest_call_frame(uint8_t *stack, uint32_t stack_hot, uint8_t *scratch,
                              uint32_t scratch_hot, uint8_t *cursor, const uint32_t *args,
                              unsigned nargs)
{
    memset(stack + EMU_STACK_SIZE - stack_hot, 0, stack_hot);
    memset(scratch, 0, scratch_hot);
    if (cursor) le_put32(cursor, EMU_SCRATCH_BASE);
    uint32_t esp0 = ((EMU_STACK_TOP - 256 - 4 * nargs) & ~15u) - 4;
    uint8_t *sp = stack + (esp0 - EMU_STACK_LO);
    le_put32(sp, EMU_SENTINEL);
    for (unsigned i = 0; i < nargs; i++)
        le_put32(sp + 4 + 4 * i, args[i]);
    return esp0;
}

void emu_guest_return_detail(emu_fault *f, uint32_t esp_expected)
{
    if (f->kind == EMU_FAULT_STACK) {
        snprintf(f->detail, sizeof f->detail,
                 "ESP is 0x%x after the return, expected 0x%x (off by %d bytes)",
                 f->regs[EMU_ESP], esp_expected, (int)(f->regs[EMU_ESP] - esp_expected));
    } else if (f->kind == EMU_FAULT_SCRATCH) {
        int32_t left = (int32_t)(f->addr - EMU_SCRATCH_BASE);
        if (left > 0)
            snprintf(f->detail, sizeof f->detail, "returned without releasing %d bytes of scratch",
                     left);
        else
            snprintf(f->detail, sizeof f->detail,
                     "returned after releasing %d bytes of scratch more than it allocated", -left);
    }
}

int emu_guest_global_pages(const emu_profile *p, uint32_t image_base, uint32_t image_size,
                           uint32_t *pages, unsigned max)
{
    unsigned n = 0;
    for (unsigned g = 0; g < p->nglobals; g++) {
        const profile_global *gl = &p->globals[g];
        uint32_t first = gl->address & ~(EMU_GUEST_PAGE - 1);
        uint32_t last = (gl->address + gl->size - 1) & ~(EMU_GUEST_PAGE - 1);
        for (uint64_t pg = first; pg <= last; pg += EMU_GUEST_PAGE) {
            if (emu_guest_overlaps(pg, EMU_GUEST_PAGE, image_base, image_size)) continue;
            int have = 0;
            for (unsigned k = 0; k < n; k++)
                have |= pages[k] == pg;
            if (have) continue;
            if (n == max) return -1;
            pages[n++] = (uint32_t)pg;
        }
    }
    return (int)n;
}

int emu_guest_segment_insn(const char *mnemonic, const char *op_str)
{
    static const char *const far[] = {"ljmp", "lcall", "retf", "iret", "lret", "lds",
                                      "les",  "lss",   "lfs",  "lgs"};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++)
        if (strncmp(mnemonic, far[i], strlen(far[i])) == 0) return 1;
    if (strcmp(mnemonic, "mov") != 0 && strcmp(mnemonic, "pop") != 0) return 0;
    static const char *const segs[] = {"cs", "ds", "es", "fs", "gs", "ss"};
    for (size_t i = 0; i < sizeof segs / sizeof segs[0]; i++)
        if (strncmp(op_str, segs[i], 2) == 0 && (op_str[2] == 0 || op_str[2] == ',')) return 1;
    return 0;
}

void emu_guest_interrupt_detail(emu_fault *f, unsigned intno, const char *insn)
{
    if (insn && insn[0])
        snprintf(f->detail, sizeof f->detail, "interrupt %u raised by `%s` at 0x%x", intno, insn,
                 f->eip);
    else
        snprintf(f->detail, sizeof f->detail, "interrupt %u raised at 0x%x", intno, f->eip);
}

void emu_guest_privileged_detail(emu_fault *f, const char *insn)
{
    snprintf(f->detail, sizeof f->detail,
             "`%s` at 0x%x: an instruction user code may not run (general protection fault)",
             insn && insn[0] ? insn : "?", f->eip);
}

int emu_guest_return_page(emu_fault *f)
{
    if (f->eip < EMU_SENTINEL || f->eip >= EMU_SENTINEL + 0x1000u) return 0;
    uint32_t esp = f->regs[EMU_ESP];
    memset(f->regs, 0, sizeof f->regs);
    f->regs[EMU_ESP] = esp;
    f->regs[EMU_EIP] = EMU_SENTINEL;
    f->kind = EMU_FAULT_EMU;
    f->eip = EMU_SENTINEL;
    f->addr = 0;
    snprintf(f->detail, sizeof f->detail,
             "the routine jumped into the engine's return page (0x%x-0x%x) instead of returning; "
             "what ran there is not shown",
             EMU_SENTINEL, EMU_SENTINEL + 0x1000u - 1);
    snprintf(f->disasm, sizeof f->disasm, ">0x%x: (the engine's return page)\n", EMU_SENTINEL);
    return 1;
}
