/*
 * ref/engine.c: StartClip (0x509440), Battle_ReadAnimation (0x508F90) and
 * the body + weapon lockstep (0x509520, 0x5094F0), exactly as docs/engine.md
 * sections 4 and 5 describe them, on the game's own skeleton bytes and
 * 8-byte AnimCmd.
 *
 * The clip's stream is read out of the whole file (SLOW+FAST reads on into
 * the bytes after a clip). Nothing here allocates, prints or exits, and no
 * read leaves the file's bytes or the caller's skeleton buffer.
 */
#include "common/le.h"
#include "ref/engine.h"
#include "ref/plain.h"
#include "ref/readers_inline.h"
#include "ref/readlog.h"

#include <string.h>

size_t ref_skel_size(const dat_file *dat)
{
    if (!dat || !dat_kind_has_model(dat->kind)) return 0;
    return DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * dat->bones;
}

int ref_anim_init(ref_anim *a, const dat_file *dat, uint8_t *skel, size_t skel_size, ff_error *err)
{
    if (!a || !dat || !skel)
        return ff_error_set(err, FF_E_USAGE, dat ? dat->name : NULL, -1,
                            "ref_anim_init needs an anim, a file and a skeleton buffer");
    size_t need = ref_skel_size(dat);
    if (need == 0)
        return ff_error_set(err, FF_E_UNSUPPORTED, dat->name, -1,
                            "a %s file has no skeleton to animate", dat_kind_name(dat->kind));
    if (skel_size < need)
        return ff_error_set(err, FF_E_USAGE, dat->name, -1,
                            "skeleton buffer of %zu bytes, %zu needed for %u bones", skel_size,
                            need, dat->bones);
    memset(a, 0, sizeof *a);
    a->dat = dat;
    a->stream.data = dat->data;
    a->stream.size = dat->size;
    a->stream.name = dat->name;
    a->skel = skel;
    a->bones = dat->bones;
    ref_anim_reset_skeleton(a);
    return 0;
}

void ref_anim_reset_skeleton(ref_anim *a)
{
    memcpy(a->skel, a->dat->data + a->dat->skel_off, ref_skel_size(a->dat));
    if (a->wide) refq_wide_load(a);
}

/* Adds v (halved toward zero when half) to the s16 at p, wrapping. */
static void accumulate(uint8_t *p, int16_t v, int half)
{
    int32_t d = half ? v / 2 : v;
    le_put16(p, (int16_t)(uint16_t)((uint16_t)le_s16(p) + (uint16_t)d));
}

/* Names the clip, tick and cursor in front of a reader error. */
static int decode_failed(const ref_anim *a, uint32_t start, const ref_cursor *c, ff_error *err)
{
    ff_error_prefix(err,
                    "clip %u, tick %u, value at clip byte %lld bit %d (stream bit offset %lld)",
                    a->cmd.clip, a->tick, (long long)(c->pos - start), (int)c->bit,
                    (long long)((c->pos - start - 1) * 8 + c->bit));
    return -1;
}

/* What a frame's mode bit tells the quirk pass (ref_anim.seen). */
static inline uint8_t seen_of(uint8_t flags, unsigned bit)
{
    return (uint8_t)(bit ? REF_SEEN_SCALED : (flags & 1u) ? REF_SEEN_FELL : 0);
}

