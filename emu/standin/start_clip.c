/*
 * emu/standin/start_clip.c: StartClip (0x509440), restarts a model on a
 * clip (docs/engine.md section 5) and decodes its frame 0. Does not check the
 * clip index against the section's count (the engine does not).
 *
 * Mutant E: the root translation is kept instead of being zeroed.
 */
#include "emu/standin/standin.h"

/*
 * Resets the AnimCmd to the clip's start (total frames doubled minus one
 * under SLOW, modulo 256), zeroes the root translation and every bone's
 * rotation (scales and skeleton flags stay), then returns what
 * Battle_ReadAnimation returns for the first tick.
 */
int StartClip(sa_model *m, sa_cmd *cmd, s16 clip)
{
    const u8 *section = m->files->animation;
    sa_skeleton *sk = m->files->skeleton;
    unsigned frames;
    int i;

    cmd->clip = (u8)clip;
    cmd->frame = 0;
    cmd->off = 1;
    cmd->bit = 0;
    cmd->flags &= (u8)~SA_FLAG_HALF_MASK;
    frames = section[((const u32 *)section)[1 + cmd->clip]];
    if (cmd->flags & SA_FLAG_SLOW) frames = 2 * frames - 1;
    cmd->total = (u8)frames;

#ifndef FF_MUTANT_E
    sk->root[0] = 0;
    sk->root[1] = 0;
    sk->root[2] = 0;
#endif
    for (i = sk->count - 1; i >= 0; i--) {
        sk->bones[i].rot[0] = 0;
        sk->bones[i].rot[1] = 0;
        sk->bones[i].rot[2] = 0;
    }
    return Battle_ReadAnimation(m, cmd);
}
