/*
 * tests/corpus/test_corpus_synth.c: synthetic corpora. Same seed, same
 * bytes; every file parses and decodes in every mode without leaving the
 * file; the small preset covers every corner, checked by walking each
 * clip's bit stream field by field (docs/engine.md sections 3-4) while the
 * reference engine decodes it; the vanilla preset has the game's figures
 * (docs/engine.md section 7), measured from the files. The characters are
 * tested in test_corpus_cast.c.
 */
#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "corpus/synth.h"
#include "tests/corpus/ct.h"

/* Kind a file of this name must have (c0m127 has no model). */
static dat_kind kind_by_name(const char *n)
{
    if (!strcmp(n, "c0m127.dat")) return DAT_NO_MODEL;
    if (n[0] == 'c') return DAT_MONSTER;
    if (!strcmp(n, "d7c016.dat")) return DAT_EDEA;
    if (n[2] == 'c') return DAT_BODY;
    if (n[1] == '1' || n[1] == '9') return DAT_WEAPON_REDUCED; /* Zell's and Kiros's */
    return DAT_WEAPON;
}

/* ---- walking a clip's stream beside the reference engine ---- */

static const int pos_width[4] = {3, 6, 9, 16};
static const int rot_width[4] = {3, 6, 8, 12};

typedef struct coverage {
    int pos_lo[4], pos_hi[4], rot_lo[4], rot_hi[4];
    int root_up, root_down, rot_up, rot_down;
    int scale_present, scale_absent, scale_7c00;
    int mode_up, mode_down;
    unsigned clips, scale_clips;
    int pos_type[4], rot_type[4], rot_absent, odd_negative_late;
    unsigned frame; /* of the frame being walked */
} coverage;

static int16_t bits(ref_stream *s, ref_cursor *c, int n)
{
    int16_t v;
    ff_error err;
    TS_OK(ref_bits_read(s, c, n, &v, &err), &err);
    return v;
}

static void note_wrap(int32_t sum, int *up, int *down)
{
    if (sum > 32767) *up = 1;
    if (sum < -32768) *down = 1;
}

static int16_t wrap16(int32_t v)
{
    return (int16_t)(uint16_t)(v & 0xFFFF);
}

/* Reads one frame's fields; checks the engine's state after its tick. */
static int walk_frame(const dat_file *d, ref_stream *s, ref_cursor *cur, int32_t *root,
                      int32_t *rot, const ref_anim *a, coverage *cov, const char *what)
{
    for (int k = 0; k < 3; k++) {
        int t = bits(s, cur, 2) & 3;
        int16_t v = bits(s, cur, pos_width[t]);
        cov->pos_type[t] = 1;
        cov->odd_negative_late |= cov->frame > 0 && v < 0 && (v & 1);
        cov->pos_lo[t] |= v == -(1 << (pos_width[t] - 1));
        cov->pos_hi[t] |= v == (1 << (pos_width[t] - 1)) - 1;
        root[k] += v;
        note_wrap(root[k], &cov->root_up, &cov->root_down);
    }
    int mode = bits(s, cur, 1) & 1;
    for (unsigned b = 0; b < d->bones; b++) {
        const uint8_t *bone = a->skel + DAT_SKEL_HEADER + (size_t)DAT_BONE_SIZE * b;
        for (int k = 0; k < 3; k++) {
            if (!(bits(s, cur, 1) & 1)) {
                cov->rot_absent = 1;
                continue;
            }
            int t = bits(s, cur, 2) & 3;
            int16_t v = bits(s, cur, rot_width[t]);
            cov->rot_type[t] = 1;
            cov->odd_negative_late |= cov->frame > 0 && v < 0 && (v & 1);
            cov->rot_lo[t] |= v == -(1 << (rot_width[t] - 1));
            cov->rot_hi[t] |= v == (1 << (rot_width[t] - 1)) - 1;
            rot[3 * b + k] += v;
            note_wrap(rot[3 * b + k], &cov->rot_up, &cov->rot_down);
        }
        for (int k = 0; mode && k < 3; k++) {
            if (!(bits(s, cur, 1) & 1)) {
                cov->scale_absent = 1;
                cr_assert_eq(le_s16(bone + DAT_BONE_SCALE + 2 * k), 1024, "%s scale", what);
                continue;
            }
            uint16_t payload = (uint16_t)bits(s, cur, 16);
            cov->scale_present = 1;
            cov->scale_7c00 |= payload == 0x7C00;
            cr_assert_eq(le_s16(bone + DAT_BONE_SCALE + 2 * k), wrap16(payload + 1024),
                         "%s bone %u scale %d", what, b, k);
        }
        for (int k = 0; k < 3; k++)
            cr_assert_eq(le_s16(bone + DAT_BONE_ROT + 2 * k), wrap16(rot[3 * b + k]),
                         "%s bone %u rot %d", what, b, k);
    }
    for (int k = 0; k < 3; k++)
        cr_assert_eq(le_s16(a->skel + DAT_SKEL_ROOT + 2 * k), wrap16(root[k]), "%s root %d",
                     what, k);
    cr_assert_eq(a->skel[DAT_SKEL_FLAGS] & 1, mode, "%s flag bit", what);
    return mode;
}

