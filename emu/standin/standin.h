/*
 * emu/standin/standin.h: the game's structures as the stand-in engine sees
 * them (docs/engine.md section 3), the stand-in's fixed symbols and the
 * prototypes of its routines.
 *
 * Guest code only: every file of emu/standin/ is cross-built for i686
 * Windows into standin.exe, whose routines standin.ld links at the game's
 * addresses. Nothing here is part of the host build, nothing here may
 * include a host header other than <stdint.h>, and nothing here is derived
 * from the game's code: it is written from the contract in docs/engine.md.
 *
 * The routines carry the engine's names (the names the profiles use), not
 * a module prefix: in standin.exe they are the engine.
 */
#ifndef FF8_EMU_STANDIN_STANDIN_H
#define FF8_EMU_STANDIN_STANDIN_H

#include <stdint.h>

typedef int16_t s16;
typedef int32_t s32;
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;

/* A static helper that must stay inside the routine that uses it. */
#define SA_INLINE static inline __attribute__((always_inline))

/* Fixed point: 4096 = one turn for angles, 4096 = 1.0 in matrices. */
#define SA_TURN 4096
#define SA_ONE 4096
/* Bone scales: 1024 = 1.0. */
#define SA_SCALE_ONE 0x400

/* AnimCmd flag bits. */
#define SA_FLAG_SLOW 0x01
#define SA_FLAG_FAST 0x02
#define SA_FLAG_HALF_SHIFT 2
#define SA_FLAG_HALF_MASK 0x0C

/* Bones the stand-in's BuildBoneMatrices holds on its stack (a skeleton's
 * count is a u8). */
#define SA_MAX_BONES 256

/* Skeleton flag bit 0: the frames carry per-bone scales. */
#define SA_SKEL_SCALED 0x01

/* PSX-style matrix: 3x3 rotation in 4.12, then a translation. 32 bytes. */
typedef struct sa_matrix {
    s16 m[3][3];
    s16 pad;
    s32 t[3];
} sa_matrix;

/* One bone of a skeleton section. 48 bytes. */
typedef struct sa_bone {
    s16 parent; /* -1: attached to the root */
    s16 size;
    s16 rot[3];      /* accumulated, 4096 = 360 degrees */
    s16 scale[3];    /* 1024 = 1.0 */
    sa_matrix world; /* runtime, written by BuildBoneMatrices */
} sa_bone;

/* Skeleton section (H1): 16-byte header, then the bones. */
typedef struct sa_skeleton {
    u8 count;
    u8 flags;
    s16 model_scale;
    u8 unread4[4];
    s16 root[3]; /* accumulated root translation */
    s16 unread_e;
    sa_bone bones[];
} sa_skeleton;

/* ComFileData: the sections of one loaded model file. */
typedef struct sa_files {
    sa_skeleton *skeleton;
    void *geometry;
    u8 *animation; /* u32 count, count u32 offsets, then the clips */
} sa_files;

/* BattleAnimHeader. 12 bytes. */
typedef struct sa_model {
    u32 unknown0;
    sa_files *files;
    sa_files *files_copy;
} sa_model;

/* AnimCmd. 8 bytes. */
typedef struct sa_cmd {
    u8 clip;
    u8 flags;
    s16 off; /* cursor byte offset from the clip start */
    s16 bit; /* cursor bit offset */
    u8 frame;
    u8 total;
} sa_cmd;

/* Bit cursor, taken from the Field_Alloc scratch. 8 bytes. */
typedef struct sa_cursor {
    const u8 *ptr;
    s32 bit;
} sa_cursor;

/* Weapon block of a battle slot: a model header and its AnimCmd. */
typedef struct sa_weapon {
    sa_model model;
    sa_cmd cmd;
} sa_weapon;

/* Entity byte +2, bit 3: the speed statuses are not applied. */
#define SA_ENTITY_NO_SPEED 0x08
/* Entity status byte +9. */
#define SA_STATUS_SLOW 0x80
#define SA_STATUS_HASTE 0x40

