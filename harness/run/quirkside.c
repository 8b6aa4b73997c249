/*
 * harness/run/quirkside.c: switched readings of the reference beside the
 * exact one (harness/run/quirkside.h). A row is tried only where it can
 * bite (a SLOW row under SLOW, a scale row on a clip that takes the scale
 * path, ...), so that the pass costs little beside the comparison.
 */
#include "harness/run/quirkside.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "harness/core/compare.h"
#include "harness/core/modes.h"
#include "harness/run/refside.h"

#define BIT(q) REF_QUIRK_BIT(REF_Q_##q)

uint32_t quirkside_observable(void)
{
    uint32_t m = 0;
    for (unsigned q = 0; q < REF_Q__COUNT; q++)
        if (ref_quirk_def_of((ref_quirk)q)->observable) m |= REF_QUIRK_BIT(q);
    return m;
}

/* The switched reading's values where they do not fit their fields, into tick i of t. */
static void patch(trace *t, size_t i, const ref_anim *a)
{
    static const field_id root[3] = {FIELD_ROOT_X, FIELD_ROOT_Y, FIELD_ROOT_Z};
    static const field_id rot[3] = {FIELD_ROT_X, FIELD_ROT_Y, FIELD_ROT_Z};
    static const field_id scale[3] = {FIELD_SCALE_X, FIELD_SCALE_Y, FIELD_SCALE_Z};
    if (a->wide)
        for (int k = 0; k < 3; k++) {
            trace_set(t, i, root[k], 0, a->wide[REF_WIDE_ROOT(k)]);
            for (unsigned b = 0; b < a->bones; b++) {
                trace_set(t, i, rot[k], b, a->wide[REF_WIDE_ROT(b, k)]);
                trace_set(t, i, scale[k], b, a->wide[REF_WIDE_SCALE(b, k)]);
            }
        }
    if (a->plain & BIT(SLOW_TOTAL)) {
        trace_set(t, i, FIELD_CMD_FRAME, 0, a->wframe);
        trace_set(t, i, FIELD_CMD_TOTAL, 0, a->wtotal);
    }
}

/* Starts clip under mask: the skeleton as loaded, the AnimCmd zeroed with flags. */
static int start(ref_anim *a, uint8_t flags, uint32_t clip, int *ret, ff_error *err)
{
    ref_anim_reset_skeleton(a);
    memset(&a->cmd, 0, sizeof a->cmd);
    a->cmd.flags = flags;
    if (clip > REFSIDE_MAX_CLIP)
        return ff_error_set(err, FF_E_RANGE, a->dat->name, -1, "clip %u past 255", clip);
    return ref_start_clip(a, (int16_t)clip, ret, err);
}

static int32_t *wide_for(const ref_anim *a, uint32_t mask, ff_error *err)
{
    if (!(mask & (BIT(ROT_WRAP) | BIT(ROOT_WRAP) | BIT(SCALE_WRAP) | BIT(SCALE_ACCUM)))) return NULL;
    int32_t *w = malloc(REF_WIDE_SLOTS(a->bones) * sizeof *w);
    if (!w) ff_error_set(err, FF_E_NOMEM, a->dat->name, -1, "out of memory");
    return w;
}

int quirkside_trace(ref_anim *a, uint8_t flags, uint32_t clip, const field_set *have,
                    uint32_t mask, trace *out, ff_error *err)
{
    field_set fs = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    if (have)
        for (int f = 0; f < FIELD__COUNT; f++)
            if (!field_set_has(have, (field_id)f)) field_set_del(&fs, (field_id)f);
    trace_clear(out, &fs, a->bones);
    ff_error_clear(err);
    int32_t *wide = wide_for(a, mask, err);
    if (!wide && err->kind == FF_E_NOMEM) return -1;
    const ref_pose_opts *pose = a->pose;
    a->pose = NULL;
    a->plain = mask;
    a->wide = wide;
    int ret = 0, rc = start(a, flags, clip, &ret, err);
    while (rc == 0) {
        field_state s = {.ret = ret, .cmd = (const uint8_t *)&a->cmd, .skel = a->skel};
        if ((rc = trace_push_state(out, &s, err)) < 0) break;
        patch(out, out->n - 1, a);
        if (ret == 1) break;
        if (out->n >= REFSIDE_MAX_TICKS) {
            rc = ff_error_set(err, FF_E_INTERNAL, a->dat->name, -1,
                              "clip %u never returned 1 after %d calls", clip, REFSIDE_MAX_TICKS);
            break;
        }
        rc = ref_read_animation(a, &ret, err);
    }
    a->plain = 0;
    a->wide = NULL;
    a->pose = pose;
    free(wide);
    return rc;
}

