/*
 * emu/standin/bit_reader.c: bitReader (0x5092A0), the one routine that
 * reads the animation bit stream. Loads exactly the 3 bytes at the cursor
 * (never a 4th), so it may touch 2 bytes past the last bit it consumes.
 * Meaningful for 1 <= n <= 16 and a cursor bit in 0..7.
 */
#include "emu/standin/standin.h"

/*
 * Returns the next n bits, least significant first, sign-extended from
 * bit n-1, and moves the cursor on: bit += n, then whole bytes go to the
 * pointer and the bit offset is left in 0..7.
 */
s16 bitReader(sa_cursor *rd, s16 n)
{
    const u8 *p = rd->ptr;
    s32 bit = rd->bit;
    u32 window = (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16;
    /* Move the field's top bit to bit 31, then shift it back down
     * arithmetically: the copies of the sign bit fill the upper part. */
    s32 top = (s32)(window << (32 - n - bit));
    s32 value = top >> (32 - n);

    bit += n;
    rd->ptr = p + (bit >> 3);
    rd->bit = bit & 7;
    return (s16)value;
}
