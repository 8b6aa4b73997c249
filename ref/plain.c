/*
 * ref/plain.c: StartClip and Battle_ReadAnimation with quirk switches set
 * (ref_anim.plain, ref/quirks.h): the engine's steps of docs/engine.md
 * sections 4 and 5, each switched row read plainly or departed from as its
 * row says. A value read one bitReader call at a time (no fused path): this
 * is the side path of a quirk study, not the comparison's hot path, which
 * ref/engine.c keeps untouched when plain is 0.
 *
 * Nothing here allocates, prints or exits; no read leaves the file's bytes.
 */
#include "ref/plain.h"

#include <string.h>

#include "common/le.h"
#include "ref/quirks.h"
#include "ref/readers_inline.h"

#define ON(a, q) (((a)->plain & REF_QUIRK_BIT(REF_Q_##q)) != 0)

static uint8_t *root_p(ref_anim *a, int k) { return a->skel + DAT_SKEL_ROOT + 2 * k; }
static uint8_t *bone_p(ref_anim *a, unsigned b, unsigned off)
{
    return a->skel + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b + off;
}

void refq_wide_load(ref_anim *a)
{
    for (int k = 0; k < 3; k++) a->wide[REF_WIDE_ROOT(k)] = le_s16(root_p(a, k));
    for (unsigned b = 0; b < a->bones; b++)
        for (int k = 0; k < 3; k++) {
            a->wide[REF_WIDE_ROT(b, k)] = le_s16(bone_p(a, b, DAT_BONE_ROT + 2u * (unsigned)k));
            a->wide[REF_WIDE_SCALE(b, k)] =
                le_s16(bone_p(a, b, DAT_BONE_SCALE + 2u * (unsigned)k));
        }
}

/* The value of the field at p (slot of wide), as the switched reading holds it. */
static int32_t value_of(const ref_anim *a, const uint8_t *p, unsigned slot)
{
    return a->wide ? a->wide[slot] : le_s16(p);
}

/* Stores v (wrapped to 16 bits unless wide) into the field at p and its slot. */
static void store(ref_anim *a, uint8_t *p, unsigned slot, int32_t v, int wide)
{
    if (!wide) v = (int16_t)(uint16_t)(uint32_t)v;
    le_put16(p, (uint16_t)(uint32_t)v);
    if (a->wide) a->wide[slot] = v;
}

/* Halving for a SLOW half-step: second is the repeat of a frame's decode. */
static int32_t halved(const ref_anim *a, int32_t v, int half, int second)
{
    if (!half) return v;
    int32_t h = ON(a, HALF_SHIFT) ? (v - (v & 1)) / 2 : v / 2;
    return second && ON(a, SLOW_HALF) ? v - h : h;
}

typedef struct frame_ctx {
    ref_stream *s;
    int half, second;
    int write; /* 0: a dry run (reads only) */
} frame_ctx;

static int read_rotation(ref_anim *a, const frame_ctx *f, ref_cursor *c, int16_t *v,
                         ff_error *err)
{
    if (!ON(a, WIDTH_SEXT)) return refi_rotation(f->s, c, v, err);
    int16_t present = 0, type = 0;
    if (refi_bits(f->s, c, 1, &present, err) < 0) return -1;
    if (!present) {
        *v = 0;
        return 0;
    }
    if (refi_bits(f->s, c, 2, &type, err) < 0) return -1;
    int w = ON(a, WIDTH_SEXT) && type < 0 ? ref_position_widths[4 + type]
                                          : ref_rotation_widths[type & 3];
    return refi_bits(f->s, c, w, v, err);
}

/* A scale as payload + 1024 unwrapped: in -31744..33791, so a stored value below -31744 is
 * one that wrapped past 32767. */
static int read_scale(const frame_ctx *f, ref_cursor *c, int32_t *v, ff_error *err)
{
    int16_t w = 0;
    if (refi_scale(f->s, c, &w, err) < 0) return -1;
    *v = w < -31744 ? (int32_t)w + 65536 : w;
    return 0;
}

