/*
 * tests/ref/test_ref_readlog.c: the read log (ref/readlog.h). A frame
 * packed by hand, with every record it must produce written out here from
 * the bit layout (reader at depth 0 before its bitReader calls at depth 1,
 * type and presence bits as bitReader returns them: sign-extended); the
 * log's capacity; and, over random streams in every mode, a decoder with
 * a log attached leaves exactly the state and errors of one without.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "ref/engine.h"
#include "ref/readlog.h"
#include "tests/ref/tb.h"

/* The records a stream must produce, built beside the bits that encode it. */
typedef struct xlog {
    ref_read r[64];
    int n;
    int64_t bits; /* bits from the clip's first byte (the frame byte is 8) */
} xlog;

static int32_t sext(uint32_t v, int n)
{
    v &= (1u << n) - 1u;
    return (v & (1u << (n - 1))) ? (int32_t)v - (int32_t)(1u << n) : (int32_t)v;
}

static ref_read *x_open(xlog *x, ref_routine r, int depth, int n)
{
    ref_read *e = &x->r[x->n++];
    memset(e, 0, sizeof *e);
    e->routine = (uint8_t)r;
    e->depth = (uint8_t)depth;
    e->n = (int16_t)n;
    e->pos = x->bits / 8;
    e->bit = (int32_t)(x->bits % 8);
    return e;
}

static void x_close(xlog *x, ref_read *e, int32_t value)
{
    e->value = (int16_t)value;
    e->pos_after = x->bits / 8;
    e->bit_after = (int32_t)(x->bits % 8);
}

static void x_bits(xlog *x, tb_bits *b, int n, uint32_t raw, int depth)
{
    ref_read *e = x_open(x, REF_R_BITREADER, depth, n);
    tb_put(b, raw, n);
    x->bits += n;
    x_close(x, e, sext(raw, n));
}

static void x_pos(xlog *x, tb_bits *b, int type, int32_t v)
{
    static const int w[4] = {3, 6, 9, 16};
    ref_read *e = x_open(x, REF_R_POSITION, 0, 0);
    x_bits(x, b, 2, (uint32_t)type, 1);
    x_bits(x, b, w[type], (uint32_t)v, 1);
    x_close(x, e, v);
}

static void x_rot(xlog *x, tb_bits *b, int type, int32_t v)
{
    static const int w[4] = {3, 6, 8, 12};
    ref_read *e = x_open(x, REF_R_ROTATION, 0, 0);
    x_bits(x, b, 1, type < 0 ? 0 : 1, 1);
    if (type >= 0) {
        x_bits(x, b, 2, (uint32_t)type, 1);
        x_bits(x, b, w[type], (uint32_t)v, 1);
    }
    x_close(x, e, type < 0 ? 0 : v);
}

static void x_scale(xlog *x, tb_bits *b, int present, uint16_t payload)
{
    ref_read *e = x_open(x, REF_R_SCALE, 0, 0);
    x_bits(x, b, 1, (uint32_t)present, 1);
    if (present) x_bits(x, b, 16, payload, 1);
    x_close(x, e, present ? (int16_t)(uint16_t)(payload + 1024) : 1024);
}

static void expect_reads(const ref_read_log *log, const xlog *x)
{
    cr_assert_eq(log->n, (size_t)x->n, "%zu records, expected %d", log->n, x->n);
    cr_assert_eq(log->total, log->n);
    for (int i = 0; i < x->n; i++) {
        const ref_read *g = &log->reads[i], *w = &x->r[i];
        cr_assert(g->routine == w->routine && g->depth == w->depth && g->n == w->n,
                  "read %d: %s depth %d n %d, expected %s depth %d n %d", i,
                  ref_routine_name(g->routine), g->depth, g->n, ref_routine_name(w->routine),
                  w->depth, w->n);
        cr_assert(g->value == w->value, "read %d (%s): value %d, expected %d", i,
                  ref_routine_name(w->routine), g->value, w->value);
        cr_assert(g->pos == w->pos && g->bit == w->bit && g->pos_after == w->pos_after &&
                      g->bit_after == w->bit_after,
                  "read %d (%s): cursor %lld.%d -> %lld.%d, expected %lld.%d -> %lld.%d", i,
                  ref_routine_name(w->routine), (long long)g->pos, g->bit,
                  (long long)g->pos_after, g->bit_after, (long long)w->pos, w->bit,
                  (long long)w->pos_after, w->bit_after);
    }
}

/*
 * One bone, one frame on the scale path: positions of types 0, 1 and 3,
 * the mode bit 1, rotations absent, type 2 and type 3 (negative), scales
 * absent, present (payload 976: 2000) and 0x7C00 (stored as -32768).
 */
