/*
 * emu/standin/field_alloc.c: Field_Alloc (0x5082B0), the scratch bump
 * allocator. Rounds the request up to 4 bytes and never checks for
 * exhaustion (the emulator sizes the scratch and checks the cursor).
 */
#include "emu/standin/standin.h"

/* Returns the old cursor; the cursor moves up by (n + 3) & ~3. */
u32 Field_Alloc(int n)
{
    u32 old = field_alloc_cursor;
    field_alloc_cursor = old + ((u32)(n + 3) & ~3u);
    return old;
}
