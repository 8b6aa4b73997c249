/*
 * harness/report/report_json.c: report.json built from a run's results. This is
 * the one place results become report data; every renderer reads this tree.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "harness/core/field_model.h"
#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_causes.h"
#include "harness/report/report_json_entity.h"
#include "harness/version.h"
#include "ref/readlog.h"

/*
 * Every string of the report goes through here: names and messages come
 * from files, and report.json must stay valid UTF-8 whatever they hold.
 */
cJSON *report_json_string(const char *s)
{
    if (!s) s = "";
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = utf8_seq_len(p);
        if (!n) break;
        p += n;
    }
    if (!*p) return cJSON_CreateString(s);
    strbuf b;
    sb_init(&b);
    sb_utf8(&b, s);
    cJSON *item = cJSON_CreateString(strbuf_failed(&b) ? "?" : b.s);
    sb_free(&b);
    return item;
}

static cJSON *jstr(const char *s)
{
    return report_json_string(s);
}

static void add_str(cJSON *o, const char *key, const char *s)
{
    cJSON_AddItemToObject(o, key, jstr(s));
}

static cJSON *str_or_null(const char *s)
{
    return s ? jstr(s) : cJSON_CreateNull();
}

static void add_hex(cJSON *o, const char *key, uint32_t v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "0x%x", v);
    add_str(o, key, buf);
}

cJSON *report_json_error(const ff_error *e)
{
    if (!e) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char msg[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    add_str(o, "kind", ff_errkind_name(e->kind));
    add_str(o, "file", e->file);
    if (e->offset >= 0) cJSON_AddNumberToObject(o, "offset", (double)e->offset);
    else cJSON_AddNullToObject(o, "offset");
    add_str(o, "reason", e->reason);
    add_str(o, "message", ff_error_format(e, msg, sizeof msg));
    return o;
}

cJSON *report_json_fault(const emu_fault *f)
{
    if (!f) return cJSON_CreateNull();
    static const char *const regs[EMU__NREGS] = {"eax", "ecx", "edx", "ebx", "esp",
                                                 "ebp", "esi", "edi", "eip", "eflags"};
    cJSON *o = cJSON_CreateObject();
    add_str(o, "kind", emu_fault_name(f->kind));
    add_str(o, "message", emu_fault_message(f->kind));
    add_hex(o, "routine", f->routine);
    add_hex(o, "eip", f->eip);
    add_hex(o, "address", f->addr);
    cJSON *r = cJSON_AddObjectToObject(o, "registers");
    for (int i = 0; i < EMU__NREGS; i++) add_hex(r, regs[i], f->regs[i]);
    if (f->kind == EMU_FAULT_IMPORT) {
        cJSON *imp = cJSON_AddObjectToObject(o, "import");
        add_str(imp, "dll", f->import_dll);
        add_str(imp, "name", f->import_name);
        add_hex(imp, "caller", f->caller);
    } else {
        cJSON_AddNullToObject(o, "import");
    }
    add_str(o, "detail", f->detail);
    cJSON *dis = cJSON_AddArrayToObject(o, "disassembly");
    const char *p = f->disasm;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), p);
        cJSON_AddItemToArray(dis, jstr(line));
        p += len + (nl ? 1 : 0);
    }
    return o;
}

static cJSON *stream_json(const clip_result *r)
{
    cJSON *o = cJSON_CreateObject();
    char hex[RES_STREAM_BYTES * 3 + 1] = "", bits[RES_STREAM_BYTES * 9 + 1] = "";
    size_t h = 0, b = 0;
    for (unsigned i = 0; i < r->stream_len; i++) {
        h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", r->stream[i]);
        if (i) bits[b++] = ' ';
        for (int k = 0; k < 8; k++) bits[b++] = (char)('0' + ((r->stream[i] >> k) & 1));
    }
    bits[b] = '\0';
    cJSON_AddNumberToObject(o, "offset", (double)r->stream_off);
    add_str(o, "hex", hex);
    add_str(o, "bits_lsb_first", bits);
    /* The window is centred on the value's read: the tick's cursor may lie outside it. */
    if (r->cursor_file_off >= r->stream_off && r->cursor_file_off - r->stream_off < r->stream_len)
        cJSON_AddNumberToObject(o, "cursor_index", (double)(r->cursor_file_off - r->stream_off));
    else
        cJSON_AddNullToObject(o, "cursor_index");
    if (r->have_value && r->value_file_off >= r->stream_off) {
        cJSON *v = cJSON_AddObjectToObject(o, "value");
        add_str(v, "routine", ref_routine_name((ref_routine)r->value_routine));
        cJSON_AddNumberToObject(v, "index", (double)(r->value_file_off - r->stream_off));
        cJSON_AddNumberToObject(v, "bit", r->value_bit);
        cJSON_AddNumberToObject(v, "bits", r->value_bits);
    } else {
        cJSON_AddNullToObject(o, "value");
    }
    return o;
}

