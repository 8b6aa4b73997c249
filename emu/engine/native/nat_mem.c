/*
 * emu/engine/native/nat_mem.c: the native engine's guest memory (see
 * emu/engine/emu.h for the layout every engine gives). Each region is a
 * memfd mapped twice: at its guest address, below 4 GiB, with the guest's
 * protection (code never writable), and anywhere above for the host,
 * read-write, so the host writes patches, inputs and restores whatever the
 * guest may do. The stack and the scratch are mapped for the guest a page
 * at a time as calls reach further (nat_cpu.c's fault handler grows them),
 * as the Unicorn engine does, so that only what a call touched is zeroed
 * before the next. Nothing here prints or exits.
 */
#define _GNU_SOURCE
#include "emu/engine/native/nat_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/le.h"

static int host_prot(int prot)
{
    return ((prot & EMU_PROT_READ) ? PROT_READ : 0) | ((prot & EMU_PROT_WRITE) ? PROT_WRITE : 0) |
           ((prot & EMU_PROT_EXEC) ? PROT_EXEC : 0);
}

/* Maps [off, off + len) of region r at its guest address with prot. */
static int guest_map(nat_region *r, uint32_t off, uint32_t len, int prot, ff_error *err)
{
    void *want = (void *)(uintptr_t)(r->addr + off);
    void *got = mmap(want, len, host_prot(prot), MAP_SHARED | MAP_FIXED_NOREPLACE, r->fd, off);
    if (got == want) return 0;
    int e = errno;
    if (got != MAP_FAILED) munmap(got, len);
    return ff_error_set(err, e == EEXIST ? FF_E_EMU : FF_E_NOMEM, NULL, -1,
                        "mapping guest memory at 0x%x (%u bytes): %s%s", r->addr + off, len,
                        strerror(e),
                        e == EEXIST ? " (the address is taken in this process: a second native "
                                      "engine, or a mapping of the host's below 4 GiB)"
                                    : "");
}

/* A new region of size bytes at guest addr, its host view zeroed; not yet mapped for the guest. */
static nat_region *region_new(emu_nat *e, uint32_t addr, uint32_t size, int prot, int kind,
                              ff_error *err)
{
    if (e->nregions == NAT_MAX_REGIONS) {
        ff_error_set(err, FF_E_RANGE, NULL, -1, "too many guest regions");
        return NULL;
    }
    int fd = memfd_create("ff8diff-guest", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) != 0) {
        int e = errno;
        ff_error_set(err, e == EFBIG ? FF_E_UNSUPPORTED : FF_E_NOMEM, NULL, -1,
                     "guest memory of %u bytes: %s%s", size, strerror(e),
                     e == EFBIG ? " (guest memory is a memory file, which the file-size limit, "
                                  "ulimit -f, counts: raise it, or use --engine unicorn)"
                                : "");
        if (fd >= 0) close(fd);
        return NULL;
    }
    void *host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (host == MAP_FAILED) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "host view of guest memory: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    nat_region *r = &e->regions[e->nregions++];
    *r = (nat_region){addr, size, prot, fd, host, kind};
    return r;
}

static void region_free(nat_region *r)
{
    munmap((void *)(uintptr_t)r->addr, r->size);
    munmap(r->host, r->size);
    close(r->fd);
}

static nat_region *region_at(emu_nat *e, uint32_t addr, uint32_t len)
{
    for (unsigned k = 0; k < e->nregions; k++) {
        nat_region *r = &e->regions[k];
        if (addr >= r->addr && (uint64_t)addr + len <= (uint64_t)r->addr + r->size) return r;
    }
    return NULL;
}

uint8_t *nat_host(emu_nat *e, uint32_t addr, uint32_t len)
{
    nat_region *r = region_at(e, addr, len);
    return r ? r->host + (addr - r->addr) : NULL;
}

/* ---- the image ---- */

/* n <= NAT_PAGE bytes at p are all zero (memcmp: a byte loop costs 5 ms over 8 MB). */
static int all_zero(const uint8_t *p, size_t n)
{
    static const uint8_t zero[NAT_PAGE];
    return memcmp(p, zero, n) == 0;
}