static uint32_t wraps_possible(const trace *exact, int fast, uint32_t rows);

/* The rows that can bite on this clip in this mode (the others cannot change a value). */
static uint32_t candidates(const ref_anim *a, uint8_t flags, uint32_t clip, const trace *exact,
                           uint32_t rows, uint8_t seen)
{
    int slow = (flags & REF_CMD_SLOW) != 0, fast = (flags & REF_CMD_FAST) != 0;
    if (!slow) rows &= ~(BIT(SLOW_TOTAL) | BIT(SLOW_HALF) | BIT(HALF_SHIFT));
    if (!(slow && fast)) rows &= ~BIT(SLOW_FAST_OVERREAD);
    if (!fast) rows &= ~BIT(FAST_ONCE);
    unsigned n = dat_clip_frames(a->dat, clip);
    if (n != 0 && n <= 128) rows &= ~BIT(SLOW_TOTAL);
    int scaled = (a->dat->data[a->dat->skel_off + DAT_SKEL_FLAGS] & 1) != 0;
    for (size_t i = 0; i < exact->n && !scaled; i++)
        scaled = (trace_value(exact, i, FIELD_SKEL_FLAG, 0) & 1) != 0;
    /* Under FAST a call decodes two frames: a mode bit set by the first and cleared by the
     * second never shows in the exact trace, but the decoding saw it (ref_anim.seen). */
    if (!scaled && !(seen & REF_SEEN_SCALED))
        rows &= ~(BIT(SCALE_WRAP) | BIT(SCALE_ACCUM) | BIT(SCALE_DROP) | BIT(MODE_OR));
    int rest = 0;
    const uint8_t *sk = a->dat->data + a->dat->skel_off;
    for (int k = 0; k < 3 && !rest; k++) rest = le_s16(sk + DAT_SKEL_ROOT + 2 * k) != 0;
    for (unsigned b = 0; b < a->bones && !rest; b++)
        for (int k = 0; k < 3 && !rest; k++)
            rest = le_s16(sk + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b + DAT_BONE_ROT + 2 * k) != 0;
    if (!rest) rows &= ~BIT(START_RESET);
    /* ORed, the mode bit departs first where the exact one falls from 1 to 0. */
    int falls = 0;
    for (size_t i = 0, was = a->dat->data[a->dat->skel_off + DAT_SKEL_FLAGS] & 1; i < exact->n && !falls; i++) {
        size_t now = (size_t)trace_value(exact, i, FIELD_SKEL_FLAG, 0) & 1;
        falls = was && !now;
        was = now;
    }
    if (!falls && !(seen & REF_SEEN_FELL)) rows &= ~BIT(MODE_OR);
    rows = wraps_possible(exact, fast, rows);
    if (!(seen & REF_SEEN_ROOT_WRAP)) rows &= ~BIT(ROOT_WRAP);
    return rows & quirkside_observable();
}

/* Whether field f of bone b ever moves by 32768 or more between ticks (from 0 before tick 0). */
static int jumps(const trace *exact, field_id f, unsigned b)
{
    int32_t prev = 0;
    for (size_t i = 0; i < exact->n; i++) {
        int32_t v = trace_value(exact, i, f, b), d = v - prev;
        if (d >= 32768 || d <= -32768) return 1;
        prev = v;
    }
    return 0;
}

