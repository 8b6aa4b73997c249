/*
 * emu/engine/unicorn/uc_call.c: cdecl calls into the guest and everything that watches them:
 * the block hook (exact instruction count from a per-engine cache of
 * Capstone counts, budget, current block for fault disassembly), the hook
 * on invalid memory (lazy stack/scratch growth, fault capture), interrupts,
 * system-call instructions and invalid instructions; then the classification
 * of how a call ended.
 *
 * System calls: guest code may make none, on either engine (the native one
 * traps them with a seccomp filter). Unicorn 2.1.1 in 32-bit mode raises
 * interrupt 0x80 for `int 0x80`, but runs `sysenter` and `syscall` without an
 * instruction hook as if they were no-ops (measured: execution goes on past
 * them). All three are stopped here as a SYSCALL fault whose EIP is the
 * instruction's own address.
 *
 * Why the stack is zeroed this way (measured on Debian 12's Unicorn 2.0.1,
 * see bench/README.md): the original reads locals it never wrote, so every
 * call must start on a zeroed stack. A memset of the whole 1 MiB costs
 * 12-17 us per call and of the top 64 KiB 0.6-1.1 us, against ~0.2 us for
 * a whole trivial call and ~1.5 us for a bitReader call. A write hook
 * watching the deep part costs nothing measurable (2.0.1 stores are on the
 * slow path anyway) but leaves the 64 KiB memset. So only the part of the
 * stack a call may touch is mapped: the top page at first, and the hook on
 * unmapped memory maps deeper pages (still zero) on first touch. The mapped
 * part ("hot", a few KiB once the deepest routine ran) is what memset
 * clears before each call (~40 ns per 4 KiB): exact, since nothing below it
 * was ever mapped, let alone written, and free for calls that stay in it.
 * The Field_Alloc scratch grows the same way upwards from its base.
 * Nothing here prints or exits.
 */
#include "common/le.h"
#include "emu/engine/unicorn/uc_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EMU_EFLAGS_INIT 0x202u            /* IF and the reserved bit */
#define EMU_UNTIL (EMU_SENTINEL + 0x800u) /* inside the HLT page, never a return address */

/* ---- instruction counting ------------------------------------------------ */

static uint32_t count_insns(emu_uc *e, uint32_t addr, uint32_t size)
{
    const uint8_t *code = emu_uc_host(e, addr, size);
    if (!code) return size ? 1 : 0;
    size_t left = size;
    uint64_t a = addr;
    uint32_t n = 0;
    while (left && cs_disasm_iter(e->cs, &code, &left, &a, e->insn))
        n++;
    return n + (left ? 1 : 0);
}

static void blocks_insert(emu_block *tab, uint32_t cap, const emu_block *b)
{
    uint32_t i = (b->addr * 2654435761u) & (cap - 1);
    while (tab[i].addr)
        i = (i + 1) & (cap - 1);
    tab[i] = *b;
}

static int blocks_grow(emu_uc *e)
{
    uint32_t ncap = e->nblocks_cap ? e->nblocks_cap * 2 : 1024;
    emu_block *n = calloc(ncap, sizeof *n);
    if (!n) return -1;
    for (uint32_t i = 0; i < e->nblocks_cap; i++)
        if (e->blocks[i].addr) blocks_insert(n, ncap, &e->blocks[i]);
    free(e->blocks);
    e->blocks = n;
    e->nblocks_cap = ncap;
    return 0;
}

/* Instructions in the block [addr, addr + size), cached per engine. */
static uint32_t block_insns(emu_uc *e, uint32_t addr, uint32_t size)
{
    if (e->nblocks_cap) {
        uint32_t i = (addr * 2654435761u) & (e->nblocks_cap - 1);
        for (; e->blocks[i].addr; i = (i + 1) & (e->nblocks_cap - 1))
            if (e->blocks[i].addr == addr && e->blocks[i].size == size) return e->blocks[i].insns;
    }
    emu_block b = {addr, size, count_insns(e, addr, size)};
    if (addr && (e->nblocks_used + 1) * 2 <= e->nblocks_cap) {
        blocks_insert(e->blocks, e->nblocks_cap, &b);
        e->nblocks_used++;
    } else if (addr && blocks_grow(e) == 0) {
        blocks_insert(e->blocks, e->nblocks_cap, &b);
        e->nblocks_used++;
    }
    return b.insns;
}

