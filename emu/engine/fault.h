/*
 * emu/engine/fault.h: what an emulated call that did not return normally leaves
 * behind: the kind of fault, where (EIP, address touched), the registers,
 * the import reached (for import traps) and Capstone disassembly of the
 * instructions around EIP. A fault is a value to report, never a crash.
 */
#ifndef FF8_EMU_ENGINE_FAULT_H
#define FF8_EMU_ENGINE_FAULT_H

#include <stdint.h>

/* kind, JSON name, message */
#define EMU_FAULT_MAP(XX)                                                      \
    XX(NONE, "none", "no fault")                                               \
    XX(READ_UNMAPPED, "read_unmapped", "read of unmapped memory")              \
    XX(WRITE_UNMAPPED, "write_unmapped", "write to unmapped memory")           \
    XX(FETCH_UNMAPPED, "fetch_unmapped", "jump to unmapped memory")            \
    XX(READ_PROT, "read_prot", "read of protected memory")                     \
    XX(WRITE_PROT, "write_prot", "write to protected memory")                  \
    XX(FETCH_PROT, "fetch_prot", "execution of non-executable memory")         \
    XX(INVALID_INSN, "invalid_insn", "invalid instruction")                    \
    XX(DIVIDE, "divide", "divide error")                                       \
    XX(INTERRUPT, "interrupt", "unexpected interrupt")                         \
    XX(IMPORT, "import", "call of an imported function")                       \
    XX(BUDGET, "budget", "instruction budget exhausted (endless loop?)")       \
    XX(SCRATCH, "scratch", "Field_Alloc scratch not released")                 \
    XX(STACK, "stack", "stack pointer not restored")                           \
    XX(SYSCALL, "syscall", "system call from the original's code")             \
    XX(SEGMENT, "segment", "the original's code left its code segment")        \
    XX(ENGINE_PROCESS, "engine_process", "the engine process died or answered garbage") \
    XX(EMU, "emu", "emulator error")

typedef enum emu_fault_kind {
#define EMU_FAULT_ENUM(name, json, msg) EMU_FAULT_##name,
    EMU_FAULT_MAP(EMU_FAULT_ENUM)
#undef EMU_FAULT_ENUM
        EMU_FAULT__COUNT
} emu_fault_kind;

/* Register order of emu_fault.regs. */
enum { EMU_EAX, EMU_ECX, EMU_EDX, EMU_EBX, EMU_ESP, EMU_EBP, EMU_ESI, EMU_EDI, EMU_EIP,
       EMU_EFLAGS, EMU__NREGS };

#define EMU_DISASM_MAX 2048

typedef struct emu_fault {
    emu_fault_kind kind;
    uint32_t routine;       /* address of the routine that was called */
    uint32_t eip;           /* where it stopped */
    uint32_t addr;          /* address touched (memory faults, import slot) */
    uint32_t regs[EMU__NREGS];
    uint32_t caller;        /* return address on the stack (import calls) */
    char import_dll[64];    /* IMPORT: "KERNEL32.dll" */
    char import_name[128];  /* IMPORT: "GetTickCount" or "#ordinal" */
    char detail[256];       /* one sentence */
    char disasm[EMU_DISASM_MAX]; /* "0x5092a0: mov eax, dword ptr [esp + 4]\n..."; '>' marks EIP */
} emu_fault;

const char *emu_fault_name(emu_fault_kind kind);
const char *emu_fault_message(emu_fault_kind kind);

/*
 * Fills f as an EMU fault of routine (everything else zero) whose detail
 * is the formatted sentence: a call that could not be made or judged.
 * Returns -1, for `return emu_fault_refuse(fault, addr, "...");`.
 */
int emu_fault_refuse(emu_fault *f, uint32_t routine, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
