/*
 * corpus/synth_presets.c: the presets, and a whole corpus written from one.
 * `small` is hand-written to cover every decoding corner in a few files;
 * `cover` too, the fewest files and clips that run every path of the
 * decoding routines; `vanilla` (synth_vanilla.c) is drawn from quantile
 * tables fitted to the game's corpus figures. Each is a plan made with the
 * builder of synth_plan.c; entries are built one at a time, on demand.
 *
 * Must not print or exit.
 */
#include "corpus/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "corpus/fileio.h"
#include "corpus/synth_plan.h"
#include "ref/pose.h"

#define R SYNTH_CLIP_RANDOM
#define X SYNTH_CLIP_EXTREMES
#define W SYNTH_CLIP_WRAP
#define C SYNTH_CLIP_COVER
#define CLIPS(a) (unsigned)(sizeof a / sizeof a[0]), a

const char *synth_preset_name(synth_preset p)
{
    switch (p) {
    case SYNTH_SMALL:
        return "small";
    case SYNTH_VANILLA:
        return "vanilla";
    case SYNTH_COVER:
        return "cover";
    default:
        return "?";
    }
}

int synth_preset_from_name(const char *name)
{
    for (int p = 0; p < SYNTH__PRESET_COUNT; p++)
        if (name && !strcmp(name, synth_preset_name((synth_preset)p))) return p;
    return -1;
}

/* The small preset's characters (corpus/README.md), kept cheap: a Rinoa-like
 * body with two weapons whose clips 4 and 5 run a frame longer, a Zell-like
 * body with a reduced weapon, an Edea-like 10-section body. */
static int small_characters(synth_plan *p, ff_error *err)
{
    /* Clips 4 and 5 run a frame longer on the weapons (16 and 9), as Rinoa's
     * clips 5 and 6 do in the game; clip 2 takes the scale path on all three
     * models. Every clip has 2 frames or more: SLOW+FAST reads one frame
     * past each (docs/engine.md section 4), on the body and the weapons alike. */
    static const synth_clip_spec armed[] = {{6, 0, R}, {9, 0, R},  {12, 1, R},
                                            {4, 0, R}, {15, 0, R}, {8, 0, R}};
    static const unsigned longer[] = {4, 5};
    static const synth_clip_spec reduced[] = {{5, 0, R}, {2, 0, R}};
    static const synth_clip_spec edea[] = {{4, 0, R}, {3, 0, R}};
    static const char *const b4[] = {"d4c009.dat"}, *const w4[] = {"d4w023.dat", "d4w024.dat"};
    static const char *const b1[] = {"d1c003.dat"}, *const w1[] = {"d1w008.dat"};
    static const char *const b7[] = {"d7c016.dat"};
#define LIST(a) a, (unsigned)(sizeof a / sizeof a[0])
    const synth_character cast[] = {
        {LIST(b1), DAT_BODY, 6, LIST(w1), DAT_WEAPON_REDUCED, 0, LIST(reduced), NULL, 0},
        {LIST(b4), DAT_BODY, 18, LIST(w4), DAT_WEAPON, 3, LIST(armed), LIST(longer)},
        {LIST(b7), DAT_EDEA, 6, NULL, 0, DAT_WEAPON, 0, LIST(edea), NULL, 0},
    };
#undef LIST
    for (size_t i = 0; i < sizeof cast / sizeof cast[0]; i++)
        if (synth_plan_character(p, &cast[i], err) < 0) return -1;
    /* d4c009 + d4w023 keeps the identity slot of vanilla; d4w024 sits turned
     * on all three axes and moved. */
    static const int16_t rot[3] = {300, -2048, 4000}, trans[3] = {-7, 120, 2500};
    return synth_plan_attach_add(p, "d4c009.dat", "d4w024.dat", rot, trans, err);
}

