/*
 * emu/standin/fx_rotation.c: Fx_RotationFromTrig (0x56BEF0), the 3x3
 * rotation Rx * Ry * Rz (z applied first) from the sines and cosines
 * Fx_TrigOfRotation gives. Leaves the translation of out alone.
 */
#include "emu/standin/standin.h"

/* 4.12 product. */
SA_INLINE s32 sa_mul(s32 a, s32 b)
{
    return (a * b) >> 12;
}

/* out->m = Rx * Ry * Rz for trig = {sx, cx, sy, cy, sz, cz}. */
void Fx_RotationFromTrig(const s16 trig[6], sa_matrix *out)
{
    s32 sx = trig[0], cx = trig[1], sy = trig[2], cy = trig[3], sz = trig[4], cz = trig[5];
    s32 sxsy = sa_mul(sx, sy), cxsy = sa_mul(cx, sy);

    out->m[0][0] = (s16)sa_mul(cy, cz);
    out->m[0][1] = (s16)-sa_mul(cy, sz);
    out->m[0][2] = (s16)sy;
    out->m[1][0] = (s16)(sa_mul(sxsy, cz) + sa_mul(cx, sz));
    out->m[1][1] = (s16)(sa_mul(cx, cz) - sa_mul(sxsy, sz));
    out->m[1][2] = (s16)-sa_mul(sx, cy);
    out->m[2][0] = (s16)(sa_mul(sx, sz) - sa_mul(cxsy, cz));
    out->m[2][1] = (s16)(sa_mul(cxsy, sz) + sa_mul(sx, cz));
    out->m[2][2] = (s16)sa_mul(cx, cy);
}
