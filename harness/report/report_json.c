/*
 * harness/report/report_json.c: report.json built from a run's results. This is
 * the one place results become report data; every renderer reads this tree.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/field_model.h"
#include "harness/core/fields.h"
#include "harness/core/levels.h"
#include "harness/report/report.h"
#include "harness/report/report_causes.h"
#include "harness/report/report_quirks.h"
#include "harness/report/report_json_base.h"
#include "harness/report/report_json_entity.h"
#include "harness/version.h"
#include "ref/readlog.h"

static cJSON *engines_totals_json(const run_results *r)
{
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; k < RES_ENG__COUNT; k++)
        cJSON_AddNumberToObject(o, res_eng_name((res_eng)k), (double)r->totals.engines[k]);
    cJSON_AddNumberToObject(o, "x87_precision_measured", (double)r->totals.x87_measured);
    return o;
}

static cJSON *result_json(const run_results *res, const clip_result *r)
{
    const run_file *f = &res->files[r->file];
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "file", f->name);
    cJSON_AddItemToObject(o, "model", json_str_or_null(f->parsed ? dat_kind_name(f->kind) : NULL));
    cJSON_AddNumberToObject(o, "clip", r->clip);
    json_add_str(o, "mode", mode_name(r->mode));
    json_add_str(o, "status", res_status_name(r->status));
    json_add_str(o, "source", res_source_name(r->source));
    cJSON_AddNumberToObject(o, "frames", r->frames);
    cJSON_AddNumberToObject(o, "ticks_ref", r->ref_ticks);
    cJSON_AddNumberToObject(o, "ticks_orig", r->orig_ticks);
    if (r->group >= 0) cJSON_AddNumberToObject(o, "group", r->group);
    else cJSON_AddNullToObject(o, "group");
    if ((r->status == RES_MISMATCH || r->status == RES_NOT_DECODED) && r->cause >= 0 &&
        (size_t)r->cause < res->ncauses)
        cJSON_AddNumberToObject(o, "cause", r->cause);
    else
        cJSON_AddNullToObject(o, "cause");
    cJSON_AddItemToObject(o, "divergence", report_json_divergence(r));
    if (r->expl) cJSON_AddItemToObject(o, "explanation", report_json_explain(r->expl, 0));
    cJSON_AddItemToObject(o, "cells", report_cells_json(r->cells));
    cJSON_AddItemToObject(o, "fault", json_fault(r->fault));
    if (r->eng.state != RES_ENG_NONE)
        cJSON_AddItemToObject(o, "engines", report_json_both(&r->eng));
    cJSON_AddItemToObject(o, "error", report_json_error(r->error));
    report_fields_result_json(o, res, r);
    return o;
}

/* The results array's items i in [from, to), each into items[i], on a thread of its own. */
typedef struct results_part {
    const run_results *r;
    cJSON **items;
    size_t from, to;
} results_part;

static void *results_part_build(void *arg)
{
    results_part *p = arg;
    for (size_t i = p->from; i < p->to; i++)
        p->items[i] = result_json(p->r, &p->r->results[i]);
    return NULL;
}

/*
 * The results array (one item per clip result, tens of thousands on a whole
 * corpus) built on up to threads threads: each builds its own items (cJSON
 * allocates through malloc), then they are linked in order here, so the
 * tree is the same for any count. Fewer results, or memory or a thread
 * refused, and they are built here.
 */
static void add_results(cJSON *res, const run_results *r, unsigned threads)
{
    enum { MAX_THREADS = 8, MIN_PER_THREAD = 2048 };
    size_t n = r->nresults;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (threads > n / MIN_PER_THREAD) threads = (unsigned)(n / MIN_PER_THREAD);
    cJSON **items = threads > 1 ? malloc(n * sizeof *items) : NULL;
    if (!items) {
        for (size_t i = 0; i < n; i++)
            cJSON_AddItemToArray(res, result_json(r, &r->results[i]));
        return;
    }
    results_part parts[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (unsigned k = 0; k < threads; k++)
        parts[k] = (results_part){r, items, n * k / threads, n * (k + 1) / threads};
    for (unsigned k = 1; k < threads; k++)
        started[k] = pthread_create(&th[k], NULL, results_part_build, &parts[k]) == 0;
    results_part_build(&parts[0]);
    for (unsigned k = 1; k < threads; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            results_part_build(&parts[k]);
    }
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(res, items[i]);
    free(items);
}

static cJSON *manifest_json(const run_file *f)
{
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "name", f->name);
    cJSON_AddItemToObject(o, "kind", json_str_or_null(f->parsed ? dat_kind_name(f->kind) : NULL));
    cJSON_AddNumberToObject(o, "size", (double)f->size);
    json_add_str(o, "sha256", f->sha256);
    cJSON_AddItemToObject(o, "origin", json_str_or_null(f->origin));
    cJSON_AddNumberToObject(o, "bones", f->bones);
    cJSON_AddNumberToObject(o, "clips", f->clips);
    cJSON_AddNumberToObject(o, "frames", (double)f->frames);
    cJSON_AddNumberToObject(o, "scale_clips", f->scale_clips);
    cJSON_AddNumberToObject(o, "long_clips", f->long_clips);
    json_add_str(o, "status", f->parsed ? "ok" : "bad_input");
    cJSON_AddItemToObject(o, "error",
                          report_json_error(f->error.kind != FF_E_OK ? &f->error : NULL));
    return o;
}

