/*
 * harness/report/report_md.c: summary.md, a Markdown summary rendered from the
 * report tree alone: run, totals, groups with their first divergence,
 * faults, bad input, files with problems, leaf routines. Strings from the
 * tree are escaped for Markdown (tables included: `|` and line breaks),
 * and HTML-significant characters become entities, so a file name can
 * neither break a table nor inject markup. Recomputes nothing.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/report/report_cells.h"
#include "harness/report/report_md_base.h"
#include "harness/report/report_md_entity.h"
#include "harness/report/report_causes.h"
#include "harness/report/report_quirks.h"
#include "harness/report/report_view.h"

#define MD_MAX_GROUPS 50
#define MD_MAX_FAULTS 20
#define MD_MAX_ROWS 100

static void md_list(strbuf *b, const cJSON *arr)
{
    const cJSON *e;
    int n = 0;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsString(e)) continue;
        if (n++) sb_puts(b, ", ");
        rm_text(b, e->valuestring);
    }
    if (!n) sb_puts(b, "none");
}

static void row(strbuf *b, const char *key, const char *val)
{
    sb_printf(b, "| %s | ", key);
    rm_text(b, val && *val ? val : "none");
    sb_puts(b, " |\n");
}

static void run_section(strbuf *b, const cJSON *report)
{
    const cJSON *run = rv_obj(report, "run");
    const cJSON *exe = rv_obj(run, "executable"), *c = rv_obj(run, "corpus");
    const cJSON *opt = rv_obj(run, "options");
    sb_puts(b, "## Run\n\n| | |\n|---|---|\n");
    row(b, "Command", rv_str(run, "command", NULL));
    row(b, "Started", rv_str(run, "started", NULL));
    row(b, "Finished", rv_str(run, "finished", NULL));
    row(b, "Executable", rv_str(exe, "path", NULL));
    row(b, "SHA-256", rv_str(exe, "sha256", NULL));
    row(b, "Profile", rv_str(exe, "profile", NULL));
    const cJSON *loc = rv_obj(exe, "profile_located");
    if (loc) {
        sb_puts(b, "| Located | by structure from profile ");
        rm_text(b, rv_str(loc, "from_profile", "?"));
        sb_puts(b, " in ");
        rm_text(b, rv_str(loc, "executable", "?"));
        sb_puts(b, " (patterns: ");
        rm_text(b, rv_str(loc, "patterns", "?"));
        sb_puts(b, ") |\n");
    }
    /* identify's word on the executable (known, unknown_build...), not the run's verdict. */
    row(b, "Build", rv_str(exe, "verdict", NULL));
    strbuf en;
    sb_init(&en);
    rv_engines_text(&en, report);
    row(b, "Engines", en.s);
    sb_free(&en);
    row(b, "Corpus", rv_str(c, "path", NULL));
    row(b, "Corpus kind", rv_str(c, "kind", NULL));
    sb_puts(b, "| Modes | ");
    md_list(b, rv_arr(run, "modes"));
    sb_puts(b, " |\n| Levels | ");
    md_list(b, rv_arr(run, "levels"));
    sb_puts(b, " |\n");
    const char *bm = rv_str(opt, "bone_matrices", "");
    row(b, "BuildBoneMatrices",
        strcmp(bm, "replaced_by_return") == 0 ? "replaced by a plain return"
        : strcmp(bm, "compared") == 0         ? "run after every decoding call and compared (pose level)"
        : strcmp(bm, "original") == 0         ? "original routine kept"
                                              : bm);
    sb_puts(b, "| Options | ");
    rv_options_text(b, run);
    sb_puts(b, " |\n");
    const cJSON *sides = rv_obj(run, "sides");
    const cJSON *cs = rv_obj(sides, "candidate"), *as = rv_obj(sides, "authority");
    if (sides) {
        sb_puts(b, "| Candidate | ");
        rm_text(b, rv_str(cs, "label", "?"));
        sb_puts(b, ": ");
        rm_text(b, rv_str(cs, "source", "?"));
        sb_puts(b, " (");
        rm_text(b, rv_str(cs, "format", "?"));
        sb_puts(b, ") |\n| Authority | ");
        rm_text(b, rv_str(as, "label", "?"));
        sb_puts(b, ": ");
        rm_text(b, rv_str(as, "source", "not recorded"));
        sb_puts(b, " |\n");
    }
    sb_puts(b, "\n");
}

