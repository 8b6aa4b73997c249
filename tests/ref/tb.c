/*
 * tests/ref/tb.c: test builders for the ref suites (see tb.h). Test code
 * only; it deliberately shares no code with ref/encode.c.
 */
#include "common/le.h"
#include "tests/ref/tb.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void tb_bits_init(tb_bits *b)
{
    memset(b, 0, sizeof *b);
}

void tb_put(tb_bits *b, uint32_t v, int n)
{
    cr_assert(b->bits + (size_t)n <= 8 * sizeof b->buf, "tb_bits overflow");
    for (int i = 0; i < n; i++, b->bits++)
        if (v & (1u << i)) b->buf[b->bits / 8] |= (uint8_t)(1u << (b->bits % 8));
}

size_t tb_bytes(const tb_bits *b)
{
    return (b->bits + 7) / 8;
}

void tb_pos(tb_bits *b, int type, int32_t v)
{
    static const int width[4] = {3, 6, 9, 16};
    tb_put(b, (uint32_t)type, 2);
    tb_put(b, (uint32_t)v, width[type]);
}

void tb_rot(tb_bits *b, int type, int32_t v)
{
    static const int width[4] = {3, 6, 8, 12};
    if (type < 0) {
        tb_put(b, 0, 1);
        return;
    }
    tb_put(b, 1, 1);
    tb_put(b, (uint32_t)type, 2);
    tb_put(b, (uint32_t)v, width[type]);
}

void tb_scale_absent(tb_bits *b)
{
    tb_put(b, 0, 1);
}

void tb_scale_payload(tb_bits *b, uint16_t payload)
{
    tb_put(b, 1, 1);
    tb_put(b, payload, 16);
}

size_t tb_skel(uint8_t *out, unsigned bones, uint8_t flags)
{
    size_t n = 16 + 48 * (size_t)bones;
    memset(out, 0, n);
    out[0] = (uint8_t)bones;
    out[1] = flags;
    le_put16(out + 2, 0x1234); /* model scale */
    for (int k = 4; k < 8; k++)
        out[k] = (uint8_t)(0xA0 + k); /* unread */
    le_put16(out + 0xE, 0x5A5A);         /* unread */
    for (unsigned b = 0; b < bones; b++) {
        uint8_t *p = out + 16 + 48 * (size_t)b;
        le_put16(p, (uint16_t)(b == 0 ? 0xFFFF : b - 1)); /* parent */
        le_put16(p + 2, (uint16_t)(100 + b));             /* bone size */
        for (int k = 0; k < 3; k++)
            le_put16(p + 0xA + 2 * k, 1024);
        for (int k = 0x10; k < 48; k++)
            p[k] = (uint8_t)(0xC0 + b + k); /* runtime area */
    }
    return n;
}

uint8_t *tb_root(uint8_t *skel, int k)
{
    return skel + 8 + 2 * k;
}

uint8_t *tb_rotp(uint8_t *skel, unsigned b, int k)
{
    return skel + 16 + 48 * (size_t)b + 4 + 2 * k;
}

uint8_t *tb_scalep(uint8_t *skel, unsigned b, int k)
{
    return skel + 16 + 48 * (size_t)b + 0xA + 2 * k;
}

static size_t header_len(const tb_model *m)
{
    return 4 + 4 * (size_t)m->nsections + 4;
}

static size_t anim_len(const tb_model *m)
{
    size_t n = 4 + 4 * (size_t)m->nclips;
    for (unsigned i = 0; i < m->nclips; i++)
        n += m->clips[i].len;
    return n;
}

size_t tb_clip_abs(const tb_model *m, unsigned i)
{
    size_t at = header_len(m) + m->skel_len + 4 + 4 + 4 * (size_t)m->nclips;
    for (unsigned k = 0; k < i; k++)
        at += m->clips[k].len;
    return at;
}

