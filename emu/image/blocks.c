/*
 * emu/image/blocks.c: basic-block recovery (emu/image/blocks.h). Each routine is walked
 * once from its entry with the rules of emu/image/walk.h (walk_flow_of), noting every
 * decoded instruction's length and flow, the leaders (the entry, branch and
 * jump targets, the instruction after a conditional branch or a call) and
 * the edges; the blocks are then cut from the leaders in address order.
 * Reads the image only; never prints or exits.
 */
#include "emu/image/blocks.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "emu/image/walk.h"

#define WINDOW WALK_WINDOW
#define MAX_INSNS 20000 /* instructions decoded per routine */
#define MAX_WORK 4096   /* pending branch targets */

typedef struct edge {
    uint32_t from, to;
    uint8_t kind;
} edge;

typedef struct walk {
    csh cs;
    cs_insn *in;
    const pe_image *pe;
    const uint8_t *img;
    const emu_profile *p;
    uint8_t len[WINDOW];  /* instruction length at an offset, 0: none starts there */
    uint8_t flow[WINDOW]; /* its walk_flow */
    uint8_t lead[WINDOW / 8];
    uint32_t work[MAX_WORK];
    unsigned nwork, insns;
    int truncated;
    edge *edges;
    size_t nedges, capedges;
    /* the map under construction */
    emu_bblock *blocks;
    unsigned nblocks;
    size_t capblocks;
} walk;

static int is_lead(const walk *w, uint32_t off)
{
    return w->lead[off / 8] >> (off % 8) & 1;
}

static void set_lead(walk *w, uint32_t off)
{
    w->lead[off / 8] |= (uint8_t)(1u << (off % 8));
}

static int add_edge(walk *w, uint32_t from, uint32_t to, emu_edge kind)
{
    if (GROW(w->edges, w->capedges, w->nedges + 1, 256) < 0) return -1;
    w->edges[w->nedges++] = (edge){from, to, (uint8_t)kind};
    return 0;
}

/* Notes a branch target inside the window as a leader; 1 when it is inside. */
static int target_inside(walk *w, uint32_t entry, uint32_t t)
{
    if (t < entry || t - entry >= WINDOW || !walk_in_image(w->pe, t)) return 0;
    set_lead(w, t - entry);
    return 1;
}

static void push(walk *w, uint32_t entry, uint32_t t)
{
    if (!target_inside(w, entry, t) || w->len[t - entry]) return;
    if (w->nwork == MAX_WORK) {
        w->truncated = 1;
        return;
    }
    w->work[w->nwork++] = t;
}

/* Decodes one path from a until it ends or meets decoded code. -1: out of memory. */
static int walk_path(walk *w, uint32_t entry, uint32_t a)
{
    for (;;) {
        uint32_t off = a - entry;
        if (a < entry || off >= WINDOW || w->len[off]) return 0;
        /* Running on into another routine's entry (through padding, or a routine with no
         * ret): that code is the other routine's, not a block of this one. */
        if (a != entry && profile_is_entry((void *)w->p, a)) return 0;
        if (w->insns >= MAX_INSNS) {
            w->truncated = 1;
            return 0;
        }
        if (walk_decode(w->cs, w->pe, w->img, a, w->in) != 0) return 0;
        w->insns++;
        uint32_t next = a + w->in->size, t;
        walk_flow f = walk_flow_of(w->cs, w->in, entry, profile_is_entry, (void *)w->p, &t);
        w->len[off] = (uint8_t)w->in->size;
        w->flow[off] = (uint8_t)f;
        switch (f) {
        case WALK_END:
        case WALK_TAIL:
        case WALK_JUMP_INDIRECT:
            return 0;
        case WALK_JUMP:
            if (target_inside(w, entry, t) && add_edge(w, a, t, EMU_EDGE_JUMP) < 0) return -1;
            a = t;
            continue;
        case WALK_BRANCH:
            if (target_inside(w, entry, t) && add_edge(w, a, t, EMU_EDGE_BRANCH) < 0) return -1;
            push(w, entry, t);
            /* and the instruction after it leads a block, as after a call: */
            if (target_inside(w, entry, next) && add_edge(w, a, next, EMU_EDGE_FALL) < 0)
                return -1;
            break;
        case WALK_CALL:
        case WALK_CALL_INDIRECT:
            if (target_inside(w, entry, next) && add_edge(w, a, next, EMU_EDGE_FALL) < 0)
                return -1;
            break;
        case WALK_NEXT:
            break;
        }
        a = next;
    }
}

static int ends_block(uint8_t flow)
{
    return flow != WALK_NEXT;
}

