/*
 * emu/standin/fx_scale.c: Fx_ScaleMatrix (0x56C090), scales the columns
 * of a 3x3 matrix by a bone's scales (1024 = 1.0), wrapping to 16 bits.
 */
#include "emu/standin/standin.h"

/* Column j of m->m is multiplied by scale[j] / 1024. */
void Fx_ScaleMatrix(sa_matrix *m, const s16 scale[3])
{
    int i, j;

    for (j = 0; j < 3; j++) {
        s32 s = scale[j];
        for (i = 0; i < 3; i++)
            m->m[i][j] = (s16)((m->m[i][j] * s) >> 10);
    }
}
