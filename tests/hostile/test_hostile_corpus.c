/*
 * tests/hostile/test_hostile_corpus.c: broken input through `ff8diff run`
 * (the built binary, stand-in engine, --no-cache, temporary cache and
 * reports folders). A corpus folder holds good synthetic files and broken
 * ones of every kind a hostile corpus has; an archive corpus holds good and
 * broken entries. Each broken file must come out as bad_input with an error
 * naming what is wrong (the expected kind, offset and words are worked out
 * here from the format, docs/engine.md section 6); every good clip must still be
 * compared and match in every mode; totals and the exit code (2: bad input,
 * no mismatch or fault) must agree.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/le.h"
#include "corpus/archive.h"
#include "corpus/synth.h"
#include "ref/dat.h"
#include "ref/engine.h"
#include "tests/hostile/hs.h"

#define MAX_FILES 64

/* A file the run must refuse as a whole. */
typedef struct bad_file {
    char name[64];
    const char *kind;        /* error.kind */
    int64_t offset;          /* error.offset (-1: null) */
    const char *has[2];      /* words error.reason must hold (NULL: none) */
    const char *file_suffix; /* error.file must end so (NULL: the file's name) */
} bad_file;

/* A file whose clips are compared; bad_clip >= 0 must be refused. */
typedef struct good_file {
    char name[64];
    unsigned clips;
    int bad_clip;
} good_file;

typedef struct plan {
    bad_file bad[MAX_FILES];
    size_t nbad;
    good_file good[MAX_FILES];
    size_t ngood;
} plan;

static bad_file *add_bad(plan *p, const char *name, const char *kind, int64_t offset,
                         const char *has0, const char *has1)
{
    cr_assert(p->nbad < MAX_FILES);
    bad_file *b = &p->bad[p->nbad++];
    snprintf(b->name, sizeof b->name, "%s", name);
    b->kind = kind;
    b->offset = offset;
    b->has[0] = has0;
    b->has[1] = has1;
    b->file_suffix = NULL;
    return b;
}

static void add_good(plan *p, const char *name, unsigned clips, int bad_clip)
{
    cr_assert(p->ngood < MAX_FILES);
    good_file *g = &p->good[p->ngood++];
    snprintf(g->name, sizeof g->name, "%s", name);
    g->clips = clips;
    g->bad_clip = bad_clip;
}

/* ---- the folder corpus ---- */

#define NSEC 11 /* a monster's sections */
#define END_FIELD (4 + 4 * NSEC)

/* Cuts at the start of every section, as is and with the end field fixed. */
static void cut_sections(plan *p, const char *dir, const uint8_t *b, size_t size)
{
    static char words[NSEC][32];
    uint32_t sec[NSEC];
    for (int k = 0; k < NSEC; k++)
        sec[k] = le_u32(b + 4 + 4 * k);
    for (int k = 0; k < NSEC; k++) {
        if (sec[k] >= size || (k > 0 && sec[k] == sec[k - 1])) continue;
        char name[64];
        uint8_t *cut = malloc(sec[k]);
        memcpy(cut, b, sec[k]);
        snprintf(name, sizeof name, "cut_at_0x%04x.dat", sec[k]);
        hs_write(dir, name, cut, sec[k]);
        add_bad(p, name, "truncated", END_FIELD, "end field", "differs from the file size");
        /* With the end field fixed, the first section starting past the
         * new end is the error. */
        int j = k + 1;
        while (j < NSEC && sec[j] <= sec[k])
            j++;
        if (j < NSEC) {
            le_put32(cut + END_FIELD, sec[k]);
            snprintf(name, sizeof name, "cutfix_at_0x%04x.dat", sec[k]);
            hs_write(dir, name, cut, sec[k]);
            snprintf(words[k], sizeof words[k], "section %d offset", j);
            add_bad(p, name, "range", 4 + 4 * j, words[k], "past the end of the file");
        }
        free(cut);
    }
}

/* One patched copy of b: the u32 at `at` becomes v. */
static void patched(const char *dir, const char *name, const uint8_t *b, size_t size, size_t at,
                    uint32_t v)
{
    uint8_t *c = malloc(size);
    memcpy(c, b, size);
    le_put32(c + at, v);
    hs_write(dir, name, c, size);
    free(c);
}

