/*
 * emu/standin/field_free.c: Field_Free (0x5082D0), the LIFO release of
 * Field_Alloc scratch. Trusts its caller to release what it took.
 */
#include "emu/standin/standin.h"

/* Moves the cursor down by (n + 3) & ~3 and returns that size, not the
 * cursor (docs/engine.md section 2). */
u32 Field_Free(int n)
{
    u32 size = (u32)(n + 3) & ~3u;

    field_alloc_cursor -= size;
    return size;
}
