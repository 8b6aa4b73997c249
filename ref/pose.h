/*
 * ref/pose.h: the posed skeleton of the reference engine (docs/pose.md):
 * BuildBoneMatrices (0x508C90) and ComputeBonesWorldMatrices (0x5095B0) on
 * the game's own skeleton bytes, the fixed-point helpers they are made of,
 * and the pose options that name every choice docs/pose.md section 3 leaves open.
 *
 * Everything here is a pure function on plain values or on caller-owned
 * bytes: no allocation, no globals, no printing, no exits. The bone writer
 * touches bone+0x10 .. bone+0x21 (s16 m[3][3]) and bone+0x24 .. bone+0x2F
 * (s32 t[3]) and nothing else: the pad word at bone+0x22 is never read or
 * written. Cells wrap in 16 bits and nothing saturates; the sums of
 * products behind translations and scale vectors are done in the width the
 * options name (32 bits wrapping, or 64 bits exact), everything else wraps
 * in 32 bits as the game's imul, add and sar do.
 */
#ifndef FF8_REF_POSE_H
#define FF8_REF_POSE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* ---- options: one list per choice (docs/pose.md section 3), default first ---- */

/* Order of the axis rotations in the local matrix: "xyz" is R = Rx.Ry.Rz. */
#define REF_POSE_ORDER_MAP(XX)                                                                     \
    XX(XYZ, "xyz") XX(XZY, "xzy") XX(YXZ, "yxz") XX(YZX, "yzx") XX(ZXY, "zxy") XX(ZYX, "zyx")
/* How 4096.sin(a) becomes an integer: rounded, truncated, floored, or the PsyQ table. */
#define REF_POSE_TRIG_MAP(XX)                                                                      \
    XX(X87_NEAREST, "x87-nearest")                                                                 \
    XX(X87_TRUNC, "x87-trunc") XX(X87_FLOOR, "x87-floor") XX(PSX_TABLE, "psx-table")
/* Rounding of each matrix product cell: Copy5's nearest-even, or floor (>> 12). */
#define REF_POSE_STEP_MAP(XX) XX(NEAREST_EVEN, "nearest-even") XX(FLOOR, "floor")
/* The child's offset vector v: its axis and sign (L along that axis). */
#define REF_POSE_OFFSET_MAP(XX)                                                                    \
    XX(PZ, "+z") XX(NZ, "-z") XX(PY, "+y") XX(NY, "-y") XX(PX, "+x") XX(NX, "-x")
/* L: the parent's bone size or the bone's own. */
#define REF_POSE_LENGTH_MAP(XX) XX(PARENT, "parent") XX(OWN, "own")
/*
 * The model scale s (skeleton +2) on the root's rotation: multiplied in
 * (0x56BEF0 with (s, s, s) on the plain path, 0x508C30 on the scale path:
 * the byte-level notes), or not at all (the older reading).
 */
#define REF_POSE_ROOT_MAP(XX) XX(MODEL, "model") XX(NONE, "none")
/*
 * Scale path (skeleton flag bit0): "stack" is the notes' layout (matrices
 * without bone scale and running vectors on two 80-slot stack arrays, each
 * bone's columns scaled by its running vector); "pre" and "post" are the
 * older readings: the local rotation's columns scaled before, or the
 * composed matrix's after, composing with the parent's stored matrix.
 */
#define REF_POSE_SCALE_MAP(XX) XX(STACK, "stack") XX(PRE, "pre") XX(POST, "post")
/*
 * Width of the integer products and sums at one arithmetic site: 32-bit two's
 * complement (imul, add, sar: a sum past 2^31 wraps) or 64-bit (imul into
 * edx:eax, add/adc, shrd: exact), the shifted result kept in 32 bits either
 * way. One choice per site (REF_POSE_KEY_MAP's width-* keys).
 */
#define REF_POSE_WIDTH_MAP(XX) XX(32, "32") XX(64, "64")

