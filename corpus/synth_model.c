/*
 * corpus/synth_model.c: an explicit synth_model turned into .dat bytes:
 * section table, skeleton, filler geometry, animation section encoded with
 * ref/encode.h, and filler sections after it that keep every clip's
 * over-read inside the file.
 *
 * Must not print or exit; it reads the model and writes only the buffer it
 * allocates (freed on failure).
 */
#include "common/le.h"
#include "corpus/synth.h"

#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "ref/encode.h"
#include "ref/engine.h"

/* Worst-case bits of one frame: 3 positions of 2 + 16 bits, the mode bit,
 * per bone 3 rotations of 1 + 2 + 12 bits and 3 scales of 1 + 16 bits. */
static size_t frame_max_bytes(unsigned bones)
{
    return (3 * 18 + 1 + (size_t)bones * 96 + 7) / 8 + 1;
}

/* Room kept after the animation section's last clip (3-byte loads too). */
static size_t tail_bytes(unsigned bones)
{
    return SYNTH_TAIL_FRAMES * frame_max_bytes(bones) + 8;
}

static void fill_random(uint8_t *p, size_t n, rng *r)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rng_next(r);
}

static int check_model(const synth_model *m, ff_error *err)
{
    if ((unsigned)m->kind >= DAT__KIND_COUNT)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "unknown model kind %d", (int)m->kind);
    if (!dat_kind_has_model(m->kind)) return 0;
    if (m->bones < 1 || m->bones > DAT_MAX_BONES || !m->bone)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "bone count %u outside 1..%d", m->bones,
                            DAT_MAX_BONES);
    if (m->nclips < 1 || !m->clip)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "%u clips or no clip array", m->nclips);
    if (m->nclips > (1u << 20))
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "%u clips is too many", m->nclips);
    for (unsigned c = 0; c < m->nclips; c++) {
        const synth_clip *k = &m->clip[c];
        if (k->frames < 1 || k->frames > 255 || !k->root || !k->mode || !k->rot)
            return ff_error_set(err, FF_E_USAGE, NULL, -1, "clip %u: %u frames or no arrays", c,
                                k->frames);
        for (unsigned f = 0; f < k->frames; f++)
            if (k->mode[f] && !k->scale)
                return ff_error_set(err, FF_E_USAGE, NULL, -1,
                                    "clip %u frame %u: mode bit set but no scales", c, f);
    }
    return 0;
}

static void write_skeleton(const synth_model *m, uint8_t *p, rng *r)
{
    p[DAT_SKEL_BONE_COUNT] = (uint8_t)m->bones;
    p[DAT_SKEL_FLAGS] = m->flags;
    le_put16(p + DAT_SKEL_MODEL_SCALE, m->model_scale);
    fill_random(p + 4, 4, r); /* unread by the engine */
    for (int k = 0; k < 3; k++)
        le_put16(p + DAT_SKEL_ROOT + 2 * k, m->root[k]);
    fill_random(p + 0x0E, 2, r);
    for (unsigned b = 0; b < m->bones; b++) {
        uint8_t *q = p + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE;
        const synth_bone *s = &m->bone[b];
        le_put16(q + DAT_BONE_PARENT, s->parent);
        le_put16(q + DAT_BONE_LENGTH, s->length);
        for (int k = 0; k < 3; k++) {
            le_put16(q + DAT_BONE_ROT + 2 * k, s->rot[k]);
            le_put16(q + DAT_BONE_SCALE + 2 * k, s->scale[k]);
        }
    }
}

