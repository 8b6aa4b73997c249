/*
 * tests/emu/test_emu_calls.c: every stand-in routine called through the
 * engine core (emu_call on guest memory this suite lays out itself), with
 * results worked out by hand from docs/engine.md; and the stand-in's symbols
 * sitting at the profile's addresses.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "tests/emu/te.h"

#define AREA 0x60000000u
#define AREA_SIZE 0x10000u
#define CURSOR (AREA + 0x0)
#define BUF (AREA + 0x100)

static emu_image *img;
static emu *eng;
static uint8_t *area;
static const emu_profile *prof;

static void open_on(const emu_ops *ops)
{
    eng = te_engine_on(img, 0, ops);
    ff_error err;
    TS_OK(emu_map_area(eng, AREA, AREA_SIZE, EMU_PROT_READ | EMU_PROT_WRITE, 0, &area, &err),
          &err);
}

static void setup(void)
{
    img = te_standin_image("standin.exe");
    prof = emu_image_profile(img);
    open_on(ts_engine());
}

/* The suite's engine replaced by a Unicorn one: for the tests of its instruction count. */
static void on_unicorn(void)
{
    emu_close(eng);
    open_on(ts_unicorn());
}

static void teardown(void)
{
    emu_close(eng);
    emu_image_free(img);
}

TestSuite(calls, .init = setup, .fini = teardown);

/* Calls a leaf with a Cursor at (BUF + pos, bit) over bytes; n < 0: no n. */
static int16_t leaf(const char *name, const uint8_t *bytes, size_t len, uint32_t pos, int bit,
                    int n, uint32_t *pos_after, int *bit_after)
{
    memset(area + 0x100, 0, 64);
    memcpy(area + 0x100, bytes, len);
    le_put32(area, BUF + pos);
    le_put32(area + 4, (uint32_t)bit);
    uint32_t args[2] = {CURSOR, (uint32_t)n}, eax;
    emu_fault f;
    TE_CALL(emu_call(eng, te_routine(prof, name), args, n < 0 ? 1 : 2, &eax, &f), &f);
    *pos_after = le_u32(area) - BUF;
    *bit_after = (int)le_u32(area + 4);
    return (int16_t)(eax & 0xFFFF);
}

Test(calls, bitreader_by_hand)
{
    /* 0xB5 = bits 1,0,1,0,1,1,0,1 (LSB first); 0x3C; 0xF0; 0x0F. */
    static const uint8_t buf[] = {0xB5, 0x3C, 0xF0, 0x0F, 0x00, 0x00};
    static const struct {
        uint32_t pos;
        int bit, n, want;
        uint32_t pos_after;
        int bit_after;
    } v[] = {
        {0, 0, 3, -3, 0, 3},     /* 101b, sign bit set: 5 - 8 */
        {0, 3, 4, 6, 0, 7},      /* bits 3..6 = 0,1,1,0 */
        {0, 4, 8, -53, 1, 4},    /* 0xCB */
        {1, 4, 16, -253, 3, 4},  /* 0x0FF03C >> 4 = 0xFF03 */
        {0, 0, 1, -1, 0, 1},     /* one set bit is -1 */
        {0, 0, 16, 15541, 2, 0}, /* 0x3CB5 */
        {0, 7, 2, 1, 1, 1},      /* bit 7 of 0xB5, bit 0 of 0x3C */
        {2, 0, 12, -16, 3, 4},   /* 0xFF0 */
        {3, 4, 4, 0, 4, 0},      /* high nibble of 0x0F */
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint32_t pa;
        int ba;
        int16_t got = leaf("bitReader", buf, sizeof buf, v[i].pos, v[i].bit, v[i].n, &pa, &ba);
        cr_expect_eq(got, v[i].want, "vector %zu: got %d want %d", i, got, v[i].want);
        cr_expect_eq(pa, v[i].pos_after, "vector %zu: pos %u", i, pa);
        cr_expect_eq(ba, v[i].bit_after, "vector %zu: bit %d", i, ba);
    }
}

