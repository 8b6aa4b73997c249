/*
 * harness/report/report_view_lists.c: the views of the report's lists:
 * files (those with problems first, clip counts per mode), non-matching
 * results (capped; not decoded with how far the decoder got), faults with
 * registers and disassembly, bad input with its error, leaf routines.
 * Tables are folded by the emitters; the caps here only bound what a page
 * carries, the rest is counted and left in report.json.
 *
 * Reads report.json only through report_key.h and the index of results
 * (report_view.h); must not recompute what the run decided, print or exit.
 */
#include <stdio.h>
#include <string.h>

#include "harness/core/fields.h"
#include "harness/report/report.h"
#include "harness/report/report_sections.h"

#define MAX_LISTED 200 /* non-matching results, bad inputs */
#define MAX_FAULTS 50  /* faults shown with registers and disassembly */

/* The status as a pill in HTML, its word in Markdown. */
static void pill(rd_node *in, int s)
{
    char cls[48];
    snprintf(cls, sizeof cls, "pill %s", res_status_name((res_status)s));
    rd_badge(in, cls, NULL, rv_status_label(s));
}

/* A number at key, "-" when absent. */
static void num_cell(rd_node *row, rk o, const char *key)
{
    rd_node *c = rd_cell(row);
    if (rk_has(o, key))
        rd_textf(c, RD_PLAIN, "%.15g", rk_num(o, key, 0));
    else
        rd_text(c, RD_MUTED, "-");
}

static void file_row(rd_node *t, const rs_ctx *c, size_t i, rk entry)
{
    const rv_file *f = &c->ix->files[i];
    char id[32];
    snprintf(id, sizeof id, "file-%zu", i);
    rd_node *row = rd_row(t, id);
    rd_textf(rd_cell(row), RD_PLAIN, "%zu", i);
    rd_text(rd_cell(row), RD_NAME, f->name);
    if (strcmp(rk_str(entry, "status", "ok"), "ok") != 0)
        pill(rd_cell(row), RES_BAD_INPUT);
    else
        rd_text(rd_cell(row), RD_PLAIN, rk_str(entry, "kind", "-"));
    num_cell(row, entry, "bones");
    num_cell(row, entry, "clips");
    num_cell(row, entry, "size");
    for (int m = 0; m < MODE__COUNT; m++) {
        if (!(c->ix->modes & (1u << m))) continue;
        rd_node *cell = rd_cell(row);
        int k = 0;
        for (int s = 0; s < RES__COUNT; s++)
            if (f->n[m][s]) {
                if (k++) rd_text(cell, RD_PLAIN, " ");
                char cls[48], text[64];
                snprintf(cls, sizeof cls, "pill %s", res_status_name((res_status)s));
                snprintf(text, sizeof text, "%llu %s", (unsigned long long)f->n[m][s],
                         rv_status_label(s));
                rd_badge(cell, cls, NULL, text);
            }
        if (!k) rd_text(cell, RD_MUTED, "-");
    }
}

static int has_problem(const rv_file *f)
{
    for (int m = 0; m < MODE__COUNT; m++)
        if (res_status_sum(f->n[m], RES_SHARE_DIFF) || res_status_sum(f->n[m], RES_SHARE_BAD))
            return 1;
    return f->entry && strcmp(rv_str(f->entry, "status", "ok"), "ok") != 0;
}

void rs_view_files(const rs_ctx *c)
{
    rd_node *sec = rs_openf(c, "Files (%zu)", c->ix->nfiles);
    const char *heads[6 + MODE__COUNT] = {"#", "File", "Kind", "Bones", "Clips", "Size"};
    size_t ncols = 6;
    for (int m = 0; m < MODE__COUNT; m++)
        if (c->ix->modes & (1u << m)) heads[ncols++] = mode_name((mode_id)m);
    size_t bad = 0;
    for (size_t i = 0; i < c->ix->nfiles; i++) bad += has_problem(&c->ix->files[i]);
    rd_textf(rd_para(sec, "muted"), RD_PLAIN,
             "Clip counts per mode; %zu file%s with a difference, fault or bad input listed "
             "first.",
             bad, bad == 1 ? "" : "s");
    rd_node *t = rd_table(sec, "files-table", ncols, heads, 0);
    for (size_t col = 0; col < 6; col++)
        if (col != 1 && col != 2) rd_table_num(t, col);
    /* The manifest's entries as cursors, so their keys are recorded like any other. */
    rk manifest = rk_arr(c->root, "manifest");
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < c->ix->nfiles; i++) {
            if (has_problem(&c->ix->files[i]) != !pass) continue;
            rk entry = rk_first(manifest);
            entry.j = c->ix->files[i].entry;
            file_row(t, c, i, entry);
        }
}