Test(readlog, a_frame_by_hand)
{
    tb_bits b;
    tb_bits_init(&b);
    xlog x = {.bits = 8};
    tb_put(&b, 1, 8); /* frame count */
    x_pos(&x, &b, 0, -3);
    x_pos(&x, &b, 1, 20);
    x_pos(&x, &b, 3, -1000);
    x_bits(&x, &b, 1, 1, 0); /* the mode bit, read by Battle_ReadAnimation itself */
    x_rot(&x, &b, -1, 0);
    x_rot(&x, &b, 2, 100);
    x_rot(&x, &b, 3, -2000);
    x_scale(&x, &b, 0, 0);
    x_scale(&x, &b, 1, 976);
    x_scale(&x, &b, 1, 0x7C00);
    /* 3 positions x 3 records, the mode bit, 2 + 4 + 4 rotation records, 2 + 3 + 3 scale ones. */
    cr_assert_eq(x.n, 9 + 1 + 10 + 8);
    uint8_t skel[16 + 48];
    tb_skel(skel, 1, 0);
    tb_bits *clips[1] = {&b};
    static const uint8_t tail[8] = {0};
    tb_fix fx;
    tb_load(&fx, skel, sizeof skel, clips, 1, tail, sizeof tail);
    ref_read reads[64];
    ref_read_log log;
    ref_read_log_init(&log, reads, 64);
    fx.a.log = &log;
    cr_assert_eq(tb_start(&fx, 0), 0);
    expect_reads(&log, &x);
    uint32_t start = 0;
    cr_assert_eq(dat_clip_offset(&fx.dat, 0, &start, NULL), 0);
    cr_assert_eq(log.base, (int64_t)start, "base %lld, clip at %u", (long long)log.base, start);
    cr_assert_eq(tb_get_scale(&fx, 0, 1), 2000);
    cr_assert_eq(tb_get_scale(&fx, 0, 2), -32768);
    /* The next call returns 1 and reads nothing. */
    ref_read_log_clear(&log);
    cr_assert_eq(tb_tick(&fx), 1);
    cr_assert_eq(log.n, 0u);
    cr_assert_eq(log.total, 0u);
    tb_fix_free(&fx);
}

/* A log shorter than the call's reads keeps the first ones and counts all. */
Test(readlog, a_short_log_counts_what_it_drops)
{
    tb_bits b;
    tb_bits_init(&b);
    xlog x = {.bits = 8};
    tb_put(&b, 1, 8);
    for (int k = 0; k < 3; k++) x_pos(&x, &b, 1, 10 + k);
    x_bits(&x, &b, 1, 0, 0);
    x_rot(&x, &b, 0, 3);
    x_rot(&x, &b, 0, -4);
    x_rot(&x, &b, -1, 0);
    uint8_t skel[16 + 48];
    tb_skel(skel, 1, 0);
    tb_bits *clips[1] = {&b};
    static const uint8_t tail[8] = {0};
    tb_fix fx;
    tb_load(&fx, skel, sizeof skel, clips, 1, tail, sizeof tail);
    ref_read reads[5];
    ref_read_log log;
    ref_read_log_init(&log, reads, 5);
    fx.a.log = &log;
    cr_assert_eq(tb_start(&fx, 0), 0);
    cr_assert_eq(log.n, 5u);
    cr_assert_eq(log.total, (size_t)x.n, "total %zu, expected %d", log.total, x.n);
    for (int i = 0; i < 5; i++)
        cr_assert(reads[i].routine == x.r[i].routine && reads[i].value == x.r[i].value,
                  "read %d", i);
    tb_fix_free(&fx);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint8_t next_byte(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint8_t)(rng_state >> 24);
}

/*
 * Decodes clip 0 of fx in mode flags, with or without a log, into states:
 * per tick the skeleton, the AnimCmd and the stream's high-water mark.
 */
static int decode(tb_fix *fx, uint8_t flags, ref_read_log *log, uint8_t *states, size_t per,
                  int *ticks, char *errtext)
{
    size_t skel = per - 16;
    fx->a.log = log;
    fx->a.stream.high = 0;
    ref_anim_reset_skeleton(&fx->a);
    memset(&fx->a.cmd, 0, sizeof fx->a.cmd);
    fx->a.cmd.flags = flags;
    ff_error err;
    int ret = 0, rc = ref_start_clip(&fx->a, 0, &ret, &err);
    *ticks = 0;
    while (rc == 0 && *ticks < 64) {
        uint8_t *st = states + per * (size_t)*ticks;
        uint64_t high = fx->a.stream.high;
        memcpy(st, fx->skel, skel);
        memcpy(st + skel, &fx->a.cmd, 8);
        memcpy(st + skel + 8, &high, 8);
        (*ticks)++;
        if (ret == 1) break;
        if (log) ref_read_log_clear(log);
        rc = ref_read_animation(&fx->a, &ret, &err);
    }
    errtext[0] = '\0';
    if (rc < 0) ff_error_format(&err, errtext, 512);
    return rc;
}

