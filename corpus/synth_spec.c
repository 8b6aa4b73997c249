/*
 * corpus/synth_spec.c: a recipe (synth_file_spec) expanded into an
 * explicit synth_model: a random skeleton, random clips shaped like game
 * motion (a full pose on frame 0, mostly small deltas after it), and the
 * planted coverage clips (width extremes, s16 wraps, every decoding path).
 *
 * Must not print or exit; every random choice comes from the recipe's seeds.
 */
#include "corpus/synth.h"

#include <stdlib.h>
#include <string.h>

#include "common/rng.h"

#define SCALE_ONE 1024

/* Both extremes of every position width (3, 6, 9, 16 bits)... */
static const int16_t position_extremes[8] = {-4, 3, -32, 31, -256, 255, -32768, 32767};
/* ... and of every rotation width (3, 6, 8, 12 bits). */
static const int16_t rotation_extremes[8] = {-4, 3, -32, 31, -128, 127, -2048, 2047};
/* Scale channels of the extremes clip: absent, payload 0x7C00 (stored as
 * -32768), a small present value and the largest one. */
static const int16_t scale_cycle[4] = {SCALE_ONE, -32768, SCALE_ONE + 1, 32767};

static int16_t random_position(rng *r)
{
    unsigned p = rng_below(r, 100);
    if (p < 45) return (int16_t)rng_range(r, -4, 3);
    if (p < 75) return (int16_t)rng_range(r, -32, 31);
    if (p < 95) return (int16_t)rng_range(r, -256, 255);
    if (p < 99) return (int16_t)rng_range(r, -2000, 2000);
    return (int16_t)rng_range(r, -32768, 32767);
}

static int16_t random_rotation(rng *r)
{
    unsigned p = rng_below(r, 100);
    if (p < 35) return 0;
    if (p < 68) return (int16_t)rng_range(r, -4, 3);
    if (p < 88) return (int16_t)rng_range(r, -32, 31);
    if (p < 97) return (int16_t)rng_range(r, -128, 127);
    return (int16_t)rng_range(r, -2048, 2047);
}

/* A frame-0 rotation: the whole pose, since StartClip zeroes rotations. */
static int16_t random_pose(rng *r)
{
    return rng_chance(r, 15) ? 0 : (int16_t)rng_range(r, -2048, 2047);
}

static int16_t random_scale(rng *r)
{
    if (rng_chance(r, 65)) return SCALE_ONE;
    return (int16_t)(SCALE_ONE + rng_range(r, -300, 300));
}

/* Allocates a clip's arrays (scales only when with_scale). */
static int clip_alloc(synth_clip *c, unsigned frames, unsigned bones, int with_scale)
{
    size_t per = (size_t)frames * bones * 3;
    c->frames = frames;
    c->root = calloc((size_t)frames * 3, sizeof *c->root);
    c->mode = calloc(frames, 1);
    c->rot = calloc(per ? per : 1, sizeof *c->rot);
    c->scale = with_scale ? calloc(per ? per : 1, sizeof *c->scale) : NULL;
    return c->root && c->mode && c->rot && (!with_scale || c->scale) ? 0 : -1;
}

static void random_clip(synth_clip *c, unsigned bones, int with_scale, rng *r)
{
    size_t per = (size_t)bones * 3;
    for (unsigned f = 0; f < c->frames; f++) {
        for (int k = 0; k < 3; k++)
            c->root[3 * f + k] = f ? random_position(r) : (int16_t)rng_range(r, -256, 255);
        for (size_t i = 0; i < per; i++)
            c->rot[per * f + i] = f ? random_rotation(r) : random_pose(r);
        c->mode[f] = with_scale && (f == 0 || rng_chance(r, 40));
        for (size_t i = 0; with_scale && i < per; i++)
            c->scale[per * f + i] = c->mode[f] ? random_scale(r) : SCALE_ONE;
    }
}

static void extremes_clip(synth_clip *c, unsigned bones)
{
    size_t per = (size_t)bones * 3;
    for (unsigned f = 0; f < c->frames; f++) {
        for (unsigned k = 0; k < 3; k++)
            c->root[3 * f + k] = position_extremes[(f + 3 * k) % 8];
        c->mode[f] = f & 1;
        for (size_t i = 0; i < per; i++) {
            c->rot[per * f + i] = rotation_extremes[(f + i) % 8];
            c->scale[per * f + i] = c->mode[f] ? scale_cycle[(f / 2 + i) % 4] : SCALE_ONE;
        }
    }
}

static void wrap_clip(synth_clip *c, unsigned bones, rng *r)
{
    size_t per = (size_t)bones * 3;
    for (unsigned f = 0; f < c->frames; f++) {
        c->root[3 * f + 0] = 30000;  /* passes +32767 on frame 1 */
        c->root[3 * f + 1] = -30000; /* passes -32768 on frame 1 */
        c->root[3 * f + 2] = random_position(r);
        for (unsigned b = 0; b < bones; b++) {
            c->rot[per * f + 3 * b + 0] = 2047;  /* passes +32767 on frame 16 */
            c->rot[per * f + 3 * b + 1] = -2048; /* passes -32768 on frame 16 */
            c->rot[per * f + 3 * b + 2] = random_rotation(r);
        }
    }
}

/*
 * Frames of the COVER clip; every bone gets the same three rotations and
 * scales. Positions: types 0, 1, 2 then 3 (16 bits), odd negatives -3 and
 * -1 after frame 0. Rotations: absent, types 0 and 1, then types 2 and 3
 * and odd negatives -127 and -1, then -2048 and absent again.
 */
