/*
 * harness/run/leaf.c: leaf-level cases and their comparison.
 */
#include "harness/run/leaf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "harness/run/context.h"
#include "ref/engine.h"

/* Type-bit prefix lengths of the value readers (bitReader: none), in emu_leaf order. */
static const unsigned prefix_bits[LEAF_ROUTINES] = {
#define LEAF_PREFIX_BITS(id, name) REF_TYPE_BITS_##id,
    REF_ROUTINE_MAP(LEAF_PREFIX_BITS)
#undef LEAF_PREFIX_BITS
};
#define PAYLOADS 32

const char *leaf_routine_name(emu_leaf r)
{
    return ref_routine_name((ref_routine)r);
}

uint64_t leaf_case_count(emu_leaf r, uint64_t bitreader_calls)
{
    if (r == EMU_LEAF_BITREADER) return bitreader_calls;
    return 8u * (1u << prefix_bits[r]) * PAYLOADS;
}

/* Bit patterns at the edges: zeros, ones, alternations, sign extremes of every width. */
static uint64_t edge(unsigned i)
{
    static const uint64_t fixed[] = {0, ~0ull, 0x5555555555555555ull, 0xAAAAAAAAAAAAAAAAull};
    static const unsigned widths[] = {3, 6, 8, 9, 12, 16};
    unsigned nf = sizeof fixed / sizeof fixed[0];
    if (i < nf) return fixed[i];
    i -= nf;
    unsigned w = widths[(i / 2) % 6];
    uint64_t top = 1ull << (w - 1);
    /* most negative / most positive value of width w, rest ones or zeros */
    return (i & 1) ? top - 1 : (top | (~0ull << w));
}
#define EDGES 16

void leaf_case_make(emu_leaf r, uint64_t seed, uint64_t index, leaf_case *c)
{
    memset(c, 0, sizeof *c);
    c->index = index;
    uint64_t rnd = rng_mix(seed ^ rng_mix(index * 4 + (uint64_t)r));
    uint64_t v;
    if (r == EMU_LEAF_BITREADER) {
        c->n = (int16_t)(1 + index % 16);
        c->bit = (int32_t)((index / 16) % 8);
        uint64_t pat = index / 128;
        v = (pat % 4 == 0) ? edge((unsigned)((pat / 4) % EDGES)) : rng_mix(rnd);
        /* Edge payloads start at the cursor; what lies before it is random. */
        if (pat % 4 == 0) v = (v << c->bit) | (rnd & ((1ull << c->bit) - 1));
    } else {
        unsigned pb = prefix_bits[r];
        uint64_t payload_i = index % PAYLOADS;
        uint64_t prefix = (index / PAYLOADS) % (1u << pb);
        c->bit = (int32_t)((index / PAYLOADS / (1u << pb)) % 8);
        c->n = 0;
        uint64_t payload = payload_i < EDGES ? edge((unsigned)payload_i) : rng_mix(rnd);
        v = (rnd & ((1ull << c->bit) - 1)) | (prefix << c->bit) | (payload << (c->bit + pb));
    }
    for (int i = 0; i < 8; i++) c->buf[i] = (uint8_t)(v >> (8 * i));
}

int leaf_case_ref(emu_leaf r, leaf_case *c, ff_error *err)
{
    ref_stream s = {c->buf, sizeof c->buf, "leaf case", 0};
    ref_cursor cur = {0, c->bit};
    int16_t ax = 0;
    if (ref_read_routine((ref_routine)r, &s, &cur, c->n, &ax, err) < 0) return -1;
    c->ref_ax = ax;
    c->ref_pos = cur.pos;
    c->ref_bit = cur.bit;
    return 0;
}

int leaf_setup(run_ctx *ctx, size_t *nunits, ff_error *err)
{
    run_results *res = ctx->res;
    res->leaf = calloc(LEAF_ROUTINES, sizeof *res->leaf);
    if (!res->leaf) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    res->nleaf = LEAF_ROUTINES;
    size_t n = 0;
    for (int r = 0; r < LEAF_ROUTINES; r++) {
        snprintf(res->leaf[r].routine, sizeof res->leaf[r].routine, "%s",
                 leaf_routine_name((emu_leaf)r));
        res->leaf[r].group = -1;
        uint64_t cases = leaf_case_count((emu_leaf)r, ctx->cfg->leaf_calls);
        n += (size_t)((cases + LEAF_CHUNK - 1) / LEAF_CHUNK);
    }
    *nunits = n;
    return 0;
}