/* One frame: root deltas, the mode bit, per bone rotations (and scales). */
static int decode_frame(ref_anim *a, const frame_ctx *f, ref_cursor *c, ff_error *err)
{
    int16_t v = 0;
    for (int k = 0; k < 3; k++) {
        if (refi_position(f->s, c, &v, err) < 0) return -1;
        int32_t sum = value_of(a, root_p(a, k), REF_WIDE_ROOT(k)) + halved(a, v, f->half, f->second);
        if (f->write) store(a, root_p(a, k), REF_WIDE_ROOT(k), sum, ON(a, ROOT_WRAP));
    }
    if (refi_bits(f->s, c, 1, &v, err) < 0) return -1;
    uint8_t flags = a->skel[DAT_SKEL_FLAGS];
    flags = ON(a, MODE_OR) ? (uint8_t)(flags | (v & 1)) : (uint8_t)((flags & ~1u) | (v & 1u));
    if (f->write) a->skel[DAT_SKEL_FLAGS] = flags;
    for (unsigned b = 0; b < a->bones; b++) {
        for (int k = 0; k < 3; k++) {
            if (read_rotation(a, f, c, &v, err) < 0) return -1;
            uint8_t *p = bone_p(a, b, DAT_BONE_ROT + 2u * (unsigned)k);
            int32_t sum = value_of(a, p, REF_WIDE_ROT(b, k)) + halved(a, v, f->half, f->second);
            if (f->write) store(a, p, REF_WIDE_ROT(b, k), sum, ON(a, ROT_WRAP));
        }
        if (!(flags & 1u)) continue;
        for (int k = 0; k < 3; k++) {
            int32_t s = 0;
            if (read_scale(f, c, &s, err) < 0) return -1;
            uint8_t *p = bone_p(a, b, DAT_BONE_SCALE + 2u * (unsigned)k);
            if (ON(a, SCALE_ACCUM)) s += value_of(a, p, REF_WIDE_SCALE(b, k));
            if (f->write && !ON(a, SCALE_DROP))
                store(a, p, REF_WIDE_SCALE(b, k), s, ON(a, SCALE_WRAP));
        }
    }
    return 0;
}

/* Whether a frame from c reads only bits inside [0, end) of the file. */
static int frame_fits(ref_anim *a, ref_cursor c, uint64_t end)
{
    /* The most a frame reads (ref/engine.c's bound): room for it, no need to try. */
    if (c.pos >= 0 && (uint64_t)c.pos < end && end - (uint64_t)c.pos >= 15u + 12u * (uint64_t)a->bones)
        return 1;
    ref_stream view = a->stream;
    if (end < view.size) view.size = (size_t)end;
    frame_ctx f = {&view, 0, 0, 0};
    ff_error scratch;
    ff_error_clear(&scratch);
    return decode_frame(a, &f, &c, &scratch) == 0;
}

static int decode_failed(const ref_anim *a, uint32_t start, const ref_cursor *c, ff_error *err)
{
    ff_error_prefix(err, "clip %u, tick %u, value at clip byte %lld bit %d (quirk switches 0x%x)",
                    a->cmd.clip, a->tick, (long long)(c->pos - start), (int)c->bit, a->plain);
    return -1;
}

static int rebuild(ref_anim *a, ff_error *err)
{
    int rc = ref_build_bone_matrices_table(a->skel, a->bones, a->pose, a->pose_near, a->pose_trig);
    if (rc == REF_POSE_OVERRUN)
        return ff_error_set(err, FF_E_UNSUPPORTED, a->dat->name, -1,
                            "clip %u, tick %u: a skeleton of %u bones on the scale path overruns "
                            "BuildBoneMatrices' two %d-slot stack arrays",
                            a->cmd.clip, a->tick, a->bones, REF_POSE_STACK_SLOTS);
    if (rc < 0)
        return ff_error_set(err, FF_E_USAGE, a->dat->name, -1,
                            "clip %u, tick %u: invalid pose options", a->cmd.clip, a->tick);
    return 0;
}

