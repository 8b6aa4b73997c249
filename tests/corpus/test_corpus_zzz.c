/*
 * tests/corpus/test_corpus_zzz.c: the Remaster's containers: zzz tables
 * written by zzz_write and read back (names ignoring case and slash
 * direction, ranges handed out), one table defect per hand-patched table
 * (each a problem naming the zzz, the entry and the offset, the rest still
 * read), archives read through byte ranges at a base offset, and the 4ZL_
 * framing of FI compression-2 entries with its size checks.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/le.h"
#include "corpus/archive.h"
#include "corpus/lz4f.h"
#include "corpus/zzz.h"
#include "tests/corpus/ct.h"

static const char text[] = "battle entry: text, text, text, text, text, text, text, text, text.";
#define TEXT_SIZE (sizeof text - 1)

/* A zzz's bytes from zzz_write (caller frees). */
static uint8_t *zzz_image(const zzz_input *in, size_t n, size_t *size)
{
    char *dir = ts_tempdir(), *path = ts_path(dir, "t.zzz");
    ff_error err;
    TS_OK(zzz_write(path, in, n, &err), &err);
    uint8_t *data = (uint8_t *)ts_read(path, size);
    free(path);
    free(dir);
    return data;
}

static const zzz_input three[3] = {{"data\\lang-en\\battle.fi", (const uint8_t *)"fi", 2},
                                   {"data\\lang-en\\battle.fl", (const uint8_t *)"fl!", 3},
                                   {"data\\movies\\a.bik", NULL, 100}};

Test(zzz, table_round_trip_names_ignore_case_and_slashes)
{
    size_t size;
    uint8_t *z = zzz_image(three, 3, &size);
    size_t table = 4 + (4 + 22 + 12) * 2 + (4 + 17 + 12);
    cr_assert_eq(size, table + 2 + 3 + 100, "the table, then each entry in order (a hole too)");
    zzz *t;
    ff_error err;
    TS_OK(zzz_open_mem(z, size, "t.zzz", &t, &err), &err);
    cr_assert_eq(zzz_count(t), 3);
    cr_assert_eq(zzz_problem_count(t), 0);
    cr_assert_eq(zzz_get(t, 0)->offset, table);
    cr_assert_eq(zzz_get(t, 1)->offset, table + 2);
    cr_assert_eq(zzz_get(t, 2)->size, 100);
    cr_assert_eq(zzz_get(t, 1)->at, 4 + 38, "where the record starts");
    size_t i = 9;
    cr_assert_eq(zzz_find(t, "DATA/Lang-EN/Battle.FL", &i), 0);
    cr_assert_eq(i, 1);
    cr_assert_eq(zzz_find(t, "data\\lang-en\\battle.fs", &i), -1);
    arc_range r;
    char name[FF_ERR_FILE_MAX];
    cr_assert_eq(zzz_range(t, 0, &r, name, sizeof name, &err), -1, "a table in memory has no file");
    zzz_close(t);
    free(z);
}

/* One defect per vector: the problem's kind, offset and entry; the entries still read. */
typedef struct defect {
    const char *what;
    size_t at;      /* where the patch goes */
    uint64_t value; /* u32, or u64 when wide */
    int wide;
    ff_errkind kind;
    int64_t offset; /* of the problem */
    const char *says;
    size_t entries, good;
} defect;

#define REC1 (4 + 38) /* second record */
static const defect defects[] = {
    {"count larger than the table", 0, 1000, 0, FF_E_FORMAT, 0, "count 1000", 3, 3},
    {"count larger than the records", 0, 4, 0, FF_E_FORMAT, 0, "data begins at 113, after 3", 3, 3},
    {"name length 0", REC1, 0, 0, FF_E_FORMAT, REC1, "entry 1: name length 0", 1, 1},
    {"name length past the file", REC1, 5000, 0, FF_E_FORMAT, REC1, "entry 1: name length", 1, 1},
    {"name length past the end", REC1, 900, 0, FF_E_RANGE, REC1, "run past the end", 1, 1},
    {"offset past the end", REC1 + 26, 1u << 20, 1, FF_E_RANGE, REC1 + 26, "entry 1 (", 3, 2},
    {"offset + size overflows 64 bits", REC1 + 26, 0xFFFFFFFFFFFFFFF0ull, 1, FF_E_RANGE, REC1 + 26,
     "offset 18446744073709551600", 3, 2},
    {"size past the end", REC1 + 34, 0xFFFFFFFFu, 0, FF_E_RANGE, REC1 + 26, "size 4294967295", 3,
     2},
};