void leaf_units(run_ctx *ctx, run_unit *units)
{
    size_t u = 0;
    for (int r = 0; r < LEAF_ROUTINES; r++) {
        uint64_t cases = leaf_case_count((emu_leaf)r, ctx->cfg->leaf_calls);
        for (uint64_t c = 0; c * LEAF_CHUNK < cases; c++) {
            run_unit *un = &units[u++];
            un->kind = UNIT_LEAF;
            un->leaf = (unsigned)r;
            un->chunk = c;
            un->cost = LEAF_CHUNK;
        }
    }
    if (ctx->cfg->progress)
        for (int r = 0; r < LEAF_ROUTINES; r++)
            atomic_fetch_add(&ctx->cfg->progress->leaf_total,
                             leaf_case_count((emu_leaf)r, ctx->cfg->leaf_calls));
}

/* Engine e's answer to case c, as leaf_case's orig_* (a fault's: zeros). */
static void answer_into(const leaf_answer *e, leaf_case *c)
{
    c->orig_ax = e->faulted ? 0 : e->ax;
    c->orig_pos = e->faulted ? 0 : e->pos;
    c->orig_bit = e->faulted ? 0 : e->bit;
}

/* Two engines' answers to one case: the same fault (kind, instruction, address) or values. */
static int same_answer(const leaf_answer *a, const leaf_answer *b)
{
    if (a->faulted || b->faulted)
        return a->faulted == b->faulted && a->kind == b->kind && a->eip == b->eip &&
               a->addr == b->addr;
    return a->ax == b->ax && a->pos == b->pos && a->bit == b->bit;
}

/*
 * Case c's answer on the second engine (e2) against the run's engine's (e1);
 * a disagreement counted into b, the first kept.
 */
static void second_engine(const leaf_case *c, const leaf_answer *e1, const leaf_answer *e2,
                          leaf_both *b)
{
    b->calls++;
    if (same_answer(e1, e2) || b->disagree++) return;
    b->have_first = 1;
    b->first = *c;
    answer_into(e2, &b->first);
    b->first.ref_ax = e1->faulted ? 0 : e1->ax;
    b->first.ref_pos = e1->faulted ? 0 : e1->pos;
    b->first.ref_bit = e1->faulted ? 0 : e1->bit;
    b->fault_first = e1->faulted ? (int)e1->kind : (int)EMU_FAULT_NONE;
    b->fault_second = e2->faulted ? (int)e2->kind : (int)EMU_FAULT_NONE;
}

/* A chunk's engine comparison into the routine's (under the run's lock). */
static void merge_both(leaf_both *dst, const leaf_both *b)
{
    dst->calls += b->calls;
    dst->disagree += b->disagree;
    if (b->have_first && (!dst->have_first || b->first.index < dst->first.index)) {
        dst->have_first = 1;
        dst->first = b->first;
        dst->fault_first = b->fault_first;
        dst->fault_second = b->fault_second;
    }
}

/* Cases [lo, hi) of unit u's chunk. */
static void chunk_range(run_ctx *ctx, const run_unit *u, uint64_t *lo, uint64_t *hi)
{
    uint64_t cases = leaf_case_count((emu_leaf)u->leaf, ctx->cfg->leaf_calls);
    *lo = u->chunk * LEAF_CHUNK;
    *hi = *lo + LEAF_CHUNK < cases ? *lo + LEAF_CHUNK : cases;
}

int leaf_run_unit(run_ctx *ctx, emu_game *g, emu_game *g2, const run_unit *u, ff_error *err)
{
    leaf_chunk c;
    leaf_answers *first = malloc(sizeof *first), *second = g2 ? malloc(sizeof *second) : NULL;
    int rc = -1;
    if (!first || (g2 && !second)) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    } else {
        leaf_unit_answer(ctx, g, u, first);
        if (g2) leaf_unit_answer(ctx, g2, u, second);
        rc = leaf_unit_judge(ctx, u, first, second, &c, err);
    }
    free(first);
    free(second);
    return rc < 0 ? -1 : leaf_unit_merge(ctx, u, &c, err);
}

void leaf_unit_lost(run_ctx *ctx, const run_unit *u, const char *why, leaf_chunk *out)
{
    uint64_t lo, hi;
    chunk_range(ctx, u, &lo, &hi);
    memset(out, 0, sizeof *out);
    out->local.calls = out->local.faults = hi - lo;
    out->have_fault = hi > lo;
    out->fault_index = lo;
    out->first_fault.kind = EMU_FAULT_ENGINE_PROCESS;
    snprintf(out->first_fault.detail, sizeof out->first_fault.detail, "%s", why);
}

