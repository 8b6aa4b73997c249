/*
 * emu/engine/unicorn/uc_engine.c: building one Unicorn engine (see emu/engine/emu.h):
 * the image mapped from a private copy with per-page protections, globals
 * outside the image, import traps, the GDT/TEB/sentinel pages, stack and
 * scratch, the areas it owns for its callers, patches, and the post-fault
 * restore. Calls and hooks live in emu/engine/unicorn/uc_call.c.
 * Nothing here prints or exits.
 */
#include "emu/engine/unicorn/uc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Descriptor fields for a flat 32-bit GDT entry (Intel SDM vol. 3, 3.4.5). */
#define GDT_TYPE_CODE 0xB /* execute/read, accessed */
#define GDT_TYPE_CODE_CONFORMING 0xF /* execute/read, conforming, accessed */
#define GDT_TYPE_DATA 0x3 /* read/write, accessed */
#define FPU_CONTROL_WORD 0x027F /* the Windows default: 53-bit precision, all masked */

/*
 * Zeroed, page-aligned host memory for the image, the stack and the scratch:
 * fresh anonymous pages, so the kernel zeroes only the pages the guest
 * touches. A memset of the whole (a scratch of up to 16 MiB, a 1 MiB stack)
 * took thousands of page faults at every engine's start.
 */
