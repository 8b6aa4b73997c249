/*
 * harness/report/report_view_causes.c: the "Causes" section's view (the
 * page opens with it): mismatches merged by their first differing read,
 * per cause its statement, routine and instruction, what it explains
 * (clips, entity clips, leaf calls, files, modes), its signature, how the
 * values differ, the first example with both read logs of that call side
 * by side (the first differing read marked) and the groups it explains
 * (report.json's "causes", report_json_causes.c). A checked decoder's
 * causes from the quirk table (kinds quirk, shape, stopped) show their
 * rows and their first clip instead of an instruction and read logs. First,
 * when the executable's poses contradict the convention given, that
 * sentence (also a banner) and each cause that follows from it marked.
 * Nothing when the run did not group mismatches ("causes" absent).
 *
 * Reads report.json through report_key.h; must not recompute, print or exit.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report_causes.h"
#include "harness/report/report_sections.h"

#define MAX_CAUSES 50 /* causes drawn in full; the rest are counted */

/* The group whose id is id ({0} when none). */
static rk group_of(const rs_ctx *c, int64_t id)
{
    for (rk g = rk_first(rk_arr(c->root, "groups")); g.j; g = rk_next(g))
        if (rk_int(g, "id", -1) == id) return g;
    rk none = {0};
    return none;
}

/* Both read logs of the example's call, one row a read; the first differing read in bold. */
static void window_table(rd_node *parent, rk expl, rv_labels l)
{
    rk w = rk_obj(expl, "window"), ref = rk_arr(w, "ref"), orig = rk_arr(w, "orig");
    rk first = rk_obj(expl, "first_read");
    int64_t at = first.j ? rk_int(first, "index", -1) : -1;
    size_t n = rk_len(ref) > rk_len(orig) ? rk_len(ref) : rk_len(orig);
    if (!n) return;
    const char *heads[] = {"read", l.cand, l.auth};
    rd_node *t = rd_table(parent, NULL, 3, heads, 0);
    rd_table_num(t, 0);
    rk r = rk_first(ref), o = rk_first(orig);
    for (size_t i = 0; i < n; i++) {
        rk_note(r.j ? r : o, "index");
        int64_t idx = rv_int(r.j ? r.j : o.j, "index", -1);
        char rt[160] = "-", ot[160] = "-";
        if (r.j) report_read_text(r.j, rt, sizeof rt);
        if (o.j) report_read_text(o.j, ot, sizeof ot);
        rd_node *row = rd_row(t, NULL);
        rd_textf(rd_cell(row), idx == at ? RD_STRONG : RD_PLAIN, "%lld%s", (long long)idx,
                 idx == at ? " (first difference)" : "");
        rd_text(rd_cell(row), RD_CODE, rt);
        rd_text(rd_cell(row), RD_CODE, ot);
        if (r.j) r = rk_next(r);
        if (o.j) o = rk_next(o);
    }
}

/* A cause's first clip without a group (a checked decoder's clip not decoded): where it stopped. */
static void first_alone(rd_node *kv, rk f, rv_labels l)
{
    rd_node *v = rd_kv_row(kv, "First example", NULL);
    rd_text(v, RD_NAME, rk_str(f, "file", "?"));
    rd_textf(v, RD_PLAIN, ", clip %lld, %s, ", (long long)rk_int(f, "clip", -1),
             rk_str(f, "mode", "?"));
    if (!strcmp(rk_str(f, "status", ""), "not_decoded")) {
        rd_textf(v, RD_PLAIN, "not decoded: the %s stopped at tick %lld of %lld", l.cand,
                 (long long)rk_int(f, "tick", -1), (long long)rk_int(f, "expected", -1));
        return;
    }
    rd_textf(v, RD_PLAIN, "tick %lld, ", (long long)rk_int(f, "tick", -1));
    rd_text(v, RD_CODE, rk_str(f, "field", "?"));
    rd_textf(v, RD_PLAIN, ": %s %lld, %s %lld", l.cand, (long long)rk_int(f, "ref", 0), l.auth,
             (long long)rk_int(f, "orig", 0));
}

