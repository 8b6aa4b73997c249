/*
 * tests/ref/test_ref_readers.c: bitReader and the three value readers
 * (docs/engine.md sections 2-3) on hand-assembled bytes. Expected values are
 * worked out by hand in the comments, or from the definition of n-bit
 * two's complement for the exhaustive width x offset sweep.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ref/engine.h"
#include "tests/ref/tb.h"

static ref_stream stream_of(const uint8_t *data, size_t size)
{
    ref_stream s = {data, size, "t.dat", 0};
    return s;
}

Test(readers, width_tables_match_the_executable)
{
    /* Fingerprint bytes at 0xB8B9F0: 03 06 09 10 and 0xB8B9F4: 03 06 08 0C. */
    static const uint8_t pos[4] = {0x03, 0x06, 0x09, 0x10}, rot[4] = {0x03, 0x06, 0x08, 0x0C};
    ts_assert_mem(ref_position_widths, pos, 4, "position widths");
    ts_assert_mem(ref_rotation_widths, rot, 4, "rotation widths");
}

/* The field raw (n bits) placed at bit b of byte 1, every other bit of the
 * three bytes after the leading 0x77 set to `noise`. */
static void sweep_one(int n, int b, uint32_t raw, int noisy, int exact)
{
    uint32_t mask = (1u << n) - 1u;
    uint32_t word = (raw & mask) << b;
    if (noisy) word |= 0xFFFFFFu & ~(mask << b);
    /* exact: the file ends right after the byte holding the last field bit */
    size_t size = exact ? 1 + (size_t)(b + n + 7) / 8 : 4;
    uint8_t *f = malloc(size);
    f[0] = 0x77;
    for (size_t k = 1; k < size; k++)
        f[k] = (uint8_t)(word >> (8 * (k - 1)));
    int32_t expect = (raw & (1u << (n - 1))) ? (int32_t)raw - (int32_t)(1u << n) : (int32_t)raw;
    ref_stream s = stream_of(f, size);
    ref_cursor c = {1, b};
    int16_t v = 0x5555;
    ff_error err;
    char msg[600];
    int rc = ref_bits_read(&s, &c, n, &v, &err);
    cr_assert_eq(rc, 0, "n=%d bit=%d raw=0x%x noisy=%d exact=%d: %s", n, b, raw, noisy, exact,
                 ff_error_format(&err, msg, sizeof msg));
    cr_assert_eq(v, expect, "n=%d bit=%d raw=0x%x noisy=%d exact=%d: got %d want %d", n, b, raw,
                 noisy, exact, v, expect);
    cr_assert_eq(c.pos, 1 + (b + n) / 8, "n=%d bit=%d: cursor byte %lld", n, b, (long long)c.pos);
    cr_assert_eq(c.bit, (b + n) % 8, "n=%d bit=%d: cursor bit %d", n, b, c.bit);
    cr_assert_eq(s.high, 4, "n=%d bit=%d: high %zu (one past the 3-byte load at byte 1)", n, b,
                 s.high);
    free(f);
}

Test(readers, bitreader_every_width_at_every_offset)
{
    for (int n = 1; n <= 16; n++)
        for (int b = 0; b < 8; b++) {
            uint32_t top = 1u << (n - 1);
            uint32_t raws[] = {top - 1,       /* largest positive (0 for n=1) */
                               top,           /* most negative */
                               (1u << n) - 1, /* -1 */
                               0,             /* zero */
                               0x5555u & ((1u << n) - 1),
                               0x2AAAu & ((1u << n) - 1)};
            for (size_t r = 0; r < sizeof raws / sizeof raws[0]; r++)
                for (int noisy = 0; noisy < 2; noisy++)
                    for (int exact = 0; exact < 2; exact++)
                        sweep_one(n, b, raws[r], noisy, exact);
        }
}

