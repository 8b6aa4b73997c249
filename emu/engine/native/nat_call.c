/*
 * emu/engine/native/nat_call.c: one call of the original's code on the CPU
 * (emu/engine/emu.h's ABI: a zeroed stack and scratch, cdecl arguments, the
 * sentinel return, EAX, the Field_Alloc cursor check) and the fault record
 * of a call that did not come back normally: the same kinds, addresses and
 * Capstone disassembly the Unicorn engine gives, from what the signal said.
 * Nothing here prints or exits.
 */
#define _GNU_SOURCE
#include "emu/engine/native/nat_internal.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/le.h"

#define DIS_AFTER 4
#define DIS_BEFORE 16
#define DIS_SPAN 2048

static void add_detail(emu_fault *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_detail(emu_fault *f, const char *fmt, ...)
{
    size_t n = strlen(f->detail);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail + n, sizeof f->detail - n, fmt, ap);
    va_end(ap);
}

/* Guest bytes at addr the guest could read, up to len. */
static size_t read_guest(emu_nat *e, uint32_t addr, uint8_t *buf, size_t len)
{
    size_t got = 0;
    while (got < len && nat_readable(e, addr + (uint32_t)got, 1)) {
        uint32_t a = addr + (uint32_t)got;
        size_t chunk = NAT_PAGE - (a & (NAT_PAGE - 1));
        if (chunk > len - got) chunk = len - got;
        const uint8_t *p = nat_host(e, a, (uint32_t)chunk);
        if (!p) break;
        memcpy(buf + got, p, chunk);
        got += chunk;
    }
    return got;
}

/*
 * The disassembly: from the routine's entry (when EIP lies less than
 * DIS_SPAN bytes past it; the last DIS_BEFORE lines kept) or from EIP,
 * through DIS_AFTER instructions past EIP, EIP marked '>'. A jump far out of
 * the routine (a fetch fault whose return address lies in it) shows the way
 * out instead, as Unicorn's last block does: the routine up to that return
 * address (its call), then EIP's note.
 */
static void disasm(emu_nat *e, emu_fault *f)
{
    uint8_t buf[DIS_SPAN + 64];
    char lines[DIS_BEFORE][224];
    unsigned nbefore = 0, first = 0;
    int dropped = 0;
    uint32_t eip = f->eip;
    uint32_t start = f->routine <= eip && eip - f->routine < DIS_SPAN ? f->routine : eip;
    size_t want = (size_t)(eip - start) + 64;
    uint32_t stop = 0; /* nonzero: decode [start, stop) only, lines before EIP */
    int fetch = f->kind == EMU_FAULT_FETCH_UNMAPPED || f->kind == EMU_FAULT_FETCH_PROT;
    if (start == eip && fetch && f->caller > f->routine && f->caller - f->routine < DIS_SPAN) {
        start = f->routine;
        stop = f->caller;
        want = (size_t)(stop - start);
    }
    size_t got = read_guest(e, start, buf, want);
    const uint8_t *code = buf;
    size_t left = got, used = 0;
    uint64_t a = start;
    int seen = 0, after = 0;
    char tail[EMU_DISASM_MAX] = "";
    size_t tlen = 0;
    while (left && cs_disasm_iter(e->cs, &code, &left, &a, e->insn)) {
        const cs_insn *in = e->insn;
        if (stop && in->address >= stop) break;
        if (!stop && !seen && in->address > eip) {
            tlen += (size_t)snprintf(tail + tlen, sizeof tail - tlen,
                                     "  (EIP falls inside the previous instruction)\n");
            seen = 1;
        }
        int at = in->address == eip;
        char line[224];
        snprintf(line, sizeof line, "%c0x%llx: %s%s%s\n", at ? '>' : ' ',
                 (unsigned long long)in->address, in->mnemonic, in->op_str[0] ? " " : "",
                 in->op_str);
        if (at || seen) {
            size_t n = strlen(line);
            if (tlen + n < sizeof tail) {
                memcpy(tail + tlen, line, n + 1);
                tlen += n;
            }
        } else {
            unsigned slot = (first + nbefore) % DIS_BEFORE;
            if (nbefore == DIS_BEFORE) {
                first = (first + 1) % DIS_BEFORE;
                dropped = 1;
            } else {
                nbefore++;
            }
            memcpy(lines[slot], line, sizeof line);
        }
        if (at) seen = 1;
        if (seen && ++after > DIS_AFTER) break;
    }
    uint8_t b;
    int readable = stop ? read_guest(e, eip, &b, 1) == 1 : got > (size_t)(eip - start);
    if (!seen && tlen < sizeof tail)
        snprintf(tail + tlen, sizeof tail - tlen, ">0x%x: %s\n", eip,
                 readable ? "(could not be decoded)" : "(not mapped)");
    if (dropped) used += (size_t)snprintf(f->disasm, sizeof f->disasm, "  ...\n");
    for (unsigned i = 0; i < nbefore && used < sizeof f->disasm; i++)
        used += (size_t)snprintf(f->disasm + used, sizeof f->disasm - used, "%s",
                                 lines[(first + i) % DIS_BEFORE]);
    if (used < sizeof f->disasm) snprintf(f->disasm + used, sizeof f->disasm - used, "%s", tail);
}