/*
 * A monster whose file ends inside its last clip's stream, in frame 10:
 * sections after the animation emptied, end field = the cut. Frame starts
 * are taken from the reference engine in normal mode (tick k leaves the
 * cursor at frame k + 1).
 */
static void cut_mid_frame(plan *p, const char *dir)
{
    static const uint8_t frames[4] = {5, 4, 6, 20};
    size_t size;
    uint8_t *c = hs_monster(3, 4, frames, 41, &size);
    uint32_t anim = le_u32(c + 12);
    uint32_t last = 0, start = 0;
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t off = anim + le_u32(c + anim + 4 + 4 * i);
        if (off > start) start = off, last = i;
    }
    cr_assert_eq(last, 3, "the 20-frame clip should lie last in the file");
    dat_file d;
    ff_error e;
    cr_assert(dat_parse(c, size, "mid", &d, &e) == 0, "%s", e.reason);
    uint8_t skel[DAT_SKEL_HEADER + 3 * DAT_BONE_SIZE];
    ref_anim a;
    cr_assert(ref_anim_init(&a, &d, skel, sizeof skel, &e) == 0, "%s", e.reason);
    int ret;
    cr_assert(ref_start_clip(&a, 3, &ret, &e) == 0, "%s", e.reason);
    for (int t = 1; t < 10; t++)
        cr_assert(ref_read_animation(&a, &ret, &e) == 0);
    int64_t f10 = a.cmd.off; /* frame 10 starts at (f10, bit) */
    cr_assert(ref_read_animation(&a, &ret, &e) == 0);
    cr_assert(a.cmd.off > f10 + 1 || (a.cmd.off == f10 + 1 && a.cmd.bit > 0),
              "frame 10 should run past its first byte");
    uint32_t cut = start + (uint32_t)f10 + 1;
    for (int k = 3; k <= NSEC; k++)
        le_put32(c + 4 + 4 * k, cut);
    hs_write(dir, "cut_mid_frame.dat", c, cut);
    add_good(p, "cut_mid_frame.dat", 4, 3);
    free(c);
}

static void folder_corpus(plan *p, const char *dir)
{
    ff_error e;
    cr_assert(synth_write(dir, SYNTH_SMALL, 1, NULL, &e) == 0, "synth_write: %s", e.reason);
    synth_plan *sp;
    cr_assert(synth_plan_make(SYNTH_SMALL, 1, &sp, &e) == 0);
    for (size_t i = 0; i < synth_plan_count(sp); i++) {
        uint8_t *data;
        size_t size;
        cr_assert(synth_plan_build(sp, i, &data, &size, NULL, &e) == 0);
        add_good(p, synth_plan_name(sp, i), hs_clips(data, size), -1);
        free(data);
    }
    synth_plan_free(sp);

    static const uint8_t frames[4] = {5, 4, 6, 3};
    size_t size;
    uint8_t *b = hs_monster(3, 4, frames, 17, &size);
    hs_write(dir, "good_base.dat", b, size);
    add_good(p, "good_base.dat", 4, -1);

    hs_write(dir, "cut_at_0x0000.dat", b, 0);
    add_bad(p, "cut_at_0x0000.dat", "truncated", 0, "shorter than its 4-byte section count", 0);
    hs_write(dir, "cut_at_0x0004.dat", b, 4);
    add_bad(p, "cut_at_0x0004.dat", "truncated", 0, "11 sections need a 52-byte header", 0);
    cut_sections(p, dir, b, size);

    uint32_t skel = le_u32(b + 4), anim = le_u32(b + 12);
    patched(dir, "offset_past_end.dat", b, size, 4 + 4 * 2, (uint32_t)size + 0x100);
    add_bad(p, "offset_past_end.dat", "range", 12, "section 2 offset", "past the end of the file");
    patched(dir, "offset_ffffffff.dat", b, size, 4 + 4 * 5, 0xFFFFFFFFu);
    add_bad(p, "offset_ffffffff.dat", "range", 24, "section 5 offset 0xffffffff", "past the end");
    uint32_t anim_size = le_u32(b + 16) - anim;
    patched(dir, "clip_offset_past_end.dat", b, size, anim + 8, anim_size + 5);
    add_bad(p, "clip_offset_past_end.dat", "range", anim + 8, "clip 1 offset", "past the end");
    patched(dir, "section_count_3.dat", b, size, 0, 3);
    add_bad(p, "section_count_3.dat", "unsupported", 0, "section count 3", NULL);
    /* 255 bones need 16 + 48 * 255 = 0x2fe0 bytes; the section holds 3. */
    patched(dir, "bones_255.dat", b, size, skel, (le_u32(b + skel) & ~0xFFu) | 255);
    add_bad(p, "bones_255.dat", "truncated", skel, "255 bones need 0x2fe0 bytes", NULL);
    patched(dir, "clips_2p31.dat", b, size, anim, 0x80000000u);
    add_bad(p, "clips_2p31.dat", "range", anim, "clip count 2147483648", NULL);
    free(b);
    cut_mid_frame(p, dir);
}

