/*
 * tests/common/test_common.c: the basics every stage shares: SHA-256 on the
 * FIPS 180-2 vectors, little-endian loads and stores at the byte level, the
 * seeded generator against splitmix64's published first outputs, and JSON
 * read as one value under limits (json_read).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "common/json_read.h"
#include "common/le.h"
#include "common/rng.h"
#include "common/sha256.h"

Test(sha256, fips_vectors)
{
    static const struct {
        const char *in, *hex;
    } v[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char hex[SHA256_HEX];
        ff_error err;
        cr_assert_eq(sha256_hex(v[i].in, strlen(v[i].in), hex, &err), 0, "vector %zu: %s", i,
                     err.reason);
        cr_assert_str_eq(hex, v[i].hex, "vector %zu", i);
    }
}

/* Parts are concatenated: "ab" + "" + "c" is "abc"; a NULL part adds nothing. */
Test(sha256, parts_concatenate)
{
    uint8_t d[SHA256_BYTES];
    char hex[SHA256_HEX];
    sha256_part p[] = {{"ab", 2}, {NULL, 5}, {"", 0}, {"c", 1}};
    cr_assert_eq(sha256_parts(p, 4, d, NULL), 0);
    sha256_to_hex(d, hex);
    cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(le, loads_and_stores_by_byte)
{
    const uint8_t b[8] = {0x01, 0x80, 0xFE, 0xFF, 0x78, 0x56, 0x34, 0x12};
    cr_assert_eq(le_u16(b), 0x8001);
    cr_assert_eq(le_s16(b), -32767);
    cr_assert_eq(le_s16(b + 2), -2);
    cr_assert_eq(le_u32(b), 0xFFFE8001u);
    cr_assert_eq(le_s32(b), (int32_t)0xFFFE8001u);
    cr_assert_eq(le_u64(b), 0x12345678FFFE8001ull);
    uint8_t o[4] = {0};
    le_put16(o, (uint16_t)-2);
    cr_assert(o[0] == 0xFE && o[1] == 0xFF);
    le_put32(o, 0x12345678u);
    cr_assert(o[0] == 0x78 && o[1] == 0x56 && o[2] == 0x34 && o[3] == 0x12);
}

/* splitmix64 seeded with 0: its first outputs as published with the algorithm. */
Test(rng, splitmix64_reference_outputs)
{
    rng r = {0};
    cr_assert_eq(rng_next(&r), 0xE220A8397B1DCDAFull);
    cr_assert_eq(rng_next(&r), 0x6E789E6AA1B965F4ull);
    cr_assert_eq(rng_next(&r), 0x06C45D188009454Full);
    cr_assert_eq(rng_mix(0), 0xE220A8397B1DCDAFull);
}

Test(rng, ranges_stay_inside)
{
    rng r = rng_make(7, rng_label("c0m001.dat"));
    for (int i = 0; i < 10000; i++) {
        int32_t v = rng_range(&r, -3, 5);
        cr_assert(v >= -3 && v <= 5, "draw %d gave %d", i, v);
        cr_assert_lt(rng_below(&r, 9), 9u);
    }
}

/* One JSON value and only whitespace after it, read under limits; errors say where. */
Test(json_read, one_value_bounded_and_placed)
{
    static const json_read_limits lim = {8, 3};
    static const struct {
        const char *text;
        json_read_kind kind;
        size_t offset;
        const char *why;
    } cases[] = {
        {"\xEF\xBB\xBF{\"a\":[1,2]} \t\r\n", JSON_READ_OK, 0, ""},
        {"{\"a\":1} {\"b\":2}", JSON_READ_SYNTAX, 8, "trailing garbage"},
        {"{\"a\":1}\xff", JSON_READ_SYNTAX, 7, "trailing garbage"},
        {"{\"a\":1}\x0b", JSON_READ_SYNTAX, 7, "a vertical tab is not JSON whitespace"},
        {"{\"a\":\x0c" "1}", JSON_READ_SYNTAX, 5, "a form feed is not JSON whitespace"},
        {"{\"a\":", JSON_READ_SYNTAX, 5, "premature EOF"},
        {"  ", JSON_READ_SYNTAX, 2, "no JSON value"},
        {"[1,2,3,4,5,6,7,8]", JSON_READ_LIMIT, 15, "holds more than 8 values"},
        {"[[[[1]]]]", JSON_READ_LIMIT, 3, "nested deeper than 3 levels"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *out = (cJSON *)&lim; /* set to NULL on failure */
        json_read_error e;
        int rc = json_read(cases[i].text, strlen(cases[i].text), &lim, &out, &e);
        if (cases[i].kind == JSON_READ_OK) {
            cr_assert_eq(rc, 0, "case %zu: %s", i, e.why);
            cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(out, "a")), 2);
            cJSON_Delete(out);
            continue;
        }
        cr_assert_eq(rc, -1, "case %zu accepted", i);
        cr_assert_null(out, "case %zu", i);
        cr_assert_eq(e.kind, cases[i].kind, "case %zu: kind %d (%s)", i, (int)e.kind, e.why);
        cr_assert_eq(e.offset, cases[i].offset, "case %zu: offset %zu", i, e.offset);
        cr_assert_str_eq(e.why, cases[i].why, "case %zu", i);
    }
    /* A number's whole text is read (cJSON stops at 63 characters); a key keeps its bytes. */
    char big[400] = "{\"k\\u00e9\":1";
    memset(big + strlen(big), '0', 300);
    strcpy(big + strlen(big), "}");
    cJSON *out;
    json_read_error e;
    json_read_limits wide = {16, 4};
    cr_assert_eq(json_read(big, strlen(big), &wide, &out, &e), 0, "%s", e.why);
    cr_assert(cJSON_GetObjectItem(out, "k\xc3\xa9")->valuedouble > 1e299);
    cJSON_Delete(out);
}
