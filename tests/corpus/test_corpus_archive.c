/*
 * tests/corpus/test_corpus_archive.c: FI/FL/FS archives. Archives made by
 * the writer give back stored, LZSS and LZ4 entries byte for byte, with the
 * index laid out as the format says; hand-made archives with one defect
 * each give the expected error kind, file and offset.
 */
#include <criterion/criterion.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "corpus/archive.h"
#include "corpus/fileio.h"
#include "tests/corpus/ct.h"

/* Three entries: a stored one, an LZSS one and an LZ4 one. */
static uint8_t content[3][5000];
static const size_t content_size[3] = {1000, 5000, 3000};
static const char *const paths[3] = {"c:\\ff8\\data\\eng\\battle\\c0m000.dat",
                                     "c:\\ff8\\data\\eng\\battle\\C0M001.DAT",
                                     "c:\\ff8\\data\\eng\\battle\\a0stg000.x"};

static void make_content(void)
{
    for (int e = 0; e < 3; e++)
        for (size_t i = 0; i < content_size[e]; i++)
            content[e][i] = (uint8_t)(e == 0 ? i * 13 : (i / 7) % 23 + e);
}

static void build(arc_image *img)
{
    make_content();
    arc_input in[3];
    for (int e = 0; e < 3; e++)
        in[e] = (arc_input){paths[e], content[e], content_size[e], (uint32_t)e};
    ff_error err;
    TS_OK(arc_build(in, 3, img, &err), &err);
}

TestSuite(archive, .fini = ts_cleanup);

Test(archive, writer_layout_by_hand)
{
    arc_image img;
    build(&img);
    cr_assert_eq(img.fi_size, 36);
    /* Record 0: stored at 0. Record 1: LZSS right after it. */
    cr_assert_eq(le_u32(img.fi + 0), 1000);
    cr_assert_eq(le_u32(img.fi + 4), 0);
    cr_assert_eq(le_u32(img.fi + 8), 0);
    cr_assert_eq(le_u32(img.fi + 12), 5000);
    cr_assert_eq(le_u32(img.fi + 16), 1000);
    cr_assert_eq(le_u32(img.fi + 20), 1);
    uint32_t c1 = le_u32(img.fs + 1000);
    cr_assert_eq(le_u32(img.fi + 28), 1000 + 4 + c1, "LZ4 entry follows the LZSS one");
    cr_assert_eq(le_u32(img.fi + 32), 2);
    uint32_t c2 = le_u32(img.fs + 1004 + c1);
    cr_assert_eq(img.fs_size, 1000 + 4 + c1 + 4 + c2);
    ts_assert_mem(img.fs, content[0], 1000, "stored bytes sit verbatim in FS");
    const char *fl = "c:\\ff8\\data\\eng\\battle\\c0m000.dat\r\n"
                     "c:\\ff8\\data\\eng\\battle\\C0M001.DAT\r\n"
                     "c:\\ff8\\data\\eng\\battle\\a0stg000.x\r\n";
    cr_assert_eq(img.fl_size, strlen(fl));
    ts_assert_mem(img.fl, fl, img.fl_size, "FL text");
    /* The LZ4 entry is a plain LZ4 block: liblz4 itself decodes it. */
    uint8_t out[3000];
    cr_assert_eq(LZ4_decompress_safe((const char *)img.fs + 1008 + c1, (char *)out, (int)c2, 3000),
                 3000);
    ts_assert_mem(out, content[2], 3000, "LZ4 block");
    arc_image_free(&img);
}

