/*
 * tests/harness/ft.c: field-table test traces (ft.h).
 */
#include "tests/harness/ft.h"

#include <criterion/criterion.h>
#include <string.h>

#include "common/le.h"

void ft_make_trace(trace *t, size_t n)
{
    trace_init(t);
    field_set frame = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    trace_clear(t, &frame, 2);
    uint8_t skel[16 + 2 * 48], cmd[8];
    memset(skel, 0, sizeof skel);
    skel[0] = 2;
    for (size_t i = 0; i < n; i++) {
        /* AnimCmd: +0 clip, +1 flags, +2 off, +4 bit, +6 frame, +7 total (docs/engine.md 3) */
        cmd[0] = 3;
        cmd[1] = 0x01;
        le_put16(cmd + 2, (uint16_t)(1 + 4 * i));
        le_put16(cmd + 4, (uint16_t)(i % 8));
        cmd[6] = (uint8_t)(i + 1);
        cmd[7] = (uint8_t)n;
        /* skeleton: root translation at +8; bone rotation at +4, scale at +0xA */
        le_put16(skel + 8, (uint16_t)i);
        le_put16(skel + 10, (uint16_t)-(int)i);
        le_put16(skel + 12, (uint16_t)(2 * i));
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 3; c++) {
                le_put16(skel + 16 + 48 * b + 4 + 2 * c, (uint16_t)(100 * b + 10 * c + i));
                le_put16(skel + 16 + 48 * b + 10 + 2 * c, 1024);
            }
        field_state s = {.ret = i + 1 == n, .cmd = cmd, .skel = skel};
        cr_assert_eq(trace_push_state(t, &s, NULL), 0);
    }
}
