/*
 * emu/standin/advance_by1.c: AdvanceBy1 (0x5094F0), one tick of a battle
 * slot: the weapon model (when the slot has one) first, then the body.
 */
#include "emu/standin/standin.h"

/* Returns the body's Battle_ReadAnimation result; the weapon's is
 * dropped. */
int AdvanceBy1(sa_entity *e)
{
    sa_weapon *w = e->weapon;

#ifdef FF_MUTANT_I
    /*
     * Mutant i: the weapon's result is returned instead of the body's (a
     * slot without a weapon returns the body's). To fit the routine's slot
     * the body is advanced first here: the two models share no state, so
     * which goes first cannot be seen between calls.
     */
    int r = Battle_ReadAnimation(&e->model, &e->cmd);
    if (w != 0) r = Battle_ReadAnimation(&w->model, &w->cmd);
    return r;
#else
    if (w != 0) Battle_ReadAnimation(&w->model, &w->cmd);
    return Battle_ReadAnimation(&e->model, &e->cmd);
#endif
}
