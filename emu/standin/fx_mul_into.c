/*
 * emu/standin/fx_mul_into.c: Fx_MulInto (0x56C270), b.rot = a.rot * b.rot
 * through Fx_MulCopy5 (docs/pose.md section 2). b's translation is left alone.
 */
#include "emu/standin/standin.h"

/* b->m = a->m * b->m (and b's pad: stack garbage). */
void Fx_MulInto(const sa_matrix *a, sa_matrix *b)
{
    Fx_MulCopy5(a, b, b);
}