static void totals_section(strbuf *b, const cJSON *report, const rv_index *ix)
{
    const cJSON *t = rv_obj(report, "totals"), *src = rv_obj(t, "sources");
    sb_puts(b, "## Totals\n\n|");
    for (int s = 0; s < RES__COUNT; s++) sb_printf(b, " %s |", res_status_label((res_status)s));
    sb_puts(b, "\n|");
    for (int s = 0; s < RES__COUNT; s++) sb_puts(b, "---:|");
    sb_puts(b, "\n|");
    for (int s = 0; s < RES__COUNT; s++)
        sb_printf(b, " %llu |",
                  (unsigned long long)rv_u64(t, res_status_name((res_status)s), ix->by_status[s]));
    sb_puts(b, "\n\n| files | bad files | clips | comparisons | groups | leaf calls | "
               "leaf mismatches | leaf faults |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    static const char *const keys[] = {"files",  "bad_files",  "clips",           "comparisons",
                                       "groups", "leaf_calls", "leaf_mismatches", "leaf_faults"};
    sb_puts(b, "|");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        sb_printf(b, " %llu |", (unsigned long long)rv_u64(t, keys[k], 0));
    sb_printf(b, "\n\n%s's side from:", rv_sides(report).Auth);
    for (int s = 1; s < RES_SRC__COUNT; s++)
        sb_printf(b, "%s %s %llu", s > 1 ? "," : "", res_source_name((res_source)s),
                  (unsigned long long)rv_u64(src, res_source_name((res_source)s), 0));
    sb_printf(b, "; cache entries rejected (emulated again): %llu.\n\n",
              (unsigned long long)rv_u64(t, "cache_rejected", 0));
    if (rv_u64(t, "x87_precision", 0))
        sb_printf(b,
                  "**x87 precision (emulated)**: %llu of the mismatches are pose values off by "
                  "one within 2^-20 of a rounding boundary, where Unicorn's fsin may round apart "
                  "from real hardware (group shape `x87_precision`).\n\n",
                  (unsigned long long)rv_u64(t, "x87_precision", 0));
}

static void group_item(strbuf *b, const cJSON *g, const rv_index *ix, const rv_entities *x,
                       rv_labels l)
{
    const cJSON *ex = rv_obj(g, "example");
    sb_printf(b, "### Group %lld: ", (long long)rv_int(g, "id", -1));
    rm_code(b, rv_str(g, "field", "?"));
    sb_puts(b, ", ");
    rm_text(b, rv_str(g, "level", "?"));
    sb_puts(b, ", ");
    rm_text(b, rv_str(g, "mode", "?"));
    sb_puts(b, ", ");
    rm_text(b, rv_str(g, "shape", "?"));
    sb_printf(b, " (%llu)", (unsigned long long)rv_u64(g, "count", 0));
    if (rv_has_num(g, "cause")) sb_printf(b, ", cause %lld", (long long)rv_int(g, "cause", -1));
    sb_puts(b, "\n\n");
    if (strcmp(rv_str(g, "level", ""), "leaf") == 0) {
        sb_puts(b, "- Routine ");
        rm_text(b, rv_str(ex, "routine", "?"));
        sb_printf(b, ", first mismatching case %llu\n\n",
                  (unsigned long long)rv_u64(ex, "case", 0));
        return;
    }
    if (strcmp(rv_str(g, "level", ""), "entity") == 0) {
        rm_entity_group(b, g, x, l);
        return;
    }
    sb_puts(b, "- First divergence: file ");
    rm_text(b, rv_str(ex, "file", "?"));
    sb_printf(b, ", clip %lld, mode ", (long long)rv_int(ex, "clip", -1));
    rm_text(b, rv_str(ex, "mode", "?"));
    sb_printf(b, ", tick %lld, field ", (long long)rv_int(ex, "tick", -1));
    rm_code(b, rv_str(ex, "field", "?"));
    sb_printf(b, ": %s %lld, %s %lld\n", l.cand, (long long)rv_int(ex, "ref", 0), l.auth,
              (long long)rv_int(ex, "orig", 0));
    rm_stream_lines(b, rv_obj(rv_result(ix, rv_int(ex, "result", -1)), "divergence"));
    const cJSON *w = rv_obj(g, "writer");
    if (w && rv_str(w, "eip", NULL)) {
        sb_puts(b, "- Original writer: ");
        rm_code(b, rv_str(w, "eip", "?"));
        sb_puts(b, " ");
        rm_code(b, rv_str(w, "instruction", "?"));
        sb_puts(b, " in ");
        rm_text(b, rv_str(w, "routine", "?"));
        char off[48];
        sb_printf(b, "%s\n", rv_offset_text(w, off, sizeof off));
    } else if (w && rv_str(w, "note", "")[0]) {
        sb_puts(b, "- Original writer: ");
        rm_text(b, rv_str(w, "note", ""));
        sb_putc(b, '\n');
    }
    sb_putc(b, '\n');
}

