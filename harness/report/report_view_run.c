/*
 * harness/report/report_view_run.c: the views of what every report has:
 * the head (title with the stored verdict, the line under it, banners for
 * an interruption, warnings and notes), the Run section (executable,
 * engines, corpus, options, sides) and the Summary (the result line, the
 * count of each status, files, clips, ticks, sources, leaf and entity
 * levels, groups).
 *
 * Reads report.json only through report_key.h; must not recompute what
 * the run decided, print or exit.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report_sections.h"

/* "a, b" of a string array, "none" when empty. */
static void list_text(rd_node *in, rk arr)
{
    int n = 0;
    for (rk e = rk_first(arr); e.j; e = rk_next(e)) {
        if (!cJSON_IsString(e.j)) continue;
        if (n++) rd_text(in, RD_PLAIN, ", ");
        rd_text(in, RD_PLAIN, e.j->valuestring);
    }
    if (!n) rd_text(in, RD_PLAIN, "none");
}

/* A row whose value is text, "none" when absent or empty. */
static void kv_text(rd_node *kv, const char *key, const char *val)
{
    rd_text(rd_kv_row(kv, key, NULL), RD_PLAIN, val && *val ? val : "none");
}

static void head_banners(const rs_ctx *c, rk run, rk exe)
{
    if (rk_bool(run, "interrupted", 0)) {
        rd_node *b = rd_banner(c->doc, RD_STOP, "interrupted");
        const char *sig = rk_str(run, "interrupted_by", NULL);
        rd_text(b, RD_STRONG, "Interrupted");
        if (sig) rd_textf(b, RD_PLAIN, " by %s", sig);
        rd_textf(b, RD_PLAIN,
                 ": the run was stopped early; %llu comparisons were not run and the counts "
                 "below are partial.",
                 (unsigned long long)rk_u64(rk_obj(c->root, "totals"), "not_run", 0));
    }
    int k = 0;
    for (rk w = rk_first(rk_arr(run, "warnings")); w.j; w = rk_next(w)) {
        rd_node *b = rd_banner(c->doc, RD_WARN, k++ ? NULL : "warnings");
        rd_text(b, RD_STRONG, "Warning");
        rd_textf(b, RD_PLAIN, ": %s", cJSON_IsString(w.j) ? w.j->valuestring : "?");
    }
    const char *warn = rk_str(exe, "warning", "");
    if (*warn) {
        rd_node *b = rd_banner(c->doc, RD_WARN, "exe-warning");
        rd_text(b, RD_STRONG, "Executable warning");
        rd_textf(b, RD_PLAIN, ": %s", warn);
    }
    rk loc = rk_obj(exe, "profile_located");
    if (loc.j) {
        rd_node *b = rd_banner(c->doc, RD_NOTE, "profile-located");
        rd_text(b, RD_STRONG, "Located profile");
        rd_textf(b, RD_PLAIN, ": the routine addresses of profile %s were found by structure ",
                 rk_str(exe, "profile", "?"));
        rd_text(b, RD_CODE, "ff8diff identify --locate");
        rd_textf(b, RD_PLAIN, " from profile %s, not written by hand.",
                 rk_str(loc, "from_profile", "?"));
    }
    const char *bm = rk_str(rk_obj(run, "options"), "bone_matrices", "");
    if (strcmp(bm, "replaced_by_return") == 0 && strcmp(rv_sides(c->report).auth, "original") == 0) {
        rd_node *b = rd_banner(c->doc, RD_NOTE, "bone-matrices");
        rd_text(b, RD_STRONG, "BuildBoneMatrices replaced by a plain return");
        rd_text(b, RD_PLAIN, ": the original's matrix building was not run (its output is not "
                             "compared).");
    }
    for (rk note = rk_first(rk_arr(run, "notes")); note.j; note = rk_next(note)) {
        if (!cJSON_IsString(note.j)) continue;
        rd_node *b = rd_banner(c->doc, RD_NOTE, NULL);
        rd_text(b, RD_STRONG, "Note");
        rd_textf(b, RD_PLAIN, ": %s", note.j->valuestring);
    }
}

void rs_view_head(const rs_ctx *c)
{
    rk run = rk_obj(c->root, "run"), exe = rk_obj(run, "executable"), tool = rk_obj(run, "tool");
    rk_note(c->root, "verdict");
    verdict v;
    rv_verdict(c->report, &v);
    rd_node *t = rd_title(c->doc);
    rd_text(t, RD_PLAIN, "ff8diff report ");
    rd_text(t, RD_CODE, rk_str(run, "id", "(no id)"));
    rd_text(t, RD_PLAIN, " ");
    char cls[64];
    snprintf(cls, sizeof cls, "verdict %s", verdict_result_name(verdict_result_of(v)));
    rd_badge(t, cls, "verdict", verdict_label(v));
    rd_node *s = rd_subtitle(c->doc);
    rd_textf(s, RD_PLAIN, "%s \xc2\xb7 started %s \xc2\xb7 %.2f s \xc2\xb7 %s %s",
             rk_str(run, "command", "?"), rk_str(run, "started", "?"), rk_num(run, "seconds", 0),
             rk_str(tool, "name", "ff8diff"), rk_str(tool, "version", "?"));
    rk en = rk_obj(tool, "engine");
    if (en.j) {
        /* "engine unicorn 2.1.1, fast stores": the store path is Unicorn's own fact. */
        const char *kind = rk_str(en, "kind", "?");
        char text[256];
        const char *path = rk_str(rk_obj(en, kind), "store_path", NULL);
        snprintf(text, sizeof text, "engine %s %s%s%s%s", kind, rk_str(en, "version", "?"),
                 path ? ", " : "", path ? path : "", path ? " stores" : "");
        rd_text(s, RD_PLAIN, " \xc2\xb7 ");
        rd_badge(s, NULL, "engine", text);
    }
    head_banners(c, run, exe);
}

