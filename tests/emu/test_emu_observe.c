/*
 * tests/emu/test_emu_observe.c: watching the original (emu/engine/observe.h).
 * Basic blocks of hand-assembled code (worked out by hand from the bytes),
 * the stand-in's blocks against its symbol table, the read log of a replayed
 * call of the hand-made clip (every record worked out from the clip's
 * values and their narrowest encodings), and coverage of a call.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/engine/observe.h"
#include "tests/emu/te.h"

/* ---- blocks of hand-assembled code ---- */

static void mark(void *arg, unsigned i)
{
    ((uint8_t *)arg)[i] = 1;
}

/*
 * A one-section image at 0x400000 with two routines:
 *   0x401000 f:  test eax,eax        85 C0
 *   0x401002     je 0x401007         74 03
 *   0x401004     inc eax             40
 *   0x401005     jmp 0x401008        EB 01
 *   0x401007     dec eax             48
 *   0x401008     call 0x401020       E8 13 00 00 00
 *   0x40100D     jne 0x401000        75 F1
 *   0x40100F     ret                 C3
 *   0x401020 g:  jmp 0x401000        EB DE   (into f: a tail call, no block of g's)
 * f's blocks: [1000,1004) entry; [1004,1007) after je; [1007,1008) je taken;
 * [1008,100D) jmp target, ends with the call; [100D,100F) after the call;
 * [100F,1010) after jne. g: [1020,1022).
 */
static const uint8_t code[] = {0x85, 0xC0, 0x74, 0x03, 0x40, 0xEB, 0x01, 0x48,
                               0xE8, 0x13, 0x00, 0x00, 0x00, 0x75, 0xF1, 0xC3};

static void hand_image(pe_image *pe, uint8_t *img, emu_profile *p)
{
    memset(pe, 0, sizeof *pe);
    pe->image_base = 0x400000;
    pe->size_of_image = 0x2000;
    pe->nsections = 1;
    snprintf(pe->sections[0].name, sizeof pe->sections[0].name, ".text");
    pe->sections[0].rva = 0x1000;
    pe->sections[0].vsize = 0x1000;
    pe->sections[0].characteristics = PE_SCN_CNT_CODE | PE_SCN_MEM_EXECUTE | PE_SCN_MEM_READ;
    memset(img, 0xCC, 0x2000);
    memcpy(img + 0x1000, code, sizeof code);
    img[0x1020] = 0xEB;
    img[0x1021] = 0xDE;
    memset(p, 0, sizeof *p);
    p->nroutines = 2;
    snprintf(p->routines[0].name, sizeof p->routines[0].name, "f");
    p->routines[0].address = 0x401000;
    snprintf(p->routines[1].name, sizeof p->routines[1].name, "g");
    p->routines[1].address = 0x401020;
}

Test(observe, blocks_of_hand_assembled_code)
{
    pe_image pe;
    static uint8_t img[0x2000];
    emu_profile p;
    hand_image(&pe, img, &p);
    emu_blockmap *m;
    ff_error err;
    TS_OK(emu_blocks_build(&pe, img, &p, 0, &m, &err), &err);
    cr_assert_eq(m->nroutines, 2u);
    static const uint32_t start[6] = {0x401000, 0x401004, 0x401007, 0x401008, 0x40100D, 0x40100F};
    static const uint32_t end[6] = {0x401004, 0x401007, 0x401008, 0x40100D, 0x40100F, 0x401010};
    static const uint16_t insns[6] = {2, 2, 1, 1, 1, 1};
    /* Who leads to each: entry; je not taken; je taken; jmp and dec falling in; after the
     * call; jne not taken. The entry block is also jne's target. */
    static const uint32_t from0[6] = {0, 0x401002, 0x401002, 0x401005, 0x401008, 0x40100D};
    static const uint8_t edge0[6] = {EMU_EDGE_ENTRY, EMU_EDGE_FALL, EMU_EDGE_BRANCH,
                                     EMU_EDGE_JUMP, EMU_EDGE_FALL, EMU_EDGE_FALL};
    const emu_broutine *f = &m->routines[0];
    cr_assert_eq(f->count, 6u, "f has %u blocks", f->count);
    for (unsigned i = 0; i < 6; i++) {
        const emu_bblock *b = &m->blocks[f->first + i];
        cr_assert(b->start == start[i] && b->end == end[i] && b->insns == insns[i],
                  "block %u: [0x%x, 0x%x) %u insns", i, b->start, b->end, b->insns);
        cr_assert(b->npreds >= 1 && b->preds[0].from == from0[i] && b->preds[0].edge == edge0[i],
                  "block %u: first pred 0x%x edge %d", i, b->preds[0].from, b->preds[0].edge);
        cr_assert_eq(b->ends_ret, i == 5, "block %u ends_ret", i);
    }
    cr_assert_eq(m->blocks[f->first + 0].npreds, 2, "entry and the jne");
    cr_assert_eq(m->blocks[f->first + 0].preds[1].from, 0x40100Du);
    cr_assert_eq(m->blocks[f->first + 3].npreds, 2, "the jmp and the dec falling in");
    cr_assert_eq(m->blocks[f->first + 3].preds[1].from, 0x401007u);
    cr_assert_eq(m->blocks[f->first + 3].last, 0x401008u);
    const emu_broutine *g = &m->routines[1];
    cr_assert_eq(g->count, 1u);
    cr_assert_eq(m->blocks[g->first].end, 0x401022u, "the tail call ends g's one block");
    /* Lookups by executed range: [0x401004, 0x401008) holds the starts of blocks 1 and 2. */
    uint8_t hit[8] = {0};
    cr_assert_eq(emu_blocks_in_range(m, 0x401004, 4, mark, hit), 2u);
    cr_assert(!hit[0] && hit[1] && hit[2] && !hit[3] && !hit[6]);
    char text[256];
    emu_blocks_disasm(m, &pe, img, f->first + 1, text, sizeof text);
    cr_assert_str_eq(text, "0x401004: inc eax\n0x401005: jmp 0x401008\n");
    emu_blocks_free(m);
}

