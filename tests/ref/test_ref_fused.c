/*
 * tests/ref/test_ref_fused.c: the value readers against an oracle that
 * reads the stream bit by bit, wherever the value lies: far from the end of
 * the file (the readers' fused 4-byte path) and in the last bytes (the
 * one-read-at-a-time path), where a value whose bits pass the end must be
 * an error and leave the cursor alone. Also the high-water mark both paths
 * leave (3 past the byte the last 3-byte load started at).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "ref/engine.h"

typedef struct oracle {
    const uint8_t *data;
    size_t size;
    uint64_t bitpos; /* absolute bit position */
    uint64_t high;
    int past_end;
} oracle;

/* n bits LSB-first, sign-extended; a bit past the end sets past_end. */
static int32_t o_read(oracle *o, int n)
{
    uint64_t start_byte = o->bitpos / 8;
    uint32_t v = 0;
    for (int i = 0; i < n; i++) {
        uint64_t b = o->bitpos + (uint64_t)i;
        if (b / 8 >= o->size) {
            o->past_end = 1;
            return 0;
        }
        v |= (uint32_t)((o->data[b / 8] >> (b % 8)) & 1) << i;
    }
    o->bitpos += (uint64_t)n;
    if (start_byte + 3 > o->high) o->high = start_byte + 3;
    return (v & (1u << (n - 1))) ? (int32_t)v - (int32_t)(1u << n) : (int32_t)v;
}

static int32_t o_value(oracle *o, int kind)
{
    static const int pw[4] = {3, 6, 9, 16}, rw[4] = {3, 6, 8, 12};
    switch (kind) {
    case 0: return o_read(o, pw[o_read(o, 2) & 3]);
    case 1:
        if (o_read(o, 1) == 0) return 0;
        return o_read(o, rw[o_read(o, 2) & 3]);
    default:
        if (o_read(o, 1) == 0) return 1024;
        return (int16_t)(uint16_t)((uint16_t)o_read(o, 16) + 1024);
    }
}

static uint64_t rng = 0x1234567887654321ull;
static uint8_t next_byte(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint8_t)(rng >> 24);
}

Test(fused, every_reader_matches_a_bit_by_bit_oracle)
{
    static const char *const names[3] = {"position", "rotation", "scale"};
    static const size_t sizes[] = {1, 2, 3, 4, 5, 16};
    uint8_t buf[16];
    unsigned cases = 0, errors = 0;
    for (int round = 0; round < 3000; round++) {
        for (size_t i = 0; i < sizeof buf; i++) buf[i] = next_byte();
        for (int kind = 0; kind < 3; kind++)
            for (int bit = 0; bit < 8; bit++)
                /* sizes 1..5: the value runs into the end; 16: far from it */
                for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
                    size_t size = sizes[si];
                    ref_stream s = {buf, size, "t", 0};
                    ref_cursor c = {0, bit};
                    int16_t v = 0x5555;
                    int rc = kind == 0   ? ref_read_position(&s, &c, &v, NULL)
                             : kind == 1 ? ref_read_rotation(&s, &c, &v, NULL)
                                         : ref_read_scale(&s, &c, &v, NULL);
                    oracle o = {buf, size, (uint64_t)bit, 0, 0};
                    int32_t want = o_value(&o, kind);
                    cases++;
                    if (o.past_end) {
                        errors++;
                        cr_assert_eq(rc, -1, "%s bit %d size %zu: no error", names[kind], bit, size);
                        cr_assert(c.pos == 0 && c.bit == bit, "%s: cursor moved on error",
                                  names[kind]);
                        continue;
                    }
                    cr_assert_eq(rc, 0, "%s bit %d size %zu", names[kind], bit, size);
                    cr_assert_eq(v, want, "%s bit %d size %zu: %d, want %d", names[kind], bit,
                                 size, v, want);
                    cr_assert_eq((uint64_t)c.pos * 8 + (uint64_t)c.bit, o.bitpos,
                                 "%s bit %d size %zu: cursor", names[kind], bit, size);
                    cr_assert_eq(s.high, o.high, "%s bit %d size %zu: high %zu, want %llu",
                                 names[kind], bit, size, s.high, (unsigned long long)o.high);
                }
    }
    /* Both paths were exercised: values past the end and values inside. */
    cr_assert(errors > 1000 && cases - errors > 100000, "%u cases, %u errors", cases, errors);
}