cJSON *report_json_divergence(const clip_result *r)
{
    if (r->status != RES_MISMATCH) return cJSON_CreateNull();
    const cmp_divergence *d = &r->div;
    char name[64];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "tick", (double)d->tick);
    add_str(o, "field", field_model_field_name(d->model, d->field, d->bone, name, sizeof name));
    add_str(o, "field_kind", field_kind_name(d->field));
    if (field_is_per_bone(d->field)) cJSON_AddNumberToObject(o, "bone", d->bone);
    else cJSON_AddNullToObject(o, "bone");
    cJSON_AddNumberToObject(o, "ref", d->ref);
    cJSON_AddNumberToObject(o, "orig", d->orig);
    cJSON *c = cJSON_AddObjectToObject(o, "cursor");
    cJSON_AddNumberToObject(c, "byte", d->cursor_off);
    cJSON_AddNumberToObject(c, "bit", d->cursor_bit);
    cJSON_AddNumberToObject(c, "file_offset", (double)r->cursor_file_off);
    cJSON_AddItemToObject(o, "stream", stream_json(r));
    cJSON_AddNumberToObject(o, "differing_fields", (double)d->differing);
    return o;
}

static cJSON *result_json(const run_results *res, const clip_result *r)
{
    const run_file *f = &res->files[r->file];
    cJSON *o = cJSON_CreateObject();
    add_str(o, "file", f->name);
    cJSON_AddItemToObject(o, "model", str_or_null(f->parsed ? dat_kind_name(f->kind) : NULL));
    cJSON_AddNumberToObject(o, "clip", r->clip);
    add_str(o, "mode", mode_name(r->mode));
    add_str(o, "status", res_status_name(r->status));
    add_str(o, "source", res_source_name(r->source));
    cJSON_AddNumberToObject(o, "frames", r->frames);
    cJSON_AddNumberToObject(o, "ticks_ref", r->ref_ticks);
    cJSON_AddNumberToObject(o, "ticks_orig", r->orig_ticks);
    if (r->group >= 0) cJSON_AddNumberToObject(o, "group", r->group);
    else cJSON_AddNullToObject(o, "group");
    if (r->status == RES_MISMATCH && r->cause >= 0 && (size_t)r->cause < res->ncauses)
        cJSON_AddNumberToObject(o, "cause", r->cause);
    else
        cJSON_AddNullToObject(o, "cause");
    cJSON_AddItemToObject(o, "divergence", report_json_divergence(r));
    if (r->expl) cJSON_AddItemToObject(o, "explanation", report_json_explain(r->expl, 0));
    cJSON_AddItemToObject(o, "fault", report_json_fault(r->fault));
    cJSON_AddItemToObject(o, "error", report_json_error(r->error));
    return o;
}

static cJSON *manifest_json(const run_file *f)
{
    cJSON *o = cJSON_CreateObject();
    add_str(o, "name", f->name);
    cJSON_AddItemToObject(o, "kind", str_or_null(f->parsed ? dat_kind_name(f->kind) : NULL));
    cJSON_AddNumberToObject(o, "size", (double)f->size);
    add_str(o, "sha256", f->sha256);
    cJSON_AddNumberToObject(o, "bones", f->bones);
    cJSON_AddNumberToObject(o, "clips", f->clips);
    cJSON_AddNumberToObject(o, "frames", (double)f->frames);
    cJSON_AddNumberToObject(o, "scale_clips", f->scale_clips);
    cJSON_AddNumberToObject(o, "long_clips", f->long_clips);
    add_str(o, "status", f->parsed ? "ok" : "bad_input");
    cJSON_AddItemToObject(o, "error",
                          report_json_error(f->error.kind != FF_E_OK ? &f->error : NULL));
    return o;
}