#define REF_POSE_ENUM_(prefix, name, text) prefix##name,
#define REF_POSE_ORDER_ENUM_(name, text) REF_POSE_ENUM_(REF_ORDER_, name, text)
#define REF_POSE_TRIG_ENUM_(name, text) REF_POSE_ENUM_(REF_TRIG_, name, text)
#define REF_POSE_STEP_ENUM_(name, text) REF_POSE_ENUM_(REF_STEP_, name, text)
#define REF_POSE_OFFSET_ENUM_(name, text) REF_POSE_ENUM_(REF_OFFSET_, name, text)
#define REF_POSE_LENGTH_ENUM_(name, text) REF_POSE_ENUM_(REF_LENGTH_, name, text)
#define REF_POSE_ROOT_ENUM_(name, text) REF_POSE_ENUM_(REF_ROOT_, name, text)
#define REF_POSE_SCALE_ENUM_(name, text) REF_POSE_ENUM_(REF_SCALE_, name, text)
#define REF_POSE_WIDTH_ENUM_(name, text) REF_POSE_ENUM_(REF_WIDTH_, name, text)
typedef enum ref_pose_order {
    REF_POSE_ORDER_MAP(REF_POSE_ORDER_ENUM_) REF_ORDER__COUNT
} ref_pose_order;
typedef enum ref_pose_trig { REF_POSE_TRIG_MAP(REF_POSE_TRIG_ENUM_) REF_TRIG__COUNT } ref_pose_trig;
typedef enum ref_pose_step { REF_POSE_STEP_MAP(REF_POSE_STEP_ENUM_) REF_STEP__COUNT } ref_pose_step;
typedef enum ref_pose_offset {
    REF_POSE_OFFSET_MAP(REF_POSE_OFFSET_ENUM_) REF_OFFSET__COUNT
} ref_pose_offset;
typedef enum ref_pose_length {
    REF_POSE_LENGTH_MAP(REF_POSE_LENGTH_ENUM_) REF_LENGTH__COUNT
} ref_pose_length;
typedef enum ref_pose_root { REF_POSE_ROOT_MAP(REF_POSE_ROOT_ENUM_) REF_ROOT__COUNT } ref_pose_root;
typedef enum ref_pose_scale {
    REF_POSE_SCALE_MAP(REF_POSE_SCALE_ENUM_) REF_SCALE__COUNT
} ref_pose_scale;
typedef enum ref_pose_width {
    REF_POSE_WIDTH_MAP(REF_POSE_WIDTH_ENUM_) REF_WIDTH__COUNT
} ref_pose_width;

/*
 * What a choice can change, which is where a search must look to decide it
 * (one value a key, REF_POSE_KEY_MAP's fifth column):
 *   CELLS  the bone matrices' cells on the plain path
 *   T      the bone translations on the plain path
 *   SCALE  the bones of skeletons that take the scale path
 *   SUMS   only sums of products past 2^31 (extreme states, world matrices)
 *   NONE   nothing: the values agree on every input (a width site whose
 *          result keeps bits that a 32-bit product holds exactly); the
 *          choice is kept so that a report can say so
 */
#define REF_POSE_SHOWS_MAP(XX)                                                                     \
    XX(CELLS, "cells") XX(T, "translations") XX(SCALE, "scale") XX(SUMS, "sums") XX(NONE, "none")
#define REF_POSE_SHOWS_ENUM_(name, text) REF_POSE_ENUM_(REF_SHOWS_, name, text)
typedef enum ref_pose_shows {
    REF_POSE_SHOWS_MAP(REF_POSE_SHOWS_ENUM_) REF_SHOWS__COUNT
} ref_pose_shows;

/*
 * The options, one row a key in canonical text order: key enum, field, its
 * type, text name, what it shows (ref_pose_shows), its value map. Adding a
 * choice is adding a row (and its field below): every list, count, size
 * and search stage is derived from these rows.
 */
