/*
 * emu/standin/tables.c: the read-only data standin.ld places at fixed
 * addresses: a marker naming the build at 0xB8B000 and the value width
 * tables at 0xB8B9F0 (positions) and 0xB8B9F4 (rotations). No code.
 */
#include "emu/standin/standin.h"

/* Fingerprint of the stand-in (the profile checks these bytes). */
const char standin_marker[16] = "ff8diff standin";

/* Bit widths of a position delta, indexed by its 2-bit type. */
const u8 standin_position_widths[4] = {3, 6, 9, 16};

/* Bit widths of a rotation delta, indexed by its 2-bit type. */
const u8 standin_rotation_widths[4] = {3, 6, 8, 12};