static void exe_rows(rd_node *kv, rk exe)
{
    kv_text(kv, "Executable", rk_str(exe, "path", NULL));
    kv_text(kv, "SHA-256", rk_str(exe, "sha256", NULL));
    rd_node *p = rd_kv_row(kv, "Profile", NULL);
    rd_text(p, RD_PLAIN, rk_str(exe, "profile", "none"));
    if (rk_str(exe, "profile_source", NULL))
        rd_textf(p, RD_MUTED, " from %s", rk_str(exe, "profile_source", ""));
    rk loc = rk_obj(exe, "profile_located");
    if (loc.j) {
        rd_node *l = rd_kv_row(kv, "Located", NULL);
        rd_textf(l, RD_PLAIN, "by structure from profile %s in %s",
                 rk_str(loc, "from_profile", "?"), rk_str(loc, "executable", "?"));
        rd_textf(l, RD_MUTED, " (patterns: %s; %s)", rk_str(loc, "patterns", "?"),
                 rk_str(loc, "tool", "?"));
    }
    /* identify's word on the executable (known, unknown_build...), not the run's verdict. */
    kv_text(kv, "Build", rk_str(exe, "verdict", NULL));
}

static void corpus_rows(rd_node *kv, rk corpus)
{
    rd_node *p = rd_kv_row(kv, "Corpus", NULL);
    rd_text(p, RD_NAME, rk_str(corpus, "path", "none"));
    if (rk_str(corpus, "kind", NULL)) {
        rd_text(p, RD_PLAIN, " ");
        rd_text(p, RD_TAG, rk_str(corpus, "kind", ""));
    }
    if (rk_str(corpus, "description", NULL))
        kv_text(kv, "Description", rk_str(corpus, "description", NULL));
    rk prov = rk_obj(corpus, "provenance");
    if (prov.j) {
        rd_node *r = rd_kv_row(kv, "Provenance", NULL);
        rd_text(r, RD_PLAIN, rk_str(prov, "release", "?"));
        if (rk_str(prov, "zzz_entry", NULL))
            rd_textf(r, RD_PLAIN, ": %s at offset %llu", rk_str(prov, "zzz_entry", ""),
                     (unsigned long long)rk_u64(prov, "zzz_offset", 0));
        if (rk_str(prov, "lang", NULL)) rd_textf(r, RD_PLAIN, " (%s)", rk_str(prov, "lang", ""));
    }
    rk syn = rk_obj(corpus, "synthetic");
    if (syn.j)
        rd_textf(rd_kv_row(kv, "Synthetic", NULL), RD_PLAIN, "preset %s, seed %llu",
                 rk_str(syn, "preset", "?"), (unsigned long long)rk_u64(syn, "seed", 0));
}

static void option_rows(rd_node *kv, rk run)
{
    rk opt = rk_obj(run, "options");
    list_text(rd_kv_row(kv, "Modes", NULL), rk_arr(run, "modes"));
    list_text(rd_kv_row(kv, "Levels", NULL), rk_arr(run, "levels"));
    const char *bm = rk_str(opt, "bone_matrices", NULL);
    kv_text(kv, "BuildBoneMatrices",
            !bm                                   ? "not recorded"
            : strcmp(bm, "replaced_by_return") == 0 ? "replaced by a plain return"
            : strcmp(bm, "original") == 0         ? "original routine kept"
            : strcmp(bm, "compared") == 0 ? "run after every decoding call and compared (pose level)"
                                          : bm);
    strbuf t;
    sb_init(&t);
    rv_options_text(&t, run.j);
    kv_text(kv, "Options", t.s ? t.s : "");
    sb_free(&t);
    kv_text(kv, "Cache", rk_str(opt, "cache", NULL));
    rk sides = rk_obj(run, "sides");
    if (sides.j) {
        rk cs = rk_obj(sides, "candidate"), as = rk_obj(sides, "authority");
        rd_textf(rd_kv_row(kv, "Candidate", "side-candidate"), RD_PLAIN, "%s: %s (%s)",
                 rk_str(cs, "label", "?"), rk_str(cs, "source", "?"), rk_str(cs, "format", "?"));
        rd_textf(rd_kv_row(kv, "Authority", "side-authority"), RD_PLAIN, "%s: %s",
                 rk_str(as, "label", "?"), rk_str(as, "source", "not recorded"));
    }
    if (rk_has(run, "emulated_calls"))
        rd_textf(rd_kv_row(kv, "Emulated calls", NULL), RD_PLAIN, "%llu",
                 (unsigned long long)rk_u64(run, "emulated_calls", 0));
}

void rs_view_run(const rs_ctx *c)
{
    rk run = rk_obj(c->root, "run");
    rd_node *sec = rs_open(c, NULL);
    rd_node *kv = rd_kv(rd_box(sec, NULL), NULL);
    kv_text(kv, "Run id", rk_str(run, "id", NULL));
    kv_text(kv, "Command", rk_str(run, "command", NULL));
    kv_text(kv, "Started", rk_str(run, "started", NULL));
    kv_text(kv, "Finished", rk_str(run, "finished", NULL));
    exe_rows(kv, rk_obj(run, "executable"));
    strbuf t;
    sb_init(&t);
    rv_engines_text(&t, c->report);
    rd_text(rd_kv_row(kv, "Engines", "engines"), RD_PLAIN, t.s ? t.s : "");
    sb_free(&t);
    kv = rd_kv(rd_box(sec, NULL), NULL);
    corpus_rows(kv, rk_obj(run, "corpus"));
    option_rows(kv, run);
}
