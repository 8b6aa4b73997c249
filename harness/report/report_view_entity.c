/*
 * harness/report/report_view_entity.c: the entity level of a report tree,
 * indexed for the renderers.
 */
#include "harness/report/report_view_entity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/report/report_view.h"

static void name_pair(rv_entity *en, const cJSON *o)
{
    en->body = rv_str(o, "body", "");
    en->weapon = rv_str(o, "weapon", NULL);
    snprintf(en->pair, sizeof en->pair, "%s%s%s", en->body, en->weapon ? "+" : "",
             en->weapon ? en->weapon : "");
}

static void tally(rv_entities *x, rv_entity *en, const cJSON *r)
{
    int m = rv_mode(rv_str(r, "mode", NULL));
    int s = rv_status(rv_str(r, "status", NULL));
    if (s < 0) return;
    x->by_status[s]++;
    if (m < 0) return;
    x->modes |= 1u << m;
    en->n[m][s]++;
    if ((s == RES_MISMATCH || s == RES_FAULT) && !en->first_fail[m]) en->first_fail[m] = r;
    if (s == RES_BAD_INPUT && !en->first_bad[m]) en->first_bad[m] = r;
}

int rv_entities_build(const cJSON *report, rv_entities *x)
{
    memset(x, 0, sizeof *x);
    const cJSON *ents = rv_arr(report, "entities"), *res = rv_arr(report, "entity_results"), *o;
    size_t ne = rv_len(ents), nr = rv_len(res);
    x->e = calloc(ne ? ne : 1, sizeof *x->e);
    x->results = malloc((nr ? nr : 1) * sizeof *x->results);
    if (!x->e || !x->results) {
        rv_entities_free(x);
        return -1;
    }
    cJSON_ArrayForEach(o, ents)
    {
        rv_entity *en = &x->e[x->n++];
        en->e = o;
        name_pair(en, o);
    }
    cJSON_ArrayForEach(o, res)
    {
        x->results[x->nresults++] = o;
        int64_t i = rv_int(o, "entity", -1);
        if (i >= 0 && (uint64_t)i < x->n) tally(x, &x->e[i], o);
    }
    return 0;
}

void rv_entities_free(rv_entities *x)
{
    free(x->e);
    free(x->results);
    memset(x, 0, sizeof *x);
}

const cJSON *rv_entity_result(const rv_entities *x, int64_t i)
{
    return i >= 0 && (uint64_t)i < x->nresults ? x->results[i] : NULL;
}

int rv_entity_level(const cJSON *report)
{
    return rv_has_string(rv_arr(rv_obj(report, "run"), "levels"), "entity") ||
           rv_len(rv_arr(report, "entities")) > 0;
}

/* "2" or "2/2" from a side's {"body","weapon"}; "" when null. */
static void speed_text(const cJSON *v, char *out, size_t n)
{
    out[0] = '\0';
    if (!rv_has_num(v, "body")) return;
    if (rv_has_num(v, "weapon"))
        snprintf(out, n, "%d/%d", (int)(rv_int(v, "body", 0) & 3), (int)(rv_int(v, "weapon", 0) & 3));
    else
        snprintf(out, n, "%d", (int)(rv_int(v, "body", 0) & 3));
}

size_t rv_entity_queue(const rv_entity *en, rv_queue *q, size_t cap)
{
    size_t n = 0;
    const cJSON *o;
    cJSON_ArrayForEach(o, rv_arr(en->e, "queue"))
    {
        if (n >= cap) break;
        rv_queue *x = &q[n++];
        x->status = rv_str(o, "status", "?");
        x->byte = rv_int(o, "byte", 0);
        speed_text(rv_obj(o, "ref"), x->ref, sizeof x->ref);
        speed_text(rv_obj(o, "orig"), x->orig, sizeof x->orig);
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "match");
        x->match = cJSON_IsBool(m) ? cJSON_IsTrue(m) : -1;
    }
    return n;
}

const char *rv_entities_common_why(const rv_entities *x, size_t *count)
{
    const char *best = NULL;
    size_t most = 0;
    for (size_t i = 0; i < x->n; i++) {
        const char *why = x->e[i].weapon ? NULL : rv_str(x->e[i].e, "why_text", NULL);
        if (!why || !*why || (best && strcmp(best, why) == 0)) continue;
        size_t n = 0;
        for (size_t j = i; j < x->n; j++)
            if (!x->e[j].weapon && strcmp(rv_str(x->e[j].e, "why_text", ""), why) == 0) n++;
        if (n > most) best = why, most = n;
    }
    *count = most;
    return most >= 2 ? best : NULL;
}

void rv_entities_story(strbuf *b, const cJSON *report, const rv_entities *x)
{
    size_t files = 0, weapons = 0, none = 0, bad = 0, armed = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, rv_arr(report, "manifest"))
    {
        files++;
        const char *kind = rv_str(f, "kind", "");
        if (strcmp(rv_str(f, "status", "ok"), "ok") != 0)
            bad++;
        else if (!strcmp(kind, "weapon") || !strcmp(kind, "reduced_weapon"))
            weapons++;
        else if (!strcmp(kind, "no_model"))
            none++;
    }
    for (size_t i = 0; i < x->n; i++) armed += x->e[i].weapon != NULL;
    sb_printf(b,
              "%zu files gave %zu entities: %zu a body with one of its weapons (one entity per "
              "body and weapon), %zu a monster or a body alone. %zu weapon file%s %s drawn only "
              "in a body's hand, never an entity of %s own",
              files, x->n, armed, x->n - armed, weapons, weapons == 1 ? "" : "s",
              weapons == 1 ? "is" : "are", weapons == 1 ? "its" : "their");
    if (none) sb_printf(b, "; %zu file%s without a model make%s none", none, none == 1 ? "" : "s",
                        none == 1 ? "s" : "");
    if (bad) sb_printf(b, "; %zu bad file%s make%s none", bad, bad == 1 ? "" : "s",
                       bad == 1 ? "s" : "");
    sb_puts(b, ".");
}