/* Walks clip c; returns 1 when a frame had mode bit 1. */
static int walk_clip(const dat_file *d, uint32_t c, coverage *cov)
{
    uint32_t off;
    ff_error err;
    TS_OK(dat_clip_offset(d, c, &off, &err), &err);
    unsigned frames = d->data[off];
    ref_stream s = {d->data, d->size, d->name, 0};
    ref_cursor cur = {(int64_t)off + 1, 0};
    uint8_t skel[16 + 48 * 255];
    ref_anim a;
    TS_OK(ref_anim_init(&a, d, skel, sizeof skel, &err), &err);
    int32_t root[3] = {0, 0, 0}, *rot = calloc((size_t)d->bones * 3, sizeof *rot);
    int prev = -1, any = 0, ret = 0;
    for (unsigned f = 0; f < frames; f++) {
        char what[96];
        snprintf(what, sizeof what, "%s clip %u frame %u", d->name, c, f);
        if (f == 0)
            TS_OK(ref_start_clip(&a, (int16_t)c, &ret, &err), &err);
        else
            TS_OK(ref_read_animation(&a, &ret, &err), &err);
        cr_assert_eq(ret, 0, "%s: engine stopped early", what);
        cov->frame = f;
        int mode = walk_frame(d, &s, &cur, root, rot, &a, cov, what);
        cov->mode_up |= prev == 0 && mode == 1;
        cov->mode_down |= prev == 1 && mode == 0;
        prev = mode;
        any |= mode;
        /* Normal mode saves the cursor every tick: it must sit where we are. */
        cr_assert_eq((int64_t)off + a.cmd.off, cur.pos, "%s: cursor byte", what);
        cr_assert_eq(a.cmd.bit, cur.bit, "%s: cursor bit", what);
    }
    TS_OK(ref_read_animation(&a, &ret, &err), &err);
    cr_assert_eq(ret, 1, "%s clip %u: engine goes on after %u frames", d->name, c, frames);
    free(rot);
    cov->clips++;
    cov->scale_clips += (unsigned)any;
    return any;
}

/* ---- tests ---- */

TestSuite(synth, .fini = ts_cleanup);

Test(synth, same_seed_same_bytes)
{
    ct_built *a = ct_build_preset(SYNTH_SMALL, 7), *b = ct_build_preset(SYNTH_SMALL, 7);
    ct_built *c = ct_build_preset(SYNTH_SMALL, 8);
    cr_assert_eq(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert_str_eq(a->name[i], b->name[i]);
        cr_assert_eq(a->size[i], b->size[i], "%s size", a->name[i]);
        ts_assert_mem(a->data[i], b->data[i], a->size[i], a->name[i]);
        cr_assert(a->size[i] != c->size[i] || memcmp(a->data[i], c->data[i], a->size[i]),
                  "%s: seeds 7 and 8 give the same bytes", a->name[i]);
    }
    ct_free_built(a), ct_free_built(b), ct_free_built(c);
    ct_built *v1 = ct_build_preset(SYNTH_VANILLA, 3), *v2 = ct_build_preset(SYNTH_VANILLA, 3);
    cr_assert_eq(v1->n, v2->n);
    for (size_t i = 0; i < v1->n; i++) {
        cr_assert_eq(v1->size[i], v2->size[i], "%s size", v1->name[i]);
        ts_assert_mem(v1->data[i], v2->data[i], v1->size[i], v1->name[i]);
    }
    ct_free_built(v1), ct_free_built(v2);
}

