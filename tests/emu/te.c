/*
 * tests/emu/te.c: helpers shared by the emu suites (see te.h).
 */
#include "common/le.h"
#include "emu/profiles/profile_builtin.h"
#include "tests/emu/te.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *te_standin_path(const char *name)
{
    static char path[4][1024];
    static unsigned next;
    char *p = path[next++ % 4], *s = ts_standin(name);
    snprintf(p, sizeof path[0], "%s", s);
    free(s);
    return p;
}

void te_standin_profile(emu_profile *p)
{
    ff_error err;
    TS_OK(profile_builtin_by_name("standin", p, &err), &err);
}

emu_image *te_standin_image(const char *name)
{
    emu_profile p;
    te_standin_profile(&p);
    emu_image *img;
    ff_error err;
    char warn[512];
    TS_OK(emu_image_load(te_standin_path(name), &p, &img, warn, sizeof warn, &err), &err);
    return img;
}

emu *te_engine(const emu_image *img, uint64_t budget)
{
    return te_engine_on(img, budget, ts_engine());
}

emu *te_engine_on(const emu_image *img, uint64_t budget, const emu_ops *ops)
{
    emu_config cfg = {emu_image_pe(img), emu_image_layout(img), emu_image_profile(img), budget,
                      ops};
    emu *e;
    ff_error err;
    TS_OK(emu_open(&cfg, &e, &err), &err);
    return e;
}

uint32_t te_routine(const emu_profile *p, const char *name)
{
    const profile_routine *r = profile_find_routine(p, name);
    cr_assert(r, "profile %s has no routine %s", p->name, name);
    return r->address;
}

void te_put(te_bits *b, uint32_t v, int n)
{
    for (int i = 0; i < n; i++, b->bits++) {
        cr_assert(b->bits < sizeof b->buf * 8);
        if (v >> i & 1) b->buf[b->bits / 8] |= (uint8_t)(1u << (b->bits % 8));
    }
}

size_t te_bytes(const te_bits *b)
{
    return (b->bits + 7) / 8;
}

static int fits(int v, int w)
{
    return v >= -(1 << (w - 1)) && v < (1 << (w - 1));
}

void te_pos(te_bits *b, int v)
{
    static const int widths[4] = {3, 6, 9, 16};
    for (int t = 0; t < 4; t++)
        if (fits(v, widths[t])) {
            te_put(b, (uint32_t)t, 2);
            te_put(b, (uint32_t)v, widths[t]);
            return;
        }
    cr_assert_fail("position %d does not fit", v);
}

void te_rot(te_bits *b, int v)
{
    static const int widths[4] = {3, 6, 8, 12};
    if (v == 0) {
        te_put(b, 0, 1);
        return;
    }
    for (int t = 0; t < 4; t++)
        if (fits(v, widths[t])) {
            te_put(b, 1, 1);
            te_put(b, (uint32_t)t, 2);
            te_put(b, (uint32_t)v, widths[t]);
            return;
        }
    cr_assert_fail("rotation %d does not fit", v);
}

void te_scale(te_bits *b, int v)
{
    if (v == 1024) {
        te_put(b, 0, 1);
        return;
    }
    te_put(b, 1, 1);
    te_put(b, (uint32_t)(v - 1024), 16);
}

const int te_clip0_frames[2][9] = {
    {4, -3, 0, 10, 0, -7, 0, 100, 2},
    {5, -3, 2, -6, 3, 0, 7, 0, -1},
};
const unsigned te_clip0_bits[2] = {56, 51};

