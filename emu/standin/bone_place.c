/*
 * emu/standin/bone_place.c: Bone_Place (0x508C30), sets a bone's world
 * translation: its parent's, moved by the parent's bone already rotated
 * into world space.
 */
#include "emu/standin/standin.h"

/* out->t = parent->t + delta (32-bit wrap). */
void Bone_Place(const sa_matrix *parent, const s32 delta[3], sa_matrix *out)
{
    int i;

    for (i = 0; i < 3; i++)
        out->t[i] = (s32)((u32)parent->t[i] + (u32)delta[i]);
}