Test(calls, value_readers_by_hand)
{
    static const struct {
        const char *routine;
        uint8_t bytes[4];
        int want;
        uint32_t pos_after;
        int bit_after;
    } v[] = {
        /* type 1 (6 bits), value 59 = -5 */
        {"ReadPositionType", {0xED}, -5, 1, 0},
        /* type 3 read as -1 by bitReader, masked to 3: 16 bits, 0x1234 */
        {"ReadPositionType", {0xD3, 0x48, 0x00}, 0x1234, 2, 2},
        /* type 0 (3 bits), value 3 */
        {"ReadPositionType", {0x0C}, 3, 0, 5},
        /* absent bit */
        {"ReadRotationType", {0x00}, 0, 0, 1},
        /* present, type 2 (8 bits), 0x9C = -100 */
        {"ReadRotationType", {0xE5, 0x04}, -100, 1, 3},
        /* absent bit: 0x400 */
        {"ReadBoneScale", {0x00}, 1024, 0, 1},
        /* present, payload 0xFFE8 = -24: 1000 */
        {"ReadBoneScale", {0xD1, 0xFF, 0x01}, 1000, 2, 1},
        /* payload 0x7C00 + 0x400 = 0x8000 stored as -32768 (c0m105's quirk) */
        {"ReadBoneScale", {0x01, 0xF8, 0x00}, -32768, 2, 1},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint32_t pa;
        int ba;
        int16_t got = leaf(v[i].routine, v[i].bytes, sizeof v[i].bytes, 0, 0, -1, &pa, &ba);
        cr_expect_eq(got, v[i].want, "vector %zu (%s): got %d want %d", i, v[i].routine, got,
                     v[i].want);
        cr_expect_eq(pa, v[i].pos_after, "vector %zu: pos %u", i, pa);
        cr_expect_eq(ba, v[i].bit_after, "vector %zu: bit %d", i, ba);
    }
}

Test(calls, field_alloc_and_free_move_the_cursor)
{
    uint32_t base = emu_scratch_base(eng), eax;
    emu_fault f;
    uint32_t n = 0;
    /* (0 + 3) & ~3 = 0: the cursor does not move, the call is clean. */
    TE_CALL(emu_call(eng, te_routine(prof, "Field_Alloc"), &n, 1, &eax, &f), &f);
    cr_assert_eq(eax, base);
    /* (5 + 3) & ~3 = 8 bytes taken and never released. */
    n = 5;
    cr_assert_eq(emu_call(eng, te_routine(prof, "Field_Alloc"), &n, 1, &eax, &f), -1);
    cr_assert_eq(f.kind, EMU_FAULT_SCRATCH, "%s", emu_fault_name(f.kind));
    cr_assert_eq(f.regs[EMU_EAX], base, "returns the old cursor");
    cr_assert_eq(f.addr, base + 8, "cursor 0x%x", f.addr);
    cr_assert(strstr(f.detail, "8 bytes") != NULL, "%s", f.detail);
    /* Field_Free(13) moves it down by 16 and returns that size, not the
     * cursor (docs/engine.md section 2). */
    n = 13;
    cr_assert_eq(emu_call(eng, te_routine(prof, "Field_Free"), &n, 1, &eax, &f), -1);
    cr_assert_eq(f.kind, EMU_FAULT_SCRATCH);
    cr_assert_eq(f.addr, base - 16);
    cr_assert_eq(f.regs[EMU_EAX], 16u);
    cr_assert(strstr(f.detail, "16 bytes of scratch more") != NULL, "%s", f.detail);
    /* Every call starts with the cursor at the base again. */
    n = 0;
    TE_CALL(emu_call(eng, te_routine(prof, "Field_Alloc"), &n, 1, &eax, &f), &f);
    cr_assert_eq(eax, base);
}

/* ---- the Entity: body + weapon lockstep ---- */

#define BODY_FILE (AREA + 0x1000)
#define WEAPON_FILE (AREA + 0x2000)
#define BODY_FILES (AREA + 0x200)
#define WEAPON_FILES (AREA + 0x220)
#define ENTITY (AREA + 0x400)
#define WEAPON (AREA + 0x600)

