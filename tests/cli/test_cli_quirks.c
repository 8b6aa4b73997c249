/*
 * tests/cli/test_cli_quirks.c: the quirk pass as `ff8diff run` reports it
 * (docs/quirks.md): report.json "quirks" (valid against the schema), the
 * terminal's counts after the verdict, the Markdown and HTML sections, and
 * --no-quirks. The small synthetic preset must exercise every row a result
 * can show, and each row's first clip must show the two readings apart.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/quirks.h"
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

Test(quirks_cli, small_preset_exercises_every_observable_row, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *out = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run -q --no-cache --out '%s'", out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "Quirks exercised"), "%s", o.out);
    /* corpus stats and decode --summary on the same corpus (small, seed 1) count alike. */
    char *corpus = ts_corpus(scratch);
    ts_out st, sum;
    ts_cli(scratch, &st, "corpus stats '%s'", corpus);
    cr_assert_eq(st.status, 0, "%s", st.err);
    ts_sh(scratch, &sum, "'%s' decode --summary '%s'/c0m000.dat", ts_ff8diff(), corpus);
    cr_assert_eq(sum.status, 0, "%s", sum.err);
    cr_expect(strstr(sum.out, "quirks (clip x mode): "), "%s", sum.out);
    char *json = ts_run_file(out, "report.json");
    ts_assert_valid(scratch, json);
    cJSON *r = ts_json(json);
    const cJSON *qz = cJSON_GetObjectItem(r, "quirks");
    cr_assert(cJSON_IsObject(qz));
    cr_assert_eq(ts_num(qz, "clips_studied"), ts_num(r, "totals.comparisons"));
    const cJSON *clips = cJSON_GetObjectItem(qz, "clips"), *row;
    int rows = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(qz, "rows"))
    {
        rows++;
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "name"));
        int observable = cJSON_IsTrue(cJSON_GetObjectItem(row, "observable"));
        double n = ts_num(row, "clips");
        const cJSON *first = cJSON_GetObjectItem(row, "first");
        if (!observable) {
            cr_expect_eq(n, 0, "%s cannot show, yet bites", name);
            cr_expect(cJSON_IsNull(first), "%s", name);
            continue;
        }
        cr_expect(n > 0, "the small preset does not exercise %s", name);
        cr_assert(cJSON_IsObject(first), "%s", name);
        cr_expect_neq(ts_num(first, "engine"), ts_num(first, "plain"), "%s", name);
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(row, "where")), (int)n, "%s", name);
        /* Its first clip lists it, at the same tick. */
        int idx = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(cJSON_GetObjectItem(row, "where"), 0));
        const cJSON *c = cJSON_GetArrayItem(clips, idx), *q;
        cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c, "file")),
                         cJSON_GetStringValue(cJSON_GetObjectItem(first, "file")));
        int listed = 0;
        cJSON_ArrayForEach(q, cJSON_GetObjectItem(c, "quirks"))
            listed |= !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(q, "quirk")), name) &&
                      ts_num(q, "tick") == ts_num(first, "tick");
        cr_expect(listed, "%s: its first clip does not list it", name);
        /* The terminal says the same count for a quirk. */
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "kind")), "quirk")) {
            char want[64];
            snprintf(want, sizeof want, " %s %.0f", name, n);
            cr_expect(strstr(o.out, want), "terminal lacks '%s': %s", want, o.out);
            if (n > 0) {
                snprintf(want, sizeof want, "%s %.0f", name, n);
                cr_expect(strstr(st.out, want), "corpus stats lacks '%s': %s", want, st.out);
            }
        }
    }
    cr_assert(rows > 0);
    char *md = ts_run_file(out, "summary.md"), *html = ts_run_file(out, "index.html");
    char *mt = ts_read(md, NULL), *ht = ts_read(html, NULL);
    cr_expect(strstr(mt, "## Quirks"));
    cr_expect(strstr(ht, "id=\"quirks\""));
    free(mt);
    free(ht);
    free(md);
    free(html);
    cJSON_Delete(r);
    free(json);
    ts_out_free(&o);
    ts_out_free(&st);
    ts_out_free(&sum);
    free(corpus);

    char *off = ts_path(scratch, "off");
    ts_cli(scratch, &o, "run -q --no-cache --no-quirks --out '%s' --modes normal", off);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_expect(!strstr(o.out, "Quirks"), "%s", o.out);
    json = ts_run_file(off, "report.json");
    r = ts_json(json);
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(r, "quirks")));
    cJSON_Delete(r);
    free(json);
    free(off);
    ts_out_free(&o);
    free(out);
}

