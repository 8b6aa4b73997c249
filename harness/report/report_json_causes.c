/*
 * harness/report/report_json_causes.c: the report tree's "causes" and
 * "coverage", and the explanation of a group's example (its first
 * differing read and both read logs around it). Built from the run's
 * results only, like the rest of report.json (harness/report/report_json.c).
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_json_base.h"
#include "harness/report/report_causes.h"
#include "harness/report/report_view.h"

static cJSON *read_json(const ref_read *r, size_t index)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", (double)index);
    json_add_str(o, "routine", ref_routine_name((ref_routine)r->routine));
    cJSON_AddNumberToObject(o, "depth", r->depth);
    if (r->routine == REF_R_BITREADER) cJSON_AddNumberToObject(o, "n", r->n);
    else cJSON_AddNullToObject(o, "n");
    cJSON_AddNumberToObject(o, "value", r->value);
    cJSON_AddNumberToObject(o, "byte", (double)r->pos);
    cJSON_AddNumberToObject(o, "bit", r->bit);
    cJSON_AddNumberToObject(o, "byte_after", (double)r->pos_after);
    cJSON_AddNumberToObject(o, "bit_after", r->bit_after);
    return o;
}

static cJSON *reads_json(const ref_read *r, unsigned n, size_t first)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned i = 0; i < n; i++) cJSON_AddItemToArray(a, read_json(&r[i], first + i));
    return a;
}

static cJSON *writer_of(const res_explain *e)
{
    if (!e->have_writer || !e->writer.writes) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    json_add_hex(o, "eip", e->writer.eip);
    json_add_str(o, "routine", e->writer.routine);
    cJSON_AddBoolToObject(o, "in_profile", e->writer.routine_in_profile);
    cJSON_AddNumberToObject(o, "routine_offset", e->writer.routine_offset);
    json_add_str(o, "instruction", e->writer.insn);
    return o;
}

cJSON *report_json_explain(const res_explain *e, int with_window)
{
    if (e->state == RES_EXPL_NONE) return cJSON_CreateNull();
    static const char *const states[] = {"none", "read", "combine", "failed"};
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "state", states[e->state]);
    json_add_str(o, "note", e->note);
    cJSON_AddNumberToObject(o, "tick", (double)e->tick);
    cJSON_AddNumberToObject(o, "ref_reads", (double)e->ref_reads);
    cJSON_AddNumberToObject(o, "orig_reads", (double)e->orig_reads);
    if (e->state == RES_EXPL_READ) {
        const readcmp_first *f = &e->first;
        cJSON *d = cJSON_AddObjectToObject(o, "first_read");
        cJSON_AddNumberToObject(d, "index", (double)f->index);
        json_add_str(d, "differs", readcmp_diff_name(f->diff));
        json_add_str(d, "routine", f->routine);
        json_add_str(d, "caller", f->caller);
        json_add_str(d, "responsible", f->responsible);
        json_add_str(d, "class", f->cls);
        cJSON_AddItemToObject(d, "ref", f->have_ref ? read_json(&f->ref, f->index)
                                                     : cJSON_CreateNull());
        cJSON_AddItemToObject(d, "orig", f->have_orig ? read_json(&f->orig, f->index)
                                                       : cJSON_CreateNull());
        if (e->call_eip) {
            cJSON *c = cJSON_AddObjectToObject(d, "call");
            json_add_hex(c, "eip", e->call_eip);
            json_add_str(c, "instruction", e->call_insn);
            json_add_str(c, "routine", e->call_routine);
            cJSON_AddBoolToObject(c, "in_profile", e->call_in_profile);
            cJSON_AddNumberToObject(c, "routine_offset", e->call_offset);
        } else {
            cJSON_AddNullToObject(d, "call");
        }
    } else {
        cJSON_AddNullToObject(o, "first_read");
    }
    if (e->state == RES_EXPL_COMBINE) {
        cJSON *c = cJSON_AddObjectToObject(o, "combine");
        cJSON_AddNumberToObject(c, "before", e->before);
        json_add_str(c, "relation", e->relation);
        cJSON_AddItemToObject(c, "writer", writer_of(e));
    } else {
        cJSON_AddNullToObject(o, "combine");
    }
    if (!with_window) return o;
    cJSON *w = cJSON_AddObjectToObject(o, "window");
    cJSON_AddNumberToObject(w, "first", (double)e->win_first);
    cJSON_AddItemToObject(w, "ref", reads_json(e->win_ref, e->win_ref_n, e->win_first));
    cJSON_AddItemToObject(w, "orig", reads_json(e->win_orig, e->win_orig_n, e->win_first));
    return o;
}

/* A cause's first clip result (its own, else its example group's at the frame level), or null. */
static cJSON *first_json(const run_results *res, const res_cause *c)
{
    int64_t i = c->example_result;
    if (i < 0 && c->example >= 0 && (size_t)c->example < res->ngroups &&
        !strcmp(res->groups[c->example].level, "frame"))
        i = res->groups[c->example].example;
    if (i < 0 || (size_t)i >= res->nresults) return cJSON_CreateNull();
    const clip_result *r = &res->results[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "result", (double)i);
    json_add_str(o, "file", res->files[r->file].name);
    cJSON_AddNumberToObject(o, "clip", r->clip);
    json_add_str(o, "mode", mode_name(r->mode));
    json_add_str(o, "status", res_status_name(r->status));
    if (r->status == RES_NOT_DECODED) {
        cJSON_AddNumberToObject(o, "tick", r->ref_ticks);
        cJSON_AddNumberToObject(o, "expected", r->orig_ticks);
        cJSON_AddNullToObject(o, "field");
        cJSON_AddNullToObject(o, "ref");
        cJSON_AddNullToObject(o, "orig");
        return o;
    }
    char name[64];
    cJSON_AddNumberToObject(o, "tick", (double)r->div.tick);
    cJSON_AddNullToObject(o, "expected");
    json_add_str(o, "field", field_name(r->div.field, r->div.bone, name, sizeof name));
    cJSON_AddNumberToObject(o, "ref", r->div.ref);
    cJSON_AddNumberToObject(o, "orig", r->div.orig);
    return o;
}

