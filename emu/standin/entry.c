/*
 * emu/standin/entry.c: the PE entry point. It exists because a PE needs
 * one; nothing ever runs it (the emulator calls routines directly).
 */
#include "emu/standin/standin.h"

u32 standin_entry(void);

u32 standin_entry(void)
{
    return 0;
}
