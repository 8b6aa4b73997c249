/*
 * tests/fuzz/fz_seeds.c: `fz_seeds OUTDIR STANDIN_EXE` writes the seed
 * corpora of the fuzz targets, all synthetic:
 *   OUTDIR/dat/      files of the small synthetic preset, and tiny models of
 *                    every kind (few bones, short clips, extreme and
 *                    wrapping values) that keep fuzzing fast;
 *   OUTDIR/archive/  archives from arc_build (stored, LZSS, LZ4 entries) in
 *                    the split layout of fz_archive_one, and a bare LZSS
 *                    stream for the direct decoder;
 *   OUTDIR/pe/       the built stand-in engine and two small hand-made PE32
 *                    images (imports by name and by ordinal);
 *   OUTDIR/trace/    Trace JSON Lines of tiny models decoded by the
 *                    reference engine;
 *   OUTDIR/zzz/      zzz files holding a battle archive (one language, two),
 *                    and one table defect each: a count larger than the
 *                    table, a name length of 0 or past the end, an offset
 *                    that overflows 64 bits, a duplicate name;
 *   OUTDIR/lz4f/     FI compression-2 entries (u32 FI size first): 4ZL_ and
 *                    plain, sizes that lie, above the 64 MiB limit, a
 *                    truncated block, a length below the 4ZL_ header.
 * Seeds named "ok-*" are valid inputs: the replay suite checks that their
 * target accepts them without any refusal. A test tool: it prints and exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/le.h"
#include "corpus/archive.h"
#include "corpus/zzz.h"
#include "common/file.h"
#include "common/file.h"
#include "corpus/fileio.h"
#include "corpus/lzss.h"
#include "corpus/synth.h"
#include "harness/core/modes.h"
#include "harness/run/refside.h"
#include "harness/core/strbuf.h"
#include "harness/traces/trace_json.h"
#include "tests/fuzz/fz.h"

/* Process-wide: the folder every seed goes under (argv[1]). */
static const char *outdir;

static void die(const char *what, const ff_error *e)
{
    char buf[1024];
    fprintf(stderr, "fz_seeds: %s: %s\n", what, e ? ff_error_format(e, buf, sizeof buf) : "");
    exit(1);
}

static void put(const char *sub, const char *name, const uint8_t *data, size_t size)
{
    char path[4096];
    ff_error e;
    snprintf(path, sizeof path, "%s/%s", outdir, sub);
    if (fio_mkdirs(path, &e) < 0) die(path, &e);
    snprintf(path, sizeof path, "%s/%s/%s", outdir, sub, name);
    if (fio_write_atomic(path, data, size, &e) < 0) die(path, &e);
}

/* ---- .dat ---- */

typedef struct tiny {
    const char *name;
    dat_kind kind;
    unsigned bones;
    unsigned nclips;
    synth_clip_spec clip[3];
} tiny;

static const tiny tinies[] = {
    {"ok-tiny-monster.dat",
     DAT_MONSTER,
     2,
     3,
     {{3, 0, SYNTH_CLIP_RANDOM}, {0, 0, SYNTH_CLIP_EXTREMES}, {0, 0, SYNTH_CLIP_WRAP}}},
    {"ok-tiny-body.dat", DAT_BODY, 1, 2, {{4, 1, SYNTH_CLIP_RANDOM}, {1, 0, SYNTH_CLIP_RANDOM}}},
    {"ok-tiny-edea.dat", DAT_EDEA, 3, 1, {{2, 1, SYNTH_CLIP_RANDOM}}},
    {"ok-tiny-weapon.dat",
     DAT_WEAPON,
     1,
     2,
     {{2, 0, SYNTH_CLIP_RANDOM}, {5, 1, SYNTH_CLIP_RANDOM}}},
    {"ok-tiny-reduced.dat", DAT_WEAPON_REDUCED, 0, 0, {{0, 0, 0}}},
    {"ok-tiny-nomodel.dat", DAT_NO_MODEL, 0, 0, {{0, 0, 0}}},
};

static uint8_t *tiny_file(const tiny *t, uint64_t seed, size_t *size)
{
    synth_file_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = t->kind;
    spec.seed = seed;
    spec.geometry_seed = seed + 1;
    spec.bones = t->bones;
    spec.nclips = t->nclips;
    spec.clip = t->nclips ? t->clip : NULL;
    spec.geometry_size = 16;
    uint8_t *data;
    ff_error e;
    if (synth_build_file(&spec, &data, size, &e) < 0) die(t->name, &e);
    return data;
}