static cJSON *leaf_json(const leaf_result *l)
{
    cJSON *o = cJSON_CreateObject();
    add_str(o, "routine", l->routine);
    cJSON_AddNumberToObject(o, "calls", (double)l->calls);
    cJSON_AddNumberToObject(o, "mismatches", (double)l->mismatches);
    cJSON_AddNumberToObject(o, "faults", (double)l->faults);
    if (l->group >= 0) cJSON_AddNumberToObject(o, "group", l->group);
    else cJSON_AddNullToObject(o, "group");
    if (l->have_first) {
        const leaf_case *c = &l->first;
        cJSON *m = cJSON_AddObjectToObject(o, "first_mismatch");
        char hex[8 * 3 + 1];
        size_t h = 0;
        for (int i = 0; i < 8; i++)
            h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%02x", i ? " " : "", c->buf[i]);
        cJSON_AddNumberToObject(m, "case", (double)c->index);
        add_str(m, "bytes", hex);
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
    cJSON_AddItemToObject(o, "fault", report_json_fault(l->fault));
    if (l->fault) cJSON_AddNumberToObject(o, "fault_case", (double)l->fault_index);
    else cJSON_AddNullToObject(o, "fault_case");
    return o;
}

cJSON *report_json_ints(const int32_t *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

/* The original instruction behind a group's first divergence (harness/run/writers.c). */
static cJSON *writer_json(const res_group *g)
{
    cJSON *o = cJSON_CreateObject();
    const emu_writer *w = &g->writer;
    if (g->have_writer && w->writes) {
        add_hex(o, "eip", w->eip);
        add_str(o, "routine", w->routine);
        cJSON_AddNumberToObject(o, "routine_offset", w->routine_offset);
        add_str(o, "instruction", w->insn);
        cJSON_AddNumberToObject(o, "writes", w->writes);
        cJSON_AddNumberToObject(o, "size", w->size);
        cJSON_AddNumberToObject(o, "value", (double)(w->value & 0xFFFFFFFFu));
    } else {
        cJSON_AddNullToObject(o, "eip");
    }
    add_str(o, "note", g->writer_note);
    return o;
}

static cJSON *group_json(const run_results *res, size_t i)
{
    const res_group *g = &res->groups[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "id", (double)i);
    add_str(o, "level", g->level);
    add_str(o, "field", g->field);
    add_str(o, "mode", g->mode);
    add_str(o, "shape", g->shape);
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
        add_str(ex, "file", res->files[r->file].name);
        cJSON_AddNumberToObject(ex, "clip", r->clip);
        add_str(ex, "mode", mode_name(r->mode));
        cJSON_AddNumberToObject(ex, "tick", (double)r->div.tick);
        add_str(ex, "field", field_name(r->div.field, r->div.bone, name, sizeof name));
        cJSON_AddNumberToObject(ex, "ref", r->div.ref);
        cJSON_AddNumberToObject(ex, "orig", r->div.orig);
        cJSON *s = cJSON_AddObjectToObject(o, "series");
        add_str(s, "field", name);
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
        add_str(ex, "routine", l->routine);
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

void report_json_identity(cJSON *o, const report_meta *m)
{
    cJSON *tool = cJSON_AddObjectToObject(o, "tool");
    add_str(tool, "name", "ff8diff");
    add_str(tool, "version", FF8DIFF_VERSION);
    cJSON *exe = cJSON_AddObjectToObject(o, "executable");
    cJSON_AddItemToObject(exe, "path", str_or_null(m->exe_path));
    cJSON_AddItemToObject(exe, "sha256", str_or_null(m->exe_sha256));
    cJSON_AddItemToObject(exe, "profile", str_or_null(m->profile));
    cJSON_AddItemToObject(exe, "profile_source", str_or_null(m->profile_source));
    add_str(exe, "verdict", m->exe_verdict ? m->exe_verdict : "none");
    add_str(exe, "warning", m->exe_warning ? m->exe_warning : "");
    if (m->located_from) {
        cJSON *loc = cJSON_AddObjectToObject(exe, "profile_located");
        add_str(loc, "from_profile", m->located_from);
        add_str(loc, "executable", m->located_exe ? m->located_exe : "");
        add_str(loc, "patterns", m->located_patterns ? m->located_patterns : "");
        add_str(loc, "tool", m->located_tool ? m->located_tool : "");
    } else {
        cJSON_AddNullToObject(exe, "profile_located");
    }
    cJSON *c = cJSON_AddObjectToObject(o, "corpus");
    cJSON_AddItemToObject(c, "path", str_or_null(m->corpus_path));
    cJSON_AddItemToObject(c, "kind", str_or_null(m->corpus_kind));
    cJSON_AddItemToObject(c, "description", str_or_null(m->corpus_description));
    if (m->synthetic_preset) {
        cJSON *s = cJSON_AddObjectToObject(c, "synthetic");
        add_str(s, "preset", m->synthetic_preset);
        cJSON_AddNumberToObject(s, "seed", (double)m->synthetic_seed);
    } else {
        cJSON_AddNullToObject(c, "synthetic");
    }
    cJSON *modes = cJSON_AddArrayToObject(o, "modes");
    for (int i = 0; i < MODE__COUNT; i++)
        if (m->modes & (1u << i)) cJSON_AddItemToArray(modes, jstr(mode_name(i)));
}

static cJSON *run_json(const report_meta *m, const run_results *r)
{
    cJSON *o = cJSON_CreateObject();
    add_str(o, "command", m->command);
    add_str(o, "id", m->run_id);
    add_str(o, "started", m->started);
    add_str(o, "finished", m->finished);
    cJSON_AddNumberToObject(o, "seconds", r->seconds);
    cJSON_AddNumberToObject(o, "explain_seconds", r->explain_seconds);
    cJSON_AddBoolToObject(o, "interrupted", r->interrupted);
    cJSON_AddItemToObject(o, "interrupted_by",
                          str_or_null(!r->interrupted                ? NULL
                                      : r->interrupt_signal == SIGTERM ? "SIGTERM"
                                                                       : "SIGINT"));
    cJSON *warn = cJSON_AddArrayToObject(o, "warnings");
    for (size_t i = 0; i < r->nwarnings; i++) cJSON_AddItemToArray(warn, jstr(r->warnings[i]));
    report_json_identity(o, m);
    cJSON *levels = cJSON_AddArrayToObject(o, "levels");
    if (m->frame_level) cJSON_AddItemToArray(levels, jstr("frame"));
    if (m->pose_level) cJSON_AddItemToArray(levels, jstr("pose"));
    if (m->entity_level) cJSON_AddItemToArray(levels, jstr("entity"));
    if (m->leaf_level) cJSON_AddItemToArray(levels, jstr("leaf"));
    cJSON_AddNumberToObject(o, "jobs", m->jobs);
    cJSON *opt = cJSON_AddObjectToObject(o, "options");
    add_str(opt, "bone_matrices",
                            m->pose_level       ? "compared"
                            : m->keep_matrices ? "original"
                                               : "replaced_by_return");
    cJSON_AddBoolToObject(opt, "dedup", m->dedup);
    add_str(opt, "explain", m->explain ? m->explain : "groups");
    cJSON_AddBoolToObject(opt, "coverage", m->coverage);
    cJSON_AddNumberToObject(opt, "leaf_calls", (double)m->leaf_calls);
    cJSON_AddNumberToObject(opt, "seed", (double)m->seed);
    cJSON_AddItemToObject(opt, "cache", str_or_null(m->cache_dir));
    cJSON_AddItemToObject(opt, "traces", str_or_null(m->traces_dir));
    cJSON_AddItemToObject(opt, "against", str_or_null(m->against_dir));
    cJSON_AddNumberToObject(o, "emulated_calls", (double)m->emulated_calls);
    cJSON_AddItemToObject(o, "pose", report_pose_json(&r->pose));
    cJSON *sides = cJSON_AddObjectToObject(o, "sides");
    cJSON *cand = cJSON_AddObjectToObject(sides, "candidate");
    add_str(cand, "label", m->cand_label ? m->cand_label : "reference");
    add_str(cand, "source", m->cand_source ? m->cand_source : "ff8diff reference engine (ref/)");
    add_str(cand, "format", m->cand_format ? m->cand_format : "engine");
    cJSON *auth = cJSON_AddObjectToObject(sides, "authority");
    add_str(auth, "label", m->auth_label ? m->auth_label : "original");
    cJSON_AddItemToObject(auth, "source",
                          str_or_null(m->auth_source ? m->auth_source : m->exe_path));
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (unsigned i = 0; i < m->nnotes && i < REPORT_MAX_NOTES; i++)
        cJSON_AddItemToArray(notes, report_json_string(m->notes[i]));
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
    cJSON_AddNumberToObject(o, "groups", (double)r->ngroups);
    cJSON_AddNumberToObject(o, "cache_rejected", (double)t->cache_rejected);
    cJSON_AddNumberToObject(o, "x87_precision", (double)t->x87_limit);
    cJSON_AddNumberToObject(o, "causes", (double)r->ncauses);
    cJSON_AddItemToObject(o, "entity", report_json_entity_totals(r));
    return o;
}

cJSON *report_build(const report_meta *m, const run_results *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return NULL;
    add_str(root, "schema", REPORT_SCHEMA);
    cJSON_AddItemToObject(root, "run", run_json(m, r));
    cJSON_AddItemToObject(root, "totals", totals_json(r));
    cJSON *man = cJSON_AddArrayToObject(root, "manifest");
    for (size_t i = 0; i < r->nfiles; i++) cJSON_AddItemToArray(man, manifest_json(&r->files[i]));
    cJSON *res = cJSON_AddArrayToObject(root, "results");
    for (size_t i = 0; i < r->nresults; i++)
        cJSON_AddItemToArray(res, result_json(r, &r->results[i]));
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
    return root;
}
