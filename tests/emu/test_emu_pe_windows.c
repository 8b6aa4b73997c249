/*
 * tests/emu/test_emu_pe_windows.c: the PE loader maps what Windows maps.
 * The images are cross-built with i686 mingw-w64 when the tests are built
 * (tests/emu/images/): winmap_nolo.exe, whose uninitialised data is a
 * NOLOAD .bss as GNU ld writes it (PointerToRawData 0, SizeOfRawData
 * 0x1214000), and winmap_default.exe (the toolchain's own layout). Section
 * headers are read here straight from the bytes, the expected bytes come
 * from the formula winmap.c's data was written from, and the other cases
 * are these images with one header field changed: a raw pointer not on a
 * 0x200 boundary, raw data longer than the virtual size, raw data cut by
 * the end of the file. Plus a stand-in whose last section runs past the
 * end of the file: it maps, runs, and the warning reaches the run's report.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/engine/game.h"
#include "emu/engine/image.h"
#include "emu/image/pe.h"
#include "tests/emu/te.h"
#include "tests/support/ts.h"

#define PATTERN_LEN 64
#define BIG 0x1214000u

/* Byte i of winmap_pattern, from the formula winmap.c states. */
static uint8_t pattern(unsigned i)
{
    return (uint8_t)((i * 37 + 11) & 0xFF);
}

static uint8_t *image(const char *env, size_t *size)
{
    const char *path = getenv(env);
    cr_assert(path, "%s is not set (run through ctest)", env);
    return ts_read_all(path, size);
}

/* File offset of the header of the section named name (fails when absent). */
static size_t section_header(const uint8_t *pe, const char *name)
{
    uint32_t h = le_u32(pe + 0x3C);
    unsigned nsec = le_u16(pe + h + 6), opt = le_u16(pe + h + 20);
    size_t tab = h + 24 + opt;
    for (unsigned i = 0; i < nsec; i++)
        if (strncmp((const char *)pe + tab + 40 * i, name, 8) == 0) return tab + 40 * i;
    cr_assert_fail("no section %s", name);
    return 0;
}

/* The laid-out image of data[0..size) (parse must succeed). */
static uint8_t *layout(const uint8_t *data, size_t size, pe_image *img)
{
    ff_error err;
    TS_OK(pe_parse(data, size, img, &err), &err);
    uint8_t *lay;
    TS_OK(pe_build_image(img, data, size, &lay, &err), &err);
    return lay;
}

/* The 64 pattern bytes at the start of .data, as mapped; bytes from `upto` on must be 0. */
static void expect_data(const uint8_t *lay, uint32_t data_rva, unsigned upto, const char *what)
{
    uint8_t want[PATTERN_LEN];
    for (unsigned i = 0; i < PATTERN_LEN; i++)
        want[i] = i < upto ? pattern(i) : 0;
    ts_assert_mem(lay + data_rva, want, PATTERN_LEN, what);
}

static int all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

Test(winmap, nolo_bss_maps_as_zeroed_memory)
{
    size_t size;
    uint8_t *pe = image("FF8DIFF_WINMAP_NOLO", &size);
    size_t bss = section_header(pe, ".bss");
    /* The image is what it claims to be: the header the loader used to refuse. */
    cr_assert_eq(le_u32(pe + bss + 20), 0, "PointerToRawData");
    cr_assert_geq(le_u32(pe + bss + 16), BIG, "SizeOfRawData");
    cr_assert_gt(le_u32(pe + bss + 16), size, "SizeOfRawData is past the end of the file");
    pe_image img;
    uint8_t *lay = layout(pe, size, &img);
    cr_assert_str_empty(img.warning, "no warning expected: %s", img.warning);
    const pe_section *s = pe_section_at(&img, img.image_base + le_u32(pe + bss + 12));
    cr_assert(s && strcmp(s->name, ".bss") == 0);
    cr_assert_eq(s->raw_size, 0, "uninitialised whatever SizeOfRawData says");
    cr_assert(all_zero(lay + s->rva, s->vsize), ".bss is not all zero");
    expect_data(lay, le_u32(pe + section_header(pe, ".data") + 12), PATTERN_LEN, ".data");
    free(lay);
    pe_free(&img);
    free(pe);
}

Test(winmap, default_layout_maps)
{
    size_t size;
    uint8_t *pe = image("FF8DIFF_WINMAP_DEFAULT", &size);
    pe_image img;
    uint8_t *lay = layout(pe, size, &img);
    cr_assert_str_empty(img.warning);
    expect_data(lay, le_u32(pe + section_header(pe, ".data") + 12), PATTERN_LEN, ".data");
    size_t bss = section_header(pe, ".bss");
    cr_assert(all_zero(lay + le_u32(pe + bss + 12), le_u32(pe + bss + 8)));
    free(lay);
    pe_free(&img);
    free(pe);
}

