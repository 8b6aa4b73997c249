/*
 * emu/image/scan.c: the code index of the locator (see emu/image/scan.h). The sweep
 * decodes without Capstone's details (it only needs lengths, ids and the
 * bytes of `call/jmp rel32`); instructions found through an address
 * literal are decoded again with details. Walks are cached in an
 * open-addressing table keyed by entry. Reads only; no printing, no exit.
 */
#include "emu/image/scan.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/le.h"

#define CONTAIN_TRIES 64 /* entries tried before an address */
#define ABSORB_TRIES 16  /* entries tried before a weak entry */
#define MAX_INSN 15

typedef struct edge {
    uint32_t target, site;
} edge;

typedef struct slot {
    uint32_t entry;
    walk_routine *walk; /* NULL: free slot */
} slot;

struct scan {
    const pe_image *pe;
    const uint8_t *img;
    walker *w;
    csh cs; /* details on: checking one instruction */
    cs_insn *in;
    edge *edges; /* sorted by target, then site */
    size_t nedges, edges_cap;
    uint32_t *entries; /* ascending, unique */
    uint8_t *kinds;    /* 2 strong, 1 weak */
    size_t nentries, entries_cap;
    uint8_t *starts; /* bit per image byte: an instruction of the sweep starts here */
    slot *cache;
    size_t ncache, cache_cap;
    scan_stats st;
};

static int add_edge(scan *s, uint32_t target, uint32_t site)
{
    if (GROW(s->edges, s->edges_cap, s->nedges + 1, 1024)) return -1;
    s->edges[s->nedges++] = (edge){target, site};
    return 0;
}

static int add_entry(scan *s, uint32_t a, uint8_t kind)
{
    size_t cap = s->entries_cap;
    if (GROW(s->entries, s->entries_cap, s->nentries + 1, 1024)) return -1;
    if (cap != s->entries_cap || !s->kinds) {
        uint8_t *k = realloc(s->kinds, s->entries_cap);
        if (!k) return -1;
        s->kinds = k;
    }
    s->entries[s->nentries] = a;
    s->kinds[s->nentries++] = kind;
    return 0;
}

static int is_pad(unsigned id)
{
    return id == X86_INS_INT3 || id == X86_INS_NOP;
}

static int ends_path(unsigned id)
{
    return id == X86_INS_RET || id == X86_INS_RETF || id == X86_INS_JMP || id == X86_INS_INT3;
}

/* Target of a `call rel32` (0xE8) or `jmp rel32` (0xE9), as 0 when it is neither. */
static uint32_t rel32_target(const cs_insn *in, uint8_t opcode)
{
    if (in->size != 5 || in->bytes[0] != opcode) return 0;
    return (uint32_t)in->address + 5u + le_u32(in->bytes + 1);
}

/* Sweeps one section's file bytes; E9 jumps wait in *tails for the call targets. */
static int sweep_section(scan *s, csh cs, cs_insn *in, const pe_section *sec, edge **tails,
                         size_t *ntails, size_t *tcap)
{
    uint32_t base = s->pe->image_base;
    const uint8_t *code = s->img + sec->rva;
    size_t left = sec->raw_size;
    uint64_t addr = base + (uint64_t)sec->rva;
    int after_end = 1; /* the section's first instruction starts a routine */
    s->st.code_bytes += left;
    while (left) {
        if (!cs_disasm_iter(cs, &code, &left, &addr, in)) {
            code++;
            left--;
            addr++;
            after_end = 0;
            continue;
        }
        s->st.insns++;
        uint32_t a = (uint32_t)in->address;
        s->starts[(a - base) / 8] |= (uint8_t)(1u << ((a - base) % 8));
        if (after_end && !is_pad(in->id)) {
            if (add_entry(s, a, 1)) return -1;
            after_end = 0;
        }
        if (ends_path(in->id))
            after_end = 1;
        else if (!is_pad(in->id))
            after_end = 0;
        uint32_t t = rel32_target(in, 0xE8);
        if (t && walk_in_code(s->pe, t) && add_edge(s, t, a)) return -1;
        t = rel32_target(in, 0xE9);
        if (t && walk_in_code(s->pe, t)) {
            if (GROW(*tails, *tcap, *ntails + 1, 1024)) return -1;
            (*tails)[(*ntails)++] = (edge){t, a};
        }
    }
    return 0;
}

