/*
 * common/rng.h: the project's one seeded generator (splitmix64), so that a
 * seed gives the same synthetic corpus, leaf cases and test vectors on every
 * platform and libc.
 *
 * No global state: a generator is a value the caller owns.
 */
#ifndef FF8_COMMON_RNG_H
#define FF8_COMMON_RNG_H

#include <stdint.h>

typedef struct rng {
    uint64_t s;
} rng;

/* The splitmix64 output for state x (the state before its increment). */
static inline uint64_t rng_mix(uint64_t x)
{
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rng_next(rng *r)
{
    uint64_t z = rng_mix(r->s);
    r->s += 0x9E3779B97F4A7C15ull;
    return z;
}

/* A generator for a seed and a stream label (files, sections...). */
static inline rng rng_make(uint64_t seed, uint64_t label)
{
    rng r = {seed ^ (label * 0xD6E8FEB86659FD93ull)};
    rng_next(&r);
    return r;
}

/* Uniform in 0..n-1 (n >= 1); the modulo bias is irrelevant here. */
static inline uint32_t rng_below(rng *r, uint32_t n)
{
    return (uint32_t)(rng_next(r) % n);
}

/* Uniform in lo..hi inclusive. */
static inline int32_t rng_range(rng *r, int32_t lo, int32_t hi)
{
    return lo + (int32_t)rng_below(r, (uint32_t)(hi - lo + 1));
}

/* 1 with probability percent / 100. */
static inline int rng_chance(rng *r, unsigned percent)
{
    return rng_below(r, 100) < percent;
}

/* FNV-1a of a string, to label a file's streams by its name. */
static inline uint64_t rng_label(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001B3ull;
    return h;
}

#endif