static void place_model(uint32_t file_addr, uint32_t files_addr, uint32_t model_addr,
                        const te_file *tf)
{
    memcpy(area + (file_addr - AREA), tf->data, tf->size);
    le_put32(area + (files_addr - AREA), file_addr + TE_SKEL_OFF);
    le_put32(area + (files_addr - AREA) + 4, file_addr + TE_GEOM_OFF);
    le_put32(area + (files_addr - AREA) + 8, file_addr + TE_ANIM_OFF);
    le_put32(area + (model_addr - AREA) + 4, files_addr);
    le_put32(area + (model_addr - AREA) + 8, files_addr);
}

static void expect_cmd(const uint8_t *cmd, uint8_t flags, int off, int bit, int frame, int total,
                       const char *what)
{
    cr_expect_eq(cmd[0], 0, "%s clip", what);
    cr_expect_eq(cmd[1], flags, "%s flags 0x%x", what, cmd[1]);
    cr_expect_eq(le_s16(cmd + 2), off, "%s off %d", what, le_s16(cmd + 2));
    cr_expect_eq(le_s16(cmd + 4), bit, "%s bit %d", what, le_s16(cmd + 4));
    cr_expect_eq(cmd[6], frame, "%s frame %d", what, cmd[6]);
    cr_expect_eq(cmd[7], total, "%s total %d", what, cmd[7]);
}

/* Root and rotations of a skeleton against 9 values. */
static void expect_pose(uint32_t file_addr, const int *want, const char *what)
{
    const uint8_t *sk = area + (file_addr - AREA) + TE_SKEL_OFF;
    for (int k = 0; k < 3; k++) {
        cr_expect_eq(le_s16(sk + 8 + 2 * k), want[k], "%s root[%d]", what, k);
        cr_expect_eq(le_s16(sk + 16 + 4 + 2 * k), want[3 + k], "%s bone0.rot[%d]", what, k);
        cr_expect_eq(le_s16(sk + 16 + 48 + 4 + 2 * k), want[6 + k], "%s bone1.rot[%d]", what, k);
    }
}

Test(calls, queue_animation_and_advance_by1_on_an_entity)
{
    te_file body, weapon;
    te_make_file(&body, 1, NULL);
    te_make_file(&weapon, 1, NULL);
    weapon.data[weapon.clip_off[0]] = 1; /* the weapon's clip is one frame long */
    place_model(BODY_FILE, BODY_FILES, ENTITY + 0x60, &body);
    place_model(WEAPON_FILE, WEAPON_FILES, WEAPON, &weapon);
    le_put32(area + (ENTITY - AREA) + 0x78, WEAPON);
    uint32_t args[2] = {ENTITY, 0}, eax;
    emu_fault f;
    TE_CALL(emu_call(eng, te_routine(prof, "QueueAnimation"), args, 2, &eax, &f), &f);
    cr_assert_eq(eax, 0u);
    /* Frame 0 at full value on both: 56 bits = 7 bytes after byte 1. */
    static const int pose0[9] = {4, -3, 0, 10, 0, -7, 0, 100, 2};
    expect_cmd(area + (ENTITY - AREA) + 0x6C, 0x04, 8, 0, 1, 2, "body");
    expect_cmd(area + (WEAPON - AREA) + 0x0C, 0x04, 8, 0, 1, 1, "weapon");
    expect_pose(BODY_FILE, pose0, "body");
    expect_pose(WEAPON_FILE, pose0, "weapon");

    TE_CALL(emu_call(eng, te_routine(prof, "AdvanceBy1"), args, 1, &eax, &f), &f);
    cr_assert_eq(eax, 0u, "the body's result");
    /* Body: frame 1 added (51 more bits: 107 = 13 bytes + 3 bits). Weapon: over. */
    static const int pose1[9] = {9, -6, 2, 4, 3, -7, 7, 100, 1};
    expect_cmd(area + (ENTITY - AREA) + 0x6C, 0x00, 14, 3, 2, 2, "body tick 1");
    expect_cmd(area + (WEAPON - AREA) + 0x0C, 0x04, 8, 0, 1, 1, "weapon tick 1");
    expect_pose(BODY_FILE, pose1, "body tick 1");
    expect_pose(WEAPON_FILE, pose0, "weapon tick 1");

    TE_CALL(emu_call(eng, te_routine(prof, "AdvanceBy1"), args, 1, &eax, &f), &f);
    cr_assert_eq(eax, 1u, "the body's clip is over");

    /* Without a weapon only the body moves. */
    le_put32(area + (ENTITY - AREA) + 0x78, 0);
    memcpy(area + (WEAPON_FILE - AREA), weapon.data, weapon.size);
    args[1] = 0;
    TE_CALL(emu_call(eng, te_routine(prof, "QueueAnimation"), args, 2, &eax, &f), &f);
    expect_cmd(area + (ENTITY - AREA) + 0x6C, 0x04, 8, 0, 1, 2, "body alone");
    cr_expect_arr_eq(area + (WEAPON_FILE - AREA), weapon.data, weapon.size,
                     "the weapon's file is not touched");
}

