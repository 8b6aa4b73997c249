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

    if (w != 0) Battle_ReadAnimation(&w->model, &w->cmd);
    return Battle_ReadAnimation(&e->model, &e->cmd);
}