static uint8_t *zero_pages(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void free_pages(uint8_t *p, size_t n)
{
    if (p) munmap(p, n);
}

static int uc_fail(ff_error *err, const char *what, uc_err ue)
{
    return ff_error_set(err, FF_E_EMU, NULL, -1, "%s: %s", what, uc_strerror(ue));
}

static void gdt_entry(uint8_t *gdt, unsigned idx, uint32_t base, uint32_t limit, unsigned type,
                      int gran, unsigned dpl)
{
    uint32_t lo = (limit & 0xFFFF) | ((base & 0xFFFF) << 16);
    uint32_t hi = ((base >> 16) & 0xFF) | (type << 8) | (1u << 12) /* S */ | (dpl << 13) /* DPL */
                  | (1u << 15) /* P */ | (limit & 0xF0000) | (1u << 22)                 /* D */
                  | ((gran ? 1u : 0u) << 23) | (base & 0xFF000000u);
    memcpy(gdt + idx * 8, &lo, 4);
    memcpy(gdt + idx * 8 + 4, &hi, 4);
}

static int map_image(emu_uc *e, ff_error *err)
{
    uint32_t off = 0;
    while (off < e->image_size) {
        int prot = emu_guest_page_prot(e->pe, &e->profile, off);
        uint32_t end = off + EMU_PAGE;
        while (end < e->image_size && emu_guest_page_prot(e->pe, &e->profile, end) == prot)
            end += EMU_PAGE;
        if (prot) {
            uc_err ue = uc_mem_map_ptr(e->uc, e->image_base + off, end - off, (uint32_t)prot,
                                       e->image + off);
            if (ue) return uc_fail(err, "mapping the image", ue);
            if (prot & UC_PROT_WRITE) {
                if (e->nwruns == EMU_MAX_RUNS)
                    return ff_error_set(err, FF_E_EXE, NULL, -1,
                                        "more than %d writable page runs in the image",
                                        EMU_MAX_RUNS);
                e->wruns[e->nwruns++] = (emu_wrun){off, end - off};
            }
        }
        off = end;
    }
    return 0;
}

static int map_globals(emu_uc *e, ff_error *err)
{
    uint32_t pages[PROFILE_MAX_GLOBALS];
    int n = emu_guest_global_pages(&e->profile, e->image_base, e->image_size, pages,
                                   PROFILE_MAX_GLOBALS);
    if (n < 0) return ff_error_set(err, FF_E_EXE, NULL, -1, "globals span too many pages");
    for (int k = 0; k < n; k++) {
        uint8_t *host = aligned_alloc(EMU_PAGE, EMU_PAGE);
        if (!host) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        memset(host, 0, EMU_PAGE);
        e->gpages[e->ngpages++] = (emu_gpage){pages[k], host};
        uc_err ue = uc_mem_map_ptr(e->uc, pages[k], EMU_PAGE, UC_PROT_READ | UC_PROT_WRITE, host);
        if (ue) return uc_fail(err, "mapping a global's page", ue);
    }
    return 0;
}

static int write_traps(emu_uc *e, ff_error *err)
{
    for (unsigned i = 0; i < e->pe->nimports; i++) {
        const pe_import *imp = &e->pe->imports[i];
        uint8_t *slot = emu_uc_host(e, imp->slot, 4);
        if (!slot)
            return ff_error_set(err, FF_E_EXE, NULL, -1,
                                "IAT slot of %s!%s at 0x%x lies outside the mapped image", imp->dll,
                                imp->name, imp->slot);
        uint32_t trap = emu_guest_trap(i);
        memcpy(slot, &trap, 4);
    }
    return 0;
}

int emu_uc_segments(emu_uc *e)
{
    /* In 32-bit mode Unicorn ignores FS_BASE: segments come from the GDT. */
    const struct {
        int reg;
        uint32_t sel;
    } segs[] = {{UC_X86_REG_CS, EMU_UC_SEL_CODE}, {UC_X86_REG_SS, EMU_UC_SEL_DATA},
                {UC_X86_REG_DS, EMU_UC_SEL_DATA}, {UC_X86_REG_ES, EMU_UC_SEL_DATA},
                {UC_X86_REG_GS, EMU_UC_SEL_DATA}, {UC_X86_REG_FS, EMU_UC_SEL_FS}};
    for (size_t i = 0; i < sizeof segs / sizeof segs[0]; i++)
        if (uc_reg_write(e->uc, segs[i].reg, &segs[i].sel) != UC_ERR_OK) return -1;
    return 0;
}

static int setup_cpu(emu_uc *e, ff_error *err)
{
    uint8_t *sent = e->sys, *gdt = e->sys + EMU_PAGE, *teb = e->sys + 2 * EMU_PAGE;
    memset(sent, 0xF4, EMU_PAGE); /* HLT everywhere: the return sentinel */
    memset(gdt, 0, EMU_PAGE);
    memset(teb, 0, EMU_PAGE);
    gdt_entry(gdt, 1, 0, 0xFFFFF, GDT_TYPE_CODE, 1, 0);
    gdt_entry(gdt, 2, 0, 0xFFFFF, GDT_TYPE_DATA, 1, 0);
    gdt_entry(gdt, 3, EMU_TEB, 0xFFF, GDT_TYPE_DATA, 0, 0);
    /* The selectors a 64-bit Linux process gives 32-bit code (docs/engine.md section 9),
     * so what the hardware lets the native engine's guest do works here too: 0x23, flat
     * 32-bit code (conforming: reached from this CPL 0 with RPL 3), and 0x2B, flat data
     * (DPL 3). 0x33, the 64-bit code segment, lies past the GDT's limit: a far transfer
     * there faults (#GP), where the hardware would leave 32-bit code. */
    gdt_entry(gdt, 4, 0, 0xFFFFF, GDT_TYPE_CODE_CONFORMING, 1, 0);
    gdt_entry(gdt, 5, 0, 0xFFFFF, GDT_TYPE_DATA, 1, 3);
    uc_err ue;
    if ((ue = uc_mem_map_ptr(e->uc, EMU_SENTINEL, EMU_PAGE, UC_PROT_READ | UC_PROT_EXEC, sent)) ||
        (ue = uc_mem_map_ptr(e->uc, EMU_GDT, EMU_PAGE, UC_PROT_READ | UC_PROT_WRITE, gdt)) ||
        (ue = uc_mem_map_ptr(e->uc, EMU_TEB, EMU_PAGE, UC_PROT_READ | UC_PROT_WRITE, teb)))
        return uc_fail(err, "mapping the system pages", ue);
    uc_x86_mmr gdtr = {0, EMU_GDT, 6 * 8 - 1, 0};
    if ((ue = uc_reg_write(e->uc, UC_X86_REG_GDTR, &gdtr)))
        return uc_fail(err, "loading the GDT", ue);
    if (emu_uc_segments(e) < 0) return uc_fail(err, "loading a segment register", UC_ERR_ARG);
    uint32_t fpcw = FPU_CONTROL_WORD;
    if ((ue = uc_reg_write(e->uc, UC_X86_REG_FPCW, &fpcw)))
        return uc_fail(err, "setting the x87 control word", ue);
    return 0;
}

static int setup_stack_scratch(emu_uc *e, ff_error *err)
{
    e->stack = zero_pages(EMU_STACK_SIZE);
    e->scratch_map = emu_guest_page_ceil(e->profile.scratch_size);
    e->scratch = zero_pages(e->scratch_map);
    if (!e->stack || !e->scratch) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    /* Only the top page of the stack and the first page of the scratch are
     * mapped now; emu/engine/unicorn/uc_call.c maps more when a call reaches further. */
    e->stack_hot = EMU_PAGE;
    e->scratch_hot = EMU_PAGE;
    uc_err ue;
    if ((ue = uc_mem_map_ptr(e->uc, EMU_STACK_TOP - EMU_PAGE, EMU_PAGE,
                             UC_PROT_READ | UC_PROT_WRITE, e->stack + EMU_STACK_SIZE - EMU_PAGE)) ||
        (ue = uc_mem_map_ptr(e->uc, EMU_SCRATCH_BASE, EMU_PAGE, UC_PROT_READ | UC_PROT_WRITE,
                             e->scratch)))
        return uc_fail(err, "mapping the stack and scratch", ue);
    if (e->profile.field_alloc_cursor >= 0) {
        const profile_global *g = &e->profile.globals[e->profile.field_alloc_cursor];
        e->cursor = emu_uc_host(e, g->address, 4);
        if (!e->cursor)
            return ff_error_set(err, FF_E_EXE, NULL, -1, "field_alloc_cursor 0x%x is not mapped",
                                g->address);
    }
    return 0;
}

int emu_uc_open(const emu_config *cfg, emu_uc **out, ff_error *err)
{
    *out = NULL;
    if (emu_guest_check(cfg, err) != 0) return -1;
    emu_uc *e = calloc(1, sizeof *e);
    if (!e) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    e->pe = cfg->pe;
    e->pristine = cfg->image;
    e->profile = *cfg->profile;
    e->budget = cfg->budget ? cfg->budget : EMU_DEFAULT_BUDGET;
    e->image_base = cfg->pe->image_base;
    e->image_size = emu_guest_page_ceil(cfg->pe->size_of_image);
    uc_err ue = uc_open(UC_ARCH_X86, UC_MODE_32, &e->uc);
    if (ue) {
        e->uc = NULL;
        uc_fail(err, "opening Unicorn", ue);
        goto fail;
    }
    if (cs_open(CS_ARCH_X86, CS_MODE_32, &e->cs) != CS_ERR_OK) {
        e->cs = 0;
        ff_error_set(err, FF_E_EMU, NULL, -1, "opening Capstone failed");
        goto fail;
    }
    e->insn = cs_malloc(e->cs);
    e->image = zero_pages(e->image_size);
    e->sys = aligned_alloc(EMU_PAGE, 3 * EMU_PAGE);
    if (!e->insn || !e->image || !e->sys) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        goto fail;
    }
    pe_copy_image(cfg->pe, cfg->image, e->image); /* its zero pages stay untouched */
    if (map_image(e, err) || map_globals(e, err) || write_traps(e, err) || setup_cpu(e, err) ||
        setup_stack_scratch(e, err) || emu_uc_install_hooks(e, err))
        goto fail;
    if ((ue = uc_context_alloc(e->uc, &e->ctx0)) || (ue = uc_context_save(e->uc, e->ctx0))) {
        e->ctx0 = NULL;
        uc_fail(err, "saving the CPU context", ue);
        goto fail;
    }
    *out = e;
    return 0;
fail:
    emu_uc_close(e);
    return -1;
}