/* A divergence's value at key, with its hex when the field is a flag byte; "?" when absent. */
static void value_text(rd_node *in, rk d, const char *key)
{
    if (!rk_has(d, key)) {
        rd_text(in, RD_STRONG, "?");
        return;
    }
    int64_t v = rk_int(d, key, 0);
    const char *kind = rk_str(d, "field_kind", NULL);
    int f = kind ? field_from_kind_name(kind) : -1;
    if (f >= 0 && field_is_bits((field_id)f))
        rd_textf(in, RD_STRONG, "%lld (0x%02llx)", (long long)v, (unsigned long long)v & 0xFF);
    else
        rd_textf(in, RD_STRONG, "%lld", (long long)v);
}

/* What went wrong in a result, in words. */
static void result_detail(rd_node *in, rk r, int s, const cJSON *result)
{
    if (s == RES_MISMATCH) {
        rk d = rk_obj(r, "divergence");
        rd_textf(in, RD_PLAIN, "tick %lld ", (long long)rk_int(d, "tick", -1));
        rd_text(in, RD_CODE, rk_str(d, "field", "?"));
        rd_text(in, RD_PLAIN, " ");
        value_text(in, d, "ref");
        rd_text(in, RD_PLAIN, " vs ");
        value_text(in, d, "orig");
        uint64_t wt = rk_u64(rk_obj(rk_obj(r, "cells"), "counts"), "whole_turns", 0);
        if (wt) {
            char text[64];
            snprintf(text, sizeof text, "%llu whole-turn value%s", (unsigned long long)wt,
                     wt == 1 ? "" : "s");
            rd_text(in, RD_PLAIN, "; ");
            rd_link(in, "#whole-turns", text);
        }
    } else if (s == RES_FAULT) {
        rk f = rk_obj(r, "fault");
        rd_textf(in, RD_PLAIN, "%s at EIP ", rk_str(f, "message", rk_str(f, "kind", "fault")));
        rd_text(in, RD_CODE, rk_str(f, "eip", "?"));
    } else if (s == RES_BAD_INPUT) {
        rd_text(in, RD_PLAIN, rk_str(rk_obj(r, "error"), "message", "bad input"));
    }
    /* Why the decoder stopped (its "error" line), and how far it got. */
    if (s == RES_NOT_DECODED || rk_str(r, "decoder_error", NULL)) {
        strbuf t;
        sb_init(&t);
        report_not_decoded_text(&t, result);
        if (s != RES_NOT_DECODED) rd_text(in, RD_PLAIN, "; ");
        rd_text(in, RD_PLAIN, t.s ? t.s : "");
        sb_free(&t);
    }
}

void rs_view_nonmatching(const rs_ctx *c)
{
    static const char *const heads[] = {"File", "Clip", "Mode", "Status",
                                        "Source", "Detail", "Group"};
    rd_node *sec = rs_open(c, NULL), *t = NULL;
    size_t listed = 0, more = 0;
    uint64_t not_run = 0;
    rk results = rk_arr(c->root, "results"), r = rk_first(results);
    for (size_t i = 0; i < c->ix->nresults; i++) {
        r.j = c->ix->results[i];
        int s = rv_status(rk_str(r, "status", NULL));
        if (s == RES_NOT_RUN) not_run++;
        /* A match is listed only when its decoder still wrote why it stopped. */
        int stopped = s == RES_MATCH && rk_str(r, "decoder_error", NULL);
        if (s < 0 || s == RES_NOT_RUN || (s == RES_MATCH && !stopped)) continue;
        if (listed == MAX_LISTED) {
            more++;
            continue;
        }
        if (!listed++) {
            t = rd_table(sec, "nonmatching-table", 7, heads, 0);
            rd_table_num(t, 1);
        }
        rd_node *row = rd_row(t, NULL);
        rd_text(rd_cell(row), RD_NAME, rk_str(r, "file", "-"));
        int64_t clip = rk_int(r, "clip", -1);
        if (clip >= 0)
            rd_textf(rd_cell(row), RD_PLAIN, "%lld", (long long)clip);
        else
            rd_text(rd_cell(row), RD_MUTED, "file");
        rd_text(rd_cell(row), RD_PLAIN, rk_str(r, "mode", "-"));
        pill(rd_cell(row), s);
        rd_text(rd_cell(row), RD_PLAIN, rk_str(r, "source", "-"));
        result_detail(rd_cell(row), r, s, r.j);
        rd_node *g = rd_cell(row);
        if (rk_has(r, "group")) {
            char href[32], text[32];
            snprintf(href, sizeof href, "#group-%lld", (long long)rk_int(r, "group", 0));
            snprintf(text, sizeof text, "#%lld", (long long)rk_int(r, "group", 0));
            rd_link(g, href, text);
        }
    }
    if (!listed) rd_text(rd_para(sec, "muted"), RD_PLAIN, "Every compared clip matched.");
    if (more)
        rd_textf(rd_para(sec, "more"), RD_PLAIN, "%zu more non-matching results are in report.json.",
                 more);
    if (not_run)
        rd_textf(rd_para(sec, "more"), RD_PLAIN, "%llu %s not run and %s not listed.",
                 (unsigned long long)not_run, not_run == 1 ? "comparison was" : "comparisons were",
                 not_run == 1 ? "is" : "are");
}