Test(winmap, raw_pointer_rounds_down_to_0x200)
{
    size_t size;
    uint8_t *pe = image("FF8DIFF_WINMAP_NOLO", &size);
    size_t data = section_header(pe, ".data");
    uint32_t ptr = le_u32(pe + data + 20);
    cr_assert_eq(ptr % 0x200, 0, "the linker put .data on a 0x200 boundary");
    /* 0x1F0 bytes further the file holds something else than the pattern... */
    cr_assert(memcmp(pe + ptr, pe + ptr + 0x1F0, 16) != 0);
    le_put32(pe + data + 20, ptr + 0x1F0);
    /* ...but Windows reads from the pointer rounded down: the pattern. */
    pe_image img;
    uint8_t *lay = layout(pe, size, &img);
    expect_data(lay, le_u32(pe + data + 12), PATTERN_LEN, ".data read from the rounded pointer");
    free(lay);
    pe_free(&img);
    free(pe);
}

Test(winmap, raw_data_is_cut_to_the_virtual_size)
{
    size_t size;
    uint8_t *pe = image("FF8DIFF_WINMAP_NOLO", &size);
    size_t data = section_header(pe, ".data");
    cr_assert_geq(le_u32(pe + data + 16), PATTERN_LEN);
    le_put32(pe + data + 8, 16); /* VirtualSize 16: the rest of the raw data is not mapped */
    pe_image img;
    uint8_t *lay = layout(pe, size, &img);
    expect_data(lay, le_u32(pe + data + 12), 16, ".data cut to 16 bytes");
    free(lay);
    pe_free(&img);
    free(pe);
}

Test(winmap, raw_data_past_the_end_maps_what_exists)
{
    size_t size;
    uint8_t *pe = image("FF8DIFF_WINMAP_NOLO", &size);
    size_t data = section_header(pe, ".data");
    uint32_t ptr = le_u32(pe + data + 20);
    size_t cut = ptr + 0x20; /* the file ends 32 bytes into .data */
    uint8_t *copy = malloc(cut);
    memcpy(copy, pe, cut);
    pe_image img;
    uint8_t *lay = layout(copy, cut, &img);
    expect_data(lay, le_u32(pe + data + 12), 0x20, ".data cut by the end of the file");
    cr_assert(strstr(img.warning, "section 1 (.data)"), "%s", img.warning);
    cr_assert(strstr(img.warning, "runs past the end of the file"), "%s", img.warning);
    cr_assert(strstr(img.warning, "0x20 bytes mapped"), "%s", img.warning);
    cr_assert_eq(img.nwarnings, 1);
    free(lay);
    pe_free(&img);
    /* A pointer past the end of the file: nothing exists, all zeros, a warning. */
    le_put32(pe + data + 20, (uint32_t)size + 0x1000);
    lay = layout(pe, size, &img);
    expect_data(lay, le_u32(pe + data + 12), 0, ".data past the end");
    cr_assert(strstr(img.warning, "0x0 bytes mapped"), "%s", img.warning);
    free(lay);
    pe_free(&img);
    free(copy);
    free(pe);
}

/*
 * standin.exe ending with its last section (.idata), said to be 0x1000
 * bytes, raw and virtual: the file holds 0x200 of them. It loads, with the
 * warning, and its routines run.
 */
Test(winmap, a_standin_cut_short_loads_and_runs_with_a_warning)
{
    size_t size;
    uint8_t *pe = ts_read_all(te_standin_path("standin.exe"), &size);
    size_t idata = section_header(pe, ".idata");
    /* The file ends with .idata's raw bytes (the COFF symbols after them go; loaders skip them). */
    size = le_u32(pe + idata + 20) + le_u32(pe + idata + 16);
    le_put32(pe + idata + 8, 0x1000);
    le_put32(pe + idata + 16, 0x1000);
    emu_profile p;
    te_standin_profile(&p);
    emu_image *img;
    char warn[1024];
    ff_error err;
    TS_OK(emu_image_load_buffer(pe, size, "cut.exe", &p, &img, warn, sizeof warn, &err), &err);
    cr_assert(strstr(warn, "unknown build"), "%s", warn);
    cr_assert(strstr(warn, "section 9 (.idata)"), "%s", warn);
    cr_assert(strstr(warn, "0xe00 zero-filled"), "%s", warn);
    /* ReadPositionType on 0x0C: type 0 (2 bits), so 3 bits of value: 3 (docs/engine.md 2). */
    emu_game *g;
    emu_game_opts o = {0, 0, ts_engine()};
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    const uint8_t bits[4] = {0x0C, 0, 0, 0};
    int16_t ax;
    int64_t pos;
    int32_t bit;
    emu_fault f;
    TE_CALL(emu_game_leaf(g, EMU_LEAF_POSITION, bits, sizeof bits, 0, 0, 0, &ax, &pos, &bit, &f),
            &f);
    cr_assert_eq(ax, 3);
    cr_assert_eq(pos * 8 + bit, 5, "cursor at bit %lld", (long long)(pos * 8 + bit));
    emu_game_close(g);
    emu_image_free(img);
    free(pe);
}
