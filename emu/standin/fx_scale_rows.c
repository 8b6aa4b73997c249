/*
 * emu/standin/fx_scale_rows.c: Fx_ScaleRows (0x56BEF0), the nine cells of
 * a matrix times a Q12 vector: row i times v[i] (docs/pose.md section 2: the
 * engine uses it with uniform vectors only, where rows and columns agree).
 * 32-bit products, arithmetic shift, cells wrapped to 16 bits. Not called
 * by the stand-in's BuildBoneMatrices; there for the leaf level.
 */
#include "emu/standin/standin.h"

/* m->m[i][j] = (m->m[i][j] * v[i]) >> 12. Leaves the pad and t alone. */
void Fx_ScaleRows(sa_matrix *m, const s32 v[3])
{
    int i, j;

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            m->m[i][j] = (s16)((m->m[i][j] * v[i]) >> 12);
}