/* The bytes of a leaf case, "aa bb ..." */
static void case_bytes(const leaf_case *c, char hex[8 * 3 + 1])
{
    size_t h = 0;
    for (int i = 0; i < 8; i++)
        h += (size_t)snprintf(hex + h, 8 * 3 + 1 - h, "%s%02x", i ? " " : "", c->buf[i]);
}

/* One engine's answer to a leaf case: its AX, cursor and bit, or its fault. */
static cJSON *leaf_answer(int16_t ax, int64_t pos, int32_t bit, int fault)
{
    cJSON *o = cJSON_CreateObject();
    if (fault != EMU_FAULT_NONE) {
        json_add_str(o, "fault", emu_fault_name(fault));
        return o;
    }
    cJSON_AddNumberToObject(o, "ax", ax);
    cJSON_AddNumberToObject(o, "byte", (double)pos);
    cJSON_AddNumberToObject(o, "bit", bit);
    return o;
}

/* --engine both: a routine's cases on the two engines. */
static cJSON *leaf_both_json(const leaf_both *b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "calls", (double)b->calls);
    cJSON_AddNumberToObject(o, "disagree", (double)b->disagree);
    if (!b->have_first) {
        cJSON_AddNullToObject(o, "first_disagreement");
        return o;
    }
    const leaf_case *c = &b->first;
    char hex[8 * 3 + 1];
    case_bytes(c, hex);
    cJSON *d = cJSON_AddObjectToObject(o, "first_disagreement");
    cJSON_AddNumberToObject(d, "case", (double)c->index);
    json_add_str(d, "bytes", hex);
    cJSON_AddNumberToObject(d, "bit", c->bit);
    cJSON_AddNumberToObject(d, "n", c->n);
    cJSON_AddItemToObject(d, "first",
                          leaf_answer(c->ref_ax, c->ref_pos, c->ref_bit, b->fault_first));
    cJSON_AddItemToObject(d, "second",
                          leaf_answer(c->orig_ax, c->orig_pos, c->orig_bit, b->fault_second));
    return o;
}

static cJSON *leaf_json(const leaf_result *l)
{
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "routine", l->routine);
    cJSON_AddNumberToObject(o, "calls", (double)l->calls);
    cJSON_AddNumberToObject(o, "mismatches", (double)l->mismatches);
    cJSON_AddNumberToObject(o, "faults", (double)l->faults);
    if (l->group >= 0) cJSON_AddNumberToObject(o, "group", l->group);
    else cJSON_AddNullToObject(o, "group");
    if (l->have_first) {
        const leaf_case *c = &l->first;
        cJSON *m = cJSON_AddObjectToObject(o, "first_mismatch");
        char hex[8 * 3 + 1];
        case_bytes(c, hex);
        cJSON_AddNumberToObject(m, "case", (double)c->index);
        json_add_str(m, "bytes", hex);
        cJSON_AddNumberToObject(m, "bit", c->bit);
        cJSON_AddNumberToObject(m, "n", c->n);
        cJSON *ref = cJSON_AddObjectToObject(m, "ref"), *orig = cJSON_AddObjectToObject(m, "orig");
        cJSON_AddNumberToObject(ref, "ax", c->ref_ax);
        cJSON_AddNumberToObject(ref, "byte", (double)c->ref_pos);
        cJSON_AddNumberToObject(ref, "bit", c->ref_bit);
        cJSON_AddNumberToObject(orig, "ax", c->orig_ax);
        cJSON_AddNumberToObject(orig, "byte", (double)c->orig_pos);
        cJSON_AddNumberToObject(orig, "bit", c->orig_bit);
    } else {
        cJSON_AddNullToObject(o, "first_mismatch");
    }
    cJSON_AddItemToObject(o, "fault", json_fault(l->fault));
    if (l->fault) cJSON_AddNumberToObject(o, "fault_case", (double)l->fault_index);
    else cJSON_AddNullToObject(o, "fault_case");
    if (l->eng.calls) cJSON_AddItemToObject(o, "engines", leaf_both_json(&l->eng));
    return o;
}

