/*
 * harness/run/both.h: --engine both: a clip's original side from the run's
 * engine and from the second engine (run_config.second), compared call by
 * call. Integer results must agree exactly; a clip whose only differences
 * are pose cells off by one (the x87 code's results: QEMU's fsin, fcos and
 * rounding against the CPU's microcode) is classed apart, with its cells
 * counted. Nothing here prints, exits or allocates.
 */
#ifndef FF8_HARNESS_RUN_BOTH_H
#define FF8_HARNESS_RUN_BOTH_H

#include "harness/core/outcome.h"
#include "harness/core/results.h"

/* Compares first (the run's engine) with second into *out. */
void both_compare(const orig_outcome *first, const orig_outcome *second, res_both *out);

#endif
