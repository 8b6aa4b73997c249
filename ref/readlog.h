/*
 * ref/readlog.h: the read log of one engine call. When a ref_anim carries a
 * log (ref_anim.log, NULL by default), the decoder records every read it
 * makes, in call order, with the shape the original's routines give them:
 * each value reader (ReadPositionType, ReadRotationType, ReadBoneScale) is
 * one record at depth 0, followed by the bitReader calls it makes at depth
 * 1; the mode bit, which Battle_ReadAnimation reads with bitReader itself,
 * is a bitReader record at depth 0. The emulated side's replay fills the
 * same records from the original's calls (emu/replay.c), so the two logs
 * align record by record.
 *
 * With no log the decoder is the same code as without logs (the frame
 * decoder is inlined once with the log and once without); with a log it
 * takes the one-call-per-field path that mirrors the original's calls. The
 * log's storage is the caller's: nothing here allocates, prints or exits.
 *
 * Pose helpers (docs/pose.md) join as further rows of REF_ROUTINE_MAP, logged by
 * the reference's pose code and hooked by name on the emulated side like
 * the readers: a helper's record carries a digest of its inputs where a
 * read has its cursor before, and of its outputs as value and cursor after,
 * so alignment and cause signatures (harness/core) apply unchanged.
 */
#ifndef FF8_REF_READLOG_H
#define FF8_REF_READLOG_H

#include <stddef.h>
#include <stdint.h>

/*
 * The reading routines, in the profile's names (docs/engine.md section 2):
 * the only list of them. The routines a read log names, the leaf level's
 * routines (emu/engine/game.h's emu_leaf, harness/run/leaf.c) and the
 * profile's rows for them (emu/image/profile.h) are all derived from it.
 */
#define REF_ROUTINE_MAP(XX)                                                                        \
    XX(BITREADER, "bitReader")                                                                     \
    XX(POSITION, "ReadPositionType")                                                               \
    XX(ROTATION, "ReadRotationType")                                                               \
    XX(SCALE, "ReadBoneScale")

/* The type bits each routine of REF_ROUTINE_MAP reads before its payload (bitReader: none). */
#define REF_TYPE_BITS_BITREADER 0
#define REF_TYPE_BITS_POSITION 2
#define REF_TYPE_BITS_ROTATION 3
#define REF_TYPE_BITS_SCALE 1

typedef enum ref_routine {
#define REF_ROUTINE_ENUM(id, name) REF_R_##id,
    REF_ROUTINE_MAP(REF_ROUTINE_ENUM)
#undef REF_ROUTINE_ENUM
        REF_R__COUNT
} ref_routine;

/* One call of a reading routine. */
typedef struct ref_read {
    uint8_t routine;        /* ref_routine */
    uint8_t depth;          /* 0: called by the decoding routine; 1: by a value reader */
    int16_t n;              /* bitReader: its bit count; value readers: 0 */
    int16_t value;          /* what it returned (AX) */
    int32_t bit, bit_after; /* the cursor's bit offset before and after the call */
    int64_t pos, pos_after; /* the cursor's byte, counted from the clip's first byte */
    uint32_t site;          /* the original's log: the call's return address; here 0 */
} ref_read;

typedef struct ref_read_log {
    ref_read *reads; /* caller-owned, cap records */
    size_t cap;
    size_t n;     /* records kept (at most cap) */
    size_t total; /* records made; total > n: the log was too short */
    int64_t base; /* set by the engine each tick: file offset of the clip's first byte */
} ref_read_log;

/* Binds a log to caller storage and empties it. */
void ref_read_log_init(ref_read_log *log, ref_read *reads, size_t cap);
/* Forgets the records (keeps the storage). */
void ref_read_log_clear(ref_read_log *log);
/* "bitReader", ...; "?" out of range. */
const char *ref_routine_name(ref_routine r);

#endif
