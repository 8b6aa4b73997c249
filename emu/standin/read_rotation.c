/*
 * emu/standin/read_rotation.c: ReadRotationType (0x509370), one bone
 * rotation delta: a presence bit, then a 2-bit width type and the value.
 *
 * Mutant A: a 12-bit value is returned without its sign extension.
 * Mutant L: the width table is indexed with the 2-bit type as bitReader
 * returns it, sign-extended (types 2 and 3 come back as -2 and -1), so
 * both read their widths from the two bytes before the table.
 */
#include "emu/standin/standin.h"

/* Returns 0 when the presence bit is clear, else the signed delta
 * (3, 6, 8 or 12 bits). */
s16 ReadRotationType(sa_cursor *rd)
{
    unsigned width;
    s16 value;

    if (bitReader(rd, 1) == 0) return 0;
#ifdef FF_MUTANT_L
    {
        const u8 *table = standin_rotation_widths;
        width = table[(int)bitReader(rd, 2)];
    }
#else
    width = standin_rotation_widths[(unsigned)bitReader(rd, 2) & 3u];
#endif
    value = bitReader(rd, (s16)width);
#ifdef FF_MUTANT_A
    if (width == 12) value = (s16)(value & 0xFFF);
#endif
    return value;
}
