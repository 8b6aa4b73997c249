/*
 * tests/emu/test_emu_pe.c: the PE32 loader on standin.exe and on corrupted
 * copies of it, each refused with the expected error kind and reason (the
 * headers Windows refuses). What Windows maps leniently is in
 * test_emu_pe_windows.c.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/image/pe.h"
#include "tests/emu/te.h"

static uint8_t *exe;
static size_t exe_size;

static void load(void)
{
    exe = ts_read_all(te_standin_path("standin.exe"), &exe_size);
}

static void unload(void)
{
    free(exe);
}

TestSuite(pe, .init = load, .fini = unload);

/* Offsets of the headers, read straight from the bytes (PE/COFF spec). */
static uint32_t lfanew(void)
{
    return le_u32(exe + 0x3C);
}
static uint32_t opt_off(void)
{
    return lfanew() + 24;
}
static uint32_t sect_off(void)
{
    return opt_off() + (uint32_t)(exe[lfanew() + 20] | exe[lfanew() + 21] << 8);
}

Test(pe, parses_the_standin)
{
    pe_image img;
    ff_error err;
    TS_OK(pe_parse(exe, exe_size, &img, &err), &err);
    cr_assert_eq(img.image_base, 0x400000u);
    /* standin.ld puts the engine routines in .engine, the tests in .tests. */
    const pe_section *s = pe_section_at(&img, 0x508F90);
    cr_assert(s, "no section holds 0x508F90");
    cr_assert_str_eq(s->name, ".engine");
    cr_assert(s->characteristics & PE_SCN_MEM_EXECUTE);
    cr_assert_str_eq(pe_section_at(&img, 0x5A0000)->name, ".tests");
    cr_assert_null(pe_section_at(&img, 0x1D999C4), "the cursor global lies outside every section");
    int found = 0;
    for (unsigned i = 0; i < img.nimports; i++) {
        const pe_import *imp = &img.imports[i];
        if (strcmp(imp->name, "GetTickCount") != 0) continue;
        found = 1;
        cr_assert_str_eq(imp->dll, "KERNEL32.dll");
        const pe_section *is = pe_section_at(&img, imp->slot);
        cr_assert(is, "IAT slot 0x%x outside every section", imp->slot);
        cr_assert_eq(pe_import_at_slot(&img, imp->slot), imp);
    }
    cr_assert(found, "GetTickCount is not among the %u imports", img.nimports);
    /* The width tables as laid out: 03 06 09 10 and 03 06 08 0C. */
    uint8_t w[8];
    TS_OK(pe_read_va(&img, exe, exe_size, 0xB8B9F0, w, 8, &err), &err);
    const uint8_t want[8] = {3, 6, 9, 16, 3, 6, 8, 12};
    cr_assert_arr_eq(w, want, 8);
    cr_assert_neq(pe_read_va(&img, exe, exe_size, 0x1D999C4, w, 4, &err), 0);
    pe_free(&img);
}

typedef struct corrupt_case {
    const char *name;
    ff_errkind kind;
    const char *reason; /* substring of the reason */
} corrupt_case;

/* Applies case i to copy (size *n) and returns the expected outcome. */
static corrupt_case corrupt(int i, uint8_t *copy, size_t *n)
{
    uint32_t opt = opt_off(), sec = sect_off();
    switch (i) {
    case 0:
        *n = 0x20;
        return (corrupt_case){"truncated in the DOS header", FF_E_TRUNCATED, "DOS header"};
    case 1:
        *n = lfanew() + 10;
        return (corrupt_case){"truncated in COFF", FF_E_TRUNCATED, "PE/COFF"};
    case 2:
        *n = opt + 40;
        return (corrupt_case){"truncated in the optional header", FF_E_TRUNCATED,
                              "optional header"};
    case 3:
        *n = sec + 50;
        return (corrupt_case){"truncated in the section table", FF_E_TRUNCATED, "section table"};
    case 4:
        le_put32(copy + opt + 36, le_u32(copy + opt + 32) * 2);
        return (corrupt_case){"file alignment above section alignment", FF_E_FORMAT,
                              "exceeds section alignment"};
    case 5:
        le_put32(copy + 0x3C, (uint32_t)*n + 100);
        return (corrupt_case){"e_lfanew past the end", FF_E_FORMAT, "e_lfanew"};
    case 6:
        copy[opt] = 0x0B;
        copy[opt + 1] = 0x02;
        return (corrupt_case){"PE32+ magic", FF_E_UNSUPPORTED, "PE32+"};
    case 7:
        copy[lfanew() + 4] = 0x64;
        copy[lfanew() + 5] = 0x86;
        return (corrupt_case){"x86-64 machine", FF_E_UNSUPPORTED, "not i386"};
    case 8:
        le_put32(copy + sec + 8, le_u32(copy + opt + 56)); /* rva > 0: past the end */
        return (corrupt_case){"section past SizeOfImage", FF_E_FORMAT, "runs past SizeOfImage"};
    case 9:
        copy[lfanew() + 6] = 0xFF;
        copy[lfanew() + 7] = 0xFF;
        return (corrupt_case){"absurd section count", FF_E_FORMAT, "absurd section count 65535"};
    case 10:
        le_put32(copy + opt + 96 + 8, 0x7FFFFFF0u);
        return (corrupt_case){"import directory outside", FF_E_FORMAT, "import directory"};
    case 11:
        le_put32(copy + sec + 40 + 12, le_u32(copy + sec + 12));
        return (corrupt_case){"overlapping sections", FF_E_FORMAT, "overlap"};
    case 12:
        copy[0] = 'Z';
        return (corrupt_case){"no MZ", FF_E_FORMAT, "MZ"};
    case 13:
        le_put32(copy + opt + 56, 0x7FFFFFFFu);
        return (corrupt_case){"absurd SizeOfImage", FF_E_FORMAT, "SizeOfImage"};
    case 14:
        *n = 0;
        return (corrupt_case){"empty file", FF_E_TRUNCATED, "DOS header"};
    default:
        return (corrupt_case){NULL, FF_E_OK, NULL};
    }
}

