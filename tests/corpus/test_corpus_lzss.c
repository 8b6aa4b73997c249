/*
 * tests/corpus/test_corpus_lzss.c: the LZSS decoder on hand-assembled
 * streams (expected bytes worked out by hand from the format: flag bits
 * LSB-first, 1 = literal; reference b0 | (b1 & 0xF0) << 4, length
 * (b1 & 0x0F) + 3; ring zero-filled, first write at 0xFEE), its errors, and
 * encoder round trips.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/lzss.h"
#include "tests/corpus/ct.h"

typedef struct vector {
    const char *name;
    uint8_t src[40];
    size_t src_len;
    uint8_t want[40];
    size_t want_len;
} vector;

static const vector good[] = {
    /* 8 literals under flag 0xFF, then 2 under 0x03; the stream just ends. */
    {"literal run",
     {0xFF, 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 0x03, 'I', 'J'},
     12,
     "ABCDEFGHIJ",
     10},
    /* "ab" lands at ring 0xFEE/0xFEF; a 7-byte reference to 0xFEE (b1 = 0xF4)
     * overlaps the bytes it writes: a b a b a b a. */
    {"back reference with overlap", {0x03, 'a', 'b', 0xEE, 0xF4}, 5, "ababababa", 9},
    /* 20 literals fill ring 0xFEE..0xFFF then 0x000..0x001 ("IJ"); a 4-byte
     * reference to 0xFFE (b0 0xFE, b1 0xF1) reads G H across the wrap, I J. */
    {"ring wrap",
     {0xFF, '0', '1', '2', '3', '4',  '5', '6', '7', 0xFF, '8',  '9', 'A',
      'B',  'C', 'D', 'E', 'F', 0x0F, 'G', 'H', 'I', 'J',  0xFE, 0xF1},
     25,
     "0123456789ABCDEFGHIJGHIJ",
     24},
    /* One literal, then a 3-byte reference to ring 0x000, never written: zeros. */
    {"initial-zero ring reference", {0x01, 'Z', 0x00, 0x00}, 4, {'Z', 0, 0, 0}, 4},
    /* A maximal 18-byte reference (low nibble 15) repeating one literal. */
    {"longest reference", {0x01, 'x', 0xEE, 0xFF}, 4, "xxxxxxxxxxxxxxxxxxx", 19},
};

Test(lzss, hand_assembled_streams)
{
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const vector *v = &good[i];
        uint8_t out[64];
        memset(out, 0xCC, sizeof out);
        ff_error err;
        TS_OK(lzss_decode(v->src, v->src_len, out, v->want_len, "t", 0, &err), &err);
        ts_assert_mem(out, v->want, v->want_len, v->name);
        cr_assert_eq(out[v->want_len], 0xCC, "%s: wrote past the announced size", v->name);
    }
}

typedef struct bad_vector {
    const char *name;
    uint8_t src[16];
    size_t src_len, dst_len;
    ff_errkind kind;
    int64_t offset; /* base 0x100 + position in src */
} bad_vector;

static const bad_vector bad[] = {
    {"reference before any output", {0x00, 0xEE, 0xF0}, 3, 3, FF_E_FORMAT, 0x101},
    {"reference before output, after a flag byte of references",
     {0xFE, 0x00, 0x00, 'a'},
     4,
     4,
     FF_E_FORMAT,
     0x101},
    {"reference cut by the end", {0x03, 'a', 'b', 0xEE}, 4, 9, FF_E_TRUNCATED, 0x103},
    {"reference longer than announced", {0x03, 'a', 'b', 0xEE, 0xF4}, 5, 5, FF_E_FORMAT, 0x103},
    {"literal past the announced size", {0x07, 'a', 'b', 'c'}, 4, 2, FF_E_FORMAT, 0x103},
    {"data shorter than announced", {0x03, 'a', 'b'}, 3, 5, FF_E_FORMAT, 0x103},
    {"empty data, bytes announced", {0}, 0, 1, FF_E_FORMAT, 0x100},
};

Test(lzss, malformed_streams)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const bad_vector *v = &bad[i];
        uint8_t out[32];
        ff_error err;
        ff_error_clear(&err);
        int rc = lzss_decode(v->src, v->src_len, out, v->dst_len, "x.fs", 0x100, &err);
        cr_assert_eq(rc, -1, "%s: accepted", v->name);
        ts_assert_error(&err, v->kind, "x.fs", v->offset, v->name);
    }
}

Test(lzss, empty_stream_is_empty_output)
{
    uint8_t out[1];
    ff_error err;
    TS_OK(lzss_decode(NULL, 0, out, 0, "t", 0, &err), &err);
    /* A lone flag byte with nothing after it decodes to nothing too. */
    const uint8_t flag_only[1] = {0xFF};
    TS_OK(lzss_decode(flag_only, 1, out, 0, "t", 0, &err), &err);
}

static void round_trip(const uint8_t *src, size_t n, const char *what, size_t *encoded)
{
    size_t cap = lzss_bound(n);
    uint8_t *enc = malloc(cap ? cap : 1);
    uint8_t *dec = malloc(n ? n : 1);
    size_t size = 0;
    ff_error err;
    TS_OK(lzss_encode(src, n, enc, cap, &size, &err), &err);
    cr_assert(size <= cap, "%s: %zu bytes over the bound %zu", what, size, cap);
    if (n) cr_assert(enc[0] & 1, "%s: the first token is not a literal", what);
    TS_OK(lzss_decode(enc, size, dec, n, "rt", 0, &err), &err);
    ts_assert_mem(dec, src, n, what);
    *encoded = size;
    free(enc);
    free(dec);
}

Test(lzss, encoder_round_trips)
{
    size_t n = 70000, size;
    uint8_t *buf = malloc(n);
    /* Runs of zeros: the encoder must not lean on the ring's zero fill. */
    memset(buf, 0, n);
    round_trip(buf, n, "zeros", &size);
    cr_assert(size < n / 7, "zeros compress to %zu bytes", size);
    /* A repeating pattern with a period longer than the ring, then noise. */
    uint64_t s = 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        buf[i] = i < n / 2 ? (uint8_t)((i % 5000) * 7) : (uint8_t)(s >> 56);
    }
    round_trip(buf, n, "pattern then noise", &size);
    for (size_t k = 0; k < 40; k++)
        round_trip(buf + n / 2, k, "short noise", &size);
    round_trip(buf, 0, "empty", &size);
    cr_assert_eq(size, 0);
    free(buf);
}

Test(lzss, encoder_reports_a_small_buffer)
{
    uint8_t src[100], dst[10];
    memset(src, 'q', sizeof src);
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (uint8_t)(i * 37);
    size_t size;
    ff_error err;
    cr_assert_eq(lzss_encode(src, sizeof src, dst, sizeof dst, &size, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
}