Test(synth, explicit_model_layout)
{
    synth_bone bone = {-1, 100, {1, 2, 3}, {1024, 1024, 1024}};
    int16_t root[3] = {3, 0, 0}, rot[3] = {0, 0, 0};
    uint8_t mode[1] = {0};
    synth_clip clip = {1, root, mode, rot, NULL};
    synth_model m = {.kind = DAT_MONSTER,
                     .bones = 1,
                     .bone = &bone,
                     .model_scale = 0x200,
                     .root = {7, 8, 9},
                     .nclips = 1,
                     .clip = &clip,
                     .geometry_size = 10};
    uint8_t *p;
    size_t size;
    ff_error err;
    TS_OK(synth_model_encode(&m, &p, &size, &err), &err);
    /* 11 offsets: header 4 + 44 + 4 = 52; skeleton 64 bytes; geometry 10
     * bytes then aligned to 128; animation 12 bytes. */
    cr_assert_eq(le_u32(p), 11);
    cr_assert_eq(le_u32(p + 4), 52);
    cr_assert_eq(le_u32(p + 8), 116);
    cr_assert_eq(le_u32(p + 12), 128);
    cr_assert_eq(le_u32(p + 16), 140);
    cr_assert_eq(le_u32(p + 48), size, "end field");
    for (int k = 1; k < 11; k++) {
        uint32_t a = le_u32(p + 4 * k), b = le_u32(p + 4 + 4 * k);
        cr_assert(a % 4 == 0 && a <= b, "section %d at 0x%x, next 0x%x", k - 1, a, b);
    }
    /* Two worst-case frames of one bone (151 bits = 19 bytes) stay after the clip. */
    cr_assert(size - 140 >= 2 * 19, "only %zu bytes after the animation", size - 140);
    static const uint8_t skel[32] = {1, 0,           0x00, 0x02, [8] = 7, 0,    8,    0,   9,
                                     0, [16] = 0xFF, 0xFF, 100,  0,       1,    0,    2,   0,
                                     3, 0,           0x00, 0x04, 0x00,    0x04, 0x00, 0x04};
    ts_assert_mem(p + 52, skel, 4, "skeleton count, flags, model scale");
    ts_assert_mem(p + 52 + 8, skel + 8, 6, "skeleton root");
    ts_assert_mem(p + 52 + 16, skel + 16, 16, "bone 0");
    static const uint8_t zeros[32] = {0};
    ts_assert_mem(p + 52 + 32, zeros, 32, "bone 0 runtime fields");
    /* count 1, offset 8; clip: 1 frame; root x = 3 as type 00 + 011, then
     * 5 + 5 zero bits, mode 0, three absent rotations: 0C 00 00. */
    static const uint8_t anim[12] = {1, 0, 0, 0, 8, 0, 0, 0, 0x01, 0x0C, 0x00, 0x00};
    ts_assert_mem(p + 128, anim, 12, "animation section");
    free(p);
}

Test(synth, every_file_parses_with_its_kind)
{
    for (int preset = 0; preset < SYNTH__PRESET_COUNT; preset++) {
        ct_built *b = ct_build_preset((synth_preset)preset, 11);
        for (size_t i = 0; i < b->n; i++)
            cr_assert_eq(b->dat[i].kind, kind_by_name(b->name[i]), "%s: kind %s", b->name[i],
                         dat_kind_name(b->dat[i].kind));
        ct_free_built(b);
    }
}