/*
 * A routine with no ret that runs on through padding: its last block ends at the next
 * routine's entry, never inside that routine (h: inc eax, nop, nop; k at h + 3: ret).
 */
Test(observe, a_block_ends_at_the_next_routines_entry)
{
    pe_image pe;
    static uint8_t img[0x2000];
    emu_profile p;
    hand_image(&pe, img, &p);
    static const uint8_t h[] = {0x40, 0x90, 0x90, 0xC3};
    memcpy(img + 0x1030, h, sizeof h);
    p.nroutines = 4;
    snprintf(p.routines[2].name, sizeof p.routines[2].name, "h");
    p.routines[2].address = 0x401030;
    snprintf(p.routines[3].name, sizeof p.routines[3].name, "k");
    p.routines[3].address = 0x401033;
    emu_blockmap *m;
    ff_error err;
    TS_OK(emu_blocks_build(&pe, img, &p, 0, &m, &err), &err);
    const emu_broutine *hr = &m->routines[2], *kr = &m->routines[3];
    cr_assert_eq(hr->count, 1u);
    cr_assert_eq(m->blocks[hr->first].end, 0x401033u, "h's block ends at k's entry");
    cr_assert_eq(m->blocks[hr->first].insns, 3u);
    cr_assert_eq(kr->count, 1u);
    cr_assert_eq(m->blocks[kr->first].start, 0x401033u);
    cr_assert(m->blocks[kr->first].ends_ret);
    emu_blocks_free(m);
}

/* ---- the stand-in's blocks ---- */

/* Address of the symbol after addr in standin.sym (the end of addr's routine). */
static uint32_t next_symbol(uint32_t addr)
{
    size_t size;
    uint8_t *sym = ts_read_all(te_standin_path("standin.sym"), &size);
    uint32_t best = UINT32_MAX;
    char *save, *text = (char *)sym;
    sym = realloc(sym, size + 1);
    text = (char *)sym;
    text[size] = '\0';
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[128];
        unsigned long a;
        if (sscanf(line, "%127s 0x%lx", name, &a) == 2 && a > addr && a < best) best = (uint32_t)a;
    }
    free(sym);
    return best;
}

