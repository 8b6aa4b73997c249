/*
 * emu/image/locate.c: the locator (see emu/image/locate.h). Each routine of the
 * profile has a domain: "anything" until some evidence narrows it to a
 * set of entries of the code index (emu/image/scan.h). Table references seed the
 * domains; then call edges, the call-count shape, "one routine per name"
 * and patterns narrow them until nothing changes; a routine no evidence
 * reached is searched by its pattern among all entries, and the loop goes
 * on. The results (and the tables and globals, which follow from the
 * routines) are in emu/image/locate_items.c. No printing, no exit.
 */
#include "emu/image/locate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "emu/image/locate_internal.h"

#define EXPAND_MAX 4096   /* a candidate set larger than this says nothing */
#define CALLERS_FROM 64   /* callers are gathered for at most this many candidates */
#define SEARCH_MAX 200000 /* entries searched by pattern at most */
#define MAX_ROUNDS 1000

static const char *const status_names[] = {
#define LOCATE_STATUS_NAME(name, json, word) json,
    LOCATE_STATUS_MAP(LOCATE_STATUS_NAME)
#undef LOCATE_STATUS_NAME
};
static const char *const status_words[] = {
#define LOCATE_STATUS_WORD(name, json, word) word,
    LOCATE_STATUS_MAP(LOCATE_STATUS_WORD)
#undef LOCATE_STATUS_WORD
};

const char *locate_status_name(locate_status s)
{
    return (unsigned)s < LOCATE__COUNT ? status_names[s] : "?";
}

const char *locate_status_word(locate_status s)
{
    return (unsigned)s < LOCATE__COUNT ? status_words[s] : "?";
}

int locate_weak_into(const solver *sv, unsigned from, unsigned to)
{
    return sv->p->routines[from].helper >= 0 && sv->p->routines[to].helper < 0;
}

void locate_append(char *buf, size_t cap, const char *text)
{
    size_t used = strlen(buf);
    if (strstr(buf, text)) return;
    snprintf(buf + used, cap - used, "%s%s", used ? "; " : "", text);
}