static const int all_regs[EMU__NREGS] = {
    UC_X86_REG_EAX, UC_X86_REG_ECX, UC_X86_REG_EDX, UC_X86_REG_EBX, UC_X86_REG_ESP,
    UC_X86_REG_EBP, UC_X86_REG_ESI, UC_X86_REG_EDI, UC_X86_REG_EIP, UC_X86_REG_EFLAGS};

/* ---- hooks ---------------------------------------------------------------- */

/* The budget ran out at the block at addr: the fault, with the registers there.
 * Kept out of line, as block_met is, so on_block stays a leaf with a small frame. */
__attribute__((noinline)) static void over_budget(uc_engine *uc, emu_uc *e, uint64_t addr)
{
    if (e->stop_kind == EMU_FAULT_NONE) {
        e->stop_kind = EMU_FAULT_BUDGET;
        e->stop_eip = (uint32_t)addr;
        void *ptrs[EMU__NREGS];
        for (int i = 0; i < EMU__NREGS; i++)
            ptrs[i] = &e->stop_regs[i];
        e->have_stop_regs = uc_reg_read_batch(uc, (int *)all_regs, ptrs, EMU__NREGS) == UC_ERR_OK;
        /* EIP is not kept up to date inside a block hook: the block's start is the EIP. */
        e->stop_regs[EMU_EIP] = (uint32_t)addr;
    }
    /* Asked again at every later block: a refused request cannot let the
     * call run on unbounded. */
    uc_emu_stop(uc);
}

/* A block the memo did not hold: counted (cached per engine), covered, memoised. */
__attribute__((noinline)) static uint32_t block_met(emu_uc *e, emu_memo *m, uint32_t addr,
                                                    uint32_t size)
{
    m->addr = addr;
    m->size = size;
    m->insns = block_insns(e, addr, size);
    emu_uc_cover_block(e, addr, size);
    return m->insns;
}

/*
 * The engine's one block hook, called by Unicorn before each translated
 * block runs: the instruction budget, the block for fault disassembly, and
 * (on a block's first meeting) coverage. Its common case is a memo hit.
 */
static void on_block(uc_engine *uc, uint64_t addr, uint32_t size, void *user)
{
    emu_uc *e = user;
    if (addr == EMU_SENTINEL) return;
    emu_memo *m = &e->memo[((uint32_t)addr ^ ((uint32_t)addr >> 12)) & (EMU_MEMO - 1)];
    uint32_t n = m->addr == (uint32_t)addr && m->size == size
                     ? m->insns
                     : block_met(e, m, (uint32_t)addr, size);
    e->block_addr = (uint32_t)addr;
    e->block_size = size;
    e->insns += n;
    if (e->insns > e->budget) over_budget(uc, e, addr);
}

/* Maps more of the stack downwards when a call touches below the hot part. */
static int grow_stack(emu_uc *e, uint64_t addr)
{
    uint32_t hot_lo = EMU_STACK_TOP - e->stack_hot;
    if (addr < EMU_STACK_LO || addr >= hot_lo) return 0;
    uint32_t lo = (uint32_t)addr & ~(EMU_PAGE - 1);
    if (uc_mem_map_ptr(e->uc, lo, hot_lo - lo, UC_PROT_READ | UC_PROT_WRITE,
                       e->stack + (lo - EMU_STACK_LO)) != UC_ERR_OK)
        return 0;
    e->stack_hot += hot_lo - lo;
    return 1;
}

/* Maps more of the scratch upwards when a call touches past the hot part. */
static int grow_scratch(emu_uc *e, uint64_t addr, int size)
{
    uint64_t hot_hi = (uint64_t)EMU_SCRATCH_BASE + e->scratch_hot;
    uint64_t lim = (uint64_t)EMU_SCRATCH_BASE + e->scratch_map;
    if (addr < hot_hi || addr >= lim) return 0;
    uint64_t hi =
        (addr + (uint64_t)(size > 0 ? size : 1) + EMU_PAGE - 1) & ~(uint64_t)(EMU_PAGE - 1);
    if (hi > lim) hi = lim;
    if (uc_mem_map_ptr(e->uc, hot_hi, hi - hot_hi, UC_PROT_READ | UC_PROT_WRITE,
                       e->scratch + e->scratch_hot) != UC_ERR_OK)
        return 0;
    e->scratch_hot = (uint32_t)(hi - EMU_SCRATCH_BASE);
    return 1;
}

