/*
 * emu/standin/read_position.c: ReadPositionType (0x509320), one root
 * translation delta: a 2-bit width type, then the value.
 */
#include "emu/standin/standin.h"

/* Returns the delta, sign-extended from its width (3, 6, 9 or 16 bits). */
s16 ReadPositionType(sa_cursor *rd)
{
    /* bitReader sign-extends the 2-bit type: keep the bits only. */
    unsigned type = (unsigned)bitReader(rd, 2) & 3u;

    return bitReader(rd, standin_position_widths[type]);
}