static emu_bblock *new_block(walk *w)
{
    if (GROW(w->blocks, w->capblocks, (size_t)w->nblocks + 1, 256) < 0) return NULL;
    emu_bblock *b = &w->blocks[w->nblocks++];
    memset(b, 0, sizeof *b);
    return b;
}

static void add_pred(emu_bblock *b, uint32_t from, emu_edge kind)
{
    for (unsigned i = 0; i < b->npreds; i++)
        if (b->preds[i].from == from && b->preds[i].edge == kind) return;
    if (b->npreds < EMU_BLOCK_MAX_PREDS) b->preds[b->npreds++] = (emu_pred){from, (uint8_t)kind};
}

/* Cuts the routine's blocks from its leaders; -1 when memory runs out. */
static int cut_blocks(walk *w, emu_broutine *r, unsigned ri)
{
    r->first = w->nblocks;
    for (uint32_t off = 0; off < WINDOW; off++) {
        if (!w->len[off] || !is_lead(w, off)) continue;
        emu_bblock *b = new_block(w);
        if (!b) return -1;
        b->start = r->entry + off;
        b->routine = (uint16_t)ri;
        uint32_t o = off, last = off;
        do {
            last = o;
            b->insns++;
            o += w->len[o];
        } while (!ends_block(w->flow[last]) && o < WINDOW && w->len[o] && !is_lead(w, o));
        b->end = r->entry + o;
        b->last = r->entry + last;
        b->ends_ret = w->flow[last] == WALK_END;
        /* Falling into the next leader: an edge the walk did not note. */
        if (!ends_block(w->flow[last]) && o < WINDOW && w->len[o] &&
            add_edge(w, r->entry + last, r->entry + o, EMU_EDGE_FALL) < 0)
            return -1;
    }
    r->count = w->nblocks - r->first;
    emu_bblock *mine = w->blocks + r->first;
    if (r->count) add_pred(&mine[0], 0, EMU_EDGE_ENTRY);
    for (size_t e = 0; e < w->nedges; e++)
        for (unsigned k = 0; k < r->count; k++)
            if (mine[k].start == w->edges[e].to) add_pred(&mine[k], w->edges[e].from,
                                                          (emu_edge)w->edges[e].kind);
    return 0;
}

static int routine_blocks(walk *w, const profile_routine *pr, emu_broutine *r, unsigned ri)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", pr->name);
    r->entry = pr->address;
    memset(w->len, 0, sizeof w->len);
    memset(w->lead, 0, sizeof w->lead);
    w->nwork = w->insns = 0;
    w->truncated = 0;
    w->nedges = 0;
    if (!walk_in_image(w->pe, r->entry) || !pe_section_at(w->pe, r->entry)) return 0;
    set_lead(w, 0);
    if (walk_path(w, r->entry, r->entry) < 0) return -1;
    while (w->nwork)
        if (walk_path(w, r->entry, w->work[--w->nwork]) < 0) return -1;
    r->decoded = w->len[0] != 0;
    r->truncated = w->truncated;
    return r->decoded ? cut_blocks(w, r, ri) : 0;
}

static int index_blocks(emu_blockmap *m)
{
    m->by_addr = malloc((m->nblocks ? m->nblocks : 1) * sizeof *m->by_addr);
    if (!m->by_addr) return -1;
    m->lo = UINT32_MAX;
    m->hi = 0;
    for (unsigned i = 0; i < m->nblocks; i++) {
        m->by_addr[i] = i;
        if (m->blocks[i].start < m->lo) m->lo = m->blocks[i].start;
        if (m->blocks[i].end > m->hi) m->hi = m->blocks[i].end;
    }
    if (!m->nblocks) m->lo = 0;
    /* Insertion sort: blocks come per routine already in order, so this is near linear
     * and needs no shared state. */
    for (unsigned i = 1; i < m->nblocks; i++) {
        uint32_t v = m->by_addr[i];
        unsigned j = i;
        while (j && m->blocks[m->by_addr[j - 1]].start > m->blocks[v].start) {
            m->by_addr[j] = m->by_addr[j - 1];
            j--;
        }
        m->by_addr[j] = v;
    }
    return 0;
}

void emu_blocks_free(emu_blockmap *m)
{
    if (!m) return;
    free(m->routines);
    free(m->blocks);
    free(m->by_addr);
    free(m);
}

