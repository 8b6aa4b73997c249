/*
 * ref/pose_wrap.h: two's complement arithmetic of the game's integer code
 * (imul, add, sar, 16-bit stores) without undefined or implementation-
 * defined behaviour: values wrap on uint32_t and come back through these
 * conversions. Private to ref/pose*.c; not part of the library's API.
 */
#ifndef FF8_REF_POSE_WRAP_H
#define FF8_REF_POSE_WRAP_H

#include <stdint.h>

/* The s32 whose bits are x. */
static inline int32_t pw_s32(uint32_t x)
{
    return x <= 0x7FFFFFFFu ? (int32_t)x : -(int32_t)(~x) - 1;
}

/* The s16 whose bits are the low 16 bits of x. */
static inline int16_t pw_s16(uint32_t x)
{
    x &= 0xFFFFu;
    return x <= 0x7FFFu ? (int16_t)x : (int16_t)(-(int32_t)(~x & 0xFFFFu) - 1);
}

/* Low 32 bits of a * b (imul). */
static inline uint32_t pw_mul(int32_t a, int32_t b)
{
    return (uint32_t)((uint64_t)(uint32_t)a * (uint64_t)(uint32_t)b);
}

/* a + b wrapping in 32 bits (add). */
static inline int32_t pw_add(int32_t a, int32_t b)
{
    return pw_s32((uint32_t)a + (uint32_t)b);
}

/* The 32-bit value x shifted right arithmetically by n (sar): rounds down. */
static inline int32_t pw_sar(uint32_t x, int n)
{
    return (x & 0x80000000u) ? -(int32_t)(~x >> n) - 1 : (int32_t)(x >> n);
}

#endif