Test(synth, no_mode_reads_past_the_file)
{
    static const uint8_t modes[4] = {0, REF_CMD_SLOW, REF_CMD_FAST, REF_CMD_SLOW | REF_CMD_FAST};
    for (int preset = 0; preset < SYNTH__PRESET_COUNT; preset++) {
        ct_built *b = ct_build_preset((synth_preset)preset, 21);
        for (size_t i = 0; i < b->n; i++)
            for (uint32_t c = 0; dat_kind_has_model(b->dat[i].kind) && c < b->dat[i].clips; c++)
                for (int m = 0; m < 4; m++) {
                    ff_error err;
                    int calls = ct_decode_clip(&b->dat[i], c, modes[m], &err);
                    char msg[1024];
                    cr_assert(calls > 0, "%s clip %u mode %d: %s", b->name[i], c, modes[m],
                              ff_error_format(&err, msg, sizeof msg));
                }
        ct_free_built(b);
    }
}

Test(synth, small_covers_every_corner)
{
    ct_built *b = ct_build_preset(SYNTH_SMALL, 1);
    coverage cov;
    memset(&cov, 0, sizeof cov);
    unsigned min_bones = 255, max_bones = 0, one_frame = 0, f129 = 0, f140 = 0, kinds = 0;
    for (size_t i = 0; i < b->n; i++) {
        const dat_file *d = &b->dat[i];
        kinds |= 1u << d->kind;
        if (!dat_kind_has_model(d->kind)) continue;
        if (d->bones < min_bones) min_bones = d->bones;
        if (d->bones > max_bones) max_bones = d->bones;
        for (uint32_t c = 0; c < d->clips; c++) {
            unsigned n = dat_clip_frames(d, c);
            one_frame += n == 1;
            f129 += n == 129;
            f140 += n == 140;
            walk_clip(d, c, &cov);
        }
    }
    cr_assert_eq(b->n, 11, "%zu files", b->n);
    unsigned want = (1u << DAT__KIND_COUNT) - 1;
    cr_assert_eq(kinds & want, want, "kinds present: 0x%x", kinds);
    for (int t = 0; t < 4; t++) {
        cr_assert(cov.pos_lo[t] && cov.pos_hi[t], "position width %d: extremes %d %d", pos_width[t],
                  cov.pos_lo[t], cov.pos_hi[t]);
        cr_assert(cov.rot_lo[t] && cov.rot_hi[t], "rotation width %d: extremes %d %d", rot_width[t],
                  cov.rot_lo[t], cov.rot_hi[t]);
    }
    cr_assert(cov.root_up && cov.root_down, "root sums wrap: up %d down %d", cov.root_up,
              cov.root_down);
    cr_assert(cov.rot_up && cov.rot_down, "rotation sums wrap: up %d down %d", cov.rot_up,
              cov.rot_down);
    cr_assert(cov.scale_present && cov.scale_absent && cov.scale_7c00,
              "scales: present %d absent %d 0x7C00 %d", cov.scale_present, cov.scale_absent,
              cov.scale_7c00);
    cr_assert(cov.mode_up && cov.mode_down, "mode bit flips: up %d down %d", cov.mode_up,
              cov.mode_down);
    cr_assert(one_frame && f129 && f140, "1-frame %u, 129-frame %u, 140-frame %u clips", one_frame,
              f129, f140);
    cr_assert_eq(min_bones, 1);
    cr_assert_geq(max_bones, 70);
    ct_free_built(b);
}

