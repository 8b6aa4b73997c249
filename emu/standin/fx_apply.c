/*
 * emu/standin/fx_apply.c: Fx_Apply (0x56C3D0), an s16 vector through a
 * matrix into an s32 vector: out = (m * v) >> 12 (docs/pose.md section 2), with
 * products and sums in standin.h's sa_dot_shift width (32 bits wrapping;
 * FF_STANDIN_WIDTH64 and FF_STANDIN_WIDTH_MIXED: 64 bits, exact) and an
 * arithmetic shift. Reads all of v before writing out.
 */
#include "emu/standin/standin.h"

/* Row i of m->m times v, >> 12. */
SA_INLINE s32 sa_row(const sa_matrix *m, int i, const s16 v[3])
{
    return sa_dot_shift(m->m[i][0], v[0], m->m[i][1], v[1], m->m[i][2], v[2], 12);
}

/* out = (m->m * v) >> 12. */
void Fx_Apply(const sa_matrix *m, const s16 v[3], s32 out[3])
{
    s32 x = sa_row(m, 0, v), y = sa_row(m, 1, v), z = sa_row(m, 2, v);

    out[0] = x;
    out[1] = y;
    out[2] = z;
}