void te_make_file(te_file *f, unsigned nclips, const uint8_t *frames)
{
    memset(f, 0, sizeof *f);
    uint8_t *sk = f->data + TE_SKEL_OFF;
    static const int rot[2][3] = {{100, 200, 300}, {-5, 6, -7}};
    sk[0] = 2;
    for (int b = 0; b < 2; b++) {
        uint8_t *bone = sk + 16 + 48 * b;
        le_put16(bone, b == 0 ? -1 : 0);
        le_put16(bone + 2, 50);
        for (int k = 0; k < 3; k++) {
            le_put16(bone + 4 + 2 * k, rot[b][k]);
            le_put16(bone + 10 + 2 * k, 1024);
        }
    }
    te_bits bits;
    memset(&bits, 0, sizeof bits);
    for (int fr = 0; fr < 2; fr++) {
        const int *d = te_clip0_frames[fr];
        size_t before = bits.bits;
        te_pos(&bits, d[0]);
        te_pos(&bits, d[1]);
        te_pos(&bits, d[2]);
        te_put(&bits, 0, 1); /* mode bit: no scales */
        for (int k = 3; k < 9; k++)
            te_rot(&bits, d[k]);
        cr_assert_eq(bits.bits - before, te_clip0_bits[fr], "frame %d takes %zu bits", fr,
                     bits.bits - before);
    }
    size_t stream = te_bytes(&bits);
    uint8_t *anim = f->data + TE_ANIM_OFF;
    le_put32(anim, nclips);
    uint32_t off = 4 + 4 * nclips;
    for (unsigned c = 0; c < nclips; c++) {
        le_put32(anim + 4 + 4 * c, off);
        f->clip_off[c] = TE_ANIM_OFF + off;
        anim[off] = c == 0 ? 2 : frames[c];
        memcpy(anim + off + 1, bits.buf, stream);
        off += 1 + (uint32_t)stream;
    }
    f->size = TE_ANIM_OFF + off + 3; /* three trailing zero bytes */
}

void te_make_skeleton(te_file *f, int flags, int model_scale, const int root[3],
                      const te_bone *bones, unsigned n)
{
    cr_assert(n <= 80);
    memset(f, 0, sizeof *f);
    uint8_t *sk = f->data + TE_SKEL_OFF;
    sk[0] = (uint8_t)n;
    sk[1] = (uint8_t)flags;
    le_put16(sk + 2, (uint16_t)model_scale);
    for (int k = 0; k < 3; k++)
        le_put16(sk + 8 + 2 * k, (uint16_t)root[k]);
    for (unsigned b = 0; b < n; b++) {
        uint8_t *bone = sk + 16 + 48 * b;
        le_put16(bone, (uint16_t)bones[b].parent);
        le_put16(bone + 2, (uint16_t)bones[b].size);
        for (int k = 0; k < 3; k++) {
            le_put16(bone + 4 + 2 * k, (uint16_t)bones[b].rot[k]);
            le_put16(bone + 10 + 2 * k, (uint16_t)bones[b].scale[k]);
        }
    }
    /* skeleton | 16 geometry bytes | animation section: count 0 */
    f->size = 16 + 48 * (size_t)n + 16 + 4;
}

emu_game *te_game(emu_image *img, int keep, const te_file *f)
{
    emu_game_opts o = {keep, 0, ts_engine()};
    emu_game *g;
    ff_error err;
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    te_load(g, f);
    return g;
}

void te_load(emu_game *g, const te_file *f)
{
    ff_error err;
    uint32_t geom = (uint32_t)f->size - 20;
    TS_OK(emu_game_load_file(g, f->data, f->size, TE_SKEL_OFF, geom, geom + 16, &err), &err);
}

void te_expect_matrix(const emu_matrix *got, const int m[9], const int t[3], const char *what,
                      int index)
{
    for (int k = 0; k < 9; k++)
        cr_expect_eq(got->m[k / 3][k % 3], m[k], "%s %d: m[%d][%d] is %d, expected %d", what, index,
                     k / 3, k % 3, got->m[k / 3][k % 3], m[k]);
    for (int k = 0; k < 3; k++)
        cr_expect_eq(got->t[k], t[k], "%s %d: t[%d] is %d, expected %d", what, index, k,
                     (int)got->t[k], t[k]);
}