void locate_list_addresses(char *buf, size_t cap, const uint32_t *v, size_t n)
{
    size_t used = strlen(buf);
    for (size_t i = 0; i < n && i < 8 && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, "%s0x%X", i ? ", " : "", v[i]);
    if (n > 8 && used < cap) snprintf(buf + used, cap - used, ", ...");
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* x in v[0..n), sorted by scan_unique. */
static int contains(const uint32_t *v, size_t n, uint32_t x)
{
    return bsearch(&x, v, n, sizeof *v, by_u32) != NULL;
}

/*
 * Narrows routine i to vals (n entries, any order; taken over) because of
 * evidence. Keeps only entries in both; records the evidence when it
 * changed something, and what ruled the candidates out when none is left.
 * Soft evidence (the profile's call structure) that would leave none keeps
 * them all and is recorded as disagreeing instead.
 */
void locate_narrow(solver *sv, unsigned i, uint32_t *vals, size_t n, const char *evidence,
                   int soft)
{
    dom *d = &sv->d[i];
    n = scan_unique(vals, n);
    if (d->any && !n && soft) {
        /* Nothing the profile's structure points to: the routine stays to be searched. */
        char text[sizeof d->disagreed];
        snprintf(text, sizeof text, "%.80s: no such routine", evidence);
        locate_append(d->disagreed, sizeof d->disagreed, text);
        free(vals);
        return;
    }
    if (d->any) {
        d->any = 0;
        d->v = vals;
        d->n = n;
        d->first = n;
        locate_append(d->how, sizeof d->how, evidence);
        if (!n) snprintf(d->lost, sizeof d->lost, "%s: no such routine", evidence);
        sv->changed = 1;
        return;
    }
    size_t m = 0;
    for (size_t k = 0; k < d->n; k++)
        if (contains(vals, n, d->v[k])) d->v[m++] = d->v[k];
    if (m < d->n) {
        if (!m) {
            char addrs[128] = "";
            locate_list_addresses(addrs, sizeof addrs, d->v, d->n);
            char lost[sizeof d->lost];
            snprintf(lost, sizeof lost, "none of its %zu candidate%s (%.90s; %.100s) is also %.80s",
                     d->n, d->n == 1 ? "" : "s", addrs, d->how, evidence);
            if (soft) {
                /* Structure the profile may have from another build: kept, noted. */
                char text[sizeof d->disagreed];
                snprintf(text, sizeof text, "not %.80s (%.200s)", evidence, addrs);
                locate_append(d->disagreed, sizeof d->disagreed, text);
                free(vals);
                return;
            }
            memcpy(d->lost, lost, sizeof lost);
        }
        d->n = m;
        locate_append(d->how, sizeof d->how, evidence);
        sv->changed = 1;
    }
    free(vals);
}

static void narrow(solver *sv, unsigned i, uint32_t *vals, size_t n, const char *evidence)
{
    locate_narrow(sv, i, vals, n, evidence, 0);
}

const walk_routine *locate_walk_of(solver *sv, uint32_t entry)
{
    const walk_routine *w = scan_walk(sv->sc, entry, sv->err);
    if (!w) sv->failed = 1;
    return w;
}

/*
 * Candidates that cannot be routine i: not code, nothing decodes. Then the call count:
 * those making as many distinct direct calls as the profile lists go before those that do
 * not; when none does, the count is the profile's structure disagreeing with this build,
 * noted, and every candidate stays.
 */
static void shape(solver *sv, unsigned i)
{
    dom *d = &sv->d[i];
    const profile_routine *r = &sv->p->routines[i];
    if (d->any || !d->n) return;
    size_t code = 0, m = 0;
    unsigned lo = ~0u, hi = 0;
    for (size_t k = 0; k < d->n && !sv->failed; k++) {
        if (!walk_in_code(sv->pe, d->v[k])) continue;
        const walk_routine *w = locate_walk_of(sv, d->v[k]);
        if (!w || !w->decoded) continue;
        lo = w->ncalls < lo ? w->ncalls : lo;
        hi = w->ncalls > hi ? w->ncalls : hi;
        d->v[code++] = d->v[k];
    }
    if (!code) {
        char addrs[128] = "";
        locate_list_addresses(addrs, sizeof addrs, d->v, d->n);
        char how[101]; /* a copy: gcc cannot tell d->how from d->lost */
        snprintf(how, sizeof how, "%.100s", d->how);
        snprintf(d->lost, sizeof d->lost, "none of its %zu candidate%s (%.90s; %s) decodes as code",
                 d->n, d->n == 1 ? "" : "s", addrs, how);
    }
    for (size_t k = 0; k < code && !sv->failed && r->callees_known; k++) {
        const walk_routine *w = locate_walk_of(sv, d->v[k]);
        if (w && w->ncalls == r->ncallees && !w->truncated) m++;
    }
    if (code && r->callees_known && m && m < code) {
        size_t j = 0;
        for (size_t k = 0; k < code; k++) {
            const walk_routine *w = locate_walk_of(sv, d->v[k]);
            if (w && w->ncalls == r->ncallees && !w->truncated) d->v[j++] = d->v[k];
        }
        code = j;
    } else if (code && r->callees_known && !m && !strstr(d->disagreed, "the profile lists")) {
        char calls[48], text[LOCATE_WHY_MAX];
        if (lo == hi)
            snprintf(calls, sizeof calls, "%s %u distinct direct call%s",
                     code == 1 ? "makes" : "make", lo, lo == 1 ? "" : "s");
        else
            snprintf(calls, sizeof calls, "make %u to %u distinct direct calls", lo, hi);
        snprintf(text, sizeof text, "its candidate%s %.48s, the profile lists %u",
                 code == 1 ? "" : "s", calls, r->ncallees);
        locate_append(d->disagreed, sizeof d->disagreed, text);
    }
    if (code == d->n) return;
    d->n = code;
    sv->changed = 1;
}

/*
 * A routine found for one name is no candidate for another. A pose helper row (optional:
 * left out of the located profile when not found) takes no candidate from a routine the
 * harness needs; a clash is settled against the helper (locate_items.c).
 */
static void one_per_name(solver *sv)
{
    for (unsigned i = 0; i < sv->p->nroutines; i++) {
        if (sv->skip[i] || sv->d[i].any || sv->d[i].n != 1) continue;
        uint32_t c = sv->d[i].v[0];
        for (unsigned j = 0; j < sv->p->nroutines; j++) {
            dom *o = &sv->d[j];
            if (j == i || sv->skip[j] || o->any || !o->n || !contains(o->v, o->n, c)) continue;
            if (locate_weak_into(sv, i, j)) continue;
            uint32_t *rest = malloc(o->n * sizeof *rest);
            if (!rest) {
                sv->failed = 1;
                return;
            }
            size_t m = 0;
            for (size_t k = 0; k < o->n; k++)
                if (o->v[k] != c) rest[m++] = o->v[k];
            char ev[96];
            snprintf(ev, sizeof ev, "not %s", sv->p->routines[i].name);
            narrow(sv, j, rest, m, ev);
        }
    }
}

/* Every direct call target of the candidates of q (NULL when too many). */
static uint32_t *targets_of(solver *sv, const dom *q, size_t *n)
{
    uint32_t *out = malloc((q->n * WALK_MAX_CALLS + 1) * sizeof *out);
    *n = 0;
    if (!out) {
        sv->failed = 1;
        return NULL;
    }
    for (size_t k = 0; k < q->n; k++) {
        const walk_routine *w = locate_walk_of(sv, q->v[k]);
        if (!w) break;
        for (unsigned c = 0; c < w->ncalls; c++)
            out[(*n)++] = w->calls[c].address;
    }
    return out;
}

/* The routines calling any candidate of c (NULL when too many or on error). */
static uint32_t *callers_of(solver *sv, const dom *c, size_t *n)
{
    uint32_t *out = malloc(EXPAND_MAX * sizeof *out);
    *n = 0;
    if (!out) {
        sv->failed = 1;
        return NULL;
    }
    for (size_t k = 0; k < c->n; k++) {
        long got = scan_callers(sv->sc, c->v[k], out + *n, EXPAND_MAX - *n, sv->err);
        if (got < 0) sv->failed = 1;
        if (got < 0 || *n + (size_t)got > EXPAND_MAX) {
            free(out);
            return NULL;
        }
        *n += (size_t)got;
    }
    return out;
}

/* The candidates of q that call some candidate of c. */
static void keep_callers(solver *sv, unsigned qi, const dom *c, const char *evidence)
{
    dom *q = &sv->d[qi];
    uint32_t *keep = malloc((q->n + 1) * sizeof *keep);
    if (!keep) {
        sv->failed = 1;
        return;
    }
    size_t m = 0;
    for (size_t k = 0; k < q->n; k++) {
        const walk_routine *w = locate_walk_of(sv, q->v[k]);
        if (!w) break;
        int hit = 0;
        for (unsigned t = 0; t < w->ncalls && !hit; t++)
            hit = contains(c->v, c->n, w->calls[t].address);
        if (hit) keep[m++] = q->v[k];
    }
    locate_narrow(sv, qi, keep, m, evidence, 1);
}

/*
 * One call edge of the profile: routine qi calls routine ci. Forward: the
 * callee is among the caller's candidates' call targets. Backward: the
 * caller calls one of the callee's candidates (gathering the callers of a
 * routine is the costly step: it is left to the backward pass).
 */
static void edge(solver *sv, unsigned qi, unsigned ci, int backward)
{
    dom *q = &sv->d[qi], *c = &sv->d[ci];
    char ev[96];
    size_t n;
    if (locate_weak_into(sv, backward ? ci : qi, backward ? qi : ci)) return;
    if (!backward) {
        if (q->any || !q->n || q->n > EXPAND_MAX) return;
        uint32_t *t = targets_of(sv, q, &n);
        snprintf(ev, sizeof ev, "called by %s", sv->p->routines[qi].name);
        if (t) locate_narrow(sv, ci, t, n, ev, 1);
        return;
    }
    if (c->any || !c->n || sv->failed) return;
    snprintf(ev, sizeof ev, "calls %s", sv->p->routines[ci].name);
    if (!q->any) {
        keep_callers(sv, qi, c, ev);
    } else if (c->n <= CALLERS_FROM) {
        uint32_t *callers = callers_of(sv, c, &n);
        if (callers) locate_narrow(sv, qi, callers, n, ev, 1);
    }
}

static void edges(solver *sv, int backward)
{
    const emu_profile *p = sv->p;
    for (unsigned qi = 0; qi < p->nroutines && !sv->failed; qi++) {
        if (sv->skip[qi]) continue;
        for (unsigned k = 0; k < p->routines[qi].ncallees; k++) {
            const profile_routine *c = profile_find_routine(p, p->routines[qi].callees[k]);
            unsigned ci = c ? (unsigned)(c - p->routines) : 0;
            if (c && !sv->skip[ci]) edge(sv, qi, ci, backward);
        }
    }
}

unsigned locate_pattern_of(const walk_routine *w, uint16_t *out)
{
    unsigned n = w->ninsns < PROFILE_PATTERN_MAX ? (unsigned)w->ninsns : PROFILE_PATTERN_MAX;
    for (unsigned i = 0; i < n; i++)
        out[i] = w->insns[i].token;
    return n;
}

int locate_pattern_equal(const walk_routine *w, const profile_routine *r)
{
    unsigned n = w->ninsns < PROFILE_PATTERN_MAX ? (unsigned)w->ninsns : PROFILE_PATTERN_MAX;
    if (!w->decoded || n != r->npattern) return 0;
    for (unsigned i = 0; i < n; i++)
        if (w->insns[i].token != r->pattern[i]) return 0;
    return 1;
}

/*
 * Among routine i's candidates, those whose walk ok() accepts, when some but not all are
 * (evidence that tells candidates apart, never one that rules them all out).
 */
void locate_keep_where(solver *sv, unsigned i,
                       int (*ok)(const solver *sv, const profile_routine *r, const walk_routine *w),
                       const char *evidence)
{
    dom *d = &sv->d[i];
    uint32_t *same = malloc(d->n * sizeof *same);
    if (!same) {
        sv->failed = 1;
        return;
    }
    size_t m = 0;
    for (size_t k = 0; k < d->n; k++) {
        const walk_routine *w = locate_walk_of(sv, d->v[k]);
        if (w && ok(sv, &sv->p->routines[i], w)) same[m++] = d->v[k];
    }
    if (m && m < d->n)
        narrow(sv, i, same, m, evidence);
    else
        free(same);
}

static int same_pattern(const solver *sv, const profile_routine *r, const walk_routine *w)
{
    (void)sv;
    return locate_pattern_equal(w, r);
}

/* Among several candidates, those whose pattern is the profile's (when some are). */
static void patterns(solver *sv)
{
    for (unsigned i = 0; i < sv->p->nroutines && !sv->failed; i++) {
        const dom *d = &sv->d[i];
        if (sv->skip[i] || d->any || d->n < 2 || !sv->p->routines[i].npattern) continue;
        locate_keep_where(sv, i, same_pattern, "pattern");
    }
}

/* 1 when the walk calls the found callees of r in the order the profile lists them. */
static int in_call_order(const solver *sv, const profile_routine *r, const walk_routine *w)
{
    uint32_t want[PROFILE_MAX_CALLEES];
    unsigned nwant = 0, k = 0;
    for (unsigned c = 0; c < r->ncallees; c++) {
        const profile_routine *t = profile_find_routine(sv->p, r->callees[c]);
        const dom *td = t ? &sv->d[t - sv->p->routines] : NULL;
        if (td && !td->any && td->n == 1 &&
            !locate_weak_into(sv, (unsigned)(t - sv->p->routines), (unsigned)(r - sv->p->routines)))
            want[nwant++] = td->v[0];
    }
    for (unsigned c = 0; c < w->ncalls && k < nwant; c++) {
        int found = 0;
        for (unsigned j = 0; j < nwant; j++) found |= w->calls[c].address == want[j];
        if (found && w->calls[c].address != want[k]) return 0;
        k += found;
    }
    return nwant > 1 && k == nwant;
}

/* Among several candidates, those calling the found callees in the profile's order. */
static void call_order(solver *sv)
{
    for (unsigned i = 0; i < sv->p->nroutines && !sv->failed; i++) {
        const dom *d = &sv->d[i];
        const profile_routine *r = &sv->p->routines[i];
        if (sv->skip[i] || d->any || d->n < 2 || !r->callees_known || r->ncallees < 2) continue;
        locate_keep_where(sv, i, in_call_order, "calls its callees in the profile's order");
    }
}

/* A routine nothing reached, searched by its pattern among every entry. */
static void search(solver *sv)
{
    const uint32_t *all;
    size_t n = scan_entries(sv->sc, &all);
    if (n > SEARCH_MAX) return;
    for (unsigned i = 0; i < sv->p->nroutines && !sv->failed; i++) {
        const profile_routine *r = &sv->p->routines[i];
        if (sv->skip[i] || !sv->d[i].any || !r->npattern) continue;
        uint32_t *same = malloc((n + 1) * sizeof *same);
        if (!same) {
            sv->failed = 1;
            return;
        }
        size_t m = 0;
        for (size_t k = 0; k < n; k++) {
            const walk_routine *w = locate_walk_of(sv, all[k]);
            if (w && locate_pattern_equal(w, r)) same[m++] = all[k];
        }
        if (m)
            narrow(sv, i, same, m, "pattern, searched among every routine");
        else
            free(same);
    }
}

static void solve(solver *sv)
{
    for (int round = 0; round < MAX_ROUNDS && !sv->failed; round++) {
        sv->changed = 0;
        for (unsigned i = 0; i < sv->p->nroutines; i++)
            if (!sv->skip[i]) shape(sv, i);
        one_per_name(sv);
        edges(sv, 0);
        if (!sv->changed) edges(sv, 1);
        if (!sv->changed) patterns(sv);
        if (!sv->changed) call_order(sv);
        if (!sv->changed) locate_callee_order(sv);
        if (!sv->changed) locate_bytes(sv);
        if (!sv->changed) locate_sizes(sv);
        if (!sv->changed) search(sv);
        if (!sv->changed) locate_search_size(sv);
        if (!sv->changed) locate_weigh_step(sv);
        if (!sv->changed) return;
    }
}

/* ---- anchors: tables ---- */

/* Occurrences of table t and, per occurrence, the routines referring to it. */
static void anchor_table(solver *sv, const profile_table *t)
{
    uint32_t occ[LOCATE_MAX_HITS], refs[LOCATE_MAX_HITS];
    size_t nocc = scan_find_bytes(sv->sc, t->bytes, t->len, occ, LOCATE_MAX_HITS);
    if (nocc > LOCATE_MAX_HITS) nocc = LOCATE_MAX_HITS;
    uint32_t *owners = malloc(LOCATE_MAX_HITS * LOCATE_MAX_HITS * sizeof *owners);
    if (!owners) {
        sv->failed = 1;
        return;
    }
    size_t n = 0;
    for (size_t o = 0; o < nocc && !sv->failed; o++) {
        size_t nref = scan_refs_to(sv->sc, occ[o], occ[o] + t->len, refs, LOCATE_MAX_HITS);
        for (size_t k = 0; k < nref && k < LOCATE_MAX_HITS; k++) {
            uint32_t e;
            int rc = scan_containing(sv->sc, refs[k], &e, sv->err);
            if (rc < 0) sv->failed = 1;
            if (rc > 0) owners[n++] = e;
        }
    }
    char ev[96];
    snprintf(ev, sizeof ev, "reads table %s", t->name);
    for (unsigned k = 0; k < t->nreaders && !sv->failed; k++) {
        const profile_routine *r = profile_find_routine(sv->p, t->read_by[k]);
        unsigned i = (unsigned)(r - sv->p->routines);
        if (sv->skip[i]) continue;
        uint32_t *copy = malloc((n + 1) * sizeof *copy);
        if (!copy) {
            sv->failed = 1;
            break;
        }
        memcpy(copy, owners, n * sizeof *copy);
        narrow(sv, i, copy, n, ev);
    }
    free(owners);
}

static void free_domains(solver *sv)
{
    for (unsigned i = 0; i < PROFILE_MAX_ROUTINES; i++)
        free(sv->d[i].v);
}

static int run_solver(solver *sv, const pe_image *pe, const uint8_t *layout,
                      const locate_opts *opts, locate_result *out)
{
    const emu_profile *p = sv->p;
    for (unsigned i = 0; i < p->nroutines; i++) {
        sv->d[i].any = 1;
        sv->skip[i] = p->routines[i].test;
    }
    for (unsigned t = 0; t < p->ntables && !sv->failed; t++)
        anchor_table(sv, &p->tables[t]);
    solve(sv);
    if (sv->failed || locate_items(sv, out) != 0) return -1;
    if (out->complete) return locate_build_profile(out, p, sv->sc, pe, layout, opts, sv->err);
    return 0;
}

int locate_buffer(const uint8_t *data, size_t size, const emu_profile *p, const locate_opts *opts,
                  locate_result *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->profile, sizeof out->profile, "%s", p->name);
    if (sha256_hex(data, size, out->sha256, err) != 0) return -1;
    pe_image pe;
    if (pe_parse(data, size, &pe, err) != 0) {
        err->kind = FF_E_EXE;
        ff_error_prefix(err, "not a PE32 i386 executable");
        return -1;
    }
    solver *sv = calloc(1, sizeof *sv);
    uint8_t *layout = NULL;
    int rc = -1;
    if (!sv) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        goto done;
    }
    if (pe_build_image(&pe, data, size, &layout, err) != 0 ||
        scan_open(&pe, layout, &sv->sc, err) != 0)
        goto done;
    sv->p = p;
    sv->pe = &pe;
    sv->layout = layout;
    sv->err = err;
    rc = run_solver(sv, &pe, layout, opts, out);
    if (rc != 0 && sv->failed && err->kind == FF_E_OK)
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory locating routines");
    scan_stats st;
    scan_get_stats(sv->sc, &st);
    out->code_bytes = st.code_bytes;
    out->insns = st.insns;
    out->edges = st.edges;
    out->entries = st.strong + st.weak;
    out->walks = st.walks;
done:
    if (sv) {
        scan_close(sv->sc);
        free_domains(sv);
    }
    free(sv);
    free(layout);
    pe_free(&pe);
    return rc;
}