void emu_uc_close(emu_uc *e)
{
    if (!e) return;
    if (e->ctx0) uc_context_free(e->ctx0);
    if (e->uc) uc_close(e->uc);
    if (e->insn) cs_free(e->insn, 1);
    if (e->cs) cs_close(&e->cs);
    for (unsigned k = 0; k < e->ngpages; k++)
        free(e->gpages[k].host);
    for (unsigned k = 0; k < e->nareas; k++)
        free_pages(e->areas[k].host, e->areas[k].bytes);
    free(e->blocks);
    free(e->call_hooks);
    free(e->call_entries);
    free_pages(e->image, e->image_size);
    free(e->sys);
    free_pages(e->stack, EMU_STACK_SIZE);
    free_pages(e->scratch, e->scratch_map);
    free(e);
}

int emu_uc_restore(emu_uc *e)
{
    /* Not restored, the next call would start from a faulted call's FPU and
     * segment state and could report differences the routine never made. */
    uc_err ue = uc_context_restore(e->uc, e->ctx0);
    if (ue != UC_ERR_OK) {
        snprintf(e->lost, sizeof e->lost, "restoring the CPU context after a fault failed: %s",
                 uc_strerror(ue));
        return -1;
    }
    emu_guest_restore_runs(e->image, e->pristine, e->pe->size_of_image, e->wruns, e->nwruns);
    if (write_traps(e, NULL) != 0) {
        snprintf(e->lost, sizeof e->lost, "an import slot left the mapped image");
        return -1;
    }
    for (unsigned i = 0; i < e->npatches; i++)
        memcpy(e->image + (e->patches[i].addr - e->image_base), e->patches[i].bytes,
               e->patches[i].len);
    for (unsigned k = 0; k < e->ngpages; k++)
        memset(e->gpages[k].host, 0, EMU_PAGE);
    memset(e->sys + 2 * EMU_PAGE, 0, EMU_PAGE);
    return 0;
}