static bool on_mem_invalid(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                           void *user)
{
    (void)uc;
    (void)value;
    emu_uc *e = user;
    if ((type == UC_MEM_READ_UNMAPPED || type == UC_MEM_WRITE_UNMAPPED) &&
        (grow_stack(e, addr) || grow_scratch(e, addr, size)))
        return true;
    if (!e->mem_seen) {
        e->mem_seen = 1;
        e->mem_type = type;
        e->mem_addr = (uint32_t)addr;
        e->mem_size = size;
    }
    return false;
}

/* EIP inside a hook; the running block's start when Unicorn cannot say. */
static uint32_t hook_eip(uc_engine *uc, const emu_uc *e)
{
    uint32_t eip;
    return uc_reg_read(uc, UC_X86_REG_EIP, &eip) == UC_ERR_OK ? eip : e->block_addr;
}

/* A system-call instruction at eip: the fault (the registers' EIP reg_eip), then stop. */
static void stop_syscall(uc_engine *uc, emu_uc *e, const char *insn, uint32_t eip,
                         uint32_t reg_eip)
{
    if (e->stop_kind == EMU_FAULT_NONE) {
        e->stop_kind = EMU_FAULT_SYSCALL;
        e->stop_eip = eip;
        e->sys_reg_eip = reg_eip;
        e->sys_insn = insn;
        if (uc_reg_read(uc, UC_X86_REG_EAX, &e->sys_eax) != UC_ERR_OK) e->sys_eax = 0;
    }
    uc_emu_stop(uc);
}

/* 1 when the guest's byte at addr is b0. */
static int code_is1(emu_uc *e, uint32_t addr, uint8_t b0)
{
    const uint8_t *at = emu_uc_host(e, addr, 1);
    return at && at[0] == b0;
}

/* 1 when the guest's two bytes at addr are b0 b1. */
static int code_is(emu_uc *e, uint32_t addr, uint8_t b0, uint8_t b1)
{
    const uint8_t *at = emu_uc_host(e, addr, 2);
    return at && at[0] == b0 && at[1] == b1;
}

static void on_intr(uc_engine *uc, uint32_t intno, void *user)
{
    emu_uc *e = user;
    uint32_t eip = hook_eip(uc, e);
    if (intno == 0x80) {
        /* EIP is past the instruction here: the fault names `int 0x80` itself (CD 80). */
        stop_syscall(uc, e, "int 0x80", eip >= 2 && code_is(e, eip - 2, 0xCD, 0x80) ? eip - 2 : eip,
                     eip);
        return;
    }
    if (e->stop_kind == EMU_FAULT_NONE) {
        e->stop_kind = intno == 0 ? EMU_FAULT_DIVIDE : EMU_FAULT_INTERRUPT;
        e->intno = intno;
        /* Named at the instruction that raised it, as the native engine does: `int n`,
         * `int3` and `icebp` leave EIP past themselves. */
        if (eip >= 2 && code_is(e, eip - 2, 0xCD, (uint8_t)intno))
            eip -= 2;
        else if (eip >= 1 && (intno == 3 || intno == 1)) {
            const uint8_t *at = emu_uc_host(e, eip, 1), *before = emu_uc_host(e, eip - 1, 1);
            if (!(at && *at == (intno == 3 ? 0xCC : 0xF1)) && before &&
                *before == (intno == 3 ? 0xCC : 0xF1))
                eip -= 1;
        }
        e->stop_eip = eip;
    }
    /* A refused stop still ends in this fault: stop_kind outranks the rest. */
    uc_emu_stop(uc);
}

/*
 * Where `sysenter` (0F 34) or `syscall` (0F 05) is: EIP in the hook when it
 * points there (Unicorn 2.1.1 keeps it up to date before `syscall`), else
 * the running block's last two bytes (it does not before `sysenter`, which
 * ends its translated block: measured, EIP was stale there, the routine's
 * entry or an earlier block's start).
 */
