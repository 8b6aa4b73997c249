/*
 * emu/image/locate_evidence.c: the locator's evidence from a routine's size
 * and from call order (see emu/image/locate.h):
 *   - size: a routine whose profile gives its size and instruction count
 *     keeps, among several candidates, those of that size and count; one
 *     nothing reached and without a pattern is searched among every entry
 *     by them;
 *   - evidence bytes: the profile's "evidence" inside a routine (by its
 *     size) keep, among several candidates, those with the same bytes at
 *     the same offset;
 *   - call order: the profile lists a routine's callees in call order, so
 *     its first callee is the target its code calls first (the lowest call
 *     site) and its last the one it calls last (the highest call site).
 *     Where the caller is found and the callees found so far are called in
 *     the profile's order, this tells apart callees of one shape (two
 *     allocators, three axis rotations) that nothing else does.
 * All of it ranks candidates: it never rules out every candidate left (the
 * profile may describe another build). No printing, no exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/image/locate_internal.h"

#define SIZE_SEARCH_MAX 200000 /* entries searched by size at most */

/* 1 when the walk has the size and instruction count the profile gives (those it gives). */
static int same_size(const solver *sv, const profile_routine *r, const walk_routine *w)
{
    (void)sv;
    if (!w->decoded || w->truncated) return 0;
    if (r->size && walk_extent(w) != r->size) return 0;
    return !r->insns || w->ninsns == r->insns;
}

/* "size 0x30B, 284 instructions" for what the profile gives. */
static void size_text(const profile_routine *r, char *buf, size_t cap)
{
    if (r->size && r->insns)
        snprintf(buf, cap, "size 0x%X, %u instructions", r->size, r->insns);
    else if (r->size)
        snprintf(buf, cap, "size 0x%X", r->size);
    else
        snprintf(buf, cap, "%u instructions", r->insns);
}

/* The evidence bytes of the profile inside routine r: by r's size, else its first bytes. */
static int inside(const profile_routine *r, const profile_evidence *e)
{
    uint32_t span = r->size ? r->size : LOCATE_ROUTINE_HEAD;
    return e->address >= r->address && e->address - r->address < span &&
           e->len <= span - (e->address - r->address);
}

/* 1 when every evidence entry inside r holds at the same offset in the walked candidate. */
static int same_bytes(const solver *sv, const profile_routine *r, const walk_routine *w)
{
    for (unsigned k = 0; k < sv->p->nevidence; k++) {
        const profile_evidence *e = &sv->p->evidence[k];
        if (!inside(r, e)) continue;
        uint64_t at = (uint64_t)w->entry + (e->address - r->address) - sv->pe->image_base;
        if (at + e->len > sv->pe->size_of_image || memcmp(sv->layout + at, e->bytes, e->len) != 0)
            return 0;
    }
    return 1;
}

void locate_bytes(solver *sv)
{
    for (unsigned i = 0; i < sv->p->nroutines && !sv->failed; i++) {
        const dom *d = &sv->d[i];
        const profile_routine *r = &sv->p->routines[i];
        if (sv->skip[i] || d->any || d->n < 2) continue;
        int any = 0;
        for (unsigned k = 0; k < sv->p->nevidence; k++)
            any |= inside(r, &sv->p->evidence[k]);
        if (any) locate_keep_where(sv, i, same_bytes, "its evidence bytes");
    }
}

void locate_sizes(solver *sv)
{
    for (unsigned i = 0; i < sv->p->nroutines && !sv->failed; i++) {
        const dom *d = &sv->d[i];
        const profile_routine *r = &sv->p->routines[i];
        if (sv->skip[i] || d->any || d->n < 2 || (!r->size && !r->insns)) continue;
        char ev[64];
        size_text(r, ev, sizeof ev);
        locate_keep_where(sv, i, same_size, ev);
    }
}

/* The target the walk calls first (lowest call site) or last (highest); 0 when unclear. */
static uint32_t called(const walk_routine *w, int last)
{
    if (!w->decoded || w->truncated || w->ncalls < 2) return 0;
    const walk_target *best = &w->calls[0];
    for (unsigned c = 1; c < w->ncalls; c++) {
        const walk_target *t = &w->calls[c];
        if (last ? t->last_site > best->last_site : t->first_site < best->first_site) best = t;
    }
    return best->address;
}