static void example(rd_node *box, rd_node *kv, const rs_ctx *c, rk cause, rv_labels l)
{
    rk g = group_of(c, rk_int(cause, "example_group", -1)), f = rk_obj(cause, "first");
    if (!g.j && f.j) first_alone(kv, f, l);
    rk ex = rk_obj(g, "example"), expl = rk_obj(g, "explanation");
    if (!g.j) return;
    rd_node *v = rd_kv_row(kv, "First example", NULL);
    if (!strcmp(rk_str(g, "level", ""), "leaf")) {
        rd_text(v, RD_PLAIN, "leaf level, ");
        rd_text(v, RD_CODE, rk_str(ex, "routine", "?"));
        rd_textf(v, RD_PLAIN, " case %llu", (unsigned long long)rk_u64(ex, "case", 0));
        return;
    }
    rd_text(v, RD_NAME, rk_str(ex, "file", "?"));
    rd_textf(v, RD_PLAIN, ", clip %lld, %s, tick %lld, ", (long long)rk_int(ex, "clip", -1),
             rk_str(ex, "mode", "?"), (long long)rk_int(ex, "tick", -1));
    rd_text(v, RD_CODE, rk_str(ex, "field", "?"));
    rd_textf(v, RD_PLAIN, ": %s %lld, %s %lld (", l.cand, (long long)rk_int(ex, "ref", 0),
             l.auth, (long long)rk_int(ex, "orig", 0));
    char href[32], text[32];
    snprintf(href, sizeof href, "#group-%lld", (long long)rk_int(g, "id", -1));
    snprintf(text, sizeof text, "group %lld", (long long)rk_int(g, "id", -1));
    rd_link(v, href, text);
    rd_text(v, RD_PLAIN, ")");
    if (!expl.j) return;
    rd_textf(v, RD_PLAIN, "; the call made %llu reads in the %s, %llu in the %s",
             (unsigned long long)rk_u64(expl, "ref_reads", 0), l.cand,
             (unsigned long long)rk_u64(expl, "orig_reads", 0), l.auth);
    window_table(box, expl, l);
}

/* "3 clips and 2 entity clips in 2 modes (normal, slow) of 4 files". */
static void counts(rd_node *v, rk n)
{
    const uint64_t k[3] = {rk_u64(n, "clips", 0), rk_u64(n, "entity_clips", 0),
                           rk_u64(n, "leaf_calls", 0)};
    static const char *const what[3] = {"clip", "entity clip", "leaf call"};
    for (int i = 0, shown = 0; i < 3; i++) {
        if (!k[i] && (i > 0 || k[1] || k[2])) continue;
        rd_textf(v, RD_PLAIN, "%s%llu %s%s", shown++ ? " and " : "", (unsigned long long)k[i],
                 what[i], k[i] == 1 ? "" : "s");
    }
    rk modes = rk_arr(n, "modes");
    rd_textf(v, RD_PLAIN, " in %zu mode%s (", rk_len(modes), rk_len(modes) == 1 ? "" : "s");
    int i = 0;
    for (rk m = rk_first(modes); m.j; m = rk_next(m))
        if (cJSON_IsString(m.j)) rd_textf(v, RD_PLAIN, "%s%s", i++ ? ", " : "", m.j->valuestring);
    uint64_t files = rk_u64(n, "files", 0);
    rd_textf(v, RD_PLAIN, ") of %llu file%s", (unsigned long long)files, files == 1 ? "" : "s");
}

static void values(rd_node *kv, rk c, rv_labels l)
{
    rk arr = rk_arr(c, "values");
    if (!rk_len(arr)) return;
    char head[64];
    snprintf(head, sizeof head, "Values (%s vs %s)", l.auth, l.cand);
    rd_node *v = rd_kv_row(kv, head, NULL);
    int k = 0;
    for (rk e = rk_first(arr); e.j; e = rk_next(e))
        if (cJSON_IsString(e.j)) rd_textf(v, RD_PLAIN, "%s%s", k++ ? "; " : "", e.j->valuestring);
    uint64_t more = rk_u64(c, "more_values", 0);
    if (more) rd_textf(v, RD_PLAIN, "; %llu more", (unsigned long long)more);
}

static void groups_row(rd_node *kv, const rs_ctx *c, rk cause)
{
    if (!rk_len(rk_arr(cause, "groups"))) return; /* clips not decoded only */
    rd_node *v = rd_kv_row(kv, "Groups it explains", NULL);
    int k = 0;
    for (rk e = rk_first(rk_arr(cause, "groups")); e.j; e = rk_next(e)) {
        if (!cJSON_IsNumber(e.j)) continue;
        long long id = (long long)e.j->valuedouble;
        rk g = group_of(c, id);
        char href[32], text[32];
        snprintf(href, sizeof href, "#group-%lld", id);
        snprintf(text, sizeof text, "#%lld", id);
        if (k++) rd_text(v, RD_PLAIN, ", ");
        rd_link(v, href, text);
        rd_text(v, RD_PLAIN, " ");
        rd_text(v, RD_CODE, rk_str(g, "field", "?"));
        rd_textf(v, RD_PLAIN, " %s %s (%llu)", rk_str(g, "mode", "?"), rk_str(g, "shape", "?"),
                 (unsigned long long)rk_u64(g, "count", 0));
    }
}