uint8_t *tb_build(const tb_model *m, size_t *size)
{
    cr_assert(m->nsections >= 4 && m->nsections <= 16, "tb_build: %u sections", m->nsections);
    size_t sec[17];
    sec[0] = header_len(m);
    sec[1] = sec[0] + m->skel_len;
    sec[2] = sec[1] + 4;
    sec[3] = sec[2] + anim_len(m);
    size_t total = sec[3] + m->tail_len;
    for (unsigned i = 4; i <= m->nsections; i++)
        sec[i] = total;
    uint8_t *f = malloc(total);
    cr_assert(f, "tb_build: out of memory");
    le_put32(f, m->nsections);
    for (unsigned i = 0; i <= m->nsections; i++)
        le_put32(f + 4 + 4 * i, (uint32_t)sec[i]);
    memcpy(f + sec[0], m->skel, m->skel_len);
    memset(f + sec[1], 0xEE, 4);
    le_put32(f + sec[2], m->nclips);
    size_t at = 4 + 4 * (size_t)m->nclips;
    for (unsigned i = 0; i < m->nclips; i++) {
        le_put32(f + sec[2] + 4 + 4 * i, (uint32_t)at);
        memcpy(f + sec[2] + at, m->clips[i].data, m->clips[i].len);
        at += m->clips[i].len;
    }
    if (m->tail_len) memcpy(f + sec[3], m->tail, m->tail_len);
    *size = total;
    return f;
}

void tb_fix_load(tb_fix *f, const tb_model *m, const char *name)
{
    ff_error err;
    ff_error_clear(&err);
    f->file = tb_build(m, &f->size);
    TS_OK(dat_parse(f->file, f->size, name, &f->dat, &err), &err);
    TS_OK(ref_anim_init(&f->a, &f->dat, f->skel, sizeof f->skel, &err), &err);
}

void tb_fix_free(tb_fix *f)
{
    free(f->file);
    f->file = NULL;
}

/* ---- engine test shortcuts ---- */

void tb_load(tb_fix *fx, const uint8_t *skel, size_t skel_len, tb_bits *const *clips, unsigned n,
             const uint8_t *tail, size_t tail_len)
{
    tb_clip c[4];
    cr_assert(n <= 4);
    for (unsigned i = 0; i < n; i++)
        c[i] = (tb_clip){clips[i]->buf, tb_bytes(clips[i])};
    tb_model m = {11, skel, skel_len, c, n, tail, tail_len};
    tb_fix_load(fx, &m, "t.dat");
}

int16_t tb_get_root(tb_fix *fx, int k)
{
    return le_s16(tb_root(fx->skel, k));
}

int16_t tb_get_rot(tb_fix *fx, unsigned b, int k)
{
    return le_s16(tb_rotp(fx->skel, b, k));
}

int16_t tb_get_scale(tb_fix *fx, unsigned b, int k)
{
    return le_s16(tb_scalep(fx->skel, b, k));
}

void tb_check_cmd(const ref_animcmd *c, int clip, int flags, int off, int bit, int frame, int total,
                  const char *what)
{
    cr_assert_eq(c->clip, clip, "%s: cmd.clip %d", what, c->clip);
    cr_assert_eq(c->flags, flags, "%s: cmd.flags 0x%02x want 0x%02x", what, c->flags, flags);
    cr_assert_eq(c->off, off, "%s: cmd.off %d want %d", what, c->off, off);
    cr_assert_eq(c->bit, bit, "%s: cmd.bit %d want %d", what, c->bit, bit);
    cr_assert_eq(c->frame, frame, "%s: cmd.frame %d want %d", what, c->frame, frame);
    cr_assert_eq(c->total, total, "%s: cmd.total %d want %d", what, c->total, total);
}

int tb_start(tb_fix *fx, int clip)
{
    int ret = -7;
    ff_error err;
    TS_OK(ref_start_clip(&fx->a, (int16_t)clip, &ret, &err), &err);
    return ret;
}

int tb_tick(tb_fix *fx)
{
    int ret = -7;
    ff_error err;
    TS_OK(ref_read_animation(&fx->a, &ret, &err), &err);
    return ret;
}

/* A frame with zero root deltas (3 x 5 bits), mode 0 and absent rotations. */
void tb_idle_frame(tb_bits *b, unsigned bones)
{
    for (int k = 0; k < 3; k++)
        tb_pos(b, 0, 0);
    tb_put(b, 0, 1);
    for (unsigned i = 0; i < 3 * bones; i++)
        tb_rot(b, -1, 0);
}

void tb_assert_m(const int16_t got[3][3], const int16_t want[3][3], const char *what)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            cr_assert_eq(got[i][j], want[i][j], "%s: m[%d][%d] = %d, want %d", what, i, j,
                         got[i][j], want[i][j]);
}