Test(observe, standin_blocks_lie_in_their_routines)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_blockmap *m;
    ff_error err;
    TS_OK(emu_image_blocks(img, &m, &err), &err);
    cr_assert(m->nroutines >= 12);
    for (unsigned r = 0; r < m->nroutines; r++) {
        const emu_broutine *br = &m->routines[r];
        cr_assert(br->decoded && br->count >= 1 && !br->truncated, "%s", br->name);
        uint32_t lim = next_symbol(br->entry);
        const emu_bblock *b = &m->blocks[br->first];
        cr_assert_eq(b[0].start, br->entry, "%s: first block at the entry", br->name);
        cr_assert_eq(b[0].preds[0].edge, EMU_EDGE_ENTRY, "%s", br->name);
        for (unsigned k = 0; k < br->count; k++) {
            cr_assert(b[k].start < b[k].end && b[k].end <= lim && b[k].last < b[k].end,
                      "%s block %u [0x%x, 0x%x) past 0x%x", br->name, k, b[k].start, b[k].end,
                      lim);
            cr_assert(k == 0 || b[k].start >= b[k - 1].end, "%s: blocks overlap", br->name);
            cr_assert(b[k].npreds >= 1, "%s block 0x%x: no way in", br->name, b[k].start);
            for (unsigned q = 0; q < b[k].npreds; q++) {
                uint32_t from = b[k].preds[q].from;
                cr_assert(b[k].preds[q].edge == EMU_EDGE_ENTRY || (from >= br->entry && from < lim),
                          "%s block 0x%x: pred 0x%x outside", br->name, b[k].start, from);
            }
        }
    }
    /* bitReader's source has neither a branch nor a call: one block, ending in ret. */
    int br = emu_blocks_routine(m, "bitReader");
    cr_assert(br >= 0);
    cr_assert_eq(m->routines[br].count, 1u);
    cr_assert(m->blocks[m->routines[br].first].ends_ret);
    emu_blocks_free(m);
    emu_image_free(img);
}

/* ---- read log of a replayed call ---- */

/* The records of the hand-made clip's frames, built from their values. */
typedef struct xlog {
    ref_read r[128];
    int n;
    int64_t bits; /* from the clip's first byte */
} xlog;

static int fits(int v, int w)
{
    return v >= -(1 << (w - 1)) && v < (1 << (w - 1));
}

static void x_bits(xlog *x, int n, int value, int depth)
{
    ref_read *e = &x->r[x->n++];
    memset(e, 0, sizeof *e);
    e->routine = REF_R_BITREADER;
    e->depth = (uint8_t)depth;
    e->n = (int16_t)n;
    e->value = (int16_t)value;
    e->pos = x->bits / 8;
    e->bit = (int)(x->bits % 8);
    x->bits += n;
    e->pos_after = x->bits / 8;
    e->bit_after = (int)(x->bits % 8);
}

static ref_read *x_open(xlog *x, ref_routine r)
{
    ref_read *e = &x->r[x->n++];
    memset(e, 0, sizeof *e);
    e->routine = (uint8_t)r;
    e->pos = x->bits / 8;
    e->bit = (int)(x->bits % 8);
    return e;
}

static void x_close(xlog *x, ref_read *e, int v)
{
    e->value = (int16_t)v;
    e->pos_after = x->bits / 8;
    e->bit_after = (int)(x->bits % 8);
}

/* bitReader returns a 2-bit type sign-extended: 2 and 3 come back as -2 and -1. */
static int sext2(int t)
{
    return t >= 2 ? t - 4 : t;
}

static void x_frame(xlog *x, const int *d)
{
    static const int pw[4] = {3, 6, 9, 16}, rw[4] = {3, 6, 8, 12};
    for (int k = 0; k < 3; k++) {
        ref_read *e = x_open(x, REF_R_POSITION);
        int t = 0;
        while (!fits(d[k], pw[t])) t++;
        x_bits(x, 2, sext2(t), 1);
        x_bits(x, pw[t], d[k], 1);
        x_close(x, e, d[k]);
    }
    x_bits(x, 1, 0, 0); /* mode bit 0 */
    for (int k = 3; k < 9; k++) {
        ref_read *e = x_open(x, REF_R_ROTATION);
        x_bits(x, 1, d[k] ? -1 : 0, 1);
        if (d[k]) {
            int t = 0;
            while (!fits(d[k], rw[t])) t++;
            x_bits(x, 2, sext2(t), 1);
            x_bits(x, rw[t], d[k], 1);
        }
        x_close(x, e, d[k]);
    }
}

static void expect_log(const ref_read_log *log, const xlog *x, const char *what)
{
    cr_assert_eq(log->n, (size_t)x->n, "%s: %zu reads, expected %d", what, log->n, x->n);
    for (int i = 0; i < x->n; i++) {
        const ref_read *g = &log->reads[i], *w = &x->r[i];
        cr_assert(g->routine == w->routine && g->depth == w->depth && g->n == w->n &&
                      g->value == w->value && g->pos == w->pos && g->bit == w->bit &&
                      g->pos_after == w->pos_after && g->bit_after == w->bit_after,
                  "%s read %d: %s d%d n%d = %d at %lld.%d -> %lld.%d; expected %s d%d n%d = %d at "
                  "%lld.%d -> %lld.%d",
                  what, i, ref_routine_name(g->routine), g->depth, g->n, g->value,
                  (long long)g->pos, g->bit, (long long)g->pos_after, g->bit_after,
                  ref_routine_name(w->routine), w->depth, w->n, w->value, (long long)w->pos,
                  w->bit, (long long)w->pos_after, w->bit_after);
    }
}