Test(zzz, each_table_defect_is_a_problem_naming_entry_and_offset)
{
    size_t size;
    uint8_t *z = zzz_image(three, 3, &size);
    for (size_t v = 0; v < sizeof defects / sizeof defects[0]; v++) {
        const defect *d = &defects[v];
        uint8_t *c = malloc(size);
        memcpy(c, z, size);
        le_put32(c + d->at, (uint32_t)d->value);
        if (d->wide) le_put32(c + d->at + 4, (uint32_t)(d->value >> 32));
        zzz *t;
        ff_error err;
        TS_OK(zzz_open_mem(c, size, "t.zzz", &t, &err), &err);
        cr_assert_eq(zzz_problem_count(t), 1, "%s: %zu problems", d->what, zzz_problem_count(t));
        const ff_error *p = zzz_problem(t, 0);
        ts_assert_error(p, d->kind, "t.zzz", d->offset, d->what);
        cr_assert(strstr(p->reason, d->says), "%s: '%s' lacks '%s'", d->what, p->reason, d->says);
        cr_assert_eq(zzz_count(t), d->entries, "%s: %zu entries kept", d->what, zzz_count(t));
        size_t good = 0;
        for (size_t i = 0; i < zzz_count(t); i++)
            good += !zzz_get(t, i)->bad;
        cr_assert_eq(good, d->good, "%s: %zu good entries", d->what, good);
        zzz_close(t);
        free(c);
    }
    free(z);
}

Test(zzz, duplicate_names_keep_the_first)
{
    zzz_input in[3] = {three[0], {"DATA/LANG-EN/BATTLE.FI", (const uint8_t *)"other", 5}, three[1]};
    size_t size;
    uint8_t *z = zzz_image(in, 3, &size);
    zzz *t;
    ff_error err;
    TS_OK(zzz_open_mem(z, size, "t.zzz", &t, &err), &err);
    cr_assert_eq(zzz_problem_count(t), 1);
    ts_assert_error(zzz_problem(t, 0), FF_E_FORMAT, "t.zzz", REC1, "duplicate");
    cr_assert(strstr(zzz_problem(t, 0)->reason, "entry 1 (DATA/LANG-EN/BATTLE.FI): duplicate"));
    size_t i;
    cr_assert_eq(zzz_find(t, "data\\lang-en\\battle.fi", &i), 0);
    cr_assert_eq(i, 0, "the first one is read");
    zzz_close(t);
    free(z);
}

Test(zzz, tiny_and_empty_files)
{
    static const uint8_t zero[4] = {0, 0, 0, 0};
    zzz *t;
    ff_error err;
    TS_OK(zzz_open_mem(zero, 4, "t.zzz", &t, &err), &err);
    cr_assert_eq(zzz_count(t), 0);
    cr_assert_eq(zzz_problem_count(t), 0);
    zzz_close(t);
    TS_OK(zzz_open_mem(zero, 3, "t.zzz", &t, &err), &err);
    cr_assert_eq(zzz_problem_count(t), 1);
    ts_assert_error(zzz_problem(t, 0), FF_E_TRUNCATED, "t.zzz", 0, "3-byte zzz");
    zzz_close(t);
}

/* An archive whose FS is a window at a base offset of a file with other bytes around it. */
Test(zzz, archive_reads_through_ranges_at_a_base_offset)
{
    arc_input in[2] = {{"c:\\x\\a.dat", (const uint8_t *)text, TEXT_SIZE, ARC_LZ4 | ARC_WRITE_4ZL},
                       {"c:\\x\\b.dat", (const uint8_t *)text, TEXT_SIZE, ARC_LZSS}};
    arc_image img;
    ff_error err;
    TS_OK(arc_build(in, 2, &img, &err), &err);
    char *dir = ts_tempdir(), *path = ts_path(dir, "big");
    size_t base = 777, total = base + img.fs_size + 50;
    uint8_t *buf = malloc(total);
    memset(buf, 0xEE, total);
    memcpy(buf + base, img.fs, img.fs_size);
    ts_write(path, buf, total);
    int fd = open(path, O_RDONLY);
    cr_assert(fd >= 0);
    uint8_t *fi = malloc(img.fi_size + 9);
    memcpy(fi + 9, img.fi, img.fi_size);
    char *fipath = ts_path(dir, "fi");
    ts_write(fipath, fi, img.fi_size + 9);
    int fd_fi = open(fipath, O_RDONLY), fd_fl;
    char *flpath = ts_path(dir, "fl");
    ts_write(flpath, img.fl, img.fl_size);
    fd_fl = open(flpath, O_RDONLY);
    arc_range rfi = {fd_fi, 9, img.fi_size, 1, "fi"}, rfl = {fd_fl, 0, img.fl_size, 1, "fl"};
    arc_range rfs = {fd, base, img.fs_size, 0, "big:battle.fs"};
    arc *a;
    TS_OK(arc_open_ranges(&rfi, &rfl, &rfs, &a, &err), &err);
    static const arc_framing want[2] = {ARC_FRAMING_ZL4, ARC_FRAMING_SIZE};
    for (size_t i = 0; i < 2; i++) {
        uint8_t *data;
        size_t got;
        arc_framing fr;
        TS_OK(arc_read_framed(a, i, &data, &got, &fr, &err), &err);
        cr_assert_eq(got, TEXT_SIZE);
        ts_assert_mem(data, text, got, "entry through the window");
        cr_assert_eq(fr, want[i], "entry %zu framing %s", i, arc_framing_name(fr));
        TS_OK(arc_framing_of(a, i, &fr, &err), &err);
        cr_assert_eq(fr, want[i]);
        free(data);
    }
    arc_close(a);
    cr_assert_eq(close(fd), 0, "a borrowed descriptor stays open");
    arc_image_free(&img);
    free(buf);
    free(fi);
    free(path);
    free(fipath);
    free(dir);
    free(flpath);
}

