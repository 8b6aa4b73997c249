/*
 * tests/ref/tb.h: test builders shared by the ref suites: a bit packer that
 * is independent of ref/encode.c (explicit value types, widths written out
 * here from docs/engine.md), a skeleton filler, an in-memory battle .dat
 * assembler and loud assertion helpers.
 *
 * Test code only: builders allocate exact-size buffers so that AddressSanitizer
 * catches any read past a file's last byte.
 */
#ifndef FF8_TESTS_REF_TB_H
#define FF8_TESTS_REF_TB_H

#include <stddef.h>
#include <stdint.h>

#include "common/le.h"
#include "ref/dat.h"
#include "ref/engine.h"
#include "common/error.h"
#include "tests/support/ts.h"


/* ---- bit packer, LSB-first ---- */
#define TB_BITS_MAX 8192
typedef struct tb_bits {
    uint8_t buf[TB_BITS_MAX];
    size_t bits;
} tb_bits;

void tb_bits_init(tb_bits *b);
void tb_put(tb_bits *b, uint32_t v, int n); /* low n bits of v */
size_t tb_bytes(const tb_bits *b);          /* bits rounded up */
/* ReadPositionType encoding with an explicit type 0..3 (3/6/9/16 bits). */
void tb_pos(tb_bits *b, int type, int32_t v);
/* ReadRotationType encoding; type -1 writes the absent bit (value 0). */
void tb_rot(tb_bits *b, int type, int32_t v);
/* ReadBoneScale encoding: absent bit, or 1 then the 16-bit payload. */
void tb_scale_absent(tb_bits *b);
void tb_scale_payload(tb_bits *b, uint16_t payload);

/* ---- skeleton ---- */
#define TB_SKEL_MAX (16 + 48 * 255)
/* Fills 16 + 48 * bones bytes: count, flag byte, a recognisable pattern in
 * every unread field, root 0, parents, rotations 0, scales 1024. */
size_t tb_skel(uint8_t *out, unsigned bones, uint8_t flags);
/* Root component k and bone b's rotation / scale component k. */
uint8_t *tb_root(uint8_t *skel, int k);
uint8_t *tb_rotp(uint8_t *skel, unsigned b, int k);
uint8_t *tb_scalep(uint8_t *skel, unsigned b, int k);

/* ---- .dat assembler ---- */
typedef struct tb_clip {
    const uint8_t *data; /* frame byte, then the stream */
    size_t len;
} tb_clip;

typedef struct tb_model {
    unsigned nsections; /* 11, 7, 10 or 8 */
    const uint8_t *skel;
    size_t skel_len;
    const tb_clip *clips;
    unsigned nclips;
    const uint8_t *tail; /* content of section 3, right after the animation */
    size_t tail_len;
} tb_model;

/* Header, skeleton (section 0), 4 geometry bytes (section 1), animation
 * (section 2: count, offsets, clips back to back), tail (section 3), later
 * sections empty at the end. Returns a malloc'd exact-size file. */
uint8_t *tb_build(const tb_model *m, size_t *size);
/* Asserts got equals want cell by cell, naming what and the first cell that differs. */
void tb_assert_m(const int16_t got[3][3], const int16_t want[3][3], const char *what);
/* Absolute offset of clip i in a file built by tb_build. */
size_t tb_clip_abs(const tb_model *m, unsigned i);

/* A parsed model ready to animate (skeleton buffer inside). */
typedef struct tb_fix {
    uint8_t *file;
    size_t size;
    dat_file dat;
    uint8_t skel[TB_SKEL_MAX];
    ref_anim a;
} tb_fix;

/* tb_build + dat_parse + ref_anim_init, asserting success. */
void tb_fix_load(tb_fix *f, const tb_model *m, const char *name);
void tb_fix_free(tb_fix *f);

/* ---- engine test shortcuts (assert on any error) ---- */
/* A monster "t.dat" with the given skeleton, clips (frame byte first) and tail. */
void tb_load(tb_fix *fx, const uint8_t *skel, size_t skel_len, tb_bits *const *clips, unsigned n,
             const uint8_t *tail, size_t tail_len);
int16_t tb_get_root(tb_fix *fx, int k);
int16_t tb_get_rot(tb_fix *fx, unsigned b, int k);
int16_t tb_get_scale(tb_fix *fx, unsigned b, int k);
/* Asserts every AnimCmd field, naming the case. */
void tb_check_cmd(const ref_animcmd *c, int clip, int flags, int off, int bit, int frame, int total,
                  const char *what);
/* ref_start_clip / ref_read_animation, returning the engine's result. */
int tb_start(tb_fix *fx, int clip);
int tb_tick(tb_fix *fx);
/* A frame of zero root deltas (3 x 5 bits), mode 0, absent rotations. */
void tb_idle_frame(tb_bits *b, unsigned bones);

/* Writes a little-endian u32. */

#endif
