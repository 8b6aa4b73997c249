/*
 * harness/core/trace.h: the trace of one clip, from either side: the state after
 * each call (StartClip at tick 0, then Battle_ReadAnimation per tick up to
 * and including the first call that returns 1), in the game's terms: the
 * return value, the 8 AnimCmd bytes, the skeleton flag byte, the root
 * translation and every bone's rotation and scale.
 *
 * A trace owns its arrays and reuses them across clips (trace_clear keeps
 * memory), so the hot path allocates only while a trace grows.
 */
#ifndef FF8_HARNESS_CORE_TRACE_H
#define FF8_HARNESS_CORE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/fields.h"
#include "common/error.h"

typedef struct trace_tick {
    int32_t ret;
    uint8_t cmd[8]; /* AnimCmd bytes as in memory */
    uint8_t skel_flag;
    uint8_t pad;    /* always 0 */
    int16_t root[3];
} trace_tick;

typedef struct trace {
    unsigned bones;
    size_t n, cap;
    trace_tick *ticks;
    int16_t *bone; /* per tick: bones * 6 values: rot x y z, scale x y z */
} trace;

void trace_init(trace *t);
void trace_free(trace *t);
/* Forgets the ticks (keeps memory) and sets the bone count. */
void trace_clear(trace *t, unsigned bones);

/*
 * Appends the state after one call, read from the game's byte layout: cmd
 * is the 8-byte AnimCmd, skel the skeleton section (header + 48-byte bones,
 * t->bones of them). Returns -1 (FF_E_NOMEM) when memory runs out.
 */
int trace_push_state(trace *t, int32_t ret, const uint8_t cmd[8], const uint8_t *skel,
                     ff_error *err);
/* Appends a tick given field by field; bone6 holds bones * 6 values. */
int trace_push(trace *t, const trace_tick *tick, const int16_t *bone6, ff_error *err);
/* Copies src into dst (dst's memory reused). */
int trace_copy(trace *dst, const trace *src, ff_error *err);

static inline const int16_t *trace_bone6(const trace *t, size_t i)
{
    return t->bone + i * (size_t)t->bones * 6;
}

/* AnimCmd fields of a tick. */
static inline int32_t trace_cmd_off(const trace_tick *k)
{
    return (int16_t)(uint16_t)(k->cmd[2] | k->cmd[3] << 8);
}
static inline int32_t trace_cmd_bit(const trace_tick *k)
{
    return (int16_t)(uint16_t)(k->cmd[4] | k->cmd[5] << 8);
}

/* The value of field f (bone for per-bone fields) at tick i. */
int32_t trace_value(const trace *t, size_t i, field_id f, unsigned bone);

/*
 * The cursor (byte offset from the clip start, bit) the engine starts tick
 * i from: StartClip's (1, 0) for tick 0, else the AnimCmd after tick i-1.
 */
void trace_cursor_at(const trace *t, size_t i, int32_t *off, int32_t *bit);

#endif
