/*
 * tests/mutants/test_run_inputs.c: what a whole run makes of what goes
 * wrong: faults of the original as results (the faulty stand-in), bad
 * files and clip indexes past a byte as bad input while the good ones are
 * still compared, and the stream window of a mismatch centred on the read
 * that produced the diverging value.
 *
 * The corpora are the mutants' (mt_corpus.c), whose expected results are
 * worked out there.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "harness/core/fields.h"
#include "tests/mutants/mt.h"
#include "tests/mutants/mt_corpus.h"

/* ---- the faulty stand-in ---- */

static const mt_clip clips_four[] = {
    {2, {{.root = {1, 2, 3}}, {.root = {-1, 0, 5}, .rot = {{3, -3, 0}}}}},
    {1, {{.root = {0}}}},
    {2, {{.rot = {{7, 0, 0}}}, {.root = {0}}}},
    {3, {{.root = {4, 0, 0}}, {.rot = {{0, 100, 0}}}, {.root = {0, 0, -2}}}},
};
static const mt_model model_four0 = {"four0.dat", 1,          0, {0}, {1024, 1024, 1024},
                                     4,           clips_four, DAT_MONSTER, 0};
static const mt_model model_four1 = {"four1.dat",        2, 0,         {5, 6, 7},
                                     {1024, 1024, 1024}, 4, clips_four, DAT_MONSTER, 0};

#define READ_ANIMATION 0x508F90u
#define BIT_READER 0x5092A0u
#define START_CLIP 0x509440u

Test(run_inputs, faulty_standin_faults_are_results)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &model_four0);
    mt_write_model(dir, &model_four1);
    emu_image *img = mt_image("standin_faulty.exe");
    run_progress prog;
    memset(&prog, 0, sizeof prog);
    run_config cfg;
    mt_config(&cfg, dir, img, 2);
    cfg.game.budget = 100000; /* the endless loop stops sooner */
    cfg.progress = &prog;
    run_results r;
    mt_execute(&cfg, &r);
    cr_assert_eq(r.nresults, 2u * 4 * 4);
    const char *files[2] = {"four0.dat", "four1.dat"};
    for (int f = 0; f < 2; f++)
        for (int m = 0; m < MODE__COUNT; m++)
            for (int32_t c = 0; c < 4; c++) {
                const clip_result *x = mt_find(&r, files[f], c, (mode_id)m);
                cr_assert(x, "%s clip %d %s: missing", files[f], c, mt_mode((mode_id)m));
                if (c == 0 || c == 3) {
                    cr_assert_eq(x->status, RES_MATCH, "%s clip %d %s: %s", files[f], c,
                                 mt_mode((mode_id)m), res_status_name(x->status));
                    continue;
                }
                cr_assert_eq(x->status, RES_FAULT, "%s clip %d %s: %s", files[f], c,
                             mt_mode((mode_id)m), res_status_name(x->status));
                const emu_fault *ft = x->fault;
                cr_assert(ft, "%s clip %d %s: no fault record", files[f], c, mt_mode((mode_id)m));
                /* Clip 1 loops forever, clip 2 reads 0xDEAD0000: both inside
                 * Battle_ReadAnimation, called by StartClip at tick 0. */
                emu_fault_kind want = c == 1 ? EMU_FAULT_BUDGET : EMU_FAULT_READ_UNMAPPED;
                cr_assert_eq(ft->kind, want, "%s clip %d %s: fault %s", files[f], c,
                             mt_mode((mode_id)m), emu_fault_name(ft->kind));
                if (c == 2) cr_assert_eq(ft->addr, 0xDEAD0000u, "address 0x%x", ft->addr);
                cr_assert(ft->eip >= READ_ANIMATION && ft->eip < BIT_READER,
                          "%s clip %d %s: EIP 0x%x outside Battle_ReadAnimation", files[f], c,
                          mt_mode((mode_id)m), ft->eip);
                cr_assert_eq(ft->routine, START_CLIP, "routine 0x%x", ft->routine);
                cr_assert(ft->disasm[0] != '\0', "%s clip %d %s: no disassembly", files[f], c,
                          mt_mode((mode_id)m));
                cr_assert_eq(x->orig_ticks, 0u, "%s clip %d %s: %u ticks before the fault",
                             files[f], c, mt_mode((mode_id)m), x->orig_ticks);
            }
    cr_assert_eq(r.totals.by_status[RES_FAULT], 16u);
    cr_assert_eq(r.totals.by_status[RES_MATCH], 16u);
    cr_assert_eq(atomic_load(&prog.faults), 16u);
    cr_assert_eq(r.ngroups, 0);
    mt_check_ticks(&r);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/* ---- bad files ---- */

