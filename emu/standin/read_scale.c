/*
 * emu/standin/read_scale.c: ReadBoneScale (0x5093F0), one absolute bone
 * scale: a presence bit, then a 16-bit offset from 1.0 (1024).
 *
 * Mutant C: an absent scale reads as 0 instead of 1024.
 */
#include "emu/standin/standin.h"

#ifdef FF_MUTANT_C
#define SA_ABSENT_SCALE 0
#else
#define SA_ABSENT_SCALE SA_SCALE_ONE
#endif

/* Returns 1024 when the presence bit is clear, else the 16-bit payload
 * plus 1024, wrapped to 16 bits. */
s16 ReadBoneScale(sa_cursor *rd)
{
    if (bitReader(rd, 1) == 0) return SA_ABSENT_SCALE;
    return (s16)(u16)((u16)bitReader(rd, 16) + SA_SCALE_ONE);
}
