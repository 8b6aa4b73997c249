/*
 * emu/image/locate_weigh.c: the locator's last evidence (see emu/image/locate.h): when
 * the call structure disagreed with every candidate, or a routine stays
 * ambiguous or unreached, its candidates are weighed by how close their
 * code is to the profile's pattern (walk_pattern_similarity). A clear best
 * becomes the routine's one candidate; otherwise the best is reported with
 * its score. No printing, no exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/image/locate_internal.h"

#define WEIGH_MAX 20000 /* entries weighed for an unreached routine at most */

/* 1 when a best score is clearly ahead: the one exact match, or close and well ahead. */
static int clear(int best, int next)
{
    if (best == 100 && next < 100) return 1;
    return best >= LOCATE_CLEAR_SCORE && best - next >= LOCATE_CLEAR_MARGIN;
}

/* 1 when addr is the one candidate of a routine other than i. */
static int held_by_other(const solver *sv, unsigned i, uint32_t addr)
{
    for (unsigned j = 0; j < sv->p->nroutines; j++)
        if (j != i && !sv->skip[j] && !sv->d[j].any && sv->d[j].n == 1 && sv->d[j].v[0] == addr)
            return 1;
    return 0;
}

/* Weighs the candidate at addr; keeps the best two scores. */
static void weigh_one(solver *sv, unsigned i, uint32_t addr, uint16_t *tok, int *best, int *next,
                      uint32_t *at)
{
    const profile_routine *r = &sv->p->routines[i];
    const walk_routine *w = locate_walk_of(sv, addr);
    if (!w || !w->decoded) return;
    unsigned n = locate_pattern_of(w, tok);
    int s = (int)walk_pattern_similarity(r->pattern, r->npattern, tok, n);
    if (s > *best) {
        *next = *best;
        *best = s;
        *at = addr;
    } else if (s > *next) {
        *next = s;
    }
}

int locate_weigh(solver *sv, unsigned i)
{
    const profile_routine *r = &sv->p->routines[i];
    const dom *d = &sv->d[i];
    sv->weighed[i] = 1;
    sv->best[i] = 0;
    sv->best_score[i] = sv->next_score[i] = -1;
    if (!r->npattern) return 0;
    uint16_t *tok = malloc(PROFILE_PATTERN_MAX * sizeof *tok);
    if (!tok) {
        sv->failed = 1;
        return 0;
    }
    int best = -1, next = -1;
    uint32_t at = 0;
    if (!d->any && d->n) {
        for (size_t k = 0; k < d->n && !sv->failed; k++)
            weigh_one(sv, i, d->v[k], tok, &best, &next, &at);
    }
    /* Candidates the structure chose that are not clearly the pattern's, when that
     * structure disagreed somewhere: every routine of about its size is weighed. */
    if (d->any || !d->n || (d->disagreed[0] && !clear(best, next))) {
        best = next = -1;
        at = 0;
        const uint32_t *all;
        size_t n = scan_entries(sv->sc, &all);
        for (size_t k = 0; k < n && k < WEIGH_MAX && !sv->failed; k++) {
            if (held_by_other(sv, i, all[k])) continue;
            const walk_routine *w = locate_walk_of(sv, all[k]);
            /* Of about its size only: a routine half or twice as long is no match. */
            if (!w || !w->decoded || 2 * w->ninsns < r->npattern || w->ninsns > 2u * r->npattern)
                continue;
            weigh_one(sv, i, all[k], tok, &best, &next, &at);
        }
    }
    free(tok);
    sv->best[i] = at;
    sv->best_score[i] = best;
    sv->next_score[i] = next;
    return at && clear(best, next);
}

/* Makes addr routine i's one candidate because of evidence. -1 when memory runs out. */
static int settle(solver *sv, unsigned i, uint32_t addr, const char *evidence)
{
    dom *d = &sv->d[i];
    uint32_t *v = malloc(sizeof *v);
    if (!v) return -1;
    *v = addr;
    free(d->v);
    if (d->any) d->first = 1;
    d->any = 0;
    d->v = v;
    d->n = 1;
    locate_append(d->how, sizeof d->how, evidence);
    sv->changed = 1;
    return 0;
}

void locate_weigh_step(solver *sv)
{
    for (unsigned i = 0; i < sv->p->nroutines && !sv->failed; i++) {
        dom *d = &sv->d[i];
        if (sv->skip[i] || sv->weighed[i] || !sv->p->routines[i].npattern) continue;
        if (!d->any && d->n == 1 && !d->disagreed[0]) continue;
        int clear = locate_weigh(sv, i);
        if (!clear || (!d->any && d->n == 1 && d->v[0] == sv->best[i])) continue;
        char ev[96];
        if (sv->next_score[i] >= 0)
            snprintf(ev, sizeof ev, "closest to its pattern (%d%%, the next %d%%)",
                     sv->best_score[i], sv->next_score[i]);
        else
            snprintf(ev, sizeof ev, "closest to its pattern (%d%%, no other)", sv->best_score[i]);
        if (settle(sv, i, sv->best[i], ev) < 0) sv->failed = 1;
        return; /* one at a time: what it settles may narrow the others */
    }
}