static void groups_section(strbuf *b, const cJSON *report, const rv_index *ix,
                           const rv_entities *x)
{
    const cJSON *arr = rv_arr(report, "groups"), *g;
    size_t n = rv_len(arr), shown = 0;
    sb_printf(b, "## Groups (%zu)\n\n", n);
    if (!n) sb_puts(b, "No mismatches.\n\n");
    cJSON_ArrayForEach(g, arr)
    {
        if (shown++ == MD_MAX_GROUPS) {
            sb_printf(b, "%zu more groups are in report.json.\n\n", n - MD_MAX_GROUPS);
            break;
        }
        group_item(b, g, ix, x, rv_sides(report));
    }
}

static void fault_item(strbuf *b, const cJSON *f, const char *who, const char *where)
{
    const cJSON *imp = rv_obj(f, "import"), *e;
    sb_puts(b, "**");
    rm_text(b, who);
    sb_puts(b, "** ");
    rm_text(b, where);
    sb_puts(b, ": ");
    rm_text(b, rv_str(f, "message", "?"));
    sb_puts(b, " (");
    rm_text(b, rv_str(f, "kind", "?"));
    sb_puts(b, ") at EIP ");
    rm_code(b, rv_str(f, "eip", "?"));
    sb_puts(b, ", address ");
    rm_code(b, rv_str(f, "address", "?"));
    if (imp) {
        sb_puts(b, ", import ");
        rm_code(b, rv_str(imp, "dll", "?"));
        sb_puts(b, " ");
        rm_code(b, rv_str(imp, "name", "?"));
    }
    sb_puts(b, "\n\n~~~\n");
    cJSON_ArrayForEach(e, rv_arr(f, "disassembly"))
    {
        if (cJSON_IsString(e)) rm_pre_line(b, e->valuestring);
    }
    sb_puts(b, "~~~\n\n");
}

static void faults_section(strbuf *b, const cJSON *report, const rv_index *ix)
{
    size_t n = 0;
    const cJSON *l;
    sb_puts(b, "## Faults\n\n");
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i], *f = rv_obj(r, "fault");
        if (!f || n++ >= MD_MAX_FAULTS) continue;
        char where[96];
        snprintf(where, sizeof where, "clip %lld, %.60s", (long long)rv_int(r, "clip", -1),
                 rv_str(r, "mode", "?"));
        fault_item(b, f, rv_str(r, "file", "?"), where);
    }
    cJSON_ArrayForEach(l, rv_arr(report, "leaf"))
    {
        const cJSON *f = rv_obj(l, "fault");
        if (f && n++ < MD_MAX_FAULTS) fault_item(b, f, rv_str(l, "routine", "?"), "leaf level");
    }
    if (!n)
        sb_puts(b, "None.\n\n");
    else if (n > MD_MAX_FAULTS)
        sb_printf(b, "%zu more faults are in report.json.\n\n", n - MD_MAX_FAULTS);
}

static void bad_section(strbuf *b, const rv_index *ix)
{
    size_t n = 0;
    sb_puts(b, "## Bad input\n\n");
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i], *err = rv_obj(r, "error");
        if (rv_status(rv_str(r, "status", NULL)) != RES_BAD_INPUT) continue;
        if (n++ >= MD_MAX_ROWS) continue;
        if (n == 1) sb_puts(b, "| File | Clip | Mode | Kind | Error |\n|---|---:|---|---|---|\n");
        sb_puts(b, "| ");
        rm_text(b, rv_str(r, "file", "?"));
        int64_t clip = rv_int(r, "clip", -1);
        if (clip >= 0)
            sb_printf(b, " | %lld | ", (long long)clip);
        else
            sb_puts(b, " | file | ");
        rm_text(b, rv_str(r, "mode", "?"));
        sb_puts(b, " | ");
        rm_text(b, rv_str(err, "kind", "?"));
        sb_puts(b, " | ");
        rm_text(b, rv_str(err, "message", "?"));
        sb_puts(b, " |\n");
    }
    if (!n)
        sb_puts(b, "None.\n");
    else if (n > MD_MAX_ROWS)
        sb_printf(b, "\n%zu more are in report.json.\n", n - MD_MAX_ROWS);
    sb_putc(b, '\n');
}