/*
 * The image's bytes into its memory file (fresh, all holes): written
 * through the file, not the host view, so no page faults in one at a
 * time, and runs of zero pages (gaps between sections, uninitialised data)
 * left as holes, which read as zeros and take no memory until written.
 */
static int write_image(int fd, const uint8_t *image, size_t size, ff_error *err)
{
    size_t off = 0;
    while (off < size) {
        size_t len = size - off < NAT_PAGE ? size - off : NAT_PAGE;
        if (all_zero(image + off, len)) {
            off += len;
            continue;
        }
        size_t end = off + len; /* a run of pages with something in each */
        while (end < size) {
            size_t k = size - end < NAT_PAGE ? size - end : NAT_PAGE;
            if (all_zero(image + end, k)) break;
            end += k;
        }
        while (off < end) {
            ssize_t n = pwrite(fd, image + off, end - off, (off_t)off);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0)
                return ff_error_set(err, FF_E_NOMEM, NULL, -1,
                                    "writing the image to guest memory: %s",
                                    n < 0 ? strerror(errno) : "no progress");
            off += (size_t)n;
        }
    }
    return 0;
}

static int map_image(emu_nat *e, const emu_config *cfg, ff_error *err)
{
    nat_region *r = region_new(e, e->image_base, e->image_size, 0, NAT_R_IMAGE, err);
    if (!r) return -1;
    e->image = r->host;
    if (write_image(r->fd, cfg->image, cfg->pe->size_of_image, err) < 0) return -1;
    uint32_t off = 0;
    while (off < e->image_size) {
        int prot = emu_guest_page_prot(e->pe, &e->profile, off);
        uint32_t end = off + NAT_PAGE;
        while (end < e->image_size && emu_guest_page_prot(e->pe, &e->profile, end) == prot)
            end += NAT_PAGE;
        if (prot) {
            if (guest_map(r, off, end - off, prot, err) < 0) return -1;
            if (prot & EMU_PROT_WRITE) {
                if (e->nwruns == NAT_MAX_RUNS)
                    return ff_error_set(err, FF_E_EXE, NULL, -1,
                                        "more than %d writable page runs in the image",
                                        NAT_MAX_RUNS);
                e->wruns[e->nwruns++] = (emu_wrun){off, end - off};
            }
        }
        off = end;
    }
    return 0;
}

static int map_globals(emu_nat *e, ff_error *err)
{
    uint32_t pages[PROFILE_MAX_GLOBALS];
    int n = emu_guest_global_pages(&e->profile, e->image_base, e->image_size, pages,
                                   PROFILE_MAX_GLOBALS);
    if (n < 0) return ff_error_set(err, FF_E_EXE, NULL, -1, "globals span too many pages");
    int rw = EMU_PROT_READ | EMU_PROT_WRITE;
    for (int k = 0; k < n; k++) {
        nat_region *r = region_new(e, pages[k], NAT_PAGE, rw, NAT_R_GLOBAL, err);
        if (!r || guest_map(r, 0, NAT_PAGE, rw, err) < 0) return -1;
    }
    return 0;
}

static int write_traps(emu_nat *e, ff_error *err)
{
    for (unsigned i = 0; i < e->pe->nimports; i++) {
        const pe_import *imp = &e->pe->imports[i];
        uint8_t *slot = nat_host(e, imp->slot, 4);
        if (!slot)
            return ff_error_set(err, FF_E_EXE, NULL, -1,
                                "IAT slot of %s!%s at 0x%x lies outside the mapped image", imp->dll,
                                imp->name, imp->slot);
        le_put32(slot, emu_guest_trap(i));
    }
    return 0;
}

/* The exit the return pad jumps to (nat_cpu.c). */
extern char nat_pad_target[];

