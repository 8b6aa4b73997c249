/*
 * emu/standin/fx_compose_to.c: Fx_ComposeTo (0x56C600), the work of
 * Compose: out.m = a.m * b.m through Fx_MulCopy5, out.t[i] = ((sum over j
 * of a.m[i][j] * b.t[j]) >> 12) + a.t[i], the products and sum in
 * standin.h's sa_dot_shift width (32 bits wrapping; FF_STANDIN_WIDTH64 and
 * FF_STANDIN_WIDTH_MIXED: 64 bits, exact), an arithmetic shift, the
 * addition wrapping in 32 bits.
 * Reads everything before writing: out may be a or b.
 */
#include "emu/standin/standin.h"

/* Row i of a->m times the 32-bit vector t, >> 12. */
SA_INLINE s32 sa_row(const sa_matrix *a, int i, const s32 t[3])
{
    return sa_dot_shift(a->m[i][0], t[0], a->m[i][1], t[1], a->m[i][2], t[2], 12);
}

/* out = Compose(a, b), written in place. */
void Fx_ComposeTo(const sa_matrix *a, const sa_matrix *b, sa_matrix *out)
{
    s32 t0 = sa_row(a, 0, b->t) + a->t[0];
    s32 t1 = sa_row(a, 1, b->t) + a->t[1];
    s32 t2 = sa_row(a, 2, b->t) + a->t[2];

    Fx_MulCopy5(a, b, out);
    out->t[0] = t0;
    out->t[1] = t1;
    out->t[2] = t2;
}
