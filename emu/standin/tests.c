/*
 * emu/standin/tests.c: routines that misbehave on purpose, one way each,
 * so the emulator's fault capture can be tested without the game: a wild
 * jump, an unmapped read, an endless loop, an import call, a divide error
 * and a Field_Alloc never released; and one that returns its result on the
 * x87 stack, for the emulator's reading of ST(0). None of them is an
 * engine routine.
 */
#include "emu/standin/standin.h"

__declspec(dllimport) unsigned long __stdcall GetTickCount(void);

/* Calls 0x0BAD0000 through a register (no mapping there). */
u32 Test_WildJump(void)
{
    u32 (*volatile target)(void) = (u32(*)(void))0x0BAD0000u;

    return target();
}

/* Reads 0xDEAD0000 (no mapping there). */
u32 Test_ReadUnmapped(void)
{
    return standin_unmapped;
}

/* Never returns. */
u32 Test_LoopForever(void)
{
    for (;;) {
    }
}

/* Calls KERNEL32.dll!GetTickCount through the import address table. */
u32 Test_CallImport(void)
{
    return (u32)GetTickCount();
}

/* Divides by a zero the compiler cannot see: idiv raises #DE. */
u32 Test_DivideByZero(void)
{
    volatile s32 zero = 0;

    return (u32)(1000 / zero);
}

/* Takes 16 bytes of scratch and returns without releasing them. */
u32 Test_LeakScratch(void)
{
    Field_Alloc(16);
    return 0;
}

/* Returns n converted to a double in ST(0) (fild: no constant needed). */
double Test_X87Result(int n)
{
    return (double)n;
}