/* The slot page at NAT_PAD_SLOT, read-only: the address the return pad jumps to. */
static int map_slot(emu_nat *e, ff_error *err)
{
    void *p = mmap((void *)(uintptr_t)NAT_PAD_SLOT, NAT_PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED || p != (void *)(uintptr_t)NAT_PAD_SLOT) {
        if (p != MAP_FAILED) munmap(p, NAT_PAGE);
        return ff_error_set(err, FF_E_EMU, NULL, -1,
                            "mapping the return pad's slot at 0x%llx: %s (the address is taken "
                            "in this process)",
                            (unsigned long long)NAT_PAD_SLOT,
                            p == MAP_FAILED ? strerror(errno) : "placed elsewhere");
    }
    uint64_t t = (uint64_t)(uintptr_t)nat_pad_target;
    memcpy(p, &t, sizeof t);
    if (mprotect(p, NAT_PAGE, PROT_READ) != 0) {
        munmap(p, NAT_PAGE);
        return ff_error_set(err, FF_E_EMU, NULL, -1, "protecting the return pad's slot: %s",
                            strerror(errno));
    }
    e->slot = p;
    return 0;
}

/*
 * The system pages: the sentinel (a far jump to the 64-bit return pad at
 * NAT_PAD_OFF, HLT elsewhere), a spare page where the Unicorn engine keeps
 * its GDT (zero here), the TEB.
 */
static int map_sys(emu_nat *e, ff_error *err)
{
    static const uint32_t at[3] = {EMU_SENTINEL, EMU_GDT, EMU_TEB};
    static const int prot[3] = {EMU_PROT_READ | EMU_PROT_EXEC, EMU_PROT_READ | EMU_PROT_WRITE,
                                EMU_PROT_READ | EMU_PROT_WRITE};
    for (unsigned k = 0; k < 3; k++) {
        nat_region *r = region_new(e, at[k], NAT_PAGE, prot[k], NAT_R_SYS, err);
        if (!r) return -1;
        if (k == 0) {
            uint8_t *p = r->host;
            memset(p, 0xF4, NAT_PAGE);
            p[0] = 0xEA; /* jmp far 0x33:pad (32-bit code) */
            le_put32(p + 1, EMU_SENTINEL + NAT_PAD_OFF);
            p[5] = NAT_SEL_CODE64;
            p[6] = 0;
            /* 64-bit code: mov r11, NAT_PAD_SLOT; jmp [r11], through the slot page above
             * 4 GiB that holds nat_pad_target's address (map_slot). No host address lies
             * where 32-bit code can read it, and the bytes are the same in every process:
             * read as 32-bit code, as when the guest jumps here itself, they are
             * dec ecx; mov ebx, 0; hlt, and from any later byte a fault inside this page
             * or, from the last instruction, the guest's own `jmp [ebx]`. */
            static const uint8_t pad[13] = {0x49, 0xBB, 0, 0, 0, 0, 0xF4, 0, 0, 0,
                                            0x41, 0xFF, 0x23};
            _Static_assert(NAT_PAD_SLOT == 0xF400000000ull, "the pad's bytes name the slot");
            memcpy(p + NAT_PAD_OFF, pad, sizeof pad);
        }
        if (guest_map(r, 0, NAT_PAGE, prot[k], err) < 0) return -1;
    }
    e->sys = NULL;
    return 0;
}

static int map_stack_scratch(emu_nat *e, ff_error *err)
{
    int rw = EMU_PROT_READ | EMU_PROT_WRITE;
    nat_region *s = region_new(e, EMU_STACK_LO, EMU_STACK_SIZE, rw, NAT_R_STACK, err);
    if (!s || guest_map(s, EMU_STACK_SIZE - NAT_PAGE, NAT_PAGE, rw, err) < 0) return -1;
    e->stack = s->host;
    e->stack_hot = NAT_PAGE;
    e->scratch_map = emu_guest_page_ceil(e->profile.scratch_size ? e->profile.scratch_size : NAT_PAGE);
    nat_region *c = region_new(e, EMU_SCRATCH_BASE, e->scratch_map, rw, NAT_R_SCRATCH, err);
    if (!c || guest_map(c, 0, NAT_PAGE, rw, err) < 0) return -1;
    e->scratch = c->host;
    e->scratch_hot = NAT_PAGE;
    if (e->profile.field_alloc_cursor >= 0) {
        const profile_global *g = &e->profile.globals[e->profile.field_alloc_cursor];
        e->cursor = nat_host(e, g->address, 4);
        if (!e->cursor)
            return ff_error_set(err, FF_E_EXE, NULL, -1, "field_alloc_cursor 0x%x is not mapped",
                                g->address);
    }
    return 0;
}