#define REF_POSE_KEY_MAP(XX)                                                                       \
    XX(ORDER, order, ref_pose_order, "order", CELLS, REF_POSE_ORDER_MAP)                           \
    XX(TRIG, trig, ref_pose_trig, "trig", CELLS, REF_POSE_TRIG_MAP)                                \
    XX(STEP, step, ref_pose_step, "step", CELLS, REF_POSE_STEP_MAP)                                \
    XX(ROOT, root, ref_pose_root, "root", CELLS, REF_POSE_ROOT_MAP)                                \
    XX(OFFSET, offset, ref_pose_offset, "offset", T, REF_POSE_OFFSET_MAP)                          \
    XX(LENGTH, length, ref_pose_length, "length", T, REF_POSE_LENGTH_MAP)                          \
    XX(SCALE, scale, ref_pose_scale, "scale", SCALE, REF_POSE_SCALE_MAP)                           \
    XX(WIDTH_T, width_t, ref_pose_width, "width-t", SUMS, REF_POSE_WIDTH_MAP)                      \
    XX(WIDTH_COLS, width_cols, ref_pose_width, "width-cols", NONE, REF_POSE_WIDTH_MAP)             \
    XX(WIDTH_MODEL, width_model, ref_pose_width, "width-model", NONE, REF_POSE_WIDTH_MAP)          \
    XX(WIDTH_VEC, width_vec, ref_pose_width, "width-vec", SUMS, REF_POSE_WIDTH_MAP)
#define REF_POSE_KEY_ENUM_(name, field, type, text, shows, map) REF_POSE_KEY_##name,
typedef enum ref_pose_key { REF_POSE_KEY_MAP(REF_POSE_KEY_ENUM_) REF_POSE_KEY__COUNT } ref_pose_key;

/*
 * One combination of the open choices. Plain data: a zeroed value is the
 * default combination (the first value of every list above), and a copy is
 * a copy. Only the REF_* values above are valid in each field. The width
 * sites: width_t the translations (0x56C3D0, Compose's translation in
 * 0x56C2F0 and the world matrices), width_vec the scale path's running
 * vectors, width_cols the column scaling (0x508C30), width_model the model
 * scale on the root (0x56BEF0).
 */
#define REF_POSE_FIELD_(name, field, type, text, shows, map) type field;
typedef struct ref_pose_opts {
    REF_POSE_KEY_MAP(REF_POSE_FIELD_)
} ref_pose_opts;
#undef REF_POSE_FIELD_

/* Combinations in the whole space (the product of the value counts). */
#define REF_POSE_COUNT_(name, text) +1
#define REF_POSE_KEY_COUNT_(name, field, type, text, shows, map) *(0 map(REF_POSE_COUNT_))
#define REF_POSE_OPTS_COUNT (1u REF_POSE_KEY_MAP(REF_POSE_KEY_COUNT_))
/*
 * Bytes enough for the canonical text form, NUL included: per key its name,
 * '=', ',' and (more than) its longest value, from the maps.
 */
#define REF_POSE_TEXT_CAT_(name, text) text
#define REF_POSE_KEY_TEXT_(name, field, type, text, shows, map)                                    \
    +sizeof(text) + sizeof(map(REF_POSE_TEXT_CAT_))
#define REF_POSE_OPTS_TEXT_MAX (1 REF_POSE_KEY_MAP(REF_POSE_KEY_TEXT_))
/* The shorthand key that sets every width site at once ("width=64"). */
#define REF_POSE_WIDTH_ALL "width"

/* The default combination (all zero). */
void ref_pose_opts_default(ref_pose_opts *o);
/* 1 when every field holds one of its listed values, else 0. */
int ref_pose_opts_valid(const ref_pose_opts *o);