static int by_target(const void *a, const void *b)
{
    const edge *x = a, *y = b;
    if (x->target != y->target) return x->target < y->target ? -1 : 1;
    return x->site < y->site ? -1 : x->site > y->site;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static long find_entry(const scan *s, uint32_t a)
{
    size_t lo = 0, hi = s->nentries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->entries[mid] < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nentries && s->entries[lo] == a ? (long)lo : -1;
}

/* Call targets become strong entries; weak ones at the same place give way. */
static int merge_entries(scan *s, const edge *tails, size_t ntails)
{
    for (size_t i = 0; i < s->nedges; i++)
        if ((i == 0 || s->edges[i].target != s->edges[i - 1].target) &&
            add_entry(s, s->edges[i].target, 2))
            return -1;
    /* Sort entries (kind kept with its address), strongest first at ties. */
    size_t n = s->nentries;
    uint64_t *keyed = malloc(n * sizeof *keyed + 1);
    if (!keyed) return -1;
    for (size_t i = 0; i < n; i++)
        keyed[i] = (uint64_t)s->entries[i] << 8 | (uint8_t)(2 - s->kinds[i]);
    qsort(keyed, n, sizeof *keyed, by_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = (uint32_t)(keyed[i] >> 8);
        if (m && s->entries[m - 1] == a) continue;
        s->entries[m] = a;
        s->kinds[m++] = (uint8_t)(2 - (keyed[i] & 0xFF));
    }
    s->nentries = m;
    free(keyed);
    for (size_t i = 0; i < ntails; i++) {
        long k = find_entry(s, tails[i].target);
        if (k >= 0 && s->kinds[k] == 2 && add_edge(s, tails[i].target, tails[i].site)) return -1;
    }
    qsort(s->edges, s->nedges, sizeof *s->edges, by_target);
    return 0;
}

static int open_capstone(csh *cs, cs_insn **in, int detail)
{
    if (cs_open(CS_ARCH_X86, CS_MODE_32, cs) != CS_ERR_OK) return -1;
    if (cs_option(*cs, CS_OPT_DETAIL, detail ? CS_OPT_ON : CS_OPT_OFF) != CS_ERR_OK) {
        cs_close(cs);
        return -1;
    }
    *in = cs_malloc(*cs);
    if (!*in) {
        cs_close(cs);
        return -1;
    }
    return 0;
}

static int sweep(scan *s, ff_error *err)
{
    csh cs;
    cs_insn *in;
    if (open_capstone(&cs, &in, 0) != 0)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "opening Capstone failed");
    edge *tails = NULL;
    size_t ntails = 0, tcap = 0;
    int rc = 0;
    for (unsigned i = 0; i < s->pe->nsections && rc == 0; i++) {
        const pe_section *sec = &s->pe->sections[i];
        if (!(sec->characteristics & (PE_SCN_MEM_EXECUTE | PE_SCN_CNT_CODE)) || !sec->raw_size)
            continue;
        rc = sweep_section(s, cs, in, sec, &tails, &ntails, &tcap);
    }
    if (rc == 0) rc = merge_entries(s, tails, ntails);
    free(tails);
    cs_free(in, 1);
    cs_close(&cs);
    if (rc != 0) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory indexing the code");
    s->st.edges = s->nedges;
    for (size_t i = 0; i < s->nentries; i++)
        *(s->kinds[i] == 2 ? &s->st.strong : &s->st.weak) += 1;
    return 0;
}

int scan_open(const pe_image *pe, const uint8_t *layout, scan **out, ff_error *err)
{
    *out = NULL;
    scan *s = calloc(1, sizeof *s);
    if (!s) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    s->pe = pe;
    s->img = layout;
    s->starts = calloc(pe->size_of_image / 8 + 1, 1);
    if (!s->starts) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        goto fail;
    }
    if (open_capstone(&s->cs, &s->in, 1) != 0) {
        ff_error_set(err, FF_E_EMU, NULL, -1, "opening Capstone failed");
        goto fail;
    }
    if (walk_open(pe, layout, &s->w, err) != 0 || sweep(s, err) != 0) goto fail;
    *out = s;
    return 0;
fail:
    scan_close(s);
    return -1;
}

