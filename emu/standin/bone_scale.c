/*
 * emu/standin/bone_scale.c: Bone_ScaleColumns (0x508C30), the column
 * scaling of the scale path, with the three arguments of the game's
 * (docs/pose.md section 2): dst = src with column j times the Q12 vector's
 * v[j]. 32-bit products, arithmetic shift, cells wrapped to 16 bits (a
 * cell keeps bits 12..27 of its product: a 64-bit product gives the same
 * cells). Writes dst's nine cells only (its pad and translation are left
 * alone); src and dst may be the same matrix. BuildBoneMatrices calls it
 * with v = (s, s, s) on a root (the model scale) and with a bone's running
 * scale vector.
 *
 * Mutant FF_MUTANT_POSE_SATURATE (standin.h's sa_scaled_cell, which
 * BuildBoneMatrices shares): a cell out of the 16-bit range is clamped to
 * it instead of wrapping (shows only with huge scales, such as the garbage
 * scales SLOW+FAST reads past a clip's end).
 */
#include "emu/standin/standin.h"

/* dst->m[i][j] = (src->m[i][j] * v[j]) >> 12. */
void Bone_ScaleColumns(const sa_matrix *src, const s32 v[3], sa_matrix *dst)
{
    int i, j;

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            dst->m[i][j] = sa_scaled_cell(src->m[i][j], v[j]);
}
