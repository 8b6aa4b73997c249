/*
 * harness/report/report_plot.h: the inline SVG line plot of a group's diverging
 * channel (reference vs original over ticks) and the stream-bytes view used
 * by index.html. Both read only a report tree; nothing here computes a
 * comparison, and every string taken from the tree is escaped.
 */
#ifndef FF8_HARNESS_REPORT_REPORT_PLOT_H
#define FF8_HARNESS_REPORT_REPORT_PLOT_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "harness/core/strbuf.h"

/*
 * Appends <svg class="plot"> drawing series.ref and series.orig (arrays of
 * numbers, any length, missing or ill-typed treated as empty) as two
 * polylines with min/max labels on both axes and a marker at tick (-1: no
 * marker). A one-point series is drawn as a dot; equal min/max still gives
 * a flat line in the middle.
 */
void report_plot_svg(strbuf *b, const cJSON *series, int64_t tick, const char *cand,
                     const char *auth);

/*
 * Appends a <table class="stream"> of a divergence's "stream" object: file
 * offsets, hex bytes and bits (LSB first, the order the engine reads them),
 * with the cursor byte (stream.cursor_index) marked class "cur" and, in it,
 * the bit cursor_bit (0..7, -1: none) marked class "curbit".
 */
void report_stream_table(strbuf *b, const cJSON *stream, int64_t cursor_bit);

#endif
