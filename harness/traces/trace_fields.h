/*
 * harness/traces/trace_fields.h: the compared fields of one trace line, as
 * JSON, derived from the field table (harness/core/fields.h): each row's
 * json key, sub-key and index say where its value goes. Keys come in the
 * table's order; a key whose fields a trace does not carry is left out.
 *
 * Reading checks every key's shape (objects, arrays, one array per bone),
 * takes any integer that fits 32 bits as a value (an outside decoder's value
 * past the engine's 16 bits is a difference to report, not malformed input)
 * and requires the keys of the frame level that Trace JSON Lines v1 has
 * always had; cmd.clip and the pose level's "mat" are optional. The first
 * line of a clip decides which fields the clip carries; every later line
 * must carry the same.
 *
 * The frames format (for decoders that compute poses, not engine memory)
 * carries the skeleton's fields only (root, skel_flag, rot, scale, mat):
 * root and rot on every frame, the others optional frame by frame; a frame
 * that leaves a field out is not compared on it. Nothing here does I/O.
 */
#ifndef FF8_HARNESS_TRACES_TRACE_FIELDS_H
#define FF8_HARNESS_TRACES_TRACE_FIELDS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "harness/core/strbuf.h"
#include "harness/core/trace.h"

/*
 * Which rules a line follows: an engine call, a weapon's row of an entity
 * call (like an engine call, but "ret" is not required: the call's result
 * is the body's), or a decoded frame.
 */
typedef enum tjf_format { TJF_TICKS, TJF_FRAMES, TJF_WEAPON } tjf_format;

/* Every field a frames-format clip may carry: its traces' layout. */
field_set tjf_frames_fields(void);

/* Appends ,"key":value for every carried field of tick i of t. */
void tjf_write(strbuf *b, const trace *t, size_t i);

/*
 * The fields and bone count one JSON line carries. Returns 0, or -1 with a
 * sentence in why (no "line N:" prefix) when a key has the wrong shape or a
 * required key is missing.
 */
int tjf_scan(const cJSON *o, tjf_format fmt, field_set *have, unsigned *bones, char *why,
             size_t n);

/*
 * Reads the carried fields of line o into a new tick of t (t laid out by
 * its clip's first line). Returns 0, or -1 with why as above; with err set
 * as well when memory runs out (FF_E_NOMEM), which is not the line's fault.
 */
int tjf_read(const cJSON *o, tjf_format fmt, trace *t, char *why, size_t n, ff_error *err);

#endif