/* small: 11 files; every coverage corner at least once, cheap to emulate. */
static int plan_small(synth_plan *p, ff_error *err)
{
    static const synth_clip_spec one_bone[] = {{1, 0, R}, {129, 0, R}, {140, 0, R}, {0, 0, X},
                                               {0, 0, W}, {12, 1, R},  {7, 0, R}};
    static const synth_clip_spec many_bones[] = {{3, 0, R}, {5, 1, R}, {0, 0, X}, {1, 0, R}};
    static const synth_clip_spec mid[] = {{9, 0, R}, {14, 1, R}, {4, 0, R}, {20, 0, R},
                                          {0, 0, W}, {11, 1, R}, {6, 0, R}};
    long dup;
    if (synth_plan_add(p, "c0m000.dat", DAT_MONSTER, 1, CLIPS(one_bone), err) < 0 ||
        synth_plan_add(p, "c0m001.dat", DAT_MONSTER, 71, CLIPS(many_bones), err) < 0 ||
        synth_plan_add(p, "c0m002.dat", DAT_MONSTER, 24, CLIPS(mid), err) < 0 ||
        (dup = synth_plan_add(p, "c0m003.dat", DAT_MONSTER, 0, 0, NULL, err)) < 0 ||
        synth_plan_copy_model(p, (size_t)dup, 2, err) < 0 ||
        synth_plan_add(p, "c0m127.dat", DAT_NO_MODEL, 0, 0, NULL, err) < 0)
        return -1;
    return small_characters(p, err);
}

/*
 * cover: every path of the decoding routines in the fewest bytes. COVER
 * clips hold each position and rotation type, absent rotations, the scale
 * path with absent, present and 0x7C00 scales, odd negative deltas SLOW
 * halves, and 3 frames so that FAST's second pass meets the clip's end;
 * under SLOW+FAST the 1-bone file's first clip reads on into its second.
 * Bone counts 1 and 80: the most a scale-path skeleton can have in the
 * engine (BuildBoneMatrices keeps its matrices and running vectors in two
 * 80-slot stack arrays, docs/pose.md section 2; past them it overruns, which
 * the reference refuses to invent).
 */
static int plan_cover(synth_plan *p, ff_error *err)
{
    static const synth_clip_spec one_bone[] = {{0, 0, C}, {1, 0, R}};
    static const synth_clip_spec most_bones[] = {{0, 0, C}};
    if (synth_plan_add(p, "c0m000.dat", DAT_MONSTER, 1, CLIPS(one_bone), err) < 0 ||
        synth_plan_add(p, "c0m001.dat", DAT_MONSTER, REF_POSE_STACK_SLOTS, CLIPS(most_bones), err) < 0)
        return -1;
    return 0;
}

int synth_plan_make(synth_preset preset, uint64_t seed, synth_plan **out, ff_error *err)
{
    if ((unsigned)preset >= SYNTH__PRESET_COUNT)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "unknown preset %d", (int)preset);
    synth_plan *p = calloc(1, sizeof *p);
    if (!p) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a plan");
    p->preset = preset;
    p->seed = seed;
    int rc = preset == SYNTH_SMALL   ? plan_small(p, err)
             : preset == SYNTH_COVER ? plan_cover(p, err)
                                     : synth_plan_vanilla(p, err);
    if (rc < 0) {
        synth_plan_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

/* The entities manifest, written even when empty: it replaces a stale one. */
static int write_attach(const char *outdir, const synth_plan *p, ff_error *err)
{
    char *text = NULL, *path = path_join_new(outdir, PAIRS_ATTACH_FILE);
    size_t len = 0;
    int rc = path ? pairs_attach_format(&p->attach, &text, &len, err)
                  : ff_error_set(err, FF_E_NOMEM, outdir, -1, "no memory for a path");
    if (rc == 0) rc = fio_write_atomic(path, (const uint8_t *)text, len, err);
    free(text);
    free(path);
    return rc;
}

int synth_write(const char *outdir, synth_preset preset, uint64_t seed, synth_summary *sum,
                ff_error *err)
{
    synth_plan *p = NULL;
    if (sum) memset(sum, 0, sizeof *sum);
    if (fio_mkdirs(outdir, err) < 0) return -1;
    if (synth_plan_make(preset, seed, &p, err) < 0) return -1;
    int rc = 0;
    for (size_t i = 0; i < p->n && rc == 0; i++) {
        uint8_t *data = NULL;
        size_t size = 0;
        char *path = path_join_new(outdir, p->e[i].name);
        if (!path)
            rc = ff_error_set(err, FF_E_NOMEM, outdir, -1, "no memory for a path");
        else if (synth_plan_build(p, i, &data, &size, sum, err) < 0)
            rc = -1;
        else
            rc = fio_write_atomic(path, data, size, err);
        free(data);
        free(path);
    }
    if (rc == 0) rc = write_attach(outdir, p, err);
    synth_plan_free(p);
    return rc;
}