Test(readers, bitreader_sign_extremes_by_hand)
{
    /* n=1: bit 1 reads -1, bit 0 reads 0. */
    uint8_t one[1] = {0x02};
    ref_stream s = stream_of(one, 1);
    ref_cursor c = {0, 0};
    int16_t v;
    cr_assert_eq(ref_bits_read(&s, &c, 1, &v, NULL), 0);
    cr_assert_eq(v, 0, "bit 0");
    cr_assert_eq(ref_bits_read(&s, &c, 1, &v, NULL), 0);
    cr_assert_eq(v, -1, "bit 1 of n=1 must read -1");
    /* n=16: 0x7FFF -> 32767, 0x8000 -> -32768. */
    uint8_t w[4] = {0xFF, 0x7F, 0x00, 0x80};
    s = stream_of(w, 4);
    c = (ref_cursor){0, 0};
    cr_assert_eq(ref_bits_read(&s, &c, 16, &v, NULL), 0);
    cr_assert_eq(v, 32767);
    cr_assert_eq(ref_bits_read(&s, &c, 16, &v, NULL), 0);
    cr_assert_eq(v, -32768);
    cr_assert_eq(c.pos, 4);
    cr_assert_eq(c.bit, 0);
}

typedef struct read_vec {
    int64_t pos;
    int bit, n;
    int16_t value;
    int64_t pos_after;
    int bit_after;
} read_vec;

Test(readers, bitreader_hand_vectors)
{
    /* A5 = 1010 0101, 3C = 0011 1100, FF. Load at byte 0 = 0xFF3CA5. */
    static const uint8_t f[3] = {0xA5, 0x3C, 0xFF};
    static const read_vec vec[] = {
        {0, 0, 4, 5, 0, 4},     /* low nibble 0101 */
        {0, 4, 4, -6, 1, 0},    /* high nibble 1010 = 10 -> -6 */
        {0, 4, 8, -54, 1, 4},   /* 1100 1010 = 0xCA = 202 -> -54 */
        {0, 7, 16, -391, 2, 7}, /* 0xFF3CA5 >> 7 = 0x1FE79, low 16 = 0xFE79 -> -391 */
        {0, 0, 3, -3, 0, 3},    /* 101 -> -3 */
        {0, 3, 7, 20, 1, 2},    /* A5 bits 3-7 = 10100 (20), 3C bits 0-1 = 00 */
        {1, 2, 12, -49, 2, 6},  /* 0xFF3C >> 2 = 0x3FCF, low 12 = 0xFCF -> -49 */
        {2, 6, 2, -1, 3, 0},    /* FF bits 6-7 = 11 */
    };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        ref_stream s = stream_of(f, 3);
        ref_cursor c = {vec[i].pos, vec[i].bit};
        int16_t v;
        cr_assert_eq(ref_bits_read(&s, &c, vec[i].n, &v, NULL), 0, "vector %zu", i);
        cr_assert_eq(v, vec[i].value, "vector %zu: got %d want %d", i, v, vec[i].value);
        cr_assert_eq(c.pos, vec[i].pos_after, "vector %zu: cursor byte", i);
        cr_assert_eq(c.bit, vec[i].bit_after, "vector %zu: cursor bit", i);
    }
}

Test(readers, bitreader_end_of_file)
{
    uint8_t f[2] = {0xFF, 0x01};
    ref_stream s = stream_of(f, 2);
    ref_cursor c = {0, 0};
    int16_t v = 99;
    ff_error err;
    /* 9 bits: FF and bit 0 of 01 -> 0x1FF -> -1; the load covers bytes 0..2. */
    cr_assert_eq(ref_bits_read(&s, &c, 9, &v, &err), 0);
    cr_assert_eq(v, -1);
    cr_assert_eq(c.pos, 1);
    cr_assert_eq(c.bit, 1);
    cr_assert_eq(s.high, 3, "high may pass the file size (3-byte load)");
    /* 8 bits at byte 1 bit 1 would use byte 2: refused, cursor unchanged. */
    v = 99;
    cr_assert_eq(ref_bits_read(&s, &c, 8, &v, &err), -1);
    cr_assert_eq(err.kind, FF_E_TRUNCATED);
    cr_assert_str_eq(err.file, "t.dat");
    cr_assert_eq(err.offset, 1);
    cr_assert(strstr(err.reason, "bit 1"), "reason names the bit: %s", err.reason);
    cr_assert_eq(c.pos, 1);
    cr_assert_eq(c.bit, 1);
    cr_assert_eq(v, 99, "output untouched on error");
    /* 7 bits at byte 1 bit 1 are the last bits of the file: 0000000. */
    cr_assert_eq(ref_bits_read(&s, &c, 7, &v, &err), 0);
    cr_assert_eq(v, 0);
    cr_assert_eq(c.pos, 2);
    cr_assert_eq(c.bit, 0);
    cr_assert_eq(ref_bits_read(&s, &c, 1, &v, &err), -1);
    cr_assert_eq(err.offset, 2);
    /* An empty file refuses any read. */
    s = stream_of(NULL, 0);
    c = (ref_cursor){0, 0};
    cr_assert_eq(ref_bits_read(&s, &c, 1, &v, &err), -1);
    cr_assert_eq(err.kind, FF_E_TRUNCATED);
}

