/*
 * harness/report/report_view_pose.c: the "Pose convention" section's view
 * (the pose level, docs/pose.md): the reference's convention and where it
 * came from (the search, the profile, --pose-options), the original's
 * poses emulated and replayed, what decided each choice, where the
 * comparison decided each width site and how the compared clips side,
 * the search's one count of states (and those left out), the closest miss
 * when no candidate matches, and every candidate it tried (report.json's
 * "run.pose", report_pose.c). Nothing without the pose level.
 *
 * Reads report.json through report_key.h; must not recompute, print or exit.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report_sections.h"

static const char *source_sentence(const char *source)
{
    if (strcmp(source, "search") == 0) return "found by the search on the original";
    if (strcmp(source, "profile") == 0) return "pinned by the executable's profile";
    if (strcmp(source, "given") == 0) return "given with --pose-options";
    return source;
}

static const char *basis_sentence(const char *basis)
{
    static const char *const s[][2] = {
        {"evidence", "decided by evidence"},   {"default", "by default"},
        {"joint", "decided jointly"},          {"comparison", "decided by evidence, in the comparison"},
        {"undecided", "by default"},           {"given", "given"},
        {"pinned", "pinned by the profile"},
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        if (strcmp(basis, s[i][0]) == 0) return s[i][1];
    return basis;
}

/* "file clip 3 (slow) after call 4 at `field`" of a place. */
static void place(rd_node *in, rk at)
{
    rd_text(in, RD_NAME, rk_str(at, "file", "?"));
    rd_textf(in, RD_PLAIN, " clip %lld (%s) after call %lld at ", (long long)rk_int(at, "clip", -1),
             rk_str(at, "mode", "?"), (long long)rk_int(at, "tick", -1));
    rd_text(in, RD_CODE, rk_str(at, "field", "?"));
}

/* Where the comparison decided one width site, and how the compared clips side. */
static void width_site(rd_node *sec, rk w)
{
    const char *key = rk_str(w, "key", "?");
    if (!rk_u64(w, "clips", 0)) return;
    rd_node *p = rd_para(sec, NULL);
    rk at = rk_obj(w, "decided_at");
    if (at.j) {
        rd_text(p, RD_PLAIN, "The width at ");
        rd_text(p, RD_CODE, key);
        rd_text(p, RD_PLAIN, " was decided by the comparison at ");
        place(p, at);
        rd_textf(p, RD_PLAIN, ": %lld in 32 bits, %lld in 64 bits, %lld in the original. ",
                 (long long)rk_int(at, "ref_32", 0), (long long)rk_int(at, "ref_64", 0),
                 (long long)rk_int(at, "orig", 0));
    }
    rd_textf(p, RD_PLAIN, "%llu compared clips tell 32-bit from 64-bit apart at ",
             (unsigned long long)rk_u64(w, "clips", 0));
    rd_text(p, RD_CODE, key);
    rd_textf(p, RD_PLAIN,
             ": %llu agree with the width taken, %llu contradict it (mismatches), %llu (met "
             "before a width was taken) agree with neither.",
             (unsigned long long)rk_u64(w, "agreed", 0),
             (unsigned long long)rk_u64(w, "contradicted", 0),
             (unsigned long long)rk_u64(w, "neither", 0));
}

/* What decided each choice, one item each, then the width sites. */
static void decisions(rd_node *sec, rk p)
{
    rk arr = rk_arr(p, "decisions");
    rd_node *list = rk_len(arr) ? rd_list(sec) : NULL;
    for (rk d = rk_first(arr); d.j; d = rk_next(d)) {
        rd_node *it = rd_item(list);
        char kv[160];
        snprintf(kv, sizeof kv, "%s=%s", rk_str(d, "key", "?"), rk_str(d, "value", "?"));
        rd_text(it, RD_CODE, kv);
        rd_textf(it, RD_PLAIN, ": %s", basis_sentence(rk_str(d, "basis", "?")));
        const char *note = rk_str(d, "note", "");
        if (*note) rd_textf(it, RD_PLAIN, " (%s)", note);
    }
    for (rk w = rk_first(rk_arr(p, "widths")); w.j; w = rk_next(w)) width_site(sec, w);
}