static uint32_t sys_insn_eip(uc_engine *uc, emu_uc *e, uint8_t op)
{
    uint32_t eip = hook_eip(uc, e), last = e->block_addr + e->block_size - 2;
    if (code_is(e, eip, 0x0F, op)) return eip;
    return e->block_size >= 2 && code_is(e, last, 0x0F, op) ? last : eip;
}

static void on_sysenter(uc_engine *uc, void *user)
{
    uint32_t eip = sys_insn_eip(uc, user, 0x34);
    stop_syscall(uc, user, "sysenter", eip, eip);
}

static void on_syscall(uc_engine *uc, void *user)
{
    uint32_t eip = sys_insn_eip(uc, user, 0x05);
    stop_syscall(uc, user, "syscall", eip, eip);
}

static bool on_insn_invalid(uc_engine *uc, void *user)
{
    emu_uc *e = user;
    if (e->stop_kind == EMU_FAULT_NONE) {
        e->stop_eip = hook_eip(uc, e);
        e->stop_kind = EMU_FAULT_INVALID_INSN;
        /* ICEBP (F1): the hardware raises #DB (interrupt 1) there, as the native engine
         * reports; this emulator takes it for an invalid opcode. */
        if (code_is1(e, e->stop_eip, 0xF1)) {
            e->stop_kind = EMU_FAULT_INTERRUPT;
            e->intno = 1;
        }
    }
    return false;
}

int emu_uc_install_hooks(emu_uc *e, ff_error *err)
{
    uc_err ue;
    if ((ue = uc_hook_add(e->uc, &e->hooks[0], UC_HOOK_BLOCK, (void *)on_block, e, 1, 0)) ||
        (ue = uc_hook_add(e->uc, &e->hooks[1], UC_HOOK_MEM_INVALID, (void *)on_mem_invalid, e, 1,
                          0)) ||
        (ue = uc_hook_add(e->uc, &e->hooks[2], UC_HOOK_INTR, (void *)on_intr, e, 1, 0)) ||
        (ue = uc_hook_add(e->uc, &e->hooks[3], UC_HOOK_INSN_INVALID, (void *)on_insn_invalid, e, 1,
                          0)) ||
        (ue = uc_hook_add(e->uc, &e->hooks[4], UC_HOOK_INSN, (void *)on_sysenter, e, 1, 0,
                          UC_X86_INS_SYSENTER)) ||
        (ue = uc_hook_add(e->uc, &e->hooks[5], UC_HOOK_INSN, (void *)on_syscall, e, 1, 0,
                          UC_X86_INS_SYSCALL)))
        return ff_error_set(err, FF_E_EMU, NULL, -1, "adding a hook: %s", uc_strerror(ue));
    /* Hooks added after code was translated may not fire: drop any translated
     * code of the image. Not uc_ctl_flush_tlb: in Unicorn 2.0.1 a full flush
     * (tb_flush) zeroes the whole 1 GiB code buffer, 2.8 s and 1 GiB of RSS
     * (measured); removing the image's range costs microseconds. */
    if ((ue = uc_ctl_remove_cache(e->uc, (uint64_t)e->image_base,
                                  (uint64_t)e->image_base + e->image_size)))
        return ff_error_set(err, FF_E_EMU, NULL, -1, "dropping translated code: %s",
                            uc_strerror(ue));
    if (blocks_grow(e) != 0) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    return 0;
}

/* The instruction at eip as text in name ("" when it cannot be decoded); 1 when decoded. */
static int insn_text(emu_uc *e, uint32_t eip, char *name, size_t len)
{
    name[0] = 0;
    const uint8_t *p = emu_uc_host(e, eip, 1);
    if (!p) return 0;
    uint8_t b[16];
    size_t got = 0;
    for (; got < sizeof b && (p = emu_uc_host(e, eip + (uint32_t)got, 1)); got++)
        b[got] = *p;
    const uint8_t *code = b;
    uint64_t a = eip;
    if (!cs_disasm_iter(e->cs, &code, &got, &a, e->insn)) return 0;
    snprintf(name, len, "%.16s%s%.60s", e->insn->mnemonic, e->insn->op_str[0] ? " " : "",
             e->insn->op_str);
    return 1;
}

