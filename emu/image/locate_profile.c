/*
 * emu/image/locate_profile.c: the profile of a located build (every routine,
 * table and global at its new address, the fingerprints and evidence bytes
 * that still hold, the version dwords' entry that names this build,
 * patterns, sizes and callees as this build has them, and a "located"
 * record of where it comes from), and learning patterns, sizes and callees
 * (in call order) from a known build. See emu/image/locate.h. No printing, no exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/image/locate_internal.h"
#include "common/path.h"



/* Where a fingerprint of src is in this build: 0 when it is nowhere. */
static uint32_t moved_fingerprint(const locate_result *r, const emu_profile *src, scan *sc,
                                  const profile_fingerprint *f)
{
    for (unsigned t = 0; t < src->ntables; t++) {
        const profile_table *tb = &src->tables[t];
        if (f->address >= tb->address && f->address - tb->address < tb->len)
            return r->tables[t].address + (f->address - tb->address);
    }
    for (unsigned i = 0; i < src->nroutines; i++) {
        const profile_routine *rt = &src->routines[i];
        uint32_t span = rt->size ? rt->size : LOCATE_ROUTINE_HEAD;
        if (r->routines[i].status == LOCATE_FOUND && f->address >= rt->address &&
            f->address - rt->address < span)
            return r->routines[i].address + (f->address - rt->address);
    }
    uint32_t at[2];
    return scan_find_bytes(sc, f->bytes, f->len, at, 2) == 1 ? at[0] : 0;
}

static void fingerprints(emu_profile *out, const locate_result *r, const emu_profile *src, scan *sc,
                         const pe_image *pe, const uint8_t *layout)
{
    out->nfingerprints = 0;
    for (unsigned i = 0; i < src->nfingerprints; i++) {
        const profile_fingerprint *f = &src->fingerprints[i];
        uint32_t at = moved_fingerprint(r, src, sc, f);
        uint8_t now[PROFILE_FP_MAX_BYTES];
        if (!at || at < pe->image_base || at - pe->image_base > pe->size_of_image - f->len)
            continue;
        memcpy(now, layout + (at - pe->image_base), f->len);
        if (memcmp(now, f->bytes, f->len) != 0) continue; /* bytes that hold an address */
        profile_fingerprint *o = &out->fingerprints[out->nfingerprints++];
        *o = *f;
        o->address = at;
    }
}

/* The routine's size and instruction count as walked (none when the walk was cut short). */
static void learn_size(profile_routine *r, const walk_routine *w)
{
    r->size = w->decoded && !w->truncated ? walk_extent(w) : 0;
    r->insns = w->decoded && !w->truncated ? (unsigned)w->ninsns : 0;
}

/* Orders a walk's call targets by their first call site: call order. */
static void by_first_site(walk_target *t, unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        for (unsigned k = i; k > 0 && t[k].first_site < t[k - 1].first_site; k--) {
            walk_target x = t[k];
            t[k] = t[k - 1];
            t[k - 1] = x;
        }
}

/* The evidence bytes that hold in this build, moved like the fingerprints; the version
 * entry whose dwords hold here becomes the profile's own build (none when none does). */
static void evidence(emu_profile *out, const locate_result *r, const emu_profile *src, scan *sc,
                     const pe_image *pe, const uint8_t *layout)
{
    out->nevidence = 0;
    for (unsigned i = 0; i < src->nevidence; i++) {
        const profile_evidence *e = &src->evidence[i];
        profile_fingerprint f;
        memset(&f, 0, sizeof f);
        f.address = e->address;
        f.len = e->len;
        memcpy(f.bytes, e->bytes, e->len);
        uint32_t at = moved_fingerprint(r, src, sc, &f);
        if (!at || at < pe->image_base || at - pe->image_base > pe->size_of_image - e->len ||
            memcmp(layout + (at - pe->image_base), e->bytes, e->len) != 0)
            continue;
        out->evidence[out->nevidence] = *e;
        out->evidence[out->nevidence++].address = at;
    }
    int own = -1;
    for (unsigned i = 0; i < out->nversions; i++) {
        const profile_version *v = &out->versions[i];
        int holds = 1;
        for (unsigned k = 0; k < v->ndwords && holds; k++) {
            uint32_t a = v->address[k];
            holds = a >= pe->image_base && a - pe->image_base <= pe->size_of_image - 4 &&
                    le_u32(layout + (a - pe->image_base)) == v->value[k];
        }
        if (holds && own < 0) own = (int)i;
    }
    for (unsigned i = 0; i < out->nversions; i++)
        out->versions[i].own = (int)i == own;
}

/* The callees of a routine as found, in call order: the build's direct calls, named after
 * the located routines (a walk cut short keeps the profile's named callees). */
static void callees(profile_routine *o, const profile_routine *src_r, const walk_routine *w,
                    const emu_profile *out)
{
    if (!src_r->callees_known) return;
    unsigned n = 0;
    if (w->truncated || w->ncalls > PROFILE_MAX_CALLEES) {
        for (unsigned k = 0; k < src_r->ncallees; k++)
            if (profile_find_routine(out, src_r->callees[k]))
                snprintf(o->callees[n++], sizeof o->callees[0], "%s", src_r->callees[k]);
        o->ncallees = n;
        return;
    }
    walk_target calls[WALK_MAX_CALLS];
    memcpy(calls, w->calls, w->ncalls * sizeof calls[0]);
    by_first_site(calls, w->ncalls);
    for (unsigned c = 0; c < w->ncalls; c++) {
        const char *name = NULL;
        for (unsigned k = 0; k < out->nroutines; k++)
            if (out->routines[k].address == calls[c].address) name = out->routines[k].name;
        if (name)
            snprintf(o->callees[n++], sizeof o->callees[0], "%s", name);
        else
            snprintf(o->callees[n++], sizeof o->callees[0], "0x%X", calls[c].address);
    }
    o->ncallees = n;
}