/* 4ZL_ vectors: each edit of a good entry and the error it gives (kind, offset in the entry). */
typedef struct zl4_case {
    const char *what;
    size_t at;
    uint32_t value;
    uint32_t fi_size; /* 0: the true size */
    size_t cut;       /* bytes taken off the end */
    ff_errkind kind;
    int64_t offset;
} zl4_case;

static const zl4_case zl4_cases[] = {
    {"header size above the index's", 8, TEXT_SIZE + 1, 0, 0, FF_E_FORMAT, 8},
    {"header size below the index's", 8, TEXT_SIZE - 1, 0, 0, FF_E_FORMAT, 8},
    {"size above the 64 MiB limit", 8, ARC_ENTRY_MAX + 1, ARC_ENTRY_MAX + 1, 0, FF_E_RANGE, 0},
    {"length below the header", 0, 4, 0, 0, FF_E_TRUNCATED, 0},
    {"length past the end", 0, 4000, 0, 0, FF_E_RANGE, 0},
    {"truncated block", 0, 0, 0, 5, FF_E_FORMAT, -2},
};

Test(zzz, zl4_framing_round_trip_and_lying_sizes)
{
    arc_input in = {"a.dat", (const uint8_t *)text, TEXT_SIZE, ARC_LZ4 | ARC_WRITE_4ZL};
    arc_image img;
    ff_error err;
    TS_OK(arc_build(&in, 1, &img, &err), &err);
    cr_assert(!memcmp(img.fs + 4, "4ZL_", 4));
    cr_assert_eq(le_u32(img.fs), img.fs_size - 4, "the length counts the tag and the size");
    cr_assert_eq(le_u32(img.fs + 8), TEXT_SIZE);
    cr_assert_eq(le_u32(img.fi + 8), ARC_LZ4, "the FI record says 2");
    uint8_t *out;
    arc_framing fr;
    TS_OK(lz4f_decode_entry(img.fs, img.fs_size, TEXT_SIZE, "fs", &out, &fr, &err), &err);
    ts_assert_mem(out, text, TEXT_SIZE, "4ZL_ entry");
    cr_assert_eq(fr, ARC_FRAMING_ZL4);
    free(out);
    for (size_t v = 0; v < sizeof zl4_cases / sizeof zl4_cases[0]; v++) {
        const zl4_case *c = &zl4_cases[v];
        uint8_t *e = malloc(img.fs_size);
        memcpy(e, img.fs, img.fs_size);
        if (c->at || c->value) le_put32(e + c->at, c->value);
        if (c->cut) le_put32(e, le_u32(e) - (uint32_t)c->cut);
        uint32_t fi_size = c->fi_size ? c->fi_size : TEXT_SIZE;
        out = NULL;
        cr_assert_eq(lz4f_decode_entry(e, img.fs_size - c->cut, fi_size, "fs", &out, &fr, &err), -1,
                     "%s: accepted", c->what);
        ts_assert_error(&err, c->kind, "fs", c->offset, c->what);
        /* The same through the archive reader, from an FS of its own. */
        arc_entry *ent;
        size_t n, got;
        TS_OK(arc_index_parse(img.fi, img.fi_size, "fi", img.fl, img.fl_size, "fl", &ent, &n, &err),
              &err);
        ent[0].size = fi_size;
        cr_assert_eq(
            arc_extract_mem(ent, n, 0, e, img.fs_size - c->cut, "fi", "fs", &out, &got, &err), -1,
            "%s: arc_extract_mem accepted", c->what);
        cr_assert_eq(err.kind, c->fi_size ? FF_E_RANGE : c->kind, "%s: %s", c->what, err.reason);
        arc_entries_free(ent, n);
        free(e);
    }
    arc_image_free(&img);
}

Test(zzz, plain_lz4_framing_still_reads)
{
    arc_input in = {"a.dat", (const uint8_t *)text, TEXT_SIZE, ARC_LZ4};
    arc_image img;
    ff_error err;
    TS_OK(arc_build(&in, 1, &img, &err), &err);
    uint8_t *out;
    arc_framing fr;
    TS_OK(lz4f_decode_entry(img.fs, img.fs_size, TEXT_SIZE, "fs", &out, &fr, &err), &err);
    ts_assert_mem(out, text, TEXT_SIZE, "plain entry");
    cr_assert_eq(fr, ARC_FRAMING_SIZE);
    free(out);
    arc_image_free(&img);
}
