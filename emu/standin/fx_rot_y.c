/*
 * emu/standin/fx_rot_y.c: Fx_RotY (0x56D020), m = Ry(angle) * m through
 * Fx_MulCopy5, Ry = [[c,0,s],[0,1,0],[-s,0,c]] in Q12 (docs/pose.md section 3)
 * with s, c from Fx_Sin and Fx_Cos. m's translation is left alone.
 */
#include "emu/standin/standin.h"

/* m->m = Ry(angle) * m->m. */
void Fx_RotY(int angle, sa_matrix *m)
{
    sa_matrix r;
    s32 s = Fx_Sin(angle), c = Fx_Cos(angle);

    sa_identity(&r);
    r.m[0][0] = (s16)c;
    r.m[0][2] = (s16)s;
    r.m[2][0] = (s16)-s;
    r.m[2][2] = (s16)c;
    Fx_MulCopy5(&r, m, m);
}