static void fault_box(rd_node *sec, rk f, const char *who, const char *where)
{
    static const char *const regs[] = {"eax", "ecx", "edx", "ebx", "esp",
                                       "ebp", "esi", "edi", "eip", "eflags"};
    rd_node *box = rd_box(sec, NULL), *h = rd_heading(box, NULL);
    rd_text(h, RD_NAME, who);
    rd_textf(h, RD_MUTED, " %s ", where);
    rd_text(h, RD_TAG, rk_str(f, "kind", "?"));
    rd_node *kv = rd_kv(box, NULL);
    static const char *const rows[][2] = {
        {"Fault", "message"}, {"Routine", "routine"}, {"EIP", "eip"}, {"Address", "address"}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        rd_text(rd_kv_row(kv, rows[i][0], NULL), RD_PLAIN, rk_str(f, rows[i][1], "none"));
    rk imp = rk_obj(f, "import");
    if (imp.j)
        rd_textf(rd_kv_row(kv, "Import", NULL), RD_PLAIN, "%s!%s, called from %s",
                 rk_str(imp, "dll", "?"), rk_str(imp, "name", "?"), rk_str(imp, "caller", "?"));
    if (rk_str(f, "detail", NULL)) rd_text(rd_kv_row(kv, "Detail", NULL), RD_PLAIN, rk_str(f, "detail", ""));
    rk rg = rk_obj(f, "registers");
    rd_node *r = rd_kv_row(kv, "Registers", NULL);
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
        rd_textf(r, RD_CODE, "%s%s=%s", i ? " " : "", regs[i], rk_str(rg, regs[i], "?"));
    rd_node *code = rd_code_block(box);
    rk dis = rk_arr(f, "disassembly");
    if (!rk_len(dis)) rd_code_line(code, "(no disassembly)", 0);
    for (rk e = rk_first(dis); e.j; e = rk_next(e))
        if (cJSON_IsString(e.j)) rd_code_line(code, e.j->valuestring, e.j->valuestring[0] == '>');
}

void rs_view_faults(const rs_ctx *c)
{
    rd_node *sec = rs_open(c, NULL);
    size_t shown = 0, more = 0;
    char where[96];
    rk r = rk_first(rk_arr(c->root, "results"));
    for (size_t i = 0; i < c->ix->nresults; i++) {
        r.j = c->ix->results[i];
        rk f = rk_obj(r, "fault");
        if (!f.j) continue;
        if (shown == MAX_FAULTS) {
            more++;
            continue;
        }
        snprintf(where, sizeof where, "clip %lld, %.60s", (long long)rk_int(r, "clip", -1),
                 rk_str(r, "mode", "?"));
        fault_box(sec, f, rk_str(r, "file", "?"), where);
        shown++;
    }
    for (rk l = rk_first(rk_arr(c->root, "leaf")); l.j; l = rk_next(l)) {
        rk f = rk_obj(l, "fault");
        if (!f.j) continue;
        if (shown == MAX_FAULTS) {
            more++;
            continue;
        }
        fault_box(sec, f, rk_str(l, "routine", "?"), "leaf level");
        shown++;
    }
    if (!shown) rd_text(rd_para(sec, "muted"), RD_PLAIN, "No fault.");
    if (more) rd_textf(rd_para(sec, "more"), RD_PLAIN, "%zu more faults are in report.json.", more);
}

/* One row of the bad-input table. */
static void bad_row(rd_node *t, const char *file, const char *where, rk err)
{
    rd_node *row = rd_row(t, NULL);
    rd_text(rd_cell(row), RD_NAME, file ? file : "-");
    rd_text(rd_cell(row), RD_PLAIN, where);
    rd_text(rd_cell(row), RD_PLAIN, rk_str(err, "kind", "-"));
    rd_text(rd_cell(row), RD_PLAIN, rk_str(err, "message", rk_str(err, "reason", "-")));
}

void rs_view_bad_input(const rs_ctx *c)
{
    static const char *const heads[] = {"File", "Where", "Kind", "Error"};
    rd_node *sec = rs_open(c, NULL), *t = NULL;
    size_t listed = 0, more = 0;
    for (rk e = rk_first(rk_arr(c->root, "manifest")); e.j; e = rk_next(e)) {
        rk err = rk_obj(e, "error");
        if (!err.j) continue;
        if (listed == MAX_LISTED) {
            more++;
            continue;
        }
        if (!listed++) t = rd_table(sec, "bad-table", 4, heads, 0);
        bad_row(t, rk_str(e, "name", NULL), "whole file (manifest)", err);
    }
    const char *prev_file = NULL;
    int64_t prev_clip = -2;
    rk r = rk_first(rk_arr(c->root, "results"));
    for (size_t i = 0; i < c->ix->nresults; i++) {
        r.j = c->ix->results[i];
        if (rv_status(rk_str(r, "status", NULL)) != RES_BAD_INPUT) continue;
        const char *file = rk_str(r, "file", "");
        int64_t clip = rk_int(r, "clip", -1);
        const rv_file *f = rv_find_file(c->ix, file);
        /* a whole-file error is already listed from the manifest, once */
        if (clip < 0 && f && rv_obj(f->entry, "error")) continue;
        if (prev_file && clip == prev_clip && strcmp(prev_file, file) == 0) continue;
        prev_file = file;
        prev_clip = clip;
        if (listed == MAX_LISTED) {
            more++;
            continue;
        }
        if (!listed++) t = rd_table(sec, "bad-table", 4, heads, 0);
        char where[64];
        if (clip < 0)
            snprintf(where, sizeof where, "whole file");
        else
            snprintf(where, sizeof where, "clip %lld", (long long)clip);
        bad_row(t, file, where, rk_obj(r, "error"));
    }
    if (!listed) rd_text(rd_para(sec, "muted"), RD_PLAIN, "No bad input.");
    if (more)
        rd_textf(rd_para(sec, "more"), RD_PLAIN, "%zu more bad inputs are in report.json.", more);
}

/* A leaf call's side: "ax 5, cursor after: byte 2 bit 3". */
static void leaf_side(rd_node *in, rk s)
{
    rd_textf(in, RD_STRONG, "ax %lld", (long long)rk_int(s, "ax", 0));
    rd_textf(in, RD_PLAIN, ", cursor after: byte %lld bit %lld", (long long)rk_int(s, "byte", 0),
             (long long)rk_int(s, "bit", 0));
}

void rs_view_leaf(const rs_ctx *c)
{
    static const char *const heads[] = {"Routine", "Calls", "Mismatches", "Faults", "Group",
                                        "First mismatch"};
    rk arr = rk_arr(c->root, "leaf");
    rd_node *sec = rs_open(c, NULL);
    if (!rk_len(arr)) {
        rd_text(rd_para(sec, "muted"), RD_PLAIN, "The leaf level was not run.");
        return;
    }
    rd_node *t = rd_table(sec, "leaf-table", 6, heads, 0);
    for (size_t i = 1; i < 4; i++) rd_table_num(t, i);
    for (rk l = rk_first(arr); l.j; l = rk_next(l)) {
        rd_node *row = rd_row(t, NULL);
        rd_text(rd_cell(row), RD_CODE, rk_str(l, "routine", "-"));
        num_cell(row, l, "calls");
        num_cell(row, l, "mismatches");
        num_cell(row, l, "faults");
        rd_node *g = rd_cell(row);
        if (rk_has(l, "group")) {
            char href[32], text[32];
            snprintf(href, sizeof href, "#group-%lld", (long long)rk_int(l, "group", 0));
            snprintf(text, sizeof text, "#%lld", (long long)rk_int(l, "group", 0));
            rd_link(g, href, text);
        }
        rd_node *in = rd_cell(row);
        rk m = rk_obj(l, "first_mismatch");
        if (!m.j) {
            rd_text(in, RD_MUTED, "none");
            continue;
        }
        rd_textf(in, RD_PLAIN, "case %llu: ", (unsigned long long)rk_u64(m, "case", 0));
        rd_text(in, RD_CODE, rk_str(m, "bytes", "?"));
        rd_textf(in, RD_PLAIN, " bit %lld n %lld: ", (long long)rk_int(m, "bit", 0),
                 (long long)rk_int(m, "n", 0));
        leaf_side(in, rk_obj(m, "ref"));
        rd_text(in, RD_PLAIN, " vs ");
        leaf_side(in, rk_obj(m, "orig"));
    }
}