/* The original instruction behind a group's first divergence (harness/run/writers.c). */
static cJSON *writer_json(const res_group *g)
{
    cJSON *o = cJSON_CreateObject();
    const emu_writer *w = &g->writer;
    if (g->have_writer && w->writes) {
        json_add_hex(o, "eip", w->eip);
        json_add_str(o, "routine", w->routine);
        cJSON_AddBoolToObject(o, "in_profile", w->routine_in_profile);
        cJSON_AddNumberToObject(o, "routine_offset", w->routine_offset);
        json_add_str(o, "instruction", w->insn);
        cJSON_AddNumberToObject(o, "writes", w->writes);
        cJSON_AddNumberToObject(o, "size", w->size);
        cJSON_AddNumberToObject(o, "value", (double)(w->value & 0xFFFFFFFFu));
    } else {
        cJSON_AddNullToObject(o, "eip");
    }
    json_add_str(o, "note", g->writer_note);
    return o;
}

static cJSON *group_json(const run_results *res, size_t i)
{
    const res_group *g = &res->groups[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)i);
    json_add_str(o, "level", g->level);
    json_add_str(o, "field", g->field);
    json_add_str(o, "mode", g->mode);
    json_add_str(o, "shape", g->shape);
    cJSON_AddNumberToObject(o, "count", (double)g->count);
    if (g->cause >= 0 && (size_t)g->cause < res->ncauses)
        cJSON_AddNumberToObject(o, "cause", g->cause);
    else
        cJSON_AddNullToObject(o, "cause");
    cJSON *ex = cJSON_AddObjectToObject(o, "example");
    if (strcmp(g->level, "frame") == 0 && g->example >= 0) {
        const clip_result *r = &res->results[g->example];
        char name[48];
        cJSON_AddNumberToObject(ex, "result", (double)g->example);
        json_add_str(ex, "file", res->files[r->file].name);
        cJSON_AddNumberToObject(ex, "clip", r->clip);
        json_add_str(ex, "mode", mode_name(r->mode));
        cJSON_AddNumberToObject(ex, "tick", (double)r->div.tick);
        json_add_str(ex, "field", field_name(r->div.field, r->div.bone, name, sizeof name));
        cJSON_AddNumberToObject(ex, "ref", r->div.ref);
        cJSON_AddNumberToObject(ex, "orig", r->div.orig);
        cJSON *s = cJSON_AddObjectToObject(o, "series");
        json_add_str(s, "field", name);
        cJSON_AddNumberToObject(s, "ref_ticks", (double)g->series.ref_n);
        cJSON_AddNumberToObject(s, "orig_ticks", (double)g->series.orig_n);
        cJSON_AddItemToObject(s, "ref", report_json_ints(g->series.ref, g->series.ref_n));
        cJSON_AddItemToObject(s, "orig", report_json_ints(g->series.orig, g->series.orig_n));
        cJSON_AddItemToObject(o, "writer", g->have_writer || g->writer_note[0]
                                               ? writer_json(g)
                                               : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "skeleton", report_figure_json(&g->figure));
        cJSON_AddItemToObject(o, "explanation", report_json_explain(&g->expl, 1));
    } else if (strcmp(g->level, "entity") == 0 && g->example >= 0 &&
               (size_t)g->example < res->nentity_results) {
        report_json_entity_example(res, g, o, ex);
        cJSON_AddItemToObject(o, "skeleton", report_figure_json(&g->figure));
        cJSON_AddItemToObject(o, "explanation", report_json_explain(&g->expl, 1));
    } else if (strcmp(g->level, "leaf") == 0 && g->example >= 0 &&
               (size_t)g->example < res->nleaf) {
        const leaf_result *l = &res->leaf[g->example];
        json_add_str(ex, "routine", l->routine);
        cJSON_AddNumberToObject(ex, "case", (double)l->first.index);
        cJSON_AddNullToObject(o, "series");
        cJSON_AddNullToObject(o, "writer");
        cJSON_AddNullToObject(o, "skeleton");
        cJSON_AddNullToObject(o, "explanation");
    } else {
        /* A group always has an example; a tree without one is not emitted half-made. */
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* Which engine did what: the calls, the replays with hooks (and why there), coverage. */
static cJSON *engines_json(const res_engines *e)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "calls", json_str_or_null(e->calls[0] ? e->calls : NULL));
    cJSON_AddItemToObject(o, "replays", json_str_or_null(e->replays[0] ? e->replays : NULL));
    json_add_str(o, "replays_why", e->replays_why);
    cJSON_AddItemToObject(o, "coverage", json_str_or_null(e->coverage[0] ? e->coverage : NULL));
    cJSON_AddItemToObject(o, "second", json_str_or_null(e->second[0] ? e->second : NULL));
    return o;
}