static void dat_seeds(void)
{
    for (size_t i = 0; i < sizeof tinies / sizeof tinies[0]; i++) {
        size_t size;
        uint8_t *data = tiny_file(&tinies[i], 100 + i, &size);
        put("dat", tinies[i].name, data, size);
        free(data);
    }
    synth_plan *plan;
    ff_error e;
    if (synth_plan_make(SYNTH_SMALL, 1, &plan, &e) < 0) die("small preset", &e);
    for (size_t i = 0; i < synth_plan_count(plan); i++) {
        uint8_t *data;
        size_t size;
        char name[64];
        if (synth_plan_build(plan, i, &data, &size, NULL, &e) < 0) die("small preset", &e);
        snprintf(name, sizeof name, "ok-small-%s", synth_plan_name(plan, i));
        put("dat", name, data, size);
        free(data);
    }
    synth_plan_free(plan);
}

/* ---- archives ---- */

/* An archive in the split layout: header, FI, FL, FS. */
static void put_archive(const char *name, const arc_input *in, size_t n, uint16_t lzss_out)
{
    arc_image img;
    ff_error e;
    if (arc_build(in, n, &img, &e) < 0) die(name, &e);
    if (img.fi_size > 0xFFFF || img.fl_size > 0xFFFF) die("archive index too large", NULL);
    size_t size = FZ_ARC_HEADER + img.fi_size + img.fl_size + img.fs_size;
    uint8_t *buf = malloc(size);
    if (!buf) die("out of memory", NULL);
    le_put16(buf, (uint32_t)img.fi_size);
    le_put16(buf + 2, (uint32_t)img.fl_size);
    le_put16(buf + 4, lzss_out);
    memcpy(buf + FZ_ARC_HEADER, img.fi, img.fi_size);
    memcpy(buf + FZ_ARC_HEADER + img.fi_size, img.fl, img.fl_size);
    memcpy(buf + FZ_ARC_HEADER + img.fi_size + img.fl_size, img.fs, img.fs_size);
    put("archive", name, buf, size);
    free(buf);
    arc_image_free(&img);
}

static void archive_seeds(void)
{
    size_t msize, bsize;
    uint8_t *monster = tiny_file(&tinies[0], 7, &msize);
    uint8_t *body = tiny_file(&tinies[1], 8, &bsize);
    static const char text[] = "battle archive entry: text, text, text, text, text, text.";
    size_t tsize = sizeof text - 1;
    const uint8_t *t = (const uint8_t *)text;
    arc_input one[3][1] = {
        {{"c:\\ff8\\data\\battle\\c0m000.dat", monster, msize, ARC_STORED}},
        {{"c:\\ff8\\data\\battle\\c0m001.dat", monster, msize, ARC_LZSS}},
        {{"c:\\ff8\\data\\battle\\c0m002.dat", monster, msize, ARC_LZ4}},
    };
    put_archive("arc-stored", one[0], 1, 0);
    put_archive("arc-lzss", one[1], 1, 0);
    put_archive("arc-lz4", one[2], 1, 0);
    arc_input mixed[4] = {
        {"c:\\ff8\\data\\battle\\d0c000.dat", body, bsize, ARC_LZSS},
        {"c:\\ff8\\data\\battle\\readme.txt", t, tsize, ARC_STORED},
        {"battle/c0m003.dat", monster, msize, ARC_LZ4},
        {"c0m004.dat", t, tsize, ARC_LZSS},
    };
    put_archive("arc-mixed", mixed, 4, 0);
    put_archive("arc-empty", NULL, 0, 0);

    /* A bare LZSS stream with its exact output size: index empty. */
    size_t cap = lzss_bound(msize), packed_size;
    uint8_t *packed = malloc(FZ_ARC_HEADER + cap);
    ff_error e;
    if (!packed) die("out of memory", NULL);
    if (msize > 0xFFFF) die("tiny monster too large", NULL);
    if (lzss_encode(monster, msize, packed + FZ_ARC_HEADER, cap, &packed_size, &e) < 0)
        die("lzss_encode", &e);
    le_put16(packed, 0);
    le_put16(packed + 2, 0);
    le_put16(packed + 4, (uint32_t)msize);
    put("archive", "ok-lzss-bare", packed, FZ_ARC_HEADER + packed_size);
    free(packed);
    free(monster);
    free(body);
}

/* ---- zzz tables and 4ZL_ entries ---- */

/* The bytes of a zzz written by zzz_write (caller frees). */
static uint8_t *zzz_bytes(const zzz_input *in, size_t n, size_t *size)
{
    char path[4096];
    ff_error e;
    uint8_t *data;
    snprintf(path, sizeof path, "%s/zzz-build.tmp", outdir);
    if (zzz_write(path, in, n, &e) < 0) die("zzz_write", &e);
    if (file_read_all(path, &data, size, &e) < 0) die(path, &e);
    unlink(path);
    return data;
}