/*
 * `sysenter` (or `syscall`) whose caller's stack, read through EBP or ESP, is not
 * readable: the kernel refuses the call before it reads its number or asks the
 * filter (EAX becomes -EFAULT) and returns to where the 32-bit vDSO's landing pad
 * would be, which it places from the process's vDSO: in a 64-bit process, the
 * low half of an address in the 64-bit vDSO, unmapped in the guest. 1 when the
 * fetch fault x is that return; f becomes the system call, where not known.
 */
static int kernel_refused(const nat_exit *x, emu_fault *f)
{
    if (!nat_kernel_landing(x->addr) || x->regs[EMU_EAX] != (uint32_t)-EFAULT) return 0;
    f->kind = EMU_FAULT_SYSCALL;
    f->eip = 0;
    f->addr = 0;
    f->regs[EMU_EIP] = 0;
    snprintf(f->detail, sizeof f->detail,
             "system call by `sysenter` or `syscall` from the original's code: refused by the "
             "kernel, its number never read (EBP or ESP, the caller's stack, not readable); "
             "where is not known (no return address kept)");
    return 1;
}

static void memory_fault(emu_nat *e, const nat_exit *x, emu_fault *f)
{
    int fetch = (x->err & 0x10) != 0, write = (x->err & 2) != 0;
    int prot = x->code == SEGV_ACCERR;
    f->addr = x->addr;
    f->kind = fetch   ? (prot ? EMU_FAULT_FETCH_PROT : EMU_FAULT_FETCH_UNMAPPED)
              : write ? (prot ? EMU_FAULT_WRITE_PROT : EMU_FAULT_WRITE_UNMAPPED)
                      : (prot ? EMU_FAULT_READ_PROT : EMU_FAULT_READ_UNMAPPED);
    const pe_import *imp = fetch ? emu_guest_trap_import(e->pe, x->addr) : NULL;
    if (imp) {
        f->kind = EMU_FAULT_IMPORT;
        snprintf(f->import_dll, sizeof f->import_dll, "%s", imp->dll);
        snprintf(f->import_name, sizeof f->import_name, "%s", imp->name);
        snprintf(f->detail, sizeof f->detail, "call of %s!%s (IAT slot 0x%x) from 0x%x", imp->dll,
                 imp->name, imp->slot, f->caller);
        f->addr = imp->slot;
        return;
    }
    if (fetch && !prot && kernel_refused(x, f)) return;
    const char *where = prot ? "protected" : "unmapped";
    if (fetch)
        snprintf(f->detail, sizeof f->detail,
                 "jump to %s address 0x%x (return address on the stack 0x%x)", where, f->addr,
                 f->caller);
    else
        snprintf(f->detail, sizeof f->detail, "%s %s address 0x%x by the instruction at 0x%x",
                 write ? "write to" : "read of", where, f->addr, f->eip);
}

/* The instruction at eip as text in name ("" when it cannot be decoded); 1 when decoded. */
static int insn_text(emu_nat *e, uint32_t eip, char *name, size_t len)
{
    uint8_t b[16];
    name[0] = 0;
    size_t got = read_guest(e, eip, b, sizeof b);
    const uint8_t *code = b;
    uint64_t a = eip;
    if (!got || !cs_disasm_iter(e->cs, &code, &got, &a, e->insn)) return 0;
    snprintf(name, len, "%.16s%s%.60s", e->insn->mnemonic, e->insn->op_str[0] ? " " : "",
             e->insn->op_str);
    return 1;
}

