/*
 * emu/image/locate_items.c: the locator's results (see emu/image/locate.h): each
 * routine's status from its domain, with the evidence or the reason; how
 * close each found routine is to the profile's pattern; the tables (the
 * occurrence of their bytes their readers refer to) and globals (the one
 * [address] their routine refers to); the refusal sentence. No printing,
 * no exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/image/locate_internal.h"

static void item_from(const dom *d, locate_item *it)
{
    if (d->any) {
        it->status = LOCATE_NOT_FOUND;
        snprintf(it->why, sizeof it->why, "no evidence led to it");
        return;
    }
    it->first_candidates = (unsigned)d->first;
    it->ncandidates = (unsigned)d->n;
    for (size_t k = 0; k < d->n && k < LOCATE_MAX_CANDIDATES; k++)
        it->candidates[k] = d->v[k];
    snprintf(it->how, sizeof it->how, "%s", d->how);
    if (d->n == 1) {
        it->status = LOCATE_FOUND;
        it->address = d->v[0];
    } else if (d->n == 0) {
        it->status = LOCATE_NOT_FOUND;
        snprintf(it->why, sizeof it->why, "%s", d->lost);
    } else {
        it->status = LOCATE_AMBIGUOUS;
        snprintf(it->why, sizeof it->why, "%zu candidates: ", d->n);
        locate_list_addresses(it->why, sizeof it->why, d->v, d->n);
    }
}

/* Why a routine no evidence reached stayed out of reach. */
static void explain_unreached(const solver *sv, unsigned i, locate_item *it)
{
    const emu_profile *p = sv->p;
    const profile_routine *r = &p->routines[i];
    char knows[160] = "";
    if (r->callees_known && r->ncallees) locate_append(knows, sizeof knows, "callees");
    for (unsigned q = 0; q < p->nroutines; q++)
        for (unsigned k = 0; k < p->routines[q].ncallees; k++)
            if (!sv->skip[q] && strcmp(p->routines[q].callees[k], r->name) == 0)
                locate_append(knows, sizeof knows, "callers");
    if (r->npattern) locate_append(knows, sizeof knows, "a pattern");
    if (!knows[0])
        snprintf(it->why, sizeof it->why,
                 "the profile gives it no callees, no caller, no table and no pattern (a pattern "
                 "comes from a known build: --from)");
    else
        snprintf(it->why, sizeof it->why,
                 "no evidence led to it (the profile gives %s; none of them was found here)",
                 knows);
}

/*
 * What patterns said of routine i: its best candidate and score; a found routine whose
 * structure disagreed stays found only when its code is clearly the pattern's.
 */
static void weighed(const solver *sv, unsigned i, locate_item *it)
{
    const dom *d = &sv->d[i];
    snprintf(it->disagreed, sizeof it->disagreed, "%s", d->disagreed);
    it->best_score = it->next_score = -1;
    if (!sv->weighed[i]) return;
    it->best = sv->best[i];
    it->best_score = sv->best_score[i];
    it->next_score = sv->next_score[i];
    char best[96] = "";
    if (it->best)
        snprintf(best, sizeof best, "best candidate 0x%X, %d%% like its pattern (next %d%%)",
                 it->best, it->best_score, it->next_score);
    if (it->status == LOCATE_FOUND && d->disagreed[0] &&
        (it->best != it->address || it->best_score < LOCATE_CLEAR_SCORE)) {
        it->status = LOCATE_NOT_FOUND;
        snprintf(it->why, sizeof it->why,
                 "its candidate 0x%X disagrees with the profile (%.200s) and its code is not "
                 "clearly the pattern's (%.100s)",
                 it->address, d->disagreed, best[0] ? best : "no candidate weighed");
        it->address = 0;
    } else if (it->status != LOCATE_FOUND && best[0]) {
        locate_append(it->why, sizeof it->why, best);
    }
}

/* A pose helper found where a routine the harness needs is found is not found itself. */
static void helper_clashes(const solver *sv, locate_result *out)
{
    for (unsigned i = 0; i < out->nroutines; i++) {
        locate_item *h = &out->routines[i];
        if (sv->p->routines[i].helper < 0 || h->status != LOCATE_FOUND) continue;
        for (unsigned j = 0; j < out->nroutines; j++) {
            const locate_item *o = &out->routines[j];
            if (j == i || sv->p->routines[j].helper >= 0 || o->status != LOCATE_FOUND ||
                o->address != h->address)
                continue;
            char name[sizeof o->name]; /* a copy: o and h lie in one array */
            memcpy(name, o->name, sizeof name);
            h->status = LOCATE_NOT_FOUND;
            snprintf(h->why, sizeof h->why, "its one candidate 0x%X is %s", h->address, name);
            h->address = 0;
            break;
        }
    }
}