Test(run_inputs, bad_files_are_results)
{
    char *dir = ts_tempdir();
    size_t size;
    uint8_t *good = mt_encode(&mt_model_g, &size);
    char *p = ts_path(dir, "mut_g.dat");
    ts_write(p, (const char *)good, size);
    free(p);
    /* A truncated copy: the end field (offset 4 + 4 * 11 = 48) still says the full size. */
    cr_assert(size / 2 > 52);
    p = ts_path(dir, "trunc.dat");
    ts_write(p, (const char *)good, size / 2);
    free(p);
    /* A copy whose section count is 12, which no kind has. */
    good[0] = 12;
    p = ts_path(dir, "badcount.dat");
    ts_write(p, (const char *)good, size);
    free(p);
    free(good);
    run_results r;
    mt_run(dir, "standin.exe", 2, &r);
    cr_assert_eq(r.nfiles, 3u);
    cr_assert_eq(r.totals.bad_files, 2u);
    static const struct {
        const char *name;
        ff_errkind kind;
        int64_t offset;
    } bad[] = {{"trunc.dat", FF_E_TRUNCATED, 48}, {"badcount.dat", FF_E_UNSUPPORTED, 0}};
    for (int b = 0; b < 2; b++)
        for (int m = 0; m < MODE__COUNT; m++) {
            const clip_result *x = mt_find(&r, bad[b].name, -1, (mode_id)m);
            cr_assert(x, "%s %s: no whole-file result", bad[b].name, mt_mode((mode_id)m));
            cr_assert_eq(x->status, RES_BAD_INPUT);
            cr_assert(x->error, "%s: no error", bad[b].name);
            cr_assert_eq(x->error->kind, bad[b].kind, "%s: error %s", bad[b].name,
                         ff_errkind_name(x->error->kind));
            cr_assert_eq(x->error->offset, bad[b].offset, "%s: offset %lld", bad[b].name,
                         (long long)x->error->offset);
            cr_assert_str_eq(x->error->file, bad[b].name);
            cr_assert(x->error->reason[0] != '\0');
        }
    for (int m = 0; m < MODE__COUNT; m++)
        for (int32_t c = 0; c < 3; c++) {
            const clip_result *x = mt_find(&r, "mut_g.dat", c, (mode_id)m);
            cr_assert(x && x->status == RES_MATCH, "mut_g.dat clip %d %s: %s", c,
                      mt_mode((mode_id)m), x ? res_status_name(x->status) : "missing");
        }
    cr_assert_eq(r.nresults, 8u + 12u);
    cr_assert_eq(r.totals.by_status[RES_BAD_INPUT], 8u);
    cr_assert_eq(r.totals.by_status[RES_MATCH], 12u);
    mt_check_ticks(&r);
    run_results_free(&r);
    ts_rmtree(dir);
}