/* Rank of addr among the walk's targets in call order (by first call site); -1 when absent. */
static int call_rank(const walk_routine *w, uint32_t addr)
{
    const walk_target *t = NULL;
    for (unsigned c = 0; c < w->ncalls && !t; c++)
        if (w->calls[c].address == addr) t = &w->calls[c];
    if (!t) return -1;
    int rank = 0;
    for (unsigned c = 0; c < w->ncalls; c++)
        rank += w->calls[c].first_site < t->first_site;
    return rank;
}

/*
 * 1 when the profile's order of r's callees agrees with the found caller's code: the
 * callees found so far are called in the order the profile lists them (when the code makes
 * as many distinct calls as the profile lists, each at exactly its listed place, and one
 * found is enough; otherwise at least two, in rising order), and the last listed, when
 * found, is the target called last. A profile whose callees are in another order says
 * nothing by order.
 */
static int order_agrees(const solver *sv, const profile_routine *r, const walk_routine *w)
{
    int exact = w->ncalls == r->ncallees, prev = -1, found = 0;
    for (unsigned k = 0; k < r->ncallees; k++) {
        const profile_routine *c = profile_find_routine(sv->p, r->callees[k]);
        const dom *d = c ? &sv->d[c - sv->p->routines] : NULL;
        if (!d || d->any || d->n != 1 ||
            locate_weak_into(sv, (unsigned)(c - sv->p->routines), (unsigned)(r - sv->p->routines)))
            continue;
        int rank = call_rank(w, d->v[0]);
        if (rank < 0) continue;
        if (rank <= prev || (exact && rank != (int)k)) return 0;
        if (k == r->ncallees - 1 && d->v[0] != called(w, 1)) return 0;
        prev = rank;
        found++;
    }
    return found >= (exact ? 1 : 2);
}

/* Routine ci, a callee of the found qi listed first (last 0) or last (last 1). */
static void order_edge(solver *sv, unsigned qi, unsigned ci, const walk_routine *w, int last)
{
    const dom *c = &sv->d[ci];
    uint32_t a = called(w, last);
    if (c->any || c->n < 2 || !a || locate_weak_into(sv, qi, ci)) return;
    uint32_t *t = malloc(sizeof *t);
    if (!t) {
        sv->failed = 1;
        return;
    }
    *t = a;
    char ev[96];
    snprintf(ev, sizeof ev, "called %s by %s", last ? "last" : "first", sv->p->routines[qi].name);
    locate_narrow(sv, ci, t, 1, ev, 1);
}

void locate_callee_order(solver *sv)
{
    const emu_profile *p = sv->p;
    for (unsigned qi = 0; qi < p->nroutines && !sv->failed; qi++) {
        const profile_routine *r = &p->routines[qi];
        const dom *q = &sv->d[qi];
        if (sv->skip[qi] || !r->callees_known || r->ncallees < 2 || q->any || q->n != 1) continue;
        const walk_routine *w = locate_walk_of(sv, q->v[0]);
        if (!w || !order_agrees(sv, r, w)) continue;
        const profile_routine *first = profile_find_routine(p, r->callees[0]);
        const profile_routine *last = profile_find_routine(p, r->callees[r->ncallees - 1]);
        if (first && first != last && !sv->skip[first - p->routines])
            order_edge(sv, qi, (unsigned)(first - p->routines), w, 0);
        if (last && first != last && !sv->skip[last - p->routines])
            order_edge(sv, qi, (unsigned)(last - p->routines), w, 1);
    }
}

void locate_search_size(solver *sv)
{
    const uint32_t *all;
    size_t n = scan_entries(sv->sc, &all);
    if (n > SIZE_SEARCH_MAX) return;
    for (unsigned i = 0; i < sv->p->nroutines && !sv->failed; i++) {
        const profile_routine *r = &sv->p->routines[i];
        if (sv->skip[i] || !sv->d[i].any || r->npattern || !r->size || !r->insns) continue;
        uint32_t *same = malloc((n + 1) * sizeof *same);
        if (!same) {
            sv->failed = 1;
            return;
        }
        size_t m = 0;
        for (size_t k = 0; k < n; k++) {
            const walk_routine *w = locate_walk_of(sv, all[k]);
            if (w && same_size(sv, r, w)) same[m++] = all[k];
        }
        char ev[96], sz[64];
        size_text(r, sz, sizeof sz);
        snprintf(ev, sizeof ev, "%s, searched among every routine", sz);
        if (m)
            locate_narrow(sv, i, same, m, ev, 0);
        else
            free(same);
    }
}