int refq_read_tick(ref_anim *a, int *ret, ff_error *err)
{
    ref_animcmd *cmd = &a->cmd;
    const int wide_count = ON(a, SLOW_TOTAL);
    int32_t frame = wide_count ? a->wframe : cmd->frame;
    int32_t total = wide_count ? a->wtotal : cmd->total;
    if (frame >= total) {
        *ret = 1;
        return 0;
    }
    uint32_t start;
    if (dat_clip_offset(a->dat, cmd->clip, &start, err) < 0) return -1;
    ref_cursor c = {(int64_t)start + cmd->off, cmd->bit};
    const int slow = (cmd->flags & REF_CMD_SLOW) != 0, fast = (cmd->flags & REF_CMD_FAST) != 0;
    const int passes = fast && !ON(a, FAST_ONCE) ? 2 : 1;
    const unsigned step = (cmd->flags & REF_CMD_HALF) >> 2;
    const int limit = slow && fast && ON(a, SLOW_FAST_OVERREAD);
    const uint64_t end = limit ? dat_clip_end(a->dat, start) : 0;
    for (int p = 0; p < passes; p++) {
        int half = slow && frame != 0;
        frame_ctx f = {&a->stream, half, half && step == 0, 1};
        if (!limit || frame_fits(a, c, end))
            if (decode_frame(a, &f, &c, err) < 0) return decode_failed(a, start, &c, err);
        frame = wide_count ? frame + 1 : (uint8_t)(frame + 1);
        cmd->frame = (uint8_t)frame;
        a->wframe = frame;
        if (frame >= total) break;
    }
    if (!(slow && step != 0)) {
        cmd->off = (int16_t)(uint16_t)(uint64_t)(c.pos - (int64_t)start);
        cmd->bit = (int16_t)c.bit;
    }
    cmd->flags = (uint8_t)((cmd->flags & ~REF_CMD_HALF) | ((step + 1) % 2) << 2);
    if (a->pose && rebuild(a, err) < 0) return -1;
    *ret = 0;
    return 0;
}

int refq_start_clip(ref_anim *a, int16_t clip, int *ret, ff_error *err)
{
    if (clip < 0 || clip > 255 || (uint32_t)clip >= a->dat->clips)
        return ff_error_set(
            err, FF_E_RANGE, a->dat->name, -1,
            "clip %d out of range (the file has %u clips, the AnimCmd holds 0..255)", clip,
            a->dat->clips);
    ref_animcmd *cmd = &a->cmd;
    int32_t n = (int32_t)dat_clip_frames(a->dat, (uint32_t)clip);
    cmd->clip = (uint8_t)clip;
    cmd->frame = 0;
    cmd->off = 1;
    cmd->bit = 0;
    cmd->flags &= 0xF3;
    int32_t total = (cmd->flags & REF_CMD_SLOW) ? 2 * n - 1 : n;
    if (!ON(a, SLOW_TOTAL)) total &= 0xFF;
    cmd->total = (uint8_t)total;
    a->wtotal = total;
    a->wframe = 0;
    if (!ON(a, START_RESET)) {
        memset(root_p(a, 0), 0, 6);
        for (unsigned b = 0; b < a->bones; b++) memset(bone_p(a, b, DAT_BONE_ROT), 0, 6);
        if (a->wide) {
            for (int k = 0; k < 3; k++) a->wide[REF_WIDE_ROOT(k)] = 0;
            for (unsigned b = 0; b < a->bones; b++)
                for (int k = 0; k < 3; k++) a->wide[REF_WIDE_ROT(b, k)] = 0;
        }
    }
    a->tick = 0;
    int rc = refq_read_tick(a, ret, err);
    a->tick = 1;
    return rc;
}