/* Battle slot, only the fields the lockstep routines use. */
typedef struct sa_entity {
    u8 unread0[2];
    u8 byte2; /* +2: bit 3 SA_ENTITY_NO_SPEED */
    u8 unread3[6];
    u8 status; /* +9: SA_STATUS_SLOW, SA_STATUS_HASTE */
    u8 unread0a[0x56];
    sa_model model;  /* +0x60 */
    sa_cmd cmd;      /* +0x6C */
    const u8 *pair;  /* +0x74: the sequence pair (bytes 0 and 2 compared) */
    sa_weapon *weapon; /* +0x78, NULL: no weapon model */
} sa_entity;

_Static_assert(sizeof(sa_matrix) == 32, "MATRIX is 32 bytes");
_Static_assert(sizeof(sa_bone) == 48, "a bone is 48 bytes");
_Static_assert(__builtin_offsetof(sa_bone, world) == 0x10, "bone matrix at +0x10");
_Static_assert(__builtin_offsetof(sa_bone, world.t) == 0x24, "bone translation at +0x24");
_Static_assert(__builtin_offsetof(sa_skeleton, root) == 8, "root translation at +8");
_Static_assert(__builtin_offsetof(sa_skeleton, bones) == 16, "bones after 16 bytes");
_Static_assert(sizeof(sa_model) == 12, "model header is 12 bytes");
_Static_assert(sizeof(sa_cmd) == 8, "AnimCmd is 8 bytes");
_Static_assert(sizeof(sa_cursor) == 8, "Cursor is 8 bytes");
_Static_assert(__builtin_offsetof(sa_weapon, cmd) == 0x0C, "weapon AnimCmd at +0x0C");
_Static_assert(__builtin_offsetof(sa_entity, model) == 0x60, "entity model at +0x60");
_Static_assert(__builtin_offsetof(sa_entity, cmd) == 0x6C, "entity AnimCmd at +0x6C");
_Static_assert(__builtin_offsetof(sa_entity, byte2) == 0x02, "entity byte +2");
_Static_assert(__builtin_offsetof(sa_entity, status) == 0x09, "entity status at +9");
_Static_assert(__builtin_offsetof(sa_entity, pair) == 0x74, "sequence pair pointer at +0x74");
_Static_assert(__builtin_offsetof(sa_entity, weapon) == 0x78, "weapon pointer at +0x78");

/*
 * Absolute symbols defined by standin.ld (outside every section, no
 * relocation): the Field_Alloc cursor the emulator maps as a profile
 * global, and the addresses the test routines aim at.
 */
extern u32 field_alloc_cursor;              /* 0x1D999C4 */
extern const volatile u32 standin_unmapped; /* 0xDEAD0000 */

/* Width tables at 0xB8B9F0 and 0xB8B9F4 (tables.c). */
extern const u8 standin_position_widths[4];
extern const u8 standin_rotation_widths[4];

/* Engine routines (docs/engine.md section 2), all cdecl. */
u32 Field_Alloc(int n);
u32 Field_Free(int n);
s16 bitReader(sa_cursor *rd, s16 n);
s16 ReadPositionType(sa_cursor *rd);
s16 ReadRotationType(sa_cursor *rd);
s16 ReadBoneScale(sa_cursor *rd);
int Battle_ReadAnimation(sa_model *m, sa_cmd *cmd);
int StartClip(sa_model *m, sa_cmd *cmd, s16 clip);
int BuildBoneMatrices(sa_model *m);
int QueueAnimation(sa_entity *e, s16 clip);
int AdvanceBy1(sa_entity *e);
int ComputeBonesWorldMatrices(sa_model *m, const sa_matrix *base);
/* standin.exe's BuildBoneMatrices on the scale path (a routine of the
 * stand-in's own, not the game's): the bones of sk, cs the caller's scratch. */
void Bone_BuildStack(sa_skeleton *sk, s32 (*cs)[2]);
/* standin_calls.exe only (FF_VARIANT_CALLS): the SLOW half-step as a routine. */
int Anim_Halve(int delta);

/*
 * Matrix helpers of BuildBoneMatrices at the addresses of the game's own
 * helpers (docs/pose.md section 2; Fx_RotX's address is the stand-in's own).
 * MATRIX cells are Q12, angles s16 with 4096 = one turn (passed as int),
 * an SVECTOR is s16[3], a VECTOR s32[3]. Every product of two matrices
 * goes through Fx_MulCopy5 (round to nearest, ties to even, 16-bit wrap);
 * the sums of products of translations and scale vectors take the width
 * of sa_dot_shift; every other integer step wraps at 32 bits. Results come
 * back through the pointers, except Fx_Sin and Fx_Cos (an int in EAX).
 */
