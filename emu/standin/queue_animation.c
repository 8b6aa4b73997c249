/*
 * emu/standin/queue_animation.c: QueueAnimation (0x509520), as the public
 * notes describe it (docs/pose.md section 5): the body's SLOW and FAST cleared,
 * then set from the entity's status byte (+9: Slow wins over Haste) when
 * the sequence pair at +0x74 agrees (its bytes 0 and 2, read with no NULL
 * check and only when a status is set) and +2 bit 3 is clear; the
 * weapon's speed bits copied from the body's; then the same clip started on
 * the weapon model (when the slot has one), then on the body. Each model
 * keeps its own frame count. SLOW and FAST never come out of it together.
 */
#include "emu/standin/standin.h"

#define SA_SPEED (SA_FLAG_SLOW | SA_FLAG_FAST)

/* Returns the body's StartClip result; the weapon's is dropped. */
int QueueAnimation(sa_entity *e, s16 clip)
{
    sa_weapon *w;
    unsigned status = e->status;
    u8 speed = 0;

#ifdef FF_MUTANT_N
    /* Mutant n: the older reading, the caller's flags kept on both models
     * (the status and the pair not looked at, nothing copied). */
    w = e->weapon;
    if (w != 0) StartClip(&w->model, &w->cmd, clip);
    return StartClip(&e->model, &e->cmd, clip);
#endif
    if ((status & (SA_STATUS_SLOW | SA_STATUS_HASTE)) && e->pair[0] == e->pair[2] &&
        !(e->byte2 & SA_ENTITY_NO_SPEED)) {
#ifdef FF_MUTANT_M
        /* Mutant m: Haste read as Slow (either status sets SLOW). */
        speed = SA_FLAG_SLOW;
#else
        speed = (status & SA_STATUS_SLOW) ? SA_FLAG_SLOW : SA_FLAG_FAST;
#endif
    }
    e->cmd.flags = (u8)((e->cmd.flags & ~SA_SPEED) | speed);
    w = e->weapon;
#ifdef FF_MUTANT_J
    /* Mutant j: the weapon is never started (its AnimCmd and skeleton
     * stay as they were). */
    w = 0;
#endif
    if (w != 0) {
        /* the weapon's speed bits: the body's */
        w->cmd.flags = (u8)((w->cmd.flags & ~SA_SPEED) | speed);
        StartClip(&w->model, &w->cmd, clip);
    }
#ifdef FF_MUTANT_K
    /* Mutant k: the weapon takes the body's frame count (total) instead
     * of keeping its own (without a weapon, the body's total is written
     * over itself). */
    sa_cmd *wc = w != 0 ? &w->cmd : &e->cmd;
    int r = StartClip(&e->model, &e->cmd, clip);
    wc->total = e->cmd.total;
    return r;
#else
    return StartClip(&e->model, &e->cmd, clip);
#endif
}
