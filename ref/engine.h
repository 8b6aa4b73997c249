/*
 * ref/engine.h: the reference re-implementation of FF8's battle-model
 * animation decoder (docs/engine.md sections 2-5), on the game's own byte
 * layout: the skeleton is the file's bytes (header + 48-byte bones) and the
 * AnimCmd is the game's 8-byte record, so that a state can be compared byte
 * for byte with the original's guest memory.
 *
 * The reader reads the stream out of the whole file, as the engine does
 * (including the bytes after a clip's stream that SLOW+FAST reaches). Only
 * a read past the end of the file is an error. Nothing here allocates,
 * prints or exits; the caller owns every buffer.
 */
#ifndef FF8_REF_ENGINE_H
#define FF8_REF_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/le.h"
#include "ref/dat.h"
#include "ref/pose.h"
#include "ref/readlog.h"

/* AnimCmd flag bits (byte +1). */
#define REF_CMD_SLOW 0x01
#define REF_CMD_FAST 0x02
#define REF_CMD_HALF 0x0C /* half-step toggle, bits 2-3 */

/* The game's AnimCmd, 8 bytes, same layout (little-endian host). */
typedef struct ref_animcmd {
    uint8_t clip;  /* +0 */
    uint8_t flags; /* +1 */
    int16_t off;   /* +2 cursor byte offset from the clip start */
    int16_t bit;   /* +4 cursor bit offset */
    uint8_t frame; /* +6 */
    uint8_t total; /* +7 */
} ref_animcmd;
_Static_assert(sizeof(ref_animcmd) == 8, "AnimCmd is 8 bytes");

/* The width tables at 0xB8B9F0 (position) and 0xB8B9F4 (rotation). */
extern const uint8_t ref_position_widths[4];
extern const uint8_t ref_rotation_widths[4];

/* A read-only view of the whole file the stream is read from. */
typedef struct ref_stream {
    const uint8_t *data;
    size_t size;
    const char *name; /* for errors */
    size_t high;      /* one past the furthest byte a 3-byte load touched */
} ref_stream;

/* The engine's Cursor: byte position (here an offset into the file) + bit. */
typedef struct ref_cursor {
    int64_t pos;
    int32_t bit;
} ref_cursor;

/*
 * bitReader (0x5092A0): reads n (1..16) bits LSB-first at c, sign-extends
 * from n bits into *out and advances c (bit back to 0..7, pos by whole
 * bytes). A read whose bits lie past the end of s, n outside 1..16 or a bit
 * offset outside 0..7 is an error; c is then unchanged.
 */
int ref_bits_read(ref_stream *s, ref_cursor *c, int n, int16_t *out, ff_error *err);
/* ReadPositionType (0x509320), ReadRotationType (0x509370), ReadBoneScale (0x5093F0). */
int ref_read_position(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err);
int ref_read_rotation(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err);
int ref_read_scale(ref_stream *s, ref_cursor *c, int16_t *out, ff_error *err);
/*
 * Reading routine r (ref/readlog.h's REF_ROUTINE_MAP) at c: n is the
 * bitReader's bit count, unused by the value readers. Returns as that
 * routine does; a routine r outside the map is an error (FF_E_INTERNAL),
 * c unchanged.
 */
int ref_read_routine(ref_routine r, ref_stream *s, ref_cursor *c, int n, int16_t *out,
                     ff_error *err);

struct ref_read_log;

/* One model being animated: the engine's Model + Files + skeleton + AnimCmd. */
typedef struct ref_anim {
    const dat_file *dat; /* borrowed; must outlive the ref_anim */
    ref_stream stream;   /* the whole file */
    uint8_t *skel;       /* caller-owned: DAT_SKEL_HEADER + 48 * bones bytes */
    unsigned bones;
    ref_animcmd cmd;
    unsigned tick; /* calls since the last StartClip, for errors */
    /*
     * The posed skeleton (ref/pose.h), both optional and borrowed (they must
     * outlive their use). pose NULL (what ref_anim_init sets): no matrix
     * rebuild, the frame level. Otherwise every call that decodes a frame
     * ends with BuildBoneMatrices under these options, where docs/engine.md
     * section 4 step 5 calls it (not the end call that returns 1, nor a call
     * that fails). pose_near, when not NULL (bones entries), receives the
     * near masks of each rebuild.
     */
    const ref_pose_opts *pose;
    uint16_t *pose_near;
    /* NULL, or sin and cos looked up instead of computed (ref_trig_table). */
    const ref_trig_table *pose_trig;
    /* NULL (as init leaves it): no recording. Else every read of the following
     * calls is appended to it (ref/readlog.h); the caller owns it and clears it. */
    struct ref_read_log *log;
    /*
     * The quirk switches (ref/quirks.h): 0 (what init sets) is the engine.
     * Each set bit reads that row plainly (a quirk) or departs there (a
     * departure), through a slower decoder (ref/plain.c); the read log is not
     * kept then. wide, when not NULL (caller-owned, REF_WIDE_SLOTS(bones)
     * entries), holds the values as the switched reading has them where an
     * unwrapped value does not fit its field: root x y z, then per bone rot
     * x y z and scale x y z; wframe and wtotal are the frame counter and
     * count of a reading whose count does not wrap (REF_Q_SLOW_TOTAL). A
     * field's bytes hold the low bits of these.
     */
    uint32_t plain;
    int32_t *wide;
    int32_t wframe, wtotal;
    /* What the decoding of the clip since its StartClip met (REF_SEEN_*): no
     * result depends on it; the quirk pass uses it to skip rows that cannot bite. */
    uint8_t seen;
} ref_anim;

