/*
 * tests/cli/test_cli_decode.c: `ff8diff decode` prints Trace JSON Lines v1
 * key for key, one object per call up to and including the first call that
 * returns 1; --mode all and --anim select; --summary; errors exit 2.
 *
 * The model: 2 bones, one clip of 2 frames, written with the encoder.
 *   frame 0: root (5, 0, 0), mode 0, bone 0 rot (10, 0, 0)
 *   frame 1: root (-3, 0, 0), mode 1, bone 1 rot z -2048,
 *            scales: bone 0 x 2048, every other 1024 (absent)
 * Bit lengths (narrowest widths: position 3/6/9/16, rotation 3/6/8/12):
 *   frame 0: root 5 -> type 2 + 6 bits = 8, 0 -> 2 + 3 = 5 twice: 18;
 *            mode bit: 19; bone 0: 10 -> 1 + 2 + 6 = 9, two absent: 11;
 *            bone 1: 3 absent bits; total 33 bits
 *   frame 1: root -3 -> 5, 0 -> 5, 0 -> 5: 15; mode: 16; bone 0: rot 3
 *            absent bits, scales 1 + 16, 1, 1: 22; bone 1: rot 1, 1,
 *            -2048 -> 1 + 2 + 12 = 15, scales 3 absent bits: 20; total 58
 * The stream starts at clip byte 1 bit 0: after frame 0 the cursor is at
 * byte 1 + 33/8 = 5 bit 1; after frame 1 at 91 bits: byte 12 bit 3.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "tests/support/ts.h"

static char *scratch, *file;

static void make_file(void)
{
    scratch = ts_tempdir();
    synth_bone bones[2] = {{-1, 100, {0, 0, 0}, {1024, 1024, 1024}},
                           {0, 80, {0, 0, 0}, {1024, 1024, 1024}}};
    int16_t root[6] = {5, 0, 0, -3, 0, 0};
    uint8_t mode[2] = {0, 1};
    int16_t rot[12] = {10, 0, 0, 0, 0, 0, /* frame 1 */ 0, 0, 0, 0, 0, -2048};
    int16_t scale[12] = {1024, 1024, 1024, 1024, 1024, 1024,
                         /* frame 1 */ 2048, 1024, 1024, 1024, 1024, 1024};
    synth_clip clip = {2, root, mode, rot, scale};
    synth_model m = {0};
    m.kind = DAT_MONSTER;
    m.bones = 2;
    m.bone = bones;
    m.nclips = 1;
    m.clip = &clip;
    m.filler_seed = 7;
    m.geometry_seed = 8;
    m.geometry_size = 256;
    uint8_t *data;
    size_t size;
    ff_error err;
    cr_assert_eq(synth_model_encode(&m, &data, &size, &err), 0, "%s", err.reason);
    file = ts_path(scratch, "c0m200.dat");
    ts_write(file, (const char *)data, size);
    free(data);
}

static void cleanup(void)
{
    free(file);
    ts_rmtree(scratch);
}

#define LINE(tick, ret, frame, flags, off, bit, sf, rx, r1z, s0x)                               \
    "{\"v\":1,\"file\":\"c0m200.dat\",\"model\":\"monster\",\"anim\":0,\"mode\":\"slow\","        \
    "\"tick\":" tick ",\"root\":[" rx ",0,0],\"skel_flag\":" sf ",\"rot\":[[10,0,0],[0,0," r1z   \
    "]],\"scale\":[[" s0x ",1024,1024],[1024,1024,1024]],\"cmd\":{\"frame\":" frame            \
    ",\"off\":" off ",\"bit\":" bit ",\"flags\":" flags ",\"total\":3,\"clip\":0},\"ret\":" ret   \
    "}\n"