/* Whether the run was asked for level l. */
static int meta_level(const run_meta *m, run_level l)
{
    switch (l) { /* no default: a row added to RUN_LEVEL_MAP without its flag is a warning */
    case RUN_LEVEL_FRAME:
        return m->frame_level;
    case RUN_LEVEL_POSE:
        return m->pose_level;
    case RUN_LEVEL_ENTITY:
        return m->entity_level;
    case RUN_LEVEL_LEAF:
        return m->leaf_level;
    case RUN_LEVEL__COUNT:
        break;
    }
    return 0;
}

static cJSON *run_json(const run_meta *m, const run_results *r)
{
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "command", m->command);
    json_add_str(o, "id", m->run_id);
    json_add_str(o, "started", m->started);
    json_add_str(o, "finished", m->finished);
    cJSON_AddNumberToObject(o, "seconds", r->seconds);
    cJSON_AddNumberToObject(o, "explain_seconds", r->explain_seconds);
    cJSON_AddBoolToObject(o, "interrupted", r->interrupted);
    cJSON_AddItemToObject(o, "interrupted_by",
                          json_str_or_null(!r->interrupted                ? NULL
                                      : r->interrupt_signal == SIGTERM ? "SIGTERM"
                                                                       : "SIGINT"));
    cJSON *warn = cJSON_AddArrayToObject(o, "warnings");
    for (size_t i = 0; i < r->nwarnings; i++) cJSON_AddItemToArray(warn, json_string(r->warnings[i]));
    json_identity(o, m);
    cJSON_AddItemToObject(o, "engines", engines_json(&r->engines));
    cJSON *levels = cJSON_AddArrayToObject(o, "levels");
    for (int l = 0; l < RUN_LEVEL__COUNT; l++)
        if (meta_level(m, (run_level)l))
            cJSON_AddItemToArray(levels, json_string(run_level_name((run_level)l)));
    cJSON_AddNumberToObject(o, "jobs", m->jobs);
    cJSON *opt = cJSON_AddObjectToObject(o, "options");
    json_add_str(opt, "bone_matrices",
                            m->pose_level       ? "compared"
                            : m->keep_matrices ? "original"
                                               : "replaced_by_return");
    cJSON_AddBoolToObject(opt, "dedup", m->dedup);
    json_add_str(opt, "explain", m->explain ? m->explain : "groups");
    cJSON_AddBoolToObject(opt, "coverage", m->coverage);
    cJSON_AddNumberToObject(opt, "leaf_calls", (double)m->leaf_calls);
    cJSON_AddNumberToObject(opt, "seed", (double)m->seed);
    cJSON_AddItemToObject(opt, "cache", json_str_or_null(m->cache_dir));
    cJSON_AddItemToObject(opt, "traces", json_str_or_null(m->traces_dir));
    cJSON_AddItemToObject(opt, "against", json_str_or_null(m->against_dir));
    cJSON_AddItemToObject(opt, "require", report_fields_require_json(r));
    cJSON_AddNumberToObject(o, "emulated_calls", (double)m->emulated_calls);
    cJSON_AddItemToObject(o, "pose", report_pose_json(&r->pose));
    cJSON *sides = cJSON_AddObjectToObject(o, "sides");
    cJSON *cand = cJSON_AddObjectToObject(sides, "candidate");
    json_add_str(cand, "label", m->cand_label ? m->cand_label : "reference");
    json_add_str(cand, "source", m->cand_source ? m->cand_source : "ff8diff reference engine (ref/)");
    json_add_str(cand, "format", m->cand_format ? m->cand_format : "engine");
    cJSON *auth = cJSON_AddObjectToObject(sides, "authority");
    json_add_str(auth, "label", m->auth_label ? m->auth_label : "original");
    cJSON_AddItemToObject(auth, "source",
                          json_str_or_null(m->auth_source ? m->auth_source : m->exe_path));
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (unsigned i = 0; i < m->nnotes && i < RUN_META_MAX_NOTES; i++)
        cJSON_AddItemToArray(notes, json_string(m->notes[i]));
    return o;
}