void scan_close(scan *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->cache_cap; i++)
        if (s->cache[i].walk) {
            walk_routine_free(s->cache[i].walk);
            free(s->cache[i].walk);
        }
    free(s->cache);
    if (s->in) cs_free(s->in, 1);
    if (s->cs) cs_close(&s->cs);
    walk_close(s->w);
    free(s->edges);
    free(s->entries);
    free(s->kinds);
    free(s->starts);
    free(s);
}

void scan_get_stats(const scan *s, scan_stats *st)
{
    *st = s->st;
}

int scan_entry_kind(const scan *s, uint32_t addr)
{
    long k = find_entry(s, addr);
    return k < 0 ? 0 : s->kinds[k];
}

size_t scan_entries(const scan *s, const uint32_t **list)
{
    *list = s->entries;
    return s->nentries;
}

/* ---- walks, cached ---- */

static int is_call_target(void *arg, uint32_t addr)
{
    return scan_entry_kind(arg, addr) == 2;
}

static size_t hash_slot(uint32_t entry, size_t cap)
{
    return (size_t)(entry * 2654435761u) & (cap - 1);
}

static int cache_grow(scan *s)
{
    size_t ncap = s->cache_cap ? s->cache_cap * 2 : 256;
    slot *n = calloc(ncap, sizeof *n);
    if (!n) return -1;
    for (size_t i = 0; i < s->cache_cap; i++) {
        if (!s->cache[i].walk) continue;
        size_t k = hash_slot(s->cache[i].entry, ncap);
        while (n[k].walk)
            k = (k + 1) & (ncap - 1);
        n[k] = s->cache[i];
    }
    free(s->cache);
    s->cache = n;
    s->cache_cap = ncap;
    return 0;
}

const walk_routine *scan_walk(scan *s, uint32_t entry, ff_error *err)
{
    if (s->cache_cap) {
        for (size_t k = hash_slot(entry, s->cache_cap); s->cache[k].walk;
             k = (k + 1) & (s->cache_cap - 1))
            if (s->cache[k].entry == entry) return s->cache[k].walk;
    }
    if (2 * (s->ncache + 1) > s->cache_cap && cache_grow(s) != 0) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        return NULL;
    }
    walk_routine *r = malloc(sizeof *r);
    if (!r) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        return NULL;
    }
    if (walk_routine_at(s->w, entry, is_call_target, s, r, err) != 0) {
        free(r);
        return NULL;
    }
    size_t k = hash_slot(entry, s->cache_cap);
    while (s->cache[k].walk)
        k = (k + 1) & (s->cache_cap - 1);
    s->cache[k] = (slot){entry, r};
    s->ncache++;
    s->st.walks++;
    return r;
}

/* 1 when the routine at entry reaches addr, 0 when not, -1 on error. */
static int reaches(scan *s, uint32_t entry, uint32_t addr, ff_error *err)
{
    const walk_routine *r = scan_walk(s, entry, err);
    if (!r) return -1;
    return r->decoded && walk_covers(r, addr);
}

/* Index of the last entry <= addr, or -1. */
static long last_entry_at_or_before(const scan *s, uint32_t addr)
{
    size_t lo = 0, hi = s->nentries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->entries[mid] <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo - 1;
}

int scan_containing(scan *s, uint32_t addr, uint32_t *entry, ff_error *err)
{
    long best = -1;
    long k = last_entry_at_or_before(s, addr);
    for (int tries = 0; k >= 0 && tries < CONTAIN_TRIES; k--, tries++) {
        if (addr - s->entries[k] >= WALK_WINDOW) break;
        int rc = reaches(s, s->entries[k], addr, err);
        if (rc < 0) return -1;
        if (rc) {
            best = k;
            break;
        }
    }
    if (best < 0) return 0;
    /* A weak entry inside a routine gives way to the routine reaching it. */
    while (s->kinds[best] == 1) {
        long found = -1;
        k = best - 1;
        for (int tries = 0; k >= 0 && tries < ABSORB_TRIES; k--, tries++) {
            if (s->entries[best] - s->entries[k] >= WALK_WINDOW) break;
            int rc = reaches(s, s->entries[k], s->entries[best], err);
            if (rc < 0) return -1;
            if (rc) {
                found = k;
                break;
            }
        }
        if (found < 0) break;
        best = found;
    }
    *entry = s->entries[best];
    return 1;
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

size_t scan_unique(uint32_t *v, size_t n)
{
    qsort(v, n, sizeof *v, by_u32);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || v[m - 1] != v[i]) v[m++] = v[i];
    return m;
}