static const int16_t cover_root[SYNTH_COVER_FRAMES][3] = {{-4, 31, -256}, {32767, -3, 5},
                                                          {-1, 0, 1}};
static const uint8_t cover_mode[SYNTH_COVER_FRAMES] = {1, 0, 1};
static const int16_t cover_rot[SYNTH_COVER_FRAMES][3] = {{0, -3, 31}, {-127, 2047, -1},
                                                         {-2048, 0, 7}};
static const int16_t cover_scale[SYNTH_COVER_FRAMES][3] = {
    {SCALE_ONE, 2000, -32768}, {SCALE_ONE, SCALE_ONE, SCALE_ONE}, {SCALE_ONE, SCALE_ONE, 1100}};

static void cover_clip(synth_clip *c, unsigned bones)
{
    size_t per = (size_t)bones * 3;
    for (unsigned f = 0; f < c->frames; f++) {
        memcpy(c->root + 3 * f, cover_root[f], sizeof cover_root[f]);
        c->mode[f] = cover_mode[f];
        for (size_t i = 0; i < per; i++) {
            c->rot[per * f + i] = cover_rot[f][i % 3];
            c->scale[per * f + i] = cover_scale[f][i % 3];
        }
    }
}

static int make_clip(const synth_clip_spec *cs, unsigned bones, synth_clip *c, rng *r)
{
    switch (cs->kind) {
    case SYNTH_CLIP_EXTREMES:
        if (clip_alloc(c, SYNTH_EXTREMES_FRAMES, bones, 1) < 0) return -1;
        extremes_clip(c, bones);
        return 0;
    case SYNTH_CLIP_WRAP:
        if (clip_alloc(c, SYNTH_WRAP_FRAMES, bones, 0) < 0) return -1;
        wrap_clip(c, bones, r);
        return 0;
    case SYNTH_CLIP_COVER:
        if (clip_alloc(c, SYNTH_COVER_FRAMES, bones, 1) < 0) return -1;
        cover_clip(c, bones);
        return 0;
    default:
        if (clip_alloc(c, cs->frames, bones, cs->scale) < 0) return -1;
        random_clip(c, bones, cs->scale, r);
        return 0;
    }
}

static void random_skeleton(synth_model *m, rng *r)
{
    m->model_scale = (int16_t)rng_range(r, 256, 4096);
    for (int k = 0; k < 3; k++)
        m->root[k] = (int16_t)rng_range(r, -200, 200);
    for (unsigned b = 0; b < m->bones; b++) {
        synth_bone *s = &m->bone[b];
        s->parent = b ? (int16_t)rng_below(r, b) : -1;
        s->length = (int16_t)rng_range(r, -300, 300);
        int odd = rng_chance(r, 10);
        for (int k = 0; k < 3; k++) {
            s->rot[k] = (int16_t)rng_range(r, 0, 4095);
            s->scale[k] = (int16_t)(odd ? SCALE_ONE + rng_range(r, -200, 200) : SCALE_ONE);
        }
    }
}

static int check_spec(const synth_file_spec *spec, ff_error *err)
{
    if ((unsigned)spec->kind >= DAT__KIND_COUNT)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "unknown kind %d", (int)spec->kind);
    if (!dat_kind_has_model(spec->kind)) return 0;
    if (spec->bones < 1 || spec->bones > DAT_MAX_BONES)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "bone count %u outside 1..%d", spec->bones,
                            DAT_MAX_BONES);
    if (spec->nclips < 1 || spec->nclips > 65535)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "clip count %u outside 1..65535",
                            spec->nclips);
    for (unsigned c = 0; spec->clip && c < spec->nclips; c++) {
        const synth_clip_spec *cs = &spec->clip[c];
        if (cs->kind > SYNTH_CLIP_COVER || (cs->kind == SYNTH_CLIP_RANDOM && cs->frames < 1))
            return ff_error_set(err, FF_E_USAGE, NULL, -1, "clip %u: kind %u, %u frames", c,
                                cs->kind, cs->frames);
    }
    return 0;
}

int synth_spec_model(const synth_file_spec *spec, synth_model *m, ff_error *err)
{
    memset(m, 0, sizeof *m);
    if (check_spec(spec, err) < 0) return -1;
    rng r = rng_make(spec->seed, 0x5EED);
    rng geo = rng_make(spec->geometry_seed, 0x51CE);
    m->kind = spec->kind;
    m->filler_seed = rng_next(&r);
    m->geometry_seed = spec->geometry_seed;
    m->geometry_size =
        spec->geometry_size ? spec->geometry_size : 256 + rng_below(&geo, 3840);
    if (!dat_kind_has_model(spec->kind)) return 0;
    m->bones = spec->bones;
    m->nclips = spec->nclips;
    m->bone = calloc(m->bones, sizeof *m->bone);
    m->clip = calloc(m->nclips ? m->nclips : 1, sizeof *m->clip);
    if (!m->bone || !m->clip) goto nomem;
    random_skeleton(m, &r);
    for (unsigned c = 0; c < m->nclips; c++) {
        synth_clip_spec cs = {(uint8_t)(1 + rng_below(&r, 40)), 0, SYNTH_CLIP_RANDOM};
        if (spec->clip) cs = spec->clip[c];
        if (make_clip(&cs, m->bones, &m->clip[c], &r) < 0) goto nomem;
    }
    return 0;
nomem:
    synth_model_free(m);
    return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a synthetic model");
}

int synth_build_file(const synth_file_spec *spec, uint8_t **data, size_t *size, ff_error *err)
{
    synth_model m;
    if (synth_spec_model(spec, &m, err) < 0) return -1;
    int rc = synth_model_encode(&m, data, size, err);
    synth_model_free(&m);
    return rc;
}