Test(decode, slow_mode_trace_key_for_key, .init = make_file, .fini = cleanup)
{
    /*
     * SLOW: total 2*2-1 = 3. Tick 0: frame 0 at full value, cursor saved
     * (half-step bits were 0), flags 1|4 = 5. Tick 1: frame 1 halved (-3/2
     * = -1, -2048/2 = -1024), scales absolute, cursor not saved, flags 1.
     * Tick 2: frame 1 again halved (root 3, rot -2048), cursor saved after
     * frame 1, flags 5. Tick 3: frame 3 >= total 3: returns 1, nothing changes.
     */
    const char *want = LINE("0", "0", "1", "5", "5", "1", "0", "5", "0", "1024")
        LINE("1", "0", "2", "1", "5", "1", "1", "4", "-1024", "2048")
            LINE("2", "0", "3", "5", "12", "3", "1", "3", "-2048", "2048")
                LINE("3", "1", "3", "5", "12", "3", "1", "3", "-2048", "2048");
    ts_out o;
    ts_cli(scratch, &o, "decode '%s' --mode slow", file);
    cr_assert_eq(o.status, 0, "exit %d: %s", o.status, o.err);
    cr_assert_str_eq(o.out, want);
    ts_out_free(&o);
}

Test(decode, all_modes_in_order_and_anim_selection, .init = make_file, .fini = cleanup)
{
    ts_out o;
    ts_cli(scratch, &o, "decode '%s' --mode all --anim 0", file);
    cr_assert_eq(o.status, 0, "%s", o.err);
    /* normal: 2 frames -> ticks 0, 1 (frame 2 >= 2 at tick 1? no: tick 1 decodes frame 1,
     * tick 2 returns 1): 3 lines; slow: 4 lines; fast: tick 0 decodes both frames, tick 1
     * returns 1: 2 lines; slow+fast: total 3, tick 0 frames 0 and 1 (half), tick 1 frame 2
     * (half, reading on past the clip), tick 2 returns 1: 3 lines. */
    cr_assert_eq(ts_count(o.out, "\"mode\":\"normal\""), 3);
    cr_assert_eq(ts_count(o.out, "\"mode\":\"slow\""), 4);
    cr_assert_eq(ts_count(o.out, "\"mode\":\"fast\""), 2);
    cr_assert_eq(ts_count(o.out, "\"mode\":\"slow+fast\""), 3);
    const char *n = strstr(o.out, "\"normal\""), *s = strstr(o.out, "\"slow\""),
               *f = strstr(o.out, "\"fast\""), *sf = strstr(o.out, "\"slow+fast\"");
    cr_assert(n && s && f && sf && n < s && s < f && f < sf, "modes out of order");
    ts_out_free(&o);
    ts_cli(scratch, &o, "decode '%s' --anim 1", file);
    cr_assert_eq(o.status, 2, "a missing animation is an input error");
    cr_assert(strstr(o.err, "no animation 1"), "%s", o.err);
    ts_out_free(&o);
}

Test(decode, summary_and_errors, .init = make_file, .fini = cleanup)
{
    ts_out o;
    ts_cli(scratch, &o, "decode '%s' --summary", file);
    cr_assert_eq(o.status, 0, "%s", o.err);
    /* One clip of 2 frames, and frame 1 carries the mode bit: one scale-path clip. */
    cr_assert(strstr(o.out, "kind monster, bones 2, clips 1, frames 2, scale-path clips 1"),
              "%s", o.out);
    ts_out_free(&o);
    /* A truncated copy: the error names the file, exit 2, the good file is still decoded. */
    size_t size;
    char *data = ts_read(file, &size);
    char *cut = ts_path(scratch, "cut.dat");
    ts_write(cut, data, 40);
    ts_cli(scratch, &o, "decode '%s' '%s'", cut, file);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "cut.dat"), "%s", o.err);
    cr_assert_eq(ts_count(o.out, "\"tick\":0"), 1, "the good file is decoded");
    ts_out_free(&o);
    ts_cli(scratch, &o, "decode '%s' --mode turbo", file);
    cr_assert_eq(o.status, 2);
    cr_assert(strstr(o.err, "unknown mode 'turbo'"), "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "decode");
    cr_assert_eq(o.status, 2);
    ts_out_free(&o);
    free(cut);
    free(data);
}
