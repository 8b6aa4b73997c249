/*
 * emu/standin/fx_cos.c: Fx_Cos (0x56D100), the cosine of an angle (4096 =
 * one turn) in Q12: round-to-nearest-even(4096 cos(angle * 2 pi / 4096)),
 * the option trig=x87-nearest of docs/pose.md section 3. The result comes back
 * in EAX. The angle is an s16 passed as int.
 *
 * standin.exe reads the sine table a quarter turn on (mktrig.c checks that
 * this equals the cosine formula for every s16 angle). standin_x87.exe
 * (FF_STANDIN_X87) computes as the game does: fild the angle, times the
 * double 2 pi / 4096, fcos, times 4096.0, fistp (round to nearest).
 */
#include "emu/standin/standin.h"

/* The rounded Q12 cosine of angle. */
int Fx_Cos(int angle)
{
#ifdef FF_STANDIN_X87
    int r;

    __asm__("fildl %1\n\t"
            "fmull %2\n\t"
            "fcos\n\t"
            "fmull %3\n\t"
            "fistpl %0"
            : "=m"(r)
            : "m"(angle), "m"(standin_x87_turn), "m"(standin_x87_4096));
    return r;
#else
    return sa_cos(angle);
#endif
}
