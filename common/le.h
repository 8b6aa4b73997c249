/*
 * common/le.h: little-endian loads and stores on byte buffers, the byte
 * order of every format ff8diff reads (PE32, .dat, FI archives, the game's
 * memory). The caller checks bounds first; these never read past p[n-1]
 * for an n-byte value and never assume alignment.
 */
#ifndef FF8_COMMON_LE_H
#define FF8_COMMON_LE_H

#include <stdint.h>

static inline uint16_t le_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline int16_t le_s16(const uint8_t *p)
{
    return (int16_t)le_u16(p);
}
static inline uint32_t le_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline int32_t le_s32(const uint8_t *p)
{
    return (int32_t)le_u32(p);
}
static inline uint64_t le_u64(const uint8_t *p)
{
    return (uint64_t)le_u32(p) | (uint64_t)le_u32(p + 4) << 32;
}
static inline void le_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v & 0xFF);
    p[1] = (uint8_t)(v >> 8);
}
static inline void le_put32(uint8_t *p, uint32_t v)
{
    le_put16(p, (uint16_t)(v & 0xFFFF));
    le_put16(p + 2, (uint16_t)(v >> 16));
}

#endif