/* Clips the candidate did not decode, with how far it got and what its decoder said. */
static void not_decoded_section(strbuf *b, const rv_index *ix)
{
    size_t n = 0;
    for (size_t i = 0; i < ix->nresults; i++) {
        const cJSON *r = ix->results[i];
        int s = rv_status(rv_str(r, "status", NULL));
        if (s != RES_NOT_DECODED && !(s == RES_MATCH && rv_str(r, "decoder_error", NULL)))
            continue;
        if (n++ >= MD_MAX_ROWS) continue;
        if (n == 1)
            sb_puts(b, "## Not decoded\n\n| File | Clip | Mode | Status | How far |\n"
                       "|---|---:|---|---|---|\n");
        sb_puts(b, "| ");
        rm_text(b, rv_str(r, "file", "?"));
        sb_printf(b, " | %lld | ", (long long)rv_int(r, "clip", -1));
        rm_text(b, rv_str(r, "mode", "?"));
        sb_printf(b, " | %s | ", rv_status_label(s));
        strbuf t;
        sb_init(&t);
        report_not_decoded_text(&t, r);
        rm_text(b, t.s ? t.s : "");
        sb_free(&t);
        sb_puts(b, " |\n");
    }
    if (n > MD_MAX_ROWS) sb_printf(b, "\n%zu more are in report.json.\n", n - MD_MAX_ROWS);
    if (n) sb_putc(b, '\n');
}

static void files_section(strbuf *b, const rv_index *ix)
{
    size_t n = 0;
    sb_puts(b, "## Files with problems\n\n");
    for (size_t i = 0; i < ix->nfiles; i++) {
        const rv_file *f = &ix->files[i];
        for (int m = 0; m < MODE__COUNT; m++) {
            if (!res_status_sum(f->n[m], RES_SHARE_DIFF) && !res_status_sum(f->n[m], RES_SHARE_BAD))
                continue;
            if (n++ >= MD_MAX_ROWS) continue;
            if (n == 1) {
                sb_puts(b, "| File | Mode |");
                for (int s = 0; s < RES__COUNT; s++)
                    sb_printf(b, " %s |", rv_status_label(s));
                sb_puts(b, "\n|---|---|");
                for (int s = 0; s < RES__COUNT; s++) sb_puts(b, "---:|");
                sb_putc(b, '\n');
            }
            sb_puts(b, "| ");
            rm_text(b, f->name);
            sb_printf(b, " | %s |", mode_name((mode_id)m));
            for (int s = 0; s < RES__COUNT; s++)
                sb_printf(b, " %llu |", (unsigned long long)f->n[m][s]);
            sb_putc(b, '\n');
        }
    }
    if (!n)
        sb_puts(b, "None.\n");
    else if (n > MD_MAX_ROWS)
        sb_printf(b, "\n%zu more rows are in report.json.\n", n - MD_MAX_ROWS);
    sb_putc(b, '\n');
}

static void leaf_section(strbuf *b, const cJSON *report)
{
    const cJSON *arr = rv_arr(report, "leaf"), *l;
    if (!rv_len(arr)) return;
    sb_puts(b, "## Leaf routines\n\n| Routine | Calls | Mismatches | Faults | First mismatch |\n"
               "|---|---:|---:|---:|---|\n");
    cJSON_ArrayForEach(l, arr)
    {
        const cJSON *m = rv_obj(l, "first_mismatch");
        sb_puts(b, "| ");
        rm_text(b, rv_str(l, "routine", "?"));
        sb_printf(b, " | %llu | %llu | %llu | ", (unsigned long long)rv_u64(l, "calls", 0),
                  (unsigned long long)rv_u64(l, "mismatches", 0),
                  (unsigned long long)rv_u64(l, "faults", 0));
        if (m) {
            const cJSON *r = rv_obj(m, "ref"), *o = rv_obj(m, "orig");
            sb_printf(b, "case %llu, bytes ", (unsigned long long)rv_u64(m, "case", 0));
            rm_code(b, rv_str(m, "bytes", "?"));
            sb_printf(b, " bit %lld n %lld: ax %lld vs %lld, cursor %lld.%lld vs %lld.%lld",
                      (long long)rv_int(m, "bit", 0), (long long)rv_int(m, "n", 0),
                      (long long)rv_int(r, "ax", 0), (long long)rv_int(o, "ax", 0),
                      (long long)rv_int(r, "byte", 0), (long long)rv_int(r, "bit", 0),
                      (long long)rv_int(o, "byte", 0), (long long)rv_int(o, "bit", 0));
        } else {
            sb_puts(b, "none");
        }
        sb_puts(b, " |\n");
    }
    sb_putc(b, '\n');
}

