/*
 * emu/standin/fx_mul.c: Fx_MulMatrix (0x56C2F0), the 4.12 product of two
 * 3x3 rotations. Works a column at a time, so out may be b (not a).
 * Leaves the translation of out alone.
 */
#include "emu/standin/standin.h"

/* out->m = a->m * b->m, each entry wrapped to 16 bits. */
void Fx_MulMatrix(const sa_matrix *a, const sa_matrix *b, sa_matrix *out)
{
    int i, j;

    for (j = 0; j < 3; j++) {
        s32 b0 = b->m[0][j], b1 = b->m[1][j], b2 = b->m[2][j];
        for (i = 0; i < 3; i++)
            out->m[i][j] = (s16)((a->m[i][0] * b0 + a->m[i][1] * b1 + a->m[i][2] * b2) >> 12);
    }
}
