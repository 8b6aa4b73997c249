/*
 * emu/standin/fx_trig.c: Fx_TrigOfRotation (0x56CE30), sines and cosines
 * of a bone's three angles in 4.12 fixed point (4096 = one turn), from a
 * quintic approximation of the quarter sine (exact at 0, 45 degrees within
 * one unit, exact at 90). Integer only: no table, no division.
 */
#include "emu/standin/standin.h"

/* sin(pi/2 * t) for t in 0..4096 (4.12), 0..4096. Coefficients fitted so
 * that f(1) = 1 and f'(1) = 0: t * (6434 - 2628 t^2 + 290 t^4). */
SA_INLINE s32 sa_quarter_sine(s32 t)
{
    s32 t2 = (t * t) >> 12;
    s32 p = ((290 * t2) >> 12) - 2628;

    p = ((p * t2) >> 12) + 6434;
    p = (p * t) >> 12;
    return p > SA_ONE ? SA_ONE : p;
}

/* Sine of angle (any s32, taken modulo 4096), 4.12. */
SA_INLINE s16 sa_sine(s32 angle)
{
    s32 a = angle & (SA_TURN - 1);
    s32 q = a & (SA_TURN / 4 - 1);
    s32 s;

    if (a & SA_TURN / 4) q = SA_TURN / 4 - q;
    s = sa_quarter_sine(q << 2);
    return (s16)((a & SA_TURN / 2) ? -s : s);
}

/* trig = {sin x, cos x, sin y, cos y, sin z, cos z} of rot = {x, y, z}. */
void Fx_TrigOfRotation(const s16 rot[3], s16 trig[6])
{
    int axis;

    for (axis = 0; axis < 3; axis++) {
        trig[2 * axis] = sa_sine(rot[axis]);
        trig[2 * axis + 1] = sa_sine(rot[axis] + SA_TURN / 4);
    }
}
