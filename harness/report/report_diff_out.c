/*
 * harness/report/report_diff_out.c: a report comparison as text (for people) and
 * as JSON ("ff8diff-report-diff/1", for tools). Computes nothing new.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/report/report_diff.h"

/* ---- text ---- */

static void side_text(strbuf *b, const rdiff_side *s, int leaf)
{
    if (!s->present) {
        sb_puts(b, "absent");
        return;
    }
    if (leaf) {
        sb_printf(b, "%" PRIu64 " calls, %" PRIu64 " mismatches, %" PRIu64 " faults", s->calls,
                  s->mismatches, s->faults);
        if (s->first_case >= 0) sb_printf(b, " (first at case %" PRId64 ")", s->first_case);
        return;
    }
    sb_puts(b, res_status_name(s->status));
    if (s->has_div)
        sb_printf(b, " at tick %" PRIu64 " %s (ref %" PRId64 ", orig %" PRId64 ")", s->tick,
                  s->field, s->ref, s->orig);
}

static void entry_text(strbuf *b, const rdiff_entry *e)
{
    if (e->leaf)
        sb_printf(b, "  leaf %s: ", e->file);
    else if (e->clip < 0)
        sb_printf(b, "  %s (whole file) %s: ", e->file, e->mode);
    else
        sb_printf(b, "  %s anim %d %s: ", e->file, (int)e->clip, e->mode);
    side_text(b, &e->old, e->leaf);
    sb_puts(b, " -> ");
    side_text(b, &e->new, e->leaf);
    sb_putc(b, '\n');
}

void rdiff_text(const rdiff *d, size_t limit, strbuf *b)
{
    const rdiff_run *run[2] = {&d->old, &d->new};
    for (int k = 0; k < 2; k++)
        sb_printf(b, "%s: %s (run %s, %s): %s%s\n", k ? "new" : "old", run[k]->path, run[k]->id,
                  run[k]->command, verdict_label(run[k]->verdict),
                  run[k]->verdict_stored ? "" : " (derived: the report stores no verdict)");
    for (int k = 0; k < RDIFF__COUNT; k++)
        sb_printf(b, "%s%" PRIu64 " %s", k ? ", " : "", d->count[k],
                  rdiff_kind_name((rdiff_kind)k));
    sb_putc(b, '\n');
    size_t i = 0;
    while (i < d->n) {
        rdiff_kind k = d->e[i].kind;
        size_t j = i;
        while (j < d->n && d->e[j].kind == k)
            j++;
        sb_printf(b, "\n%s (%zu)%s:\n", rdiff_kind_heading(k), j - i,
                  rdiff_kind_regresses(k) ? ", a regression" : "");
        for (size_t q = i; q < j && (limit == 0 || q - i < limit); q++)
            entry_text(b, &d->e[q]);
        if (limit && j - i > limit) sb_printf(b, "  ... and %zu more\n", j - i - limit);
        i = j;
    }
    if (rdiff_regressed(d))
        sb_printf(b,
                  "\nREGRESSED: %" PRIu64 " newly broken, %" PRIu64
                  " with the first divergence earlier\n",
                  d->count[RDIFF_NEWLY_BROKEN], d->count[RDIFF_MOVED_EARLIER]);
    else
        sb_puts(b, "\nno regression\n");
}

/* ---- JSON ---- */

static cJSON *side_json(const rdiff_side *s, int leaf)
{
    if (!s->present) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "status", res_status_name(s->status));
    if (leaf) {
        cJSON_AddNumberToObject(o, "calls", (double)s->calls);
        cJSON_AddNumberToObject(o, "mismatches", (double)s->mismatches);
        cJSON_AddNumberToObject(o, "faults", (double)s->faults);
        if (s->first_case >= 0)
            cJSON_AddNumberToObject(o, "first_case", (double)s->first_case);
        else
            cJSON_AddNullToObject(o, "first_case");
    } else if (s->has_div) {
        cJSON_AddNumberToObject(o, "tick", (double)s->tick);
        cJSON_AddStringToObject(o, "field", s->field);
        cJSON_AddNumberToObject(o, "ref", (double)s->ref);
        cJSON_AddNumberToObject(o, "orig", (double)s->orig);
    }
    return o;
}

static cJSON *run_json(const rdiff_run *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", r->path);
    cJSON_AddStringToObject(o, "id", r->id);
    cJSON_AddStringToObject(o, "command", r->command);
    cJSON_AddItemToObject(o, "verdict", report_json_verdict(r->verdict));
    cJSON_AddBoolToObject(o, "verdict_stored", r->verdict_stored);
    return o;
}

cJSON *rdiff_json(const rdiff *d)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    cJSON_AddStringToObject(root, "schema", RDIFF_SCHEMA);
    cJSON_AddItemToObject(root, "old", run_json(&d->old));
    cJSON_AddItemToObject(root, "new", run_json(&d->new));
    cJSON_AddBoolToObject(root, "regressed", rdiff_regressed(d));
    cJSON *counts = cJSON_AddObjectToObject(root, "counts");
    for (int k = 0; k < RDIFF__COUNT; k++)
        cJSON_AddNumberToObject(counts, rdiff_kind_name((rdiff_kind)k), (double)d->count[k]);
    cJSON *changes = cJSON_AddArrayToObject(root, "changes");
    for (size_t i = 0; i < d->n; i++) {
        const rdiff_entry *e = &d->e[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "category", rdiff_kind_name(e->kind));
        cJSON_AddBoolToObject(o, "regression", rdiff_kind_regresses(e->kind));
        cJSON_AddStringToObject(o, "level", e->leaf ? "leaf" : "frame");
        if (e->leaf) {
            cJSON_AddStringToObject(o, "routine", e->file);
        } else {
            cJSON_AddStringToObject(o, "file", e->file);
            cJSON_AddNumberToObject(o, "clip", e->clip);
            cJSON_AddStringToObject(o, "mode", e->mode);
        }
        cJSON_AddItemToObject(o, "old", side_json(&e->old, e->leaf));
        cJSON_AddItemToObject(o, "new", side_json(&e->new, e->leaf));
        cJSON_AddItemToArray(changes, o);
    }
    return root;
}
