/*
 * harness/core/trace.c: growing and reading clip traces.
 */
#include "common/le.h"
#include "harness/core/trace.h"

#include <stdlib.h>
#include <string.h>

#include "ref/dat.h"
#include "ref/engine.h"

void trace_init(trace *t)
{
    memset(t, 0, sizeof *t);
}

void trace_free(trace *t)
{
    free(t->ticks);
    free(t->bone);
    trace_init(t);
}

void trace_clear(trace *t, unsigned bones)
{
    if (bones != t->bones) {
        /* The bone array's capacity is counted in ticks of the old width. */
        free(t->ticks);
        free(t->bone);
        t->ticks = NULL;
        t->bone = NULL;
        t->cap = 0;
    }
    t->bones = bones;
    t->n = 0;
}

static int reserve(trace *t, ff_error *err)
{
    if (t->n < t->cap) return 0;
    size_t cap = t->cap ? t->cap * 2 : 64;
    size_t per = (size_t)t->bones * 6;
    trace_tick *ticks = realloc(t->ticks, cap * sizeof *ticks);
    if (!ticks) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory growing a trace");
    t->ticks = ticks;
    if (per) {
        int16_t *bone = realloc(t->bone, cap * per * sizeof *bone);
        if (!bone)
            return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory growing a trace");
        t->bone = bone;
    }
    t->cap = cap;
    return 0;
}

int trace_push_state(trace *t, int32_t ret, const uint8_t cmd[8], const uint8_t *skel,
                     ff_error *err)
{
    if (reserve(t, err) < 0) return -1;
    trace_tick *k = &t->ticks[t->n];
    k->ret = ret;
    memcpy(k->cmd, cmd, 8);
    k->skel_flag = skel[DAT_SKEL_FLAGS];
    k->pad = 0;
    for (int c = 0; c < 3; c++) k->root[c] = le_s16(skel + DAT_SKEL_ROOT + 2 * c);
    int16_t *out = t->bone + t->n * (size_t)t->bones * 6;
    const uint8_t *b = skel + DAT_SKEL_HEADER;
    for (unsigned i = 0; i < t->bones; i++, b += DAT_BONE_SIZE, out += 6) {
        for (int c = 0; c < 3; c++) {
            out[c] = le_s16(b + DAT_BONE_ROT + 2 * c);
            out[3 + c] = le_s16(b + DAT_BONE_SCALE + 2 * c);
        }
    }
    t->n++;
    return 0;
}

int trace_push(trace *t, const trace_tick *tick, const int16_t *bone6, ff_error *err)
{
    if (reserve(t, err) < 0) return -1;
    t->ticks[t->n] = *tick;
    t->ticks[t->n].pad = 0;
    size_t per = (size_t)t->bones * 6;
    if (per) memcpy(t->bone + t->n * per, bone6, per * sizeof *bone6);
    t->n++;
    return 0;
}

int trace_copy(trace *dst, const trace *src, ff_error *err)
{
    trace_clear(dst, src->bones);
    for (size_t i = 0; i < src->n; i++)
        if (trace_push(dst, &src->ticks[i], trace_bone6(src, i), err) < 0) return -1;
    return 0;
}

int32_t trace_value(const trace *t, size_t i, field_id f, unsigned bone)
{
    const trace_tick *k = &t->ticks[i];
    switch (f) {
    case FIELD_RET: return k->ret;
    case FIELD_CMD_CLIP: return k->cmd[0];
    case FIELD_CMD_FLAGS: return k->cmd[1];
    case FIELD_CMD_OFF: return trace_cmd_off(k);
    case FIELD_CMD_BIT: return trace_cmd_bit(k);
    case FIELD_CMD_FRAME: return k->cmd[6];
    case FIELD_CMD_TOTAL: return k->cmd[7];
    case FIELD_SKEL_FLAG: return k->skel_flag;
    case FIELD_ROOT_X: return k->root[0];
    case FIELD_ROOT_Y: return k->root[1];
    case FIELD_ROOT_Z: return k->root[2];
    default:
        if (field_is_per_bone(f) && bone < t->bones)
            return trace_bone6(t, i)[bone * 6 + (f - FIELD_FIRST_BONE)];
        return 0;
    }
}

void trace_cursor_at(const trace *t, size_t i, int32_t *off, int32_t *bit)
{
    if (i == 0 || i > t->n) {
        *off = 1;
        *bit = 0;
        return;
    }
    *off = trace_cmd_off(&t->ticks[i - 1]);
    *bit = trace_cmd_bit(&t->ticks[i - 1]);
}