Test(readers, bitreader_bad_arguments)
{
    uint8_t f[4] = {0};
    ref_stream s = stream_of(f, 4);
    int16_t v;
    ff_error err;
    static const struct {
        int64_t pos;
        int bit, n;
        ff_errkind kind;
    } bad[] = {
        {0, 0, 0, FF_E_USAGE},  {0, 0, 17, FF_E_USAGE}, {0, 8, 1, FF_E_RANGE},
        {0, -1, 1, FF_E_RANGE}, {-1, 0, 1, FF_E_RANGE}, {INT64_MAX, 0, 1, FF_E_TRUNCATED},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ref_cursor c = {bad[i].pos, bad[i].bit};
        cr_assert_eq(ref_bits_read(&s, &c, bad[i].n, &v, &err), -1, "case %zu", i);
        cr_assert_eq(err.kind, bad[i].kind, "case %zu: kind %s", i, ff_errkind_name(err.kind));
        cr_assert_eq(c.pos, bad[i].pos, "case %zu: cursor moved", i);
        cr_assert_eq(c.bit, bad[i].bit, "case %zu: cursor moved", i);
    }
}

typedef struct typed_vec {
    int type;
    int32_t value;
    int width;
} typed_vec;

/* Three 1 bits of filler, then the encoded value, then ones. */
static void check_typed(const char *what, int rot, const typed_vec *t, size_t i)
{
    tb_bits b;
    tb_bits_init(&b);
    tb_put(&b, 7, 3);
    if (rot)
        tb_rot(&b, t->type, t->value);
    else
        tb_pos(&b, t->type, t->value);
    size_t used = b.bits;
    tb_put(&b, 0xFFFF, 16);
    ref_stream s = stream_of(b.buf, tb_bytes(&b));
    ref_cursor c = {0, 3};
    int16_t v;
    int rc = rot ? ref_read_rotation(&s, &c, &v, NULL) : ref_read_position(&s, &c, &v, NULL);
    cr_assert_eq(rc, 0, "%s vector %zu", what, i);
    cr_assert_eq(v, t->value, "%s vector %zu: got %d want %d", what, i, v, t->value);
    size_t expect_used = 3 + (rot ? 1 : 0) + (t->type >= 0 ? 2 + (size_t)t->width : 0);
    cr_assert_eq(used, expect_used, "%s vector %zu: packer width", what, i);
    cr_assert_eq(c.pos * 8 + c.bit, (int64_t)used, "%s vector %zu: cursor at bit %lld", what, i,
                 (long long)(c.pos * 8 + c.bit));
}

Test(readers, position_each_type)
{
    /* type -> width 3, 6, 9, 16 */
    static const typed_vec vec[] = {
        {0, 3, 3},    {0, -4, 3},     {1, 31, 6},      {1, -32, 6}, {2, 255, 9},
        {2, -256, 9}, {3, 32767, 16}, {3, -32768, 16}, {0, 0, 3},   {3, 1, 16},
    };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
        check_typed("position", 0, &vec[i], i);
}

Test(readers, position_by_hand)
{
    /* type 3 (bits 11), value 0x8000: word = 3 | 0x8000 << 2 = 0x20003 */
    uint8_t a[3] = {0x03, 0x00, 0x02};
    ref_stream s = stream_of(a, 3);
    ref_cursor c = {0, 0};
    int16_t v;
    cr_assert_eq(ref_read_position(&s, &c, &v, NULL), 0);
    cr_assert_eq(v, -32768);
    cr_assert_eq(c.pos, 2);
    cr_assert_eq(c.bit, 2);
    /* type 0, value 100 (-4): word = 0b10000 */
    uint8_t b[1] = {0x10};
    s = stream_of(b, 1);
    c = (ref_cursor){0, 0};
    cr_assert_eq(ref_read_position(&s, &c, &v, NULL), 0);
    cr_assert_eq(v, -4);
    cr_assert_eq(c.pos, 0);
    cr_assert_eq(c.bit, 5);
}

