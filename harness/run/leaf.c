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

static int differs(const leaf_case *c)
{
    return c->ref_ax != c->orig_ax || c->ref_pos != c->orig_pos || c->ref_bit != c->orig_bit;
}

/* Two faults of one case: the same kind at the same instruction and address. */
static int same_fault(const emu_fault *a, const emu_fault *b)
{
    return a->kind == b->kind && a->eip == b->eip && a->addr == b->addr;
}

/* Two engines' answers to one case (orig_*): the same AX, cursor byte and bit. */
static int same_answer(const leaf_case *a, const leaf_case *b)
{
    return a->orig_ax == b->orig_ax && a->orig_pos == b->orig_pos && a->orig_bit == b->orig_bit;
}

/*
 * Case c on the second engine, against the run's engine's answer in c (or
 * its fault, faulted); a disagreement counted into b, the first kept.
 */
static void second_engine(emu_game *g2, emu_leaf r, const leaf_case *c, int faulted,
                          const emu_fault *fault, leaf_both *b)
{
    leaf_case d = *c;
    emu_fault f2;
    int faulted2 = emu_game_leaf(g2, r, d.buf, sizeof d.buf, 0, d.bit, d.n, &d.orig_ax, &d.orig_pos,
                                 &d.orig_bit, &f2) < 0;
    b->calls++;
    int agree = faulted == faulted2 && (faulted ? same_fault(fault, &f2) : same_answer(c, &d));
    if (agree || b->disagree++) return;
    b->have_first = 1;
    b->first = d;
    b->first.ref_ax = faulted ? 0 : c->orig_ax;
    b->first.ref_pos = faulted ? 0 : c->orig_pos;
    b->first.ref_bit = faulted ? 0 : c->orig_bit;
    if (faulted2) b->first.orig_ax = 0, b->first.orig_pos = 0, b->first.orig_bit = 0;
    b->fault_first = faulted ? (int)fault->kind : (int)EMU_FAULT_NONE;
    b->fault_second = faulted2 ? (int)f2.kind : (int)EMU_FAULT_NONE;
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
    if (leaf_unit_compute(ctx, g, g2, u, &c, err) < 0) return -1;
    return leaf_unit_merge(ctx, u, &c, err);
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

int leaf_unit_compute(run_ctx *ctx, emu_game *g, emu_game *g2, const run_unit *u,
                      leaf_chunk *out, ff_error *err)
{
    emu_leaf r = (emu_leaf)u->leaf;
    uint64_t lo, hi;
    chunk_range(ctx, u, &lo, &hi);
    memset(out, 0, sizeof *out);
    leaf_result local = {0};
    emu_fault fault, first_fault;
    uint64_t fault_index = 0;
    int have_fault = 0;
    for (uint64_t i = lo; i < hi && !run_cancelled(ctx); i++) {
        leaf_case c;
        leaf_case_make(r, ctx->cfg->seed, i, &c);
        ff_error e;
        if (leaf_case_ref(r, &c, &e) < 0)
            return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "leaf case %llu of %s: %s",
                                (unsigned long long)i, leaf_routine_name(r), e.reason);
        local.calls++;
        int faulted = emu_game_leaf(g, r, c.buf, sizeof c.buf, 0, c.bit, c.n, &c.orig_ax,
                                    &c.orig_pos, &c.orig_bit, &fault) < 0;
        if (g2) second_engine(g2, r, &c, faulted, &fault, &local.eng);
        if (faulted) {
            if (!local.faults++) {
                have_fault = 1;
                first_fault = fault;
                fault_index = i;
            }
            continue;
        }
        if (differs(&c) && !local.mismatches++) {
            local.first = c;
            local.have_first = 1;
        }
    }
    out->local = local;
    out->have_fault = have_fault;
    if (have_fault) out->first_fault = first_fault;
    out->fault_index = fault_index;
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