/*
 * The wrap rows that can bite, from the exact trace alone: a rotation
 * moves by at most 2 x 2048 a call, so a sum that wraps shows as a jump of
 * 32768 or more between ticks, and one that does not never does; so does a
 * root delta outside FAST (one pass of at most 32768); under FAST the root
 * is always tried. A scale wraps exactly when it is stored at -32768..-31745
 * (payload + 1024 past 32767), outside FAST.
 */
static uint32_t wraps_possible(const trace *exact, int fast, uint32_t rows)
{
    static const field_id root[3] = {FIELD_ROOT_X, FIELD_ROOT_Y, FIELD_ROOT_Z};
    static const field_id rot[3] = {FIELD_ROT_X, FIELD_ROT_Y, FIELD_ROT_Z};
    static const field_id scale[3] = {FIELD_SCALE_X, FIELD_SCALE_Y, FIELD_SCALE_Z};
    unsigned bones = exact->lay.bones;
    int r = fast, o = 0, sc = fast; /* under FAST a second pass may overwrite a wrapped scale */
    for (int k = 0; k < 3; k++) {
        r = r || jumps(exact, root[k], 0);
        for (unsigned b = 0; b < bones && !o; b++) o = jumps(exact, rot[k], b);
        for (unsigned b = 0; b < bones && !sc && (rows & BIT(SCALE_WRAP)); b++)
            for (size_t i = 0; i < exact->n && !sc; i++)
                sc = trace_value(exact, i, scale[k], b) <= -31745;
    }
    if (!r) rows &= ~BIT(ROOT_WRAP);
    if (!o) rows &= ~BIT(ROT_WRAP);
    if (!sc) rows &= ~BIT(SCALE_WRAP);
    return rows;
}

/* The row of a group of value-only rows (GROUPED) a differing field belongs to; -1: none. */
static int row_of_field(field_id f)
{
    switch (f) {
    case FIELD_ROOT_X: case FIELD_ROOT_Y: case FIELD_ROOT_Z: return REF_Q_ROOT_WRAP;
    case FIELD_ROT_X: case FIELD_ROT_Y: case FIELD_ROT_Z: return REF_Q_ROT_WRAP;
    case FIELD_SCALE_X: case FIELD_SCALE_Y: case FIELD_SCALE_Z: return REF_Q_SCALE_WRAP;
    default: return -1;
    }
}

/*
 * Rows that change only the values of their own fields, never what is read
 * next nor another field: switched together, each one's first departure is
 * the first differing field of its kind, as if it were switched alone.
 */
#define GROUPED (BIT(ROT_WRAP) | BIT(ROOT_WRAP) | BIT(SCALE_WRAP))

typedef struct visit {
    uint32_t mask, found;
    size_t tick;
    res_quirk_hit *hit;
} visit;

static int on_diff(void *arg, field_id f, unsigned bone, int32_t ref, int32_t orig)
{
    visit *v = arg;
    int q = row_of_field(f);
    int alone = (v->mask & (v->mask - 1)) == 0;
    uint32_t rows = !alone && q >= 0 ? REF_QUIRK_BIT(q) & v->mask : v->mask;
    for (unsigned r = 0; r < REF_Q__COUNT; r++) {
        if (!(rows & REF_QUIRK_BIT(r)) || (v->found & REF_QUIRK_BIT(r))) continue;
        v->hit[r] = (res_quirk_hit){(uint16_t)v->tick, (uint16_t)f, (uint16_t)bone, 0, ref, orig};
        v->found |= REF_QUIRK_BIT(r);
    }
    return v->found == v->mask;
}

/* Frames call i decoded (1 or 2 under FAST). */
static int32_t passes(const trace *exact, size_t i)
{
    int32_t before = i ? trace_value(exact, i - 1, FIELD_CMD_FRAME, 0) : 0;
    return trace_value(exact, i, FIELD_CMD_FRAME, 0) - before;
}