int emu_blocks_build(const pe_image *pe, const uint8_t *img, const emu_profile *p, int with_tests,
                     emu_blockmap **out, ff_error *err)
{
    *out = NULL;
    emu_blockmap *m = calloc(1, sizeof *m);
    walk *w = calloc(1, sizeof *w);
    if (!m || !w || !(m->routines = calloc(p->nroutines ? p->nroutines : 1, sizeof *m->routines)))
        goto nomem;
    if (cs_open(CS_ARCH_X86, CS_MODE_32, &w->cs) != CS_ERR_OK) {
        ff_error_set(err, FF_E_EMU, NULL, -1, "opening Capstone failed");
        goto fail;
    }
    cs_option(w->cs, CS_OPT_DETAIL, CS_OPT_ON);
    if (!(w->in = cs_malloc(w->cs))) goto nomem_cs;
    w->pe = pe;
    w->img = img;
    w->p = p;
    for (unsigned i = 0; i < p->nroutines; i++) {
        if (p->routines[i].test && !with_tests) continue;
        unsigned ri = m->nroutines++;
        if (routine_blocks(w, &p->routines[i], &m->routines[ri], ri) < 0) goto nomem_cs;
    }
    m->blocks = w->blocks;
    m->nblocks = w->nblocks;
    w->blocks = NULL;
    if (index_blocks(m) < 0) goto nomem_cs;
    cs_free(w->in, 1);
    cs_close(&w->cs);
    free(w->edges);
    free(w);
    *out = m;
    return 0;
nomem_cs:
    if (w->in) cs_free(w->in, 1);
    cs_close(&w->cs);
nomem:
    ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory recovering basic blocks");
fail:
    if (w) {
        free(w->edges);
        free(w->blocks);
    }
    free(w);
    emu_blocks_free(m);
    return -1;
}

int emu_blocks_routine(const emu_blockmap *m, const char *name)
{
    for (unsigned i = 0; i < m->nroutines; i++)
        if (strcmp(m->routines[i].name, name) == 0) return (int)i;
    return -1;
}

unsigned emu_blocks_in_range(const emu_blockmap *m, uint32_t addr, uint32_t size,
                             void (*mark)(void *arg, unsigned i), void *arg)
{
    unsigned lo = 0, hi = m->nblocks, n = 0;
    while (lo < hi) { /* first block starting at or after addr */
        unsigned mid = lo + (hi - lo) / 2;
        if (m->blocks[m->by_addr[mid]].start < addr) lo = mid + 1;
        else hi = mid;
    }
    uint64_t end = (uint64_t)addr + size;
    for (; lo < m->nblocks && m->blocks[m->by_addr[lo]].start < end; lo++, n++)
        mark(arg, m->by_addr[lo]);
    return n;
}

/* Decodes at a into a text line; returns the instruction length, 0 when undecodable. */
static unsigned insn_text(csh cs, cs_insn *in, const pe_image *pe, const uint8_t *img,
                          uint32_t a, char *out, size_t n)
{
    if (walk_decode(cs, pe, img, a, in) != 0) {
        snprintf(out, n, "?");
        return 0;
    }
    snprintf(out, n, "%.31s%s%.120s", in->mnemonic, in->op_str[0] ? " " : "", in->op_str);
    return in->size;
}

char *emu_blocks_insn(const pe_image *pe, const uint8_t *img, uint32_t addr, char *out, size_t n)
{
    csh cs;
    snprintf(out, n, "?");
    if (cs_open(CS_ARCH_X86, CS_MODE_32, &cs) != CS_ERR_OK) return out;
    cs_insn *in = cs_malloc(cs);
    if (in) insn_text(cs, in, pe, img, addr, out, n);
    if (in) cs_free(in, 1);
    cs_close(&cs);
    return out;
}

char *emu_blocks_disasm(const emu_blockmap *m, const pe_image *pe, const uint8_t *img,
                        unsigned i, char *out, size_t n)
{
    csh cs;
    size_t used = 0;
    if (n) out[0] = '\0';
    if (i >= m->nblocks || !n || cs_open(CS_ARCH_X86, CS_MODE_32, &cs) != CS_ERR_OK) return out;
    cs_insn *in = cs_malloc(cs);
    const emu_bblock *b = &m->blocks[i];
    for (uint32_t a = b->start; in && a < b->end;) {
        char line[160];
        unsigned len = insn_text(cs, in, pe, img, a, line, sizeof line);
        int w = snprintf(out + used, n - used, "0x%x: %s\n", a, line);
        if (w < 0 || (size_t)w >= n - used) {
            if (n >= 4) memcpy(out + n - 4, "...", 4);
            break;
        }
        used += (size_t)w;
        if (!len) break;
        a += len;
    }
    if (in) cs_free(in, 1);
    cs_close(&cs);
    return out;
}