void Bone_ScaleColumns(const sa_matrix *src, const s32 v[3], sa_matrix *dst);
void Fx_ScaleRows(sa_matrix *m, const s32 v[3]);
void Fx_MulCopy5(const sa_matrix *a, const sa_matrix *b, sa_matrix *out);
void Fx_MulInto(const sa_matrix *a, sa_matrix *b);
void Fx_Compose(const sa_matrix *a, const sa_matrix *b, sa_matrix *out);
void Fx_Apply(const sa_matrix *m, const s16 v[3], s32 out[3]);
void Fx_ComposeTo(const sa_matrix *a, const sa_matrix *b, sa_matrix *out);
void Fx_RotXYZ(const s16 a[3], sa_matrix *m);
void Fx_BoneRotation(const s16 a[3], sa_matrix *m);
void Fx_RotX(int angle, sa_matrix *m);
void Fx_RotY(int angle, sa_matrix *m);
void Fx_RotZ(int angle, sa_matrix *m);
int Fx_Cos(int angle);
int Fx_Sin(int angle);

/* round-to-nearest-even(4096 sin(2 pi i / 4096)), i = 0..4095, generated
 * at build time by mktrig.c (sine_table.c in the build tree). */
extern const s16 standin_sine[SA_TURN];

/* Constants of the x87 helpers of standin_x87.exe (tables.c). */
extern const double standin_x87_turn;  /* 2 pi / 4096 */
extern const double standin_x87_4096;  /* 4096.0 */
extern const float standin_x87_q12;    /* 1 / 4096 */
extern const double standin_x87_magic; /* 2^52 + 2^31 */

/* The cells of m (not its pad, not its translation) set to the identity. */
SA_INLINE void sa_identity(sa_matrix *m)
{
    int i, j;

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            m->m[i][j] = (s16)(i == j ? SA_ONE : 0);
}

/*
 * Arithmetic shared by the matrix helpers and the routines that do the same
 * work inline (BuildBoneMatrices, ComputeBonesWorldMatrices), so that both
 * compute every cell the same way in every build. A variant macro applied
 * here changes every source that uses the helper: each such source names
 * the macro (the build compiles a variant's sources again by grepping them
 * for its macro), and tests/emu/test_emu_variants.c checks that the
 * routines named differ.
 */

/* round-to-nearest-even(sum / 4096), low 16 bits: the cell rounding of the
 * Copy5 product (docs/pose.md section 2). A 32-bit wrap of the sum moves the
 * quotient by 2^20, which leaves its low 16 bits alone.
 *   FF_STANDIN_X87: on the x87 as the game's (fild, times the float 1/4096,
 *     plus the double 2^52 + 2^31, fstp, low word of the double);
 *   FF_MUTANT_POSE_FLOOR: floored (sum >> 12) instead. */
SA_INLINE s16 sa_round_q12(s32 sum)
{
#if defined(FF_STANDIN_X87)
    union {
        double d;
        u32 w[2];
    } u;

    __asm__("fildl %1\n\t"
            "fmuls %2\n\t"
            "faddl %3\n\t"
            "fstpl %0"
            : "=m"(u.d)
            : "m"(sum), "m"(standin_x87_q12), "m"(standin_x87_magic));
    return (s16)u.w[0];
#elif defined(FF_MUTANT_POSE_FLOOR)
    return (s16)(sum >> 12);
#else
    /* Adding 2047 plus the quotient's low bit before the shift rounds half
     * to even without a branch. */
    return (s16)((sum + 0x7FF + ((sum >> 12) & 1)) >> 12);
#endif
}

