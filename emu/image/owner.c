/*
 * emu/image/owner.c: the routine holding an instruction (emu/image/owner.h), from the
 * walks of the profile's routines and of the routines they call.
 */
#include "emu/image/owner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/image/walk.h"

/* A routine outside the profile, reached by a call. */
typedef struct reached {
    uint32_t entry;
    int from;  /* the reached routine that calls it, -1: a profile routine does */
    int root;  /* the profile routine its calls lead from */
    int depth; /* calls from that profile routine */
} reached;

typedef struct search {
    walker *w;
    const emu_profile *p;
    reached *q;
    size_t n;
} search;

/* 1 when entry is already queued (or is a profile routine's). */
static int known_entry(const search *s, uint32_t entry)
{
    if (profile_is_entry((void *)s->p, entry)) return 1;
    for (size_t i = 0; i < s->n; i++)
        if (s->q[i].entry == entry) return 1;
    return 0;
}

/* Queues the direct call targets of r (reached from root, through from, at depth). */
static void queue_calls(search *s, const walk_routine *r, int from, int root, int depth)
{
    if (depth > EMU_OWNER_DEPTH) return;
    for (unsigned c = 0; c < r->ncalls && s->n < EMU_OWNER_WALKS; c++) {
        uint32_t t = r->calls[c].address;
        if (known_entry(s, t)) continue;
        s->q[s->n++] = (reached){t, from, root, depth};
    }
}

static void name_profile(const profile_routine *r, uint32_t addr, emu_owner *out)
{
    out->known = out->in_profile = 1;
    snprintf(out->routine, sizeof out->routine, "%s", r->name);
    out->entry = r->address;
    out->offset = addr - r->address;
}

static void name_reached(const search *s, size_t i, uint32_t addr, emu_owner *out)
{
    const reached *x = &s->q[i];
    const char *root = s->p->routines[x->root].name;
    out->known = 1;
    if (x->from < 0)
        snprintf(out->routine, sizeof out->routine, "a routine at 0x%X called from %.60s", x->entry,
                 root);
    else
        snprintf(out->routine, sizeof out->routine, "a routine at 0x%X called from 0x%X (from %.48s)",
                 x->entry, s->q[x->from].entry, root);
    out->entry = x->entry;
    out->offset = addr - x->entry;
}

/* Walks entry; 1 when it holds addr, 0 when not, -1 when memory runs out. */
static int holds(search *s, uint32_t entry, uint32_t addr, walk_routine *r, ff_error *err)
{
    if (walk_routine_at(s->w, entry, profile_is_entry, (void *)s->p, r, err) < 0) return -1;
    return r->decoded && walk_covers(r, addr);
}

/* Profile routines first (the one with the highest entry among those that hold addr). */
static int in_profile(search *s, uint32_t addr, emu_owner *out, ff_error *err)
{
    const profile_routine *best = NULL;
    for (unsigned i = 0; i < s->p->nroutines; i++) {
        const profile_routine *pr = &s->p->routines[i];
        walk_routine r;
        int rc = holds(s, pr->address, addr, &r, err);
        if (rc < 0) return -1;
        if (rc && (!best || pr->address > best->address)) best = pr;
        if (rc == 0) queue_calls(s, &r, -1, (int)i, 1);
        walk_routine_free(&r);
    }
    if (best) name_profile(best, addr, out);
    return 0;
}

/* Then the routines their calls reach, breadth first. */
static int reached_ones(search *s, uint32_t addr, emu_owner *out, ff_error *err)
{
    for (size_t i = 0; i < s->n && !out->known; i++) {
        walk_routine r;
        int rc = holds(s, s->q[i].entry, addr, &r, err);
        if (rc < 0) return -1;
        if (rc) name_reached(s, i, addr, out);
        else queue_calls(s, &r, (int)i, s->q[i].root, s->q[i].depth + 1);
        walk_routine_free(&r);
    }
    return 0;
}

int emu_owner_of(const pe_image *pe, const uint8_t *layout, const emu_profile *p, uint32_t addr,
                 emu_owner *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    search s = {.p = p};
    s.q = malloc(EMU_OWNER_WALKS * sizeof *s.q);
    if (!s.q) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory naming 0x%X", addr);
    int rc = walk_open(pe, layout, &s.w, err);
    if (rc == 0) rc = in_profile(&s, addr, out, err);
    if (rc == 0 && !out->known) rc = reached_ones(&s, addr, out, err);
    if (rc < 0) memset(out, 0, sizeof *out);
    walk_close(s.w);
    free(s.q);
    return rc;
}