/* 1 when the instruction at eip leaves the guest's flat segments (guest.h); its text in name. */
static int segment_insn(emu_uc *e, uint32_t eip, char *name, size_t len)
{
    return insn_text(e, eip, name, len) &&
           emu_guest_segment_insn(e->insn->mnemonic, e->insn->op_str);
}

/* ---- classifying how a call ended ----------------------------------------- */

static emu_fault_kind kind_of_uc_err(uc_err ue)
{
    switch (ue) {
    case UC_ERR_READ_UNMAPPED:
        return EMU_FAULT_READ_UNMAPPED;
    case UC_ERR_WRITE_UNMAPPED:
        return EMU_FAULT_WRITE_UNMAPPED;
    case UC_ERR_FETCH_UNMAPPED:
        return EMU_FAULT_FETCH_UNMAPPED;
    case UC_ERR_READ_PROT:
        return EMU_FAULT_READ_PROT;
    case UC_ERR_WRITE_PROT:
        return EMU_FAULT_WRITE_PROT;
    case UC_ERR_FETCH_PROT:
        return EMU_FAULT_FETCH_PROT;
    case UC_ERR_INSN_INVALID:
        return EMU_FAULT_INVALID_INSN;
    case UC_ERR_EXCEPTION:
        return EMU_FAULT_INTERRUPT;
    default:
        return EMU_FAULT_EMU;
    }
}

static void describe_memory(emu_uc *e, emu_fault *f)
{
    const char *what =
        f->kind == EMU_FAULT_READ_UNMAPPED || f->kind == EMU_FAULT_READ_PROT     ? "read of"
        : f->kind == EMU_FAULT_WRITE_UNMAPPED || f->kind == EMU_FAULT_WRITE_PROT ? "write of"
                                                                                 : "fetch of";
    const char *where = f->kind == EMU_FAULT_READ_PROT || f->kind == EMU_FAULT_WRITE_PROT ||
                                f->kind == EMU_FAULT_FETCH_PROT
                            ? "protected"
                            : "unmapped";
    if (f->kind == EMU_FAULT_FETCH_UNMAPPED || f->kind == EMU_FAULT_FETCH_PROT)
        snprintf(f->detail, sizeof f->detail,
                 "jump to %s address 0x%x (last block at 0x%x, return address on the stack 0x%x)",
                 where, f->addr, e->block_addr, f->caller);
    else
        snprintf(f->detail, sizeof f->detail,
                 "%s %d bytes at %s address 0x%x by the instruction "
                 "at 0x%x",
                 what, e->mem_size, where, f->addr, f->eip);
}

static void describe(emu_uc *e, emu_fault *f, uint32_t esp_expected)
{
    const pe_import *imp;
    char insn[96];
    switch (f->kind) {
    case EMU_FAULT_IMPORT:
        imp = emu_guest_trap_import(e->pe, f->addr);
        if (!imp) break;
        snprintf(f->import_dll, sizeof f->import_dll, "%s", imp->dll);
        snprintf(f->import_name, sizeof f->import_name, "%s", imp->name);
        snprintf(f->detail, sizeof f->detail, "call of %s!%s (IAT slot 0x%x) from 0x%x", imp->dll,
                 imp->name, imp->slot, f->caller);
        f->addr = imp->slot;
        break;
    case EMU_FAULT_BUDGET:
        snprintf(f->detail, sizeof f->detail,
                 "more than %llu instructions executed; stopped at 0x%x",
                 (unsigned long long)e->budget, f->eip);
        break;
    case EMU_FAULT_DIVIDE:
        snprintf(f->detail, sizeof f->detail, "divide error (#DE) at 0x%x", f->eip);
        break;
    case EMU_FAULT_INTERRUPT:
        emu_guest_interrupt_detail(f, e->intno, insn_text(e, f->eip, insn, sizeof insn) ? insn
                                                                                          : NULL);
        break;
    case EMU_FAULT_INVALID_INSN:
        if (e->hlt)
            emu_guest_privileged_detail(f, "hlt");
        else
            snprintf(f->detail, sizeof f->detail, "invalid instruction at 0x%x", f->eip);
        break;
    case EMU_FAULT_SYSCALL:
        snprintf(f->detail, sizeof f->detail,
                 "system call %u (i386, EAX) by `%s` at 0x%x from the original's code: refused",
                 e->sys_eax, e->sys_insn ? e->sys_insn : "?", f->eip);
        break;
    case EMU_FAULT_STACK:
    case EMU_FAULT_SCRATCH:
        emu_guest_return_detail(f, esp_expected);
        break;
    case EMU_FAULT_NONE:
    case EMU_FAULT_EMU:
    case EMU_FAULT__COUNT:
        break;
    default:
        describe_memory(e, f);
    }
}