/* ---- checks on report.json ---- */

static void check_bad(const cJSON *report, const bad_file *b)
{
    const cJSON *m = hs_manifest(report, b->name);
    cr_assert(m, "%s: not in the manifest", b->name);
    cr_expect_str_eq(hs_str(m, "status"), "bad_input", "%s: manifest status", b->name);
    for (int k = 0; k < 4; k++) {
        const cJSON *r = hs_result(report, b->name, -1, hs_modes[k]);
        cr_assert(r, "%s: no whole-file result in %s mode", b->name, hs_modes[k]);
        cr_expect_str_eq(hs_str(r, "status"), "bad_input", "%s %s", b->name, hs_modes[k]);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "error");
        cr_assert(cJSON_IsObject(e), "%s %s: no error", b->name, hs_modes[k]);
        const char *reason = hs_str(e, "reason"), *file = hs_str(e, "file");
        cr_expect_str_eq(hs_str(e, "kind"), b->kind, "%s: error kind (%s)", b->name, reason);
        const cJSON *off = cJSON_GetObjectItemCaseSensitive(e, "offset");
        if (b->offset < 0)
            cr_expect(cJSON_IsNull(off), "%s: offset should be null", b->name);
        else
            cr_expect(cJSON_IsNumber(off) && (int64_t)off->valuedouble == b->offset,
                      "%s: error offset %g, expected %lld (%s)", b->name,
                      cJSON_IsNumber(off) ? off->valuedouble : -1.0, (long long)b->offset, reason);
        for (int w = 0; w < 2; w++)
            if (b->has[w])
                cr_expect(strstr(reason, b->has[w]), "%s: reason '%s' lacks '%s'", b->name, reason,
                          b->has[w]);
        const char *want = b->file_suffix ? b->file_suffix : b->name;
        size_t fl = strlen(file), wl = strlen(want);
        cr_expect(fl >= wl && strcmp(file + fl - wl, want) == 0, "%s: error names file '%s'",
                  b->name, file);
    }
}

static void check_good(const cJSON *report, const good_file *g)
{
    const cJSON *m = hs_manifest(report, g->name);
    cr_assert(m, "%s: not in the manifest", g->name);
    cr_expect_str_eq(hs_str(m, "status"), "ok", "%s: manifest status", g->name);
    for (int k = 0; k < 4; k++)
        for (unsigned c = 0; c < g->clips; c++) {
            const cJSON *r = hs_result(report, g->name, (int)c, hs_modes[k]);
            cr_assert(r, "%s clip %u %s: no result", g->name, c, hs_modes[k]);
            const char *st = hs_str(r, "status");
            if ((int)c != g->bad_clip) {
                cr_expect_str_eq(st, "match", "%s clip %u %s", g->name, c, hs_modes[k]);
                continue;
            }
            cr_expect_str_eq(st, "bad_input", "%s clip %u %s", g->name, c, hs_modes[k]);
            const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "error");
            cr_assert(cJSON_IsObject(e), "%s clip %u %s: no error", g->name, c, hs_modes[k]);
            const char *reason = hs_str(e, "reason");
            char clip_word[32];
            snprintf(clip_word, sizeof clip_word, "clip %u", c);
            cr_expect_str_eq(hs_str(e, "kind"), "truncated", "%s: %s", g->name, reason);
            cr_expect(strstr(reason, clip_word) && strstr(reason, "passes the end of the file"),
                      "%s clip %u %s: reason '%s'", g->name, c, hs_modes[k], reason);
        }
}