/* No call reads past the clip's stream: the over-read row cannot bite. */
#define NO_OVERREAD ((size_t)-1)

/*
 * The first call that reads past the clip's stream under SLOW+FAST, from the
 * exact trace: a call that saves the cursor (its half-step bits were 0, so
 * they are 1 after it) leaves where the reading of it, and of the unsaved
 * call before it (which read the same frames, unless the saving call
 * stopped after fewer), ended; a call with no saving call after it, or
 * whose saving call read fewer frames, is taken as reading past. The calls before the first one that does read inside the
 * stream, where the switched reading agrees with the exact one. 0 when the
 * trace cannot tell (it lacks the AnimCmd, it is sparse); NO_OVERREAD when
 * no call reads past.
 */
static size_t overread_from(const ref_anim *a, uint32_t clip, const trace *exact)
{
    static const field_id need[] = {FIELD_CMD_CLIP, FIELD_CMD_FLAGS, FIELD_CMD_OFF,
                                    FIELD_CMD_BIT,  FIELD_CMD_FRAME, FIELD_CMD_TOTAL};
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
        if (!trace_has(exact, need[k])) return 0;
    uint32_t start;
    ff_error e;
    if (exact->sparse || dat_clip_offset(a->dat, clip, &start, &e) < 0) return 0;
    uint64_t end_bits = dat_clip_end(a->dat, start) * 8u;
    for (size_t k = 0; k < exact->n && trace_value(exact, k, FIELD_RET, 0) == 0; k++) {
        size_t j = k;
        while (j < exact->n && trace_value(exact, j, FIELD_RET, 0) == 0 &&
               ((trace_value(exact, j, FIELD_CMD_FLAGS, 0) & REF_CMD_HALF) >> 2) != 1)
            j++;
        if (j >= exact->n || trace_value(exact, j, FIELD_RET, 0) != 0) return k;
        if (j > k && passes(exact, j) < passes(exact, k)) return k; /* it read further */
        int64_t off = trace_value(exact, j, FIELD_CMD_OFF, 0);
        int64_t bits = ((int64_t)start + off) * 8 + trace_value(exact, j, FIELD_CMD_BIT, 0);
        if (bits < 0 || (uint64_t)bits > end_bits) return k;
    }
    return NO_OVERREAD;
}

/*
 * a as the exact reading left it after call i (the trace carries every
 * field the decoder keeps: the skeleton's root, flag, rotations and scales,
 * the AnimCmd): what the switched reading continues from. Returns 0.
 */
static int resume(ref_anim *a, const trace *exact, size_t i)
{
    ref_anim_reset_skeleton(a);
    for (int f = 0; f < FIELD__COUNT; f++) {
        const field_def *d = field_def_of((field_id)f);
        if (!trace_has(exact, (field_id)f) || d->level != FIELD_LEVEL_FRAME) continue;
        unsigned n = field_area_per_bone(d->area) ? a->bones : 1;
        for (unsigned b = 0; b < n; b++) field_write((field_id)f, b, a->skel, trace_value(exact, i, (field_id)f, b));
    }
    ref_animcmd *c = &a->cmd;
    c->clip = (uint8_t)trace_value(exact, i, FIELD_CMD_CLIP, 0);
    c->flags = (uint8_t)trace_value(exact, i, FIELD_CMD_FLAGS, 0);
    c->off = (int16_t)trace_value(exact, i, FIELD_CMD_OFF, 0);
    c->bit = (int16_t)trace_value(exact, i, FIELD_CMD_BIT, 0);
    c->frame = (uint8_t)trace_value(exact, i, FIELD_CMD_FRAME, 0);
    c->total = (uint8_t)trace_value(exact, i, FIELD_CMD_TOTAL, 0);
    a->wframe = c->frame;
    a->wtotal = c->total;
    a->tick = (unsigned)i + 1;
    return 0;
}

/*
 * Where the reading with the rows of mask switched (one row, or rows of
 * GROUPED) first departs from exact, per row: into hit[row], the rows
 * found into *found. Returns 0, or -1 with err (out of memory).
 */
