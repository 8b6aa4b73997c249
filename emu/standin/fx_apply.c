/*
 * emu/standin/fx_apply.c: Fx_ApplyMatrix (0x56C3D0), rotates a 32-bit
 * vector by a 4.12 rotation, with 64-bit products. out may be v.
 */
#include "emu/standin/standin.h"

/* Row i of m->m dotted with v, in 4.12, wrapped to 32 bits. */
SA_INLINE s32 sa_row(const sa_matrix *m, int i, const s32 v[3])
{
    int64_t sum =
        (int64_t)m->m[i][0] * v[0] + (int64_t)m->m[i][1] * v[1] + (int64_t)m->m[i][2] * v[2];

    return (s32)(sum >> 12);
}

/* out = m->m * v. Reads all of v before writing out. */
void Fx_ApplyMatrix(const sa_matrix *m, const s32 v[3], s32 out[3])
{
    s32 x = sa_row(m, 0, v), y = sa_row(m, 1, v), z = sa_row(m, 2, v);

    out[0] = x;
    out[1] = y;
    out[2] = z;
}
