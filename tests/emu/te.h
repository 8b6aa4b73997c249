/*
 * tests/emu/te.h: helpers shared by the emu suites: paths of the build's
 * stand-in outputs, file reading, loud must-succeed wrappers, a bit packer
 * written here from docs/engine.md (independent of ref/encode.c) and a tiny
 * hand-made model file with one or more clips.
 *
 * Test code only.
 */
#ifndef FF8_TESTS_EMU_TE_H
#define FF8_TESTS_EMU_TE_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/emu.h"
#include "emu/engine/game.h"
#include "emu/engine/image.h"
#include "emu/image/profile.h"
#include "common/error.h"
#include "tests/support/ts.h"
#include "tests/support/ts_engine.h"

/* Fails the running test with the fault when call != 0. */
#define TE_CALL(call, f)                                                                           \
    do {                                                                                           \
        int te_rc_ = (call);                                                                       \
        cr_assert(te_rc_ == 0, "%s faulted: %s: %s\n%s", #call, emu_fault_name((f)->kind),         \
                  (f)->detail, (f)->disasm);                                                       \
    } while (0)

/* "<build>/emu/standin/<name>" (static buffer per call site is fine in tests). */
const char *te_standin_path(const char *name);
/* The built-in stand-in profile. */
void te_standin_profile(emu_profile *p);
/* standin.exe (or a variant by file name) loaded with the stand-in profile. */
emu_image *te_standin_image(const char *name);
/* An engine under test (ts_engine) on img with the image's profile. */
emu *te_engine(const emu_image *img, uint64_t budget);
/* The same on the engine of ops (ts_unicorn() for the tests pinned to Unicorn). */
emu *te_engine_on(const emu_image *img, uint64_t budget, const emu_ops *ops);
/* Address of a routine of the profile by name (test fails when absent). */
uint32_t te_routine(const emu_profile *p, const char *name);

/* ---- bit packer, LSB-first ---- */
typedef struct te_bits {
    uint8_t buf[1024];
    size_t bits;
} te_bits;
void te_put(te_bits *b, uint32_t v, int n);
size_t te_bytes(const te_bits *b);
/* Narrowest encodings (widths 3/6/9/16 and 3/6/8/12, docs/engine.md section 2). */
void te_pos(te_bits *b, int v);
void te_rot(te_bits *b, int v);   /* 0 is written as the absent bit */
void te_scale(te_bits *b, int v); /* 1024 is the absent bit */

/* ---- tiny model file ---- */
#define TE_SKEL_OFF 0u
#define TE_GEOM_OFF 112u
#define TE_ANIM_OFF 128u
typedef struct te_file {
    uint8_t data[4096];
    size_t size;
    uint32_t clip_off[4]; /* absolute offsets of the clips' frame-count bytes */
} te_file;
/*
 * Two bones, initial rotations (100, 200, 300) and (-5, 6, -7), scales
 * 1024, root 0; geometry 16 zero bytes; animation section with nclips
 * clips: clip 0 is the two-frame clip of te_clip0_* below, clip k > 0 a
 * copy of clip 0 with frame count byte frames[k].
 */
void te_make_file(te_file *f, unsigned nclips, const uint8_t *frames);
/* Frame deltas of clip 0 (root x y z, then bone 0 x y z, bone 1 x y z). */
extern const int te_clip0_frames[2][9];
/* Bits each frame of clip 0 takes: 56 and 51. */
extern const unsigned te_clip0_bits[2];

/* ---- hand-made skeletons for the pose routines ---- */
typedef struct te_bone {
    int parent, size, rot[3], scale[3];
} te_bone;
/*
 * A model file holding a skeleton (count n <= 80, flags, model scale, root
 * translation, the bones with zero runtime bytes) at TE_SKEL_OFF, then 16
 * zero geometry bytes and an animation section with no clip.
 */
void te_make_skeleton(te_file *f, int flags, int model_scale, const int root[3],
                      const te_bone *bones, unsigned n);
/* An engine under test (ts_engine) on img (keep_matrices as given) with f loaded. */
emu_game *te_game(emu_image *img, int keep, const te_file *f);
/* Loads f into an open game in place of its file (as a run's worker does file after file). */
void te_load(emu_game *g, const te_file *f);
/* Expects the cells and translation of got (never the pad) to be m and t. */
void te_expect_matrix(const emu_matrix *got, const int m[9], const int t[3], const char *what,
                      int index);

#endif
