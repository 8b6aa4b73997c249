/*
 * tests/ref/test_ref_dat.c: dat_parse on every valid kind and on malformed
 * files of every sort (docs/engine.md section 6). The base monster's layout is
 * worked out by hand below; each malformed case patches one field of it and
 * names the error kind and the absolute offset expected.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "ref/dat.h"
#include "tests/ref/tb.h"

/*
 * Base monster, 11 sections, 2 bones, 2 clips (3 and 4 bytes), 5 tail bytes:
 *   header 4 + 11*4 + 4 = 52          section 0 (skeleton) at 52, 16 + 2*48 = 112 bytes
 *   section 1 (geometry) at 164, 4 bytes
 *   section 2 (animation) at 168: count at 168, clip offsets at 172 and 176
 *     (values 12 and 15), clips at 180 and 183, 19 bytes in all
 *   section 3 at 187 (5 tail bytes), sections 4..10 at 192, end field at 48 = 192
 */
static const uint8_t clip0[3] = {2, 0xAA, 0xBB};
static const uint8_t clip1[4] = {7, 0x11, 0x22, 0x33};
static const uint8_t tail[5] = {1, 2, 3, 4, 5};

static uint8_t *base(unsigned nsections, size_t *size)
{
    static uint8_t skel[TB_SKEL_MAX];
    tb_skel(skel, 2, 0);
    tb_clip clips[2] = {{clip0, 3}, {clip1, 4}};
    tb_model m = {nsections, skel, 112, clips, 2, tail, 5};
    return tb_build(&m, size);
}

Test(dat, base_layout_by_hand)
{
    size_t size;
    uint8_t *f = base(11, &size);
    cr_assert_eq(size, 192);
    static const uint32_t sec[12] = {52, 164, 168, 187, 192, 192, 192, 192, 192, 192, 192, 192};
    for (int i = 0; i < 12; i++)
        cr_assert_eq(le_u32(f + 4 + 4 * i), sec[i], "section %d", i);
    cr_assert_eq(le_u32(f + 168), 2);
    cr_assert_eq(le_u32(f + 172), 12);
    cr_assert_eq(le_u32(f + 176), 15);
    cr_assert_eq(f[180], 2);
    cr_assert_eq(f[183], 7);
    free(f);
}

static void parse_ok(const uint8_t *f, size_t size, dat_file *d, const char *what)
{
    ff_error err;
    char msg[700];
    int rc = dat_parse(f, size, what, d, &err);
    cr_assert_eq(rc, 0, "%s: %s", what, ff_error_format(&err, msg, sizeof msg));
}

Test(dat, model_kinds_recognized)
{
    static const struct {
        unsigned n;
        dat_kind kind;
        const char *name;
    } kinds[] = {
        {11, DAT_MONSTER, "monster"},
        {7, DAT_BODY, "body"},
        {10, DAT_EDEA, "edea"},
        {8, DAT_WEAPON, "weapon"},
    };
    for (size_t i = 0; i < 4; i++) {
        size_t size;
        uint8_t *f = base(kinds[i].n, &size);
        size_t header = 4 + 4 * (size_t)kinds[i].n + 4;
        cr_assert_eq(size, header + 112 + 4 + 19 + 5, "%s size", kinds[i].name);
        dat_file d;
        parse_ok(f, size, &d, kinds[i].name);
        cr_assert_eq(d.kind, kinds[i].kind, "%s kind", kinds[i].name);
        cr_assert_str_eq(dat_kind_name(d.kind), kinds[i].name);
        cr_assert_eq(d.nsections, kinds[i].n, "%s", kinds[i].name);
        cr_assert_eq(d.section[d.nsections], size, "%s end", kinds[i].name);
        cr_assert_eq(d.skel_off, header, "%s skel_off", kinds[i].name);
        cr_assert_eq(d.skel_size, 112, "%s skel_size", kinds[i].name);
        cr_assert_eq(d.bones, 2, "%s bones", kinds[i].name);
        cr_assert_eq(d.anim_off, header + 116, "%s anim_off", kinds[i].name);
        cr_assert_eq(d.anim_size, 19, "%s anim_size", kinds[i].name);
        cr_assert_eq(d.clips, 2, "%s clips", kinds[i].name);
        uint32_t off;
        cr_assert_eq(dat_clip_offset(&d, 0, &off, NULL), 0);
        cr_assert_eq(off, header + 116 + 12, "%s clip 0", kinds[i].name);
        cr_assert_eq(dat_clip_offset(&d, 1, &off, NULL), 0);
        cr_assert_eq(off, header + 116 + 15, "%s clip 1", kinds[i].name);
        cr_assert_eq(dat_clip_frames(&d, 0), 2, "%s", kinds[i].name);
        cr_assert_eq(dat_clip_frames(&d, 1), 7, "%s", kinds[i].name);
        cr_assert_eq(dat_clip_frames(&d, 2), 0, "%s: missing clip", kinds[i].name);
        ff_error err;
        cr_assert_eq(dat_clip_offset(&d, 2, &off, &err), -1);
        cr_assert_eq(err.kind, FF_E_RANGE);
        cr_assert_eq(d.data, f);
        cr_assert_str_eq(d.name, kinds[i].name);
        free(f);
    }
}