int report_render_markdown(const cJSON *report, strbuf *out)
{
    rv_index ix;
    rv_entities ents;
    if (rv_index_build(report, &ix) < 0) return -1;
    if (rv_entities_build(report, &ents) < 0) {
        rv_index_free(&ix);
        return -1;
    }
    const cJSON *run = rv_obj(report, "run"), *t = rv_obj(report, "totals");
    uint64_t mis = rv_u64(t, "mismatch", ix.by_status[RES_MISMATCH]);
    uint64_t flt = rv_u64(t, "fault", ix.by_status[RES_FAULT]);
    uint64_t bad = rv_u64(t, "bad_input", ix.by_status[RES_BAD_INPUT]);
    uint64_t nd = rv_u64(t, "not_decoded", ix.by_status[RES_NOT_DECODED]);
    uint64_t leaf = rv_u64(t, "leaf_mismatches", 0) + rv_u64(t, "leaf_faults", 0);
    run_totals totals;
    rv_totals(report, &totals);
    uint64_t ent = verdict_entity_failures(&totals);
    int interrupted = rv_bool(run, "interrupted", 0);
    verdict v;
    rv_verdict(report, &v);
    sb_puts(out, "# ff8diff report ");
    rm_text(out, rv_str(run, "id", "(no id)"));
    sb_printf(out,
              "\n\n**Result: %s**: %llu mismatches, %llu faults, %llu not decoded, %llu bad "
              "inputs, %llu leaf mismatches or faults",
              verdict_label(v), (unsigned long long)mis, (unsigned long long)flt,
              (unsigned long long)nd, (unsigned long long)bad, (unsigned long long)leaf);
    if (rv_entity_level(report))
        sb_printf(out, ", %llu entity mismatches, faults or bad inputs", (unsigned long long)ent);
    sb_puts(out, ".\n\n");
    if (interrupted) {
        const char *sig = rv_str(run, "interrupted_by", NULL);
        sb_puts(out, "> **Interrupted**");
        if (sig) {
            sb_puts(out, " by ");
            rm_text(out, sig);
        }
        sb_puts(out, ": the run was stopped early; comparisons not reached are counted as not "
                     "run.\n\n");
    }
    const cJSON *w;
    cJSON_ArrayForEach(w, rv_arr(run, "warnings"))
    {
        sb_puts(out, "> **Warning**: ");
        rm_text(out, cJSON_IsString(w) ? w->valuestring : "?");
        sb_puts(out, "\n\n");
    }
    const char *warn = rv_str(rv_obj(run, "executable"), "warning", "");
    if (*warn) {
        sb_puts(out, "> **Executable warning**: ");
        rm_text(out, warn);
        sb_puts(out, "\n\n");
    }
    if (rv_obj(rv_obj(run, "executable"), "profile_located")) {
        sb_puts(out, "> **Located profile**: the routine addresses of profile ");
        rm_text(out, rv_str(rv_obj(run, "executable"), "profile", "?"));
        sb_puts(out, " were found by structure (`ff8diff identify --locate`), not written by "
                     "hand.\n\n");
    }
    const cJSON *note;
    cJSON_ArrayForEach(note, rv_arr(run, "notes"))
    {
        if (!cJSON_IsString(note)) continue;
        sb_puts(out, "> **Note**: ");
        rm_text(out, note->valuestring);
        sb_puts(out, "\n\n");
    }
    if (strcmp(rv_str(rv_obj(run, "options"), "bone_matrices", ""), "replaced_by_return") == 0 &&
        strcmp(rv_sides(report).auth, "original") == 0)
        sb_puts(out, "> **BuildBoneMatrices replaced by a plain return** in the original.\n\n");
    md_causes(out, report);
    report_quirks_md(out, report);
    run_section(out, report);
    report_pose_md(out, report, rm_text);
    report_pose_leaf_md(out, report, rm_text);
    totals_section(out, report, &ix);
    report_fields_md(out, report, rm_text);
    sb_putc(out, '\n');
    md_coverage(out, report);
    groups_section(out, report, &ix, &ents);
    report_cells_md(out, report, &ix);
    rm_entities(out, report, &ents);
    faults_section(out, report, &ix);
    not_decoded_section(out, &ix);
    bad_section(out, &ix);
    files_section(out, &ix);
    leaf_section(out, report);
    sb_puts(out, "Rendered from report.json, schema ");
    rm_text(out, rv_str(report, "schema", "?"));
    sb_puts(out, ".\n");
    rv_index_free(&ix);
    rv_entities_free(&ents);
    return strbuf_failed(out) ? -1 : 0;
}