/* Appends to f->detail (cut at its size). */
static void add_detail(emu_fault *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_detail(emu_fault *f, const char *fmt, ...)
{
    size_t n = strlen(f->detail);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail + n, sizeof f->detail - n, fmt, ap);
    va_end(ap);
}

/* A #GP, #NP, #SS or #TS raised by a far transfer or segment load: a SEGMENT fault. */
static void segment_fault(emu_uc *e, emu_fault *f)
{
    char insn[96];
    if (f->kind != EMU_FAULT_INTERRUPT ||
        !(e->intno == 13 || e->intno == 11 || e->intno == 12 || e->intno == 10) ||
        !segment_insn(e, f->eip, insn, sizeof insn))
        return;
    f->kind = EMU_FAULT_SEGMENT;
    snprintf(f->detail, sizeof f->detail,
             "`%s` at 0x%x: a far transfer or segment load the original's code may not make "
             "(CPU exception %u)",
             insn, f->eip, e->intno);
}

/*
 * The segment registers after a call: 0 when the guest left them as set (flat data may
 * also be Linux's selector 0x2B), else which one it changed (1 DS, 2 ES, 3 SS, 4 GS) with
 * its selector in *val. Every one is set again when any changed, CS included.
 */
static int segments_after(emu_uc *e, uint32_t *val)
{
    static const int ids[] = {UC_X86_REG_CS, UC_X86_REG_DS, UC_X86_REG_ES, UC_X86_REG_SS,
                              UC_X86_REG_GS};
    uint32_t v[5] = {0};
    void *p[5] = {&v[0], &v[1], &v[2], &v[3], &v[4]};
    if (uc_reg_read_batch(e->uc, (int *)ids, p, 5) != UC_ERR_OK) return 0;
    int changed = 0;
    for (int i = 1; i < 5; i++)
        if ((v[i] & 0xFFFF) != EMU_UC_SEL_DATA && (v[i] & 0xFFFF) != EMU_UC_SEL_LINUX_DATA) {
            changed = i;
            *val = v[i] & 0xFFFF;
        }
    if (changed || (v[0] & 0xFFFF) != EMU_UC_SEL_CODE) (void)emu_uc_segments(e);
    return changed;
}

/* Fills f for kind; uc_detail is used for EMU faults. */
static void fill_fault(emu_uc *e, emu_fault *f, emu_fault_kind kind, uint32_t routine,
                       uint32_t esp_expected, const char *uc_detail)
{
    void *ptrs[EMU__NREGS];
    memset(f, 0, sizeof *f);
    for (int i = 0; i < EMU__NREGS; i++)
        ptrs[i] = &f->regs[i];
    uc_err regs_ue = uc_reg_read_batch(e->uc, (int *)all_regs, ptrs, EMU__NREGS);
    if (regs_ue != UC_ERR_OK) memset(f->regs, 0, sizeof f->regs);
    /* Out of budget: the registers where it ran out, not where the engine noticed. */
    if (kind == EMU_FAULT_BUDGET && e->stop_kind == kind && e->have_stop_regs) {
        memcpy(f->regs, e->stop_regs, sizeof f->regs);
        regs_ue = UC_ERR_OK;
    }
    f->kind = kind;
    f->routine = routine;
    f->eip = f->regs[EMU_EIP];
    if (e->stop_kind != EMU_FAULT_NONE && e->stop_kind == kind) f->eip = e->stop_eip;
    if (kind == EMU_FAULT_SYSCALL && e->stop_kind == kind) f->regs[EMU_EIP] = e->sys_reg_eip;
    f->addr = e->mem_seen ? e->mem_addr : 0;
    const uint8_t *sp = emu_uc_host(e, f->regs[EMU_ESP], 4);
    f->caller = sp ? le_u32(sp) : 0;
    if (kind == EMU_FAULT_FETCH_UNMAPPED && emu_guest_trap_import(e->pe, f->addr)) f->kind = EMU_FAULT_IMPORT;
    if (kind == EMU_FAULT_SCRATCH && e->cursor) f->addr = le_u32(e->cursor);
    if (kind == EMU_FAULT_EMU)
        snprintf(f->detail, sizeof f->detail, "%s", uc_detail);
    else
        describe(e, f, esp_expected);
    segment_fault(e, f);
    if (regs_ue != UC_ERR_OK) add_detail(f, " (registers unreadable: %s)", uc_strerror(regs_ue));
    if (kind != EMU_FAULT_STACK && kind != EMU_FAULT_SCRATCH && kind != EMU_FAULT_SEGMENT &&
        emu_guest_return_page(f))
        return;
    emu_uc_fault_disasm(e, f);
}