Test(dat, modelless_kinds_recognized)
{
    /* 5 sections: header 28, sections 28 30 30 34 34, end 36. */
    uint8_t *f = calloc(1, 36);
    static const uint32_t five[7] = {5, 28, 30, 30, 34, 34, 36};
    for (int i = 0; i < 7; i++)
        le_put32(f + 4 * i, five[i]);
    dat_file d;
    parse_ok(f, 36, &d, "d1w000.dat");
    cr_assert_eq(d.kind, DAT_WEAPON_REDUCED);
    cr_assert_eq(d.nsections, 5);
    cr_assert_eq(d.bones, 0);
    cr_assert_eq(d.clips, 0);
    ff_error err;
    uint32_t off;
    cr_assert_eq(dat_clip_offset(&d, 0, &off, &err), -1);
    cr_assert_eq(err.kind, FF_E_UNSUPPORTED);
    cr_assert_eq(dat_clip_frames(&d, 0), 0);
    free(f);
    /* 2 sections, both empty: header 16, sections 16 16, end 16. */
    f = calloc(1, 16);
    static const uint32_t two[4] = {2, 16, 16, 16};
    for (int i = 0; i < 4; i++)
        le_put32(f + 4 * i, two[i]);
    parse_ok(f, 16, &d, "c0m127.dat");
    cr_assert_eq(d.kind, DAT_NO_MODEL);
    cr_assert_eq(d.nsections, 2);
    free(f);
}

Test(dat, kind_helpers)
{
    static const unsigned sections[DAT__KIND_COUNT] = {11, 7, 10, 8, 5, 2};
    static const int model[DAT__KIND_COUNT] = {1, 1, 1, 1, 0, 0};
    static const char *names[DAT__KIND_COUNT] = {"monster", "body",           "edea",
                                                 "weapon",  "reduced_weapon", "no_model"};
    for (int k = 0; k < DAT__KIND_COUNT; k++) {
        cr_assert_eq(dat_kind_sections((dat_kind)k), sections[k], "kind %d", k);
        cr_assert_eq(dat_kind_has_model((dat_kind)k), model[k], "kind %d", k);
        cr_assert_str_eq(dat_kind_name((dat_kind)k), names[k], "kind %d", k);
        cr_assert_eq(dat_kind_from_name(names[k]), k, "kind %d", k);
    }
    cr_assert_str_eq(dat_kind_name(DAT__KIND_COUNT), "?");
    cr_assert_eq(dat_kind_sections(DAT__KIND_COUNT), 0);
    cr_assert_eq(dat_kind_has_model(DAT__KIND_COUNT), 0);
    cr_assert_eq(dat_kind_from_name("boss"), -1);
    cr_assert_eq(dat_kind_from_name(NULL), -1);
}

typedef struct bad_case {
    const char *name;
    size_t at; /* patched field */
    int width; /* 4: u32, 1: byte, 0: no patch */
    uint32_t value;
    size_t size; /* 0: keep 192, else the file is cut (or grown with zeros) */
    ff_errkind kind;
    int64_t offset;  /* expected err.offset */
    const char *has; /* expected words of the reason */
} bad_case;