Test(calls, routines_sit_at_the_profile_addresses)
{
    size_t n;
    char *sym = (char *)ts_read_all(te_standin_path("standin.sym"), &n);
    sym[n] = '\0';
    unsigned checked = 0;
    for (unsigned i = 0; i < prof->nroutines; i++) {
        const profile_routine *r = &prof->routines[i];
        char needle[80];
        snprintf(needle, sizeof needle, "%s 0x", r->name);
        char *at = strstr(sym, needle);
        while (at && at != sym && at[-1] != '\n')
            at = strstr(at + 1, needle);
        cr_expect(at != NULL, "%s not in standin.sym", r->name);
        if (!at) continue;
        unsigned long addr = strtoul(at + strlen(needle), NULL, 16);
        cr_expect_eq(addr, r->address, "%s at 0x%lx, profile says 0x%x", r->name, addr, r->address);
        checked++;
    }
    cr_assert_geq(checked, 18u);
    /* The engine's addresses of docs/engine.md section 2. */
    static const struct {
        const char *name;
        uint32_t addr;
    } eng_addrs[] = {{"Field_Alloc", 0x5082B0},       {"Field_Free", 0x5082D0},
                     {"BuildBoneMatrices", 0x508C90}, {"Battle_ReadAnimation", 0x508F90},
                     {"bitReader", 0x5092A0},         {"ReadPositionType", 0x509320},
                     {"ReadRotationType", 0x509370},  {"ReadBoneScale", 0x5093F0},
                     {"StartClip", 0x509440},         {"AdvanceBy1", 0x5094F0},
                     {"QueueAnimation", 0x509520},    {"ComputeBonesWorldMatrices", 0x5095B0}};
    for (size_t i = 0; i < sizeof eng_addrs / sizeof eng_addrs[0]; i++)
        cr_expect_eq(te_routine(prof, eng_addrs[i].name), eng_addrs[i].addr, "%s",
                     eng_addrs[i].name);
    cr_expect(strstr(sym, "field_alloc_cursor 0x1D999C4") != NULL);
    free(sym);
}

/*
 * The stand-in's bitReader is one straight block (i686-w64-mingw32-objdump -d
 * build/emu/standin/standin.exe --start-address=0x5092A0): four pushes, the
 * loads of the cursor, n and the three bytes, the shifts, the stores back,
 * four pops and the ret, 34 instructions from 0x5092A0 through the ret at
 * 0x5092ED. The sentinel's HLT is not counted.
 */
Test(calls, counts_instructions_of_a_call)
{
    on_unicorn(); /* an exact instruction count: Unicorn only (EMU_CAP_BUDGET) */
    static const uint8_t buf[] = {0xB5, 0x3C, 0xF0};
    uint32_t pa;
    int ba;
    leaf("bitReader", buf, sizeof buf, 0, 0, 3, &pa, &ba);
    uint64_t n = emu_last_insns(eng);
    cr_assert_eq(n, 34u, "bitReader took %llu instructions, 34 by its disassembly",
                 (unsigned long long)n);
}