long scan_callers(scan *s, uint32_t target, uint32_t *out, size_t cap, ff_error *err)
{
    size_t lo = 0, hi = s->nedges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->edges[mid].target < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < s->nedges && s->edges[end].target == target)
        end++;
    uint32_t *all = malloc((end - lo + 1) * sizeof *all);
    if (!all) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    size_t n = 0;
    for (size_t i = lo; i < end; i++) {
        uint32_t e;
        int rc = scan_containing(s, s->edges[i].site, &e, err);
        if (rc < 0) {
            free(all);
            return -1;
        }
        if (rc) all[n++] = e;
    }
    n = scan_unique(all, n);
    if (out && cap) memcpy(out, all, (n < cap ? n : cap) * sizeof *out);
    free(all);
    return (long)n;
}

/* ---- bytes and address literals ---- */

size_t scan_find_bytes(const scan *s, const uint8_t *bytes, size_t n, uint32_t *out, size_t cap)
{
    size_t found = 0;
    if (!n) return 0;
    int zeros = 1;
    for (size_t i = 0; i < n; i++)
        zeros &= bytes[i] == 0;
    for (unsigned i = 0; i < s->pe->nsections; i++) {
        const pe_section *sec = &s->pe->sections[i];
        /* Past a section's file bytes there are only zeros. */
        uint32_t len = zeros ? sec->vsize : sec->raw_size;
        if (len < n) continue;
        const uint8_t *p = s->img + sec->rva, *end = p + len;
        for (const uint8_t *q = p; (q = memchr(q, bytes[0], (size_t)(end - q) - n + 1)) != NULL;
             q++) {
            if (memcmp(q, bytes, n) == 0) {
                if (found < cap) out[found] = s->pe->image_base + sec->rva + (uint32_t)(q - p);
                found++;
            }
            if ((size_t)(end - q) <= n) break;
        }
    }
    return found;
}

/* 1 when the instruction at a has an operand referring to [lo, hi). */
static int refers_to(scan *s, uint32_t a, uint32_t lo, uint32_t hi)
{
    const uint8_t *code = s->img + (a - s->pe->image_base);
    size_t left = s->pe->size_of_image - (a - s->pe->image_base);
    if (left > MAX_INSN) left = MAX_INSN;
    uint64_t addr = a;
    if (!cs_disasm_iter(s->cs, &code, &left, &addr, s->in)) return 0;
    const cs_x86 *x = &s->in->detail->x86;
    for (unsigned k = 0; k < x->op_count; k++) {
        const cs_x86_op *op = &x->operands[k];
        uint32_t v = op->type == X86_OP_MEM   ? (uint32_t)op->mem.disp
                     : op->type == X86_OP_IMM ? (uint32_t)op->imm
                                              : 0;
        if (op->type != X86_OP_REG && v >= lo && v < hi) return 1;
    }
    return 0;
}

/* The instruction of the sweep that holds the byte at a, or 0. */
static uint32_t insn_holding(const scan *s, uint32_t a)
{
    uint32_t base = s->pe->image_base;
    for (uint32_t back = 1; back <= MAX_INSN && a - base >= back; back++) {
        uint32_t r = a - base - back;
        if (s->starts[r / 8] >> (r % 8) & 1) return base + r;
    }
    return 0;
}

size_t scan_refs_to(scan *s, uint32_t lo, uint32_t hi, uint32_t *out, size_t cap)
{
    size_t found = 0;
    uint32_t seen_last = 0;
    for (unsigned i = 0; i < s->pe->nsections; i++) {
        const pe_section *sec = &s->pe->sections[i];
        if (!(sec->characteristics & (PE_SCN_MEM_EXECUTE | PE_SCN_CNT_CODE)) || sec->raw_size < 4)
            continue;
        const uint8_t *p = s->img + sec->rva;
        for (uint32_t off = 0; off + 4 <= sec->raw_size; off++) {
            uint32_t v = le_u32(p + off);
            if (v < lo || v >= hi) continue;
            uint32_t a = insn_holding(s, s->pe->image_base + sec->rva + off);
            if (!a || a == seen_last || !refers_to(s, a, lo, hi)) continue;
            seen_last = a;
            if (found < cap) out[found] = a;
            found++;
        }
    }
    return found;
}