/* "order", "trig", ...; NULL when key is out of range. */
const char *ref_pose_key_name(ref_pose_key key);
/* How many values key has; 0 when key is out of range. */
unsigned ref_pose_value_count(ref_pose_key key);
/* What key's choice can change (ref_pose_shows); REF_SHOWS_NONE when key is out of range. */
ref_pose_shows ref_pose_key_shows(ref_pose_key key);
/* "cells", "translations", ...; NULL when out of range. */
const char *ref_pose_shows_name(ref_pose_shows s);
/* 1 when key is one of the width-* sites. */
int ref_pose_key_is_width(ref_pose_key key);
/* Text of value v of key ("x87-floor", "+y", ...); NULL when either is out of range. */
const char *ref_pose_value_name(ref_pose_key key, unsigned v);
/* The value index o holds for key (REF_POSE_KEY__COUNT or more: 0). */
unsigned ref_pose_opts_get(const ref_pose_opts *o, ref_pose_key key);
/*
 * Sets one option, leaving the others as they are: the way to vary one
 * choice at a time. Returns -1 (o unchanged) when key or v is out of range.
 */
int ref_pose_opts_set(ref_pose_opts *o, ref_pose_key key, unsigned v);

/*
 * The enumerator: index 0 .. REF_POSE_OPTS_COUNT - 1 <-> combination, each
 * combination exactly once, index 0 the default, the last key of
 * REF_POSE_KEY_MAP varying fastest. ref_pose_opts_at returns -1 (o unchanged) for an index
 * out of range; ref_pose_opts_index returns REF_POSE_OPTS_COUNT for an
 * invalid o.
 */
int ref_pose_opts_at(unsigned index, ref_pose_opts *o);
unsigned ref_pose_opts_index(const ref_pose_opts *o);

/*
 * Parses the text form "order=xyz,trig=x87-nearest,step=nearest-even,
 * offset=+z,length=parent,root=model,scale=stack,width-t=32,...":
 * comma-separated key=value items, in any order, any subset of the keys
 * (the others take their defaults; "" is the default combination). No
 * spaces. "width=V" sets every width-* site to V (the single width of older
 * texts, golden traces among them); a width-* key given with it overrides
 * it for its site whatever the order. An unknown key, an unknown value, an
 * item without '=', an empty item or a key given twice is an FF_E_USAGE
 * error naming the item and listing what is accepted; *out is then left
 * unchanged. text may not be NULL.
 */
int ref_pose_opts_parse(const char *text, ref_pose_opts *out, ff_error *err);
/*
 * Writes the canonical text form (every key, in REF_POSE_KEY_MAP order) into
 * buf (n bytes, REF_POSE_OPTS_TEXT_MAX is always enough); an invalid field
 * prints as "?". Returns buf, or NULL when n is too small for the whole
 * text: buf then holds "" (n > 0), never a truncated text that would read
 * back as other options.
 */
char *ref_pose_opts_format(const ref_pose_opts *o, char *buf, size_t n);

/* ---- the PsyQ MATRIX and the helpers of 0x508C90 (docs/pose.md section 2) ---- */

/* A PsyQ MATRIX without its pad: Q12 cells (4096 = 1.0), row-major, and t. */
typedef struct ref_matrix {
    int16_t m[3][3];
    int32_t t[3];
} ref_matrix;

/* The 32-byte MATRIX at p (m at p+0, the pad at p+18 skipped, t at p+20). */
void ref_matrix_load(const uint8_t *p, ref_matrix *out);
/* Writes m and t at p; p+18 and p+19 (the pad) are not touched. */
void ref_matrix_store(uint8_t *p, const ref_matrix *in);
/* Bone b's runtime MATRIX (bone+0x10) of a skeleton (16-byte header, 48-byte bones). */
void ref_pose_bone_load(const uint8_t *skel, unsigned b, ref_matrix *out);

/*
 * sin / cos (0x56D130 / 0x56D100) of an s16 angle (4096 = 360 degrees),
 * times 4096, as an integer in -4096..4096. The x87 options compute
 * sin(a * 2pi/4096) in double (pi/2048 as a double constant) times 4096.0,
 * then round to nearest-even, toward zero or down (whatever the caller's
 * floating-point rounding mode). psx-table reads the quarter wave
 * T[i] = floor(4096 sin(2 pi i / 4096) + 0.5), i = 0..1024 (computed by that
 * formula on demand), mirrored over the four quadrants of a & 4095;
 * cos(a) = sin(a + 1024). An invalid t gives 0.
 */