/* Totals from the plan: 4 modes; a bad file has one result per mode. */
static void check_totals(const cJSON *report, const plan *p)
{
    uint64_t clips = 0, bad_clips = 0;
    for (size_t i = 0; i < p->ngood; i++) {
        clips += p->good[i].clips;
        bad_clips += p->good[i].bad_clip >= 0;
    }
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(report, "totals");
    cr_assert(t, "report without totals");
    cr_expect_eq(hs_num(t, "files"), (double)(p->ngood + p->nbad), "totals.files");
    cr_expect_eq(hs_num(t, "bad_files"), (double)p->nbad, "totals.bad_files");
    cr_expect_eq(hs_num(t, "clips"), (double)clips, "totals.clips");
    cr_expect_eq(hs_num(t, "comparisons"), 4.0 * (double)(clips + p->nbad), "totals.comparisons");
    cr_expect_eq(hs_num(t, "match"), 4.0 * (double)(clips - bad_clips), "totals.match");
    cr_expect_eq(hs_num(t, "bad_input"), 4.0 * (double)(p->nbad + bad_clips), "totals.bad_input");
    cr_expect_eq(hs_num(t, "mismatch"), 0, "totals.mismatch");
    cr_expect_eq(hs_num(t, "fault"), 0, "totals.fault");
    cr_expect_eq(hs_num(t, "not_run"), 0, "totals.not_run");
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(report, "results")),
                 (int)(4 * (clips + p->nbad)), "results array size");
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(run, "interrupted")),
              "run marked interrupted");
}

/* Runs ff8diff on corpus (stand-in, no cache) and checks everything. */
static void run_and_check(const char *tmp, const char *corpus, const plan *p)
{
    char *out = ts_path(tmp, "reports"), *cache = ts_path(tmp, "cache");
    char *exe = hs_standin("standin.exe");
    const char *argv[] = {hs_cli(),     "run",       "--corpus", corpus,  "--exe",
                          exe,          "--profile", "standin",  "--out", out,
                          "--no-cache", "--jobs",    "2",        "-q",    NULL};
    int status = hs_run(argv, cache, tmp);
    cr_expect_eq(status, 2, "exit status %d, expected 2 (bad input, no mismatch or fault)", status);
    cJSON *report = hs_report(out);
    for (size_t i = 0; i < p->nbad; i++)
        check_bad(report, &p->bad[i]);
    for (size_t i = 0; i < p->ngood; i++)
        check_good(report, &p->good[i]);
    check_totals(report, p);
    cJSON_Delete(report);
    free(exe);
    free(out);
    free(cache);
}

Test(hostile, folder)
{
    char *tmp = ts_tempdir(), *corpus = ts_path(tmp, "corpus");
    cr_assert(mkdir(corpus, 0755) == 0);
    static plan p;
    folder_corpus(&p, corpus);
    cr_assert(p.nbad >= 20, "only %zu broken files planned", p.nbad);
    run_and_check(tmp, corpus, &p);
    free(corpus);
    ts_rmtree(tmp);
}

/* ---- the archive corpus ---- */

#define NENTRIES 10