static void routine_items(const solver *sv, locate_result *out)
{
    for (unsigned i = 0; i < sv->p->nroutines; i++) {
        const profile_routine *r = &sv->p->routines[i];
        locate_item *it = &out->routines[i];
        snprintf(it->name, sizeof it->name, "%s", r->name);
        it->known_address = r->address;
        it->pattern = -1;
        if (sv->skip[i]) {
            it->status = LOCATE_SKIPPED;
            snprintf(it->why, sizeof it->why, "a test routine, not part of the engine");
            continue;
        }
        item_from(&sv->d[i], it);
        if (sv->d[i].any) explain_unreached(sv, i, it);
        weighed(sv, i, it);
    }
    out->nroutines = sv->p->nroutines;
    helper_clashes(sv, out);
}

/* How close each found routine's code is to the profile's pattern. */
static void pattern_scores(solver *sv, locate_result *out)
{
    uint16_t *tok = malloc(PROFILE_PATTERN_MAX * sizeof *tok);
    if (!tok) {
        sv->failed = 1;
        return;
    }
    for (unsigned i = 0; i < sv->p->nroutines && !sv->failed; i++) {
        const profile_routine *r = &sv->p->routines[i];
        locate_item *it = &out->routines[i];
        if (it->status != LOCATE_FOUND || !r->npattern) continue;
        const walk_routine *w = locate_walk_of(sv, it->address);
        if (!w) break;
        unsigned n = locate_pattern_of(w, tok);
        it->pattern = (int)walk_pattern_similarity(r->pattern, r->npattern, tok, n);
    }
    free(tok);
}

/* 1 when the routine at entry refers to an address in [lo, hi). */
static int refers(solver *sv, uint32_t entry, uint32_t lo, uint32_t hi)
{
    const walk_routine *w = locate_walk_of(sv, entry);
    if (!w) return 0;
    for (unsigned k = 0; k < w->nrefs; k++)
        if (w->refs[k].address >= lo && w->refs[k].address < hi) return 1;
    return 0;
}

/* A table is the occurrence of its bytes its found readers refer to. */
static void table_item(solver *sv, const profile_table *t, const locate_result *out,
                       locate_item *it)
{
    snprintf(it->name, sizeof it->name, "%s", t->name);
    it->known_address = t->address;
    it->pattern = -1;
    uint32_t occ[LOCATE_MAX_HITS];
    size_t nocc = scan_find_bytes(sv->sc, t->bytes, t->len, occ, LOCATE_MAX_HITS);
    if (nocc > LOCATE_MAX_HITS) nocc = LOCATE_MAX_HITS;
    it->first_candidates = (unsigned)nocc;
    char readers[160] = "";
    for (size_t o = 0; o < nocc; o++) {
        int read = 0;
        for (unsigned k = 0; k < t->nreaders; k++) {
            const profile_routine *r = profile_find_routine(sv->p, t->read_by[k]);
            const locate_item *ri = &out->routines[r - sv->p->routines];
            if (ri->status != LOCATE_FOUND) continue;
            locate_append(readers, sizeof readers, r->name);
            read |= refers(sv, ri->address, occ[o], occ[o] + t->len);
        }
        if ((read || !t->nreaders) && it->ncandidates < LOCATE_MAX_CANDIDATES)
            it->candidates[it->ncandidates++] = occ[o];
    }
    if (it->ncandidates == 1) {
        it->status = LOCATE_FOUND;
        it->address = it->candidates[0];
        snprintf(it->how, sizeof it->how, "%s%s", t->nreaders ? "read by " : "bytes found once",
                 readers);
    } else {
        it->status = it->ncandidates ? LOCATE_AMBIGUOUS : LOCATE_NOT_FOUND;
        if (!nocc)
            snprintf(it->why, sizeof it->why, "its bytes occur nowhere in the image");
        else if (!readers[0] && t->nreaders)
            snprintf(it->why, sizeof it->why,
                     "its bytes occur %zu times, its readers were not found", nocc);
        else
            snprintf(it->why, sizeof it->why, "%u of its %zu occurrences %s", it->ncandidates, nocc,
                     t->nreaders ? "are read by its readers" : "qualify");
    }
}