uint8_t *emu_uc_host(emu_uc *e, uint32_t addr, uint32_t len)
{
    uint64_t a = addr, n = len;
    if (a >= e->image_base && a + n <= (uint64_t)e->image_base + e->image_size)
        return e->image + (addr - e->image_base);
    for (unsigned k = 0; k < e->ngpages; k++)
        if (a >= e->gpages[k].addr && a + n <= (uint64_t)e->gpages[k].addr + EMU_PAGE)
            return e->gpages[k].host + (addr - e->gpages[k].addr);
    if (a >= EMU_STACK_LO && a + n <= EMU_STACK_TOP) return e->stack + (addr - EMU_STACK_LO);
    if (a >= EMU_SCRATCH_BASE && a + n <= (uint64_t)EMU_SCRATCH_BASE + e->scratch_map)
        return e->scratch + (addr - EMU_SCRATCH_BASE);
    static const uint32_t sys_pages[3] = {EMU_SENTINEL, EMU_GDT, EMU_TEB};
    for (unsigned k = 0; k < 3; k++)
        if (a >= sys_pages[k] && a + n <= (uint64_t)sys_pages[k] + EMU_PAGE)
            return e->sys + k * EMU_PAGE + (addr - sys_pages[k]);
    for (unsigned k = 0; k < e->nareas; k++)
        if (a >= e->areas[k].addr &&
            a + n <= (uint64_t)e->areas[k].addr + e->areas[k].size + e->areas[k].guard)
            return e->areas[k].host + (addr - e->areas[k].addr);
    return NULL;
}

int emu_uc_map_area(emu_uc *e, uint32_t addr, uint32_t size, int prot, uint32_t guard,
                    uint8_t **host, ff_error *err)
{
    if ((addr | size | guard) & (EMU_PAGE - 1) || !size)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "area 0x%x+0x%x+0x%x is not page-aligned",
                            addr, size, guard);
    uint64_t total = (uint64_t)size + guard;
    if (addr < EMU_AREA_LO || addr + total > EMU_AREA_HI)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "area 0x%x+0x%llx is outside 0x%x..0x%x",
                            addr, (unsigned long long)total, EMU_AREA_LO, EMU_AREA_HI);
    if (e->nareas == EMU_MAX_AREAS)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "too many areas");
    for (unsigned k = 0; k < e->nareas; k++)
        if (emu_guest_overlaps(addr, total, e->areas[k].addr, (uint64_t)e->areas[k].size + e->areas[k].guard))
            return ff_error_set(err, FF_E_RANGE, NULL, -1, "area 0x%x overlaps area 0x%x", addr,
                                e->areas[k].addr);
    uint8_t *mem = zero_pages((size_t)total);
    if (!mem) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for an area");
    uc_err ue = uc_mem_map_ptr(e->uc, addr, size, (uint32_t)prot & UC_PROT_ALL, mem);
    if (ue) {
        free_pages(mem, (size_t)total);
        return uc_fail(err, "mapping an area", ue);
    }
    if (guard &&
        (ue = uc_mem_map_ptr(e->uc, (uint64_t)addr + size, guard, UC_PROT_READ, mem + size))) {
        if (uc_mem_unmap(e->uc, addr, size) == UC_ERR_OK) {
            free_pages(mem, (size_t)total);
        } else {
            /* mapped without its guard until close, never freed under Unicorn */
            e->areas[e->nareas++] = (emu_area){addr, size, 0, mem, (size_t)total, 1};
        }
        return uc_fail(err, "mapping an area's guard", ue);
    }
    e->areas[e->nareas++] = (emu_area){addr, size, guard, mem, (size_t)total, 0};
    *host = mem;
    return 0;
}