int emu_uc_call(emu_uc *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
                emu_fault *fault)
{
    if (e->lost[0]) return emu_fault_refuse(fault, addr, "engine unusable: %s", e->lost);
    if (nargs > EMU_MAX_ARGS)
        return emu_fault_refuse(fault, addr, "%u arguments (at most %d)", nargs, EMU_MAX_ARGS);
    /* A zeroed stack and scratch for every call (see the comment at the top). */
    uint32_t esp0 = emu_guest_call_frame(e->stack, e->stack_hot, e->scratch, e->scratch_hot,
                                         e->cursor, args, nargs);

    /* Registers zeroed; the x87 stack empty (all tags empty, TOP 0, no
     * exception flags) under the profile's control word. */
    static const int set_ids[] = {UC_X86_REG_EAX,  UC_X86_REG_ECX,  UC_X86_REG_EDX,
                                  UC_X86_REG_EBX,  UC_X86_REG_EBP,  UC_X86_REG_ESI,
                                  UC_X86_REG_EDI,  UC_X86_REG_ESP,  UC_X86_REG_EFLAGS,
                                  UC_X86_REG_FPCW, UC_X86_REG_FPSW, UC_X86_REG_FPTAG};
    uint32_t zero = 0, flags = EMU_EFLAGS_INIT;
    uint16_t fpcw = e->profile.x87_control, fpsw = 0, fptag = 0xFFFF;
    void *set_vals[] = {&zero, &zero, &zero,  &zero, &zero, &zero,
                        &zero, &esp0, &flags, &fpcw, &fpsw, &fptag};
    uc_err ue = uc_reg_write_batch(e->uc, (int *)set_ids, set_vals, 12);
    if (ue != UC_ERR_OK)
        return emu_fault_refuse(fault, addr, "setting the registers for the call: %s",
                                uc_strerror(ue));
    e->insns = 0;
    e->stop_kind = EMU_FAULT_NONE;
    e->have_stop_regs = 0;
    e->mem_seen = 0;
    e->block_addr = addr;
    e->block_size = 0;

    ue = uc_emu_start(e->uc, addr, EMU_UNTIL, 0, 0);

    uint32_t r_eax = 0, r_esp = 0, r_eip = 0;
    static const int get_ids[] = {UC_X86_REG_EAX, UC_X86_REG_ESP, UC_X86_REG_EIP};
    void *get_vals[] = {&r_eax, &r_esp, &r_eip};
    uc_err read_ue = uc_reg_read_batch(e->uc, (int *)get_ids, get_vals, 3);
    if (read_ue != UC_ERR_OK) r_eax = r_esp = r_eip = 0;
    *eax = r_eax;
    emu_fault_kind kind = EMU_FAULT_NONE;
    char why[128] = "";
    if (e->stop_kind != EMU_FAULT_NONE)
        kind = e->stop_kind;
    else if (ue != UC_ERR_OK) {
        kind = kind_of_uc_err(ue);
        snprintf(why, sizeof why, "Unicorn stopped: %s", uc_strerror(ue));
    } else if (read_ue != UC_ERR_OK) {
        /* Where the call ended is unknown: no verdict on its return. */
        kind = EMU_FAULT_EMU;
        snprintf(why, sizeof why, "reading the registers after the call: %s", uc_strerror(read_ue));
    } else if (r_eip != EMU_SENTINEL + 1 && r_eip >= 1 && !(r_eip > EMU_SENTINEL &&
                                                           r_eip <= EMU_SENTINEL + EMU_PAGE) &&
               code_is1(e, r_eip - 1, 0xF4)) {
        /* A HLT of the routine's: on the hardware user code may not run it (#GP). */
        kind = e->stop_kind = EMU_FAULT_INVALID_INSN;
        e->stop_eip = r_eip - 1;
        e->hlt = 1;
    } else if (r_eip != EMU_SENTINEL + 1) {
        kind = EMU_FAULT_EMU;
        snprintf(why, sizeof why,
                 "emulation stopped at 0x%x instead of the return sentinel "
                 "(a HLT in the routine?)",
                 r_eip);
    } else if (r_esp != esp0 + 4)
        kind = EMU_FAULT_STACK;
    else if (e->cursor && le_u32(e->cursor) != EMU_SCRATCH_BASE)
        kind = EMU_FAULT_SCRATCH;
    uint32_t segval = 0;
    int segreg = segments_after(e, &segval);
    if (kind == EMU_FAULT_NONE && segreg) kind = EMU_FAULT_SEGMENT;
    if (kind == EMU_FAULT_NONE) {
        fault->kind = EMU_FAULT_NONE;
        return 0;
    }
    fill_fault(e, fault, kind, addr, esp0 + 4, why);
    if (kind == EMU_FAULT_SEGMENT && segreg) {
        static const char *const names[5] = {"CS", "DS", "ES", "SS", "GS"};
        snprintf(fault->detail, sizeof fault->detail,
                 "the routine returned with %s = 0x%x, not the flat data segment it was called "
                 "with",
                 names[segreg], segval);
    }
    e->hlt = 0;
    if (emu_uc_restore(e) != 0) add_detail(fault, "; then %s", e->lost);
    return -1;
}

