/*
 * harness/report/report_pose.c: the pose level's part of a report: the
 * convention (how it was decided, what decided each choice, the width
 * sites and where the comparison decided each, every candidate the search
 * tried, the choice, the closest miss) into report.json as "pose", and its
 * "Pose convention" section in HTML and Markdown, rendered from
 * report.json only.
 */
#include <stdio.h>
#include <string.h>

#include "harness/report/report.h"
#include "harness/report/report_html.h"
#include "harness/report/report_view.h"

/* Each choice: its value in the chosen text, and what decided it. */
static cJSON *decisions_json(const pose_conv *p)
{
    cJSON *arr = cJSON_CreateArray();
    ref_pose_opts o;
    ff_error e;
    if (ref_pose_opts_parse(p->chosen, &o, &e) < 0) ref_pose_opts_default(&o);
    for (unsigned k = 0; arr && k < REF_POSE_KEY__COUNT; k++) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, d);
        cJSON_AddStringToObject(d, "key", ref_pose_key_name((ref_pose_key)k));
        cJSON_AddStringToObject(d, "shows", ref_pose_shows_name(ref_pose_key_shows((ref_pose_key)k)));
        cJSON_AddStringToObject(d, "value",
                                ref_pose_value_name((ref_pose_key)k,
                                                    ref_pose_opts_get(&o, (ref_pose_key)k)));
        cJSON_AddStringToObject(d, "basis", pose_basis_name(p->keys[k].basis));
        cJSON_AddItemToObject(d, "note", json_string(p->keys[k].note));
    }
    return arr;
}

/* An object named name in o locating a state: file, clip, mode, tick, field. */
static cJSON *place_json(cJSON *o, const char *name, const char *file, int32_t clip, mode_id mode,
                         int32_t tick, const char *field)
{
    cJSON *m = cJSON_AddObjectToObject(o, name);
    cJSON_AddItemToObject(m, "file", json_string(file));
    cJSON_AddNumberToObject(m, "clip", clip);
    cJSON_AddStringToObject(m, "mode", mode_name(mode));
    cJSON_AddNumberToObject(m, "tick", tick);
    cJSON_AddStringToObject(m, "field", field);
    return m;
}

/* One width site as the comparison saw it. */
static cJSON *width_site_json(const pose_conv *p, ref_pose_key k)
{
    pose_basis b = p->keys[k].basis;
    cJSON *w = cJSON_CreateObject();
    cJSON_AddStringToObject(w, "key", ref_pose_key_name(k));
    cJSON_AddNumberToObject(w, "clips", (double)p->width_clips[k]);
    cJSON_AddNumberToObject(w, "agreed", (double)p->width_agreed[k]);
    cJSON_AddNumberToObject(w, "contradicted", (double)p->width_contradicted[k]);
    cJSON_AddNumberToObject(w, "neither", (double)p->width_neither[k]);
    if (b != POSE_BASIS_COMPARISON) {
        cJSON_AddNullToObject(w, "decided_at");
        return w;
    }
    const pose_width_at *at = &p->width_at[k];
    cJSON *a = place_json(w, "decided_at", at->file, at->clip, at->mode, at->tick, at->field);
    cJSON_AddNumberToObject(a, "ref_32", at->ref32);
    cJSON_AddNumberToObject(a, "ref_64", at->ref64);
    cJSON_AddNumberToObject(a, "orig", at->orig);
    return w;
}

/* The width sites the search left to the comparison, one entry each (none: []). */
static cJSON *widths_json(const pose_conv *p)
{
    cJSON *arr = cJSON_CreateArray();
    for (unsigned k = 0; arr && k < REF_POSE_KEY__COUNT; k++)
        if (p->source == POSE_CONV_SEARCH && p->width_open[k])
            cJSON_AddItemToArray(arr, width_site_json(p, (ref_pose_key)k));
    return arr;
}