/* A global is the one [address] its routine refers to, outside code and tables. */
static void global_item(solver *sv, const profile_global *g, const locate_result *out,
                        locate_item *it)
{
    snprintf(it->name, sizeof it->name, "%s", g->name);
    it->known_address = g->address;
    it->pattern = -1;
    it->status = LOCATE_NOT_FOUND;
    const profile_routine *r = g->found_in[0] ? profile_find_routine(sv->p, g->found_in) : NULL;
    if (!r) {
        snprintf(it->why, sizeof it->why, "the profile does not say which routine refers to it");
        return;
    }
    const locate_item *ri = &out->routines[r - sv->p->routines];
    if (ri->status != LOCATE_FOUND) {
        snprintf(it->why, sizeof it->why, "%s, which refers to it, was not found", r->name);
        return;
    }
    const walk_routine *w = locate_walk_of(sv, ri->address);
    if (!w) return;
    for (unsigned k = 0; k < w->nrefs; k++) {
        const walk_ref *f = &w->refs[k];
        int table = 0;
        for (unsigned t = 0; t < out->ntables; t++)
            table |= out->tables[t].status == LOCATE_FOUND &&
                     f->address >= out->tables[t].address &&
                     f->address - out->tables[t].address < 32;
        if (!f->bare || f->imm || table || walk_in_code(sv->pe, f->address) ||
            it->ncandidates == LOCATE_MAX_CANDIDATES)
            continue;
        it->candidates[it->ncandidates++] = f->address;
    }
    it->first_candidates = it->ncandidates;
    if (it->ncandidates == 1) {
        it->status = LOCATE_FOUND;
        it->address = it->candidates[0];
        snprintf(it->how, sizeof it->how, "the one [address] %s refers to", r->name);
    } else if (it->ncandidates) {
        it->status = LOCATE_AMBIGUOUS;
        snprintf(it->why, sizeof it->why, "%s refers to %u addresses: ", r->name, it->ncandidates);
        locate_list_addresses(it->why, sizeof it->why, it->candidates, it->ncandidates);
    } else {
        snprintf(it->why, sizeof it->why, "%s refers to no [address]", r->name);
    }
}

/* Counts, and the refusal sentence naming what is missing or doubled. A pose helper row
 * (the profile's "helper") that is not found once refuses nothing: the located profile
 * leaves its row out and the leaf level of that helper does not run. */
static void conclude(const solver *sv, locate_result *out)
{
    size_t used = 0;
    const char *sep = "";
    locate_item *lists[3] = {out->routines, out->tables, out->globals};
    unsigned counts[3] = {out->nroutines, out->ntables, out->nglobals};
    for (int l = 0; l < 3; l++)
        for (unsigned i = 0; i < counts[l]; i++) {
            locate_item *it = &lists[l][i];
            switch (it->status) {
            case LOCATE_FOUND:
                out->nfound++;
                continue;
            case LOCATE_SKIPPED:
                out->nskipped++;
                continue;
            default:
                break;
            }
            if (l == 0 && sv->p->routines[i].helper >= 0) {
                out->nhelpers_left++;
                locate_append(it->why, sizeof it->why,
                              "a pose helper: the located profile leaves its row out (that "
                              "helper's leaf level does not run)");
                continue;
            }
            if (it->status == LOCATE_NOT_FOUND)
                out->nnot_found++;
            else
                out->nambiguous++;
            if (used < sizeof out->refusal)
                used += (size_t)snprintf(
                    out->refusal + used, sizeof out->refusal - used, "%s%s %s (%s)", sep, it->name,
                    it->status == LOCATE_NOT_FOUND ? "not found" : "found more than once", it->why);
            sep = "; ";
        }
    out->complete = out->nnot_found == 0 && out->nambiguous == 0;
}

int locate_items(solver *sv, locate_result *out)
{
    const emu_profile *p = sv->p;
    routine_items(sv, out);
    pattern_scores(sv, out);
    out->ntables = p->ntables;
    for (unsigned t = 0; t < p->ntables; t++)
        table_item(sv, &p->tables[t], out, &out->tables[t]);
    out->nglobals = p->nglobals;
    for (unsigned g = 0; g < p->nglobals; g++)
        global_item(sv, &p->globals[g], out, &out->globals[g]);
    if (sv->failed) return -1;
    conclude(sv, out);
    return 0;
}