Test(readers, rotation_absent_and_each_type)
{
    /* width 0 for absent: the presence bit only */
    static const typed_vec vec[] = {
        {-1, 0, 0},  {0, 3, 3},    {0, -4, 3},    {1, 31, 6},     {1, -32, 6},
        {2, 127, 8}, {2, -128, 8}, {3, 2047, 12}, {3, -2048, 12}, {0, 0, 3},
    };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
        check_typed("rotation", 1, &vec[i], i);
}

Test(readers, rotation_by_hand)
{
    int16_t v = 5;
    /* absent: bit 0 = 0 even with ones after it */
    uint8_t a[1] = {0xFE};
    ref_stream s = stream_of(a, 1);
    ref_cursor c = {0, 0};
    cr_assert_eq(ref_read_rotation(&s, &c, &v, NULL), 0);
    cr_assert_eq(v, 0);
    cr_assert_eq(c.pos, 0);
    cr_assert_eq(c.bit, 1);
    /* present, type 3, 0x800: word = 1 | 3 << 1 | 0x800 << 3 = 0x4007 */
    uint8_t b[2] = {0x07, 0x40};
    s = stream_of(b, 2);
    c = (ref_cursor){0, 0};
    cr_assert_eq(ref_read_rotation(&s, &c, &v, NULL), 0);
    cr_assert_eq(v, -2048);
    cr_assert_eq(c.pos, 1);
    cr_assert_eq(c.bit, 7);
}

Test(readers, scale_absent_present_and_wrap)
{
    static const struct {
        uint16_t payload;
        int16_t value;
    } vec[] = {
        {0x0000, 1024},  {0xFC00, 0},    {0x7C00, -32768}, /* 31744 + 1024 = 0x8000 */
        {0x7BFF, 32767}, {0xFFFF, 1023}, {0x8000, -31744}, {0x0001, 1025},
    };
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        tb_bits b;
        tb_bits_init(&b);
        tb_scale_payload(&b, vec[i].payload);
        ref_stream s = stream_of(b.buf, tb_bytes(&b));
        ref_cursor c = {0, 0};
        int16_t v;
        cr_assert_eq(ref_read_scale(&s, &c, &v, NULL), 0, "vector %zu", i);
        cr_assert_eq(v, vec[i].value, "vector %zu: payload 0x%04x got %d want %d", i,
                     vec[i].payload, v, vec[i].value);
        cr_assert_eq(c.pos, 2, "vector %zu", i);
        cr_assert_eq(c.bit, 1, "vector %zu", i);
    }
    /* by hand: 1, then 0x7C00: word = 1 | 0x7C00 << 1 = 0xF801 */
    uint8_t h[3] = {0x01, 0xF8, 0x00};
    ref_stream s = stream_of(h, 3);
    ref_cursor c = {0, 0};
    int16_t v;
    cr_assert_eq(ref_read_scale(&s, &c, &v, NULL), 0);
    cr_assert_eq(v, -32768, "payload 0x7C00 wraps to -32768, not 32768");
    /* absent: 1024 after one bit */
    uint8_t z[1] = {0x00};
    s = stream_of(z, 1);
    c = (ref_cursor){0, 0};
    cr_assert_eq(ref_read_scale(&s, &c, &v, NULL), 0);
    cr_assert_eq(v, 1024);
    cr_assert_eq(c.bit, 1);
}

Test(readers, value_reader_errors_leave_cursor)
{
    /* Presence bit 1 then nothing: rotation and scale fail at the second read. */
    uint8_t f[1] = {0x01};
    ref_stream s = stream_of(f, 1);
    ref_cursor c = {0, 0};
    int16_t v;
    ff_error err;
    cr_assert_eq(ref_read_scale(&s, &c, &v, &err), -1);
    cr_assert_eq(err.kind, FF_E_TRUNCATED);
    cr_assert_eq(c.pos, 0);
    cr_assert_eq(c.bit, 0);
    /* rotation: 1, type 11 (bits 1-2), then 12 bits past the end */
    uint8_t g[1] = {0x07};
    s = stream_of(g, 1);
    cr_assert_eq(ref_read_rotation(&s, &c, &v, &err), -1);
    cr_assert_eq(c.pos, 0);
    cr_assert_eq(c.bit, 0);
    /* position: type 3 then 16 bits past the end */
    uint8_t p[2] = {0x03, 0x00};
    s = stream_of(p, 2);
    cr_assert_eq(ref_read_position(&s, &c, &v, &err), -1);
    cr_assert_eq(c.pos, 0);
    cr_assert_eq(c.bit, 0);
}