cJSON *report_pose_json(const pose_conv *p)
{
    if (p->source == POSE_CONV_NONE) return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "source", pose_conv_source_name(p->source));
    cJSON_AddStringToObject(o, "chosen", p->chosen);
    cJSON_AddNumberToObject(o, "states_emulated", (double)p->states_emulated);
    cJSON_AddNumberToObject(o, "states_replayed", (double)p->states_replayed);
    cJSON_AddItemToObject(o, "decisions", decisions_json(p));
    cJSON_AddItemToObject(o, "widths", widths_json(p));
    if (p->source != POSE_CONV_SEARCH) return o;
    cJSON *s = cJSON_AddObjectToObject(o, "search");
    cJSON_AddNumberToObject(s, "states", (double)p->states);
    cJSON_AddNumberToObject(s, "scale_states", (double)p->scale_states);
    cJSON_AddNumberToObject(s, "extreme_states", (double)p->extreme_states);
    cJSON_AddNumberToObject(s, "width_states", (double)p->width_states);
    cJSON_AddNumberToObject(s, "faulted", (double)p->faulted);
    cJSON_AddNumberToObject(s, "overrun_states", (double)p->overrun_states);
    cJSON_AddBoolToObject(s, "all_match", p->all_match);
    cJSON_AddNumberToObject(s, "seconds", p->seconds);
    cJSON_AddItemToObject(s, "note", json_string(p->note));
    if (p->all_match) {
        cJSON_AddNullToObject(s, "first_miss");
    } else {
        cJSON *m = place_json(s, "first_miss", p->first_file, p->first_clip, p->first_mode,
                              p->first_tick, p->first_field);
        cJSON_AddNumberToObject(m, "ref", p->first_ref);
        cJSON_AddNumberToObject(m, "orig", p->first_orig);
    }
    cJSON *cands = cJSON_AddArrayToObject(s, "candidates");
    for (unsigned i = 0; i < p->ncand; i++) {
        const pose_candidate *c = &p->cand[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "options", c->opts);
        cJSON_AddStringToObject(e, "stage", c->stage);
        cJSON_AddNumberToObject(e, "frames", (double)c->frames);
        cJSON_AddNumberToObject(e, "frames_total", (double)c->frames_total);
        cJSON_AddNumberToObject(e, "values", (double)c->values);
        cJSON_AddNumberToObject(e, "values_total", (double)c->values_total);
        cJSON_AddItemToArray(cands, e);
    }
    return o;
}

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

/* The markup of one format for the decisions and the width's place. */
typedef struct markup {
    const char *open, *item, *code, *uncode, *end_item, *close, *para, *end_para;
    void (*text)(strbuf *, const char *);
    void (*code_text)(strbuf *, const char *); /* inside code: Markdown escapes nothing */
} markup;

/* Where the comparison decided one width site, and its counts. */
static void width_site_out(strbuf *b, const cJSON *w, const markup *mk)
{
    const cJSON *at = rv_obj(w, "decided_at");
    const char *key = rv_str(w, "key", "?");
    if (!rv_u64(w, "clips", 0)) return;
    sb_puts(b, mk->para);
    if (at) {
        sb_puts(b, "The width at ");
        sb_puts(b, mk->code);
        mk->code_text(b, key);
        sb_puts(b, mk->uncode);
        sb_puts(b, " was decided by the comparison at ");
        mk->text(b, rv_str(at, "file", "?"));
        sb_printf(b, " clip %lld (%s) after call %lld: ", (long long)rv_int(at, "clip", -1),
                  rv_str(at, "mode", "?"), (long long)rv_int(at, "tick", -1));
        sb_puts(b, mk->code);
        mk->code_text(b, rv_str(at, "field", "?"));
        sb_puts(b, mk->uncode);
        sb_printf(b, " is %lld in 32 bits, %lld in 64 bits, %lld in the original. ",
                  (long long)rv_int(at, "ref_32", 0), (long long)rv_int(at, "ref_64", 0),
                  (long long)rv_int(at, "orig", 0));
    }
    sb_printf(b, "%llu compared clips tell 32-bit from 64-bit apart at ",
              (unsigned long long)rv_u64(w, "clips", 0));
    sb_puts(b, mk->code);
    mk->code_text(b, key);
    sb_puts(b, mk->uncode);
    sb_printf(b,
              ": %llu agree with the width taken, %llu contradict it (mismatches), %llu (met "
              "before a width was taken) agree with neither.",
              (unsigned long long)rv_u64(w, "agreed", 0),
              (unsigned long long)rv_u64(w, "contradicted", 0),
              (unsigned long long)rv_u64(w, "neither", 0));
    sb_puts(b, mk->end_para);
}

/* What decided each choice, then where the comparison decided each width site. */
static void decisions_out(strbuf *b, const cJSON *p, const markup *mk)
{
    const cJSON *d, *w;
    sb_puts(b, mk->open);
    cJSON_ArrayForEach(d, rv_arr(p, "decisions"))
    {
        sb_puts(b, mk->item);
        sb_puts(b, mk->code);
        mk->code_text(b, rv_str(d, "key", "?"));
        sb_puts(b, "=");
        mk->code_text(b, rv_str(d, "value", "?"));
        sb_puts(b, mk->uncode);
        sb_puts(b, ": ");
        mk->text(b, basis_sentence(rv_str(d, "basis", "?")));
        const char *note = rv_str(d, "note", "");
        if (*note) {
            sb_puts(b, " (");
            mk->text(b, note);
            sb_puts(b, ")");
        }
        sb_puts(b, mk->end_item);
    }
    sb_puts(b, mk->close);
    cJSON_ArrayForEach(w, rv_arr(p, "widths")) width_site_out(b, w, mk);
}