/* Writes the zzz seed `name` with the u32 (or u64 when wide) at off replaced by v. */
static void put_patched(const char *name, const uint8_t *z, size_t size, size_t off, uint64_t v,
                        int wide)
{
    uint8_t *c = malloc(size);
    if (!c) die("out of memory", NULL);
    memcpy(c, z, size);
    le_put32(c + off, (uint32_t)v);
    if (wide) le_put32(c + off + 4, (uint32_t)(v >> 32));
    put("zzz", name, c, size);
    free(c);
}

static void zzz_seeds(void)
{
    size_t msize, size;
    uint8_t *monster = tiny_file(&tinies[0], 9, &msize);
    arc_input e[2] = {{"c:\\ff8\\data\\x\\battle\\c0m000.dat", monster, msize,
                       ARC_LZ4 | ARC_WRITE_4ZL},
                      {"c:\\ff8\\data\\x\\battle\\d0c000_en.dat", monster, msize, ARC_LZSS}};
    arc_image img;
    ff_error err;
    if (arc_build(e, 2, &img, &err) < 0) die("arc_build", &err);
    zzz_input in[5] = {{"data\\lang-en\\battle.fi", img.fi, (uint32_t)img.fi_size},
                       {"data\\lang-en\\battle.fl", img.fl, (uint32_t)img.fl_size},
                       {"data\\lang-en\\battle.fs", img.fs, (uint32_t)img.fs_size},
                       {"data\\lang-fr\\battle.fs", img.fs, (uint32_t)img.fs_size},
                       {"DATA/Lang-EN/Battle.FS", img.fs, (uint32_t)img.fs_size}};
    uint8_t *z = zzz_bytes(in, 3, &size);
    put("zzz", "ok-zzz-battle", z, size);
    size_t rec0 = 4, off0 = rec0 + 4 + strlen(in[0].name);
    put_patched("zzz-count-too-large", z, size, 0, 0xFFFFFFFFu, 0);
    put_patched("zzz-name-length-zero", z, size, rec0, 0, 0);
    put_patched("zzz-name-past-end", z, size, rec0, size, 0);
    put_patched("zzz-offset-overflow", z, size, off0, 0xFFFFFFFFFFFFFFF0ull, 1);
    free(z);
    z = zzz_bytes(in, 4, &size);
    put("zzz", "ok-zzz-two-languages", z, size);
    free(z);
    zzz_input dup[4] = {in[0], in[1], in[2], in[4]};
    z = zzz_bytes(dup, 4, &size);
    put("zzz", "zzz-duplicate-name", z, size);
    free(z);

    /* 4ZL_: u32 FI size, then the FS entry. */
    size_t k = 4 + img.fs_size;
    uint8_t *l = malloc(k + 16);
    if (!l) die("out of memory", NULL);
    le_put32(l, (uint32_t)msize);
    memcpy(l + 4, img.fs, img.fs_size);
    put("lz4f", "ok-4zl", l, k);
    le_put32(l + 12, (uint32_t)msize + 1);
    put("lz4f", "4zl-sizes-lie", l, k);
    le_put32(l, ARC_ENTRY_MAX + 1);
    le_put32(l + 12, ARC_ENTRY_MAX + 1);
    put("lz4f", "4zl-above-limit", l, k);
    le_put32(l, (uint32_t)msize);
    le_put32(l + 12, (uint32_t)msize);
    le_put32(l + 4, le_u32(img.fs) - 5);
    put("lz4f", "4zl-truncated-block", l, k - 5);
    le_put32(l + 4, 4);
    put("lz4f", "4zl-length-below-header", l, k);
    arc_image_free(&img);
    e[0].comp = ARC_LZ4;
    if (arc_build(e, 1, &img, &err) < 0) die("arc_build", &err);
    memcpy(l + 4, img.fs, img.fs_size);
    put("lz4f", "ok-plain-lz4", l, 4 + img.fs_size);
    arc_image_free(&img);
    free(l);
    free(monster);
}

/* ---- PE ---- */

/* A 0x600-byte PE32: .text (xor eax,eax; ret) and .idata importing
 * KERNEL32.dll!GetTickCount by name and ordinal 5 (when imports is set). */
