/*
 * tests/cli/test_cli_verdict.c: real runs driven to each verdict the
 * command line can reach (plain pass, plain fail, entity failures only,
 * leaf failures only, bad input only); the exit code, the terminal summary,
 * and report.json, index.html, summary.md and junit.xml must all say the
 * verdict report.json stores. (Interrupted runs: test_cli_run.c; clips not
 * run without a signal cannot be reached from the command line:
 * tests/harness/test_harness_verdict.c.)
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/ts.h"

static char *scratch;

static void setup(void)
{
    scratch = ts_tempdir();
}

static void cleanup(void)
{
    ts_rmtree(scratch);
}

typedef struct vrun {
    const char *name;
    const char *exe;  /* a stand-in variant, NULL: the stand-in */
    const char *args; /* after run -q --out DIR */
    int mixed_corpus; /* a corpus with one file cut short */
    const char *label, *result, *reason;
    int exit_code;
} vrun;

static const vrun runs[] = {
    {"plain pass", NULL, "--modes normal", 0, "PASS", "pass", "all_match", 0},
    {"plain fail", "standin_mut_b.exe", "--modes slow", 0, "FAIL", "fail", "differences", 1},
    {"entity failures only", "standin_mut_j.exe", "--modes normal --levels frame,entity", 0,
     "FAIL", "fail", "differences", 1},
    {"leaf failures only", "standin_mut_a.exe", "--levels leaf", 0, "FAIL", "fail", "differences",
     1},
    {"bad input only", NULL, "--modes normal", 1, "FAIL", "fail", "bad_input", 2},
};

/* The one file named name in the single report folder under out. */
static char *report_file(const char *out, const char *name)
{
    ts_out o;
    ts_sh(scratch, &o, "ls '%s'/*/%s", out, name);
    cr_assert_eq(o.status, 0, "no %s under %s", name, out);
    o.out[strcspn(o.out, "\n")] = '\0';
    char *text = ts_read(o.out, NULL);
    cr_assert(text, "cannot read %s", o.out);
    ts_out_free(&o);
    return text;
}

static char *mixed_corpus(void)
{
    char *corpus = ts_corpus(scratch), *src = ts_path(corpus, "c0m000.dat");
    char *dir = ts_path(scratch, "mixed");
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s' && cp '%s' '%s/' && head -c 100 '%s' > '%s/c0m900.dat'",
          dir, src, dir, src, dir);
    cr_assert_eq(o.status, 0);
    ts_out_free(&o);
    free(src);
    free(corpus);
    return dir;
}

static void drive(const vrun *v, size_t i)
{
    char sub[32], want[160];
    snprintf(sub, sizeof sub, "r%zu", i);
    char *out = ts_path(scratch, sub), *exe = NULL, *corpus = NULL, opts[600] = "";
    if (v->exe) {
        exe = ts_standin(v->exe);
        snprintf(opts, sizeof opts, "--exe '%s' --profile standin ", exe);
    }
    if (v->mixed_corpus) {
        corpus = mixed_corpus();
        snprintf(opts + strlen(opts), sizeof opts - strlen(opts), "--corpus '%s' ", corpus);
    }
    ts_out o;
    ts_cli(scratch, &o, "run -q %s--out '%s' %s", opts, out, v->args);
    cr_assert_eq(o.status, v->exit_code, "%s: exit %d: %s%s", v->name, o.status, o.out, o.err);
    snprintf(want, sizeof want, "%s: ", v->label);
    cr_assert(strncmp(o.out, want, strlen(want)) == 0, "%s: terminal summary: %s", v->name,
              o.out);
    ts_out_free(&o);

    cJSON *r = ts_report(out);
    const cJSON *vd = cJSON_GetObjectItem(r, "verdict");
    cr_assert_str_eq(cJSON_GetObjectItem(vd, "result")->valuestring, v->result, "%s", v->name);
    cr_assert_str_eq(cJSON_GetObjectItem(vd, "reason")->valuestring, v->reason, "%s", v->name);
    cJSON_Delete(r);
    char *html = report_file(out, "index.html"), *md = report_file(out, "summary.md");
    char *xml = report_file(out, "junit.xml");
    snprintf(want, sizeof want, "<span class=\"verdict %s\" id=\"verdict\">%s</span>", v->result,
             v->label);
    cr_assert(strstr(html, want), "%s: index.html lacks %s", v->name, want);
    snprintf(want, sizeof want, "**Result: %s**", v->label);
    cr_assert(strstr(md, want), "%s: summary.md lacks %s", v->name, want);
    snprintf(want, sizeof want, "<property name=\"verdict\" value=\"%s\"/>", v->label);
    cr_assert(strstr(xml, want), "%s: junit.xml lacks %s", v->name, want);
    free(xml);
    free(md);
    free(html);
    free(corpus);
    free(exe);
    free(out);
}

Test(verdict_cli, every_output_and_the_exit_code_agree, .init = setup, .fini = cleanup,
     .timeout = 600)
{
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) drive(&runs[i], i);
}
