/*
 * emu/standin/anim_halve.c: Anim_Halve (0x508300), the SLOW half-step of a
 * delta as a routine of its own. Only standin_calls.exe has it (macro
 * FF_VARIANT_CALLS): its Battle_ReadAnimation calls it, one direct call
 * more than the profile lists; every other build links an empty object.
 */
#include "emu/standin/standin.h"

#ifdef FF_VARIANT_CALLS
/* delta / 2, toward zero (C division), as Battle_ReadAnimation's inline step. */
int Anim_Halve(int delta)
{
    return delta / 2;
}
#endif