static void cause_box(rd_node *sec, const rs_ctx *c, rk cause, rv_labels l)
{
    rk in = rk_obj(cause, "instruction"), n = rk_obj(cause, "counts");
    long long id = (long long)rk_int(cause, "id", -1);
    char bid[32];
    snprintf(bid, sizeof bid, "cause-%lld", id);
    rd_node *box = rd_card(sec, bid, "cause");
    rd_node *h = rd_heading(box, NULL);
    rd_textf(h, RD_PLAIN, "Cause %lld ", id);
    rd_text(h, RD_TAG, rk_str(cause, "kind", "?"));
    uint64_t clips = rk_u64(n, "clips", 0) + rk_u64(n, "entity_clips", 0);
    rd_textf(h, RD_PLAIN, ": %llu clip%s", (unsigned long long)clips, clips == 1 ? "" : "s");
    if (!strcmp(rk_str(cause, "consequence_of", ""), "pose_options")) {
        rd_text(h, RD_PLAIN, " ");
        rd_text(h, RD_TAG, "a consequence of the convention given");
    }
    rd_text(rd_para(box, "statement"), RD_STRONG, rk_str(cause, "statement", "?"));
    rd_node *kv = rd_kv(box, NULL);
    if (rk_str(cause, "routine", "?")[0])
        rd_text(rd_kv_row(kv, "Routine", NULL), RD_CODE, rk_str(cause, "routine", "?"));
    rk rows = rk_arr(cause, "quirk_rows");
    if (rk_len(rows)) {
        rd_node *v = rd_kv_row(kv, "Quirk table", NULL);
        int k = 0;
        for (rk e = rk_first(rows); e.j; e = rk_next(e))
            if (cJSON_IsString(e.j)) {
                if (k++) rd_text(v, RD_PLAIN, " + ");
                rd_text(v, RD_CODE, e.j->valuestring);
            }
        rd_text(v, RD_PLAIN, " (docs/quirks.md)");
    }
    if (in.j) {
        rd_node *v = rd_kv_row(kv, "Instruction", NULL);
        char code[256], off[48];
        snprintf(code, sizeof code, "%s: %s", rk_str(in, "eip", "?"), rk_str(in, "text", "?"));
        rd_text(v, RD_CODE, code);
        rk_note(in, "in_profile");
        rd_textf(v, RD_PLAIN, " in %s%s", rk_str(in, "routine", "?"),
                 rv_offset_text(in.j, off, sizeof off));
    }
    counts(rd_kv_row(kv, "Explains", NULL), n);
    rd_text(rd_kv_row(kv, "Signature", NULL), RD_CODE, rk_str(cause, "signature", "?"));
    values(kv, cause, l);
    example(box, kv, c, cause, l);
    groups_row(kv, c, cause);
}

/*
 * A convention given that the executable's poses contradict (run.pose.contradicted): a
 * banner over the page and the section's first paragraph, before the causes it explains.
 */
static void contradicted(rd_node *sec, const rs_ctx *c)
{
    rk k = rk_obj(rk_obj(rk_obj(c->root, "run"), "pose"), "contradicted");
    if (!k.j) return;
    char line[512];
    snprintf(line, sizeof line,
             "The convention given is contradicted: the executable's poses follow %s, not the "
             "given %s, on %llu of %llu sampled states (the given: %llu).",
             rk_str(k, "found", "?"), rk_str(k, "given", "?"),
             (unsigned long long)rk_u64(k, "states_found", 0),
             (unsigned long long)rk_u64(k, "states", 0),
             (unsigned long long)rk_u64(k, "states_given", 0));
    rd_text(rd_banner(c->doc, RD_WARN, "pose-contradicted"), RD_PLAIN, line);
    rd_node *p = rd_para(sec, "statement");
    rd_text(p, RD_STRONG, line);
    char opt[320];
    snprintf(opt, sizeof opt, "--pose-options %s", rk_str(k, "convention", "?"));
    rd_text(p, RD_PLAIN, " The causes marked below are its consequences; ");
    rd_text(p, RD_CODE, opt);
    rd_text(p, RD_PLAIN, " (or ");
    rd_text(p, RD_CODE, "auto");
    rd_text(p, RD_PLAIN, ") compares under the executable's.");
}

void rs_view_causes(const rs_ctx *c)
{
    rk arr = rk_arr(c->root, "causes");
    if (!arr.j) return;
    size_t n = rk_len(arr), shown = 0;
    rd_node *sec = rs_openf(c, "Causes (%zu)", n);
    contradicted(sec, c);
    if (!n) {
        rd_text(rd_para(sec, "muted"), RD_PLAIN,
                rk_len(rk_arr(c->root, "groups"))
                    ? "Mismatches were not explained (no replay of the original)."
                    : "No mismatch.");
        return;
    }
    int checked = 0;
    for (rk e = rk_first(arr); e.j; e = rk_next(e)) {
        const char *kind = rk_str(e, "kind", "");
        checked |= !strcmp(kind, "quirk") || !strcmp(kind, "shape") || !strcmp(kind, "stopped");
    }
    rd_text(rd_para(sec, "muted"), RD_PLAIN,
            checked ? "The checked decoder's mismatches and clips not decoded tried against the "
                      "quirk table (docs/quirks.md): merged by the rows whose switched reference "
                      "reproduces them, else by the field class and shape of their first "
                      "difference, across fields, modes and files."
                    : "Mismatches merged by their first differing read (or, when every read "
                      "agrees, by the original's writing instruction), across modes and files.");
    rv_labels l = rv_sides(c->report);
    for (rk e = rk_first(arr); e.j && shown < MAX_CAUSES; e = rk_next(e), shown++)
        cause_box(sec, c, e, l);
    if (n > shown)
        rd_textf(rd_para(sec, "more"), RD_PLAIN, "%zu more causes are in report.json.", n - shown);
}