Test(archive, written_files_read_back)
{
    arc_image img;
    build(&img);
    char *dir = ts_tempdir();
    char *fi = ts_path(dir, "battle.fi"), *fl = ts_path(dir, "battle.fl"),
         *fs = ts_path(dir, "battle.fs");
    ff_error err;
    TS_OK(arc_write_image(&img, fi, fl, fs, &err), &err);
    arc *a;
    TS_OK(arc_open(fi, fl, fs, &a, &err), &err);
    cr_assert_eq(arc_count(a), 3);
    cr_assert_eq(arc_fs_size(a), img.fs_size);
    for (size_t e = 0; e < 3; e++) {
        uint8_t *data;
        size_t size;
        TS_OK(arc_read(a, e, &data, &size, &err), &err);
        cr_assert_eq(size, content_size[e], "entry %zu size", e);
        ts_assert_mem(data, content[e], size, paths[e]);
        free(data);
        cr_assert_str_eq(arc_get(a, e)->path, paths[e]);
    }
    cr_assert_str_eq(arc_get(a, 1)->base, "C0M001.DAT");
    size_t idx = 99;
    cr_assert_eq(arc_find(a, "c0m001.dat", &idx), 0);
    cr_assert_eq(idx, 1);
    cr_assert_eq(arc_find(a, "C:\\FF8\\DATA\\ENG\\BATTLE\\A0STG000.X", &idx), 0);
    cr_assert_eq(idx, 2);
    cr_assert_eq(arc_find(a, "c0m002.dat", &idx), -1);
    uint8_t *data = NULL;
    size_t size;
    cr_assert_eq(arc_read(a, 3, &data, &size, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    arc_close(a);
    arc_image_free(&img);
    free(fi), free(fl), free(fs);
    ts_rmtree(dir);
}

/* ---- hand-made archives ---- */

typedef struct hand {
    uint8_t fi[12 * 4];
    size_t fi_size;
    char fl[256];
    uint8_t fs[256];
    size_t fs_size;
} hand;

static void record(hand *h, uint32_t size, uint32_t off, uint32_t comp, const char *path)
{
    uint8_t *r = h->fi + h->fi_size;
    le_put32(r, size);
    le_put32(r + 4, off);
    le_put32(r + 8, comp);
    h->fi_size += 12;
    strcat(h->fl, path);
    strcat(h->fl, "\r\n");
}

/*
 * Entry 0 stored "HELLO" at 0; entry 1 LZSS at 8 (u32 5, then flag 0x03,
 * 'a', 'b' and a 4-byte reference to 0xFEE: "ababab"); entry 2 stored
 * "xyz" at 20.
 */
static void hand_ok(hand *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->fs, "HELLO\0\0\0", 8);
    const uint8_t lz[9] = {5, 0, 0, 0, 0x03, 'a', 'b', 0xEE, 0xF1};
    memcpy(h->fs + 8, lz, sizeof lz);
    memcpy(h->fs + 20, "xyz", 3);
    h->fs_size = 23;
    record(h, 5, 0, ARC_STORED, "c:\\b\\one.dat");
    record(h, 6, 8, ARC_LZSS, "c:\\b\\two.dat");
    record(h, 3, 20, ARC_STORED, "c:\\b\\three.dat");
}

static int hand_read(const hand *h, size_t i, uint8_t **data, size_t *size, ff_error *err)
{
    arc_entry *e = NULL;
    size_t n = 0;
    if (arc_index_parse(h->fi, h->fi_size, "t.fi", (const uint8_t *)h->fl, strlen(h->fl), "t.fl",
                        &e, &n, err) < 0)
        return -1;
    int rc = arc_extract_mem(e, n, i, h->fs, h->fs_size, "t.fi", "t.fs", data, size, err);
    arc_entries_free(e, n);
    return rc;
}

Test(archive, hand_made_archive_reads)
{
    hand h;
    hand_ok(&h);
    static const char *const want[3] = {"HELLO", "ababab", "xyz"};
    for (size_t i = 0; i < 3; i++) {
        uint8_t *data;
        size_t size;
        ff_error err;
        TS_OK(hand_read(&h, i, &data, &size, &err), &err);
        cr_assert_eq(size, strlen(want[i]));
        ts_assert_mem(data, want[i], size, want[i]);
        free(data);
    }
}

Test(archive, lf_only_file_list_and_no_final_newline)
{
    hand h;
    hand_ok(&h);
    strcpy(h.fl, "c:\\b\\one.dat\nc:\\b\\two.dat\nc:\\b\\three.dat");
    arc_entry *e;
    size_t n;
    ff_error err;
    TS_OK(arc_index_parse(h.fi, h.fi_size, "t.fi", (const uint8_t *)h.fl, strlen(h.fl), "t.fl", &e,
                          &n, &err),
          &err);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(e[2].path, "c:\\b\\three.dat");
    cr_assert_str_eq(e[2].base, "three.dat");
    arc_entries_free(e, n);
}

typedef struct defect {
    const char *name;
    void (*apply)(hand *h);
    size_t entry;
    ff_errkind kind;
    const char *file;
    int64_t offset;
} defect;

static void fi_partial(hand *h)
{
    h->fi_size -= 5;
}
static void fi_short(hand *h)
{
    h->fi_size -= 12;
}
static void fl_short(hand *h)
{
    strcpy(h->fl, "c:\\b\\one.dat\r\nc:\\b\\two.dat\r\n");
}
static void fl_blank(hand *h)
{
    strcpy(h->fl, "c:\\b\\one.dat\r\n\r\nc:\\b\\two.dat\r\nx\r\n");
}
static void offset_past(hand *h)
{
    le_put32(h->fi + 24 + 4, 24);
}
static void stored_past(hand *h)
{
    le_put32(h->fi + 24, 4);
}
static void csize_past(hand *h)
{
    le_put32(h->fs + 8, 12);
}
static void no_csize_room(hand *h)
{
    le_put32(h->fi + 12 + 4, 21);
}
static void lzss_ref_first(hand *h)
{
    h->fs[12] = 0x00;
}
static void size_lies_up(hand *h)
{
    le_put32(h->fi + 12, 7);
}
static void size_lies_down(hand *h)
{
    le_put32(h->fi + 12, 5);
}
static void unknown_comp(hand *h)
{
    le_put32(h->fi + 24 + 8, 7);
}
static void ratio_lie(hand *h)
{
    le_put32(h->fi + 12, 100000);
}
/* An LZ4 bomb's record: 2 GiB - 2 bytes announced (the ratio check alone would pass it). */
static void size_over_limit(hand *h)
{
    le_put32(h->fi + 12, 0x7FFFFFFEu);
}
static void size_just_over_limit(hand *h)
{
    le_put32(h->fi + 12, ARC_ENTRY_MAX + 1);
}
/* An ESC in line 2 ("c:\b\t" + ESC): names never carry control bytes to a terminal. */
static void fl_control(hand *h)
{
    strcpy(h->fl, "c:\\b\\one.dat\r\nc:\\b\\t\x1bwo.dat\r\nc:\\b\\three.dat\r\n");
}
static void fl_delete(hand *h)
{
    strcpy(h->fl, "c:\\b\\one.dat\r\nc:\\b\\two.dat\r\nc:\\b\\three\x7f.dat\r\n");
}

static const defect defects[] = {
    {"FI size not a multiple of 12", fi_partial, 0, FF_E_FORMAT, "t.fi", 24},
    {"FI shorter than FL says", fi_short, 0, FF_E_FORMAT, "t.fi", 24},
    {"FL shorter than FI says", fl_short, 0, FF_E_FORMAT, "t.fl", 28},
    {"blank FL line", fl_blank, 0, FF_E_FORMAT, "t.fl", 14},
    {"data offset past FS", offset_past, 2, FF_E_RANGE, "t.fi", 28},
    {"stored entry past FS", stored_past, 2, FF_E_RANGE, "t.fi", 24},
    {"compressed size past FS", csize_past, 1, FF_E_RANGE, "t.fs", 8},
    {"no room for the compressed size", no_csize_room, 1, FF_E_TRUNCATED, "t.fs", 21},
    {"LZSS reference before any output", lzss_ref_first, 1, FF_E_FORMAT, "t.fs", 13},
    {"size lies (larger)", size_lies_up, 1, FF_E_FORMAT, "t.fs", 17},
    {"size lies (smaller)", size_lies_down, 1, FF_E_FORMAT, "t.fs", 15},
    {"unknown compression", unknown_comp, 2, FF_E_UNSUPPORTED, "t.fi", 32},
    {"size beyond any expansion", ratio_lie, 1, FF_E_FORMAT, "t.fs", 8},
    {"size of an LZ4 bomb", size_over_limit, 1, FF_E_RANGE, "t.fi", 12},
    {"size one byte over the entry limit", size_just_over_limit, 1, FF_E_RANGE, "t.fi", 12},
    {"control byte in an FL line", fl_control, 0, FF_E_FORMAT, "t.fl", 20},
    {"DEL byte in an FL line", fl_delete, 0, FF_E_FORMAT, "t.fl", 38},
};

Test(archive, each_defect_names_file_and_offset)
{
    for (size_t k = 0; k < sizeof defects / sizeof defects[0]; k++) {
        const defect *d = &defects[k];
        hand h;
        hand_ok(&h);
        d->apply(&h);
        uint8_t *data = NULL;
        size_t size;
        ff_error err;
        ff_error_clear(&err);
        cr_assert_eq(hand_read(&h, d->entry, &data, &size, &err), -1, "%s: accepted", d->name);
        cr_assert_null(data, "%s: data returned with an error", d->name);
        ts_assert_error(&err, d->kind, d->file, d->offset, d->name);
    }
}

/* LZ4 entries: corrupt data and sizes that lie, through the file reader. */
Test(archive, lz4_defects_through_files)
{
    uint8_t plain[600];
    for (size_t i = 0; i < sizeof plain; i++)
        plain[i] = (uint8_t)(i % 10);
    char block[700];
    int c = LZ4_compress_default((const char *)plain, block, (int)sizeof plain, (int)sizeof block);
    cr_assert(c > 0);
    static const struct {
        const char *name;
        uint32_t fi_size;
        int corrupt;
    } cases[] = {{"good", 600, 0},
                 {"size lies (larger)", 601, 0},
                 {"size lies (smaller)", 599, 0},
                 {"corrupt data", 600, 1}};
    char *dir = ts_tempdir();
    char *fi = ts_path(dir, "b.fi"), *fl = ts_path(dir, "b.fl"), *fs = ts_path(dir, "b.fs");
    for (size_t k = 0; k < 4; k++) {
        uint8_t fsb[800], fib[12];
        memcpy(fsb, "pad!", 4);
        le_put32(fsb + 4, (uint32_t)c);
        memcpy(fsb + 8, block, (size_t)c);
        if (cases[k].corrupt) memset(fsb + 8, 0xFF, (size_t)c); /* 0xFF tokens: runaway lengths */
        le_put32(fib, cases[k].fi_size);
        le_put32(fib + 4, 4);
        le_put32(fib + 8, ARC_LZ4);
        ts_write_in(dir, "b.fi", fib, 12);
        ts_write_in(dir, "b.fl", "C:\\x\\e.dat\r\n", 12);
        ts_write_in(dir, "b.fs", fsb, 8 + (size_t)c);
        arc *a;
        ff_error err;
        TS_OK(arc_open(fi, fl, fs, &a, &err), &err);
        uint8_t *data = NULL;
        size_t size;
        int rc = arc_read(a, 0, &data, &size, &err);
        if (k == 0) {
            cr_assert_eq(rc, 0, "%s", cases[k].name);
            ts_assert_mem(data, plain, sizeof plain, cases[k].name);
            free(data);
        } else {
            cr_assert_eq(rc, -1, "%s: accepted", cases[k].name);
            ts_assert_error(&err, FF_E_FORMAT, "b.fs", -2, cases[k].name);
            cr_assert(err.offset >= 8 && err.offset <= 8 + c, "%s: offset %lld outside the data",
                      cases[k].name, (long long)err.offset);
        }
        arc_close(a);
    }
    free(fi), free(fl), free(fs);
    ts_rmtree(dir);
}

Test(archive, open_errors_name_the_file)
{
    char *dir = ts_tempdir();
    char *fi = ts_path(dir, "b.fi"), *fl = ts_path(dir, "b.fl"), *fs = ts_path(dir, "b.fs");
    arc *a = NULL;
    ff_error err;
    cr_assert_eq(arc_open(fi, fl, fs, &a, &err), -1);
    ts_assert_error(&err, FF_E_IO, "b.fi", -1, "missing FI");
    hand h;
    hand_ok(&h);
    ts_write_in(dir, "b.fi", h.fi, h.fi_size - 1);
    ts_write_in(dir, "b.fl", h.fl, strlen(h.fl));
    ts_write_in(dir, "b.fs", h.fs, h.fs_size);
    cr_assert_eq(arc_open(fi, fl, fs, &a, &err), -1);
    ts_assert_error(&err, FF_E_FORMAT, "b.fi", 24, "FI with a partial record");
    cr_assert_null(a);
    free(fi), free(fl), free(fs);
    ts_rmtree(dir);
}

Test(archive, empty_entries_in_every_compression)
{
    arc_input in[3] = {{"e0.dat", NULL, 0, ARC_STORED},
                       {"e1.dat", NULL, 0, ARC_LZSS},
                       {"e2.dat", NULL, 0, ARC_LZ4}};
    arc_image img;
    ff_error err;
    TS_OK(arc_build(in, 3, &img, &err), &err);
    /* Stored: nothing; LZSS: a zero size word, no data; LZ4: size word + block. */
    cr_assert_eq(le_u32(img.fi + 16), 0, "LZSS entry offset");
    cr_assert_eq(le_u32(img.fs), 0, "LZSS compressed size");
    cr_assert_eq(le_u32(img.fi + 28), 4, "LZ4 entry offset");
    arc_entry *e;
    size_t n;
    TS_OK(arc_index_parse(img.fi, img.fi_size, "e.fi", img.fl, img.fl_size, "e.fl", &e, &n, &err),
          &err);
    for (size_t i = 0; i < 3; i++) {
        uint8_t *data = NULL;
        size_t size = 99;
        TS_OK(arc_extract_mem(e, n, i, img.fs, img.fs_size, "e.fi", "e.fs", &data, &size, &err),
              &err);
        cr_assert_eq(size, 0, "entry %zu", i);
        cr_assert_not_null(data, "entry %zu: an empty entry is still a buffer", i);
        free(data);
    }
    arc_entries_free(e, n);
    arc_image_free(&img);
    cr_assert_str_eq(arc_comp_name(ARC_LZ4), "lz4");
    cr_assert_str_eq(arc_comp_name(9), "?");
}

Test(archive, writer_refuses_bad_inputs)
{
    arc_image img;
    ff_error err;
    arc_input nl = {"a\r\nb.dat", (const uint8_t *)"x", 1, ARC_STORED};
    cr_assert_eq(arc_build(&nl, 1, &img, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    arc_input comp = {"a.dat", (const uint8_t *)"x", 1, 3};
    cr_assert_eq(arc_build(&comp, 1, &img, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    cr_assert_null(img.fi);
}