/* #GP: an interrupt gate the guest may not use, a privileged instruction, or a HLT. */
static void protection_fault(emu_nat *e, const nat_exit *x, emu_fault *f)
{
    char insn[96];
    if ((x->err & 3) == 2) {
        f->kind = EMU_FAULT_INTERRUPT;
        /* The vector: `int n`'s own operand where it is one (some CPUs' error codes give
         * the gate's byte offset in long mode's 16-byte IDT), else the error code's. */
        unsigned vec = (unsigned)(x->err >> 3);
        uint8_t b[2];
        if (read_guest(e, f->eip, b, 2) == 2 && b[0] == 0xCD) vec = b[1];
        insn_text(e, f->eip, insn, sizeof insn);
        emu_guest_interrupt_detail(f, vec, insn);
    } else if (f->eip >= EMU_SENTINEL && f->eip < EMU_SENTINEL + NAT_PAGE) {
        f->kind = EMU_FAULT_EMU;
        snprintf(f->detail, sizeof f->detail,
                 "stopped at 0x%x instead of the return sentinel (a jump into its page)", f->eip);
    } else {
        f->kind = EMU_FAULT_INVALID_INSN;
        insn_text(e, f->eip, insn, sizeof insn);
        emu_guest_privileged_detail(f, insn);
    }
}

/* The system-call instruction at addr ("int 0x80", "sysenter", "syscall"), or NULL. */
static const char *syscall_insn(emu_nat *e, uint32_t addr)
{
    uint8_t b[2];
    if (read_guest(e, addr, b, 2) != 2) return NULL;
    if (b[0] == 0xCD && b[1] == 0x80) return "int 0x80";
    if (b[0] == 0x0F && b[1] == 0x34) return "sysenter";
    if (b[0] == 0x0F && b[1] == 0x05) return "syscall";
    return NULL;
}

/*
 * SIGSYS: the filter refused an i386 system call. After `int 0x80` the CPU's
 * EIP is just past the instruction, which the record names as Unicorn's
 * does. `sysenter` and `syscall` from 32-bit code enter the kernel's fast
 * path, which keeps no return address (it sets EIP to the 32-bit vDSO's
 * landing pad, which a 64-bit process does not have): where is not known,
 * and the record's EIP is 0.
 */
static void refused_syscall(emu_nat *e, const nat_exit *x, emu_fault *f)
{
    const char *insn = x->rip < (1ull << 32) && f->eip >= 2 ? syscall_insn(e, f->eip - 2) : NULL;
    f->kind = EMU_FAULT_SYSCALL;
    if (insn) {
        f->eip -= 2;
        snprintf(f->detail, sizeof f->detail,
                 "system call %d (i386, EAX) by `%s` at 0x%x from the original's code: refused",
                 x->syscall_nr, insn, f->eip);
    } else {
        f->eip = 0;
        f->regs[EMU_EIP] = 0;
        snprintf(f->detail, sizeof f->detail,
                 "system call %d (i386, EAX) by `sysenter` or `syscall` from the original's "
                 "code: refused; where is not known (the kernel's fast entry keeps no return "
                 "address)",
                 x->syscall_nr);
    }
}

static const char *const segreg_names[5] = {"?", "DS", "ES", "SS", "GS"};

/* 1 when the instruction at eip moves to another code segment or loads a segment register. */
static int segment_insn(emu_nat *e, uint32_t eip, char *name, size_t len)
{
    return insn_text(e, eip, name, len) &&
           emu_guest_segment_insn(e->insn->mnemonic, e->insn->op_str);
}

/*
 * Leaving the guest's code segment (a far jump, call or return to 64-bit code or
 * any selector but the guest's) or its flat data segments: a SEGMENT fault. 1 when
 * x is one.
 */
