/*
 * emu/standin/fx_compose.c: Fx_Compose (0x56C2F0), Compose(a, b, out):
 * out.m = a.m * b.m, out.t = a.m * b.t + a.t (docs/pose.md section 2), worked
 * out in a local MATRIX by Fx_ComposeTo (0x56C600), then copied out as 8
 * dwords (the pad included). out may be a or b.
 */
#include "emu/standin/standin.h"

/* out = Compose(a, b). */
void Fx_Compose(const sa_matrix *a, const sa_matrix *b, sa_matrix *out)
{
    sa_matrix tmp;

    Fx_ComposeTo(a, b, &tmp);
    sa_copy_dwords(out, &tmp, 8);
}
