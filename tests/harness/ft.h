/*
 * tests/harness/ft.h: traces for the field-table suites, built from the
 * game's bytes (an AnimCmd and a skeleton written at docs/engine.md's offsets by
 * hand), so that reading fields through the table is tested too.
 */
#ifndef FF8_TESTS_HARNESS_FT_H
#define FF8_TESTS_HARNESS_FT_H

#include <stddef.h>

#include "harness/core/trace.h"

/*
 * A 2-bone frame-level trace of n ticks; at tick t: root (t, -t, 2t), bone b
 * rotation channel c = 100b + 10c + t, scales 1024, cmd {clip 3, flags 1
 * (SLOW), off 1 + 4t, bit t % 8, frame t + 1, total n}, ret 1 on the last
 * tick only. t is initialised here.
 */
void ft_make_trace(trace *t, size_t n);

#endif