/* Encodes the animation section into a new buffer. */
static int encode_animation(const synth_model *m, uint8_t **out, size_t *out_size, ff_error *err)
{
    size_t head = 4 + 4 * (size_t)m->nclips, fmax = frame_max_bytes(m->bones);
    size_t cap = head + 1, frames_max = 1;
    for (unsigned c = 0; c < m->nclips; c++) {
        cap += 2 + m->clip[c].frames * fmax;
        if (m->clip[c].frames > frames_max) frames_max = m->clip[c].frames;
    }
    uint8_t *sec = calloc(1, cap);
    enc_frame *fr = calloc(frames_max, sizeof *fr);
    if (!sec || !fr) {
        free(sec);
        free(fr);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for an animation section");
    }
    enc_writer w;
    enc_init(&w, sec + head, cap - head);
    le_put32(sec, m->nclips);
    for (unsigned c = 0; c < m->nclips; c++) {
        const synth_clip *k = &m->clip[c];
        size_t per = (size_t)m->bones * 3;
        for (unsigned f = 0; f < k->frames; f++) {
            memcpy(fr[f].root, k->root + 3 * (size_t)f, sizeof fr[f].root);
            fr[f].mode = k->mode[f];
            fr[f].rot = k->rot + per * f;
            fr[f].scale = k->scale ? k->scale + per * f : NULL;
        }
        le_put32(sec + 4 + 4 * (size_t)c, (uint32_t)(head + enc_bytes(&w)));
        if (enc_clip(&w, m->bones, k->frames, fr, err) < 0) {
            ff_error_prefix(err, "clip %u", c);
            free(sec);
            free(fr);
            return -1;
        }
    }
    free(fr);
    *out = sec;
    *out_size = head + enc_bytes(&w);
    return 0;
}

static size_t align4(size_t n)
{
    return (n + 3) & ~(size_t)3;
}

/* Section sizes of a model file (animation size given). */
static void model_sizes(const synth_model *m, size_t anim_size, size_t *sz, unsigned n,
                        rng *r)
{
    sz[0] = DAT_SKEL_HEADER + (size_t)m->bones * DAT_BONE_SIZE;
    sz[1] = m->geometry_size ? m->geometry_size : 4;
    sz[2] = anim_size;
    sz[3] = tail_bytes(m->bones) + rng_below(r, 64);
    for (unsigned k = 4; k < n; k++)
        sz[k] = 8 + rng_below(r, 57);
}

int synth_model_encode(const synth_model *m, uint8_t **data, size_t *size, ff_error *err)
{
    if (check_model(m, err) < 0) return -1;
    unsigned n = dat_kind_sections(m->kind);
    int model = dat_kind_has_model(m->kind);
    size_t sz[DAT_MAX_SECTIONS] = {0}, anim_size = 0;
    uint8_t *anim = NULL;
    rng fill = rng_make(m->filler_seed, 0xF111);
    rng geo = rng_make(m->geometry_seed, 0x6E0);
    if (model && encode_animation(m, &anim, &anim_size, err) < 0) return -1;
    if (model)
        model_sizes(m, anim_size, sz, n, &fill);
    else
        for (unsigned k = 0; k < n; k++)
            sz[k] = m->geometry_size ? m->geometry_size : 16;
    size_t total = 4 + 4 * (size_t)n + 4;
    size_t off[DAT_MAX_SECTIONS];
    for (unsigned k = 0; k < n; k++) {
        off[k] = align4(total);
        total = off[k] + sz[k];
    }
    uint8_t *p = calloc(1, total);
    if (!p) {
        free(anim);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a %zu-byte file", total);
    }
    le_put32(p, n);
    for (unsigned k = 0; k < n; k++)
        le_put32(p + 4 + 4 * k, (uint32_t)off[k]);
    le_put32(p + 4 + 4 * n, (uint32_t)total);
    for (unsigned k = 0; k < n; k++) {
        if (model && k == DAT_SECTION_SKELETON)
            write_skeleton(m, p + off[k], &fill);
        else if (model && k == DAT_SECTION_ANIMATION)
            memcpy(p + off[k], anim, anim_size);
        else
            fill_random(p + off[k], sz[k], model && k > DAT_SECTION_ANIMATION ? &fill : &geo);
    }
    free(anim);
    *data = p;
    *size = total;
    return 0;
}

void synth_model_free(synth_model *m)
{
    if (!m) return;
    for (unsigned c = 0; m->clip && c < m->nclips; c++) {
        free(m->clip[c].root);
        free(m->clip[c].mode);
        free(m->clip[c].rot);
        free(m->clip[c].scale);
    }
    free(m->clip);
    free(m->bone);
    memset(m, 0, sizeof *m);
}
