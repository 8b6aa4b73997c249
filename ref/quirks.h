/*
 * ref/quirks.h: the engine's quirks and the common departures from it, one
 * table (docs/quirks.md). Each row names a place where the engine's result
 * is not what a plain reading of the bits gives (a quirk), or where a
 * decoder commonly departs from the engine (a departure), with a switch: a
 * bit of ref_anim.plain that makes the reference read plainly there (for a
 * quirk) or depart (for a departure). Mask 0 is the engine, bit for bit.
 *
 * REF_QUIRK_MAP(X): X(id, name, kind, observable, engine, plain, anchor)
 *   name       the row's JSON and command-line name
 *   kind       QUIRK (the engine's) or DEPARTURE (a decoder's)
 *   observable 1 when switching the row can change a value the reference
 *              produces; 0 when it cannot (the text says why)
 *   engine     what the engine does, "the engine ..." completes it
 *   plain      what the switched reading does, "your decoder ..." completes it
 *   anchor     where docs describe the engine's behaviour
 *
 * Only a table and its lookups: nothing here decodes, allocates or prints.
 */
#ifndef FF8_REF_QUIRKS_H
#define FF8_REF_QUIRKS_H

#include <stdint.h>

/* clang-format off */
#define REF_QUIRK_MAP(X)                                                                          \
    X(ROT_WRAP, "rot-wrap", QUIRK, 1,                                                             \
      "wraps rotation sums at 16 bits (s16 fields)",                                              \
      "does not wrap rotation sums at 16 bits",                                                   \
      "docs/engine.md §4")                                                                        \
    X(ROOT_WRAP, "root-wrap", QUIRK, 1,                                                           \
      "wraps root translation sums at 16 bits (s16 fields)",                                      \
      "does not wrap root translation sums at 16 bits",                                           \
      "docs/engine.md §4")                                                                        \
    X(SCALE_WRAP, "scale-wrap", QUIRK, 1,                                                         \
      "stores a scale payload + 1024 in 16 bits (0x7C00 + 1024 is -32768)",                       \
      "does not wrap scale payload + 1024 at 16 bits (0x7C00 + 1024 gives 32768)",                \
      "docs/engine.md §7")                                                                        \
    X(SLOW_TOTAL, "slow-total-wrap", QUIRK, 1,                                                    \
      "sets a SLOW clip's frame count to (2n - 1) & 0xFF, which wraps past 128 frames",           \
      "does not wrap the SLOW frame count (2n - 1) at 8 bits",                                    \
      "docs/engine.md §5")                                                                        \
    X(SLOW_HALF, "slow-half-loss", QUIRK, 1,                                                      \
      "halves each SLOW half-step toward zero, so an odd delta loses 1 over its two halves",      \
      "does not lose 1 on an odd SLOW delta (its second half-step adds the remainder)",           \
      "docs/engine.md §4")                                                                        \
    X(SLOW_FAST_OVERREAD, "slow-fast-overread", QUIRK, 1,                                         \
      "reads on past a clip's stream under SLOW+FAST (about one frame of the following bytes)",   \
      "stops at the end of the clip's stream under SLOW+FAST",                                    \
      "docs/engine.md §4")                                                                        \
    X(START_RESET, "start-reset", QUIRK, 1,                                                       \
      "discards the file's rest rotations and root offsets at StartClip (sets them to 0)",        \
      "keeps the file's rest rotations and root offsets at StartClip",                            \
      "docs/engine.md §5")                                                                        \
    X(BITREADER_LOAD, "bitreader-load", QUIRK, 0,                                                 \
      "loads 3 bytes a read, up to 2 bytes past the last bit it uses (no value depends on them)", \
      "loads only the bytes holding the bits it uses (no result of the reference can show it)",   \
      "docs/engine.md §4")                                                                        \
    X(POSE_OVERRUN, "pose-overrun", QUIRK, 0,                                                     \
      "overruns BuildBoneMatrices' 80-slot arrays on a scale-path skeleton past 80 bones",        \
      "poses every bone (the reference refuses such a pose rather than invent it)",               \
      "docs/pose.md §2")                                                                          \
    X(HALF_SHIFT, "half-shift", DEPARTURE, 1,                                                     \
      "halves SLOW deltas by C division (toward zero)",                                           \
      "halves SLOW deltas by a shift (toward minus infinity)",                                    \
      "docs/engine.md §4")                                                                        \
    X(SCALE_ACCUM, "scale-accumulated", DEPARTURE, 1,                                             \
      "stores bone scales as absolute values",                                                    \
      "accumulates bone scales like rotations",                                                   \
      "docs/engine.md §4")                                                                        \
    X(SCALE_DROP, "scale-dropped", DEPARTURE, 1,                                                  \
      "stores the bone scales it reads on the scale path",                                        \
      "reads bone scales but drops them",                                                         \
      "docs/engine.md §4")                                                                        \
    X(MODE_OR, "mode-bit-or", DEPARTURE, 1,                                                       \
      "stores every frame's mode bit into the skeleton flags' bit 0",                             \
      "ORs the frame's mode bit into the flags (a set bit never clears)",                         \
      "docs/engine.md §4")                                                                        \
    X(WIDTH_SEXT, "width-sext", DEPARTURE, 1,                                                     \
      "indexes the rotation width table with the 2-bit type masked with 3",                       \
      "indexes the rotation width table with the sign-extended type (types 2, 3 read 9, 16 bits)",\
      "docs/engine.md §2")                                                                        \
    X(FAST_ONCE, "fast-once", DEPARTURE, 1,                                                       \
      "decodes two frames a call under FAST",                                                     \
      "decodes one frame a call under FAST",                                                      \
      "docs/engine.md §4")                                                                        \
    X(FRAME_NOWRAP, "frame-nowrap", DEPARTURE, 0,                                                 \
      "counts frames in a byte (it never passes the frame count, which fits a byte)",             \
      "counts frames without wrapping (alone it changes nothing; see slow-total-wrap)",           \
      "docs/engine.md §4")
/* clang-format on */

typedef enum ref_quirk {
#define REF_QUIRK_ENUM(id, name, kind, obs, engine, plain, anchor) REF_Q_##id,
    REF_QUIRK_MAP(REF_QUIRK_ENUM)
#undef REF_QUIRK_ENUM
        REF_Q__COUNT
} ref_quirk;

#define REF_QUIRK_BIT(q) (1u << (q))
/* Every row's bit. */
#define REF_QUIRK_ALL ((1u << REF_Q__COUNT) - 1u)

typedef enum ref_quirk_kind { REF_QUIRK_KIND_QUIRK, REF_QUIRK_KIND_DEPARTURE } ref_quirk_kind;

typedef struct ref_quirk_def {
    ref_quirk id;
    const char *name;
    ref_quirk_kind kind;
    int observable;
    const char *engine, *plain, *anchor;
} ref_quirk_def;

/* The row of q; NULL when q is not a row. */
const ref_quirk_def *ref_quirk_def_of(ref_quirk q);
/* The row named name; -1 when none is. */
int ref_quirk_from_name(const char *name);

#endif