static void mini_pe(uint8_t pe[0x600], int imports)
{
    memset(pe, 0, 0x600);
    pe[0] = 'M';
    pe[1] = 'Z';
    le_put32(pe + 0x3C, 0x40);
    memcpy(pe + 0x40, "PE\0\0", 4);
    uint8_t *coff = pe + 0x44;
    le_put16(coff, 0x14C);
    le_put16(coff + 2, 2);
    le_put16(coff + 16, 0xE0);
    le_put16(coff + 18, 0x0102);
    uint8_t *opt = pe + 0x58;
    le_put16(opt, 0x10B);
    le_put32(opt + 16, 0x1000);   /* entry */
    le_put32(opt + 28, 0x400000); /* image base */
    le_put32(opt + 32, 0x1000);   /* section alignment */
    le_put32(opt + 36, 0x200);    /* file alignment */
    le_put32(opt + 56, 0x3000);   /* SizeOfImage */
    le_put32(opt + 60, 0x200);    /* SizeOfHeaders */
    le_put16(opt + 68, 3);        /* console */
    le_put32(opt + 92, 16);       /* data directories */
    if (imports) {
        le_put32(opt + 96 + 8, 0x2000);
        le_put32(opt + 96 + 12, 40);
    }
    uint8_t *sec = opt + 0xE0;
    memcpy(sec, ".text", 5);
    le_put32(sec + 8, 0x10);
    le_put32(sec + 12, 0x1000);
    le_put32(sec + 16, 0x200);
    le_put32(sec + 20, 0x200);
    le_put32(sec + 36, 0x60000020);
    memcpy(sec + 40, ".idata", 6);
    le_put32(sec + 48, 0x100);
    le_put32(sec + 52, 0x2000);
    le_put32(sec + 56, 0x200);
    le_put32(sec + 60, 0x400);
    le_put32(sec + 76, 0xC0000040);
    static const uint8_t code[] = {0x31, 0xC0, 0xC3};
    memcpy(pe + 0x200, code, sizeof code);
    uint8_t *id = pe + 0x400; /* RVA 0x2000 */
    le_put32(id, 0x2040);        /* import lookup table */
    le_put32(id + 12, 0x2080);   /* DLL name */
    le_put32(id + 16, 0x2060);   /* IAT */
    for (int k = 0; k < 2; k++) {
        uint8_t *tab = id + (k ? 0x60 : 0x40);
        le_put32(tab, 0x2090);
        le_put32(tab + 4, 0x80000005u);
    }
    memcpy(id + 0x80, "KERNEL32.dll", 12);
    memcpy(id + 0x92, "GetTickCount", 12);
}

static void pe_seeds(const char *standin)
{
    uint8_t pe[0x600];
    mini_pe(pe, 1);
    put("pe", "ok-mini-imports.exe", pe, sizeof pe);
    mini_pe(pe, 0);
    put("pe", "ok-mini.exe", pe, sizeof pe);
    uint8_t *data;
    size_t size;
    ff_error e;
    if (file_read_all(standin, &data, &size, &e) < 0) die(standin, &e);
    put("pe", "ok-standin.exe", data, size);
    free(data);
}

/* ---- traces ---- */

static void trace_seed(const tiny *t, const char *name, unsigned modes)
{
    size_t size;
    uint8_t *data = tiny_file(t, 21, &size);
    dat_file d;
    ff_error e;
    if (dat_parse(data, size, t->name, &d, &e) < 0) die(t->name, &e);
    size_t n = ref_skel_size(&d);
    uint8_t *skel = malloc(n);
    ref_anim a;
    if (!skel || ref_anim_init(&a, &d, skel, n, &e) < 0) die("ref_anim_init", &e);
    strbuf b;
    sb_init(&b);
    trace tr;
    trace_init(&tr);
    tj_clip id;
    memset(&id, 0, sizeof id);
    snprintf(id.file, sizeof id.file, "%s", t->name + 3);
    snprintf(id.model, sizeof id.model, "%s", dat_kind_name(d.kind));
    for (int m = 0; m < MODE__COUNT; m++) {
        if (!(modes & (1u << m))) continue;
        for (uint32_t c = 0; c < d.clips; c++) {
            field_set frame = field_set_of_levels(1u << FIELD_LEVEL_FRAME);
            if (refside_clip(&a, mode_flags((mode_id)m), c, &frame, NULL, &tr, &e) < 0)
                die("refside", &e);
            id.anim = c;
            id.mode = (mode_id)m;
            tj_write_trace(&b, &id, &tr);
        }
    }
    if (strbuf_failed(&b)) die("out of memory", NULL);
    put("trace", name, (const uint8_t *)b.s, b.len);
    sb_free(&b);
    trace_free(&tr);
    free(skel);
    free(data);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fz_seeds OUTDIR STANDIN_EXE\n");
        return 2;
    }
    outdir = argv[1];
    dat_seeds();
    archive_seeds();
    zzz_seeds();
    pe_seeds(argv[2]);
    trace_seed(&tinies[0], "ok-monster-normal-slow.jsonl", 1u << MODE_NORMAL | 1u << MODE_SLOW);
    trace_seed(&tinies[1], "ok-body-all.jsonl", MODE_ALL);
    trace_seed(&tinies[3], "ok-weapon-fast.jsonl", 1u << MODE_FAST);
    return 0;
}