int32_t ref_pose_sin(int16_t a, ref_pose_trig t);
int32_t ref_pose_cos(int16_t a, ref_pose_trig t);

/*
 * The emulation limit (docs/pose.md section 4) at its source: 1 when the value
 * 4096 sin(a) (resp. cos) before rounding lies within 2^-20 of the rounding
 * boundary of t, so that an x87 computing fsin in 80 bits and one computing
 * it through the host's double sin (Unicorn) may round it differently:
 * k + 0.5 for x87-nearest; a non-zero integer for x87-trunc (trunc is
 * continuous at 0); any integer for x87-floor. A value that is exactly an
 * integer in double (sin 0, cos 0, +-1 at the quarter turns) is exact on
 * every x87 too and is not flagged; psx-table (integers from a table) and
 * an invalid t are never flagged.
 */
int ref_pose_sin_near(int16_t a, ref_pose_trig t);
int ref_pose_cos_near(int16_t a, ref_pose_trig t);

/*
 * ref_pose_sin and ref_pose_cos of every s16 angle under one trig option,
 * for a caller that poses many states (the x87 options cost a libm sin and
 * cos per call; a lookup is the same value). 256 KiB; the caller owns it.
 * ref_trig_table_fill returns -1 (table untouched) for an invalid trig.
 */
typedef struct ref_trig_table {
    ref_pose_trig trig;
    int16_t sin[65536], cos[65536]; /* indexed by (uint16_t)angle */
} ref_trig_table;
int ref_trig_table_fill(ref_trig_table *t, ref_pose_trig trig);

/*
 * The Copy5 product (0x56C090): out = a.b, each cell the exact sum
 * sum_k a[i][k] b[k][j] divided by 4096, rounded to nearest-even (Copy5) or
 * down (floor), then wrapped to s16 (never saturated). out may alias a or b.
 */
void ref_pose_mul(const int16_t a[3][3], const int16_t b[3][3], ref_pose_step step,
                  int16_t out[3][3]);

/*
 * One axis matrix in the PsyQ sign convention, from c = cos(a), s = sin(a)
 * under t: axis 0 = Rx [[1,0,0],[0,c,-s],[0,s,c]], 1 = Ry [[c,0,s],[0,1,0],
 * [-s,0,c]], 2 = Rz [[c,-s,0],[s,c,0],[0,0,1]] (1 is 4096). The negation is
 * s16 (-(-32768) cannot happen: |s| <= 4096). axis outside 0..2: identity.
 */
void ref_pose_axis(int axis, int16_t a, ref_pose_trig t, int16_t out[3][3]);

/* Axis (0 x, 1 y, 2 z) at position k (0..2, left to right) of order; -1 when out of range. */
int ref_pose_order_axis(ref_pose_order order, int k);

/*
 * The local rotation, built like 0x56CD50: from the identity, multiplied on
 * the left by the rightmost axis of order first ("xyz": Rz(ang[2]), then
 * Ry(ang[1]), then Rx(ang[0]), so R = Rx.Ry.Rz), each product through
 * ref_pose_mul with step (the first product, Rc . I, is exact: Rc). ang is
 * (x, y, z). An invalid order gives the identity.
 */
void ref_pose_rotation(const int16_t ang[3], ref_pose_order order, ref_pose_trig trig,
                       ref_pose_step step, int16_t out[3][3]);
/* The same, sin and cos read from table when it holds trig's values (NULL: computed). */
void ref_pose_rotation_table(const int16_t ang[3], ref_pose_order order, ref_pose_trig trig,
                             ref_pose_step step, const ref_trig_table *table, int16_t out[3][3]);

/*
 * 0x56C3D0: out[i] = (sum_k m[i][k] v[k]) >> 12, s16 v in, s32 out; the
 * products and their sum in width w (32: wrapping; 64: exact), the shift
 * arithmetic (rounds down), the result's low 32 bits kept. (With one non-zero
 * component, as BuildBoneMatrices' offset vectors have, the widths agree: an
 * s16 product never passes 2^30.) An invalid w computes as 32.
 */
