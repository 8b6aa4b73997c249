/*
 * emu/standin/fx_rot_x.c: Fx_RotX (0x56CFB0, an address of the stand-in's
 * own: the game's RotX is inferred, docs/pose.md section 2), m = Rx(angle) * m
 * through Fx_MulCopy5, Rx = [[1,0,0],[0,c,-s],[0,s,c]] in Q12 (docs/pose.md
 * section 3) with s, c from Fx_Sin and Fx_Cos. m's translation is left
 * alone.
 */
#include "emu/standin/standin.h"

/* m->m = Rx(angle) * m->m. */
void Fx_RotX(int angle, sa_matrix *m)
{
    sa_matrix r;
    s32 s = Fx_Sin(angle), c = Fx_Cos(angle);

    sa_identity(&r);
    r.m[1][1] = (s16)c;
    r.m[1][2] = (s16)-s;
    r.m[2][1] = (s16)s;
    r.m[2][2] = (s16)c;
    Fx_MulCopy5(&r, m, m);
}
