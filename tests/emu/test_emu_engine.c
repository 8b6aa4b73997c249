/*
 * tests/emu/test_emu_engine.c: the engine seam (emu/engine/emu.h) on the
 * stand-in: the kinds built in and what they say about themselves, the image
 * in guest memory as loaded, the guest areas an engine owns, and an ops
 * table honoured: a table lacking
 * capabilities gets each missing hook refused with the reason (or, for the
 * BuildBoneMatrices stub, a patched `ret` that gives the same results),
 * never a call into an entry it does not have.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "emu/engine/emu_impl.h"
#include "emu/engine/guest.h"
#include "emu/engine/observe.h"
#include "ref/readlog.h"
#include "tests/emu/te.h"

#define AREA 0x60000000u

/* Unicorn's table with the hooks of `drop` removed, flags and entries alike. */
static emu_ops without(unsigned drop)
{
    emu_ops o = *emu_engine_ops(EMU_ENGINE_UNICORN);
    o.caps &= ~drop;
    if (drop & EMU_CAP_BIT(EMU_CAP_BUDGET)) o.last_insns = NULL, o.set_budget = NULL;
    if (drop & EMU_CAP_BIT(EMU_CAP_STUB)) o.stub_return = NULL, o.stub_set = NULL;
    if (drop & EMU_CAP_BIT(EMU_CAP_WATCH))
        o.watch_writes = NULL, o.watch_reset = NULL, o.watch_result = NULL, o.unwatch = NULL;
    if (drop & EMU_CAP_BIT(EMU_CAP_COVERAGE)) o.cover_start = NULL, o.cover_stop = NULL;
    if (drop & EMU_CAP_BIT(EMU_CAP_READ_LOG))
        o.calls_start = NULL, o.calls_armed = NULL, o.calls_record = NULL, o.calls_taken = NULL,
        o.calls_stop = NULL;
    return o;
}

#define ALL_HOOKS                                                                                  \
    (EMU_CAP_BIT(EMU_CAP_BUDGET) | EMU_CAP_BIT(EMU_CAP_STUB) | EMU_CAP_BIT(EMU_CAP_WATCH) |        \
     EMU_CAP_BIT(EMU_CAP_READ_LOG) | EMU_CAP_BIT(EMU_CAP_COVERAGE) |                               \
     EMU_CAP_BIT(EMU_CAP_EXACT_FAULT))

Test(engine, unicorn_is_the_default_and_says_what_it_is)
{
    const emu_ops *uc = emu_engine_ops(EMU_ENGINE_UNICORN);
    cr_assert(uc);
    cr_assert_eq(emu_engine_default(), uc);
    cr_assert_eq(emu_engine_kind_of(NULL), EMU_ENGINE_UNICORN);
    cr_assert_str_eq(emu_engine_kind_name(EMU_ENGINE_UNICORN), "unicorn");
    cr_assert_eq(emu_engine_caps(uc) & ALL_HOOKS, ALL_HOOKS);
    cr_assert_str_eq(emu_cap_name(EMU_CAP_WATCH), "write_watch");
    emu_engine_info info;
    ff_error err;
    TS_OK(emu_engine_info_get(NULL, &info, 0, &err), &err);
    cr_assert_eq(info.kind, EMU_ENGINE_UNICORN);
    cr_assert_eq(info.caps, emu_engine_caps(uc));
    cr_assert(info.version[0] >= '0' && info.version[0] <= '9', "version '%s'", info.version);
    cr_assert_gt(info.reserve, 0u, "Unicorn reserves a code buffer per engine");
    int store_path = 0;
    for (unsigned i = 0; i < info.nfacts; i++)
        if (!strcmp(info.facts[i].name, "store_path")) {
            store_path = 1;
            cr_assert_str_eq(info.facts[i].text, "unknown", "no probe was asked for");
        }
    cr_assert(store_path, "no store_path among Unicorn's facts");
    TS_OK(emu_engine_room(NULL, 1, &err), &err);
}

/* mov dword ptr [addr], 1; ret */
static void put_store(uint8_t *code, uint32_t addr)
{
    const uint8_t prog[] = {0xC7,
                            0x05,
                            (uint8_t)addr,
                            (uint8_t)(addr >> 8),
                            (uint8_t)(addr >> 16),
                            (uint8_t)(addr >> 24),
                            1,
                            0,
                            0,
                            0,
                            0xC3};
    memcpy(code, prog, sizeof prog);
}

