/*
 * emu/standin/tables.c: the read-only data standin.ld places at fixed
 * addresses: a marker naming the build at 0xB8B000, the value width
 * tables at 0xB8B9F0 (positions) and 0xB8B9F4 (rotations), and the
 * constants of the x87 matrix helpers at 0xB8BA00. No code. (The sine
 * table is generated: sine_table.c in the build tree, from mktrig.c.)
 */
#include "emu/standin/standin.h"

/* Fingerprint of the stand-in (the profile checks these bytes). */
const char standin_marker[16] = "ff8diff standin";

/* Bit widths of a position delta, indexed by its 2-bit type. */
const u8 standin_position_widths[4] = {3, 6, 9, 16};

/* Bit widths of a rotation delta, indexed by its 2-bit type. */
const u8 standin_rotation_widths[4] = {3, 6, 8, 12};

/* The x87 helpers' constants (standin_x87.exe; unused by standin.exe). */
const double standin_x87_turn = 0x1.921fb54442d18p-10; /* 2 pi / 4096 */
const double standin_x87_4096 = 4096.0;
const float standin_x87_q12 = 0x1p-12f;          /* 1 / 4096 */
const double standin_x87_magic = 0x1.000008p+52; /* 2^52 + 2^31 */