/*
 * Random streams (any bytes decode), every mode, 1 to 40 bones: the same
 * states, high-water marks and errors with a log (one reader call per field)
 * as without (frames far from the end of the file decoded without a check
 * per value, the last ones value by value).
 */
Test(readlog, logging_changes_nothing)
{
    enum { MAXB = 40, STREAM = 1200, PER = 16 + 48 * MAXB + 16 };
    static uint8_t with[64 * PER], without[64 * PER];
    unsigned errors = 0, rounds = 0;
    for (int round = 0; round < 400; round++, rounds++) {
        unsigned bones = round < 300 ? 3u : 1u + (unsigned)round % MAXB;
        size_t per = 16 + 48 * (size_t)bones + 16;
        tb_bits b;
        tb_bits_init(&b);
        tb_put(&b, 1 + round % 9, 8);
        int len = round < 300 ? 120 : STREAM;
        for (int i = 0; i < len; i++) tb_put(&b, next_byte(), 8);
        uint8_t skel[16 + 48 * MAXB];
        tb_skel(skel, bones, (uint8_t)(round & 1));
        tb_bits *clips[1] = {&b};
        /* round % 3 == 0: no tail, so long frames run past the end of the file */
        uint8_t tail[4] = {next_byte(), next_byte(), next_byte(), next_byte()};
        tb_fix fx;
        tb_load(&fx, skel, 16 + 48 * (size_t)bones, clips, 1, tail, round % 3 ? sizeof tail : 0);
        for (uint8_t flags = 0; flags < 4; flags++) {
            static ref_read reads[8192];
            ref_read_log log;
            ref_read_log_init(&log, reads, 8192);
            char e1[512], e2[512];
            int t1, t2;
            int r1 = decode(&fx, flags, &log, with, per, &t1, e1);
            int r2 = decode(&fx, flags, NULL, without, per, &t2, e2);
            cr_assert_eq(r1, r2, "round %d flags %u: %d vs %d (%s / %s)", round, flags, r1, r2,
                         e1, e2);
            cr_assert_str_eq(e1, e2, "round %d flags %u", round, flags);
            cr_assert_eq(t1, t2, "round %d flags %u: %d vs %d ticks", round, flags, t1, t2);
            ts_assert_mem(with, without, (size_t)t1 * per, "states with and without a log");
            errors += r1 < 0;
        }
        tb_fix_free(&fx);
    }
    cr_assert(errors > 10 && errors < 4 * rounds, "%u decodes ran past the end of the file",
              errors);
}

/*
 * Every row of REF_ROUTINE_MAP has a name of its own and a reader: called
 * through ref_read_routine, each gives what calling it by name gives.
 */
Test(readlog, every_routine_named_and_dispatched)
{
    const uint8_t bytes[8] = {0xB5, 0x3C, 0xE1, 0x07, 0x9A, 0x42, 0xFF, 0x10};
    for (int r = 0; r < REF_R__COUNT; r++) {
        const char *name = ref_routine_name((ref_routine)r);
        cr_assert_str_neq(name, "?", "routine %d", r);
        for (int q = 0; q < r; q++)
            cr_assert_str_neq(name, ref_routine_name((ref_routine)q), "routines %d and %d", q, r);
        ref_stream s1 = {bytes, sizeof bytes, "a", 0}, s2 = s1;
        ref_cursor c1 = {1, 3}, c2 = c1;
        int16_t v1 = 0, v2 = 0;
        ff_error err;
        int rc = -1;
        switch ((ref_routine)r) {
        case REF_R_BITREADER:
            rc = ref_bits_read(&s1, &c1, 11, &v1, &err);
            break;
        case REF_R_POSITION:
            rc = ref_read_position(&s1, &c1, &v1, &err);
            break;
        case REF_R_ROTATION:
            rc = ref_read_rotation(&s1, &c1, &v1, &err);
            break;
        case REF_R_SCALE:
            rc = ref_read_scale(&s1, &c1, &v1, &err);
            break;
        case REF_R__COUNT:
            break;
        }
        cr_assert_eq(rc, 0, "%s: %s", name, err.reason);
        cr_assert_eq(ref_read_routine((ref_routine)r, &s2, &c2, 11, &v2, &err), 0, "%s: %s", name,
                     err.reason);
        cr_assert_eq(v2, v1, "%s", name);
        cr_assert_eq(c2.pos, c1.pos, "%s", name);
        cr_assert_eq(c2.bit, c1.bit, "%s", name);
    }
    cr_assert_str_eq(ref_routine_name(REF_R__COUNT), "?");
    ref_stream s = {bytes, sizeof bytes, "a", 0};
    ref_cursor c = {0, 0};
    int16_t v = 0;
    ff_error err;
    cr_assert_eq(ref_read_routine(REF_R__COUNT, &s, &c, 1, &v, &err), -1);
    cr_assert_eq(err.kind, FF_E_INTERNAL);
    cr_assert_eq(c.pos, 0);
    cr_assert_eq(c.bit, 0);
}