/* cover: two files, every path of decoding (the stand-in's blocks: tests/mutants). */
Test(synth, cover_holds_every_decoding_path)
{
    ct_built *b = ct_build_preset(SYNTH_COVER, 1);
    coverage cov;
    memset(&cov, 0, sizeof cov);
    cr_assert_eq(b->n, 2u);
    cr_assert_eq(b->dat[0].bones, 1u);
    cr_assert_eq(b->dat[1].bones, 80u, "the most the engine's scale path holds");
    /* The 1-bone file's first clip is followed by another, which SLOW+FAST reads into:
     * 3 frames make 5 SLOW ticks, whose second FAST call decodes one frame past the clip. */
    cr_assert_eq(b->dat[0].clips, 2u);
    cr_assert_eq(dat_clip_frames(&b->dat[0], 0), 3u);
    for (size_t i = 0; i < b->n; i++)
        for (uint32_t c = 0; c < b->dat[i].clips; c++) walk_clip(&b->dat[i], c, &cov);
    for (int t = 0; t < 4; t++)
        cr_assert(cov.pos_type[t] && cov.rot_type[t], "type %d: position %d rotation %d", t,
                  cov.pos_type[t], cov.rot_type[t]);
    cr_assert(cov.rot_absent, "an absent rotation");
    cr_assert(cov.scale_present && cov.scale_absent && cov.scale_7c00, "scales");
    cr_assert(cov.mode_up && cov.mode_down, "mode bit flips");
    cr_assert(cov.odd_negative_late, "an odd negative delta after frame 0 (halved by SLOW)");
    cr_assert_eq(b->sum.files, 2u);
    cr_assert_eq(b->sum.clips, 3u);
    ct_free_built(b);
}

static int cmp_u(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Median and 90th percentile of n values (sorted in place). */
static void stats(unsigned *v, size_t n, unsigned *median, unsigned *p90)
{
    qsort(v, n, sizeof *v, cmp_u);
    *median = v[n / 2];
    *p90 = v[n * 9 / 10];
}

#define IN_RANGE(v, lo, hi, what)                                                                  \
    cr_assert((v) >= (lo) && (v) <= (hi), "%s = %llu outside %llu..%llu", what,                    \
              (unsigned long long)(v), (unsigned long long)(lo), (unsigned long long)(hi))

Test(synth, vanilla_is_sized_like_the_game)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        ct_built *b = ct_build_preset(SYNTH_VANILLA, seed);
        static unsigned bones[256], nclips[256], frames[4096];
        size_t nb = 0, nf = 0;
        unsigned clips = 0, scale_files = 0, over128 = 0, monsters = 0;
        unsigned long long total_frames = 0;
        coverage cov;
        memset(&cov, 0, sizeof cov);
        for (size_t i = 0; i < b->n; i++) {
            const dat_file *d = &b->dat[i];
            if (!dat_kind_has_model(d->kind)) continue;
            unsigned before = cov.scale_clips;
            clips += d->kind == DAT_MONSTER ? d->clips : 0;
            for (uint32_t c = 0; c < d->clips; c++) {
                unsigned n = dat_clip_frames(d, c);
                walk_clip(d, c, &cov);
                if (d->kind != DAT_MONSTER) continue;
                total_frames += n;
                cr_assert(nf < 4096);
                frames[nf++] = n;
                over128 += n > 128;
            }
            scale_files += cov.scale_clips > before;
            if (d->kind != DAT_MONSTER) continue;
            monsters++;
            bones[nb] = d->bones;
            nclips[nb++] = d->clips;
        }
        unsigned med, p90;
        /* 143 monster models, c0m127 and the cast's 46 files. */
        cr_assert_eq(b->n, 190, "files");
        cr_assert_eq(monsters, 143, "monster models");
        IN_RANGE(clips, 2900, 3300, "monster clips");
        IN_RANGE(total_frames, 50000, 60000, "monster frames");
        IN_RANGE(scale_files, 20, 24, "scale-path files");
        IN_RANGE(cov.scale_clips, 240, 280, "scale-path clips");
        stats(bones, nb, &med, &p90);
        cr_assert(bones[0] == 1 && bones[nb - 1] >= 70 && bones[nb - 1] <= 71, "bones %u..%u",
                  bones[0], bones[nb - 1]);
        IN_RANGE(med, 25, 35, "median bones");
        stats(nclips, nb, &med, &p90);
        cr_assert(nclips[0] == 1 && nclips[nb - 1] == 50, "clips per file %u..%u", nclips[0],
                  nclips[nb - 1]);
        IN_RANGE(med, 18, 26, "median clips per file");
        stats(frames, nf, &med, &p90);
        cr_assert(frames[0] == 1 && frames[nf - 1] == 140, "frames %u..%u", frames[0],
                  frames[nf - 1]);
        IN_RANGE(med, 12, 18, "median frames per clip");
        IN_RANGE(p90, 30, 42, "90th percentile of frames per clip");
        cr_assert_eq(over128, 2, "clips above 128 frames");
        ct_free_built(b);
    }
}