static int segment_fault(emu_nat *e, const nat_exit *x, emu_fault *f)
{
    char insn[96];
    if (x->segment) {
        f->kind = EMU_FAULT_SEGMENT;
        uint64_t rip = x->rip;
        if (x->signo == SIGSYS)
            snprintf(f->detail, sizeof f->detail,
                     "the original's code left its code segment for selector 0x%x (64-bit code) "
                     "and made system call %d there (at 0x%llx): refused",
                     x->segment, x->syscall_nr, (unsigned long long)rip);
        else
            snprintf(f->detail, sizeof f->detail,
                     "the original's code left its code segment for selector 0x%x (64-bit code); "
                     "stopped at 0x%llx (signal %d)",
                     x->segment, (unsigned long long)rip, x->signo);
        if (rip >= ((uint64_t)1 << 32)) {
            /* A host address is never reported: the guest jumped into the host's code. */
            f->eip = 0;
            f->regs[EMU_EIP] = 0;
            snprintf(f->detail, sizeof f->detail,
                     "the original's code left its code segment for selector 0x%x (64-bit code) "
                     "and jumped into the host's code (signal %d there)",
                     x->segment, x->signo);
        }
        return 1;
    }
    if (x->signo == SIGSEGV && (x->trapno == 13 || x->trapno == 11 || x->trapno == 12 ||
                                x->trapno == 10)) {
        if (segment_insn(e, f->eip, insn, sizeof insn)) {
            f->kind = EMU_FAULT_SEGMENT;
            snprintf(f->detail, sizeof f->detail,
                     "`%s` at 0x%x: a far transfer or segment load the original's code may not "
                     "make (CPU exception %d)",
                     insn, f->eip, x->trapno);
            return 1;
        }
        if (x->trapno == 13 && (x->ds != NAT_SEL_DATA || x->es != NAT_SEL_DATA)) {
            f->kind = EMU_FAULT_SEGMENT;
            snprintf(f->detail, sizeof f->detail,
                     "memory access at 0x%x through a data segment the original's code changed "
                     "(DS 0x%x, ES 0x%x; the guest's is 0x%x)",
                     f->eip, x->ds, x->es, NAT_SEL_DATA);
            return 1;
        }
    }
    return 0;
}

static void classify(emu_nat *e, const nat_exit *x, emu_fault *f)
{
    if (segment_fault(e, x, f)) return;
    if (x->budget) {
        f->kind = EMU_FAULT_BUDGET;
        snprintf(f->detail, sizeof f->detail,
                 "more than %.0f ms of CPU time (the budget of %llu instructions); stopped at "
                 "0x%x, a place that is not exact (a CPU-time timer stopped the call)",
                 (double)e->budget_ns / 1e6, (unsigned long long)e->budget, f->eip);
        return;
    }
    switch (x->signo) {
    case SIGSEGV:
        if (x->trapno == 14)
            memory_fault(e, x, f);
        else if (x->trapno == 13)
            protection_fault(e, x, f);
        else {
            f->kind = EMU_FAULT_INTERRUPT;
            snprintf(f->detail, sizeof f->detail, "CPU exception %d at 0x%x", x->trapno, f->eip);
        }
        break;
    case SIGBUS:
        f->kind = EMU_FAULT_EMU;
        f->addr = x->addr;
        snprintf(f->detail, sizeof f->detail, "bus error at address 0x%x by the instruction at 0x%x",
                 x->addr, f->eip);
        break;
    case SIGILL:
        if (syscall_insn(e, f->eip)) {
            /* `sysenter` on AMD CPUs, `syscall` on Intel ones: no such instruction in
             * 32-bit code under a 64-bit kernel (#UD). A system call all the same. */
            f->kind = EMU_FAULT_SYSCALL;
            snprintf(f->detail, sizeof f->detail,
                     "system call %u (i386, EAX) by `%s` at 0x%x from the original's code: "
                     "refused (this CPU has no such instruction in 32-bit code under a 64-bit "
                     "kernel: invalid opcode)",
                     f->regs[EMU_EAX], syscall_insn(e, f->eip), f->eip);
            break;
        }
        f->kind = EMU_FAULT_INVALID_INSN;
        snprintf(f->detail, sizeof f->detail, "invalid instruction at 0x%x", f->eip);
        break;
    case SIGFPE:
        if (x->code == FPE_INTDIV || x->code == FPE_INTOVF) {
            f->kind = EMU_FAULT_DIVIDE;
            snprintf(f->detail, sizeof f->detail, "divide error (#DE) at 0x%x", f->eip);
        } else {
            f->kind = EMU_FAULT_INTERRUPT;
            snprintf(f->detail, sizeof f->detail,
                     "floating-point exception (unmasked by the routine) at 0x%x", f->eip);
        }
        break;
    case SIGTRAP: {
        /* Named at the instruction that raised it, as under Unicorn: `int3`, `int 3` and
         * `icebp` leave EIP past themselves. */
        uint8_t b[2];
        if (f->eip >= 2 && read_guest(e, f->eip - 2, b, 2) == 2 && b[0] == 0xCD &&
            b[1] == (uint8_t)x->trapno)
            f->eip -= 2;
        else if (f->eip >= 1 && read_guest(e, f->eip - 1, b, 1) == 1 &&
                 ((x->trapno == 3 && b[0] == 0xCC) || (x->trapno == 1 && b[0] == 0xF1)))
            f->eip -= 1;
        f->regs[EMU_EIP] = f->eip;
        f->kind = EMU_FAULT_INTERRUPT;
        char insn[96];
        insn_text(e, f->eip, insn, sizeof insn);
        emu_guest_interrupt_detail(f, (unsigned)x->trapno, insn);
        break;
    }
    case SIGSYS:
        refused_syscall(e, x, f);
        break;
    default:
        f->kind = EMU_FAULT_EMU;
        snprintf(f->detail, sizeof f->detail,
                 "the native engine could not run the call on this thread");
    }
}