/*
 * The kinds of engine are one table: each found again by its name, an
 * unknown name none; the engine `auto` looks for is built in, of its kind
 * and not emulated; the default engine is emulated (Unicorn).
 */
Test(engine, kinds_by_name_and_emulation)
{
    for (unsigned k = 0; k < EMU_ENGINE__COUNT; k++) {
        const char *name = emu_engine_kind_name((emu_engine_kind)k);
        cr_assert_str_neq(name, "?", "kind %u", k);
        cr_assert_eq(emu_engine_kind_named(name), (emu_engine_kind)k, "%s", name);
        const emu_ops *ops = emu_engine_ops((emu_engine_kind)k);
        if (ops) cr_assert_eq(emu_engine_kind_of(ops), (emu_engine_kind)k, "%s", name);
    }
    cr_assert_eq(emu_engine_kind_named("qemu"), EMU_ENGINE__COUNT);
    cr_assert_eq(emu_engine_kind_named(""), EMU_ENGINE__COUNT);
    cr_assert_eq(emu_engine_emulated(NULL), 1);
    cr_assert_eq(emu_engine_emulated(emu_engine_default()), 1);
    const emu_ops *cpu = emu_engine_on_cpu();
    cr_assert(cpu, "no engine on the CPU built in");
    cr_assert_eq(emu_engine_emulated(cpu), 0);
    cr_assert_eq(cpu, emu_engine_ops(emu_engine_kind_of(cpu)));
}