/* A value read: the fused reader, or the recorded one-call-per-field reader. */
#define READ(what, log, s, c, v, err)                                                              \
    ((log) ? refl_##what((log), (s), (c), (v), (err)) : refi_##what((s), (c), (v), (err)))

#if defined(__GNUC__)
#define REF_ALWAYS_INLINE __attribute__((always_inline))
#else
#define REF_ALWAYS_INLINE
#endif

/*
 * One frame: root deltas, the mode bit, per bone rotations (and scales).
 * Inlined twice by decode_frame: with log NULL every READ folds to the
 * fused reader, so the path without a log is the same code as before logs.
 */
static inline REF_ALWAYS_INLINE int decode_frame_with(ref_anim *a, ref_cursor *c, int half,
                                                      uint32_t start, struct ref_read_log *log,
                                                      ff_error *err)
{
    ref_stream *s = &a->stream;
    uint8_t *skel = a->skel;
    int16_t v;
    for (int k = 0; k < 3; k++) {
        if (READ(position, log, s, c, &v, err) < 0) return decode_failed(a, start, c, err);
        int32_t sum = le_s16(skel + DAT_SKEL_ROOT + 2 * k) + (half ? v / 2 : v);
        if (sum != (int16_t)sum) a->seen |= REF_SEEN_ROOT_WRAP;
        accumulate(skel + DAT_SKEL_ROOT + 2 * k, v, half);
    }
    if ((log ? refl_bits(log, s, c, 1, 0, &v, err) : refi_bits(s, c, 1, &v, err)) < 0)
        return decode_failed(a, start, c, err);
    a->seen |= seen_of(skel[DAT_SKEL_FLAGS], (unsigned)v & 1u);
    skel[DAT_SKEL_FLAGS] = (uint8_t)((skel[DAT_SKEL_FLAGS] & ~1u) | ((unsigned)v & 1u));
    for (unsigned b = 0; b < a->bones; b++) {
        uint8_t *bone = skel + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b;
        for (int k = 0; k < 3; k++) {
            if (READ(rotation, log, s, c, &v, err) < 0) return decode_failed(a, start, c, err);
            accumulate(bone + DAT_BONE_ROT + 2 * k, v, half);
        }
        if (!(skel[DAT_SKEL_FLAGS] & 1u)) continue;
        for (int k = 0; k < 3; k++) {
            if (READ(scale, log, s, c, &v, err) < 0) return decode_failed(a, start, c, err);
            le_put16(bone + DAT_BONE_SCALE + 2 * k, v);
        }
    }
    return 0;
}

/*
 * The most a frame can read: root deltas 3 x (2 + 16) bits, the mode bit,
 * then per bone 3 rotations of 1 + 2 + 12 and 3 scales of 1 + 16 bits; in
 * bytes, plus the 8-byte load the last refill makes.
 */
#define FRAME_MAX_BYTES(bones) (7u + 12u * (uint64_t)(bones) + 8u)

/*
 * The stream from bit `at` on, 64 bits at a time: buf holds n >= 32 bits
 * from `at` after need32, so each value is cut from buf without a load in
 * the chain from one value to the next.
 */
typedef struct bitbuf {
    const uint8_t *data;
    uint64_t at, buf;
    unsigned n;
} bitbuf;

static inline void need32(bitbuf *b)
{
    if (b->n >= 32) return;
    b->buf = le_u64(b->data + (b->at >> 3)) >> (b->at & 7);
    b->n = 64u - (unsigned)(b->at & 7);
}

static inline void take(bitbuf *b, unsigned k)
{
    b->buf >>= k;
    b->n -= k;
    b->at += k;
}

/* The 4 widths of a table, one a byte: a shift instead of a load in the chain. */
static inline uint32_t packed(const uint8_t w[4])
{
    return (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
}

static inline unsigned width_of(uint32_t table, uint32_t type)
{
    return (table >> (8u * (type & 3u))) & 0xFFu;
}

/*
 * One frame whose reads cannot pass the end of the file (the caller checked
 * FRAME_MAX_BYTES): the same values, skeleton, cursor and high-water mark as
 * decode_frame_with, with the cursor, the file and the skeleton in locals
 * and no check per value. Reads only move forward, so the mark is the last
 * bitReader call's byte + 3. Two's-complement halving and wrapping as in
 * accumulate().
 */
static void decode_frame_unchecked(ref_anim *a, ref_cursor *c, int half)
{
    uint8_t *skel = a->skel;
    const unsigned bones = a->bones;
    const uint32_t pw = packed(ref_position_widths), rw = packed(ref_rotation_widths);
    bitbuf b = {a->stream.data, (uint64_t)c->pos * 8u + (uint64_t)c->bit, 0, 0};
    uint64_t last = b.at;
    for (int k = 0; k < 3; k++) {
        need32(&b);
        uint32_t v = (uint32_t)b.buf;
        unsigned w = width_of(pw, v);
        int16_t d = refi_sext(v >> 2, (int)w);
        last = b.at + 2;
        take(&b, 2 + w);
        uint8_t *p = skel + DAT_SKEL_ROOT + 2 * k;
        int32_t sum = le_s16(p) + (half ? d / 2 : d);
        if (sum != (int16_t)sum) a->seen |= REF_SEEN_ROOT_WRAP;
        le_put16(p, (uint16_t)((uint16_t)le_s16(p) + (uint16_t)(half ? d / 2 : d)));
    }
    need32(&b);
    unsigned scaled = (unsigned)b.buf & 1u;
    a->seen |= seen_of(skel[DAT_SKEL_FLAGS], scaled);
    last = b.at;
    take(&b, 1);
    skel[DAT_SKEL_FLAGS] = (uint8_t)((skel[DAT_SKEL_FLAGS] & ~1u) | scaled);
    for (unsigned i = 0; i < bones; i++) {
        uint8_t *bone = skel + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * i;
        for (int k = 0; k < 3; k++) {
            need32(&b);
            uint32_t v = (uint32_t)b.buf;
            /* Masks, not a branch: whether a delta is present is the stream's coin toss. */
            uint32_t present = 0u - (v & 1u);
            unsigned w = width_of(rw, v >> 1);
            int16_t d = (int16_t)((uint32_t)(uint16_t)refi_sext(v >> 3, (int)w) & present);
            last = b.at + (3u & present);
            take(&b, 1u + ((2u + w) & present));
            uint8_t *p = bone + DAT_BONE_ROT + 2 * k;
            le_put16(p, (uint16_t)((uint16_t)le_s16(p) + (uint16_t)(half ? d / 2 : d)));
        }
        if (!scaled) continue;
        for (int k = 0; k < 3; k++) {
            need32(&b);
            uint32_t v = (uint32_t)b.buf;
            uint32_t present = 0u - (v & 1u); /* a mask, as for rotations */
            last = b.at + (1u & present);
            take(&b, 1u + (16u & present));
            le_put16(bone + DAT_BONE_SCALE + 2 * k,
                     (uint16_t)(REFI_SCALE_ONE + ((v >> 1) & 0xFFFFu & present)));
        }
    }
    c->pos = (int64_t)(b.at >> 3);
    c->bit = (int32_t)(b.at & 7);
    if ((last >> 3) + 3 > a->stream.high) a->stream.high = (size_t)((last >> 3) + 3);
}

static int decode_frame(ref_anim *a, ref_cursor *c, int half, uint32_t start, ff_error *err)
{
    if (a->log) return decode_frame_with(a, c, half, start, a->log, err);
    if (c->pos >= 0 && (uint32_t)c->bit <= 7 && (uint64_t)c->pos < a->stream.size &&
        a->stream.size - (uint64_t)c->pos >= FRAME_MAX_BYTES(a->bones)) {
        decode_frame_unchecked(a, c, half);
        return 0;
    }
    return decode_frame_with(a, c, half, start, NULL, err);
}

/* Battle_ReadAnimation at the current tick (docs/engine.md section 4). */
static int read_tick(ref_anim *a, int *ret, ff_error *err)
{
    ref_animcmd *cmd = &a->cmd;
    if (cmd->frame >= cmd->total) {
        *ret = 1;
        return 0;
    }
    uint32_t start;
    if (dat_clip_offset(a->dat, cmd->clip, &start, err) < 0) return -1;
    ref_cursor c = {(int64_t)start + cmd->off, cmd->bit};
    if (a->log) a->log->base = start;
    int slow = (cmd->flags & REF_CMD_SLOW) != 0;
    int passes = (cmd->flags & REF_CMD_FAST) ? 2 : 1;
    for (int p = 0; p < passes; p++) {
        int half = slow && cmd->frame != 0;
        if (decode_frame(a, &c, half, start, err) < 0) return -1;
        cmd->frame = (uint8_t)(cmd->frame + 1);
        if (cmd->frame >= cmd->total) break;
    }
    unsigned step = (cmd->flags & REF_CMD_HALF) >> 2;
    if (!(slow && step != 0)) {
        cmd->off = (int16_t)(uint16_t)(uint64_t)(c.pos - (int64_t)start);
        cmd->bit = (int16_t)c.bit;
    }
    cmd->flags = (uint8_t)((cmd->flags & ~REF_CMD_HALF) | ((step + 1) % 2) << 2);
    if (a->pose) {
        int rc = ref_build_bone_matrices_table(a->skel, a->bones, a->pose, a->pose_near,
                                               a->pose_trig);
        if (rc == REF_POSE_OVERRUN)
            return ff_error_set(err, FF_E_UNSUPPORTED, a->dat->name, -1,
                                "clip %u, tick %u: a skeleton of %u bones on the scale path "
                                "overruns BuildBoneMatrices' two %d-slot stack arrays; what the "
                                "engine computes there is not the reference's to invent",
                                cmd->clip, a->tick, a->bones, REF_POSE_STACK_SLOTS);
        if (rc < 0)
            return ff_error_set(err, FF_E_USAGE, a->dat->name, -1,
                                "clip %u, tick %u: invalid pose options", cmd->clip, a->tick);
    }
    *ret = 0;
    return 0;
}

int ref_start_clip(ref_anim *a, int16_t clip, int *ret, ff_error *err)
{
    if (a->plain) return refq_start_clip(a, clip, ret, err);
    if (clip < 0 || clip > 255 || (uint32_t)clip >= a->dat->clips)
        return ff_error_set(
            err, FF_E_RANGE, a->dat->name, -1,
            "clip %d out of range (the file has %u clips, the AnimCmd holds 0..255)", clip,
            a->dat->clips);
    ref_animcmd *cmd = &a->cmd;
    unsigned n = dat_clip_frames(a->dat, (uint32_t)clip);
    cmd->clip = (uint8_t)clip;
    cmd->frame = 0;
    cmd->off = 1;
    cmd->bit = 0;
    cmd->flags &= 0xF3;
    cmd->total = (uint8_t)((cmd->flags & REF_CMD_SLOW) ? (2 * n - 1) & 0xFF : n);
    memset(a->skel + DAT_SKEL_ROOT, 0, 6);
    for (unsigned b = 0; b < a->bones; b++)
        memset(a->skel + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b + DAT_BONE_ROT, 0, 6);
    a->tick = 0;
    a->seen = 0;
    int rc = read_tick(a, ret, err);
    a->tick = 1;
    return rc;
}

int ref_read_animation(ref_anim *a, int *ret, ff_error *err)
{
    int rc = a->plain ? refq_read_tick(a, ret, err) : read_tick(a, ret, err);
    a->tick++;
    return rc;
}

int ref_queue_flags(const ref_entity_speed *s, uint8_t flags, uint8_t *out, ff_error *err)
{
    uint8_t f = flags & (uint8_t)~(REF_CMD_SLOW | REF_CMD_FAST);
    if (s->status & (REF_STATUS_SLOW | REF_STATUS_HASTE)) {
        if (!s->pair)
            return ff_error_set(err, FF_E_RANGE, NULL, -1,
                                "status 0x%02x: QueueAnimation reads the sequence pair through a "
                                "NULL pointer (entity +0x74)",
                                s->status);
        if (s->pair[0] == s->pair[2] && !(s->byte2 & REF_ENTITY_NO_SPEED))
            f |= (s->status & REF_STATUS_SLOW) ? REF_CMD_SLOW : REF_CMD_FAST;
    }
    *out = f;
    return 0;
}

int ref_queue_animation(ref_entity *e, int16_t clip, int *ret, ff_error *err)
{
    int wret;
    if (e->speed) {
        if (ref_queue_flags(e->speed, e->body->cmd.flags, &e->body->cmd.flags, err) < 0) {
            ff_error_prefix(err, "body");
            return -1;
        }
        if (e->weapon)
            e->weapon->cmd.flags = (uint8_t)((e->weapon->cmd.flags & ~3u) |
                                             (e->body->cmd.flags & 3u));
    }
    if (e->weapon && ref_start_clip(e->weapon, clip, &wret, err) < 0) {
        ff_error_prefix(err, "weapon");
        return -1;
    }
    if (ref_start_clip(e->body, clip, ret, err) < 0) {
        ff_error_prefix(err, "body");
        return -1;
    }
    return 0;
}

int ref_advance_by1(ref_entity *e, int *ret, ff_error *err)
{
    int wret;
    if (e->weapon && ref_read_animation(e->weapon, &wret, err) < 0) {
        ff_error_prefix(err, "weapon");
        return -1;
    }
    if (ref_read_animation(e->body, ret, err) < 0) {
        ff_error_prefix(err, "body");
        return -1;
    }
    return 0;
}