void report_pose_html(strbuf *b, const cJSON *report)
{
    const cJSON *p = rv_obj(rv_obj(report, "run"), "pose"), *s = rv_obj(p, "search");
    if (!p) return;
    sb_puts(b, "<section id=\"pose\"><h2>Pose convention</h2>\n<p>The reference's convention: "
               "<code id=\"pose-chosen\">");
    rh_text(b, rv_str(p, "chosen", "?"));
    sb_puts(b, "</code>, ");
    rh_text(b, source_sentence(rv_str(p, "source", "?")));
    sb_printf(b,
              ". The original's poses: %llu emulated, %llu replayed from memory (an input "
              "seen before).</p>\n",
              (unsigned long long)rv_u64(p, "states_emulated", 0),
              (unsigned long long)rv_u64(p, "states_replayed", 0));
    static const markup html = {"<ul id=\"pose-decisions\">\n", "<li>", "<code>", "</code>",
                                "</li>\n", "</ul>\n", "<p id=\"pose-width\">", "</p>\n",
                                rh_text, rh_text};
    decisions_out(b, p, &html);
    if (!s) {
        sb_puts(b, "</section>\n");
        return;
    }
    sb_printf(b,
              "<p class=\"muted\">%llu sampled states (%llu on the scale path, %llu left out: "
              "the original faulted; %llu left out: past the engine's 80-slot arrays) and %llu "
              "with the largest translation or scale of their file and mode; %llu of them tell 32-bit from 64-bit apart at a width site; %.2f s. ",
              (unsigned long long)rv_u64(s, "states", 0),
              (unsigned long long)rv_u64(s, "scale_states", 0),
              (unsigned long long)rv_u64(s, "faulted", 0),
              (unsigned long long)rv_u64(s, "overrun_states", 0),
              (unsigned long long)rv_u64(s, "extreme_states", 0),
              (unsigned long long)rv_u64(s, "width_states", 0), rv_num(s, "seconds", 0));
    if (rv_bool(s, "all_match", 0)) sb_puts(b, "The choice matches every sampled state.");
    rh_text(b, rv_str(s, "note", ""));
    sb_puts(b, "</p>\n");
    const cJSON *m = rv_obj(s, "first_miss");
    if (m) {
        sb_puts(b, "<div class=\"banner warn\" id=\"pose-miss\">No candidate matches every "
                   "sampled state; the closest misses ");
        rh_text(b, rv_str(m, "file", "?"));
        sb_printf(b, " clip %lld (%s) after call %lld at <code>", (long long)rv_int(m, "clip", -1),
                  rv_str(m, "mode", "?"), (long long)rv_int(m, "tick", -1));
        rh_text(b, rv_str(m, "field", "?"));
        sb_printf(b, "</code>: reference %lld, original %lld.</div>\n",
                  (long long)rv_int(m, "ref", 0), (long long)rv_int(m, "orig", 0));
    }
    sb_puts(b, "<table class=\"data\" id=\"pose-candidates\"><tr><th>stage</th><th>candidate"
               "</th><th>states matched</th><th>values matched</th></tr>\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, rv_arr(s, "candidates"))
    {
        const char *opts = rv_str(c, "options", "?");
        int chosen = strcmp(opts, rv_str(p, "chosen", "")) == 0 &&
                     strcmp(rv_str(c, "stage", ""), "final") == 0;
        sb_printf(b, "<tr%s><td>", chosen ? " class=\"chosen\"" : "");
        rh_text(b, rv_str(c, "stage", "?"));
        sb_puts(b, "</td><td><code>");
        rh_text(b, opts);
        sb_printf(b, "</code></td><td>%llu / %llu</td><td>%llu / %llu</td></tr>\n",
                  (unsigned long long)rv_u64(c, "frames", 0),
                  (unsigned long long)rv_u64(c, "frames_total", 0),
                  (unsigned long long)rv_u64(c, "values", 0),
                  (unsigned long long)rv_u64(c, "values_total", 0));
    }
    sb_puts(b, "</table>\n</section>\n");
}

void report_pose_md(strbuf *b, const cJSON *report, void (*md)(strbuf *, const char *))
{
    const cJSON *p = rv_obj(rv_obj(report, "run"), "pose"), *s = rv_obj(p, "search");
    if (!p) return;
    sb_puts(b, "## Pose convention\n\nThe reference's convention: `");
    md(b, rv_str(p, "chosen", "?"));
    sb_printf(b, "`, %s. The original's poses: %llu emulated, %llu replayed from memory.\n\n",
              source_sentence(rv_str(p, "source", "?")),
              (unsigned long long)rv_u64(p, "states_emulated", 0),
              (unsigned long long)rv_u64(p, "states_replayed", 0));
    const markup text = {"", "- ", "`", "`", "\n", "\n", "", "\n\n", md, sb_puts};
    decisions_out(b, p, &text);
    if (!s) return;
    sb_printf(b,
              "%llu sampled states (%llu on the scale path, %llu faulted) and %llu with the "
              "largest translation or scale of their file and mode; %llu of them tell 32-bit "
              "from 64-bit apart at a width site. ",
              (unsigned long long)rv_u64(s, "states", 0),
              (unsigned long long)rv_u64(s, "scale_states", 0),
              (unsigned long long)rv_u64(s, "faulted", 0),
              (unsigned long long)rv_u64(s, "extreme_states", 0),
              (unsigned long long)rv_u64(s, "width_states", 0));
    if (rv_bool(s, "all_match", 0)) sb_puts(b, "The choice matches every sampled state. ");
    md(b, rv_str(s, "note", ""));
    const cJSON *m = rv_obj(s, "first_miss");
    if (m) {
        sb_puts(b, "\n\n**No candidate matches every sampled state**; the closest misses ");
        md(b, rv_str(m, "file", "?"));
        sb_printf(b, " clip %lld (%s) after call %lld at `%s`: reference %lld, original %lld.",
                  (long long)rv_int(m, "clip", -1), rv_str(m, "mode", "?"),
                  (long long)rv_int(m, "tick", -1), rv_str(m, "field", "?"),
                  (long long)rv_int(m, "ref", 0), (long long)rv_int(m, "orig", 0));
    }
    sb_puts(b,
            "\n\n| stage | candidate | states matched | values matched |\n|---|---|---:|---:|\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, rv_arr(s, "candidates"))
    {
        sb_printf(b, "| %s | `", rv_str(c, "stage", "?"));
        md(b, rv_str(c, "options", "?"));
        sb_printf(b, "` | %llu / %llu | %llu / %llu |\n",
                  (unsigned long long)rv_u64(c, "frames", 0),
                  (unsigned long long)rv_u64(c, "frames_total", 0),
                  (unsigned long long)rv_u64(c, "values", 0),
                  (unsigned long long)rv_u64(c, "values_total", 0));
    }
    sb_puts(b, "\n");
}

cJSON *report_pose_leaf_json(const run_results *r)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < r->npose_leaf; i++) {
        const pose_leaf_result *h = &r->pose_leaf[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        cJSON_AddStringToObject(o, "role", h->role);
        cJSON_AddItemToObject(o, "routine", h->routine[0] ? json_string(h->routine)
                                                          : cJSON_CreateNull());
        cJSON_AddStringToObject(o, "signature", h->signature);
        cJSON_AddBoolToObject(o, "ran", h->ran);
        cJSON_AddStringToObject(o, "note", h->note);
        cJSON_AddNumberToObject(o, "calls", (double)h->calls);
        cJSON_AddNumberToObject(o, "mismatches", (double)h->mismatches);
        cJSON_AddNumberToObject(o, "faults", (double)h->faults);
        cJSON_AddItemToObject(o, "first_mismatch",
                              h->first[0] ? json_string(h->first) : cJSON_CreateNull());
        cJSON_AddItemToObject(o, "first_fault", h->first_fault[0]
                                                    ? json_string(h->first_fault)
                                                    : cJSON_CreateNull());
        if (h->eng_calls) {
            /* --engine both: the cases on the second engine against the run's engine's. */
            cJSON *e = cJSON_AddObjectToObject(o, "engines");
            cJSON_AddNumberToObject(e, "calls", (double)h->eng_calls);
            cJSON_AddNumberToObject(e, res_eng_name(RES_ENG_X87), (double)h->eng_x87);
            cJSON_AddNumberToObject(e, res_eng_name(RES_ENG_DISAGREE), (double)h->eng_disagree);
            cJSON_AddItemToObject(e, "first_difference",
                                  h->eng_first[0] ? json_string(h->eng_first) : cJSON_CreateNull());
        }
        if (!h->trig) {
            cJSON_AddNullToObject(o, "trig");
            continue;
        }
        cJSON *t = cJSON_AddArrayToObject(o, "trig");
        for (unsigned k = 0; k < REF_TRIG__COUNT; k++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "option", ref_pose_value_name(REF_POSE_KEY_TRIG, k));
            cJSON_AddNumberToObject(e, "matched", (double)h->trig_matched[k]);
            cJSON_AddBoolToObject(e, "every_angle", h->trig_matched[k] == h->calls && h->calls);
            cJSON_AddItemToArray(t, e);
        }
    }
    return arr;
}