Test(engine, the_engine_owns_its_areas_and_their_guard)
{
    emu_image *img = te_standin_image("standin.exe");
    emu *e = te_engine(img, 0);
    ff_error err;
    uint8_t *host;
    int rwx = EMU_PROT_READ | EMU_PROT_WRITE | EMU_PROT_EXEC;
    TS_OK(emu_map_area(e, AREA, 0x2000, rwx, 0x1000, &host, &err), &err);
    for (unsigned i = 0; i < 0x3000; i++)
        cr_assert_eq(host[i], 0, "byte %u of a new area is not zero", i);
    cr_assert_eq(emu_host(e, AREA + 0x1000, 4), host + 0x1000);
    cr_assert_eq(emu_host(e, AREA + 0x2000, 4), host + 0x2000, "the guard has a host view");
    uint8_t *other;
    cr_assert_eq(emu_map_area(e, AREA + 0x2000, 0x1000, rwx, 0, &other, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE, "an area over the guard: %s", err.reason);

    /* The guest writes its area, and may only read the guard. */
    uint32_t eax;
    emu_fault f;
    put_store(host, AREA + 0x1000);
    TE_CALL(emu_call(e, AREA, NULL, 0, &eax, &f), &f);
    cr_assert_eq(host[0x1000], 1);
    put_store(host + 0x100, AREA + 0x2000);
    cr_assert_eq(emu_call(e, AREA + 0x100, NULL, 0, &eax, &f), -1);
    cr_assert_eq(f.kind, EMU_FAULT_WRITE_PROT, "%s", emu_fault_name(f.kind));
    cr_assert_eq(f.addr, AREA + 0x2000);

    /* Unmapped, the address is free again and a new area there starts zeroed. */
    TS_OK(emu_unmap_area(e, AREA, &err), &err);
    cr_assert_null(emu_host(e, AREA, 4));
    cr_assert_eq(emu_unmap_area(e, AREA, &err), -1);
    TS_OK(emu_map_area(e, AREA, 0x3000, EMU_PROT_READ, 0, &host, &err), &err);
    cr_assert_eq(host[0x1000], 0);
    emu_close(e);
    emu_image_free(img);
}

/* 1 when image offset off lies in an import's IAT slot (where the engine writes its trap). */
static int in_iat_slot(const pe_image *pe, uint32_t off)
{
    for (unsigned i = 0; i < pe->nimports; i++) {
        uint32_t slot = pe->imports[i].slot - pe->image_base;
        if (off >= slot && off < slot + 4) return 1;
    }
    return 0;
}

/*
 * The image in guest memory is the image as loaded, byte for byte, gaps
 * between sections (all zero: an engine may leave them unbacked) and
 * sections alike, but for the import slots, which hold the engine's traps;
 * the guest reads a zero page of the image as zeros and a section's bytes
 * as they are.
 */
Test(engine, the_image_is_in_guest_memory_as_loaded)
{
    emu_image *img = te_standin_image("standin.exe");
    const pe_image *pe = emu_image_pe(img);
    const uint8_t *want = emu_image_layout(img);
    emu *e = te_engine(img, 0);
    const uint8_t *got = emu_host(e, pe->image_base, pe->size_of_image);
    cr_assert_not_null(got, "the image is not one region");
    unsigned zero_pages = 0, section_pages = 0;
    uint32_t zero_page = 0, section_word = 0;
    for (uint32_t off = 0; off < pe->size_of_image; off++)
        if (!in_iat_slot(pe, off))
            cr_assert_eq(got[off], want[off], "image byte 0x%x: 0x%02x, loaded 0x%02x",
                         pe->image_base + off, got[off], want[off]);
    const emu_profile *prof = emu_image_profile(img);
    for (uint32_t off = 0; off + 0x1000 <= pe->size_of_image; off += 0x1000) {
        if (!(emu_guest_page_prot(pe, prof, off) & EMU_PROT_READ)) continue;
        int zero = 1;
        for (uint32_t k = 0; k < 0x1000 && zero; k++)
            zero = want[off + k] == 0;
        if (zero && !zero_pages++) zero_page = off;
        for (uint32_t k = 0; !zero && k < 0x1000 && !section_word; k += 4)
            if (want[off + k] | want[off + k + 1] | want[off + k + 2] | want[off + k + 3] &&
                !in_iat_slot(pe, off + k))
                section_word = off + k;
        section_pages += !zero;
    }
    cr_assert_gt(zero_pages, 0, "the stand-in has gaps");
    cr_assert_gt(section_pages, 0);
    /* mov eax, [addr]; ret, from an area of its own (each at its own place: Unicorn keeps
     * the code it translated) */
    ff_error err;
    uint8_t *code;
    TS_OK(emu_map_area(e, AREA, 0x1000, EMU_PROT_READ | EMU_PROT_EXEC, 0, &code, &err), &err);
    uint32_t at[2] = {pe->image_base + zero_page + 0x800, pe->image_base + section_word};
    for (int k = 0; k < 2; k++) {
        const uint8_t prog[] = {0xA1,
                                (uint8_t)at[k],
                                (uint8_t)(at[k] >> 8),
                                (uint8_t)(at[k] >> 16),
                                (uint8_t)(at[k] >> 24),
                                0xC3};
        memcpy(code + 0x100 * k, prog, sizeof prog);
        uint32_t eax = 0xDEADBEEF;
        emu_fault f;
        TE_CALL(emu_call(e, AREA + 0x100 * (uint32_t)k, NULL, 0, &eax, &f), &f);
        const uint8_t *w = want + (at[k] - pe->image_base);
        uint32_t expect =
            (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
        cr_assert_eq(eax, expect, "the guest read 0x%x at 0x%x, loaded 0x%x", eax, at[k], expect);
    }
    emu_close(e);
    emu_image_free(img);
}

typedef struct rewinds {
    unsigned n;
} rewinds;

static void count_rewind(void *arg)
{
    ((rewinds *)arg)->n++;
}

/*
 * A read of unmapped memory, called with a rewind on an engine of ops. (That
 * the replay names the faulting instruction is test_emu_game's business.)
 */
static unsigned rewinds_of(const emu_image *img, const emu_ops *ops, emu_fault *f)
{
    emu_config cfg = {emu_image_pe(img), emu_image_layout(img), emu_image_profile(img), 0, ops};
    emu *e;
    ff_error err;
    TS_OK(emu_open(&cfg, &e, &err), &err);
    uint8_t *code;
    TS_OK(emu_map_area(e, AREA, 0x1000, EMU_PROT_READ | EMU_PROT_EXEC, 0, &code, &err), &err);
    /* nop; nop; mov eax, [0x5F000000]; ret */
    const uint8_t prog[] = {0x90, 0x90, 0xA1, 0x00, 0x00, 0x00, 0x5F, 0xC3};
    memcpy(code, prog, sizeof prog);
    rewinds r = {0};
    emu_rewind rw = {count_rewind, &r};
    uint32_t eax;
    cr_assert_eq(emu_call_rewind(e, AREA, NULL, 0, &eax, f, &rw), -1);
    emu_close(e);
    return r.n;
}

Test(engine, the_exact_fault_replay_follows_the_capability)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_fault with, without_replay;
    cr_assert_eq(rewinds_of(img, NULL, &with), 1u, "Unicorn replays a data fault once");
    cr_assert_eq(with.kind, EMU_FAULT_READ_UNMAPPED);
    emu_ops ops = without(EMU_CAP_BIT(EMU_CAP_EXACT_FAULT));
    cr_assert_eq(rewinds_of(img, &ops, &without_replay), 0u, "no replay without the capability");
    cr_assert_eq(without_replay.kind, EMU_FAULT_READ_UNMAPPED);
    cr_assert_eq(without_replay.addr, with.addr);
    emu_image_free(img);
}

static emu_game *open_on(emu_image *img, const emu_ops *ops, const te_file *f)
{
    emu_game_opts o = {0, 0, ops};
    emu_game *g;
    ff_error err;
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    TS_OK(emu_game_load_file(g, f->data, f->size, TE_SKEL_OFF, TE_GEOM_OFF, TE_ANIM_OFF, &err),
          &err);
    return g;
}

/* StartClip, one tick, then the bone rebuild; the skeleton after each into out (3 states). */
static void play(emu_game *g, uint8_t *out, size_t len)
{
    uint32_t ret;
    emu_fault f;
    cr_assert_eq(emu_game_skeleton_size(g), len);
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &f), &f);
    memcpy(out, emu_game_skeleton(g), len);
    TE_CALL(emu_game_read_animation(g, &ret, &f), &f);
    memcpy(out + len, emu_game_skeleton(g), len);
    TE_CALL(emu_game_build_matrices(g, &ret, &f), &f);
    memcpy(out + 2 * len, emu_game_skeleton(g), len);
}

