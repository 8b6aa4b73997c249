/*
 * emu/standin/no_bone_matrices.c: BuildBoneMatrices removed. Linked only
 * into standin_nobbm.exe (relink.cmake) in place of build_bone_matrices.c:
 * a routine of that name that calls nothing and returns 0, so that
 * Battle_ReadAnimation keeps its shape while the routine the profiles
 * describe (a caller of Field_Alloc, Field_Free and the matrix helpers) is
 * gone. The locator must refuse that build naming BuildBoneMatrices.
 *
 * Declared here rather than through standin.h so that this file does not
 * follow the real routine's prototype.
 */
int BuildBoneMatrices(void *model);

int BuildBoneMatrices(void *model)
{
    (void)model;
    return 0;
}