static int is_data_fault(emu_fault_kind k)
{
    return k == EMU_FAULT_READ_UNMAPPED || k == EMU_FAULT_WRITE_UNMAPPED ||
           k == EMU_FAULT_READ_PROT || k == EMU_FAULT_WRITE_PROT;
}

/*
 * A read or write fault is reported at the start of its translated block:
 * the call is replayed once from the same inputs (put back by rw) with
 * exact EIPs switched on, and its fault replaces the first when it is the
 * same fault (same kind, same address), now with the faulting instruction.
 */
int emu_uc_call_rewind(emu_uc *e, uint32_t addr, const uint32_t *args, unsigned nargs,
                       uint32_t *eax, emu_fault *fault, const emu_rewind *rw)
{
    int rc = emu_uc_call(e, addr, args, nargs, eax, fault);
    if (rc == 0 || !rw || !rw->fn || !is_data_fault(fault->kind)) return rc;
    rw->fn(rw->arg);
    if (emu_uc_pc_sync(e, 1, NULL) < 0) return rc;
    emu_fault again;
    uint32_t eax2;
    if (emu_uc_call(e, addr, args, nargs, &eax2, &again) != 0 && again.kind == fault->kind &&
        again.addr == fault->addr)
        *fault = again;
    /* Left on when refused (slower, same results); the next replay retries. */
    (void)emu_uc_pc_sync(e, 0, NULL);
    return rc;
}

int emu_uc_x87_st0(emu_uc *e, double *value, uint8_t *raw)
{
    uint16_t fpsw = 0, fptag = 0;
    uc_reg_read(e->uc, UC_X86_REG_FPSW, &fpsw);
    uc_reg_read(e->uc, UC_X86_REG_FPTAG, &fptag);
    unsigned top = (fpsw >> 11) & 7;
    if (((fptag >> (2 * top)) & 3) == 3) return -1;
    uint8_t st0[16] = {0};
    uc_reg_read(e->uc, UC_X86_REG_ST0, st0);
    *value = emu_guest_x87_double(st0);
    if (raw) memcpy(raw, st0, 10);
    return 0;
}
