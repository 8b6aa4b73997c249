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

    if (w != 0) StartClip(&w->model, &w->cmd, clip);
    return StartClip(&e->model, &e->cmd, clip);
}
