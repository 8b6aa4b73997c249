/*
 * emu/standin/queue_animation.c: QueueAnimation (0x509520), starts the
 * same clip on a battle slot's weapon model (when it has one), then on
 * its body. Each model keeps its own frame count.
 */
#include "emu/standin/standin.h"

/* Returns the body's StartClip result; the weapon's is dropped. */
int QueueAnimation(sa_entity *e, s16 clip)
{
    sa_weapon *w = e->weapon;

#ifdef FF_MUTANT_J
    /* Mutant j: the weapon is never started (its AnimCmd and skeleton
     * stay as they were). */
    w = 0;
#endif
    if (w != 0) StartClip(&w->model, &w->cmd, clip);
#ifdef FF_MUTANT_K
    /* Mutant k: the weapon takes the body's frame count (total) instead
     * of keeping its own. */
    int r = StartClip(&e->model, &e->cmd, clip);
    if (w != 0) w->cmd.total = e->cmd.total;
    return r;
#else
    return StartClip(&e->model, &e->cmd, clip);
#endif
}