static void expect_unsupported(int rc, const ff_error *err, const char *what)
{
    cr_assert_eq(rc, -1, "%s went ahead without the capability", what);
    cr_assert_eq(err->kind, FF_E_UNSUPPORTED, "%s: %s", what, err->reason);
    cr_assert(strstr(err->reason, "the unicorn engine has no "), "%s: %s", what, err->reason);
}

Test(engine, a_table_without_hooks_is_honoured)
{
    emu_image *img = te_standin_image("standin.exe");
    te_file file;
    static const uint8_t frames[1] = {2};
    te_make_file(&file, 1, frames);
    emu_ops bare = without(ALL_HOOKS);
    emu_game *full = open_on(img, NULL, &file), *g = open_on(img, &bare, &file);
    cr_assert_eq(emu_caps(emu_game_engine(g)) & ALL_HOOKS, 0u);

    /* Without a stub the BuildBoneMatrices return is a patched `ret`: the same states. */
    size_t len = emu_game_skeleton_size(full);
    uint8_t a[3 * 16 + 3 * 48 * 2], b[sizeof a];
    cr_assert_leq(3 * len, sizeof a);
    play(full, a, len);
    play(g, b, len);
    cr_assert_arr_eq(a, b, 3 * len, "a table without a stub plays the clip differently");
    cr_assert_gt(emu_game_last_insns(full), 0u);
    cr_assert_eq(emu_game_last_insns(g), 0u, "an instruction count without BUDGET");

    /* Each hook refused with the reason, before any call. */
    ff_error err;
    emu_fault f;
    emu_writer w;
    expect_unsupported(emu_game_find_writer(g, 0, 0, 1, EMU_GAME_SKELETON, 8, 2, &w, &f, &err),
                       &err, "a write watch");
    cr_assert(strstr(err.reason, "write watch"), "%s", err.reason);
    emu_blockmap *m;
    TS_OK(emu_image_blocks(img, &m, &err), &err);
    uint8_t hits[4096];
    cr_assert_leq(m->nblocks, sizeof hits);
    expect_unsupported(emu_game_cover(g, m, hits, &err), &err, "coverage");
    ref_read reads[64];
    ref_read_log log;
    ref_read_log_init(&log, reads, 64);
    expect_unsupported(emu_game_read_log(g, m, 0, 0, 1, 0, &log, &f, &err), &err, "a read log");
    emu_game_read_log_end(g);
    TS_OK(emu_game_cover(g, NULL, NULL, &err), &err); /* stopping what never started */

    /* The full table still does all of it. */
    TS_OK(emu_game_find_writer(full, 0, 0, 1, EMU_GAME_SKELETON, 8, 2, &w, &f, &err), &err);
    cr_assert_gt(w.writes, 0u, "the tick writes the root");
    emu_blocks_free(m);
    emu_game_close(g);
    emu_game_close(full);
    emu_image_free(img);
}
