/*
 * harness/run/quirkside.h: the reference with quirk-table rows switched
 * (ref/quirks.h) beside the exact one, on one clip: whole traces of a
 * switched reading (what a decoder with that departure would write), and
 * the quirk pass of a run: for each row, where the switched reading first
 * departs from the exact one, i.e. where the clip exercises that quirk.
 * Reference side only: emulates nothing, prints nothing.
 */
#ifndef FF8_HARNESS_RUN_QUIRKSIDE_H
#define FF8_HARNESS_RUN_QUIRKSIDE_H

#include <stdint.h>

#include "harness/core/results.h"
#include "harness/core/trace.h"
#include "ref/engine.h"
#include "ref/quirks.h"

/* Every row a switch can show on: the observable rows. */
uint32_t quirkside_observable(void);

/*
 * Decodes clip of a's file in the mode of flags, at the frame level, with
 * the rows of mask switched, into out (cleared first, carrying the fields
 * of have that are frame-level): values that do not fit their field (an
 * unwrapped sum, a frame count past 255) are the switched reading's, not
 * their low bits. mask 0 is refside_clip's trace. Returns 0, or -1 with
 * err; out then holds the ticks decoded before the error. a's switches are
 * left at 0.
 */
int quirkside_trace(ref_anim *a, uint8_t flags, uint32_t clip, const field_set *have,
                    uint32_t mask, trace *out, ff_error *err);

/*
 * The quirk pass on one clip: exact (the clip's exact frame-level trace,
 * as quirkside_trace with mask 0 gives it) beside each row of rows that
 * can bite in this mode and file, decoded tick by tick until it first
 * departs. Fills *bites with those rows and hit[row] with where. Uses
 * scratch. a->seen must be the exact decoding's (a's last decode was this
 * clip's, in this mode, without switches). Returns 0, or -1 with err (out of memory only: a switched
 * reading that fails is a bite at the tick it failed).
 */
int quirkside_clip(ref_anim *a, uint8_t flags, uint32_t clip, const trace *exact, uint32_t rows,
                   trace *scratch, uint32_t *bites, res_quirk_hit hit[REF_Q__COUNT],
                   ff_error *err);

/*
 * The quirk pass over a whole file, every clip in the four modes: adds to
 * counts[row] the clip x mode pairs each row bites. A clip the reference
 * cannot decode is left out. Returns 0, or -1 with err (the file has no
 * model, out of memory).
 */
int quirkside_file(const dat_file *d, uint32_t counts[REF_Q__COUNT], ff_error *err);
/* "rot-wrap 4, root-wrap 1" (the quirk rows, non-zero counts) or "none" into buf. */
void quirkside_counts_text(const uint32_t counts[REF_Q__COUNT], char *buf, size_t n);

#endif