static void fill_fault(emu_nat *e, const nat_exit *x, emu_fault *f, emu_fault_kind kind,
                       uint32_t routine, uint32_t esp_expected)
{
    memset(f, 0, sizeof *f);
    memcpy(f->regs, x->regs, sizeof f->regs);
    f->routine = routine;
    f->eip = x->regs[EMU_EIP];
    const uint8_t *sp = read_guest(e, f->regs[EMU_ESP], (uint8_t[4]){0}, 4) == 4
                            ? nat_host(e, f->regs[EMU_ESP], 4)
                            : NULL;
    f->caller = sp ? le_u32(sp) : 0;
    f->kind = kind;
    if (kind == EMU_FAULT_NONE)
        classify(e, x, f);
    else {
        if (kind == EMU_FAULT_SCRATCH) f->addr = le_u32(e->cursor);
        emu_guest_return_detail(f, esp_expected);
    }
    if (f->kind == EMU_FAULT_SYSCALL && f->eip == 0) return; /* where is not known */
    if (kind == EMU_FAULT_NONE && emu_guest_return_page(f)) return;
    disasm(e, f);
}

int nat_call(emu_nat *e, uint32_t addr, const uint32_t *args, unsigned nargs, uint32_t *eax,
             emu_fault *fault)
{
    if (e->lost[0]) return emu_fault_refuse(fault, addr, "engine unusable: %s", e->lost);
    if (nargs > EMU_MAX_ARGS)
        return emu_fault_refuse(fault, addr, "%u arguments (at most %d)", nargs, EMU_MAX_ARGS);
    uint32_t esp0 = emu_guest_call_frame(e->stack, e->stack_hot, e->scratch, e->scratch_hot,
                                         e->cursor, args, nargs);
    nat_exit *x = &e->last;
    nat_cpu_run(addr, esp0, e->profile.x87_control, x);
    *eax = x->regs[EMU_EAX];
    emu_fault_kind kind = EMU_FAULT_NONE;
    if (!x->faulted && x->segreg) {
        fill_fault(e, x, fault, EMU_FAULT_SEGMENT, addr, esp0 + 4);
        snprintf(fault->detail, sizeof fault->detail,
                 "the routine returned with %s = 0x%x, not the flat data segment it was called "
                 "with",
                 segreg_names[x->segreg], x->segval);
        nat_restore(e);
        return -1;
    }
    if (!x->faulted) {
        if (x->regs[EMU_ESP] != esp0 + 4)
            kind = EMU_FAULT_STACK;
        else if (e->cursor && le_u32(e->cursor) != EMU_SCRATCH_BASE)
            kind = EMU_FAULT_SCRATCH;
        else {
            fault->kind = EMU_FAULT_NONE;
            return 0;
        }
    }
    fill_fault(e, x, fault, kind, addr, esp0 + 4);
    if (x->faulted && nat_restore(e) != 0) add_detail(fault, "; then %s", e->lost);
    return -1;
}

int nat_x87_st0(emu_nat *e, double *value, uint8_t *raw)
{
    const uint8_t *fx = e->last.fx;
    unsigned fsw = fx[2] | (unsigned)fx[3] << 8, ftw = fx[4];
    unsigned top = (fsw >> 11) & 7;
    if (!((ftw >> top) & 1)) return -1;
    *value = emu_guest_x87_double(fx + 32);
    if (raw) memcpy(raw, fx + 32, 10);
    return 0;
}