/* Key of a clip: SHA-256 of the skeleton and of every byte from the clip on. */
static void clip_key(const dat_file *d, uint32_t c, unsigned char key[32])
{
    uint32_t off;
    ff_error err;
    TS_OK(dat_clip_offset(d, c, &off, &err), &err);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned len = 0;
    cr_assert(ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL));
    cr_assert(EVP_DigestUpdate(ctx, d->data + d->skel_off, d->skel_size));
    cr_assert(EVP_DigestUpdate(ctx, d->data + off, d->size - off));
    cr_assert(EVP_DigestFinal_ex(ctx, key, &len) && len == 32);
    EVP_MD_CTX_free(ctx);
}

static int cmp_key(const void *a, const void *b)
{
    return memcmp(a, b, 32);
}

/* Clips of files of the kinds in mask equal (same skeleton, stream and
 * following bytes) to another one. */
static unsigned duplicate_clips(const ct_built *b, unsigned mask, unsigned *total)
{
    unsigned char(*keys)[32] = malloc(8192 * 32);
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++)
        for (uint32_t c = 0; dat_kind_has_model(b->dat[i].kind) && (mask >> b->dat[i].kind & 1) &&
                             c < b->dat[i].clips;
             c++) {
            cr_assert(n < 8192);
            clip_key(&b->dat[i], c, keys[n++]);
        }
    qsort(keys, n, 32, cmp_key);
    unsigned dups = 0;
    for (size_t i = 1; i < n; i++)
        dups += !memcmp(keys[i], keys[i - 1], 32);
    free(keys);
    *total = (unsigned)n;
    return dups;
}

Test(synth, duplicates_like_the_game)
{
    ct_built *b = ct_build_preset(SYNTH_VANILLA, 4);
    unsigned total, dups = duplicate_clips(b, 1u << DAT_MONSTER, &total);
    cr_assert(dups * 100 >= total * 10 && dups * 100 <= total * 15,
              "%u of %u monster clips are copies (want 10-15%%)", dups, total);
    cr_assert_eq(dups, b->sum.dup_clips, "summary says %u copies", b->sum.dup_clips);
    unsigned all;
    cr_assert_eq(duplicate_clips(b, ~0u, &all), dups, "a character clip copies another");
    ct_free_built(b);
    b = ct_build_preset(SYNTH_SMALL, 4);
    dups = duplicate_clips(b, ~0u, &total);
    long c2 = ct_find(b, "c0m002.dat");
    cr_assert(c2 >= 0);
    cr_assert_eq(dups, b->dat[c2].clips, "small: c0m003 copies every clip of c0m002");
    ct_free_built(b);
}

Test(synth, summary_matches_the_files)
{
    for (int preset = 0; preset < SYNTH__PRESET_COUNT; preset++) {
        ct_built *b = ct_build_preset((synth_preset)preset, 9);
        unsigned clips = 0, max_bones = 0, long_clips = 0, by_kind[DAT__KIND_COUNT] = {0};
        unsigned long long frames = 0;
        for (size_t i = 0; i < b->n; i++) {
            const dat_file *d = &b->dat[i];
            by_kind[d->kind]++;
            if (!dat_kind_has_model(d->kind)) continue;
            clips += d->clips;
            if (d->bones > max_bones) max_bones = d->bones;
            for (uint32_t c = 0; c < d->clips; c++) {
                frames += dat_clip_frames(d, c);
                long_clips += dat_clip_frames(d, c) > 128;
            }
        }
        const synth_summary *s = &b->sum;
        const char *name = synth_preset_name(preset);
        cr_assert_eq(s->files, b->n, "%s files", name);
        cr_assert_eq(s->clips, clips, "%s clips", name);
        cr_assert_eq(s->frames, frames, "%s frames", name);
        cr_assert_eq(s->max_bones, max_bones, "%s max bones", name);
        cr_assert_eq(s->long_clips, long_clips, "%s long clips", name);
        for (int k = 0; k < DAT__KIND_COUNT; k++)
            cr_assert_eq(s->by_kind[k], by_kind[k], "%s %s files", name, dat_kind_name(k));
        ct_free_built(b);
    }
}