/*
 * A loop assembled here, so the count does not depend on any compiler:
 *   B9 nn 00 00 00   mov ecx, nn
 *   49               L: dec ecx
 *   75 FD            jnz L
 *   C3               ret
 * 1 + 2 nn + 1 instructions: the first block (mov, dec, jnz) once, the
 * block at L (dec, jnz) nn - 1 more times from the per-engine cache, the
 * ret once.
 */
Test(calls, counts_instructions_across_repeated_blocks)
{
    on_unicorn(); /* an exact instruction count: Unicorn only (EMU_CAP_BUDGET) */
    enum { CODE = 0x60100000u };
    static const unsigned loops[] = {1, 5, 100};
    ff_error err;
    uint8_t *code;
    TS_OK(emu_map_area(eng, CODE, 4096, EMU_PROT_READ | EMU_PROT_EXEC, 0, &code, &err), &err);
    memset(code, 0xCC, 4096);
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        /* Each loop at its own address: code already translated is never rewritten. */
        const uint8_t prog[] = {0xB9, (uint8_t)loops[i], 0, 0, 0, 0x49, 0x75, 0xFD, 0xC3};
        memcpy(code + 64 * i, prog, sizeof prog);
        uint32_t eax;
        emu_fault f;
        TE_CALL(emu_call(eng, CODE + 64 * (uint32_t)i, NULL, 0, &eax, &f), &f);
        uint64_t n = emu_last_insns(eng), want = 1 + 2 * (uint64_t)loops[i] + 1;
        cr_assert_eq(n, want, "%u loops: %llu instructions, expected %llu", loops[i],
                     (unsigned long long)n, (unsigned long long)want);
    }
    TS_OK(emu_unmap_area(eng, CODE, &err), &err);
}

/*
 * Every call starts with an empty x87 stack: Test_X87Result leaves its
 * result in ST(0) and nobody pops it, twelve times (more than the eight
 * registers); then a call that does not touch the x87 finds (and leaves)
 * it empty, where without the reset the last result would still be there.
 */
Test(calls, x87_stack_is_emptied_before_every_call)
{
    uint32_t x87 = te_routine(prof, "Test_X87Result"), eax;
    emu_fault f;
    for (int n = 1; n <= 12; n++) {
        uint32_t arg = (uint32_t)(n * -1000);
        TE_CALL(emu_call(eng, x87, &arg, 1, &eax, &f), &f);
        double v;
        cr_assert_eq(emu_x87_st0(eng, &v, NULL), 0, "call %d left nothing in ST(0)", n);
        cr_assert(v == n * -1000.0, "call %d: ST(0) = %g", n, v);
    }
    static const uint8_t buf[] = {0xB5, 0x3C, 0xF0};
    uint32_t pa;
    int ba;
    leaf("bitReader", buf, sizeof buf, 0, 0, 3, &pa, &ba);
    double v;
    cr_expect_eq(emu_x87_st0(eng, &v, NULL), -1, "bitReader returns nothing on the x87 stack");
}

/* A patch undone gives the image's bytes back; an address with no patch
 * is refused. */
Test(calls, unpatch_restores_the_routine)
{
    uint32_t fa = te_routine(prof, "Field_Alloc"), eax, arg = 16;
    uint8_t before[4];
    memcpy(before, emu_host(eng, fa, 4), 4);
    static const uint8_t ret_op = 0xC3;
    ff_error err;
    emu_fault f;
    TS_OK(emu_patch(eng, fa, &ret_op, 1, &err), &err);
    TE_CALL(emu_call(eng, fa, &arg, 1, &eax, &f), &f);
    cr_expect_eq(eax, 0u, "the patched Field_Alloc returns at once (EAX as zeroed)");
    TS_OK(emu_unpatch(eng, fa, &err), &err);
    cr_expect_arr_eq(emu_host(eng, fa, 4), before, 4);
    /* The original again: allocates 16 bytes and leaves them taken. */
    cr_expect_eq(emu_call(eng, fa, &arg, 1, &eax, &f), -1);
    cr_expect_eq(f.kind, EMU_FAULT_SCRATCH);
    cr_expect_eq(eax, emu_scratch_base(eng));
    cr_expect_eq(emu_unpatch(eng, fa, &err), -1);
    cr_expect_eq(err.kind, FF_E_USAGE);
}
