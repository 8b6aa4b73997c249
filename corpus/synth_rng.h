/*
 * corpus/synth_rng.h: the synthetic corpus's own random numbers
 * (splitmix64), so that a seed gives the same bytes on every platform and
 * libc. Internal to corpus/synth*.c.
 *
 * No global state: a generator is a value the caller owns.
 */
#ifndef FF8_CORPUS_SYNTH_RNG_H
#define FF8_CORPUS_SYNTH_RNG_H

#include <stdint.h>

typedef struct synth_rng {
    uint64_t s;
} synth_rng;

static inline uint64_t synth_rng_next(synth_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A generator for a seed and a stream label (files, sections...). */
static inline synth_rng synth_rng_make(uint64_t seed, uint64_t label)
{
    synth_rng r = {seed ^ (label * 0xD6E8FEB86659FD93ull)};
    synth_rng_next(&r);
    return r;
}

/* Uniform in 0..n-1 (n >= 1); the modulo bias is irrelevant here. */
static inline uint32_t synth_rng_below(synth_rng *r, uint32_t n)
{
    return (uint32_t)(synth_rng_next(r) % n);
}

/* Uniform in lo..hi inclusive. */
static inline int32_t synth_rng_range(synth_rng *r, int32_t lo, int32_t hi)
{
    return lo + (int32_t)synth_rng_below(r, (uint32_t)(hi - lo + 1));
}

/* 1 with probability percent / 100. */
static inline int synth_rng_chance(synth_rng *r, unsigned percent)
{
    return synth_rng_below(r, 100) < percent;
}

/* FNV-1a of a string, to label a file's streams by its name. */
static inline uint64_t synth_rng_label(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001B3ull;
    return h;
}

#endif