int emu_uc_unmap_area(emu_uc *e, uint32_t addr, ff_error *err)
{
    for (unsigned k = 0; k < e->nareas; k++) {
        emu_area *a = &e->areas[k];
        if (a->addr != addr || a->stuck) continue;
        uc_err ue = UC_ERR_OK;
        if (a->guard) ue = uc_mem_unmap(e->uc, (uint64_t)addr + a->size, a->guard);
        if (ue == UC_ERR_OK) {
            a->guard = 0;
            ue = uc_mem_unmap(e->uc, addr, a->size);
        }
        if (ue) {
            /* Unicorn may still reach it: kept until close, the address taken. */
            a->stuck = 1;
            return uc_fail(err, "unmapping an area", ue);
        }
        free_pages(a->host, a->bytes);
        *a = e->areas[--e->nareas];
        return 0;
    }
    return ff_error_set(err, FF_E_USAGE, NULL, -1, "no area at 0x%x", addr);
}

/* The stub's hook: at its address, while on, a `ret` (no guest store). */
static void on_stub(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
    emu_uc *e = user;
    (void)size;
    if (!e->stub_on || address != e->stub_addr) return;
    uint32_t esp = 0, ret = 0;
    if (uc_reg_read(uc, UC_X86_REG_ESP, &esp) || uc_mem_read(uc, esp, &ret, 4)) return;
    esp += 4;
    uc_reg_write(uc, UC_X86_REG_ESP, &esp);
    uc_reg_write(uc, UC_X86_REG_EIP, &ret);
}

int emu_uc_stub_return(emu_uc *e, uint32_t addr, ff_error *err)
{
    if (e->stub_addr) return ff_error_set(err, FF_E_USAGE, NULL, -1, "the engine has a stub");
    if (addr < e->image_base || addr - e->image_base >= e->image_size)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "stub at 0x%x lies outside the image", addr);
    uc_err ue = uc_hook_add(e->uc, &e->stub_hook, UC_HOOK_CODE, (void *)on_stub, e, (uint64_t)addr,
                            (uint64_t)addr);
    if (ue) return uc_fail(err, "adding the stub's hook", ue);
    e->stub_addr = addr;
    e->stub_on = 1;
    /* A hook added after its code was translated may not fire: drop that code. */
    ue = uc_ctl_remove_cache(e->uc, (uint64_t)addr, (uint64_t)addr + 1);
    if (ue) return uc_fail(err, "dropping translated code", ue);
    return 0;
}

void emu_uc_stub_set(emu_uc *e, int on)
{
    e->stub_on = on && e->stub_addr;
}

int emu_uc_patch(emu_uc *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err)
{
    if (!len || len > sizeof e->patches[0].bytes || e->npatches == EMU_MAX_PATCHES)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "bad patch (%u bytes)", len);
    if (addr < e->image_base || (uint64_t)addr + len > (uint64_t)e->image_base + e->image_size)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "patch at 0x%x lies outside the image",
                            addr);
    emu_patch_rec *p = &e->patches[e->npatches++];
    p->addr = addr;
    p->len = len;
    memcpy(p->bytes, bytes, len);
    memcpy(e->image + (addr - e->image_base), bytes, len);
    uc_err ue = uc_ctl_remove_cache(e->uc, (uint64_t)addr, (uint64_t)addr + len);
    if (ue) return uc_fail(err, "dropping translated code", ue);
    return 0;
}

int emu_uc_unpatch(emu_uc *e, uint32_t addr, ff_error *err)
{
    for (unsigned i = 0; i < e->npatches; i++) {
        emu_patch_rec *p = &e->patches[i];
        if (p->addr != addr) continue;
        uint32_t off = addr - e->image_base, len = p->len;
        uint32_t lim = e->pe->size_of_image;
        for (uint32_t k = 0; k < len; k++)
            e->image[off + k] = off + k < lim ? e->pristine[off + k] : 0;
        e->patches[i] = e->patches[--e->npatches];
        uc_err ue = uc_ctl_remove_cache(e->uc, (uint64_t)addr, (uint64_t)addr + len);
        if (ue) return uc_fail(err, "dropping translated code", ue);
        return 0;
    }
    return ff_error_set(err, FF_E_USAGE, NULL, -1, "no patch at 0x%x", addr);
}

uint32_t emu_uc_stack_hot(const emu_uc *e)
{
    return e->stack_hot;
}

uint32_t emu_uc_scratch_hot(const emu_uc *e)
{
    return e->scratch_hot;
}

uint64_t emu_uc_last_insns(const emu_uc *e)
{
    return e->insns;
}

void emu_uc_set_budget(emu_uc *e, uint64_t budget)
{
    e->budget = budget ? budget : EMU_DEFAULT_BUDGET;
}