#define REF_SEEN_SCALED 0x01    /* a frame's mode bit was 1 */
#define REF_SEEN_FELL 0x02      /* a frame's mode bit 0 cleared a set flag bit 0 */
#define REF_SEEN_ROOT_WRAP 0x04 /* a root sum wrapped at 16 bits */

/* Entries of ref_anim.wide for a skeleton of `bones` bones, and their indexes. */
#define REF_WIDE_SLOTS(bones) (3u + 6u * (unsigned)(bones))
#define REF_WIDE_ROOT(k) (k)
#define REF_WIDE_ROT(b, k) (3u + 6u * (unsigned)(b) + (unsigned)(k))
#define REF_WIDE_SCALE(b, k) (6u + 6u * (unsigned)(b) + (unsigned)(k))

/* Bytes a skeleton buffer needs for this file (0 when it has no model). */
size_t ref_skel_size(const dat_file *dat);

/*
 * Binds a to dat and copies the file's skeleton bytes into skel (size at
 * least ref_skel_size(dat)). cmd starts zeroed, pose and pose_near NULL. Fails when the file has no
 * model or skel_size is too small.
 */
int ref_anim_init(ref_anim *a, const dat_file *dat, uint8_t *skel, size_t skel_size,
                  ff_error *err);
/* Copies the file's skeleton bytes into a->skel again (as loaded), and into
 * a->wide when there is one. */
void ref_anim_reset_skeleton(ref_anim *a);

/*
 * StartClip (0x509440) then its first Battle_ReadAnimation, exactly as
 * docs/engine.md section 5; the mode bits are whatever a->cmd.flags holds.
 * *ret receives the engine's return value. On error (clip out of range, read
 * past the end of the file) returns -1 with file, clip, tick and bit offset
 * in err; a's state is then unspecified until the next StartClip.
 */
int ref_start_clip(ref_anim *a, int16_t clip, int *ret, ff_error *err);
/* Battle_ReadAnimation (0x508F90), one tick, docs/engine.md section 4. */
int ref_read_animation(ref_anim *a, int *ret, ff_error *err);

/*
 * What QueueAnimation reads to decide the speed (docs/pose.md section 5): the
 * entity's byte +2 (bit 3 keeps the statuses from the speed), its status
 * byte +9 (0x80 Slow, 0x40 Haste) and the sequence pair its +0x74 points
 * to (bytes 0 and 2 must be equal).
 */
#define REF_ENTITY_NO_SPEED 0x08 /* entity +2 bit 3 */
#define REF_STATUS_SLOW 0x80     /* entity +9 */
#define REF_STATUS_HASTE 0x40
typedef struct ref_entity_speed {
    uint8_t byte2;
    uint8_t status;
    const uint8_t *pair; /* 3 bytes; NULL: the pointer is NULL */
} ref_entity_speed;

/*
 * The body's AnimCmd flags QueueAnimation leaves from `flags` (what the
 * AnimCmd held): SLOW and FAST cleared; then, when status & 0xC0, the
 * pair's byte 0 equals its byte 2 (read only then) and +2 bit 3 is clear,
 * SLOW when status & 0x80, else FAST. Never both. A pair the routine would
 * read through a NULL pointer is an error (the engine reads address 0);
 * *out is then unchanged.
 */
int ref_queue_flags(const ref_entity_speed *s, uint8_t flags, uint8_t *out, ff_error *err);

/*
 * Body + weapon lockstep on the battle Entity (docs/engine.md section 3):
 * QueueAnimation (0x509520) decides the speed from speed (ref_queue_flags
 * on the body's AnimCmd, the weapon's bits 0-1 then copied from the
 * body's), starts the clip on the weapon (when present) then the body;
 * AdvanceBy1 (0x5094F0) advances the weapon then the body. *ret is the
 * body's result. speed NULL is not the game: the AnimCmd flags are left as
 * the caller set them (a driver of the older reading, which presets them:
 * the glTF export reaches every mode that way).
 */
typedef struct ref_entity {
    ref_anim *body;
    ref_anim *weapon; /* NULL: no weapon model */
    const ref_entity_speed *speed;
} ref_entity;
int ref_queue_animation(ref_entity *e, int16_t clip, int *ret, ff_error *err);
int ref_advance_by1(ref_entity *e, int *ret, ff_error *err);

#endif