int nat_grow(emu_nat *e, uint32_t addr)
{
    int rw = PROT_READ | PROT_WRITE;
    if (addr >= EMU_STACK_LO && addr < EMU_STACK_TOP - e->stack_hot) {
        uint32_t lo = (addr & ~(NAT_PAGE - 1)), hi = EMU_STACK_TOP - e->stack_hot;
        nat_region *r = region_at(e, EMU_STACK_LO, 1);
        void *p = mmap((void *)(uintptr_t)lo, hi - lo, rw, MAP_SHARED | MAP_FIXED, r->fd,
                       lo - EMU_STACK_LO);
        if (p == MAP_FAILED) return -1;
        e->stack_hot = EMU_STACK_TOP - lo;
        return 0;
    }
    if (addr >= EMU_SCRATCH_BASE + e->scratch_hot && addr - EMU_SCRATCH_BASE < e->scratch_map) {
        uint32_t lo = EMU_SCRATCH_BASE + e->scratch_hot;
        uint32_t hi = (addr & ~(NAT_PAGE - 1)) + NAT_PAGE;
        nat_region *r = region_at(e, EMU_SCRATCH_BASE, 1);
        void *p = mmap((void *)(uintptr_t)lo, hi - lo, rw, MAP_SHARED | MAP_FIXED, r->fd,
                       lo - EMU_SCRATCH_BASE);
        if (p == MAP_FAILED) return -1;
        e->scratch_hot = hi - EMU_SCRATCH_BASE;
        return 0;
    }
    return -1;
}

int nat_mem_open(emu_nat *e, const emu_config *cfg, ff_error *err)
{
    if (emu_guest_check(cfg, err) < 0) return -1;
    e->pe = cfg->pe;
    e->pristine = cfg->image;
    e->profile = *cfg->profile;
    e->image_base = cfg->pe->image_base;
    e->image_size = emu_guest_page_ceil(cfg->pe->size_of_image);
    if (map_image(e, cfg, err) < 0 || map_globals(e, err) < 0 || write_traps(e, err) < 0 ||
        map_sys(e, err) < 0 || map_stack_scratch(e, err) < 0 || map_slot(e, err) < 0)
        return -1;
    e->sys = nat_host(e, EMU_SENTINEL, NAT_PAGE);
    return 0;
}

void nat_mem_close(emu_nat *e)
{
    for (unsigned k = 0; k < e->nregions; k++)
        region_free(&e->regions[k]);
    e->nregions = 0;
    if (e->slot) munmap(e->slot, NAT_PAGE);
    e->slot = NULL;
}

int nat_restore(emu_nat *e)
{
    emu_guest_restore_runs(e->image, e->pristine, e->pe->size_of_image, e->wruns, e->nwruns);
    if (write_traps(e, NULL) != 0) {
        snprintf(e->lost, sizeof e->lost, "an import slot left the mapped image");
        return -1;
    }
    for (unsigned i = 0; i < e->npatches; i++)
        memcpy(e->image + (e->patches[i].addr - e->image_base), e->patches[i].bytes,
               e->patches[i].len);
    for (unsigned k = 0; k < e->nregions; k++)
        if (e->regions[k].kind == NAT_R_GLOBAL) memset(e->regions[k].host, 0, NAT_PAGE);
    uint8_t *teb = nat_host(e, EMU_TEB, NAT_PAGE);
    if (teb) memset(teb, 0, NAT_PAGE);
    return 0;
}