static int routines(emu_profile *out, const locate_result *r, const emu_profile *src, scan *sc,
                    ff_error *err)
{
    out->nroutines = 0;
    for (unsigned i = 0; i < src->nroutines; i++) {
        if (r->routines[i].status != LOCATE_FOUND) continue;
        profile_routine *o = &out->routines[out->nroutines++];
        *o = src->routines[i];
        o->address = r->routines[i].address;
    }
    for (unsigned i = 0; i < out->nroutines; i++) {
        profile_routine *o = &out->routines[i];
        const walk_routine *w = scan_walk(sc, o->address, err);
        if (!w) return -1;
        o->npattern = locate_pattern_of(w, o->pattern);
        learn_size(o, w);
        callees(o, profile_find_routine(src, o->name), w, out);
    }
    return 0;
}

int locate_build_profile(locate_result *r, const emu_profile *src, scan *sc, const pe_image *pe,
                         const uint8_t *layout, const locate_opts *opts, ff_error *err)
{
    emu_profile *out = &r->located;
    *out = *src;
    if (opts && opts->name)
        snprintf(out->name, sizeof out->name, "%s", opts->name);
    else
        snprintf(out->name, sizeof out->name, "%.40s_located_%.8s", src->name, r->sha256);
    const char *exe = opts && opts->exe_name ? path_base(opts->exe_name) : "(unnamed)";
    snprintf(out->description, sizeof out->description,
             "%.60s: routines located by structure from profile %.40s (ff8diff identify --locate)",
             exe, src->name);
    snprintf(out->source, sizeof out->source, "(located)");
    out->image_base = pe->image_base;
    out->nhashes = 1;
    snprintf(out->sha256[0], sizeof out->sha256[0], "%s", r->sha256);
    fingerprints(out, r, src, sc, pe, layout);
    evidence(out, r, src, sc, pe, layout);
    if (routines(out, r, src, sc, err) != 0) return -1;
    for (unsigned t = 0; t < out->ntables; t++)
        out->tables[t].address = r->tables[t].address;
    for (unsigned g = 0; g < out->nglobals; g++)
        out->globals[g].address = r->globals[g].address;
    /* Engine routine and global indexes follow the new order. */
    for (int id = 0; id < PROFILE_R__COUNT; id++) {
        const profile_routine *rt = profile_find_routine(out, profile_routine_name(id));
        out->engine[id] = rt ? (int)(rt - out->routines) : -1;
    }
    out->located = 1;
    profile_located *l = &out->located_from;
    snprintf(l->from_profile, sizeof l->from_profile, "%s", src->name);
    snprintf(l->executable, sizeof l->executable, "%s", exe);
    snprintf(l->patterns, sizeof l->patterns, "%s",
             opts && opts->patterns ? opts->patterns : "none");
    snprintf(l->tool, sizeof l->tool, "%s", opts && opts->tool ? opts->tool : "ff8diff");
    return 0;
}

/* The callees of the routine walked, in call order, named after the profile's routines: the
 * known build's call structure replaces the profile's (which may describe another build). */
static void learn_callees(profile_routine *r, const walk_routine *w, const emu_profile *p)
{
    if (w->truncated || w->ncalls > PROFILE_MAX_CALLEES) return;
    walk_target calls[WALK_MAX_CALLS];
    memcpy(calls, w->calls, w->ncalls * sizeof calls[0]);
    by_first_site(calls, w->ncalls);
    for (unsigned c = 0; c < w->ncalls; c++) {
        const char *name = NULL;
        for (unsigned k = 0; k < p->nroutines; k++)
            if (p->routines[k].address == calls[c].address) name = p->routines[k].name;
        if (name)
            snprintf(r->callees[c], sizeof r->callees[c], "%s", name);
        else
            snprintf(r->callees[c], sizeof r->callees[c], "0x%X", calls[c].address);
    }
    r->ncallees = w->ncalls;
    r->callees_known = 1;
}

int locate_learn(const uint8_t *data, size_t size, emu_profile *p, ff_error *err)
{
    pe_image pe;
    if (pe_parse(data, size, &pe, err) != 0) return -1;
    uint8_t *layout = NULL;
    scan *sc = NULL;
    int rc = -1;
    if (pe_build_image(&pe, data, size, &layout, err) != 0 ||
        scan_open(&pe, layout, &sc, err) != 0)
        goto done;
    for (unsigned i = 0; i < p->nroutines; i++) {
        profile_routine *r = &p->routines[i];
        const walk_routine *w = scan_walk(sc, r->address, err);
        if (!w) goto done;
        r->npattern = w->decoded ? locate_pattern_of(w, r->pattern) : 0;
        learn_size(r, w);
        if (w->decoded) learn_callees(r, w, p);
    }
    rc = 0;
done:
    scan_close(sc);
    free(layout);
    pe_free(&pe);
    return rc;
}