/* The quirk-table rows behind a cause, by name. */
static cJSON *rows_json(uint32_t rows)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned q = 0; q < REF_Q__COUNT; q++)
        if (rows & REF_QUIRK_BIT(q))
            cJSON_AddItemToArray(a, json_string(ref_quirk_def_of((ref_quirk)q)->name));
    return a;
}

static cJSON *cause_json(const run_results *res, size_t i)
{
    const res_cause *c = &res->causes[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)i);
    json_add_str(o, "kind", c->kind);
    json_add_str(o, "statement", c->statement);
    json_add_str(o, "routine", c->routine);
    if (c->have_insn) {
        cJSON *in = cJSON_AddObjectToObject(o, "instruction");
        json_add_hex(in, "eip", c->eip);
        json_add_str(in, "text", c->insn);
        json_add_str(in, "routine", c->insn_routine);
        cJSON_AddBoolToObject(in, "in_profile", c->insn_in_profile);
        cJSON_AddNumberToObject(in, "routine_offset", c->insn_offset);
    } else {
        cJSON_AddNullToObject(o, "instruction");
    }
    json_add_str(o, "signature", c->signature);
    cJSON *vals = cJSON_AddArrayToObject(o, "values");
    for (unsigned k = 0; k < c->nvalues; k++)
        cJSON_AddItemToArray(vals, json_string(c->values[k]));
    cJSON_AddNumberToObject(o, "more_values", c->more_values);
    cJSON *n = cJSON_AddObjectToObject(o, "counts");
    cJSON_AddNumberToObject(n, "clips", (double)c->clips);
    cJSON_AddNumberToObject(n, "leaf_calls", (double)c->leaf_calls);
    cJSON_AddNumberToObject(n, "entity_clips", (double)c->entity_clips);
    cJSON_AddNumberToObject(n, "files", (double)c->files);
    cJSON *modes = cJSON_AddArrayToObject(n, "modes");
    for (int m = 0; m < MODE__COUNT; m++)
        if (c->modes & (1u << m)) cJSON_AddItemToArray(modes, json_string(mode_name(m)));
    if (c->example >= 0) cJSON_AddNumberToObject(o, "example_group", (double)c->example);
    else cJSON_AddNullToObject(o, "example_group");
    cJSON_AddItemToObject(o, "quirk_rows", rows_json(c->rows));
    cJSON_AddItemToObject(o, "first", first_json(res, c));
    cJSON *g = cJSON_AddArrayToObject(o, "groups");
    for (size_t k = 0; k < c->ngroups; k++)
        cJSON_AddItemToArray(g, cJSON_CreateNumber(c->groups[k]));
    cJSON_AddItemToObject(o, "consequence_of", c->consequence_of[0]
                                                   ? json_string(c->consequence_of)
                                                   : cJSON_CreateNull());
    return o;
}