static const bad_case bad[] = {
    {"count 3", 0, 4, 3, 0, FF_E_UNSUPPORTED, 0, "section count 3 "},
    {"count 0", 0, 4, 0, 0, FF_E_UNSUPPORTED, 0, "section count 0 "},
    {"count 12", 0, 4, 12, 0, FF_E_UNSUPPORTED, 0, "section count 12 "},
    {"count 2^32-1", 0, 4, 0xFFFFFFFFu, 0, FF_E_UNSUPPORTED, 0, "4294967295"},
    {"3-byte file", 0, 0, 0, 3, FF_E_TRUNCATED, 0, "4-byte section count"},
    {"truncated header", 0, 0, 0, 30, FF_E_TRUNCATED, 0, "52-byte header"},
    {"header without end field", 0, 0, 0, 51, FF_E_TRUNCATED, 0, "52-byte header"},
    {"file cut short", 0, 0, 0, 150, FF_E_TRUNCATED, 48, "end field 0xc0"},
    {"end too large", 48, 4, 193, 0, FF_E_TRUNCATED, 48, "file size 0xc0"},
    {"end too small", 48, 4, 191, 0, FF_E_FORMAT, 48, "end field 0xbf"},
    {"trailing bytes", 0, 0, 0, 200, FF_E_FORMAT, 48, "file size 0xc8"},
    {"section 0 in header", 4, 4, 51, 0, FF_E_FORMAT, 4, "inside the 0x34-byte header"},
    {"section 0 at 0", 4, 4, 0, 0, FF_E_FORMAT, 4, "section 0 offset 0x0"},
    {"section 2 descending", 12, 4, 100, 0, FF_E_FORMAT, 12,
     "section 2 offset 0x64 is before section 1 offset 0xa4"},
    {"section 4 descending", 20, 4, 180, 0, FF_E_FORMAT, 20,
     "section 4 offset 0xb4 is before section 3 offset 0xbb"},
    {"section 5 past end", 24, 4, 193, 0, FF_E_RANGE, 24, "section 5 offset 0xc1 is past"},
    {"section 1 at 2^32-1", 8, 4, 0xFFFFFFFFu, 0, FF_E_RANGE, 8, "0xffffffff"},
    {"section 10 at 2^32-1", 44, 4, 0xFFFFFFFFu, 0, FF_E_RANGE, 44, "section 10"},
    {"bone count 0", 52, 1, 0, 0, FF_E_FORMAT, 52, "0 bones"},
    {"255 bones", 52, 1, 255, 0, FF_E_TRUNCATED, 52, "255 bones need 0x2fe0 bytes"},
    {"3 bones", 52, 1, 3, 0, FF_E_TRUNCATED, 52, "3 bones need 0xa0 bytes"},
    {"skeleton under 16 bytes", 8, 4, 60, 0, FF_E_TRUNCATED, 52, "8 bytes"},
    {"animation under 4 bytes", 16, 4, 170, 0, FF_E_TRUNCATED, 168, "2 bytes"},
    {"clip count 0", 168, 4, 0, 0, FF_E_FORMAT, 168, "0 clips"},
    {"clip count 2^31", 168, 4, 0x80000000u, 0, FF_E_RANGE, 168, "clip count 2147483648"},
    {"clip count 2^32-1", 168, 4, 0xFFFFFFFFu, 0, FF_E_RANGE, 168, "clip count 4294967295"},
    {"clip count 4", 168, 4, 4, 0, FF_E_RANGE, 168, "0x14-byte offset table"},
    {"clip count 3, table over clip 0", 168, 4, 3, 0, FF_E_FORMAT, 172,
     "clip 0 offset 0xc points inside the 0x10-byte offset table"},
    {"clip offset inside table", 172, 4, 11, 0, FF_E_FORMAT, 172, "clip 0 offset 0xb"},
    {"clip offset 0", 176, 4, 0, 0, FF_E_FORMAT, 176, "clip 1 offset 0x0 points inside"},
    {"clip offset at section end", 176, 4, 19, 0, FF_E_RANGE, 176,
     "clip 1 offset 0x13 is past the end of the 0x13-byte"},
    {"clip offset 2^32-1", 176, 4, 0xFFFFFFFFu, 0, FF_E_RANGE, 176, "clip 1 offset 0xffffffff"},
};

Test(dat, malformed_files)
{
    size_t size;
    uint8_t *orig = base(11, &size);
    cr_assert_eq(size, 192);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const bad_case *c = &bad[i];
        size_t n = c->size ? c->size : size;
        uint8_t *f = calloc(1, n);
        memcpy(f, orig, n < size ? n : size);
        if (c->width == 4) le_put32(f + c->at, c->value);
        if (c->width == 1) f[c->at] = (uint8_t)c->value;
        dat_file d;
        ff_error err;
        ff_error_clear(&err);
        int rc = dat_parse(f, n, "c0m001.dat", &d, &err);
        cr_assert_eq(rc, -1, "case %zu (%s) was accepted", i, c->name);
        cr_assert_eq(err.kind, c->kind, "case %zu (%s): kind %s", i, c->name,
                     ff_errkind_name(err.kind));
        cr_assert_eq(err.offset, c->offset, "case %zu (%s): offset %lld", i, c->name,
                     (long long)err.offset);
        cr_assert_str_eq(err.file, "c0m001.dat", "case %zu (%s)", i, c->name);
        cr_assert(strstr(err.reason, c->has), "case %zu (%s): reason \"%s\" lacks \"%s\"", i,
                  c->name, err.reason, c->has);
        free(f);
    }
    free(orig);
}

Test(dat, last_byte_clip_offset_is_valid)
{
    /* Clip 1 at offset 18: its frame byte is the section's last byte. */
    size_t size;
    uint8_t *f = base(11, &size);
    le_put32(f + 176, 18);
    dat_file d;
    parse_ok(f, size, &d, "last byte");
    cr_assert_eq(dat_clip_frames(&d, 1), 0x33);
    free(f);
}

Test(dat, empty_file)
{
    ff_error err;
    dat_file d;
    uint8_t none[1] = {0};
    cr_assert_eq(dat_parse(none, 0, "empty.dat", &d, &err), -1);
    cr_assert_eq(err.kind, FF_E_TRUNCATED);
    cr_assert_eq(err.offset, 0);
    cr_assert_eq(dat_parse(NULL, 0, "empty.dat", &d, &err), -1);
    cr_assert_eq(err.kind, FF_E_TRUNCATED);
}

Test(dat, usage_errors)
{
    ff_error err;
    dat_file d;
    cr_assert_eq(dat_parse(NULL, 10, "x", &d, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    uint8_t b[4] = {0};
    cr_assert_eq(dat_parse(b, 4, "x", NULL, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
}