void leaf_unit_answer(run_ctx *ctx, emu_game *g, const run_unit *u, leaf_answers *out)
{
    emu_leaf r = (emu_leaf)u->leaf;
    uint64_t lo, hi;
    chunk_range(ctx, u, &lo, &hi);
    out->n = 0;
    out->have_fault = 0;
    out->fault_index = 0;
    memset(&out->first_fault, 0, sizeof out->first_fault);
    for (uint64_t i = lo; i < hi && !run_cancelled(ctx); i++) {
        leaf_case c;
        leaf_case_make(r, ctx->cfg->seed, i, &c);
        leaf_answer *e = &out->a[out->n++];
        memset(e, 0, sizeof *e);
        emu_fault fault;
        int32_t bit = 0;
        int64_t pos = 0;
        int16_t ax = 0;
        if (emu_game_leaf(g, r, c.buf, sizeof c.buf, 0, c.bit, c.n, &ax, &pos, &bit, &fault) < 0) {
            e->faulted = 1;
            e->kind = (uint8_t)fault.kind;
            e->eip = fault.eip;
            e->addr = fault.addr;
            if (!out->have_fault) {
                out->have_fault = 1;
                out->first_fault = fault;
                out->fault_index = i;
            }
            continue;
        }
        e->ax = ax;
        e->pos = pos;
        e->bit = bit;
    }
}

int leaf_answers_sound(run_ctx *ctx, const run_unit *u, leaf_answers *a)
{
    uint64_t lo, hi;
    chunk_range(ctx, u, &lo, &hi);
    emu_fault *f = &a->first_fault;
    f->detail[sizeof f->detail - 1] = 0;
    f->disasm[sizeof f->disasm - 1] = 0;
    f->import_dll[sizeof f->import_dll - 1] = 0;
    f->import_name[sizeof f->import_name - 1] = 0;
    if (a->n != hi - lo || (unsigned)f->kind >= EMU_FAULT__COUNT) return 0;
    uint64_t first = hi;
    for (uint64_t k = 0; k < a->n; k++) {
        const leaf_answer *e = &a->a[k];
        if (e->faulted > 1 || e->kind >= EMU_FAULT__COUNT) return 0;
        if (e->faulted && first == hi) first = lo + k;
    }
    /* The first fault whole is the first faulting case's. */
    return a->have_fault ? a->fault_index == first && f->kind == a->a[first - lo].kind
                         : first == hi;
}

int leaf_unit_judge(run_ctx *ctx, const run_unit *u, const leaf_answers *first,
                    const leaf_answers *second, leaf_chunk *out, ff_error *err)
{
    emu_leaf r = (emu_leaf)u->leaf;
    uint64_t lo, hi;
    chunk_range(ctx, u, &lo, &hi);
    memset(out, 0, sizeof *out);
    leaf_result local = {0};
    for (uint64_t k = 0; k < first->n && lo + k < hi; k++) {
        uint64_t i = lo + k;
        leaf_case c;
        leaf_case_make(r, ctx->cfg->seed, i, &c);
        ff_error e;
        if (leaf_case_ref(r, &c, &e) < 0)
            return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "leaf case %llu of %s: %s",
                                (unsigned long long)i, leaf_routine_name(r), e.reason);
        const leaf_answer *e1 = &first->a[k];
        local.calls++;
        if (second && k < second->n) second_engine(&c, e1, &second->a[k], &local.eng);
        if (e1->faulted) {
            local.faults++;
            continue;
        }
        answer_into(e1, &c);
        int differs = c.ref_ax != c.orig_ax || c.ref_pos != c.orig_pos || c.ref_bit != c.orig_bit;
        if (differs && !local.mismatches++) {
            local.first = c;
            local.have_first = 1;
        }
    }
    out->local = local;
    out->have_fault = first->have_fault;
    if (first->have_fault) out->first_fault = first->first_fault;
    out->fault_index = first->fault_index;
    return 0;
}

int leaf_unit_merge(run_ctx *ctx, const run_unit *u, const leaf_chunk *ch, ff_error *err)
{
    emu_leaf r = (emu_leaf)u->leaf;
    const leaf_result local = ch->local;
    int have_fault = ch->have_fault;
    uint64_t fault_index = ch->fault_index;
    if (ctx->cfg->progress) atomic_fetch_add(&ctx->cfg->progress->leaf_done, local.calls);
    pthread_mutex_lock(&ctx->lock);
    leaf_result *dst = &ctx->res->leaf[r];
    dst->calls += local.calls;
    dst->mismatches += local.mismatches;
    dst->faults += local.faults;
    if (local.have_first && (!dst->have_first || local.first.index < dst->first.index)) {
        dst->first = local.first;
        dst->have_first = 1;
    }
    merge_both(&dst->eng, &local.eng);
    int rc = 0;
    if (have_fault && (!dst->fault || fault_index < dst->fault_index)) {
        if (!dst->fault) dst->fault = malloc(sizeof *dst->fault);
        if (dst->fault) {
            *dst->fault = ch->first_fault;
            dst->fault_index = fault_index;
        } else {
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}