static cJSON *totals_json(const run_results *r)
{
    const run_totals *t = &r->totals;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "files", (double)t->files);
    cJSON_AddNumberToObject(o, "bad_files", (double)t->bad_files);
    cJSON_AddNumberToObject(o, "clips", (double)t->clips);
    cJSON_AddNumberToObject(o, "comparisons", (double)t->comparisons);
    for (int s = 0; s < RES__COUNT; s++)
        cJSON_AddNumberToObject(o, res_status_name(s), (double)t->by_status[s]);
    cJSON *src = cJSON_AddObjectToObject(o, "sources");
    for (int s = 0; s < RES_SRC__COUNT; s++)
        cJSON_AddNumberToObject(src, res_source_name(s), (double)t->by_source[s]);
    cJSON_AddNumberToObject(o, "ticks_ref", (double)t->ticks_ref);
    cJSON_AddNumberToObject(o, "ticks_orig", (double)t->ticks_orig);
    cJSON_AddNumberToObject(o, "leaf_calls", (double)t->leaf_calls);
    cJSON_AddNumberToObject(o, "leaf_mismatches", (double)t->leaf_mismatches);
    cJSON_AddNumberToObject(o, "leaf_faults", (double)t->leaf_faults);
    cJSON *le = cJSON_AddObjectToObject(o, "leaf_engines");
    cJSON_AddNumberToObject(le, "calls", (double)t->leaf_engine_calls);
    cJSON_AddNumberToObject(le, "disagree", (double)t->leaf_engine_disagree);
    cJSON_AddNumberToObject(o, "groups", (double)r->ngroups);
    cJSON_AddNumberToObject(o, "cache_rejected", (double)t->cache_rejected);
    cJSON_AddNumberToObject(o, "x87_precision", (double)t->x87_limit);
    cJSON_AddItemToObject(o, "engines", engines_totals_json(r));
    cJSON_AddItemToObject(o, "cells", report_cells_totals_json(t));
    cJSON_AddItemToObject(o, "fields", report_fields_totals_json(r));
    cJSON_AddNumberToObject(o, "causes", (double)r->ncauses);
    cJSON_AddItemToObject(o, "entity", report_json_entity_totals(r));
    return o;
}

cJSON *report_json_verdict(verdict v)
{
    cJSON *o = cJSON_CreateObject();
    json_add_str(o, "result", verdict_result_name(verdict_result_of(v)));
    json_add_str(o, "reason", verdict_reason_name(v));
    return o;
}

cJSON *report_build(const run_meta *m, const run_results *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    json_add_str(root, "schema", REPORT_SCHEMA);
    cJSON_AddItemToObject(root, "run", run_json(m, r));
    cJSON_AddItemToObject(root, "totals", totals_json(r));
    cJSON_AddItemToObject(root, "verdict",
                          report_json_verdict(verdict_decide(&r->totals, r->interrupted)));
    cJSON *man = cJSON_AddArrayToObject(root, "manifest");
    for (size_t i = 0; i < r->nfiles; i++) cJSON_AddItemToArray(man, manifest_json(&r->files[i]));
    cJSON *res = cJSON_AddArrayToObject(root, "results");
    add_results(res, r, m->jobs);
    cJSON *leaf = cJSON_AddArrayToObject(root, "leaf");
    for (size_t i = 0; i < r->nleaf; i++) cJSON_AddItemToArray(leaf, leaf_json(&r->leaf[i]));
    cJSON_AddItemToObject(root, "pose_leaf", report_pose_leaf_json(r));
    report_json_entities(root, r);
    cJSON_AddItemToObject(root, "causes", report_json_causes(r));
    cJSON *groups = cJSON_AddArrayToObject(root, "groups");
    for (size_t i = 0; i < r->ngroups; i++) {
        cJSON *g = group_json(r, i);
        if (g) cJSON_AddItemToArray(groups, g);
    }
    cJSON_AddItemToObject(root, "coverage", report_json_coverage(&r->coverage));
    cJSON_AddItemToObject(root, "quirks", report_json_quirks(r));
    return root;
}