static int departures(ref_anim *a, uint8_t flags, uint32_t clip, const trace *exact, uint32_t mask,
                      trace *t, res_quirk_hit hit[REF_Q__COUNT], uint32_t *found, ff_error *err)
{
    field_set have = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
    have = field_set_and(&have, &exact->lay.have);
    trace_clear(t, &have, a->bones);
    ff_error e;
    ff_error_clear(&e);
    int32_t *wide = wide_for(a, mask, &e);
    if (!wide && e.kind == FF_E_NOMEM) {
        *err = e;
        return -1;
    }
    a->plain = mask;
    a->wide = wide;
    visit v = {mask, 0, 0, hit};
    int ret = 0, rc = 0;
    size_t from = mask == BIT(SLOW_FAST_OVERREAD) && field_set_eq(&have, &exact->lay.have)
                      ? overread_from(a, clip, exact)
                      : 0;
    if (from == NO_OVERREAD) {
        from = 0;
        rc = 1; /* nothing to decode: the row cannot bite */
    } else if (from && trace_push_rows(t, exact->v, from, err) < 0) {
        from = 0;
        rc = -2;
    } else if (from) {
        resume(a, exact, from - 1);
        rc = ref_read_animation(a, &ret, &e);
    } else {
        rc = start(a, flags, clip, &ret, &e);
    }
    for (size_t i = from; v.found != mask && rc != -2 && rc != 1; i++) {
        if (rc < 0 || i >= exact->n) { /* stopped on an error, or ran past the exact end */
            size_t at = i < exact->n ? i : exact->n - 1;
            res_quirk_hit h = {(uint16_t)at, FIELD_RET, 0, 0,
                               exact->n ? trace_value(exact, at, FIELD_RET, 0) : 0, rc < 0 ? -1 : 0};
            for (unsigned r = 0; r < REF_Q__COUNT; r++)
                if ((mask & ~v.found) & REF_QUIRK_BIT(r)) hit[r] = h;
            v.found = mask;
            break;
        }
        field_state s = {.ret = ret, .cmd = (const uint8_t *)&a->cmd, .skel = a->skel};
        if (trace_push_state(t, &s, err) < 0) {
            rc = -2;
            break;
        }
        patch(t, i, a);
        v.tick = i;
        cmp_each_differing(exact, t, i, on_diff, &v);
        if (ret == 1) break;
        rc = ref_read_animation(a, &ret, &e);
    }
    a->plain = 0;
    a->wide = NULL;
    free(wide);
    *found = v.found;
    return rc == -2 ? -1 : 0;
}

/*
 * start-reset without a decode: keeping the rest values, every root and
 * rotation sum is the exact one plus its rest value (wrapped at 16 bits,
 * as the engine's fields are) from tick 0 on, nothing else changes; so the
 * first departure is tick 0's first field, in comparison order, whose rest
 * value is not 0. Returns 1 with *h, or 0 (no rest value, or the exact
 * trace lacks the field: then the caller decodes).
 */
static int start_reset(const ref_anim *a, const trace *exact, res_quirk_hit *h)
{
    static const field_id root[3] = {FIELD_ROOT_X, FIELD_ROOT_Y, FIELD_ROOT_Z};
    static const field_id rot[3] = {FIELD_ROT_X, FIELD_ROT_Y, FIELD_ROT_Z};
    const uint8_t *sk = a->dat->data + a->dat->skel_off;
    if (!exact->n || exact->sparse) return 0;
    for (int k = 0; k < 3; k++) {
        int16_t rest = le_s16(sk + DAT_SKEL_ROOT + 2 * k);
        if (!rest) continue;
        if (!trace_has(exact, root[k])) return 0;
        int32_t v = trace_value(exact, 0, root[k], 0);
        *h = (res_quirk_hit){0, (uint16_t)root[k], 0, 0, v, (int16_t)(uint16_t)(uint32_t)(v + rest)};
        return 1;
    }
    for (unsigned b = 0; b < a->bones; b++)
        for (int k = 0; k < 3; k++) {
            int16_t rest = le_s16(sk + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b + DAT_BONE_ROT + 2 * k);
            if (!rest) continue;
            if (!trace_has(exact, rot[k])) return 0;
            int32_t v = trace_value(exact, 0, rot[k], b);
            *h = (res_quirk_hit){0, (uint16_t)rot[k], (uint16_t)b, 0, v,
                                 (int16_t)(uint16_t)(uint32_t)(v + rest)};
            return 1;
        }
    return 0;
}