void ref_pose_apply(const int16_t m[3][3], const int16_t v[3], ref_pose_width w, int32_t out[3]);

/*
 * Compose (0x56C2F0): out.m = a.m . b.m (ref_pose_mul with step), out.t =
 * ((a.m . b.t) >> 12) + a.t with s32 b.t: products and their sum in width w
 * (32: wrapping; 64: exact; a sum past 2^31 then differs by a multiple of
 * 2^32 >> 12 = 2^20), arithmetic shift, low 32 bits, the addition of a.t
 * wrapping in 32 bits. out may alias a or b. An invalid w computes as 32.
 */
void ref_pose_compose(const ref_matrix *a, const ref_matrix *b, ref_pose_step step,
                      ref_pose_width w, ref_matrix *out);

/*
 * Column scaling (0x508C30 (src, v, dst), the notes' three arguments, here
 * in place): column j of m becomes (m[i][j] * v[j]) >> 12, the shift
 * arithmetic, the result wrapped to s16. Its width (width-cols) and the
 * model scale's (0x56BEF0, width-model) change no value: a cell keeps bits
 * 12..27 of the product, which a 32-bit product holds exactly; the keys
 * exist so that a report can say so (REF_SHOWS_NONE).
 */
void ref_pose_scale_columns(int16_t m[3][3], const int32_t v[3]);
/*
 * Scale vectors (Q12): root v = s << 2; child v = (s * parent) >> 10, the
 * s16 x s32 product in width w (32: wrapping; 64: exact), arithmetic shift,
 * low 32 bits kept. An invalid w computes as 32.
 */
void ref_pose_scale_root(const int16_t s[3], int32_t v[3]);
void ref_pose_scale_child(const int16_t s[3], const int32_t parent[3], ref_pose_width w,
                          int32_t v[3]);

/*
 * Root world translation: t[k] = (root[k] * model_scale) >> 8 (arithmetic
 * shift). Not a width choice: an s16 x s16 product never passes 2^30, so 32
 * and 64 bits agree on every input.
 */
void ref_pose_root_translation(const int16_t root[3], int16_t model_scale, int32_t t[3]);
/*
 * The child's s16 offset vector for offset: L on its axis, negated for the
 * "-" values (wrapping in s16: -(-32768) stays -32768), 0 elsewhere. An
 * invalid offset gives (0, 0, 0).
 */
void ref_pose_offset_vector(ref_pose_offset offset, int16_t length, int16_t v[3]);

/* ---- BuildBoneMatrices and ComputeBonesWorldMatrices ---- */

/* Bone counts the bone writer accepts (the skeleton's count is a u8). */
#define REF_POSE_MAX_BONES 255

/* The slots of each of the two stack arrays of the scale path (scale=stack). */
#define REF_POSE_STACK_SLOTS 80
/* ref_build_bone_matrices' result for a skeleton that overruns those arrays. */
#define REF_POSE_OVERRUN (-2)

