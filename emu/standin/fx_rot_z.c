/*
 * emu/standin/fx_rot_z.c: Fx_RotZ (0x56D090), m = Rz(angle) * m through
 * Fx_MulCopy5, Rz = [[c,-s,0],[s,c,0],[0,0,1]] in Q12 (docs/pose.md section 3)
 * with s, c from Fx_Sin and Fx_Cos. m's translation is left alone.
 */
#include "emu/standin/standin.h"

/* m->m = Rz(angle) * m->m. */
void Fx_RotZ(int angle, sa_matrix *m)
{
    sa_matrix r;
    s32 s = Fx_Sin(angle), c = Fx_Cos(angle);

    sa_identity(&r);
    r.m[0][0] = (s16)c;
    r.m[0][1] = (s16)-s;
    r.m[1][0] = (s16)s;
    r.m[1][1] = (s16)c;
    Fx_MulCopy5(&r, m, m);
}