/* On Unicorn: read logs and coverage are its hooks (EMU_CAP_READ_LOG, EMU_CAP_COVERAGE). */
static emu_game *game_on(emu_image *img, const te_file *f)
{
    emu_game_opts o = {0, 0, ts_unicorn()};
    emu_game *g;
    ff_error err;
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    TS_OK(emu_game_load_file(g, f->data, f->size, TE_SKEL_OFF, TE_GEOM_OFF, TE_ANIM_OFF, &err),
          &err);
    return g;
}

Test(observe, read_log_of_replayed_calls)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_blockmap *m;
    ff_error err;
    TS_OK(emu_image_blocks(img, &m, &err), &err);
    te_file f;
    te_make_file(&f, 1, NULL);
    emu_game *g = game_on(img, &f);
    static ref_read reads[256];
    ref_read_log log;
    ref_read_log_init(&log, reads, 256);
    emu_fault fault;
    /* Tick 0 (StartClip) decodes frame 0 from byte 1, bit 0; tick 1 frame 1 after it. */
    xlog x = {.bits = 8};
    x_frame(&x, te_clip0_frames[0]);
    TS_OK(emu_game_read_log(g, m, 0, 0, 0, f.clip_off[0], &log, &fault, &err), &err);
    expect_log(&log, &x, "tick 0");
    cr_assert_eq(log.total, log.n);
    xlog y = {.bits = x.bits};
    x_frame(&y, te_clip0_frames[1]);
    TS_OK(emu_game_read_log(g, m, 0, 0, 1, f.clip_off[0], &log, &fault, &err), &err);
    expect_log(&log, &y, "tick 1");
    /* Tick 2 returns 1 at once: no read. Tick 3 does not exist. */
    TS_OK(emu_game_read_log(g, m, 0, 0, 2, f.clip_off[0], &log, &fault, &err), &err);
    cr_assert_eq(log.n, 0u);
    cr_assert_eq(emu_game_read_log(g, m, 0, 0, 3, f.clip_off[0], &log, &fault, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    /* Between read logs the hooks record nothing; after the end they are gone: plain
     * calls decode, the log is untouched, and a new read log arms them again. */
    uint32_t ret;
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
    cr_assert_eq(log.n, 0u);
    emu_game_read_log_end(g);
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
    TE_CALL(emu_game_read_animation(g, &ret, &fault), &fault);
    cr_assert_eq(log.n, 0u);
    TS_OK(emu_game_read_log(g, m, 0, 0, 1, f.clip_off[0], &log, &fault, &err), &err);
    expect_log(&log, &y, "tick 1 again");
    emu_game_read_log_end(g);
    emu_game_close(g);
    emu_blocks_free(m);
    emu_image_free(img);
}

/* ---- coverage ---- */

Test(observe, coverage_of_calls)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_blockmap *m;
    ff_error err;
    TS_OK(emu_image_blocks(img, &m, &err), &err);
    te_file f;
    te_make_file(&f, 1, NULL);
    emu_game *g = game_on(img, &f);
    uint8_t *hits = calloc(m->nblocks, 1);
    TS_OK(emu_game_cover(g, m, hits, &err), &err);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
    /* bitReader ran; no frame of the clip is on the scale path: ReadBoneScale never ran;
     * StartClip's entry block ran. */
    const emu_broutine *bit = &m->routines[emu_blocks_routine(m, "bitReader")];
    const emu_broutine *sc = &m->routines[emu_blocks_routine(m, "ReadBoneScale")];
    const emu_broutine *sk = &m->routines[emu_blocks_routine(m, "StartClip")];
    cr_assert(hits[bit->first]);
    for (unsigned k = 0; k < sc->count; k++) cr_assert(!hits[sc->first + k]);
    cr_assert(hits[sk->first]);
    /* Stopped: further calls mark nothing. */
    TS_OK(emu_game_cover(g, m, NULL, &err), &err);
    memset(hits, 0, m->nblocks);
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
    for (unsigned i = 0; i < m->nblocks; i++) cr_assert(!hits[i], "block %u marked", i);
    free(hits);
    emu_game_close(g);
    emu_blocks_free(m);
    emu_image_free(img);
}