/*
 * The sums of products behind the translations (Fx_Apply, Fx_ComposeTo and
 * the routines doing their work inline), sa_dot_shift: (a0 b0 + a1 b1 +
 * a2 b2) >> shift; and the scale path's running vectors (BuildBoneMatrices),
 * sa_mul_shift: (a b) >> shift. The shift arithmetic, 32 bits kept. In
 * 32-bit two's complement (imul, add, sar: a sum past 2^31 wraps), or in 64
 * bits (imul into edx:eax, add/adc, shrd: exact):
 *   FF_STANDIN_WIDTH64: both in 64 bits;
 *   FF_STANDIN_WIDTH_MIXED: the translations' sums in 64 bits, the running
 *     vectors in 32.
 * (docs/pose.md section 3, the width per site: width-t and width-vec of the pose
 * convention. The column scaling and the model scale keep bits a 32-bit
 * product holds exactly: no width shows there.)
 */
#if defined(FF_STANDIN_WIDTH64) || defined(FF_STANDIN_WIDTH_MIXED)
SA_INLINE s32 sa_dot_shift(s32 a0, s32 b0, s32 a1, s32 b1, s32 a2, s32 b2, int shift)
{
    return (s32)(((int64_t)a0 * b0 + (int64_t)a1 * b1 + (int64_t)a2 * b2) >> shift);
}
#else
SA_INLINE s32 sa_dot_shift(s32 a0, s32 b0, s32 a1, s32 b1, s32 a2, s32 b2, int shift)
{
    return (a0 * b0 + a1 * b1 + a2 * b2) >> shift;
}
#endif

#if defined(FF_STANDIN_WIDTH64)
SA_INLINE s32 sa_mul_shift(s32 a, s32 b, int shift)
{
    return (s32)(((int64_t)a * b) >> shift);
}
#else
SA_INLINE s32 sa_mul_shift(s32 a, s32 b, int shift)
{
    return (a * b) >> shift;
}
#endif

/* The rounded Q12 sine and cosine of an angle from the table (the integer
 * Fx_Sin and Fx_Cos; the cosine is the sine a quarter turn on). */
SA_INLINE s32 sa_sin(int angle)
{
    return standin_sine[angle & (SA_TURN - 1)];
}

SA_INLINE s32 sa_cos(int angle)
{
    return standin_sine[(angle + SA_TURN / 4) & (SA_TURN - 1)];
}

/*
 * The axes of a bone's local rotation in the order they are applied to the
 * identity (the rightmost factor first): SA_AXIS_1, SA_AXIS_2, SA_AXIS_3
 * (0 x, 1 y, 2 z). The stand-in's order yxz (R = Ry Rx Rz): z, x, y.
 *   FF_MUTANT_POSE_ORDER: zyx (R = Rz Ry Rx): x, y, z.
 */
#if defined(FF_MUTANT_POSE_ORDER)
#define SA_AXIS_1 0
#define SA_AXIS_2 1
#define SA_AXIS_3 2
#else
#define SA_AXIS_1 2
#define SA_AXIS_2 0
#define SA_AXIS_3 1
#endif

/*
 * A cell times a Q12 scale, as Bone_ScaleColumns stores it: the low 16 bits
 * of (cell * v) >> 12, the product wrapping at 32 bits (a 64-bit product
 * gives the same 16 bits).
 *   FF_MUTANT_POSE_SATURATE: clamped to the s16 range instead of wrapping.
 */
SA_INLINE s16 sa_scaled_cell(s32 cell, s32 v)
{
    s32 x = (cell * v) >> 12;

#ifdef FF_MUTANT_POSE_SATURATE
    if (x > 32767) return 32767;
    if (x < -32768) return -32768;
#endif
    return (s16)x;
}

/* Copies the first n dwords of a MATRIX (5: the cells and the pad, 8: all). */
SA_INLINE void sa_copy_dwords(sa_matrix *dst, const sa_matrix *src, int n)
{
    const u32 *from = (const u32 *)src;
    u32 *to = (u32 *)dst;
    int k;

#pragma GCC unroll 8
    for (k = 0; k < n; k++)
        to[k] = from[k];
}

/* Test routines: each misbehaves in one way the emulator must report. */
u32 Test_WildJump(void);
u32 Test_ReadUnmapped(void);
u32 Test_LoopForever(void);
u32 Test_CallImport(void);
u32 Test_DivideByZero(void);
u32 Test_LeakScratch(void);
double Test_X87Result(int n);

#endif
