/*
 * emu/standin/fx_sin.c: Fx_Sin (0x56D130), the sine of an angle (4096 =
 * one turn) in Q12: round-to-nearest-even(4096 sin(angle * 2 pi / 4096)),
 * the option trig=x87-nearest of docs/pose.md section 3. The result comes back
 * in EAX. The angle is an s16 passed as int.
 *
 * standin.exe reads the table standin_sine (generated at build time from
 * the formula by mktrig.c; for every s16 angle it equals the formula
 * evaluated in double precision, which mktrig checks). standin_x87.exe
 * (FF_STANDIN_X87) computes as the game does: fild the angle, times the
 * double 2 pi / 4096, fsin, times 4096.0, fistp (round to nearest).
 */
#include "emu/standin/standin.h"

/* The rounded Q12 sine of angle. */
int Fx_Sin(int angle)
{
#ifdef FF_STANDIN_X87
    int r;

    __asm__("fildl %1\n\t"
            "fmull %2\n\t"
            "fsin\n\t"
            "fmull %3\n\t"
            "fistpl %0"
            : "=m"(r)
            : "m"(angle), "m"(standin_x87_turn), "m"(standin_x87_4096));
    return r;
#else
    return sa_sin(angle);
#endif
}
