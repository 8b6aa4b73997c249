/*
 * emu/standin/bone_scale.c: Bone_ScaleColumns (0x508C30), the scale path
 * of BuildBoneMatrices: column j of a matrix times the bone's Q12 scale
 * vector's v[j] (POSE.md section 3). 32-bit products, arithmetic shift,
 * cells wrapped to 16 bits.
 *
 * Mutant POSE_SATURATE: a cell out of the 16-bit range is clamped to it
 * instead of wrapping (shows only with huge scales, such as the garbage
 * scales SLOW+FAST reads past a clip's end).
 */
#include "emu/standin/standin.h"

/* A scaled cell as stored: its low 16 bits (the mutant clamps instead). */
SA_INLINE s16 sa_cell(s32 v)
{
#ifdef FF_MUTANT_POSE_SATURATE
    if (v > 32767) return 32767;
    if (v < -32768) return -32768;
#endif
    return (s16)v;
}

/* m->m[i][j] = (m->m[i][j] * v[j]) >> 12. Leaves the pad and t alone. */
void Bone_ScaleColumns(sa_matrix *m, const s32 v[3])
{
    int i, j;

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            m->m[i][j] = sa_cell((m->m[i][j] * v[j]) >> 12);
}
