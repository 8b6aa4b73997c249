/*
 * ref/plain.h: the reference with quirk switches set (ref_anim.plain,
 * ref/quirks.h): StartClip and Battle_ReadAnimation reading the switched
 * rows plainly. Internal to ref/: ref/engine.c calls these when plain is
 * not 0, and nothing else should.
 */
#ifndef FF8_REF_PLAIN_H
#define FF8_REF_PLAIN_H

#include "ref/engine.h"

/* ref_start_clip and one Battle_ReadAnimation (without the tick count) under a->plain. */
int refq_start_clip(ref_anim *a, int16_t clip, int *ret, ff_error *err);
int refq_read_tick(ref_anim *a, int *ret, ff_error *err);
/* a->wide from a->skel's root, rotations and scales. */
void refq_wide_load(ref_anim *a);

#endif