int nat_readable(emu_nat *e, uint32_t addr, uint32_t len)
{
    nat_region *r = region_at(e, addr, len);
    if (!r) return 0;
    if (r->kind == NAT_R_STACK) return addr >= EMU_STACK_TOP - e->stack_hot;
    if (r->kind == NAT_R_SCRATCH) return addr + len <= EMU_SCRATCH_BASE + e->scratch_hot;
    if (r->kind == NAT_R_IMAGE) {
        for (uint32_t off = (addr - r->addr) & ~(NAT_PAGE - 1); off < addr - r->addr + len;
             off += NAT_PAGE)
            if (!(emu_guest_page_prot(e->pe, &e->profile, off) & EMU_PROT_READ)) return 0;
        return 1;
    }
    return 1;
}

int nat_map_area(emu_nat *e, uint32_t addr, uint32_t size, int prot, uint32_t guard,
                 uint8_t **host, ff_error *err)
{
    if ((addr | size | guard) & (NAT_PAGE - 1) || !size)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "area 0x%x+0x%x+0x%x is not page-aligned",
                            addr, size, guard);
    uint64_t total = (uint64_t)size + guard;
    if (addr < EMU_AREA_LO || addr + total > EMU_AREA_HI)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "area 0x%x+0x%llx is outside 0x%x..0x%x",
                            addr, (unsigned long long)total, EMU_AREA_LO, EMU_AREA_HI);
    for (unsigned k = 0; k < e->nregions; k++)
        if (e->regions[k].kind == NAT_R_AREA &&
            emu_guest_overlaps(addr, total, e->regions[k].addr, e->regions[k].size))
            return ff_error_set(err, FF_E_RANGE, NULL, -1, "area 0x%x overlaps area 0x%x", addr,
                                e->regions[k].addr);
    nat_region *r = region_new(e, addr, (uint32_t)total, prot, NAT_R_AREA, err);
    if (!r) return -1;
    if (guest_map(r, 0, size, prot, err) < 0 ||
        (guard && guest_map(r, size, guard, EMU_PROT_READ, err) < 0)) {
        region_free(r);
        e->nregions--;
        return -1;
    }
    *host = r->host;
    return 0;
}

int nat_unmap_area(emu_nat *e, uint32_t addr, ff_error *err)
{
    for (unsigned k = 0; k < e->nregions; k++) {
        if (e->regions[k].kind != NAT_R_AREA || e->regions[k].addr != addr) continue;
        region_free(&e->regions[k]);
        e->regions[k] = e->regions[--e->nregions];
        return 0;
    }
    return ff_error_set(err, FF_E_USAGE, NULL, -1, "no area at 0x%x", addr);
}

int nat_patch_code(emu_nat *e, uint32_t addr, const uint8_t *bytes, uint32_t len, ff_error *err)
{
    if (!len || len > sizeof e->patches[0].bytes || e->npatches == NAT_MAX_PATCHES)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "bad patch (%u bytes)", len);
    if (addr < e->image_base || (uint64_t)addr + len > (uint64_t)e->image_base + e->image_size)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "patch at 0x%x lies outside the image",
                            addr);
    nat_patch *p = &e->patches[e->npatches++];
    p->addr = addr;
    p->len = len;
    memcpy(p->bytes, bytes, len);
    memcpy(e->image + (addr - e->image_base), bytes, len);
    return 0;
}

int nat_unpatch(emu_nat *e, uint32_t addr, ff_error *err)
{
    for (unsigned i = 0; i < e->npatches; i++) {
        nat_patch *p = &e->patches[i];
        if (p->addr != addr) continue;
        uint32_t off = addr - e->image_base, lim = e->pe->size_of_image;
        for (uint32_t k = 0; k < p->len; k++)
            e->image[off + k] = off + k < lim ? e->pristine[off + k] : 0;
        e->patches[i] = e->patches[--e->npatches];
        return 0;
    }
    return ff_error_set(err, FF_E_USAGE, NULL, -1, "no patch at 0x%x", addr);
}
