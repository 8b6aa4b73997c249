/*
 * emu/profiles/structure.c: the structural check of identify_routines (see
 * emu/profiles/identify.h). Each profile routine is walked from its entry
 * (emu/image/walk.h; a jmp to another profile routine's entry is a tail call),
 * its calls and references named after the profile's routines and globals
 * and the imports, and its calls compared with the callees the profile
 * expects. Reads only; no printing, no exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/profiles/identify.h"
#include "emu/image/pe.h"
#include "emu/image/walk.h"

typedef struct sctx {
    walker *w;
    const pe_image *pe;
    const emu_profile *p;
} sctx;

static int parse_hex(const char *s, uint32_t *out)
{
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return -1;
    char *end;
    unsigned long long v = strtoull(s + 2, &end, 16);
    if (*end || v > UINT32_MAX) return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Names addr: routine, global, or the import whose IAT slot it is. */
static void name_of(const sctx *c, uint32_t addr, char *out, size_t cap)
{
    out[0] = '\0';
    for (unsigned i = 0; i < c->p->nroutines; i++)
        if (c->p->routines[i].address == addr) {
            snprintf(out, cap, "%s", c->p->routines[i].name);
            return;
        }
    for (unsigned i = 0; i < c->p->nglobals; i++) {
        const profile_global *g = &c->p->globals[i];
        if (addr >= g->address && addr - g->address < g->size) {
            snprintf(out, cap, "%s", g->name);
            return;
        }
    }
    const pe_import *imp = pe_import_at_slot(c->pe, addr);
    if (imp) snprintf(out, cap, "%s!%s", imp->dll, imp->name);
}

static void add_target(const sctx *c, identify_target *list, unsigned *n, int *trunc,
                       uint32_t addr, int tail)
{
    if (*n == IDENTIFY_MAX_CALLS) {
        *trunc = 1;
        return;
    }
    identify_target *t = &list[(*n)++];
    t->address = addr;
    t->tail = tail;
    name_of(c, addr, t->name, sizeof t->name);
}

static int is_global(const sctx *c, uint32_t a)
{
    for (unsigned i = 0; i < c->p->nglobals; i++)
        if (a >= c->p->globals[i].address && a - c->p->globals[i].address < c->p->globals[i].size)
            return 1;
    return 0;
}

static void compare(const sctx *c, identify_routine *r, const profile_routine *pr)
{
    r->callees_checked = pr->callees_known;
    if (!pr->callees_known) return;
    uint32_t expected[PROFILE_MAX_CALLEES];
    for (unsigned k = 0; k < pr->ncallees; k++) {
        const profile_routine *t = profile_find_routine(c->p, pr->callees[k]);
        expected[k] = t ? t->address : 0;
        if (!t && parse_hex(pr->callees[k], &expected[k]) != 0) expected[k] = 0;
        int found = 0;
        for (unsigned i = 0; i < r->ncalls; i++)
            found |= r->calls[i].address == expected[k];
        if (!found) snprintf(r->missing[r->nmissing++], 64, "%s", pr->callees[k]);
    }
    for (unsigned i = 0; i < r->ncalls; i++) {
        int ok = 0;
        for (unsigned k = 0; k < pr->ncallees; k++)
            ok |= r->calls[i].address == expected[k];
        if (!ok && r->nunexpected < IDENTIFY_MAX_CALLS)
            r->unexpected[r->nunexpected++] = r->calls[i];
    }
}

static int check_routine(const sctx *c, const profile_routine *pr, identify_routine *r,
                         ff_error *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", pr->name);
    r->address = pr->address;
    r->want_size = pr->size;
    r->want_insns = pr->insns;
    walk_routine wr;
    if (walk_routine_at(c->w, pr->address, profile_is_entry, (void *)c->p, &wr, err) != 0)
        return -1;
    if (!wr.decoded) {
        snprintf(r->error, sizeof r->error, "%s", wr.error);
        walk_routine_free(&wr);
        return 0;
    }
    r->decoded = 1;
    r->insns = (unsigned)wr.ninsns;
    r->truncated = wr.truncated;
    r->nindirect = wr.nindirect;
    for (unsigned i = 0; i < wr.ncalls; i++)
        add_target(c, r->calls, &r->ncalls, &r->truncated, wr.calls[i].address, wr.calls[i].tail);
    for (unsigned i = 0; i < wr.nrefs; i++) {
        const walk_ref *f = &wr.refs[i];
        uint32_t a = f->address;
        int in_img = a >= c->pe->image_base && a - c->pe->image_base < c->pe->size_of_image;
        if (f->imm || !(in_img || is_global(c, a))) continue;
        add_target(c, r->refs, &r->nrefs, &r->truncated, a, 0);
    }
    r->size = walk_extent(&wr);
    r->size_held = !pr->size || (r->size == pr->size && !wr.truncated);
    r->insns_held = !pr->insns || (r->insns == pr->insns && !wr.truncated);
    walk_routine_free(&wr);
    compare(c, r, pr);
    return 0;
}

int identify_routines(const uint8_t *data, size_t size, const emu_profile *p,
                      identify_structure *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->profile, sizeof out->profile, "%s", p->name);
    pe_image pe;
    if (pe_parse(data, size, &pe, err) != 0) return -1;
    uint8_t *img = NULL;
    sctx c = {NULL, &pe, p};
    int rc = -1;
    if (pe_build_image(&pe, data, size, &img, err) != 0 || walk_open(&pe, img, &c.w, err) != 0)
        goto done;
    out->nroutines = p->nroutines;
    for (unsigned i = 0; i < p->nroutines; i++) {
        identify_routine *r = &out->routines[i];
        if (check_routine(&c, &p->routines[i], r, err) != 0) goto done;
        if (!r->decoded || r->nmissing || r->nunexpected) out->nproblems++;
        if (p->routines[i].size || p->routines[i].insns) {
            out->nsized++;
            out->nsize_differ += !r->decoded || !r->size_held || !r->insns_held;
        }
    }
    rc = 0;
done:
    walk_close(c.w);
    free(img);
    pe_free(&pe);
    return rc;
}