Test(synth, write_creates_the_folder_and_matches_memory)
{
    char *dir = ts_tempdir();
    char *out = ts_path(dir, "a/b/corpus");
    synth_summary sum;
    ff_error err;
    TS_OK(synth_write(out, SYNTH_SMALL, 17, &sum, &err), &err);
    ct_built *b = ct_build_preset(SYNTH_SMALL, 17);
    cr_assert_eq(sum.files, b->n);
    for (size_t i = 0; i < b->n; i++) {
        char *p = ts_path(out, b->name[i]);
        FILE *f = fopen(p, "rb");
        cr_assert(f, "%s missing", p);
        uint8_t *buf = malloc(b->size[i] + 1);
        size_t got = fread(buf, 1, b->size[i] + 1, f);
        fclose(f);
        cr_assert_eq(got, b->size[i], "%s size", b->name[i]);
        ts_assert_mem(buf, b->data[i], got, b->name[i]);
        free(buf);
        free(p);
    }
    /* Writing again over the same folder gives the same files. */
    TS_OK(synth_write(out, SYNTH_SMALL, 17, &sum, &err), &err);
    ct_free_built(b);
    free(out);
    ts_rmtree(dir);
}

Test(synth, bad_recipes_are_errors)
{
    synth_clip_spec zero = {0, 0, SYNTH_CLIP_RANDOM};
    synth_file_spec spec = {.kind = DAT_MONSTER, .bones = 0, .nclips = 1};
    uint8_t *data = NULL;
    size_t size;
    ff_error err;
    cr_assert_eq(synth_build_file(&spec, &data, &size, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE, "0 bones");
    spec.bones = 3;
    spec.clip = &zero;
    cr_assert_eq(synth_build_file(&spec, &data, &size, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE, "0-frame clip");
    cr_assert_null(data);
    synth_plan *p = NULL;
    cr_assert_eq(synth_plan_make((synth_preset)7, 1, &p, &err), -1);
    cr_assert_eq(synth_preset_from_name("vanilla"), SYNTH_VANILLA);
    cr_assert_eq(synth_preset_from_name("huge"), -1);
}

Test(synth, recipe_builds_a_parsable_file)
{
    synth_clip_spec clips[3] = {
        {5, 1, SYNTH_CLIP_RANDOM}, {0, 0, SYNTH_CLIP_WRAP}, {0, 0, SYNTH_CLIP_EXTREMES}};
    synth_file_spec spec = {.kind = DAT_WEAPON, .seed = 3, .bones = 2, .nclips = 3, .clip = clips};
    uint8_t *data;
    size_t size;
    ff_error err;
    TS_OK(synth_build_file(&spec, &data, &size, &err), &err);
    dat_file d;
    TS_OK(dat_parse(data, size, "w.dat", &d, &err), &err);
    cr_assert_eq(d.kind, DAT_WEAPON);
    cr_assert_eq(d.bones, 2);
    cr_assert_eq(d.clips, 3);
    cr_assert_eq(dat_clip_frames(&d, 0), 5);
    cr_assert_eq(dat_clip_frames(&d, 1), SYNTH_WRAP_FRAMES);
    cr_assert_eq(dat_clip_frames(&d, 2), SYNTH_EXTREMES_FRAMES);
    coverage cov;
    memset(&cov, 0, sizeof cov);
    cr_assert_eq(walk_clip(&d, 0, &cov), 1, "a scale clip has a mode-1 frame");
    cr_assert_eq(walk_clip(&d, 1, &cov), 0, "the wrap clip stays in mode 0");
    cr_assert(cov.root_up && cov.root_down && cov.rot_up && cov.rot_down);
    free(data);
}