/* The search: its states, the closest miss, every candidate it tried. */
static void search(rd_node *sec, rk p, rk s)
{
    rd_node *para = rd_para(sec, "muted");
    rd_textf(para, RD_PLAIN,
             "The search compared %llu sampled states (%llu on the scale path; %llu left out: "
             "the original faulted; %llu left out: past the engine's 80-slot arrays) and %llu "
             "with the largest translation or scale of their file and mode; %llu of them tell "
             "32-bit from 64-bit apart at a width site; %.2f s. ",
             (unsigned long long)rk_u64(s, "states", 0),
             (unsigned long long)rk_u64(s, "scale_states", 0),
             (unsigned long long)rk_u64(s, "faulted", 0),
             (unsigned long long)rk_u64(s, "overrun_states", 0),
             (unsigned long long)rk_u64(s, "extreme_states", 0),
             (unsigned long long)rk_u64(s, "width_states", 0), rk_num(s, "seconds", 0));
    if (rk_bool(s, "all_match", 0)) rd_text(para, RD_PLAIN, "The choice matches every sampled state. ");
    rd_text(para, RD_PLAIN, rk_str(s, "note", ""));
    rk m = rk_obj(s, "first_miss");
    if (m.j) {
        rd_node *b = rd_para(sec, NULL);
        rd_text(b, RD_STRONG, "No candidate matches every sampled state");
        rd_text(b, RD_PLAIN, "; the closest misses ");
        place(b, m);
        rd_textf(b, RD_PLAIN, ": reference %lld, original %lld.", (long long)rk_int(m, "ref", 0),
                 (long long)rk_int(m, "orig", 0));
    }
    static const char *const heads[] = {"stage", "candidate", "states matched", "values matched"};
    rd_node *t = rd_table(sec, "pose-candidates", 4, heads, 0);
    rd_table_num(t, 2);
    rd_table_num(t, 3);
    const char *chosen = rk_str(p, "chosen", "");
    for (rk c = rk_first(rk_arr(s, "candidates")); c.j; c = rk_next(c)) {
        const char *opts = rk_str(c, "options", "?"), *stage = rk_str(c, "stage", "?");
        int final = strcmp(opts, chosen) == 0 && strcmp(stage, "final") == 0;
        rd_node *row = rd_row(t, NULL);
        rd_text(rd_cell(row), final ? RD_STRONG : RD_PLAIN, final ? "final (chosen)" : stage);
        rd_text(rd_cell(row), RD_CODE, opts);
        rd_textf(rd_cell(row), RD_PLAIN, "%llu / %llu", (unsigned long long)rk_u64(c, "frames", 0),
                 (unsigned long long)rk_u64(c, "frames_total", 0));
        rd_textf(rd_cell(row), RD_PLAIN, "%llu / %llu", (unsigned long long)rk_u64(c, "values", 0),
                 (unsigned long long)rk_u64(c, "values_total", 0));
    }
}

void rs_view_pose(const rs_ctx *c)
{
    rk p = rk_obj(rk_obj(c->root, "run"), "pose");
    if (!p.j) return;
    rd_node *sec = rs_open(c, NULL);
    rd_node *para = rd_para(sec, NULL);
    rd_text(para, RD_PLAIN, "The reference's convention: ");
    rd_text(para, RD_CODE, rk_str(p, "chosen", "?"));
    rd_textf(para, RD_PLAIN,
             ", %s. The original's poses: %llu emulated, %llu replayed from memory (an input seen "
             "before).",
             source_sentence(rk_str(p, "source", "?")),
             (unsigned long long)rk_u64(p, "states_emulated", 0),
             (unsigned long long)rk_u64(p, "states_replayed", 0));
    decisions(sec, p);
    rk s = rk_obj(p, "search");
    if (s.j) search(sec, p, s);
}