/*
 * Per observable row, a test decoder: the reference with that row switched
 * (`decode --switch`), written as Trace JSON Lines one file per model file
 * and mode, checked against golden traces of the small preset: every
 * mismatch is explained by that row, and by no other.
 */
Test(quirks_cli, each_switched_decoder_is_explained_by_its_row_alone, .init = setup,
     .fini = cleanup, .timeout = 600)
{
    ts_out o;
    char *golden = ts_path(scratch, "golden"), *corpus = ts_corpus(scratch);
    ts_cli(scratch, &o, "record -q --out '%s' --corpus '%s'", golden, corpus);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    static const char split[] =
        "import json,sys,os\n"
        "out=sys.argv[1]; os.makedirs(out,exist_ok=True); fs={}\n"
        "for l in sys.stdin:\n"
        "  j=json.loads(l); k=(j['file'],j['mode'])\n"
        "  if k not in fs: fs[k]=open(os.path.join(out,'%s.%s.jsonl'%k),'w')\n"
        "  fs[k].write(l)\n";
    char *script = ts_path(scratch, "split.py");
    FILE *f = fopen(script, "w");
    cr_assert(f);
    fputs(split, f);
    fclose(f);
    int rows = 0;
    for (unsigned q = 0; q < REF_Q__COUNT; q++) {
        const ref_quirk_def *d = ref_quirk_def_of((ref_quirk)q);
        if (!d->observable) continue;
        rows++;
        char mine[64], rep[64];
        snprintf(mine, sizeof mine, "mine-%s", d->name);
        snprintf(rep, sizeof rep, "rep-%s", d->name);
        char *md = ts_path(scratch, mine), *rd = ts_path(scratch, rep);
        ts_sh(scratch, &o, "'%s' decode '%s'/*.dat --mode all --switch %s 2>/dev/null | %s '%s' '%s'",
              ts_ff8diff(), corpus, d->name, ts_python(), script, md);
        cr_assert_eq(o.status, 0, "%s: %s", d->name, o.err);
        ts_out_free(&o);
        ts_cli(scratch, &o, "check -q --traces '%s' --against '%s' --out '%s'", golden, md, rd);
        cr_assert_eq(o.status, 1, "%s: %s%s", d->name, o.out, o.err);
        cr_expect(strstr(o.out, d->plain), "%s: the terminal does not name the cause: %s", d->name,
                  o.out);
        ts_out_free(&o);
        char *mdf = ts_run_file(rd, "summary.md"), *mdt = ts_read(mdf, NULL), line[512];
        snprintf(line, sizeof line, "**Cause**: your decoder %s", d->plain);
        cr_expect(strstr(mdt, line), "%s: summary.md lacks its cause", d->name);
        free(mdt);
        free(mdf);
        cJSON *r = ts_report(rd);
        double mism = ts_num(r, "totals.mismatch");
        cr_assert(mism > 0, "%s: no mismatch", d->name);
        const cJSON *row;
        cJSON_ArrayForEach(row, cJSON_GetObjectItem(cJSON_GetObjectItem(r, "quirks"), "rows"))
        {
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "name"));
            double n = ts_num(row, "explains");
            if (!strcmp(name, d->name))
                cr_expect_eq(n, mism, "%s explains %.0f of %.0f mismatches", name, n, mism);
            else
                cr_expect_eq(n, 0, "the decoder switching %s is also explained by %s (%.0f)",
                             d->name, name, n);
        }
        cJSON_Delete(r);
        free(md);
        free(rd);
    }
    cr_assert(rows > 0);
    free(script);
    free(corpus);
    free(golden);
}