Test(run_inputs, clip_indexes_past_a_byte_are_bad_input)
{
    /*
     * 65537 one-frame clips: the engine's AnimCmd holds the clip index in a
     * byte, so only clips 0..255 can be played. Clip 65536 must not pass for
     * clip 0 (a 16-bit index would wrap to it and match): it is bad input,
     * like every clip from 256 on; clips 0..255 are compared.
     */
    enum { NCLIPS = 65537 };
    synth_bone bone = {-1, 10, {0, 0, 0}, {1024, 1024, 1024}};
    static int16_t root[3] = {1, 2, 3}, rot[3] = {4, 5, 6};
    static uint8_t mode[1] = {0};
    synth_clip *clips = calloc(NCLIPS, sizeof *clips);
    cr_assert(clips);
    for (int c = 0; c < NCLIPS; c++) clips[c] = (synth_clip){1, root, mode, rot, NULL};
    synth_model m = {0};
    m.kind = DAT_MONSTER;
    m.bones = 1;
    m.bone = &bone;
    m.nclips = NCLIPS;
    m.clip = clips;
    m.geometry_size = 64;
    uint8_t *data;
    size_t size;
    ff_error err;
    cr_assert_eq(synth_model_encode(&m, &data, &size, &err), 0, "%s", err.reason);
    free(clips);
    char *dir = ts_tempdir(), *p = ts_path(dir, "c0m777.dat");
    ts_write(p, (const char *)data, size);
    free(p);
    free(data);
    run_results r;
    emu_image *img = mt_image("standin.exe");
    run_config cfg;
    mt_config(&cfg, dir, img, 2);
    cfg.modes = 1u << MODE_NORMAL;
    mt_execute(&cfg, &r);
    const clip_result *x = mt_find(&r, "c0m777.dat", 255, MODE_NORMAL);
    cr_assert(x && x->status == RES_MATCH, "clip 255: %s", x ? res_status_name(x->status) : "-");
    static const int32_t beyond[] = {256, 65535, 65536};
    for (size_t i = 0; i < sizeof beyond / sizeof beyond[0]; i++) {
        x = mt_find(&r, "c0m777.dat", beyond[i], MODE_NORMAL);
        cr_assert(x, "clip %d missing", beyond[i]);
        cr_assert_eq(x->status, RES_BAD_INPUT, "clip %d: %s", beyond[i], res_status_name(x->status));
        cr_assert(x->error && strstr(x->error->reason, "0..255"), "clip %d: %s", beyond[i],
                  x->error ? x->error->reason : "no error");
    }
    cr_assert_eq(r.totals.by_status[RES_MATCH], 256u);
    cr_assert_eq(r.totals.by_status[RES_BAD_INPUT], NCLIPS - 256u);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/*
 * The stream window sits on the read that produced the diverging value
 * (issue: a scale channel shows its payload bits). Mutant d over its corpus
 * (mt_corpus.c): one bone, every position 0 (5 bits each), rotations absent
 * (1 bit each), so before the bone's scale x come 15 + 1 + 3 = 19 bits.
 *   clip 1, normal, tick 0: the cursor starts at byte 1 bit 0 (bit 8 of
 *     the clip); scale x is read from bit 27 = byte 3 bit 3, present: 1 flag
 *     bit and 16 payload bits = 17 bits.
 *   clip 0, normal, tick 1: the cursor is at byte 3 bit 3 (bit 27); scale x
 *     from bit 46 = byte 5 bit 6, absent: 1 bit.
 * Both reads begin 2 bytes after their tick's cursor byte.
 */
static const clip_result *result_of(const run_results *r, int32_t clip, mode_id m)
{
    for (size_t i = 0; i < r->nresults; i++)
        if (r->results[i].clip == clip && r->results[i].mode == m) return &r->results[i];
    cr_assert_fail("no result for clip %d", clip);
    return NULL;
}

Test(run_inputs, stream_window_on_the_value_read)
{
    char *dir = ts_tempdir();
    const mt_mutant *m = mt_mutant_named("d");
    mt_write_mutant(dir, m);
    run_results r;
    mt_run(dir, m->exe, 1, &r);
    static const struct {
        int32_t clip;
        uint8_t bit;
        uint16_t bits;
    } want[] = {{1, 3, 17}, {0, 6, 1}};
    for (size_t k = 0; k < 2; k++) {
        const clip_result *c = result_of(&r, want[k].clip, MODE_NORMAL);
        cr_assert_eq(c->status, RES_MISMATCH);
        cr_assert_eq(c->div.field, FIELD_SCALE_X);
        cr_assert(c->have_value, "clip %d: the value's read is known", want[k].clip);
        cr_assert_eq(c->value_routine, REF_R_SCALE);
        cr_assert_eq(c->value_file_off - c->cursor_file_off, 2u, "clip %d", want[k].clip);
        cr_assert_eq(c->value_bit, want[k].bit, "clip %d: bit %u", want[k].clip, c->value_bit);
        cr_assert_eq(c->value_bits, want[k].bits, "clip %d: %u bits", want[k].clip,
                     c->value_bits);
        /* The window holds the read's bytes, with room on both sides. */
        cr_assert(c->value_file_off >= c->stream_off + 4 &&
                      c->value_file_off + 3 <= c->stream_off + c->stream_len,
                  "clip %d: window 0x%llx+%u, read at 0x%llx", want[k].clip,
                  (unsigned long long)c->stream_off, c->stream_len,
                  (unsigned long long)c->value_file_off);
    }
    run_results_free(&r);
    ts_rmtree(dir);
}