static void archive_corpus(plan *p, const char *dir)
{
    static const uint8_t fr[3][3] = {{4, 6, 2}, {3, 3, 5}, {7, 1, 4}};
    uint8_t *g[NENTRIES];
    size_t gs[NENTRIES];
    for (int i = 0; i < 8; i++)
        g[i] = hs_monster(2 + (unsigned)i % 3, 3, fr[i % 3], 60 + i, &gs[i]);
    /* Entry 8: 255 bones in a 2-bone skeleton section. */
    uint32_t skel = le_u32(g[7] + 4);
    g[8] = malloc(gs[7]);
    memcpy(g[8], g[7], gs[7]);
    gs[8] = gs[7];
    g[8][skel] = 255;
    static const char text[] = "not a model file\r\n";
    arc_input in[NENTRIES] = {
        {"c:\\ff8\\data\\battle\\c0m000.dat", g[0], gs[0], ARC_STORED},
        {"c:\\ff8\\data\\battle\\c0m001.dat", g[1], gs[1], ARC_LZSS},
        {"c:\\ff8\\data\\battle\\c0m002.dat", g[2], gs[2], ARC_LZ4},
        {"c:\\ff8\\data\\battle\\c0m003.dat", g[3], gs[3], ARC_LZSS},
        {"c:\\ff8\\data\\battle\\c0m004.dat", g[4], gs[4], ARC_LZSS},
        {"c:\\ff8\\data\\battle\\c0m005.dat", g[5], gs[5], ARC_STORED},
        {"c:\\ff8\\data\\battle\\c0m006.dat", g[6], gs[6], ARC_LZ4},
        {"c:\\ff8\\data\\battle\\c0m007.dat", g[7], gs[7], ARC_STORED},
        {"c:\\ff8\\data\\battle\\c0m008.dat", g[8], gs[8], ARC_STORED},
        {"c:\\ff8\\data\\battle\\readme.txt", (const uint8_t *)text, sizeof text - 1, ARC_STORED},
    };
    arc_image img;
    ff_error e;
    cr_assert(arc_build(in, NENTRIES, &img, &e) == 0, "arc_build: %s", e.reason);
    uint8_t *fi = img.fi;
    for (int i = 0; i < 3; i++)
        add_good(p, strrchr(in[i].path, '\\') + 1, 3, -1);
    /* 3: the first flag byte of the LZSS data cleared: a reference comes
     * before any output byte (FS offset + 4 size word + 1 flag byte). */
    uint32_t off3 = le_u32(fi + 3 * 12 + 4);
    img.fs[off3 + 4] = 0;
    add_bad(p, "c0m003.dat", "format", off3 + 5, "before any output byte", "c0m003.dat")
        ->file_suffix = "battle.fs";
    /* 4: LZSS entry announcing one byte more than it holds: refused where
     * its data ends (FS offset + 4 + the size word's value). */
    uint32_t off4 = le_u32(fi + 4 * 12 + 4);
    le_put32(fi + 4 * 12, (uint32_t)gs[4] + 1);
    add_bad(p, "c0m004.dat", "format", off4 + 4 + le_u32(img.fs + off4), "LZSS data ends after",
            "announced")
        ->file_suffix = "battle.fs";
    /* 5: stored entry announcing more bytes than FS holds after it. */
    le_put32(fi + 5 * 12, (uint32_t)img.fs_size);
    add_bad(p, "c0m005.dat", "range", 5 * 12, "run past the end", NULL)->file_suffix = "battle.fi";
    /* 6: LZ4 entry announcing 100 bytes more than it decodes to. */
    le_put32(fi + 6 * 12, (uint32_t)gs[6] + 100);
    add_bad(p, "c0m006.dat", "format", le_u32(fi + 6 * 12 + 4) + 4, "LZ4 data decodes to",
            "the index says")
        ->file_suffix = "battle.fs";
    /* 7: unknown compression 7. */
    le_put32(fi + 7 * 12 + 8, 7);
    add_bad(p, "c0m007.dat", "unsupported", 7 * 12 + 8, "unknown compression 7", NULL)
        ->file_suffix = "battle.fi";
    add_bad(p, "c0m008.dat", "truncated", skel, "255 bones need 0x2fe0 bytes", NULL);
    char *fip = ts_path(dir, "battle.fi"), *flp = ts_path(dir, "battle.fl"),
         *fsp = ts_path(dir, "battle.fs");
    cr_assert(arc_write_image(&img, fip, flp, fsp, &e) == 0, "%s", e.reason);
    arc_image_free(&img);
    for (int i = 0; i < 9; i++)
        free(g[i]);
    free(fip);
    free(flp);
    free(fsp);
}

Test(hostile, archive)
{
    char *tmp = ts_tempdir(), *corpus = ts_path(tmp, "install");
    cr_assert(mkdir(corpus, 0755) == 0);
    static plan p;
    archive_corpus(&p, corpus);
    char *fs = ts_path(corpus, "battle.fs");
    run_and_check(tmp, fs, &p);
    free(fs);
    free(corpus);
    ts_rmtree(tmp);
}
