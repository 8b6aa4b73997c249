/*
 * ref/readlog.c: the readers as the original calls them, one bitReader call
 * per field, each call recorded in a read log (ref/readlog.h). Used by the
 * decoder instead of the fused readers only while a log is attached, so
 * the values, cursors and errors are exactly those of the fast path (the
 * fused readers cut the same fields from one load; tests/ref compare both).
 * Never allocates, prints or exits.
 */
#include "ref/readlog.h"
#include "ref/readers_inline.h"

#include <string.h>

void ref_read_log_init(ref_read_log *log, ref_read *reads, size_t cap)
{
    memset(log, 0, sizeof *log);
    log->reads = reads;
    log->cap = reads ? cap : 0;
}

void ref_read_log_clear(ref_read_log *log)
{
    log->n = 0;
    log->total = 0;
}

const char *ref_routine_name(ref_routine r)
{
    static const char *const names[REF_R__COUNT] = {
#define REF_ROUTINE_NAME(id, name) name,
        REF_ROUTINE_MAP(REF_ROUTINE_NAME)
#undef REF_ROUTINE_NAME
    };
    return (unsigned)r < REF_R__COUNT ? names[r] : "?";
}

/* A new record for a call starting at c; NULL when the log is full (counted). */
static ref_read *rec_open(ref_read_log *log, ref_routine r, int depth, int n, const ref_cursor *c)
{
    log->total++;
    if (log->n == log->cap) return NULL;
    ref_read *x = &log->reads[log->n++];
    memset(x, 0, sizeof *x);
    x->routine = (uint8_t)r;
    x->depth = (uint8_t)depth;
    x->n = (int16_t)n;
    x->pos = c->pos - log->base;
    x->bit = c->bit;
    return x;
}

static void rec_close(const ref_read_log *log, ref_read *x, int16_t value, const ref_cursor *c)
{
    if (!x) return;
    x->value = value;
    x->pos_after = c->pos - log->base;
    x->bit_after = c->bit;
}

int refl_bits(ref_read_log *log, ref_stream *s, ref_cursor *c, int n, int depth, int16_t *out,
              ff_error *err)
{
    ref_read *x = rec_open(log, REF_R_BITREADER, depth, n, c);
    if (refi_bits(s, c, n, out, err) < 0) return -1;
    rec_close(log, x, *out, c);
    return 0;
}

/* A 2-bit type (masked with 3), then a value of the width it selects. */
static int typed(ref_read_log *log, ref_stream *s, ref_cursor *c, const uint8_t widths[4],
                 int16_t *out, ff_error *err)
{
    int16_t type;
    if (refl_bits(log, s, c, 2, 1, &type, err) < 0) return -1;
    return refl_bits(log, s, c, widths[type & 3], 1, out, err);
}

int refl_position(ref_read_log *log, ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    ref_cursor start = *c;
    ref_read *x = rec_open(log, REF_R_POSITION, 0, 0, c);
    if (typed(log, s, c, ref_position_widths, out, err) < 0) {
        *c = start;
        return -1;
    }
    rec_close(log, x, *out, c);
    return 0;
}

int refl_rotation(ref_read_log *log, ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    ref_cursor start = *c;
    ref_read *x = rec_open(log, REF_R_ROTATION, 0, 0, c);
    int16_t present;
    if (refl_bits(log, s, c, 1, 1, &present, err) < 0) return -1;
    if (present == 0)
        *out = 0;
    else if (typed(log, s, c, ref_rotation_widths, out, err) < 0) {
        *c = start;
        return -1;
    }
    rec_close(log, x, *out, c);
    return 0;
}

int refl_scale(ref_read_log *log, ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err)
{
    ref_cursor start = *c;
    ref_read *x = rec_open(log, REF_R_SCALE, 0, 0, c);
    int16_t present, delta = 0;
    if (refl_bits(log, s, c, 1, 1, &present, err) < 0) return -1;
    if (present && refl_bits(log, s, c, 16, 1, &delta, err) < 0) {
        *c = start;
        return -1;
    }
    *out = present ? (int16_t)(uint16_t)((uint16_t)delta + REFI_SCALE_ONE) : REFI_SCALE_ONE;
    rec_close(log, x, *out, c);
    return 0;
}
