/*
 * emu/standin/read_rotation.c: ReadRotationType (0x509370), one bone
 * rotation delta: a presence bit, then a 2-bit width type and the value.
 *
 * Mutant A: a 12-bit value is returned without its sign extension.
 */
#include "emu/standin/standin.h"

/* Returns 0 when the presence bit is clear, else the signed delta
 * (3, 6, 8 or 12 bits). */
s16 ReadRotationType(sa_cursor *rd)
{
    unsigned width;
    s16 value;

    if (bitReader(rd, 1) == 0) return 0;
    width = standin_rotation_widths[(unsigned)bitReader(rd, 2) & 3u];
    value = bitReader(rd, (s16)width);
#ifdef FF_MUTANT_A
    if (width == 12) value = (s16)(value & 0xFFF);
#endif
    return value;
}