int quirkside_clip(ref_anim *a, uint8_t flags, uint32_t clip, const trace *exact, uint32_t rows,
                   trace *scratch, uint32_t *bites, res_quirk_hit hit[REF_Q__COUNT],
                   ff_error *err)
{
    *bites = 0;
    const ref_pose_opts *pose = a->pose;
    a->pose = NULL;
    uint32_t try = candidates(a, flags, clip, exact, rows, a->seen);
    int rc = 0;
    uint32_t found = 0;
    if ((try & BIT(START_RESET)) && start_reset(a, exact, &hit[REF_Q_START_RESET])) {
        *bites |= BIT(START_RESET);
        try &= ~BIT(START_RESET);
    }
    if (try & GROUPED) {
        rc = departures(a, flags, clip, exact, try & GROUPED, scratch, hit, &found, err);
        *bites |= found;
    }
    for (unsigned q = 0; q < REF_Q__COUNT && rc == 0; q++) {
        if (!(try & ~GROUPED & REF_QUIRK_BIT(q))) continue;
        rc = departures(a, flags, clip, exact, REF_QUIRK_BIT(q), scratch, hit, &found, err);
        *bites |= found;
    }
    a->pose = pose;
    return rc < 0 ? -1 : 0;
}

int quirkside_file(const dat_file *d, uint32_t counts[REF_Q__COUNT], ff_error *err)
{
    size_t len = ref_skel_size(d);
    uint8_t *skel = len ? malloc(len) : NULL;
    if (!skel) return ff_error_set(err, len ? FF_E_NOMEM : FF_E_UNSUPPORTED, d->name, -1,
                                   len ? "out of memory" : "the file has no model");
    ref_anim a;
    int rc = ref_anim_init(&a, d, skel, len, err);
    trace exact, scratch;
    trace_init(&exact);
    trace_init(&scratch);
    for (uint32_t c = 0; rc == 0 && c < d->clips && c <= REFSIDE_MAX_CLIP; c++)
        for (int m = 0; rc == 0 && m < MODE__COUNT; m++) {
            uint8_t flags = mode_flags((mode_id)m);
            ff_error e;
            if (quirkside_trace(&a, flags, c, NULL, 0, &exact, &e) < 0) {
                if (e.kind == FF_E_NOMEM) {
                    *err = e;
                    rc = -1;
                }
                continue;
            }
            uint32_t bites;
            res_quirk_hit hit[REF_Q__COUNT];
            rc = quirkside_clip(&a, flags, c, &exact, quirkside_observable(), &scratch, &bites, hit,
                                err);
            for (unsigned q = 0; rc == 0 && q < REF_Q__COUNT; q++)
                counts[q] += (bites >> q) & 1u;
        }
    trace_free(&exact);
    trace_free(&scratch);
    free(skel);
    return rc;
}

void quirkside_counts_text(const uint32_t counts[REF_Q__COUNT], char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (unsigned q = 0; q < REF_Q__COUNT; q++) {
        const ref_quirk_def *d = ref_quirk_def_of((ref_quirk)q);
        if (d->kind != REF_QUIRK_KIND_QUIRK || !counts[q] || at >= n) continue;
        int w = snprintf(buf + at, n - at, "%s%s %u", at ? ", " : "", d->name, counts[q]);
        if (w > 0) at += (size_t)w;
    }
    if (!at) snprintf(buf, n, "none");
}
