/*
 * emu/engine/fault.c: fault kind names and messages (from EMU_FAULT_MAP) and
 * refusals, the same for every engine. The disassembly attached to a fault
 * is each engine's (emu/engine/unicorn/uc_fault.c). No printing, no exit.
 */
#include "emu/engine/fault.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const fault_names[] = {
#define EMU_FAULT_NAME(name, json, msg) json,
    EMU_FAULT_MAP(EMU_FAULT_NAME)
#undef EMU_FAULT_NAME
};

static const char *const fault_messages[] = {
#define EMU_FAULT_MSG(name, json, msg) msg,
    EMU_FAULT_MAP(EMU_FAULT_MSG)
#undef EMU_FAULT_MSG
};

const char *emu_fault_name(emu_fault_kind kind)
{
    if ((unsigned)kind >= EMU_FAULT__COUNT) return "?";
    return fault_names[kind];
}

const char *emu_fault_message(emu_fault_kind kind)
{
    if ((unsigned)kind >= EMU_FAULT__COUNT) return "unknown fault";
    return fault_messages[kind];
}

int emu_fault_refuse(emu_fault *f, uint32_t routine, const char *fmt, ...)
{
    memset(f, 0, sizeof *f);
    f->kind = EMU_FAULT_EMU;
    f->routine = routine;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
    return -1;
}
