/*
 * emu/standin/field_free.c: Field_Free (0x5082D0), the LIFO release of
 * Field_Alloc scratch. Trusts its caller to release what it took.
 */
#include "emu/standin/standin.h"

/* Moves the cursor down by (n + 3) & ~3 and returns the new cursor. */
u32 Field_Free(int n)
{
    field_alloc_cursor -= (u32)(n + 3) & ~3u;
    return field_alloc_cursor;
}