/*
 * BuildBoneMatrices (0x508C90) on skel (16-byte header + 48 x bones bytes,
 * the game's layout), bones in index order, s the model scale (header +2).
 * For bone i, local = ref_pose_rotation(rot at bone+4) under o, and with
 * root=model a root's local has its 9 cells times s >> 12 (0x56BEF0 with
 * (s, s, s)); root=none leaves it as it is. Then:
 *   plain path (header flag bit0 clear), and the scale path under pre/post:
 *     root (parent -1): m = local; t[k] = (root[k] * s) >> 8;
 *     child: m = parent.m . local; t = parent.t + ref_pose_apply(parent.m,
 *       v, width_t), v with L (parent's or own bone size, s16) on the axis
 *       and sign of o->offset (a negated L wraps in s16);
 *     on the scale path the running vector is ref_pose_scale_root(bone
 *     scale) for a root, ref_pose_scale_child(bone scale, parent's,
 *     width_vec) for a child, and local's columns are scaled by it before
 *     composing (pre), or m's after (post);
 *   scale path under stack (the notes' layout): two arrays of
 *     REF_POSE_STACK_SLOTS slots, matrices M without bone scale and running
 *     vectors w. Root: M = local (model-scaled as above), w =
 *     ref_pose_scale_root(bone scale), m = M with columns scaled by w, t as
 *     above. Child: t = parent.t + ref_pose_apply(parent's stored, scaled
 *     m, v, width_t); M = M[parent] . local; w = ref_pose_scale_child(bone
 *     scale, w[parent], width_vec); m = M with columns scaled by w. A
 *     skeleton of more than REF_POSE_STACK_SLOTS bones on this path
 *     overruns the engine's arrays, whose effect is not the reference's to
 *     invent: the first REF_POSE_STACK_SLOTS bones are posed, the others
 *     left as they are, and REF_POSE_OVERRUN returned;
 * and m, t are stored at bone+0x10 / bone+0x24.
 *
 * Parents that are neither -1 nor an earlier bone ("irregular") are posed
 * as the engine most likely poses them: a later bone or the bone itself
 * (0 <= parent < bones) is read as its bytes stand (the previous rebuild's
 * or the file's), with a unit scale vector (4096) and, under stack, its
 * stored matrix as M, since the engine keeps those on its stack; a parent
 * outside the skeleton (< -1 or >= bones), memory the reference does not
 * model, poses the bone as a root.
 *
 * near, when not NULL, receives bones masks (REF_POSE_NEAR_* bits): the
 * cells and translations that depend, through a non-zero factor, on a sin
 * or cos value that ref_pose_*_near flags. It is all zero under x87-nearest
 * and psx-table for every s16 angle.
 *
 * Returns the number of irregular bones (0 for a well-formed skeleton),
 * REF_POSE_OVERRUN as above, or -1 when skel or o is NULL, o is invalid or
 * bones > REF_POSE_MAX_BONES (nothing written).
 */
int ref_build_bone_matrices(uint8_t *skel, unsigned bones, const ref_pose_opts *o);
int ref_build_bone_matrices_near(uint8_t *skel, unsigned bones, const ref_pose_opts *o,
                                 uint16_t *near);
/* The same with ref_pose_rotation_table's table (NULL: computed). */
int ref_build_bone_matrices_table(uint8_t *skel, unsigned bones, const ref_pose_opts *o,
                                  uint16_t *near, const ref_trig_table *table);

/* 1 when bone b's parent is -1 or an earlier bone (b < bones assumed). */
int ref_pose_parent_regular(const uint8_t *skel, unsigned b);

/*
 * ComputeBonesWorldMatrices (0x5095B0): every bone's MATRIX in place =
 * ref_pose_compose(base, bone, o->step, o->width_t). base is only read, and
 * copied before the first write (so it may even point into skel). Returns
 * 0, or -1 (nothing written) on NULL arguments, an invalid o or
 * bones > REF_POSE_MAX_BONES.
 */
int ref_world_matrices(uint8_t *skel, unsigned bones, const ref_matrix *base,
                       const ref_pose_opts *o);

/* Near masks: bit 3r+c for m[r][c], bit 9+k for t[k]. */
#define REF_POSE_NEAR_CELL(r, c) ((uint16_t)(1u << (3 * (r) + (c))))
#define REF_POSE_NEAR_T(k) ((uint16_t)(1u << (9 + (k))))
#define REF_POSE_NEAR_ALL 0x0FFFu

/*
 * Carries bone near masks (from ref_build_bone_matrices_near, bones
 * entries) through ref_world_matrices with base, in place: world m[i][j]
 * depends on bone m[k][j] where base m[i][k] != 0, world t[i] on bone t[k]
 * likewise (the base itself is exact). Call it with the same base.
 */
void ref_pose_near_world(const ref_matrix *base, uint16_t *near, unsigned bones);

#endif