cJSON *report_json_causes(const run_results *res)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < res->ncauses; i++) cJSON_AddItemToArray(a, cause_json(res, i));
    return a;
}

static cJSON *block_json(const res_cov_block *b)
{
    cJSON *o = cJSON_CreateObject();
    json_add_hex(o, "start", b->start);
    json_add_hex(o, "end", b->end);
    cJSON_AddNumberToObject(o, "instructions", b->insns);
    cJSON *lines = cJSON_AddArrayToObject(o, "disassembly");
    for (const char *p = b->disasm ? b->disasm : ""; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[200];
        snprintf(line, sizeof line, "%.*s", (int)(len < 199 ? len : 199), p);
        cJSON_AddItemToArray(lines, json_string(line));
        p += len + (nl ? 1 : 0);
    }
    cJSON *via = cJSON_AddObjectToObject(o, "reached_from");
    json_add_str(via, "edge", b->edge);
    if (b->from) {
        json_add_hex(via, "eip", b->from);
        json_add_str(via, "instruction", b->branch);
        cJSON_AddBoolToObject(via, "covered", b->from_covered);
    } else {
        cJSON_AddNullToObject(via, "eip");
        cJSON_AddNullToObject(via, "instruction");
        cJSON_AddBoolToObject(via, "covered", 0);
    }
    return o;
}

cJSON *report_json_coverage(const res_coverage *c)
{
    if (!c->enabled) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "recorded", !c->not_recorded[0]);
    cJSON_AddItemToObject(o, "not_recorded",
                          json_str_or_null(c->not_recorded[0] ? c->not_recorded : NULL));
    cJSON_AddBoolToObject(o, "complete", c->complete);
    cJSON_AddNumberToObject(o, "not_emulated", (double)c->not_emulated);
    cJSON *rs = cJSON_AddArrayToObject(o, "routines");
    for (unsigned i = 0; i < c->nroutines; i++) {
        const res_cov_routine *r = &c->routines[i];
        cJSON *x = cJSON_CreateObject();
        json_add_str(x, "name", r->name);
        json_add_hex(x, "entry", r->entry);
        cJSON_AddNumberToObject(x, "blocks", r->blocks);
        cJSON_AddNumberToObject(x, "covered", r->covered);
        json_add_str(x, "note", r->note);
        cJSON *u = cJSON_AddArrayToObject(x, "uncovered");
        for (unsigned k = 0; k < r->nuncovered; k++)
            cJSON_AddItemToArray(u, block_json(&r->uncovered[k]));
        cJSON_AddItemToArray(rs, x);
    }
    return o;
}

void report_read_text(const cJSON *r, char *out, size_t n)
{
    char count[16] = "";
    if (rv_has_num(r, "n")) snprintf(count, sizeof count, "(%lld)", (long long)rv_int(r, "n", 0));
    snprintf(out, n, "%s%s%s = %lld  %lld.%lld -> %lld.%lld", rv_int(r, "depth", 0) > 0 ? "  " : "",
             rv_str(r, "routine", "?"), count, (long long)rv_int(r, "value", 0),
             (long long)rv_int(r, "byte", 0), (long long)rv_int(r, "bit", 0),
             (long long)rv_int(r, "byte_after", 0), (long long)rv_int(r, "bit_after", 0));
}

const cJSON *report_group_by_id(const cJSON *report, int64_t id)
{
    const cJSON *g;
    cJSON_ArrayForEach(g, rv_arr(report, "groups"))
    {
        if (rv_int(g, "id", -1) == id) return g;
    }
    return NULL;
}