Test(pe, corrupted_copies_are_refused)
{
    for (int i = 0;; i++) {
        uint8_t *copy = malloc(exe_size);
        memcpy(copy, exe, exe_size);
        size_t n = exe_size;
        corrupt_case c = corrupt(i, copy, &n);
        if (!c.name) {
            free(copy);
            break;
        }
        /* Exact-size buffer so that a read past the end is caught by ASan. */
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, copy, n);
        pe_image img;
        ff_error err;
        ff_error_clear(&err);
        int rc = pe_parse(cut, n, &img, &err);
        cr_expect_eq(rc, -1, "case %d (%s) was accepted", i, c.name);
        cr_expect_eq(err.kind, c.kind, "case %d (%s): kind %s, want %s (%s)", i, c.name,
                     ff_errkind_name(err.kind), ff_errkind_name(c.kind), err.reason);
        cr_expect(strstr(err.reason, c.reason) != NULL, "case %d (%s): reason \"%s\" lacks \"%s\"",
                  i, c.name, err.reason, c.reason);
        cr_expect_null(img.imports, "case %d leaked imports", i);
        free(cut);
        free(copy);
    }
}

Test(pe, random_header_damage_never_crashes)
{
    uint32_t seed = 12345;
    uint32_t span = sect_off() + 40 * 16;
    for (int round = 0; round < 3000; round++) {
        uint8_t *copy = malloc(exe_size);
        memcpy(copy, exe, exe_size);
        for (int k = 0; k < 4; k++) {
            seed = seed * 1103515245u + 12345u;
            uint32_t at = (seed >> 8) % span;
            seed = seed * 1103515245u + 12345u;
            copy[at] = (uint8_t)(seed >> 16);
        }
        seed = seed * 1103515245u + 12345u;
        size_t n = (round % 3 == 0) ? (seed >> 4) % exe_size : exe_size;
        pe_image img;
        ff_error err;
        if (pe_parse(copy, n, &img, &err) == 0) {
            uint8_t buf[16];
            pe_read_va(&img, copy, n, img.image_base + 0x1000, buf, sizeof buf, &err);
            pe_free(&img);
        } else {
            cr_expect_neq(err.kind, FF_E_OK, "round %d: failure without an error kind", round);
        }
        free(copy);
    }
}

Test(pe, build_image_zeroes_the_virtual_tail)
{
    pe_image img;
    ff_error err;
    TS_OK(pe_parse(exe, exe_size, &img, &err), &err);
    uint8_t *lay;
    TS_OK(pe_build_image(&img, exe, exe_size, &lay, &err), &err);
    for (unsigned i = 0; i < img.nsections; i++) {
        const pe_section *s = &img.sections[i];
        cr_assert_arr_eq(lay + s->rva, exe + s->raw_off, s->raw_size, "section %s", s->name);
        for (uint32_t k = s->raw_size; k < s->vsize; k++)
            cr_assert_eq(lay[s->rva + k], 0, "section %s byte 0x%x", s->name, k);
    }
    free(lay);
    pe_free(&img);
}

/* pe_copy_image onto zeroes gives the whole layout, byte for byte. */
Test(pe, copy_image_gives_the_layout)
{
    pe_image img;
    ff_error err;
    TS_OK(pe_parse(exe, exe_size, &img, &err), &err);
    uint8_t *lay, *copy = calloc(1, img.size_of_image);
    cr_assert(copy);
    TS_OK(pe_build_image(&img, exe, exe_size, &lay, &err), &err);
    pe_copy_image(&img, lay, copy);
    ts_assert_mem(copy, lay, img.size_of_image, "copied image");
    free(copy);
    free(lay);
    pe_free(&img);
}
